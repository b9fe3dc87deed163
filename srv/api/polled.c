/* An answer tagged by its content, for lists that many change at once
 * (the open challenges, the tournaments): an ETag that is a hash of the
 * JSON text, 304 for a current If-None-Match, or the request held (a
 * long-poll, ?wait=) until a NOTIFY wakes its key on any instance. */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "api.h"
#include "wait.h"

enum wp_err
wp_reply_polled(struct wp_ctx *ctx, json_object *take_o, char kind, int64_t key, uint64_t gen,
                int64_t wait, int64_t until_cap_ns)
{
	/* One text for the tag and the body (issue 32: it was written twice). */
	const char *text = wp_json_text(take_o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	unsigned char h[32];
	char hex[33], etag[40];

	crypto_generichash(h, 16, (const unsigned char *)text, strlen(text), NULL, 0);
	sodium_bin2hex(hex, sizeof(hex), h, 16);
	snprintf(etag, sizeof(etag), "\"%c%s\"", kind, hex);
	wp_response_header(ctx->res, "ETag", etag);
	wp_response_header(ctx->res, "Cache-Control", "private, no-cache");
	wp_response_header(ctx->res, "Vary", "Authorization");
	const char *inm = wp_request_header(ctx->req, "If-None-Match");
	if (!inm || !strstr(inm, etag)) {
		int rc = wp_response_json(ctx->res, 200, text);
		json_object_put(take_o);
		return rc == 0 ? WP_OK : WP_ERR_INTERNAL;
	}
	json_object_put(take_o);
	int64_t now = wp_now_ns();
	int64_t until = ctx->req->wait_until_ns ? ctx->req->wait_until_ns : now + wait * 1000000000;
	if (until_cap_ns && until_cap_ns < until)
		until = until_cap_ns;
	if (wait > 0 && ctx->req->can_wait && now < until)
		wp_hold(ctx, key, gen, until);
	else
		ctx->res->status = 304;
	return WP_OK;
}
