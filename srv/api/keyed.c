/* Idempotency-Key for the writes outside a match (sql/025): creating a
 * match, a challenge, a tournament or a webhook, taking a seat, joining,
 * leaving or starting an event, a vacation. A match's own writes and a
 * challenge's accept keep their answer in their own transaction
 * (write.c, challenge_seats.c); these run in several, so the key is
 * claimed before the request runs and its answer written after:
 *
 * - a retry with the same key, path and body gets the first success byte
 *   for byte (Idempotent-Replayed: true) and changes nothing;
 * - the same key with another request is 422 idempotency-key-reused;
 * - a retry while the first runs, or after one whose outcome was never
 *   written (the instance died, the database went away in between), is
 *   409 idempotency-key-in-use: it is never run a second time;
 * - a failure frees the key: a retry of it is evaluated again.
 *
 * The key is the token's: scope is the SHA-256 of the bearer token that
 * sent it. A request with no token is served as it is (its handler
 * answers the 401; the bot worker's own requests carry none). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api.h"

/* The answer's own headers (ETag, Location, Cache-Control, ...) as
 * "Name: value" lines; the body's type is the replay's to set. */
static char *
headers_text(const struct wp_response *res)
{
	size_t n = 1;
	char *t, *p;

	for (size_t i = 0; i < res->nheaders; i++)
		n += strlen(res->headers[i].name) + strlen(res->headers[i].value) + 3;
	if (!(t = p = malloc(n)))
		return NULL;
	*p = '\0';
	for (size_t i = 0; i < res->nheaders; i++) {
		if (strcasecmp(res->headers[i].name, "Content-Type") == 0)
			continue;
		p += sprintf(p, "%s: %s\n", res->headers[i].name, res->headers[i].value);
	}
	return t;
}

static void
headers_put(struct wp_response *res, char *text)
{
	for (char *line = text, *end; line && *line; line = end) {
		char *colon;

		if ((end = strchr(line, '\n')))
			*end++ = '\0';
		if ((colon = strstr(line, ": "))) {
			*colon = '\0';
			wp_response_header(res, line, colon + 2);
		}
	}
}

/* After the claimed request ran: its answer kept when it succeeded, else
 * the key freed. */
static void
answer_kept(struct wp_ctx *ctx, const unsigned char scope[32], const char *key, int ok)
{
	struct wp_response *res = ctx->res;
	struct wp_conn *c;
	enum wp_err err;

	if (wp_conn_get(ctx, &c) != WP_OK) {
		wp_log("keyed: the answer to an Idempotency-Key was not kept (no database):"
		       " retries get 409");
		return;
	}
	if (ok && res->status >= 200 && res->status < 300 && !res->stream && !res->wait_game) {
		char *body = malloc(res->body_len + 1), *headers = headers_text(res);

		if (body && headers) {
			memcpy(body, res->body ? res->body : "", res->body_len);
			body[res->body_len] = '\0';
			err = wp_db_keyed_done(c, scope, key, res->status, headers, body);
		} else {
			err = WP_ERR_INTERNAL;
		}
		free(body);
		free(headers);
	} else {
		err = wp_db_keyed_drop(c, scope, key);
	}
	wp_store_put(ctx->store, c);
	if (err != WP_OK)
		wp_log("keyed: an Idempotency-Key's claim was not settled: retries get 409");
}

enum wp_err
wp_keyed(struct wp_ctx *ctx, wp_handler handler)
{
	unsigned char scope[32], hash[32];
	struct wp_keyed first;
	struct wp_conn *c;
	const char *key;
	enum wp_err err;
	int present;

	if (!wp_request_header(ctx->req, "Idempotency-Key"))
		return handler(ctx);
	if ((err = wp_idem_request(ctx, &key, hash)) || (err = wp_auth_token(ctx, scope, &present)))
		return err;
	if (!present)
		return handler(ctx);
	if ((err = wp_conn_get(ctx, &c)))
		return err;
	err = wp_db_keyed_claim(c, scope, key, hash, &first);
	wp_store_put(ctx->store, c);
	if (err == WP_ERR_NOT_FOUND) {
		/* Claimed: run it, then keep its answer or free the key. */
		err = handler(ctx);
		answer_kept(ctx, scope, key, err == WP_OK);
		return err;
	}
	if (err != WP_OK)
		return wp_fail_store(ctx, err);
	if (memcmp(first.request_hash, hash, 32) != 0)
		err = wp_fail(ctx, WP_ERR_IDEMPOTENCY_KEY_REUSED,
		              "this Idempotency-Key was used with another request");
	else if (first.status == 0)
		err = wp_fail(ctx, WP_ERR_IDEMPOTENCY_KEY_IN_USE,
		              "a request with this Idempotency-Key is under way, or ended without its"
		              " outcome being kept: look at what it would have made before trying"
		              " again with a new key");
	else {
		wp_response_json(ctx->res, first.status, first.body ? first.body : "");
		headers_put(ctx->res, first.headers);
		wp_response_header(ctx->res, "Idempotent-Replayed", "true");
	}
	wp_keyed_free(&first);
	return err;
}
