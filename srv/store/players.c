/* Players and their matches in the store. */
#include <stdlib.h>
#include <string.h>

#include "store_priv.h"

enum wp_err
wp_db_player_insert(struct wp_conn *c, const char *name, const unsigned char token_hash[32],
                    const char *device, int64_t *id)
{
	struct wp_params p = {0};

	wp_p_text(&p, name);
	wp_p_bytes(&p, token_hash, 32);
	wp_p_int(&p, wp_clock_now());
	wp_p_text(&p, device);
	return wp_sql_one(c, WP_STMT_PLAYER_INSERT, &p, id);
}

enum wp_err
wp_db_player_by_token(struct wp_conn *c, const unsigned char token_hash[32],
                      struct wp_player *who)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;
	/* A revoke heard while this reads keeps what it read out of the cache. */
	unsigned ticket = wp_cache_token_ticket();

	wp_p_bytes(&p, token_hash, 32);
	wp_metric_add(WP_METRIC_TOKEN_LOOKUPS, 1);
	if ((err = wp_sql_run(c, WP_STMT_PLAYER_BY_TOKEN, &p, &r)) != WP_OK)
		return err;
	if (PQntuples(r) == 1) {
		who->id = wp_col_int(r, 0, PLC_ID);
		wp_col_str(r, 0, PLC_NAME, who->name, sizeof(who->name));
		who->bot = wp_col_bool(r, 0, PLC_BOT);
		who->device = wp_col_int(r, 0, PLC_DEVICE);
		wp_cache_player_put(token_hash, who, ticket);
	} else {
		wp_cache_player_drop(token_hash);
		err = WP_ERR_NOT_FOUND;
	}
	PQclear(r);
	return err;
}

enum wp_err
wp_db_open_matches(struct wp_conn *c, int64_t player, int64_t *n)
{
	struct wp_params p = {0};
	enum wp_err err;

	wp_p_int(&p, player);
	if ((err = wp_sql_one(c, WP_STMT_PLAYER_LOCK, &p, n)) != WP_OK)
		return err;
	return wp_sql_one(c, WP_STMT_PLAYER_OPEN_MATCHES, &p, n);
}

enum wp_err
wp_db_my_games(struct wp_conn *c, int64_t player, int64_t limit, int64_t offset,
               int with_state, struct wp_my_game **out, int *n, int *count)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	*out = NULL;
	*n = *count = 0;
	wp_p_int(&p, player);
	wp_p_int(&p, limit);
	wp_p_int(&p, offset);
	wp_p_int(&p, with_state ? 1 : 0);
	if ((err = wp_sql_run(c, WP_STMT_ME_GAMES, &p, &r)) != WP_OK)
		return err;
	*n = PQntuples(r);
	*out = calloc((size_t)*n + 1, sizeof(**out));
	for (int i = 0; *out && i < *n; i++) {
		struct wp_my_game *g = &(*out)[i];
		g->id = wp_col_int(r, i, MC_ID);
		wp_col_str(r, i, MC_RULESET, g->ruleset, sizeof(g->ruleset));
		g->status = wp_status_parse(PQgetvalue(r, i, MC_STATUS));
		g->seq = (int)wp_col_int(r, i, MC_SEQ);
		g->version = (int)wp_col_int(r, i, MC_VERSION);
		g->nseats = (int)wp_col_int(r, i, MC_SEATS);
		g->seat = (int)wp_col_int(r, i, MC_SEAT);
		g->awaiting_me = wp_col_bool(r, i, MC_AWAITING_ME);
		wp_col_str(r, i, MC_UPDATED_AT, g->updated_at, sizeof(g->updated_at));
		wp_col_tc(r, i, MC_TIME_CONTROL, &g->tc);
		g->players = wp_col_json(r, i, MC_PLAYERS);
		g->result = wp_col_json(r, i, MC_RESULT);
		g->state = wp_col_strdup(r, i, MC_STATE);
		g->rated = wp_col_bool(r, i, MC_RATED);
		if (g->tc.on && g->status == WP_STATUS_ACTIVE &&
		    (!(g->clock = malloc(sizeof(*g->clock))) ||
		     wp_clock_input_text(PQgetvalue(r, i, MC_FOLD), PQgetvalue(r, i, MC_MARKS),
		                         PQgetvalue(r, i, MC_VACATIONS), g->nseats, g->clock) != 0)) {
			free(g->clock);
			g->clock = NULL;
			err = WP_ERR_INTERNAL;
		}
	}
	*count = *n ? (int)wp_col_int(r, 0, MC_COUNT) : 0;
	PQclear(r);
	if (!*out || err != WP_OK)
		return WP_ERR_INTERNAL;
	if (*n == 0 && offset > 0) {
		/* A page past the end has no row to carry the count. */
		int64_t all;
		p.n = 1;
		if (wp_sql_one(c, WP_STMT_ME_GAMES_COUNT, &p, &all) == WP_OK)
			*count = (int)all;
	}
	return WP_OK;
}

void
wp_my_games_free(struct wp_my_game *games, int n)
{
	for (int i = 0; games && i < n; i++) {
		json_object_put(games[i].players);
		json_object_put(games[i].result);
		free(games[i].state);
		if (games[i].clock)
			wp_clock_input_free(games[i].clock);
		free(games[i].clock);
	}
	free(games);
}

enum wp_err
wp_db_my_changes(struct wp_conn *c, int64_t player, int64_t *changes)
{
	struct wp_params p = {0};

	wp_p_int(&p, player);
	return wp_sql_one(c, WP_STMT_ME_CHANGES, &p, changes);
}
