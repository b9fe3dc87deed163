/* A tournament's hand in its matches (issue 29): the organiser's
 * adjudication of a stalled match (a win of any seat, or a draw) and the
 * forfeits of a player who withdraws. Both are posts through the one
 * write path (wp_post_store, wp_post_apply): shown in the match's log,
 * exported and replayed by the verification like any other. Each locks
 * its matches before the event's row (the order a match's end takes:
 * its trigger, sql/024, moves the event's version), never the reverse. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tournaments.h"

/* The table of the event that is match `game`, or NULL. */
static json_object *
table_of(json_object *t, int64_t game)
{
	json_object *tables = jget(t, "tables");
	for (size_t i = 0; i < json_object_array_length(tables); i++) {
		json_object *x = json_object_array_get_idx(tables, i);
		if (json_object_get_int64(jget(x, "game")) == game)
			return x;
	}
	return NULL;
}

static int
seated(json_object *x, int64_t player)
{
	json_object *ps = jget(x, "players");
	for (size_t i = 0; i < json_object_array_length(ps); i++)
		if (json_object_get_int64(json_object_array_get_idx(ps, i)) == player)
			return 1;
	return 0;
}

enum wp_err
wp_tournament_forfeit(struct wp_ctx *ctx, struct wp_conn *c, int64_t id, int64_t player)
{
	json_object *t = NULL, *tables;
	enum wp_err err;

	if ((err = wp_db_tournament(c, id, 0, 0, &t)))
		return err == WP_ERR_NOT_FOUND ? WP_OK : wp_fail_store(ctx, err);
	tables = jget(t, "tables");
	for (size_t i = 0; err == WP_OK && i < json_object_array_length(tables); i++) {
		json_object *x = json_object_array_get_idx(tables, i), *out = NULL;
		int64_t game = json_object_get_int64(jget(x, "game"));
		struct wp_game g;
		if (!game || !jget(x, "status") || !seated(x, player) ||
		    strcmp(json_object_get_string(jget(x, "status")), "active") != 0)
			continue;
		if ((err = wp_game_get(ctx, c, game, 1, &g)))
			break;
		int seat = wp_game_seat_of(&g, player);
		if (seat >= 0 && g.status == WP_STATUS_ACTIVE &&
		    wp_must_be_in_play(ctx, &g, seat) == WP_OK) {
			struct wp_post p = {.seat = seat, .kind = WP_POST_RESIGN};
			err = wp_post_apply(ctx, c, &g, &p, &out);
			json_object_put(out);
		}
		ctx->detail[0] = '\0';   /* a seat out already: nothing to forfeit */
		wp_game_free(&g);
	}
	json_object_put(t);
	return err;
}

struct adjudging {
	struct wp_ctx *ctx;
	struct wp_player who;
	int64_t id, game;
	json_object *winner;     /* borrowed: a seat, or null for a draw */
	json_object *out;
};

static enum wp_err
adjudicate_tx(struct wp_conn *c, void *arg)
{
	struct adjudging *a = arg;
	json_object *t = NULL, *content, *by;
	struct wp_game g;
	enum wp_err err;

	/* Not locked: the organiser and the tables do not change under us. */
	if ((err = wp_db_tournament(c, a->id, 0, 0, &t)))
		return err == WP_ERR_NOT_FOUND
		       ? wp_fail(a->ctx, WP_ERR_TOURNAMENT_NOT_FOUND, "there is no tournament %lld",
		                 (long long)a->id)
		       : wp_fail_store(a->ctx, err);
	int organiser = json_object_get_int64(jget(jget(t, "organiser"), "id")) == a->who.id;
	int in_event = table_of(t, a->game) != NULL;
	json_object_put(t);
	if (!organiser)
		return wp_fail(a->ctx, WP_ERR_FORBIDDEN, "only the organiser adjudicates");
	if (!in_event)
		return wp_fail(a->ctx, WP_ERR_GAME_NOT_FOUND, "match %lld is not one of this event",
		               (long long)a->game);
	if ((err = wp_game_get(a->ctx, c, a->game, 1, &g)))
		return err;
	if ((err = wp_must_be_active(a->ctx, &g)))
		goto out;
	if (a->winner && json_object_get_int(a->winner) >= g.nseats) {
		err = wp_fail(a->ctx, WP_ERR_INVALID, "winner: a seat below %d, or null", g.nseats);
		goto out;
	}
	content = json_object_new_object();
	by = json_object_new_object();
	json_object_object_add(content, "type", json_object_new_string("adjudication"));
	json_object_object_add(content, "winner", json_object_get(a->winner));
	json_object_object_add(by, "id", json_object_new_int64(a->who.id));
	json_object_object_add(by, "name", json_object_new_string(a->who.name));
	json_object_object_add(content, "by", by);
	json_object_object_add(content, "tournament", json_object_new_int64(a->id));
	struct wp_post p = {.seat = -1, .kind = WP_POST_ADJUDICATION, .content = content,
	                    .result = wp_result_adjudicated(content, g.nseats)};
	struct wr_events ev = {0};
	err = wp_post_store(a->ctx, c, &g, NULL, &p, NULL, &ev, &a->out);
	json_object_put(p.result);
	json_object_put(content);
out:
	wp_game_free(&g);
	return err;
}

enum wp_err
wp_api_tournaments_adjudicate(struct wp_ctx *ctx)
{
	static const char *const fields[] = {"game", "winner", NULL};
	struct adjudging a = {.ctx = ctx};
	int64_t winner;
	enum wp_err err;

	if (wp_parse_id(ctx->match->params[0], &a.id) != 0)
		return wp_fail(ctx, WP_ERR_TOURNAMENT_NOT_FOUND, "there is no such tournament");
	if ((err = wp_body_only(ctx, fields)) ||
	    (err = wp_body_int(ctx, "game", 1, INT64_MAX, 1, 0, &a.game)) ||
	    (err = wp_body_int(ctx, "winner", 0, WL_MAX_TABLE - 1, 0, 0, &winner)) ||
	    (err = wp_limit_token(ctx, WP_RATE_WRITES)))
		return err;
	if (!json_object_object_get_ex(ctx->body, "winner", &a.winner))
		return wp_fail(ctx, WP_ERR_INVALID, "winner: a seat, or null for a draw");
	if ((err = wp_player_tx(ctx, &a.who, adjudicate_tx, &a)))
		return err;
	return wp_reply_json(ctx, 200, a.out);
}
