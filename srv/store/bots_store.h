/* The computer players in the store (issue 27, sql/020_bots.sql): the
 * engine players, the bot flag of an account, and the bot worker's
 * claims. Same conventions as store.h. */
#ifndef WP_BOTS_STORE_H
#define WP_BOTS_STORE_H

#include "store.h"

/* --- on a request's connection (the pool) --- */
/* The engine player of a level (WP_ERR_NOT_FOUND: no such level). */
enum wp_err wp_db_bot_engine(struct wp_conn *c, int level, struct wp_player *out);
/* Marks the player a bot for good; WP_ERR_NOT_FOUND when it holds a seat
 * in an open or active match (its opponents chose a person). */
enum wp_err wp_db_player_set_bot(struct wp_conn *c, int64_t player);

/* --- the bot worker's own connection, outside the pool: its scans and
 * claims neither wait for nor take a request's connection, and a claim
 * is held (a transaction left open) while its engine thinks --- */
struct wp_bot_conn;
/* NULL when the database does not answer. */
struct wp_bot_conn *wp_bot_conn_open(const char *conninfo);
void wp_bot_conn_close(struct wp_bot_conn *bc);

/* Something an engine seat must answer now: a turn (or a reaction, a
 * set-up choice: the seat is awaited) or another seat's draw offer. */
struct wp_bot_task {
	int64_t game, player;
	int seq, seat, level;
};
/* Up to cap tasks, of the n matches `games` (NULL: of every match),
 * oldest change first, leaving out those done or tried max_attempts
 * times at this post; the count, or -1 (the connection is lost: close it). */
int wp_bot_pending(struct wp_bot_conn *bc, const int64_t *games, int n, int max_attempts,
                   struct wp_bot_task *out, int cap);
/* 1 when a seat of the match is an engine's (or the database refused
 * to say), 0 when none is, -1 on a lost connection. */
int wp_bot_engine_seats(struct wp_bot_conn *bc, int64_t game);
/* Claims the task: 1, the claim's seed (fresh_seed when this is the
 * first try) and the seat's run (its posts since another seat's last),
 * held until wp_bot_finish; 0 when another worker holds it or it is done;
 * -1 on a lost connection. */
int wp_bot_claim(struct wp_bot_conn *bc, const struct wp_bot_task *t, int max_attempts,
                 uint64_t fresh_seed, uint64_t *seed, int *run_len);
/* Records the outcome and lets the claim go; done: never tried again. */
int wp_bot_finish(struct wp_bot_conn *bc, const struct wp_bot_task *t, const char *outcome,
                  int done);

#endif
