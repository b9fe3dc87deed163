/* Tournaments in the store (issue 29): tournament_sql.h holds the SQL,
 * sql/024_tournaments.sql the tables and the JSON of an event. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_priv.h"
#include "tournament_store.h"

enum wp_err
wp_db_tournament_insert(struct wp_conn *c, const struct wp_tournament_new *n, int64_t *id)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	wp_p_int(&p, n->organiser);
	wp_p_text(&p, n->name);
	wp_p_text(&p, n->ruleset);
	wp_p_text(&p, n->options ? n->options : "{}");
	wp_p_text(&p, n->time_control);
	wp_p_text(&p, n->rated ? "true" : "false");
	wp_p_int(&p, n->seats);
	wp_p_text(&p, n->kind);
	wp_p_int(&p, n->cycles);
	wp_p_int(&p, n->rounds);
	wp_p_int(&p, n->min_players);
	wp_p_int(&p, n->max_players);
	wp_p_text(&p, n->code);
	wp_p_text(&p, n->starts_at);
	wp_p_int(&p, n->reach);
	wp_p_int(&p, n->accept_days);
	wp_p_int(&p, n->round_days);
	if ((err = wp_sql_run(c, WP_STMT_T_INSERT, &p, &r)))
		return err;
	*id = wp_col_int(r, 0, 0);
	PQclear(r);
	return WP_OK;
}

static enum wp_err
json_row(struct wp_conn *c, enum wp_stmt st, const struct wp_params *p, json_object **out)
{
	PGresult *r;
	enum wp_err err;

	*out = NULL;
	if ((err = wp_sql_run(c, st, p, &r)))
		return err;
	if (PQntuples(r) == 1 && !wp_col_null(r, 0, 0))
		*out = wp_col_json(r, 0, 0);
	PQclear(r);
	return *out ? WP_OK : WP_ERR_NOT_FOUND;
}

enum wp_err
wp_db_tournament(struct wp_conn *c, int64_t id, int lock, int with_code, json_object **out)
{
	struct wp_params p = {0};

	wp_p_int(&p, id);
	wp_p_text(&p, with_code ? "true" : "false");
	return json_row(c, lock ? WP_STMT_T_LOCK : WP_STMT_T_JSON, &p, out);
}

enum wp_err
wp_db_tournaments(struct wp_conn *c, int limit, json_object **out)
{
	struct wp_params p = {0};

	wp_p_int(&p, limit);
	return json_row(c, WP_STMT_T_LIST, &p, out);
}

static void
id_and(struct wp_params *p, int64_t id, int64_t v)
{
	wp_p_int(p, id);
	wp_p_int(p, v);
}

enum wp_err
wp_db_tournament_join(struct wp_conn *c, int64_t id, int64_t player)
{
	struct wp_params p = {0};

	id_and(&p, id, player);
	return wp_sql_try(c, WP_STMT_T_JOIN, &p, NULL, "23505");
}

enum wp_err
wp_db_tournament_leave(struct wp_conn *c, int64_t id, int64_t player, int started)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	id_and(&p, id, player);
	if (started)
		return wp_sql_run(c, WP_STMT_T_WITHDRAW, &p, NULL);
	if ((err = wp_sql_run(c, WP_STMT_T_DROP, &p, &r)))
		return err;
	err = wp_col_int(r, 0, 0) == 1 ? WP_OK : WP_ERR_NOT_FOUND;
	PQclear(r);
	return err;
}

enum wp_err
wp_db_tournament_set(struct wp_conn *c, int64_t id, const char *status, int round, int rounds)
{
	struct wp_params p = {0};

	wp_p_int(&p, id);
	wp_p_text(&p, status);
	wp_p_int(&p, round);
	wp_p_int(&p, rounds);
	return wp_sql_run(c, WP_STMT_T_SET, &p, NULL);
}

enum wp_err
wp_db_tournament_round(struct wp_conn *c, int64_t id, int round)
{
	struct wp_params p = {0};

	id_and(&p, id, round);
	return wp_sql_try(c, WP_STMT_T_ROUND, &p, NULL, "23505");
}

enum wp_err
wp_db_tournament_table(struct wp_conn *c, int64_t id, int round, int table, int64_t game,
                       const int64_t *players, int n)
{
	struct wp_params p = {0};
	char arr[128];
	size_t used = 0;

	arr[used++] = '{';
	for (int i = 0; i < n && used < sizeof(arr) - 24; i++)
		used += (size_t)snprintf(arr + used, sizeof(arr) - used, "%s%lld", i ? "," : "",
		                         (long long)players[i]);
	snprintf(arr + used, sizeof(arr) - used, "}");
	wp_p_int(&p, id);
	wp_p_int(&p, round);
	wp_p_int(&p, table);
	if (game)
		wp_p_int(&p, game);
	else
		wp_p_text(&p, NULL);
	wp_p_text(&p, arr);
	return wp_sql_run(c, WP_STMT_T_TABLE, &p, NULL);
}

enum wp_err
wp_db_tournament_due(struct wp_conn *c, int64_t after, int64_t *id)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	wp_p_int(&p, after);
	*id = 0;
	if ((err = wp_sql_run(c, WP_STMT_T_DUE, &p, &r)))
		return err;
	if (PQntuples(r) == 1)
		*id = wp_col_int(r, 0, 0);
	PQclear(r);
	return WP_OK;
}

enum wp_err
wp_db_tournament_notify(struct wp_conn *c, int64_t id)
{
	struct wp_params p = {0};

	wp_p_int(&p, id);
	return wp_sql_run(c, WP_STMT_T_NOTIFY, &p, NULL);
}

enum wp_err
wp_db_ladder_challenge(struct wp_conn *c, int64_t id, int64_t challenger, int64_t challenged,
                       int days, int64_t *cid)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	id_and(&p, id, challenger);
	id_and(&p, challenged, days);
	if ((err = wp_sql_run(c, WP_STMT_L_INSERT, &p, &r)))
		return err;
	*cid = wp_col_int(r, 0, 0);
	PQclear(r);
	return WP_OK;
}

enum wp_err
wp_db_ladder_set(struct wp_conn *c, int64_t cid, const char *status, int64_t game, int swapped)
{
	struct wp_params p = {0};

	wp_p_int(&p, cid);
	wp_p_text(&p, status);
	if (game)
		wp_p_int(&p, game);
	else
		wp_p_text(&p, NULL);
	wp_p_text(&p, swapped < 0 ? NULL : swapped ? "true" : "false");
	return wp_sql_run(c, WP_STMT_L_SET, &p, NULL);
}

enum wp_err
wp_db_tournament_seed(struct wp_conn *c, int64_t id, int64_t player, int seed)
{
	struct wp_params p = {0};

	id_and(&p, id, player);
	wp_p_int(&p, seed);
	return wp_sql_run(c, WP_STMT_T_SEED, &p, NULL);
}
