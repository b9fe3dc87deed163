/* The LISTEN thread: its own connection hears NOTIFY wp_game '<id>' from
 * any srv instance and wakes the long-polls of that match (core/wait.h);
 * between notifications it wakes those whose deadline passed. It also
 * hears NOTIFY wp_outbox and wakes the notification worker (issue 14),
 * NOTIFY wp_challenge and wakes the challenge lists' long-polls (issue 28),
 * NOTIFY wp_token of a device revoked and forgets its token (issue 28),
 * and sends this instance's notifications of committed changes, many in
 * one statement (tell.c). */
#include <poll.h>
#include <stdint.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "notify_store.h"
#include "store_priv.h"
#include "wait.h"

/* The most a query on the LISTEN connection may take (pool.c's deadlines:
 * never a wait on the database without one). */
#define LISTEN_QUERY_MS 2000

#define LISTEN_SQL                                                                     \
	"LISTEN wp_game; LISTEN wp_outbox; LISTEN wp_token; LISTEN " WP_CHALLENGE_CHANNEL \
	"; LISTEN " WP_TOURNAMENT_CHANNEL

static pthread_t listener;
static int running;
static int tell_fd = -1;
static char *conninfo;
static PGconn *first;   /* wp_migrate's connection, until the thread takes it */
static void (*outbox_hook)(void);
static void (*game_hook)(int64_t game);

void
wp_listen_game_hook(void (*fn)(int64_t game))
{
	__atomic_store_n(&game_hook, fn, __ATOMIC_RELEASE);
}

void
wp_listen_outbox_hook(void (*fn)(void))
{
	__atomic_store_n(&outbox_hook, fn, __ATOMIC_RELEASE);
}

static void
outbox_wake(void)
{
	void (*fn)(void) = __atomic_load_n(&outbox_hook, __ATOMIC_ACQUIRE);
	if (fn)
		fn();
}

/* The LISTEN connection: the one given at the start (wp_migrate's, made
 * as below to the same address, renamed) the first time, else a new one. */
static PGconn *
listen_connect(void)
{
	/* Keepalives: a connection lost without a word must be noticed, for
	 * the cache trusts it to hear every change (cache.c); the primary,
	 * where LISTEN and NOTIFY happen (after a failover this thread
	 * connects there again). */
	PGconn *c = first ? first : wp_pg_connect_own(conninfo, "warpostd-listen", "5", NULL, 0);
	PGresult *r;

	if (!c)
		return NULL;
	/* renamed unless the address named it (it then names both) */
	const char *app = c == first ? PQparameterStatus(c, "application_name") : NULL;
	r = wp_pg_exec_within(c,
	                      app && strcmp(app, "warpostd-migrate") == 0
	                          ? "SET application_name = 'warpostd-listen'; " LISTEN_SQL
	                          : LISTEN_SQL,
	                      0, NULL, LISTEN_QUERY_MS);
	first = NULL;
	if (PQresultStatus(r) != PGRES_COMMAND_OK) {
		PQclear(r);
		PQfinish(c);
		return NULL;
	}
	PQclear(r);
	return c;
}

/* Wakes the players seated in the matches heard of (wait.h: key -id),
 * for GET /api/me/events. games: "1,2,3". 0, or -1 when the connection
 * broke or did not answer in time. */
static int
wake_players(PGconn *c, const char *games)
{
	char list[4100];
	const char *vals[1] = {list};
	PGresult *r;

	snprintf(list, sizeof(list), "{%s}", games);
	r = wp_pg_exec_within(c, "SELECT DISTINCT player_id FROM seats WHERE game_id ="
	                         " ANY($1::bigint[]) AND player_id IS NOT NULL", 1, vals,
	                      LISTEN_QUERY_MS);
	if (PQresultStatus(r) == PGRES_TUPLES_OK)
		for (int i = 0; i < PQntuples(r); i++)
			wp_wait_notify(-strtoll(PQgetvalue(r, i, 0), NULL, 10));
	int ok = r != NULL;
	PQclear(r);
	return ok ? 0 : -1;
}

#define SWEEP_NS (100 * 1000000LL)
#define CHECK_NS (5 * 1000000000LL)

/* Every CHECK_NS, the versions of the matches the cache holds against the
 * database's: a change whose NOTIFY never came (its instance killed
 * between the commit and the NOTIFY sent after it) is then heard of, the
 * cache forgets the match and its long-polls wake, within seconds rather
 * than at the match's next change. 0, or -1 when the connection broke or
 * did not answer in time. */
static int
check_held(PGconn *c)
{
	int64_t *held;
	int n = wp_cache_held(&held), ok = 1;
	size_t cap = (size_t)(n > 0 ? n : 0) * 21 + 3, used = 0;
	char *list = n > 0 ? malloc(cap) : NULL;

	if (list) {
		list[used++] = '{';
		for (int i = 0; i < n; i++)
			used += (size_t)snprintf(list + used, cap - used, "%s%lld", i ? "," : "",
			                         (long long)held[i]);
		snprintf(list + used, cap - used, "}");
		const char *vals[1] = {list};
		PGresult *r = wp_pg_exec_within(c, "SELECT id, version FROM games"
		                                   " WHERE id = ANY($1::bigint[])", 1, vals,
		                                LISTEN_QUERY_MS);
		for (int i = 0; PQresultStatus(r) == PGRES_TUPLES_OK && i < PQntuples(r); i++) {
			int64_t id = strtoll(PQgetvalue(r, i, 0), NULL, 10);
			if (wp_cache_behind(id, (int)strtol(PQgetvalue(r, i, 1), NULL, 10)))
				wp_wait_notify(id);
		}
		ok = r != NULL;
		PQclear(r);
	}
	free(list);
	free(held);
	return ok ? 0 : -1;
}

/* Sends the notifications queued by this instance's writers (tell.c)
 * when they are due; *wait_ms: how long the next poll may sleep. 0, or
 * -1 when the connection broke or did not answer in time. */
static int
tell_due(PGconn *c, int64_t now, int *wait_ms)
{
	static char text[WP_TELL_TEXT];
	const char *vals[1] = {text};
	int64_t due = wp_tell_due(now, text, sizeof(text));

	*wait_ms = due > 0 ? (int)((due + 999999) / 1000000) : 200;
	if (due != 0)
		return 0;
	PGresult *r = wp_pg_exec_within(c, WP_TELL_SQL, 1, vals, LISTEN_QUERY_MS);
	int ok = r != NULL;
	if (r && PQresultStatus(r) != PGRES_TUPLES_OK)
		wp_log("listen: notify: %s", PQresultErrorMessage(r));
	PQclear(r);
	*wait_ms = 0;   /* more may have come meanwhile */
	return ok ? 0 : -1;
}

/* The connection is gone (or closing): nothing is served from memory,
 * and writers send their own notifications until it is back (tell.c). */
static PGconn *
dropped(PGconn *c)
{
	wp_tell_listener(0);
	tell_fd = -1;
	wp_cache_online(0);
	PQfinish(c);
	return NULL;
}

static void *
listen_main(void *arg)
{
	PGconn *c = NULL;
	int64_t swept = 0, checked = wp_now_ns();
	int wait_ms = 200;

	wp_json_thread_init();   /* the parses below: core/json.c */
	while (!wp_wait_stopping()) {
		if (!c) {
			c = listen_connect();
			if (!c) {
				wp_wait_sweep(wp_now_ns());
				usleep(500000);
				continue;
			}
			/* Notifications may have been missed while disconnected:
			 * the cache starts from empty, every waiter looks again.
			 * Writers queue their notifications for this thread again. */
			wp_cache_online(1);
			tell_fd = wp_tell_listener(1);
			wp_wait_all();
			outbox_wake();
			void (*hook)(int64_t) = __atomic_load_n(&game_hook, __ATOMIC_ACQUIRE);
			if (hook)
				hook(0);   /* the bot worker looks at every match */
		}
		struct pollfd pfd[2] = {{PQsocket(c), POLLIN, 0}, {tell_fd, POLLIN, 0}};
		int rc = poll(pfd, 2, wait_ms);
		if (rc > 0 && PQconsumeInput(c) == 0) {
			wp_log("listen: connection lost: %s", PQerrorMessage(c));
			c = dropped(c);
			continue;
		}
		PGnotify *n;
		char games[4096];
		size_t used = 0;
		int overflow = 0;   /* more matches than the list holds */
		while ((n = PQnotifies(c)) != NULL) {
			/* 'id:version' (store/games.c), or 'id' alone. */
			char *end;
			int64_t game = strtoll(n->extra, &end, 10);
			int version = *end == ':' ? (int)strtol(end + 1, NULL, 10) : -1;
			if (strcmp(n->relname, "wp_outbox") == 0) {
				outbox_wake();
			} else if (strcmp(n->relname, WP_CHALLENGE_CHANNEL) == 0) {
				wp_wait_notify(WP_WAIT_CHALLENGES);   /* issue 28 */
			} else if (strcmp(n->relname, WP_TOURNAMENT_CHANNEL) == 0) {
				wp_wait_notify(WP_WAIT_TOURNAMENTS);  /* issue 29 */
				outbox_wake();   /* the round worker (notify/worker.c) */
			} else if (strcmp(n->relname, "wp_token") == 0) {
				wp_cache_token_heard(n->extra);   /* a device revoked */
			} else if (game > 0) {
				/* The cache first: a woken long-poll reads it. */
				wp_cache_notify(game, version);
				wp_wait_notify(game);
				void (*hook)(int64_t) = __atomic_load_n(&game_hook, __ATOMIC_ACQUIRE);
				if (hook)
					hook(game);   /* the bot worker (issue 27) */
				if (used + 24 < sizeof(games))
					used += (size_t)snprintf(games + used, sizeof(games) - used,
					                         "%s%lld", used ? "," : "", (long long)game);
				else
					overflow = 1;
			}
			PQfreemem(n);
		}
		/* Players waiting on matches left off the list are woken all
		 * the same: every waiter, rather than one missed. */
		if (overflow)
			wp_wait_all();
		if (used && wp_wait_players() > 0 && wake_players(c, games) != 0) {
			wp_log("listen: connection lost or not answering");
			c = dropped(c);
			continue;
		}
		/* Long-polls past their deadline: a sweep looks at every waiter,
		 * so not after every batch of notifications (a busy server hears
		 * thousands a second), at most every SWEEP_NS. */
		int64_t now = wp_now_ns();
		if (now - swept >= SWEEP_NS) {
			wp_wait_sweep(now);
			swept = now;
		}
		if ((now - checked >= CHECK_NS && (checked = now, check_held(c) != 0)) ||
		    tell_due(c, now, &wait_ms) != 0) {
			wp_log("listen: connection lost or not answering");
			c = dropped(c);
			continue;
		}
		wp_cache_alive();
	}
	/* What writers queued last goes out before the connection closes. */
	if (c)
		tell_due(c, INT64_MAX, &wait_ms);   /* due, however young */
	dropped(c);
	return NULL;
}

int
wp_listen_start(const char *info, PGconn *given)
{
	conninfo = strdup(info);
	first = given;
	wp_wait_begin();
	if (!conninfo || pthread_create(&listener, NULL, listen_main, NULL) != 0) {
		PQfinish(first);
		first = NULL;
		return -1;
	}
	running = 1;
	return 0;
}

void
wp_listen_stop(void)
{
	wp_wait_stop();
	if (running)
		pthread_join(listener, NULL);
	running = 0;
	free(conninfo);
	conninfo = NULL;
}

PGconn *
wp_pg_connect_own(const char *info, const char *app, const char *timeout_s, char *err,
                  size_t errlen)
{
	/* Defaults before dbname, which may override them. */
	const char *keys[] = {"target_session_attrs", "connect_timeout", "dbname",
	                      "application_name", "keepalives", "keepalives_idle",
	                      "keepalives_interval", "keepalives_count", NULL};
	const char *vals[] = {"read-write", timeout_s, info, app, "1", "5", "2", "2", NULL};
	PGconn *c = PQconnectdbParams(keys, vals, 1);

	if (PQstatus(c) == CONNECTION_OK)
		return c;
	if (err) {
		snprintf(err, errlen, "cannot connect to the database: %s", PQerrorMessage(c));
		err[strcspn(err, "\n")] = '\0';
	}
	PQfinish(c);
	return NULL;
}
