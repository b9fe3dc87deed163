/* Health and metrics: GET /api/health (liveness and readiness in one
 * answer), GET /metrics, and the API's own description. */
#include <stdlib.h>
#include <string.h>

#include "api.h"

/* 503 when the database does not answer, so a load balancer takes the
 * instance out. */
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

/* GET /api/openapi.json: the API's own description (srv/openapi.json,
 * embedded at build time). */
extern const unsigned char wp_openapi_doc[];
extern const size_t wp_openapi_doc_len;

enum wp_err
wp_api_openapi(struct wp_ctx *ctx)
{
	free(ctx->res->body);
	ctx->res->body = malloc(wp_openapi_doc_len);
	if (!ctx->res->body)
		return wp_fail(ctx, WP_ERR_INTERNAL, "out of memory");
	memcpy(ctx->res->body, wp_openapi_doc, wp_openapi_doc_len);
	ctx->res->body_len = wp_openapi_doc_len;
	ctx->res->status = 200;
	wp_response_header(ctx->res, "Content-Type", "application/json");
	wp_response_header(ctx->res, "Cache-Control", "public, max-age=300");
	return WP_OK;
}

/* GET /metrics: the counters, Prometheus text format 0.0.4. */
enum wp_err
wp_api_metrics(struct wp_ctx *ctx)
{
	char buf[4096];
	size_t n = wp_metrics_text(buf, sizeof(buf));

	free(ctx->res->body);
	ctx->res->body = strdup(buf);
	ctx->res->body_len = n < sizeof(buf) ? n : strlen(buf);
	ctx->res->status = 200;
	wp_response_header(ctx->res, "Content-Type", "text/plain; version=0.0.4; charset=utf-8");
	return WP_OK;
}
