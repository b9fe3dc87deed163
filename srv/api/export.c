/* Auditing: GET /api/games/{id}/export (the whole match with the revealed
 * seed, after the end) and GET /api/games/{id}/verify (its replay). */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

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

/* The verify answers of ended matches, kept (issue 32, "Flat in the
 * match's length"). An ended match's log no longer changes, and every
 * change of what the answer reads (a post, an undo, the status, the
 * result, the state) bumps the match's version, so the answer for (id,
 * version) is the same each time: the first call replays every post (80
 * to 270 ms of CPU for 5,000), the next ones copy the kept text. Who may
 * ask is checked at each call before the memo is looked at. Process-wide,
 * MEMO_SLOTS answers of at most MEMO_MAX bytes each, the oldest replaced. */
#define MEMO_SLOTS 8
#define MEMO_MAX (1u << 20)

static struct {
	int64_t id;
	int version;
	char *text;
	size_t len;
} memo[MEMO_SLOTS];
static unsigned memo_next;
static pthread_mutex_t memo_lock = PTHREAD_MUTEX_INITIALIZER;

/* A copy of the kept answer (malloc'd), or NULL. */
static char *
memo_find(int64_t id, int version, size_t *len)
{
	char *copy = NULL;

	pthread_mutex_lock(&memo_lock);
	for (unsigned i = 0; i < MEMO_SLOTS; i++)
		if (memo[i].text && memo[i].id == id && memo[i].version == version) {
			if ((copy = malloc(memo[i].len + 1)) != NULL) {
				memcpy(copy, memo[i].text, memo[i].len + 1);
				*len = memo[i].len;
			}
			break;
		}
	pthread_mutex_unlock(&memo_lock);
	return copy;
}

static void
memo_keep(int64_t id, int version, const char *text, size_t len)
{
	char *copy;

	if (len > MEMO_MAX || (copy = malloc(len + 1)) == NULL)
		return;
	memcpy(copy, text, len + 1);
	pthread_mutex_lock(&memo_lock);
	unsigned i = memo_next++ % MEMO_SLOTS;
	free(memo[i].text);
	memo[i].id = id;
	memo[i].version = version;
	memo[i].text = copy;
	memo[i].len = len;
	pthread_mutex_unlock(&memo_lock);
}

/* The export of an ended match the caller may see. With kept (verify), an
 * answer kept for the match's version is taken instead, *doc left NULL,
 * and the version read is told. */
struct kept {
	int version;
	char *text;
	size_t len;
};

static enum wp_err
build_export(struct wp_ctx *ctx, json_object **doc, struct kept *kept)
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
		else if (kept) {
			kept->version = g.version;
			kept->text = memo_find(id, g.version, &kept->len);
		}
		if (err == WP_OK && !(kept && kept->text) &&
		    (err = wp_db_posts(c, id, 0, 0, &rows, &n)) != WP_OK)
			err = wp_fail_store(ctx, err);
	}
	wp_store_put(ctx->store, c);
	if (err == WP_OK && !(kept && kept->text))
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

	if ((err = build_export(ctx, &doc, NULL)))
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
	struct kept kept = {0};
	json_object *doc, *report;
	enum wp_err err;

	if ((err = build_export(ctx, &doc, &kept)))
		return err;
	if (kept.text)
		return wp_reply_bytes(ctx, 200, "application/json", kept.text, kept.len);
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
	int64_t id = json_object_get_int64(json_object_object_get(doc, "game"));
	json_object_put(doc);
	const char *text = wp_json_text(report, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	memo_keep(id, kept.version, text, strlen(text));
	int rc = wp_response_json(ctx->res, 200, text);
	json_object_put(report);
	return rc == 0 ? WP_OK : WP_ERR_INTERNAL;
}
