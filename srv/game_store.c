/* Reading a match and its seats from the store. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"

int
wp_parse_id(const char *s, int64_t *id)
{
	int64_t v = 0;

	if (!*s || strlen(s) > 18)
		return -1;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (*p - '0');
	}
	*id = v;
	return v > 0 ? 0 : -1;
}

int
wp_game_seat_of(const struct wp_game *g, int64_t player_id)
{
	for (int i = 0; i < g->nseats; i++)
		if (player_id && g->seats[i].player_id == player_id)
			return i;
	return -1;
}

static enum wp_err
db_error(struct wp_ctx *ctx, PGconn *c, PGresult *r, const char *what)
{
	enum wp_err err = wp_store_lost(c) ? WP_ERR_DB_UNAVAILABLE : WP_ERR_INTERNAL;

	wp_log("database: %s: %s", what, PQresultErrorMessage(r));
	PQclear(r);
	return wp_fail(ctx, err, "the database did not answer as expected");
}

enum wp_err
wp_game_load(struct wp_ctx *ctx, PGconn *c, int64_t id, int lock, struct wp_game *g)
{
	char idbuf[24];
	const char *vals[1] = {idbuf};
	PGresult *r;

	memset(g, 0, sizeof(*g));
	snprintf(idbuf, sizeof(idbuf), "%lld", (long long)id);
	r = wp_store_exec(c, lock ? WP_STMT_GAME_LOCK : WP_STMT_GAME_GET, 1, vals, NULL);
	if (PQresultStatus(r) != PGRES_TUPLES_OK)
		return db_error(ctx, c, r, "game");
	if (PQntuples(r) == 0) {
		PQclear(r);
		return wp_fail_as(ctx, WP_ERR_NOT_FOUND, "game-not-found", "there is no match %lld",
		                  (long long)id);
	}
	g->id = id;
	snprintf(g->ruleset, sizeof(g->ruleset), "%s", PQgetvalue(r, 0, 1));
	g->rs = wr_ruleset_find(g->ruleset);
	g->options = json_tokener_parse(PQgetvalue(r, 0, 2));
	g->nseats = atoi(PQgetvalue(r, 0, 3));
	snprintf(g->status, sizeof(g->status), "%s", PQgetvalue(r, 0, 4));
	g->seq = atoi(PQgetvalue(r, 0, 5));
	g->version = atoi(PQgetvalue(r, 0, 6));
	if (!PQgetisnull(r, 0, 7))
		g->state = strdup(PQgetvalue(r, 0, 7));
	wp_bytea_decode(PQgetvalue(r, 0, 8), g->seed, sizeof(g->seed));
	wp_bytea_decode(PQgetvalue(r, 0, 9), g->commitment, sizeof(g->commitment));
	long cl = wp_bytea_decode(PQgetvalue(r, 0, 10), g->client, sizeof(g->client));
	g->client_len = cl > 0 ? (size_t)cl : 0;
	g->draws = strtoll(PQgetvalue(r, 0, 11), NULL, 10);
	g->awaiting = (unsigned)strtoul(PQgetvalue(r, 0, 12), NULL, 10);
	g->draw_offers = (unsigned)strtoul(PQgetvalue(r, 0, 13), NULL, 10);
	if (!PQgetisnull(r, 0, 14))
		g->result = json_tokener_parse(PQgetvalue(r, 0, 14));
	g->created_by = strtoll(PQgetvalue(r, 0, 15), NULL, 10);
	snprintf(g->created_at, sizeof(g->created_at), "%s", PQgetvalue(r, 0, 16));
	snprintf(g->updated_at, sizeof(g->updated_at), "%s", PQgetvalue(r, 0, 17));
	PQclear(r);
	if (!g->rs || g->nseats < 1 || g->nseats > WR_MAX_SEATS) {
		wp_log("game %lld: ruleset %s is not offered by this server", (long long)id, g->ruleset);
		wp_game_free(g);
		return wp_fail(ctx, WP_ERR_INTERNAL, "this server does not offer the match's ruleset");
	}

	r = wp_store_exec(c, WP_STMT_SEATS_GET, 1, vals, NULL);
	if (PQresultStatus(r) != PGRES_TUPLES_OK) {
		wp_game_free(g);
		return db_error(ctx, c, r, "seats");
	}
	for (int i = 0; i < PQntuples(r) && i < g->nseats; i++) {
		struct wp_seat *s = &g->seats[i];
		s->seat = atoi(PQgetvalue(r, i, 0));
		s->player_id = PQgetisnull(r, i, 1) ? 0 : strtoll(PQgetvalue(r, i, 1), NULL, 10);
		snprintf(s->name, sizeof(s->name), "%s", PQgetvalue(r, i, 2));
		snprintf(s->client_seed, sizeof(s->client_seed), "%s", PQgetvalue(r, i, 3));
	}
	PQclear(r);
	return WP_OK;
}
