/*
 * Confrontation's turn (III, R4): two actions, each by a different piece
 * -- a move (R5) or a spell (VII, R7) -- and what is not an action:
 * Leadership (VI Queen), Rise From Hell (IX Demons, R8: a racial power,
 * never one of the two actions, once a turn, by a piece that has not
 * acted), Swift Movement and Battle Fury (IX),
 * ending the turn (G6).
 *
 * Calls cf_combat.c (a move or spell starts a battle), cf_match.c,
 * cf_board.c and cf_data.c; only cf_rules.c calls into it.
 */
#include <stdio.h>
#include <string.h>

#include "cf_rules.h"

/* ------------------------------------------------------- candidates */

/* Squares along the eight lines from `from`, up to `reach` away, up to
 * and including a Barrier square (R9, amended: a move may end on one, not
 * cross it) and, unless the piece leaps (VI Knight), up to the first
 * piece; never onto a piece of the same army. */
static void
ray_candidates(const struct cf_state *st, int type, int from, struct wr_list *out)
{
	int ptype = st->board[from] >= 0 ? st->s[st->board[from] / CF_MAX_PIECES]
	                                           .p[st->board[from] % CF_MAX_PIECES].type
	                                 : CF_PAWN;
	for (int d = 0; d < WR_DIRS; d++) {
		int ray[8], n = wr_ray(CF_B8, from, d, cf_move[ptype], ray);
		for (int k = 0; k < n && (k == 0 || st->terrain[ray[k - 1]] != CF_BARRIER); k++) {
			int occupant = st->board[ray[k]];
			if (occupant < 0 || occupant / CF_MAX_PIECES != st->board[from] / CF_MAX_PIECES) {
				struct cf_action *a = cf_cand(out, type);
				a->from = from;
				a->to = ray[k];
			}
			if (occupant >= 0 && ptype != CF_KNIGHT)
				break;
		}
	}
}

static void
cast_candidates(const struct cf_state *st, int seat, const struct cf_piece *p,
                struct wr_list *out)
{
	struct cf_action *a;
	for (int k = 0; k < CF_SPELL_MAX; k++) {
		if (!p->spells[k])
			continue;
		if (k == CF_JUDGEMENT) {
			a = cf_cand(out, CF_A_CAST);
			a->from = p->sq;
			a->spell = k;
			continue;
		}
		if (k != CF_HEAL) {
			for (int sq = 0; sq < CF_NSQ; sq++) {
				if (st->board[sq] < 0 || cf_owner_at(st, sq) == seat ||
				    wr_chebyshev(CF_B8, p->sq, sq) > cf_spell_range[k])
					continue;
				a = cf_cand(out, CF_A_CAST);
				a->from = p->sq;
				a->spell = k;
				a->target = sq;
			}
			continue;
		}
		/* VII Heal: a Rook, Knight or Pawn, onto the first two ranks. */
		for (int ty = CF_ROOK; ty < CF_TYPE_MAX; ty++)
			for (int sq = 0; sq < CF_NSQ && ty != CF_BISHOP; sq++) {
				if (st->board[sq] >= 0 || !cf_in_area(st, seat, sq))
					continue;
				a = cf_cand(out, CF_A_CAST);
				a->from = p->sq;
				a->spell = k;
				a->revive = ty;
				a->square = sq;
			}
	}
}

/* In a stable order: each piece's moves, rises and spells; staying put
 * after a rise; Swift Movement; Leadership; ending the turn.
 * A superset pruned only by what every legal one has (within Move, an
 * empty square to rise to, a piece to target, a piece that may act, a
 * Queen for Leadership). In
 * parts, so that "is anything legal?" can stop early: part i < n is piece
 * i's, part n the rest; returns 0 past the last part. */
int
cf_turn_candidates(const struct cf_state *st, int seat, int part, struct wr_list *out)
{
	const struct cf_seat *s = &st->s[seat];
	if (part < s->n) {
		const struct cf_piece *p = &s->p[part];
		int acts = st->nacts < 2 && !(st->used & (1u << part));
		if (p->status != CF_ON)
			return 1;
		if (acts)
			ray_candidates(st, CF_A_MOVE, p->sq, out);
		/* R8 (amended): a piece that has not acted, once a turn. */
		int rises = !st->rose && !(st->used & (1u << part)) &&
		            cf_racial_ok(st, seat, CF_DEMONS, -1);
		for (int sq = 0; sq < CF_NSQ && rises; sq++) {
			if (st->board[sq] >= 0)
				continue;
			struct cf_action *a = cf_cand(out, CF_A_RISE);
			a->from = p->sq;
			a->to = sq;
		}
		if (acts && st->risen < 0)
			cast_candidates(st, seat, p, out);
		return 1;
	}
	if (part > s->n)
		return 0;
	cf_cand(out, CF_A_STAY);
	if (st->swift >= 0 && s->p[st->swift].status == CF_ON)
		ray_candidates(st, CF_A_SWIFT, s->p[st->swift].sq, out);
	int leads = !st->leadership_used && st->risen < 0 && cf_queen_on(st, seat);
	for (int i = 0; i < s->n && leads; i++)
		for (int j = 0; j < s->n; j++)
			if (i != j && s->p[i].status == CF_ON && s->p[j].status == CF_ON) {
				struct cf_action *a = cf_cand(out, CF_A_LEADERSHIP);
				a->from = s->p[i].sq;
				a->to = s->p[j].sq;
			}
	cf_cand(out, CF_A_END_TURN);
	return 1;
}

/* ------------------------------------------------------------ legal */

/* III: an action is taken by a piece that has not acted, two a turn. */
static int
may_act(const struct cf_state *st, int id, struct wr_error *err)
{
	if (st->nacts >= 2)
		return wr_fail(err, "no-actions-left", "",
		               "two actions were taken this turn (III. To Play)");
	if (st->used & (1u << id))
		return wr_fail(err, "piece-used", "from",
		               "this piece already acted this turn (III. To Play)");
	return 0;
}

static int
legal_cast(const struct cf_state *st, int seat, const struct cf_action *a,
           const struct cf_piece *p, struct wr_error *err)
{
	char b1[8], b2[8];
	int k = a->spell, ts, tid;
	if (!p->spells[k])
		return wr_fail(err, "no-spell", "spell", "the piece on %s has no %s spell",
		               wr_square_name(CF_B8, a->from, b1), cf_spell_name[k]);
	if (k == CF_JUDGEMENT) {
		int tss[8], tids[8];
		if (!cf_judgement_targets(st, seat, a->from, tss, tids))
			return wr_fail(err, "no-target", "", "no enemy next to the caster can be affected");
		return 0;
	}
	if (k == CF_HEAL) {
		if (a->revive != CF_ROOK && a->revive != CF_KNIGHT && a->revive != CF_PAWN)
			return wr_fail(err, "not-healable", "revive", "Heal returns a Pawn, Rook or Knight");
		if (cf_healable(st, seat, a->revive) < 0)
			return wr_fail(err, "none-removed", "revive", "no %s of this army is removed",
			               cf_type_name[a->revive]);
		if (!cf_in_area(st, seat, a->square))
			return wr_fail(err, "not-in-area", "square", "%s is not in the caster's set-up area",
			               wr_square_name(CF_B8, a->square, b2));
		if (!cf_can_stand(st, a->revive, a->square))
			return wr_fail(err, "cannot-stand", "square", "%s is not empty",
			               wr_square_name(CF_B8, a->square, b2));
		return 0;
	}
	if (!cf_piece_on(st, a->target, &ts, &tid) || ts == seat)
		return wr_fail(err, "not-an-enemy", "target", "no enemy piece on %s",
		               wr_square_name(CF_B8, a->target, b2));
	if (st->terrain[a->target] == CF_COUNTERSPELL)
		return wr_fail(err, "counterspell", "target",
		               "a piece on Counterspell cannot be affected by spells");
	if (wr_chebyshev(CF_B8, a->from, a->target) > cf_spell_range[k])
		return wr_fail(err, "out-of-range", "target", "%s has range %d; %s is %d away",
		               cf_spell_name[k], cf_spell_range[k], wr_square_name(CF_B8, a->target, b2),
		               wr_chebyshev(CF_B8, a->from, a->target));
	if (!cf_spell_reach(st, a->from, a->target, CF_NSQ))
		return wr_fail(err, "barrier", "target", "a Barrier square is in the way");
	if (k == CF_PANIC && !cf_panic_squares(st, ts, cf_cp(st, ts, tid)->type, (int[CF_NSQ]){0}))
		return wr_fail(err, "no-room", "target",
		               "no empty square on its owner's nearest rank for Panic");
	return 0;
}

static int
legal_leadership(const struct cf_state *st, int seat, const struct cf_action *a, int id,
                 struct wr_error *err)
{
	char b[8];
	int s2, id2;
	const struct cf_piece *pa = cf_cp(st, seat, id), *pb;
	if (st->leadership_used)
		return wr_fail(err, "leadership-used", "",
		               "Leadership is used at most once a turn (RULINGS.md R4)");
	if (!cf_queen_on(st, seat))
		return wr_fail(err, "no-queen", "", "Leadership needs a Queen on the board");
	if (!cf_piece_on(st, a->to, &s2, &id2) || s2 != seat)
		return wr_fail(err, "not-your-piece", "b", "the piece on %s is not yours",
		               wr_square_name(CF_B8, a->to, b));
	if (id == id2)
		return wr_fail(err, "same-piece", "b", "two different pieces swap");
	pb = cf_cp(st, seat, id2);
	/* Kings never enter Rough, whatever moves them (X, R9). */
	if ((pa->type == CF_KING && st->terrain[pb->sq] == CF_ROUGH) ||
	    (pb->type == CF_KING && st->terrain[pa->sq] == CF_ROUGH))
		return wr_fail(err, "rough-king", "b", "a King cannot enter Rough terrain");
	return 0;
}

static int
legal_rise(const struct cf_state *st, int seat, const struct cf_action *a,
           const struct cf_piece *p, struct wr_error *err)
{
	char b[8];
	const struct cf_seat *me = &st->s[seat];
	if (!st->o.races || me->race != CF_DEMONS)
		return wr_fail(err, "wrong-race", "", "Rise From Hell is the Demons' ability");
	if (me->racial <= 0)
		return wr_fail(err, "no-tokens", "", "no racial tokens left");
	if (st->rose)
		return wr_fail(err, "rise-used", "",
		               "a piece rises at most once a turn (RULINGS.md R8)");
	if (st->used & (1u << (p - me->p)))
		return wr_fail(err, "piece-used", "from",
		               "only a piece that has not acted this turn may rise (RULINGS.md R8)");
	if (st->terrain[a->from] == CF_COUNTERSPELL)
		return wr_fail(err, "counterspell", "from",
		               "a piece on Counterspell is not affected by racial abilities");
	if (!cf_can_stand(st, p->type, a->to))
		return wr_fail(err, "cannot-stand", "to", "%s is not an empty square the piece may take",
		               wr_square_name(CF_B8, a->to, b));
	return 0;
}

static int
legal_turn(const void *st, int seat, const void *a, struct wr_error *err)
{
	return cf_legal_turn(st, seat, a, err);
}

/* Whether the seat can still take an action proper of the turn, a move or
 * a spell (III, G6). cf_legal() sends a turn's actions here, so this is
 * the same question it answers, asked of the turn's own candidates. */
static int
has_action(const struct cf_state *st, int seat)
{
	return cf_any_legal(st, seat, 1u << CF_A_MOVE | 1u << CF_A_CAST, cf_turn_candidates,
	                    legal_turn);
}

int
cf_legal_turn(const struct cf_state *st, int seat, const struct cf_action *a,
              struct wr_error *err)
{
	char b[8];
	int s, id;
	if (a->type == CF_A_STAY)
		return st->risen >= 0 ? 0 : wr_fail(err, "no-rise", "", "no risen piece is waiting");
	if (a->type == CF_A_END_TURN) {
		if (st->risen >= 0)
			return wr_fail(err, "finish-rise", "", "the risen piece must move or stay first");
		if (has_action(st, seat))
			return wr_fail(err, "actions-left", "",
			               "a legal action remains: a turn has two actions (RULINGS.md G6, R4)");
		return 0;
	}
	if (!cf_piece_on(st, a->from, &s, &id))
		return wr_fail(err, "no-piece", "from", "there is no piece on %s",
		               wr_square_name(CF_B8, a->from, b));
	if (s != seat)
		return wr_fail(err, "not-your-piece", "from", "the piece on %s is not yours",
		               wr_square_name(CF_B8, a->from, b));
	/* R8: after a rise the risen piece moves or stays before anything else. */
	if (st->risen >= 0 && !(a->type == CF_A_MOVE && id == st->risen))
		return wr_fail(err, "finish-rise", "from", "the risen piece must move or stay first");
	const struct cf_piece *p = cf_cp(st, s, id);
	switch (a->type) {
	case CF_A_MOVE:
		if (may_act(st, id, err) != 0)
			return -1;
		return cf_move_check(st, seat, a->from, a->to, 0, err);
	case CF_A_RISE:
		return legal_rise(st, seat, a, p, err);
	case CF_A_CAST:
		if (may_act(st, id, err) != 0)
			return -1;
		return legal_cast(st, seat, a, p, err);
	case CF_A_SWIFT:
		if (st->swift != id)
			return wr_fail(err, "no-swift", "from",
			               "Swift Movement is only for the piece that just acted, at once");
		return cf_move_check(st, seat, a->from, a->to, 0, err);
	case CF_A_FURY:
		return wr_fail(err, "no-fury", "", "no Battle Fury is open");
	case CF_A_LEADERSHIP:
		return legal_leadership(st, seat, a, id, err);
	default:
		return wr_fail(err, "illegal-action", "type", "not an action of the turn");
	}
}

/* ------------------------------------------------------------ apply */

static void
begin_move(struct cf_state *st, int seat, int id, int to, int src, struct wr_list *ev)
{
	static const int type[CF_SRC_MAX] = {CF_E_MOVE, CF_E_SWIFT_MOVE, CF_E_FURY_MOVE};
	int from = cf_p(st, seat, id)->sq, ts, tid;
	cf_emit(ev, &(struct cf_event){.type = type[src], .seat = seat, .id = id, .from = from,
	                               .to = to});
	cf_res_begin(st, CF_RES_MOVE, src, seat, id);
	st->r.moved = 1;
	if (cf_piece_on(st, to, &ts, &tid))
		cf_start_battle(st, seat, id, ts, tid, from, to, -1, ev);
	else
		cf_put(st, seat, id, to);
}

static void
cast(struct cf_state *st, int seat, int id, const struct cf_action *a, struct wr_list *ev)
{
	int k = a->spell;
	cf_p(st, seat, id)->spells[k]--;
	cf_emit(ev, &(struct cf_event){.type = CF_E_CAST, .seat = seat, .id = id, .spell = k,
	                               .target = a->target});
	cf_res_begin(st, CF_RES_SPELL, CF_SRC_ACTION, seat, id);
	st->r.spell = k;
	if (k == CF_HEAL) {
		int h = cf_healable(st, seat, a->revive);
		struct cf_piece *hp = cf_p(st, seat, h);
		hp->strength = hp->type == CF_ROOK; /* VII: a healed Rook has its token */
		hp->treasure = 0;
		cf_put(st, seat, h, a->square);
		cf_emit(ev, &(struct cf_event){.type = CF_E_HEALED, .seat = seat, .id = h,
		                               .square = a->square});
	} else if (k == CF_PANIC) {
		cf_piece_on(st, a->target, &st->r.panic_seat, &st->r.panic_id);
	} else if (k == CF_JUDGEMENT) {
		st->r.nt = cf_judgement_targets(st, seat, a->from, st->r.tseat, st->r.tid);
	} else {
		st->r.nt = 1;
		cf_piece_on(st, a->target, &st->r.tseat[0], &st->r.tid[0]);
	}
}

void
cf_apply_turn(struct cf_state *st, int seat, const struct cf_action *a, struct wr_list *ev)
{
	struct cf_seat *me = &st->s[seat];
	int s = 0, id = 0, s2 = 0, id2 = 0;
	/* Anything else lets an offered Swift Movement lapse ("at once", R8). */
	if (a->type != CF_A_SWIFT)
		st->swift = -1;
	if (a->from >= 0)
		cf_piece_on(st, a->from, &s, &id);
	switch (a->type) {
	case CF_A_MOVE:
		if (st->risen == id)
			st->risen = -1;
		begin_move(st, seat, id, a->to, CF_SRC_ACTION, ev);
		break;
	case CF_A_SWIFT:
		me->racial--;
		st->swift = -1;  /* a second move, not a third */
		cf_emit(ev, &(struct cf_event){.type = CF_E_SWIFT_MOVEMENT, .seat = seat, .id = id});
		begin_move(st, seat, id, a->to, CF_SRC_SWIFT, ev);
		break;
	case CF_A_RISE:
		/* R8: a racial power, not one of the turn's two actions. */
		me->racial--;
		cf_emit(ev, &(struct cf_event){.type = CF_E_RISE, .seat = seat, .id = id,
		                               .from = a->from, .to = a->to});
		cf_put(st, seat, id, a->to);
		st->risen = id;
		st->rose = 1;
		break;
	case CF_A_STAY:
		/* R8 (amended): a risen piece that stays is done for the turn,
		 * though it took none of the turn's two actions. */
		cf_emit(ev, &(struct cf_event){.type = CF_E_STAY, .seat = seat, .id = st->risen});
		st->used |= 1u << st->risen;
		st->risen = -1;
		break;
	case CF_A_LEADERSHIP:
		cf_piece_on(st, a->to, &s2, &id2);
		st->board[a->from] = st->board[a->to] = -1;
		cf_put(st, seat, id, a->to);
		cf_put(st, seat, id2, a->from);
		st->leadership_used = 1;
		cf_emit(ev, &(struct cf_event){.type = CF_E_LEADERSHIP, .seat = seat, .id = id,
		                               .seat2 = seat, .id2 = id2});
		break;
	case CF_A_END_TURN:
		cf_end_turn(st, ev);
		break;
	case CF_A_CAST:
		cast(st, seat, id, a, ev);
		break;
	default:
		break;
	}
}

/* --------------------------------------------------------- the turn */

void
cf_start_turn(struct cf_state *st, int seat, struct wr_list *ev)
{
	st->active = seat;
	st->turn++;
	st->nacts = 0;
	st->used = 0;
	st->leadership_used = 0;
	st->rose = 0;
	st->risen = st->swift = -1;
	cf_fury_close(st);
	memset(st->fury_won, 0, sizeof(st->fury_won));
	memset(st->fury_fought, 0, sizeof(st->fury_fought));
	cf_emit(ev, &(struct cf_event){.type = CF_E_TURN, .turn = st->turn, .seat = seat});
}

/* ------------------------------------------------------ Battle Fury */

/* R8 (amended): the open Battle Fury is a decision of its seat, on any
 * seat's turn: a Fury move of one of its pieces, or `end_fury`. */
void
cf_fury_candidates(const struct cf_state *st, int seat, struct wr_list *out)
{
	const struct cf_seat *s = &st->s[seat];
	for (int i = 0; i < s->n; i++)
		if (s->p[i].status == CF_ON)
			ray_candidates(st, CF_A_FURY, s->p[i].sq, out);
	cf_cand(out, CF_A_END_FURY);
}

int
cf_legal_fury(const struct cf_state *st, int seat, const struct cf_action *a,
              struct wr_error *err)
{
	char b[8];
	int s, id;
	if (a->type == CF_A_END_FURY)
		return 0;
	if (a->type != CF_A_FURY)
		return wr_fail(err, "decision-pending", "type", "a decision is awaited: battle_fury");
	if (!cf_piece_on(st, a->from, &s, &id) || s != seat)
		return wr_fail(err, "not-your-piece", "from", "no piece of this seat on %s",
		               wr_square_name(CF_B8, a->from, b));
	if (st->fury_excl & (1u << id))
		return wr_fail(err, "fury-piece", "from",
		               "Battle Fury moves other Orc pieces than the ones that fought");
	if (st->terrain[a->from] == CF_COUNTERSPELL)
		return wr_fail(err, "counterspell", "from",
		               "a piece on Counterspell uses no racial power (RULINGS.md R9)");
	return cf_move_check(st, seat, a->from, a->to, 1, err);
}

void
cf_apply_fury(struct cf_state *st, int seat, const struct cf_action *a, struct wr_list *ev)
{
	int s, id;
	if (a->type == CF_A_END_FURY) {
		cf_fury_close(st);
		cf_fury_next(st);
		return;
	}
	if (st->fury == 1) {
		st->s[seat].racial--;
		cf_emit(ev, &(struct cf_event){.type = CF_E_BATTLE_FURY, .seat = seat});
	}
	cf_piece_on(st, a->from, &s, &id);
	begin_move(st, seat, id, a->to, CF_SRC_FURY, ev);
}

void
cf_next_turn(struct cf_state *st, struct wr_list *ev)
{
	int k = 0;
	while (k < st->norder && st->order[k] != st->active)
		k++;
	for (int step = 1; step <= st->norder; step++) {
		int s = st->order[(k + step) % st->norder];
		if (!st->s[s].out) {
			cf_start_turn(st, s, ev);
			return;
		}
	}
}

/* G6 and R10: a turn that did nothing counts towards "no seat can act";
 * when every seat in turn did nothing, the match is drawn. */
void
cf_end_turn(struct cf_state *st, struct wr_list *ev)
{
	if (st->nacts == 0 && !st->leadership_used && !st->rose)
		st->idle++;
	else
		st->idle = 0;
	cf_emit(ev, &(struct cf_event){.type = CF_E_TURN_END, .seat = st->active});
	if (st->idle >= cf_alive_count(st))
		cf_game_over(st, 0, "no seat can act", ev);
	else
		cf_next_turn(st, ev);
}
