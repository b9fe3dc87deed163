/* What pool.c and health.c share: the pool's struct and the few calls
 * the pool makes into health.c (never the other way). */
#ifndef WP_POOL_PRIV_H
#define WP_POOL_PRIV_H

#include <pthread.h>
#include <time.h>

#include "store_priv.h"

/* A request of an event loop's coroutine waiting for a free connection
 * (wp_store_get): it waits on its own eventfd, which a connection given
 * back writes, so its loop serves other requests meanwhile and it is
 * resumed when there is something to take, not polled. On its stack;
 * queued oldest first, under the pool's lock. */
struct wp_pool_waiter {
	int efd;
	struct wp_pool_waiter *next;
};

struct wp_store {
	pthread_mutex_t lock;
	pthread_cond_t freed;    /* a slot was given back, or the breaker moved */
	struct wp_pool_waiter *waiters, **waiters_tail;  /* coroutines: as freed */
	char *conninfo;
	unsigned size;
	struct wp_conn *conns;
	unsigned char *busy;
	struct wp_db_limits lim;
	/* The breaker. epoch grows each time the database is found down;
	 * a connection made or taken in an earlier epoch is not trusted. */
	int down;
	int probing;             /* one request is trying to connect */
	unsigned epoch;
	/* renew grows each time a connection was found on a server going
	 * away or read-only while the database was up: the pool's idle
	 * connections are made again before they are lent, but the requests
	 * under way are left alone, and whether the database is down is the
	 * monitor's to say (asked at once). */
	unsigned renew;
	/* The monitor (daemons only; CGI checks on its one connection). */
	int monitoring, stopping, check_now;
	pthread_t monitor;
	pthread_cond_t wake;     /* wakes the monitor early */
	pthread_cond_t checked;  /* a check finished */
	unsigned long checks;    /* checks finished */
};

/* --- health.c: exchanges under a deadline --- */
int64_t wp_deadline_in(unsigned ms);
struct timespec wp_abs_deadline(int64_t deadline);
/* Flushes what was sent and reads every result of it: the first failed
 * one, else the last. NULL when the deadline passed, the breaker tripped
 * or the connection broke; the connection is then marked broken. */
PGresult *wp_await_result(struct wp_conn *c, int64_t deadline);
PGresult *wp_exec_simple(struct wp_conn *c, const char *sql, int64_t deadline);
/* A new connection within the deadline: TCP keepalives on (unless the
 * conninfo says otherwise), non-blocking, the session's timeouts set.
 * NULL (and c->pg NULL) when it cannot be had. */
PGconn *wp_connect_db(struct wp_conn *c, const char *app, int64_t deadline);

/* --- health.c: the breaker, all with the lock held --- */
/* Tells the oldest waiting coroutine (all of them when all) that a slot
 * was given back or the breaker moved, as freed tells the threads. */
void wp_pool_wake(struct wp_store *st, int all);
/* The database does not answer: requests get 503 until it does. */
void wp_breaker_down(struct wp_store *st, const char *why);
/* A request about to wait for a slot: 0 when it is refused at once
 * (down, and another request is finding out whether it is back); else
 * 1, with *probe set when this request is the one finding out. */
int wp_breaker_admit(struct wp_store *st, int *probe);
/* The request is done: connected (1), could not connect (0), or got no
 * slot in time (-1). A probe that connected closes the breaker; one that
 * did not changes nothing. */
void wp_breaker_tried(struct wp_store *st, int probe, int connected);
/* The database answers again (the monitor's check, or a probe). */
void wp_breaker_up(struct wp_store *st);

/* --- health.c: the monitor --- */
/* Without the lock: the monitor thread, if any, stops and is joined. */
void wp_monitor_stop(struct wp_store *st);
/* Asks the monitor, if one runs, for a check now. Under st->lock. */
void wp_monitor_poke(struct wp_store *st);
/* 1 when a monitor runs and *up is its answer (wp_store_ping); 0 when
 * none runs, and the caller checks on a pooled connection. */
int wp_monitor_answer(struct wp_store *st, int *up);

#endif
