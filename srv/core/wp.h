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
	WP_ERR_DB_UNAVAILABLE,     /* 503: the database does not answer */
	WP_ERR_INTERNAL,           /* 500 */
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
};

struct wp_response {
	int status;
	struct wp_header headers[16];
	size_t nheaders;
	char *body;              /* malloc'd, owned by the response */
	size_t body_len;
	/* status 0 and wait_game set: no answer yet; the front holds the
	 * request until wp_wait wakes it (or wait_until_ns), then serves it
	 * again. */
	int64_t wait_game;
	uint64_t wait_gen;
	int64_t wait_until_ns;
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
	size_t connection_memory;
	unsigned db_pool_size;
	/* METRICS_TOKEN: when set, /metrics needs it as a bearer token. */
	const char *metrics_token;
};

int wp_config_load(struct wp_config *cfg, char *err, size_t errlen);

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

/* One line per request to stderr; errors with context. */
void wp_log_request(const struct wp_request *req, int status);
void wp_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Silences both (fuzzing, where sanitizer reports must stay visible). */
void wp_log_quiet(int on);

#endif
