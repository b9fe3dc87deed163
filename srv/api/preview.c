/* A draft tried before it is posted (issue 30, item 1):
 * POST /api/games/{id}/preview {"actions": [...], "seq": n} applies the
 * actions in order to a copy of the match for the caller's seat and
 * answers the seat's view after them and its legal actions then, or the
 * refusal a turn of those actions would get (problem+json with the
 * failing index). It changes nothing and stores nothing.
 *
 * Nothing is learnt from a dry run that the post would not tell:
 * - a die is never rolled: the dry run's dice stream stops at its first
 *   draw (the next real draw is the match's, and a die seen here would be
 *   the die of the post). An action that rolls ends the draft: as the
 *   last action it is answered with the position before it and
 *   "ends": {"index", "reason": "dice"}; before the last, it is refused
 *   (422 rolls-dice);
 * - an action that reveals something hidden (the undo barrier,
 *   wr_undo_reveals: a private event to another seat, a phase changed,
 *   the ruleset's barrier such as a unit seen through the fog) ends the
 *   draft the same way ("reason": "revealed", or 422 reveals-hidden).
 *
 * Where whether an action reveals depends on what the poster cannot see
 * (Officers Chess under fog: a move brings an enemy into sight or not;
 * Blood Chess: a piece met may be a Mirror), the ruleset's may_reveal
 * says so from what the seat sees alone, and the draft ends at every such
 * action whatever the hidden state: where a draft ends tells nothing.
 * test_preview shows a fog move that sights nobody ending it too. */
#include <stdio.h>
#include <string.h>

#include "api.h"

#define PREVIEW_MAX_ACTIONS 64

/* The dry run's dice: the first draw marks the run and answers 0. */
static uint32_t
no_dice(struct wr_rng *rng, uint32_t bound)
{
	(void)bound;
	*(int *)rng->impl = 1;
	return 0;
}

enum ends { ENDS_NONE, ENDS_DICE, ENDS_REVEALED };

struct dry_run {
	void *state;             /* after the actions applied, owned */
	int applied;
	enum ends ends;          /* why the action at `applied` was not applied */
};

/* Applies the actions for the seat on copies; WP_OK with run->state, or
 * the refusal. */
static enum wp_err
dry_run(struct wp_ctx *ctx, const struct wp_game *g, int seat, json_object *actions,
        struct dry_run *run)
{
	const struct wr_ruleset *rs = g->rs;
	size_t n = json_object_array_length(actions);
	struct wr_error e;

	for (size_t i = 0; i < n; i++) {
		if (!(rs->to_act(run->state) & (1u << seat))) {
			if (i == 0)
				return wp_fail(ctx, WP_ERR_NOT_AWAITED, "the match is not waiting for you");
			wr_fail(&e, "not-awaited", "", "your turn ends with action %zu", i - 1);
			return wp_fail_rules(ctx, WP_ERR_ILLEGAL_ACTION, &e, (int)i);
		}
		int rolled = 0;
		struct wr_rng rng = {.next = no_dice, .impl = &rolled, .count = (uint64_t)g->draws};
		struct wr_events ev = {0};
		void *next = wr_clone(rs, run->state);
		if (!next)
			return wp_fail(ctx, WP_ERR_INTERNAL, "the match's state could not be copied");
		json_object *act = json_object_array_get_idx(actions, i);
		int bad = rs->apply(next, seat, act, &rng, &ev, &e);
		enum ends why = bad ? ENDS_NONE
		                : rolled ? ENDS_DICE
		                : (rs->may_reveal && rs->may_reveal(run->state, seat, act)) ||
		                          wr_undo_reveals(rs, run->state, next, seat, &ev)
		                      ? ENDS_REVEALED
		                      : ENDS_NONE;
		wr_events_free(&ev);
		if (bad || why != ENDS_NONE)
			rs->free(next);
		if (bad)
			return wp_fail_rules(ctx, WP_ERR_ILLEGAL_ACTION, &e, (int)i);
		if (why != ENDS_NONE && i + 1 < n) {
			if (why == ENDS_DICE)
				wr_fail(&e, "rolls-dice", "",
				        "action %zu rolls dice: it can only be the last of a draft", i);
			else
				wr_fail(&e, "reveals-hidden", "",
				        "action %zu reveals something hidden: it can only be the last of a "
				        "draft", i);
			return wp_fail_rules(ctx, WP_ERR_ILLEGAL_ACTION, &e, (int)i);
		}
		if (why != ENDS_NONE) {
			run->ends = why;
			return WP_OK;
		}
		rs->free(run->state);
		run->state = next;
		run->applied = (int)i + 1;
	}
	return WP_OK;
}

static json_object *
answer(const struct wp_game *g, int seat, int viewer, const struct dry_run *run)
{
	static const char *const reasons[] = {[ENDS_DICE] = "dice", [ENDS_REVEALED] = "revealed"};
	const struct wr_ruleset *rs = g->rs;
	json_object *o = json_object_new_object(), *ends = NULL;
	unsigned awaiting = rs->to_act(run->state);
	struct wr_result res;

	rs->result(run->state, &res);
	if (res.over)
		awaiting = 0;
	int awaited = run->ends == ENDS_NONE && (awaiting & (1u << seat));
	json_object_object_add(o, "game", json_object_new_int64(g->id));
	json_object_object_add(o, "seq", json_object_new_int(g->seq));
	json_object_object_add(o, "seat", json_object_new_int(seat));
	json_object_object_add(o, "applied", json_object_new_int(run->applied));
	json_object_object_add(o, "awaiting", wp_json_seats(awaiting, g->nseats));
	json_object_object_add(o, "over", json_object_new_boolean(res.over));
	json_object_object_add(o, "state", rs->view(run->state, viewer));
	json_object_object_add(o, "awaited", json_object_new_boolean(awaited));
	json_object_object_add(o, "actions", awaited ? rs->actions(run->state, seat)
	                                             : json_object_new_array());
	if (run->ends != ENDS_NONE) {
		ends = json_object_new_object();
		json_object_object_add(ends, "index", json_object_new_int(run->applied));
		json_object_object_add(ends, "reason", json_object_new_string(reasons[run->ends]));
	}
	json_object_object_add(o, "ends", ends);
	return o;
}

static enum wp_err
preview(struct wp_ctx *ctx, struct wp_conn *c, int64_t id, json_object *actions, int64_t seq)
{
	struct wp_player who = {0};
	struct wp_game g = {0};
	struct wp_sight sight;
	enum wp_err err;

	if ((err = wp_auth_player(ctx, c, &who)) || (err = wp_game_get(ctx, c, id, 0, &g)))
		return err;
	if ((err = wp_game_sight(ctx, &g, who.id, &sight)))
		goto out;
	int seat = wp_game_seat_of(&g, who.id);
	if (seat < 0) {
		err = wp_fail(ctx, WP_ERR_NOT_A_PLAYER, "you hold no seat in this match");
		goto out;
	}
	if ((err = wp_must_be_active(ctx, &g)))
		goto out;
	if (seq >= 0 && seq != g.seq) {
		wp_fail_extra(ctx, "seq", json_object_new_int(g.seq));
		err = wp_fail(ctx, WP_ERR_STALE_SEQUENCE,
		              "the match is at post %d, not %lld: reload and try again", g.seq,
		              (long long)seq);
		goto out;
	}
	if (!(g.awaiting & (1u << seat))) {
		err = wp_fail(ctx, WP_ERR_NOT_AWAITED, "the match is not waiting for you");
		goto out;
	}
	struct dry_run run = {.state = wp_game_state(&g)};
	if (!run.state) {
		err = wp_fail(ctx, WP_ERR_INTERNAL, "the match's state could not be read");
		goto out;
	}
	if ((err = dry_run(ctx, &g, seat, actions, &run)) == WP_OK)
		err = wp_reply_json(ctx, 200, answer(&g, seat, sight.viewer, &run));
	g.rs->free(run.state);
out:
	wp_game_free(&g);
	return err;
}

enum wp_err
wp_api_games_preview(struct wp_ctx *ctx)
{
	static const char *const fields[] = {"seq", "actions", NULL};
	json_object *actions;
	struct wp_conn *c;
	int64_t id, seq;
	enum wp_err err;

	if ((err = wp_game_id(ctx, &id)) || (err = wp_body_only(ctx, fields)) ||
	    (err = wp_body_required(ctx, "actions", json_type_array, &actions)) ||
	    (err = wp_body_int(ctx, "seq", 0, INT32_MAX, 0, -1, &seq)))
		return err;
	size_t n = json_object_array_length(actions);
	if (n > PREVIEW_MAX_ACTIONS)
		return wp_fail(ctx, WP_ERR_INVALID, "actions: at most %d actions", PREVIEW_MAX_ACTIONS);
	for (size_t i = 0; i < n; i++)
		if (!json_object_is_type(json_object_array_get_idx(actions, i), json_type_object))
			return wp_fail(ctx, WP_ERR_INVALID, "actions[%zu]: must be an object", i);
	if ((err = wp_conn_get(ctx, &c)))
		return err;
	err = preview(ctx, c, id, actions, seq);
	wp_store_put(ctx->store, c);
	return err;
}
