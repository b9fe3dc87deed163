/* The store's connections: a small locked pool of libpq connections,
 * lent and given back, connected lazily with every statement prepared,
 * and dropped when stale (the server went away while one sat idle, or
 * the database was found down since it was made); the statements run on
 * them and the columns read from their results. Whether the database
 * answers (the deadlines of every exchange, the 503 breaker, the health
 * monitor) is health.c's: the pool calls it, never the other way. */
#include <errno.h>
#include <stdio.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "pool_priv.h"

static const struct wp_db_limits default_limits = {
	.statement_ms = 5000, .lock_ms = 2000, .connect_ms = 2000, .pool_wait_ms = 500,
	.check_ms = 2000,
};

/* The most a request may spend finding out that the database is back. */
#define WP_PROBE_MS 250

/* The deadline of one statement: the server's own statement_timeout
 * fires first; this one is for a server that does not answer at all. */
static int64_t
statement_deadline(const struct wp_conn *c)
{
	unsigned ms = c->st->lim.statement_ms ? c->st->lim.statement_ms + 1000 : 60000;
	return wp_deadline_in(ms);
}

/* ------------------------------------------------------------------ pool */

struct wp_store *
wp_store_open(const char *conninfo, unsigned pool_size)
{
	struct wp_store *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->size = pool_size ? pool_size : 1;
	st->conninfo = strdup(conninfo);
	st->conns = calloc(st->size, sizeof(*st->conns));
	st->busy = calloc(st->size, 1);
	if (!st->conninfo || !st->conns || !st->busy) {
		free(st->conninfo);
		free(st->conns);
		free(st->busy);
		free(st);
		return NULL;
	}
	st->lim = default_limits;
	st->waiters_tail = &st->waiters;
	for (unsigned i = 0; i < st->size; i++)
		st->conns[i] = (struct wp_conn){.st = st, .watched = 1};
	pthread_mutex_init(&st->lock, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&st->freed, &ca);
	pthread_cond_init(&st->wake, &ca);
	pthread_cond_init(&st->checked, &ca);
	pthread_condattr_destroy(&ca);
	return st;
}

void
wp_store_limits(struct wp_store *st, const struct wp_db_limits *lim)
{
	st->lim = *lim;
}

void
wp_store_close(struct wp_store *st)
{
	if (!st)
		return;
	wp_monitor_stop(st);
	pthread_mutex_lock(&st->lock);
	for (unsigned i = 0; i < st->size; i++) {
		if (st->conns[i].pg && !st->busy[i]) {
			PQfinish(st->conns[i].pg);
			st->conns[i].pg = NULL;
		}
		free(st->conns[i].touched);
		free(st->conns[i].versions);
	}
	pthread_mutex_unlock(&st->lock);
	/* Connections still borrowed are finished when they come back; the
	 * fronts have stopped by now, so none should be. */
	pthread_cond_destroy(&st->checked);
	pthread_cond_destroy(&st->wake);
	pthread_cond_destroy(&st->freed);
	pthread_mutex_destroy(&st->lock);
	free(st->conns);
	free(st->busy);
	free(st->conninfo);
	free(st);
}

/* Whether an idle connection still has its server. A server that went
 * away (a restart, an administrator's kill) sent its goodbye and closed
 * the socket while the connection sat in the pool, which libpq learns only
 * when it next reads. A pooled connection never LISTENs, so anything to
 * read while it is idle means it is going: look without waiting, so the
 * request that takes it does not find out by failing. */
static int
idle_alive(PGconn *c)
{
	struct pollfd p = {.fd = PQsocket(c), .events = POLLIN};

	if (PQstatus(c) != CONNECTION_OK || p.fd < 0)
		return 0;
	return poll(&p, 1, 0) == 0;
}

/* A waiting coroutine leaves the queue, with the lock held: 1 when it
 * was still in it, 0 when it was told (wp_pool_wake took it out). */
static int
waiter_leave(struct wp_store *st, struct wp_pool_waiter *w)
{
	for (struct wp_pool_waiter **p = &st->waiters; *p; p = &(*p)->next)
		if (*p == w) {
			if (!(*p = w->next))
				st->waiters_tail = p;
			return 1;
		}
	return 0;
}

struct wp_conn *
wp_store_get(struct wp_store *st)
{
	int64_t deadline = wp_deadline_in(st->lim.pool_wait_ms);
	struct timespec until = wp_abs_deadline(deadline);
	unsigned slot = 0;
	int found = 0, probe = 0, waited = 0, threaded = 0;
	const char *why = "no free connection";
	struct wp_pool_waiter w = {.efd = -1};

	pthread_mutex_lock(&st->lock);
	for (;;) {
		/* While the database is down the breaker refuses all but one. */
		if (!wp_breaker_admit(st, &probe)) {
			why = NULL;
			break;
		}
		for (slot = 0; slot < st->size; slot++)
			if (!st->busy[slot])
				break;
		if (slot < st->size) {
			found = 1;
			break;
		}
		/* In an event loop's coroutine (issue 32), wait by yielding to
		 * the loop until a connection is given back (wp_store_put wakes
		 * the oldest waiter) or the breaker moves; the loop serves the
		 * others meanwhile, some of them the requests that hold the
		 * connections. The deadline is looked at only when there is
		 * nothing to take, so a waiter told just as it ran out still
		 * takes the connection it was told of. */
		if (!waited) {
			waited = 1;
			wp_metric_add(WP_METRIC_DB_POOL_WAITS, 1);
		}
		int64_t left = deadline - wp_now_ns();
		if (left <= 0)
			break;
		int (*hook)(int, short, int) = __atomic_load_n(&wp_wait_fd_hook, __ATOMIC_ACQUIRE);
		if (hook && !threaded && w.efd < 0 &&
		    (w.efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0)
			threaded = 1;
		if (hook && !threaded) {
			uint64_t v;
			w.next = NULL;
			*st->waiters_tail = &w;
			st->waiters_tail = &w.next;
			pthread_mutex_unlock(&st->lock);
			int y = hook(w.efd, POLLIN, (int)((left + 999999) / 1000000));
			pthread_mutex_lock(&st->lock);
			int told = !waiter_leave(st, &w);
			if (read(w.efd, &v, sizeof(v)) < 0 && errno != EAGAIN)
				y = -2;
			if (y != -2)
				continue;
			/* Not a coroutine (a bot's or the blocking pool's thread
			 * in a server with loops): it waits on freed from now on,
			 * and a wake it was given goes to the next waiter. */
			threaded = 1;
			if (told)
				wp_pool_wake(st, 0);
			continue;
		}
		if (pthread_cond_timedwait(&st->freed, &st->lock, &until) == ETIMEDOUT)
			break;
	}
	if (w.efd >= 0)
		close(w.efd);
	if (!found) {
		wp_breaker_tried(st, probe, -1);
		pthread_mutex_unlock(&st->lock);
		if (why)
			wp_log("database: %s after %u ms", why, st->lim.pool_wait_ms);
		return NULL;
	}
	struct wp_conn *c = &st->conns[slot];
	st->busy[slot] = 1;
	c->taken = st->epoch;
	unsigned renew = st->renew;
	pthread_mutex_unlock(&st->lock);

	/* Connecting happens outside the lock: it may take up to its
	 * deadline. A connection from before the database was last found
	 * down, or before one was found stale, is not trusted. */
	if (c->pg && (c->made != c->taken || c->renewed != renew || !idle_alive(c->pg))) {
		PQfinish(c->pg);
		c->pg = NULL;
	}
	if (!c->pg) {
		/* A probe while down is short: the monitor recovers the
		 * breaker anyway, and a probe must not hold a thread long. */
		unsigned ms = st->lim.connect_ms;
		if (probe && st->monitoring && ms > WP_PROBE_MS)
			ms = WP_PROBE_MS;
		int64_t by = wp_deadline_in(ms);
		c->made = c->taken;
		c->renewed = renew;
		/* A connection that could not be made, or failed while it was
		 * set up, is tried once more at once, within the same deadline,
		 * before the database is called down: a missed deadline is not
		 * (the database does not answer), and a refused connection fails
		 * again at once. Under load, a first connection just after a
		 * restart failed in tens of milliseconds, and opened the breaker
		 * for every request (api_health DatabaseDownTest). Its
		 * statements are prepared as they are first run (wp_sql_try). */
		for (int tries = 0; tries < 2 && !c->pg; tries++) {
			c->broken = c->stale = 0;
			wp_connect_db(c, "warpostd", by);
			if (c->pg || c->broken || wp_now_ns() >= by)
				break;
			if (tries == 0)
				wp_log("database: the new connection failed; trying once more");
		}
	}
	c->broken = c->stale = 0;

	/* Whether it connected is read before the slot is given back: once
	 * free, another thread may take it and connect into it. */
	int connected = c->pg != NULL;
	pthread_mutex_lock(&st->lock);
	wp_breaker_tried(st, probe, connected);
	if (!connected) {
		st->busy[slot] = 0;
		pthread_cond_broadcast(&st->freed);
		wp_pool_wake(st, 1);
	}
	pthread_mutex_unlock(&st->lock);
	return connected ? c : NULL;
}

/* ---------------------------------------------------------------- cache */

/* Tells every instance of a change to a match (NOTIFY 'id:version', whose
 * text only tell.c writes). The match is forgotten now (loads under way
 * are refused) and again when the transaction ends: nothing read before
 * the commit outlives it in this instance. Outside a transaction the
 * change is queued at once; inside one, once it has committed (commit),
 * to go with other writers' (tell.c). */
enum wp_err
wp_db_notify(struct wp_conn *c, int64_t game, int64_t version)
{
	int v = (int)version;

	wp_cache_forget(game);
	if (PQtransactionStatus(c->pg) != PQTRANS_INTRANS) {
		wp_tell(c, &game, &v, 1);
		return WP_OK;
	}
	if (c->ntouched == c->cap) {
		int cap = c->cap ? 2 * c->cap : 8;
		int64_t *t = realloc(c->touched, (size_t)cap * sizeof(*t));
		if (t)
			c->touched = t;
		int *vs = t ? realloc(c->versions, (size_t)cap * sizeof(*vs)) : NULL;
		if (!vs)
			return WP_ERR_INTERNAL;     /* the transaction rolls back */
		c->versions = vs;
		c->cap = cap;
	}
	c->versions[c->ntouched] = v;
	c->touched[c->ntouched++] = game;
	return WP_OK;
}

static void
touched_end(struct wp_conn *c)
{
	for (int i = 0; i < c->ntouched; i++)
		wp_cache_forget(c->touched[i]);
	c->ntouched = 0;
}

void
wp_store_put(struct wp_store *st, struct wp_conn *conn)
{
	if (!conn)
		return;
	touched_end(conn);
	pthread_mutex_lock(&st->lock);
	unsigned i = (unsigned)(conn - st->conns);
	/* A connection that missed a deadline, broke, or was left inside a
	 * transaction is not handed to the next request. A missed deadline
	 * means the database does not answer. A stale one (it failed, or its
	 * server is read-only or ended it) may be the start of a failover, or
	 * only an administrator ending one session: the others are made again
	 * before they are lent, and the monitor is asked now. */
	if (conn->broken && conn->taken == st->epoch)
		wp_breaker_down(st, "a statement got no answer in time");
	else if (conn->stale && conn->taken == st->epoch && conn->renewed == st->renew) {
		wp_log("database: a connection failed, or its server is read-only"
		       " (a failover?): the pool's connections are made again");
		st->renew++;
		wp_monitor_poke(st);
	}
	if (conn->broken || conn->stale || PQstatus(conn->pg) != CONNECTION_OK ||
	    PQtransactionStatus(conn->pg) != PQTRANS_IDLE) {
		PQfinish(conn->pg);
		conn->pg = NULL;
	}
	conn->broken = conn->stale = 0;
	st->busy[i] = 0;
	pthread_cond_signal(&st->freed);
	wp_pool_wake(st, 0);
	pthread_mutex_unlock(&st->lock);
}

/* Answers /api/health: from the monitor where one runs (health.c);
 * without one (CGI), a check on a pooled connection, under the same
 * deadlines. */
int
wp_store_ping(struct wp_store *st)
{
	int up;

	if (wp_monitor_answer(st, &up))
		return up;
	struct wp_conn *c = wp_store_get(st);
	if (!c)
		return 0;
	PGresult *r = wp_exec_simple(c, "SELECT 1", wp_deadline_in(st->lim.check_ms));
	int ok = PQresultStatus(r) == PGRES_TUPLES_OK;
	PQclear(r);
	wp_store_put(st, c);
	return ok;
}

/* ------------------------------------------------------------ statements */

/* A broken connection, or a statement the server cancelled for its
 * timeouts (statement_timeout, lock_timeout): the database is not
 * answering in time, which is a 503, not a 500. So is a server that is
 * not the primary (any more) or is going away, as during a failover
 * (issue 31): read_only_sql_transaction (25006: a standby, or a primary
 * being demoted), a connection exception (class 08) or a shutdown (57P01
 * to 57P03); that connection is stale, made again on the next request,
 * which libpq's target_session_attrs=read-write sends to the primary. */
static enum wp_err
lost_or_internal(struct wp_conn *c, const PGresult *r)
{
	const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;

	if (c->broken || PQstatus(c->pg) != CONNECTION_OK)
		return WP_ERR_DB_UNAVAILABLE;
	if (state && (strcmp(state, "57014") == 0 || strcmp(state, "55P03") == 0))
		return WP_ERR_DB_UNAVAILABLE;
	if (state && (strcmp(state, "25006") == 0 || strncmp(state, "08", 2) == 0 ||
	              strncmp(state, "57P0", 4) == 0)) {
		c->stale = 1;
		return WP_ERR_DB_UNAVAILABLE;
	}
	return WP_ERR_INTERNAL;
}

static enum wp_err
command(struct wp_conn *c, const char *sql)
{
	PGresult *r = wp_exec_simple(c, sql, statement_deadline(c));
	int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
	enum wp_err err = ok ? WP_OK : lost_or_internal(c, r);

	if (!ok && r)
		wp_log("database: %s: %s", sql, PQresultErrorMessage(r));
	PQclear(r);
	return err;
}

/* COMMIT, then the notifications wp_db_notify left for after it. */
static enum wp_err
commit(struct wp_conn *c)
{
	enum wp_err err = command(c, "COMMIT");

	if (err == WP_OK && c->ntouched)
		wp_tell(c, c->touched, c->versions, c->ntouched);
	return err;
}

enum wp_err
wp_store_tx(struct wp_conn *c, wp_tx_fn fn, void *arg)
{
	enum wp_err err = command(c, "BEGIN");

	if (err != WP_OK)
		return err;
	err = fn(c, arg);
	if (err != WP_OK) {
		command(c, "ROLLBACK");
		touched_end(c);
		return err;
	}
	err = commit(c);
	touched_end(c);
	return err;
}

static void
param(struct wp_params *p, const char *value, int length, int binary)
{
	if (p->n == WP_SQL_MAX_PARAMS)
		return;
	p->values[p->n] = value;
	p->lengths[p->n] = length;
	p->formats[p->n] = binary;
	p->n++;
}

void
wp_p_int(struct wp_params *p, int64_t v)
{
	if (p->n == WP_SQL_MAX_PARAMS)
		return;
	wp_i64_text(p->text[p->n], v);   /* 24 bytes each */
	param(p, p->text[p->n], 0, 0);
}

void
wp_p_text(struct wp_params *p, const char *s)
{
	param(p, s, 0, 0);
}

void
wp_p_bytes(struct wp_params *p, const void *b, size_t n)
{
	param(p, b, (int)n, 1);
}

/* Runs statement st, preparing it first if this connection has not yet:
 * its result, or NULL when it could not be sent or was not answered in
 * time (the deadline is one for both). A failed prepare's result is the
 * statement's: the same error (a schema that lacks a column, a database
 * gone) as running it would have given.
 *
 * Prepared on first use, not all on connecting (issue 32): a connection
 * runs a few of the 104 statements in most of its life, and parsing all
 * of them cost each new backend about 50 ms of CPU (more when several
 * connect at once: 100 to 150 ms each for the 19 a fresh server opened
 * for 32 requests at once), which every test server paid for each
 * connection it opened. A statement's first run on a connection costs
 * one round trip more. Prepared statements outlive a transaction that
 * rolls back, so the bit stays true. */
static PGresult *
run_prepared(struct wp_conn *c, enum wp_stmt st, const struct wp_params *p)
{
	uint64_t bit = UINT64_C(1) << (st % 64);
	int64_t deadline = statement_deadline(c);

	if (c->broken)
		return NULL;
	if (!(c->prepared[st / 64] & bit)) {
		if (!PQsendPrepare(c->pg, wp_sql[st].name, wp_sql[st].sql, 0, NULL))
			return NULL;
		PGresult *r = wp_await_result(c, deadline);
		if (PQresultStatus(r) != PGRES_COMMAND_OK)
			return r;
		PQclear(r);
		c->prepared[st / 64] |= bit;
	}
	if (!PQsendQueryPrepared(c->pg, wp_sql[st].name, p ? p->n : 0, p ? p->values : NULL,
	                         p ? p->lengths : NULL, p ? p->formats : NULL, 0))
		return NULL;
	return wp_await_result(c, deadline);
}

enum wp_err
wp_sql_run(struct wp_conn *c, enum wp_stmt st, const struct wp_params *p, PGresult **out)
{
	return wp_sql_try(c, st, p, out, NULL);
}

enum wp_err
wp_sql_try(struct wp_conn *c, enum wp_stmt st, const struct wp_params *p, PGresult **out,
           const char *expect)
{
	PGresult *r = run_prepared(c, st, p);
	ExecStatusType s = PQresultStatus(r);

	wp_metric_add(WP_METRIC_DB_QUERIES, 1);
	if (s == PGRES_TUPLES_OK)
		wp_metric_add(WP_METRIC_DB_ROWS, (uint64_t)PQntuples(r));
	if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) {
		const char *code = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
		enum wp_err err = expect && code && strcmp(code, expect) == 0 ? WP_ERR_NOT_FOUND
		                                                                : lost_or_internal(c, r);
		if (r && err != WP_ERR_NOT_FOUND)
			wp_log("database: %s: %s", wp_sql[st].name, PQresultErrorMessage(r));
		PQclear(r);
		return err;
	}
	if (out)
		*out = r;
	else
		PQclear(r);
	return WP_OK;
}

PGresult *
wp_pg_exec_within(PGconn *pg, const char *sql, int n, const char *const *values, unsigned ms)
{
	struct wp_conn c = {.pg = pg};   /* no breaker: not the pool's */

	if (PQsetnonblocking(pg, 1) != 0 ||
	    !(n ? PQsendQueryParams(pg, sql, n, NULL, values, NULL, NULL, 0) : PQsendQuery(pg, sql)))
		return NULL;
	return wp_await_result(&c, wp_deadline_in(ms));
}

PGresult *
wp_pg_exec_named_within(PGconn *pg, int *prepared, const char *name, const char *sql, int n,
                        const char *const *values, unsigned ms)
{
	struct wp_conn c = {.pg = pg};
	int64_t deadline = wp_deadline_in(ms);   /* one deadline for the prepare and the run */
	PGresult *r;

	if (PQsetnonblocking(pg, 1) != 0)
		return NULL;
	if (!*prepared) {
		if (!PQsendPrepare(pg, name, sql, n, NULL))
			return NULL;
		if (PQresultStatus(r = wp_await_result(&c, deadline)) != PGRES_COMMAND_OK)
			return r;
		PQclear(r);
		*prepared = 1;
	}
	if (!PQsendQueryPrepared(pg, name, n, values, NULL, NULL, 0))
		return NULL;
	return wp_await_result(&c, deadline);
}

enum wp_err
wp_sql_one(struct wp_conn *c, enum wp_stmt st, const struct wp_params *p, int64_t *v)
{
	PGresult *r;
	enum wp_err err = wp_sql_run(c, st, p, &r);

	if (err != WP_OK)
		return err;
	if (PQntuples(r) == 0)
		err = WP_ERR_NOT_FOUND;
	else
		*v = wp_col_bool(r, 0, 0) ? 1 : wp_col_int(r, 0, 0);
	PQclear(r);
	return err;
}
