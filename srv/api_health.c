/* GET /api/health: liveness and readiness in one answer. 503 when the
 * database does not answer, so a load balancer takes the instance out. */
#include "core_priv.h"

enum wp_err
wp_api_health(struct wp_ctx *ctx)
{
	int up = wp_store_ping(ctx->store);
	json_object *o = json_object_new_object();

	json_object_object_add(o, "status", json_object_new_string(up ? "ok" : "degraded"));
	json_object_object_add(o, "database", json_object_new_string(up ? "up" : "down"));
	json_object_object_add(o, "version", json_object_new_string(WP_VERSION));
	return wp_reply_json(ctx, up ? 200 : 503, o);
}
