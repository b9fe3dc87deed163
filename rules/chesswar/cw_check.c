/*
 * ChessWar's invariants of a state: what a loaded snapshot must satisfy
 * before play goes on (cw_snapshot.c calls it; load() is fuzzed), and what
 * the playouts check after their actions. Reads the state only; a pending
 * cast or attack is checked by asking cw_legal() whether it was legal.
 */
#include <string.h>

#include "cw_rules.h"

/* Invariants of a loaded snapshot (load() is fuzzed). */
int
cw_check_state(const struct cw_state *st, struct wr_error *err)
{
	int nsq = st->board.files * st->board.ranks;
	if (st->phase < CW_PH_SETUP || st->phase > CW_PH_OVER)
		return wr_fail(err, "bad-snapshot", "phase", "bad phase");
	if (st->nseats < 2 || st->nseats > CW_SEATS || (st->out >> st->nseats) ||
	    (st->nseats > 2 && (st->phase == CW_PH_FIRST || !st->o.total_massacre ||
	                        st->board.files < CW_WIDE_MIN || st->board.ranks < CW_WIDE_MIN)))
		return wr_fail(err, "bad-snapshot", "seats", "bad seats");
	if (st->first_seat >= 0) {
		unsigned seen = 0;
		for (int i = 0; i < st->nseats; i++)
			seen |= st->order[i] >= 0 && st->order[i] < st->nseats ? 1u << st->order[i] : 0;
		if (seen != (1u << st->nseats) - 1 || st->order[0] != st->first_seat)
			return wr_fail(err, "bad-snapshot", "order", "bad turn order");
	}
	for (int s = 0; s < CW_SEATS; s++) {
		const struct cw_side *sd = &st->side[s];
		int general = 0, gone = s >= st->nseats || ((st->out >> s) & 1);
		if (sd->stage < CW_STAGE_ARMY || sd->stage > CW_STAGE_DONE)
			return wr_fail(err, "bad-snapshot", "stage", "bad stage");
		if ((sd->army == CW_NONE) != (sd->stage == CW_STAGE_ARMY))
			return wr_fail(err, "bad-snapshot", "army", "army and stage disagree");
		if (sd->army != CW_NONE && (sd->army < 0 || sd->army >= CW_ARMY_MAX))
			return wr_fail(err, "bad-snapshot", "army", "bad army");
		if (s >= st->nseats && sd->army != CW_NONE)
			return wr_fail(err, "bad-snapshot", "army", "no such seat");
		if (st->phase != CW_PH_SETUP && st->phase != CW_PH_OVER && sd->stage != CW_STAGE_DONE &&
		    !gone)
			return wr_fail(err, "bad-snapshot", "stage", "set-up not done");
		for (int k = 0; k < CW_UPS; k++) {
			const struct cw_unit *u = &st->u[s * CW_UPS + k];
			if (u->status == CW_U_EMPTY)
				continue;
			if (sd->stage < CW_STAGE_DEPLOY || u->type < 0 ||
			    u->type >= cw_armies[sd->army].ntypes || (k == 0) != (u->type == 0))
				return wr_fail(err, "bad-snapshot", "units", "bad unit");
			general += k == 0;
			if ((u->status == CW_U_ON || u->status == CW_U_DEAD) && (u->sq < 0 || u->sq >= nsq))
				return wr_fail(err, "bad-snapshot", "units", "unit off the board");
			if (u->status == CW_U_RESERVE &&
			    (u->sq != CW_NONE || (st->phase != CW_PH_SETUP && st->phase != CW_PH_OVER)))
				return wr_fail(err, "bad-snapshot", "units", "reserve unit");
			if (u->status == CW_U_ON && st->phase == CW_PH_SETUP && !cw_in_setup_area(st, s, u->sq))
				return wr_fail(err, "bad-snapshot", "units", "unit outside its set-up area");
			if (u->link >> CW_UNITS)
				return wr_fail(err, "bad-snapshot", "units", "bad link");
			for (int j = 0; j < CW_UNITS; j++)
				if ((u->link >> j) & 1) {
					if (cw_seat_of(j) == s || st->u[j].status != CW_U_ON ||
					    u->status != CW_U_ON || !((st->u[j].link >> (s * CW_UPS + k)) & 1))
						return wr_fail(err, "bad-snapshot", "units", "bad link");
				}
		}
		if (sd->stage >= CW_STAGE_DEPLOY && !general)
			return wr_fail(err, "bad-snapshot", "units", "no general");
	}
	for (int i = 0; i < CW_UNITS; i++)
		for (int j = i + 1; j < CW_UNITS; j++)
			if (st->u[i].status == CW_U_ON && st->u[j].status == CW_U_ON &&
			    st->u[i].sq == st->u[j].sq)
				return wr_fail(err, "bad-snapshot", "units", "two units on one square");
	{
		struct cw_state tmp;
		memcpy(tmp.u, st->u, sizeof(tmp.u));
		cw_rebuild_at(&tmp);
		if (memcmp(tmp.at, st->at, sizeof(tmp.at)) != 0)
			return wr_fail(err, "bad-snapshot", "units", "the board map disagrees");
	}
	if (st->phase == CW_PH_FIRST && (st->rolloff_winner < 0 || st->rolloff_winner > 1))
		return wr_fail(err, "bad-snapshot", "rolloff_winner", "bad roll-off winner");
	if (st->phase >= CW_PH_MOVE && st->phase <= CW_PH_MELEE) {
		if (st->turn_seat < 0 || st->turn_seat >= st->nseats || st->first_seat < 0 ||
		    st->first_seat >= st->nseats)
			return wr_fail(err, "bad-snapshot", "turn_seat", "bad seat");
	}
	if (st->last_moved != CW_NONE && !cw_on(st, st->last_moved))
		return wr_fail(err, "bad-snapshot", "last_moved", "bad unit");
	if (st->pending == CW_PEND_FOLLOWUP &&
	    (!cw_on(st, st->pend_unit) || cw_seat_of(st->pend_unit) != st->turn_seat ||
	     st->pend_from < 0 || st->pend_from >= nsq || st->phase != CW_PH_MELEE))
		return wr_fail(err, "bad-snapshot", "pending", "bad follow-up");
	if (st->pending == CW_PEND_COUNTER) {
		int c = cw_unit_at(st, st->cast.unit);
		struct wr_error e2;
		struct cw_state tmp = *st;
		if (c == CW_NONE || cw_seat_of(c) != st->turn_seat || st->cast.type != CW_A_CAST ||
		    st->cast.spell < 0 || st->cast.spell >= CW_SPELL_MAX || st->react_seat < 0 ||
		    st->react_seat >= st->nseats || st->react_seat == st->turn_seat)
			return wr_fail(err, "bad-snapshot", "cast", "bad pending cast");
		/* the cast must still be legal as if not yet cast */
		tmp.pending = CW_PEND_NONE;
		tmp.u[c].cast = 0;
		if (cw_spells[st->cast.spell].when == CW_WHEN_SHOOT)
			tmp.u[c].shot = 0;
		if (cw_legal(&tmp, st->turn_seat, &st->cast, &e2) != 0)
			return wr_fail(err, "bad-snapshot", "cast", "bad pending cast");
	}
	if (st->pending == CW_PEND_SACRIFICE && cw_units_alive(st, st->turn_seat) == 0)
		return wr_fail(err, "bad-snapshot", "pending", "bad sacrifice");
	for (int i = 0; i < CW_UNITS; i++) {
		/* a match may end while a Heal is still open (the general destroyed
		 * by the same action): its units stay as they were */
		if (st->u[i].dying && (st->u[i].status != CW_U_DEAD ||
		                       (st->pending != CW_PEND_HEAL && st->pending != CW_PEND_PROTECT &&
		                        st->pending != CW_PEND_RCOUNTER && st->phase != CW_PH_OVER)))
			return wr_fail(err, "bad-snapshot", "units", "bad dying unit");
		if (st->u[i].was_link >> CW_UNITS)
			return wr_fail(err, "bad-snapshot", "units", "bad link");
	}
	if (st->pending == CW_PEND_HEAL &&
	    (st->heal_seat < 0 || st->heal_seat >= st->nseats || !cw_heal_possible(st, st->heal_seat) ||
	     (st->pending_next != CW_PEND_NONE && st->pending_next != CW_PEND_FOLLOWUP)))
		return wr_fail(err, "bad-snapshot", "pending", "bad heal");
	if (st->pending != CW_PEND_HEAL && st->pending_next != CW_PEND_NONE &&
	    !(st->pending == CW_PEND_RCOUNTER && st->rx.type == CW_A_HEAL))
		return wr_fail(err, "bad-snapshot", "pending", "bad pending");
	/* A Protection cast in answer waits for the other seats' Dispel
	 * (and its Counterspell) before the save or attack it answered. */
	int dispelling = st->pending == CW_PEND_DISPEL ||
	                 (st->pending == CW_PEND_RCOUNTER && st->rx.type == CW_A_DISPEL);
	if ((unsigned)st->protect_after > 1 ||
	    (st->protect_after &&
	     (!dispelling || st->dispel_fx < 0 || st->dispel_fx >= st->nfx ||
	      st->fx[st->dispel_fx].spell != CW_SPELL_PROTECTION ||
	      cw_seat_of(st->fx[st->dispel_fx].caster) == st->turn_seat ||
	      (st->nhitq == 0 && st->held.type != CW_A_SHOOT && st->held.type != CW_A_ATTACK))))
		return wr_fail(err, "bad-snapshot", "protect_after", "bad Protection waiting");
	if (st->nhitq < 0 || st->nhitq > CW_UNITS ||
	    (st->nhitq > 0 && st->pending != CW_PEND_PROTECT && !st->protect_after &&
	     !(st->pending == CW_PEND_RCOUNTER && st->rx.type == CW_A_PROTECT)))
		return wr_fail(err, "bad-snapshot", "hits", "bad hits");
	for (int i = 0; i < st->nhitq; i++)
		if (st->hitq[i] < 0 || st->hitq[i] >= CW_UNITS)
			return wr_fail(err, "bad-snapshot", "hits", "bad hits");
	if (st->pending == CW_PEND_PROTECT && st->nhitq > 0) {
		int t = st->hitq[0];
		if (!cw_on(st, t) || cw_seat_of(t) == st->turn_seat || cw_protector_for(st, t) == CW_NONE)
			return wr_fail(err, "bad-snapshot", "hits", "bad hits");
	} else if (st->pending == CW_PEND_PROTECT) {
		struct wr_error e2;
		struct cw_state tmp = *st;
		int f = cw_unit_at(st, st->held.unit), t = cw_unit_at(st, st->held.to);
		if ((st->held.type != CW_A_SHOOT && st->held.type != CW_A_ATTACK) || f == CW_NONE ||
		    t == CW_NONE || cw_seat_of(f) != st->turn_seat || cw_protector_for(st, t) == CW_NONE)
			return wr_fail(err, "bad-snapshot", "held", "bad held action");
		tmp.pending = CW_PEND_NONE;
		tmp.u[f].shot = tmp.u[f].attacked = 0;
		if (cw_legal(&tmp, st->turn_seat, &st->held, &e2) != 0)
			return wr_fail(err, "bad-snapshot", "held", "bad held action");
	}
	if (st->pending == CW_PEND_DISPEL &&
	    (st->react_seat < 0 || st->react_seat >= st->nseats || st->dispel_fx < 0 ||
	     st->dispel_fx >= st->nfx ||
	     (cw_seat_of(st->fx[st->dispel_fx].caster) != st->turn_seat && !st->protect_after) ||
	     st->react_seat == cw_seat_of(st->fx[st->dispel_fx].caster) ||
	     cw_dispeller(st, st->react_seat) == CW_NONE))
		return wr_fail(err, "bad-snapshot", "pending", "bad dispel");
	if (st->pending == CW_PEND_RCOUNTER) {
		int w = cw_unit_at(st, st->rx.unit), t = cw_unit_at(st, st->rx.to), dying = 0;
		if (st->rx.type == CW_A_HEAL)
			for (int k = 0; w != CW_NONE && k < CW_UPS; k++)
				dying |= st->u[cw_seat_of(w) * CW_UPS + k].dying &&
				         st->u[cw_seat_of(w) * CW_UPS + k].sq == st->rx.to;
		if (w == CW_NONE || !st->u[w].cast || st->rx_seat < 0 || st->rx_seat >= st->nseats ||
		    st->rx_seat == cw_seat_of(w) || cw_counterer(st, st->rx_seat) == CW_NONE ||
		    (st->rx.type == CW_A_PROTECT &&
		     (t == CW_NONE || (st->nhitq > 0 && st->hitq[0] != t))) ||
		    (st->rx.type == CW_A_DISPEL && (st->dispel_fx < 0 || st->dispel_fx >= st->nfx)) ||
		    (st->rx.type == CW_A_HEAL && (st->heal_seat != cw_seat_of(w) || !dying)) ||
		    (st->rx.type != CW_A_PROTECT && st->rx.type != CW_A_DISPEL &&
		     st->rx.type != CW_A_HEAL))
			return wr_fail(err, "bad-snapshot", "rx", "bad reaction");
	}
	if (st->pending < CW_PEND_NONE || st->pending > CW_PEND_RCOUNTER ||
	    (st->pending != CW_PEND_NONE && (st->phase < CW_PH_MOVE || st->phase > CW_PH_MELEE)))
		return wr_fail(err, "bad-snapshot", "pending", "bad pending");
	if (st->nfx < 0 || st->nfx > CW_MAX_FX)
		return wr_fail(err, "bad-snapshot", "effects", "bad effects");
	for (int i = 0; i < st->nfx; i++) {
		const struct cw_effect *f = &st->fx[i];
		if (f->spell < 0 || f->spell >= CW_SPELL_MAX || !cw_spells[f->spell].temporal ||
		    !cw_on(st, f->caster) || (f->target != CW_NONE && !cw_on(st, f->target)))
			return wr_fail(err, "bad-snapshot", "effects", "bad effect");
	}
	if (st->phase == CW_PH_OVER && st->winner != CW_NONE && (st->winner < 0 || st->winner >= st->nseats))
		return wr_fail(err, "bad-snapshot", "winner", "bad winner");
	return 0;
}
