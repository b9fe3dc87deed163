/* The libmicrohttpd front's connections beyond one call of the handler
 * (http.c handles the requests): each connection's request clock and the
 * watchdog that cuts slow requests, and the requests held open, long-polls
 * and event streams, suspended on the wait registry, which also watches
 * their sockets: a client that hangs up frees its connection, and the
 * slot PER_IP_CONNECTIONS counts for its address, at once (issue 24,
 * item 4). No libmicrohttpd type leaves the front. */
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "http_conn.h"

/* --- Slow requests (issue 16, item 1) ---
 * Each connection has a clock, started when it opens and again when the
 * first byte of a next request follows an answer (idle_look()): the
 * request must arrive whole (line, headers and body) within
 * REQUEST_TIMEOUT. libmicrohttpd's CONNECTION_TIMEOUT is
 * an idle timeout, which a client sending a byte every few seconds never
 * meets. A watchdog thread shuts the socket of a late connection down;
 * libmicrohttpd then reads its end and closes it as usual (the clock
 * leaves the list, under the lock, before the socket is closed). */
struct conn_clock {
	int fd;
	int ip_held;             /* counted in the address table (loops) */
	unsigned char ip[16];
	/* > 0: receiving a request since then; < 0: answered, and no byte
	 * of the next request seen since -since_ns; 0: answering or waiting */
	int64_t since_ns;
	struct conn_clock *prev, *next;
};

/* --- Connections per address with event loops (issue 32) ---
 * libmicrohttpd counts PER_IP_CONNECTIONS per daemon; the event loops are
 * one daemon each, so the count is kept here for all of them: taken in
 * the accept policy (before the connection exists), kept by the
 * connection from its start, given back when it closes. */
#define IP_BUCKETS 1024
struct ip_count {
	unsigned char key[16];
	unsigned n;
	struct ip_count *next;
};
static struct {
	pthread_mutex_t lock;
	struct ip_count *b[IP_BUCKETS];
} ips = {.lock = PTHREAD_MUTEX_INITIALIZER};
/* The address the last accept on this thread took a count for, until the
 * connection's start keeps it (both run in one call of the loop). */
static __thread unsigned char taken_ip[16];
static __thread int taken;

static int
ip_key(const struct sockaddr *a, unsigned char out[16])
{
	memset(out, 0, 16);
	if (a->sa_family == AF_INET) {
		out[10] = out[11] = 0xff;
		memcpy(out + 12, &((const struct sockaddr_in *)a)->sin_addr, 4);
		return 0;
	}
	if (a->sa_family == AF_INET6) {
		memcpy(out, &((const struct sockaddr_in6 *)a)->sin6_addr, 16);
		return 0;
	}
	return -1;
}

static unsigned
ip_bucket(const unsigned char k[16])
{
	uint64_t h = 1469598103934665603ULL;
	for (int i = 0; i < 16; i++)
		h = (h ^ k[i]) * 1099511628211ULL;
	return (unsigned)(h % IP_BUCKETS);
}

static void
ip_give(const unsigned char k[16])
{
	pthread_mutex_lock(&ips.lock);
	for (struct ip_count **p = &ips.b[ip_bucket(k)]; *p; p = &(*p)->next)
		if (memcmp((*p)->key, k, 16) == 0) {
			if (--(*p)->n == 0) {
				struct ip_count *gone = *p;
				*p = gone->next;
				free(gone);
			}
			break;
		}
	pthread_mutex_unlock(&ips.lock);
}

enum MHD_Result
wp_http_accept_policy(void *cls, const struct sockaddr *addr, socklen_t addrlen)
{
	struct wp_http *h = cls;
	unsigned char k[16];
	struct ip_count *e;
	enum MHD_Result ok = MHD_YES;

	(void)addrlen;
	if (taken) {
		/* the last one taken never started (libmicrohttpd failed) */
		ip_give(taken_ip);
		taken = 0;
	}
	if (!h->per_ip || ip_key(addr, k) != 0)
		return MHD_YES;
	pthread_mutex_lock(&ips.lock);
	for (e = ips.b[ip_bucket(k)]; e; e = e->next)
		if (memcmp(e->key, k, 16) == 0)
			break;
	if (e && e->n >= h->per_ip)
		ok = MHD_NO;
	else if (!e && !(e = calloc(1, sizeof(*e))))
		ok = MHD_NO;
	else {
		if (e->n == 0) {
			memcpy(e->key, k, 16);
			e->next = ips.b[ip_bucket(k)];
			ips.b[ip_bucket(k)] = e;
		}
		e->n++;
		memcpy(taken_ip, k, 16);
		taken = 1;
	}
	pthread_mutex_unlock(&ips.lock);
	return ok;
}

void
wp_http_on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                      enum MHD_ConnectionNotificationCode code)
{
	struct wp_http *h = cls;
	struct conn_clock *k = *socket_context;

	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *ci =
			MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		if (!ci || !(k = calloc(1, sizeof(*k))))
			return;
		k->fd = ci->connect_fd;
		k->since_ns = wp_now_ns();
		if (taken) {
			memcpy(k->ip, taken_ip, 16);
			k->ip_held = 1;
			taken = 0;
		}
		pthread_mutex_lock(&h->clocks_lock);
		k->next = h->clocks;
		if (h->clocks)
			h->clocks->prev = k;
		h->clocks = k;
		pthread_mutex_unlock(&h->clocks_lock);
		*socket_context = k;
	} else if (code == MHD_CONNECTION_NOTIFY_CLOSED && k) {
		pthread_mutex_lock(&h->clocks_lock);
		if (k->prev)
			k->prev->next = k->next;
		else
			h->clocks = k->next;
		if (k->next)
			k->next->prev = k->prev;
		pthread_mutex_unlock(&h->clocks_lock);
		if (k->ip_held)
			ip_give(k->ip);
		free(k);
		*socket_context = NULL;
	}
}

void
wp_http_clock_set(struct MHD_Connection *c, int64_t since_ns)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	struct conn_clock *k = ci ? ci->socket_context : NULL;

	if (k)
		__atomic_store_n(&k->since_ns, since_ns, __ATOMIC_RELAXED);
}

/* An idle keep-alive connection is not late: its clock moves up to each
 * look of the watchdog until a byte arrives after it (the kernel says
 * when data last came), so the next request gets REQUEST_TIMEOUT from at
 * most a second before its first byte, and a connection that stays idle
 * is left to CONNECTION_TIMEOUT, closed quietly by libmicrohttpd. */
#define IDLE_SLACK_NS (100 * 1000000LL)

static void
idle_look(struct conn_clock *k, int64_t since, int64_t now_ns)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);
	int64_t next = -now_ns;

	/* The kernel counts in jiffies (1 to 10 ms): a byte read just before
	 * the answer may seem to come after it; IDLE_SLACK_NS keeps the last
	 * request's bytes from starting the next one's clock. */
	if (getsockopt(k->fd, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0 ||
	    now_ns - (int64_t)ti.tcpi_last_data_recv * 1000000 > -since + IDLE_SLACK_NS)
		next = -since; /* a request started: its clock runs */
	/* unless an answer or a request changed the clock meanwhile */
	__atomic_compare_exchange_n(&k->since_ns, &since, next, 0, __ATOMIC_RELAXED,
	                            __ATOMIC_RELAXED);
}

/* Shuts down the connections whose request is late; returns how many. */
static unsigned
cut_late(struct wp_http *h, int64_t now_ns)
{
	unsigned n = 0;

	pthread_mutex_lock(&h->clocks_lock);
	for (struct conn_clock *k = h->clocks; k; k = k->next) {
		int64_t since = __atomic_load_n(&k->since_ns, __ATOMIC_RELAXED);
		if (since < 0)
			idle_look(k, since, now_ns);
		since = __atomic_load_n(&k->since_ns, __ATOMIC_RELAXED);
		if (since > 0 && now_ns - since > h->request_timeout_ns) {
			__atomic_store_n(&k->since_ns, 0, __ATOMIC_RELAXED);
			shutdown(k->fd, SHUT_RDWR);
			n++;
		}
	}
	pthread_mutex_unlock(&h->clocks_lock);
	return n;
}

static void *
watchdog_main(void *arg)
{
	struct wp_http *h = arg;

	pthread_mutex_lock(&h->stop_lock);
	while (!h->stopping) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_sec += 1;
		pthread_cond_timedwait(&h->stop_cv, &h->stop_lock, &ts);
		if (h->stopping)
			break;
		pthread_mutex_unlock(&h->stop_lock);
		unsigned n = cut_late(h, wp_now_ns());
		if (n)
			wp_log("http: closed %u connection(s) whose request took over "
			       "REQUEST_TIMEOUT", n);
		pthread_mutex_lock(&h->stop_lock);
	}
	pthread_mutex_unlock(&h->stop_lock);
	return NULL;
}

int
wp_http_watchdog_start(struct wp_http *h, unsigned timeout_sec)
{
	pthread_condattr_t ca;

	h->request_timeout_ns = (int64_t)timeout_sec * 1000000000;
	pthread_mutex_init(&h->clocks_lock, NULL);
	pthread_mutex_init(&h->stop_lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&h->stop_cv, &ca);
	pthread_condattr_destroy(&ca);
	return pthread_create(&h->watchdog, NULL, watchdog_main, h);
}

void
wp_http_watchdog_stop(struct wp_http *h)
{
	pthread_mutex_lock(&h->stop_lock);
	h->stopping = 1;
	pthread_cond_signal(&h->stop_cv);
	pthread_mutex_unlock(&h->stop_lock);
	pthread_join(h->watchdog, NULL);
	pthread_cond_destroy(&h->stop_cv);
	pthread_mutex_destroy(&h->stop_lock);
	pthread_mutex_destroy(&h->clocks_lock);
}

/* --- Long-polls ---
 * A waiting request's connection is suspended (no thread); the registry
 * resumes it exactly once: a change, the deadline, or its client hanging
 * up (the registry watches the socket, which libmicrohttpd does not while
 * the connection is suspended). A client that left is answered at once,
 * without waiting, and its connection then closes. */
static void
wake(struct wp_waiter *w)
{
	struct conn_ctx *cc = w->arg;
	wp_http_resume(cc);
}

void
wp_http_resume(struct conn_ctx *cc)
{
	int fd = cc->wake_fd;
	MHD_resume_connection(cc->conn);
	if (fd > 0) {
		uint64_t one = 1;
		ssize_t n = write(fd, &one, sizeof(one));
		(void)n;
	}
}

/* A waiting long-poll keeps only what serving it again needs (issue 17,
 * long-poll memory): struct wp_request is 1.2 KiB, most of it 64 header
 * slots, where a poll has a few headers. park() moves the request's
 * fields into a parked copy with just its headers and frees the request;
 * unpark() makes it again. The bytes before and after the header slots
 * are moved as they are, so a field added to struct wp_request is kept
 * without a change here. */
#define REQ_HEAD offsetof(struct wp_request, headers)
#define REQ_TAIL offsetof(struct wp_request, nheaders)

struct parked {
	unsigned char head[REQ_HEAD];
	unsigned char tail[sizeof(struct wp_request) - REQ_TAIL];
	struct wp_header headers[];
};

static void
park(struct conn_ctx *cc)
{
	struct wp_request *req = cc->req;
	struct parked *p = malloc(sizeof(*p) + req->nheaders * sizeof(p->headers[0]));

	if (!p)
		return; /* it waits whole */
	memcpy(p->head, req, REQ_HEAD);
	memcpy(p->tail, (char *)req + REQ_TAIL, sizeof(p->tail));
	memcpy(p->headers, req->headers, req->nheaders * sizeof(p->headers[0]));
	free(req);
	cc->req = NULL;
	cc->parked = p;
}

/* Puts a parked request back into req (zeroed first) and frees p. */
static void
unpark_into(struct parked *p, struct wp_request *req)
{
	memset(req, 0, sizeof(*req));
	memcpy(req, p->head, REQ_HEAD);
	memcpy((char *)req + REQ_TAIL, p->tail, sizeof(p->tail));
	memcpy(req->headers, p->headers, req->nheaders * sizeof(p->headers[0]));
	free(p);
}

int
wp_http_unpark(struct conn_ctx *cc)
{
	struct wp_request *req;

	if (!cc->parked)
		return 0;
	if (!(req = malloc(sizeof(*req))))
		return -1;
	unpark_into(cc->parked, req);
	cc->parked = NULL;
	cc->req = req;
	return 0;
}

/* The connection's socket, which the registry watches while it waits;
 * -1: not watched. */
static int
socket_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);

	return ci ? ci->connect_fd : -1;
}

void
wp_http_suspend_for(struct MHD_Connection *c, struct conn_ctx *cc, const struct wp_response *res)
{
	int fd = socket_of(c);

	cc->req->wait_until_ns = res->wait_until_ns;
	cc->req->again = 1;
	park(cc);
	cc->conn = c;
	cc->waiter = (struct wp_waiter){.game = res->wait_game, .gen_seen = res->wait_gen,
	                                .deadline_ns = res->wait_until_ns, .wake = wake,
	                                .arg = cc, .fd = fd, .watch_fd = fd >= 0};
	MHD_suspend_connection(c);
	wp_wait_add(&cc->waiter);
}

/* --- Server-Sent Events kept open (issue 14, "Live updates") ---
 * An event handler that sees can_stream answers its first part with
 * res.stream set; the answer stays open (chunked) for up to
 * WP_STREAM_LIFETIME_NS, then ends and EventSource reconnects. Between
 * parts the connection is suspended on the wait registry, not a thread,
 * like a long-poll; each wake (a change, or the heartbeat deadline the
 * handler set) serves the request again from the last event id. Its
 * socket is watched like a long-poll's: a stream whose client left is
 * closed at once, not when a heartbeat finds the socket gone (two of them,
 * 50 s, in which its address was refused past PER_IP_CONNECTIONS). */
#define WP_STREAM_LIFETIME_NS (300LL * 1000000000)

struct sse {
	char *buf;               /* the part being sent */
	size_t len, off;
	int64_t key;             /* what to wait on (wait.h) */
	uint64_t gen;
	int64_t beat_ns, end_ns;
	int64_t event_id;
	int woken;               /* atomic: the registry woke the stream */
	int done;
	int fd;                  /* the socket, watched while waiting; -1: not */
	/* The Last-Event-ID the request is served again with: the request's
	 * header strings are borrowed from libmicrohttpd, so the stream owns
	 * this one. */
	char last_id[24];
};

static void
sse_wake(struct wp_waiter *w)
{
	struct conn_ctx *cc = w->arg;

	__atomic_store_n(&cc->sse->woken, 1, __ATOMIC_RELEASE);
	wp_http_resume(cc);
}

/* The stream's next part from a response; anything but another part
 * (204 at the end, a problem) ends the stream. */
static void
sse_take(struct sse *s, struct wp_response *res)
{
	free(s->buf);
	s->buf = NULL;
	s->len = s->off = 0;
	if (res->status != 200 || !res->stream) {
		s->done = 1;
		return;
	}
	s->buf = res->body;
	s->len = res->body_len;
	res->body = NULL;
	s->key = res->wait_game;
	s->gen = res->wait_gen;
	s->beat_ns = res->wait_until_ns;
	s->event_id = res->event_id;
}

/* Serves the request again from the last event id sent. */
static void
sse_next(struct conn_ctx *cc)
{
	static char last_event_id[] = "Last-Event-ID";
	struct wp_request *req = cc->req;
	struct wp_response res = {0};
	size_t i;

	snprintf(cc->sse->last_id, sizeof(cc->sse->last_id), "%lld",
	         (long long)cc->sse->event_id);
	for (i = 0; i < req->nheaders && strcasecmp(req->headers[i].name, "Last-Event-ID"); i++)
		;
	if (i == req->nheaders) {
		if (i == WP_MAX_HEADERS) {
			cc->sse->done = 1;
			return;
		}
		req->headers[i].name = last_event_id;
		req->nheaders++;
	}
	req->headers[i].value = cc->sse->last_id;
	req->can_wait = 0;
	req->can_stream = !wp_wait_stopping();
	req->again = 1;
	wp_serve(req, &res);
	sse_take(cc->sse, &res);
	wp_response_free(&res);
}

static ssize_t
sse_read(void *cls, uint64_t pos, char *out, size_t max)
{
	struct conn_ctx *cc = cls;
	struct sse *s = cc->sse;
	int64_t now = wp_now_ns();

	(void)pos;
	if (s->off == s->len && !s->done && __atomic_exchange_n(&s->woken, 0, __ATOMIC_ACQ_REL)) {
		if (cc->waiter.gone)
			return MHD_CONTENT_READER_END_WITH_ERROR; /* its client left */
		if (now >= s->end_ns || wp_wait_stopping())
			s->done = 1;
		else
			sse_next(cc);
	}
	if (s->off < s->len) {
		size_t n = s->len - s->off < max ? s->len - s->off : max;
		memcpy(out, s->buf + s->off, n);
		s->off += n;
		return (ssize_t)n;
	}
	if (s->done || now >= s->end_ns || wp_wait_stopping())
		return MHD_CONTENT_READER_END_OF_STREAM;
	/* Nothing to send: wait for a change, the heartbeat or the end. */
	cc->waiter = (struct wp_waiter){.game = s->key, .gen_seen = s->gen,
	                                .deadline_ns = s->beat_ns < s->end_ns ? s->beat_ns : s->end_ns,
	                                .wake = sse_wake, .arg = cc, .fd = s->fd,
	                                .watch_fd = s->fd >= 0};
	MHD_suspend_connection(cc->conn);
	wp_wait_add(&cc->waiter);
	return 0;
}

enum MHD_Result
wp_http_sse_start(struct MHD_Connection *c, struct conn_ctx *cc, struct wp_response *res)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	cc->sse = calloc(1, sizeof(*cc->sse));
	if (!cc->sse) {
		wp_response_free(res);
		return MHD_NO;
	}
	cc->conn = c;
	cc->sse->fd = socket_of(c);
	__atomic_add_fetch(&cc->http->streams, 1, __ATOMIC_RELAXED);
	cc->sse->end_ns = wp_now_ns() + WP_STREAM_LIFETIME_NS;
	sse_take(cc->sse, res);
	r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, sse_read, cc, NULL);
	if (!r) {
		wp_response_free(res);
		return MHD_NO;
	}
	for (size_t i = 0; i < res->nheaders; i++)
		MHD_add_response_header(r, res->headers[i].name, res->headers[i].value);
	ret = MHD_queue_response(c, 200, r);
	MHD_destroy_response(r);
	wp_response_free(res);
	return ret;
}

void
wp_http_held_end(struct conn_ctx *cc)
{
	wp_wait_remove(&cc->waiter);
	if (cc->sse) {
		free(cc->sse->buf);
		__atomic_sub_fetch(&cc->http->streams, 1, __ATOMIC_RELAXED);
	}
	free(cc->sse);
	cc->sse = NULL;
	if (cc->parked) {
		struct wp_request req;
		unpark_into(cc->parked, &req);
		cc->parked = NULL;
		__atomic_sub_fetch(&cc->http->inflight, 1, __ATOMIC_RELAXED);
		req.nheaders = 0; /* borrowed from libmicrohttpd (http.c, add_header) */
		wp_request_free(&req);
	}
}
