/* The typed match store: the only code that talks to PostgreSQL. Typed
 * structs in and out; the SQL, its parameters and its columns stay in
 * store/. Every function answers WP_OK, WP_ERR_NOT_FOUND (no such row,
 * where a row is looked for), WP_ERR_DB_UNAVAILABLE (the database went
 * away) or WP_ERR_INTERNAL (it answered otherwise than expected; logged). */
#ifndef WP_STORE_H
#define WP_STORE_H

#include <json-c/json.h>

#include "match.h"
#include "wp.h"

/* --- pool.c: connections and transactions --- */
struct wp_store;
/* One borrowed connection; opaque outside the store. */
struct wp_conn;

struct wp_store *wp_store_open(const char *conninfo, unsigned pool_size);
/* The deadlines (DB_* settings); defaults until called. */
void wp_store_limits(struct wp_store *st, const struct wp_db_limits *lim);
/* Starts the monitor thread that checks the database every second on a
 * connection of its own, for health and to recover (daemons only). */
int wp_store_monitor(struct wp_store *st);
void wp_store_close(struct wp_store *st);
/* Borrow a live connection (reconnecting when needed); NULL when the
 * database does not answer, is known down, or no connection is free
 * within DB_POOL_WAIT_MS. Give it back with wp_store_put(). */
struct wp_conn *wp_store_get(struct wp_store *st);
void wp_store_put(struct wp_store *st, struct wp_conn *c);
/* 1 when the database answers a query; never waits on the pool, and
 * answers within DB_CHECK_TIMEOUT_MS. */
int wp_store_ping(struct wp_store *st);

/* Runs fn in one transaction: committed when it returns WP_OK, rolled
 * back otherwise (DESIGN.md "Store": acknowledged means committed). A
 * failed commit is WP_ERR_DB_UNAVAILABLE or WP_ERR_INTERNAL. */
typedef enum wp_err (*wp_tx_fn)(struct wp_conn *c, void *arg);
enum wp_err wp_store_tx(struct wp_conn *c, wp_tx_fn fn, void *arg);

/* --- players.c --- */
/* The player and its first device (named `device`) with that token. */
enum wp_err wp_db_player_insert(struct wp_conn *c, const char *name,
                                const unsigned char token_hash[32], const char *device,
                                int64_t *id);
enum wp_err wp_db_player_by_token(struct wp_conn *c, const unsigned char token_hash[32],
                                  struct wp_player *who);

/* How many matches the player holds a seat in that are open or active;
 * locks the player's row until the transaction ends. */
enum wp_err wp_db_open_matches(struct wp_conn *c, int64_t player, int64_t *n);

/* One line of GET /api/me/games. */
struct wp_my_game {
	int64_t id;
	char ruleset[64];
	enum wp_status status;
	int seq, version, nseats, seat;
	int awaiting_me;         /* the seat's bit is set in the match's awaiting */
	char updated_at[WP_TIME_MAX];
	struct wp_tc tc;         /* the match's time control */
	json_object *players;    /* owned: [{"seat", "player": {"id", "name"} | null}] */
	json_object *result;     /* owned, NULL while playing */
	char *state;             /* owned snapshot text, only when asked for */
	struct wp_clock_input *clock;  /* owned: a timed match in play's clock input */
	int rated;               /* issue 28 */
};
/* Up to `limit` of the player's matches from `offset`, those awaiting
 * them first; *count is all of them. *out is malloc'd (free it). */
enum wp_err wp_db_my_games(struct wp_conn *c, int64_t player, int64_t limit, int64_t offset,
                           int with_state, struct wp_my_game **out, int *n, int *count);
void wp_my_games_free(struct wp_my_game *games, int n);

/* The sum of (version + 1) over the player's matches: it grows with
 * every new match and every change of one (GET /api/me/events). */
enum wp_err wp_db_my_changes(struct wp_conn *c, int64_t player, int64_t *changes);

/* --- games.c --- */
/* A new match and its seats, in the caller's transaction. */
enum wp_err wp_db_game_insert(struct wp_conn *c, const char *ruleset, const char *options_json,
                              int nseats, const unsigned char seed[32],
                              const unsigned char commitment[32], int64_t created_by,
                              const char *time_control_json, int64_t *id);
/* player 0: an open seat with its invitation's hash. */
enum wp_err wp_db_seat_insert(struct wp_conn *c, int64_t game, int seat, int64_t player,
                              const unsigned char invite_hash[32], const char *client_seed);
/* The match and its seats; lock: FOR UPDATE (inside a transaction). A
 * match whose ruleset this server does not offer is WP_ERR_INTERNAL. */
enum wp_err wp_db_game_load(struct wp_conn *c, int64_t id, int lock, struct wp_game *g);

/* What a conditional GET needs (the cache holds it, cache.c). */
struct wp_game_head {
	int version;
	enum wp_status status;
	int seat;                /* the viewer's seat in the match, or -1 */
	int seq;                 /* posts in the log */
	enum wp_watch watch;     /* who may watch, and how far behind */
	int delay;
};
enum wp_err wp_db_seat_by_invite(struct wp_conn *c, int64_t game,
                                 const unsigned char invite_hash[32], int *seat);
enum wp_err wp_db_seat_join(struct wp_conn *c, int64_t game, int seat, int64_t player,
                            const char *client_seed);
/* A new version of the match with no post (a seat taken), and NOTIFY. */
enum wp_err wp_db_game_bump(struct wp_conn *c, int64_t game);
/* Who may watch the match and the spectators' delay in posts. */
enum wp_err wp_db_game_watch_set(struct wp_conn *c, int64_t game, enum wp_watch watch, int delay);
/* Matches open to watch (spectators "open", started), newest first. */
struct wp_watchable {
	int64_t id;
	char ruleset[64];
	enum wp_status status;
	int nseats, delay;
	int rated;               /* issue 28 */
};
enum wp_err wp_db_games_watchable(struct wp_conn *c, int64_t limit, int64_t offset,
                                  struct wp_watchable **out, int *n);

/* --- posts.c --- */
/* One post as written: the match after it goes with it. */
struct wp_post_write {
	int64_t game;
	int seq;
	int seat;                /* -1: the server's */
	enum wp_post_kind kind;
	const char *actions;     /* JSON text */
	const char *comment;     /* NULL: none */
	int comment_hidden;
	const char *events;      /* JSON text, as wp_events_store() */
	int64_t draws_from;
	const char *rolls;       /* JSON text */
	/* the match after the post */
	enum wp_status status;
	const char *state;       /* JSON text or NULL */
	int64_t draws;
	unsigned awaiting, draw_offers;
	struct wp_clock_mark mark;    /* the post's (clock.h, G8); its time is `at` */
	/* A timed match's clocks before the post, when known (the cache's):
	 * the match row keeps their fold after it (games.clock); NULL: the
	 * row keeps none and its readers fold the posts' marks. */
	const struct wp_clock_input *clock;
	const struct wp_tc *tc;
	int nseats;
	char fold[WP_CLOCK_FOLD_MAX];   /* out: that fold, as written */
	const char *result;      /* JSON text or NULL */
	const unsigned char *client;
	size_t client_len;
	int version;                    /* out: the match's, once written */
	char updated_at[WP_TIME_MAX];
	int64_t at;                     /* out: the post's time (clock.h) */
};
/* Inserts the post, updates the match (a new version) and NOTIFYs. */
enum wp_err wp_db_post_write(struct wp_conn *c, struct wp_post_write *p);

/* What a post written in one round trip stands on (issue 17). */
struct wp_post_guard {
	int version;             /* the match's version the post was made from */
	int64_t player;
	const unsigned char *token_hash;
	const char *key;         /* Idempotency-Key, or NULL */
	const unsigned char *request_hash;
	const char *answer;      /* the answer kept for the key */
};
/* The match's update, the post and the Idempotency-Key's answer in one
 * statement and one round trip (one deadline), then the NOTIFY with other
 * writers' (tell.c), only if the match is still at guard->version and the
 * token still belongs to guard->player. WP_ERR_NOT_FOUND: it is not, or
 * the key was used: nothing was written; decide again in a transaction. */
enum wp_err wp_db_post_commit(struct wp_conn *c, struct wp_post_write *p,
                              const struct wp_post_guard *guard);
/* *current: the match is still at guard->version, the token still
 * guard->player's and guard->key (if any) unused, so a refusal decided
 * from the match at that version stands (games.c). */
enum wp_err wp_db_game_current(struct wp_conn *c, const struct wp_post_guard *guard,
                               int64_t game, int *current);

/* One post as read. */
struct wp_post_row {
	int seq;
	int seat;                /* -1: the server's */
	enum wp_post_kind kind;
	json_object *actions;    /* owned */
	char *comment;           /* owned, NULL when none */
	int comment_hidden;
	json_object *events;     /* owned: [{"to", "e"}] */
	json_object *rolls;      /* owned */
	char at[WP_TIME_MAX];
	int64_t draws_from;
	int undone_by;           /* the undo post that took it back, 0: none */
};
/* Posts after `after`, at most `limit` (0: all); *out malloc'd, free with
 * wp_post_rows_free(). */
enum wp_err wp_db_posts(struct wp_conn *c, int64_t game, int64_t after, int64_t limit,
                        struct wp_post_row **out, int *n);
void wp_post_rows_free(struct wp_post_row *rows, int n);
/* A match as stored after post `seq` (sql/014_snapshots.sql, every 64th
 * post): where a replay starts. Its state holds every secret. */
struct wp_snapshot {
	int seq;                 /* 0: none, replay from the start */
	char *state, *result;    /* owned; NULL: none */
	enum wp_status status;
	unsigned awaiting, draw_offers;
	char at[WP_TIME_MAX];    /* the post's time */
};
/* The latest snapshot at or before post `upto` from which a replay up to
 * post `horizon` meets no undo of a post before it; seq 0 when none. */
enum wp_err wp_db_snapshot(struct wp_conn *c, int64_t game, int upto, int horizon,
                           struct wp_snapshot *out);
void wp_snapshot_free(struct wp_snapshot *s);
/* wp_db_snapshot(upto = horizon = at) and the posts after the snapshot up
 * to `at`, in one statement (a past position: api/watch.c). */
enum wp_err wp_db_past_rows(struct wp_conn *c, int64_t game, int at, struct wp_snapshot *snap,
                            struct wp_post_row **rows, int *n);
/* How many posts after seq could change what a seat sees of the board:
 * all but standing orders and draw offers or refusals. */
enum wp_err wp_db_moves_since(struct wp_conn *c, int64_t game, int64_t seq, int64_t *n);
enum wp_err wp_db_has_turn(struct wp_conn *c, int64_t game, int *yes);

/* The first answer to an Idempotency-Key. */
struct wp_idem {
	unsigned char request_hash[32];
	int status;
	char *body;              /* owned */
};
enum wp_err wp_db_idem_get(struct wp_conn *c, int64_t game, int64_t player, const char *key,
                           struct wp_idem *out);
enum wp_err wp_db_idem_put(struct wp_conn *c, int64_t game, int64_t player, const char *key,
                           const unsigned char request_hash[32], int status, const char *body);

/* A keyed request outside a match (keyed.c, sql/025), scope the SHA-256
 * of the token that sent it. claim: WP_ERR_NOT_FOUND when the key was
 * free and is now this request's; WP_OK with first filled when another
 * request holds it (status 0: not answered, or never will be). */
struct wp_keyed {
	unsigned char request_hash[32];
	int status;
	char *headers;           /* "Name: value\n" lines, owned; NULL when none */
	char *body;              /* owned; NULL when none */
};
enum wp_err wp_db_keyed_claim(struct wp_conn *c, const unsigned char scope[32], const char *key,
                              const unsigned char request_hash[32], struct wp_keyed *first);
/* The claimed request succeeded: its answer, kept for the retries. */
enum wp_err wp_db_keyed_done(struct wp_conn *c, const unsigned char scope[32], const char *key,
                             int status, const char *headers, const char *body);
/* The claimed request failed: the key is free again. */
enum wp_err wp_db_keyed_drop(struct wp_conn *c, const unsigned char scope[32], const char *key);
void wp_keyed_free(struct wp_keyed *k);

/* A connection of the server's own, outside the pool (the LISTEN thread,
 * the bot worker, the migrations, the ratings' settings): to the primary of
 * a multi-host DATABASE_URL (target_session_attrs=read-write, issue 31),
 * with a connect_timeout of timeout_s a host and keepalives, so that a
 * connection lost without a word is noticed; conninfo may say otherwise.
 * NULL, with why in err (may be NULL), when it cannot connect. */
struct pg_conn *wp_pg_connect_own(const char *conninfo, const char *app, const char *timeout_s,
                          char *err, size_t errlen);

/* --- clock.c: what the clocks derive from (match/clock.h) --- */
struct wp_clock_input {
	int folded;                              /* fold holds the posts before marks */
	struct wp_clock_fold fold;               /* the match row's (games.clock) */
	struct wp_clock_mark *marks;             /* one per post after those, in order */
	int nmarks;
	struct wp_interval *vac[WR_MAX_SEATS];   /* each seat's player's vacations */
	int nvac[WR_MAX_SEATS];
};
/* The match's clocks up to post seq (the match's version as read): the
 * row's fold when the row is still at seq, else the posts' marks; and the
 * vacations. */
enum wp_err wp_db_clock_load(struct wp_conn *c, int64_t game, int seq, int nseats,
                             struct wp_clock_input *in);
void wp_clock_input_free(struct wp_clock_input *in);
/* The same from text: the row's fold (NULL or "": none, match/clock.h),
 * the marks after it ("at:mark,..." in post order) and the vacations
 * ("seat:from:to,..." sorted; empty: none), as a statement that lists
 * matches answers it with each (WP_MY_GAME_COLUMNS): 0, or -1 (out of
 * memory, unreadable). */
int wp_clock_input_text(const char *fold, const char *marks, const char *vacations, int nseats,
                        struct wp_clock_input *in);
/* The fold of every post the input holds. */
void wp_clock_input_fold(const struct wp_tc *tc, const struct wp_clock_input *in, int nseats,
                         struct wp_clock_fold *f);
/* A copy of src with room for `extra` more marks; -1 out of memory. */
int wp_clock_input_copy(struct wp_clock_input *dst, const struct wp_clock_input *src, int extra);
/* A player's vacations (sorted) and when the account was created. */
enum wp_err wp_db_vacations(struct wp_conn *c, int64_t player, struct wp_interval **out,
                            int *n, int64_t *created);
/* A new vacation; every active match of the player gets a new version. */
enum wp_err wp_db_vacation_insert(struct wp_conn *c, int64_t player, int64_t from, int64_t to);
/* --- undo.c --- */
/* Marks posts seqs[0..n) of the match as taken back by the undo post
 * undo_seq (issue 14); *marked is how many were. */
enum wp_err wp_db_posts_undo(struct wp_conn *c, int64_t game, const int *seqs, int n,
                             int undo_seq, int *marked);

/* The last posts of a match, newest first, for GET actions' can_undo. */
struct wp_undo_tail {
	int seq, seat;           /* seat -1: the server's */
	enum wp_post_kind kind;
	int undone;              /* taken back */
	int rolled;              /* it drew dice */
	unsigned told;           /* the seats but `seat` a private event went to */
};
/* Up to `cap` of them; *n is how many. `seat` is the one asking. */
enum wp_err wp_db_undo_tail(struct wp_conn *c, int64_t game, int seat, struct wp_undo_tail *out,
                            int cap, int *n);

/* --- cache.c: what a turn and a conditional GET need, in memory (issue 17) --- */
/* The LISTEN connection is up (1: from empty) or lost (0: serve nothing);
 * its thread says it is alive at each turn of its loop. */
void wp_cache_online(int on);
void wp_cache_alive(void);
/* NOTIFY wp_game 'id:version' was heard (version -1: not said). */
void wp_cache_notify(int64_t game, int version);
/* This instance is about to change the match (its slot now speaks of it,
 * holding nothing), or many matches. */
void wp_cache_forget(int64_t game);
void wp_cache_forget_all(void);
/* Taken before a match is read; wp_cache_game_put keeps what was read
 * only if nothing was heard of the match since (wp_db_game_load). */
uint64_t wp_cache_ticket(int64_t game);
void wp_cache_game_put(const struct wp_game *g, uint64_t ticket);
/* The match as this instance's commit left it (forgotten before the
 * write): kept unless a newer version was heard of or held meanwhile. */
void wp_cache_game_written(const struct wp_game *g);
/* 1 and a copy (wp_game_free it) when the match is held. */
int wp_cache_game(int64_t game, struct wp_game *g);
/* The match's ruleset state loaded from its snapshot, kept beside the
 * match at its version (issue 32: a turn on a held match parses no
 * snapshot). take: the state of g's version whose snapshot text is g's,
 * handed over (the cache keeps no copy; NULL: none held); give: handed to
 * the cache for `version`, kept only while the slot holds the match at
 * that version with that snapshot text, else freed. A state given must
 * be what loading that snapshot gives (the state the snapshot was saved
 * from; never one an action changed afterwards). */
void *wp_cache_state_take(const struct wp_game *g);
void wp_cache_state_give(int64_t game, int version, const struct wr_ruleset *rs, void *state);
/* What a match's clocks derive from (wp_db_clock_load), kept with the
 * match while the cache holds it at `version`: a copy with room for one
 * more mark, 1; 0 if not held.
 * Every change of a post's time or of a seat's vacations gives the match
 * a new version, so the version names the input. */
int wp_cache_clock(int64_t game, int version, struct wp_clock_input *in);
void wp_cache_clock_put(int64_t game, int version, const struct wp_clock_input *in);
/* A match as it was after post `at` (api/watch.c, wp_past_at), its state
 * as snapshot text. A past position never changes (undos made later are
 * not yet made in it), so one is kept per match, whatever its version,
 * for the spectators held behind who all ask for the same post. */
struct wp_past_text {
	int at;
	enum wp_status status;
	unsigned awaiting, draw_offers;
	char *state, *result;    /* owned; NULL: none */
	char at_time[WP_TIME_MAX];
};
/* The matches held, for the check that no change went unheard
 * (listen.c): their count, the ids in *out (free it), or -1. */
int wp_cache_held(int64_t **out);
/* The database has `version` of a match: if the cache holds an older one,
 * it forgets it as if its NOTIFY had come; 1 then, else 0. */
int wp_cache_behind(int64_t game, int version);
int wp_cache_past(int64_t game, int at, struct wp_past_text *out);
void wp_cache_past_put(int64_t game, const struct wp_past_text *in);
void wp_past_text_free(struct wp_past_text *p);
/* 1 and the version, seq, status, spectators, delay and the player's
 * seat (player 0: none; seat -1) when the match is held. */
int wp_cache_head(int64_t game, int64_t player, struct wp_game_head *h);
/* Players by token hash, for a few seconds (wp_db_player_by_token keeps
 * them); reads only, never writes. Nothing is answered from it while the
 * LISTEN connection is down (a revoke may go unheard). */
int wp_cache_player(const unsigned char hash[32], struct wp_player *who);
/* A lookup takes a ticket before it reads the database; what it read is
 * kept only if no token was revoked meanwhile. */
unsigned wp_cache_token_ticket(void);
void wp_cache_player_put(const unsigned char hash[32], const struct wp_player *who,
                         unsigned ticket);
void wp_cache_player_drop(const unsigned char hash[32]);
/* A token revoked (on any instance): forgotten, and no lookup under way
 * keeps what it read. hex: the NOTIFY wp_token payload (account_sql.h). */
void wp_cache_token_revoked(const unsigned char hash[32]);
void wp_cache_token_heard(const char *hex);

/* --- tokens.c: a player's devices and sign-in codes (issue 28) --- */
struct wp_device {
	int64_t id;
	char name[WP_NAME_MAX];
	char created_at[WP_TIME_MAX];
	char last_used_at[WP_TIME_MAX];   /* "": not used since it was made */
};
/* The player's devices not revoked, oldest first; *out malloc'd. */
enum wp_err wp_db_devices(struct wp_conn *c, int64_t player, struct wp_device **out, int *n);
enum wp_err wp_db_device_rename(struct wp_conn *c, int64_t player, int64_t id,
                                const char *name, struct wp_device *out);
/* Revokes the player's device `id` (others: every device but `id`); *n
 * tokens revoked, forgotten by this instance's cache and told of to the
 * others (NOTIFY wp_token). WP_ERR_NOT_FOUND: no such device of theirs. */
enum wp_err wp_db_device_revoke(struct wp_conn *c, int64_t player, int64_t id, int others,
                                int *n);
enum wp_err wp_db_code_insert(struct wp_conn *c, int64_t player,
                              const unsigned char code_hash[32], int ttl_s);
/* A code (or a recovery link, for an address still confirmed) not used
 * and not expired: used now, and a device named `device` with token_hash
 * made for its player, in one statement. WP_ERR_NOT_FOUND otherwise
 * (unknown, used or expired alike). */
enum wp_redeem { WP_REDEEM_CODE, WP_REDEEM_RECOVERY };
enum wp_err wp_db_redeem(struct wp_conn *c, enum wp_redeem how, const unsigned char hash[32],
                         const unsigned char token_hash[32], const char *device,
                         struct wp_player *who);
/* Account mail (sql/019_devices.sql): kind "confirm" (player's address)
 * or "recover" (player 0: never looked up here). */
enum wp_err wp_db_mail_queue(struct wp_conn *c, const char *kind, int64_t player,
                             const char *address);
/* The player's address's confirmation again; WP_ERR_NOT_FOUND when it
 * has none unconfirmed. */
enum wp_err wp_db_mail_confirm_again(struct wp_conn *c, int64_t player);
struct wp_account_mail {
	int64_t id;
	char kind[16];
	int64_t player;          /* 0: a recovery */
	char address[255];
	int attempts;            /* with this one */
};
/* Due rows, each leased for lease_s. */
enum wp_err wp_db_mail_claim(struct wp_conn *c, int limit, double lease_s,
                             struct wp_account_mail **out, int *n);
struct wp_mail_target {
	int64_t player;
	char name[WP_NAME_MAX];
	char address[255];       /* as the player stored it */
};
/* Whom the mail is for now: none when the address changed since (a
 * confirmation) or nobody has it confirmed (a recovery). */
enum wp_err wp_db_mail_targets(struct wp_conn *c, const struct wp_account_mail *m, int limit,
                               struct wp_mail_target **out, int *n);
/* A link's token hash, good once for ttl_s. */
enum wp_err wp_db_link_insert(struct wp_conn *c, const char *kind, int64_t player,
                              const char *address, const unsigned char hash[32], int ttl_s);
/* done: sent, or nothing to send; else due again in retry_s, unless
 * max_attempts were made. */
enum wp_err wp_db_mail_done(struct wp_conn *c, int64_t id, int done, int max_attempts,
                            double retry_s);
/* Retention: at most batch rows of each kind that can no longer matter
 * deleted; *removed how many in all (notify/sweep.c). */
enum wp_err wp_db_sweep(struct wp_conn *c, int batch, int64_t *removed);
/* A confirmation link used: its address confirmed, if still the player's. */
enum wp_err wp_db_email_confirm(struct wp_conn *c, const unsigned char hash[32]);

/* --- migrate.c, listen.c --- */
/* Applies what is new of dir's migrations. When keep is given and they
 * were applied, *keep is the connection they used, left open for
 * wp_listen_start (a server start makes one PostgreSQL session fewer). */
int wp_migrate(const char *conninfo, const char *dir, struct pg_conn **keep, char *err,
               size_t errlen);
/* The LISTEN thread that wakes long-polls (core/wait.h). Its first
 * connection is first when given (wp_migrate's; the thread then owns
 * it), else one it makes. */
int wp_listen_start(const char *conninfo, struct pg_conn *first);
void wp_listen_stop(void);
/* fn hears the id of every match whose NOTIFY comes (the bot worker,
 * issue 27), and 0 each time the LISTEN connection is made (what changed
 * before was not heard); it runs on the LISTEN thread and must not wait. */
void wp_listen_game_hook(void (*fn)(int64_t game));

#endif
