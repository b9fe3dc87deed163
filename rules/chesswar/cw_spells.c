/*
 * ChessWar's spells (C9): what a wizard may cast and when, a spell taking
 * effect, and the reactions on the enemy's turn: Counterspell, Dispel, Heal
 * and Protection, each by its seat's standing order or asked (G3). Uses
 * cw_units.c and cw_combat.c (Zap! is a ranged hit); cw_rules.c calls it.
 */
#include <stdio.h>
#include <string.h>

#include "cw_rules.h"

/* A candidate: unit `id` casts spell `sp` (its target set by the caller),
 * or NULL when memory ran out. */
static struct cw_action *
cast_cand(const struct cw_state *st, struct wr_list *out, int id, int sp)
{
	struct cw_action *a = cw_cand(out, CW_A_CAST);
	if (a) {
		a->unit = st->u[id].sq;
		a->spell = sp;
	}
	return a;
}

void
cw_cand_casts(const struct cw_state *st, int seat, int id, struct wr_list *out)
{
	const struct cw_unit_def *d = cw_def(st, id);
	int nsq = st->board.files * st->board.ranks;
	for (int sp = 0; sp < CW_SPELL_MAX; sp++) {
		struct cw_action *a;
		int when = cw_spells[sp].when;
		if (!(d->spells & (1u << sp)))
			continue;
		/* only the spells of this phase (a superset still: legal() decides) */
		if ((when == CW_WHEN_MOVE && st->phase != CW_PH_MOVE) ||
		    (when == CW_WHEN_SHOOT && st->phase != CW_PH_SHOOT) ||
		    (when == CW_WHEN_MELEE && st->phase != CW_PH_MELEE))
			continue;
		switch (cw_spells[sp].target) {
		case CW_ST_NONE:
			cast_cand(st, out, id, sp);
			break;
		case CW_ST_ENEMY_SEEN:
		case CW_ST_OWN:
		case CW_ST_OWN_MELEE:
			for (int t = 0; t < CW_UNITS; t++) {
				if (!cw_on(st, t) || (cw_seat_of(t) == seat) !=
				                         (cw_spells[sp].target != CW_ST_ENEMY_SEEN) ||
				    cw_dist(st, st->u[id].sq, st->u[t].sq) > cw_spells[sp].range)
					continue;
				if ((a = cast_cand(st, out, id, sp)))
					a->to = st->u[t].sq;
			}
			break;
		case CW_ST_EFFECT:
			for (int f = 0; f < st->nfx; f++) {
				if ((a = cast_cand(st, out, id, sp)))
					a->effect = f;
			}
			break;
		case CW_ST_FLIGHT:
			for (int t = seat * CW_UPS; t < (seat + 1) * CW_UPS; t++) {
				int dist[CW_MAX_SQ], prev[CW_MAX_SQ];
				struct cw_mover m;
				if (!cw_on(st, t) || cw_dist(st, st->u[id].sq, st->u[t].sq) > 4)
					continue;
				cw_mover_flight(st, t, &m);
				cw_reach(st, &m, dist, prev);
				for (int sq = 0; sq < nsq; sq++) {
					if (dist[sq] <= 0)
						continue;
					if ((a = cast_cand(st, out, id, sp))) {
						a->to = st->u[t].sq;
						a->target2 = sq;
					}
				}
			}
			break;
		case CW_ST_RAISE: {
			int armyt = cw_armies[st->side[seat].army].ntypes;
			for (int ty = 1; ty < armyt; ty++)
				for (int dd = 0; dd < WR_DIRS; dd++) {
					int sq = wr_step(&st->board, st->u[id].sq, dd);
					if (sq < 0)
						continue;
					if ((a = cast_cand(st, out, id, sp))) {
						snprintf(a->utype, sizeof(a->utype), "%s",
						         cw_armies[st->side[seat].army].units[ty].slug);
						a->to = sq;
					}
				}
			break;
		}
		default:
			break;
		}
	}
}

/* The wizard may cast `sp` now (C9): it knows the spell, has not cast this
 * turn, and the spell's timing fits the phase. */
static int
cast_timing(const struct cw_state *st, int id, int sp, struct wr_error *err)
{
	const struct cw_spell *s = &cw_spells[sp];
	const struct cw_unit *u = &st->u[id];
	if (!(cw_def(st, id)->spells & (1u << sp)))
		return wr_fail(err, "unknown-spell", "spell", "this unit cannot cast %s", s->name);
	if (u->cast)
		return wr_fail(err, "spell-used", "spell",
		               "a wizard casts one spell each turn (an instant spell on the enemy's "
		               "turn uses up its next one)");
	switch (s->when) {
	case CW_WHEN_MOVE:
		if (st->phase != CW_PH_MOVE)
			return wr_fail(err, "wrong-phase", "spell",
			               "%s is a move spell, cast in the movement phase", s->name);
		if ((u->moved || u->done_moving) && st->last_moved != id)
			return wr_fail(err, "not-after-move", "spell",
			               "a move spell is cast immediately after the wizard has moved");
		if (cw_in_melee(st, id) && sp != CW_SPELL_FLIGHT)
			return wr_fail(err, "in-melee", "spell",
			               "a wizard in melee cannot cast a move spell (but Flight on "
			               "himself)");
		return 0;
	case CW_WHEN_SHOOT:
		if (st->phase != CW_PH_SHOOT)
			return wr_fail(err, "wrong-phase", "spell",
			               "%s is a shoot spell, cast in the shooting phase", s->name);
		if (cw_in_melee(st, id))
			return wr_fail(err, "in-melee", "spell",
			               "a wizard in melee combat cannot cast a shoot spell");
		if (u->shot)
			return wr_fail(err, "already-shot", "spell", "this unit has already fired");
		return 0;
	case CW_WHEN_MELEE:
		if (st->phase != CW_PH_MELEE)
			return wr_fail(err, "wrong-phase", "spell",
			               "%s is a melee spell, cast in the melee phase", s->name);
		return 0;
	default:
		if (s->target == CW_ST_REACTION)
			return wr_fail(err, "reaction-only", "spell",
			               "%s is cast only as a reaction (see README)", s->name);
		return 0;
	}
}

int
cw_legal_cast(const struct cw_state *st, int seat, int id, const struct cw_action *a,
           struct wr_error *err)
{
	const struct cw_spell *s;
	int t;
	if (a->spell < 0 || a->spell >= CW_SPELL_MAX)
		return wr_fail(err, "unknown-spell", "spell", "no such spell");
	s = &cw_spells[a->spell];
	if (cast_timing(st, id, a->spell, err))
		return -1;
	switch (s->target) {
	case CW_ST_NONE:
		if (st->nfx >= CW_MAX_FX)
			return wr_fail(err, "too-many-spells", "spell",
			               "%d temporal spells are in effect already", CW_MAX_FX);
		return 0;
	case CW_ST_ENEMY_SEEN:
		t = cw_unit_at(st, a->to);
		if (t == CW_NONE || cw_seat_of(t) == seat)
			return wr_fail(err, "no-enemy", "target", "there is no enemy unit there");
		if (cw_dist(st, st->u[id].sq, a->to) > s->range)
			return wr_fail(err, "out-of-range", "target", "%s reaches %d squares", s->name,
			               s->range);
		if (!cw_sees(st, st->u[id].sq, a->to))
			return wr_fail(err, "no-line-of-sight", "target",
			               "the wizard does not see that unit");
		return 0;
	case CW_ST_OWN:
	case CW_ST_OWN_MELEE:
		t = cw_unit_at(st, a->to);
		if (t == CW_NONE || cw_seat_of(t) != seat)
			return wr_fail(err, "not-your-unit", "target", "there is no own unit there");
		if (cw_dist(st, st->u[id].sq, a->to) > s->range)
			return wr_fail(err, "out-of-range", "target", "%s reaches %d squares", s->name,
			               s->range);
		if (s->target == CW_ST_OWN_MELEE && (!cw_in_melee(st, t) || st->u[t].attacked))
			return wr_fail(err, "not-in-melee", "target",
			               "Strike is for an own unit in melee that has not attacked yet");
		if (s->temporal && st->nfx >= CW_MAX_FX)
			return wr_fail(err, "too-many-spells", "spell", "too many spells in effect");
		return 0;
	case CW_ST_EFFECT:
		if (a->effect < 0 || a->effect >= st->nfx)
			return wr_fail(err, "no-such-effect", "effect", "no such spell in effect");
		return 0;
	case CW_ST_FLIGHT:
		t = cw_unit_at(st, a->to);
		if (t == CW_NONE || cw_seat_of(t) != seat)
			return wr_fail(err, "not-your-unit", "target", "there is no own unit there");
		if (cw_dist(st, st->u[id].sq, a->to) > s->range)
			return wr_fail(err, "out-of-range", "target", "Flight reaches units within %d",
			               s->range);
		if (cw_in_melee(st, id) && t != id)
			return wr_fail(err, "in-melee", "target",
			               "a wizard in melee may cast Flight only on himself");
		if (cw_in_melee(st, t) && t != id)
			return wr_fail(err, "in-melee", "target",
			               "only the wizard himself flies out of a melee");
		{
			struct cw_mover m;
			int path[CW_MAX_PATH];
			cw_mover_flight(st, t, &m);
			if (cw_route(st, &m, a->target2, path) == 0)
				return wr_fail(err, "bad-destination", "to",
				               "Flight ends on an empty square within %d squares",
				               CW_FLIGHT_STEPS);
		}
		return 0;
	case CW_ST_RAISE: {
		int found = 0, ut = cw_type_lookup(st->side[seat].army, a->utype);
		if (ut == CW_NONE)
			return wr_fail(err, "unknown-unit", "raise", "no such unit in your army");
		if (ut == 0)
			return wr_fail(err, "cannot-raise", "raise", "a general cannot be raised");
		for (int k = 1; k < CW_UPS; k++) {
			const struct cw_unit *u = &st->u[seat * CW_UPS + k];
			if (u->status == CW_U_DEAD && u->type == ut && !u->regen)
				found = 1;
		}
		if (cw_armies[st->side[seat].army].units[ut].special & CW_SP_REGENERATE)
			return wr_fail(err, "cannot-raise", "raise", "a Regenerate unit cannot be raised");
		if (!found)
			return wr_fail(err, "none-destroyed", "raise",
			               "no unit of that type has been destroyed");
		if (a->to < 0 || cw_dist(st, st->u[id].sq, a->to) != 1 ||
		    cw_unit_at(st, a->to) != CW_NONE)
			return wr_fail(err, "bad-destination", "to",
			               "the unit returns to an empty square next to the wizard");
		return 0;
	}
	default:
		return wr_fail(err, "reaction-only", "spell", "%s is cast only as a reaction",
		               s->name);
	}
}

void
cw_remove_fx(struct cw_state *st, int i, struct wr_list *ev)
{
	struct cw_event *e = cw_ev_push(ev, CW_E_SPELL_END, WR_VIS_PUBLIC);
	if (e) {
		cw_ev_unit(st, e, st->fx[i].caster);
		e->spell = st->fx[i].spell;
	}
	memmove(&st->fx[i], &st->fx[i + 1], (size_t)(st->nfx - i - 1) * sizeof(st->fx[0]));
	st->nfx--;
}

/* The spell takes effect (not countered). */
void
cw_resolve_cast(struct cw_state *st, const struct cw_action *a, int id, struct wr_rng *rng,
             struct wr_list *ev)
{
	int t = a->to >= 0 ? cw_unit_at(st, a->to) : CW_NONE;
	struct cw_event *e;
	switch (a->spell) {
	case CW_SPELL_CONTAGION:
	case CW_SPELL_FEAR:
	case CW_SPELL_STORM:
	case CW_SPELL_PROTECTION:
		st->fx[st->nfx++] = (struct cw_effect){a->spell, id, t};
		st->dispel_fx = st->nfx - 1;
		cw_dispel_ask(st, 0, rng, ev);
		break;
	case CW_SPELL_ZAP:
		st->shot_from = st->u[id].sq;
		st->shot_aim = st->shot_land = a->to;
		cw_ranged_hit(st, t, CW_W_NONE, rng, ev);
		break;
	case CW_SPELL_DISPEL:
		cw_remove_fx(st, a->effect, ev);
		break;
	case CW_SPELL_STRIKE:
		st->u[t].strike = 1;
		break;
	case CW_SPELL_FLIGHT:
		e = cw_ev_push(ev, CW_E_FLIGHT, WR_VIS_PUBLIC);
		cw_ev_unit(st, e, t);
		if (e)
			e->sq = a->target2;
		cw_unlink_all(st, t);
		cw_put(st, t, a->target2);
		st->u[t].moved = 1;
		st->last_moved = t;
		break;
	case CW_SPELL_RAISE_DEAD:
		for (int k = 1; k < CW_UPS; k++) {
			int r = cw_seat_of(id) * CW_UPS + k;
			struct cw_unit *u = &st->u[r];
			if (u->status == CW_U_DEAD &&
			    u->type == cw_type_lookup(st->side[cw_seat_of(id)].army, a->utype) &&
			    !u->regen) {
				u->sq = CW_NONE;
				cw_put(st, r, a->to);
				u->link = 0;
				/* it may not move or charge, but it did not move (Bows) */
				u->done_moving = u->charged = 1;
				e = cw_ev_push(ev, CW_E_RAISE, WR_VIS_PUBLIC);
				cw_ev_unit(st, e, r);
				break;
			}
		}
		break;
	default:
		break;
	}
}

/* A standing order about spells (G3): 1 react, 0 not, -1 ask. */
static int
spell_order(int order, unsigned mask, int spell)
{
	switch (order) {
	case 1: return 1;
	case 2: return 0;
	case 3: return (mask >> spell) & 1;
	default: return -1;
	}
}

/* The seat's first wizard that knows `spell` and has its spell unused. */
static int
wizard_with(const struct cw_state *st, int seat, int spell)
{
	for (int k = 0; k < CW_UPS; k++) {
		int id = seat * CW_UPS + k;
		if (cw_on(st, id) && (cw_def(st, id)->spells & (1u << spell)) && !st->u[id].cast)
			return id;
	}
	return CW_NONE;
}

int
cw_dispeller(const struct cw_state *st, int seat)
{
	return wizard_with(st, seat, CW_SPELL_DISPEL);
}

/* "Instant spells can be cast anytime, even on enemy's turn!" (C9,
 * amended): Dispel is asked as soon as an enemy temporal spell is cast. */
void
cw_dispel_ask(struct cw_state *st, int from, struct wr_rng *rng, struct wr_list *ev)
{
	const struct cw_effect *f = &st->fx[st->dispel_fx];
	for (int s = from; s < st->nseats; s++) {
		int w = cw_dispeller(st, s), order;
		if (s == cw_seat_of(f->caster) || w == CW_NONE)
			continue;
		order = spell_order(st->side[s].dispel_order, st->side[s].dispel_mask, f->spell);
		if (order == 0)
			continue;
		if (order == 1) {
			struct cw_action rx = {.type = CW_A_DISPEL, .unit = st->u[w].sq, .to = CW_NONE};
			st->react_seat = s;
			cw_react(st, &rx, rng, ev);
			return;
		}
		st->pending = CW_PEND_DISPEL;
		st->react_seat = s;
		return;
	}
}

int
cw_counter_roll(struct cw_state *st, int wiz, int spell, struct wr_rng *rng, struct wr_list *ev)
{
	int face = (int)wr_die(rng, 6);
	struct cw_event *e = cw_ev_roll(st, ev, CW_E_COUNTER, wiz, CW_NONE, face);
	st->u[wiz].cast = 1;
	/* on the enemy's turn it uses up its next turn's spell (C9) */
	if (cw_seat_of(wiz) != st->turn_seat)
		st->u[wiz].instant = 1;
	if (e) {
		e->spell = spell;
		e->need = 4;
		e->ok = face >= 4;
	}
	return face >= 4;
}

int
cw_do_counter(struct cw_state *st, int wiz, struct wr_rng *rng, struct wr_list *ev)
{
	st->pending = CW_PEND_NONE;
	return cw_counter_roll(st, wiz, st->cast.spell, rng, ev);
}

int
cw_counterer(const struct cw_state *st, int seat)
{
	return wizard_with(st, seat, CW_SPELL_COUNTERSPELL);
}

int
cw_counter_seek(struct cw_state *st, int from, int caster_seat, int spell, struct wr_rng *rng,
                struct wr_list *ev, int *asked)
{
	for (int s = from; s < st->nseats; s++) {
		int wiz = cw_counterer(st, s), order;
		if (s == caster_seat || wiz == CW_NONE)
			continue;
		order = spell_order(st->side[s].counter_order, st->side[s].counter_mask, spell);
		if (order == 0)
			continue;
		if (order == 1) {
			if (cw_counter_roll(st, wiz, spell, rng, ev))
				return 1;
			s--; /* its next unused wizard tries too (this one has cast) */
			continue;
		}
		*asked = s;
		return -1;
	}
	return 0;
}

void
cw_counter_ask(struct cw_state *st, int from, struct wr_rng *rng, struct wr_list *ev)
{
	int caster = cw_unit_at(st, st->cast.unit), asked;
	int r = cw_counter_seek(st, from, cw_seat_of(caster), st->cast.spell, rng, ev, &asked);

	st->pending = CW_PEND_NONE;
	if (r < 0) {
		st->pending = CW_PEND_COUNTER;
		st->react_seat = asked;
	} else if (r == 0) {
		cw_resolve_cast(st, &st->cast, caster, rng, ev);
	}
}

void
cw_apply_cast(struct cw_state *st, int seat, int id, const struct cw_action *a, struct wr_rng *rng,
           struct wr_list *ev)
{
	struct cw_event *e = cw_ev_push(ev, CW_E_CAST, WR_VIS_PUBLIC);
	(void)seat;
	cw_ev_unit(st, e, id);
	if (e) {
		e->spell = a->spell;
		e->sq = a->spell == CW_SPELL_FLIGHT ? a->target2 : a->to;
		if (a->to >= 0 && cw_unit_at(st, a->to) != CW_NONE)
			cw_ev_other(st, e, cw_unit_at(st, a->to));
		if (a->spell == CW_SPELL_DISPEL) {
			e->value = st->fx[a->effect].spell;
			e->other = st->fx[a->effect].caster;
		}
	}
	st->u[id].cast = 1;
	/* A move spell ends the wizard's move, but a wizard that did not leave
	 * its square has not moved (Bows "-1 the firer moved", Crossbows "no
	 * move and fire") */
	if (cw_spells[a->spell].when == CW_WHEN_MOVE) {
		st->u[id].done_moving = 1;
		st->last_moved = id;
	}
	if (cw_spells[a->spell].when == CW_WHEN_SHOOT)
		st->u[id].shot = 1;
	st->cast = *a;
	cw_counter_ask(st, 0, rng, ev);
}

/* Heal decisions (C9, provisional): after an action, a seat with units
 * destroyed by it that a wizard of its own may Heal decides, by its
 * standing order or when asked; the follow-up waits for it. */
void
cw_heal_done(struct cw_state *st, int seat)
{
	for (int k = 0; k < CW_UPS; k++)
		st->u[seat * CW_UPS + k].dying = 0;
}

int
cw_heal_possible(const struct cw_state *st, int seat)
{
	for (int k = 0; k < CW_UPS; k++) {
		int d = seat * CW_UPS + k;
		if (st->u[d].dying && cw_healer_for(st, d) != CW_NONE)
			return 1;
	}
	return 0;
}

void
cw_do_heal(struct cw_state *st, int w, int d, struct wr_rng *rng, struct wr_list *ev)
{
	int face = (int)wr_die(rng, 6);
	struct cw_event *e = cw_ev_roll(st, ev, CW_E_HEAL, w, d, face);
	struct cw_unit *u = &st->u[d];
	st->u[w].cast = 1;
	if (cw_seat_of(w) != st->turn_seat)
		st->u[w].instant = 1;
	u->dying = 0;
	if (e) {
		e->need = 4;
		e->ok = face >= 4 && cw_unit_at(st, u->sq) == CW_NONE;
	}
	if (face < 4 || cw_unit_at(st, u->sq) != CW_NONE)
		return;
	cw_put(st, d, u->sq);
	u->regen = 0;
	for (int j = 0; j < CW_UNITS; j++)
		if (((u->was_link >> j) & 1) && cw_on(st, j))
			cw_link(st, d, j);
	u->was_link = 0;
}

/* Another seat than `seat` has a wizard that could answer a spell of
 * `seat` by Counterspell or Dispel: its standing order (private, G3) or
 * its being asked decides what happens next. Decided from the board,
 * which every seat sees. */
static int
reaction_possible(const struct cw_state *st, int seat)
{
	for (int s = 0; s < st->nseats; s++)
		if (s != seat && (cw_counterer(st, s) != CW_NONE || cw_dispeller(st, s) != CW_NONE))
			return 1;
	return 0;
}

/* RULINGS.md G7: a post that cast a spell (on its turn or in answer), or
 * answered a question about one, where another seat could react, showed
 * the poster that seat's standing order: the spell took effect, stood or
 * was countered without a question (an order), or the match waits for
 * that seat (none). Even with no die drawn, the post cannot be taken back.
 * Decided from what the poster saw, so a refused undo tells nothing
 * either. */
int
cw_undo_barrier(const void *before, const void *after, int seat, const struct wr_events *ev)
{
	const struct cw_state *a = before, *b = after;
	int acted = a->pending == CW_PEND_COUNTER || a->pending == CW_PEND_DISPEL ||
	            a->pending == CW_PEND_RCOUNTER;

	(void)ev;
	if (seat < 0 || seat >= a->nseats || a->phase < CW_PH_MOVE || a->phase > CW_PH_MELEE)
		return 0;
	/* a spell of its own, on its turn or in answer (C9: any spell may be
	 * countered) */
	for (int k = 0; k < CW_UPS && !acted; k++)
		acted = !a->u[seat * CW_UPS + k].cast && b->u[seat * CW_UPS + k].cast;
	return acted && reaction_possible(a, seat);
}

/* The same for a draft's dry run (POST .../preview): a cast, a spell cast
 * in answer, or an answer to a question about a spell, may meet another
 * seat's order, so the draft ends there whatever that order is. */
int
cw_may_reveal(const void *state, int seat, json_object *action)
{
	static const char *const spell_acts[] = {"cast",         "protect", "heal", "dispel",
	                                         "counterspell", "allow",   "no_dispel"};
	const struct cw_state *st = state;
	json_object *t;
	const char *type;

	if (seat < 0 || seat >= st->nseats || st->phase < CW_PH_MOVE || st->phase > CW_PH_MELEE)
		return 0;
	if (!json_object_object_get_ex(action, "type", &t) || !json_object_is_type(t, json_type_string))
		return 0;
	type = json_object_get_string(t);
	for (size_t i = 0; i < sizeof(spell_acts) / sizeof(spell_acts[0]); i++)
		if (strcmp(type, spell_acts[i]) == 0)
			return reaction_possible(st, seat);
	return 0;
}
