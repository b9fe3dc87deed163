/*
 * Confrontation's rules on plain structs, the template's three rule
 * parts (rules/README.md, "Adding a ruleset"):
 *
 *   cf_candidates()  every action that might be legal now, in a stable order
 *   cf_legal()       THE legality check: the legal-action list is the
 *                    candidates it accepts, and its error explains a refusal
 *   cf_apply()       applies a legal action, then cf_settle() runs what
 *                    follows without a decision: battles, automatic
 *                    choices, the end of the turn, the next turn
 *
 * and the end of the match (V, VIII, R10), resignation and the invariants
 * load() checks. 004_13fa4739ee387ac7.txt with RULINGS.md G1-G6 and
 * Confrontation R1-R10; README.md lists our own decisions.
 *
 * The top of the rule files: it dispatches to cf_setup.c, cf_turn.c and
 * cf_combat.c and uses cf_match.c and cf_board.c; none of them calls
 * back into it. The codec and cf_state.c call it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cf_rules.h"

/* -------------------------------------------------------- candidates */

/* The candidates in parts (only a turn has more than one, cf_turn.c);
 * returns 0 past the last part. */
int
cf_candidates_part(const struct cf_state *st, int seat, int part, struct wr_list *out)
{
	if (seat < 0 || seat >= st->nseats || !(cf_to_act(st) & (1u << seat)))
		return 0;
	if (st->phase == CF_PLAY && st->r.kind == CF_RES_NONE && st->fury_seat < 0)
		return cf_turn_candidates(st, seat, part, out);
	if (part > 0)
		return 0;
	switch (st->phase) {
	case CF_BUILD:
		cf_build_candidates(st, seat, out);
		break;
	case CF_ORDER:
	case CF_SETUP:
		cf_setup_candidates(st, seat, out);
		break;
	case CF_PLAY:
		if (st->r.kind == CF_RES_NONE)
			cf_fury_candidates(st, seat, out);
		else
			cf_decision_candidates(st, seat, out);
		break;
	default:
		break;
	}
	return 1;
}

void
cf_candidates(const void *st, int seat, struct wr_list *out)
{
	for (int part = 0; cf_candidates_part(st, seat, part, out); part++)
		;
}

/* Whether the seat has a legal action besides ending the turn. */
static int
has_legal(const struct cf_state *st, int seat)
{
	return cf_any_legal(st, seat, ~(1u << CF_A_END_TURN), cf_candidates_part, cf_legal);
}

/* ------------------------------------------------------------- legal */

int
cf_legal(const void *vst, int seat, const void *va, struct wr_error *err)
{
	static const int phase_of[CF_A_MAX] = {
		CF_BUILD, CF_BUILD, CF_BUILD, CF_BUILD, CF_BUILD, CF_BUILD, CF_BUILD, CF_ORDER,
		CF_SETUP, CF_PLAY, CF_PLAY, CF_PLAY, CF_PLAY, CF_PLAY, CF_PLAY, CF_PLAY, CF_PLAY,
		CF_PLAY, CF_PLAY, CF_PLAY, CF_PLAY, CF_PLAY};
	const struct cf_state *st = vst;
	const struct cf_action *a = va;
	if (seat < 0 || seat >= st->nseats)
		return wr_fail(err, "no-such-seat", "", "no seat %d in this match", seat);
	if (st->phase == CF_OVER)
		return wr_fail(err, "game-over", "", "the match is over");
	if (!(cf_to_act(st) & (1u << seat)))
		return wr_fail(err, "not-awaited", "", "seat %d is not awaited now", seat);
	if (a->type < 0 || a->type >= CF_A_MAX)
		return wr_fail(err, "unknown-action", "type", "unknown action");
	if (phase_of[a->type] != st->phase)
		return wr_fail(err, "wrong-phase", "type", "\"%s\" is not an action of the %s phase",
		               cf_act_name[a->type], cf_phase_name[st->phase]);
	switch (st->phase) {
	case CF_BUILD:
		return cf_legal_build(st, seat, a, err);
	case CF_ORDER:
	case CF_SETUP:
		return cf_legal_setup(st, seat, a, err);
	default:
		break;
	}
	/* In play: a pending decision (G3) comes before anything else; an
	 * open Battle Fury is one too (R8, amended). */
	if (st->r.kind == CF_RES_NONE && st->fury_seat >= 0)
		return cf_legal_fury(st, seat, a, err);
	int deciding = st->r.kind != CF_RES_NONE, is_decision = a->type >= CF_A_HTL;
	const char *pk = cf_pending_kind(st, seat);
	if (deciding && (!is_decision || strcmp(pk, cf_act_name[a->type]) != 0))
		return wr_fail(err, "decision-pending", "type", "a decision is awaited: %s", pk);
	if (!deciding && is_decision)
		return wr_fail(err, "no-such-decision", "type", "no %s decision is awaited",
		               cf_act_name[a->type]);
	if (deciding)
		return cf_legal_decision(st, seat, a, err);
	return cf_legal_turn(st, seat, a, err);
}

/* ------------------------------------------------------------- apply */

void
cf_apply(void *vst, int seat, const void *va, struct wr_rng *rng, struct wr_list *ev)
{
	struct cf_state *st = vst;
	const struct cf_action *a = va;
	if (st->phase == CF_PLAY && st->r.kind != CF_RES_NONE)
		cf_apply_decision(st, a, rng, ev);
	else if (st->phase == CF_PLAY && st->fury_seat >= 0)
		cf_apply_fury(st, seat, a, ev);
	else if (st->phase == CF_PLAY)
		cf_apply_turn(st, seat, a, ev);
	else
		cf_apply_setup(st, seat, a, ev);
	cf_settle(st, rng, ev);
}

void
cf_set_orders(struct cf_state *st, int seat, int htl, int luck, int live, int fury)
{
	if (fury >= 0)
		st->s[seat].o_fury = fury;
	if (htl >= 0)
		st->s[seat].o_htl = htl;
	if (luck >= 0)
		st->s[seat].o_luck = luck;
	if (live >= 0)
		st->s[seat].o_live = live;
}

int
cf_resign(void *state, int seat, struct wr_rng *rng, struct wr_list *ev)
{
	struct cf_state *st = state;

	if (seat < 0 || seat >= st->nseats)
		return -1;
	if (st->phase == CF_OVER || st->s[seat].out)
		return 0;
	cf_emit(ev, &(struct cf_event){.type = CF_E_RESIGNED, .seat = seat});
	if (st->nseats == 2) {
		st->s[seat].out = 1;
		cf_game_over(st, 1u << (1 - seat), "resignation", ev);
		return 0;
	}
	/* Its Battle Fury, open or owed, lapses. */
	st->fury_won[seat] = st->fury_fought[seat] = 0;
	if (st->fury_seat == seat)
		cf_fury_close(st);
	/* The resolution in progress stops where it involves the seat. */
	if (st->phase == CF_PLAY && st->r.kind != CF_RES_NONE) {
		const struct cf_battle *b = &st->r.b;
		if (st->r.seat == seat) {
			memset(&st->r, 0, sizeof(st->r));
			st->r.panic_seat = st->r.panic_id = -1;
		} else if ((st->r.in_battle && (b->a_seat == seat || b->d_seat == seat)) ||
		           st->r.panic_seat == seat) {
			/* the actor's action still counts; the rest of it lapses */
			st->r.in_battle = 0;
			st->r.nt = st->r.ti;
			st->r.panic_seat = st->r.panic_id = -1;
		}
	}
	cf_seat_out(st, seat, "resignation", ev);
	if (st->phase == CF_OVER)
		return 0;
	cf_settle(st, rng, ev);
	return 0;
}

/* ------------------------------------------------------------ settle */

static void
settle_build(struct cf_state *st, struct wr_rng *rng, struct wr_list *ev)
{
	int all = 1, rk[WR_MAX_SEATS];
	for (int s = 0; s < st->nseats; s++)
		all &= st->s[s].out || st->s[s].ready;
	if (!all || !rng)
		return;
	/* G5: the armies are revealed (the codec shows spell counts only). */
	cf_emit(ev, &(struct cf_event){.type = CF_E_ARMIES_REVEALED});
	cf_roll_off(st, rng, ev);
	cf_rank_seats(st, rk);
	st->chooser = rk[0];
	st->phase = CF_ORDER;
	cf_emit(ev, &(struct cf_event){.type = CF_E_PHASE, .phase = CF_ORDER,
	                               .chooser = st->chooser});
}

/* Returns 1 when play starts or the placer changes (settle goes on). */
static int
settle_setup(struct cf_state *st, struct wr_list *ev)
{
	while (st->placer < st->norder && st->s[st->order[st->placer]].out)
		st->placer++;
	if (st->placer >= st->norder) {
		st->phase = CF_PLAY;
		cf_emit(ev, &(struct cf_event){.type = CF_E_PHASE, .phase = CF_PLAY, .chooser = -1});
		cf_check_out(st, ev);
		if (st->phase != CF_PLAY)
			return 0;
		st->active = -1;
		for (int k = 0; k < st->norder && st->active < 0; k++)
			if (!st->s[st->order[k]].out)
				cf_start_turn(st, st->order[k], ev);
		return 1;
	}
	int seat = st->order[st->placer], left = 0;
	for (int i = 0; i < st->s[seat].n; i++)
		left += st->s[seat].p[i].status == CF_UNPLACED;
	if (left && has_legal(st, seat))
		return 0;
	/* Our ruling: what finds no square in the area is set aside, as
	 * removed from the game (Heal may bring it back). */
	for (int i = 0; i < st->s[seat].n; i++)
		if (st->s[seat].p[i].status == CF_UNPLACED) {
			cf_take(st, seat, i, CF_REMOVED);
			cf_emit(ev, &(struct cf_event){.type = CF_E_NO_ROOM, .seat = seat, .id = i});
		}
	st->placer++;
	return 1;
}

/* Everything that follows without a decision. With rng NULL nothing that
 * needs dice is started (the service always passes the match's dice). */
void
cf_settle(struct cf_state *st, struct wr_rng *rng, struct wr_list *ev)
{
	for (int guard = 0; guard < 1000; guard++) {
		if (st->phase == CF_OVER)
			return;
		if (cf_alive_count(st) <= 1) {
			for (int s = 0; s < st->nseats; s++)
				if (!st->s[s].out)
					cf_game_over(st, 1u << s, "last seat standing", ev);
			if (st->phase != CF_OVER)
				cf_game_over(st, 0, "no seat left", ev);
			return;
		}
		switch (st->phase) {
		case CF_BUILD:
			settle_build(st, rng, ev);
			return;
		case CF_ORDER:
			if (st->s[st->chooser].out) {
				int rk[WR_MAX_SEATS];
				cf_rank_seats(st, rk);
				st->chooser = rk[0];
			}
			return;
		case CF_SETUP:
			if (!settle_setup(st, ev))
				return;
			continue;
		default:
			break;
		}
		if (st->r.kind != CF_RES_NONE) {
			if (!rng && st->r.in_battle && st->r.b.stage == CF_ST_ROLL)
				return;
			if (cf_run_res(st, rng, ev))
				return;
			continue;
		}
		if (st->phase != CF_PLAY)
			return;
		/* R8 (amended): an open Battle Fury waits for its seat, whose
		 * turn it may not be; one that can no longer go on closes. */
		if (st->fury_seat >= 0 && !cf_fury_can_go(st))
			cf_fury_close(st);
		cf_fury_next(st);
		if (st->fury_seat >= 0)
			return;
		if (st->active < 0 || st->s[st->active].out) {
			cf_next_turn(st, ev);
			continue;
		}
		if (has_legal(st, st->active))
			return;
		/* G6: nothing to do, the turn ends by itself; R10: when no seat
		 * can do anything, the match is drawn. */
		cf_end_turn(st, ev);
	}
}

/* ------------------------------------------------------- invariants */

static int
bad(struct wr_error *err, const char *what)
{
	return wr_fail(err, "bad-snapshot", "", "inconsistent state: %s", what);
}

static int
piece_ok(const struct cf_state *st, int seat, int id)
{
	return seat >= 0 && seat < st->nseats && id >= 0 && id < st->s[seat].n;
}

/* Everything load() must make sure of before any rule code runs, and what
 * the playout tests assert after every action. */
int
cf_check(const struct cf_state *st, struct wr_error *err)
{
	int seen[CF_NSQ];
	for (int i = 0; i < CF_NSQ; i++)
		seen[i] = 0;
	if (st->nseats < 2 || st->nseats > WR_MAX_SEATS || st->phase < 0 || st->phase >= CF_PHASE_MAX)
		return bad(err, "seats or phase");
	for (int sq = 0; sq < CF_NSQ; sq++)
		if (st->terrain[sq] < 0 || st->terrain[sq] >= CF_T_MAX)
			return bad(err, "terrain");
	for (int s = 0; s < st->nseats; s++) {
		const struct cf_seat *x = &st->s[s];
		if (x->n < 1 || x->n > CF_MAX_PIECES || x->points < 0 || x->points > 100 ||
		    x->race < 0 || x->race >= CF_RACE_MAX || x->racial < 0 || x->racial > 200 ||
		    x->nrolls < 0 || x->nrolls > CF_MAX_ROLLS || x->o_htl < 0 || x->o_htl >= CF_YESNO_MAX ||
		    x->o_luck < 0 || x->o_luck >= CF_LUCK_MAX || x->o_live < 0 ||
		    x->o_live >= CF_YESNO_MAX || (unsigned)x->o_fury > 1)
			return bad(err, "seat fields");
		if (x->p[0].type != CF_KING)
			return bad(err, "piece 0 is the King");
		for (int i = 0; i < x->n; i++) {
			const struct cf_piece *p = &x->p[i];
			if (p->type < 0 || p->type >= CF_TYPE_MAX || (i && p->type == CF_KING) ||
			    p->status < 0 || p->status >= CF_STATUS_MAX || p->strength < 0 ||
			    p->strength > 1 || p->treasure < 0 || p->treasure > 1000)
				return bad(err, "piece fields");
			for (int k = 0; k < CF_SPELL_MAX; k++)
				if (p->spells[k] < 0 || p->spells[k] > 100)
					return bad(err, "spells");
			if ((p->status == CF_ON) != (p->sq >= 0) || p->sq >= CF_NSQ)
				return bad(err, "square and status");
			if (p->status == CF_ON) {
				if (seen[p->sq]++)
					return bad(err, "two pieces on a square");
				if (st->phase < CF_SETUP)
					return bad(err, "a piece on the board before set-up");
			}
		}
	}
	if (st->norder < 0 || st->norder > st->nseats)
		return bad(err, "order");
	for (int k = 0; k < st->norder; k++) {
		if (st->order[k] < 0 || st->order[k] >= st->nseats)
			return bad(err, "order");
		for (int j = 0; j < k; j++)
			if (st->order[j] == st->order[k])
				return bad(err, "order");
	}
	if (st->phase == CF_ORDER && (st->chooser < 0 || st->chooser >= st->nseats))
		return bad(err, "chooser");
	if ((st->phase == CF_SETUP || st->phase == CF_PLAY ||
	     (st->phase == CF_OVER && st->norder)) && st->norder != st->nseats)
		return bad(err, "order");
	if (st->placer < 0 || st->placer > st->norder)
		return bad(err, "placer");
	if (st->phase == CF_PLAY) {
		if (st->active < 0 || st->active >= st->nseats)
			return bad(err, "active seat");
		if (st->nacts < 0 || st->nacts > 2 || st->fury < 0 || st->fury > 2 || st->idle < 0 ||
		    (unsigned)st->rose > 1)
			return bad(err, "turn fields");
		if (st->fury_seat < -1 || st->fury_seat >= st->nseats ||
		    (st->fury != 0) != (st->fury_seat >= 0) ||
		    (st->fury_seat >= 0 && st->s[st->fury_seat].out))
			return bad(err, "battle fury");
		for (int s = 0; s < WR_MAX_SEATS; s++)
			if (st->fury_won[s] >> CF_MAX_PIECES || st->fury_fought[s] >> CF_MAX_PIECES ||
			    (st->fury_won[s] & ~st->fury_fought[s]) ||
			    (s >= st->nseats && st->fury_fought[s]))
				return bad(err, "battle fury");
		if (st->risen >= 0 && (!piece_ok(st, st->active, st->risen) ||
		                       cf_cp(st, st->active, st->risen)->status != CF_ON ||
		                       !st->rose || (st->used & (1u << st->risen))))
			return bad(err, "risen piece");
		if (st->swift >= 0 && (!piece_ok(st, st->active, st->swift) ||
		                       cf_cp(st, st->active, st->swift)->status != CF_ON))
			return bad(err, "swift piece");
		const struct cf_res *r = &st->r;
		if (r->kind < 0 || r->kind >= CF_RES_MAX || r->src < 0 || r->src >= CF_SRC_MAX)
			return bad(err, "resolution");
		if (r->kind != CF_RES_NONE) {
			if (!piece_ok(st, r->seat, r->id) || r->nt < 0 || r->nt > 8 || r->ti < 0 ||
			    r->ti > r->nt || r->spell < 0 || r->spell >= CF_SPELL_MAX)
				return bad(err, "resolution");
			for (int i = 0; i < r->nt; i++)
				if (!piece_ok(st, r->tseat[i], r->tid[i]))
					return bad(err, "targets");
			if (r->panic_seat >= 0 && (!piece_ok(st, r->panic_seat, r->panic_id) ||
			                           cf_cp(st, r->panic_seat, r->panic_id)->status != CF_ON))
				return bad(err, "panic");
			if (r->in_battle) {
				const struct cf_battle *b = &r->b;
				if (!piece_ok(st, b->a_seat, b->a_id) || !piece_ok(st, b->d_seat, b->d_id) ||
				    b->a_seat == b->d_seat || b->from < 0 || b->from >= CF_NSQ || b->at < 0 ||
				    b->at >= CF_NSQ || b->spell < -1 || b->spell >= CF_SPELL_MAX ||
				    b->stage <= CF_ST_NONE || b->stage >= CF_ST_MAX || b->a_die < 0 ||
				    b->a_die > 6 || b->d_die < 0 || b->d_die > 6 || b->outcome < -1 ||
				    b->outcome > 1)
					return bad(err, "battle");
				if (cf_cp(st, b->a_seat, b->a_id)->status != CF_ON ||
				    cf_cp(st, b->d_seat, b->d_id)->status != CF_ON ||
				    cf_cp(st, b->d_seat, b->d_id)->sq != b->at ||
				    (b->spell < 0 && cf_cp(st, b->a_seat, b->a_id)->sq != b->from))
					return bad(err, "battle pieces");
				if (b->stage == CF_ST_LIVE &&
				    (!piece_ok(st, b->loser_seat, b->loser_id) ||
				     (b->loser_seat != b->a_seat && b->loser_seat != b->d_seat)))
					return bad(err, "battle loser");
				if (b->stage > CF_ST_ROLL && (b->a_die < 1 || b->d_die < 1))
					return bad(err, "battle dice");
			} else if (r->panic_seat < 0) {
				return bad(err, "idle resolution");
			}
		}
	}
	return 0;
}
