/*
 * ChessWar's set-up (RULINGS.md C1, C2): the start state, army building
 * within points and Max, the secret deployment on the seat's set-up area.
 * What follows once every seat is in (the reveal, C3's initiative) is
 * cw_rules.c's. Uses cw_units.c only.
 */
#include <stdio.h>
#include <string.h>

#include "cw_rules.h"

void
cw_init(struct cw_state *st, const struct cw_opts *o)
{
	memset(st, 0, sizeof(*st));
	st->o = *o;
	st->board.files = o->files;
	st->board.ranks = o->ranks;
	st->nseats = o->seats >= 2 && o->seats <= CW_SEATS ? o->seats : 2;
	for (int s = 0; s < CW_SEATS; s++)
		st->order[s] = (int8_t)s;
	st->phase = CW_PH_SETUP;
	st->first_seat = st->rolloff_winner = CW_NONE;
	st->last_moved = st->pend_unit = st->pend_from = CW_NONE;
	st->winner = CW_NONE;
	st->shot_from = st->shot_aim = st->shot_land = CW_NONE;
	for (int s = 0; s < CW_SEATS; s++)
		st->side[s].army = CW_NONE;
	for (int i = 0; i < CW_UNITS; i++)
		st->u[i].sq = CW_NONE;
}

/* RULINGS.md C2: the seat's two nearest ranks (G1; seats 2 and 3 at the
 * files a and the last: their two nearest files). With 3-4 armies the 2x2
 * corners, where two areas would meet, are no one's (deployment is secret:
 * no one can place first there). */
int
cw_in_setup_area(const struct cw_state *st, int seat, int sq)
{
	int f = wr_file(&st->board, sq), r = wr_rank(&st->board, sq);
	int nf = st->board.files, nr = st->board.ranks;
	if (st->nseats > 2 && (f < 2 || f >= nf - 2) && (r < 2 || r >= nr - 2))
		return 0;
	switch (seat) {
	case 0: return r <= 1;
	case 1: return r >= nr - 2;
	case 2: return f <= 1;
	case 3: return f >= nf - 2;
	default: return 0;
	}
}

/* How many units the seat's set-up area holds. */
static int
area_size(const struct cw_state *st, int seat)
{
	int n = 0;
	for (int sq = 0; sq < st->board.files * st->board.ranks; sq++)
		n += cw_in_setup_area(st, seat, sq);
	return n;
}

static int
army_size(const struct cw_side *sd)
{
	int n = 1;
	for (int t = 0; t < CW_TYPES; t++)
		n += sd->counts[t];
	return n;
}

int
cw_reserve_of_type(const struct cw_state *st, int seat, int type)
{
	for (int k = 0; k < CW_UPS; k++) {
		const struct cw_unit *u = &st->u[seat * CW_UPS + k];
		if (u->status == CW_U_RESERVE && u->type == type)
			return seat * CW_UPS + k;
	}
	return CW_NONE;
}

int
cw_legal_setup(const struct cw_state *st, int seat, const struct cw_action *a, struct wr_error *err)
{
	const struct cw_side *sd = &st->side[seat];
	const struct cw_army *ar = sd->army >= 0 ? &cw_armies[sd->army] : NULL;
	int id, ut = ar ? cw_type_lookup(sd->army, a->utype) : CW_NONE;
	switch (a->type) {
	case CW_A_ARMY:
		if (sd->stage > CW_STAGE_BUILD)
			return wr_fail(err, "army-built", "army", "your army is already built");
		if (a->army < 0 || a->army >= CW_ARMY_MAX)
			return wr_fail(err, "unknown-army", "army", "no such army");
		return 0;
	case CW_A_BUY:
	case CW_A_SELL:
	case CW_A_READY:
		if (sd->stage != CW_STAGE_BUILD)
			return wr_fail(err, "not-building", "type",
			               sd->stage == CW_STAGE_ARMY ? "choose an army first"
			                                          : "your army is already built");
		if (a->type == CW_A_READY)
			return 0;
		if (ut == CW_NONE)
			return wr_fail(err, "unknown-unit", "unit", "no such unit in this army");
		if (ut == 0)
			return wr_fail(err, "general", "unit",
			               "the general is always taken, once, and free (C1)");
		if (a->count < 1)
			return wr_fail(err, "bad-count", "count", "count is at least 1");
		if (a->type == CW_A_SELL) {
			if (sd->counts[ut] < a->count)
				return wr_fail(err, "not-bought", "count", "you have only %d %s",
				               sd->counts[ut], ar->units[ut].name);
			return 0;
		}
		if (sd->counts[ut] + a->count > ar->units[ut].max)
			return wr_fail(err, "over-max", "count",
			               "at most %d %s in an army (Max); you have %d",
			               ar->units[ut].max, ar->units[ut].name,
			               sd->counts[ut]);
		if (sd->spent + a->count * ar->units[ut].cost > ar->points)
			return wr_fail(err, "over-budget", "count",
			               "that costs %d, %d of %d points left: over budget by %d",
			               a->count * ar->units[ut].cost, ar->points - sd->spent,
			               ar->points,
			               sd->spent + a->count * ar->units[ut].cost - ar->points);
		if (army_size(sd) + a->count > area_size(st, seat))
			return wr_fail(err, "army-too-large", "count",
			               "the set-up area holds %d units, general included",
			               area_size(st, seat));
		return 0;
	case CW_A_DEPLOY:
	case CW_A_UNDEPLOY:
	case CW_A_DONE:
		if (sd->stage != CW_STAGE_DEPLOY)
			return wr_fail(err, "not-deploying", "type",
			               sd->stage == CW_STAGE_DONE ? "your set-up is done"
			                                          : "build your army first (ready)");
		if (a->type == CW_A_DONE) {
			for (int k = 0; k < CW_UPS; k++)
				if (st->u[seat * CW_UPS + k].status == CW_U_RESERVE)
					return wr_fail(err, "units-left", "type",
					               "deploy every unit before you are done");
			return 0;
		}
		if (a->to < 0 || !cw_in_setup_area(st, seat, a->to))
			return wr_fail(err, "outside-set-up-area", "square",
			               "deploy on your set-up area, your two nearest ranks (files for seats 2 and 3) (C2)");
		if (a->type == CW_A_UNDEPLOY) {
			id = cw_unit_at(st, a->to);
			if (id == CW_NONE || cw_seat_of(id) != seat)
				return wr_fail(err, "not-your-unit", "square", "no unit of yours there");
			return 0;
		}
		if (ut == CW_NONE)
			return wr_fail(err, "unknown-unit", "unit", "no such unit in this army");
		if (cw_reserve_of_type(st, seat, ut) == CW_NONE)
			return wr_fail(err, "none-left", "unit", "no %s left to deploy",
			               ar->units[ut].name);
		if (cw_unit_at(st, a->to) != CW_NONE)
			return wr_fail(err, "occupied", "square", "that square is taken");
		return 0;
	default:
		return wr_fail(err, "wrong-phase", "type", "set-up is not over");
	}
}

int
cw_apply_setup(struct cw_state *st, int seat, const struct cw_action *a, struct wr_list *ev)
{
	struct cw_side *sd = &st->side[seat];
	unsigned me = 1u << seat;
	struct cw_event *e;
	int id, ut = sd->army >= 0 ? cw_type_lookup(sd->army, a->utype) : CW_NONE;
	switch (a->type) {
	case CW_A_ARMY:
		sd->army = a->army;
		sd->stage = CW_STAGE_BUILD;
		sd->spent = 0;
		memset(sd->counts, 0, sizeof(sd->counts));
		if ((e = cw_ev_push(ev, CW_E_ARMY, me))) {
			e->seat = seat;
			e->army = a->army;
		}
		break;
	case CW_A_BUY:
	case CW_A_SELL: {
		int sign = a->type == CW_A_BUY ? 1 : -1;
		sd->counts[ut] += sign * a->count;
		sd->spent += sign * a->count * cw_armies[sd->army].units[ut].cost;
		if ((e = cw_ev_push(ev, a->type == CW_A_BUY ? CW_E_BUY : CW_E_SELL, me))) {
			e->seat = seat;
			e->army = sd->army;
			e->utype = ut;
			e->value = a->count;
		}
		break;
	}
	case CW_A_READY: {
		int k = 0;
		st->u[seat * CW_UPS + k].status = CW_U_RESERVE;
		st->u[seat * CW_UPS + k++].type = 0;
		for (int t = 1; t < CW_TYPES; t++)
			for (int n = 0; n < sd->counts[t]; n++) {
				st->u[seat * CW_UPS + k].status = CW_U_RESERVE;
				st->u[seat * CW_UPS + k++].type = (int8_t)t;
			}
		sd->stage = CW_STAGE_DEPLOY;
		if ((e = cw_ev_push(ev, CW_E_READY, me))) {
			e->seat = seat;
			e->army = sd->army;
			e->value = k;
		}
		break;
	}
	case CW_A_DEPLOY:
		id = cw_reserve_of_type(st, seat, ut);
		cw_put(st, id, a->to);
		if ((e = cw_ev_push(ev, CW_E_DEPLOY, me)))
			cw_ev_unit(st, e, id);
		break;
	case CW_A_UNDEPLOY:
		id = cw_unit_at(st, a->to);
		if ((e = cw_ev_push(ev, CW_E_UNDEPLOY, me)))
			cw_ev_unit(st, e, id);
		cw_lift(st, id);
		st->u[id].status = CW_U_RESERVE;
		st->u[id].sq = CW_NONE;
		break;
	case CW_A_DONE:
		sd->stage = CW_STAGE_DONE;
		if ((e = cw_ev_push(ev, CW_E_SET_UP, WR_VIS_PUBLIC)))
			e->seat = seat;
		for (int s = 0; s < st->nseats; s++)
			if (st->side[s].stage != CW_STAGE_DONE && !(st->out & (1u << s)))
				return 0;
		return 1;
	default:
		break;
	}
	return 0;
}
