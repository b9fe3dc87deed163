/*
 * Wargame Chess: the state a faction's hooks see, the hooks themselves and
 * the helpers they may call. A faction is data (struct wc_faction: its
 * roster in rank order and its upgrades) plus hooks at the trigger points
 * the text names (RULINGS.md, Wargame Chess W1): start and end of turn,
 * start and end of an Activation, before a roll, on slain, between
 * Activations. Adding a faction is one file that fills one of these.
 */
#ifndef WC_FACTION_H
#define WC_FACTION_H

#include "rules.h"
#include "template.h"

#define WC_SEATS 2
#define WC_MAX_OPTS 12
#define WC_MAX_UPGRADES 8
#define WC_MAX_PIECES 40
#define WC_MAX_TREES 6
#define WC_TEAM_POINTS 14
#define WC_LAST_TURN 10

/* Piece types (000_fd193abe0e5c92ac.txt, Piece types, dice, and common
 * piece rules). */
enum wc_type { WC_PAWN, WC_ROOK, WC_KNIGHT, WC_BISHOP, WC_QUEEN, WC_KING, WC_JOKER, WC_TYPE_MAX };

/* Common rules a roster entry has (a faction may drop one, the text says). */
#define WC_R_EN_PASSANT 0x01u
#define WC_R_PROMOTION 0x02u
#define WC_R_CASTLE 0x04u
#define WC_R_MOUNTED 0x08u
#define WC_R_LEADER 0x10u
#define WC_R_FOOL 0x20u
#define WC_R_LEGENDARY 0x40u

struct wc_option {
	const char *id;          /* "rook", unique in the faction */
	const char *name;
	enum wc_type type;
	int min, max;            /* quantity allowance, "(0-2)" */
	unsigned rules;          /* WC_R_* */
};

struct wc_upgrade {
	const char *id;
	const char *name;
	int cost;
};

/* OFF: not yet deployed; REDEPLOY: lifted off the board, its owner is to
 * choose its square (RULINGS.md W9) */
enum wc_where { WC_OFF = 0, WC_ON, WC_SLAIN, WC_REMOVED, WC_REDEPLOY };

struct wc_piece {
	int seat, opt;           /* owner; index in its faction's roster (= rank) */
	enum wc_type type;
	int where, sq;           /* sq only while WC_ON */
	int adv, dis;            /* Advantage and Disadvantage tokens */
	int blessing, curse;     /* 0 or 1 each */
	int activated;           /* this turn */
	int reactivations;       /* this turn */
	int ever_activated;      /* En Passant: "its first Activation of the game" */
	int mark;                /* free for a faction's hooks; saved */
};

struct wc_seat {
	int submitted;           /* team list in */
	int faction;             /* index in the faction list */
	int counts[WC_MAX_OPTS];
	unsigned upgrades;       /* bit i: upgrade i taken */
	int order_defend;        /* standing order: WC_ORDER_* */
	int var[4];              /* free for a faction's hooks; saved */
};

enum wc_order { WC_ORDER_ASK = 0, WC_ORDER_ALWAYS, WC_ORDER_NEVER };
enum wc_phase { WC_PH_TEAMS, WC_PH_TREES, WC_PH_DEPLOY, WC_PH_PLAY, WC_PH_OVER };
/* Where the active seat's Activation stands. */
enum wc_stage {
	WC_ST_PICK,              /* choose a piece to Re/Activate */
	WC_ST_ACT,               /* the piece is Activated: Move, Attack, stay, Promote */
	WC_ST_EN_PASSANT,        /* a second Move or end */
	WC_ST_DEFEND,            /* the defender's Advantage token reaction (W4) */
	WC_ST_COMBAT,            /* the defender's Combat Movement (W5) */
};

struct wc_attack {
	int att, def;            /* piece ids */
	int from, sq;            /* the attacker's square before, the shared square */
	int att_spent;           /* +1 Advantage token spent, -1 Disadvantage, 0 none */
	int def_spent;
};

struct wc_state {
	int phase, stage;
	int first_trees_random;  /* option */
	int tree_first;          /* seat that set up Trees first */
	int tree_choice;         /* WC_TREES_*, -1 before */
	int ntrees, trees[WC_MAX_TREES];
	int turn;                /* 1..10 in play */
	int active;              /* the seat deploying or Activating */
	int first_deployer;
	int first_this_turn;
	int last_activator;      /* seat of the last Re/Activation, -1 none */
	int any_activation;      /* the first Activation of the game happened */
	int act_piece;           /* the piece Re/Activating, -1 none */
	int act_reactivation;
	int act_first;           /* the piece's first Activation of the game */
	struct wc_attack atk;
	int npieces;
	struct wc_piece pieces[WC_MAX_PIECES];
	struct wc_seat seat[WC_SEATS];
	int over;
	unsigned winners;
	char reason[64];
};

enum wc_trees { WC_TREES_MIRROR, WC_TREES_MIRROR_FLIP, WC_TREES_RANDOM, WC_TREES_MAX };

/* What a hook is given: the state, the match's dice and the events. */
struct wc_ctx {
	struct wc_state *st;
	struct wr_rng *rng;
	struct wr_list *ev;      /* of struct wc_event (wc_rules.h); NULL: none kept */
};

/* One side of an Attack roll, as hooks may change it before it is rolled
 * (000_fd193abe0e5c92ac.txt, Attack: "apply modifiers, and/or resolve rule
 * effects before dice are rolled"; a bonus after the roll is `bonus`). */
struct wc_roll {
	int piece;
	int adv, dis;            /* instances of Advantage and Disadvantage */
	int prevent_adv, prevent_dis;
	int bonus;
};

enum wc_step { WC_STEP_FACTION, WC_STEP_UPGRADE, WC_STEP_PIECE };

struct wc_hooks {
	/* Beginning of turn, once per step per seat, alternating. */
	void (*turn_start)(struct wc_ctx *c, int seat, enum wc_step step);
	/* End of turn (faction rules, then upgrades), alternating. */
	void (*turn_end)(struct wc_ctx *c, int seat, enum wc_step step);
	void (*activation_start)(struct wc_ctx *c, int piece);
	void (*activation_end)(struct wc_ctx *c, int piece);
	/* Called with this faction's seat for every Attack roll it is part of. */
	void (*before_roll)(struct wc_ctx *c, int seat, struct wc_roll *att, struct wc_roll *def);
	/* A piece of this faction would be slain by `by` (-1: no piece).
	 * Nonzero: it "cannot be slain". */
	int (*on_slain)(struct wc_ctx *c, int piece, int by);
	/* Between Activations; `last` is the piece that just Re/Activated. */
	void (*between_activations)(struct wc_ctx *c, int seat, int last);
};

struct wc_faction {
	const char *id;
	const char *name;
	const struct wc_option *opts;   /* rank order, highest first */
	int nopts;
	const struct wc_upgrade *upgrades;
	int nupgrades;
	struct wc_hooks hooks;
};

/* The factions a match may choose: Standard, then any added. */
int wc_faction_count(void);
const struct wc_faction *wc_faction_at(int i);
int wc_faction_find(const char *id);
/* Adds a faction (tests only; the product ships Standard alone). */
int wc_faction_add(const struct wc_faction *f);
extern const struct wc_faction wc_standard;

/* ---- helpers for hooks and rules (wc_board.c, wc_turn.c) ---- */

/* Gives n Advantage (kind 0) or Disadvantage (kind 1) tokens, cancelling
 * against the other kind, and spreads one to each other Blessed (Cursed)
 * ally once the first Activation happened, with no feedback loop. */
void wc_give_tokens(struct wc_ctx *c, int piece, int kind, int n, const char *cause);
/* A Blessing (kind 0) or Curse (kind 1) token; -1 when not a valid target. */
int wc_give_faith(struct wc_ctx *c, int piece, int kind, const char *cause);
/* Valid targets for a token of `kind` (0 Advantage, 1 Disadvantage,
 * 2 Blessing, 3 Curse) given by `giver` among the candidate mask: no
 * Blessed piece for a Blessing, no Cursed one for a Curse; for an
 * Advantage or Disadvantage token, the giver's own Jokers only when
 * nothing else is valid (Dis/Advantage and Jokers). Returns the mask. */
uint64_t wc_token_targets(const struct wc_state *st, int giver, int kind, uint64_t candidates);
/* Setting pieces up randomly: two D8 (rank, then file), re-rolled while
 * the square is taken (G2). Returns the square, or -1 when none is free. */
int wc_random_square(struct wc_ctx *c);
/* Scattering from sq: D8 over the adjacent squares N, NE, .., NW,
 * re-rolled while taken or off the board. -1 when none is free. */
int wc_scatter(struct wc_ctx *c, int sq);
/* Removes a piece as slain (on_slain hooks and Faction Leader apply). */
void wc_slay(struct wc_ctx *c, int piece, int by);
/* 1 when sq holds no piece and no Tree. */
int wc_free(const struct wc_state *st, int sq);
int wc_piece_at(const struct wc_state *st, int sq);
int wc_is_tree(const struct wc_state *st, int sq);
const struct wc_option *wc_opt(const struct wc_state *st, int piece);

#endif
