/* Views of a match: GET /api/games/{id} (ETag per version and viewer,
 * long-poll) and the caller's legal actions. Both are built for one
 * viewer (RULINGS.md G5, wp_viewer). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "wait.h"

#define WP_WAIT_MAX 60

static void
etag_for(char *out, size_t cap, int64_t id, int version, int viewer)
{
	if (viewer == WR_EVERYONE)
		snprintf(out, cap, "\"g%lld-v%d-e\"", (long long)id, version);
	else if (viewer == WR_SPECTATOR)
		snprintf(out, cap, "\"g%lld-v%d-x\"", (long long)id, version);
	else
		snprintf(out, cap, "\"g%lld-v%d-s%d\"", (long long)id, version, viewer);
}

static int
etag_matches(const char *inm, const char *etag)
{
	return inm && (strstr(inm, etag) != NULL || strcmp(inm, "*") == 0);
}

static json_object *
seats_json(const struct wp_game *g)
{
	json_object *seats = json_object_new_array();

	for (int i = 0; i < g->nseats; i++) {
		json_object *s = json_object_new_object(), *p = NULL;
		json_object_object_add(s, "seat", json_object_new_int(i));
		if (g->seats[i].player_id) {
			p = json_object_new_object();
			json_object_object_add(p, "id", json_object_new_int64(g->seats[i].player_id));
			json_object_object_add(p, "name", json_object_new_string(g->seats[i].name));
		}
		json_object_object_add(s, "player", p);
		json_object_array_add(seats, s);
	}
	return seats;
}

static json_object *
game_json(const struct wp_game *g, const void *state, int viewer, int you)
{
	json_object *o = json_object_new_object(), *dice = json_object_new_object();

	json_object_object_add(o, "id", json_object_new_int64(g->id));
	json_object_object_add(o, "ruleset", json_object_new_string(g->ruleset));
	json_object_object_add(o, "title", json_object_new_string(g->rs->title));
	json_object_object_add(o, "options", json_object_get(g->options));
	json_object_object_add(o, "status", json_object_new_string(wp_status_str(g->status)));
	json_object_object_add(o, "seq", json_object_new_int(g->seq));
	json_object_object_add(o, "version", json_object_new_int(g->version));
	json_object_object_add(o, "seats", seats_json(g));
	json_object_object_add(o, "you", you >= 0 ? json_object_new_int(you) : NULL);
	json_object_object_add(o, "awaiting", wp_json_seats(g->awaiting, g->nseats));
	json_object_object_add(o, "draw_offers", wp_json_seats(g->draw_offers, g->nseats));
	json_object_object_add(o, "state", state ? g->rs->view(state, viewer) : NULL);
	json_object_object_add(o, "result", json_object_get(g->result));
	json_object_object_add(dice, "commitment", wp_json_hex(g->commitment, 32));
	/* The seed is the server's secret until everything is revealed. */
	json_object_object_add(dice, "seed", wr_visible(wp_private_to(-1), viewer)
	                                     ? wp_json_hex(g->seed, 32) : NULL);
	json_object_object_add(o, "dice", dice);
	json_object_object_add(o, "created_at", json_object_new_string(g->created_at));
	json_object_object_add(o, "updated_at", json_object_new_string(g->updated_at));
	return o;
}

/* The ETag comes from the game row alone: a 304 loads no snapshot, and
 * costs one round trip with the token checked in it. *answered is 1 when
 * the request is answered (304, or held for a long-poll), 0 when the full
 * view is wanted. */
static enum wp_err
head(struct wp_ctx *ctx, struct wp_conn *c, int64_t id, int64_t wait, uint64_t gen,
     struct wp_player *who, int *answered)
{
	unsigned char hash[32];
	struct wp_game_head h;
	char etag[64];
	int token;
	enum wp_err err;

	*answered = 0;
	if ((err = wp_auth_token(ctx, hash, &token)))
		return err;
	err = wp_db_game_head(c, id, token ? hash : NULL, &h);
	if (err == WP_ERR_NOT_FOUND)
		return wp_fail(ctx, WP_ERR_GAME_NOT_FOUND, "there is no match %lld", (long long)id);
	if (err)
		return wp_fail_store(ctx, err);
	if (token && !h.known)
		return wp_auth_unknown(ctx);
	if (token)
		*who = h.who;
	int over = h.status == WP_STATUS_OVER || h.status == WP_STATUS_ABORTED;
	etag_for(etag, sizeof(etag), id, h.version, wp_viewer(over, h.seat));
	if (!etag_matches(wp_request_header(ctx->req, "If-None-Match"), etag))
		return WP_OK;
	int64_t now = wp_now_ns();
	int64_t until = ctx->req->wait_until_ns ? ctx->req->wait_until_ns : now + wait * 1000000000;
	wp_response_header(ctx->res, "ETag", etag);
	wp_response_header(ctx->res, "Cache-Control", "private, no-cache");
	if (wait > 0 && ctx->req->can_wait && now < until) {
		ctx->res->wait_game = id;
		ctx->res->wait_gen = gen;
		ctx->res->wait_until_ns = until;
		ctx->res->status = 0;
		if (!ctx->req->wait_until_ns)
			wp_metric_add(WP_METRIC_LONGPOLLS, 1);
	} else {
		ctx->res->status = 304;
	}
	*answered = 1;
	return WP_OK;
}

enum wp_err
wp_api_games_get(struct wp_ctx *ctx)
{
	struct wp_player who = {0};
	struct wp_game g = {0};
	int64_t id, wait = 0;
	enum wp_err err;
	char etag[64];
	void *state = NULL;
	struct wp_conn *c;
	int answered;

	if ((err = wp_game_id(ctx, &id)) ||
	    (err = wp_query_int(ctx, "wait", 0, WP_WAIT_MAX, 0, &wait)))
		return err;
	/* Read the generation before the database, so that a change committed
	 * after our read still wakes us (wait.h). */
	uint64_t gen = wp_wait_gen(id);
	if ((err = wp_conn_get(ctx, &c)))
		return err;
	if ((err = head(ctx, c, id, wait, gen, &who, &answered)) == WP_OK && !answered)
		err = wp_game_get(ctx, c, id, 0, &g);
	wp_store_put(ctx->store, c);
	if (err || answered)
		return err;
	int seat = wp_game_seat_of(&g, who.id);
	int viewer = wp_viewer(wp_game_over(&g), seat);
	etag_for(etag, sizeof(etag), id, g.version, viewer);
	state = wp_game_state(&g);
	if (g.state && !state) {
		err = wp_fail(ctx, WP_ERR_INTERNAL, "the match's state could not be read");
	} else {
		json_object *o = game_json(&g, state, viewer, seat);
		wp_response_header(ctx->res, "ETag", etag);
		wp_response_header(ctx->res, "Cache-Control", "private, no-cache");
		wp_response_header(ctx->res, "Vary", "Authorization");
		err = wp_reply_json(ctx, 200, o);
	}
	if (state)
		g.rs->free(state);
	wp_game_free(&g);
	return err;
}

enum wp_err
wp_api_games_actions(struct wp_ctx *ctx)
{
	struct wp_player who = {0};
	struct wp_game g = {0};
	int64_t id;
	enum wp_err err;
	void *state = NULL;
	struct wp_conn *c;

	if ((err = wp_game_id(ctx, &id)) || (err = wp_conn_get(ctx, &c)))
		return err;
	if ((err = wp_auth_player(ctx, c, &who)) == WP_OK)
		err = wp_game_get(ctx, c, id, 0, &g);
	int seat = wp_game_seat_of(&g, who.id);
	/* Undo (issue 14): whether the seat may take back its last post. */
	int can_undo = err == WP_OK && seat >= 0 && wp_undo_possible(c, &g, seat);
	wp_store_put(ctx->store, c);
	if (err)
		return err;
	if (seat < 0) {
		wp_game_free(&g);
		return wp_fail(ctx, WP_ERR_NOT_A_PLAYER, "you hold no seat in this match");
	}
	json_object *o = json_object_new_object();
	json_object_object_add(o, "game", json_object_new_int64(id));
	json_object_object_add(o, "seq", json_object_new_int(g.seq));
	json_object_object_add(o, "seat", json_object_new_int(seat));
	/* A seat's legal actions are its own (G5): listed only to it. */
	int awaited = g.status == WP_STATUS_ACTIVE && (g.awaiting & (1u << seat));
	json_object_object_add(o, "awaited", json_object_new_boolean(awaited));
	state = awaited ? wp_game_state(&g) : NULL;
	json_object_object_add(o, "actions", state ? g.rs->actions(state, seat)
	                                           : json_object_new_array());
	json_object_object_add(o, "can_undo", json_object_new_boolean(can_undo));
	err = wp_reply_json(ctx, 200, o);
	if (state)
		g.rs->free(state);
	wp_game_free(&g);
	return err;
}
