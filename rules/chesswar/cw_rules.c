/*
 * ChessWar's rules on plain structs (the template's candidates, legal and
 * apply): army building, secret deployment, initiative, the turn's three
 * phases, movement and charges, spells and the end. Shooting and melee
 * resolution are in cw_combat.c. Each rule cites the text's section
 * ("Movement", "Charge", ...) or its ruling (RULINGS.md C1-C11, G1-G6).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cw_rules.h"

const char *const cw_act_name[CW_A_MAX] = {
	"army", "buy", "sell", "ready", "deploy", "undeploy", "done", "first", "move",
	"charge", "shoot", "attack", "advance", "hold", "cast", "counterspell", "allow",
	"sacrifice", "end_phase", "heal", "no_heal", "protect", "no_protect", "dispel", "no_dispel",
};

const char *const cw_ev_name[CW_E_MAX] = {
	"army", "buy", "sell", "ready", "deploy", "undeploy", "set_up", "reveal", "rolloff",
	"first", "turn", "phase", "move", "charge", "charge_failed", "shoot", "scatter",
	"melee_shot", "save", "destroyed", "attack", "plague", "follow_up", "advance", "hold",
	"cast", "counterspell", "spell_end", "regenerate", "raise_dead", "flight", "sacrifice",
	"over", "heal", "out",
};

/* ---------------------------------------------------------- movement */

static int
enemy_of(const struct cw_state *st, int id, int seat)
{
	return id != CW_NONE && cw_seat_of(id) != seat;
}

static int
can_move(const struct cw_state *st, int id)
{
	return cw_on(st, id) && !st->u[id].moved && !st->u[id].done_moving && !st->u[id].charged &&
	       !cw_in_melee(st, id) &&
	       cw_def(st, id)->move > 0;
}

/* "An unit can charge any enemies laterally, or even diagonally if side
 * squares next to both units are empty" of enemies (Charge move; C5). */
int
cw_can_charge_dir(const struct cw_state *st, int from, int to, int seat)
{
	int df = wr_file(&st->board, to) - wr_file(&st->board, from);
	int dr = wr_rank(&st->board, to) - wr_rank(&st->board, from);
	if (df == 0 || dr == 0)
		return 1;
	int s1 = wr_square(&st->board, wr_file(&st->board, from) + df, wr_rank(&st->board, from));
	int s2 = wr_square(&st->board, wr_file(&st->board, from), wr_rank(&st->board, from) + dr);
	return !enemy_of(st, cw_unit_at(st, s1), seat) && !enemy_of(st, cw_unit_at(st, s2), seat);
}

static int
charge_target_ok(const struct cw_state *st, int id, int to, struct wr_error *err)
{
	int seat = cw_seat_of(id), t = cw_unit_at(st, to);
	if (t == CW_NONE || cw_seat_of(t) == seat)
		return wr_fail(err, "no-enemy", "target", "there is no enemy unit on that square");
	if (cw_dist(st, st->u[id].sq, to) != 1)
		return wr_fail(err, "not-adjacent", "target", "a charge is at an adjacent enemy");
	if (!cw_can_charge_dir(st, st->u[id].sq, to, seat))
		return wr_fail(err, "diagonal-blocked", "target",
		               "a unit cannot charge diagonally when a side square holds an enemy "
		               "(Charge move)");
	return 0;
}

/* ----------------------------------------------------------- to_act */

unsigned
cw_to_act(const void *state)
{
	const struct cw_state *st = state;
	unsigned m = 0;
	switch (st->phase) {
	case CW_PH_SETUP:
		for (int s = 0; s < st->nseats; s++)
			if (st->side[s].stage != CW_STAGE_DONE && !(st->out & (1u << s)))
				m |= 1u << s;
		return m;
	case CW_PH_FIRST:
		return 1u << st->rolloff_winner;
	case CW_PH_MOVE:
	case CW_PH_SHOOT:
	case CW_PH_MELEE:
		if (st->pending == CW_PEND_COUNTER)
			return 1u << st->react_seat;
		if (st->pending == CW_PEND_HEAL)
			return 1u << st->heal_seat;
		if (st->pending == CW_PEND_PROTECT)
			return 1u << cw_seat_of(cw_protect_target(st));
		if (st->pending == CW_PEND_DISPEL)
			return 1u << st->react_seat;
		if (st->pending == CW_PEND_RCOUNTER)
			return 1u << st->rx_seat;
		return 1u << st->turn_seat;
	default:
		return 0;
	}
}

/* -------------------------------------------------------- candidates */

static void
set_type(struct cw_action *a, int army, int t)
{
	snprintf(a->utype, sizeof(a->utype), "%s", cw_armies[army].units[t].slug);
}

void
cw_candidates(const void *state, int seat, struct wr_list *out)
{
	const struct cw_state *st = state;
	int nsq = st->board.files * st->board.ranks;
	struct cw_action *a;

	if (seat < 0 || seat >= st->nseats || !(cw_to_act(st) & (1u << seat)))
		return;
	if (st->phase == CW_PH_SETUP) {
		const struct cw_side *sd = &st->side[seat];
		if (sd->stage <= CW_STAGE_BUILD)
			for (int ar = 0; ar < CW_ARMY_MAX; ar++)
				if ((a = cw_cand(out, CW_A_ARMY)))
					a->army = ar;
		if (sd->stage == CW_STAGE_BUILD) {
			for (int t = 1; t < cw_armies[sd->army].ntypes; t++)
				if ((a = cw_cand(out, CW_A_BUY)))
					set_type(a, sd->army, t);
			for (int t = 1; t < cw_armies[sd->army].ntypes; t++)
				if ((a = cw_cand(out, CW_A_SELL)))
					set_type(a, sd->army, t);
			cw_cand(out, CW_A_READY);
		}
		if (sd->stage == CW_STAGE_DEPLOY) {
			for (int t = 0; t < cw_armies[sd->army].ntypes; t++)
				for (int sq = 0; sq < nsq; sq++)
					if (cw_in_setup_area(st, seat, sq) && cw_unit_at(st, sq) == CW_NONE &&
					    cw_reserve_of_type(st, seat, t) != CW_NONE &&
					    (a = cw_cand(out, CW_A_DEPLOY))) {
						set_type(a, sd->army, t);
						a->to = sq;
					}
			for (int k = 0; k < CW_UPS; k++)
				if (st->u[seat * CW_UPS + k].status == CW_U_ON &&
				    (a = cw_cand(out, CW_A_UNDEPLOY)))
					a->to = st->u[seat * CW_UPS + k].sq;
			cw_cand(out, CW_A_DONE);
		}
		return;
	}
	if (st->phase == CW_PH_FIRST) {
		if ((a = cw_cand(out, CW_A_FIRST)))
			a->first = 1;
		if ((a = cw_cand(out, CW_A_FIRST)))
			a->first = 0;
		return;
	}
	if (st->pending == CW_PEND_COUNTER || st->pending == CW_PEND_RCOUNTER) {
		for (int k = 0; k < CW_UPS; k++)
			if (cw_on(st, seat * CW_UPS + k) && (a = cw_cand(out, CW_A_COUNTER)))
				a->unit = st->u[seat * CW_UPS + k].sq;
		cw_cand(out, CW_A_ALLOW);
		return;
	}
	if (st->pending == CW_PEND_SACRIFICE) {
		for (int k = 0; k < CW_UPS; k++)
			if (cw_on(st, seat * CW_UPS + k) && (a = cw_cand(out, CW_A_SACRIFICE)))
				a->unit = st->u[seat * CW_UPS + k].sq;
		return;
	}
	if (st->pending == CW_PEND_PROTECT) {
		for (int w = seat * CW_UPS; w < (seat + 1) * CW_UPS; w++)
			if (cw_on(st, w) && (cw_def(st, w)->spells & (1u << CW_SPELL_PROTECTION)) &&
			    (a = cw_cand(out, CW_A_PROTECT))) {
				a->unit = st->u[w].sq;
				a->to = st->u[cw_protect_target(st)].sq;
			}
		cw_cand(out, CW_A_NO_PROTECT);
		return;
	}
	if (st->pending == CW_PEND_DISPEL) {
		for (int w = seat * CW_UPS; w < (seat + 1) * CW_UPS; w++)
			if (cw_on(st, w) && (a = cw_cand(out, CW_A_DISPEL)))
				a->unit = st->u[w].sq;
		cw_cand(out, CW_A_NO_DISPEL);
		return;
	}
	if (st->pending == CW_PEND_HEAL) {
		for (int w = seat * CW_UPS; w < (seat + 1) * CW_UPS; w++) {
			if (!cw_on(st, w) || !(cw_def(st, w)->spells & (1u << CW_SPELL_HEAL)))
				continue;
			for (int d = seat * CW_UPS; d < (seat + 1) * CW_UPS; d++)
				if (st->u[d].dying && (a = cw_cand(out, CW_A_HEAL))) {
					a->unit = st->u[w].sq;
					a->to = st->u[d].sq;
				}
		}
		cw_cand(out, CW_A_NO_HEAL);
		return;
	}
	if (st->pending == CW_PEND_FOLLOWUP) {
		int id = st->pend_unit;
		if ((a = cw_cand(out, CW_A_ADVANCE))) {
			a->unit = st->u[id].sq;
			a->to = st->pend_from;
		}
		for (int d = 0; d < WR_DIRS; d++) {
			int sq = wr_step(&st->board, st->u[id].sq, d);
			if (sq >= 0 && (a = cw_cand(out, CW_A_CHARGE))) {
				a->unit = st->u[id].sq;
				a->to = sq;
			}
		}
		if ((a = cw_cand(out, CW_A_HOLD)))
			a->unit = st->u[id].sq;
		return;
	}
	for (int k = 0; k < CW_UPS; k++) {
		int id = seat * CW_UPS + k;
		if (!cw_on(st, id))
			continue;
		const struct cw_unit_def *d = cw_def(st, id);
		int sq = st->u[id].sq;
		if (st->phase == CW_PH_MOVE) {
			if (can_move(st, id)) {
				int dist[CW_MAX_SQ], prev[CW_MAX_SQ];
				struct cw_mover m;
				cw_mover_of(st, id, &m);
				cw_reach(st, &m, dist, prev);
				/* listed with the path the server found, so legal() only
				 * checks the steps */
				for (int to = 0; to < nsq; to++)
					if (dist[to] > 0 && (a = cw_cand(out, CW_A_MOVE))) {
						a->unit = sq;
						a->to = to;
						a->npath = dist[to];
						for (int p = to, i = dist[to] - 1; i >= 0; p = prev[p], i--)
							a->path[i] = p;
					}
			}
			for (int dd = 0; dd < WR_DIRS && !cw_in_melee(st, id) && !st->u[id].charged; dd++) {
				int to = wr_step(&st->board, sq, dd);
				if (to >= 0 && enemy_of(st, cw_unit_at(st, to), seat) &&
				    (a = cw_cand(out, CW_A_CHARGE))) {
					a->unit = sq;
					a->to = to;
				}
			}
		} else if (st->phase == CW_PH_SHOOT && d->weapon != CW_W_NONE && !st->u[id].shot &&
		           !cw_in_melee(st, id)) {
			const struct cw_weapon *w = &cw_weapons[d->weapon];
			for (int to = 0; to < nsq; to++) {
				if (w->kind == CW_WK_BOW && !enemy_of(st, cw_unit_at(st, to), seat))
					continue;
				if (w->range && cw_dist(st, sq, to) > w->range)
					continue;
				if (w->min_range && cw_dist(st, sq, to) < w->min_range)
					continue;
				if ((a = cw_cand(out, CW_A_SHOOT))) {
					a->unit = sq;
					a->to = to;
				}
			}
		} else if (st->phase == CW_PH_MELEE && cw_in_melee(st, id)) {
			int grp[CW_UNITS], ng = cw_melee_group(st, id, grp);
			for (int i = 0; i < ng; i++)
				if (cw_seat_of(grp[i]) != seat && (a = cw_cand(out, CW_A_ATTACK))) {
					a->unit = sq;
					a->to = st->u[grp[i]].sq;
				}
		}
		if (d->spells && !st->u[id].cast)
			cw_cand_casts(st, seat, id, out);
	}
	cw_cand(out, CW_A_END_PHASE);
}

/* ------------------------------------------------------------- legal */

static int
own_unit(const struct cw_state *st, int seat, int sq, int *id, struct wr_error *err)
{
	int u = cw_unit_at(st, sq);
	if (sq < 0 || u == CW_NONE || cw_seat_of(u) != seat)
		return wr_fail(err, "not-your-unit", "unit", "you have no unit on that square");
	*id = u;
	return 0;
}

/* A reaction on the enemy's turn (C9, G3): `no` declines it (1); `yes`
 * names an own wizard that knows the spell and has not cast it for its
 * next turn yet (0, *id set); anything else is refused (-1, err). */
static int
reaction_caster(const struct cw_state *st, int seat, const struct cw_action *a, int yes, int no,
                int spell, const char *choice, int *id, struct wr_error *err)
{
	if (a->type == no)
		return 1;
	if (a->type != yes)
		return wr_fail(err, "illegal-action", "type", "%s", choice);
	if (own_unit(st, seat, a->unit, id, err))
		return -1;
	if (!(cw_def(st, *id)->spells & (1u << spell)))
		return wr_fail(err, "unknown-spell", "unit", "that unit cannot cast %s",
		               cw_spells[spell].name);
	if (st->u[*id].cast)
		return wr_fail(err, "spell-used", "unit",
		               "that wizard has cast its spell for its next turn already");
	return 0;
}

int
cw_legal(const void *state, int seat, const void *action, struct wr_error *err)
{
	const struct cw_state *st = state;
	const struct cw_action *a = action;
	int id = CW_NONE, t;

	if (seat < 0 || seat >= st->nseats)
		return wr_fail(err, "no-such-seat", "", "no such seat");
	if (st->phase == CW_PH_OVER)
		return wr_fail(err, "game-over", "", "the match is over");
	if (!(cw_to_act(st) & (1u << seat)))
		return wr_fail(err, "not-awaited", "", "it is not your turn to act");
	if (a->type < 0 || a->type >= CW_A_MAX)
		return wr_fail(err, "unknown-action", "type", "unknown action");
	if (st->phase == CW_PH_SETUP)
		return cw_legal_setup(st, seat, a, err);
	if (st->phase == CW_PH_FIRST) {
		if (a->type != CW_A_FIRST)
			return wr_fail(err, "illegal-action", "type",
			               "choose to go first or second (C3)");
		return 0;
	}
	if (st->pending == CW_PEND_COUNTER || st->pending == CW_PEND_RCOUNTER)
		return reaction_caster(st, seat, a, CW_A_COUNTER, CW_A_ALLOW, CW_SPELL_COUNTERSPELL,
		                       "counter the spell (counterspell) or let it be (allow)", &id,
		                       err) < 0 ? -1 : 0;
	if (st->pending == CW_PEND_PROTECT) {
		if ((t = reaction_caster(st, seat, a, CW_A_PROTECT, CW_A_NO_PROTECT, CW_SPELL_PROTECTION,
		                         "cast Protection on the unit attacked (protect) or not (no_protect)",
		                         &id, err)) != 0)
			return t < 0 ? -1 : 0;
		if (a->to != st->u[cw_protect_target(st)].sq)
			return wr_fail(err, "bad-target", "target", "Protection goes on the unit attacked");
		if (cw_dist(st, st->u[id].sq, a->to) > cw_spells[CW_SPELL_PROTECTION].range)
			return wr_fail(err, "out-of-range", "target", "Protection reaches %d squares",
			               cw_spells[CW_SPELL_PROTECTION].range);
		return 0;
	}
	if (st->pending == CW_PEND_DISPEL)
		return reaction_caster(st, seat, a, CW_A_DISPEL, CW_A_NO_DISPEL, CW_SPELL_DISPEL,
		                       "dispel the spell just cast (dispel) or not (no_dispel)", &id,
		                       err) < 0 ? -1 : 0;
	if (st->pending == CW_PEND_HEAL) {
		int d = CW_NONE;
		if ((t = reaction_caster(st, seat, a, CW_A_HEAL, CW_A_NO_HEAL, CW_SPELL_HEAL,
		                         "Heal a destroyed unit (heal) or let it fall (no_heal)", &id,
		                         err)) != 0)
			return t < 0 ? -1 : 0;
		for (int k = 0; k < CW_UPS; k++) {
			int u = seat * CW_UPS + k;
			if (st->u[u].dying && st->u[u].sq == a->to)
				d = u;
		}
		if (d == CW_NONE)
			return wr_fail(err, "nothing-to-heal", "target",
			               "no unit of yours was just destroyed there");
		if (cw_dist(st, st->u[id].sq, a->to) > cw_spells[CW_SPELL_HEAL].range)
			return wr_fail(err, "out-of-range", "target", "Heal reaches %d squares",
			               cw_spells[CW_SPELL_HEAL].range);
		return 0;
	}
	if (st->pending == CW_PEND_SACRIFICE) {
		if (a->type != CW_A_SACRIFICE)
			return wr_fail(err, "illegal-action", "type",
			               "choose the undead unit that is lost (total massacre)");
		return own_unit(st, seat, a->unit, &id, err);
	}
	if (st->pending == CW_PEND_FOLLOWUP) {
		int pu = st->pend_unit;
		if (a->type != CW_A_ADVANCE && a->type != CW_A_CHARGE && a->type != CW_A_HOLD)
			return wr_fail(err, "illegal-action", "type",
			               "make the follow-up move (advance, charge) or hold");
		if (a->unit != st->u[pu].sq)
			return wr_fail(err, "not-this-unit", "unit",
			               "the follow-up is the attacker's, on %s", "its square");
		if (a->type == CW_A_HOLD)
			return 0;
		if (a->type == CW_A_ADVANCE) {
			if (a->to != st->pend_from)
				return wr_fail(err, "bad-destination", "to",
				               "advance only into the square just emptied");
			if (cw_def(st, pu)->move == 0)
				return wr_fail(err, "cannot-move", "to",
				               "units with move of 0 can only make a follow-up charge");
			if (cw_unit_at(st, a->to) != CW_NONE)
				return wr_fail(err, "occupied", "to", "that square is taken");
			if (!cw_can_charge_dir(st, a->unit, a->to, seat))
				return wr_fail(err, "diagonal-blocked", "to",
				               "advance diagonally only with no enemies in the side "
				               "squares (C8)");
			return 0;
		}
		return charge_target_ok(st, pu, a->to, err);
	}
	if (st->phase == CW_PH_FIRST || a->type < CW_A_MOVE)
		return wr_fail(err, "illegal-action", "type", "set-up is over");
	switch (a->type) {
	case CW_A_END_PHASE:
		return 0;
	case CW_A_MOVE:
		if (st->phase != CW_PH_MOVE)
			return wr_fail(err, "wrong-phase", "type", "units move in the movement phase");
		if (own_unit(st, seat, a->unit, &id, err))
			return -1;
		if (cw_in_melee(st, id))
			return wr_fail(err, "in-melee", "unit", "a unit in melee cannot move");
		if (st->u[id].moved || st->u[id].charged)
			return wr_fail(err, "already-moved", "unit", "this unit has moved this turn");
		if (st->u[id].done_moving)
			return wr_fail(err, "already-moved", "unit",
			               "this unit cast a move spell or was raised this turn");
		if (cw_def(st, id)->move == 0)
			return wr_fail(err, "cannot-move", "unit", "this unit has move of 0");
		if (a->to < 0)
			return wr_fail(err, "bad-destination", "to", "no such square");
		{
			struct cw_mover m;
			int path[CW_MAX_PATH];
			cw_mover_of(st, id, &m);
			if (a->npath > 0)
				return cw_path_check(st, &m, a->path, a->npath, a->to, err);
			if (cw_route(st, &m, a->to, path) == 0)
				return wr_fail(err, "unreachable", "to",
				               "this unit cannot reach that square this turn");
		}
		return 0;
	case CW_A_CHARGE:
		if (st->phase != CW_PH_MOVE)
			return wr_fail(err, "wrong-phase", "type", "charges are in the movement phase");
		if (own_unit(st, seat, a->unit, &id, err))
			return -1;
		if (cw_in_melee(st, id))
			return wr_fail(err, "in-melee", "unit", "this unit is in melee already");
		if (st->u[id].charged)
			return wr_fail(err, "already-charged", "unit", "this unit has charged this turn");
		if ((st->u[id].moved || st->u[id].done_moving) && st->last_moved != id)
			return wr_fail(err, "not-after-move", "unit",
			               "a unit charges right after its own move, not after another "
			               "unit's (C4: one unit at a time)");
		return charge_target_ok(st, id, a->to, err);
	case CW_A_SHOOT: {
		const struct cw_weapon *w;
		int range, d;
		if (st->phase != CW_PH_SHOOT)
			return wr_fail(err, "wrong-phase", "type", "units fire in the shooting phase");
		if (own_unit(st, seat, a->unit, &id, err))
			return -1;
		w = &cw_weapons[cw_def(st, id)->weapon];
		if (w->kind == CW_WK_NONE)
			return wr_fail(err, "no-weapon", "unit", "this unit has no ranged attack");
		if (st->u[id].shot)
			return wr_fail(err, "already-shot", "unit", "this unit has fired this phase");
		if (cw_in_melee(st, id))
			return wr_fail(err, "in-melee", "unit", "a unit in melee cannot fire");
		if (!w->move_fire && st->u[id].moved)
			return wr_fail(err, "moved", "unit",
			               "%s cannot move and fire", w->name);
		if (a->to < 0)
			return wr_fail(err, "bad-target", "target", "no such square");
		d = cw_dist(st, a->unit, a->to);
		range = w->range;
		if (w->range == 0)
			range = st->o.catapult_range;
		if (w->kind == CW_WK_BOW) {
			t = cw_unit_at(st, a->to);
			if (t == CW_NONE || cw_seat_of(t) == seat)
				return wr_fail(err, "no-enemy", "target", "there is no enemy unit there");
			if (d > range)
				return wr_fail(err, "out-of-range", "target", "%s reach %d squares", w->name,
				               range);
			if (cw_sees(st, a->unit, a->to))
				return 0;
			if (!w->indirect)
				return wr_fail(err, "no-line-of-sight", "target",
				               "the firer does not see that unit and %s cannot fire "
				               "indirectly", w->name);
			if (!cw_seen_by_seat(st, seat, a->to, id))
				return wr_fail(err, "no-line-of-sight", "target",
				               "no unit of yours sees that unit");
			return 0;
		}
		if (a->to == a->unit)
			return wr_fail(err, "out-of-range", "target", "a catapult does not fire at itself");
		if (w->min_range && d < w->min_range)
			return wr_fail(err, "too-close", "target",
			               "catapults cannot be aimed at a square next to them (minimum "
			               "range %d)", w->min_range);
		if (range && d > range)
			return wr_fail(err, "out-of-range", "target", "%s reach %d squares", w->name,
			               range);
		if (!cw_seen_by_seat(st, seat, a->to, CW_NONE))
			return wr_fail(err, "no-line-of-sight", "target",
			               "the target square must be seen by at least one of your units");
		return 0;
	}
	case CW_A_ATTACK: {
		int grp[CW_UNITS], n, found = 0;
		if (st->phase != CW_PH_MELEE)
			return wr_fail(err, "wrong-phase", "type", "attacks are in the melee phase");
		if (own_unit(st, seat, a->unit, &id, err))
			return -1;
		if (!cw_in_melee(st, id))
			return wr_fail(err, "not-in-melee", "unit", "this unit is not in melee");
		if (st->u[id].attacked)
			return wr_fail(err, "already-attacked", "unit",
			               "this unit has attacked this phase");
		t = cw_unit_at(st, a->to);
		n = cw_melee_group(st, id, grp);
		for (int i = 0; i < n; i++)
			found |= grp[i] == t;
		if (t == CW_NONE || cw_seat_of(t) == seat || !found)
			return wr_fail(err, "not-in-this-melee", "target",
			               "the target is an enemy in the same melee");
		return 0;
	}
	case CW_A_CAST:
		if (own_unit(st, seat, a->unit, &id, err))
			return -1;
		return cw_legal_cast(st, seat, id, a, err);
	default:
		return wr_fail(err, "illegal-action", "type", "that action is not possible now");
	}
}

/* ------------------------------------------------------------- apply */

static void
set_phase(struct cw_state *st, int phase, struct wr_list *ev)
{
	struct cw_event *e;
	st->phase = phase;
	st->last_moved = CW_NONE;
	e = cw_ev_push(ev, CW_E_PHASE, WR_VIS_PUBLIC);
	if (e) {
		e->seat = st->turn_seat;
		e->value = phase;
	}
}

static int
sacrifice_due(const struct cw_state *st, int seat)
{
	return st->o.total_massacre && st->side[seat].army == CW_ARMY_UNDEAD &&
	       !cw_general_alive(st, seat) && cw_units_alive(st, seat) > 0;
}

static void
start_turn(struct cw_state *st, int seat, int new_round, struct wr_list *ev)
{
	struct cw_event *e;
	st->turn_seat = seat;
	st->shot_from = st->shot_aim = st->shot_land = CW_NONE;
	if (new_round)
		st->round++;
	st->turn++;
	e = cw_ev_push(ev, CW_E_TURN, WR_VIS_PUBLIC);
	if (e) {
		e->seat = seat;
		e->value = st->round;
	}
	/* temporal spells last until the start of the wizard's next turn (C9) */
	for (int i = st->nfx - 1; i >= 0; i--)
		if (cw_seat_of(st->fx[i].caster) == seat)
			cw_remove_fx(st, i, ev);
	set_phase(st, CW_PH_MOVE, ev);
	if (sacrifice_due(st, seat))
		st->pending = CW_PEND_SACRIFICE;
}

static void
end_turn(struct cw_state *st, struct wr_rng *rng, struct wr_list *ev)
{
	int seat = st->turn_seat;
	/* Regenerate: "Returns to battle on a d6 roll 3+ at the end of the turn
	 * unless the square occupied" (Orcs; C8: where it died). */
	for (int i = 0; i < CW_UNITS; i++) {
		struct cw_unit *u = &st->u[i];
		if (u->status != CW_U_DEAD || !u->regen)
			continue;
		u->regen = 0;
		struct cw_event *e = cw_ev_push(ev, CW_E_REGENERATE, WR_VIS_PUBLIC);
		int occupied = cw_unit_at(st, u->sq) != CW_NONE;
		int face = occupied ? 0 : (int)wr_die(rng, 6);
		cw_ev_unit(st, e, i);
		if (e) {
			e->nfaces = occupied ? 0 : 1;
			e->faces[0] = face;
			e->need = 3;
			e->ok = face >= 3;
			if (occupied)
				snprintf(e->why, sizeof(e->why), "square occupied");
		}
		if (face >= 3) {
			cw_put(st, i, u->sq);
			u->link = 0;
		}
	}
	for (int k = 0; k < CW_UPS; k++) {
		struct cw_unit *u = &st->u[seat * CW_UPS + k];
		u->moved = u->done_moving = u->charged = u->shot = u->attacked = u->cast = u->strike =
		    u->instant = 0;
	}
	for (int i = 0; i < CW_UNITS; i++)
		st->u[i].strike = 0;
	cw_check_end(st, ev);
	if (st->phase == CW_PH_OVER)
		return;
	{
		int wrapped, next = cw_next_seat(st, seat, &wrapped);
		start_turn(st, next, wrapped, ev);
	}
}

/* C3 with two seats: `first` takes the first turn of every round. */
static void
two_seat_order(struct cw_state *st, int first, const char *why, struct wr_list *ev)
{
	struct cw_event *e = cw_ev_push(ev, CW_E_FIRST, WR_VIS_PUBLIC);
	st->first_seat = first;
	st->order[0] = (int8_t)first;
	st->order[1] = (int8_t)(1 - first);
	if (e) {
		e->seat = first;
		snprintf(e->why, sizeof(e->why), "%s", why);
	}
	start_turn(st, first, 1, ev);
}

/* The expansion ("each army acts one by one as using normal rules") with
 * C3: the armies act in initiative order, lowest first; armies of equal
 * initiative roll off (d6 each, G2; any tie among them re-rolled), the
 * higher roll first. */
static void
multi_seat_order(struct cw_state *st, struct wr_rng *rng, struct wr_list *ev)
{
	int n = st->nseats, key[CW_SEATS], seats[CW_SEATS];
	struct cw_event *e;
	/* a seat that left during the set-up comes last and never plays */
	for (int s = 0; s < n; s++)
		key[s] = (st->out & (1u << s)) ? 1000 * 16 : cw_armies[st->side[s].army].initiative * 16;
	for (int s = 0; s < n; s++) {
		int grp[CW_SEATS], ng = 0, roll[CW_SEATS], tie;
		for (int t = 0; t < n; t++)
			if (key[t] / 16 == key[s] / 16 && !(st->out & (1u << t)))
				grp[ng++] = t;
		if (ng < 2 || grp[0] != s)
			continue;
		do {
			tie = 0;
			e = cw_ev_push(ev, CW_E_ROLLOFF, WR_VIS_PUBLIC);
			for (int i = 0; i < ng; i++) {
				roll[i] = (int)wr_die(rng, 6);
				for (int j = 0; j < i; j++)
					tie |= roll[i] == roll[j];
			}
			if (e) {
				int best = 0;
				for (int i = 0; i < ng; i++) {
					e->faces[i] = roll[i];
					e->path[i] = grp[i];
					best = roll[i] > roll[best] ? i : best;
				}
				e->nfaces = e->npath = ng;
				e->seat = tie ? CW_NONE : grp[best];
			}
		} while (tie);
		for (int i = 0; i < ng; i++)
			key[grp[i]] += 6 - roll[i];
	}
	for (int s = 0; s < n; s++)
		seats[s] = s;
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && key[seats[j]] < key[seats[j - 1]]; j--) {
			int t = seats[j];
			seats[j] = seats[j - 1];
			seats[j - 1] = t;
		}
	e = cw_ev_push(ev, CW_E_FIRST, WR_VIS_PUBLIC);
	for (int i = 0; i < n; i++)
		st->order[i] = (int8_t)seats[i];
	st->first_seat = seats[0];
	if (e) {
		e->seat = seats[0];
		memcpy(e->path, seats, sizeof(int) * (size_t)n);
		e->npath = n;
		snprintf(e->why, sizeof(e->why), "initiative order");
	}
	start_turn(st, seats[0], 1, ev);
}

static void
finish_setup(struct cw_state *st, struct wr_rng *rng, struct wr_list *ev)
{
	struct cw_event *e = cw_ev_push(ev, CW_E_REVEAL, WR_VIS_PUBLIC);
	(void)e;
	/* With 3-4 armies a seat may be out before it chose one (army -1). */
	if (st->nseats > 2) {
		multi_seat_order(st, rng, ev);
		return;
	}
	int i0 = cw_armies[st->side[0].army].initiative;
	int i1 = cw_armies[st->side[1].army].initiative;
	/* C3: the lower initiative takes the first turn of every round */
	if (i0 != i1) {
		two_seat_order(st, i0 < i1 ? 0 : 1, "lower initiative", ev);
		return;
	}
	/* equal: a d6 roll-off, ties re-rolled (G2), the winner chooses */
	for (;;) {
		int a = (int)wr_die(rng, 6), b = (int)wr_die(rng, 6);
		e = cw_ev_push(ev, CW_E_ROLLOFF, WR_VIS_PUBLIC);
		if (e) {
			e->faces[0] = a;
			e->faces[1] = b;
			e->nfaces = 2;
			e->seat = a > b ? 0 : a < b ? 1 : CW_NONE;
		}
		if (a != b) {
			st->rolloff_winner = a > b ? 0 : 1;
			break;
		}
	}
	st->phase = CW_PH_FIRST;
}

static int
followup_possible(const struct cw_state *st)
{
	struct wr_list l;
	struct wr_error err;
	int any = 0;
	wr_list_init(&l, sizeof(struct cw_action));
	cw_candidates(st, st->turn_seat, &l);
	for (size_t i = 0; i < l.len && !any; i++) {
		const struct cw_action *a = wr_list_at(&l, i);
		any = a->type != CW_A_HOLD && cw_legal(st, st->turn_seat, a, &err) == 0;
	}
	wr_list_free(&l);
	return any;
}

static void
heal_check(struct cw_state *st, struct wr_rng *rng, struct wr_list *ev)
{
	for (int s = 0; s < st->nseats; s++) {
		int order = st->side[s].heal_order;
		if (!cw_heal_possible(st, s)) {
			cw_heal_done(st, s);
			continue;
		}
		if (order == 2) {
			cw_heal_done(st, s);
			continue;
		}
		if (order == 1) {
			for (int k = 0; k < CW_UPS; k++) {
				int d = s * CW_UPS + k, w;
				if (!st->u[d].dying || (w = cw_healer_for(st, d)) == CW_NONE)
					continue;
				/* as if this seat had been asked and answered: another
				 * seat may counter it (C9), and the Heal then waits */
				if (st->pending != CW_PEND_HEAL) {
					st->pending_next = st->pending;
					st->pending = CW_PEND_HEAL;
				}
				st->heal_seat = s;
				cw_react(st, &(struct cw_action){.type = CW_A_HEAL, .unit = st->u[w].sq,
				                                 .to = st->u[d].sq},
				         rng, ev);
				if (st->pending == CW_PEND_RCOUNTER)
					return;
			}
			cw_heal_done(st, s);
			continue;
		}
		if (st->pending != CW_PEND_HEAL) {
			st->pending_next = st->pending;
			st->pending = CW_PEND_HEAL;
		}
		st->heal_seat = s;
		return;
	}
	if (st->pending == CW_PEND_HEAL) {
		st->pending = CW_PEND_NONE;
		if (st->pending_next == CW_PEND_FOLLOWUP && cw_on(st, st->pend_unit) &&
		    !cw_in_melee(st, st->pend_unit) && cw_unit_at(st, st->pend_from) == CW_NONE) {
			st->pending = CW_PEND_FOLLOWUP;
			if (!followup_possible(st))
				st->pending = CW_PEND_NONE;
		}
		st->pending_next = CW_PEND_NONE;
	}
}

void
cw_resolve_strike(struct cw_state *st, int seat, const struct cw_action *a, struct wr_rng *rng,
                  struct wr_list *ev)
{
	if (a->type == CW_A_SHOOT) {
		cw_do_shoot(st, seat, a, rng, ev);
		return;
	}
	cw_do_attack(st, seat, a, rng, ev);
	if (st->pending == CW_PEND_FOLLOWUP && !followup_possible(st))
		st->pending = CW_PEND_NONE;
}

/* A melee attack: the defender's side may first cast Protection on it
 * (its standing order, or it is asked). A shot's hits are asked about
 * before each save instead (cw_hits_go, C9 amended). */
static void
shot_or_attack(struct cw_state *st, int seat, const struct cw_action *a, struct wr_rng *rng,
               struct wr_list *ev)
{
	int t = cw_unit_at(st, a->to), w = CW_NONE, order;
	if (a->type == CW_A_ATTACK && t != CW_NONE && cw_seat_of(t) != seat)
		w = cw_protector_for(st, t);
	if (w == CW_NONE) {
		cw_resolve_strike(st, seat, a, rng, ev);
		return;
	}
	order = st->side[cw_seat_of(t)].protect_order;
	if (order == 2) {
		cw_resolve_strike(st, seat, a, rng, ev);
		return;
	}
	st->held = *a;
	st->u[cw_unit_at(st, a->unit)].attacked = 1;
	if (order == 1) {
		/* as if asked and answered: the Protection may be countered
		 * (C9), then the attack is rolled */
		cw_react(st, &(struct cw_action){.type = CW_A_PROTECT, .unit = st->u[w].sq, .to = a->to},
		         rng, ev);
		return;
	}
	st->pending = CW_PEND_PROTECT;
}

void
cw_apply(void *state, int seat, const void *action, struct wr_rng *rng, struct wr_list *ev)
{
	struct cw_state *st = state;
	const struct cw_action *a = action;
	struct cw_event *e;
	int id = a->unit >= 0 ? cw_unit_at(st, a->unit) : CW_NONE;

	if (st->phase == CW_PH_SETUP) {
		if (cw_apply_setup(st, seat, a, ev))
			finish_setup(st, rng, ev);
		return;
	}
	switch (a->type) {
	case CW_A_FIRST:
		two_seat_order(st, a->first ? seat : 1 - seat, "roll-off winner's choice", ev);
		break;
	case CW_A_END_PHASE:
		if (st->phase == CW_PH_MOVE)
			set_phase(st, CW_PH_SHOOT, ev);
		else if (st->phase == CW_PH_SHOOT)
			set_phase(st, CW_PH_MELEE, ev);
		else
			end_turn(st, rng, ev);
		break;
	case CW_A_MOVE: {
		int path[CW_MAX_PATH + 1], n = 0;
		if (a->npath > 0) {
			memcpy(path, a->path, sizeof(int) * (size_t)a->npath);
			n = a->npath;
		} else {
			struct cw_mover m;
			cw_mover_of(st, id, &m);
			n = cw_route(st, &m, a->to, path);
		}
		e = cw_ev_push(ev, CW_E_MOVE, WR_VIS_PUBLIC);
		cw_ev_unit(st, e, id);
		if (e) {
			memcpy(e->path, path, sizeof(int) * (size_t)n);
			e->npath = n;
			e->sq = a->to;
		}
		cw_put(st, id, a->to);
		st->u[id].moved = 1;
		st->last_moved = id;
		break;
	}
	case CW_A_CHARGE:
		if (st->pending == CW_PEND_FOLLOWUP) {
			st->pending = CW_PEND_NONE;
			e = cw_ev_push(ev, CW_E_FOLLOWUP, WR_VIS_PUBLIC);
			cw_ev_unit(st, e, id);
		}
		cw_do_charge(st, id, cw_unit_at(st, a->to), rng, ev);
		break;
	case CW_A_ADVANCE:
		st->pending = CW_PEND_NONE;
		e = cw_ev_push(ev, CW_E_ADVANCE, WR_VIS_PUBLIC);
		cw_ev_unit(st, e, id);
		if (e)
			e->sq = a->to;
		cw_put(st, id, a->to);
		break;
	case CW_A_HOLD:
		st->pending = CW_PEND_NONE;
		e = cw_ev_push(ev, CW_E_HOLD, WR_VIS_PUBLIC);
		cw_ev_unit(st, e, id);
		break;
	case CW_A_SHOOT:
	case CW_A_ATTACK:
		shot_or_attack(st, seat, a, rng, ev);
		break;
	case CW_A_PROTECT:
		cw_react(st, a, rng, ev);
		break;
	case CW_A_NO_PROTECT:
		cw_protect_go_on(st, rng, ev);
		break;
	case CW_A_CAST:
		cw_apply_cast(st, seat, id, a, rng, ev);
		break;
	case CW_A_COUNTER:
		/* Each wizard has its own spell (C9): the same seat is asked again
		 * while it has another wizard able to counter. */
		if (st->pending == CW_PEND_RCOUNTER) {
			cw_react_answer(st, id, rng, ev);
			break;
		}
		if (!cw_do_counter(st, id, rng, ev))
			cw_counter_ask(st, st->react_seat, rng, ev);
		break;
	case CW_A_DISPEL:
		cw_react(st, a, rng, ev);
		break;
	case CW_A_NO_DISPEL:
		st->pending = CW_PEND_NONE;
		cw_dispel_ask(st, st->react_seat + 1, rng, ev);
		cw_dispel_over(st, rng, ev);
		break;
	case CW_A_ALLOW:
		if (st->pending == CW_PEND_RCOUNTER) {
			cw_react_answer(st, CW_NONE, rng, ev);
			break;
		}
		st->pending = CW_PEND_NONE;
		cw_counter_ask(st, st->react_seat + 1, rng, ev);
		break;
	case CW_A_SACRIFICE:
		st->pending = CW_PEND_NONE;
		e = cw_ev_push(ev, CW_E_SACRIFICE, WR_VIS_PUBLIC);
		cw_ev_unit(st, e, id);
		cw_destroy(st, id, "lost (no Liche)", ev);
		st->u[id].dying = 0;   /* a chosen loss, not a destruction to Heal */
		break;
	case CW_A_HEAL:
		cw_react(st, a, rng, ev);
		break;
	case CW_A_NO_HEAL:
		cw_heal_done(st, seat);
		break;
	default:
		break;
	}
	if (st->pending != CW_PEND_COUNTER)
		memset(&st->cast, 0, sizeof(st->cast));
	if (st->pending != CW_PEND_COUNTER && st->pending != CW_PEND_PROTECT &&
	    st->pending != CW_PEND_DISPEL && st->pending != CW_PEND_RCOUNTER)
		heal_check(st, rng, ev);
	cw_check_end(st, ev);
	/* an army wiped out on its own turn: the next army's turn (3-4 armies) */
	if (st->phase >= CW_PH_MOVE && st->phase <= CW_PH_MELEE &&
	    (st->out & (1u << st->turn_seat)) && st->pending == CW_PEND_NONE)
		end_turn(st, rng, ev);
}

/* The seat is out (3-4 armies): an event, and it is never awaited again. */
static void
seat_out(struct cw_state *st, int seat, struct wr_list *ev)
{
	struct cw_event *e;
	st->out |= 1u << seat;
	if ((e = cw_ev_push(ev, CW_E_OUT, WR_VIS_PUBLIC)))
		e->seat = seat;
}

/* A seat leaves a match of 3-4 armies (rules.h resign): a question put to
 * it is declined, its army leaves the board, and play goes on. */
static void
resign_one_of_many(struct cw_state *st, int seat, struct wr_rng *rng, struct wr_list *ev)
{
	static const int decline[] = {
		[CW_PEND_COUNTER] = CW_A_ALLOW, [CW_PEND_HEAL] = CW_A_NO_HEAL,
		[CW_PEND_PROTECT] = CW_A_NO_PROTECT, [CW_PEND_DISPEL] = CW_A_NO_DISPEL,
		[CW_PEND_RCOUNTER] = CW_A_ALLOW,
	};
	if (st->phase == CW_PH_SETUP) {
		struct cw_side *sd = &st->side[seat];
		for (int k = 0; k < CW_UPS; k++) {
			cw_lift(st, seat * CW_UPS + k);
			memset(&st->u[seat * CW_UPS + k], 0, sizeof(st->u[0]));
			st->u[seat * CW_UPS + k].sq = CW_NONE;
		}
		memset(sd, 0, sizeof(*sd));
		sd->army = CW_NONE;
		seat_out(st, seat, ev);
		for (int s = 0; s < st->nseats; s++)
			if (!(st->out & (1u << s)) && st->side[s].stage != CW_STAGE_DONE)
				return;
		finish_setup(st, rng, ev);
		return;
	}
	/* its spell waiting for another seat's Counterspell fails with it */
	if (st->pending == CW_PEND_RCOUNTER && cw_unit_at(st, st->rx.unit) != CW_NONE &&
	    cw_seat_of(cw_unit_at(st, st->rx.unit)) == seat)
		cw_react_done(st, 1, rng, ev);
	/* a Dispel asked of its spell lapses (the spell ends with its army),
	 * and what that spell answered goes on */
	if ((st->pending == CW_PEND_DISPEL ||
	     (st->pending == CW_PEND_RCOUNTER && st->rx.type == CW_A_DISPEL)) &&
	    cw_seat_of(st->fx[st->dispel_fx].caster) == seat) {
		st->pending = CW_PEND_NONE;
		memset(&st->rx, 0, sizeof(st->rx));
		st->rx_seat = 0;
		cw_dispel_over(st, rng, ev);
	}
	while (st->phase != CW_PH_OVER && st->pending != CW_PEND_NONE && st->turn_seat != seat &&
	       (cw_to_act(st) & (1u << seat)) && st->pending < (int)(sizeof(decline) / sizeof(decline[0])) &&
	       decline[st->pending]) {
		struct cw_action a;
		memset(&a, 0, sizeof(a));
		a.type = decline[st->pending];
		a.unit = a.to = CW_NONE;
		cw_apply(st, seat, &a, rng, ev);
	}
	for (int k = 0; k < CW_UPS; k++) {
		int id = seat * CW_UPS + k;
		if (cw_on(st, id))
			cw_destroy(st, id, "resigned", ev);
		st->u[id].dying = st->u[id].regen = 0;
	}
	if (st->phase == CW_PH_OVER)
		return;
	if (st->turn_seat == seat) {
		st->pending = CW_PEND_NONE;
		st->nhitq = 0;
		memset(&st->held, 0, sizeof(st->held));
		memset(&st->cast, 0, sizeof(st->cast));
		memset(&st->rx, 0, sizeof(st->rx));
	}
	cw_check_end(st, ev);
	if (st->phase != CW_PH_OVER && st->turn_seat == seat)
		end_turn(st, rng, ev);
}

int
cw_resign(void *state, int seat, struct wr_rng *rng, struct wr_list *ev)
{
	struct cw_state *st = state;
	struct cw_event *e;

	if (seat < 0 || seat >= st->nseats)
		return -1;
	if (st->phase == CW_PH_OVER)
		return 0;
	if (st->nseats > 2) {
		resign_one_of_many(st, seat, rng, ev);
		return 0;
	}
	st->phase = CW_PH_OVER;
	st->pending = CW_PEND_NONE;
	st->winner = 1 - seat;
	snprintf(st->reason, sizeof(st->reason), "resignation");
	if ((e = cw_ev_push(ev, CW_E_OVER, WR_VIS_PUBLIC))) {
		e->seat = st->winner;
		snprintf(e->why, sizeof(e->why), "%s", st->reason);
	}
	return 0;
}

static void
game_over(struct cw_state *st, int winner, const char *why, struct wr_list *ev)
{
	struct cw_event *e;
	st->phase = CW_PH_OVER;
	st->pending = CW_PEND_NONE;
	st->nhitq = 0;
	st->winner = winner;
	snprintf(st->reason, sizeof(st->reason), "%s", why);
	if ((e = cw_ev_push(ev, CW_E_OVER, WR_VIS_PUBLIC))) {
		e->seat = st->winner;
		snprintf(e->why, sizeof(e->why), "%s", st->reason);
	}
}

/* C10: the match ends when a general dies; with total_massacre, when a side
 * has no units left. 3-4 armies (the expansion: "Total massacre rules
 * should be used"): an army wiped out is out, the last one standing wins. */
void
cw_check_end(struct cw_state *st, struct wr_list *ev)
{
	int lost[CW_SEATS], left = 0, last = CW_NONE;
	if (st->phase == CW_PH_OVER || st->phase == CW_PH_SETUP || st->phase == CW_PH_FIRST)
		return;
	if (st->nseats > 2) {
		for (int s = 0; s < st->nseats; s++) {
			if (!(st->out & (1u << s)) && cw_units_alive(st, s) == 0)
				seat_out(st, s, ev);
			if (!(st->out & (1u << s))) {
				left++;
				last = s;
			}
		}
		if (left <= 1)
			game_over(st, left ? last : CW_NONE,
			          left ? "the last army standing" : "every army wiped out", ev);
		return;
	}
	for (int s = 0; s < 2; s++)
		lost[s] = st->o.total_massacre ? cw_units_alive(st, s) == 0 : !cw_general_alive(st, s);
	if (!lost[0] && !lost[1])
		return;
	game_over(st, lost[0] && lost[1] ? CW_NONE : lost[0] ? 1 : 0,
	          st->o.total_massacre ? (lost[0] && lost[1] ? "both sides wiped out"
	                                                     : "the other side was wiped out")
	                               : (lost[0] && lost[1] ? "both generals died"
	                                                     : "the enemy general died"), ev);
}
