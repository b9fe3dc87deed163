/*
 * Confrontation (004_13fa4739ee387ac7.txt, with RULINGS.md G1-G6 and
 * Confrontation R1-R10): what the rule files, the codec and the data
 * share. Not a public header.
 *
 * The template (rules/README.md, "Adding a ruleset"): the codec parses
 * JSON into a struct cf_action; cf_legal() is the one legality check
 * (the legal-action list is cf_candidates() filtered by it); cf_apply()
 * mutates the state and appends struct cf_event; the codec turns state,
 * actions and events into JSON. The rule files never build JSON.
 *
 *   cf_data.c    the tables of the text and the names printed
 *   cf_board.c   the board: pieces, squares, terrain, movement, spell reach
 *   cf_match.c   candidate and event slots, who is awaited, the end
 *   cf_setup.c   army building, the set-up roll-off, order and placement
 *   cf_combat.c  battles, their decisions and what follows them
 *   cf_turn.c    the turn: moves, Rise From Hell, spells, Leadership, ...
 *   cf_rules.c   candidates, legal, apply, settle, resignation, invariants
 *   cf_state.c   save, load and view
 *   cf_codec.c   options, create, actions and events as JSON, the tables
 *
 * Calls run one way, down this list: a file calls only the files above
 * it (cf_turn.c starts battles in cf_combat.c; cf_rules.c dispatches to
 * set-up, turn and combat; the codec and cf_state.c read the rules), and
 * nothing calls back up.
 */
#ifndef CF_RULES_H
#define CF_RULES_H

#include <stdint.h>

#include "rules.h"
#include "template.h"

#define CF_MAX_PIECES 16         /* R1: the army fits its set-up area */
/* R2: ties are re-rolled until broken. The loop stops after this many
 * tied rounds only so that no dice source (a script run dry returns 1s)
 * can hold the server: (1/6)^1000, about 10^-778, with two honest dice. */
#define CF_ROLL_ROUNDS 1000
/* Set-up rolls a seat keeps: its first eight, then only the re-rolls that
 * split its tied group (at most one per other seat). */
#define CF_ROLLS_KEPT 8
#define CF_MAX_ROLLS (CF_ROLLS_KEPT + WR_MAX_SEATS - 1)
#define CF_NSQ 64
#define CF_B8 (&wr_board8)

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
enum cf_choice { CF_FIRST, CF_SECOND, CF_LAST, CF_CHOICE_MAX };

/* Battle stages (R6): decisions may stop the resolution at any of them. */
enum cf_stage { CF_ST_NONE, CF_ST_HTL, CF_ST_ROLL, CF_ST_LUCK_A, CF_ST_LUCK_D, CF_ST_RESOLVE,
		CF_ST_LIVE, CF_ST_MAX };
/* What started the resolution in progress. */
enum cf_src { CF_SRC_ACTION, CF_SRC_SWIFT, CF_SRC_FURY, CF_SRC_MAX };
enum cf_res_kind { CF_RES_NONE, CF_RES_MOVE, CF_RES_SPELL, CF_RES_MAX };

/* ----------------------------------------------------------- actions */

enum cf_act {
	CF_A_BUY, CF_A_ADD_SPELL, CF_A_RACE, CF_A_BUY_RACIAL, CF_A_KING_SPELL, CF_A_RESET,
	CF_A_READY, CF_A_ORDER, CF_A_PLACE, CF_A_MOVE, CF_A_RISE, CF_A_STAY, CF_A_CAST,
	CF_A_LEADERSHIP, CF_A_SWIFT, CF_A_FURY, CF_A_END_TURN, CF_A_HTL, CF_A_LUCK, CF_A_LIVE,
	CF_A_PANIC_SQ, CF_A_END_FURY, CF_A_MAX
};

/* One action, parsed (README.md lists the JSON of each). A field a type
 * does not use is -1 (squares, spell, revive) or 0. */
struct cf_action {
	int type;                /* enum cf_act */
	int piece;               /* add_spell, place: the piece's id in its army */
	int piece_type;          /* buy: the type bought */
	int spell;               /* add_spell, king_spell, cast */
	int race;                /* race */
	int choice;              /* order: enum cf_choice */
	int use;                 /* hold_the_line, luck, live_again: 1 yes, 0 no */
	int from, to;            /* move, rise, swift, fury; leadership: squares a and b */
	int target;              /* cast fireball, hurt, panic: the target's square */
	int revive;              /* cast heal: the type brought back */
	int square;              /* place, cast heal, live_again, panic_square */
};

/* ------------------------------------------------------------ events */

enum cf_ev {
	CF_E_BOUGHT, CF_E_SPELL_ADDED, CF_E_RACE_CHOSEN, CF_E_RACIAL_BOUGHT, CF_E_KING_SPELL,
	CF_E_ARMY_RESET, CF_E_ARMY_READY, CF_E_ARMIES_REVEALED, CF_E_SETUP_ROLL, CF_E_PHASE,
	CF_E_ORDER_CHOSEN, CF_E_PLACED, CF_E_NO_ROOM, CF_E_TURN, CF_E_TURN_END, CF_E_MOVE,
	CF_E_SWIFT_MOVE, CF_E_FURY_MOVE, CF_E_SWIFT_MOVEMENT, CF_E_BATTLE_FURY, CF_E_RISE,
	CF_E_STAY, CF_E_LEADERSHIP, CF_E_CAST, CF_E_HEALED, CF_E_BATTLE, CF_E_HOLD_THE_LINE,
	CF_E_DICE, CF_E_LUCK, CF_E_BATTLE_RESULT, CF_E_TREASURE_ROLL, CF_E_LIVE_AGAIN,
	CF_E_REMOVED, CF_E_ADVANCE, CF_E_PANIC_MOVED, CF_E_RESIGNED, CF_E_SEAT_OUT,
	CF_E_GAME_OVER, CF_E_MAX
};

/* A battle side's Combat and modifiers, in the order of R6. */
struct cf_mods {
	int base, wm, htl, enh, treasure;
};

/* One event (README.md lists the JSON of each). */
struct cf_event {
	int type;                /* enum cf_ev */
	unsigned visible_to;     /* WR_VIS_PUBLIC or a seat mask */
	int seat, id;            /* the piece concerned, or the seat alone (id unused) */
	int seat2, id2;          /* battle: the defender; leadership: the second piece */
	int from, to;            /* squares of a move; battle: from and at */
	int square;              /* placed, healed, removed */
	int spell;               /* spell_added, king_spell, cast; battle: -1 for movement */
	int target;              /* cast: the target's square, -1 when none is named */
	int piece_type;          /* bought */
	int race;                /* race_chosen */
	int points_left;         /* the build events */
	int tokens;              /* racial_bought */
	int round, die;          /* setup_roll; treasure_roll: die */
	int found;               /* treasure_roll */
	int luck_before, luck_reroll, luck_kept;  /* luck */
	int a_die, d_die;        /* dice, battle_result */
	struct cf_mods am, dm;   /* battle_result */
	int intimidation;        /* battle_result: 0, 1 a draw made a win, 2 two Queens */
	int strength;            /* battle_result: 0, 1 the attacker's Rook, 2 the defender's */
	int outcome;             /* battle_result: 1 attacker wins, 0 draw, -1 defender wins */
	int turn;                /* turn */
	int phase, chooser;      /* phase: chooser -1 when none */
	int choice;              /* order_chosen: enum cf_choice */
	int order[WR_MAX_SEATS], norder;  /* order_chosen */
	unsigned winners;        /* game_over */
	const char *reason;      /* game_over, seat_out: a string literal */
};

/* ------------------------------------------------------------- state */

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
	int rolls[CF_MAX_ROLLS], nrolls;  /* the set-up roll and its re-rolls (R2) */
	int o_htl, o_luck, o_live;  /* standing orders, private */
	int o_fury;              /* Battle Fury's standing order: 0 ask, 1 never (R8) */
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
	int live_asked;          /* Live Again order when asked, + 1; 0: not yet */
	int outcome;             /* 1 attacker wins, 0 draw, -1 defender wins */
};

struct cf_res {
	int kind;                /* enum cf_res_kind */
	int src;
	int seat, id;            /* the acting piece */
	int spell;
	int nt, tseat[8], tid[8], ti;  /* targets of a spell, next one */
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
	int rose;                /* a piece rose from hell this turn (R8: not an action) */
	int risen;               /* Rise From Hell: piece that may move now, or -1 */
	int swift;               /* Swift Movement offered to this piece, or -1 */
	/* Battle Fury (R8, amended): one open at a time, a decision of
	 * fury_seat on any seat's turn; fury_won holds, per seat, the Orc
	 * pieces that won a battle whose Fury is still to be asked, and
	 * fury_fought every Orc piece of the seat in those battles (won,
	 * drawn or lost): none of them may make its moves (R8). */
	int fury;                /* 0 none, 1 offered, 2 one move made */
	int fury_seat;           /* the seat asked, or -1 */
	unsigned fury_excl;      /* its pieces that may not make a Fury move */
	unsigned fury_won[WR_MAX_SEATS];
	unsigned fury_fought[WR_MAX_SEATS];
	int idle;                /* turns in a row that ended with nothing done */
	struct cf_res r;
	/* The end. */
	unsigned winners;
	char reason[96];
	int board[CF_NSQ];       /* derived: seat * 16 + id, or -1 */
};

/* ---------------------------------------------------------- cf_data.c */
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
extern const char *const cf_fury_order_name[2];
extern const char *const cf_tm_name[CF_TM_MAX];
extern const char *const cf_choice_name[CF_CHOICE_MAX];
extern const char *const cf_act_name[CF_A_MAX];
extern const char *const cf_ev_name[CF_E_MAX];
extern const char *const cf_stage_name[CF_ST_MAX];
extern const char *const cf_src_name[CF_SRC_MAX];
extern const char *const cf_res_name[CF_RES_MAX];
int cf_lookup(const char *const *names, int n, const char *s);

/* --------------------------------------------------------- cf_board.c */
struct cf_piece *cf_p(struct cf_state *st, int seat, int id);
const struct cf_piece *cf_cp(const struct cf_state *st, int seat, int id);
int cf_piece_on(const struct cf_state *st, int sq, int *seat, int *id);
int cf_owner_at(const struct cf_state *st, int sq);
void cf_put(struct cf_state *st, int seat, int id, int sq);
void cf_take(struct cf_state *st, int seat, int id, int status);
void cf_rebuild_board(struct cf_state *st);
int cf_in_area(const struct cf_state *st, int seat, int sq);
int cf_on_near_line(int seat, int sq);
int cf_racial_ok(const struct cf_state *st, int seat, int race, int sq);
int cf_nspells(const struct cf_piece *p);
/* Undo (issue 14): 1 when a spell held in secret was cast (17: spells are
 * secret until cast). */
int cf_undo_barrier(const void *before, const void *after, int seat,
                    const struct wr_events *ev);
int cf_alive_count(const struct cf_state *st);
int cf_can_stand(const struct cf_state *st, int type, int sq);
int cf_move_check(const struct cf_state *st, int seat, int from, int to, int enemy_only,
                  struct wr_error *err);
int cf_any_move(const struct cf_state *st, int seat, int from, int enemy_only);
int cf_spell_reach(const struct cf_state *st, int from, int to, int range);
int cf_panic_squares(const struct cf_state *st, int tseat, int ttype, int *out);
int cf_judgement_targets(const struct cf_state *st, int seat, int from, int *ts, int *tid);
int cf_healable(const struct cf_state *st, int seat, int type);
int cf_queen_on(const struct cf_state *st, int seat);
int cf_terrain_check(const int *sqs, int n, struct wr_error *err);
int cf_random_terrain(struct cf_state *st, struct wr_rng *rng);

/* --------------------------------------------------------- cf_setup.c */
void cf_init(struct cf_state *st, const struct cf_opts *o, int nseats);
void cf_army_reset(struct cf_state *st, int seat);
void cf_build_candidates(const struct cf_state *st, int seat, struct wr_list *out);
void cf_setup_candidates(const struct cf_state *st, int seat, struct wr_list *out);
int cf_legal_build(const struct cf_state *st, int seat, const struct cf_action *a,
                   struct wr_error *err);
int cf_legal_setup(const struct cf_state *st, int seat, const struct cf_action *a,
                   struct wr_error *err);
void cf_apply_setup(struct cf_state *st, int seat, const struct cf_action *a,
                    struct wr_list *ev);
void cf_roll_off(struct cf_state *st, struct wr_rng *rng, struct wr_list *ev);
int cf_rank_seats(const struct cf_state *st, int *out);

/* ---------------------------------------------------------- cf_turn.c */
int cf_turn_candidates(const struct cf_state *st, int seat, int part, struct wr_list *out);
int cf_legal_turn(const struct cf_state *st, int seat, const struct cf_action *a,
                  struct wr_error *err);
void cf_apply_turn(struct cf_state *st, int seat, const struct cf_action *a,
                   struct wr_list *ev);
void cf_start_turn(struct cf_state *st, int seat, struct wr_list *ev);
void cf_next_turn(struct cf_state *st, struct wr_list *ev);
void cf_end_turn(struct cf_state *st, struct wr_list *ev);
void cf_fury_candidates(const struct cf_state *st, int seat, struct wr_list *out);
int cf_legal_fury(const struct cf_state *st, int seat, const struct cf_action *a,
                  struct wr_error *err);
void cf_apply_fury(struct cf_state *st, int seat, const struct cf_action *a,
                   struct wr_list *ev);

/* -------------------------------------------------------- cf_combat.c */
void cf_decision_candidates(const struct cf_state *st, int seat, struct wr_list *out);
int cf_legal_decision(const struct cf_state *st, int seat, const struct cf_action *a,
                      struct wr_error *err);
void cf_apply_decision(struct cf_state *st, const struct cf_action *a, struct wr_rng *rng,
                       struct wr_list *ev);
void cf_res_begin(struct cf_state *st, int kind, int src, int seat, int id);
void cf_start_battle(struct cf_state *st, int as, int ai, int ds, int di, int from, int at,
                     int spell, struct wr_list *ev);
int cf_run_res(struct cf_state *st, struct wr_rng *rng, struct wr_list *ev);
int cf_live_squares(const struct cf_state *st, int seat, int id, int *out);
int cf_battle_outcome(const struct cf_state *st, const struct cf_battle *b, int htl, int ad,
                      int dd, int *strength);
int cf_any_fury(const struct cf_state *st, int seat);
void cf_fury_close(struct cf_state *st);
int cf_fury_can_go(const struct cf_state *st);
void cf_fury_next(struct cf_state *st);

/* --------------------------------------------------------- cf_match.c */
void cf_emit(struct wr_list *ev, const struct cf_event *e);
struct cf_action *cf_cand(struct wr_list *out, int type);
void cf_action_init(struct cf_action *a, int type);
int cf_any_legal(const struct cf_state *st, int seat, unsigned types,
                 int (*parts)(const struct cf_state *, int, int, struct wr_list *),
                 int (*legal)(const void *, int, const void *, struct wr_error *));
unsigned cf_to_act(const void *state);
const char *cf_pending_kind(const struct cf_state *st, int seat);
void cf_game_over(struct cf_state *st, unsigned winners, const char *reason,
                  struct wr_list *ev);
void cf_seat_out(struct cf_state *st, int seat, const char *reason, struct wr_list *ev);
void cf_check_out(struct cf_state *st, struct wr_list *ev);

/* --------------------------------------------------------- cf_rules.c */
void cf_candidates(const void *st, int seat, struct wr_list *out);
int cf_candidates_part(const struct cf_state *st, int seat, int part, struct wr_list *out);
int cf_legal(const void *st, int seat, const void *action, struct wr_error *err);
void cf_apply(void *st, int seat, const void *action, struct wr_rng *rng, struct wr_list *ev);
void cf_settle(struct cf_state *st, struct wr_rng *rng, struct wr_list *ev);
void cf_set_orders(struct cf_state *st, int seat, int htl, int luck, int live, int fury);
int cf_resign(void *state, int seat, struct wr_rng *rng, struct wr_list *ev);
int cf_check(const struct cf_state *st, struct wr_error *err);

/* --------------------------------------------------- cf_codec.c, cf_state.c */
extern const struct wr_template cf_template;
int cf_parse(const void *st, json_object *j, void *action, struct wr_error *err);
json_object *cf_event_json(const void *st, const void *event, unsigned *visible_to);
json_object *cf_snapshot(const void *st);
void cf_save_out(const void *st, struct wr_out *w);
int cf_load(json_object *snap, void **out, struct wr_error *err);
json_object *cf_view(const void *st, int viewer);
json_object *cf_piece_ref(const struct cf_state *st, int seat, int id);

extern const struct wr_ruleset cf_ruleset;

/* ------------------------------ the computer player (cf_bot.c, issue 27) */

void *cf_determinize(json_object *view, int seat, struct wr_rng *rng, struct wr_error *err);
double cf_evaluate(const void *state, int seat);
int cf_bot_skips(const void *state, int seat, json_object *action);

#endif
