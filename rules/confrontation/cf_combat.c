/*
 * Confrontation's battles (IV, VI, R6) and spell battles (VII, R7), the
 * decisions they wait for (Hold the Line, Luck, Live Again, the Panic
 * square: IX, G3, R8) and the resolution that runs them one by one.
 *
 * Calls cf_match.c (events, who is asked, a seat out), cf_board.c and
 * cf_data.c; cf_turn.c and cf_rules.c call into it, it never calls back.
 */
#include <stdio.h>
#include <string.h>

#include "cf_rules.h"

enum { WAIT = 1 };

/* -------------------------------------------------- battle arithmetic */

static void
battle_mods(const struct cf_state *st, const struct cf_battle *b, int htl, struct cf_mods *a,
            struct cf_mods *d)
{
	const struct cf_piece *pa = cf_cp(st, b->a_seat, b->a_id);
	const struct cf_piece *pd = cf_cp(st, b->d_seat, b->d_id);
	memset(a, 0, sizeof(*a));
	memset(d, 0, sizeof(*d));
	/* R6 order: Weapon Mastery, Hold the Line, Enhancement, Treasure. */
	if (b->spell >= 0) {
		a->base = cf_spell_combat[b->spell];
	} else {
		a->base = cf_combat[pa->type];
		a->wm = pa->type == CF_KNIGHT ? 2 : 0;
		a->enh = st->terrain[b->from] == CF_ENHANCEMENT;
		d->htl = htl ? 2 : 0;
		d->enh = st->terrain[b->at] == CF_ENHANCEMENT;
	}
	d->base = cf_combat[pd->type];
	a->treasure = pa->treasure;
	d->treasure = pd->treasure;
}

static int
mods_total(const struct cf_mods *m)
{
	return m->base + m->wm + m->htl + m->enh + m->treasure;
}

/* The outcome for the attacker (1 win, 0 draw, -1 loss) of the given
 * dice, R6 steps after Luck: Intimidation, then Strength (*strength set
 * to the side whose Rook absorbs the defeat: 1 attacker, 2 defender). */
int
cf_battle_outcome(const struct cf_state *st, const struct cf_battle *b, int htl, int ad, int dd,
                  int *strength)
{
	struct cf_mods ma, md;
	const struct cf_piece *pa = cf_cp(st, b->a_seat, b->a_id);
	const struct cf_piece *pd = cf_cp(st, b->d_seat, b->d_id);
	battle_mods(st, b, htl, &ma, &md);
	int ta = ad + mods_total(&ma), td = dd + mods_total(&md);
	int o = (ta > td) - (ta < td);
	*strength = 0;
	if (b->spell < 0 && pa->type == CF_QUEEN) {
		if (o == 0)
			o = 1;          /* VI Intimidation */
		if (pd->type == CF_QUEEN)
			o = 1;          /* VI: two Queens, the mover wins */
	}
	if (o == 1 && pd->type == CF_ROOK && pd->strength > 0) {
		o = 0;
		*strength = 2;
	} else if (o == -1 && pa->type == CF_ROOK && pa->strength > 0 && b->spell < 0) {
		o = 0;
		*strength = 1;
	}
	return o;
}

/* Whether Hold the Line can change anything (G3: no question whose
 * answer cannot matter). */
static int
htl_matters(const struct cf_state *st, const struct cf_battle *b)
{
	int s1, s2;
	for (int x = 1; x <= 6; x++)
		for (int y = 1; y <= 6; y++)
			if (cf_battle_outcome(st, b, 0, x, y, &s1) != cf_battle_outcome(st, b, 1, x, y, &s2))
				return 1;
	return 0;
}

static int
htl_possible(const struct cf_state *st, const struct cf_battle *b)
{
	return b->spell < 0 && cf_racial_ok(st, b->d_seat, CF_DWARVES, b->at) && htl_matters(st, b);
}

/* Luck (IX Humans) for side 'a' or 'd': the piece is the mover (never on
 * its square: X), a caster on its square, or the defender on `at`. */
static int
luck_possible(const struct cf_state *st, const struct cf_battle *b, int att)
{
	int seat = att ? b->a_seat : b->d_seat, s;
	int sq = att ? (b->spell >= 0 ? cf_cp(st, b->a_seat, b->a_id)->sq : -1) : b->at;
	if (!cf_racial_ok(st, seat, CF_HUMANS, sq))
		return 0;
	/* The defender's Luck comes after the mover's (README 13): while it
	 * may still be used, the mover's bigger margin can keep it from
	 * catching up (G3), so every die the defender may end with counts.
	 * A defender's `never` counts only when no question to the mover
	 * leaves it time to change that order. */
	int dmax = b->d_die;
	if (att && cf_racial_ok(st, b->d_seat, CF_HUMANS, b->at) &&
	    (st->s[b->d_seat].o_luck != CF_LUCK_NEVER || st->s[seat].o_luck == CF_LUCK_ASK))
		dmax = 6;
	for (int d = b->d_die; d <= dmax; d++) {
		int cur = cf_battle_outcome(st, b, b->htl, b->a_die, d, &s);
		for (int f = 1; f <= 6; f++) {
			int ad = att && f > b->a_die ? f : b->a_die, dd = !att && f > d ? f : d;
			if (cf_battle_outcome(st, b, b->htl, ad, dd, &s) != cur)
				return 1;
		}
	}
	return 0;
}

static int
luck_order_says(const struct cf_state *st, const struct cf_battle *b, int att)
{
	int seat = att ? b->a_seat : b->d_seat, s;
	int o = cf_battle_outcome(st, b, b->htl, b->a_die, b->d_die, &s);
	int mine = att ? o : -o;
	switch (st->s[seat].o_luck) {
	case CF_LUCK_ALWAYS: return 1;
	case CF_LUCK_NEVER: return 0;
	case CF_LUCK_IF_LOSING: return mine < 0;
	case CF_LUCK_UNLESS_WINNING: return mine <= 0;
	default: return -1;
	}
}

int
cf_live_squares(const struct cf_state *st, int seat, int id, int *out)
{
	int n = 0;
	for (int sq = 0; sq < CF_NSQ; sq++)
		if (cf_on_near_line(seat, sq) && cf_can_stand(st, cf_cp(st, seat, id)->type, sq))
			out[n++] = sq;
	return n;
}

/* The Live Again order that answers the question: the one it was asked
 * under; an order changed while it is open applies from the next
 * question on (README: "a question already asked is answered by the
 * action"). */
static int
live_order(const struct cf_state *st, const struct cf_battle *b)
{
	return b->live_asked ? b->live_asked - 1 : st->s[b->loser_seat].o_live;
}

static int
live_possible(const struct cf_state *st, const struct cf_battle *b)
{
	int seat = b->loser_seat, id = b->loser_id, tmp[CF_NSQ];
	const struct cf_piece *p = cf_cp(st, seat, id);
	int attacker_moving = b->spell < 0 && seat == b->a_seat && id == b->a_id;
	if (p->type != CF_PAWN && p->type != CF_ROOK && p->type != CF_KNIGHT)
		return 0;
	if (!cf_racial_ok(st, seat, CF_UNDEAD, attacker_moving ? -1 : p->sq))
		return 0;
	return cf_live_squares(st, seat, id, tmp) > 0 && live_order(st, b) != CF_NEVER;
}

/* ------------------------------------------------------------ battles */

void
cf_res_begin(struct cf_state *st, int kind, int src, int seat, int id)
{
	memset(&st->r, 0, sizeof(st->r));
	st->r.panic_seat = st->r.panic_id = -1;
	st->r.kind = kind;
	st->r.src = src;
	st->r.seat = seat;
	st->r.id = id;
}

void
cf_start_battle(struct cf_state *st, int as, int ai, int ds, int di, int from, int at, int spell,
                struct wr_list *ev)
{
	struct cf_battle *b = &st->r.b;
	memset(b, 0, sizeof(*b));
	b->stage = CF_ST_HTL;
	b->a_seat = as, b->a_id = ai, b->d_seat = ds, b->d_id = di;
	b->from = from, b->at = at, b->spell = spell;
	b->loser_seat = b->loser_id = -1;
	st->r.in_battle = 1;
	cf_emit(ev, &(struct cf_event){.type = CF_E_BATTLE, .seat = as, .id = ai, .seat2 = ds,
	                               .id2 = di, .from = from, .to = at, .spell = spell});
}

static void
treasure_roll(struct cf_state *st, int seat, int id, int loser_type, struct wr_rng *rng,
              struct wr_list *ev)
{
	/* XI: defeating a Knight, Bishop or Queen; a 6 finds a treasure. */
	if (!st->o.treasure || cf_cp(st, seat, id)->status != CF_ON)
		return;
	if (loser_type != CF_KNIGHT && loser_type != CF_BISHOP && loser_type != CF_QUEEN)
		return;
	int die = (int)wr_die(rng, 6);
	cf_emit(ev, &(struct cf_event){.type = CF_E_TREASURE_ROLL, .seat = seat, .id = id,
	                               .die = die, .found = die == 6});
	if (die == 6)
		cf_p(st, seat, id)->treasure++;
}

/* The loser of a battle leaves (or lives again); then a winning mover
 * takes the contested square, whatever its terrain (R9). */
static void
battle_finish_loser(struct cf_state *st, int live_sq, struct wr_list *ev)
{
	struct cf_battle *b = &st->r.b;
	int seat = b->loser_seat, id = b->loser_id;
	if (seat >= 0 && cf_p(st, seat, id)->status == CF_ON) {
		int sq = cf_p(st, seat, id)->sq;
		if (live_sq >= 0) {
			st->s[seat].racial--;
			cf_put(st, seat, id, live_sq);
			cf_emit(ev, &(struct cf_event){.type = CF_E_LIVE_AGAIN, .seat = seat, .id = id,
			                               .from = sq, .to = live_sq});
		} else {
			cf_take(st, seat, id, CF_REMOVED);
			cf_emit(ev, &(struct cf_event){.type = CF_E_REMOVED, .seat = seat, .id = id,
			                               .square = sq});
		}
	}
	if (b->outcome == 1 && b->spell < 0 && cf_p(st, b->a_seat, b->a_id)->status == CF_ON &&
	    st->board[b->at] < 0) {
		cf_put(st, b->a_seat, b->a_id, b->at);
		cf_emit(ev, &(struct cf_event){.type = CF_E_ADVANCE, .seat = b->a_seat, .id = b->a_id,
		                               .to = b->at});
	}
	st->r.in_battle = 0;
	b->stage = CF_ST_NONE;
	cf_check_out(st, ev);
}

static void
do_luck(struct cf_state *st, int att, struct wr_rng *rng, struct wr_list *ev)
{
	struct cf_battle *b = &st->r.b;
	int seat = att ? b->a_seat : b->d_seat, id = att ? b->a_id : b->d_id;
	int die = (int)wr_die(rng, 6), *keep = att ? &b->a_die : &b->d_die, before = *keep;
	st->s[seat].racial--;
	if (die > *keep)
		*keep = die;
	if (att)
		b->a_luck = 1;
	else
		b->d_luck = 1;
	cf_emit(ev, &(struct cf_event){.type = CF_E_LUCK, .seat = seat, .id = id,
	                               .luck_before = before, .luck_reroll = die,
	                               .luck_kept = *keep});
}

static void
hold_the_line(struct cf_state *st, struct wr_list *ev)
{
	struct cf_battle *b = &st->r.b;
	b->htl = 1;
	st->s[b->d_seat].racial--;
	cf_emit(ev, &(struct cf_event){.type = CF_E_HOLD_THE_LINE, .seat = b->d_seat, .id = b->d_id});
}

/* R6 after the dice and Luck: the outcome, its event, the treasure roll;
 * returns 1 when a loser may live again. */
static int
resolve(struct cf_state *st, struct wr_rng *rng, struct wr_list *ev)
{
	struct cf_battle *b = &st->r.b;
	struct cf_piece *pa = cf_p(st, b->a_seat, b->a_id), *pd = cf_p(st, b->d_seat, b->d_id);
	struct cf_event e = {.type = CF_E_BATTLE_RESULT, .a_die = b->a_die, .d_die = b->d_die,
	                     .spell = b->spell};
	battle_mods(st, b, b->htl, &e.am, &e.dm);
	b->outcome = cf_battle_outcome(st, b, b->htl, b->a_die, b->d_die, &e.strength);
	int ta = b->a_die + mods_total(&e.am), td = b->d_die + mods_total(&e.dm);
	if (b->spell < 0 && pa->type == CF_QUEEN && pd->type == CF_QUEEN)
		e.intimidation = 2;
	else if (b->spell < 0 && pa->type == CF_QUEEN && ta == td)
		e.intimidation = 1;
	if (e.strength)
		(e.strength == 1 ? pa : pd)->strength--;
	e.outcome = b->outcome;
	cf_emit(ev, &e);
	/* IX Orcs, R8 (amended): any battle an Orc piece wins, as attacker
	 * or defender, a spell's too, owes its seat a Battle Fury; every Orc
	 * piece in it, whatever the outcome, "just fought" (R8). */
	if (st->o.races && st->s[b->a_seat].race == CF_ORCS)
		st->fury_fought[b->a_seat] |= 1u << b->a_id;
	if (st->o.races && st->s[b->d_seat].race == CF_ORCS)
		st->fury_fought[b->d_seat] |= 1u << b->d_id;
	if (b->outcome != 0) {
		int ws = b->outcome == 1 ? b->a_seat : b->d_seat;
		int wi = b->outcome == 1 ? b->a_id : b->d_id;
		if (st->o.races && st->s[ws].race == CF_ORCS)
			st->fury_won[ws] |= 1u << wi;
	}
	if (b->outcome == 1) {
		b->loser_seat = b->d_seat, b->loser_id = b->d_id;
		treasure_roll(st, b->a_seat, b->a_id, pd->type, rng, ev);
	} else if (b->outcome == -1 && b->spell < 0) {
		b->loser_seat = b->a_seat, b->loser_id = b->a_id;
		treasure_roll(st, b->d_seat, b->d_id, pa->type, rng, ev);
	} else if (b->outcome == -1) {
		b->outcome = 0; /* R7: a spell that fails has no effect */
	}
	return b->loser_seat >= 0;
}

static int
battle_step(struct cf_state *st, struct wr_rng *rng, struct wr_list *ev)
{
	struct cf_battle *b = &st->r.b;
	if (!rng)
		return WAIT; /* settle() without dice: never reached */
	for (;;) {
		switch (b->stage) {
		case CF_ST_HTL:
			if (htl_possible(st, b)) {
				int o = st->s[b->d_seat].o_htl;
				if (o == CF_ASK)
					return WAIT;
				if (o == CF_ALWAYS)
					hold_the_line(st, ev);
			}
			b->stage = CF_ST_ROLL;
			break;
		case CF_ST_ROLL:
			b->a_die = (int)wr_die(rng, 6);
			b->d_die = (int)wr_die(rng, 6);
			cf_emit(ev, &(struct cf_event){.type = CF_E_DICE, .a_die = b->a_die,
			                               .d_die = b->d_die});
			b->stage = CF_ST_LUCK_A;
			break;
		case CF_ST_LUCK_A:
		case CF_ST_LUCK_D: {
			int att = b->stage == CF_ST_LUCK_A;
			if (luck_possible(st, b, att)) {
				int says = luck_order_says(st, b, att);
				if (says < 0)
					return WAIT;
				if (says)
					do_luck(st, att, rng, ev);
			}
			b->stage = att ? CF_ST_LUCK_D : CF_ST_RESOLVE;
			break;
		}
		case CF_ST_RESOLVE:
			if (!resolve(st, rng, ev)) {
				battle_finish_loser(st, -1, ev);
				return 0;
			}
			b->stage = CF_ST_LIVE;
			break;
		case CF_ST_LIVE:
			/* A single square under the order `always` is the seat's
			 * only legal action: the server takes it (G3, amended). */
			if (live_possible(st, b)) {
				/* Kept: a later order must not answer this question. */
				if (!b->live_asked)
					b->live_asked = st->s[b->loser_seat].o_live + 1;
				return WAIT;
			}
			battle_finish_loser(st, -1, ev);
			return 0;
		default:
			st->r.in_battle = 0;
			return 0;
		}
	}
}

/* -------------------------------------------------------- resolution */

int
cf_any_fury(const struct cf_state *st, int seat)
{
	const struct cf_seat *s = &st->s[seat];
	for (int i = 0; i < s->n; i++) {
		const struct cf_piece *p = &s->p[i];
		if (p->status == CF_ON && !(st->fury_excl & (1u << i)) &&
		    st->terrain[p->sq] != CF_COUNTERSPELL && cf_any_move(st, seat, p->sq, 1))
			return 1;
	}
	return 0;
}

void
cf_fury_close(struct cf_state *st)
{
	st->fury = 0;
	st->fury_seat = -1;
	st->fury_excl = 0;
}

/* Whether the open Battle Fury may still go on: its seat plays, has the
 * token the first move spends, and a piece that may make a Fury move. */
int
cf_fury_can_go(const struct cf_state *st)
{
	int s = st->fury_seat;
	return st->fury && s >= 0 && !st->s[s].out &&
	       (st->fury == 2 || cf_racial_ok(st, s, CF_ORCS, -1)) && cf_any_fury(st, s);
}

/* R8 (amended): the next Battle Fury owed is asked, the other seats'
 * first in play order ("at once", then the turn goes on), the active
 * seat's last; a standing order `never` and a Fury with no possible move
 * are passed over. Nothing happens while one is open. */
void
cf_fury_next(struct cf_state *st)
{
	int k = 0;
	if (st->fury || st->phase != CF_PLAY)
		return;
	while (k < st->norder && st->order[k] != st->active)
		k++;
	for (int step = 1; step <= st->norder; step++) {
		int s = st->order[(k + step) % st->norder];
		unsigned won = st->fury_won[s], fought = st->fury_fought[s];
		st->fury_won[s] = st->fury_fought[s] = 0;
		if (!won || st->s[s].o_fury)
			continue;
		st->fury = 1;
		st->fury_seat = s;
		st->fury_excl = fought;  /* R8: pieces "that did not just fight" */
		if (cf_fury_can_go(st))
			return;
		cf_fury_close(st);
	}
}

static void
finish_res(struct cf_state *st)
{
	struct cf_res r = st->r;
	memset(&st->r, 0, sizeof(st->r));
	st->r.panic_seat = st->r.panic_id = -1;
	if (st->phase != CF_PLAY)
		return;
	const struct cf_piece *p = cf_cp(st, r.seat, r.id);
	if (r.src == CF_SRC_ACTION && r.seat == st->active && !st->s[r.seat].out) {
		st->nacts++;
		st->used |= 1u << r.id;
		/* IX Elves, R8: "the piece that just acted" (moved or cast;
		 * a caster never moves, R7) may move again at once. */
		if ((r.moved || r.kind == CF_RES_SPELL) && p->status == CF_ON && cf_racial_ok(st, r.seat, CF_ELVES, p->sq) &&
		    cf_any_move(st, r.seat, p->sq, 0))
			st->swift = r.id;
	} else if (r.src == CF_SRC_FURY && st->fury && r.seat == st->fury_seat) {
		st->fury_excl |= 1u << r.id;
		st->fury = st->fury == 1 ? 2 : 0;
	}
	/* Another seat's Fury move may have taken the piece offered Swift. */
	if (st->swift >= 0 && cf_cp(st, st->active, st->swift)->status != CF_ON)
		st->swift = -1;
	if (st->fury && !cf_fury_can_go(st))
		cf_fury_close(st);
	cf_fury_next(st);
}

static void
panic_move(struct cf_state *st, int sq, struct wr_list *ev)
{
	int ps = st->r.panic_seat, pid = st->r.panic_id;
	cf_emit(ev, &(struct cf_event){.type = CF_E_PANIC_MOVED, .seat = ps, .id = pid,
	                               .from = cf_cp(st, ps, pid)->sq, .to = sq});
	cf_put(st, ps, pid, sq);
	st->r.panic_seat = st->r.panic_id = -1;
}

/* Runs the resolution in progress until it ends or waits. */
int
cf_run_res(struct cf_state *st, struct wr_rng *rng, struct wr_list *ev)
{
	while (st->r.kind != CF_RES_NONE && st->phase == CF_PLAY) {
		if (st->r.in_battle) {
			if (battle_step(st, rng, ev) == WAIT)
				return WAIT;
			continue;
		}
		if (st->r.panic_seat >= 0) {
			int sq[CF_NSQ], ps = st->r.panic_seat, pid = st->r.panic_id;
			const struct cf_piece *p = cf_cp(st, ps, pid);
			/* One square is the owner's only legal action: the server
			 * takes it (G3, amended). */
			if (p->status == CF_ON && cf_panic_squares(st, ps, p->type, sq) > 0)
				return WAIT;
			st->r.panic_seat = st->r.panic_id = -1;
			continue;
		}
		if (st->r.kind == CF_RES_SPELL && st->r.ti < st->r.nt) {
			int i = st->r.ti++, ts = st->r.tseat[i], tid = st->r.tid[i];
			const struct cf_piece *c = cf_cp(st, st->r.seat, st->r.id);
			const struct cf_piece *t = cf_cp(st, ts, tid);
			if (c->status != CF_ON || t->status != CF_ON || st->s[ts].out)
				continue;
			cf_start_battle(st, st->r.seat, st->r.id, ts, tid, c->sq, t->sq, st->r.spell, ev);
			continue;
		}
		finish_res(st);
	}
	return 0;
}

/* -------------------------------------------------------- decisions */

void
cf_decision_candidates(const struct cf_state *st, int seat, struct wr_list *out)
{
	const char *pk = cf_pending_kind(st, seat);
	int type = pk ? cf_lookup(cf_act_name, CF_A_MAX, pk) : -1;
	switch (type) {
	case CF_A_HTL:
	case CF_A_LUCK:
		cf_cand(out, type)->use = 1;
		cf_cand(out, type)->use = 0;
		break;
	case CF_A_LIVE:
		for (int sq = 0; sq < CF_NSQ; sq++) {
			if (!cf_on_near_line(seat, sq))
				continue;
			struct cf_action *a = cf_cand(out, type);
			a->use = 1;
			a->square = sq;
		}
		cf_cand(out, type)->use = 0;
		break;
	case CF_A_PANIC_SQ:
		for (int sq = 0; sq < CF_NSQ; sq++)
			if (cf_on_near_line(seat, sq))
				cf_cand(out, type)->square = sq;
		break;
	default:
		break;
	}
}

/* The pending decision's kind is checked by cf_legal(). */
int
cf_legal_decision(const struct cf_state *st, int seat, const struct cf_action *a,
                  struct wr_error *err)
{
	const struct cf_battle *b = &st->r.b;
	char buf[8];
	int type;
	switch (a->type) {
	case CF_A_LIVE:
		if (!a->use)
			return live_order(st, b) == CF_ALWAYS
			               ? wr_fail(err, "live-again-ordered", "use",
			                         "the standing order says always: choose a square")
			               : 0;
		type = cf_cp(st, b->loser_seat, b->loser_id)->type;
		break;
	case CF_A_PANIC_SQ:
		type = cf_cp(st, st->r.panic_seat, st->r.panic_id)->type;
		break;
	default:
		return 0;
	}
	/* Live Again and Panic: an empty square on the seat's nearest rank
	 * (the seat awaited is the piece's owner). */
	if (cf_on_near_line(seat, a->square) && cf_can_stand(st, type, a->square))
		return 0;
	return wr_fail(err, "cannot-stand", "square",
	               "%s is not an empty square on this seat's nearest rank",
	               wr_square_name(CF_B8, a->square, buf));
}

void
cf_apply_decision(struct cf_state *st, const struct cf_action *a, struct wr_rng *rng,
                  struct wr_list *ev)
{
	struct cf_battle *b = &st->r.b;
	int att;
	switch (a->type) {
	case CF_A_HTL:
		if (a->use)
			hold_the_line(st, ev);
		b->stage = CF_ST_ROLL;
		break;
	case CF_A_LUCK:
		att = b->stage == CF_ST_LUCK_A;
		if (a->use)
			do_luck(st, att, rng, ev);
		b->stage = att ? CF_ST_LUCK_D : CF_ST_RESOLVE;
		break;
	case CF_A_LIVE:
		battle_finish_loser(st, a->use ? a->square : -1, ev);
		break;
	case CF_A_PANIC_SQ:
		panic_move(st, a->square, ev);
		break;
	default:
		break;
	}
}
