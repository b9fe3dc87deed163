/* Open challenges in the store (issue 28, "Open challenges"): the seek
 * lobby's rows and seats (sql/018_challenges.sql). Same conventions as
 * store.h. */
#ifndef WP_CHALLENGE_STORE_H
#define WP_CHALLENGE_STORE_H

#include "store.h"

#define WP_CHALLENGE_STATUS_MAX 12   /* "open", "expired", "cancelled", "started" */

/* A challenge as posted, to be written. */
struct wp_challenge_new {
	int64_t poster;
	const char *ruleset, *options, *time_control;   /* JSON text; time_control NULL: none */
	int rated, nseats, seat;                         /* seat: the poster's */
	int has_min, has_max, min_rating, max_rating;
	enum wp_watch watch;
	int delay;
	int64_t expires_in;                              /* seconds from now */
	const char *client_seed;                         /* the poster's, or NULL */
};

/* A challenge as read. */
struct wp_challenge {
	int64_t id, poster, game;                /* game 0: not started */
	char poster_name[WP_NAME_MAX];
	char ruleset[64];
	char *options;                           /* owned JSON text */
	struct wp_tc tc;
	int rated, nseats;
	int has_min, has_max, min_rating, max_rating;
	enum wp_watch watch;
	int delay;
	char status[WP_CHALLENGE_STATUS_MAX];    /* open, expired, cancelled or started */
	int version;
	char created_at[WP_TIME_MAX], expires_at[WP_TIME_MAX];
	int64_t expires;                         /* the same, epoch seconds */
	json_object *players;                    /* owned: [{"seat", "player": {"id", "name"}}] */
};
void wp_challenge_free(struct wp_challenge *ch);
void wp_challenges_free(struct wp_challenge *list, int n);

/* The challenge and the poster's seat; *id the new challenge's. */
enum wp_err wp_db_challenge_insert(struct wp_conn *c, const struct wp_challenge_new *n,
                                   int64_t *id);
/* lock: FOR UPDATE, every accept, leave and cancel of it one at a time. */
enum wp_err wp_db_challenge_get(struct wp_conn *c, int64_t id, int lock, struct wp_challenge *ch);
/* Up to `limit` open challenges, newest first; ruleset and time (untimed,
 * timed or days a move) NULL for any. *out malloc'd. */
enum wp_err wp_db_challenges(struct wp_conn *c, const char *ruleset, const char *time,
                             int64_t limit, struct wp_challenge **out, int *n);

/* The seats taken: players[seat] (0: free) and their client seeds. */
struct wp_challenge_seats {
	int64_t player[WR_MAX_SEATS];
	char client_seed[WR_MAX_SEATS][WP_CLIENT_SEED_MAX + 1];
};
enum wp_err wp_db_challenge_seats(struct wp_conn *c, int64_t id, struct wp_challenge_seats *s);
enum wp_err wp_db_challenge_seat_insert(struct wp_conn *c, int64_t id, int seat, int64_t player,
                                        const char *client_seed);
/* The player's seat given back; WP_ERR_NOT_FOUND when it held none. */
enum wp_err wp_db_challenge_leave(struct wp_conn *c, int64_t id, int64_t player);
/* status "cancelled" or "started" (with its match). */
enum wp_err wp_db_challenge_status(struct wp_conn *c, int64_t id, const char *status,
                                   int64_t game);
/* NOTIFY wp_challenge, sent when the caller's transaction commits. */
enum wp_err wp_db_challenge_notify(struct wp_conn *c, int64_t id);
/* The first answer to an accept's Idempotency-Key. */
enum wp_err wp_db_challenge_idem_get(struct wp_conn *c, int64_t id, int64_t player,
                                     const char *key, struct wp_idem *out);
enum wp_err wp_db_challenge_idem_put(struct wp_conn *c, int64_t id, int64_t player,
                                     const char *key, const unsigned char request_hash[32],
                                     int status, const char *body);
/* Forgets challenges cancelled or not taken `days` after their expiry. */
enum wp_err wp_db_challenges_sweep(struct wp_conn *c, int days);

/* The player's rating in the ruleset (its pool's, sql/017), as accepters'
 * rating ranges read it: 1500, a new player's, until it has one. */
enum wp_err wp_db_rating_of(struct wp_conn *c, int64_t player, const char *ruleset, int *rating);

#endif
