/* Who may watch a match and what they see of it (issue 14, "Spectators"):
 * a private match is only its seated players' (anyone else is told there
 * is no such match); a spectator of a match being played sees it as it was
 * spectator_delay posts ago: the view, the post log, the event stream and
 * the board image all stop at the same post (wp_sight). Past positions
 * are replayed (wp_past_at, match/replay.c) and shown through the
 * ruleset's view for the caller (RULINGS.md G5). GET /api/games lists the
 * matches open to watch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "replay.h"

enum wp_err
wp_reply_bytes(struct wp_ctx *ctx, int status, const char *content_type, char *take_body,
               size_t len)
{
	free(ctx->res->body);
	ctx->res->body = take_body;
	ctx->res->body_len = len;
	ctx->res->status = status;
	return wp_response_header(ctx->res, "Content-Type", content_type) == 0 ? WP_OK
	                                                                       : WP_ERR_INTERNAL;
}

void
wp_hold(struct wp_ctx *ctx, int64_t game, uint64_t gen, int64_t until_ns)
{
	ctx->res->wait_game = game;
	ctx->res->wait_gen = gen;
	ctx->res->wait_until_ns = until_ns;
	ctx->res->status = 0;
	if (!ctx->req->wait_until_ns)
		wp_metric_add(WP_METRIC_LONGPOLLS, 1);
}

void
wp_etag_viewer(char *out, size_t cap, char kind, int64_t id, char what, int n, int viewer)
{
	if (viewer == WR_EVERYONE)
		snprintf(out, cap, "\"%c%lld-%c%d-e\"", kind, (long long)id, what, n);
	else if (viewer == WR_SPECTATOR)
		snprintf(out, cap, "\"%c%lld-%c%d-x\"", kind, (long long)id, what, n);
	else
		snprintf(out, cap, "\"%c%lld-%c%d-s%d\"", kind, (long long)id, what, n, viewer);
}

enum wp_err
wp_sight_of(struct wp_ctx *ctx, int64_t id, enum wp_watch watch, int delay, int seq,
            enum wp_status status, int seat, struct wp_sight *out)
{
	int over = status == WP_STATUS_OVER || status == WP_STATUS_ABORTED;

	out->seat = seat;
	out->viewer = wp_viewer(over, seat);
	out->upto = seq;
	out->delayed = 0;
	/* Told as a match that does not exist: no one learns it does. */
	if (watch == WP_WATCH_PRIVATE && seat < 0)
		return wp_fail(ctx, WP_ERR_GAME_NOT_FOUND, "there is no match %lld", (long long)id);
	/* The delay holds while the match is played; the start is always shown. */
	if (out->viewer == WR_SPECTATOR && status == WP_STATUS_ACTIVE && delay > 0 && seq >= 1) {
		out->upto = seq - delay < 1 ? 1 : seq - delay;
		out->delayed = 1;
	}
	return WP_OK;
}

enum wp_err
wp_game_sight(struct wp_ctx *ctx, const struct wp_game *g, int64_t player, struct wp_sight *out)
{
	return wp_sight_of(ctx, g->id, g->watch, g->delay, g->seq, g->status,
	                   wp_game_seat_of(g, player), out);
}

/* A past position replayed is kept as text (store/cache.c): the
 * spectators held behind all ask for the same one. */
static void
keep_past(const struct wp_game *g, int at, const struct wp_past *past, const char *at_time)
{
	struct wp_past_text t = {.at = at, .status = past->status, .awaiting = past->awaiting,
	                         .draw_offers = past->draw_offers};
	const char *result = past->result ? json_object_to_json_string(past->result) : NULL;

	t.state = past->state ? wr_save_text(g->rs, past->state) : NULL;
	t.result = (char *)result;
	snprintf(t.at_time, sizeof(t.at_time), "%s", at_time);
	wp_cache_past_put(g->id, &t);
	free(t.state);
}

static enum wp_err
past_from_text(struct wp_ctx *ctx, const struct wp_game *g, struct wp_past_text *t,
               struct wp_past *past, char at_time[WP_TIME_MAX])
{
	struct wp_game then = *g;

	then.state = t->state;
	past->state = t->state ? wp_game_state(&then) : NULL;
	past->status = t->status;
	past->awaiting = t->awaiting;
	past->draw_offers = t->draw_offers;
	past->result = t->result ? json_tokener_parse(t->result) : NULL;
	if (at_time)
		snprintf(at_time, WP_TIME_MAX, "%s", t->at_time);
	int bad = (t->state && !past->state) || (t->result && !past->result);
	wp_past_text_free(t);
	if (bad) {
		wp_past_free(g, past);
		return wp_fail(ctx, WP_ERR_INTERNAL, "the match's past position could not be read");
	}
	return WP_OK;
}

/* The snapshot as a replay's start (the match row as it was then). */
static int
past_from_snapshot(const struct wp_game *g, struct wp_snapshot *snap, struct wp_past *out)
{
	struct wp_game then = *g;

	then.state = snap->state;
	memset(out, 0, sizeof(*out));
	out->state = snap->state ? wp_game_state(&then) : NULL;
	out->status = snap->status;
	out->awaiting = snap->awaiting;
	out->draw_offers = snap->draw_offers;
	out->result = snap->result ? json_tokener_parse(snap->result) : NULL;
	if ((snap->state && !out->state) || (snap->result && !out->result)) {
		wp_past_free(g, out);
		return -1;
	}
	return 0;
}

/* Replays posts (snapshot, at] from the nearest snapshot (issue 26): at
 * most a snapshot interval of posts, whatever the match's length. */
static enum wp_err
replay_to(struct wp_ctx *ctx, struct wp_conn *c, const struct wp_game *g, int at,
          struct wp_past *past, char at_time[WP_TIME_MAX])
{
	struct wp_post_row *rows = NULL;
	struct wp_snapshot snap;
	struct wp_replay r;
	struct wp_past start;
	int n = 0, rc = 0;
	enum wp_err err;

	/* One statement: a past position costs a cold view no more than the
	 * posts it reads. */
	if ((err = wp_db_past_rows(c, g->id, at, &snap, &rows, &n)) != WP_OK)
		goto out;
	wp_replay_begin(&r, g->rs, g->options, g->nseats, g->seed, g->client, g->client_len);
	if (snap.seq > 0 && (rc = past_from_snapshot(g, &snap, &start)) == 0)
		wp_replay_from(&r, &start);
	rc = rc || n != at - snap.seq;
	for (int i = 0; i < n && rc == 0; i++)
		rc = wp_replay_step(&r, &(struct wp_past_post){
			.seat = rows[i].seat, .kind = rows[i].kind, .actions = rows[i].actions,
			.draws_from = rows[i].draws_from,
			/* as it was: later undos not yet made */
			.undone_by = rows[i].undone_by <= at ? rows[i].undone_by : 0});
	if (rc == 0)
		wp_replay_end(&r, past);
	wp_replay_free(&r);
	snprintf(at_time, WP_TIME_MAX, "%s", n > 0 ? rows[n - 1].at : snap.at);
out:
	wp_post_rows_free(rows, n);
	wp_snapshot_free(&snap);
	if (err)
		return wp_fail_store(ctx, err);
	if (rc != 0) {
		wp_log("game %lld: post %d does not replay", (long long)g->id, at);
		return wp_fail(ctx, WP_ERR_INTERNAL, "post %d of the match does not replay", at);
	}
	return WP_OK;
}

enum wp_err
wp_past_at(struct wp_ctx *ctx, struct wp_conn *c, const struct wp_game *g, int at,
           struct wp_past *past, char at_time[WP_TIME_MAX])
{
	struct wp_past_text kept;
	char rows_time[WP_TIME_MAX] = "";
	enum wp_err err;

	memset(past, 0, sizeof(*past));
	if (at == g->seq && !at_time) {
		if (!(past->state = wp_game_state(g)) && g->state)
			return wp_fail(ctx, WP_ERR_INTERNAL, "the match's state could not be read");
		past->status = g->status;
		past->awaiting = g->awaiting;
		past->draw_offers = g->draw_offers;
		past->result = json_object_get(g->result);
		return WP_OK;
	}
	if (wp_cache_past(g->id, at, &kept))
		return past_from_text(ctx, g, &kept, past, at_time);
	if ((err = replay_to(ctx, c, g, at, past, rows_time)) != WP_OK)
		return err;
	keep_past(g, at, past, rows_time);
	if (at_time)
		snprintf(at_time, WP_TIME_MAX, "%s", rows_time);
	return WP_OK;
}

void
wp_past_free(const struct wp_game *g, struct wp_past *past)
{
	if (past->state)
		g->rs->free(past->state);
	json_object_put(past->result);
	memset(past, 0, sizeof(*past));
}

/* GET /api/games: the matches open to watch, newest first. No time of
 * the last change: that would tell a spectator of a delayed match that
 * posts it may not see yet exist. */
enum wp_err
wp_api_games_watchable(struct wp_ctx *ctx)
{
	struct wp_watchable *rows = NULL;
	int64_t limit, offset;
	int n = 0;
	enum wp_err err;
	struct wp_conn *c;

	if ((err = wp_query_int(ctx, "limit", 1, 100, 20, &limit)) ||
	    (err = wp_query_int(ctx, "offset", 0, 1000000, 0, &offset)) ||
	    (err = wp_conn_get(ctx, &c)))
		return err;
	err = wp_db_games_watchable(c, limit, offset, &rows, &n);
	wp_store_put(ctx->store, c);
	if (err)
		return wp_fail_store(ctx, err);
	json_object *o = json_object_new_object(), *list = json_object_new_array();
	for (int i = 0; i < n; i++) {
		json_object *m = json_object_new_object();
		json_object_object_add(m, "id", json_object_new_int64(rows[i].id));
		json_object_object_add(m, "ruleset", json_object_new_string(rows[i].ruleset));
		json_object_object_add(m, "status",
		                       json_object_new_string(wp_status_str(rows[i].status)));
		json_object_object_add(m, "seats", json_object_new_int(rows[i].nseats));
		json_object_object_add(m, "spectator_delay", json_object_new_int(rows[i].delay));
		json_object_object_add(m, "rated", json_object_new_boolean(rows[i].rated));
		json_object_array_add(list, m);
	}
	free(rows);
	json_object_object_add(o, "games", list);
	return wp_reply_json(ctx, 200, o);
}
