/* Matches and their seats in the store. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_priv.h"

enum wp_err
wp_db_game_insert(struct wp_conn *c, const char *ruleset, const char *options_json, int nseats,
                  const unsigned char seed[32], const unsigned char commitment[32],
                  int64_t created_by, const char *time_control_json, int64_t *id)
{
	struct wp_params p = {0};

	wp_p_text(&p, ruleset);
	wp_p_text(&p, options_json);
	wp_p_int(&p, nseats);
	wp_p_bytes(&p, seed, 32);
	wp_p_bytes(&p, commitment, 32);
	wp_p_int(&p, created_by);
	wp_p_text(&p, time_control_json);
	return wp_sql_one(c, WP_STMT_GAME_INSERT, &p, id);
}

enum wp_err
wp_db_seat_insert(struct wp_conn *c, int64_t game, int seat, int64_t player,
                  const unsigned char invite_hash[32], const char *client_seed)
{
	struct wp_params p = {0};

	wp_p_int(&p, game);
	wp_p_int(&p, seat);
	if (player)
		wp_p_int(&p, player);
	else
		wp_p_text(&p, NULL);
	wp_p_bytes(&p, invite_hash, 32);
	wp_p_text(&p, client_seed ? client_seed : "");
	return wp_sql_run(c, WP_STMT_SEAT_INSERT, &p, NULL);
}

static void
read_game(const PGresult *r, struct wp_game *g)
{
	g->id = wp_col_int(r, 0, GC_ID);
	wp_col_str(r, 0, GC_RULESET, g->ruleset, sizeof(g->ruleset));
	g->rs = wr_ruleset_find(g->ruleset);
	g->options = wp_col_json(r, 0, GC_OPTIONS);
	g->nseats = (int)wp_col_int(r, 0, GC_SEATS);
	g->status = wp_status_parse(PQgetvalue(r, 0, GC_STATUS));
	g->seq = (int)wp_col_int(r, 0, GC_SEQ);
	g->version = (int)wp_col_int(r, 0, GC_VERSION);
	g->state = wp_col_strdup(r, 0, GC_STATE);
	wp_col_bytes(r, 0, GC_SEED, g->seed, sizeof(g->seed));
	wp_col_bytes(r, 0, GC_COMMITMENT, g->commitment, sizeof(g->commitment));
	long cl = wp_col_bytes(r, 0, GC_CLIENT, g->client, sizeof(g->client));
	g->client_len = cl > 0 ? (size_t)cl : 0;
	g->draws = wp_col_int(r, 0, GC_DRAWS);
	g->awaiting = (unsigned)wp_col_int(r, 0, GC_AWAITING);
	g->draw_offers = (unsigned)wp_col_int(r, 0, GC_OFFERS);
	g->result = wp_col_json(r, 0, GC_RESULT);
	g->created_by = wp_col_int(r, 0, GC_CREATED_BY);
	wp_col_str(r, 0, GC_CREATED_AT, g->created_at, sizeof(g->created_at));
	wp_col_str(r, 0, GC_UPDATED_AT, g->updated_at, sizeof(g->updated_at));
	wp_col_tc(r, 0, GC_TIME_CONTROL, &g->tc);
	g->watch = wp_watch_parse(PQgetvalue(r, 0, GC_SPECTATORS));
	g->delay = (int)wp_col_int(r, 0, GC_DELAY);
	g->rated = wp_col_bool(r, 0, GC_RATED);
}

enum wp_err
wp_db_game_load(struct wp_conn *c, int64_t id, int lock, struct wp_game *g)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;
	/* Taken before the read: what is read is not kept in the cache if a
	 * change was heard of meanwhile (cache.c). */
	uint64_t ticket = wp_cache_ticket(id);

	memset(g, 0, sizeof(*g));
	wp_p_int(&p, id);
	if ((err = wp_sql_run(c, lock ? WP_STMT_GAME_LOCK : WP_STMT_GAME_GET, &p, &r)) != WP_OK)
		return err;
	if (PQntuples(r) == 0) {
		PQclear(r);
		return WP_ERR_NOT_FOUND;
	}
	read_game(r, g);
	struct wp_clock_input in;
	int clock = !lock && g->tc.on && g->status == WP_STATUS_ACTIVE &&
	            wp_clock_input_text(PQgetvalue(r, 0, GC_FOLD), PQgetvalue(r, 0, GC_MARKS),
	                                PQgetvalue(r, 0, GC_VACATIONS), g->nseats, &in) == 0;
	PQclear(r);
	if (g->nseats < 1 || g->nseats > WR_MAX_SEATS || g->status == WP_STATUS_MAX) {
		wp_log("game %lld: %d seats, status unknown or seats out of range", (long long)id,
		       g->nseats);
		err = WP_ERR_INTERNAL;
	} else {
		err = wp_sql_run(c, WP_STMT_SEATS_GET, &p, &r);
	}
	if (err != WP_OK) {
		wp_game_free(g);
		if (clock)
			wp_clock_input_free(&in);
		return err;
	}
	for (int i = 0; i < PQntuples(r) && i < g->nseats; i++) {
		struct wp_seat *s = &g->seats[i];
		s->seat = (int)wp_col_int(r, i, SC_SEAT);
		s->player_id = wp_col_null(r, i, SC_PLAYER) ? 0 : wp_col_int(r, i, SC_PLAYER);
		wp_col_str(r, i, SC_NAME, s->name, sizeof(s->name));
		wp_col_str(r, i, SC_CLIENT_SEED, s->client_seed, sizeof(s->client_seed));
		s->bot = wp_col_bool(r, i, SC_BOT);
	}
	PQclear(r);
	/* Only what is committed: never a read inside a transaction, which
	 * may see its own changes. A timed match in play is kept with its
	 * clock input, which came with its row: a view reads no post times. */
	if (PQtransactionStatus(c->pg) == PQTRANS_IDLE) {
		wp_cache_game_put(g, ticket);
		if (clock)
			wp_cache_clock_put(g->id, g->version, &in);
	}
	if (clock)
		wp_clock_input_free(&in);
	return WP_OK;
}

enum wp_err
wp_db_seat_by_invite(struct wp_conn *c, int64_t game, const unsigned char invite_hash[32],
                     int *seat)
{
	struct wp_params p = {0};
	int64_t v = -1;
	enum wp_err err;

	wp_p_int(&p, game);
	wp_p_bytes(&p, invite_hash, 32);
	err = wp_sql_one(c, WP_STMT_SEAT_BY_INVITE, &p, &v);
	*seat = (int)v;
	return err;
}

enum wp_err
wp_db_seat_join(struct wp_conn *c, int64_t game, int seat, int64_t player,
                const char *client_seed)
{
	struct wp_params p = {0};

	wp_p_int(&p, game);
	wp_p_int(&p, seat);
	wp_p_int(&p, player);
	wp_p_text(&p, client_seed ? client_seed : "");
	return wp_sql_run(c, WP_STMT_SEAT_JOIN, &p, NULL);
}

enum wp_err
wp_db_game_current(struct wp_conn *c, const struct wp_post_guard *g, int64_t game, int *current)
{
	struct wp_params p = {0};
	int64_t n = 0;
	enum wp_err err;

	wp_p_int(&p, game);
	wp_p_int(&p, g->version);
	wp_p_int(&p, g->player);
	wp_p_bytes(&p, g->token_hash, 32);
	wp_p_text(&p, g->key);
	err = wp_sql_one(c, WP_STMT_GAME_CURRENT, &p, &n);
	*current = err == WP_OK && n == 1;
	return err;
}

enum wp_err
wp_db_game_bump(struct wp_conn *c, int64_t game)
{
	struct wp_params p = {0};
	int64_t version;
	enum wp_err err;

	wp_p_int(&p, game);
	if ((err = wp_sql_one(c, WP_STMT_GAME_BUMP, &p, &version)) != WP_OK)
		return err;
	return wp_db_notify(c, game, version);
}

/* --- who may watch (issue 14, "Spectators") --- */

enum wp_err
wp_db_game_watch_set(struct wp_conn *c, int64_t game, enum wp_watch watch, int delay)
{
	struct wp_params p = {0};

	wp_p_int(&p, game);
	wp_p_text(&p, wp_watch_str(watch));
	wp_p_int(&p, delay);
	return wp_sql_run(c, WP_STMT_GAME_WATCH_SET, &p, NULL);
}

enum wp_err
wp_db_games_watchable(struct wp_conn *c, int64_t limit, int64_t offset,
                      struct wp_watchable **out, int *n)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	*out = NULL;
	*n = 0;
	wp_p_int(&p, limit);
	wp_p_int(&p, offset);
	if ((err = wp_sql_run(c, WP_STMT_GAMES_WATCHABLE, &p, &r)) != WP_OK)
		return err;
	int rows = PQntuples(r);
	*out = calloc(rows ? (size_t)rows : 1, sizeof(**out));
	if (!*out) {
		PQclear(r);
		return WP_ERR_INTERNAL;
	}
	for (int i = 0; i < rows; i++) {
		struct wp_watchable *w = &(*out)[i];
		w->id = wp_col_int(r, i, WAC_ID);
		wp_col_str(r, i, WAC_RULESET, w->ruleset, sizeof(w->ruleset));
		w->status = wp_status_parse(PQgetvalue(r, i, WAC_STATUS));
		w->nseats = (int)wp_col_int(r, i, WAC_SEATS);
		w->delay = (int)wp_col_int(r, i, WAC_DELAY);
		w->rated = wp_col_bool(r, i, WAC_RATED);
	}
	*n = rows;
	PQclear(r);
	return WP_OK;
}
