/* Open challenges in the store (issue 28): challenge_sql.h holds the SQL,
 * sql/018_challenges.sql the tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "challenge_store.h"
#include "store_priv.h"

void
wp_challenge_free(struct wp_challenge *ch)
{
	free(ch->options);
	json_object_put(ch->players);
	ch->options = NULL;
	ch->players = NULL;
}

void
wp_challenges_free(struct wp_challenge *list, int n)
{
	for (int i = 0; i < n; i++)
		wp_challenge_free(&list[i]);
	free(list);
}

static void
read_challenge(const PGresult *r, int i, struct wp_challenge *ch)
{
	memset(ch, 0, sizeof(*ch));
	ch->id = wp_col_int(r, i, CH_ID);
	ch->poster = wp_col_int(r, i, CH_POSTER);
	wp_col_str(r, i, CH_POSTER_NAME, ch->poster_name, sizeof(ch->poster_name));
	wp_col_str(r, i, CH_RULESET, ch->ruleset, sizeof(ch->ruleset));
	ch->options = wp_col_strdup(r, i, CH_OPTIONS);
	wp_col_tc(r, i, CH_TIME_CONTROL, &ch->tc);
	ch->rated = wp_col_bool(r, i, CH_RATED);
	ch->nseats = (int)wp_col_int(r, i, CH_SEATS);
	if ((ch->has_min = !wp_col_null(r, i, CH_MIN_RATING)))
		ch->min_rating = (int)wp_col_int(r, i, CH_MIN_RATING);
	if ((ch->has_max = !wp_col_null(r, i, CH_MAX_RATING)))
		ch->max_rating = (int)wp_col_int(r, i, CH_MAX_RATING);
	ch->watch = wp_watch_parse(PQgetvalue(r, i, CH_SPECTATORS));
	ch->delay = (int)wp_col_int(r, i, CH_DELAY);
	wp_col_str(r, i, CH_STATUS, ch->status, sizeof(ch->status));
	ch->game = wp_col_null(r, i, CH_GAME) ? 0 : wp_col_int(r, i, CH_GAME);
	ch->version = (int)wp_col_int(r, i, CH_VERSION);
	wp_col_str(r, i, CH_CREATED_AT, ch->created_at, sizeof(ch->created_at));
	wp_col_str(r, i, CH_EXPIRES_AT, ch->expires_at, sizeof(ch->expires_at));
	ch->expires = wp_col_int(r, i, CH_EXPIRES);
	ch->players = wp_col_json(r, i, CH_PLAYERS);
	if (!ch->players)
		ch->players = json_object_new_array();
}

static void
p_int_or_null(struct wp_params *p, int has, int64_t v)
{
	if (has)
		wp_p_int(p, v);
	else
		wp_p_text(p, NULL);
}

enum wp_err
wp_db_challenge_insert(struct wp_conn *c, const struct wp_challenge_new *n, int64_t *id)
{
	struct wp_params p = {0};
	enum wp_err err;

	wp_p_int(&p, n->poster);
	wp_p_text(&p, n->ruleset);
	wp_p_text(&p, n->options);
	wp_p_text(&p, n->time_control);
	wp_p_text(&p, n->rated ? "true" : "false");
	wp_p_int(&p, n->nseats);
	p_int_or_null(&p, n->has_min, n->min_rating);
	p_int_or_null(&p, n->has_max, n->max_rating);
	wp_p_text(&p, wp_watch_str(n->watch));
	wp_p_int(&p, n->delay);
	wp_p_int(&p, n->expires_in);
	if ((err = wp_sql_one(c, WP_STMT_CHALLENGE_INSERT, &p, id)) != WP_OK)
		return err;
	return wp_db_challenge_seat_insert(c, *id, n->seat, n->poster, n->client_seed);
}

enum wp_err
wp_db_challenge_get(struct wp_conn *c, int64_t id, int lock, struct wp_challenge *ch)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	memset(ch, 0, sizeof(*ch));
	wp_p_int(&p, id);
	if ((err = wp_sql_run(c, lock ? WP_STMT_CHALLENGE_LOCK : WP_STMT_CHALLENGE_GET, &p, &r)))
		return err;
	if (PQntuples(r) == 0)
		err = WP_ERR_NOT_FOUND;
	else
		read_challenge(r, 0, ch);
	PQclear(r);
	return err;
}

enum wp_err
wp_db_challenges(struct wp_conn *c, const char *ruleset, const char *time, int64_t limit,
                 struct wp_challenge **out, int *n)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	*out = NULL;
	*n = 0;
	wp_p_text(&p, ruleset);
	wp_p_text(&p, time);
	wp_p_int(&p, limit);
	if ((err = wp_sql_run(c, WP_STMT_CHALLENGES_LIST, &p, &r)) != WP_OK)
		return err;
	int rows = PQntuples(r);
	if (!(*out = calloc(rows ? (size_t)rows : 1, sizeof(**out)))) {
		PQclear(r);
		return WP_ERR_INTERNAL;
	}
	for (int i = 0; i < rows; i++)
		read_challenge(r, i, &(*out)[i]);
	*n = rows;
	PQclear(r);
	return WP_OK;
}

enum wp_err
wp_db_challenge_seats(struct wp_conn *c, int64_t id, struct wp_challenge_seats *s)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	memset(s, 0, sizeof(*s));
	wp_p_int(&p, id);
	if ((err = wp_sql_run(c, WP_STMT_CHALLENGE_SEATS, &p, &r)) != WP_OK)
		return err;
	for (int i = 0; i < PQntuples(r); i++) {
		int64_t seat = wp_col_int(r, i, CS_SEAT);
		if (seat < 0 || seat >= WR_MAX_SEATS)
			continue;
		s->player[seat] = wp_col_int(r, i, CS_PLAYER);
		wp_col_str(r, i, CS_CLIENT_SEED, s->client_seed[seat], sizeof(s->client_seed[seat]));
	}
	PQclear(r);
	return WP_OK;
}

enum wp_err
wp_db_challenge_seat_insert(struct wp_conn *c, int64_t id, int seat, int64_t player,
                            const char *client_seed)
{
	struct wp_params p = {0};

	wp_p_int(&p, id);
	wp_p_int(&p, seat);
	wp_p_int(&p, player);
	wp_p_text(&p, client_seed ? client_seed : "");
	return wp_sql_run(c, WP_STMT_CHALLENGE_SEAT_INSERT, &p, NULL);
}

enum wp_err
wp_db_challenge_leave(struct wp_conn *c, int64_t id, int64_t player)
{
	struct wp_params p = {0};
	int64_t v;

	wp_p_int(&p, id);
	wp_p_int(&p, player);
	return wp_sql_one(c, WP_STMT_CHALLENGE_LEAVE, &p, &v);
}

enum wp_err
wp_db_challenge_status(struct wp_conn *c, int64_t id, const char *status, int64_t game)
{
	struct wp_params p = {0};

	wp_p_int(&p, id);
	wp_p_text(&p, status);
	p_int_or_null(&p, game != 0, game);
	return wp_sql_run(c, WP_STMT_CHALLENGE_STATUS, &p, NULL);
}

enum wp_err
wp_db_challenge_notify(struct wp_conn *c, int64_t id)
{
	struct wp_params p = {0};

	wp_p_int(&p, id);
	return wp_sql_run(c, WP_STMT_CHALLENGE_NOTIFY, &p, NULL);
}

enum wp_err
wp_db_challenge_idem_get(struct wp_conn *c, int64_t id, int64_t player, const char *key,
                         struct wp_idem *out)
{
	return wp_idem_get_by(c, WP_STMT_CHALLENGE_IDEM_GET, id, player, key, out);
}

enum wp_err
wp_db_challenge_idem_put(struct wp_conn *c, int64_t id, int64_t player, const char *key,
                         const unsigned char request_hash[32], int status, const char *body)
{
	return wp_idem_put_by(c, WP_STMT_CHALLENGE_IDEM_PUT, id, player, key, request_hash, status,
	                      body);
}

enum wp_err
wp_db_challenges_sweep(struct wp_conn *c, int days)
{
	struct wp_params p = {0};

	wp_p_int(&p, days);
	return wp_sql_run(c, WP_STMT_CHALLENGES_SWEEP, &p, NULL);
}

enum wp_err
wp_db_rating_of(struct wp_conn *c, int64_t player, const char *ruleset, int *rating)
{
	struct wp_params p = {0};
	int64_t v = 1500;
	enum wp_err err;

	wp_p_int(&p, player);
	wp_p_text(&p, ruleset);
	err = wp_sql_one(c, WP_STMT_RATING_OF, &p, &v);
	if (err == WP_ERR_NOT_FOUND)   /* no rating yet: a new player's */
		err = WP_OK;
	*rating = (int)v;
	return err;
}
