/* Auditing: GET /api/games/{id}/export (the whole match with the revealed
 * seed, after the end) and GET /api/games/{id}/verify (its replay). */
#include <limits.h>
#include <stdlib.h>

#include "api.h"
#include "replay.h"

static json_object *
export_json(const struct wp_game *g, const struct wp_post_row *rows, int n)
{
	json_object *o = json_object_new_object(), *posts = json_object_new_array(),
		    *seeds = json_object_new_array();

	json_object_object_add(o, "format", json_object_new_string(WP_EXPORT_FORMAT));
	json_object_object_add(o, "game", json_object_new_int64(g->id));
	json_object_object_add(o, "ruleset", json_object_new_string(g->ruleset));
	json_object_object_add(o, "options", json_object_get(g->options));
	json_object_object_add(o, "seats", json_object_new_int(g->nseats));
	for (int i = 0; i < g->nseats; i++)
		json_object_array_add(seeds, json_object_new_string(g->seats[i].client_seed));
	json_object_object_add(o, "client_seeds", seeds);
	json_object_object_add(o, "commitment", wp_json_hex(g->commitment, 32));
	json_object_object_add(o, "seed", wp_json_hex(g->seed, 32));
	json_object_object_add(o, "status", json_object_new_string(wp_status_str(g->status)));
	json_object_object_add(o, "result", json_object_get(g->result));
	/* Only after the end: everything is revealed (G5). */
	for (int i = 0; i < n; i++) {
		json_object *p = wp_post_json(&rows[i], WR_EVERYONE, INT_MAX);
		json_object_object_add(p, "draws_from", json_object_new_int64(rows[i].draws_from));
		json_object_array_add(posts, p);
	}
	json_object_object_add(o, "posts", posts);
	json_object_object_add(o, "final_state", g->state ? json_tokener_parse(g->state) : NULL);
	return o;
}

static enum wp_err
build_export(struct wp_ctx *ctx, json_object **doc)
{
	struct wp_game g = {0};
	struct wp_post_row *rows = NULL;
	struct wp_player who = {0};
	struct wp_sight sight;
	int64_t id;
	int n = 0;
	enum wp_err err;
	struct wp_conn *c;

	*doc = NULL;
	if ((err = wp_game_id(ctx, &id)) || (err = wp_conn_get(ctx, &c)))
		return err;
	/* A private match is its players' only, even once over (issue 14). */
	if ((err = wp_auth_optional(ctx, c, &who)) == WP_OK &&
	    (err = wp_game_get(ctx, c, id, 0, &g)) == WP_OK &&
	    (err = wp_game_sight(ctx, &g, who.id, &sight)) == WP_OK) {
		if (!wp_game_over(&g))
			err = wp_fail(ctx, WP_ERR_GAME_NOT_OVER,
			              "the seed is revealed, and the match can be audited, when it ends");
		else if ((err = wp_db_posts(c, id, 0, 0, &rows, &n)) != WP_OK)
			err = wp_fail_store(ctx, err);
	}
	wp_store_put(ctx->store, c);
	if (err == WP_OK)
		*doc = export_json(&g, rows, n);
	wp_post_rows_free(rows, n);
	wp_game_free(&g);
	return err;
}

enum wp_err
wp_api_games_export(struct wp_ctx *ctx)
{
	json_object *doc;
	enum wp_err err;

	if ((err = build_export(ctx, &doc)))
		return err;
	wp_response_header(ctx->res, "Content-Disposition", "attachment; filename=\"match.json\"");
	return wp_reply_json(ctx, 200, doc);
}

struct verify_call {
	json_object *doc, *report;
};

static void
verify_blocking(void *arg)
{
	struct verify_call *v = arg;
	v->report = wp_verify(v->doc);
}

enum wp_err
wp_api_games_verify(struct wp_ctx *ctx)
{
	struct verify_call v = {0};
	json_object *doc, *report;
	enum wp_err err;

	if ((err = build_export(ctx, &doc)))
		return err;
	/* A replay of every post from the seed: 80 to 270 ms of CPU for
	 * 5,000 posts (README, "Performance"), on the blocking pool so an
	 * event loop serves others meanwhile. */
	v.doc = doc;
	wp_blocking(verify_blocking, &v);
	report = v.report;
	json_object_object_add(report, "game", json_object_get(json_object_object_get(doc, "game")));
	json_object_object_add(report, "seed", json_object_get(json_object_object_get(doc, "seed")));
	json_object_object_add(report, "commitment",
	                       json_object_get(json_object_object_get(doc, "commitment")));
	json_object_put(doc);
	return wp_reply_json(ctx, 200, report);
}
