/*
 * Warpost service core: the transport-free request/response model.
 *
 * Fronts (libmicrohttpd, FastCGI, CGI) translate their own request into a
 * struct wp_request, call wp_serve(), and write the struct wp_response back.
 * No front type crosses this header, so the core is tested without sockets.
 */
#ifndef WP_H
#define WP_H

#include <stddef.h>
#include <stdint.h>

#define WP_VERSION "0.1.0"
/* Retry-After of every 503, in seconds (RFC 9110, 10.2.3). */
#define WP_RETRY_AFTER "1"
/* Retry-After of a 503 overloaded: give the queue time to drain. */
#define WP_OVERLOAD_RETRY_AFTER "5"

/* Errors are values, and each value is one RFC 9457 problem type: the
 * table in problem.c gives its slug (urn:warpost:problem:<slug>), HTTP
 * status and title, and is the only list of slugs in the program
 * (tests/unit/test_problems.c checks srv/openapi.json and web/api.js
 * against it). */
enum wp_err {
	WP_OK = 0,
	WP_ERR_NOT_FOUND,          /* 404: no such route or file */
	WP_ERR_GAME_NOT_FOUND,     /* 404: no such match */
	WP_ERR_METHOD,             /* 405: route exists, method does not */
	WP_ERR_TOO_LARGE,          /* 413: body over the cap */
	WP_ERR_MALFORMED_JSON,     /* 400: body is not one strict JSON value */
	WP_ERR_MEDIA_TYPE,         /* 415: body is not application/json */
	WP_ERR_INVALID,            /* 400: a field has the wrong type or range */
	WP_ERR_BAD_FRAMING,        /* 400: the message's length is ambiguous */
	WP_ERR_BAD_PATH,           /* 400: undecodable or NUL in the path */
	WP_ERR_UNAUTHORIZED,       /* 401: no or unknown bearer token */
	WP_ERR_FORBIDDEN,          /* 403 */
	WP_ERR_NOT_A_PLAYER,       /* 403: no seat in the match */
	WP_ERR_INVALID_INVITATION, /* 403 */
	WP_ERR_INVITATION_USED,    /* 409 */
	WP_ERR_ALREADY_SEATED,     /* 409 */
	WP_ERR_GAME_NOT_OPEN,      /* 409 */
	WP_ERR_GAME_NOT_STARTED,   /* 409 */
	WP_ERR_GAME_OVER,          /* 409 */
	WP_ERR_GAME_UNDER_WAY,     /* 409: abort after the first turn */
	WP_ERR_GAME_NOT_OVER,      /* 409: export before the end */
	WP_ERR_STALE_SEQUENCE,     /* 409 */
	WP_ERR_NOT_AWAITED,        /* 409 */
	WP_ERR_NOT_IN_PLAY,        /* 409 */
	WP_ERR_DRAW_ALREADY_OFFERED, /* 409 */
	WP_ERR_NO_DRAW_OFFER,      /* 409 */
	WP_ERR_UNDO_NOT_ALLOWED,   /* 409: nothing the seat may take back (issue 14) */
	WP_ERR_UNKNOWN_RULESET,    /* 422 */
	WP_ERR_INVALID_OPTION,     /* 422 */
	WP_ERR_ILLEGAL_ACTION,     /* 422 */
	WP_ERR_INVALID_ORDERS,     /* 422 */
	WP_ERR_IDEMPOTENCY_KEY_REUSED, /* 422 */
	WP_ERR_IDEMPOTENCY_KEY_IN_USE, /* 409: its first request runs, or its outcome is unknown */
	WP_ERR_RATE_LIMITED,       /* 429: a rate limit (ratelimit.h), with Retry-After */
	WP_ERR_TOO_MANY_OPEN_MATCHES, /* 409: MAX_OPEN_MATCHES unfinished matches */
	WP_ERR_DB_UNAVAILABLE,     /* 503: the database does not answer */
	WP_ERR_OVERLOADED,         /* 503: waited too long to be served */
	WP_ERR_INTERNAL,           /* 500 */
	WP_ERR_TIME_EXPIRED,          /* 409: the seat's time ran out */
	WP_ERR_TIME_NOT_EXPIRED,      /* 409: a claim on time too early */
	WP_ERR_VACATION_UNAVAILABLE,  /* 409: on vacation already, or too few days */
	WP_ERR_NOT_IMPLEMENTED,       /* 501: not in this build (board.png without librsvg) */
	WP_ERR_TARGET_REFUSED,        /* 422: a webhook target this server will not call */
	WP_ERR_CHALLENGE_NOT_FOUND,   /* 404: no such open challenge (issue 28) */
	WP_ERR_CHALLENGE_CLOSED,      /* 409: cancelled, expired or started */
	WP_ERR_RATING_OUT_OF_RANGE,   /* 403: outside the challenge's rating range */
	WP_ERR_INVALID_CODE,          /* 403: a sign-in code unknown, used or expired (issue 28) */
	WP_ERR_TOURNAMENT_NOT_FOUND,  /* 404: no such tournament (issue 29) */
	WP_ERR_TOURNAMENT_CLOSED,     /* 409: full, started or over, or not yet startable */
	/* Answered only by the shipped nginx configuration (nginx/), listed
	 * here so that the one table names every problem type. */
	WP_ERR_PRECONDITION_FAILED,   /* 412 */
	WP_ERR_URI_TOO_LONG,          /* 414 */
	WP_ERR_HEADER_TOO_LARGE,      /* 431 */
	WP_ERR_BAD_GATEWAY,           /* 502 */
	WP_ERR_GATEWAY_TIMEOUT,       /* 504 */
	WP_ERR_MAX
};

/* The problem type's title, slug and HTTP status. */
const char *wp_strerror(enum wp_err err);
const char *wp_err_slug(enum wp_err err);
int wp_err_status(enum wp_err err);

struct wp_header {
	char *name;
	char *value;
};

#define WP_MAX_HEADERS 64

struct wp_request {
	char *method;            /* "GET", ... */
	char *path;              /* raw, still percent-encoded, no query */
	char *query;             /* raw query string without '?', may be "" */
	struct wp_header headers[WP_MAX_HEADERS];
	size_t nheaders;
	char *body;              /* not NUL-terminated */
	size_t body_len;
	int body_too_large;      /* set by the front: the cap was exceeded */
	const char *bad_framing; /* set by the front: why the message is ambiguous */
	char peer[64];
	int64_t start_ns;        /* when the front first saw the request */
	int can_wait;            /* the front can hold the request (long-poll) */
	int64_t wait_until_ns;   /* set once the request has started waiting */
	int again;               /* served again: a woken long-poll, a stream's
	                          * next part (counted once by the rate limits) */
	int can_stream;          /* the front can keep an event stream open (HTTP) */
	/* A front that keeps fixed answers (wp_response.fixed) says whether
	 * it holds the one with this key; NULL: it keeps none. */
	int (*has_fixed)(uint64_t key);
};

struct wp_response {
	int status;
	struct wp_header headers[16];
	size_t nheaders;
	char *body;              /* malloc'd, owned by the response, unless lent */
	size_t body_len;
	/* Set: body is lent (a static file kept in memory), not owned; its
	 * bytes stay valid until lent_put(lent), which wp_response_free calls
	 * instead of free(body). A front that sends them later takes both. */
	void (*lent_put)(void *lent);
	void *lent;
	/* status 0 and wait_game set: no answer yet; the front holds the
	 * request until wp_wait wakes it (or wait_until_ns), then serves it
	 * again. */
	int64_t wait_game;
	uint64_t wait_gen;
	int64_t wait_until_ns;
	/* An event stream (only when the request can_stream): the body is its
	 * first part; the front keeps the answer open, waits on wait_game
	 * (wait_gen) and serves the request again with Last-Event-ID set to
	 * event_id for the next part. A 204 from a later serve ends it. */
	int stream;
	int64_t event_id;
	/* Nonzero: every request given this key gets this same answer (a
	 * static file's representation: status, headers and body), which a
	 * front may keep and queue again without making it. When the
	 * request's has_fixed(key) says the front holds it, only status and
	 * fixed are set. */
	uint64_t fixed;
};

/* Deadlines on the database, in milliseconds (issue 16, item 2). */
struct wp_db_limits {
	unsigned statement_ms;   /* DB_STATEMENT_TIMEOUT_MS: statement_timeout */
	unsigned lock_ms;        /* DB_LOCK_TIMEOUT_MS: lock_timeout */
	unsigned connect_ms;     /* DB_CONNECT_TIMEOUT_MS */
	unsigned pool_wait_ms;   /* DB_POOL_WAIT_MS: for a free connection, then 503 */
	unsigned check_ms;       /* DB_CHECK_TIMEOUT_MS: the health check */
};

/* Rate limits (issue 16, item 4): each class is a token bucket per key
 * of n requests, refilled evenly over per_s seconds; n == 0: no limit. */
enum wp_rate_class {
	WP_RATE_REQUESTS,        /* RATE_LIMIT_REQUESTS: every API request, per IP */
	WP_RATE_PLAYERS,         /* RATE_LIMIT_PLAYERS: players created, per IP */
	WP_RATE_GAMES,           /* RATE_LIMIT_GAMES: matches created, per token */
	WP_RATE_WRITES,          /* RATE_LIMIT_WRITES: joins and posts, per token */
	WP_RATE_ACCOUNT,         /* RATE_LIMIT_ACCOUNT: sign-in codes made (per token), codes
	                          * tried and recoveries asked (per IP) */
	WP_RATE_MAX
};
struct wp_rate {
	unsigned n, per_s;
};

/* Service-wide settings read once at start (config.c). */
struct wp_config {
	const char *database_url;
	/* A connection that is not pooled (DATABASE_DIRECT_URL, default
	 * database_url): LISTEN and the migrations' session advisory lock need
	 * a session of their own, which PgBouncer's transaction mode does not
	 * give. */
	const char *direct_url;
	const char *bind_addr;
	unsigned port;
	const char *web_root;
	const char *migrations_dir;
	const char *fcgi_socket;
	size_t max_body;
	unsigned max_connections;
	unsigned connection_timeout;
	unsigned threads;
	/* EVENT_LOOPS: N, the event-loop front (front/http_loop.c; by
	 * default one loop a core); 0, the THREADS pool. */
	unsigned event_loops;
	size_t connection_memory;
	unsigned db_pool_size;
	/* METRICS_TOKEN: when set, /metrics needs it as a bearer token. */
	const char *metrics_token;
	/* Vacations (match/clock.h): one day earned per VACATION_EVERY_DAYS,
	 * at most VACATION_MAX_DAYS in hand. */
	unsigned vacation_every_days, vacation_max_days;
	/* VACATION_START_DAYS: days a new account holds (issue 30 item 10). */
	unsigned vacation_start_days;
	struct wp_db_limits db;
	struct wp_rate rate[WP_RATE_MAX];
	unsigned max_open_matches;   /* MAX_OPEN_MATCHES; 0: no cap */
	int trust_forwarded_for;     /* TRUST_X_FORWARDED_FOR */
	/* board.png (issue 24, items 1 and 5): RENDER_TIMEOUT_MS for the
	 * renderer process's answer, RENDER_PRESTART (1: the renderer starts
	 * with the server; 0: at the first image), PNG_CACHE_BYTES of
	 * rendered images kept, PNG_RENDER_COST requests of
	 * RATE_LIMIT_REQUESTS a render counts. */
	unsigned render_timeout_ms;
	int render_prestart;
	size_t png_cache_bytes;
	unsigned png_render_cost;
	/* Notifications (issue 14; README "Notifications"). */
	const char *public_url;          /* PUBLIC_URL: links in notifications */
	int webhook_allow_private;       /* WEBHOOK_ALLOW_PRIVATE: loopback and private targets */
	unsigned webhook_retry_base_ms, webhook_retry_max_ms, webhook_max_attempts;
	unsigned webhook_timeout;        /* seconds per attempt */
	unsigned notify_poll_ms;         /* the worker looks at least this often */
	const char *smtp_url, *smtp_from;
	unsigned digest_period;          /* seconds: at most one digest per player */
	/* PER_IP_CONNECTIONS: most HTTP connections from one address (0: no
	 * limit); REQUEST_TIMEOUT: seconds a request may take to arrive
	 * whole; FCGI_QUEUE_TIMEOUT: seconds a FastCGI request may wait
	 * before it is answered 503 unworked. */
	unsigned per_ip_connections;
	unsigned request_timeout;
	unsigned fcgi_queue_timeout;
	/* Ratings (issue 28; README "Ratings"): Glicko-2's system constant
	 * (RATING_TAU), the rating period in seconds (RATING_PERIOD_SECONDS),
	 * bots rated with humans (RATING_MIX_BOTS). */
	double rating_tau;
	unsigned rating_period;
	int rating_mix_bots;
	/* Which of the three were set (bits 1, 2, 4): only those are written
	 * to the database; the others stay as another instance set them. */
	unsigned rating_set;
};

int wp_config_load(struct wp_config *cfg, char *err, size_t errlen);
/* NAME's whole number from MIN to MAX, DEF when unset; -1 and ERR when not. */
int wp_env_u(const char *name, unsigned def, unsigned min, unsigned max, unsigned *out,
             char *err, size_t errlen);

/* The core. wp_core_init() prepares what every request needs (web root,
 * the store); wp_serve() answers one request and never fails: every
 * error becomes a problem+json response. */
struct wp_store;
int wp_core_init(const struct wp_config *cfg, struct wp_store *store);
void wp_core_fini(void);
void wp_serve(const struct wp_request *req, struct wp_response *res);

/* Request and response helpers. */
const char *wp_request_header(const struct wp_request *req, const char *name);
void wp_request_free(struct wp_request *req);
int wp_response_header(struct wp_response *res, const char *name, const char *value);
const char *wp_response_get_header(const struct wp_response *res, const char *name);
void wp_response_free(struct wp_response *res);
int wp_response_json(struct wp_response *res, int status, const char *json_text);
void wp_response_problem(struct wp_response *res, enum wp_err err, const char *detail);
/* The same with extra members (RFC 9457, 3.2), borrowed. */
struct json_object;
void wp_response_problem_ex(struct wp_response *res, enum wp_err err, const char *detail,
                            struct json_object *extra);

/* HTTP status text for a status line ("Not Found"). */
const char *wp_status_text(int status);

/* Monotonic clock in nanoseconds, for request durations. */
int64_t wp_now_ns(void);
/* Issue 32: a wait on a database socket yields to the
 * event loop running the request (front/http_loop.c); NULL otherwise.
 * Returns 1 ready, 0 timed out, -1 failed, -2 not in a loop. */
extern int (*wp_wait_fd_hook)(int fd, short events, int timeout_ms);
/* Runs fn(arg), which may block on something other than the database
 * (the PNG renderer's pipe, the health monitor): in an event loop's
 * coroutine on a thread of the blocking pool (front/http_loop.c) while
 * the loop serves others, elsewhere here. core/message.c */
void wp_blocking(void (*fn)(void *), void *arg);
/* Set by the event-loop front: 0 when it ran fn, -1 when the caller
 * should (not in a coroutine, or no worker could start). */
extern int (*wp_offload_hook)(void (*fn)(void *), void *arg);
/* v in decimal at out (21 bytes at most, NUL included), without printf
 * (issue 32); its length. core/util.c */
size_t wp_i64_text(char *out, int64_t v);

/* One line per request to stderr; errors with context. */
void wp_log_request(const struct wp_request *req, int status);
/* The status logged for a request whose client left before its answer
 * (nginx's own code for it); nothing is sent. */
#define WP_STATUS_CLIENT_LEFT 499
void wp_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A fatal signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGSYS)
 * writes a backtrace to stderr, then takes its former action (a core
 * dump, or a sanitizer's report): core/crash.c. Once, at start. */
void wp_crash_handlers(void);
/* Silences both (fuzzing, where sanitizer reports must stay visible). */
void wp_log_quiet(int on);
/* On an event loop's thread: its access-log lines are held, and written
 * together by wp_log_flush() after each round (core/log.c). */
void wp_log_hold(int on);
void wp_log_flush(void);

#endif
