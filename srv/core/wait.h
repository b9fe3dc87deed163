/* Long-polls: requests held until their match changes. The store's
 * LISTEN thread (store/listen.c), on its own connection, hears NOTIFY wp_game '<id>' from any srv instance
 * and wakes the requests waiting on that match; a deadline sweep wakes
 * the rest. Each match hashes to a bucket with a generation counter, so
 * a notification between a request's read and its registration is not
 * lost (the request sees the generation moved and is woken at once). */
#ifndef WP_WAIT_H
#define WP_WAIT_H

#include <stdint.h>

struct wp_waiter {
	int64_t game;
	uint64_t gen_seen;
	int64_t deadline_ns;
	void (*wake)(struct wp_waiter *w);   /* called once, from any thread */
	void *arg;
	/* With watch_fd, the client's socket fd is watched while w waits:
	 * when the peer hangs up (closes, or shuts its sending side), w is
	 * woken early with gone set, so a client that left frees its slot
	 * at once instead of at the deadline. */
	int fd;
	int watch_fd;
	int gone;
	struct wp_waiter *next;
	int registered;
};

/* Waiting is allowed again (at start). */
void wp_wait_begin(void);
/* 1 once stopping: requests must not start waiting any more. */
int wp_wait_stopping(void);
/* Wakes every waiter; from now on requests do not wait. */
void wp_wait_stop(void);
uint64_t wp_wait_gen(int64_t game);
/* Registers w; wakes it at once when its generation already moved. */
void wp_wait_add(struct wp_waiter *w);
/* Unregisters w if it is still waiting (a connection that went away). */
void wp_wait_remove(struct wp_waiter *w);
/* Keys below 0 are players (-player id): a request waiting for any of a
 * player's matches (GET /api/me/events); the listener wakes them after
 * looking up the seats of the matches it heard of, only while some wait. */
int wp_wait_players(void);
/* The key of the open challenges' list (GET /api/challenges, issue 28),
 * woken by NOTIFY wp_challenge from any instance; not a player's. */
#define WP_WAIT_CHALLENGES INT64_MIN
/* The same for the tournaments (issue 29): every event and their list. */
#define WP_WAIT_TOURNAMENTS (INT64_MIN + 1)
/* 1 when the peer of socket fd has hung up (closed, or shut its sending
 * side), right now. */
int wp_hung_up(int fd);
/* A match changed (called by the listener; tests may call it). */
void wp_wait_notify(int64_t game);
/* Wakes the waiters whose deadline has passed. */
void wp_wait_sweep(int64_t now_ns);
/* Wakes every waiter (notifications may have been missed). */
void wp_wait_all(void);

#endif
