/* Matches: the rulesets on offer, creating a match and taking a seat.
 * Every write is one transaction (wp_store_tx); acknowledged means
 * committed (DESIGN.md, "Store"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "api.h"
#include "ratings.h"

enum wp_err
wp_api_rulesets(struct wp_ctx *ctx)
{
	json_object *o = json_object_new_object(), *list = json_object_new_array();

	for (size_t i = 0; i < wr_ruleset_count(); i++) {
		const struct wr_ruleset *rs = wr_ruleset_at(i);
		json_object *r = json_object_new_object();
		json_object_object_add(r, "id", json_object_new_string(rs->id));
		json_object_object_add(r, "title", json_object_new_string(rs->title));
		json_object_object_add(r, "source", json_object_new_string(rs->source));
		json_object_object_add(r, "min_seats", json_object_new_int(rs->min_seats));
		json_object_object_add(r, "max_seats", json_object_new_int(rs->max_seats));
		json_object_object_add(r, "options", rs->options());
		json_object_array_add(list, r);
	}
	json_object_object_add(o, "rulesets", list);
	return wp_reply_json(ctx, 200, o);
}

/* --------------------------------------------------------------- create */

struct creation {
	struct wp_ctx *ctx;
	const struct wr_ruleset *rs;
	const char *options, *client_seed, *time_control;
	int seats, seat;
	enum wp_watch watch;
	int delay;
	int rated;               /* issue 28: rates its players when it ends */
	struct wp_player who;
	int64_t id;
	unsigned char commitment[32];
	json_object *invitations;
	struct wp_bot_seats bots;    /* computer seats (issue 27) */
	int started;
};

/* The match row and its seats, each open seat with an invitation code
 * of 128 random bits kept only as its hash. The secret seed is drawn
 * here and only its commitment leaves. */
enum wp_err
wp_match_insert(struct wp_ctx *ctx, struct wp_conn *c, struct wp_match_new *m)
{
	unsigned char seed[32];
	enum wp_err err;

	randombytes_buf(seed, sizeof(seed));
	crypto_hash_sha256(m->commitment, seed, sizeof(seed));
	err = wp_db_game_insert(c, m->rs->id, m->options, m->seats, seed, m->commitment,
	                        m->created_by, m->time_control, &m->id);
	sodium_memzero(seed, sizeof(seed));
	if (err == WP_OK && (m->watch != WP_WATCH_UNLISTED || m->delay))
		err = wp_db_game_watch_set(c, m->id, m->watch, m->delay);
	if (err == WP_OK && m->rated)
		err = wp_db_game_rated_set(c, m->id);
	for (int i = 0; err == WP_OK && i < m->seats; i++) {
		char code[33];
		unsigned char raw[16], hash[32];
		int64_t who = m->player[i];
		randombytes_buf(raw, sizeof(raw));
		sodium_bin2hex(code, sizeof(code), raw, sizeof(raw));
		crypto_hash_sha256(hash, (const unsigned char *)code, 32);
		err = wp_db_seat_insert(c, m->id, i, who, hash, who ? m->client_seed[i] : NULL);
		if (err == WP_OK && !who && m->invitations) {
			json_object *one = json_object_new_object();
			json_object_object_add(one, "seat", json_object_new_int(i));
			json_object_object_add(one, "code", json_object_new_string(code));
			json_object_array_add(m->invitations, one);
		}
	}
	return err == WP_OK ? WP_OK : wp_fail_store(ctx, err);
}

static enum wp_err
create_tx(struct wp_conn *c, void *arg)
{
	struct creation *m = arg;
	struct wp_match_new n = {.rs = m->rs, .options = m->options,
	                         .time_control = m->time_control, .seats = m->seats,
	                         .rated = m->rated, .watch = m->watch, .delay = m->delay,
	                         .created_by = m->who.id, .invitations = m->invitations};
	enum wp_err err;

	if ((err = wp_limit_open_matches(m->ctx, c, m->who.id)) ||
	    (err = wp_bots_resolve(m->ctx, c, &m->bots)))
		return err;
	n.player[m->seat] = m->who.id;
	n.client_seed[m->seat] = m->client_seed;
	for (int i = 0; i < m->bots.n; i++)
		n.player[m->bots.seat[i]] = m->bots.who[i].id;
	if ((err = wp_match_insert(m->ctx, c, &n)))
		return err;
	m->id = n.id;
	memcpy(m->commitment, n.commitment, sizeof(m->commitment));
	/* Every seat but the creator's a computer's (issue 27): it starts now. */
	if (m->bots.n + 1 == m->seats) {
		struct wp_game g;
		if ((err = wp_game_get(m->ctx, c, m->id, 1, &g)))
			return err;
		err = wp_match_start(m->ctx, c, &g);
		wp_game_free(&g);
		m->started = err == WP_OK;
	}
	return err;
}

/* The options are checked by building a start state with a throwaway
 * dice stream; the real one is built when the last seat is taken. */
enum wp_err
wp_check_options(struct wp_ctx *ctx, const struct wr_ruleset *rs, json_object *options, int seats)
{
	struct wr_rng rng;
	uint64_t st;
	struct wr_error e;
	void *state = NULL;
	json_object *opts = options ? json_object_get(options) : json_object_new_object();

	wr_rng_seeded(&rng, &st, 1);
	int rc = rs->create(opts, seats, &rng, &state, &e);
	json_object_put(opts);
	if (rc != 0)
		return wp_fail_rules(ctx, WP_ERR_INVALID_OPTION, &e, -1);
	rs->free(state);
	return WP_OK;
}

/* Who may watch and how far behind (issue 14, "Spectators"). */
enum wp_err
wp_watch_options(struct wp_ctx *ctx, enum wp_watch *watch, int *delay)
{
	const char *text;
	int64_t d;
	enum wp_err err;

	if ((err = wp_body_string(ctx, "spectators", 16, 0, &text)) ||
	    (err = wp_body_int(ctx, "spectator_delay", 0, WP_DELAY_MAX, 0, 0, &d)))
		return err;
	*watch = text ? wp_watch_parse(text) : WP_WATCH_UNLISTED;
	if (*watch == WP_WATCH_MAX)
		return wp_fail(ctx, WP_ERR_INVALID, "spectators: open, unlisted or private");
	*delay = (int)d;
	return WP_OK;
}

enum wp_err
wp_body_ruleset(struct wp_ctx *ctx, const char *const *fields, const char **ruleset)
{
	enum wp_err err;

	if ((err = wp_body_only(ctx, fields)) ||
	    (err = wp_body_string(ctx, "ruleset", 64, 0, ruleset)))
		return err;
	if (!*ruleset)
		return wp_fail(ctx, WP_ERR_INVALID, "ruleset: required");
	return WP_OK;
}

enum wp_err
wp_match_ruleset(struct wp_ctx *ctx, const char *ruleset, int64_t *seats, json_object **options,
                 const struct wr_ruleset **rs)
{
	json_object *v;

	*options = NULL;
	if (json_object_object_get_ex(ctx->body, "options", &v) &&
	    !json_object_is_type(v, json_type_null)) {
		if (!json_object_is_type(v, json_type_object))
			return wp_fail(ctx, WP_ERR_INVALID, "options: must be an object");
		*options = v;
	}
	if (!(*rs = wr_ruleset_find(ruleset)))
		return wp_fail(ctx, WP_ERR_UNKNOWN_RULESET,
		               "this server has no ruleset \"%.64s\" (GET /api/rulesets lists them)",
		               ruleset);
	if (*seats == 0)
		*seats = (*rs)->min_seats;
	if (*seats < (*rs)->min_seats || *seats > (*rs)->max_seats)
		return wp_fail(ctx, WP_ERR_INVALID_OPTION, "seats: %s is for %d to %d seats", (*rs)->id,
		               (*rs)->min_seats, (*rs)->max_seats);
	return WP_OK;
}

enum wp_err
wp_api_games_create(struct wp_ctx *ctx)
{
	static const char *const fields[] = {"ruleset", "options", "seats", "seat", "client_seed",
	                                     "time_control", "spectators", "spectator_delay", "rated",
	                                     "bots", NULL};
	struct creation m = {.ctx = ctx};
	const char *ruleset;
	json_object *options = NULL, *tc_json = NULL;
	struct wp_tc tc;
	int64_t seats, seat;
	enum wp_err err;

	if ((err = wp_body_ruleset(ctx, fields, &ruleset)) ||
	    (err = wp_body_int(ctx, "seats", 1, WR_MAX_SEATS, 0, 0, &seats)) ||
	    (err = wp_body_int(ctx, "seat", 0, WR_MAX_SEATS - 1, 0, 0, &seat)) ||
	    (err = wp_client_seed(ctx, &m.client_seed)))
		return err;
	if ((err = wp_watch_options(ctx, &m.watch, &m.delay)) ||
	    (err = wp_body_bool(ctx, "rated", &m.rated)))
		return err;
	if ((err = wp_match_ruleset(ctx, ruleset, &seats, &options, &m.rs)))
		return err;
	if (seat >= seats)
		return wp_fail(ctx, WP_ERR_INVALID, "seat: must be below seats (%lld)", (long long)seats);
	if ((err = wp_bots_parse(ctx, (int)seats, (int)seat, &m.bots)) ||
	    (err = wp_check_options(ctx, m.rs, options, (int)seats)) ||
	    (err = wp_time_control(ctx, &tc)) ||
	    (err = wp_limit_token(ctx, WP_RATE_GAMES)))
		return err;
	tc_json = wp_tc_json(&tc);
	m.time_control = tc_json ? json_object_to_json_string_ext(tc_json, JSON_C_TO_STRING_PLAIN)
	                         : NULL;
	m.seats = (int)seats;
	m.seat = (int)seat;
	m.options = options ? json_object_to_json_string_ext(options, JSON_C_TO_STRING_PLAIN) : "{}";
	m.invitations = json_object_new_array();
	if ((err = wp_player_tx(ctx, &m.who, create_tx, &m)) != WP_OK) {
		json_object_put(m.invitations);
		json_object_put(tc_json);
		return err;
	}
	json_object *out = json_object_new_object();
	json_object_object_add(out, "id", json_object_new_int64(m.id));
	json_object_object_add(out, "ruleset", json_object_new_string(m.rs->id));
	json_object_object_add(out, "seats", json_object_new_int(m.seats));
	json_object_object_add(out, "seat", json_object_new_int(m.seat));
	json_object_object_add(out, "status", json_object_new_string(
		wp_status_str(m.started ? WP_STATUS_ACTIVE : WP_STATUS_OPEN)));
	json_object_object_add(out, "commitment", wp_json_hex(m.commitment, 32));
	json_object_object_add(out, "invitations", m.invitations);
	json_object_object_add(out, "time_control", tc_json);
	json_object_object_add(out, "spectators", json_object_new_string(wp_watch_str(m.watch)));
	json_object_object_add(out, "spectator_delay", json_object_new_int(m.delay));
	json_object_object_add(out, "rated", json_object_new_boolean(m.rated));
	char loc[48];
	snprintf(loc, sizeof(loc), "/api/games/%lld", (long long)m.id);
	wp_response_header(ctx->res, "Location", loc);
	return wp_reply_json(ctx, 201, out);
}

/* ----------------------------------------------------------------- join */

/* The last seat taken starts the match: the client seeds are fixed and the
 * ruleset builds the start state with the match's own dice (post 1). */
enum wp_err
wp_match_start(struct wp_ctx *ctx, struct wp_conn *c, struct wp_game *g)
{
	struct wr_hmac_stream hs;
	struct wr_rng rng;
	struct wr_events ev = {0};
	struct wr_error e;
	void *state = NULL;
	json_object *res = NULL;
	enum wp_err err;

	g->client_len = wp_client_material(g->seats, g->nseats, g->client, sizeof(g->client));
	wp_game_dice(g, &hs, &rng);
	if (g->rs->create(g->options, g->nseats, &rng, &state, &e) != 0) {
		wr_rng_record_free(&rng);
		wp_log("game %lld: create failed at start: %s", (long long)g->id, e.message);
		return wp_fail_rules(ctx, WP_ERR_INVALID_OPTION, &e, -1);
	}
	struct wp_post p = {.seat = -1, .kind = WP_POST_START};
	err = wp_post_store(ctx, c, g, state, &p, &rng, &ev, &res);
	json_object_put(res);
	g->rs->free(state);
	wr_events_free(&ev);
	wr_rng_record_free(&rng);
	return err;
}

struct joining {
	struct wp_ctx *ctx;
	int64_t id;
	struct wp_player who;
	const char *code, *client_seed;
	int seat;
};

static enum wp_err
join_tx(struct wp_conn *c, void *arg)
{
	struct joining *j = arg;
	struct wp_ctx *ctx = j->ctx;
	struct wp_game g;
	unsigned char hash[32];
	enum wp_err err;

	if ((err = wp_game_get(ctx, c, j->id, 1, &g)))
		return err;
	crypto_hash_sha256(hash, (const unsigned char *)j->code, strlen(j->code));
	err = wp_db_seat_by_invite(c, j->id, hash, &j->seat);
	/* A wrong code tells a stranger only what a missing id does: a
	 * private match is not confirmed to exist (issue 24, item 3). */
	if (err == WP_ERR_NOT_FOUND && g.watch == WP_WATCH_PRIVATE &&
	    wp_game_seat_of(&g, j->who.id) < 0)
		err = wp_fail(ctx, WP_ERR_GAME_NOT_FOUND, "there is no match %lld", (long long)j->id);
	else if (err == WP_ERR_NOT_FOUND)
		err = wp_fail(ctx, WP_ERR_INVALID_INVITATION,
		              "this invitation code is not valid for match %lld", (long long)j->id);
	else if (err)
		err = wp_fail_store(ctx, err);
	else if (g.seats[j->seat].player_id == j->who.id)
		err = WP_OK; /* a retried join answers as the first did */
	else if (g.seats[j->seat].player_id)
		err = wp_fail(ctx, WP_ERR_INVITATION_USED,
		              "this invitation has been used by another player");
	else if (wp_game_seat_of(&g, j->who.id) >= 0)
		err = wp_fail(ctx, WP_ERR_ALREADY_SEATED, "you already hold a seat in this match");
	else if (g.status != WP_STATUS_OPEN)
		err = wp_fail(ctx, WP_ERR_GAME_NOT_OPEN, "the match is %s", wp_status_str(g.status));
	else if ((err = wp_limit_open_matches(ctx, c, j->who.id)))
		;
	else if ((err = wp_db_seat_join(c, j->id, j->seat, j->who.id, j->client_seed)))
		err = wp_fail_store(ctx, err);
	else {
		struct wp_seat *s = &g.seats[j->seat];
		int full = 1;
		s->player_id = j->who.id;
		snprintf(s->name, sizeof(s->name), "%s", j->who.name);
		snprintf(s->client_seed, sizeof(s->client_seed), "%s", j->client_seed ? j->client_seed : "");
		for (int i = 0; i < g.nseats; i++)
			full &= g.seats[i].player_id != 0;
		if (full)
			err = wp_match_start(ctx, c, &g);
		else if ((err = wp_db_game_bump(c, j->id)))
			err = wp_fail_store(ctx, err);
	}
	wp_game_free(&g);
	return err;
}

enum wp_err
wp_api_games_join(struct wp_ctx *ctx)
{
	static const char *const fields[] = {"code", "client_seed", NULL};
	struct joining j = {.ctx = ctx, .seat = -1};
	enum wp_err err;

	if ((err = wp_game_id(ctx, &j.id)) || (err = wp_body_only(ctx, fields)) ||
	    (err = wp_body_string(ctx, "code", 64, 0, &j.code)) ||
	    (err = wp_client_seed(ctx, &j.client_seed)))
		return err;
	if (!j.code)
		return wp_fail(ctx, WP_ERR_INVALID, "code: required");
	if ((err = wp_limit_token(ctx, WP_RATE_WRITES)))
		return err;
	/* The start post leaves the match kept: the first turn is one round
	 * trip (issue 17). */
	if ((err = wp_player_tx_keeping(ctx, &j.who, join_tx, &j)))
		return err;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "game", json_object_new_int64(j.id));
	json_object_object_add(o, "seat", json_object_new_int(j.seat));
	return wp_reply_json(ctx, 200, o);
}
