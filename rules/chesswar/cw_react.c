/*
 * ChessWar's reactions countered (002_0478434554df57bb.txt, Spells: "Most
 * spells are always successful, unless the other side tries to
 * counterspell them"; Counterspell "counter just cast spell on 4+"): a
 * Protection, Dispel or Heal cast in answer, or by standing order, waits
 * for the other seats' Counterspell (CW_PEND_RCOUNTER) before it takes
 * effect, then what it answered goes on (README decision 22).
 */
#include <string.h>

#include "cw_rules.h"

int
cw_react_spell(int type)
{
	return type == CW_A_PROTECT ? CW_SPELL_PROTECTION
	       : type == CW_A_DISPEL ? CW_SPELL_DISPEL
	                             : CW_SPELL_HEAL;
}

/* After the Protection asked about (cast, countered or declined): the
 * save of the unit hit, and the queue after it, or the attack held. */
void
cw_protect_go_on(struct cw_state *st, struct wr_rng *rng, struct wr_list *ev)
{
	struct cw_action held = st->held;
	st->pending = CW_PEND_NONE;
	if (st->nhitq > 0) {
		cw_hits_go(st, 1, rng, ev);
		return;
	}
	memset(&st->held, 0, sizeof(st->held));
	cw_resolve_strike(st, st->turn_seat, &held, rng, ev);
}

void
cw_dispel_over(struct cw_state *st, struct wr_rng *rng, struct wr_list *ev)
{
	if (st->protect_after && st->pending == CW_PEND_NONE) {
		st->protect_after = 0;
		cw_protect_go_on(st, rng, ev);
	}
}

/* The reaction st->rx takes effect (not countered) or not, and what it
 * answered goes on as after the answer: the hit's save or the attack
 * (Protection), the next seat's Dispel (a countered one), the seat's
 * other Heals. */
void
cw_react_done(struct cw_state *st, int countered, struct wr_rng *rng, struct wr_list *ev)
{
	struct cw_action rx = st->rx;
	int w = cw_unit_at(st, rx.unit);

	memset(&st->rx, 0, sizeof(st->rx));
	st->rx_seat = 0;
	switch (rx.type) {
	case CW_A_PROTECT:
		if (countered || w == CW_NONE || cw_unit_at(st, rx.to) == CW_NONE) {
			cw_protect_go_on(st, rng, ev);
			break;
		}
		/* A temporal spell (C9): the other seats may Dispel it before
		 * the save, as any enemy temporal spell as soon as it is cast. */
		st->fx[st->nfx++] = (struct cw_effect){CW_SPELL_PROTECTION, w, cw_unit_at(st, rx.to)};
		st->dispel_fx = st->nfx - 1;
		st->protect_after = 1;
		st->pending = CW_PEND_NONE;
		cw_dispel_ask(st, 0, rng, ev);
		cw_dispel_over(st, rng, ev);
		break;
	case CW_A_DISPEL:
		st->pending = CW_PEND_NONE;
		if (!countered)
			cw_remove_fx(st, st->dispel_fx, ev);
		else /* the same seat's next wizard able to, then the next seats */
			cw_dispel_ask(st, st->react_seat, rng, ev);
		cw_dispel_over(st, rng, ev);
		break;
	case CW_A_HEAL: {
		int s = st->heal_seat, d = CW_NONE;
		for (int k = 0; k < CW_UPS; k++)
			if (st->u[s * CW_UPS + k].dying && st->u[s * CW_UPS + k].sq == rx.to)
				d = s * CW_UPS + k;
		st->pending = CW_PEND_HEAL;
		if (!countered && w != CW_NONE && d != CW_NONE)
			cw_do_heal(st, w, d, rng, ev);
		if (!cw_heal_possible(st, s))
			cw_heal_done(st, s);
		break;
	}
	default:
		st->pending = CW_PEND_NONE;
		break;
	}
}

/* The seats from `from` on, but the caster's, with a wizard able to
 * counter st->rx: by standing order (a failed roll lets the same seat's
 * next wizard try) or asked (CW_PEND_RCOUNTER); none countered, the
 * spell takes effect. */
static void
react_go(struct cw_state *st, int from, struct wr_rng *rng, struct wr_list *ev)
{
	int caster = cw_unit_at(st, st->rx.unit), asked = 0, r;

	r = caster == CW_NONE ? 0
	                      : cw_counter_seek(st, from, cw_seat_of(caster),
	                                        cw_react_spell(st->rx.type), rng, ev, &asked);
	if (r < 0) {
		st->pending = CW_PEND_RCOUNTER;
		st->rx_seat = asked;
		return;
	}
	cw_react_done(st, r, rng, ev);
}

void
cw_react(struct cw_state *st, const struct cw_action *rx, struct wr_rng *rng, struct wr_list *ev)
{
	int w = cw_unit_at(st, rx->unit);
	struct cw_event *e;

	st->rx = *rx;
	if (w == CW_NONE) {
		cw_react_done(st, 1, rng, ev);
		return;
	}
	st->u[w].cast = 1;
	if (cw_seat_of(w) != st->turn_seat)
		st->u[w].instant = 1;
	/* announced before any Counterspell; a Heal's roll names it */
	if (rx->type == CW_A_PROTECT) {
		cw_cast_protection(st, w, cw_unit_at(st, rx->to), ev);
	} else if (rx->type == CW_A_DISPEL && (e = cw_ev_push(ev, CW_E_CAST, WR_VIS_PUBLIC))) {
		cw_ev_unit(st, e, w);
		e->spell = CW_SPELL_DISPEL;
		e->value = st->fx[st->dispel_fx].spell;
		e->other = st->fx[st->dispel_fx].caster;
	}
	react_go(st, 0, rng, ev);
}

void
cw_react_answer(struct cw_state *st, int wiz, struct wr_rng *rng, struct wr_list *ev)
{
	/* Each wizard has its own spell (C9): after a failed counter the same
	 * seat is asked again while another of its wizards can counter. */
	if (wiz == CW_NONE)
		react_go(st, st->rx_seat + 1, rng, ev);
	else if (cw_counter_roll(st, wiz, cw_react_spell(st->rx.type), rng, ev))
		cw_react_done(st, 1, rng, ev);
	else
		react_go(st, st->rx_seat, rng, ev);
}
