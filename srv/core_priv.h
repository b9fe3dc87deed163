/* What the files of the core share. Not for fronts. */
#ifndef WP_CORE_PRIV_H
#define WP_CORE_PRIV_H

#include <json-c/json.h>
#include <libpq-fe.h>

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
	int wants_body;          /* body must be application/json and parse */
};

struct wp_route_match {
	const struct wp_route *route;
	char params[WP_MAX_PARAMS][128];
	size_t nparams;
	char allow[96];          /* for 405: "GET, HEAD" */
};

unsigned wp_method_bit(const char *method);
enum wp_err wp_route_match(const struct wp_route *table, size_t n, const char *method,
                           const char *path, struct wp_route_match *m);

/* --- util.c --- */
/* Decodes %XX in place semantics into out (cap bytes, NUL-terminated).
 * Fails on bad escapes, on %00 and when the result does not fit. */
int wp_percent_decode(const char *in, char *out, size_t cap);
/* The value of one query parameter, decoded; 0 when absent. */
int wp_query_param(const char *query, const char *name, char *out, size_t cap);
int wp_media_type_is(const char *content_type, const char *type);

/* --- json.c --- */
/* Strict parse of a whole body: one value, UTF-8, bounded depth, only
 * trailing whitespace allowed. Returns NULL and a reason on failure. */
json_object *wp_json_parse(const char *buf, size_t len, char *why, size_t whylen);
#define WP_JSON_MAX_DEPTH 64

/* --- store.c --- */
struct wp_store;
struct wp_store *wp_store_open(const char *conninfo, unsigned pool_size);
void wp_store_close(struct wp_store *st);
/* Borrow a live connection (reconnecting when needed); NULL when the
 * database does not answer. Give it back with wp_store_put(). */
PGconn *wp_store_get(struct wp_store *st);
void wp_store_put(struct wp_store *st, PGconn *conn);
int wp_store_ping(struct wp_store *st);

/* Every statement the service runs, prepared on each new connection
 * (store.c holds the SQL). Only parameters, never SQL built from text. */
enum wp_stmt {
	WP_STMT_PLAYER_INSERT,
	WP_STMT_PLAYER_BY_TOKEN,
	WP_STMT_MAX
};
/* Runs a prepared statement; text parameters unless lengths are given
 * (then binary). The caller PQclear()s the result. */
PGresult *wp_store_exec(PGconn *conn, enum wp_stmt stmt, int nparams,
                        const char *const *values, const int *lengths);
/* 1 when a failed result means the database went away (503, not 500). */
int wp_store_lost(PGconn *conn);
int wp_migrate(const char *conninfo, const char *dir, char *err, size_t errlen);

/* --- static.c --- */
int wp_static_init(const char *web_root);
void wp_static_fini(void);
enum wp_err wp_static_serve(const struct wp_request *req, const char *decoded_path,
                            struct wp_response *res);
const char *wp_mime_type(const char *path);

/* --- core.c: what a handler sees --- */
struct wp_ctx {
	const struct wp_request *req;
	struct wp_response *res;
	const struct wp_route_match *match;
	json_object *body;       /* parsed body when the route wants one */
	struct wp_store *store;
	char detail[256];        /* detail for the problem when a handler fails */
};

/* Replies with a JSON document; takes ownership of obj. */
enum wp_err wp_reply_json(struct wp_ctx *ctx, int status, json_object *take_obj);
enum wp_err wp_fail(struct wp_ctx *ctx, enum wp_err err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* --- api_*.c --- */
enum wp_err wp_api_health(struct wp_ctx *ctx);
enum wp_err wp_api_players_create(struct wp_ctx *ctx);
enum wp_err wp_api_me(struct wp_ctx *ctx);

/* --- auth.c --- */
struct wp_player {
	int64_t id;
	char name[161];          /* up to 40 characters of UTF-8 */
};
/* Resolves the bearer token to a player; WP_ERR_UNAUTHORIZED when absent
 * or unknown. */
enum wp_err wp_auth_player(struct wp_ctx *ctx, PGconn *conn, struct wp_player *who);
int wp_token_new(char hex[65], unsigned char hash[32]);
void wp_token_hash(const char *hex, unsigned char hash[32]);

#endif
