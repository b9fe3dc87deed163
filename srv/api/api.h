/* What the API handlers share: the handlers themselves (api/routes.c
 * lists them), checks of what a client sent (request.c), identity
 * (auth.c) and writing to a match (write.c). Handlers talk to the typed
 * store (store.h) only: no SQL and no database types here. */
#ifndef WP_API_H
#define WP_API_H

#include "core.h"
#include "match.h"
#include "replay.h"
#include "store.h"

/* --- the handlers, one file per resource --- */
enum wp_err wp_api_health(struct wp_ctx *ctx);             /* health.c */
enum wp_err wp_api_openapi(struct wp_ctx *ctx);
enum wp_err wp_api_players_create(struct wp_ctx *ctx);     /* players.c */
enum wp_err wp_api_me(struct wp_ctx *ctx);
enum wp_err wp_api_me_games(struct wp_ctx *ctx);
enum wp_err wp_api_rulesets(struct wp_ctx *ctx);           /* matches.c */
enum wp_err wp_api_games_create(struct wp_ctx *ctx);
enum wp_err wp_api_games_join(struct wp_ctx *ctx);
enum wp_err wp_api_games_get(struct wp_ctx *ctx);          /* view.c */
enum wp_err wp_api_games_actions(struct wp_ctx *ctx);
enum wp_err wp_api_games_turn(struct wp_ctx *ctx);         /* posts.c */
enum wp_err wp_api_games_posts(struct wp_ctx *ctx);
enum wp_err wp_api_games_orders(struct wp_ctx *ctx);
enum wp_err wp_api_games_resign(struct wp_ctx *ctx);
enum wp_err wp_api_games_draw(struct wp_ctx *ctx);
enum wp_err wp_api_games_abort(struct wp_ctx *ctx);
enum wp_err wp_api_games_export(struct wp_ctx *ctx);       /* export.c */
enum wp_err wp_api_games_verify(struct wp_ctx *ctx);
enum wp_err wp_api_games_claim(struct wp_ctx *ctx);         /* clock.c */
enum wp_err wp_api_me_vacation(struct wp_ctx *ctx);
enum wp_err wp_api_me_vacation_start(struct wp_ctx *ctx);
enum wp_err wp_api_games_watchable(struct wp_ctx *ctx);     /* watch.c */
enum wp_err wp_api_games_events(struct wp_ctx *ctx);        /* events.c */
enum wp_err wp_api_games_board(struct wp_ctx *ctx);         /* board_svg.c */
enum wp_err wp_api_games_board_png(struct wp_ctx *ctx);     /* board_svg.c */
enum wp_err wp_api_me_events(struct wp_ctx *ctx);
enum wp_err wp_api_challenges_create(struct wp_ctx *ctx);  /* challenges.c (issue 28) */
enum wp_err wp_api_challenges_list(struct wp_ctx *ctx);
enum wp_err wp_api_challenges_get(struct wp_ctx *ctx);
enum wp_err wp_api_challenges_accept(struct wp_ctx *ctx);
enum wp_err wp_api_challenges_cancel(struct wp_ctx *ctx);
/* The player's matches, one page of them with their clocks, as
 * GET /api/me/games answers them (players.c); *out is NULL on an error. */
enum wp_err wp_my_games_doc(struct wp_ctx *ctx, struct wp_conn *c, int64_t player, int64_t limit,
                            int64_t offset, int with_state, json_object **out);
enum wp_err wp_api_webhooks_create(struct wp_ctx *ctx);   /* webhooks.c */
enum wp_err wp_api_webhooks_list(struct wp_ctx *ctx);
enum wp_err wp_api_webhooks_delete(struct wp_ctx *ctx);
enum wp_err wp_api_webhooks_deliveries(struct wp_ctx *ctx);
enum wp_err wp_api_email_get(struct wp_ctx *ctx);
enum wp_err wp_api_email_put(struct wp_ctx *ctx);
enum wp_err wp_api_unsubscribe(struct wp_ctx *ctx);
enum wp_err wp_api_unsubscribe_page(struct wp_ctx *ctx);
enum wp_err wp_api_games_undo(struct wp_ctx *ctx);         /* undo.c */
enum wp_err wp_api_players_get(struct wp_ctx *ctx);        /* ratings.c (issue 28) */
enum wp_err wp_api_leaderboard(struct wp_ctx *ctx);
enum wp_err wp_api_tournaments_create(struct wp_ctx *ctx); /* tournaments.c (issue 29) */
enum wp_err wp_api_tournaments_list(struct wp_ctx *ctx);
enum wp_err wp_api_tournaments_get(struct wp_ctx *ctx);
enum wp_err wp_api_tournaments_export(struct wp_ctx *ctx);
enum wp_err wp_api_tournaments_join(struct wp_ctx *ctx);
enum wp_err wp_api_tournaments_leave(struct wp_ctx *ctx);
enum wp_err wp_api_tournaments_remove(struct wp_ctx *ctx);
enum wp_err wp_api_tournaments_start(struct wp_ctx *ctx);
enum wp_err wp_api_tournaments_adjudicate(struct wp_ctx *ctx); /* tournament_play.c */
enum wp_err wp_api_tournaments_challenge(struct wp_ctx *ctx);  /* tournament_ladder.c */
enum wp_err wp_api_tournaments_challenge_accept(struct wp_ctx *ctx);
/* Of the seats a post's private events went to (a mask), those that did
 * not see everything already: a seat that sees the whole match (Blood
 * Chess's referee) learns nothing from a copy (RULINGS.md G7 amended). */
unsigned wp_told_unknown(const struct wp_game *g, unsigned told);
/* 1 when the seat may take back its last post now (GET actions). */
int wp_undo_possible(struct wp_conn *c, struct wp_game *g, int seat);
enum wp_err wp_undo_last(struct wp_ctx *ctx, struct wp_conn *c, struct wp_game *g, int seat,
                         int count, json_object **out);
/* Takeback requests (issue 30, takeback.c): ask, accept, decline. */
enum wp_err wp_api_games_takeback(struct wp_ctx *ctx);
enum wp_err wp_api_games_takeback_accept(struct wp_ctx *ctx);
enum wp_err wp_api_games_takeback_decline(struct wp_ctx *ctx);
enum wp_err wp_api_games_preview(struct wp_ctx *ctx);      /* preview.c (issue 30) */
/* One post as a viewer may see it (RULINGS.md G5). */
/* A post as `viewer` may see it, who sees the log up to post `upto` (a
 * spectator held behind): an undo made after that is not shown. */
json_object *wp_post_json(const struct wp_post_row *w, int viewer, int upto);

/* --- bots.c: computer seats and bot accounts (issue 27) --- */
struct wp_bot_seats {
	int n;
	int seat[WR_MAX_SEATS], level[WR_MAX_SEATS];
	struct wp_player who[WR_MAX_SEATS];   /* the engine players, once resolved */
};
/* The body's "bots" (absent: none): 400 for the wrong shape, 422 for a
 * seat or level that does not exist, or a seat that is taken. */
enum wp_err wp_bots_parse(struct wp_ctx *ctx, int seats, int my_seat, struct wp_bot_seats *out);
/* The levels' engine players, in the creation's transaction. */
enum wp_err wp_bots_resolve(struct wp_ctx *ctx, struct wp_conn *c, struct wp_bot_seats *b);
enum wp_err wp_api_me_patch(struct wp_ctx *ctx);
/* GET and PATCH /api/me's answer. */
json_object *wp_me_json(const struct wp_player *who);

/* --- polled.c --- */
/* take_o with an ETag that hashes its text (`kind` its first letter); 304
 * for a current If-None-Match, or with wait > 0 the request held on `key`
 * (wait.h) from generation gen until a change, wait seconds or
 * until_cap_ns (0: none). */
enum wp_err wp_reply_polled(struct wp_ctx *ctx, json_object *take_o, char kind, int64_t key,
                            uint64_t gen, int64_t wait, int64_t until_cap_ns);

/* --- matches.c: a match made, by POST /api/games or a challenge taken --- */
struct wp_match_new {
	const struct wr_ruleset *rs;
	const char *options, *time_control;    /* JSON text; time_control NULL: none */
	int seats, rated;
	enum wp_watch watch;
	int delay;
	int64_t created_by;
	int64_t player[WR_MAX_SEATS];          /* 0: an open seat, with an invitation */
	const char *client_seed[WR_MAX_SEATS];
	json_object *invitations;              /* borrowed: each open seat's code added, or NULL */
	int64_t id;                            /* out */
	unsigned char commitment[32];          /* out */
};
/* The match and its seats in the caller's transaction (a problem set on
 * failure). */
enum wp_err wp_match_insert(struct wp_ctx *ctx, struct wp_conn *c, struct wp_match_new *m);
/* Every seat taken: the client seeds fixed, post 1 the start state. */
enum wp_err wp_match_start(struct wp_ctx *ctx, struct wp_conn *c, struct wp_game *g);
/* Every field of the body is one of fields, and "ruleset" is there. */
enum wp_err wp_body_ruleset(struct wp_ctx *ctx, const char *const *fields, const char **ruleset);
/* The body's "options" (absent or null: NULL, borrowed), the ruleset
 * named and *seats within its range (0: its least). */
enum wp_err wp_match_ruleset(struct wp_ctx *ctx, const char *ruleset, int64_t *seats,
                             json_object **options, const struct wr_ruleset **rs);
/* The ruleset builds a start state from the options (422 otherwise). */
enum wp_err wp_check_options(struct wp_ctx *ctx, const struct wr_ruleset *rs,
                             json_object *options, int seats);
/* The body's "spectators" and "spectator_delay" (issue 14). */
enum wp_err wp_watch_options(struct wp_ctx *ctx, enum wp_watch *watch, int *delay);

/* --- request.c: validate at the edge (STYLE.md) --- */
/* Every field of the body is one of known (NULL-terminated). */
enum wp_err wp_body_only(struct wp_ctx *ctx, const char *const *known);
enum wp_err wp_body_int(struct wp_ctx *ctx, const char *key, int64_t min, int64_t max,
                        int required, int64_t def, int64_t *out);
/* NULL when absent; at most max_chars characters, no control characters
 * (but newlines and tabs when allow_newlines). */
enum wp_err wp_body_string(struct wp_ctx *ctx, const char *key, size_t max_chars,
                           int allow_newlines, const char **out);
enum wp_err wp_body_bool(struct wp_ctx *ctx, const char *key, int *out);
/* A required member of the given JSON type, borrowed. */
enum wp_err wp_body_required(struct wp_ctx *ctx, const char *key, json_type type,
                             json_object **out);
enum wp_err wp_client_seed(struct wp_ctx *ctx, const char **seed);
/* A whole number from the query string within [min, max]; def when absent. */
enum wp_err wp_query_int(struct wp_ctx *ctx, const char *name, int64_t min, int64_t max,
                         int64_t def, int64_t *out);
int wp_parse_id(const char *s, int64_t *id);
/* The {id} of the path. */
enum wp_err wp_game_id(struct wp_ctx *ctx, int64_t *id);

/* A connection for the request, or the 503. */
enum wp_err wp_conn_get(struct wp_ctx *ctx, struct wp_conn **c);
/* The bearer's player on a connection of the request's own (given back,
 * *c NULL, on failure). */
enum wp_err wp_me(struct wp_ctx *ctx, struct wp_conn **c, struct wp_player *who);
/* The caller's own things by {id} (a device, a webhook): the path's id,
 * else 404 "you have no such <what>"; and a store answer about one,
 * WP_ERR_NOT_FOUND the same 404 (another player's looks like none). */
enum wp_err wp_mine_id(struct wp_ctx *ctx, const char *what, int64_t *id);
enum wp_err wp_mine_fail(struct wp_ctx *ctx, enum wp_err err, const char *what);
/* GET of a list of the caller's own (devices, webhooks): load() reads
 * the player's rows (malloc'd, n of `size` bytes each), answered as
 * {"<key>": [one(row, who) for each]}, 200. */
typedef enum wp_err (*wp_mine_load)(struct wp_conn *c, int64_t player, void **rows, int *n);
enum wp_err wp_list_mine(struct wp_ctx *ctx, const char *key, wp_mine_load load, size_t size,
                         json_object *(*one)(const void *row, const struct wp_player *who));
/* The bearer's player (who), then fn in one transaction (wp_store_tx) on
 * a connection of the request's own. */
enum wp_err wp_player_tx(struct wp_ctx *ctx, struct wp_player *who, wp_tx_fn fn, void *arg);
/* The same, and the match as its one post left it kept in the cache once
 * committed (write.c), so the next turn on it is one round trip. */
enum wp_err wp_player_tx_keeping(struct wp_ctx *ctx, struct wp_player *who, wp_tx_fn fn,
                                 void *arg);
/* Rate limits (core/ratelimit.h) by the bearer token's hash: WP_OK or
 * 429 with Retry-After (401 for a malformed Authorization); a request
 * without a token is not counted. */
enum wp_err wp_limit_token(struct wp_ctx *ctx, enum wp_rate_class cls);
/* MAX_OPEN_MATCHES: 409 too-many-open-matches when the player already
 * holds that many open or active seats (in the caller's transaction). */
enum wp_err wp_limit_open_matches(struct wp_ctx *ctx, struct wp_conn *c, int64_t player);
/* The problem for a store error (WP_ERR_DB_UNAVAILABLE or internal). */
enum wp_err wp_fail_store(struct wp_ctx *ctx, enum wp_err err);
/* The match, or game-not-found; a ruleset this server lacks is a 500. */
enum wp_err wp_game_get(struct wp_ctx *ctx, struct wp_conn *c, int64_t id, int lock,
                        struct wp_game *g);
/* The ruleset state of the snapshot; NULL when open or unreadable. */
void *wp_game_state(const struct wp_game *g);
/* The same for g as it is now (not a past position): the state the cache
 * keeps beside the match at g's version when it has one (no snapshot
 * parsed), else loaded. wp_game_state_done gives a state read and not
 * changed back to the cache for the next request. */
void *wp_game_state_current(const struct wp_game *g);
void wp_game_state_done(const struct wp_game *g, void *state);
/* A ruleset's refusal as a problem with its code, field and index
 * (RFC 9457 extra members); its text never reveals hidden information
 * (RULINGS.md G5). */
enum wp_err wp_fail_rules(struct wp_ctx *ctx, enum wp_err err, const struct wr_error *e,
                          int index);
json_object *wp_json_hex(const unsigned char *b, size_t n);
json_object *wp_json_seats(unsigned mask, int n);

/* --- auth.c: bearer tokens (RFC 6750) --- */
/* The token's player; 401 when absent or unknown. */
enum wp_err wp_auth_player(struct wp_ctx *ctx, struct wp_conn *c, struct wp_player *who);
/* The same, but no token is fine for reading (who->id stays 0). */
enum wp_err wp_auth_optional(struct wp_ctx *ctx, struct wp_conn *c, struct wp_player *who);
/* The bearer token's hash when the request has one (*present); an error
 * only for an Authorization header that is not a bearer token. */
enum wp_err wp_auth_token(struct wp_ctx *ctx, unsigned char hash[32], int *present);
/* The 401 for a well-formed token nobody holds. */
enum wp_err wp_auth_unknown(struct wp_ctx *ctx);
int wp_token_new(char hex[65], unsigned char hash[32]);
/* On this thread only, requests without a token act for `who` (NULL:
 * stop): the bot worker's own posts (bot/botplay.c, issue 27). */
void wp_auth_act_as(const struct wp_player *who);

/* --- write.c: the one way a match changes --- */
struct wp_post {
	int seat;                /* -1: the server (start) */
	enum wp_post_kind kind;
	json_object *content;    /* borrowed: actions, orders or NULL */
	const char *comment;
	int comment_hidden;
	unsigned draw_offers;
	int aborted;             /* the post aborts the match */
	json_object *result;     /* borrowed override (agreement, abort), or NULL */
};
/* Stores a post and the state after it (NULL: no ruleset state change)
 * in the caller's transaction; *out is the answer for the posting seat. */
enum wp_err wp_post_store(struct wp_ctx *ctx, struct wp_conn *c, struct wp_game *g,
                          const void *state, const struct wp_post *p, struct wr_rng *rng,
                          struct wr_events *ev, json_object **out);
/* Loads the state, applies the post with the match's dice, stores it. */
enum wp_err wp_post_apply(struct wp_ctx *ctx, struct wp_conn *c, struct wp_game *g,
                          const struct wp_post *p, json_object **out);
/* The match's dice stream from its next draw (DESIGN.md). */
void wp_game_dice(struct wp_game *g, struct wr_hmac_stream *hs, struct wr_rng *rng);
/* 409 unless the match is being played. */
enum wp_err wp_must_be_active(struct wp_ctx *ctx, const struct wp_game *g);

/* 409 unless the match is being played and the seat is in it (posts.c). */
enum wp_err wp_must_be_in_play(struct wp_ctx *ctx, const struct wp_game *g, int seat);

/* --- clock.c: time controls and vacations (match/clock.h) --- */
/* The body's "time_control" (absent or null: none); 400 or 422. */
enum wp_err wp_time_control(struct wp_ctx *ctx, struct wp_tc *tc);
struct wp_game_clock {
	int on;                  /* a time control, and the match has started */
	struct wp_seat_clock seat[WR_MAX_SEATS];
	struct wp_interval last_vac[WR_MAX_SEATS];
	int has_vac[WR_MAX_SEATS];
};
/* Each seat's clock at now, derived from the store, or from the cache
 * when it holds the match at `version` (-1: never). */
enum wp_err wp_clock_load(struct wp_conn *c, int64_t game, int seq, int version,
                          const struct wp_tc *tc, enum wp_status status, int nseats,
                          int64_t now, struct wp_game_clock *gc);
/* The same from an input at hand (a timed match in play). */
void wp_clock_derive(const struct wp_tc *tc, const struct wp_clock_input *in, int nseats,
                     int64_t now, struct wp_game_clock *gc);
/* The view's "clock" member (NULL when gc->on is 0): deadlines, not
 * countdowns, so it changes only with the match's version. */
json_object *wp_clock_json(const struct wp_game *g, const struct wp_game_clock *gc);
/* A GET /api/me/games line's clock members, for the caller's seat. */
void wp_my_game_clock(json_object *line, const struct wp_tc *tc, const struct wp_game_clock *gc,
                      int seat, int nseats);
/* Post p's clock mark (RULINGS.md G8, wp_turn_masks; all but its time):
 * of `state`, or of the match's own state when NULL (a post that changes
 * none); awaiting alone without a time control. */
void wp_clock_turns(const struct wp_game *g, const void *state, const struct wp_post *p,
                    unsigned awaiting, struct wp_clock_mark *m);
/* 409 time-expired when the seat's time has run out. */
enum wp_err wp_clock_turn_check(struct wp_ctx *ctx, struct wp_conn *c, const struct wp_game *g,
                                int seat);

/* The request's Idempotency-Key (NULL: none; 400 when malformed) and
 * the hash of its path and body, which a retry must repeat. */
enum wp_err wp_idem_request(struct wp_ctx *ctx, const char **key, unsigned char hash[32]);
/* keyed.c: handler run under the request's Idempotency-Key, if any (a
 * write outside a match: the key claimed first, the answer kept after). */
enum wp_err wp_keyed(struct wp_ctx *ctx, wp_handler handler);
/* The first answer to the key, as found (WP_OK, WP_ERR_NOT_FOUND or a
 * store error): sent again (*replayed) when the request is the same,
 * 422 when it is another; frees first's body. */
enum wp_err wp_idem_replay(struct wp_ctx *ctx, enum wp_err found, struct wp_idem *first,
                           const unsigned char reqhash[32], int *replayed);
/* A write by a seated player: lock, Idempotency-Key, seat, change. */
typedef enum wp_err (*wp_mutate_fn)(struct wp_ctx *ctx, struct wp_conn *c, struct wp_game *g,
                                    int seat, json_object **out);
enum wp_err wp_mutate(struct wp_ctx *ctx, wp_mutate_fn fn);
/* The same for a POST that takes no fields (a body is optional). */
enum wp_err wp_mutate_no_fields(struct wp_ctx *ctx, wp_mutate_fn fn);
/* The same, first trying the match and the player from the cache and the
 * post in one round trip (issue 17); for fns that only read the database
 * and write through wp_post_store. */
enum wp_err wp_mutate_one_trip(struct wp_ctx *ctx, wp_mutate_fn fn);

/* --- watch.c: what a caller may see of a match (issue 14, "Spectators") --- */
/* Holds the request until the match changes or until_ns (the front serves
 * it again then); gen as read before the database (wait.h). */
void wp_hold(struct wp_ctx *ctx, int64_t game, uint64_t gen, int64_t until_ns);
/* An ETag "<kind><id>-<what><n>-<viewer>" (e, x or s<seat>). */
void wp_etag_viewer(char *out, size_t cap, char kind, int64_t id, char what, int n, int viewer);
/* Replies with a body of the given media type; takes the malloc'd body. */
enum wp_err wp_reply_bytes(struct wp_ctx *ctx, int status, const char *content_type,
                           char *take_body, size_t len);
struct wp_sight {
	int seat;                /* the caller's seat, or -1 */
	int viewer;              /* wp_viewer() */
	int upto;                /* the last post the caller may see */
	int delayed;             /* a spectator of a delayed match in play: the
	                          * view is of post upto, its version is upto */
};
/* The caller's sight of a match from its row (or its head); a private
 * match is game-not-found to anyone without a seat. */
enum wp_err wp_sight_of(struct wp_ctx *ctx, int64_t id, enum wp_watch watch, int delay, int seq,
                        enum wp_status status, int seat, struct wp_sight *out);
enum wp_err wp_game_sight(struct wp_ctx *ctx, const struct wp_game *g, int64_t player,
                          struct wp_sight *out);
/* The match after post `at` (1..g->seq) as it was then, replayed from
 * the stored posts with the match's own dice (wp_replay_step, from a snapshot; undos
 * made later not yet made); for the last post, when its time is not
 * asked for, the match as stored.
 * One replay for GET ?at=, the spectator delay and the board image. The
 * state (NULL while open) holds every secret: show it only through
 * rs->view (G5). Free with wp_past_free. at_time (may be NULL) gets the
 * time of post `at`. */
enum wp_err wp_past_at(struct wp_ctx *ctx, struct wp_conn *c, const struct wp_game *g, int at,
                       struct wp_past *past, char at_time[WP_TIME_MAX]);
void wp_past_free(const struct wp_game *g, struct wp_past *past);

/* --- devices.c: an account on several devices (issue 28) --- */
enum wp_err wp_api_devices_list(struct wp_ctx *ctx);
enum wp_err wp_api_devices_rename(struct wp_ctx *ctx);
enum wp_err wp_api_devices_revoke(struct wp_ctx *ctx);
enum wp_err wp_api_devices_revoke_others(struct wp_ctx *ctx);
enum wp_err wp_api_device_codes_create(struct wp_ctx *ctx);
enum wp_err wp_api_device_codes_redeem(struct wp_ctx *ctx);
/* The body's optional "device" name (1..40 characters), def when absent. */
enum wp_err wp_device_name(struct wp_ctx *ctx, const char *def, char *out, size_t cap);
/* A code's or a recovery link's hash traded for a new device's token
 * (wp_db_redeem) on c, given back: 201 with the player, the device and
 * the token, shown this once; 403 invalid-code (detail `invalid`). */
enum wp_err wp_new_device(struct wp_ctx *ctx, struct wp_conn *c, enum wp_redeem how,
                          const unsigned char hash[32], const char *device,
                          const char *invalid);
/* recovery.c: e-mail confirmation and recovery links */
enum wp_err wp_api_recovery_create(struct wp_ctx *ctx);
enum wp_err wp_api_recovery_redeem(struct wp_ctx *ctx);
enum wp_err wp_api_email_confirm(struct wp_ctx *ctx);
enum wp_err wp_api_email_confirmation(struct wp_ctx *ctx);
/* players.c: a name of 1..40 characters (trimmed) into out, or the 400
 * that names the field. */
enum wp_err wp_check_name(struct wp_ctx *ctx, const char *field, const char *in, char *out,
                          size_t cap);
/* players.c: the 400 that names field when s holds a character a name
 * shown to others may not (controls, direction overrides, invisible ones). */
enum wp_err wp_check_shown_text(struct wp_ctx *ctx, const char *field, const char *s);

#endif
