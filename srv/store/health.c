/* Whether the database answers: every exchange with it under a
 * deadline, the breaker a missed one trips, and the monitor that checks
 * it (pool.c lends the connections and calls in here; nothing here calls
 * the pool).
 *
 * Nothing waits on the database without a deadline (issue 16, item 2):
 * a server that accepts TCP but never answers (stopped, hung) must not
 * hold a worker thread. Every connection is non-blocking and every
 * exchange polls its socket until a deadline; one that passes marks the
 * connection broken (closed when given back, never reused; one that
 * failed, its server having closed it, is stale, and dropped the same
 * way without tripping the breaker, pool.c). A breaker
 * keeps requests from piling onto a database that does not answer: once
 * it is known down (a deadline passed, a connection failed, the
 * monitor's check failed) requests are refused at once with 503, except
 * one at a time that tries to connect again, and the in-flight ones stop
 * waiting. A monitor thread with a connection of its own checks the
 * database every second and answers /api/health, so that health never
 * queues behind the pool. */
#include <errno.h>
#include <stdio.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pool_priv.h"

/* How often the monitor checks the database. */
#define WP_CHECK_EVERY_MS 1000

/* ------------------------------------------------------------ deadlines */

int64_t
wp_deadline_in(unsigned ms)
{
	return wp_now_ns() + (int64_t)ms * 1000000;
}

struct timespec
wp_abs_deadline(int64_t deadline)
{
	return (struct timespec){.tv_sec = deadline / 1000000000, .tv_nsec = deadline % 1000000000};
}

/* The database was found down since the connection was taken: whoever
 * waits on it gives up (the monitor's connection never is). */
static int
overtaken(const struct wp_conn *c)
{
	return c->watched && __atomic_load_n(&c->st->epoch, __ATOMIC_RELAXED) != c->taken;
}

/* 1 when the socket is ready for events, 0 at the deadline or when the
 * breaker tripped, -1 on error. Polls in slices to notice the breaker.
 * The hook (the event loops' wp_co_wait_fd) waits in the coroutine
 * instead: 1 ready, 0 the slice passed, -2 not in a coroutine or the
 * socket not watched (then poll() here). */
int (*wp_wait_fd_hook)(int fd, short events, int timeout_ms);

static int
wait_socket(const struct wp_conn *c, PGconn *pg, short events, int64_t deadline)
{
	for (;;) {
		struct pollfd p = {.fd = PQsocket(pg), .events = events};
		int64_t left = (deadline - wp_now_ns()) / 1000000;
		if (p.fd < 0)
			return -1;
		if (left <= 0 || (c && overtaken(c)))
			return 0;
		int (*hook)(int, short, int) = __atomic_load_n(&wp_wait_fd_hook, __ATOMIC_ACQUIRE);
		if (hook) {
			int y = hook(p.fd, events, left < 100 ? (int)left + 1 : 100);
			if (y == 1)
				return 1;
			if (y == 0)
				continue;
		}
		int rc = poll(&p, 1, left < 100 ? (int)left + 1 : 100);
		if (rc > 0)
			return 1;
		if (rc < 0 && errno != EINTR)
			return -1;
	}
}

/* What ended an exchange early. */
enum { WAIT_LATE = -1, WAIT_FAILED = -2 };

/* One wait for the socket, then what arrived read: 0, WAIT_LATE (the
 * deadline passed or the breaker tripped) or WAIT_FAILED (the socket or
 * libpq failed: the connection, not the database's answer). */
static int
wait_and_read(const struct wp_conn *c, PGconn *pg, short events, int64_t deadline)
{
	int rc = wait_socket(c, pg, events, deadline);

	if (rc == 0)
		return WAIT_LATE;
	if (rc < 0 || !PQconsumeInput(pg))
		return WAIT_FAILED;
	return 0;
}

/* Everything sent on pg is flushed: 0, or WAIT_LATE or WAIT_FAILED.
 * c: the pooled connection whose breaker counts, or NULL. */
static int
flush_out(const struct wp_conn *c, PGconn *pg, int64_t deadline)
{
	int f, rc;

	while ((f = PQflush(pg)) == 1) {
		if ((rc = wait_and_read(c, pg, POLLIN | POLLOUT, deadline)) != 0)
			return rc;
	}
	return f < 0 ? WAIT_FAILED : 0;
}

/* The next PQgetResult on pg will not block: 0, or as flush_out. */
static int
until_ready(const struct wp_conn *c, PGconn *pg, int64_t deadline)
{
	int rc;

	while (PQisBusy(pg)) {
		if ((rc = wait_and_read(c, pg, POLLIN, deadline)) != 0)
			return rc;
	}
	return 0;
}

/* A connection that failed (the server closed it: it ended the session,
 * or is going away; or its socket failed) is stale: the pool makes its
 * others again and asks the monitor (pool.c). One that missed its
 * deadline is broken: the database does not answer, and that trips the
 * breaker. */
static void
dropped(struct wp_conn *c, int why, int64_t deadline)
{
	int failed = why == WAIT_FAILED || PQstatus(c->pg) != CONNECTION_OK;
	const char *msg = PQerrorMessage(c->pg);

	if (!failed && !overtaken(c))
		wp_log("database: no answer in time (%lld ms past the deadline%s); the connection"
		       " is dropped", (long long)((wp_now_ns() - deadline) / 1000000),
		       c->watched ? "" : ", a connection of its own");
	else
		wp_log("database: %s; the connection is dropped",
		       failed ? (msg && *msg ? msg : "the connection failed")
		              : "the database was found down");
	if (failed)
		c->stale = 1;
	else
		c->broken = 1;
}

PGresult *
wp_await_result(struct wp_conn *c, int64_t deadline)
{
	PGresult *keep = NULL, *r;
	int why;

	if ((why = flush_out(c, c->pg, deadline)) != 0)
		goto broke;
	for (;;) {
		if ((why = until_ready(c, c->pg, deadline)) != 0)
			goto broke;
		if (!(r = PQgetResult(c->pg)))
			break;
		ExecStatusType s = PQresultStatus(r);
		int failed = s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK;
		ExecStatusType k = keep ? PQresultStatus(keep) : PGRES_COMMAND_OK;
		if (!keep || (failed && (k == PGRES_COMMAND_OK || k == PGRES_TUPLES_OK))) {
			PQclear(keep);
			keep = r;
		} else {
			PQclear(r);
		}
	}
	return keep;
broke:
	PQclear(keep);
	dropped(c, why, deadline);
	return NULL;
}

PGresult *
wp_exec_simple(struct wp_conn *c, const char *sql, int64_t deadline)
{
	if (c->broken)
		return NULL;
	if (!PQsendQuery(c->pg, sql)) {
		c->stale |= PQstatus(c->pg) != CONNECTION_OK;
		return NULL;
	}
	return wp_await_result(c, deadline);
}

/* -------------------------------------------------------------- connect */

static int
setup_session(struct wp_conn *c, int64_t deadline)
{
	char sql[160];
	PGresult *r;
	int ok;

	snprintf(sql, sizeof(sql), "SET statement_timeout = %u; SET lock_timeout = %u",
	         c->st->lim.statement_ms, c->st->lim.lock_ms);
	r = wp_exec_simple(c, sql, deadline);
	ok = PQresultStatus(r) == PGRES_COMMAND_OK;
	if (!ok && r)
		wp_log("database: cannot set the timeouts: %s", PQresultErrorMessage(r));
	PQclear(r);
	return ok ? 0 : -1;
}

/* One connection attempt to what keys/vals name, within the deadline. */
static PGconn *
connect_until(const char *const *keys, const char *const *vals, int64_t deadline)
{
	PGconn *pg = PQconnectStartParams(keys, vals, 1);
	PostgresPollingStatusType s = PGRES_POLLING_WRITING;

	if (!pg)
		return NULL;
	while (PQstatus(pg) != CONNECTION_BAD && s != PGRES_POLLING_OK &&
	       s != PGRES_POLLING_FAILED) {
		int rc = wait_socket(NULL, pg, s == PGRES_POLLING_READING ? POLLIN : POLLOUT,
		                     deadline);
		if (rc <= 0) {
			wp_log("database: cannot connect: %s", rc == 0 ? "no answer in time" : "poll failed");
			PQfinish(pg);
			return NULL;
		}
		s = PQconnectPoll(pg);
	}
	if (PQstatus(pg) != CONNECTION_OK) {
		wp_log("database: cannot connect: %s", PQerrorMessage(pg));
		PQfinish(pg);
		return NULL;
	}
	return pg;
}

/* The i-th of a comma-separated list (a single value stands for all;
 * NULL when the list is empty), into buf. */
static const char *
nth(const char *list, int i, char *buf, size_t cap)
{
	if (!list || !*list)
		return NULL;
	if (!strchr(list, ','))
		return list;
	for (; i > 0 && list; i--)
		if ((list = strchr(list, ',')))
			list++;
	if (!list)
		return NULL;
	size_t n = strcspn(list, ",");
	snprintf(buf, cap, "%.*s", (int)(n < cap ? n : cap - 1), list);
	return buf;
}

/* A multi-host conninfo (host=a,b port=p,q: a failover pair, issue 31) is
 * tried one host at a time, each with its share of the time left: libpq's
 * non-blocking connect has no timeout of its own (connect_timeout is for
 * blocking connects), so a first host that never answers (a machine gone,
 * a server stopped) would take the whole deadline and the next never be
 * tried. One host: one attempt. */
static PGconn *
connect_hosts(const char **keys, const char **vals, int nkeys, int64_t deadline)
{
	PQconninfoOption *opts = PQconninfoParse(vals[nkeys - 1], NULL);
	const char *host = NULL, *addr = NULL, *port = NULL;
	PGconn *pg = NULL;
	int n = 1;

	for (PQconninfoOption *o = opts; o && o->keyword; o++) {
		if (strcmp(o->keyword, "host") == 0)
			host = o->val;
		else if (strcmp(o->keyword, "hostaddr") == 0)
			addr = o->val;
		else if (strcmp(o->keyword, "port") == 0)
			port = o->val;
	}
	for (const char *p = host && *host ? host : addr; p && (p = strchr(p, ',')); p++)
		n++;
	if (n == 1) {
		PQconninfoFree(opts);
		return connect_until(keys, vals, deadline);
	}
	for (int i = 0; i < n && !pg; i++) {
		char hb[256], ab[256], pb[16];
		int k = nkeys;
		/* After dbname: these override the conninfo's lists. */
		const char *const one[3][2] = {{"host", nth(host, i, hb, sizeof(hb))},
		                               {"hostaddr", nth(addr, i, ab, sizeof(ab))},
		                               {"port", nth(port, i, pb, sizeof(pb))}};
		for (int j = 0; j < 3; j++) {
			if (!one[j][1])
				continue;
			keys[k] = one[j][0];
			vals[k++] = one[j][1];
		}
		keys[k] = vals[k] = NULL;
		int64_t now = wp_now_ns();
		pg = connect_until(keys, vals, now + (deadline - now) / (n - i));
	}
	keys[nkeys] = vals[nkeys] = NULL;
	PQconninfoFree(opts);
	return pg;
}

PGconn *
wp_connect_db(struct wp_conn *c, const char *app, int64_t deadline)
{
	/* Keywords before dbname are defaults the conninfo may override.
	 * read-write: of the hosts of a multi-host DATABASE_URL, the primary
	 * (issue 31; a standby answers every write with 25006). Room after
	 * dbname for one host of several (connect_hosts). */
	const char *keys[11] = {"keepalives", "keepalives_idle", "keepalives_interval",
	                        "keepalives_count", "application_name", "target_session_attrs",
	                        "dbname", NULL};
	const char *vals[11] = {"1", "30", "10", "3", app, "read-write", c->st->conninfo, NULL};
	PGconn *pg = connect_hosts(keys, vals, 7, deadline);

	if (!pg)
		return NULL;
	c->pg = pg;
	c->broken = c->stale = 0;
	memset(c->prepared, 0, sizeof(c->prepared));
	if (PQsetnonblocking(pg, 1) != 0 || setup_session(c, deadline) != 0) {
		PQfinish(pg);
		c->pg = NULL;
		return NULL;
	}
	return pg;
}

/* ---------------------------------------------------------------- breaker */

/* All with the lock held. A waiter is dequeued before it is told, and
 * closes its eventfd only after it has left the queue, under the lock. */
void
wp_pool_wake(struct wp_store *st, int all)
{
	uint64_t one = 1;

	while (st->waiters) {
		struct wp_pool_waiter *w = st->waiters;
		if (!(st->waiters = w->next))
			st->waiters_tail = &st->waiters;
		w->next = NULL;
		/* write(), as the blocking pool's hand-over (ThreadSanitizer
		 * sees it); an eventfd's counter does not fill here */
		if (write(w->efd, &one, sizeof(one)) != sizeof(one))
			abort();
		if (!all)
			break;
	}
}

void
wp_breaker_down(struct wp_store *st, const char *why)
{
	if (!st->down)
		wp_log("database: down (%s): requests get 503 until it answers again", why);
	st->down = 1;
	__atomic_add_fetch(&st->epoch, 1, __ATOMIC_RELAXED);
	pthread_cond_broadcast(&st->freed);
	wp_pool_wake(st, 1);
}

void
wp_breaker_up(struct wp_store *st)
{
	if (st->down)
		wp_log("database: answers again");
	st->down = 0;
}

/* Down: one request at a time finds out whether it is back; the others
 * are refused at once. */
int
wp_breaker_admit(struct wp_store *st, int *probe)
{
	if (st->down && !*probe) {
		if (st->probing)
			return 0;
		*probe = st->probing = 1;
	}
	return 1;
}

void
wp_breaker_tried(struct wp_store *st, int probe, int connected)
{
	if (probe) {
		st->probing = 0;
		if (connected > 0)
			wp_breaker_up(st);
		/* A probe that failed tells nothing new: it was let in while
		 * the database was down, and if the breaker closed meanwhile,
		 * the monitor found the database answering since. Calling it
		 * down again then failed the requests begun after the recovery
		 * (api_health, DatabaseRestartTest: a background probe, whose
		 * connection a database just restarted was slow to set up,
		 * missed its 250 ms a moment after the monitor saw the database
		 * back, and the next request got 503). */
		return;
	}
	if (connected == 0 && !st->down)
		wp_breaker_down(st, "cannot connect");
}

/* ---------------------------------------------------------------- monitor */

/* One check on a connection of its own: (re)connect if needed, then ask
 * whether it may write, both within check_ms. A server that answers but
 * is read-only (a primary demoted in a failover, issue 31) is down for
 * warpostd: the connection is made again, to the primary. A kept
 * connection the server ended while it sat idle (an administrator's
 * pg_terminate_backend) says nothing about the database: the check is
 * made again at once on a new one, within the same deadline. */
static int
check_once(struct wp_conn *mc)
{
	int64_t deadline = wp_deadline_in(mc->st->lim.check_ms);
	int ok = 0;

	for (int tries = 0; tries < 2 && !ok; tries++) {
		if (mc->pg && PQstatus(mc->pg) != CONNECTION_OK) {
			PQfinish(mc->pg);
			mc->pg = NULL;
		}
		int kept = mc->pg != NULL;
		if (!mc->pg && !wp_connect_db(mc, "warpostd-health", deadline))
			return 0;
		PGresult *r = wp_exec_simple(mc, "SHOW transaction_read_only", deadline);
		ok = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 &&
		     strcmp(PQgetvalue(r, 0, 0), "off") == 0;
		int answered = r != NULL && PQresultStatus(r) == PGRES_TUPLES_OK;
		PQclear(r);
		if (!ok) {
			PQfinish(mc->pg);
			mc->pg = NULL;
			mc->broken = mc->stale = 0;
		}
		if (!kept || answered || wp_now_ns() >= deadline)
			break;
	}
	return ok;
}

static void *
monitor_main(void *arg)
{
	struct wp_store *st = arg;
	struct wp_conn mc = {.st = st};

	pthread_mutex_lock(&st->lock);
	while (!st->stopping) {
		int was_down = st->down;
		pthread_mutex_unlock(&st->lock);
		int64_t started = wp_now_ns();
		int ok = check_once(&mc);
		/* A check that found no answer in time while the database was up
		 * is asked once more, at once, on a new connection, before every
		 * request is refused: one late answer is not an outage. Under a
		 * full load on two cores one check in several minutes missed its
		 * 2 s although the database answered everyone else (the bench's
		 * 304 phase then got thousands of 503s while the breaker was
		 * open). A database that refuses or fails the check is down at
		 * once, and a hung one is found down one deadline later; a
		 * server shutting down does not wait for a second one. */
		if (!ok && !was_down &&
		    wp_now_ns() - started >= (int64_t)st->lim.check_ms * 1000000) {
			pthread_mutex_lock(&st->lock);
			int again = !st->stopping;
			pthread_mutex_unlock(&st->lock);
			if (again) {
				wp_log("database: the health check got no answer in %u ms;"
				       " checking again", st->lim.check_ms);
				ok = check_once(&mc);
			}
		}
		pthread_mutex_lock(&st->lock);
		if (ok)
			wp_breaker_up(st);
		else if (!st->down)
			wp_breaker_down(st, "the health check got no answer");
		st->checks++;
		pthread_cond_broadcast(&st->checked);
		struct timespec until = wp_abs_deadline(wp_deadline_in(WP_CHECK_EVERY_MS));
		while (!st->stopping && !st->check_now &&
		       pthread_cond_timedwait(&st->wake, &st->lock, &until) != ETIMEDOUT)
			;
		st->check_now = 0;
	}
	pthread_mutex_unlock(&st->lock);
	PQfinish(mc.pg);
	return NULL;
}

int
wp_store_monitor(struct wp_store *st)
{
	pthread_mutex_lock(&st->lock);
	int rc = pthread_create(&st->monitor, NULL, monitor_main, st);
	st->monitoring = rc == 0;
	pthread_mutex_unlock(&st->lock);
	return rc == 0 ? 0 : -1;
}

void
wp_monitor_stop(struct wp_store *st)
{
	pthread_mutex_lock(&st->lock);
	int running = st->monitoring;
	st->stopping = 1;
	pthread_cond_broadcast(&st->wake);
	pthread_mutex_unlock(&st->lock);
	if (running)
		pthread_join(st->monitor, NULL);
}

void
wp_monitor_poke(struct wp_store *st)
{
	if (!st->monitoring)
		return;
	st->check_now = 1;
	pthread_cond_signal(&st->wake);
}

struct answer_call {
	struct wp_store *st;
	int up;
};

/* The wait for the next check, up to check_ms: run by wp_blocking(), so
 * an event loop serves others meanwhile. */
static void
answer_blocking(void *arg)
{
	struct answer_call *a = arg;
	struct wp_store *st = a->st;

	pthread_mutex_lock(&st->lock);
	unsigned long want = st->checks + 1;
	struct timespec until = wp_abs_deadline(wp_deadline_in(st->lim.check_ms));
	wp_monitor_poke(st);
	while (st->checks < want && !st->down &&
	       pthread_cond_timedwait(&st->checked, &st->lock, &until) != ETIMEDOUT)
		;
	a->up = st->checks >= want && !st->down;
	pthread_mutex_unlock(&st->lock);
}

/* A daemon answers from the monitor: down, at once; up, once the next
 * check has finished (a fresh answer), or down if it does not finish
 * within check_ms. */
int
wp_monitor_answer(struct wp_store *st, int *up)
{
	struct answer_call a = {st, 0};

	pthread_mutex_lock(&st->lock);
	int monitoring = st->monitoring, down = st->down;
	if (monitoring && down)
		wp_monitor_poke(st);
	pthread_mutex_unlock(&st->lock);
	if (!monitoring)
		return 0;
	if (!down)
		wp_blocking(answer_blocking, &a);
	*up = a.up;
	return 1;
}
