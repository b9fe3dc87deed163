/* Tournaments (issue 29): creating an event, the list, one event with its
 * standings (ETag, long-poll), joining, leaving or withdrawing, and the
 * organiser's start and removal of a player. Every change locks the
 * event's row first and NOTIFYs wp_tournament at its commit, which wakes
 * the long-polls on every instance and the round worker. The rounds
 * themselves are tournament_rounds.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tournaments.h"
#include "wait.h"

#define NAME_MAX_CHARS 80
#define CODE_MAX_CHARS 40
#define LIST_MAX 100
#define WAIT_MAX 60
#define RR_MAX_PLAYERS 32     /* 496 matches started at once */

static enum wp_err
tournament_id(struct wp_ctx *ctx, int64_t *id)
{
	if (wp_parse_id(ctx->match->params[0], id) != 0)
		return wp_fail(ctx, WP_ERR_TOURNAMENT_NOT_FOUND, "there is no such tournament");
	return WP_OK;
}

static enum wp_err
not_found(struct wp_ctx *ctx, enum wp_err err, int64_t id)
{
	if (err == WP_ERR_NOT_FOUND)
		return wp_fail(ctx, WP_ERR_TOURNAMENT_NOT_FOUND, "there is no tournament %lld",
		               (long long)id);
	return wp_fail_store(ctx, err);
}

static int
is_organiser(json_object *t, int64_t who)
{
	return who && json_object_get_int64(jget(jget(t, "organiser"), "id")) == who;
}

static int
has_player(json_object *t, int64_t who)
{
	json_object *ps = jget(t, "players");
	for (size_t i = 0; who && i < json_object_array_length(ps); i++)
		if (json_object_get_int64(jget(json_object_array_get_idx(ps, i), "id")) == who)
			return 1;
	return 0;
}

static int
is_status(json_object *t, const char *s)
{
	return strcmp(json_object_get_string(jget(t, "status")), s) == 0;
}

/* ------------------------------------------------------------- create */

struct creating {
	struct wp_ctx *ctx;
	struct wp_player who;
	struct wp_tournament_new n;
	int64_t id;
};

static enum wp_err
create_tx(struct wp_conn *c, void *arg)
{
	struct creating *m = arg;
	enum wp_err err;

	m->n.organiser = m->who.id;
	if ((err = wp_db_tournament_insert(c, &m->n, &m->id)) ||
	    (err = wp_db_tournament_notify(c, m->id)))
		return wp_fail_store(m->ctx, err);
	return WP_OK;
}

/* kind, and rounds within what the kind allows for max_players. */
static enum wp_err
kind_and_rounds(struct wp_ctx *ctx, struct wp_tournament_new *n)
{
	int64_t v;
	enum wp_err err;

	if ((err = wp_body_string(ctx, "kind", 20, 0, &n->kind)))
		return err;
	if (!n->kind || (strcmp(n->kind, "round_robin") && strcmp(n->kind, "swiss") &&
	                 strcmp(n->kind, "ladder")))
		return wp_fail(ctx, WP_ERR_INVALID, "kind: \"round_robin\", \"swiss\" or \"ladder\"");
	if ((err = wp_body_int(ctx, "cycles", 1, 2, 0, 1, &v)))
		return err;
	n->cycles = (int)v;
	if ((err = wp_body_int(ctx, "reach", 1, 50, 0, 3, &v)))
		return err;
	n->reach = (int)v;
	if ((err = wp_body_int(ctx, "accept_days", 1, 30, 0, 3, &v)))
		return err;
	n->accept_days = (int)v;
	if ((err = wp_body_int(ctx, "round_days", 0, 365, 0, 0, &v)))
		return err;
	n->round_days = (int)v;
	/* Every match of a round robin starts at once, in one transaction. */
	if (strcmp(n->kind, "round_robin") == 0 && n->max_players > RR_MAX_PLAYERS)
		return wp_fail(ctx, WP_ERR_INVALID, "max_players: at most %d for a round robin",
		               RR_MAX_PLAYERS);
	if (strcmp(n->kind, "swiss") != 0) {
		if (n->seats != 2)
			return wp_fail(ctx, WP_ERR_INVALID,
			               "seats: a round robin or a ladder is of 2-seat matches; 3 or 4 are Swiss");
		return WP_OK;
	}
	int most = wl_max_rounds(n->max_players, n->seats);
	if ((err = wp_body_int(ctx, "rounds", 1, 100, 1, 0, &v)))
		return err;
	if (v > most)
		return wp_fail(ctx, WP_ERR_INVALID,
		               "rounds: at most %d for %d players at tables of %d", most,
		               n->max_players, n->seats);
	n->rounds = (int)v;
	return WP_OK;
}

enum wp_err
wp_api_tournaments_create(struct wp_ctx *ctx)
{
	static const char *const fields[] = {"ruleset", "options", "seats", "time_control",
	                                     "rated", "name", "kind", "cycles", "rounds",
	                                     "min_players", "max_players", "code", "starts_at",
	                                     "reach", "accept_days", "round_days", NULL};
	struct creating m = {.ctx = ctx};
	const struct wr_ruleset *rs;
	const char *ruleset;
	json_object *options = NULL, *tc_json = NULL;
	struct wp_tc tc;
	int64_t seats, lo, hi;
	enum wp_err err;

	if ((err = wp_body_ruleset(ctx, fields, &ruleset)) ||
	    (err = wp_body_int(ctx, "seats", 2, WL_MAX_TABLE, 0, 2, &seats)) ||
	    (err = wp_body_bool(ctx, "rated", &m.n.rated)) ||
	    (err = wp_body_string(ctx, "name", NAME_MAX_CHARS, 0, &m.n.name)) ||
	    (err = wp_body_string(ctx, "code", CODE_MAX_CHARS, 0, &m.n.code)) ||
	    (err = wp_body_string(ctx, "starts_at", 40, 0, &m.n.starts_at)) ||
	    (err = wp_body_int(ctx, "min_players", 2, WL_MAX_PLAYERS, 0, 2, &lo)) ||
	    (err = wp_body_int(ctx, "max_players", 2, WL_MAX_PLAYERS, 0, 16, &hi)))
		return err;
	if (!m.n.name || !m.n.name[strspn(m.n.name, " ")])
		return wp_fail(ctx, WP_ERR_INVALID, "name: required");
	if ((err = wp_check_shown_text(ctx, "name", m.n.name)))
		return err;
	if (lo > hi)
		return wp_fail(ctx, WP_ERR_INVALID, "min_players: above max_players");
	m.n.seats = (int)seats;
	m.n.min_players = (int)lo;
	m.n.max_players = (int)hi;
	if ((err = kind_and_rounds(ctx, &m.n)) ||
	    (err = wp_match_ruleset(ctx, ruleset, &seats, &options, &rs)) ||
	    (err = wp_check_options(ctx, rs, options, (int)seats)) ||
	    (err = wp_time_control(ctx, &tc)) || (err = wp_limit_token(ctx, WP_RATE_GAMES)))
		return err;
	/* starts_at: an RFC 3339 time, checked by PostgreSQL's cast below. */
	if (m.n.starts_at && strlen(m.n.starts_at) < 10)
		return wp_fail(ctx, WP_ERR_INVALID, "starts_at: an RFC 3339 date and time");
	tc_json = wp_tc_json(&tc);
	m.n.ruleset = rs->id;
	m.n.options = options ? json_object_to_json_string_ext(options, JSON_C_TO_STRING_PLAIN)
	                      : "{}";
	m.n.time_control = tc_json ? json_object_to_json_string_ext(tc_json, JSON_C_TO_STRING_PLAIN)
	                           : NULL;
	err = wp_player_tx(ctx, &m.who, create_tx, &m);
	json_object_put(tc_json);
	if (err == WP_ERR_INTERNAL && m.n.starts_at)
		return wp_fail(ctx, WP_ERR_INVALID, "starts_at: an RFC 3339 date and time");
	if (err)
		return err;
	char loc[64];
	snprintf(loc, sizeof(loc), "/api/tournaments/%lld", (long long)m.id);
	wp_response_header(ctx->res, "Location", loc);
	json_object *o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_int64(m.id));
	return wp_reply_json(ctx, 201, o);
}

/* ---------------------------------------------------------- list, get */

enum wp_err
wp_api_tournaments_list(struct wp_ctx *ctx)
{
	struct wp_conn *c;
	json_object *list = NULL;
	int64_t wait;
	enum wp_err err;

	if ((err = wp_query_int(ctx, "wait", 0, WAIT_MAX, 0, &wait)))
		return err;
	uint64_t gen = wp_wait_gen(WP_WAIT_TOURNAMENTS);
	if ((err = wp_conn_get(ctx, &c)))
		return err;
	err = wp_db_tournaments(c, LIST_MAX, &list);
	wp_store_put(ctx->store, c);
	if (err)
		return wp_fail_store(ctx, err);
	json_object *o = json_object_new_object();
	json_object_object_add(o, "tournaments", list);
	return wp_reply_polled(ctx, o, 't', WP_WAIT_TOURNAMENTS, gen, wait, 0);
}

/* GET, and GET …/export once it is over: the event, its players, every
 * round's tables with their matches and places, the standings and the
 * crosstable. The invitation code only to the organiser. */
static enum wp_err
get_doc(struct wp_ctx *ctx, int export_only)
{
	struct wp_player who = {0};
	struct wp_conn *c;
	json_object *t = NULL;
	int64_t id, wait = 0;
	enum wp_err err;

	if ((err = tournament_id(ctx, &id)) ||
	    (!export_only && (err = wp_query_int(ctx, "wait", 0, WAIT_MAX, 0, &wait))))
		return err;
	uint64_t gen = wp_wait_gen(WP_WAIT_TOURNAMENTS);
	if ((err = wp_conn_get(ctx, &c)))
		return err;
	if ((err = wp_auth_optional(ctx, c, &who))) {
		wp_store_put(ctx->store, c);
		return err;
	}
	if ((err = wp_db_tournament(c, id, 0, 0, &t)) == WP_OK && is_organiser(t, who.id)) {
		json_object_put(t);
		err = wp_db_tournament(c, id, 0, 1, &t);
	}
	wp_store_put(ctx->store, c);
	if (err)
		return not_found(ctx, err, id);
	wp_tournament_standings(t);
	if (export_only) {
		if (!is_status(t, "over")) {
			json_object_put(t);
			return wp_fail(ctx, WP_ERR_TOURNAMENT_CLOSED, "the event is not over yet");
		}
		return wp_reply_json(ctx, 200, t);
	}
	json_object_object_add(t, "me", json_object_new_object());
	json_object *me = jget(t, "me");
	json_object_object_add(me, "id", who.id ? json_object_new_int64(who.id) : NULL);
	json_object_object_add(me, "organiser", json_object_new_boolean(is_organiser(t, who.id)));
	json_object_object_add(me, "player", json_object_new_boolean(has_player(t, who.id)));
	return wp_reply_polled(ctx, t, 't', WP_WAIT_TOURNAMENTS, gen, wait, 0);
}

enum wp_err
wp_api_tournaments_get(struct wp_ctx *ctx)
{
	return get_doc(ctx, 0);
}

enum wp_err
wp_api_tournaments_export(struct wp_ctx *ctx)
{
	return get_doc(ctx, 1);
}

/* ------------------------------------------------ join, leave, start */

enum change { JOIN, LEAVE, REMOVE, START };

struct changing {
	struct wp_ctx *ctx;
	struct wp_player who;
	int64_t id, player;
	enum change what;
	const char *code;
};

static enum wp_err
join(struct changing *k, struct wp_conn *c, json_object *t)
{
	json_object *code = jget(t, "code");
	enum wp_err err;

	/* A ladder stands: a newcomer joins at its foot while it runs. */
	if (!is_status(t, "open") &&
	    !(is_status(t, "running") && strcmp(json_object_get_string(jget(t, "kind")), "ladder") == 0))
		return wp_fail(k->ctx, WP_ERR_TOURNAMENT_CLOSED, "the event has started");
	if (has_player(t, k->who.id))
		return wp_fail(k->ctx, WP_ERR_ALREADY_SEATED, "you have joined this event already");
	if (json_object_array_length(jget(t, "players")) >=
	    (size_t)json_object_get_int(jget(t, "max_players")))
		return wp_fail(k->ctx, WP_ERR_TOURNAMENT_CLOSED, "the event is full");
	if (code && (!k->code || strcmp(k->code, json_object_get_string(code)) != 0))
		return wp_fail(k->ctx, WP_ERR_INVALID_INVITATION,
		               "this event is by invitation: its code is needed to join");
	if ((err = wp_db_tournament_join(c, k->id, k->who.id)))
		return err == WP_ERR_NOT_FOUND
		       ? wp_fail(k->ctx, WP_ERR_ALREADY_SEATED, "you have joined this event already")
		       : wp_fail_store(k->ctx, err);
	return WP_OK;
}

/* A player leaves before the start; after it, withdraws: not paired
 * again, the matches played stand. The organiser removes one before. */
static enum wp_err
leave(struct changing *k, struct wp_conn *c, json_object *t)
{
	int started = !is_status(t, "open");
	enum wp_err err;

	if (k->what == REMOVE && !is_organiser(t, k->who.id))
		return wp_fail(k->ctx, WP_ERR_FORBIDDEN, "only the organiser removes a player");
	if (k->what == REMOVE && started)
		return wp_fail(k->ctx, WP_ERR_TOURNAMENT_CLOSED,
		               "the event has started: a player withdraws itself");
	if (is_status(t, "over"))
		return wp_fail(k->ctx, WP_ERR_TOURNAMENT_CLOSED, "the event is over");
	if (!has_player(t, k->player))
		return wp_fail(k->ctx, WP_ERR_NOT_A_PLAYER, "not a player of this event");
	if ((err = wp_db_tournament_leave(c, k->id, k->player, started)))
		return wp_fail_store(k->ctx, err);
	return WP_OK;
}

static enum wp_err
change_tx(struct wp_conn *c, void *arg)
{
	struct changing *k = arg;
	json_object *t = NULL;
	int moved;
	enum wp_err err;

	if (k->what == LEAVE) {
		k->player = k->who.id;
		/* The matches first, then the event (tournament_play.c). */
		if ((err = wp_tournament_forfeit(k->ctx, c, k->id, k->player)))
			return err;
	}
	if ((err = wp_db_tournament(c, k->id, 1, 1, &t)))
		return not_found(k->ctx, err, k->id);
	if (k->what == JOIN)
		err = join(k, c, t);
	else if (k->what == START && !is_organiser(t, k->who.id))
		err = wp_fail(k->ctx, WP_ERR_FORBIDDEN, "only the organiser starts the event");
	else if (k->what == START && !is_status(t, "open"))
		err = wp_fail(k->ctx, WP_ERR_TOURNAMENT_CLOSED, "the event has started already");
	else if (k->what == START)
		err = wp_tournament_advance(k->ctx, c, t, &moved);
	else
		err = leave(k, c, t);
	json_object_put(t);
	if (err == WP_OK && (err = wp_db_tournament_notify(c, k->id)))
		err = wp_fail_store(k->ctx, err);
	return err;
}

static enum wp_err
change(struct wp_ctx *ctx, enum change what)
{
	static const char *const fields[] = {"code", NULL};
	struct changing k = {.ctx = ctx, .what = what};
	enum wp_err err;

	if ((err = tournament_id(ctx, &k.id)) || (ctx->body && (err = wp_body_only(ctx, fields))) ||
	    (ctx->body && (err = wp_body_string(ctx, "code", CODE_MAX_CHARS, 0, &k.code))) ||
	    (err = wp_limit_token(ctx, WP_RATE_WRITES)))
		return err;
	if (what == REMOVE && wp_parse_id(ctx->match->params[1], &k.player) != 0)
		return wp_fail(ctx, WP_ERR_NOT_A_PLAYER, "not a player of this event");
	if ((err = wp_player_tx(ctx, &k.who, change_tx, &k)))
		return err;
	return wp_api_tournaments_get(ctx);
}

enum wp_err
wp_api_tournaments_join(struct wp_ctx *ctx)
{
	return change(ctx, JOIN);
}

enum wp_err
wp_api_tournaments_leave(struct wp_ctx *ctx)
{
	return change(ctx, LEAVE);
}

enum wp_err
wp_api_tournaments_remove(struct wp_ctx *ctx)
{
	return change(ctx, REMOVE);
}

enum wp_err
wp_api_tournaments_start(struct wp_ctx *ctx)
{
	return change(ctx, START);
}
