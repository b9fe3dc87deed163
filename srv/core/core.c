/* The request core: decode, route, check the body, call the handler,
 * map errors to problem+json, log. Every front calls wp_serve(). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core.h"
#include "ratelimit.h"

static struct wp_store *store;
static const char *metrics_token; /* the configuration outlives the core */

int
wp_core_init(const struct wp_config *cfg, struct wp_store *st)
{
	store = st;
	metrics_token = cfg->metrics_token;
	wp_rate_init(cfg);
	if (cfg->web_root && wp_static_init(cfg->web_root) != 0) {
		wp_log("web root %s cannot be opened; static files will be 404", cfg->web_root);
		return -1;
	}
	return 0;
}

void
wp_core_fini(void)
{
	wp_static_fini();
	wp_rate_fini();
	store = NULL;
	metrics_token = NULL;
}

/* METRICS_TOKEN, when set, as "Authorization: Bearer <token>" (RFC 6750,
 * 2.1), compared in constant time. */
static int
metrics_allowed(const struct wp_request *req)
{
	const char *h = wp_request_header(req, "Authorization");
	size_t n, i;
	unsigned char diff = 0;

	if (!metrics_token)
		return 1;
	if (!h || strncasecmp(h, "Bearer ", 7) != 0)
		return 0;
	h += 7;
	n = strlen(metrics_token);
	if (strlen(h) != n)
		return 0;
	for (i = 0; i < n; i++)
		diff |= (unsigned char)(h[i] ^ metrics_token[i]);
	return diff == 0;
}

enum wp_err
wp_reply_json(struct wp_ctx *ctx, int status, json_object *take_obj)
{
	const char *text = wp_json_text(take_obj, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	int rc = wp_response_json(ctx->res, status, text);

	json_object_put(take_obj);
	return rc == 0 ? WP_OK : WP_ERR_INTERNAL;
}

enum wp_err
wp_fail(struct wp_ctx *ctx, enum wp_err err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx->detail, sizeof(ctx->detail), fmt, ap);
	va_end(ap);
	return err;
}

void
wp_fail_extra(struct wp_ctx *ctx, const char *key, json_object *take_val)
{
	if (!ctx->extra)
		ctx->extra = json_object_new_object();
	json_object_object_add(ctx->extra, key, take_val);
}

static int
is_api_path(const char *path)
{
	return strncmp(path, "/api/", 5) == 0 || strcmp(path, "/api") == 0;
}

static enum wp_err
serve_api(struct wp_ctx *ctx, const char *path)
{
	struct wp_route_match m;
	const struct wp_request *req = ctx->req;
	enum wp_err err;

	const struct wp_route *routes;
	size_t nroutes;

	routes = wp_api_routes(&nroutes);
	err = wp_route_match(routes, nroutes, req->method, path, &m);
	if (err == WP_ERR_METHOD) {
		wp_response_header(ctx->res, "Allow", m.allow);
		return wp_fail(ctx, err, "%s is not allowed here; allowed: %s", req->method,
		               m.allow);
	}
	if (err != WP_OK)
		return wp_fail(ctx, err, "there is no resource at this path");
	ctx->match = &m;
	if (m.route->wants_body == WP_BODY_JSON ||
	    (m.route->wants_body == WP_BODY_OPTIONAL && req->body_len > 0)) {
		const char *ct = wp_request_header(req, "Content-Type");
		char why[160];
		if ((req->body_len > 0 || ct) && !wp_media_type_is(ct, "application/json"))
			return wp_fail(ctx, WP_ERR_MEDIA_TYPE,
			               "the body must be application/json");
		if (wp_json_parse(req->body, req->body_len, &ctx->body, why, sizeof(why)) != 0)
			return wp_fail(ctx, WP_ERR_MALFORMED_JSON, "%s", why);
		if (!json_object_is_type(ctx->body, json_type_object))
			return wp_fail(ctx, WP_ERR_INVALID, "the body must be a JSON object");
		const char *key;
		if (wp_json_find_nul(ctx->body, &key)) {
			wp_fail_extra(ctx, "field", json_object_new_string(key));
			return wp_fail(ctx, WP_ERR_INVALID, "%s: a string must not contain \\u0000",
			               key);
		}
	}
	err = m.route->handler(ctx);
	ctx->match = NULL;
	return err;
}

void
wp_serve(const struct wp_request *req, struct wp_response *res)
{
	struct wp_ctx ctx = {.req = req, .res = res, .store = store};
	char path[2048];
	enum wp_err err;
	int rc = 0;

	wp_json_thread_init();
	if (req->bad_framing) {
		err = wp_fail(&ctx, WP_ERR_BAD_FRAMING, "%s", req->bad_framing);
	} else if (req->body_too_large) {
		err = wp_fail(&ctx, WP_ERR_TOO_LARGE, "the request body is larger than allowed");
	} else if (!req->path || (rc = wp_path_decode(req->path, path, sizeof(path))) == -1) {
		err = wp_fail(&ctx, WP_ERR_BAD_PATH,
		              "the path has a bad percent-encoding, a NUL byte or is too long");
	} else if (rc != 0) {
		/* No resource has a '/' in a segment's name. */
		err = wp_fail(&ctx, WP_ERR_NOT_FOUND, "there is no resource at this path");
	} else if (strcmp(path, "/metrics") == 0) {
		if (!(wp_method_bit(req->method) & (WP_GET | WP_HEAD))) {
			wp_response_header(res, "Allow", "GET, HEAD");
			err = wp_fail(&ctx, WP_ERR_METHOD, "/metrics allows GET and HEAD");
		} else if (!metrics_allowed(req)) {
			wp_response_header(res, "WWW-Authenticate", "Bearer realm=\"warpost\"");
			err = wp_fail(&ctx, WP_ERR_UNAUTHORIZED,
			              "/metrics needs Authorization: Bearer and the METRICS_TOKEN");
		} else {
			err = wp_api_metrics(&ctx);
		}
	} else if (is_api_path(path)) {
		/* Every API request counts per IP, once (a long-poll is served
		 * again when it wakes, an event stream for each part), but
		 * health checks. */
		if (strcmp(path, "/api/health") == 0 || req->again ||
		    (err = wp_rate_check_ip(&ctx, WP_RATE_REQUESTS)) == WP_OK)
			err = serve_api(&ctx, path);
		if (err == WP_OK && !wp_response_get_header(res, "Cache-Control"))
			wp_response_header(res, "Cache-Control", "no-store");
	} else if (!(wp_method_bit(req->method) & (WP_GET | WP_HEAD))) {
		wp_response_header(res, "Allow", "GET, HEAD");
		err = wp_fail(&ctx, WP_ERR_METHOD, "static files allow GET and HEAD");
	} else {
		err = wp_static_serve(req, path, res);
		if (err == WP_ERR_NOT_FOUND)
			wp_fail(&ctx, err, "there is no file at this path");
	}
	if (err != WP_OK)
		wp_response_problem_ex(res, err, ctx.detail, ctx.extra);
	json_object_put(ctx.extra);
	json_object_put(ctx.body);
	if (res->status == 0 && res->wait_game)
		return; /* held by the front; logged when answered */
	wp_response_header(res, "X-Content-Type-Options", "nosniff");
	/* Every 503 says when to come back (RFC 9110, 10.2.3). */
	if (res->status == 503 && !wp_response_get_header(res, "Retry-After"))
		wp_response_header(res, "Retry-After", WP_RETRY_AFTER);
	wp_metric_status(res->status);
	/* A static file answered from memory is counted, not logged: a line
	 * (and a write) per asset took a seventh of its cost (issue 17). */
	if (!res->fixed)
		wp_log_request(req, res->status);
}
