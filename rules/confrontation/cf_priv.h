/*
 * Confrontation (004_13fa4739ee387ac7.txt, with RULINGS.md G1-G6 and
 * Confrontation R1-R10): what the rule logic (cf_rules.c), its JSON codec
 * (cf_json.c) and its data (cf_data.c) share. Not a public header.
 */
#ifndef CF_PRIV_H
#define CF_PRIV_H

#include <stdint.h>

#include "rules.h"

#define CF_MAX_PIECES 16         /* R1: the army fits its set-up area */
#define CF_NSQ 64
#define CF_MAX_ACTS 4096

enum cf_type { CF_KING, CF_QUEEN, CF_ROOK, CF_BISHOP, CF_KNIGHT, CF_PAWN, CF_TYPE_MAX };
enum cf_spell { CF_FIREBALL, CF_HEAL, CF_HURT, CF_JUDGEMENT, CF_PANIC, CF_SPELL_MAX };
enum cf_race { CF_NORACE, CF_DEMONS, CF_DWARVES, CF_ELVES, CF_HUMANS, CF_ORCS, CF_UNDEAD,
	       CF_RACE_MAX };
enum cf_terrain { CF_T_NONE, CF_BARRIER, CF_COUNTERSPELL, CF_ENHANCEMENT, CF_ROUGH, CF_T_MAX };
enum cf_status { CF_UNPLACED, CF_ON, CF_REMOVED, CF_GONE, CF_STATUS_MAX };
enum cf_phase { CF_BUILD, CF_ORDER, CF_SETUP, CF_PLAY, CF_OVER, CF_PHASE_MAX };
/* Standing orders (G3, R8). */
enum cf_yesno { CF_ASK, CF_ALWAYS, CF_NEVER, CF_YESNO_MAX };
enum cf_luck { CF_LUCK_ASK, CF_LUCK_ALWAYS, CF_LUCK_NEVER, CF_LUCK_IF_LOSING,
	       CF_LUCK_UNLESS_WINNING, CF_LUCK_MAX };
enum cf_terrain_mode { CF_TM_NONE, CF_TM_RANDOM, CF_TM_GIVEN, CF_TM_MAX };

/* Battle stages (R6): decisions may stop the resolution at any of them. */
enum cf_stage { CF_ST_NONE, CF_ST_HTL, CF_ST_ROLL, CF_ST_LUCK_A, CF_ST_LUCK_D, CF_ST_RESOLVE,
		CF_ST_LIVE, CF_ST_MAX };
/* What started the resolution in progress. */
enum cf_src { CF_SRC_ACTION, CF_SRC_SWIFT, CF_SRC_FURY, CF_SRC_MAX };
enum cf_res_kind { CF_RES_NONE, CF_RES_MOVE, CF_RES_SPELL, CF_RES_MAX };

enum cf_act_kind {
	CF_A_BUY, CF_A_ADD_SPELL, CF_A_RACE, CF_A_BUY_RACIAL, CF_A_KING_SPELL, CF_A_RESET,
	CF_A_READY, CF_A_ORDER, CF_A_PLACE, CF_A_MOVE, CF_A_RISE, CF_A_STAY, CF_A_CAST,
	CF_A_LEADERSHIP, CF_A_SWIFT, CF_A_FURY, CF_A_END_TURN, CF_A_HTL, CF_A_LUCK, CF_A_LIVE,
	CF_A_PANIC_SQ, CF_A_MAX
};

/* One action, parsed. Fields by kind (see README.md): a, b, c, d. */
struct cf_act {
	int kind;
	int a, b, c, d;
};

struct cf_piece {
	int type;
	int sq;                  /* -1 when not on the board */
	int status;
	int strength;            /* Rook tokens (VI, Strength) */
	int treasure;            /* XI */
	int spells[CF_SPELL_MAX];/* spells still held, by kind */
};

struct cf_seat {
	int n;
	struct cf_piece p[CF_MAX_PIECES];
	int points;              /* army points left during the build */
	int race;
	int racial;              /* racial tokens left (IX) */
	int racial_bought;
	int ready, out;
	int rolls[8], nrolls;    /* the set-up roll and its re-rolls (R2) */
	int o_htl, o_luck, o_live;  /* standing orders, private */
};

/* A battle between two pieces (IV, R6), or a spell's battle (R7). */
struct cf_battle {
	int stage;
	int a_seat, a_id, d_seat, d_id;
	int from, at;            /* mover's origin; the contested square */
	int spell;               /* -1 for a battle of movement */
	int htl;                 /* Hold the Line used */
	int a_die, d_die;
	int a_luck, d_luck;      /* Luck used (0/1) */
	int loser_seat, loser_id;/* awaiting Live Again */
	int outcome;             /* 1 attacker wins, 0 draw, -1 defender wins */
};

struct cf_res {
	int kind;                /* enum cf_res_kind */
	int src;
	int seat, id;            /* the acting piece */
	int spell;
	int nt, tseat[8], tid[8], ti;  /* targets of a spell, next one */
	int won;                 /* the acting piece won a battle (Battle Fury) */
	int moved;               /* the acting piece moved (Swift Movement) */
	int panic_seat, panic_id;/* awaiting the owner's Panic square, or -1 */
	int in_battle;
	struct cf_battle b;
};

struct cf_opts {
	int points;
	int races, treasure, kings_magic;
	int terrain_mode, random_areas;
};

struct cf_state {
	struct cf_opts o;
	int nseats;
	int phase;
	int terrain[CF_NSQ];
	struct cf_seat s[WR_MAX_SEATS];
	int order[WR_MAX_SEATS], norder;   /* set-up and play order (R2) */
	int chooser;             /* the high roller, in CF_ORDER */
	int placer;              /* index into order, in CF_SETUP */
	/* The turn (R4). */
	int turn, active;
	int nacts;
	unsigned used;           /* piece ids that acted this turn */
	int leadership_used;
	int risen;               /* Rise From Hell: piece awaiting its move, or -1 */
	int swift;               /* Swift Movement offered to this piece, or -1 */
	int fury;                /* Battle Fury: 0 none, 1 offered, 2 one move made */
	unsigned fury_excl;
	int idle;                /* turns in a row that ended with nothing to do */
	struct cf_res r;
	/* The end. */
	unsigned winners;
	char reason[96];
	int board[CF_NSQ];       /* derived: seat * 16 + id, or -1 */
};

/* cf_data.c */
extern const char *const cf_type_name[CF_TYPE_MAX];
extern const int cf_move[CF_TYPE_MAX], cf_combat[CF_TYPE_MAX], cf_cost[CF_TYPE_MAX];
extern const char *const cf_spell_name[CF_SPELL_MAX];
extern const int cf_spell_combat[CF_SPELL_MAX], cf_spell_range[CF_SPELL_MAX];
extern const char *const cf_race_name[CF_RACE_MAX];
extern const char *const cf_terrain_name[CF_T_MAX];
extern const char cf_terrain_letter[CF_T_MAX];
extern const char *const cf_status_name[CF_STATUS_MAX];
extern const char *const cf_phase_name[CF_PHASE_MAX];
extern const char *const cf_yesno_name[CF_YESNO_MAX];
extern const char *const cf_luck_name[CF_LUCK_MAX];
extern const char *const cf_tm_name[CF_TM_MAX];
extern const char *const cf_act_name[CF_A_MAX];
extern const char *const cf_stage_name[CF_ST_MAX];
extern const char *const cf_src_name[CF_SRC_MAX];
extern const char *const cf_res_name[CF_RES_MAX];
int cf_lookup(const char *const *names, int n, const char *s);

/* cf_rules.c */
void cf_init(struct cf_state *st, const struct cf_opts *o, int nseats);
int cf_random_terrain(struct cf_state *st, struct wr_rng *rng);
int cf_terrain_check(const int *terrain, int sq_count_check, struct wr_error *err);
void cf_rebuild_board(struct cf_state *st);
int cf_check(const struct cf_state *st, struct wr_error *err);
int cf_in_area(const struct cf_state *st, int seat, int sq);
unsigned cf_awaited(const struct cf_state *st);
int cf_legal(const struct cf_state *st, int seat, struct cf_act *out, int max);
int cf_do(struct cf_state *st, int seat, const struct cf_act *a, struct wr_rng *rng,
          struct wr_events *ev, struct wr_error *err);
int cf_set_orders(struct cf_state *st, int seat, int htl, int luck, int live);
void cf_resign(struct cf_state *st, int seat, struct wr_rng *rng, struct wr_events *ev);
void cf_settle_public(struct cf_state *st, struct wr_rng *rng, struct wr_events *ev);
const char *cf_pending_kind(const struct cf_state *st, int seat);
int cf_piece_on(const struct cf_state *st, int sq, int *seat, int *id);

/* cf_json.c */
json_object *cf_piece_ref(const struct cf_state *st, int seat, int id);
json_object *cf_act_json(const struct cf_act *a);
int cf_act_parse(json_object *j, struct cf_act *a, struct wr_error *err);
json_object *cf_ev(const char *type);
void cf_ev_int(json_object *e, const char *key, int v);
void cf_ev_str(json_object *e, const char *key, const char *v);
void cf_ev_sq(json_object *e, const char *key, int sq);

extern const struct wr_ruleset cf_ruleset;

#endif
