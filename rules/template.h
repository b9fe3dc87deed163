/*
 * The ruleset template (rules/README.md, "Adding a ruleset").
 *
 * Every ruleset folder has the same four parts, as a chess engine screens
 * a move before it makes it:
 *
 *   parse  (codec)  JSON -> the ruleset's plain action struct, named fields;
 *                   checks shape only (types, names, squares on the board)
 *   legal  (rules)  ONE function: is this action legal for this seat now,
 *                   and if not, why (a wr_error). Listing legal actions is
 *                   "every candidate that legal() accepts" -- there is no
 *                   second legality implementation that must agree with it.
 *   do     (rules)  mutates the plain state; never fails once legal() said
 *                   yes; draws dice only from the rng; appends events as
 *                   plain structs to a wr_list
 *   codec           turns state, actions and events into JSON
 *
 * Rule logic (legal, do) never builds or reads JSON; the codec never decides
 * a rule. wr_tpl_actions() and wr_tpl_apply() below are the glue that every
 * ruleset's `actions` and `apply` entries call.
 */
#ifndef WR_TEMPLATE_H
#define WR_TEMPLATE_H

#include <stddef.h>
#include <stdlib.h>

#include "rules.h"

/* A growable array of plain structs of one size (candidate actions,
 * events). Slots are zeroed when pushed. */
struct wr_list {
	unsigned char *items;
	size_t len, cap, size;
	unsigned char *first;    /* the caller's buffer it starts in, or NULL */
};

void wr_list_init(struct wr_list *l, size_t size);
/* The same, starting in the caller's buffer (suitably aligned, `bytes`
 * long, outliving the list): nothing is allocated while it holds the list
 * (issue 17: a large allocation per listing made every later one slower).
 * It moves to the heap when it outgrows the buffer. */
void wr_list_init_in(struct wr_list *l, size_t size, void *buf, size_t bytes);
/* A new zeroed slot at the end, or NULL when memory runs out. */
void *wr_list_push(struct wr_list *l);
void *wr_list_at(const struct wr_list *l, size_t i);
void wr_list_free(struct wr_list *l);

struct wr_template {
	size_t action_size;       /* sizeof the ruleset's action struct */
	size_t event_size;        /* sizeof the ruleset's event struct */

	/* codec: JSON -> action. Shape only; the state is given so names
	 * (squares of a larger board, unit ids) can be resolved. */
	int (*parse)(const void *state, json_object *j, void *action, struct wr_error *err);
	/* codec: action -> the exact JSON parse() accepts, one object written
	 * through w (a tree or its text, rules.h "wr_out"). */
	void (*action_out)(const void *state, const void *action, struct wr_out *w);
	/* rules: every action that might be legal for the seat now (a
	 * superset, in a stable order), pushed onto `out`. */
	void (*candidates)(const void *state, int seat, struct wr_list *out);
	/* rules: the one legality check. 0 when legal, else -1 and err. The
	 * error may not depend on what the seat cannot see (G5). err may be
	 * NULL (listing needs no reasons): it is only ever passed on to
	 * wr_fail(). */
	int (*legal)(const void *state, int seat, const void *action, struct wr_error *err);
	/* rules: applies a legal action; events (plain structs) onto `ev`. */
	void (*apply)(void *state, int seat, const void *action, struct wr_rng *rng,
	              struct wr_list *ev);
	/* codec: one event -> JSON, and who may see it (WR_VIS_PUBLIC or a
	 * seat mask). `state` is the state after the apply. */
	json_object *(*event_json)(const void *state, const void *event, unsigned *visible_to);
	/* rules, optional: the seats awaited now (a mask). When set,
	 * wr_tpl_apply() takes every forced action after the posted one
	 * (RULINGS.md G3, amended): while an awaited seat's whole list of
	 * legal actions holds exactly one action, that action is applied for
	 * it. NULL: the ruleset settles forced actions itself, or has none. */
	unsigned (*to_act)(const void *state);
	/* rules, optional: a seat leaves (wr_tpl_resign); its events onto
	 * `ev`. 0, or -1 when there is no such seat or it can no longer
	 * leave, nothing changed. */
	int (*resign)(void *state, int seat, struct wr_rng *rng, struct wr_list *ev);
	/* codec, optional: what wr_tpl_apply() refuses before the action is
	 * read (no such seat, the match is over, the seat is not awaited), so
	 * that a seat's mistakes are never judged against a phase it is not
	 * in. 0, or -1 and err. */
	int (*refuse)(const void *state, int seat, struct wr_error *err);
};

/* The most forced actions one post may set off (G3): a ruleset whose
 * forced actions never end would otherwise loop; the rest wait. */
#define WR_TPL_FORCED_MAX 256

/* The legal actions of the seat as a JSON array: the candidates legal()
 * accepts, each encoded by action_out(); written through w under key
 * (wr_tpl_actions_out), or as a tree. */
void wr_tpl_actions_out(const struct wr_template *t, const void *state, int seat,
                        struct wr_out *w, const char *key);
json_object *wr_tpl_actions(const struct wr_template *t, const void *state, int seat);
/* One action as its JSON tree. */
json_object *wr_tpl_action_json(const struct wr_template *t, const void *state,
                                const void *action);

/* refuse -> parse -> legal -> apply -> events to JSON, then the forced
 * actions that follow (G3, when t->to_act is set). Mutates nothing on
 * failure. */
int wr_tpl_apply(const struct wr_template *t, void *state, int seat, json_object *action,
                 struct wr_rng *rng, struct wr_events *ev, struct wr_error *err);

/* The typed form of the same glue, for rule tables and playouts in C:
 * legal() then apply(), events left as plain structs in `ev`. */
int wr_tpl_do(const struct wr_template *t, void *state, int seat, const void *action,
              struct wr_rng *rng, struct wr_list *ev, struct wr_error *err);

/* G3 (amended): while a seat of t->to_act() has exactly one legal action,
 * apply it, at most WR_TPL_FORCED_MAX times; each one's events are
 * encoded onto `out` with the state right after it. Returns how many
 * were taken; 0 when t->to_act is NULL. */
int wr_tpl_settle(const struct wr_template *t, void *state, struct wr_rng *rng,
                  struct wr_events *out);

/* The events of `ev` (plain structs) encoded onto `out`. */
void wr_tpl_events(const struct wr_template *t, const void *state, const struct wr_list *ev,
                   struct wr_events *out);

/* t->resign, its events encoded onto `out` (dropped when NULL), then the
 * forced actions that follow (G3, amended). -1 when t->resign refused. */
int wr_tpl_resign(const struct wr_template *t, void *state, int seat, struct wr_rng *rng,
                  struct wr_events *out);

/*
 * A ruleset on the template says only its own names. Its functions have
 * the names of its prefix `xx`: struct xx_action and struct xx_event;
 * xx_parse, xx_action_out and xx_event_json (codec); xx_candidates,
 * xx_legal, xx_apply, xx_to_act and xx_resign (rules); xx_options,
 * xx_create, xx_load, xx_snapshot (save), xx_view and xx_result. Its
 * state is one allocation, freed by free(). Then its codec ends with
 *
 *   WR_TPL_TEMPLATE(xx, refuse or NULL)
 *   WR_TPL_RULESET(xx, "id", "Title", "source.txt", min_seats, max_seats,
 *                  .turn_of = ..., the optional entries it has);
 *
 * WR_TPL_TEMPLATE defines `const struct wr_template xx_template` (declared
 * in xx_rules.h) and the glue the ruleset table names: xx_tpl_actions,
 * xx_tpl_apply and xx_tpl_resign (wr_tpl_actions, wr_tpl_apply and
 * wr_tpl_resign over xx_template).
 */
#define WR_TPL_TEMPLATE(xx, refuse_fn)                                                       \
	const struct wr_template xx##_template = {                                           \
		.action_size = sizeof(struct xx##_action),                                   \
		.event_size = sizeof(struct xx##_event),                                     \
		/* codec */                                                                  \
		.parse = xx##_parse, .action_out = xx##_action_out,                          \
		.event_json = xx##_event_json, .refuse = refuse_fn,                          \
		/* rules */                                                                  \
		.candidates = xx##_candidates, .legal = xx##_legal, .apply = xx##_apply,     \
		.to_act = xx##_to_act, .resign = xx##_resign,                                \
	};                                                                                   \
	static json_object *xx##_tpl_actions(const void *state, int seat)                    \
	{                                                                                    \
		return wr_tpl_actions(&xx##_template, state, seat);                          \
	}                                                                                    \
	static void xx##_tpl_actions_out(const void *state, int seat, struct wr_out *w,      \
	                                 const char *key)                                    \
	{                                                                                    \
		wr_tpl_actions_out(&xx##_template, state, seat, w, key);                     \
	}                                                                                    \
	static int xx##_tpl_apply(void *state, int seat, json_object *action,                \
	                          struct wr_rng *rng, struct wr_events *ev,                  \
	                          struct wr_error *err)                                      \
	{                                                                                    \
		return wr_tpl_apply(&xx##_template, state, seat, action, rng, ev, err);      \
	}                                                                                    \
	static int xx##_tpl_resign(void *state, int seat, struct wr_rng *rng,                \
	                           struct wr_events *ev)                                     \
	{                                                                                    \
		return wr_tpl_resign(&xx##_template, state, seat, rng, ev);                  \
	}

/* `const struct wr_ruleset xx_ruleset`; after the seats, the optional
 * entries it has (.turn_of, .set_orders, .seats_in, .agreed_end,
 * .undo_barrier), at least one. */
#define WR_TPL_RULESET(xx, id_, title_, source_, min_, max_, ...)                             \
	const struct wr_ruleset xx##_ruleset = {                                             \
		.id = id_,                                                                   \
		.title = title_,                                                             \
		.source = source_,                                                           \
		.min_seats = min_,                                                           \
		.max_seats = max_,                                                           \
		.options = xx##_options,                                                     \
		.create = xx##_create,                                                       \
		.load = xx##_load,                                                           \
		.save = xx##_snapshot,                                                       \
		.free = free,                                                                \
		.to_act = xx##_to_act,                                                       \
		.actions = xx##_tpl_actions,                                                 \
		.actions_out = xx##_tpl_actions_out,                                         \
		.apply = xx##_tpl_apply,                                                     \
		.resign = xx##_tpl_resign,                                                   \
		.view = xx##_view,                                                           \
		.result = xx##_result,                                                       \
		__VA_ARGS__                                                                  \
	}

#endif
