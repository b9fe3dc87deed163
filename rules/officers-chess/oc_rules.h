/* Officers Chess: the state, action and event structs, the data tables and
 * the rule functions (no JSON here; oc_codec.c turns them into JSON). */
#ifndef OC_RULES_H
#define OC_RULES_H

#include "rules.h"
#include "template.h"

/* ------------------------------------------------------------- data */

/* RULINGS.md O2: F < E < D < C < B < A < S. */
enum oc_rating { OC_F, OC_E, OC_D, OC_C, OC_B, OC_A, OC_S, OC_RATING_MAX };
enum oc_stat { OC_STR, OC_MAG, OC_DEX, OC_SPD, OC_DEF, OC_RES, OC_STAT_MAX };
enum oc_wtype { OC_SWORD, OC_AXE, OC_LANCE, OC_BOW, OC_DAGGER, OC_ART, OC_TOME, OC_STAFF,
	OC_WTYPE_MAX };
extern const char *const oc_rating_names[OC_RATING_MAX];
extern const char *const oc_stat_names[OC_STAT_MAX];
extern const char *const oc_wtype_names[OC_WTYPE_MAX];

/* Class tags (Tags, Class Tags; Dance and Pick are Special Action tags a
 * class gives). */
enum {
	OC_T_ARMOR = 1 << 0, OC_T_BACKUP = 1 << 1, OC_T_CANTO = 1 << 2, OC_T_CAVALRY = 1 << 3,
	OC_T_COVERT = 1 << 4, OC_T_DRAGON = 1 << 5, OC_T_FLYING = 1 << 6, OC_T_MYSTICAL = 1 << 7,
	OC_T_QI_ADEPT = 1 << 8, OC_T_DANCE = 1 << 9, OC_T_PICK = 1 << 10,
};
#define OC_NTAGS 11
extern const char *const oc_tag_names[OC_NTAGS];

struct oc_class {
	const char *id;          /* unique: "Bow Knight (Sword)" for a variant */
	const char *name;        /* as the table prints it */
	int hp;                  /* table HP - 7 (O1) */
	int table_hp;
	signed char rating[OC_STAT_MAX];
	signed char prof[OC_WTYPE_MAX];   /* highest level usable, -1 none (O3) */
	unsigned tags;
	int slow;
	int promoted;
};

enum oc_kind { OC_WEAPON, OC_ACCESSORY, OC_CONSUMABLE, OC_KIND_MAX };
enum oc_special {
	OC_SP_NONE, OC_SP_HEAL, OC_SP_ENTRAP, OC_SP_FREEZE, OC_SP_RESCUE, OC_SP_RESTORE,
	OC_SP_REWARP, OC_SP_TORCH, OC_SP_VEIN, OC_SP_WARP, OC_SP_STATUS, OC_SP_PICK, OC_SP_MAX
};
extern const char *const oc_special_names[OC_SP_MAX];
enum oc_status { OC_ST_NONE, OC_ST_BARRIER, OC_ST_BROKEN, OC_ST_POISONED, OC_ST_SILENCED,
	OC_ST_FROZEN, OC_ST_MAX };
extern const char *const oc_status_names[OC_ST_MAX];

struct oc_item {
	const char *name;
	int kind;
	int wtype, level;        /* weapons */
	int mt, wt, hit;
	int rmin, rmax;          /* rmax -1: any distance ("Inf"); 0/0: the user */
	int magic;               /* Mag damage type or Enchanted */
	int heavy, brave, complex, aoe, drain, homing, inverted, piercing;
	int deadly;
	unsigned effective;      /* class tags it is Effective against */
	int status;              /* Status(Effect) / Effect(Tag) on hit */
	signed char bonus[OC_STAT_MAX];   /* Bonus(+X) and Cursed(-X) rating steps */
	int agi;                 /* Bonus(Agi+X): Agility points */
	int lucky, nimble, fast, canto;
	int defense;             /* accessory Def: Damage Reduction points */
	int uses;                /* Consumable(X); 0 unlimited */
	int special, sp_arg;     /* Heal(X), Torch(X), Vein(terrain) ... */
	int offered;             /* every tag defined by the text */
	const char *why;         /* why not offered */
	const char *tags;        /* the table's text */
};

extern const struct oc_class oc_classes[];
extern const int oc_nclasses;
extern const struct oc_item oc_items[];
extern const int oc_nitems;

/* Terrain Table; Plains stands for every tile "not listed" (cost 1). */
enum oc_terrain {
	OC_TR_PLAINS, OC_TR_MOUNTAIN, OC_TR_WOODS, OC_TR_PILLAR, OC_TR_THICKET, OC_TR_FOG,
	OC_TR_FORT, OC_TR_PROTECT, OC_TR_HEAL, OC_TR_GATE, OC_TR_WATER, OC_TR_STONE,
	OC_TR_VINES, OC_TR_FLAMES, OC_TR_ICE, OC_TR_FLOOR, OC_TR_RUINS, OC_TR_MAX
};
struct oc_tile {
	const char *name;
	char glyph;              /* map grid letter */
	int move;                /* -1: blocks until destroyed or picked (O7) */
	int dr, avo;
	int vein;                /* may be created by Vein */
	int heal, burn;          /* start-of-turn effects */
	int hp;                  /* damage to destroy (Gate/Door, Ice) */
};
extern const struct oc_tile oc_tiles[OC_TR_MAX];

int oc_class_find(const char *id);
int oc_item_find(const char *name);

/* ------------------------------------------------------------ state */

#define OC_MAX_UNITS 12          /* per seat (O4) */
/* A round number a snapshot may hold: O14 sets no round limit by default,
 * so a long battle must not outgrow what load() accepts (a match whose
 * snapshot does not load can no longer be played). */
#define OC_MAX_ROUND 1000000000
#define OC_MAX_ALL 24
#define OC_MAX_DIM 16
#define OC_MAX_TILES (OC_MAX_DIM * OC_MAX_DIM)
#define OC_NAME 25
#define OC_SIGHT 3               /* O13 */
#define OC_MAX_TORCH 32

enum oc_qi { OC_QI_NEVER, OC_QI_ALWAYS, OC_QI_ASK, OC_QI_MAX };
extern const char *const oc_qi_names[OC_QI_MAX];
enum oc_phase { OC_PH_RECRUIT, OC_PH_DEPLOY, OC_PH_BATTLE, OC_PH_OVER, OC_PH_MAX };
extern const char *const oc_phase_names[OC_PH_MAX];
enum oc_where { OC_W_RESERVE, OC_W_MAP, OC_W_ROUTED, OC_W_ESCAPED, OC_W_MAX };
extern const char *const oc_where_names[OC_W_MAX];
enum oc_scenario { OC_SC_ROUT, OC_SC_SEIZE, OC_SC_ESCAPE, OC_SC_RAZE, OC_SC_MAX };
extern const char *const oc_scenario_names[OC_SC_MAX];
enum oc_reason { OC_R_NONE, OC_R_ROUT, OC_R_SEIZE, OC_R_ESCAPE, OC_R_RAZE, OC_R_ROUNDS,
	OC_R_RESIGN, OC_R_MAX };
extern const char *const oc_reason_names[OC_R_MAX];

struct oc_unit {
	char name[OC_NAME];
	int seat, cls, hp;
	int where, sq;           /* sq -1 unless on the map */
	int item[3], uses[3];    /* item -1: empty slot */
	int equip, acc;          /* equipped weapon / accessory slot, -1 */
	int activated, danced;
	int broken, poisoned, silenced, frozen;
	int barrier;             /* Barrier holds through this round, 0 none */
	int scen;                /* Leader / Fleeing / Raider (Scenario Tags) */
};

struct oc_torch {
	int seat, sq, radius;
};

struct oc_state {
	/* options */
	int seats;
	int nunits, promoted, fog, first_random, act[2], round_limit;
	int scenario, scen_seat;
	int files, ranks;
	char map[16];
	/* the map */
	unsigned char terrain[OC_MAX_TILES], base[OC_MAX_TILES];
	unsigned char vein[OC_MAX_TILES];      /* tile was changed by Vein this round */
	unsigned char mark[OC_MAX_TILES];      /* scenario tile (Seize/Escape/Raze) */
	int tile_dmg[OC_MAX_TILES];
	/* play */
	int phase, round, first, cur, left;
	int active, moved, acted, canto, traded;   /* the combat turn (O7) */
	int ready[2];            /* army built (recruit) / deployed (deploy) */
	int nu;
	struct oc_unit u[OC_MAX_ALL];
	int ntorch;
	struct oc_torch torch[OC_MAX_TORCH];
	int routed[2], escaped[2], razed;
	int qi[2];               /* standing order: OC_QI_NEVER / ALWAYS / ASK (G3) */
	int pend, pend_att, pend_def;   /* a Qi Adept guard owed by the defender */
	int winners, reason;
};

/* ---------------------------------------------------------- actions */

enum oc_act {
	OC_A_RECRUIT, OC_A_ARMY, OC_A_DEPLOY, OC_A_ACTIVATE, OC_A_MOVE, OC_A_ATTACK, OC_A_STAFF,
	OC_A_DANCE, OC_A_PICK, OC_A_USE, OC_A_EQUIP, OC_A_DISCARD, OC_A_TRADE, OC_A_SEIZE,
	OC_A_ESCAPE, OC_A_RAZE, OC_A_END, OC_A_GUARD, OC_A_NO_GUARD, OC_A_MAX
};
extern const char *const oc_act_names[OC_A_MAX];

struct oc_recruit {
	char name[OC_NAME];
	int cls;
	int nitems;
	int items[3];
};

struct oc_action {
	enum oc_act type;
	int nrec;                /* recruit: 1; army: the whole army */
	struct oc_recruit rec[OC_MAX_UNITS];
	char unit[OC_NAME];      /* deploy: the unit's name */
	int at;                  /* activate: the unit's square */
	int to;                  /* move, deploy, staff/dance destination; -1 none */
	int target;              /* attack, staff, dance, pick: target square; -1 none */
	int slot;                /* weapon or item slot; -1 none */
	int give, take;          /* trade: own slot given, partner slot taken; -1 none */
	int with;                /* trade: the partner's square */
};

/* ----------------------------------------------------------- combat */

/* One side of a combat forecast (the figures players of the genre expect),
 * computed by the code that resolves the attack. */
struct oc_side {
	int hit, crit;           /* percent, 0..100 */
	int dmg, crit_dmg;       /* per strike, after reduction */
	int strikes;             /* in the whole combat, follow-up included */
	int follow_up, can_strike;
};
struct oc_forecast {
	struct oc_side att, def;
	int heavy_first;         /* the defender strikes first (attacker's Heavy) */
	int backup;              /* +3 from Backup on the first hit */
	int triangle;            /* +1 attacker advantage, -1 defender advantage */
};

#define OC_MAX_STRIKES 8
struct oc_strike {
	int by_attacker;         /* 1: the attacker struck, 0: the counter */
	int roll, need, crit_need;
	int hit, crit, dmg, hp;  /* hp of the struck unit after */
	int broke, status, drained;
	int pushed_to;           /* Heavy: the square pushed to, -1 none */
	int guard;               /* Qi Adept took this strike: its unit index, -1;
	                          * OC_GUARD_HIDDEN in the copy of a seat that
	                          * does not see it (O19, G5) */
};
#define OC_GUARD_HIDDEN (-2)

/* ----------------------------------------------------------- events */

enum oc_ev {
	OC_E_RECRUITED, OC_E_ARMY_READY, OC_E_DEPLOYED, OC_E_DEPLOY_DONE, OC_E_ROUND,
	OC_E_ACTIVATED, OC_E_TILE, OC_E_MOVED, OC_E_AMBUSH, OC_E_COMBAT, OC_E_TILE_HIT,
	OC_E_STAFF, OC_E_USE, OC_E_EQUIP, OC_E_DISCARD, OC_E_TRADE, OC_E_ROUTED, OC_E_ESCAPED,
	OC_E_SEIZED, OC_E_RAZED, OC_E_TURN_END, OC_E_VEIN_END, OC_E_OVER, OC_E_GUARD_ASKED, OC_E_MAX
};
extern const char *const oc_ev_names[OC_E_MAX];

struct oc_event {
	enum oc_ev type;
	unsigned vis;            /* WR_VIS_PUBLIC or a seat mask */
	int seat;
	int unit, other;         /* unit indexes, -1 none or hidden */
	int from, to;            /* squares, -1 none or hidden */
	int item, item2;
	int amount, hp, hp2;
	int status, special, kind;
	int roll, need, hit;
	int nstrikes;
	struct oc_strike strikes[OC_MAX_STRIKES];
	struct oc_forecast fc;
};

/* ------------------------------------------------------------ rules */

extern const struct wr_template oc_template;

void oc_candidates(const void *state, int seat, struct wr_list *out);
int oc_legal(const void *state, int seat, const void *action, struct wr_error *err);
void oc_apply(void *state, int seat, const void *action, struct wr_rng *rng,
              struct wr_list *ev);
unsigned oc_to_act(const void *state);
/* The set-up of a fresh state after the options are checked (codec). */
void oc_start(struct oc_state *st, struct wr_rng *rng);
int oc_resign(void *state, int seat, struct wr_rng *rng, struct wr_list *ev);
int oc_check(const struct oc_state *st, struct wr_error *err);   /* load() validation */

/* oc_save.c: the snapshot, the views and the map's grid string, which
 * options and snapshots share (oc_codec.c calls it, never the other way). */
int oc_parse_grid(const char *g, unsigned char *terrain, struct wr_error *err);
void oc_grid_string(const unsigned char *terrain, char *out);
json_object *oc_snapshot(const void *state);
void oc_save_out(const void *state, struct wr_out *w);
json_object *oc_view(const void *state, int viewer);
int oc_load(json_object *j, void **state, struct wr_error *err);

/* Warp's destination and Rewarp's reach (RULINGS.md O16: one value). */
#define OC_WARP_RANGE 5

/* The board as each seat knows it (oc_board.c), shared by legality,
 * candidates, apply, combat and codec. */
int oc_ntiles(const struct oc_state *st);
int oc_seat_sees(const struct oc_state *st, int seat, int sq);
/* A unit the seat knows to be at sq (its own, or an enemy it sees), -1. */
int oc_known_unit_at(const struct oc_state *st, int seat, int sq);
int oc_count_units(const struct oc_state *st, int seat, int where);  /* where -1: all */
int oc_usable_weapon(const struct oc_unit *u, const struct oc_item *it);
int oc_is_staff(const struct oc_item *it);
int oc_in_zone(const struct oc_state *st, int seat, int sq);          /* deployment (G1) */
int oc_passable(const struct oc_state *st, int sq);
/* Move costs from unit i's square as its seat knows the map (O7). */
void oc_reach(const struct oc_state *st, int i, int limit, int *cost, int *prev);
int oc_budget(const struct oc_state *st);          /* the active unit's Move left */
int oc_free_slot(const struct oc_unit *u);
int oc_max_hp(const struct oc_unit *u);
int oc_scen_ok(const struct oc_state *st, const struct oc_unit *u, int sc);

/* oc_board.c too: the units' predicates rules, combat and codec share. */
int oc_movement(const struct oc_state *st, const struct oc_unit *u);
const struct oc_item *oc_weapon(const struct oc_unit *u);    /* equipped or NULL */
const struct oc_item *oc_accessory(const struct oc_unit *u);
int oc_unit_at(const struct oc_state *st, int sq);            /* unit index or -1 */
/* oc_combat.c: the numbers of a fight, shared by rules, legal and codec. */
int oc_rating(const struct oc_state *st, const struct oc_unit *u, int stat);
int oc_agility(const struct oc_state *st, const struct oc_unit *u);
int oc_dist(const struct oc_state *st, int a, int b);
int oc_in_range(const struct oc_item *w, int d);
/* Tiles a seat sees (O13); all of them without fog. */
void oc_sight(const struct oc_state *st, int seat, unsigned char *seen);
/* Whether `viewer` (a seat, WR_SPECTATOR, WR_EVERYONE) sees unit i. */
int oc_visible(const struct oc_state *st, int viewer, int i);
/* Undo (issue 14): 1 when some seat sees after the post a unit of another
 * seat it did not see before (under fog, O13: a move that shows the mover
 * an enemy, or shows the mover's unit to the enemy). */
/* Under fog (O13) any action may bring units into or out of someone's
 * sight, which the seat cannot foresee: a draft ends at it (issue 30). */
int oc_may_reveal(const void *state, int seat, json_object *action);
int oc_undo_barrier(const void *before, const void *after, int seat,
                    const struct wr_events *ev);
unsigned oc_seen_mask(const struct oc_state *st, int sq);     /* seats seeing sq */

/* Combat (oc_combat.c). */
void oc_forecast(const struct oc_state *st, int att, int def, int slot, struct oc_forecast *f);
/* Resolves an attack with the weapon in `slot` (equipped by then). */
/* guard: the Qi Adept that takes the first strike, -1 none, -2 as the
 * defender's standing order says (O11; Class Tags, Qi Adept). */
void oc_combat(struct oc_state *st, int att, int def, int guard, struct wr_rng *rng,
               struct oc_event *e);
/* The Qi Adepts that may take the first strike against def. */
int oc_qi_candidates(const struct oc_state *st, int def, int *out);
/* One strike's numbers: hit and crit targets, damage normal and critical. */
void oc_strike_numbers(const struct oc_state *st, int s, int t, int first_hit_backup,
                       int *hit, int *crit, int *dmg, int *crit_dmg);
int oc_can_counter(const struct oc_state *st, int att, int def);
int oc_triangle(const struct oc_item *a, const struct oc_item *d);
int oc_backup(const struct oc_state *st, int att, int def);
int oc_staff_hit(const struct oc_state *st, int user, int slot, int t);

/* ------------------------------ the computer player (oc_bot.c, issue 27) */

void *oc_determinize(json_object *view, int seat, struct wr_rng *rng, struct wr_error *err);
double oc_evaluate(const void *state, int seat);

#endif
