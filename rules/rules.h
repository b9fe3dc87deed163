/*
 * The referee's interface: what every ruleset implements and the pieces
 * they share (board geometry, dice, events with visibility). Pure C: no
 * I/O, no threads, no clock; randomness only from the struct wr_rng given.
 *
 * A ruleset is a table of functions (struct wr_ruleset). Its state is an
 * opaque pointer whose persistent form is a JSON document (save/load),
 * secrets included; only view() is ever shown to a client.
 *
 * Seats are 0..seats-1 (RULINGS.md G1). A viewer is a seat, WR_SPECTATOR,
 * or WR_EVERYONE (the end of a match: everything revealed, G5).
 */
#ifndef WR_RULES_H
#define WR_RULES_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#define WR_MAX_SEATS 4
#define WR_SPECTATOR (-1)
#define WR_EVERYONE (-2)

/* ------------------------------------------------------------ errors */

/* Why an option, order or action was refused. `code` is a stable slug
 * ("not-your-piece", "out-of-range"); `message` is for a person. Neither
 * may depend on anything the acting seat cannot see (G5). */
struct wr_error {
	char code[48];
	char message[256];
	char field[64];          /* the field concerned, "" when none */
};

/* Fills err (when not NULL) and returns -1. */
int wr_fail(struct wr_error *err, const char *code, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* -------------------------------------------------------------- dice */

/* A stream of uniform draws. The service draws from HMAC-SHA256 of the
 * match's seed (wr_rng_hmac); tests use fixed scripts or a seeded PRNG.
 * Every draw is recorded so it can be shown and audited. */
struct wr_draw {
	uint32_t bound;          /* uniform in [0, bound) */
	uint32_t value;
};

struct wr_rng {
	/* Returns a uniform value in [0, bound); bound >= 1. */
	uint32_t (*next)(struct wr_rng *rng, uint32_t bound);
	void *impl;
	uint64_t count;          /* draws so far in the whole match */
	struct wr_draw *log;     /* draws of the current apply, when set */
	size_t log_len, log_cap;
};

/* One die with `sides` faces: 1..sides. */
unsigned wr_die(struct wr_rng *rng, unsigned sides);

enum wr_adv { WR_ADV_NONE = 0, WR_ADV_ADVANTAGE, WR_ADV_DISADVANTAGE };
/* One die rolled twice, keeping the higher (advantage) or lower. */
unsigned wr_die_adv(struct wr_rng *rng, unsigned sides, enum wr_adv adv);
/* "NdX" notation: n dice of x sides (1 <= n <= 100, x in 2..1000), each
 * at the given advantage; faces written to `faces` when not NULL. */
int wr_roll(struct wr_rng *rng, const char *notation, enum wr_adv adv, unsigned *faces,
            size_t max_faces, unsigned *total);
int wr_parse_dice(const char *notation, unsigned *n, unsigned *sides);

/* The auditable stream (DESIGN.md, "Dice anyone can audit"): draw k is
 * HMAC-SHA256(key = server seed, msg = client seeds || k as 8 bytes
 * big-endian), mapped to [0, bound) by rejection sampling over its eight
 * 32-bit words; when all eight are rejected (p < 2^-256 for small
 * bounds) the message gets a ninth byte counter and the block is redrawn. */
struct wr_hmac_stream {
	unsigned char seed[32];
	unsigned char *client;   /* concatenated client seeds */
	size_t client_len;
};
void wr_rng_hmac(struct wr_rng *rng, struct wr_hmac_stream *s, uint64_t first_draw);
/* A seeded xorshift stream for playouts and statistics; not auditable. */
void wr_rng_seeded(struct wr_rng *rng, uint64_t *state, uint64_t seed);
/* Scripted values for rule tables: draw i returns values[i] - 1 for a
 * die (so values are faces); runs out -> the test fails loudly. */
struct wr_script {
	const unsigned *faces;
	size_t n, pos;
	int exhausted;
};
void wr_rng_script(struct wr_rng *rng, struct wr_script *s);
/* Starts and stops recording draws into rng->log (owned by rng). */
void wr_rng_record(struct wr_rng *rng);
void wr_rng_record_free(struct wr_rng *rng);

/* ------------------------------------------------------------ events */

/* What happened in an apply, each visible to everyone or to some seats. */
#define WR_VIS_PUBLIC 0u
struct wr_event {
	json_object *body;       /* {"type": "...", ...}; owned */
	unsigned visible_to;     /* seat bit mask; WR_VIS_PUBLIC = everyone */
};

struct wr_events {
	struct wr_event *items;
	size_t len, cap;
};

/* Takes ownership of body. visible_to: WR_VIS_PUBLIC or 1u << seat | ... */
void wr_emit(struct wr_events *ev, unsigned visible_to, json_object *take_body);
void wr_events_free(struct wr_events *ev);
/* RULINGS.md G5, the one secrecy rule: 1 when a viewer (a seat,
 * WR_SPECTATOR or WR_EVERYONE) may see what is visible_to (WR_VIS_PUBLIC
 * or a seat mask). Hidden from other seats and spectators until revealed;
 * WR_EVERYONE, the end of a match, sees everything. */
int wr_visible(unsigned visible_to, int viewer);
/* wr_visible() of an event. */
int wr_event_visible(const struct wr_event *e, int viewer);

/* ---------------------------------------------------------- geometry */

/* Squares are 0..63: file = sq % 8 (a..h), rank = sq / 8 (1..8). Boards
 * larger than 8x8 (ChessWar's expansion) use struct wr_board sizes. */
struct wr_board {
	int files, ranks;
};
extern const struct wr_board wr_board8;

#define WR_NO_SQUARE (-1)
int wr_square(const struct wr_board *b, int file, int rank);
int wr_file(const struct wr_board *b, int sq);
int wr_rank(const struct wr_board *b, int sq);
/* "e4" <-> square; -1 when not a square of the board. Boards up to 26
 * files and 99 ranks. */
int wr_square_parse(const struct wr_board *b, const char *name);
const char *wr_square_name(const struct wr_board *b, int sq, char buf[8]);

/* The eight directions, N NE E SE S SW W NW (rank up is north). */
extern const int wr_dir_df[8], wr_dir_dr[8];
#define WR_DIRS 8
/* The next square in a direction, or WR_NO_SQUARE off the board. */
int wr_step(const struct wr_board *b, int sq, int dir);
/* The squares of a ray from sq (exclusive) in dir, up to max squares;
 * returns how many were written. */
int wr_ray(const struct wr_board *b, int sq, int dir, int max, int *out);
/* Knight jumps from sq; returns how many (<= 8). */
int wr_knight_jumps(const struct wr_board *b, int sq, int out[8]);
/* The direction from a to b when they share a line (rank, file or
 * diagonal), else -1; and the squares strictly between them. */
int wr_line_dir(const struct wr_board *b, int a, int c);
int wr_between(const struct wr_board *b, int a, int c, int *out);
int wr_chebyshev(const struct wr_board *b, int a, int c);
int wr_manhattan(const struct wr_board *b, int a, int c);

/* Line of sight between square centres (ChessWar, RULINGS.md C6): every
 * square the segment passes through blocks when occupied; where the
 * segment runs exactly along the edge between two squares (or through a
 * corner shared by two squares), it is blocked only when both are
 * occupied. `occupied(sq, ctx)` says whether a square blocks. */
int wr_line_of_sight(const struct wr_board *b, int from, int to,
                     int (*occupied)(int sq, void *ctx), void *ctx);

/* -------------------------------------------------------------- json */

/* Field readers that validate shape and range; on failure they fill err
 * with the field's name. */
int wr_json_int(json_object *obj, const char *key, int min, int max, int required, int def,
                int *out, struct wr_error *err);
int wr_json_bool(json_object *obj, const char *key, int required, int def, int *out,
                 struct wr_error *err);
int wr_json_string(json_object *obj, const char *key, int required, const char **out,
                   struct wr_error *err);
int wr_json_square(json_object *obj, const char *key, const struct wr_board *b, int *sq,
                   struct wr_error *err);
/* Fails when obj has a key outside `known` (NULL-terminated). */
int wr_json_only(json_object *obj, const char *const *known, struct wr_error *err);
json_object *wr_json_square_new(const struct wr_board *b, int sq);
/* obj[key] = take_value for a key with static storage (a literal, or a
 * const table's): the key is kept, not copied (legal-action lists add
 * thousands, issue 17). */
void wr_json_put(json_object *obj, const char *static_key, json_object *take_value);
/* What every codec writes (a key with static storage, as wr_json_put):
 * o[key] = an integer, a boolean, a string (NULL: null), a square of b
 * (off the board: null). */
void wr_json_put_int(json_object *o, const char *static_key, int v);
void wr_json_put_bool(json_object *o, const char *static_key, int v);
void wr_json_put_str(json_object *o, const char *static_key, const char *v);
void wr_json_put_sq(json_object *o, const char *static_key, const struct wr_board *b, int sq);
/* A square of b as JSON, NULL (null) when off the board. */
json_object *wr_json_sq(const struct wr_board *b, int sq);
/* The shell of an action or event: {"type": type}. */
json_object *wr_json_typed(const char *type);
/* An array of names, e.g. an enum's string table. */
json_object *wr_json_names(const char *const *names, int n);
/* One option's description for options(): {type, default, minimum,
 * maximum (when min <= max), enum (when names), description}. */
json_object *wr_json_option(const char *type, json_object *take_def, int min, int max,
                            const char *const *names, int n, const char *desc);
/* A descriptor table of a plain struct's fields, for the runs of fields an
 * action or event writes as they are: the key, how it is written, where
 * the int lies (offsetof) and, for a name, its string table. */
enum wr_json_kind { WR_JF_INT, WR_JF_BOOL, WR_JF_SQ, WR_JF_NAME };
struct wr_json_field {
	const char *key;         /* static storage, as wr_json_put */
	enum wr_json_kind kind;
	size_t offset;
	const char *const *names; /* WR_JF_NAME */
};
/* o[f.key] = the field of `s` for each of the n fields, squares of b. */
void wr_json_put_fields(json_object *o, const void *s, const struct wr_json_field *f, int n,
                        const struct wr_board *b);
/* A descriptor table and its length (WR_JF_LIST(array)), as a table of
 * them indexed by action or event type holds them: {NULL, 0} writes
 * nothing. */
struct wr_json_fields {
	const struct wr_json_field *f;
	int n;
};
#define WR_JF_COUNT(array) ((int)(sizeof(array) / sizeof((array)[0])))
#define WR_JF_LIST(array) {(array), WR_JF_COUNT(array)}
/* Reading a name: the index of s in names[0..n), or -1. */
int wr_json_name_index(const char *s, const char *const *names, int n);
/* Snapshots: an int array as JSON, and back -- obj[key] must be an array
 * of min_n..max_n whole numbers in lo..hi (err names the key, code
 * "bad-snapshot"). Returns how many were read, or -1. */
json_object *wr_json_ints(const int *v, int n);
int wr_json_read_ints(json_object *obj, const char *key, int *out, int min_n, int max_n, int lo,
                      int hi, struct wr_error *err);

/* A snapshot written once for two results (out.c, issue 32): the save
 * code calls these, and they build a json-c tree, or write the text
 * json-c would write of that tree (JSON_C_TO_STRING_PLAIN; '/' escaped
 * unless noslash) without building it. Keys are static strings (as
 * wr_json_put's), ignored inside arrays and at the top. */
#define WR_OUT_DEPTH 16
struct wr_out {
	int text, noslash, failed;
	char *p;                            /* text */
	size_t n, cap;
	json_object *root;                  /* tree */
	json_object *open[WR_OUT_DEPTH];
	int depth;
	unsigned char is_obj[WR_OUT_DEPTH], more[WR_OUT_DEPTH];
};
typedef void (*wr_save_fn)(const void *state, struct wr_out *w);
void wr_out_obj(struct wr_out *w, const char *key);   /* opens an object ... */
void wr_out_arr(struct wr_out *w, const char *key);   /* ... or an array */
void wr_out_arr_of(struct wr_out *w, const char *key, size_t n);   /* of n items */
void wr_out_end(struct wr_out *w);                    /* closes the last opened */
void wr_out_int(struct wr_out *w, const char *key, int64_t v);
void wr_out_bool(struct wr_out *w, const char *key, int v);
void wr_out_str(struct wr_out *w, const char *key, const char *s);   /* NULL: null */
void wr_out_sq(struct wr_out *w, const char *key, const struct wr_board *b, int sq);
void wr_out_ints(struct wr_out *w, const char *key, const int *v, int n);
/* A tree made elsewhere (NULL: null), taken. */
void wr_out_json(struct wr_out *w, const char *key, json_object *take);
/* As wr_json_put_fields. */
void wr_out_fields(struct wr_out *w, const void *s, const struct wr_json_field *f, int n,
                   const struct wr_board *b);
/* The text of any tree, appended, or as a malloc'd string (NULL when out
 * of memory): the server's wp_json_text. */
void wr_out_value(struct wr_out *w, json_object *o);
char *wr_out_text_of(json_object *o, int noslash);
/* The text written to a text wr_out, ended (malloc'd), or the tree written
 * to a tree one; NULL, and nothing kept, when it failed or a container is
 * left open. */
char *wr_out_finish(struct wr_out *w);
json_object *wr_out_root(struct wr_out *w);
/* What save writes: the tree, or the text (malloc'd); NULL when out of
 * memory. */
json_object *wr_out_tree(wr_save_fn save, const void *state);
char *wr_out_text(wr_save_fn save, const void *state, int noslash);

/* ----------------------------------------------------------- results */

struct wr_result {
	int over;                /* 0 ongoing, 1 ended */
	unsigned winners;        /* seat mask; 0 with over = draw */
	int scores[WR_MAX_SEATS];
	int has_scores;
	char reason[96];         /* "king defeated", "agreement", ... */
};

/* ---------------------------------------------------------- rulesets */

struct wr_ruleset {
	const char *id;          /* "confrontation" */
	const char *title;
	const char *source;      /* the rule text it implements */
	int min_seats, max_seats;

	/* The options a match may set, as a JSON object
	 * {name: {"type","default","minimum","maximum","enum","description"}}. */
	json_object *(*options)(void);
	/* Validates options and seats and builds the start state. Set-up that
	 * needs choices (armies, deployment) is played as actions after. */
	int (*create)(json_object *options, int seats, struct wr_rng *rng, void **state,
	              struct wr_error *err);
	int (*load)(json_object *snapshot, void **state, struct wr_error *err);
	json_object *(*save)(const void *state);
	void (*free)(void *state);
	/* Optional: save's snapshot written through wr_out, so that its text
	 * is made without the tree (wr_save_text). save is then
	 * wr_out_tree of it. */
	wr_save_fn save_out;

	/* Seats whose decision the match waits for (a mask). Not always one:
	 * reactions and simultaneous set-up are pending decisions too. */
	unsigned (*to_act)(const void *state);
	/* Optional: the seats whose turn is in progress (a mask), awaited or
	 * not. A turn holder that is not awaited waits for another seat's
	 * reaction (G3): its clock stops and its move has not ended
	 * (RULINGS.md G8). NULL: the awaited seats (every post ends a move). */
	unsigned (*turn_of)(const void *state);
	/* Every legal action for the seat now, as a JSON array. */
	json_object *(*actions)(const void *state, int seat);
	/* Optional: the same array written through wr_out under `key`, so
	 * that its text is made without the tree (wr_actions_out; issue 32:
	 * the tree was two thirds of a listing). actions is then the tree of
	 * it. */
	void (*actions_out)(const void *state, int seat, struct wr_out *w, const char *key);
	/* Validates fully and, only on success, applies; draws dice only from
	 * rng; appends events. The caller applies to a copy or reloads on
	 * failure, but apply must not leave a half-applied state either. */
	int (*apply)(void *state, int seat, json_object *action, struct wr_rng *rng,
	             struct wr_events *ev, struct wr_error *err);
	/* Standing orders (RULINGS.md G3): answers to yes/no reactions set in
	 * advance, at any time, private to the seat. NULL when none exist. */
	int (*set_orders)(void *state, int seat, json_object *orders, struct wr_error *err);
	/* A seat leaves (resignation). In 2-seat games the other seat wins;
	 * with more seats the ruleset removes the seat (its pieces leave) and
	 * play goes on, drawing dice from rng if what follows needs them. */
	int (*resign)(void *state, int seat, struct wr_rng *rng, struct wr_events *ev);
	/* The state as a viewer may see it. */
	json_object *(*view)(const void *state, int viewer);
	void (*result)(const void *state, struct wr_result *out);
	/* Optional: the seats still in play (a draw by agreement needs each
	 * of them). NULL means every seat. */
	unsigned (*seats_in)(const void *state);
	/* Optional: every seat in play agreed to end the match early. The
	 * ruleset ends the state as its text says (e.g. decided on points)
	 * and appends its events; result() then gives winners and reason.
	 * NULL means an agreement is a plain draw. */
	void (*agreed_end)(void *state, struct wr_events *ev);
	/* Optional, undo (issue 14 "Correspondence play"): 1 when the post
	 * of `seat` that turned `before` into `after` (no die rolled, events
	 * `ev`) revealed hidden information to anyone, so that it can no
	 * longer be taken back. It adds to the generic barrier of
	 * wr_undo_reveals(); NULL: the generic barrier alone. */
	int (*undo_barrier)(const void *before, const void *after, int seat,
	                    const struct wr_events *ev);
	/* The computer player (issue 27, bot/): optional hooks.
	 * determinize: a full state consistent with what `seat` sees in `view`
	 * (that seat's view, never more), whatever it cannot see (an enemy's
	 * Mirrors, a hidden deployment, units under fog) drawn from rng; NULL
	 * and err when the view is not one of this ruleset's. A ruleset whose
	 * view hides nothing rebuilds the state from the view alone.
	 * evaluate: a seat's prospects in [0, 1] in a state not ended (e.g.
	 * material); cheap, it scores every playout. NULL: 0.5. */
	void *(*determinize)(json_object *view, int seat, struct wr_rng *rng, struct wr_error *err);
	double (*evaluate)(const void *state, int seat);
	/* bot_skips: 1 for a legal action the search leaves out, because a
	 * player never needs it and, tried, it dilutes the moves beside it
	 * (ChessWar: selling a unit, or changing army after choosing one);
	 * the search keeps every action when all would be left out. NULL:
	 * none left out. */
	int (*bot_skips)(const void *state, int seat, json_object *action);
	/* Optional, a draft's dry run (issue 30, POST .../preview): 1 when an
	 * action of `seat` now might reveal something hidden from it (a unit
	 * under fog coming into sight, an enemy Mirror), decided from what
	 * that seat sees alone, never from the hidden state, so that where a
	 * draft ends tells nothing. NULL: the ruleset's hidden information
	 * never depends on a seat's own actions after set-up (the dry run
	 * then asks wr_undo_reveals of what the action did). */
	int (*may_reveal)(const void *state, int seat, json_object *action);
};

/* The rulesets this program offers: a const table built at compile time
 * (registry.c); the test servers' table also lists the test ruleset. */
const struct wr_ruleset *wr_ruleset_find(const char *id);
size_t wr_ruleset_count(void);
const struct wr_ruleset *wr_ruleset_at(size_t i);

/* The undo barrier (issue 14): 1 when a post of `seat` (no die rolled)
 * revealed something, so that it cannot be taken back: an event that
 * reaches another seat but not every seat, a change of the match's phase
 * (the spectator view's "phase": set-up secrets come out there), or the
 * ruleset's own undo_barrier. A roll is a barrier the service checks. */
int wr_undo_reveals(const struct wr_ruleset *rs, const void *before, const void *after, int seat,
                    const struct wr_events *ev);

/* 1 when seat's view of state is the whole of it (the view at the end of
 * a match): a seat such as Blood Chess's referee (B11) "sees all", and
 * learns nothing from a copy of a move (G7 amended). */
int wr_sees_all(const struct wr_ruleset *rs, const void *state, int seat);

/* The snapshot's text as save's tree would be written
 * (JSON_C_TO_STRING_PLAIN), malloc'd: by save_out, without the tree, where
 * the ruleset has it. NULL when out of memory. */
char *wr_save_text(const struct wr_ruleset *rs, const void *state);
/* The seat's legal actions (rs->actions) written to w under key: without
 * a tree where the ruleset has actions_out. */
void wr_actions_out(const struct wr_ruleset *rs, const void *state, int seat, struct wr_out *w,
                    const char *key);
/* A state copy through save/load, for apply-on-a-copy. */
void *wr_clone(const struct wr_ruleset *rs, const void *state);

#endif
