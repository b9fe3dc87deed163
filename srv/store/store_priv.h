/* What the store's files share: the statements, their columns in one
 * place, parameters formatted in one place, and running them. */
#ifndef WP_STORE_PRIV_H
#define WP_STORE_PRIV_H

#include <libpq-fe.h>

#include "core.h"
#include "store.h"
#include "notify_sql.h"
#include "bots_sql.h"
#include "challenge_sql.h"
#include "ratings_sql.h"
#include "account_sql.h"
#include "tournament_sql.h"

/* Room for 64 * WP_STMT_WORDS statements (checked below). */
#define WP_STMT_WORDS 4

struct wp_conn {
	PGconn *pg;
	struct wp_store *st;
	unsigned made, taken;    /* the breaker's epoch when connected, when borrowed */
	unsigned renewed;        /* the pool's renew when connected (pool_priv.h) */
	int broken;              /* a deadline passed: never reused */
	int stale;               /* its server is read-only, going away or closed it: never reused */
	int watched;             /* gives up when the breaker trips (pooled ones) */
	/* The statements prepared on this connection, a bit each (enum
	 * wp_stmt): each is prepared on its first use (wp_sql_try). */
	uint64_t prepared[WP_STMT_WORDS];
	/* Matches this connection changed in its current transaction, at
	 * their new versions: forgotten by the cache again when it ends
	 * (cache.c), and told of once it has committed (wp_db_notify). */
	int64_t *touched;
	int *versions;
	int ntouched, cap;
};

/* Every statement the service runs, prepared on a connection when it
 * first runs there (sql.c holds the SQL). Only parameters, never SQL
 * built from text. */
enum wp_stmt {
	WP_STMT_PLAYER_INSERT,
	WP_STMT_PLAYER_BY_TOKEN,
	WP_STMT_PLAYER_LOCK,
	WP_STMT_PLAYER_OPEN_MATCHES,
	WP_STMT_GAME_INSERT,
	WP_STMT_SEAT_INSERT,
	WP_STMT_GAME_GET,
	WP_STMT_GAME_LOCK,
	WP_STMT_SEATS_GET,
	WP_STMT_SEAT_BY_INVITE,
	WP_STMT_SEAT_JOIN,
	WP_STMT_GAME_UPDATE,
	WP_STMT_TURN_WRITE,
	WP_STMT_TURN_WRITE_KEYED,
	WP_STMT_GAME_CURRENT,
	WP_STMT_GAME_BUMP,
	WP_STMT_POST_INSERT,
	WP_STMT_POSTS_PAGE,
	WP_STMT_POSTS_ALL,
	WP_STMT_IDEM_GET,
	WP_STMT_IDEM_PUT,
	WP_STMT_KEYED_CLAIM,
	WP_STMT_KEYED_GET,
	WP_STMT_KEYED_DONE,
	WP_STMT_KEYED_DROP,
	WP_STMT_NOTIFY_MANY,
	WP_STMT_COMMIT,
	WP_STMT_ME_GAMES,
	WP_STMT_HAS_TURN,
	WP_STMT_ME_GAMES_COUNT,
	WP_STMT_POSTS_SINCE_MOVES,
	WP_STMT_CLOCK_INPUT,
	WP_STMT_VACATIONS_OF,
	WP_STMT_VACATION_INSERT,
	WP_STMT_GAME_WATCH_SET,
	WP_STMT_GAMES_WATCHABLE,
	WP_STMT_ME_CHANGES,
	WP_NOTIFY_STMTS
	WP_STMT_POSTS_UNDO,
	WP_STMT_UNDO_TAIL,
	WP_STMT_SNAPSHOT_AT,     /* posts.c, wp_db_snapshot */
	WP_STMT_PAST_ROWS,       /* posts.c, wp_db_past_rows */
	WP_BOT_STMTS             /* bots.c (issue 27) */
	WP_CHALLENGE_STMTS       /* challenges.c (issue 28) */
	WP_RATINGS_STMTS         /* ratings.c (issue 28) */
	WP_ACCOUNT_STMTS         /* tokens.c */
	WP_TOURNAMENT_STMTS      /* tournaments.c (issue 29) */
	WP_STMT_MAX
};
_Static_assert(WP_STMT_MAX <= 64 * WP_STMT_WORDS, "wp_conn.prepared: raise WP_STMT_WORDS");

struct wp_sql {
	const char *name;
	const char *sql;
};
extern const struct wp_sql wp_sql[WP_STMT_MAX];

/* The columns of each SELECT, in order: X(enum name, SQL expression).
 * sql.c builds the select lists from these, the readers index rows with
 * the enums; nothing else knows a column's number. */
#define WP_SQL_TIME(col) "to_char(" col " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"

/* A match read to be kept (GAME_GET) comes with its clock input; one
 * locked for a write (GAME_LOCK) with NULLs there, not read (games.c). */
#define WP_GAME_COLUMNS(X)                                                                       \
	WP_GAME_ROW_COLUMNS(X)                                                                   \
	X(GC_FOLD, WP_SQL_CLOCK_FOLD("games")) X(GC_MARKS, WP_SQL_CLOCK_MARKS("games"))          \
	X(GC_VACATIONS, WP_SQL_CLOCK_VACATIONS("games"))
#define WP_GAME_ROW_COLUMNS(X)                                                                   \
	X(GC_ID, "id") X(GC_RULESET, "ruleset") X(GC_OPTIONS, "options::text")                   \
	X(GC_SEATS, "seats") X(GC_STATUS, "status") X(GC_SEQ, "seq") X(GC_VERSION, "version")    \
	X(GC_STATE, "state::text") X(GC_SEED, "seed") X(GC_COMMITMENT, "commitment")             \
	X(GC_CLIENT, "client_seeds") X(GC_DRAWS, "draws") X(GC_AWAITING, "awaiting")             \
	X(GC_OFFERS, "draw_offers") X(GC_RESULT, "result::text") X(GC_CREATED_BY, "created_by")  \
	X(GC_CREATED_AT, WP_SQL_TIME("created_at")) X(GC_UPDATED_AT, WP_SQL_TIME("updated_at"))  \
	X(GC_TIME_CONTROL, "time_control::text") \
	X(GC_SPECTATORS, "spectators") X(GC_DELAY, "spectator_delay")                           \
	X(GC_RATED, "rated")

#define WP_SEAT_COLUMNS(X)                                                                       \
	X(SC_SEAT, "s.seat") X(SC_PLAYER, "s.player_id") X(SC_NAME, "p.name")                    \
	X(SC_CLIENT_SEED, "s.client_seed") X(SC_BOT, "p.bot")

#define WP_POST_COLUMNS(X)                                                                       \
	X(PC_SEQ, "seq") X(PC_SEAT, "seat") X(PC_KIND, "kind") X(PC_ACTIONS, "actions::text")    \
	X(PC_COMMENT, "comment") X(PC_HIDDEN, "comment_hidden") X(PC_EVENTS, "events::text")     \
	X(PC_ROLLS, "rolls::text") X(PC_AT, WP_SQL_TIME("created_at")) X(PC_DRAWS_FROM, "draws_from")                    \
	X(PC_UNDONE_BY, "undone_by")

#define WP_MY_GAME_COLUMNS(X)                                                                    \
	X(MC_ID, "g.id") X(MC_RULESET, "g.ruleset") X(MC_STATUS, "g.status") X(MC_SEQ, "g.seq")  \
	X(MC_VERSION, "g.version")                                                                \
	X(MC_SEATS, "g.seats") X(MC_SEAT, "s.seat")                                              \
	X(MC_AWAITING_ME, "((g.awaiting >> s.seat) & 1) = 1 AS awaiting_me")                     \
	X(MC_UPDATED_AT, WP_SQL_TIME("g.updated_at")) X(MC_COUNT, "count(*) OVER ()")            \
	X(MC_TIME_CONTROL, "g.time_control::text")                                                \
	X(MC_PLAYERS, "(SELECT json_agg(json_build_object('seat', o.seat, 'player',"           \
	              " CASE WHEN p.id IS NULL THEN NULL"                                       \
	              " ELSE json_build_object('id', p.id, 'name', p.name, 'bot', p.bot) END) ORDER BY o.seat)" \
	              " FROM seats o LEFT JOIN players p ON p.id = o.player_id"                 \
	              " WHERE o.game_id = g.id)::text")                                         \
	X(MC_RESULT, "g.result::text") X(MC_STATE, "CASE WHEN $4::int = 1 THEN g.state::text END") \
	X(MC_FOLD, WP_SQL_CLOCK_FOLD("g")) X(MC_MARKS, WP_SQL_CLOCK_MARKS("g"))                  \
	X(MC_VACATIONS, WP_SQL_CLOCK_VACATIONS("g")) X(MC_RATED, "g.rated")
/* A timed match in play comes with its clock input, as text (clock.c,
 * wp_clock_input_text), not a round trip a match: the row's fold of its
 * posts' clocks (games.clock, sql/023), or each post's time and mark for a
 * row that has none (written before it, or by an instance that did not
 * hold the clocks); the seats' vacations; NULL for the others. */
#define WP_SQL_TIMED(g) "CASE WHEN " g ".time_control IS NOT NULL AND " g ".status = 'active'"
#define WP_SQL_CLOCK_FOLD(g) WP_SQL_TIMED(g) " THEN " g ".clock END"
#define WP_SQL_CLOCK_MARKS(g)                                                                   \
	WP_SQL_TIMED(g) " AND " g ".clock IS NULL THEN " WP_SQL_MARKS_OF(g ".id", g ".seq") " END"
#define WP_SQL_CLOCK_VACATIONS(g) WP_SQL_TIMED(g) " THEN " WP_SQL_VACATIONS_OF(g ".id") " END"
/* The two halves of a clock input as text: each post's time and mark up
 * to a post, and the vacations of the match's players. */
#define WP_SQL_MARKS_OF(id, seq)                                                                \
	"(SELECT string_agg(extract(epoch FROM m.created_at)::bigint"                            \
	" || ':' || coalesce(m.awaiting, 0), ',' ORDER BY m.seq) FROM posts m"                   \
	" WHERE m.game_id = " id " AND m.seq <= " seq ")"
#define WP_SQL_VACATIONS_OF(id)                                                                 \
	"(SELECT string_agg(o.seat || ':' || extract(epoch FROM"                                 \
	" v.starts_at)::bigint || ':' || extract(epoch FROM v.ends_at)::bigint, ','"             \
	" ORDER BY o.seat, v.starts_at) FROM seats o JOIN vacations v"                          \
	" ON v.player_id = o.player_id WHERE o.game_id = " id ")"

#define WP_SNAPSHOT_COLUMNS(X)                                                                   \
	X(NC_SEQ, "s.seq") X(NC_STATE, "s.state::text") X(NC_STATUS, "s.status")                 \
	X(NC_AWAITING, "s.awaiting") X(NC_OFFERS, "s.draw_offers") X(NC_RESULT, "s.result::text") \
	X(NC_AT, WP_SQL_TIME("s.at"))

#define WP_WATCH_COLUMNS(X)                                                                      \
	X(WAC_ID, "id") X(WAC_RULESET, "ruleset") X(WAC_STATUS, "status") X(WAC_SEATS, "seats")      \
	X(WAC_DELAY, "spectator_delay") X(WAC_RATED, "rated")

#define WP_PLAYER_COLUMNS(X) X(PLC_ID, "p.id") X(PLC_NAME, "p.name") X(PLC_DEVICE, "d.id") X(PLC_BOT, "p.bot")
#define WP_IDEM_COLUMNS(X) X(IC_HASH, "request_hash") X(IC_STATUS, "status") X(IC_BODY, "body")

#define WP_COLUMN_ENUM(name, sql) name,
#define WP_COLUMN_SQL(name, sql) sql ", "
/* A select list ends with this constant column, after the last comma. */
#define WP_COLUMNS_END "0"
enum { WP_GAME_COLUMNS(WP_COLUMN_ENUM) };
enum { WP_SEAT_COLUMNS(WP_COLUMN_ENUM) };
enum { WP_POST_COLUMNS(WP_COLUMN_ENUM) };
enum { WP_MY_GAME_COLUMNS(WP_COLUMN_ENUM) };
enum { WP_PLAYER_COLUMNS(WP_COLUMN_ENUM) };
enum { WP_IDEM_COLUMNS(WP_COLUMN_ENUM) };
enum { WP_WATCH_COLUMNS(WP_COLUMN_ENUM) };
enum { WP_SNAPSHOT_COLUMNS(WP_COLUMN_ENUM) };
enum { WP_CHALLENGE_COLUMNS(WP_COLUMN_ENUM) };
enum { WP_CHALLENGE_SEAT_COLUMNS(WP_COLUMN_ENUM) };

/* Parameters, formatted here only: numbers as text, bytes as binary,
 * NULL pointers as SQL NULL. */
#define WP_SQL_MAX_PARAMS 27   /* TURN_WRITE_KEYED */
struct wp_params {
	int n;
	const char *values[WP_SQL_MAX_PARAMS];
	int lengths[WP_SQL_MAX_PARAMS];
	int formats[WP_SQL_MAX_PARAMS];
	char text[WP_SQL_MAX_PARAMS][24];
};
void wp_p_int(struct wp_params *p, int64_t v);
void wp_p_text(struct wp_params *p, const char *s);
void wp_p_bytes(struct wp_params *p, const void *b, size_t n);

/* Runs a prepared statement. With out, a result with rows is expected
 * and given to the caller (PQclear it); without, the result is cleared.
 * Failures are logged and mapped to WP_ERR_DB_UNAVAILABLE (the
 * connection is gone) or WP_ERR_INTERNAL. */
enum wp_err wp_sql_run(struct wp_conn *c, enum wp_stmt st, const struct wp_params *p,
                       PGresult **out);
/* The same, but a failure with SQLSTATE expect (for example "23505", a
 * key used already) is WP_ERR_NOT_FOUND and not logged. */
enum wp_err wp_sql_try(struct wp_conn *c, enum wp_stmt st, const struct wp_params *p,
                       PGresult **out, const char *expect);

/* Runs a statement that answers one value in its first column (an id,
 * a count, a boolean as 0 or 1); WP_ERR_NOT_FOUND when no row. */
enum wp_err wp_sql_one(struct wp_conn *c, enum wp_stmt st, const struct wp_params *p,
                       int64_t *v);

/* wp_db_idem_get/put (posts.c) on another table of the same columns:
 * st its statement (IDEM_GET/PUT, CHALLENGE_IDEM_GET/PUT), owner its
 * first key (a match, a challenge). */
enum wp_err wp_idem_get_by(struct wp_conn *c, enum wp_stmt st, int64_t owner, int64_t player,
                           const char *key, struct wp_idem *out);
enum wp_err wp_idem_put_by(struct wp_conn *c, enum wp_stmt st, int64_t owner, int64_t player,
                           const char *key, const unsigned char request_hash[32], int status,
                           const char *body);

/* Reading columns of a result (columns.c). */
int64_t wp_col_int(const PGresult *r, int row, int col);
int wp_col_null(const PGresult *r, int row, int col);
int wp_col_bool(const PGresult *r, int row, int col);
void wp_col_str(const PGresult *r, int row, int col, char *out, size_t cap);
/* NULL for SQL NULL; owned by the caller. */
char *wp_col_strdup(const PGresult *r, int row, int col);
json_object *wp_col_json(const PGresult *r, int row, int col);
/* A stored time control (clock.h); off when NULL. */
void wp_col_tc(const PGresult *r, int row, int col, struct wp_tc *tc);
/* bytea in text form ("\\x0a1b...") to bytes; the length or -1. */
long wp_col_bytes(const PGresult *r, int row, int col, unsigned char *out, size_t cap);

/* One query (n parameters, or several statements when n is 0) on a
 * connection outside the pool (listen.c), answered within ms: the first
 * failed result, else the last; NULL when it could not be sent, the
 * deadline passed or the connection broke (then close it). */
PGresult *wp_pg_exec_within(PGconn *pg, const char *sql, int n, const char *const *values,
                            unsigned ms);
/* The same for statement `name`, prepared on pg from sql first when
 * *prepared is 0 (then set to 1): no parse or plan at each call. */
PGresult *wp_pg_exec_named_within(PGconn *pg, int *prepared, const char *name, const char *sql,
                                  int n, const char *const *values, unsigned ms);

/* Tells every instance that the match changed to version (NOTIFY
 * wp_game 'id:version'; listen.c reads the id, the cache both: cache.c):
 * at once outside a transaction, else once it has committed. The match is
 * forgotten by this instance's cache now and when the transaction ends.
 * Every change of a match goes through here or wp_db_post_commit. */
enum wp_err wp_db_notify(struct wp_conn *c, int64_t game, int64_t version);
/* Tells every instance of the n matches' committed versions (tell.c):
 * queued for the LISTEN thread, which sends the notifications of a few
 * milliseconds together; sent on c (idle: no transaction open) where no
 * LISTEN thread runs, while its connection is down, or when the queue is
 * full. A failure is logged: the
 * LISTEN thread's check of the versions held makes up for a lost
 * notification. */
void wp_tell(struct wp_conn *c, const int64_t *games, const int *versions, int n);
/* The LISTEN thread's side: wp_tell_listener(1), once its connection is
 * up, makes and returns the descriptor that becomes readable when
 * notifications are queued (-1: none could be made; then writers send
 * their own); (0), when it is lost, stops queueing: the next writer sends
 * what was left with its own.
 * wp_tell_due() reads that descriptor; it answers -1 when nothing is
 * queued, 0 when it put what is queued into text (an array literal for
 * $1 of WP_TELL_SQL) to be sent now, else the nanoseconds to wait. */
int wp_tell_listener(int on);
int64_t wp_tell_due(int64_t now, char *text, size_t cap);
#define WP_TELL_QUEUE 512        /* matches waiting to be told */
#define WP_TELL_TEXT (WP_TELL_QUEUE * 27 + 3)   /* '"id:version",' each, braces */
#define WP_TELL_SQL \
	"SELECT set_config('synchronous_commit', 'off', true), pg_notify('wp_game', x)" \
	" FROM unnest($1::text[]) x"

/* The cache's two tables (cache.c matches, cache_tokens.c players):
 * whether memory may answer at all (a live LISTEN connection, its thread
 * seen lately), and every player forgotten (a reconnection, a revoke not
 * understood). */
int wp_cache_serving(void);
void wp_cache_forget_tokens(void);

#endif
