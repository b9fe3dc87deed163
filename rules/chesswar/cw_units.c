/*
 * ChessWar's units on the board, shared by every rule file: lookups, the
 * Specials as one function each (brave, scary, plague), who may still cast
 * a reaction spell, line of sight (C6), scatter directions (G1) and the
 * event shells. Depends on nothing else of the ruleset.
 */
#include <stdio.h>
#include <string.h>

#include "cw_rules.h"

struct los_ctx {
	const struct cw_state *st;
	int over_units;           /* a hill at either end: units do not block (C11) */
};

int
cw_seat_of(int id)
{
	return id / CW_UPS;
}

const struct cw_unit_def *
cw_def(const struct cw_state *st, int id)
{
	int army = st->side[cw_seat_of(id)].army;
	if (army < 0)
		army = 0;
	return &cw_armies[army].units[st->u[id].type];
}

int
cw_on(const struct cw_state *st, int id)
{
	return id >= 0 && id < CW_UNITS && st->u[id].status == CW_U_ON;
}

int
cw_unit_at(const struct cw_state *st, int sq)
{
	if (sq < 0 || sq >= CW_MAX_SQ)
		return CW_NONE;
	return st->at[sq] - 1;
}

void
cw_lift(struct cw_state *st, int id)
{
	int sq = st->u[id].sq;
	if (sq >= 0 && st->at[sq] == id + 1)
		st->at[sq] = 0;
}

void
cw_put(struct cw_state *st, int id, int sq)
{
	cw_lift(st, id);
	st->u[id].status = CW_U_ON;
	st->u[id].sq = (int16_t)sq;
	st->at[sq] = (int8_t)(id + 1);
}

void
cw_rebuild_at(struct cw_state *st)
{
	memset(st->at, 0, sizeof(st->at));
	for (int i = 0; i < CW_UNITS; i++)
		if (st->u[i].status == CW_U_ON && st->u[i].sq >= 0 && st->u[i].sq < CW_MAX_SQ)
			st->at[st->u[i].sq] = (int8_t)(i + 1);
}

int
cw_in_melee(const struct cw_state *st, int id)
{
	return st->u[id].link != 0;
}

int
cw_dist(const struct cw_state *st, int a, int b)
{
	return wr_chebyshev(&st->board, a, b);
}

static int
fx_active(const struct cw_state *st, int spell, int seat)
{
	for (int i = 0; i < st->nfx; i++)
		if (st->fx[i].spell == spell && (seat < 0 || cw_seat_of(st->fx[i].caster) == seat))
			return 1;
	return 0;
}

int
cw_storms(const struct cw_state *st)
{
	return fx_active(st, CW_SPELL_STORM, -1);
}

/* Undead: "brave, scary, immune to plague" (Undead army list). */
int
cw_is_brave(const struct cw_state *st, int id)
{
	unsigned s = cw_def(st, id)->special;
	return (s & (CW_SP_BRAVE | CW_SP_UNDEAD)) != 0;
}

int
cw_is_scary(const struct cw_state *st, int id)
{
	unsigned s = cw_def(st, id)->special;
	int seat = cw_seat_of(id);
	if (s & (CW_SP_SCARY | CW_SP_UNDEAD))
		return 1;
	/* Fear (C9, provisional): own units within 4 squares of the wizard */
	for (int i = 0; i < st->nfx; i++) {
		const struct cw_effect *f = &st->fx[i];
		if (f->spell == CW_SPELL_FEAR && cw_seat_of(f->caster) == seat && cw_on(st, f->caster) &&
		    st->u[id].status == CW_U_ON &&
		    cw_dist(st, st->u[f->caster].sq, st->u[id].sq) <= cw_spells[CW_SPELL_FEAR].range)
			return 1;
	}
	return 0;
}

int
cw_has_plague(const struct cw_state *st, int id)
{
	return (cw_def(st, id)->special & CW_SP_PLAGUE) ||
	       fx_active(st, CW_SPELL_CONTAGION, cw_seat_of(id));
}

/* "Plague: ... Immune to plague." Undead: "immune to plague". */
int
cw_immune_plague(const struct cw_state *st, int id)
{
	return cw_has_plague(st, id) || (cw_def(st, id)->special & CW_SP_UNDEAD);
}

/* A unit awaiting a Heal decision is not dead yet (C9, C10). */
static int
standing(const struct cw_unit *u)
{
	return u->status == CW_U_ON || (u->status == CW_U_DEAD && u->dying);
}

int
cw_general_alive(const struct cw_state *st, int seat)
{
	return standing(&st->u[seat * CW_UPS]);
}

int
cw_healer_for(const struct cw_state *st, int id)
{
	int seat = cw_seat_of(id);
	for (int k = 0; k < CW_UPS; k++) {
		int w = seat * CW_UPS + k;
		if (w != id && cw_on(st, w) && (cw_def(st, w)->spells & (1u << CW_SPELL_HEAL)) &&
		    !st->u[w].cast &&
		    cw_dist(st, st->u[w].sq, st->u[id].sq) <= cw_spells[CW_SPELL_HEAL].range)
			return w;
	}
	return CW_NONE;
}

int
cw_units_alive(const struct cw_state *st, int seat)
{
	int n = 0;
	for (int k = 0; k < CW_UPS; k++) {
		const struct cw_unit *u = &st->u[seat * CW_UPS + k];
		n += standing(u) || (u->status == CW_U_DEAD && u->regen);
	}
	return n;
}

/* An own wizard that may cast Protection on `id` now, on the enemy's turn,
 * as a reaction (C9: instant spells "even on enemy's turn"), or CW_NONE. */
int
cw_protector_for(const struct cw_state *st, int id)
{
	int seat = cw_seat_of(id);
	if (st->nfx >= CW_MAX_FX)
		return CW_NONE;
	for (int i = 0; i < st->nfx; i++)
		if (st->fx[i].spell == CW_SPELL_PROTECTION && st->fx[i].target == id)
			return CW_NONE;
	for (int k = 0; k < CW_UPS; k++) {
		int w = seat * CW_UPS + k;
		if (cw_on(st, w) && (cw_def(st, w)->spells & (1u << CW_SPELL_PROTECTION)) &&
		    !st->u[w].cast &&
		    cw_dist(st, st->u[w].sq, st->u[id].sq) <= cw_spells[CW_SPELL_PROTECTION].range)
			return w;
	}
	return CW_NONE;
}

static int
los_blocks(int sq, void *p)
{
	const struct los_ctx *c = p;
	if (sq < 0)
		return 1;
	if (c->st->o.terrain[sq] != CW_T_OPEN)
		return 1;
	return !c->over_units && cw_unit_at(c->st, sq) != CW_NONE;
}

/* "Visibility is determined from center of firer's square to center of
 * target's square" (Shooting; RULINGS.md C6: wr_line_of_sight). */
int
cw_sees(const struct cw_state *st, int from, int to)
{
	struct los_ctx c = {st, st->o.terrain[from] == CW_T_HILL || st->o.terrain[to] == CW_T_HILL};
	if (from == to)
		return 1;
	return wr_line_of_sight(&st->board, from, to, los_blocks, &c);
}

/* Some own unit other than `except` sees the square. */
int
cw_seen_by_seat(const struct cw_state *st, int seat, int to, int except)
{
	for (int k = 0; k < CW_UPS; k++) {
		int id = seat * CW_UPS + k;
		if (id != except && cw_on(st, id) && cw_sees(st, st->u[id].sq, to))
			return 1;
	}
	return 0;
}

/* "number 1 is one square toward the other end of the board" (Catapults):
 * over, right, short, left as the firing seat sits (G1: seat 0 at rank 1,
 * 1 at the last rank, 2 at file a, 3 at the last file). */
void
cw_dir_of_seat(int seat, int roll, int *df, int *dr)
{
	/* forward (file, rank) and right (file, rank) of each seat */
	static const int fwd[CW_SEATS][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};
	static const int right[CW_SEATS][2] = {{1, 0}, {-1, 0}, {0, -1}, {0, 1}};
	int s = seat >= 0 && seat < CW_SEATS ? seat : 0;
	*df = 0;
	*dr = 0;
	switch (roll) {
	case 1: *df = fwd[s][0]; *dr = fwd[s][1]; break;
	case 2: *df = right[s][0]; *dr = right[s][1]; break;
	case 3: *df = -fwd[s][0]; *dr = -fwd[s][1]; break;
	case 4: *df = -right[s][0]; *dr = -right[s][1]; break;
	default: break;
	}
}

/* The next seat in turn order after `seat` that is still in (3-4 armies:
 * a wiped-out army is out); *wrapped set when the round starts again. */
int
cw_next_seat(const struct cw_state *st, int seat, int *wrapped)
{
	int at = 0;
	for (int i = 0; i < st->nseats; i++)
		if (st->order[i] == seat)
			at = i;
	*wrapped = 0;
	for (int k = 1; k <= st->nseats; k++) {
		int i = (at + k) % st->nseats, s = st->order[i];
		if (i <= at)
			*wrapped = 1;
		if (!(st->out & (1u << s)))
			return s;
	}
	return seat;
}

struct cw_event *
cw_ev_push(struct wr_list *ev, int type, unsigned vis)
{
	struct cw_event *e = wr_list_push(ev);
	if (!e)
		return NULL;
	e->type = type;
	e->vis = vis;
	e->seat = e->unit = e->other = e->sq = e->usq = e->osq = CW_NONE;
	e->utype = e->otype = e->spell = e->army = CW_NONE;
	return e;
}

void
cw_ev_unit(const struct cw_state *st, struct cw_event *e, int id)
{
	if (!e)
		return;
	e->unit = id;
	e->utype = st->u[id].type;
	e->usq = st->u[id].sq;
	e->seat = cw_seat_of(id);
}

void
cw_ev_other(const struct cw_state *st, struct cw_event *e, int id)
{
	if (!e)
		return;
	e->other = id;
	e->otype = st->u[id].type;
	e->osq = st->u[id].sq;
}

struct cw_event *
cw_ev_roll(const struct cw_state *st, struct wr_list *ev, int type, int id, int other, int face)
{
	struct cw_event *e = cw_ev_push(ev, type, WR_VIS_PUBLIC);
	if (!e)
		return NULL;
	cw_ev_unit(st, e, id);
	if (other != CW_NONE)
		cw_ev_other(st, e, other);
	e->faces[0] = face;
	e->nfaces = 1;
	return e;
}

void
cw_unlink_all(struct cw_state *st, int id)
{
	for (int i = 0; i < CW_UNITS; i++)
		st->u[i].link &= ~(CW_BIT(id));
	st->u[id].link = 0;
}

/* A candidate action of `type` with nothing chosen yet, or NULL. */
struct cw_action *
cw_cand(struct wr_list *out, int type)
{
	struct cw_action *a = wr_list_push(out);
	if (!a)
		return NULL;
	a->type = type;
	a->army = a->unit = a->to = a->spell = a->effect = a->target2 = CW_NONE;
	a->count = 1;
	return a;
}
