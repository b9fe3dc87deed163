/* Tournaments in the store (issue 29, sql/024_tournaments.sql). Same
 * conventions as store.h. An event is read whole, as the JSON that
 * wp_tournament_json builds, and the API adds the standings. */
#ifndef WP_TOURNAMENT_STORE_H
#define WP_TOURNAMENT_STORE_H

#include "store.h"

struct wp_tournament_new {
	int64_t organiser;
	const char *name, *ruleset, *options, *time_control, *kind, *code, *starts_at;
	int rated, seats, cycles, rounds, min_players, max_players, reach, accept_days;
	int round_days;
};
enum wp_err wp_db_tournament_insert(struct wp_conn *c, const struct wp_tournament_new *n,
                                    int64_t *id);
/* The event as JSON (owned); lock: FOR UPDATE, every change of it one at
 * a time. with_code: the invitation code in it. WP_ERR_NOT_FOUND. */
enum wp_err wp_db_tournament(struct wp_conn *c, int64_t id, int lock, int with_code,
                             json_object **out);
/* Up to limit events, running and open first, as a JSON array (owned). */
enum wp_err wp_db_tournaments(struct wp_conn *c, int limit, json_object **out);
/* WP_ERR_NOT_FOUND: joined already. */
enum wp_err wp_db_tournament_join(struct wp_conn *c, int64_t id, int64_t player);
/* Before the start: the player leaves (WP_ERR_NOT_FOUND: was not in it);
 * after: marked withdrawn. */
enum wp_err wp_db_tournament_leave(struct wp_conn *c, int64_t id, int64_t player, int started);
enum wp_err wp_db_tournament_set(struct wp_conn *c, int64_t id, const char *status, int round,
                                 int rounds);
/* The round's row: WP_ERR_NOT_FOUND when it exists already. */
enum wp_err wp_db_tournament_round(struct wp_conn *c, int64_t id, int round);
/* One table; game 0: a bye. */
enum wp_err wp_db_tournament_table(struct wp_conn *c, int64_t id, int round, int table,
                                   int64_t game, const int64_t *players, int n);
/* The next event after `after` with work for the round worker, locked
 * (SKIP LOCKED) in the caller's transaction; *id 0: none. */
enum wp_err wp_db_tournament_due(struct wp_conn *c, int64_t after, int64_t *id);
/* NOTIFY wp_tournament at the commit. */
enum wp_err wp_db_tournament_notify(struct wp_conn *c, int64_t id);

/* A ladder's challenge, pending for `days`; *cid its id. */
enum wp_err wp_db_ladder_challenge(struct wp_conn *c, int64_t id, int64_t challenger,
                                   int64_t challenged, int days, int64_t *cid);
/* Its status ("playing" with its game, "done" or "forfeited"); game 0:
 * unchanged; swapped -1: unknown yet. */
enum wp_err wp_db_ladder_set(struct wp_conn *c, int64_t cid, const char *status, int64_t game,
                             int swapped);
/* A player's seed (a ladder's place, 1 the top). */
enum wp_err wp_db_tournament_seed(struct wp_conn *c, int64_t id, int64_t player, int seed);

/* The round worker's turn (api/tournament_rounds.c, called by the
 * notify worker's loop): every event with work moved on, each in a
 * transaction of its own. */
void wp_tournament_round(struct wp_store *st);

#endif
