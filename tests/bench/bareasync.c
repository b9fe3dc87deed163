/* The event-driven counterpart of tests/bench/bareturn.c (issue
 * "Performance"): the same work -- read a POST, commit the minimal
 * durable turn in its single-statement optimistic form, answer a fixed
 * JSON body -- in another shape: LOOPS threads, each running its own
 * libmicrohttpd daemon on the port (SO_REUSEPORT) in external-epoll mode
 * and its own CONNS libpq connections in non-blocking mode, in one epoll
 * set. A request whose body is in sends its statement and is suspended;
 * the thread serves other sockets until the database answers, then
 * resumes it. No thread ever waits on the database, so a wake-up of a
 * loop can carry several requests and answers.
 * It measures what that shape costs a turn beside bareturn's (warpostd's
 * shape): whether a server that does not wait on the database could cost
 * less CPU a turn than the blocking one, and by how much.
 * Usage: bareasync PORT LOOPS CONNS MATCHES CONNINFO. Runs until SIGTERM. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <libpq-fe.h>
#include <microhttpd.h>

#include "bareturn.h"

enum { REQ_NEW, REQ_QUEUED, REQ_SENT, REQ_DONE };

struct req {
	int state, ok;
	long match;
	struct MHD_Connection *conn;
	struct req *next;              /* waiting for a free database connection */
};

struct pg {
	PGconn *c;
	struct req *busy;              /* the request it serves, or NULL */
	int ok;
	struct loop *lp;
};

struct loop {
	int ep;
	struct MHD_Daemon *d;
	struct pg *pgs;
	int npg;
	struct req *head, *tail;       /* FIFO of requests without a connection */
	pthread_t th;
};

static const char *conninfo;
static long nmatches;
static int nconns;
static unsigned port;

static void
send_turn(struct pg *p, struct req *r)
{
	char id[24];
	const char *params[1] = {id};

	snprintf(id, sizeof(id), "%ld", r->match % nmatches + 1);
	p->busy = r;
	p->ok = 0;
	r->state = REQ_SENT;
	if (!PQsendQueryPrepared(p->c, "turn", 1, params, NULL, NULL, 0)) {
		p->busy = NULL;
		r->state = REQ_DONE;
		MHD_resume_connection(r->conn);
		return;
	}
	while (PQflush(p->c) == 1)
		; /* a few dozen bytes: leaves at once on a local socket */
}

static enum MHD_Result
on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
           const char *version, const char *upload, size_t *upload_size, void **ctx)
{
	struct loop *lp = cls;
	struct req *r = *ctx;

	(void)version, (void)upload;
	if (!r) {
		const char *p = strstr(url, "/games/");
		if (!(r = calloc(1, sizeof(*r))))
			return MHD_NO;
		r->conn = c;
		r->match = p ? strtol(p + 7, NULL, 10) : 0;
		*ctx = r;
		return MHD_YES;
	}
	if (*upload_size) {
		*upload_size = 0;
		return MHD_YES;
	}
	if (strcmp(method, "POST") != 0)
		return MHD_queue_response(c, MHD_HTTP_METHOD_NOT_ALLOWED, fail_resp);
	if (r->state == REQ_DONE)
		return MHD_queue_response(c, r->ok ? MHD_HTTP_OK : MHD_HTTP_SERVICE_UNAVAILABLE,
		                          r->ok ? ok_resp : fail_resp);
	if (r->state != REQ_NEW)
		return MHD_YES;
	MHD_suspend_connection(c);
	for (int i = 0; i < lp->npg; i++)
		if (!lp->pgs[i].busy) {
			send_turn(&lp->pgs[i], r);
			return MHD_YES;
		}
	r->state = REQ_QUEUED;
	if (lp->tail)
		lp->tail->next = r;
	else
		lp->head = r;
	lp->tail = r;
	return MHD_YES;
}

static void
on_done(void *cls, struct MHD_Connection *c, void **ctx, enum MHD_RequestTerminationCode why)
{
	(void)cls, (void)c, (void)why;
	free(*ctx);
	*ctx = NULL;
}

/* The database answered on p: the statement's outcome, the request
 * resumed, the connection given to the next waiting request. */
static void
pg_ready(struct pg *p)
{
	PGresult *res;

	if (!PQconsumeInput(p->c)) {
		fprintf(stderr, "bareasync: %s", PQerrorMessage(p->c));
		stop = 1;
		return;
	}
	while (p->busy && !PQisBusy(p->c)) {
		if ((res = PQgetResult(p->c))) {
			p->ok = PQresultStatus(res) == PGRES_COMMAND_OK &&
			        strcmp(PQcmdTuples(res), "1") == 0;
			PQclear(res);
			continue;
		}
		struct req *r = p->busy;
		struct loop *lp = p->lp;
		p->busy = NULL;
		r->ok = p->ok;
		r->state = REQ_DONE;
		MHD_resume_connection(r->conn);
		if (lp->head) {
			struct req *next = lp->head;
			if (!(lp->head = next->next))
				lp->tail = NULL;
			next->next = NULL;
			send_turn(p, next);
		}
	}
}

static void *
loop_main(void *arg)
{
	struct loop *lp = arg;
	struct epoll_event evs[64];
	const union MHD_DaemonInfo *info;

	lp->d = MHD_start_daemon(MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME, (uint16_t)port, NULL,
	                         NULL, on_request, lp, MHD_OPTION_NOTIFY_COMPLETED, on_done, lp,
	                         MHD_OPTION_LISTENING_ADDRESS_REUSE, 1u,
	                         MHD_OPTION_CONNECTION_LIMIT, 1024u,
	                         MHD_OPTION_CONNECTION_TIMEOUT, 30u,
	                         MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)3072, MHD_OPTION_END);
	if (!lp->d || !(info = MHD_get_daemon_info(lp->d, MHD_DAEMON_INFO_EPOLL_FD))) {
		fprintf(stderr, "bareasync: cannot listen on port %u\n", port);
		exit(1);
	}
	lp->ep = epoll_create1(EPOLL_CLOEXEC);
	struct epoll_event mev = {.events = EPOLLIN, .data.ptr = NULL};
	epoll_ctl(lp->ep, EPOLL_CTL_ADD, info->epoll_fd, &mev);
	lp->npg = nconns;
	lp->pgs = calloc((size_t)nconns, sizeof(*lp->pgs));
	for (int i = 0; i < nconns; i++) {
		struct pg *p = &lp->pgs[i];
		p->lp = lp;
		p->c = PQconnectdb(conninfo);
		PGresult *r = PQprepare(p->c, "turn", TURN_SQL, 0, NULL);
		if (PQresultStatus(r) != PGRES_COMMAND_OK) {
			fprintf(stderr, "bareasync: %s", PQerrorMessage(p->c));
			exit(1);
		}
		PQclear(r);
		PQsetnonblocking(p->c, 1);
		struct epoll_event pev = {.events = EPOLLIN, .data.ptr = p};
		epoll_ctl(lp->ep, EPOLL_CTL_ADD, PQsocket(p->c), &pev);
	}
	while (!stop) {
		int n = epoll_wait(lp->ep, evs, 64, 200);
		if (n < 0 && errno != EINTR)
			break;
		for (int i = 0; i < n; i++)
			if (evs[i].data.ptr)
				pg_ready(evs[i].data.ptr);
		/* The daemon's own sockets, and the connections just resumed. */
		MHD_run(lp->d);
	}
	return NULL;
}

int
main(int argc, char **argv)
{
	struct loop *loops;
	int nloops;

	if (argc != 6)
		return fprintf(stderr, "usage: bareasync PORT LOOPS CONNS MATCHES CONNINFO\n"), 2;
	port = (unsigned)atoi(argv[1]);
	nloops = atoi(argv[2]);
	nconns = atoi(argv[3]);
	nmatches = atol(argv[4]);
	conninfo = argv[5];
	if (nloops < 1 || nconns < 1 || nmatches < 1)
		return 2;
	bare_start();
	signal(SIGPIPE, SIG_IGN);
	loops = calloc((size_t)nloops, sizeof(*loops));
	for (int i = 0; i < nloops; i++)
		pthread_create(&loops[i].th, NULL, loop_main, &loops[i]);
	for (int i = 0; i < nloops; i++)
		pthread_join(loops[i].th, NULL);
	return 0;
}
