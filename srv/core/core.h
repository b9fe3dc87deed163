/* The request core, for the files of the core and for the handlers it
 * calls: routing, request parsing helpers, what a handler sees (struct
 * wp_ctx) and how it answers, and the metrics counters. No front type
 * and no database type here. */
#ifndef WP_CORE_H
#define WP_CORE_H

#include <json-c/json.h>

#include "wp.h"

/* --- router.c --- */
enum wp_method {
	WP_GET = 1 << 0,
	WP_HEAD = 1 << 1,
	WP_POST = 1 << 2,
	WP_PUT = 1 << 3,
	WP_DELETE = 1 << 4,
	WP_PATCH = 1 << 5,
	WP_OPTIONS = 1 << 6
};

#define WP_MAX_PARAMS 4

struct wp_ctx;
typedef enum wp_err (*wp_handler)(struct wp_ctx *ctx);

struct wp_route {
	unsigned methods;        /* mask of enum wp_method */
	const char *pattern;     /* "/api/games/{id}/turns": {x} takes one segment */
	wp_handler handler;
	int wants_body;          /* WP_BODY_*: the body must be application/json */
};

#define WP_BODY_NONE 0
#define WP_BODY_JSON 1       /* required */
#define WP_BODY_OPTIONAL 2   /* JSON when there is one */
#define WP_BODY_ANY 3        /* any body of any type, never read (a mail client's one-click form) */

struct wp_route_match {
	const struct wp_route *route;
	char params[WP_MAX_PARAMS][128];
	size_t nparams;
	char allow[96];          /* for 405: "GET, HEAD" */
};

unsigned wp_method_bit(const char *method);
enum wp_err wp_route_match(const struct wp_route *table, size_t n, const char *method,
                           const char *path, struct wp_route_match *m);

/* The API's route table (api/routes.c) and the /metrics answer. */
const struct wp_route *wp_api_routes(size_t *n);
enum wp_err wp_api_metrics(struct wp_ctx *ctx);

/* --- util.c --- */
/* Decodes %XX in place semantics into out (cap bytes, NUL-terminated).
 * Fails on bad escapes, on %00 and when the result does not fit. */
int wp_percent_decode(const char *in, char *out, size_t cap);
/* The same for a request path; -2 for an encoded '/' or '\\'. */
int wp_path_decode(const char *in, char *out, size_t cap);
/* The value of one query parameter, decoded; 0 when absent. */
int wp_query_param(const char *query, const char *name, char *out, size_t cap);
int wp_media_type_is(const char *content_type, const char *type);

/* --- json.c --- */
/* Once on each thread that parses JSON, before its first parse: json-c's
 * parses then take no process-wide locale lock (json.c). */
void wp_json_thread_init(void);
/* Strict parse of a whole body: one value, UTF-8, bounded depth, only
 * trailing whitespace allowed. 0 and *out (NULL for the value null), or
 * -1 and a reason. */
int wp_json_parse(const char *buf, size_t len, json_object **out, char *why, size_t whylen);
#define WP_JSON_MAX_DEPTH 64
/* 1 when a string value holds a NUL, and the key of the nearest member
 * ("" when none), else 0. */
int wp_json_find_nul(json_object *o, const char **key);
/* json_object_to_json_string_ext(o, flags), the same text, written faster
 * for JSON_C_TO_STRING_PLAIN with or without NOSLASHESCAPE: kept with o
 * until o is freed or written again (as o's user data: json-c's
 * json_object_deep_copy() refuses to copy o after it). NULL when out of
 * memory. */
const char *wp_json_text(json_object *o, int flags);

/* --- static.c --- */
int wp_static_init(const char *web_root);
void wp_static_fini(void);
enum wp_err wp_static_serve(const struct wp_request *req, const char *decoded_path,
                            struct wp_response *res);
const char *wp_mime_type(const char *path);

/* --- core.c: what a handler sees --- */
struct wp_store;
struct wp_ctx {
	const struct wp_request *req;
	struct wp_response *res;
	const struct wp_route_match *match;
	json_object *body;       /* parsed body when the route wants one */
	struct wp_store *store;  /* opaque: handlers call the typed store */
	char detail[256];        /* detail for the problem when a handler fails */
	json_object *extra;      /* extra problem members, owned, or NULL */
	struct wp_write *write;  /* api/write.c: how a post is written, or NULL */
	/* api/auth.c: the bearer token's hash, made once a request (issue
	 * 32: the rate limit and the handler both read it). 0: not yet;
	 * 1: no token; 2: token_hash holds it. */
	int token_known;
	unsigned char token_hash[32];
};

/* Replies with a JSON document; takes ownership of obj. */
enum wp_err wp_reply_json(struct wp_ctx *ctx, int status, json_object *take_obj);
/* Fails with a problem type and its detail; returns err. */
enum wp_err wp_fail(struct wp_ctx *ctx, enum wp_err err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Adds a member to the problem (takes the value). */
void wp_fail_extra(struct wp_ctx *ctx, const char *key, json_object *take_val);

/* --- metrics.c --- */
enum wp_metric {
	WP_METRIC_DB_QUERIES,
	WP_METRIC_DB_ROWS,
	WP_METRIC_CHANGES_TOLD,          /* NOTIFY wp_game (store/tell.c) */
	WP_METRIC_TELL_STATEMENTS,
	WP_METRIC_TOKEN_LOOKUPS,         /* players read by token (store/players.c) */
	WP_METRIC_RULES_LOADS,
	WP_METRIC_RULES_APPLIES,
	WP_METRIC_LONGPOLLS,
	WP_METRIC_WEBHOOK_ATTEMPTS,      /* notifications (issue 14) */
	WP_METRIC_WEBHOOK_DELIVERED,
	WP_METRIC_WEBHOOK_FAILED,
	WP_METRIC_DIGESTS_SENT,
	WP_METRIC_TIME_WARNING_SCANS,    /* "time running out" (notify/warn.c) */
	WP_METRIC_TIME_WARNINGS,
	WP_METRIC_TIME_WARNING_SCAN_CLOCK,  /* a gauge: "now" of the last scan */
	WP_METRIC_PNG_RENDERS,           /* board.png (api/png_render.c, issue 24) */
	WP_METRIC_PNG_CACHE_HITS,
	WP_METRIC_RENDERER_FAILURES,
	WP_METRIC_SWEEPS,                /* retention (notify/sweep.c) */
	WP_METRIC_ROWS_SWEPT,
	WP_METRIC_BOT_LOOKUPS,           /* the bot worker's queries of one match heard of */
	WP_METRIC_DB_POOL_WAITS,         /* requests that waited for a pooled connection */
	WP_METRIC_MAX
};
void wp_metric_add(enum wp_metric m, uint64_t n);
void wp_metric_set(enum wp_metric m, uint64_t v);   /* gauges */
void wp_metric_status(int status);
/* The counters in Prometheus text format 0.0.4, into buf. */
size_t wp_metrics_text(char *buf, size_t cap);

#endif
