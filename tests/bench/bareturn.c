/* A baseline for the turn benchmark (issue "Performance"): the leanest
 * libmicrohttpd server that commits a turn before it answers, in the same
 * daemon shape as warpostd (epoll thread pool of THREADS workers, each
 * with its own libpq connection it waits on, warpostd's connection pool
 * size). Each POST's body is read and dropped; the server runs the minimal
 * durable turn in its single-statement optimistic form (tests/bench/run.py,
 * OPTIMISTIC_TURN) on bench_matches row (GAME mod MATCHES) + 1, prepared
 * once a connection, and answers 200 with a fixed JSON body about the
 * size of warpostd's turn answer. No JSON is parsed, no rule checked, no
 * log written: its CPU a turn is what HTTP and one durable statement cost
 * in this shape, the part of warpostd's CPU a turn no code of ours can
 * remove without another shape (an event loop that does not wait on the
 * database).
 * Usage: bareturn PORT THREADS MATCHES CONNINFO. Runs until SIGTERM. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libpq-fe.h>
#include <microhttpd.h>

#include "bareturn.h"

static const char *conninfo;
static long nmatches;
static pthread_key_t conn_key;

static void
drop_conn(void *c)
{
	PQfinish(c);
}

/* The worker thread's connection, opened and prepared on first use. */
static PGconn *
thread_conn(void)
{
	PGconn *c = pthread_getspecific(conn_key);
	PGresult *r;

	if (c && PQstatus(c) == CONNECTION_OK)
		return c;
	if (c)
		PQfinish(c);
	c = PQconnectdb(conninfo);
	if (PQstatus(c) != CONNECTION_OK) {
		fprintf(stderr, "bareturn: %s", PQerrorMessage(c));
		PQfinish(c);
		pthread_setspecific(conn_key, NULL);
		return NULL;
	}
	r = PQprepare(c, "turn", TURN_SQL, 0, NULL);
	if (PQresultStatus(r) != PGRES_COMMAND_OK)
		fprintf(stderr, "bareturn: %s", PQerrorMessage(c));
	PQclear(r);
	pthread_setspecific(conn_key, c);
	return c;
}

static int
commit_turn(const char *url)
{
	const char *p = strstr(url, "/games/");
	long game = p ? strtol(p + 7, NULL, 10) : 0;
	char id[24];
	const char *params[1] = {id};
	PGconn *c = thread_conn();
	PGresult *r;
	int ok;

	if (!c)
		return 0;
	snprintf(id, sizeof(id), "%ld", game % nmatches + 1);
	r = PQexecPrepared(c, "turn", 1, params, NULL, NULL, 0);
	ok = PQresultStatus(r) == PGRES_COMMAND_OK && strcmp(PQcmdTuples(r), "1") == 0;
	PQclear(r);
	return ok;
}

static enum MHD_Result
on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
           const char *version, const char *upload, size_t *upload_size, void **ctx)
{
	static int first;

	(void)cls, (void)version, (void)upload;
	if (!*ctx) { /* answer once the body is in, as warpostd does */
		*ctx = &first;
		return MHD_YES;
	}
	if (*upload_size) {
		*upload_size = 0;
		return MHD_YES;
	}
	if (strcmp(method, "POST") != 0)
		return MHD_queue_response(c, MHD_HTTP_METHOD_NOT_ALLOWED, fail_resp);
	return commit_turn(url) ? MHD_queue_response(c, MHD_HTTP_OK, ok_resp)
	                        : MHD_queue_response(c, MHD_HTTP_SERVICE_UNAVAILABLE, fail_resp);
}

int
main(int argc, char **argv)
{
	struct MHD_Daemon *d;

	if (argc != 5)
		return fprintf(stderr, "usage: bareturn PORT THREADS MATCHES CONNINFO\n"), 2;
	conninfo = argv[4];
	nmatches = atol(argv[3]);
	if (nmatches < 1 || atoi(argv[2]) < 1)
		return 2;
	pthread_key_create(&conn_key, drop_conn);
	bare_start();
	d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL,
	                     (uint16_t)atoi(argv[1]), NULL, NULL, on_request, NULL,
	                     MHD_OPTION_THREAD_POOL_SIZE, (unsigned)atoi(argv[2]),
	                     MHD_OPTION_CONNECTION_LIMIT, 1024u, MHD_OPTION_CONNECTION_TIMEOUT, 30u,
	                     MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)3072, MHD_OPTION_END);
	if (!d) {
		fprintf(stderr, "bareturn: cannot listen on port %s\n", argv[1]);
		return 1;
	}
	while (!stop)
		pause();
	MHD_stop_daemon(d);
	MHD_destroy_response(ok_resp);
	MHD_destroy_response(fail_resp);
	return 0;
}
