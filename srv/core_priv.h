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
	int wants_body;          /* WP_BODY_*: the body must be application/json */
};

#define WP_BODY_NONE 0
#define WP_BODY_JSON 1       /* required */
#define WP_BODY_OPTIONAL 2   /* JSON when there is one */

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
 * trailing whitespace allowed. 0 and *out (NULL for the value null), or
 * -1 and a reason. */
int wp_json_parse(const char *buf, size_t len, json_object **out, char *why, size_t whylen);
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
	WP_STMT_GAME_INSERT,
	WP_STMT_SEAT_INSERT,
	WP_STMT_GAME_GET,
	WP_STMT_GAME_LOCK,
	WP_STMT_GAME_HEAD,
	WP_STMT_SEATS_GET,
	WP_STMT_SEAT_BY_INVITE,
	WP_STMT_SEAT_JOIN,
	WP_STMT_GAME_UPDATE,
	WP_STMT_GAME_BUMP,
	WP_STMT_POST_INSERT,
	WP_STMT_POSTS_PAGE,
	WP_STMT_POSTS_ALL,
	WP_STMT_IDEM_GET,
	WP_STMT_IDEM_PUT,
	WP_STMT_NOTIFY,
	WP_STMT_ME_GAMES,
	WP_STMT_HAS_TURN,
	WP_STMT_ME_GAMES_COUNT,
	WP_STMT_POSTS_SINCE_MOVES,
	WP_STMT_MAX
};
/* Runs a prepared statement; text parameters unless lengths are given
 * (then binary). The caller PQclear()s the result. */
PGresult *wp_store_exec(PGconn *conn, enum wp_stmt stmt, int nparams,
                        const char *const *values, const int *lengths);
/* Runs a plain command (BEGIN, COMMIT, ROLLBACK); 0 on success. */
int wp_store_cmd(PGconn *conn, const char *sql);
/* bytea in text form ("\\x0a1b...") to bytes; returns the length or -1. */
long wp_bytea_decode(const char *text, unsigned char *out, size_t cap);
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
	const char *slug;        /* a more specific problem type, or NULL */
	json_object *extra;      /* extra problem members, owned, or NULL */
};

/* Replies with a JSON document; takes ownership of obj. */
enum wp_err wp_reply_json(struct wp_ctx *ctx, int status, json_object *take_obj);
enum wp_err wp_fail(struct wp_ctx *ctx, enum wp_err err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same with a specific problem type slug (a string literal). */
enum wp_err wp_fail_as(struct wp_ctx *ctx, enum wp_err err, const char *slug,
                       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Adds a member to the problem (takes the value). */
void wp_fail_extra(struct wp_ctx *ctx, const char *key, json_object *take_val);

/* --- api_*.c --- */
enum wp_err wp_api_health(struct wp_ctx *ctx);
enum wp_err wp_api_players_create(struct wp_ctx *ctx);
enum wp_err wp_api_me(struct wp_ctx *ctx);
enum wp_err wp_api_rulesets(struct wp_ctx *ctx);
enum wp_err wp_api_openapi(struct wp_ctx *ctx);
enum wp_err wp_api_games_create(struct wp_ctx *ctx);
enum wp_err wp_api_games_join(struct wp_ctx *ctx);
enum wp_err wp_api_games_get(struct wp_ctx *ctx);
enum wp_err wp_api_games_actions(struct wp_ctx *ctx);
enum wp_err wp_api_games_turn(struct wp_ctx *ctx);
enum wp_err wp_api_games_posts(struct wp_ctx *ctx);
enum wp_err wp_api_games_orders(struct wp_ctx *ctx);
enum wp_err wp_api_games_resign(struct wp_ctx *ctx);
enum wp_err wp_api_games_draw(struct wp_ctx *ctx);
enum wp_err wp_api_games_abort(struct wp_ctx *ctx);
enum wp_err wp_api_games_export(struct wp_ctx *ctx);
enum wp_err wp_api_games_verify(struct wp_ctx *ctx);
enum wp_err wp_api_me_games(struct wp_ctx *ctx);

/* --- metrics.c --- */
enum wp_metric {
	WP_METRIC_DB_QUERIES,
	WP_METRIC_DB_ROWS,
	WP_METRIC_RULES_LOADS,
	WP_METRIC_RULES_APPLIES,
	WP_METRIC_LONGPOLLS,
	WP_METRIC_MAX
};
void wp_metric_add(enum wp_metric m, uint64_t n);
void wp_metric_status(int status);
enum wp_err wp_api_metrics(struct wp_ctx *ctx);

/* --- auth.c --- */
struct wp_player {
	int64_t id;
	char name[161];          /* up to 40 characters of UTF-8 */
};
/* Resolves the bearer token to a player; WP_ERR_UNAUTHORIZED when absent
 * or unknown. */
enum wp_err wp_auth_player(struct wp_ctx *ctx, PGconn *conn, struct wp_player *who);
/* The bearer token's hash when the request has one (*present); an error
 * only for an Authorization header that is not a bearer token. */
enum wp_err wp_auth_token(struct wp_ctx *ctx, unsigned char hash[32], int *present);
/* The 401 for a well-formed token nobody holds. */
enum wp_err wp_auth_unknown(struct wp_ctx *ctx);
int wp_token_new(char hex[65], unsigned char hash[32]);
void wp_token_hash(const char *hex, unsigned char hash[32]);

#endif
