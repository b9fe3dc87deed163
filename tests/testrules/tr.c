/* Skirmish (test ruleset). Each seat has a Chief and two Scouts; one Scout
 * of each seat is secretly a Decoy, chosen by the dice at creation and
 * known only to its owner until it is attacked. On its turn the active
 * seat moves one piece one king step to an empty square, or attacks an
 * adjacent enemy piece. The defender may Dodge: its seat is asked unless
 * its standing order says "always" or "never". Attacker rolls d6; a
 * dodging defender rolls d6 too and escapes on an equal or higher roll.
 * An attacked Decoy is revealed and removed without a roll. A seat whose
 * Chief is removed is out and its pieces leave; the last seat standing
 * wins; after `turn_limit` turns the match is a draw. With the option
 * `actions_per_turn` a turn is that many actions (moves, or attacks with
 * their answers): the attacker's turn then goes on after the defender's
 * Dodge, which the clocks must tell from a turn that ended (RULINGS.md
 * G8, turn_of).
 * Seats sit as RULINGS.md G1 says: 0 on rank 1, 1 on rank 8, 2 on file a.
 * Undo barrier (issue 14): the generic one and an attacked Decoy. With
 * one action a turn a move passes the turn, so only the defender's Dodge,
 * when its own turn follows, is a post its seat could take back, and that
 * rolls dice. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tr.h"

enum { CHIEF, SCOUT };
#define NPIECES 9
#define ORDER_ASK 0
#define ORDER_ALWAYS 1
#define ORDER_NEVER 2

struct piece {
	int seat, kind, sq, decoy, alive;
};

struct tr_state {
	int seats, turn, turn_limit, active;
	int per_turn, done;      /* actions a turn, and done in this one */
	int out;                 /* mask of seats that are out */
	struct piece p[NPIECES];
	int orders[3];
	/* a pending attack awaiting the defender's dodge decision */
	int pending, att, def;
	int over, winner;        /* winner -1: draw */
};

static const struct wr_board *B = &wr_board8;
static const char *const order_names[] = {"ask", "always", "never"};

static int
start_square(int seat, int i)
{
	static const char *const sq[3][3] = {{"e1", "d1", "f1"}, {"e8", "d8", "f8"}, {"a4", "a3", "a5"}};
	return wr_square_parse(B, sq[seat][i]);
}

static json_object *
int_option(int def, int max, const char *description)
{
	json_object *t = json_object_new_object();

	json_object_object_add(t, "type", json_object_new_string("integer"));
	json_object_object_add(t, "default", json_object_new_int(def));
	json_object_object_add(t, "minimum", json_object_new_int(1));
	json_object_object_add(t, "maximum", json_object_new_int(max));
	json_object_object_add(t, "description", json_object_new_string(description));
	return t;
}

static json_object *
tr_options(void)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "turn_limit", int_option(30, 10000, "turns before a draw"));
	json_object_object_add(o, "actions_per_turn", int_option(1, 3, "actions a turn"));
	return o;
}

static int
piece_at(const struct tr_state *s, int sq)
{
	for (int i = 0; i < s->seats * 3; i++)
		if (s->p[i].alive && s->p[i].sq == sq)
			return i;
	return -1;
}

static int
tr_create(json_object *options, int seats, struct wr_rng *rng, void **state,
          struct wr_error *err)
{
	static const char *const known[] = {"turn_limit", "actions_per_turn", NULL};
	struct tr_state *s;
	int limit, per_turn;

	if (seats < 2 || seats > 3)
		return wr_fail(err, "seats", "seats", "Skirmish is for 2 or 3 seats");
	if (options && wr_json_only(options, known, err) != 0)
		return -1;
	if (wr_json_int(options, "turn_limit", 1, 10000, 0, 30, &limit, err) != 0 ||
	    wr_json_int(options, "actions_per_turn", 1, 3, 0, 1, &per_turn, err) != 0)
		return -1;
	s = calloc(1, sizeof(*s));
	s->seats = seats;
	s->turn_limit = limit;
	s->per_turn = per_turn;
	s->turn = 1;
	for (int seat = 0; seat < seats; seat++) {
		int decoy = 1 + (int)wr_die(rng, 2) - 1; /* scout 1 or 2 */
		for (int i = 0; i < 3; i++) {
			struct piece *p = &s->p[seat * 3 + i];
			*p = (struct piece){seat, i == 0 ? CHIEF : SCOUT, start_square(seat, i),
			                    i == decoy, 1};
		}
	}
	*state = s;
	return 0;
}

static void
tr_free(void *state)
{
	free(state);
}

/* The snapshot, written once for its tree and its text (rules/out.c). */
static void
tr_save_out(const void *state, struct wr_out *w)
{
	const struct tr_state *s = state;

	wr_out_obj(w, NULL);
	wr_out_int(w, "seats", s->seats);
	wr_out_int(w, "turn", s->turn);
	wr_out_int(w, "turn_limit", s->turn_limit);
	wr_out_int(w, "active", s->active);
	wr_out_int(w, "per_turn", s->per_turn);
	wr_out_int(w, "done", s->done);
	wr_out_int(w, "out", s->out);
	wr_out_int(w, "pending", s->pending);
	wr_out_int(w, "att", s->att);
	wr_out_int(w, "def", s->def);
	wr_out_int(w, "over", s->over);
	wr_out_int(w, "winner", s->winner);
	wr_out_ints(w, "orders", s->orders, 3);
	wr_out_arr(w, "pieces");
	for (int i = 0; i < s->seats * 3; i++) {
		int p[] = {s->p[i].seat, s->p[i].kind, s->p[i].sq, s->p[i].decoy, s->p[i].alive};
		wr_out_ints(w, NULL, p, 5);
	}
	wr_out_end(w);
	wr_out_end(w);
}

static json_object *
tr_save(const void *state)
{
	return wr_out_tree(tr_save_out, state);
}

static int
geti(json_object *o, const char *k)
{
	json_object *v;
	return json_object_object_get_ex(o, k, &v) ? json_object_get_int(v) : 0;
}

static int
tr_load(json_object *snap, void **state, struct wr_error *err)
{
	struct tr_state *s = calloc(1, sizeof(*s));
	json_object *ps, *ord;

	s->seats = geti(snap, "seats");
	s->turn = geti(snap, "turn");
	s->turn_limit = geti(snap, "turn_limit");
	s->active = geti(snap, "active");
	s->per_turn = geti(snap, "per_turn");
	s->done = geti(snap, "done");
	if (s->per_turn < 1)
		s->per_turn = 1;     /* a snapshot from before the option */
	s->out = geti(snap, "out");
	s->pending = geti(snap, "pending");
	s->att = geti(snap, "att");
	s->def = geti(snap, "def");
	s->over = geti(snap, "over");
	s->winner = geti(snap, "winner");
	if (s->seats < 2 || s->seats > 3 || !json_object_object_get_ex(snap, "pieces", &ps) ||
	    json_object_array_length(ps) != (size_t)s->seats * 3 ||
	    !json_object_object_get_ex(snap, "orders", &ord)) {
		free(s);
		return wr_fail(err, "bad-snapshot", "", "not a Skirmish snapshot");
	}
	for (int i = 0; i < 3; i++)
		s->orders[i] = json_object_get_int(json_object_array_get_idx(ord, (size_t)i));
	for (int i = 0; i < s->seats * 3; i++) {
		json_object *p = json_object_array_get_idx(ps, (size_t)i);
		s->p[i] = (struct piece){
			json_object_get_int(json_object_array_get_idx(p, 0)),
			json_object_get_int(json_object_array_get_idx(p, 1)),
			json_object_get_int(json_object_array_get_idx(p, 2)),
			json_object_get_int(json_object_array_get_idx(p, 3)),
			json_object_get_int(json_object_array_get_idx(p, 4))};
	}
	*state = s;
	return 0;
}

static unsigned
tr_to_act(const void *state)
{
	const struct tr_state *s = state;

	if (s->over)
		return 0;
	return 1u << (s->pending ? s->p[s->def].seat : s->active);
}

/* The active seat's turn goes on while the defender decides (G8). */
static unsigned
tr_turn_of(const void *state)
{
	const struct tr_state *s = state;

	return s->over ? 0 : 1u << s->active;
}

static json_object *
action(const char *type, int from, int to)
{
	json_object *a = json_object_new_object();
	json_object_object_add(a, "type", json_object_new_string(type));
	if (from >= 0)
		json_object_object_add(a, "from", wr_json_square_new(B, from));
	if (to >= 0)
		json_object_object_add(a, "to", wr_json_square_new(B, to));
	return a;
}

static json_object *
tr_actions(const void *state, int seat)
{
	const struct tr_state *s = state;
	json_object *list = json_object_new_array();

	if (!(tr_to_act(s) & (1u << seat)))
		return list;
	if (s->pending) {
		json_object *y = json_object_new_object(), *n = json_object_new_object();
		json_object_object_add(y, "type", json_object_new_string("dodge"));
		json_object_object_add(y, "dodge", json_object_new_boolean(1));
		json_object_object_add(n, "type", json_object_new_string("dodge"));
		json_object_object_add(n, "dodge", json_object_new_boolean(0));
		json_object_array_add(list, y);
		json_object_array_add(list, n);
		return list;
	}
	for (int i = 0; i < s->seats * 3; i++) {
		if (!s->p[i].alive || s->p[i].seat != seat)
			continue;
		for (int d = 0; d < WR_DIRS; d++) {
			int to = wr_step(B, s->p[i].sq, d), j;
			if (to == WR_NO_SQUARE)
				continue;
			j = piece_at(s, to);
			if (j < 0)
				json_object_array_add(list, action("move", s->p[i].sq, to));
			else if (s->p[j].seat != seat)
				json_object_array_add(list, action("attack", s->p[i].sq, to));
		}
	}
	return list;
}

static json_object *
ev(const char *type)
{
	json_object *e = json_object_new_object();
	json_object_object_add(e, "type", json_object_new_string(type));
	return e;
}

static void
remove_seat(struct tr_state *s, int seat, struct wr_events *evs)
{
	json_object *e = ev("seat_out");
	s->out |= 1u << seat;
	for (int i = 0; i < s->seats * 3; i++)
		if (s->p[i].seat == seat)
			s->p[i].alive = 0;
	json_object_object_add(e, "seat", json_object_new_int(seat));
	wr_emit(evs, WR_VIS_PUBLIC, e);
	int left = 0, last = -1;
	for (int i = 0; i < s->seats; i++)
		if (!(s->out & (1u << i))) {
			left++;
			last = i;
		}
	if (left == 1) {
		s->over = 1;
		s->winner = last;
	}
}

static void
next_turn(struct tr_state *s, struct wr_events *evs)
{
	if (s->over)
		return;
	s->done = 0;
	do {
		s->active = (s->active + 1) % s->seats;
		if (s->active == 0)
			s->turn++;
	} while (s->out & (1u << s->active));
	if (s->turn > s->turn_limit) {
		s->over = 1;
		s->winner = -1;
		wr_emit(evs, WR_VIS_PUBLIC, ev("turn_limit"));
	}
}

/* An action is over (a move, or an attack resolved): the turn goes on
 * while actions are left (actions_per_turn). */
static void
action_done(struct tr_state *s, struct wr_events *evs)
{
	if (++s->done < s->per_turn && !s->over && !(s->out & (1u << s->active)))
		return;
	next_turn(s, evs);
}

static void
remove_piece(struct tr_state *s, int i, struct wr_events *evs)
{
	json_object *e = ev("removed");
	s->p[i].alive = 0;
	json_object_object_add(e, "square", wr_json_square_new(B, s->p[i].sq));
	json_object_object_add(e, "decoy", json_object_new_boolean(s->p[i].decoy));
	wr_emit(evs, WR_VIS_PUBLIC, e);
	if (s->p[i].kind == CHIEF)
		remove_seat(s, s->p[i].seat, evs);
}

/* The attack once the defender's answer is known. */
static void
resolve(struct tr_state *s, int dodge, struct wr_rng *rng, struct wr_events *evs)
{
	unsigned a = wr_die(rng, 6), d = dodge ? wr_die(rng, 6) : 0;
	json_object *e = ev("roll");

	json_object_object_add(e, "attacker", json_object_new_int((int)a));
	if (dodge)
		json_object_object_add(e, "defender", json_object_new_int((int)d));
	json_object_object_add(e, "dodge", json_object_new_boolean(dodge));
	wr_emit(evs, WR_VIS_PUBLIC, e);
	s->pending = 0;
	if (dodge && d >= a) {
		wr_emit(evs, WR_VIS_PUBLIC, ev("escaped"));
	} else {
		int to = s->p[s->def].sq;
		remove_piece(s, s->def, evs);
		s->p[s->att].sq = to;
	}
	action_done(s, evs);
}

static int
tr_apply(void *state, int seat, json_object *act, struct wr_rng *rng, struct wr_events *evs,
         struct wr_error *err)
{
	static const char *const known_move[] = {"type", "from", "to", NULL};
	static const char *const known_dodge[] = {"type", "dodge", NULL};
	struct tr_state *s = state;
	const char *type;
	int from, to, i, j, dodge;

	if (!(tr_to_act(s) & (1u << seat)))
		return wr_fail(err, "not-awaited", "", "this seat is not awaited");
	if (wr_json_string(act, "type", 1, &type, err) != 0)
		return -1;
	if (s->pending) {
		if (strcmp(type, "dodge") != 0)
			return wr_fail(err, "decision-owed", "type", "answer the attack: dodge or not");
		if (wr_json_only(act, known_dodge, err) || wr_json_bool(act, "dodge", 1, 0, &dodge, err))
			return -1;
		resolve(s, dodge, rng, evs);
		return 0;
	}
	if (strcmp(type, "move") != 0 && strcmp(type, "attack") != 0)
		return wr_fail(err, "unknown-action", "type", "move or attack");
	if (wr_json_only(act, known_move, err) || wr_json_square(act, "from", B, &from, err) ||
	    wr_json_square(act, "to", B, &to, err))
		return -1;
	i = piece_at(s, from);
	if (i < 0 || s->p[i].seat != seat)
		return wr_fail(err, "not-your-piece", "from", "no piece of yours there");
	if (wr_chebyshev(B, from, to) != 1)
		return wr_fail(err, "too-far", "to", "one king step");
	j = piece_at(s, to);
	if (strcmp(type, "move") == 0) {
		if (j >= 0)
			return wr_fail(err, "occupied", "to", "the square is occupied");
		json_object *e = ev("moved");
		s->p[i].sq = to;
		json_object_object_add(e, "from", wr_json_square_new(B, from));
		json_object_object_add(e, "to", wr_json_square_new(B, to));
		wr_emit(evs, WR_VIS_PUBLIC, e);
		action_done(s, evs);
		return 0;
	}
	if (j < 0 || s->p[j].seat == seat)
		return wr_fail(err, "no-enemy", "to", "no enemy piece there");
	json_object *e = ev("attack");
	json_object_object_add(e, "from", wr_json_square_new(B, from));
	json_object_object_add(e, "to", wr_json_square_new(B, to));
	wr_emit(evs, WR_VIS_PUBLIC, e);
	s->att = i;
	s->def = j;
	if (s->p[j].decoy) {
		/* A decoy has nothing to defend: it is revealed, no dice. */
		remove_piece(s, j, evs);
		s->p[i].sq = to;
		action_done(s, evs);
		return 0;
	}
	int order = s->orders[s->p[j].seat];
	if (order == ORDER_ASK) {
		s->pending = 1;
		json_object *w = ev("awaiting_dodge");
		json_object_object_add(w, "seat", json_object_new_int(s->p[j].seat));
		wr_emit(evs, WR_VIS_PUBLIC, w);
		return 0;
	}
	resolve(s, order == ORDER_ALWAYS, rng, evs);
	return 0;
}

/* Undo (issue 14): an attacked Decoy is revealed to everyone. */
static int
tr_undo_barrier(const void *before, const void *after, int seat, const struct wr_events *evs)
{
	const struct tr_state *a = before, *b = after;

	(void)seat;
	(void)evs;
	for (int i = 0; i < NPIECES; i++)
		if (a->p[i].decoy && a->p[i].alive && !b->p[i].alive)
			return 1;
	return 0;
}

static int
tr_set_orders(void *state, int seat, json_object *orders, struct wr_error *err)
{
	static const char *const known[] = {"dodge", NULL};
	struct tr_state *s = state;
	const char *v;

	if (wr_json_only(orders, known, err) || wr_json_string(orders, "dodge", 1, &v, err))
		return -1;
	for (int i = 0; i < 3; i++) {
		if (strcmp(v, order_names[i]) == 0) {
			s->orders[seat] = i;
			return 0;
		}
	}
	return wr_fail(err, "bad-order", "dodge", "dodge: ask, always or never");
}

static int
tr_resign(void *state, int seat, struct wr_rng *rng, struct wr_events *evs)
{
	struct tr_state *s = state;
	int was_active = s->active == seat;
	int in_attack = s->pending && (s->p[s->def].seat == seat || s->p[s->att].seat == seat);

	/* An attack that involves the leaving seat ends with it. */
	if (in_attack)
		s->pending = 0;
	remove_seat(s, seat, evs);
	if (!s->over && (was_active || in_attack))
		next_turn(s, evs);
	return 0;
}

static json_object *
tr_view(const void *state, int viewer)
{
	const struct tr_state *s = state;
	json_object *o = json_object_new_object(), *ps = json_object_new_array();

	json_object_object_add(o, "turn", json_object_new_int(s->turn));
	json_object_object_add(o, "active", json_object_new_int(s->active));
	json_object_object_add(o, "out", json_object_new_int(s->out));
	for (int i = 0; i < s->seats * 3; i++) {
		const struct piece *p = &s->p[i];
		if (!p->alive)
			continue;
		json_object *j = json_object_new_object();
		json_object_object_add(j, "seat", json_object_new_int(p->seat));
		json_object_object_add(j, "kind", json_object_new_string(p->kind == CHIEF ? "chief" : "scout"));
		json_object_object_add(j, "square", wr_json_square_new(B, p->sq));
		/* Same shape for every viewer: the flag or null. */
		json_object_object_add(j, "decoy", viewer == p->seat || viewer == WR_EVERYONE
		                                     ? json_object_new_boolean(p->decoy)
		                                     : NULL);
		json_object_array_add(ps, j);
	}
	json_object_object_add(o, "pieces", ps);
	if (viewer >= 0 && viewer < s->seats)
		json_object_object_add(o, "orders",
		                       json_object_new_string(order_names[s->orders[viewer]]));
	json_object *pend = json_object_new_array();
	if (!s->over) {
		json_object *w = json_object_new_object();
		int seat = s->pending ? s->p[s->def].seat : s->active;
		json_object_object_add(w, "seat", json_object_new_int(seat));
		json_object_object_add(w, "kind", json_object_new_string(s->pending ? "dodge" : "turn"));
		json_object_array_add(pend, w);
	}
	json_object_object_add(o, "pending", pend);
	return o;
}

static void
tr_result(const void *state, struct wr_result *out)
{
	const struct tr_state *s = state;

	memset(out, 0, sizeof(*out));
	out->over = s->over;
	if (s->over && s->winner >= 0) {
		out->winners = 1u << s->winner;
		snprintf(out->reason, sizeof(out->reason), "last seat standing");
	} else if (s->over) {
		snprintf(out->reason, sizeof(out->reason), "turn limit");
	}
}

static unsigned
tr_seats_in(const void *state)
{
	const struct tr_state *s = state;
	return ((1u << s->seats) - 1) & ~(unsigned)s->out;
}

const struct wr_ruleset tr_ruleset = {
	.id = "skirmish-test",
	.title = "Skirmish (test ruleset)",
	.source = "tests/testrules/tr.c",
	.min_seats = 2,
	.max_seats = 3,
	.options = tr_options,
	.create = tr_create,
	.load = tr_load,
	.save = tr_save,
	.save_out = tr_save_out,
	.free = tr_free,
	.to_act = tr_to_act,
	.turn_of = tr_turn_of,
	.actions = tr_actions,
	.apply = tr_apply,
	.set_orders = tr_set_orders,
	.resign = tr_resign,
	.view = tr_view,
	.result = tr_result,
	.seats_in = tr_seats_in,
	.undo_barrier = tr_undo_barrier,
};
