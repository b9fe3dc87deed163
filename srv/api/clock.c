/* Time controls and vacations (issue "Correspondence play"): the time
 * control taken at creation, each seat's clock in views, refusing the
 * turns of a seat whose time ran out, claiming a win on time, and a
 * player's vacations. Clocks are derived (match/clock.h): views send
 * deadlines, not countdowns, so a view changes only with a post or a
 * vacation, both of which give the match a new version (ETag). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"

enum wp_err
wp_time_control(struct wp_ctx *ctx, struct wp_tc *tc)
{
	json_object *v = NULL;
	char why[160];
	int unprocessable;

	json_object_object_get_ex(ctx->body, "time_control", &v);
	if (wp_tc_parse(v, tc, why, sizeof(why), &unprocessable) == 0)
		return WP_OK;
	wp_fail_extra(ctx, "field", json_object_new_string("time_control"));
	return wp_fail(ctx, unprocessable ? WP_ERR_INVALID_OPTION : WP_ERR_INVALID, "%s", why);
}

enum wp_err
wp_clock_load(struct wp_conn *c, int64_t game, int seq, int version, const struct wp_tc *tc,
              enum wp_status status, int nseats, int64_t now, struct wp_game_clock *gc)
{
	struct wp_clock_input in;
	enum wp_err err;

	memset(gc, 0, sizeof(*gc));
	if (!tc->on || status == WP_STATUS_OPEN)
		return WP_OK;
	if (version < 0 || !wp_cache_clock(game, version, &in)) {
		if ((err = wp_db_clock_load(c, game, seq, nseats, &in)) != WP_OK)
			return err;
		if (version >= 0)
			wp_cache_clock_put(game, version, &in);
	}
	wp_clock_derive(tc, &in, nseats, now, gc);
	wp_clock_input_free(&in);
	return WP_OK;
}

void
wp_clock_derive(const struct wp_tc *tc, const struct wp_clock_input *in, int nseats, int64_t now,
                struct wp_game_clock *gc)
{
	const struct wp_interval *vac[WR_MAX_SEATS];
	struct wp_clock_fold f;

	memset(gc, 0, sizeof(*gc));
	for (int s = 0; s < WR_MAX_SEATS; s++) {
		vac[s] = in->vac[s];
		if (in->nvac[s]) {
			gc->has_vac[s] = 1;
			gc->last_vac[s] = in->vac[s][in->nvac[s] - 1];
		}
	}
	wp_clock_input_fold(tc, in, nseats, &f);
	wp_clock_fold_end(tc, &f, vac, in->nvac, nseats, now, gc->seat);
	gc->on = 1;
}

static json_object *
iso_or_null(int64_t t, int present)
{
	char buf[32];

	if (!present)
		return NULL;
	wp_clock_iso(t, buf, sizeof(buf));
	return json_object_new_string(buf);
}

json_object *
wp_clock_json(const struct wp_game *g, const struct wp_game_clock *gc)
{
	json_object *o, *seats;

	if (!gc->on)
		return NULL;
	o = json_object_new_object();
	seats = json_object_new_array();
	for (int s = 0; s < g->nseats; s++) {
		const struct wp_seat_clock *c = &gc->seat[s];
		json_object *one = json_object_new_object(), *vac = NULL;
		json_object_object_add(one, "seat", json_object_new_int(s));
		json_object_object_add(one, "awaited", json_object_new_boolean(c->awaited));
		json_object_object_add(one, "bank_seconds", json_object_new_int64(c->bank));
		json_object_object_add(one, "since", iso_or_null(c->since, c->awaited));
		json_object_object_add(one, "deadline", iso_or_null(c->deadline, c->awaited));
		/* Only while the match is played: a vacation gives the active
		 * matches a new version (their ETags), not the ended ones. */
		if (gc->has_vac[s] && g->status == WP_STATUS_ACTIVE) {
			vac = json_object_new_object();
			json_object_object_add(vac, "from", iso_or_null(gc->last_vac[s].from, 1));
			json_object_object_add(vac, "until", iso_or_null(gc->last_vac[s].to, 1));
		}
		json_object_object_add(one, "last_vacation", vac);
		json_object_array_add(seats, one);
	}
	json_object_object_add(o, "seats", seats);
	return o;
}

void
wp_my_game_clock(json_object *line, const struct wp_tc *tc, const struct wp_game_clock *gc,
                 int seat, int nseats)
{
	const struct wp_seat_clock *me = &gc->seat[seat];
	int mine = gc->on && me->awaited, claim = 0;

	for (int s = 0; gc->on && !me->flagged && s < nseats; s++)
		claim |= s != seat && gc->seat[s].flagged;
	json_object_object_add(line, "time_control", wp_tc_json(tc));
	json_object_object_add(line, "deadline", iso_or_null(me->deadline, mine));
	json_object_object_add(line, "seconds_left", mine ? json_object_new_int64(me->left) : NULL);
	json_object_object_add(line, "can_claim", json_object_new_boolean(claim));
}

void
wp_clock_turns(const struct wp_game *g, const void *state, const struct wp_post *p,
               unsigned awaiting, struct wp_clock_mark *m)
{
	void *own = NULL;

	/* Draw offers and the like change no state: the match's own, from
	 * its row (they are rare; a turn has its state at hand). */
	if (g->tc.on && g->rs->turn_of && awaiting && !state)
		state = own = wp_game_state(g);
	wp_turn_masks(g->rs, g->tc.on ? state : NULL, awaiting,
	              p->kind == WP_POST_TURN ? p->seat : -1, m);
	if (own)
		g->rs->free(own);
}

enum wp_err
wp_clock_turn_check(struct wp_ctx *ctx, struct wp_conn *c, const struct wp_game *g, int seat)
{
	struct wp_game_clock gc;
	enum wp_err err;

	if (!g->tc.on)
		return WP_OK;
	if ((err = wp_clock_load(c, g->id, g->seq, g->version, &g->tc, g->status, g->nseats, wp_clock_now(), &gc)))
		return wp_fail_store(ctx, err);
	if (gc.on && gc.seat[seat].flagged)
		return wp_fail(ctx, WP_ERR_TIME_EXPIRED,
		               "your time ran out; you may still resign, an opponent may claim the win");
	return WP_OK;
}

/* ------------------------------------------------------------- claim */

/* The flagged seats leave the match as resigning seats do (the ruleset
 * decides: in 2-seat matches the claimant wins); a match that ends so
 * ends "on time". One post, like every ending. */
static enum wp_err
do_claim(struct wp_ctx *ctx, struct wp_conn *c, struct wp_game *g, int seat, json_object **out)
{
	struct wp_game_clock gc;
	struct wr_hmac_stream hs;
	struct wr_rng rng;
	struct wr_events ev = {0};
	struct wr_error e;
	struct wr_result res;
	enum wp_err err;
	void *state;

	if ((err = wp_must_be_in_play(ctx, g, seat)))
		return err;
	if (!g->tc.on)
		return wp_fail(ctx, WP_ERR_TIME_NOT_EXPIRED, "this match has no time control");
	if ((err = wp_clock_load(c, g->id, g->seq, g->version, &g->tc, g->status, g->nseats, wp_clock_now(), &gc)))
		return wp_fail_store(ctx, err);
	if (gc.seat[seat].flagged)
		return wp_fail(ctx, WP_ERR_TIME_EXPIRED, "your own time ran out");
	json_object *flagged = json_object_new_array();
	for (int s = 0; s < g->nseats; s++) {
		if (s == seat || !gc.seat[s].flagged || !(g->awaiting & (1u << s)))
			continue;
		json_object *f = json_object_new_object();
		json_object_object_add(f, "type", json_object_new_string("flag"));
		json_object_object_add(f, "seat", json_object_new_int(s));
		json_object_array_add(flagged, f);
	}
	if (json_object_array_length(flagged) == 0) {
		json_object_put(flagged);
		return wp_fail(ctx, WP_ERR_TIME_NOT_EXPIRED, "no opponent's time has run out");
	}
	if (!(state = wp_game_state(g))) {
		json_object_put(flagged);
		return wp_fail(ctx, WP_ERR_INTERNAL, "the match's state could not be read");
	}
	wp_game_dice(g, &hs, &rng);
	struct wp_post p = {.seat = seat, .kind = WP_POST_CLAIM, .content = flagged};
	if (wp_apply_claim(g->rs, state, flagged, &rng, &ev, &e) != 0) {
		err = wp_fail(ctx, WP_ERR_INTERNAL, "the claim could not be applied");
	} else {
		g->rs->result(state, &res);
		if ((p.result = wp_result_json(&res, g->nseats)) != NULL)
			json_object_object_add(p.result, "reason", json_object_new_string("time"));
		err = wp_post_store(ctx, c, g, state, &p, &rng, &ev, out);
	}
	json_object_put(p.result);
	json_object_put(flagged);
	g->rs->free(state);
	wr_events_free(&ev);
	wr_rng_record_free(&rng);
	return err;
}

enum wp_err
wp_api_games_claim(struct wp_ctx *ctx)
{
	static const char *const fields[] = {NULL};
	enum wp_err err;

	if (ctx->body && (err = wp_body_only(ctx, fields)))
		return err;
	return wp_mutate(ctx, do_claim);
}

/* --------------------------------------------------------- vacations */

struct vacation {
	struct wp_ctx *ctx;
	struct wp_player who;
	int64_t days, now;
	json_object *out;
};

static json_object *
vacation_json(const struct wp_interval *v, int n, int64_t created, int64_t now)
{
	json_object *o = json_object_new_object(), *list = json_object_new_array();
	int on = n > 0 && v[n - 1].from <= now && now < v[n - 1].to;

	json_object_object_add(o, "balance_days",
	                       json_object_new_int(wp_vacation_balance_from(created, now, v, n,
	                                                                    wp_vacation_every(),
	                                                                    wp_vacation_cap(),
	                                                                    wp_vacation_start())));
	json_object_object_add(o, "earn_every_days",
	                       json_object_new_int((int)(wp_vacation_every() / WP_DAY)));
	json_object_object_add(o, "max_days", json_object_new_int(wp_vacation_cap()));
	json_object_object_add(o, "on_vacation_until", iso_or_null(on ? v[n - 1].to : 0, on));
	for (int i = 0; i < n; i++) {
		json_object *one = json_object_new_object();
		json_object_object_add(one, "from", iso_or_null(v[i].from, 1));
		json_object_object_add(one, "until", iso_or_null(v[i].to, 1));
		json_object_array_add(list, one);
	}
	json_object_object_add(o, "vacations", list);
	return o;
}

static enum wp_err
vacation_tx(struct wp_conn *c, void *arg)
{
	struct vacation *m = arg;
	struct wp_interval *v = NULL;
	int64_t created = 0;
	int n = 0;
	enum wp_err err = wp_db_vacations(c, m->who.id, &v, &n, &created);

	if (err) {
		err = wp_fail_store(m->ctx, err);
	} else if (m->days > 0) {
		int balance = wp_vacation_balance_from(created, m->now, v, n, wp_vacation_every(),
		                                       wp_vacation_cap(), wp_vacation_start());
		if (n > 0 && v[n - 1].to > m->now)
			err = wp_fail(m->ctx, WP_ERR_VACATION_UNAVAILABLE,
			              "you are on vacation already");
		else if (m->days > balance)
			err = wp_fail(m->ctx, WP_ERR_VACATION_UNAVAILABLE,
			              "you have %d vacation days, not %lld", balance, (long long)m->days);
		else if ((err = wp_db_vacation_insert(c, m->who.id, m->now,
		                                      m->now + m->days * WP_DAY)))
			err = wp_fail_store(m->ctx, err);
		if (err == WP_OK) {
			free(v);
			v = NULL;
			err = wp_db_vacations(c, m->who.id, &v, &n, &created);
			if (err)
				err = wp_fail_store(m->ctx, err);
		}
	}
	if (err == WP_OK)
		m->out = vacation_json(v, n, created, m->now);
	free(v);
	return err;
}

static enum wp_err
vacation(struct wp_ctx *ctx, int64_t days)
{
	struct vacation m = {.ctx = ctx, .days = days, .now = wp_clock_now()};
	enum wp_err err = wp_player_tx(ctx, &m.who, vacation_tx, &m);

	if (err)
		return err;
	return wp_reply_json(ctx, days ? 201 : 200, m.out);
}

enum wp_err
wp_api_me_vacation(struct wp_ctx *ctx)
{
	return vacation(ctx, 0);
}

enum wp_err
wp_api_me_vacation_start(struct wp_ctx *ctx)
{
	static const char *const fields[] = {"days", NULL};
	int64_t days;
	enum wp_err err;

	if ((err = wp_body_only(ctx, fields)) ||
	    (err = wp_body_int(ctx, "days", 1, wp_vacation_cap(), 1, 0, &days)))
		return err;
	return vacation(ctx, days);
}
