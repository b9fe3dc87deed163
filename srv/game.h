/* A match as the service sees it: the row, its seats, and applying posts
 * to the ruleset's state. Shared by the handlers and the verifier. */
#ifndef WP_GAME_H
#define WP_GAME_H

#include "core_priv.h"
#include "rules.h"

#define WP_CLIENT_SEED_MAX 64

struct wp_seat {
	int seat;
	int64_t player_id;       /* 0 when open */
	char name[161];
	char client_seed[WP_CLIENT_SEED_MAX + 1];
};

struct wp_game {
	int64_t id;
	const struct wr_ruleset *rs;
	char ruleset[64];
	json_object *options;    /* owned */
	int nseats;
	char status[16];
	int seq, version;
	char *state;             /* snapshot JSON text, owned; NULL while open */
	unsigned char seed[32], commitment[32];
	unsigned char client[4 * (WP_CLIENT_SEED_MAX + 1)];
	size_t client_len;
	int64_t draws;
	unsigned awaiting, draw_offers;
	json_object *result;     /* owned, NULL while playing */
	int64_t created_by;
	char created_at[40], updated_at[40];
	struct wp_seat seats[WR_MAX_SEATS];
};

void wp_game_free(struct wp_game *g);
int wp_game_over(const struct wp_game *g);

/* Client seed material for the dice: for each seat in order, one length
 * byte then the seed's bytes (DESIGN.md "Dice anyone can audit"). */
size_t wp_client_material(const struct wp_seat *seats, int n, unsigned char *out, size_t cap);

/* Applies one post's content to a live state. kind is "turn" (a list of
 * actions by seat, each while the seat is awaited), "orders" (standing
 * orders) or "resign". On failure *bad_index is the action at fault. */
int wp_apply_post(const struct wr_ruleset *rs, void *state, int seat, const char *kind,
                  json_object *content, struct wr_rng *rng, struct wr_events *ev,
                  struct wr_error *err, int *bad_index);

/* Result of the ruleset as JSON ({"winners":[...], "draw":..., ...}),
 * NULL while the match goes on. */
json_object *wp_result_json(const struct wr_result *r, int nseats);

/* Events as stored: [{"to": mask, "e": {...}}]. Takes the bodies. */
json_object *wp_events_store(struct wr_events *ev);
/* Draws as stored: [[bound, value], ...]. */
json_object *wp_rolls_json(const struct wr_rng *rng);

/* --- store (game_store.c) --- */
enum wp_err wp_game_load(struct wp_ctx *ctx, PGconn *c, int64_t id, int lock, struct wp_game *g);
/* The seat the player holds in the game, or -1. */
int wp_game_seat_of(const struct wp_game *g, int64_t player_id);
int wp_parse_id(const char *s, int64_t *id);

#endif
