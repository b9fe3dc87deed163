/* Private to the libmicrohttpd front: what http.c (request handling)
 * shares with http_conn.c (a connection beyond one call of the handler:
 * its request clock, and the requests held open and watched for their
 * client hanging up). http.c calls into http_conn.c, never the reverse. */
#ifndef WP_HTTP_CONN_H
#define WP_HTTP_CONN_H

#include <pthread.h>
#include <stdint.h>
#include <sys/socket.h>

#include <microhttpd.h>

#include "wait.h"
#include "wp.h"

struct conn_clock;

struct wp_http {
	struct MHD_Daemon *daemon;
	/* EVENT_LOOPS event loops (issue 32), each a daemon. */
	unsigned nloops;
	struct http_loop *loops;
	int loops_stop;
	/* Shutdown: each loop quiesces its own daemon (loops_quiesce set),
	 * then counts itself in loops_quiesced. */
	int loops_quiesce;
	unsigned loops_quiesced;
	unsigned per_ip;         /* PER_IP_CONNECTIONS, counted by the front (loops) */
	size_t max_body;
	unsigned inflight;       /* requests between first call and completion */
	unsigned streams, max_streams; /* event streams kept open, and their cap */
	/* The request deadline (http_conn.c, "Slow requests"). */
	int64_t request_timeout_ns;
	pthread_mutex_t clocks_lock;
	struct conn_clock *clocks;
	pthread_t watchdog;
	pthread_mutex_t stop_lock;
	pthread_cond_t stop_cv;
	int stopping;
};

struct parked;
struct sse;

struct conn_ctx {
	/* The request; NULL while a long-poll waits, its fields then in
	 * parked (http_conn.c, park()). */
	struct wp_request *req;
	struct parked *parked;
	struct wp_http *http;
	const char *raw_uri;     /* the request target as libmicrohttpd split it */
	size_t raw_uri_len;
	size_t cap;              /* allocated bytes of req.body */
	size_t discarded;        /* body bytes dropped after the cap */
	struct MHD_Connection *conn;
	struct wp_waiter waiter; /* while suspended: a long-poll, a stream */
	struct sse *sse;         /* an event stream kept open, or NULL */
	/* EVENT_LOOPS (issue 32): wp_serve() running in a
	 * coroutine (1), or ended with its answer in co_res (2). */
	int co_state;
	struct wp_response co_res;
	int wake_fd;             /* its loop's eventfd, or -1 (0 unset) */
};

/* Resumes cc's suspended connection from any thread, and wakes the loop
 * that runs it (libmicrohttpd's own signal does not, in external epoll
 * mode). */
void wp_http_resume(struct conn_ctx *cc);

/* The request clock of each connection and the watchdog that cuts a
 * request slower than REQUEST_TIMEOUT. */
int wp_http_watchdog_start(struct wp_http *h, unsigned timeout_sec);
void wp_http_watchdog_stop(struct wp_http *h);
/* A request's parts (http_request.c). The framing problem RFC 9112 calls
 * ambiguous, or NULL; the query string as received (NULL without
 * memory), which the caller frees; the peer's address as text into out;
 * the headers, borrowed into req (libmicrohttpd keeps them until the
 * request completes). */
const char *wp_http_framing_problem(const struct wp_request *req);
char *wp_http_query(struct MHD_Connection *c);
void wp_http_peer(struct MHD_Connection *c, char *out, size_t cap);
void wp_http_headers(struct MHD_Connection *c, struct wp_request *req);

/* The accept policy of the event loops (cls: the struct wp_http): refuses
 * an address past PER_IP_CONNECTIONS across all loops. */
enum MHD_Result wp_http_accept_policy(void *cls, const struct sockaddr *addr, socklen_t addrlen);
/* MHD_OPTION_NOTIFY_CONNECTION's callback (cls: the struct wp_http). */
void wp_http_on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                           enum MHD_ConnectionNotificationCode code);
/* Sets the connection's request clock: > 0 receiving a request since
 * then, < 0 answered at -since_ns, 0 answering or waiting. */
void wp_http_clock_set(struct MHD_Connection *c, int64_t since_ns);

/* Suspends the connection until res's wait ends (a long-poll). */
void wp_http_suspend_for(struct MHD_Connection *c, struct conn_ctx *cc,
                         const struct wp_response *res);
/* Makes a waiting long-poll's request whole again; -1 without memory. */
int wp_http_unpark(struct conn_ctx *cc);
/* Starts the event stream whose first part res is (res is freed). */
enum MHD_Result wp_http_sse_start(struct MHD_Connection *c, struct conn_ctx *cc,
                                  struct wp_response *res);
/* At completion: stops the wait, frees the stream and a request still
 * parked (the caller frees cc->req when it is not NULL). */
void wp_http_held_end(struct conn_ctx *cc);

/* http_fixed.c: libmicrohttpd's response for a core answer (the body
 * handed over), and the fixed answers (issue 17, static files): a
 * request begins (nothing has_fixed said holds for it); whether this
 * key's is held; queue it (kept first if res carries it whole), 0 when
 * it is not held; let them all go at shutdown. */
struct MHD_Response *wp_http_response(struct wp_response *res);
void wp_http_fixed_begin(void);
int wp_http_has_fixed(uint64_t key);
int wp_http_queue_fixed(struct MHD_Connection *c, struct wp_response *res,
                        enum MHD_Result *ret);
void wp_http_fixed_clear(void);

#endif
