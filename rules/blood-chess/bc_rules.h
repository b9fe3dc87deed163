/* Blood Chess, private: the state, action and event structs and the rule
 * functions. No JSON here. Calls run one way, down this list:
 *
 *   bc_data.c    templates and names printed
 *   bc_board.c   the pieces: layout, owner and kind, what stands where
 *   bc_combat.c  the Champions combat of RULINGS.md B8-B9
 *   bc_rules.c   set-up, order, movement, decoys, the end
 *   bc_snapshot.c  sheets, save/load and views as JSON
 *   bc_codec.c   options, actions and events as JSON, the tables
 *
 * each file calling only those above it. */
#ifndef BC_RULES_H
#define BC_RULES_H

#include "rules.h"
#include "template.h"

#define BC_SEATS 2              /* the two sides; seat 2 is the referee (B11) */
#define BC_REF_SEAT 2
#define BC_ROLES 5              /* King, Queen, Rook, Bishop, Knight (B1) */
#define BC_PER_SIDE 16
#define BC_PIECES 32
#define BC_MAX_ATTACKS 3
#define BC_MAX_CUSTOM 8         /* sheets given at creation (option "sheets") */
#define BC_NAME 24
#define BC_MAX_DICE 20
/* Turns of the Speed Chart before the match ends on points (option
 * turn_limit; 0 = until a King falls, as the text) */
#define BC_DEFAULT_TURN_LIMIT 0
/* Referee outcomes (B11): at most what the server's own dice deal, STUN
 * of a 6d6 killing attack at x5 (180) and BODY of a 20d6 normal one (40) */
#define BC_MAX_OUT_STUN 180
#define BC_MAX_OUT_BODY 40

enum bc_kind { BC_KING, BC_QUEEN, BC_ROOK, BC_BISHOP, BC_KNIGHT, BC_PAWN, BC_KIND_MAX };
extern const char *const bc_kind_names[BC_KIND_MAX];

enum bc_stage { BC_SETUP, BC_PLAY, BC_REFEREE, BC_OVER, BC_STAGE_MAX };
extern const char *const bc_stage_names[BC_STAGE_MAX];

struct bc_attack {
	char name[BC_NAME];
	int dice;               /* Nd6 */
	int killing;            /* 0 normal, 1 killing (B8) */
	int ranged;             /* 0 HTH, 1 at range */
	int vs_ed;              /* 0 against PD, 1 against ED */
	int area;               /* Area Effect (B9), ranged only */
};

/* A character sheet (B2). */
struct bc_sheet {
	char name[BC_NAME];
	int dex, spd, ocv, dcv, con, body, stun, rec, pd, ed, rpd, red;
	int nattacks;
	struct bc_attack att[BC_MAX_ATTACKS];
};

struct bc_template {
	const char *id;
	const char *blurb;      /* for a player who has never read Champions */
	struct bc_sheet sheet;
};
extern const struct bc_template bc_templates[];
extern const int bc_ntemplates;

struct bc_piece {
	int sq;                 /* 0..63, -1 removed */
	int decoy;              /* Pawn, or the Mirror of its Rook/Bishop/Knight */
	int moved;              /* Pawns: the two-square first move is gone */
	int revealed;           /* a resolution said "decoy" or "real" (B6) */
	int engaged;            /* the piece it fights in HTH on its square, or -1 */
};

struct bc_char {
	int chosen;             /* the sheet is picked (set-up) */
	struct bc_sheet sh;
	int stun, body;
	int stunned, unconscious, dodging, removed;
};

/* An attack waiting for the referee's outcome (B11): hit, then the STUN,
 * then the BODY each target takes after defenses. */
enum bc_ref_step { BC_REF_HIT, BC_REF_STUN, BC_REF_BODY, BC_REF_STEP_MAX };
struct bc_pending {
	int attacker;           /* piece */
	int attack;             /* index in the attacker's sheet */
	int target_sq;
	int step;
	int hit, stun;
};

struct bc_state {
	int seats;              /* 2, or 3 with the referee */
	int referee;
	int mirrors_random;
	int turn_limit;         /* 0: play until a King falls */
	int ncustom;
	struct bc_sheet custom[BC_MAX_CUSTOM];

	int stage;
	struct bc_piece p[BC_PIECES];
	struct bc_char ch[BC_SEATS][BC_ROLES];
	int mirror_set[BC_SEATS][3]; /* Rook, Bishop, Knight chosen */

	int turn, segment;
	int queue[BC_SEATS * BC_ROLES]; /* characters (seat*5+role) of this segment */
	int nqueue, qpos;       /* queue[qpos] acts now */
	struct bc_pending pend;

	int scores[BC_SEATS];
	unsigned winners;
	char reason[64];
};

/* bc_board.c. Piece index -> owner and kind (fixed layout: K Q R R B B N
 * N P*8). */
int bc_piece_seat(int i);
int bc_piece_kind(int i);
int bc_start_square(int i);
/* The piece whose start square is sq (0..31), or -1. */
int bc_start_piece(int sq);
int bc_char_of_piece(int i);                   /* role of a character piece, -1 Pawn */
int bc_real_piece(const struct bc_state *st, int seat, int role);
int bc_piece_looks_unconscious(const struct bc_state *st, int i);
int bc_pieces_at(const struct bc_state *st, int sq, int out[2]);
/* Undo (issue 14): 1 when the post revealed a piece, decoy or real (B6:
 * the decoy question's answer). */
int bc_undo_barrier(const void *before, const void *after, int seat,
                    const struct wr_events *ev);

/* ------------------------------------------------------------ actions */

enum bc_act {
	BC_A_SHEET,     /* set-up: a template for a role */
	BC_A_MIRROR,    /* set-up: the start square of a Mirror (secret) */
	BC_A_MOVE,      /* move, or move onto an enemy (HTH) */
	BC_A_SHOOT,     /* stay and fire at an enemy square */
	BC_A_HTH,       /* continue an engaged HTH combat */
	BC_A_DODGE,
	BC_A_RECOVER,
	BC_A_REF_HIT,   /* the referee: the attack hits or misses */
	BC_A_REF_STUN,  /* the referee: STUN taken after defenses */
	BC_A_REF_BODY,  /* the referee: BODY taken after defenses */
	BC_A_MAX
};
extern const char *const bc_act_names[BC_A_MAX];

struct bc_action {
	enum bc_act type;
	int role;               /* sheet */
	int tmpl;               /* sheet: built-in index, or BC_CUSTOM_BASE + custom index */
	int square;             /* mirror */
	int from, to;           /* move, shoot */
	int attack;             /* move onto an enemy, shoot, hth: -1 none */
	int hit;                /* ref_hit */
	int value;              /* ref_stun, ref_body */
};
#define BC_CUSTOM_BASE 100

/* ------------------------------------------------------------- events */

enum bc_ev {
	BC_E_SHEET,         /* a role's sheet chosen (public) */
	BC_E_MIRROR,        /* a Mirror chosen: full to owner, redacted public */
	BC_E_START,         /* play starts */
	BC_E_SEGMENT,       /* a segment begins: turn, segment */
	BC_E_ROLLOFF,       /* a DEX tie rolled off */
	BC_E_PHASE,         /* a character's phase: seat, role */
	BC_E_LOST_PHASE,    /* Stunned: the phase is lost */
	BC_E_WAKE,          /* unconscious: recovers REC on its phase */
	BC_E_MOVE,          /* a piece moves (twin when it may be a Mirror) */
	BC_E_SHOOT,         /* a piece fires (twin) */
	BC_E_DECOY,         /* the decoy question and its answer */
	BC_E_ENGAGE,        /* HTH engagement on a square */
	BC_E_ATTACK,        /* to-hit roll and damage */
	BC_E_DAMAGE,        /* damage taken by one character */
	BC_E_REMOVED,       /* a piece leaves the board: points */
	BC_E_DODGE,
	BC_E_RECOVER,       /* Recovery action */
	BC_E_POST12,        /* after Segment 12: everyone recovers REC STUN */
	BC_E_AWAIT_REF,     /* the referee is asked */
	BC_E_END,           /* the end: every Mirror revealed */
	BC_E_MAX
};
extern const char *const bc_ev_names[BC_E_MAX];

enum bc_vis { BC_V_PUBLIC, BC_V_OWNER, BC_V_REDACTED };

struct bc_event {
	enum bc_ev type;
	enum bc_vis vis;        /* OWNER: the owner (and referee) only */
	int seat, role, kind;
	int from, to;           /* squares */
	int secret;             /* OWNER events: 1 when the piece is a Mirror */
	int attack;
	int decoy;              /* BC_E_DECOY: the defender is a decoy */
	int attacker_decoy;     /* -1 not asked / unrevealed, 0 real, 1 decoy */
	int roll, need, hit, area;
	int dice[BC_MAX_DICE];
	int ndice, killing, mult;
	int stun, body;         /* rolled */
	int stun_taken, body_taken, defense_stun, defense_body;
	int stunned, unconscious, removed;
	int is_stunned;         /* BC_E_DAMAGE: the state; stunned is this hit's STUN > CON */
	int points;
	int turn, segment;
	int value;              /* rolloff die, recovered STUN, ... */
	int by_referee;
};

/* ------------------------------------------------------ bc_snapshot.c */
json_object *bc_sheet_json(const struct bc_sheet *sh);
int bc_sheet_parse(json_object *o, struct bc_sheet *sh, const char *defname,
                   struct wr_error *err);
const char *bc_tmpl_id(const struct bc_state *st, int t);
int bc_copy_name(char *dst, const char *src, const char *field, struct wr_error *err);
json_object *bc_snapshot(const void *state);
void bc_save_out(const void *state, struct wr_out *w);
int bc_load(json_object *snap, void **state, struct wr_error *err);
json_object *bc_view(const void *state, int viewer);

/* ---------------------------------------------------------------- rules */

extern const struct wr_template bc_template;
/* The Champions Speed Chart (B3): does SPD spd act in Segment seg? */
int bc_has_phase(int spd, int seg);

void bc_init(struct bc_state *st, int seats, int referee, int mirrors_random, int turn_limit,
             struct wr_rng *rng);
const struct bc_sheet *bc_sheet_of(const struct bc_state *st, int tmpl);
int bc_sheet_valid(const struct bc_sheet *sh);
int bc_state_coherent(const struct bc_state *st);
unsigned bc_to_act(const void *state);
int bc_acting_char(const struct bc_state *st); /* seat*5+role, or -1 */
int bc_dcv(const struct bc_state *st, int seat, int role, const struct bc_attack *a);
void bc_candidates(const void *state, int seat, struct wr_list *out);
int bc_legal(const void *state, int seat, const void *action, struct wr_error *err);
void bc_apply(void *state, int seat, const void *action, struct wr_rng *rng, struct wr_list *ev);
int bc_resign(void *state, int seat, struct wr_rng *rng, struct wr_list *ev);
void bc_result(const void *state, struct wr_result *out);

/* bc_combat.c */
struct bc_event *bc_push(struct wr_list *ev, enum bc_ev type);
/* 3d6 <= need hits; 3 always hits, 18 always misses (B8). */
int bc_to_hit_need(int ocv, int dcv);
int bc_hits(int roll, int need);
/* Damage of one attack after defenses (B8). */
struct bc_damage {
	int stun, body;         /* rolled */
	int mult;               /* killing multiplier */
	int stun_taken, body_taken, def_stun, def_body;
};
void bc_damage_taken(const struct bc_attack *a, const struct bc_sheet *def, int stun, int body,
                     struct bc_damage *out);
void bc_roll_damage(const struct bc_attack *a, struct wr_rng *rng, int *dice, int *stun,
                    int *body, int *mult);
/* Resolves a real character's attack on the real characters of a square
 * (dice from rng, or the referee's posted outcome when `out` is given). */
void bc_resolve_attack(struct bc_state *st, int attacker, int att, int target_sq,
                       struct wr_rng *rng, struct wr_list *ev);
/* The same with the referee's outcome (B11): taken STUN and BODY. */
void bc_resolve_outcome(struct bc_state *st, int attacker, int att, int target_sq, int hit,
                        int stun_taken, int body_taken, struct wr_list *ev);
void bc_take(struct bc_state *st, int seat, int role, int stun_taken, int body_taken,
             struct wr_list *ev);
void bc_remove_piece(struct bc_state *st, int i, struct wr_list *ev);

/* ------------------------------ the computer player (bc_bot.c, issue 27) */

void *bc_determinize(json_object *view, int seat, struct wr_rng *rng, struct wr_error *err);
double bc_evaluate(const void *state, int seat);
/* Any action may meet an enemy Mirror or decoy the seat cannot tell from
 * the real piece: a draft ends at each (issue 30). */
int bc_may_reveal(const void *state, int seat, json_object *action);

#endif
