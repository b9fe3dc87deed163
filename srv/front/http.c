/* The libmicrohttpd front: an epoll thread pool with explicit limits.
 * It collects a request (headers, body up to the cap), hands it to
 * wp_serve() and queues the answer; what a connection keeps beyond one
 * call (its request clock, a long-poll or stream held open) is in
 * http_conn.c. No libmicrohttpd type leaves the front. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fronts.h"
#include "http_conn.h"
#include "http_loop.h"

/* A body over the cap without a Content-Length (chunked) is read and
 * dropped up to this much more, then the connection is cut. */
#define WP_DISCARD_LIMIT (1024u * 1024u)

static size_t
keep_raw(void *cls, struct MHD_Connection *c, char *s)
{
	/* The core decodes paths and queries itself, the same way for every
	 * front, so libmicrohttpd must hand them over untouched. */
	return strlen(s);
}

/* Called with the request target before libmicrohttpd parses it; its
 * result becomes the request's context. A NUL byte inside the target
 * would silently shorten the path, so its length is kept for a check. */
static __thread int loop_wake_fd;

static void *
on_uri(void *cls, const char *uri, struct MHD_Connection *c)
{
	struct conn_ctx *cc = calloc(1, sizeof(*cc));

	if (cc && !(cc->req = calloc(1, sizeof(*cc->req)))) {
		free(cc);
		cc = NULL;
	}
	if (cc) {
		cc->http = cls;
		cc->raw_uri = uri;
		cc->raw_uri_len = strlen(uri);
		cc->wake_fd = loop_wake_fd;
	}
	return cc;
}

/* With event loops (EVENT_LOOPS, the default): an API request's
 * wp_serve() runs in a coroutine of its loop (http_loop.c). One that
 * waited on the database ends later, in the loop, outside libmicrohttpd:
 * its answer is kept, and the connection, suspended meanwhile, resumed;
 * libmicrohttpd then calls on_request() again, which queues it. */
static void
serve_co(void *arg)
{
	struct conn_ctx *cc = arg;
	wp_serve(cc->req, &cc->co_res);
}

static void
co_done(void *arg)
{
	struct conn_ctx *cc = arg;
	cc->co_state = 2;
	MHD_resume_connection(cc->conn);
}

static enum MHD_Result
answer(struct MHD_Connection *c, struct conn_ctx *cc)
{
	struct wp_response res = {0};
	struct MHD_Response *r;
	enum MHD_Result ret;

	if (cc->co_state == 2) {
		res = cc->co_res;
		memset(&cc->co_res, 0, sizeof(cc->co_res));
		cc->co_state = 0;
		goto served;
	}
	if (!cc->req->query && !cc->req->body_too_large)
		cc->req->query = wp_http_query(c);
	if (!cc->req->query)
		cc->req->query = strdup("");
	wp_http_clock_set(c, 0);
	/* A long-poll whose client hung up: no work for an answer no one
	 * reads (the FastCGI front drops it alike). */
	if (cc->waiter.gone) {
		wp_log_request(cc->req, WP_STATUS_CLIENT_LEFT);
		return MHD_NO;
	}
	cc->req->can_wait = !wp_wait_stopping();
	/* Open streams take at most half the connections; past that an
	 * EventSource gets finite answers (it reconnects) like FastCGI. */
	cc->req->can_stream = cc->req->can_wait && __atomic_load_n(&cc->http->streams,
	                                                         __ATOMIC_RELAXED) < cc->http->max_streams;
	cc->req->has_fixed = wp_http_has_fixed;
	wp_http_fixed_begin();
	/* (a static file never waits on the database: answered at once) */
	if (cc->http->nloops && strncmp(cc->req->path, "/api/", 5) == 0) {
		cc->conn = c;
		memset(&cc->co_res, 0, sizeof(cc->co_res));
		if (wp_co_start(serve_co, cc)) {
			cc->co_state = 1;
			MHD_suspend_connection(c);
			return MHD_YES;
		}
		res = cc->co_res;
		memset(&cc->co_res, 0, sizeof(cc->co_res));
	} else
		wp_serve(cc->req, &res);
served:
	if (res.fixed) {
		if (wp_http_queue_fixed(c, &res, &ret)) {
			wp_response_free(&res);
			return ret;
		}
		/* Released meanwhile: made again, whole. */
		wp_response_free(&res);
		cc->req->has_fixed = NULL;
		wp_serve(cc->req, &res);
	}
	if (res.status == 200 && res.stream)
		return wp_http_sse_start(c, cc, &res);
	if (res.status == 0 && res.wait_game) {
		wp_http_suspend_for(c, cc, &res);
		wp_response_free(&res);
		return MHD_YES;
	}
	if (res.fixed && wp_http_queue_fixed(c, &res, &ret)) {
		wp_response_free(&res);
		return ret;
	}
	if (!(r = wp_http_response(&res))) {
		wp_response_free(&res);
		return MHD_NO;
	}
	ret = MHD_queue_response(c, (unsigned)res.status, r);
	MHD_destroy_response(r);
	wp_response_free(&res);
	return ret;
}

/* libmicrohttpd calls this at least twice per request: first with the
 * headers only (set the context, maybe refuse the body), then with body
 * pieces, then once with none left (answer). Answering on the first call
 * costs keep-alive (STYLE.md), so only the 413 does that. */
static enum MHD_Result
on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
           const char *version, const char *upload_data, size_t *upload_size, void **con_cls)
{
	struct wp_http *h = cls;
	struct conn_ctx *cc = *con_cls;

	if (!cc || wp_http_unpark(cc) != 0)
		return MHD_NO;
	if (!cc->req->method) {
		const char *cl;
		/* From here the request is in flight: a stop waits for it. */
		__atomic_add_fetch(&cc->http->inflight, 1, __ATOMIC_RELAXED);
		cc->req->start_ns = wp_now_ns();
		cc->req->method = strdup(method);
		cc->req->path = strdup(url);
		wp_http_peer(c, cc->req->peer, sizeof(cc->req->peer));
		wp_http_headers(c, cc->req);
		/* The target ends one space before the version; a shorter
		 * string means a NUL byte inside it. Checked only while the
		 * buffer is the one the target was read into. */
		if (cc->raw_uri == url && version > url &&
		    (size_t)(version - url) - 1 > cc->raw_uri_len) {
			free(cc->req->path);
			cc->req->path = strdup("%00");
		}
		if ((cc->req->bad_framing = wp_http_framing_problem(cc->req)) != NULL)
			return answer(c, cc);
		cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
		if (cl) {
			char *end;
			unsigned long long n = strtoull(cl, &end, 10);
			if (*end || n > h->max_body) {
				/* RFC 9110, 15.5.14: refuse before reading the body. */
				cc->req->body_too_large = 1;
				return answer(c, cc);
			}
		}
		return MHD_YES;
	}
	if (*upload_size) {
		size_t n = *upload_size;
		*upload_size = 0;
		if (cc->req->body_too_large) {
			cc->discarded += n;
			return cc->discarded > WP_DISCARD_LIMIT ? MHD_NO : MHD_YES;
		}
		if (cc->req->body_len + n > h->max_body) {
			cc->req->body_too_large = 1;
			free(cc->req->body);
			cc->req->body = NULL;
			cc->req->body_len = 0;
			cc->discarded = n;
			return MHD_YES;
		}
		if (cc->req->body_len + n > cc->cap) {
			size_t cap = cc->req->body_len + n;
			char *p;
			cap = cap < 1024 ? 1024 : cap * 2;
			if (cap > h->max_body)
				cap = h->max_body;
			p = realloc(cc->req->body, cap);
			if (!p)
				return MHD_NO;
			cc->req->body = p;
			cc->cap = cap;
		}
		memcpy(cc->req->body + cc->req->body_len, upload_data, n);
		cc->req->body_len += n;
		return MHD_YES;
	}
	return answer(c, cc);
}

static void
on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
             enum MHD_RequestTerminationCode toe)
{
	struct conn_ctx *cc = *con_cls;

	if (!cc)
		return;
	/* The answer is out: the connection is idle until the next request. */
	wp_http_clock_set(c, -wp_now_ns());
	wp_http_held_end(cc);
	/* An answer a coroutine made for a connection that closed before
	 * it was queued (the client left, or the server stops). */
	if (cc->co_state == 2)
		wp_response_free(&cc->co_res);
	if (cc->req) {
		if (cc->req->method)
			__atomic_sub_fetch(&cc->http->inflight, 1, __ATOMIC_RELAXED);
		cc->req->nheaders = 0; /* borrowed (wp_http_headers) */
		wp_request_free(cc->req);
		free(cc->req);
	}
	free(cc);
	*con_cls = NULL;
}

/* libmicrohttpd's own messages; the format comes from the library. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void
on_mhd_error(void *cls, const char *fmt, va_list ap)
{
	char msg[512];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	msg[strcspn(msg, "\n")] = '\0';
	wp_log("http: %s", msg);
}
#pragma GCC diagnostic pop

/* A libmicrohttpd daemon with the front's options: the thread pool's
 * (threads > 1: its polling threads, which count PER_IP_CONNECTIONS) or
 * one event loop's (threads 0: the loops count addresses themselves,
 * http_conn.c; lfd: the listening socket of the first, or
 * MHD_INVALID_SOCKET to make one). */
static struct MHD_Daemon *
start_daemon(struct wp_http *h, const struct wp_config *cfg, const struct sockaddr *addr,
             unsigned flags, unsigned threads, unsigned limit, MHD_socket lfd)
{
	/* a thread pool's size, none for a loop's (0 draws a warning) */
	struct MHD_OptionItem pool[] = {
		{threads ? MHD_OPTION_THREAD_POOL_SIZE : MHD_OPTION_END, threads, NULL},
		{MHD_OPTION_END, 0, NULL},
	};

	if (addr->sa_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	return MHD_start_daemon(
		flags, (uint16_t)cfg->port, threads ? NULL : wp_http_accept_policy, h, on_request, h,
		MHD_OPTION_EXTERNAL_LOGGER, on_mhd_error, NULL,
		MHD_OPTION_SOCK_ADDR, addr,
		MHD_OPTION_LISTEN_SOCKET, lfd,
		MHD_OPTION_ARRAY, pool,
		MHD_OPTION_CONNECTION_LIMIT, limit,
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)cfg->connection_timeout,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)cfg->connection_memory,
		MHD_OPTION_PER_IP_CONNECTION_LIMIT, threads ? (unsigned int)cfg->per_ip_connections : 0u,
		MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned int)511,
		/* Refuse what RFC 9112 calls ambiguous instead of guessing. */
		MHD_OPTION_STRICT_FOR_CLIENT, (int)1,
		MHD_OPTION_UNESCAPE_CALLBACK, keep_raw, NULL,
		MHD_OPTION_NOTIFY_COMPLETED, on_completed, NULL,
		MHD_OPTION_NOTIFY_CONNECTION, wp_http_on_connection, h,
		MHD_OPTION_URI_LOG_CALLBACK, on_uri, h,
		MHD_OPTION_END);
}

/* The event loops (EVENT_LOOPS, issue 32). */
struct http_loop {
	struct MHD_Daemon *d;
	int quiesced;            /* at shutdown, by the loop itself */
	MHD_socket quiesced_fd;  /* what MHD_quiesce_daemon gave back */
	int efd;
	void *loop;
	pthread_t thread;
	struct wp_http *h;
};

static void *
loop_main(void *arg)
{
	struct http_loop *hl = arg;
	const union MHD_DaemonInfo *di = MHD_get_daemon_info(hl->d, MHD_DAEMON_INFO_EPOLL_FD);
	/* libmicrohttpd's own epoll set, and the eventfd other threads
	 * write when they resume a connection of this loop */
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = hl};
	struct epoll_event ev2 = {.events = EPOLLIN, .data.ptr = &hl->efd};

	wp_loop_enter(hl->loop);
	wp_log_hold(1);
	loop_wake_fd = hl->efd;
	epoll_ctl(wp_loop_fd(hl->loop), EPOLL_CTL_ADD, di->epoll_fd, &ev);
	epoll_ctl(wp_loop_fd(hl->loop), EPOLL_CTL_ADD, hl->efd, &ev2);
	while (!__atomic_load_n(&hl->h->loops_stop, __ATOMIC_RELAXED)) {
		MHD_UNSIGNED_LONG_LONG to = 0;
		int t = MHD_get_timeout(hl->d, &to) == MHD_YES ? (to > 200 ? 200 : (int)to) : 200;
		int hit = wp_loop_round(hl->loop, hl, &hl->efd, t, co_done);
		if (hit & 2) {
			uint64_t v;
			ssize_t n = read(hl->efd, &v, sizeof(v));
			(void)n;
		}
		/* Shutdown asked: the loop quiesces its daemon itself. Called
		 * from another thread, MHD_quiesce_daemon raced this thread's
		 * MHD_run on the daemon's fields, and libmicrohttpd aborted the
		 * process ("Failed to remove listen FD from epoll set", seen
		 * under AddressSanitizer at a SIGTERM). */
		if (__atomic_load_n(&hl->h->loops_quiesce, __ATOMIC_ACQUIRE) &&
		    !hl->quiesced) {
			hl->quiesced = 1;
			hl->quiesced_fd = MHD_quiesce_daemon(hl->d);
			__atomic_add_fetch(&hl->h->loops_quiesced, 1, __ATOMIC_RELEASE);
		}
		/* Every round: libmicrohttpd closes and counts out connections
		 * (and listens again below its limit) only inside MHD_run. */
		MHD_run(hl->d);
		wp_log_flush();
	}
	wp_log_hold(0);
	return NULL;
}

static int
start_loops(struct wp_http *h, const struct wp_config *cfg, const struct sockaddr *addr)
{
	/* atomic: the health monitor's thread already reads it */
	__atomic_store_n(&wp_wait_fd_hook, wp_co_wait_fd, __ATOMIC_RELEASE);
	__atomic_store_n(&wp_offload_hook, wp_co_offload, __ATOMIC_RELEASE);
	h->loops = calloc(h->nloops, sizeof(*h->loops));
	if (!h->loops)
		return -1;
	h->per_ip = cfg->per_ip_connections;
	for (unsigned i = 0; i < h->nloops; i++) {
		struct http_loop *hl = &h->loops[i];
		/* One listening socket for all: a loop at its share of
		 * MAX_CONNECTIONS stops taking, the others go on (as
		 * libmicrohttpd's thread pool shares it). */
		unsigned share = cfg->max_connections / h->nloops +
		                 (i < cfg->max_connections % h->nloops);
		MHD_socket lfd = MHD_INVALID_SOCKET;
		if (i > 0) {
			const union MHD_DaemonInfo *li =
				MHD_get_daemon_info(h->loops[0].d, MHD_DAEMON_INFO_LISTEN_FD);
			lfd = li ? li->listen_fd : MHD_INVALID_SOCKET;
		}
		hl->h = h;
		hl->loop = wp_loop_new();
		hl->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		hl->d = start_daemon(h, cfg, addr, MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME |
		                     MHD_USE_ITC | MHD_USE_ERROR_LOG, 0, share ? share : 1u, lfd);
		if (!hl->d || !hl->loop || hl->efd < 0)
			return -1;
	}
	for (unsigned i = 0; i < h->nloops; i++)
		pthread_create(&h->loops[i].thread, NULL, loop_main, &h->loops[i]);
	return 0;
}

struct wp_http *
wp_http_start(const struct wp_config *cfg)
{
	struct wp_http *h = calloc(1, sizeof(*h));
	struct sockaddr_in6 a6 = {0};
	struct sockaddr_in a4 = {0};
	const struct sockaddr *addr;

	if (!h)
		return NULL;
	h->max_body = cfg->max_body;
	h->max_streams = cfg->max_connections / 2;
	if (wp_http_watchdog_start(h, cfg->request_timeout) != 0) {
		free(h);
		return NULL;
	}
	if (inet_pton(AF_INET, cfg->bind_addr, &a4.sin_addr) == 1) {
		a4.sin_family = AF_INET;
		a4.sin_port = htons((uint16_t)cfg->port);
		addr = (const struct sockaddr *)&a4;
	} else if (inet_pton(AF_INET6, cfg->bind_addr, &a6.sin6_addr) == 1) {
		a6.sin6_family = AF_INET6;
		a6.sin6_port = htons((uint16_t)cfg->port);
		addr = (const struct sockaddr *)&a6;
	} else {
		wp_log("BIND_ADDR=%s is not an IPv4 or IPv6 address", cfg->bind_addr);
		wp_http_watchdog_stop(h);
		free(h);
		return NULL;
	}
	h->nloops = cfg->event_loops;
	if (h->nloops)
		h->daemon = start_loops(h, cfg, addr) == 0 ? h->loops[0].d : NULL;
	else
		h->daemon = start_daemon(h, cfg, addr, MHD_USE_INTERNAL_POLLING_THREAD |
		                         MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ITC |
		                         MHD_USE_ERROR_LOG, cfg->threads, cfg->max_connections,
		                         MHD_INVALID_SOCKET);
	if (!h->daemon) {
		wp_log("http: cannot listen on %s port %u", cfg->bind_addr, cfg->port);
		wp_http_watchdog_stop(h);
		free(h);
		return NULL;
	}
	if (h->nloops)
		wp_log("http: listening on %s port %u (%u event loops, "
		       "%u connections, %u per address)", cfg->bind_addr, cfg->port, h->nloops,
		       cfg->max_connections, cfg->per_ip_connections);
	else
		wp_log("http: listening on %s port %u (%u threads, %u connections, %u per address)",
		       cfg->bind_addr, cfg->port, cfg->threads, cfg->max_connections,
		       cfg->per_ip_connections);
	return h;
}

void
wp_http_stop(struct wp_http *h, unsigned drain_sec)
{
	MHD_socket fd;
	int64_t deadline = wp_now_ns() + (int64_t)drain_sec * 1000000000;

	if (!h)
		return;
	/* No new connections: the listening socket stops listening at once
	 * (shutdown), but is closed only after MHD_stop_daemon, as
	 * libmicrohttpd's worker threads may still use its number (its
	 * manual, MHD_quiesce_daemon; ThreadSanitizer saw close() race a
	 * worker's epoll_ctl). */
	if (h->nloops) {
		/* Each loop quiesces its own daemon (loop_main); they share
		 * loop 0's listening socket. A loop answers within a round. */
		__atomic_store_n(&h->loops_quiesce, 1, __ATOMIC_RELEASE);
		for (unsigned i = 0; i < h->nloops; i++) {
			uint64_t one = 1;
			ssize_t n = write(h->loops[i].efd, &one, sizeof(one));
			(void)n;
		}
		while (__atomic_load_n(&h->loops_quiesced, __ATOMIC_ACQUIRE) < h->nloops)
			usleep(1000);
		fd = h->loops[0].quiesced_fd;
	} else {
		fd = MHD_quiesce_daemon(h->daemon);
	}
	if (fd != MHD_INVALID_SOCKET)
		shutdown(fd, SHUT_RDWR);
	/* Requests in flight finish (up to the deadline); idle keep-alive
	 * connections and requests still sending their headers are closed. */
	while (__atomic_load_n(&h->inflight, __ATOMIC_RELAXED) > 0 && wp_now_ns() < deadline)
		usleep(20000);
	if (h->nloops) {
		__atomic_store_n(&h->loops_stop, 1, __ATOMIC_RELAXED);
		for (unsigned i = 0; i < h->nloops; i++)
			pthread_join(h->loops[i].thread, NULL);
		for (unsigned i = 0; i < h->nloops; i++) {
			if (i > 0)
				MHD_stop_daemon(h->loops[i].d);
			wp_loop_free(h->loops[i].loop);
			close(h->loops[i].efd);
		}
		free(h->loops);
	}
	MHD_stop_daemon(h->daemon);
	if (fd != MHD_INVALID_SOCKET)
		close(fd);
	wp_http_fixed_clear();
	wp_http_watchdog_stop(h);
	free(h);
}
