/* Wargame Chess codec: options, actions JSON <-> struct wc_action, events
 * struct wc_event -> JSON, and the wr_ruleset and wr_template tables. It
 * checks shape only; every rule is in wc_rules.c (wc_legal). Save, load
 * and views are in wc_snapshot.c. The top of the ruleset: it calls
 * wc_snapshot.c, the rule files and the data; nothing calls into it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wargame_chess.h"
#include "wc_rules.h"

#define B (&wr_board8)

/* {option id: count} of the options taken. */
static json_object *
counts_json(const struct wc_faction *f, const int *counts)
{
	json_object *pc = json_object_new_object();
	for (int i = 0; i < f->nopts; i++)
		if (counts[i])
			wr_json_put_int(pc, f->opts[i].id, counts[i]);
	return pc;
}

/* --------------------------------------------------------- options */

static json_object *
wc_options(void)
{
	static const char *const first[] = {"seat0", "random"};
	json_object *o = json_object_new_object();

	wr_json_put(o, "first_trees", wr_json_option("string", json_object_new_string("seat0"), 1, 0,
	            first, 2, "Who sets up Trees first: seat 0, or a random seat (RULINGS.md, "
	            "Wargame Chess W2)"));
	return o;
}

static int
wc_create(json_object *options, int seats, struct wr_rng *rng, void **state,
          struct wr_error *err)
{
	static const char *const known[] = {"first_trees", NULL};
	const char *ft = NULL;
	int random = 0;
	struct wc_state *st;

	if (seats != WC_SEATS)
		return wr_fail(err, "seats", "seats", "Wargame Chess is for 2 seats");
	if (options) {
		if (wr_json_only(options, known, err) != 0 ||
		    wr_json_string(options, "first_trees", 0, &ft, err) != 0)
			return -1;
		if (ft && strcmp(ft, "random") == 0)
			random = 1;
		else if (ft && strcmp(ft, "seat0") != 0)
			return wr_fail(err, "bad-option", "first_trees",
			               "first_trees: \"seat0\" or \"random\"");
	}
	st = calloc(1, sizeof(*st));
	if (!st)
		return wr_fail(err, "no-memory", "", "out of memory");
	wc_init(st, random, rng);
	*state = st;
	return 0;
}

/* --------------------------------------------------------- actions */

static void
wc_action_out(const void *state, const void *action, struct wr_out *w)
{
	const struct wc_action *a = action;
	(void)state;

	wr_out_obj(w, NULL);
	wr_out_str(w, "type", wc_kind_names[a->kind]);
	switch (a->kind) {
	case WC_A_TEAM: {
		const struct wc_faction *f = wc_faction_at(a->faction);
		wr_out_str(w, "faction", f->id);
		wr_out_obj(w, "pieces");
		for (int i = 0; i < f->nopts; i++)
			if (a->counts[i])
				wr_out_int(w, f->opts[i].id, a->counts[i]);
		wr_out_end(w);
		wr_out_arr(w, "upgrades");
		for (int u = 0; u < f->nupgrades; u++)
			if (a->upgrades & (1u << u))
				wr_out_str(w, NULL, f->upgrades[u].id);
		wr_out_end(w);
		break;
	}
	case WC_A_TREES:
		wr_out_str(w, "choice", wc_tree_names[a->trees]);
		break;
	case WC_A_DEPLOY:
		wr_out_str(w, "piece", a->option);
		wr_out_sq(w, "square", B, a->sq);
		break;
	case WC_A_ACTIVATE:
	case WC_A_REDEPLOY:
		wr_out_sq(w, "square", B, a->sq);
		break;
	case WC_A_MOVE:
		wr_out_sq(w, "to", B, a->sq);
		if (a->castle >= 0)
			wr_out_sq(w, "castle", B, a->castle);
		break;
	case WC_A_ATTACK:
		wr_out_sq(w, "to", B, a->sq);
		if (a->advantage)
			wr_out_bool(w, "advantage", 1);
		break;
	case WC_A_PROMOTE:
		wr_out_int(w, "piece", a->piece);
		break;
	case WC_A_DEFEND:
		wr_out_bool(w, "advantage", a->advantage);
		break;
	case WC_A_COMBAT:
		wr_out_str(w, "option", a->combat ? "retreat" : "push");
		wr_out_sq(w, "square", B, a->sq);
		break;
	default:
		break;
	}
	wr_out_end(w);
}

static int
parse_team(json_object *j, struct wc_action *a, struct wr_error *err)
{
	static const char *const known[] = {"type", "faction", "pieces", "upgrades", NULL};
	json_object *pc, *up;
	const struct wc_faction *f;
	const char *s;

	if (wr_json_only(j, known, err) != 0 || wr_json_string(j, "faction", 1, &s, err) != 0)
		return -1;
	if ((a->faction = wc_faction_find(s)) < 0)
		return wr_fail(err, "unknown-faction", "faction", "no such faction");
	f = wc_faction_at(a->faction);
	if (!json_object_object_get_ex(j, "pieces", &pc) || !json_object_is_type(pc, json_type_object))
		return wr_fail(err, "missing-field", "pieces", "pieces: an object is required");
	json_object_object_foreach(pc, key, val) {
		int i, c;
		for (i = 0; i < f->nopts && strcmp(f->opts[i].id, key); i++)
			;
		if (i == f->nopts)
			return wr_fail(err, "unknown-piece", "pieces",
			               "%.40s: not in this faction's roster", key);
		(void)val;
		if (wr_json_int(pc, key, 0, 99, 1, 0, &c, err) != 0)
			return -1;
		a->counts[i] = c;
	}
	if (!json_object_object_get_ex(j, "upgrades", &up) || json_object_is_type(up, json_type_null))
		return 0;
	if (!json_object_is_type(up, json_type_array))
		return wr_fail(err, "wrong-type", "upgrades", "upgrades: an array");
	for (size_t k = 0; k < json_object_array_length(up); k++) {
		json_object *v = json_object_array_get_idx(up, k);
		int u;
		if (!json_object_is_type(v, json_type_string))
			return wr_fail(err, "wrong-type", "upgrades", "upgrades: strings");
		for (u = 0; u < f->nupgrades && strcmp(f->upgrades[u].id, json_object_get_string(v)); u++)
			;
		if (u == f->nupgrades)
			return wr_fail(err, "unknown-upgrade", "upgrades", "no such upgrade");
		if (a->upgrades & (1u << u))
			return wr_fail(err, "duplicate-upgrade", "upgrades", "an upgrade is taken once");
		a->upgrades |= 1u << u;
	}
	return 0;
}

/* The fields of each action type besides "type" (README.md, Actions). */
static const char *const fields[WC_A_MAX][4] = {
	[WC_A_TREES] = {"type", "choice"},
	[WC_A_DEPLOY] = {"type", "piece", "square"},
	[WC_A_ACTIVATE] = {"type", "square"},
	[WC_A_MOVE] = {"type", "to", "castle"},
	[WC_A_ATTACK] = {"type", "to", "advantage"},
	[WC_A_STAY] = {"type"},
	[WC_A_PROMOTE] = {"type", "piece"},
	[WC_A_END] = {"type"},
	[WC_A_DEFEND] = {"type", "advantage"},
	[WC_A_COMBAT] = {"type", "option", "square"},
	[WC_A_REDEPLOY] = {"type", "square"},
};

/* Shape of every action: JSON -> struct wc_action. */
static int
wc_parse(const void *state, json_object *j, void *action, struct wr_error *err)
{
	static const char *const cm[] = {"push", "retreat"};
	struct wc_action *a = action;
	const char *type, *s;
	json_object *c;
	int kind;

	(void)state;
	if (!j || !json_object_is_type(j, json_type_object))
		return wr_fail(err, "wrong-type", "", "an action is a JSON object");
	if (wr_json_string(j, "type", 1, &type, err) != 0)
		return -1;
	kind = wr_json_name_index(type, wc_kind_names + 1, WC_A_MAX - 1) + 1;
	if (kind <= 0)
		return wr_fail(err, "unknown-action", "type", "unknown action type");
	wc_action_init(a, kind);
	if (kind == WC_A_TEAM)
		return parse_team(j, a, err);
	if (wr_json_only(j, fields[kind], err) != 0)
		return -1;
	switch (kind) {
	case WC_A_TREES:
		if (wr_json_string(j, "choice", 1, &s, err) != 0)
			return -1;
		if ((a->trees = wr_json_name_index(s, wc_tree_names, WC_TREES_MAX)) < 0)
			return wr_fail(err, "bad-choice", "choice", "choice: mirror, mirror_flip or random");
		return 0;
	case WC_A_DEPLOY:
		if (wr_json_string(j, "piece", 1, &s, err) != 0 ||
		    wr_json_square(j, "square", B, &a->sq, err) != 0)
			return -1;
		if (strlen(s) >= sizeof(a->option))
			return wr_fail(err, "unknown-piece", "piece", "not in this team's roster");
		snprintf(a->option, sizeof(a->option), "%s", s);
		return 0;
	case WC_A_ACTIVATE:
	case WC_A_REDEPLOY:
		return wr_json_square(j, "square", B, &a->sq, err);
	case WC_A_MOVE:
		if (wr_json_square(j, "to", B, &a->sq, err) != 0)
			return -1;
		if (json_object_object_get_ex(j, "castle", &c) && !json_object_is_type(c, json_type_null) &&
		    wr_json_square(j, "castle", B, &a->castle, err) != 0)
			return -1;
		return 0;
	case WC_A_ATTACK:
		if (wr_json_square(j, "to", B, &a->sq, err) != 0)
			return -1;
		return wr_json_bool(j, "advantage", 0, 0, &a->advantage, err);
	case WC_A_PROMOTE:
		return wr_json_int(j, "piece", 0, WC_MAX_PIECES - 1, 1, 0, &a->piece, err);
	case WC_A_DEFEND:
		return wr_json_bool(j, "advantage", 1, 0, &a->advantage, err);
	case WC_A_COMBAT:
		if (wr_json_string(j, "option", 1, &s, err) != 0 ||
		    wr_json_square(j, "square", B, &a->sq, err) != 0)
			return -1;
		if ((a->combat = wr_json_name_index(s, cm, 2)) < 0)
			return wr_fail(err, "bad-choice", "option", "option: push or retreat");
		return 0;
	}
	return 0;                      /* stay, end: the type alone */
}

/* ---------------------------------------------------------- events */

static const char *const token_kinds[] = {"advantage", "disadvantage"};
static const char *const cm_names[] = {"push", "retreat", "return"};

static json_object *
trees_json(const struct wc_event *e)
{
	json_object *o = wr_json_typed("trees"), *rolls = json_object_new_array(), *sq;

	wr_json_put_int(o, "seat", e->u.trees.seat);
	wr_json_put_str(o, "setup", e->u.trees.setup < 0 ? "rolled" : wc_tree_names[e->u.trees.setup]);
	for (int i = 0; i < e->u.trees.nrolls; i++) {
		const struct wc_tree_roll *r = &e->u.trees.rolls[i];
		json_object *x = json_object_new_object();
		wr_json_put_int(x, "d4", r->d4);
		wr_json_put_int(x, "d8", r->d8);
		wr_json_put_sq(x, "square", B, r->sq);
		wr_json_put_bool(x, "rerolled", r->rerolled);
		json_object_array_add(rolls, x);
	}
	json_object_object_add(o, "rolls", rolls);
	if (e->u.trees.setup < 0)
		return o;
	sq = json_object_new_array();
	for (int i = 0; i < e->u.trees.nsquares; i++)
		json_object_array_add(sq, wr_json_sq(B, e->u.trees.squares[i]));
	json_object_object_add(o, "squares", sq);
	return o;
}

static json_object *
roll_json(const struct wc_event *e)
{
	json_object *o = wr_json_typed("roll"), *fa = json_object_new_array();
	int net = e->u.roll.net;

	wr_json_put_int(o, "piece", e->u.roll.piece);
	wr_json_put_str(o, "role", e->u.roll.defence ? "defence" : "attack");
	wr_json_put_str(o, "dice", wc_dice[e->u.roll.type]);
	for (int i = 0; i < e->u.roll.nfaces; i++)
		json_object_array_add(fa, json_object_new_int(e->u.roll.faces[i]));
	json_object_object_add(o, "faces", fa);
	wr_json_put_str(o, "mode", net > 0 ? "advantage" : net < 0 ? "disadvantage" : "normal");
	wr_json_put_int(o, "advantages", e->u.roll.advantages);
	wr_json_put_int(o, "disadvantages", e->u.roll.disadvantages);
	wr_json_put_bool(o, "advantage_prevented", e->u.roll.prevent_adv);
	wr_json_put_bool(o, "disadvantage_prevented", e->u.roll.prevent_dis);
	wr_json_put_int(o, "bonus", e->u.roll.bonus);
	wr_json_put_int(o, "total", e->u.roll.total);
	return o;
}

static json_object *
team_list_json(const struct wc_event *e)
{
	const struct wc_faction *f = wc_faction_at(e->u.team_list.faction);
	json_object *o = wr_json_typed("team_list");

	wr_json_put_int(o, "seat", e->u.team_list.seat);
	wr_json_put_str(o, "faction", f ? f->id : "standard");
	json_object_object_add(o, "pieces", counts_json(f ? f : &wc_standard, e->u.team_list.counts));
	wr_json_put_int(o, "upgrades", (int)e->u.team_list.upgrades);
	return o;
}

static json_object *
game_over_json(const struct wc_event *e)
{
	json_object *o = wr_json_typed("game_over"), *w = json_object_new_array(),
	            *pts = json_object_new_array();

	for (int s = 0; s < WC_SEATS; s++) {
		if (e->u.over.winners & (1u << s))
			json_object_array_add(w, json_object_new_int(s));
		json_object_array_add(pts, json_object_new_int(e->u.over.points[s]));
	}
	json_object_object_add(o, "winners", w);
	json_object_object_add(o, "points", pts);
	wr_json_put_str(o, "reason", e->u.over.reason);
	return o;
}

/* Events whose fields are all whole numbers and squares: their names,
 * in order; a leading '@' marks a square, '?' a yes/no. */
static const char *const plain_fields[WC_EV_MAX][5] = {
	[WC_EV_TEAM_SUBMITTED] = {"seat"},
	[WC_EV_DEPLOY] = {"seat", "piece", "@square"},
	[WC_EV_TURN_START] = {"turn", "first"},
	[WC_EV_TURN_END] = {"turn"},
	[WC_EV_ACTIVATE] = {"seat", "piece", "@square", "?reactivation"},
	[WC_EV_MOVE] = {"piece", "@from", "@to"},
	[WC_EV_CASTLE] = {"rook", "ally", "@rook_to", "@ally_to"},
	[WC_EV_STAY] = {"piece"},
	[WC_EV_PROMOTE] = {"pawn", "piece", "@square", "?activated"},
	[WC_EV_ATTACK] = {"attacker", "defender", "@from", "@square"},
	[WC_EV_ATTACK_RESULT] = {"attacker", "defender", "attack", "defence", "?success"},
	[WC_EV_SLAIN] = {"piece", "by", "@square"},
	[WC_EV_TOKENS_CLEARED] = {"piece", "advantage", "disadvantage"},
	[WC_EV_ACTIVATION_END] = {"piece"},
	[WC_EV_RESIGN] = {"seat"},
	[WC_EV_REDEPLOYED] = {"seat", "piece", "@square"},
};

static const char *const event_names[WC_EV_MAX] = {
	"phase", "team_submitted", "team_list", "teams_revealed", "trees", "deploy",
	"turn_start", "turn_end", "activate", "move", "castle", "stay", "promote", "attack",
	"token_spent", "roll", "attack_result", "slain", "not_slain", "combat_movement",
	"tokens", "token_removed", "faith", "tokens_cleared", "activation_end", "resign",
	"game_over", "redeployed",
};

/* The union members listed in plain_fields are runs of ints in order. */
static json_object *
plain_json(const struct wc_event *e)
{
	json_object *o = wr_json_typed(event_names[e->type]);
	const int *v = (const int *)(const void *)&e->u;

	for (int i = 0; i < 5 && plain_fields[e->type][i]; i++) {
		const char *k = plain_fields[e->type][i];
		if (k[0] == '@')
			wr_json_put_sq(o, k + 1, B, v[i]);
		else if (k[0] == '?')
			wr_json_put_bool(o, k + 1, v[i]);
		else
			wr_json_put_int(o, k, v[i]);
	}
	return o;
}

static json_object *
wc_event_json(const void *state, const void *event, unsigned *visible_to)
{
	const struct wc_event *e = event;
	json_object *o;
	(void)state;

	*visible_to = e->visible_to;
	switch (e->type) {
	case WC_EV_PHASE:
		o = wr_json_typed("phase");
		wr_json_put_str(o, "phase", wc_phase_names[e->u.phase.phase]);
		return o;
	case WC_EV_TEAM_LIST: return team_list_json(e);
	case WC_EV_TEAMS_REVEALED: return wr_json_typed("teams_revealed");
	case WC_EV_TREES: return trees_json(e);
	case WC_EV_ROLL: return roll_json(e);
	case WC_EV_GAME_OVER: return game_over_json(e);
	case WC_EV_TOKEN_SPENT:
		o = wr_json_typed("token_spent");
		wr_json_put_int(o, "piece", e->u.spent.piece);
		wr_json_put_str(o, "kind", token_kinds[e->u.spent.kind]);
		wr_json_put_str(o, "role", e->u.spent.defence ? "defence" : "attack");
		return o;
	case WC_EV_NOT_SLAIN:
		o = wr_json_typed("not_slain");
		wr_json_put_int(o, "piece", e->u.not_slain.piece);
		wr_json_put_sq(o, "from", B, e->u.not_slain.from);
		wr_json_put_sq(o, "to", B, e->u.not_slain.to);
		/* W9: "redeploy": its owner is asked for the square */
		wr_json_put_str(o, "how", e->u.not_slain.adjacent ? "adjacent" : "redeploy");
		return o;
	case WC_EV_COMBAT_MOVEMENT:
		o = wr_json_typed("combat_movement");
		wr_json_put_str(o, "option", cm_names[e->u.combat.option]);
		wr_json_put_int(o, "piece", e->u.combat.piece);
		wr_json_put_sq(o, "to", B, e->u.combat.to);
		return o;
	case WC_EV_TOKENS:
		o = wr_json_typed("tokens");
		wr_json_put_int(o, "piece", e->u.tokens.piece);
		wr_json_put_str(o, "kind", token_kinds[e->u.tokens.kind]);
		wr_json_put_int(o, "amount", e->u.tokens.amount);
		wr_json_put_int(o, "cancelled", e->u.tokens.cancelled);
		wr_json_put_int(o, "advantage", e->u.tokens.advantage);
		wr_json_put_int(o, "disadvantage", e->u.tokens.disadvantage);
		wr_json_put_str(o, "cause", e->u.tokens.cause ? e->u.tokens.cause : "");
		return o;
	case WC_EV_TOKEN_REMOVED:
		o = wr_json_typed("token_removed");
		wr_json_put_int(o, "piece", e->u.removed.piece);
		wr_json_put_str(o, "kind", token_kinds[e->u.removed.kind]);
		wr_json_put_str(o, "cause", e->u.removed.cause ? e->u.removed.cause : "");
		return o;
	case WC_EV_FAITH:
		o = wr_json_typed("faith");
		wr_json_put_int(o, "piece", e->u.faith.piece);
		wr_json_put_str(o, "kind", e->u.faith.kind ? "curse" : "blessing");
		wr_json_put_bool(o, "cancelled", e->u.faith.cancelled);
		wr_json_put_str(o, "cause", e->u.faith.cause ? e->u.faith.cause : "");
		return o;
	default:
		return plain_json(e);
	}
}

/* ---------------------------------------------------- the interface */

/* Refusals that come before the action is read: the match is over, or
 * the seat is not awaited (so a seat's mistakes are never judged against
 * a phase it is not in). */
static int
wc_refuse(const void *state, int seat, struct wr_error *err)
{
	const struct wc_state *st = state;

	if (st->over)
		return wr_fail(err, "game-over", "", "the match is over");
	if (seat < 0 || seat >= WC_SEATS || !(wc_to_act(st) & (1u << seat)))
		return wr_fail(err, "not-awaited", "", "this seat is not awaited now");
	return 0;
}

/* Standing orders: {"defend_advantage": "ask" | "always" | "never"}. */
static int
wc_set_orders(void *state, int seat, json_object *orders, struct wr_error *err)
{
	static const char *const known[] = {"defend_advantage", NULL};
	struct wc_state *st = state;
	const char *s;
	int o;

	if (seat < 0 || seat >= WC_SEATS)
		return wr_fail(err, "no-such-seat", "", "no such seat");
	if (wr_json_only(orders, known, err) != 0 ||
	    wr_json_string(orders, "defend_advantage", 0, &s, err) != 0)
		return -1;
	if (!s)
		return 0;
	if ((o = wr_json_name_index(s, wc_order_names, 3)) < 0)
		return wr_fail(err, "bad-order", "defend_advantage",
		               "defend_advantage: ask, always or never");
	st->seat[seat].order_defend = o;
	return 0;
}

/* W7: an agreed end is an inconclusive game, decided on points. */
static void
wc_agreed_end(void *state, struct wr_events *ev)
{
	struct wc_state *st = state;
	struct wr_list plain;

	if (st->over)
		return;
	wr_list_init(&plain, sizeof(struct wc_event));
	wc_inconclusive(st, &plain);
	if (ev)
		wr_tpl_events(&wc_template, st, &plain, ev);
	wr_list_free(&plain);
}

static void
wc_result(const void *state, struct wr_result *out)
{
	const struct wc_state *st = state;

	memset(out, 0, sizeof(*out));
	out->over = st->over;
	out->winners = st->winners;
	if (st->seat[0].submitted && st->seat[1].submitted) {
		out->has_scores = 1;
		for (int s = 0; s < WC_SEATS; s++)
			out->scores[s] = wc_points(st, s);
	}
	snprintf(out->reason, sizeof(out->reason), "%s", st->reason);
}

WR_TPL_TEMPLATE(wc, wc_refuse)

/* wc_snapshot.c */
int wc_load(json_object *snap, void **state, struct wr_error *err);
json_object *wc_snapshot(const void *state);
void wc_save_out(const void *state, struct wr_out *w);
json_object *wc_view(const void *state, int viewer);

/* RULINGS.md G8 (amended): the activating seat holds its turn while the
 * defender answers (W4). */
static unsigned
wc_turn_of(const void *state)
{
	const struct wc_state *st = state;
	if (st->phase == WC_PH_PLAY && st->active >= 0)
		return 1u << st->active;
	return wc_to_act(st);
}

WR_TPL_RULESET(wc, "wargame-chess", "Wargame Chess", "000_fd193abe0e5c92ac.txt", 2, 2,
               .turn_of = wc_turn_of, .set_orders = wc_set_orders, .agreed_end = wc_agreed_end,
               .undo_barrier = wc_undo_barrier,
               .determinize = wc_determinize, .evaluate = wc_evaluate, .save_out = wc_save_out);
