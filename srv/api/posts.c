/* Posts and turns: POST turns, orders, resign, draw, abort (each through
 * wp_mutate), and GET the post log as the caller may see it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"

#define WP_MAX_ACTIONS 64
#define WP_COMMENT_MAX 2000

/* A post made against an older seq still stands when everything posted
 * since is a side post — standing orders (private, and the poster could
 * not have seen them anyway) or a draw offered or declined — since none
 * changes the position the poster chose from. */
static int
only_side_posts_since(struct wp_conn *c, const struct wp_game *g, int64_t seq)
{
	int64_t n;

	if (seq > g->seq || seq < 1)
		return 0;
	return wp_db_moves_since(c, g->id, seq, &n) == WP_OK && n == 0;
}

static enum wp_err
do_turn(struct wp_ctx *ctx, struct wp_conn *c, struct wp_game *g, int seat, json_object **out)
{
	json_object *actions;
	const char *comment;
	int hidden;
	int64_t seq;
	enum wp_err err;

	if ((err = wp_body_int(ctx, "seq", 0, INT32_MAX, 1, 0, &seq)) ||
	    (err = wp_body_string(ctx, "comment", WP_COMMENT_MAX, 1, &comment)) ||
	    (err = wp_body_bool(ctx, "comment_hidden", &hidden)))
		return err;
	json_object_object_get_ex(ctx->body, "actions", &actions);
	if ((err = wp_must_be_active(ctx, g)))
		return err;
	if (seq != g->seq && !only_side_posts_since(c, g, seq)) {
		wp_fail_extra(ctx, "seq", json_object_new_int(g->seq));
		return wp_fail(ctx, WP_ERR_STALE_SEQUENCE,
		               "the match is at post %d, not %lld: reload and try again", g->seq,
		               (long long)seq);
	}
	if (!(g->awaiting & (1u << seat)))
		return wp_fail(ctx, WP_ERR_NOT_AWAITED, "the match is not waiting for you");
	if ((err = wp_clock_turn_check(ctx, c, g, seat)))
		return err;
	struct wp_post p = {.seat = seat, .kind = WP_POST_TURN, .content = actions,
	                    .comment = comment, .comment_hidden = hidden};
	return wp_post_apply(ctx, c, g, &p, out);
}

/* Shape checks before any lock is taken. */
enum wp_err
wp_api_games_turn(struct wp_ctx *ctx)
{
	static const char *const fields[] = {"seq", "actions", "comment", "comment_hidden", NULL};
	json_object *actions;
	enum wp_err err;

	if ((err = wp_body_only(ctx, fields)) ||
	    (err = wp_body_required(ctx, "actions", json_type_array, &actions)))
		return err;
	size_t n = json_object_array_length(actions);
	if (n < 1 || n > WP_MAX_ACTIONS)
		return wp_fail(ctx, WP_ERR_INVALID, "actions: 1 to %d actions", WP_MAX_ACTIONS);
	for (size_t i = 0; i < n; i++)
		if (!json_object_is_type(json_object_array_get_idx(actions, i), json_type_object))
			return wp_fail(ctx, WP_ERR_INVALID, "actions[%zu]: must be an object", i);
	return wp_mutate_one_trip(ctx, do_turn);
}

static unsigned
seats_in(const struct wp_game *g)
{
	unsigned all = (1u << g->nseats) - 1, in = all;
	void *state;

	if (g->rs->seats_in && (state = wp_game_state(g)) != NULL) {
		in = g->rs->seats_in(state) & all;
		g->rs->free(state);
	}
	return in;
}

/* An out seat (resigned or beaten in a 3-4 seat match) may read, nothing
 * else: its posts would only make the live seats' turns stale. */
static enum wp_err
must_be_in_play(struct wp_ctx *ctx, const struct wp_game *g, int seat)
{
	enum wp_err err;

	if ((err = wp_must_be_active(ctx, g)))
		return err;
	if (!(seats_in(g) & (1u << seat)))
		return wp_fail(ctx, WP_ERR_NOT_IN_PLAY, "your seat is out of the match");
	return WP_OK;
}

enum wp_err
wp_must_be_in_play(struct wp_ctx *ctx, const struct wp_game *g, int seat)
{
	return must_be_in_play(ctx, g, seat);
}

static enum wp_err
do_orders(struct wp_ctx *ctx, struct wp_conn *c, struct wp_game *g, int seat, json_object **out)
{
	json_object *orders;
	enum wp_err err;

	if ((err = must_be_in_play(ctx, g, seat)))
		return err;
	json_object_object_get_ex(ctx->body, "orders", &orders);
	struct wp_post p = {.seat = seat, .kind = WP_POST_ORDERS, .content = orders,
	                    .draw_offers = g->draw_offers};
	return wp_post_apply(ctx, c, g, &p, out);
}

enum wp_err
wp_api_games_orders(struct wp_ctx *ctx)
{
	static const char *const fields[] = {"orders", NULL};
	json_object *orders;
	enum wp_err err;

	if ((err = wp_body_only(ctx, fields)) ||
	    (err = wp_body_required(ctx, "orders", json_type_object, &orders)))
		return err;
	return wp_mutate(ctx, do_orders);
}

static enum wp_err
do_resign(struct wp_ctx *ctx, struct wp_conn *c, struct wp_game *g, int seat, json_object **out)
{
	enum wp_err err;

	if ((err = must_be_in_play(ctx, g, seat)))
		return err;
	struct wp_post p = {.seat = seat, .kind = WP_POST_RESIGN, .draw_offers = 0};
	return wp_post_apply(ctx, c, g, &p, out);
}

/* resign and abort take no fields; a body is optional. */
enum wp_err
wp_mutate_no_fields(struct wp_ctx *ctx, wp_mutate_fn fn)
{
	static const char *const fields[] = {NULL};
	enum wp_err err;

	if (ctx->body && (err = wp_body_only(ctx, fields)))
		return err;
	return wp_mutate(ctx, fn);
}

enum wp_err
wp_api_games_resign(struct wp_ctx *ctx)
{
	return wp_mutate_no_fields(ctx, do_resign);
}

/* A post that changes no ruleset state: draws and abort. */
static enum wp_err
side_post(struct wp_ctx *ctx, struct wp_conn *c, struct wp_game *g, struct wp_post *p,
          json_object **out)
{
	struct wr_events ev = {0};
	enum wp_err err = wp_post_store(ctx, c, g, NULL, p, NULL, &ev, out);

	json_object_put(p->result);
	return err;
}

/* An end by agreement the ruleset decides itself (Wargame Chess W7: "end
 * the match on points"): its result, not a plain draw. No dice. */
static enum wp_err
agreed_end(struct wp_ctx *ctx, struct wp_conn *c, struct wp_game *g, struct wp_post *p,
           json_object **out)
{
	struct wr_events ev = {0};
	void *state = wp_game_state(g);
	enum wp_err err;

	if (!state)
		return wp_fail(ctx, WP_ERR_INTERNAL, "the match's state does not load");
	wp_agreed_end(g->rs, state, &ev);
	err = wp_post_store(ctx, c, g, state, p, NULL, &ev, out);
	wr_events_free(&ev);
	g->rs->free(state);
	return err;
}

static enum wp_err
do_draw(struct wp_ctx *ctx, struct wp_conn *c, struct wp_game *g, int seat, json_object **out)
{
	const char *what;
	enum wp_err err;
	unsigned in, offers = g->draw_offers, me = 1u << seat;

	if ((err = wp_body_string(ctx, "action", 16, 0, &what)))
		return err;
	if (!what || (strcmp(what, "offer") && strcmp(what, "accept") && strcmp(what, "decline")))
		return wp_fail(ctx, WP_ERR_INVALID, "action: offer, accept or decline");
	if ((err = must_be_in_play(ctx, g, seat)))
		return err;
	in = seats_in(g);
	struct wp_post p = {.seat = seat};
	if (strcmp(what, "offer") == 0) {
		if (offers & me)
			return wp_fail(ctx, WP_ERR_DRAW_ALREADY_OFFERED, "you have offered a draw already");
		p.kind = WP_POST_DRAW_OFFER;
		offers |= me;
	} else if (!(offers & ~me)) {
		return wp_fail(ctx, WP_ERR_NO_DRAW_OFFER, "no draw is on offer");
	} else if (strcmp(what, "accept") == 0) {
		p.kind = WP_POST_DRAW_ACCEPT;
		offers |= me;
	} else {
		p.kind = WP_POST_DRAW_DECLINE;
		offers = 0;
	}
	p.draw_offers = offers;
	if ((offers & in) == in) {
		p.draw_offers = 0;
		if (g->rs->agreed_end)
			return agreed_end(ctx, c, g, &p, out);
		p.result = wp_result_by("agreement", 1);
	}
	return side_post(ctx, c, g, &p, out);
}

enum wp_err
wp_api_games_draw(struct wp_ctx *ctx)
{
	static const char *const fields[] = {"action", NULL};
	enum wp_err err;

	if ((err = wp_body_only(ctx, fields)))
		return err;
	return wp_mutate(ctx, do_draw);
}

/* Abort: before the first turn, by any seated player. */
static enum wp_err
do_abort(struct wp_ctx *ctx, struct wp_conn *c, struct wp_game *g, int seat, json_object **out)
{
	int first_turn_done;
	enum wp_err err = wp_db_has_turn(c, g->id, &first_turn_done);

	if (err)
		return wp_fail_store(ctx, err);
	if (wp_game_over(g))
		return wp_fail(ctx, WP_ERR_GAME_OVER, "the match is %s", wp_status_str(g->status));
	if (first_turn_done)
		return wp_fail(ctx, WP_ERR_GAME_UNDER_WAY,
		               "a match can be aborted only before its first turn; resign instead");
	struct wp_post p = {.seat = seat, .kind = WP_POST_ABORT, .aborted = 1,
	                    .result = wp_result_by("aborted", 0)};
	return side_post(ctx, c, g, &p, out);
}

enum wp_err
wp_api_games_abort(struct wp_ctx *ctx)
{
	return wp_mutate_no_fields(ctx, do_abort);
}

/* ------------------------------------------------------------- the log */

json_object *
wp_post_json(const struct wp_post_row *w, int viewer, int upto)
{
	json_object *o = json_object_new_object();
	/* A post's actions and standing orders are its seat's; a hidden
	 * comment its writer's; events go to whom they are visible (G5). */
	int mine = wr_visible(wp_private_to(w->seat), viewer);

	json_object_object_add(o, "seq", json_object_new_int(w->seq));
	json_object_object_add(o, "seat", w->seat >= 0 ? json_object_new_int(w->seat) : NULL);
	json_object_object_add(o, "kind", json_object_new_string(wp_post_kind_str(w->kind)));
	json_object_object_add(o, "at", json_object_new_string(w->at));
	json_object_object_add(o, "actions", mine ? json_object_get(w->actions) : NULL);
	json_object_object_add(o, "comment_hidden", json_object_new_boolean(w->comment_hidden));
	json_object_object_add(o, "comment", w->comment && (!w->comment_hidden || mine)
	                                     ? json_object_new_string(w->comment) : NULL);
	json_object_object_add(o, "events", wp_events_visible(w->events, viewer));
	if (viewer == WR_EVERYONE)
		json_object_object_add(o, "rolls", json_object_get(w->rolls));
	/* Taken back by that undo post (issue 14); still in the log. */
	json_object_object_add(o, "undone_by", w->undone_by && w->undone_by <= upto
	                                       ? json_object_new_int(w->undone_by) : NULL);
	return o;
}

enum wp_err
wp_api_games_posts(struct wp_ctx *ctx)
{
	struct wp_player who;
	struct wp_game g = {0};
	struct wp_post_row *rows = NULL;
	int64_t id, after, limit;
	int n = 0;
	enum wp_err err;
	struct wp_conn *c;

	if ((err = wp_game_id(ctx, &id)) ||
	    (err = wp_query_int(ctx, "after", 0, INT32_MAX, 0, &after)) ||
	    (err = wp_query_int(ctx, "limit", 1, 500, 100, &limit)) || (err = wp_conn_get(ctx, &c)))
		return err;
	if ((err = wp_auth_optional(ctx, c, &who)) == WP_OK &&
	    (err = wp_game_get(ctx, c, id, 0, &g)) == WP_OK &&
	    (err = wp_db_posts(c, id, after, limit, &rows, &n)) != WP_OK)
		err = wp_fail_store(ctx, err);
	wp_store_put(ctx->store, c);
	struct wp_sight sight;
	if (err == WP_OK && (err = wp_game_sight(ctx, &g, who.id, &sight)) == WP_OK) {
		/* A spectator held behind sees the log up to its post (issue 14). */
		int shown = n;
		while (shown > 0 && rows[shown - 1].seq > sight.upto)
			shown--;
		g.seq = sight.upto;
		json_object *o = json_object_new_object(), *list = json_object_new_array();
		for (int i = 0; i < shown; i++)
			json_object_array_add(list, wp_post_json(&rows[i], sight.viewer, sight.upto));
		int last = shown ? rows[shown - 1].seq : -1;
		json_object_object_add(o, "game", json_object_new_int64(id));
		json_object_object_add(o, "seq", json_object_new_int(g.seq));
		json_object_object_add(o, "posts", list);
		json_object_object_add(o, "next_after",
		                       last >= 0 && last < g.seq ? json_object_new_int(last) : NULL);
		err = wp_reply_json(ctx, 200, o);
	}
	wp_post_rows_free(rows, n);
	wp_game_free(&g);
	return err;
}
