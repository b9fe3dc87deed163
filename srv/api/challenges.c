/* Open challenges, the seek lobby (issue 28): posting one, the list (ETag,
 * long-poll) and one challenge; taking and giving back seats is
 * challenge_seats.c. Each change NOTIFYs wp_challenge at its commit,
 * which wakes the lists' long-polls on every instance (store/listen.c);
 * an expiry wakes them by the deadline of the hold
 * (wp_api_challenges_list). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "challenges.h"
#include "wait.h"

#define EXPIRY_DAYS_DEFAULT 7
#define EXPIRY_DAYS_MAX 30
#define RATING_MAX 4000
#define LIST_MAX 200
#define WAIT_MAX 60
/* Challenges cancelled or not taken are forgotten this long after. */
#define SWEEP_DAYS 30

enum wp_err
wp_challenge_id(struct wp_ctx *ctx, int64_t *id)
{
	if (wp_parse_id(ctx->match->params[0], id) != 0)
		return wp_fail(ctx, WP_ERR_CHALLENGE_NOT_FOUND, "there is no such challenge");
	return WP_OK;
}

enum wp_err
wp_challenge_not_found(struct wp_ctx *ctx, enum wp_err err, int64_t id)
{
	if (err == WP_ERR_NOT_FOUND)
		return wp_fail(ctx, WP_ERR_CHALLENGE_NOT_FOUND, "there is no challenge %lld",
		               (long long)id);
	return wp_fail_store(ctx, err);
}

/* The caller's seat in the challenge, or -1. */
int
wp_challenge_seat_of(const struct wp_challenge *ch, int64_t player)
{
	for (size_t i = 0; player && i < json_object_array_length(ch->players); i++) {
		json_object *s = json_object_array_get_idx(ch->players, i), *p, *v, *id;
		if (json_object_object_get_ex(s, "player", &p) &&
		    json_object_object_get_ex(p, "id", &id) && json_object_get_int64(id) == player &&
		    json_object_object_get_ex(s, "seat", &v))
			return json_object_get_int(v);
	}
	return -1;
}

static json_object *
int_or_null(int has, int v)
{
	return has ? json_object_new_int(v) : NULL;
}

/* A challenge as `viewer` (0: anyone) sees it: all of it, but the match of
 * a started private one only to its players. */
json_object *
wp_challenge_json(const struct wp_challenge *ch, int64_t viewer)
{
	json_object *o = json_object_new_object(), *poster = json_object_new_object();
	int seat = wp_challenge_seat_of(ch, viewer);
	int taken = (int)json_object_array_length(ch->players);

	json_object_object_add(o, "id", json_object_new_int64(ch->id));
	json_object_object_add(poster, "id", json_object_new_int64(ch->poster));
	json_object_object_add(poster, "name", json_object_new_string(ch->poster_name));
	json_object_object_add(o, "poster", poster);
	json_object_object_add(o, "ruleset", json_object_new_string(ch->ruleset));
	json_object_object_add(o, "options",
	                       ch->options ? json_tokener_parse(ch->options) : json_object_new_object());
	json_object_object_add(o, "time_control", wp_tc_json(&ch->tc));
	json_object_object_add(o, "rated", json_object_new_boolean(ch->rated));
	json_object_object_add(o, "seats", json_object_new_int(ch->nseats));
	json_object_object_add(o, "players", json_object_get(ch->players));
	json_object_object_add(o, "open_seats", json_object_new_int(ch->nseats - taken));
	json_object_object_add(o, "min_rating", int_or_null(ch->has_min, ch->min_rating));
	json_object_object_add(o, "max_rating", int_or_null(ch->has_max, ch->max_rating));
	json_object_object_add(o, "spectators", json_object_new_string(wp_watch_str(ch->watch)));
	json_object_object_add(o, "spectator_delay", json_object_new_int(ch->delay));
	json_object_object_add(o, "status", json_object_new_string(ch->status));
	json_object_object_add(o, "game", ch->game && (seat >= 0 || ch->watch != WP_WATCH_PRIVATE)
	                                  ? json_object_new_int64(ch->game) : NULL);
	json_object_object_add(o, "created_at", json_object_new_string(ch->created_at));
	json_object_object_add(o, "expires_at", json_object_new_string(ch->expires_at));
	json_object_object_add(o, "mine", json_object_new_boolean(viewer && viewer == ch->poster));
	json_object_object_add(o, "seat", seat >= 0 ? json_object_new_int(seat) : NULL);
	return o;
}

/* 403 unless the player's rating in the ruleset is within the range. */
enum wp_err
wp_challenge_rating(struct wp_ctx *ctx, struct wp_conn *c, const struct wp_challenge *ch,
             int64_t player, int *in_range)
{
	int r;
	enum wp_err err;

	*in_range = 1;
	if (!ch->has_min && !ch->has_max)
		return WP_OK;
	if ((err = wp_db_rating_of(c, player, ch->ruleset, &r)))
		return wp_fail_store(ctx, err);
	*in_range = (!ch->has_min || r >= ch->min_rating) && (!ch->has_max || r <= ch->max_rating);
	return WP_OK;
}

/* 409 unless the challenge is open. */
enum wp_err
wp_challenge_open(struct wp_ctx *ctx, const struct wp_challenge *ch)
{
	if (strcmp(ch->status, "open") == 0)
		return WP_OK;
	if (strcmp(ch->status, "started") == 0)
		return wp_fail(ctx, WP_ERR_CHALLENGE_CLOSED,
		               "every seat of this challenge was taken: its match has started");
	return wp_fail(ctx, WP_ERR_CHALLENGE_CLOSED, "this challenge is %s", ch->status);
}

/* --------------------------------------------------------------- post */

struct posting {
	struct wp_ctx *ctx;
	struct wp_player who;
	struct wp_challenge_new n;
	int64_t id;
	json_object *out;
};

static enum wp_err
post_tx(struct wp_conn *c, void *arg)
{
	struct posting *m = arg;
	struct wp_challenge ch;
	enum wp_err err;

	if ((err = wp_limit_open_matches(m->ctx, c, m->who.id)))
		return err;
	m->n.poster = m->who.id;
	if ((err = wp_db_challenges_sweep(c, SWEEP_DAYS)) ||
	    (err = wp_db_challenge_insert(c, &m->n, &m->id)) ||
	    (err = wp_db_challenge_notify(c, m->id)) ||
	    (err = wp_db_challenge_get(c, m->id, 0, &ch)))
		return wp_fail_store(m->ctx, err);
	m->out = wp_challenge_json(&ch, m->who.id);
	wp_challenge_free(&ch);
	return WP_OK;
}

/* "seat": a number below seats, or "random" (absent: 0). */
static enum wp_err
poster_seat(struct wp_ctx *ctx, int seats, int *seat)
{
	json_object *v;
	int64_t s;
	enum wp_err err;

	if (json_object_object_get_ex(ctx->body, "seat", &v) &&
	    json_object_is_type(v, json_type_string)) {
		if (strcmp(json_object_get_string(v), "random") != 0)
			return wp_fail(ctx, WP_ERR_INVALID, "seat: a number or \"random\"");
		*seat = (int)randombytes_uniform((uint32_t)seats);
		return WP_OK;
	}
	if ((err = wp_body_int(ctx, "seat", 0, WR_MAX_SEATS - 1, 0, 0, &s)))
		return err;
	if (s >= seats)
		return wp_fail(ctx, WP_ERR_INVALID, "seat: must be below seats (%d)", seats);
	*seat = (int)s;
	return WP_OK;
}

/* The rating range; *has_min and *has_max say which ends it has. */
static enum wp_err
rating_range(struct wp_ctx *ctx, struct wp_challenge_new *n)
{
	json_object *v;
	int64_t lo, hi;
	enum wp_err err;

	n->has_min = json_object_object_get_ex(ctx->body, "min_rating", &v) &&
	             !json_object_is_type(v, json_type_null);
	n->has_max = json_object_object_get_ex(ctx->body, "max_rating", &v) &&
	             !json_object_is_type(v, json_type_null);
	if ((err = wp_body_int(ctx, "min_rating", 0, RATING_MAX, 0, 0, &lo)) ||
	    (err = wp_body_int(ctx, "max_rating", 0, RATING_MAX, 0, 0, &hi)))
		return err;
	if (n->has_min && n->has_max && lo > hi)
		return wp_fail(ctx, WP_ERR_INVALID, "min_rating: above max_rating");
	n->min_rating = (int)lo;
	n->max_rating = (int)hi;
	return WP_OK;
}

enum wp_err
wp_api_challenges_create(struct wp_ctx *ctx)
{
	static const char *const fields[] = {"ruleset", "options", "seats", "seat", "client_seed",
	                                     "time_control", "rated", "min_rating", "max_rating",
	                                     "spectators", "spectator_delay", "expires_in_days",
	                                     NULL};
	struct posting m = {.ctx = ctx};
	const struct wr_ruleset *rs;
	const char *ruleset;
	json_object *options = NULL, *tc_json = NULL;
	struct wp_tc tc;
	int64_t seats, days;
	enum wp_err err;

	if ((err = wp_body_ruleset(ctx, fields, &ruleset)) ||
	    (err = wp_body_int(ctx, "seats", 1, WR_MAX_SEATS, 0, 0, &seats)) ||
	    (err = wp_body_int(ctx, "expires_in_days", 1, EXPIRY_DAYS_MAX, 0, EXPIRY_DAYS_DEFAULT,
	                       &days)) ||
	    (err = wp_body_bool(ctx, "rated", &m.n.rated)) ||
	    (err = wp_client_seed(ctx, &m.n.client_seed)) ||
	    (err = wp_watch_options(ctx, &m.n.watch, &m.n.delay)) || (err = rating_range(ctx, &m.n)))
		return err;
	if ((err = wp_match_ruleset(ctx, ruleset, &seats, &options, &rs)))
		return err;
	if ((err = poster_seat(ctx, (int)seats, &m.n.seat)) ||
	    (err = wp_check_options(ctx, rs, options, (int)seats)) ||
	    (err = wp_time_control(ctx, &tc)) || (err = wp_limit_token(ctx, WP_RATE_GAMES)))
		return err;
	tc_json = wp_tc_json(&tc);
	m.n.ruleset = rs->id;
	m.n.options = options ? json_object_to_json_string_ext(options, JSON_C_TO_STRING_PLAIN) : "{}";
	m.n.time_control = tc_json ? json_object_to_json_string_ext(tc_json, JSON_C_TO_STRING_PLAIN)
	                           : NULL;
	m.n.nseats = (int)seats;
	m.n.expires_in = days * 86400;
	err = wp_player_tx(ctx, &m.who, post_tx, &m);
	json_object_put(tc_json);
	if (err) {
		json_object_put(m.out);
		return err;
	}
	char loc[48];
	snprintf(loc, sizeof(loc), "/api/challenges/%lld", (long long)m.id);
	wp_response_header(ctx->res, "Location", loc);
	return wp_reply_json(ctx, 201, m.out);
}

/* --------------------------------------------------------------- list */

/* An ETag of the answer itself: it is the caller's own (mine, seat), so
 * it tells nobody anything they were not shown. */
/* ?time=: untimed, timed, or a number of days a move. */
static enum wp_err
time_filter(struct wp_ctx *ctx, char *out, size_t cap, const char **time)
{
	int q = wp_query_param(ctx->req->query, "time", out, cap);
	char *end;
	long d;

	*time = NULL;
	if (q == 0)
		return WP_OK;
	if (q > 0 && (strcmp(out, "untimed") == 0 || strcmp(out, "timed") == 0)) {
		*time = out;
		return WP_OK;
	}
	d = q > 0 && out[0] >= '1' && out[0] <= '9' ? strtol(out, &end, 10) : 0;
	if (d < 1 || d > WP_TC_PER_MOVE_MAX || *end)
		return wp_fail(ctx, WP_ERR_INVALID, "time: untimed, timed or days a move (1 to %d)",
		               WP_TC_PER_MOVE_MAX);
	*time = out;
	return WP_OK;
}

static enum wp_err
list_read(struct wp_ctx *ctx, struct wp_conn *c, const struct wp_player *who,
          const char *ruleset, const char *time, int64_t limit, json_object **out,
          int64_t *soonest)
{
	struct wp_challenge *list;
	json_object *arr = json_object_new_array();
	int n;
	enum wp_err err;

	*soonest = 0;
	if ((err = wp_db_challenges(c, ruleset, time, limit, &list, &n))) {
		json_object_put(arr);
		return wp_fail_store(ctx, err);
	}
	for (int i = 0; i < n && err == WP_OK; i++) {
		int in_range = 1;
		/* Others' that the caller may not take are left out (a
		 * caller without a token sees them all). */
		if (who->id && wp_challenge_seat_of(&list[i], who->id) < 0 &&
		    (err = wp_challenge_rating(ctx, c, &list[i], who->id, &in_range)))
			break;
		if (!in_range)
			continue;
		json_object_array_add(arr, wp_challenge_json(&list[i], who->id));
		if (!*soonest || list[i].expires < *soonest)
			*soonest = list[i].expires;
	}
	wp_challenges_free(list, n);
	if (err) {
		json_object_put(arr);
		return err;
	}
	*out = json_object_new_object();
	json_object_object_add(*out, "challenges", arr);
	return WP_OK;
}

enum wp_err
wp_api_challenges_list(struct wp_ctx *ctx)
{
	struct wp_player who = {0};
	struct wp_conn *c;
	char rs[72], tbuf[16];
	const char *ruleset = NULL, *time;
	int64_t wait, limit, soonest;
	json_object *o = NULL;
	enum wp_err err;

	int q = wp_query_param(ctx->req->query, "ruleset", rs, sizeof(rs));
	if (q < 0 || (q > 0 && !wr_ruleset_find(rs)))
		return wp_fail(ctx, WP_ERR_INVALID, "ruleset: one of GET /api/rulesets");
	if (q > 0)
		ruleset = rs;
	if ((err = time_filter(ctx, tbuf, sizeof(tbuf), &time)) ||
	    (err = wp_query_int(ctx, "wait", 0, WAIT_MAX, 0, &wait)) ||
	    (err = wp_query_int(ctx, "limit", 1, LIST_MAX, LIST_MAX, &limit)))
		return err;
	/* Before the read: a change committed after it still wakes us. */
	uint64_t gen = wp_wait_gen(WP_WAIT_CHALLENGES);
	if ((err = wp_conn_get(ctx, &c)))
		return err;
	if ((err = wp_auth_optional(ctx, c, &who)) == WP_OK)
		err = list_read(ctx, c, &who, ruleset, time, limit, &o, &soonest);
	wp_store_put(ctx->store, c);
	if (err)
		return err;
	/* The first listed to expire changes the list then: served again. */
	return wp_reply_polled(ctx, o, 'c', WP_WAIT_CHALLENGES, gen, wait,
	                       soonest ? (soonest + 1) * 1000000000 : 0);
}

enum wp_err
wp_api_challenges_get(struct wp_ctx *ctx)
{
	struct wp_player who = {0};
	struct wp_challenge ch;
	struct wp_conn *c;
	int64_t id;
	enum wp_err err;

	if ((err = wp_challenge_id(ctx, &id)) || (err = wp_conn_get(ctx, &c)))
		return err;
	if ((err = wp_auth_optional(ctx, c, &who)) == WP_OK &&
	    (err = wp_db_challenge_get(c, id, 0, &ch)) != WP_OK)
		err = wp_challenge_not_found(ctx, err, id);
	wp_store_put(ctx->store, c);
	if (err)
		return err;
	json_object *o = wp_challenge_json(&ch, who.id);
	wp_challenge_free(&ch);
	return wp_reply_json(ctx, 200, o);
}

