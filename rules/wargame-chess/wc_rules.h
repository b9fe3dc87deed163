/*
 * Wargame Chess internals (rules/README.md, "Adding a ruleset"): the plain
 * action and event structs, the rule functions (wc_board.c, wc_turn.c,
 * wc_rules.c: no JSON) and what the codec (wc_codec.c, wc_snapshot.c)
 * shares. Calls run one way: wc_codec.c -> wc_snapshot.c -> wc_rules.c ->
 * wc_turn.c -> wc_board.c -> wc_data.c (a file may skip a step, never
 * call back); the rules never call the codec.
 */
#ifndef WC_RULES_H
#define WC_RULES_H

#include "template.h"
#include "wc_faction.h"

/* ------------------------------------------------------------ actions */

enum wc_kind {
	WC_A_TEAM = 1, WC_A_TREES, WC_A_DEPLOY, WC_A_ACTIVATE, WC_A_MOVE, WC_A_ATTACK,
	WC_A_STAY, WC_A_PROMOTE, WC_A_END, WC_A_DEFEND, WC_A_COMBAT, WC_A_REDEPLOY, WC_A_MAX
};

enum wc_combat_option { WC_CM_PUSH, WC_CM_RETREAT, WC_CM_RETURN };

#define WC_ID_LEN 24

/* One action; every field is named for what it is. Fields an action does
 * not use are zero, squares -1 (wc_action_init). */
struct wc_action {
	int kind;                      /* WC_A_* */
	/* team */
	int faction;                   /* index in the faction list */
	int counts[WC_MAX_OPTS];       /* per roster option */
	unsigned upgrades;             /* bit u: upgrade u */
	/* trees */
	int trees;                     /* WC_TREES_* */
	/* deploy */
	char option[WC_ID_LEN];        /* roster option id of the acting seat */
	/* deploy, activate, redeploy: the square; move, attack: the
	 * destination; combat_move: where the moved piece goes */
	int sq;
	int castle;                    /* move: the ally's square, -1 none */
	int advantage;                 /* attack, defend: spend an Advantage token */
	int piece;                     /* promote: id of the slain positional */
	int combat;                    /* combat_move: WC_CM_PUSH or WC_CM_RETREAT */
};

void wc_action_init(struct wc_action *a, int kind);

/* ------------------------------------------------------------- events */

enum wc_ev {
	WC_EV_PHASE, WC_EV_TEAM_SUBMITTED, WC_EV_TEAM_LIST, WC_EV_TEAMS_REVEALED, WC_EV_TREES,
	WC_EV_DEPLOY, WC_EV_TURN_START, WC_EV_TURN_END, WC_EV_ACTIVATE, WC_EV_MOVE, WC_EV_CASTLE,
	WC_EV_STAY, WC_EV_PROMOTE, WC_EV_ATTACK, WC_EV_TOKEN_SPENT, WC_EV_ROLL,
	WC_EV_ATTACK_RESULT, WC_EV_SLAIN, WC_EV_NOT_SLAIN, WC_EV_COMBAT_MOVEMENT, WC_EV_TOKENS,
	WC_EV_TOKEN_REMOVED, WC_EV_FAITH, WC_EV_TOKENS_CLEARED, WC_EV_ACTIVATION_END,
	WC_EV_RESIGN, WC_EV_GAME_OVER, WC_EV_REDEPLOYED, WC_EV_MAX
};

/* Rolls shown in a trees event; re-rolls past this many (p < 10^-40) are
 * made but not listed. */
#define WC_MAX_TREE_ROLLS 16
#define WC_SETUP_ROLLED (-1)           /* trees.setup: the first seat's roll */

struct wc_tree_roll {
	int d4, d8, sq, rerolled;
};

/* A token kind: 0 Advantage, 1 Disadvantage (Blessing / Curse for faith). */
struct wc_event {
	enum wc_ev type;
	unsigned visible_to;           /* WR_VIS_PUBLIC or a seat mask */
	union {
		struct { int phase; } phase;
		struct { int seat; } seat;                       /* team_submitted, resign */
		struct {
			int seat, faction, counts[WC_MAX_OPTS];
			unsigned upgrades;
		} team_list;
		struct {
			int seat, setup;                         /* WC_TREES_* or WC_SETUP_ROLLED */
			int nrolls, nsquares;
			struct wc_tree_roll rolls[WC_MAX_TREE_ROLLS];
			int squares[3];
		} trees;
		struct { int seat, piece, sq; } deploy;          /* deploy, redeployed */
		struct { int turn, first; } turn;                /* turn_start, turn_end */
		struct { int seat, piece, sq, reactivation; } activate;
		struct { int piece, from, to; } move;
		struct { int rook, ally, rook_to, ally_to; } castle;
		struct { int piece; } piece;                     /* stay, activation_end */
		struct { int pawn, piece, sq, activated; } promote;
		struct { int attacker, defender, from, sq; } attack;
		struct { int piece, kind, defence; } spent;      /* token_spent */
		struct {
			int piece, defence, type, nfaces, faces[2], net;
			int advantages, disadvantages, prevent_adv, prevent_dis, bonus, total;
		} roll;
		struct { int attacker, defender, attack, defence, success; } result;
		struct { int piece, by, sq; } slain;
		struct { int piece, from, to, adjacent; } not_slain;
		struct { int option, piece, to; } combat;        /* WC_CM_* */
		struct {
			int piece, kind, amount, cancelled, advantage, disadvantage;
			const char *cause;                       /* a string literal */
		} tokens;
		struct { int piece, kind; const char *cause; } removed;
		struct { int piece, kind, cancelled; const char *cause; } faith;
		struct { int piece, advantage, disadvantage; } cleared;
		struct {
			unsigned winners;
			int points[WC_SEATS];
			char reason[64];
		} over;
	} u;
};

/* A new public event on the context's list (a scratch slot when the
 * context has no list or memory runs out). */
struct wc_event *wc_emit(struct wc_ctx *c, enum wc_ev type);

/* --------------------------------------------------------------- data */

extern const char *const wc_type_names[WC_TYPE_MAX];
extern const char *const wc_dice[WC_TYPE_MAX];
extern const int wc_type_cost[WC_TYPE_MAX];
extern const int wc_set_limit[WC_TYPE_MAX];
extern const char *const wc_kind_names[WC_A_MAX];
extern const char *const wc_phase_names[];
extern const char *const wc_stage_names[];
extern const char *const wc_tree_names[WC_TREES_MAX];
extern const char *const wc_order_names[3];

/* ------------------------------------------- board helpers (wc_board.c) */

const struct wc_faction *wc_fac(const struct wc_state *st, int seat);
unsigned wc_rules_of(const struct wc_state *st, int piece);
int wc_zone(int seat, int sq);
/* W9: the piece lifted off the board for its owner to redeploy (the
 * lowest id when several are), or -1; and the squares it may go to. */
int wc_redeploying(const struct wc_state *st);
int wc_redeploy_squares(const struct wc_state *st, int seat, int *out);
/* Undo (issue 14): 1 when a piece was deployed while the lists are still
 * hidden (W8: a piece on the board shows part of its seat's list). */
int wc_undo_barrier(const void *before, const void *after, int seat,
                    const struct wr_events *ev);
/* Moves and Attacks of a piece: destination squares (W3, Trees block). */
void wc_paths(const struct wc_state *st, int piece, int *mv, int *nm, int *at, int *na);
int wc_in_list(const int *v, int n, int x);
int wc_castle_partners(const struct wc_state *st, int rook, int to, int *out);
int wc_can_promote_into(const struct wc_state *st, int pawn, int q);
int wc_promotion_open(const struct wc_state *st, int pawn);
int wc_adjacent_free(const struct wc_state *st, int sq, int *out);
/* Roster option `id` of the seat's faction, or -1. */
int wc_option_find(const struct wc_state *st, int seat, const char *id);
/* Pieces of the seat's option still to deploy (W8: a piece exists in
 * the state once it is deployed). */
int wc_reserve(const struct wc_state *st, int seat, int opt);
/* 1 when the team lists are shown to both seats (W8: both deployed). */
int wc_lists_shown(const struct wc_state *st);

/* ------------------------------------------- turn machine (wc_turn.c) */

void wc_set_phase(struct wc_ctx *c, int phase);
int wc_points(const struct wc_state *st, int seat);
void wc_finish(struct wc_ctx *c, unsigned winners, const char *reason);
/* Points decide: after Turn 10 and in inconclusive games (W7). */
void wc_finish_by_points(struct wc_ctx *c, const char *reason);
void wc_check_end(struct wc_ctx *c);
void wc_start_turn(struct wc_ctx *c);
void wc_end_activation(struct wc_ctx *c);
void wc_activate(struct wc_ctx *c, int piece);
void wc_start_attack(struct wc_ctx *c, int to, int advantage);
void wc_resolve_attack(struct wc_ctx *c);
void wc_spend(struct wc_ctx *c, int piece, int kind, int defence);
int wc_unactivated(const struct wc_state *st, int seat);
void wc_roll_trees(struct wc_ctx *c, int seat, struct wc_event *e);

/* ------------------------------------------- the template (wc_rules.c) */

int wc_init(struct wc_state *st, int first_trees_random, struct wr_rng *rng);
unsigned wc_to_act(const void *state);
int wc_team_check(int faction, const int *counts, unsigned upgrades, struct wr_error *err);
void wc_candidates(const void *state, int seat, struct wr_list *out);
int wc_legal(const void *state, int seat, const void *action, struct wr_error *err);
void wc_apply(void *state, int seat, const void *action, struct wr_rng *rng, struct wr_list *ev);
/* A seat leaves: the other seat wins (a loss, not inconclusive: W7). */
int wc_resign(void *state, int seat, struct wr_rng *rng, struct wr_list *ev);
/* A match ended early by agreement: an inconclusive game, decided on
 * points; equal is a draw (000_fd193abe0e5c92ac.txt, Inconclusive games;
 * RULINGS.md W7). */
void wc_inconclusive(struct wc_state *st, struct wr_list *ev);

/* ------------------------------------------------- codec (wc_codec.c) */

extern const struct wr_template wc_template;

/* ------------------------------ the computer player (wc_bot.c, issue 27) */

void *wc_determinize(json_object *view, int seat, struct wr_rng *rng, struct wr_error *err);
double wc_evaluate(const void *state, int seat);

#endif
