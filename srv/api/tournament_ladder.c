/* A standing ladder (issue 29): a player challenges another up to
 * `reach` places above (wl_ladder_may_challenge); the challenged accepts
 * within accept_days, which starts their match (challenger in seat 0), or
 * forfeits: the places swap as if the challenger had won. When the match
 * ends the round worker settles it (wp_tournament_ladder_settle, called
 * through wp_tournament_advance with the event's row locked): a
 * challenger's win swaps the places (wl_ladder_result), anything else
 * leaves them. A player has one challenge going at a time, made or
 * received. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tournaments.h"

/* The player's place (0 the top) among those not withdrawn, or -1. */
static int
place_of(json_object *t, int64_t player, int64_t *order, int *n)
{
	json_object *ps = jget(t, "players");
	int at = -1;

	*n = 0;
	for (size_t i = 0; i < json_object_array_length(ps) && *n < WL_MAX_PLAYERS; i++) {
		json_object *p = json_object_array_get_idx(ps, i);
		if (json_object_get_boolean(jget(p, "withdrawn")))
			continue;
		if (json_object_get_int64(jget(p, "id")) == player)
			at = *n;
		order[(*n)++] = json_object_get_int64(jget(p, "id"));
	}
	return at;
}

/* 1 when the player has a challenge pending or playing. */
static int
busy(json_object *t, int64_t player)
{
	json_object *list = jget(t, "challenges");
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		json_object *l = json_object_array_get_idx(list, i);
		const char *st = jstr(l, "status");
		if ((strcmp(st, "pending") == 0 || strcmp(st, "playing") == 0) &&
		    (json_object_get_int64(jget(l, "challenger")) == player ||
		     json_object_get_int64(jget(l, "challenged")) == player))
			return 1;
	}
	return 0;
}

/* The places after a challenge: the challenger's win (or a forfeit)
 * swaps it with the challenged, by the league's rule; seeds rewritten. */
static enum wp_err
settle_places(struct wp_ctx *ctx, struct wp_conn *c, json_object *t, json_object *l,
              int challenger_won)
{
	int64_t order[WL_MAX_PLAYERS], id = json_object_get_int64(jget(t, "id"));
	int n, from = place_of(t, json_object_get_int64(jget(l, "challenger")), order, &n);
	int to = place_of(t, json_object_get_int64(jget(l, "challenged")), order, &n);
	int idx[WL_MAX_PLAYERS];
	enum wp_err err = WP_OK;

	if (from < 0 || to < 0)   /* one withdrew since: nothing to swap */
		return WP_OK;
	for (int i = 0; i < n; i++)
		idx[i] = i;
	wl_ladder_result(idx, from, to, challenger_won);
	for (int i = 0; i < n && !err; i++)
		if (idx[i] != i)
			err = wp_db_tournament_seed(c, id, order[idx[i]], i + 1);
	return err ? wp_fail_store(ctx, err) : WP_OK;
}

enum wp_err
wp_tournament_ladder_settle(struct wp_ctx *ctx, struct wp_conn *c, json_object *t, int *moved)
{
	json_object *list = jget(t, "challenges");
	enum wp_err err = WP_OK;

	*moved = 0;
	/* Oldest first: places settle in the order the challenges were made. */
	for (size_t k = json_object_array_length(list); k-- > 0 && !err;) {
		json_object *l = json_object_array_get_idx(list, k), *places = jget(l, "places");
		int64_t cid = json_object_get_int64(jget(l, "id"));
		const char *st = jstr(l, "status");
		if (strcmp(st, "pending") == 0 && json_object_get_boolean(jget(l, "expired"))) {
			if (!(err = settle_places(ctx, c, t, l, 1)) &&
			    (err = wp_db_ladder_set(c, cid, "forfeited", 0, 1)))
				err = wp_fail_store(ctx, err);
		} else if (strcmp(st, "playing") == 0 && places &&
		           json_object_is_type(places, json_type_array)) {
			int won = json_object_get_int(json_object_array_get_idx(places, 0)) <
			          json_object_get_int(json_object_array_get_idx(places, 1));
			if (!(err = settle_places(ctx, c, t, l, won)) &&
			    (err = wp_db_ladder_set(c, cid, "done", 0, won)))
				err = wp_fail_store(ctx, err);
		} else {
			continue;
		}
		*moved = 1;
		/* Places moved: the next settles on the new order. */
		if (!err) {
			json_object *again = NULL;
			if ((err = wp_db_tournament(c, json_object_get_int64(jget(t, "id")), 0, 0, &again)))
				return wp_fail_store(ctx, err);
			json_object_object_add(t, "players", json_object_get(jget(again, "players")));
			json_object_put(again);
		}
	}
	if (*moved && !err && (err = wp_db_tournament_set(c, json_object_get_int64(jget(t, "id")),
	                                                  "running", 0, 0)))
		err = wp_fail_store(ctx, err);
	return err;
}

/* ----------------------------------------------------- the endpoints */

struct laddering {
	struct wp_ctx *ctx;
	struct wp_player who;
	int64_t id, target, cid;
	int accept;
};

static enum wp_err
challenge(struct laddering *a, struct wp_conn *c, json_object *t)
{
	int64_t order[WL_MAX_PLAYERS], cid;
	int n, from = place_of(t, a->who.id, order, &n), to = place_of(t, a->target, order, &n);
	enum wp_err err;

	if (from < 0)
		return wp_fail(a->ctx, WP_ERR_NOT_A_PLAYER, "you are not on this ladder");
	if (to < 0)
		return wp_fail(a->ctx, WP_ERR_INVALID, "player: not on this ladder");
	if (!wl_ladder_may_challenge(from, to, json_object_get_int(jget(t, "reach"))))
		return wp_fail(a->ctx, WP_ERR_FORBIDDEN,
		               "you may challenge a player up to %d places above you",
		               json_object_get_int(jget(t, "reach")));
	if (busy(t, a->who.id) || busy(t, a->target))
		return wp_fail(a->ctx, WP_ERR_TOURNAMENT_CLOSED,
		               "one of you has a challenge going already");
	if ((err = wp_db_ladder_challenge(c, a->id, a->who.id, a->target,
	                                  json_object_get_int(jget(t, "accept_days")), &cid)))
		return wp_fail_store(a->ctx, err);
	return WP_OK;
}

static enum wp_err
accept(struct laddering *a, struct wp_conn *c, json_object *t)
{
	json_object *list = jget(t, "challenges"), *l = NULL;
	int64_t ids[2], game;
	enum wp_err err;

	for (size_t i = 0; i < json_object_array_length(list) && !l; i++)
		if (json_object_get_int64(jget(json_object_array_get_idx(list, i), "id")) == a->cid)
			l = json_object_array_get_idx(list, i);
	if (!l)
		return wp_fail(a->ctx, WP_ERR_TOURNAMENT_NOT_FOUND, "no such challenge on this ladder");
	if (json_object_get_int64(jget(l, "challenged")) != a->who.id)
		return wp_fail(a->ctx, WP_ERR_FORBIDDEN, "only the challenged player accepts");
	if (strcmp(jstr(l, "status"), "pending") != 0 || json_object_get_boolean(jget(l, "expired")))
		return wp_fail(a->ctx, WP_ERR_TOURNAMENT_CLOSED, "this challenge is no longer pending");
	ids[0] = json_object_get_int64(jget(l, "challenger"));
	ids[1] = a->who.id;
	if ((err = wp_tournament_match(a->ctx, c, t, ids, 2, &game)))
		return err;
	if ((err = wp_db_ladder_set(c, a->cid, "playing", game, -1)))
		return wp_fail_store(a->ctx, err);
	return WP_OK;
}

static enum wp_err
ladder_tx(struct wp_conn *c, void *arg)
{
	struct laddering *a = arg;
	json_object *t = NULL;
	enum wp_err err;

	if ((err = wp_db_tournament(c, a->id, 1, 0, &t)))
		return err == WP_ERR_NOT_FOUND
		       ? wp_fail(a->ctx, WP_ERR_TOURNAMENT_NOT_FOUND, "there is no tournament %lld",
		                 (long long)a->id)
		       : wp_fail_store(a->ctx, err);
	if (strcmp(jstr(t, "kind"), "ladder") != 0 || strcmp(jstr(t, "status"), "running") != 0)
		err = wp_fail(a->ctx, WP_ERR_TOURNAMENT_CLOSED, "not a ladder under way");
	else
		err = a->accept ? accept(a, c, t) : challenge(a, c, t);
	json_object_put(t);
	if (!err && ((err = wp_db_tournament_set(c, a->id, "running", 0, 0)) ||
	             (err = wp_db_tournament_notify(c, a->id))))
		err = wp_fail_store(a->ctx, err);
	return err;
}

static enum wp_err
ladder(struct wp_ctx *ctx, int accepting)
{
	static const char *const fields[] = {"player", NULL};
	struct laddering a = {.ctx = ctx, .accept = accepting};
	enum wp_err err;

	if (wp_parse_id(ctx->match->params[0], &a.id) != 0)
		return wp_fail(ctx, WP_ERR_TOURNAMENT_NOT_FOUND, "there is no such tournament");
	if (accepting && wp_parse_id(ctx->match->params[1], &a.cid) != 0)
		return wp_fail(ctx, WP_ERR_TOURNAMENT_NOT_FOUND, "no such challenge on this ladder");
	if ((!accepting && ((err = wp_body_only(ctx, fields)) ||
	                    (err = wp_body_int(ctx, "player", 1, INT64_MAX, 1, 0, &a.target)))) ||
	    (err = wp_limit_token(ctx, WP_RATE_WRITES)))
		return err;
	if ((err = wp_player_tx(ctx, &a.who, ladder_tx, &a)))
		return err;
	return wp_api_tournaments_get(ctx);
}

enum wp_err
wp_api_tournaments_challenge(struct wp_ctx *ctx)
{
	return ladder(ctx, 0);
}

enum wp_err
wp_api_tournaments_challenge_accept(struct wp_ctx *ctx)
{
	return ladder(ctx, 1);
}
