/* A match as the service sees it: its row and seats as typed values, the
 * enums of its status and post kinds, and applying posts to the ruleset's
 * state. Pure: shared by the handlers, the store and the verifier. */
#ifndef WP_MATCH_H
#define WP_MATCH_H

#include <json-c/json.h>

#include "clock.h"
#include "rules.h"

#define WP_CLIENT_SEED_MAX 64
#define WP_NAME_MAX 161          /* up to 40 characters of UTF-8 */
#define WP_TIME_MAX 40           /* "2026-01-31T12:00:00Z" */

/* A match's status; the strings are those stored and answered. */
enum wp_status {
	WP_STATUS_OPEN,          /* seats still free */
	WP_STATUS_ACTIVE,        /* being played */
	WP_STATUS_OVER,          /* ended by the rules, resignation or agreement */
	WP_STATUS_ABORTED,       /* ended before its first turn */
	WP_STATUS_MAX
};

/* What a post in the log is. */
enum wp_post_kind {
	WP_POST_START,           /* the server's: the start state */
	WP_POST_TURN,            /* actions of one seat */
	WP_POST_ORDERS,          /* standing orders (RULINGS.md G3) */
	WP_POST_RESIGN,
	WP_POST_DRAW_OFFER,
	WP_POST_DRAW_ACCEPT,
	WP_POST_DRAW_DECLINE,
	WP_POST_ABORT,
	WP_POST_CLAIM,           /* a win on time claimed: the flagged seats leave */
	WP_POST_UNDO,            /* a seat takes back its last posts (issue 14) */
	WP_POST_ADJUDICATION,    /* a tournament's organiser ends the match (issue 29) */
	WP_POST_TAKEBACK,        /* asks the others to take back the seat's last post (issue 30) */
	WP_POST_TAKEBACK_DECLINE,/* refuses that request (api/takeback.c) */
	WP_POST_KIND_MAX
};

/* Who may watch a match (issue 14, "Spectators"): open (listed in
 * GET /api/games), unlisted (anyone with the link), private (its seated
 * players only). */
enum wp_watch {
	WP_WATCH_OPEN,
	WP_WATCH_UNLISTED,
	WP_WATCH_PRIVATE,
	WP_WATCH_MAX
};
#define WP_DELAY_MAX 1000      /* spectator_delay, posts (sql/006) */
const char *wp_watch_str(enum wp_watch w);
/* WP_WATCH_MAX when the text names none. */
enum wp_watch wp_watch_parse(const char *s);

const char *wp_status_str(enum wp_status s);
/* WP_STATUS_MAX when the text names no status. */
enum wp_status wp_status_parse(const char *s);
const char *wp_post_kind_str(enum wp_post_kind k);
enum wp_post_kind wp_post_kind_parse(const char *s);

struct wp_player {
	int64_t id;
	char name[WP_NAME_MAX];
	int bot;                 /* a program (players.bot, issue 27) */
	int64_t device;          /* the device whose token it was (sql/019_devices.sql) */
};

struct wp_seat {
	int seat;
	int64_t player_id;       /* 0 when open */
	char name[WP_NAME_MAX];
	char client_seed[WP_CLIENT_SEED_MAX + 1];
	int bot;                 /* the player is a program (issue 27) */
};

struct wp_game {
	int64_t id;
	const struct wr_ruleset *rs;
	char ruleset[64];
	json_object *options;    /* owned */
	int nseats;
	enum wp_status status;
	int seq, version;
	char *state;             /* snapshot JSON text, owned; NULL while open */
	unsigned char seed[32], commitment[32];
	unsigned char client[4 * (WP_CLIENT_SEED_MAX + 1)];
	size_t client_len;
	int64_t draws;
	unsigned awaiting, draw_offers;
	json_object *result;     /* owned, NULL while playing */
	int64_t created_by;
	char created_at[WP_TIME_MAX], updated_at[WP_TIME_MAX];
	struct wp_seat seats[WR_MAX_SEATS];
	struct wp_tc tc;         /* time control (clock.h); tc.on == 0: none */
	enum wp_watch watch;     /* who may watch */
	int delay;               /* spectators see the match this many posts back */
	int rated;               /* changes its players' ratings when it ends (issue 28) */
};

void wp_game_free(struct wp_game *g);
int wp_game_over(const struct wp_game *g);
/* The seat the player holds in the game, or -1. */
int wp_game_seat_of(const struct wp_game *g, int64_t player_id);

/* Who looks (RULINGS.md G5): the seat, WR_SPECTATOR for anyone else, and
 * WR_EVERYONE once the match is over (everything revealed). */
int wp_viewer(int over, int seat);
/* What only one seat may see, as a wr_visible() mask; seat -1 (the
 * server's own posts) is seen only once everything is revealed. */
unsigned wp_private_to(int seat);

/* Client seed material for the dice: for each seat in order, one length
 * byte then the seed's bytes (DESIGN.md "Dice anyone can audit"). */
size_t wp_client_material(const struct wp_seat *seats, int n, unsigned char *out, size_t cap);

/* Applies one post's content to a live state: a list of actions by seat
 * (each while the seat is awaited), standing orders or a resignation;
 * other kinds change no state. On failure *bad_index is the action at
 * fault. */
/* Every seat in play agreed to end the match: the ruleset decides how
 * (agreed_end), or, without one, the service records a plain draw. */
void wp_agreed_end(const struct wr_ruleset *rs, void *state, struct wr_events *ev);
int wp_apply_claim(const struct wr_ruleset *rs, void *state, json_object *content,
                   struct wr_rng *rng, struct wr_events *ev, struct wr_error *err);
int wp_apply_post(const struct wr_ruleset *rs, void *state, int seat, enum wp_post_kind kind,
                  json_object *content, struct wr_rng *rng, struct wr_events *ev,
                  struct wr_error *err, int *bad_index);

/* RULINGS.md G8 (amended): the clock mark (clock.h; all but its time) of
 * a post that left the match in `state` with `awaiting` awaited: whose
 * turn waits for another seat's reaction, who answers one (rs->turn_of;
 * none without one), and `poster`, the seat whose actions the post were
 * (else -1), when it answered a reaction and was asked another. */
void wp_turn_masks(const struct wr_ruleset *rs, const void *state, unsigned awaiting,
                   int poster, struct wp_clock_mark *m);

/* Result of the ruleset as JSON ({"winners":[...], "draw":..., ...}),
 * NULL while the match goes on. */
json_object *wp_result_json(const struct wr_result *r, int nseats);

/* Events as stored: [{"to": mask, "e": {...}}]. Takes the bodies. */
json_object *wp_events_store(struct wr_events *ev);
/* The bodies of stored events a viewer may see (wr_visible). */
json_object *wp_events_visible(json_object *stored, int viewer);
/* Draws as stored: [[bound, value], ...]. */
json_object *wp_rolls_json(const struct wr_rng *rng);

#endif
