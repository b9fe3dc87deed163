/* Wargame Chess internals shared by wc_rules.c, wc_json.c and wc_data.c. */
#ifndef WC_PRIVATE_H
#define WC_PRIVATE_H

#include "wc_faction.h"

enum wc_kind {
	WC_A_TEAM = 1, WC_A_TREES, WC_A_DEPLOY, WC_A_ACTIVATE, WC_A_MOVE, WC_A_ATTACK,
	WC_A_STAY, WC_A_PROMOTE, WC_A_END, WC_A_DEFEND, WC_A_COMBAT, WC_A_MAX
};

/* One action in plain form; unused fields are zero (or -1 for squares) so
 * two equal actions compare equal with memcmp. */
struct wc_action {
	int kind;
	int faction;             /* team */
	int counts[WC_MAX_OPTS]; /* team */
	unsigned upgrades;       /* team */
	int choice;              /* trees: WC_TREES_*; combat: 0 push, 1 retreat */
	int opt;                 /* deploy: roster index */
	int sq;                  /* deploy, activate, move, attack, combat */
	int castle;              /* move: the ally's square, -1 none */
	int adv;                 /* attack, defend: spend an Advantage token */
	int piece;               /* promote: the slain piece */
};

extern const char *const wc_type_names[WC_TYPE_MAX];
extern const char *const wc_dice[WC_TYPE_MAX];
extern const int wc_type_cost[WC_TYPE_MAX];
extern const int wc_set_limit[WC_TYPE_MAX];
extern const char *const wc_kind_names[WC_A_MAX];
extern const char *const wc_phase_names[];
extern const char *const wc_stage_names[];
extern const char *const wc_tree_names[WC_TREES_MAX];

void wc_action_init(struct wc_action *a, int kind);
int wc_init(struct wc_state *st, int first_trees_random, struct wr_rng *rng, struct wr_events *ev);
/* Every legal action of the seat now; returns the count (<= max written). */
int wc_list(const struct wc_state *st, int seat, struct wc_action *out, int max);
/* 0 when legal, else -1 with err (nothing changed). */
int wc_check(const struct wc_state *st, int seat, const struct wc_action *a, struct wr_error *err);
/* Applies a checked action. */
void wc_do(struct wc_state *st, int seat, const struct wc_action *a, struct wr_rng *rng,
           struct wr_events *ev);
unsigned wc_to_act(const struct wc_state *st);
int wc_team_check(int faction, const int *counts, unsigned upgrades, struct wr_error *err);
int wc_points(const struct wc_state *st, int seat);
void wc_finish(struct wc_state *st, unsigned winners, const char *reason, struct wr_events *ev);
/* Ends an inconclusive game: points decide (000_fd193abe0e5c92ac.txt,
 * Inconclusive games). */
void wc_inconclusive(struct wc_state *st, struct wr_events *ev);
int wc_zone(int seat, int sq);
json_object *wc_sq_json(int sq);

#endif
