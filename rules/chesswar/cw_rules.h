/*
 * ChessWar internals (002_0478434554df57bb.txt with RULINGS.md G1-G6 and
 * C1-C11): the data tables, the plain state, action and event structs, and
 * the rule functions of the template (candidates, legal, apply). No JSON
 * here; cw_codec.c turns all of it into JSON.
 */
#ifndef CW_RULES_H
#define CW_RULES_H

#include <stdint.h>

#include "rules.h"
#include "template.h"

#define CW_SEATS 4                /* at most: the expansion's multiple armies */
#define CW_WIDE_MIN 12            /* 3-4 armies: a board at least 12x12 (C11) */
#define CW_UPS 24                 /* unit slots per seat: general + 20 points + spare */
#define CW_UNITS (CW_SEATS * CW_UPS)
#define CW_MAX_FILES 16
#define CW_MAX_RANKS 16
#define CW_MAX_SQ (CW_MAX_FILES * CW_MAX_RANKS)
#define CW_TYPES 6                /* K Q R B N pawns */
#define CW_MAX_FX 16              /* temporal spells in effect */
#define CW_MAX_PATH 8
#define CW_FLIGHT_STEPS 6         /* C9 Flight: "moves up to 6 squares" */
#define CW_NONE (-1)

/* ------------------------------------------------------------ data */

/* Specials (the army lists' "Special" column), one bit each. */
enum cw_special {
	CW_SP_BRAVE = 1 << 0,
	CW_SP_SCARY = 1 << 1,
	CW_SP_ASSAULT = 1 << 2,
	CW_SP_PLAGUE = 1 << 3,
	CW_SP_REGENERATE = 1 << 4,
	CW_SP_TELEPORT = 1 << 5,
	CW_SP_UNDEAD = 1 << 6,
};
#define CW_SP_COUNT 7
extern const char *const cw_special_name[CW_SP_COUNT];

enum cw_weapon_id {
	CW_W_NONE, CW_W_BOWS, CW_W_CROSSBOWS, CW_W_LONGBOWS, CW_W_CATAPULT, CW_W_ROCKS,
	CW_W_PLAGUEBOMBS, CW_W_TERRORPULTS, CW_W_MAX
};
enum cw_wkind { CW_WK_NONE, CW_WK_BOW, CW_WK_CATAPULT };
enum cw_hit_effect { CW_HE_SAVE, CW_HE_PLAGUE, CW_HE_TERROR };

struct cw_weapon {
	const char *slug, *name;
	int kind;                 /* enum cw_wkind */
	int range;                /* king steps; 0 = unlimited */
	int min_range;            /* 0 = none; catapults 2 */
	int scatter_direct, scatter_indirect;
	int move_fire;            /* may fire after moving */
	int indirect;             /* may fire at what only another unit sees */
	int save_mod;             /* "save +N" */
	int effect;               /* enum cw_hit_effect */
	int whole_melee;          /* plaguebombs: hit all in the same melee */
	int text;                 /* 1: as printed; 0: a ruling fills a gap */
};
extern const struct cw_weapon cw_weapons[CW_W_MAX];

enum cw_spell_id {
	CW_SPELL_CONTAGION, CW_SPELL_COUNTERSPELL, CW_SPELL_DISPEL, CW_SPELL_FEAR,
	CW_SPELL_STORM, CW_SPELL_ZAP, CW_SPELL_HEAL, CW_SPELL_PROTECTION, CW_SPELL_FLIGHT,
	CW_SPELL_STRIKE, CW_SPELL_RAISE_DEAD, CW_SPELL_MAX
};
enum cw_when { CW_WHEN_MOVE, CW_WHEN_SHOOT, CW_WHEN_MELEE, CW_WHEN_INSTANT };
enum cw_spell_target {
	CW_ST_NONE,               /* no target (Contagion, Fear, Storm) */
	CW_ST_ENEMY_SEEN,         /* an enemy unit in the wizard's own sight (Zap!) */
	CW_ST_OWN,                /* an own unit within range (Protection) */
	CW_ST_OWN_MELEE,          /* an own unit in melee within range (Strike) */
	CW_ST_EFFECT,             /* a temporal spell in effect (Dispel) */
	CW_ST_FLIGHT,             /* an own unit within range (or the wizard) and a square */
	CW_ST_RAISE,              /* a destroyed own unit type and a square next to the wizard */
	CW_ST_REACTION,           /* only as a reaction (Counterspell, Heal) */
};
struct cw_spell {
	const char *slug, *name;
	int when;                 /* enum cw_when */
	int temporal;
	int target;               /* enum cw_spell_target */
	int range;                /* king steps from the wizard, 0 = none */
	int text;                 /* 1 text, 0 provisional (RULINGS.md C9) */
	const char *rule;         /* what it does, for a person */
};
extern const struct cw_spell cw_spells[CW_SPELL_MAX];

struct cw_unit_def {
	const char *slug, *name;
	char piece;               /* K Q R B N P */
	int max, cost;            /* cost 0 for the general: always taken, free */
	int move, save, melee;
	unsigned special;         /* enum cw_special bits */
	int weapon;               /* enum cw_weapon_id */
	int skill;                /* bows: to-hit number */
	unsigned spells;          /* 1u << enum cw_spell_id */
};

enum cw_army_id {
	CW_ARMY_CHAOS, CW_ARMY_DWARVES, CW_ARMY_ELFS, CW_ARMY_HUMANS, CW_ARMY_ORCS,
	CW_ARMY_RATMEN, CW_ARMY_UNDEAD, CW_ARMY_MAX
};
struct cw_army {
	const char *slug, *name;
	int initiative, points;
	int ntypes;
	struct cw_unit_def units[CW_TYPES];
};
extern const struct cw_army cw_armies[CW_ARMY_MAX];

int cw_army_lookup(const char *slug);
int cw_type_lookup(int army, const char *slug);
int cw_spell_lookup(const char *slug);

/* ----------------------------------------------------------- state */

/* A set of unit ids (melee links): 4 seats x 24 slots need 96 bits. */
typedef unsigned __int128 cw_links;
#define CW_BIT(id) ((cw_links)1 << (id))

enum cw_ustate { CW_U_EMPTY, CW_U_RESERVE, CW_U_ON, CW_U_DEAD };

struct cw_unit {
	int8_t status;            /* enum cw_ustate */
	int8_t type;              /* index in the army's table */
	int16_t sq;               /* on the board; for the dead, where it died */
	uint8_t moved;            /* left its square in this turn's movement phase (Bows -1,
	                           * Crossbows "no move and fire") */
	uint8_t done_moving;      /* may not move this phase, without having moved: cast a
	                           * move spell or was raised by Raise Dead */
	uint8_t charged;          /* charged (or tried to) this turn */
	uint8_t shot;             /* fired this shooting phase */
	uint8_t attacked;         /* attacked this melee phase */
	uint8_t cast;             /* cast a spell this turn (or on the enemy's last turn) */
	uint8_t instant;          /* cast an instant spell on the enemy's turn */
	uint8_t regen;            /* destroyed this turn, rolls Regenerate at its end */
	uint8_t strike;           /* Strike: +2 melee for its attack this phase */
	uint8_t dying;            /* destroyed by the last action, a Heal may still save it */
	cw_links was_link;        /* its links when it was destroyed (restored by Heal) */
	cw_links link;            /* the units it is in melee with (unit ids) */
};

enum cw_stage { CW_STAGE_ARMY, CW_STAGE_BUILD, CW_STAGE_DEPLOY, CW_STAGE_DONE };

struct cw_side {
	int army;                 /* enum cw_army_id, CW_NONE before it is chosen */
	int stage;                /* enum cw_stage */
	int spent;
	int counts[CW_TYPES];
	/* standing orders (G3), private: counterspell 0 ask, 1 always, 2 never,
	 * 3 only against the spells in counter_mask */
	int counter_order;
	unsigned counter_mask;
	int heal_order;           /* Heal: 0 ask, 1 always, 2 never */
	int protect_order;        /* Protection on the enemy's turn: 0 ask, 1 always, 2 never */
	int dispel_order;         /* Dispel of an enemy temporal spell: as counter_order */
	unsigned dispel_mask;
};

enum cw_phase { CW_PH_SETUP, CW_PH_FIRST, CW_PH_MOVE, CW_PH_SHOOT, CW_PH_MELEE, CW_PH_OVER };

enum cw_pending {
	CW_PEND_NONE,
	CW_PEND_FOLLOWUP,         /* the attacker `pend_unit` may advance, charge or hold */
	CW_PEND_COUNTER,          /* the other seat may counter `cast` */
	CW_PEND_SACRIFICE,        /* total massacre: the Undead seat loses a unit of its choice */
	CW_PEND_HEAL,             /* `heal_seat` may Heal its units destroyed by the last action */
	CW_PEND_PROTECT,          /* the target's seat may cast Protection before `held` is rolled
	                             or, with hits queued, before the save of hitq[0] */
	CW_PEND_DISPEL,           /* `react_seat` may Dispel the temporal spell fx[dispel_fx] */
	CW_PEND_RCOUNTER,         /* `rx_seat` may counter `rx`, a Protection, Dispel or Heal
	                             just cast by another seat; what it answers (PROTECT,
	                             DISPEL, HEAL: their fields) waits under it */
};

struct cw_effect {
	int spell;                /* enum cw_spell_id */
	int caster;               /* unit id */
	int target;               /* unit id or CW_NONE */
};

struct cw_opts {
	int seats;                /* 2-4; 0 is read as 2 */
	int files, ranks;
	int total_massacre;
	int catapult_range;       /* 0 unlimited; 8 on a larger board (C11) */
	uint8_t terrain[CW_MAX_SQ];   /* enum cw_terrain */
};
enum cw_terrain { CW_T_OPEN, CW_T_FOREST, CW_T_HILL, CW_T_MAX };
extern const char *const cw_terrain_name[CW_T_MAX];

/* ---------------------------------------------------------- actions */

enum cw_act {
	CW_A_ARMY, CW_A_BUY, CW_A_SELL, CW_A_READY, CW_A_DEPLOY, CW_A_UNDEPLOY, CW_A_DONE,
	CW_A_FIRST, CW_A_MOVE, CW_A_CHARGE, CW_A_SHOOT, CW_A_ATTACK, CW_A_ADVANCE, CW_A_HOLD,
	CW_A_CAST, CW_A_COUNTER, CW_A_ALLOW, CW_A_SACRIFICE, CW_A_END_PHASE, CW_A_HEAL,
	CW_A_NO_HEAL, CW_A_PROTECT, CW_A_NO_PROTECT, CW_A_DISPEL, CW_A_NO_DISPEL, CW_A_MAX
};
extern const char *const cw_act_name[CW_A_MAX];

struct cw_action {
	int type;                 /* enum cw_act */
	int army;                 /* army */
	char utype[24];           /* buy, sell, deploy; cast raise_dead: the unit type's slug,
	                             resolved with the acting seat's army */
	int count;                /* buy, sell */
	int unit;                 /* the acting unit's square (move, charge, shoot, attack,
	                             advance, hold, cast, counter, sacrifice) */
	int to;                   /* move, advance, flight: destination; deploy, undeploy:
	                             square; charge, shoot, attack, cast: target square */
	int path[CW_MAX_PATH];    /* move: the steps, when given */
	int npath;
	int first;                /* first: 1 go first, 0 second */
	int spell;                /* cast */
	int effect;               /* cast dispel: index of the effect */
	int target2;              /* cast flight: the destination */
};

/* What a cast waiting for the counterspell decision will do. */
struct cw_state {
	struct cw_opts o;
	struct wr_board board;
	int phase;                /* enum cw_phase */
	int turn_seat;            /* whose turn */
	int round, turn;          /* round from 1; turns played */
	int nseats;               /* 2, or 3-4 armies on a larger board (the expansion) */
	int first_seat;           /* who takes the first turn of every round */
	int rolloff_winner;       /* CW_PH_FIRST: who chooses */
	int8_t order[CW_SEATS];   /* the seats in turn order (C3; 3-4: initiative, roll-offs) */
	unsigned out;             /* seats whose army was wiped out (3-4 armies) */
	struct cw_side side[CW_SEATS];
	struct cw_unit u[CW_UNITS];
	int last_moved;           /* unit id that may still charge or cast after moving */
	int pending;              /* enum cw_pending */
	int pend_unit;            /* follow-up: the attacker */
	int pend_from;            /* follow-up: the square just emptied */
	int heal_seat;            /* CW_PEND_HEAL: who decides */
	int pending_next;         /* the follow-up waiting for the Heal decisions */
	struct cw_action cast;    /* counter: the spell cast, by seat turn_seat */
	struct cw_action held;    /* protect: the attack waiting for the decision */
	int hitq[CW_UNITS];       /* units hit by a ranged attack, waiting for their saves */
	int nhitq;
	int hit_weapon;           /* what hit them (enum cw_weapon_id; CW_W_NONE: Zap!) */
	int react_seat;           /* CW_PEND_DISPEL: the seat asked */
	struct cw_action rx;      /* rcounter: the spell cast in answer (type CW_A_PROTECT,
	                           * CW_A_DISPEL or CW_A_HEAL, unit: the wizard, to: its
	                           * target's square) */
	int rx_seat;              /* rcounter: the seat asked */
	int dispel_fx;            /* CW_PEND_DISPEL: the effect just cast */
	int protect_after;        /* the Dispel asked is of a Protection cast in answer:
	                           * the save or attack it answered waits for it */
	int nfx;
	struct cw_effect fx[CW_MAX_FX];
	int shot_from, shot_aim, shot_land;   /* this turn's last shot, for the board */
	int winner;               /* seat, CW_NONE draw (over) */
	int8_t at[CW_MAX_SQ];     /* derived, not saved: unit id + 1 on each square, 0 empty */
	char reason[64];
};

/* ----------------------------------------------------------- events */

enum cw_ev {
	CW_E_ARMY, CW_E_BUY, CW_E_SELL, CW_E_READY, CW_E_DEPLOY, CW_E_UNDEPLOY, CW_E_SET_UP,
	CW_E_REVEAL, CW_E_ROLLOFF, CW_E_FIRST, CW_E_TURN, CW_E_PHASE, CW_E_MOVE, CW_E_CHARGE,
	CW_E_CHARGE_FAILED, CW_E_SHOOT, CW_E_SCATTER, CW_E_MELEE_SHOT, CW_E_SAVE, CW_E_DESTROYED,
	CW_E_ATTACK, CW_E_PLAGUE, CW_E_FOLLOWUP, CW_E_ADVANCE, CW_E_HOLD, CW_E_CAST,
	CW_E_COUNTER, CW_E_SPELL_END, CW_E_REGENERATE, CW_E_RAISE, CW_E_FLIGHT, CW_E_SACRIFICE,
	CW_E_OVER, CW_E_HEAL, CW_E_OUT, CW_E_MAX
};
extern const char *const cw_ev_name[CW_E_MAX];

struct cw_event {
	int type;                 /* enum cw_ev */
	unsigned vis;             /* WR_VIS_PUBLIC or a seat mask */
	int seat;
	int unit, utype, usq;     /* the unit concerned: id, type, square then */
	int other, otype, osq;    /* a second unit (target, attacker) */
	int sq;                   /* a square (target square, landing square) */
	int faces[6], nfaces;
	int need;                 /* save or to-hit number; 7+ cannot succeed */
	int value;                /* melee total, count, result */
	int ok;
	int spell, army;
	int path[CW_MAX_PATH + 1], npath;
	int mods[4], nmods;       /* shooting modifiers, in order */
	char why[64];
};

/* ------------------------------------------------------------ rules */

extern const struct wr_template cw_template;

void cw_init(struct cw_state *st, const struct cw_opts *o);
unsigned cw_to_act(const void *state);
void cw_candidates(const void *state, int seat, struct wr_list *out);
int cw_legal(const void *state, int seat, const void *action, struct wr_error *err);
void cw_apply(void *state, int seat, const void *action, struct wr_rng *rng, struct wr_list *ev);
int cw_resign(void *state, int seat, struct wr_rng *rng, struct wr_list *ev);
/* Checks a loaded state's invariants; 0 when sound. */
int cw_check_state(const struct cw_state *st, struct wr_error *err);

/* helpers shared by the rule files */
const struct cw_unit_def *cw_def(const struct cw_state *st, int id);
int cw_seat_of(int id);
int cw_unit_at(const struct cw_state *st, int sq);
/* Puts unit `id` (status ON) on `sq`, lifting it from its old square;
 * cw_lift takes it off the board map. */
void cw_put(struct cw_state *st, int id, int sq);
void cw_lift(struct cw_state *st, int id);
void cw_rebuild_at(struct cw_state *st);
int cw_on(const struct cw_state *st, int id);
int cw_in_melee(const struct cw_state *st, int id);
int cw_is_brave(const struct cw_state *st, int id);
int cw_is_scary(const struct cw_state *st, int id);
int cw_has_plague(const struct cw_state *st, int id);
int cw_immune_plague(const struct cw_state *st, int id);
int cw_general_alive(const struct cw_state *st, int seat);
/* An own wizard that may Heal unit `id` now (C9), or CW_NONE. */
int cw_healer_for(const struct cw_state *st, int id);
int cw_units_alive(const struct cw_state *st, int seat);
int cw_sees(const struct cw_state *st, int from, int to);
int cw_seen_by_seat(const struct cw_state *st, int seat, int to, int except);
int cw_dist(const struct cw_state *st, int a, int b);
int cw_can_charge_dir(const struct cw_state *st, int from, int to, int seat);
int cw_storms(const struct cw_state *st);
void cw_dir_of_seat(int seat, int roll, int *df, int *dr);
int cw_next_seat(const struct cw_state *st, int seat, int *wrapped);
struct cw_event *cw_ev_push(struct wr_list *ev, int type, unsigned vis);
void cw_ev_unit(const struct cw_state *st, struct cw_event *e, int id);
void cw_ev_other(const struct cw_state *st, struct cw_event *e, int id);
/* A public event of one die, `face`, rolled for unit `id` against `other`
 * (CW_NONE: none); NULL when memory ran out. */
struct cw_event *cw_ev_roll(const struct cw_state *st, struct wr_list *ev, int type, int id,
                            int other, int face);

/* An own wizard that may cast Protection on `id` now, as a reaction on
 * the enemy's turn (C9), or CW_NONE. */
int cw_protector_for(const struct cw_state *st, int id);
/* A candidate action of `type` with nothing chosen yet, or NULL. */
struct cw_action *cw_cand(struct wr_list *out, int type);
/* Cuts every melee link of unit `id`. */
void cw_unlink_all(struct cw_state *st, int id);

/* set-up (cw_setup.c) */
/* RULINGS.md C2: the seat's set-up area (G1). */
int cw_in_setup_area(const struct cw_state *st, int seat, int sq);
int cw_reserve_of_type(const struct cw_state *st, int seat, int type);
int cw_legal_setup(const struct cw_state *st, int seat, const struct cw_action *a,
                   struct wr_error *err);
/* Applies a set-up action; 1 when every seat's set-up is done. */
int cw_apply_setup(struct cw_state *st, int seat, const struct cw_action *a, struct wr_list *ev);

/* movement (cw_move.c): the one step rule and the one search */
struct cw_mover {
	int seat, from;
	int max;                  /* steps */
	int ghost;                /* passes units, not held by enemies (Teleport, Flight) */
};
/* The unit's own move; Flight carrying it. */
void cw_mover_of(const struct cw_state *st, int id, struct cw_mover *m);
void cw_mover_flight(const struct cw_state *st, int id, struct cw_mover *m);
/* Every destination: dist[sq] > 0 its steps (else -1), prev[sq] the square
 * before it on a shortest path. */
void cw_reach(const struct cw_state *st, const struct cw_mover *m, int *dist, int *prev);
/* A shortest path to `to` into path[] (the destination last): its length,
 * 0 when `to` cannot be reached. */
int cw_route(const struct cw_state *st, const struct cw_mover *m, int to, int *path);
/* A given path, step by step by the same rule: 0, or -1 and why. */
int cw_path_check(const struct cw_state *st, const struct cw_mover *m, const int *path, int n,
                  int to, struct wr_error *err);

/* spells (cw_spells.c) */
void cw_cand_casts(const struct cw_state *st, int seat, int id, struct wr_list *out);
int cw_legal_cast(const struct cw_state *st, int seat, int id, const struct cw_action *a,
                  struct wr_error *err);
void cw_apply_cast(struct cw_state *st, int seat, int id, const struct cw_action *a,
                   struct wr_rng *rng, struct wr_list *ev);
/* The spell takes effect (not countered). */
void cw_resolve_cast(struct cw_state *st, const struct cw_action *a, int id, struct wr_rng *rng,
                     struct wr_list *ev);
/* Counterspell (C9): the d6 of wizard `wiz` against st->cast; 1 countered. */
int cw_do_counter(struct cw_state *st, int wiz, struct wr_rng *rng, struct wr_list *ev);
/* The seats from `from` on (not the caster's) with a wizard that may
 * counter st->cast answer by standing order or are asked
 * (CW_PEND_COUNTER); when none counters, the spell takes effect. */
void cw_counter_ask(struct cw_state *st, int from, struct wr_rng *rng, struct wr_list *ev);
void cw_remove_fx(struct cw_state *st, int i, struct wr_list *ev);
void cw_heal_done(struct cw_state *st, int seat);
int cw_heal_possible(const struct cw_state *st, int seat);
void cw_do_heal(struct cw_state *st, int w, int d, struct wr_rng *rng, struct wr_list *ev);
/* Dispel as a reaction (C9, amended): the seats after `from` (in order,
 * not the caster's) with a wizard that may Dispel fx[st->dispel_fx] answer
 * by standing order or are asked (CW_PEND_DISPEL). */
void cw_dispel_ask(struct cw_state *st, int from, struct wr_rng *rng, struct wr_list *ev);
/* C9: "Most spells are always successful, unless the other side tries to
 * counterspell them": a Protection, Dispel or Heal about to be cast (rx,
 * see struct cw_state) is announced, its wizard's spell used, and the
 * other seats with a wizard able to Counterspell answer in seat order, by
 * standing order or asked (CW_PEND_RCOUNTER); then it takes effect, or
 * not, and what it answered goes on (cw_rules.c). */
void cw_react(struct cw_state *st, const struct cw_action *rx, struct wr_rng *rng,
              struct wr_list *ev);
/* cw_react.c: the spell a reaction (CW_A_PROTECT, CW_A_DISPEL, CW_A_HEAL)
 * casts; the answer to CW_PEND_RCOUNTER (wiz: the countering wizard, CW_NONE: allow); the
 * reaction st->rx takes effect (countered: not) and what it answered goes
 * on; after the Protection asked about, the save or the attack held. */
int cw_react_spell(int type);
void cw_react_answer(struct cw_state *st, int wiz, struct wr_rng *rng, struct wr_list *ev);
void cw_react_done(struct cw_state *st, int countered, struct wr_rng *rng, struct wr_list *ev);
void cw_protect_go_on(struct cw_state *st, struct wr_rng *rng, struct wr_list *ev);
/* Once no Dispel question is open: the save or attack a Protection cast in
 * answer waited on goes on (C9 amended: Dispel is asked as soon as an
 * enemy temporal spell is cast, a Protection in answer too). */
void cw_dispel_over(struct cw_state *st, struct wr_rng *rng, struct wr_list *ev);
/* An attack or a shot, once any Protection is decided (cw_rules.c). */
void cw_resolve_strike(struct cw_state *st, int seat, const struct cw_action *a,
                       struct wr_rng *rng, struct wr_list *ev);
/* The seat's first wizard able to Counterspell now, or CW_NONE. */
int cw_counterer(const struct cw_state *st, int seat);
/* The seats from `from` on, but `caster_seat`, with a wizard able to
 * Counterspell `spell`, in seat order: by standing order (a failed roll
 * lets the same seat's next wizard try) or asked. 1 countered, 0 none
 * did, -1 *asked must be asked. */
int cw_counter_seek(struct cw_state *st, int from, int caster_seat, int spell,
                    struct wr_rng *rng, struct wr_list *ev, int *asked);
/* Counterspell's d6 by wizard `wiz` against `spell`: 1 countered (4+). */
int cw_counter_roll(struct cw_state *st, int wiz, int spell, struct wr_rng *rng,
                    struct wr_list *ev);
int cw_dispeller(const struct cw_state *st, int seat);
/* RULINGS.md G7: a cast, or an answer about one, that met another seat's
 * possible reaction (its private standing order) cannot be taken back;
 * may_reveal: the same for a draft's dry run, from the action alone. */
int cw_undo_barrier(const void *before, const void *after, int seat,
                    const struct wr_events *ev);
int cw_may_reveal(const void *state, int seat, json_object *action);

/* combat (cw_combat.c) */
/* A save: base need `need`, rolled with `bonus` added; a 1 fails, a need
 * of 7 or more cannot succeed (C7). Returns 1 when saved. */
int cw_save(struct cw_state *st, int id, int need, int bonus, struct wr_rng *rng,
            struct wr_list *ev);
/* Destroys a unit: links cut, its temporal spells end, the end checked. */
void cw_destroy(struct cw_state *st, int id, const char *why, struct wr_list *ev);
/* The same for a unit destroyed by an attack, a shot or a spell: a Plague
 * unit in melee spreads its plague (C8). */
void cw_kill(struct cw_state *st, int id, const char *why, struct wr_rng *rng, struct wr_list *ev);
/* A ranged attack (bows, catapult, spell) hits unit `id`: the shot into
 * melee roll, then each unit hit saves (cw_hits_go). */
void cw_ranged_hit(struct cw_state *st, int id, int weapon, struct wr_rng *rng,
                   struct wr_list *ev);
/* The saves of the units in st->hitq, in order; before each save of an
 * enemy of the turn seat, its Protection (C9, amended): by standing order,
 * or the seat is asked (CW_PEND_PROTECT, the queue waits). `asked`: the
 * first unit's question has been answered. */
void cw_hits_go(struct cw_state *st, int asked, struct wr_rng *rng, struct wr_list *ev);
/* The unit whose Protection is asked now (CW_PEND_PROTECT). */
int cw_protect_target(const struct cw_state *st);
/* Announces a Protection on `target` and uses wizard w's spell; it takes
 * effect once no seat counters it (cw_react). */
void cw_cast_protection(struct cw_state *st, int w, int target, struct wr_list *ev);
void cw_do_shoot(struct cw_state *st, int seat, const struct cw_action *a, struct wr_rng *rng,
                 struct wr_list *ev);
void cw_do_attack(struct cw_state *st, int seat, const struct cw_action *a, struct wr_rng *rng,
                  struct wr_list *ev);
/* Melee result from the total and the natural roll (the Melee table). */
int cw_melee_result(int natural, int total, int def_scary, int att_brave);
int cw_shoot_need(const struct cw_state *st, int firer, int target, int *mods, int *nmods);
void cw_link(struct cw_state *st, int a, int b);
int cw_melee_group(const struct cw_state *st, int id, int *out);
/* The charge of `id` at `target`: the scary save, then the link. */
void cw_do_charge(struct cw_state *st, int id, int target, struct wr_rng *rng,
                  struct wr_list *ev);
void cw_check_end(struct cw_state *st, struct wr_list *ev);

/* ------------------------------ the computer player (cw_bot.c, issue 27) */

void *cw_determinize(json_object *view, int seat, struct wr_rng *rng, struct wr_error *err);
double cw_evaluate(const void *state, int seat);
int cw_bot_skips(const void *state, int seat, json_object *action);

#endif
