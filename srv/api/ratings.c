/* Profiles and leaderboards (issue 28): GET /api/players/{id} and
 * GET /api/leaderboards/{ruleset}. Both are read as one JSON text built by
 * PostgreSQL (store/ratings_sql.h) and answered with an ETag of that text,
 * so a conditional GET is a 304 without a body; the text depends on who
 * asks (private matches, the caller's own rank), hence Vary. The ratings
 * themselves change only in the database, when a rated match ends
 * (sql/017_ratings.sql). */
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "api.h"
#include "ratings.h"

/* The body with a strong ETag of its hash, or a 304 when If-None-Match
 * names it (RFC 9110, 13.1.2). */
static enum wp_err
reply_tagged(struct wp_ctx *ctx, char *take_json)
{
	unsigned char h[32];
	char hex[65], etag[72];
	size_t len = strlen(take_json);
	const char *inm = wp_request_header(ctx->req, "If-None-Match");

	crypto_hash_sha256(h, (const unsigned char *)take_json, len);
	sodium_bin2hex(hex, sizeof(hex), h, 12);
	snprintf(etag, sizeof(etag), "\"r%s\"", hex);
	wp_response_header(ctx->res, "ETag", etag);
	wp_response_header(ctx->res, "Cache-Control", "private, no-cache");
	wp_response_header(ctx->res, "Vary", "Authorization");
	if (inm && (strstr(inm, etag) || strcmp(inm, "*") == 0)) {
		free(take_json);
		ctx->res->status = 304;
		return WP_OK;
	}
	return wp_reply_bytes(ctx, 200, "application/json", take_json, len);
}

/* Who asks (0: nobody), and a connection; the connection is given back on
 * failure. */
static enum wp_err
asker(struct wp_ctx *ctx, struct wp_conn **c, int64_t *viewer)
{
	struct wp_player who;
	enum wp_err err;

	if ((err = wp_conn_get(ctx, c)))
		return err;
	if ((err = wp_auth_optional(ctx, *c, &who))) {
		wp_store_put(ctx->store, *c);
		return err;
	}
	*viewer = who.id;
	return WP_OK;
}

static enum wp_err
answer(struct wp_ctx *ctx, enum wp_err err, char *json, const char *what)
{
	if (err == WP_ERR_NOT_FOUND)
		return wp_fail(ctx, WP_ERR_NOT_FOUND, "there is no %s", what);
	if (err)
		return wp_fail_store(ctx, err);
	return reply_tagged(ctx, json);
}

enum wp_err
wp_api_players_get(struct wp_ctx *ctx)
{
	struct wp_conn *c;
	int64_t id, viewer;
	char *json = NULL;
	enum wp_err err;

	/* A malformed id answers as an unknown one. */
	if (wp_parse_id(ctx->match->params[0], &id) != 0)
		return wp_fail(ctx, WP_ERR_NOT_FOUND, "there is no such player");
	if ((err = asker(ctx, &c, &viewer)))
		return err;
	err = wp_db_profile(c, id, viewer, &json);
	wp_store_put(ctx->store, c);
	return answer(ctx, err, json, "such player");
}

enum wp_err
wp_api_leaderboard(struct wp_ctx *ctx)
{
	const struct wr_ruleset *rs = wr_ruleset_find(ctx->match->params[0]);
	char pool[16];
	struct wp_conn *c;
	int64_t viewer;
	char *json = NULL;
	enum wp_err err;
	int q = wp_query_param(ctx->req->query, "pool", pool, sizeof(pool));

	if (!rs)
		return wp_fail(ctx, WP_ERR_NOT_FOUND,
		               "this server has no ruleset \"%.64s\" (GET /api/rulesets lists them)",
		               ctx->match->params[0]);
	if (q == 0)
		strcpy(pool, "human");
	else if (q < 0 || (strcmp(pool, "human") != 0 && strcmp(pool, "bot") != 0))
		return wp_fail(ctx, WP_ERR_INVALID, "pool: human or bot");
	if ((err = asker(ctx, &c, &viewer)))
		return err;
	err = wp_db_leaderboard(c, rs->id, pool, viewer, &json);
	wp_store_put(ctx->store, c);
	return answer(ctx, err, json, "such leaderboard");
}
