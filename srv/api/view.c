/* Views of a match: GET /api/games/{id} (ETag per version and viewer,
 * long-poll) and the caller's legal actions. Both are built for one
 * viewer (RULINGS.md G5, wp_viewer). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "replay.h"
#include "wait.h"

#define WP_WAIT_MAX 60

static void
etag_for(char *out, size_t cap, int64_t id, int version, int viewer)
{
	wp_etag_viewer(out, cap, 'g', id, 'v', version, viewer);
}

/* A spectator held behind (issue 14) has its own tag: the post it sees. */
static void
etag_sight(char *out, size_t cap, int64_t id, int version, const struct wp_sight *s)
{
	if (s->delayed)
		snprintf(out, cap, "\"g%lld-d%d-x\"", (long long)id, s->upto);
	else
		etag_for(out, cap, id, version, s->viewer);
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
			json_object_object_add(p, "bot", json_object_new_boolean(g->seats[i].bot));
		}
		json_object_object_add(s, "player", p);
		json_object_array_add(seats, s);
	}
	return seats;
}

static json_object *
game_json(const struct wp_game *g, const void *state, int viewer, int you,
          const struct wp_game_clock *gc)
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
	json_object_object_add(o, "time_control", wp_tc_json(&g->tc));
	json_object_object_add(o, "clock", wp_clock_json(g, gc));
	json_object_object_add(o, "spectators", json_object_new_string(wp_watch_str(g->watch)));
	json_object_object_add(o, "spectator_delay", json_object_new_int(g->delay));
	json_object_object_add(o, "rated", json_object_new_boolean(g->rated));
	return o;
}

/* With If-None-Match naming the current ETag: 304, or with ?wait the
 * request held until the match changes. 1 when so answered. */
static int
unchanged(struct wp_ctx *ctx, int64_t id, int64_t wait, uint64_t gen, const char *etag)
{
	if (!etag_matches(wp_request_header(ctx->req, "If-None-Match"), etag))
		return 0;
	int64_t now = wp_now_ns();
	int64_t until = ctx->req->wait_until_ns ? ctx->req->wait_until_ns : now + wait * 1000000000;
	wp_response_header(ctx->res, "ETag", etag);
	wp_response_header(ctx->res, "Cache-Control", "private, no-cache");
	if (wait > 0 && ctx->req->can_wait && now < until)
		wp_hold(ctx, id, gen, until);
	else
		ctx->res->status = 304;
	return 1;
}

/* The conditional GET from memory (issue 17): the player from the token
 * cache, the match's head from the match cache (store/cache.c), the
 * sight and the ETag exactly as from the database (wp_sight_of: a private
 * match is not found by whoever is not seated, a spectator held behind
 * gets the tag of the post it sees). *answered is 1 when the request is
 * answered (304, held, or refused); 0 when the cache does not know the
 * token or the match, or the tag differs: the database decides. */
static enum wp_err
unchanged_cached(struct wp_ctx *ctx, int64_t id, int64_t wait, uint64_t gen, int *answered)
{
	unsigned char hash[32];
	struct wp_player who = {0};
	struct wp_game_head h;
	struct wp_sight sight;
	char etag[64];
	int token;
	enum wp_err err;

	/* A token that is not one is refused first, as before the cache. */
	*answered = 0;
	if ((err = wp_auth_token(ctx, hash, &token)))
		return err;
	if (!wp_request_header(ctx->req, "If-None-Match"))
		return WP_OK;
	if ((token && !wp_cache_player(hash, &who)) || !wp_cache_head(id, who.id, &h))
		return WP_OK;
	*answered = 1;
	if ((err = wp_sight_of(ctx, id, h.watch, h.delay, h.seq, h.status, h.seat, &sight)))
		return err;
	etag_sight(etag, sizeof(etag), id, h.version, &sight);
	*answered = unchanged(ctx, id, wait, gen, etag);
	return WP_OK;
}

/* A spectator held behind sees the match as it was after post upto: the
 * state replayed, and the row's members as they were then (seq, version,
 * awaiting, time), nothing of the posts after it (issue 14). */
static enum wp_err
delayed_state(struct wp_ctx *ctx, struct wp_game *g, int upto, void **state)
{
	char at[WP_TIME_MAX] = "";
	struct wp_past past;
	struct wp_conn *c;
	enum wp_err err;

	if ((err = wp_conn_get(ctx, &c)))
		return err;
	err = wp_past_at(ctx, c, g, upto, &past, at);
	wp_store_put(ctx->store, c);
	if (err)
		return err;
	g->seq = g->version = upto;
	g->awaiting = past.awaiting;
	g->draw_offers = past.draw_offers;
	*state = past.state;
	past.state = NULL;
	wp_past_free(g, &past);
	snprintf(g->updated_at, sizeof(g->updated_at), "%s", at);
	return WP_OK;
}

/* GET /api/games/{id}?at=SEQ: the match as it was after post SEQ, replayed
 * from the stored posts with the match's own dice, as this viewer may see
 * it now (G5: a seat sees what it saw then; once the match is over,
 * everything). The members are those the live view had after that post:
 * its seq, version, status, awaiting, draw offers, result and time. */
static enum wp_err
games_get_at(struct wp_ctx *ctx, int64_t id, int64_t at)
{
	struct wp_player who;
	struct wp_game g = {0};
	struct wp_past past = {0};
	struct wp_conn *c;
	char at_time[WP_TIME_MAX];
	enum wp_err err;

	if ((err = wp_conn_get(ctx, &c)))
		return err;
	struct wp_sight sight;
	if ((err = wp_auth_optional(ctx, c, &who)) == WP_OK &&
	    (err = wp_game_get(ctx, c, id, 0, &g)) == WP_OK &&
	    (err = wp_game_sight(ctx, &g, who.id, &sight)) == WP_OK && at > sight.upto)
		/* A spectator held behind may not see a later post (issue 14):
		 * told as of a post not made yet. */
		err = wp_fail(ctx, WP_ERR_NOT_FOUND, "match %lld has %d posts, not %lld",
		              (long long)id, sight.upto, (long long)at);
	if (err == WP_OK)
		err = wp_past_at(ctx, c, &g, (int)at, &past, at_time);
	wp_store_put(ctx->store, c);
	if (err == WP_OK) {
		int seat = sight.seat;
		int viewer = sight.viewer;
		char etag[80];
		/* The version after that post: the version now less the posts
		 * since (a vacation since counts too, README). Not the version
		 * now: that would tell a spectator held behind how many posts it
		 * may not see yet. */
		g.version -= g.seq - (int)at;
		etag_for(etag, sizeof(etag) - 24, id, g.version, viewer);
		snprintf(etag + strlen(etag) - 1, 24, "-a%lld\"", (long long)at);
		g.status = past.status;
		g.awaiting = past.awaiting;
		g.draw_offers = past.draw_offers;
		/* The last post's result as stored (its members in the
		 * database's order), as the live view gives it. */
		if (at != g.seq) {
			json_object_put(g.result);
			g.result = json_object_get(past.result);
		}
		g.seq = (int)at;
		snprintf(g.updated_at, sizeof(g.updated_at), "%s", at_time);
		/* A past position shows no running clock: clocks are the
		 * present's (time_control stays, clock is null). */
		const struct wp_game_clock no_clock = {0};
		json_object *o = game_json(&g, past.state, viewer, seat, &no_clock);
		wp_response_header(ctx->res, "ETag", etag);
		wp_response_header(ctx->res, "Cache-Control", "private, no-cache");
		wp_response_header(ctx->res, "Vary", "Authorization");
		err = wp_reply_json(ctx, 200, o);
	}
	if (g.rs)
		wp_past_free(&g, &past);
	wp_game_free(&g);
	return err;
}

enum wp_err
wp_api_games_get(struct wp_ctx *ctx)
{
	struct wp_player who = {0};
	struct wp_game g = {0};
	struct wp_game_clock gc = {0};
	struct wp_sight sight;
	int64_t id, wait = 0, at;
	enum wp_err err;
	char etag[64];
	void *state = NULL;
	struct wp_conn *c;
	int answered = 0;

	if ((err = wp_game_id(ctx, &id)) ||
	    (err = wp_query_int(ctx, "wait", 0, WP_WAIT_MAX, 0, &wait)) ||
	    (err = wp_query_int(ctx, "at", 1, INT32_MAX, 0, &at)))
		return err;
	if (at)
		return games_get_at(ctx, id, at);
	/* Read the generation before the cache or the database, so that a
	 * change committed after our read still wakes us (wait.h). */
	uint64_t gen = wp_wait_gen(id);
	if ((err = unchanged_cached(ctx, id, wait, gen, &answered)) || answered)
		return err;
	if ((err = wp_conn_get(ctx, &c)))
		return err;
	/* The match loaded whole (which the cache learns from), then the
	 * player: a match that does not exist is told first, as it was
	 * before the cache. Then the same conditional answer as from memory. */
	if ((err = wp_game_get(ctx, c, id, 0, &g)) == WP_OK &&
	    (err = wp_auth_optional(ctx, c, &who)) == WP_OK &&
	    (err = wp_game_sight(ctx, &g, who.id, &sight)) == WP_OK) {
		etag_sight(etag, sizeof(etag), id, g.version, &sight);
		answered = unchanged(ctx, id, wait, gen, etag);
	}
	if (err == WP_OK && !answered &&
	    (err = wp_clock_load(c, id, g.seq, g.version, &g.tc, g.status, g.nseats, wp_clock_now(), &gc)))
		err = wp_fail_store(ctx, err);
	wp_store_put(ctx->store, c);
	if (err || answered) {
		wp_game_free(&g);
		return err;
	}
	if (sight.delayed)
		err = delayed_state(ctx, &g, sight.upto, &state);
	else if (g.state && !(state = wp_game_state_current(&g)))
		err = wp_fail(ctx, WP_ERR_INTERNAL, "the match's state could not be read");
	if (err == WP_OK) {
		/* A spectator held behind sees no clock: it would tell that
		 * posts were made after the position shown. */
		const struct wp_game_clock no_clock = {0};
		json_object *o = game_json(&g, state, sight.viewer, sight.seat,
		                           sight.delayed ? &no_clock : &gc);
		wp_response_header(ctx->res, "ETag", etag);
		wp_response_header(ctx->res, "Cache-Control", "private, no-cache");
		wp_response_header(ctx->res, "Vary", "Authorization");
		err = wp_reply_json(ctx, 200, o);
	}
	if (state && !sight.delayed)
		wp_game_state_done(&g, state);
	else if (state)
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
	struct wp_sight sight;
	if ((err = wp_game_sight(ctx, &g, who.id, &sight))) {
		wp_game_free(&g);
		return err;
	}
	if (seat < 0) {
		wp_game_free(&g);
		return wp_fail(ctx, WP_ERR_NOT_A_PLAYER, "you hold no seat in this match");
	}
	/* Written as text, the list without a tree where the ruleset has
	 * actions_out (issue 32: the tree was two thirds of a listing). */
	struct wr_out w = {.text = 1, .noslash = 1};
	wr_out_obj(&w, NULL);
	wr_out_int(&w, "game", id);
	wr_out_int(&w, "seq", g.seq);
	wr_out_int(&w, "seat", seat);
	/* A seat's legal actions are its own (G5): listed only to it. */
	int awaited = g.status == WP_STATUS_ACTIVE && (g.awaiting & (1u << seat));
	wr_out_bool(&w, "awaited", awaited);
	state = awaited ? wp_game_state_current(&g) : NULL;
	if (state) {
		wr_actions_out(g.rs, state, seat, &w, "actions");
	} else {
		wr_out_arr(&w, "actions");
		wr_out_end(&w);
	}
	wr_out_bool(&w, "can_undo", can_undo);
	wr_out_end(&w);
	char *text = wr_out_finish(&w);
	err = text ? wp_reply_bytes(ctx, 200, "application/json", text, strlen(text)) : WP_ERR_INTERNAL;
	wp_game_state_done(&g, state);
	wp_game_free(&g);
	return err;
}
