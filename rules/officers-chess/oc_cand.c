/* Officers Chess: the candidate actions of a seat (oc_candidates), a
 * superset in a stable order that oc_legal() filters into the legal list
 * (the recruits offered, placements, the combat turn's actions). Calls
 * oc_board.c, oc_combat.c and the data; the codec calls into it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oc_rules.h"

static struct oc_action *
cand(struct wr_list *out, enum oc_act type)
{
	struct oc_action *a = wr_list_push(out);
	if (!a)
		return NULL;
	a->type = type;
	a->at = a->to = a->target = a->slot = a->give = a->take = a->with = -1;
	return a;
}

/* A listed name: "<class> <k>", the smallest k not yet used by the seat. */
static void
listed_name(const struct oc_state *st, int seat, const char *cls, int taken_k, char *out)
{
	for (int k = 1;; k++) {
		int used = 0;
		snprintf(out, OC_NAME, "%.18s %d", cls, (k + taken_k) % 1000);
		for (int i = 0; i < st->nu; i++)
			if (st->u[i].seat == seat && strcmp(st->u[i].name, out) == 0)
				used = 1;
		if (!used)
			return;
	}
}

/* The listed kit of a class with weapon w first: w, then the lowest-level
 * usable weapon of each other proficiency, then a Vulnerary. */
static void
kit(int cls, int w, int vul, struct oc_recruit *r)
{
	struct oc_unit tmp = {.cls = cls};

	r->cls = cls;
	r->nitems = 0;
	r->items[r->nitems++] = w;
	for (int t = 0; t < OC_WTYPE_MAX && r->nitems < 3; t++) {
		int best = -1;
		if (t == oc_items[w].wtype || oc_classes[cls].prof[t] < 0)
			continue;
		for (int i = 0; i < oc_nitems; i++)
			if (oc_items[i].offered && oc_items[i].kind == OC_WEAPON &&
			    oc_items[i].wtype == t && oc_usable_weapon(&tmp, &oc_items[i]) &&
			    (best < 0 || oc_items[i].level < oc_items[best].level))
				best = i;
		if (best >= 0)
			r->items[r->nitems++] = best;
	}
	if (r->nitems < 3 && vul >= 0)
		r->items[r->nitems++] = vul;
}

static const char *const sample_army[] = {"Sword Fighter", "Lance Cavalier", "Archer", "Mage",
	"Martial Monk", "Axe Armor", "Thief", "Dancer", "Axe Flier", "Lance Fighter",
	"Sword Cavalier", "Axe Fighter"};

static void
recruit_candidates(const struct oc_state *st, int seat, struct wr_list *out)
{
	int vul = oc_item_find("Vulnerary");
	char name[OC_NAME];

	for (int c = 0; c < oc_nclasses; c++) {
		struct oc_unit tmp = {.cls = c};
		if (oc_classes[c].promoted && !st->promoted)
			continue;
		listed_name(st, seat, oc_classes[c].id, 0, name);
		for (int w = 0; w < oc_nitems; w++) {
			if (!oc_items[w].offered || !oc_usable_weapon(&tmp, &oc_items[w]))
				continue;
			struct oc_action *a = cand(out, OC_A_RECRUIT);
			if (!a)
				return;
			a->nrec = 1;
			kit(c, w, vul, &a->rec[0]);
			memcpy(a->rec[0].name, name, sizeof(name));
		}
	}
	if (oc_count_units(st, seat, -1) == 0) {
		struct oc_action *a = cand(out, OC_A_ARMY);
		if (!a)
			return;
		a->nrec = st->nunits;
		for (int k = 0; k < st->nunits; k++) {
			int c = oc_class_find(sample_army[k % 12]), w = -1;
			struct oc_unit tmp = {.cls = c};
			for (int i = oc_nitems - 1; i >= 0 && w < 0; i--)
				if (oc_items[i].offered && oc_usable_weapon(&tmp, &oc_items[i]) &&
				    !oc_is_staff(&oc_items[i]))
					w = i;
			if (w < 0)
				for (int i = oc_nitems - 1; i >= 0 && w < 0; i--)
					if (oc_items[i].offered && oc_usable_weapon(&tmp, &oc_items[i]))
						w = i;
			kit(c, w, vul, &a->rec[k]);
			snprintf(a->rec[k].name, OC_NAME, "%.18s %d", oc_classes[c].id, (k / 12 + 1) % 10);
		}
	}
}

void
oc_candidates(const void *state, int seat, struct wr_list *out)
{
	const struct oc_state *st = state;
	int n = oc_ntiles(st);
	struct oc_action *a;

	if (seat < 0 || seat >= st->seats || !(oc_to_act(st) & 1u << seat))
		return;
	if (st->phase == OC_PH_RECRUIT) {
		recruit_candidates(st, seat, out);
		return;
	}
	if (st->phase == OC_PH_DEPLOY) {
		for (int i = 0; i < st->nu; i++) {
			if (st->u[i].seat != seat || st->u[i].where != OC_W_RESERVE)
				continue;
			for (int t = 0; t < n; t++) {
				if (!oc_in_zone(st, seat, t) || !(a = cand(out, OC_A_DEPLOY)))
					continue;
				snprintf(a->unit, sizeof(a->unit), "%s", st->u[i].name);
				a->to = t;
			}
		}
		return;
	}
	if (st->phase != OC_PH_BATTLE)
		return;
	if (st->pend) {
		int c[OC_MAX_ALL], k = oc_qi_candidates(st, st->pend_def, c);
		for (int i = 0; i < k; i++)
			if ((a = cand(out, OC_A_GUARD)))
				a->at = st->u[c[i]].sq;
		cand(out, OC_A_NO_GUARD);
		return;
	}
	if (st->active < 0) {
		for (int i = 0; i < st->nu; i++)
			if (st->u[i].seat == seat && st->u[i].where == OC_W_MAP && (a = cand(out, OC_A_ACTIVATE)))
				a->at = st->u[i].sq;
		return;
	}
	const struct oc_unit *u = &st->u[st->active];
	size_t first = out->len;
	int bud = oc_budget(st);
	for (int t = 0; t < n; t++)
		if (oc_dist(st, u->sq, t) <= bud && t != u->sq && (a = cand(out, OC_A_MOVE)))
			a->to = t;
	for (int s = 0; s < 3; s++) {
		if (u->item[s] < 0)
			continue;
		const struct oc_item *it = &oc_items[u->item[s]];
		if (it->kind == OC_WEAPON && !oc_is_staff(it)) {
			for (int t = 0; t < n; t++)
				if ((oc_unit_at(st, t) >= 0 || st->terrain[t] == OC_TR_GATE ||
				     st->terrain[t] == OC_TR_ICE) && oc_in_range(it, oc_dist(st, u->sq, t)) &&
				    (a = cand(out, OC_A_ATTACK))) {
					a->slot = s;
					a->target = t;
				}
		} else if (oc_is_staff(it)) {
			int needs_to = it->special == OC_SP_ENTRAP || it->special == OC_SP_RESCUE ||
			               it->special == OC_SP_WARP;
			if (it->special == OC_SP_TORCH || (it->special == OC_SP_HEAL && it->aoe)) {
				if ((a = cand(out, OC_A_STAFF)))
					a->slot = s;
			} else if (it->special == OC_SP_REWARP) {
				for (int t = 0; t < n; t++)
					if (oc_dist(st, u->sq, t) <= OC_WARP_RANGE && (a = cand(out, OC_A_STAFF))) {
						a->slot = s;
						a->to = t;
					}
			} else if (needs_to) {
				for (int t = 0; t < n; t++) {
					int o = oc_unit_at(st, t);
					if (o < 0 || !oc_in_range(it, oc_dist(st, u->sq, t)))
						continue;
					for (int d = 0; d < n; d++) {
						if (it->special != OC_SP_WARP && oc_dist(st, u->sq, d) != 1)
							continue;
						if (it->special == OC_SP_WARP && oc_dist(st, u->sq, d) > OC_WARP_RANGE)
							continue;
						if ((a = cand(out, OC_A_STAFF))) {
							a->slot = s;
							a->target = t;
							a->to = d;
						}
					}
				}
			} else {
				for (int t = 0; t < n; t++)
					if ((it->special == OC_SP_VEIN || oc_unit_at(st, t) >= 0) &&
					    oc_in_range(it, oc_dist(st, u->sq, t)) && (a = cand(out, OC_A_STAFF))) {
						a->slot = s;
						a->target = t;
					}
			}
		} else if (it->kind == OC_CONSUMABLE) {
			if ((a = cand(out, OC_A_USE)))
				a->slot = s;
		}
	}
	/* A superset in a stable order; obviously empty choices (no item in
	 * the slot, no ally or gate next to the unit) are left out. */
	for (int t = 0; t < n; t++) {
		if (oc_dist(st, u->sq, t) != 1)
			continue;
		int o = oc_unit_at(st, t);
		if (o >= 0 && st->u[o].seat == seat && (a = cand(out, OC_A_DANCE)))
			a->target = t;
		if (st->terrain[t] == OC_TR_GATE && (a = cand(out, OC_A_PICK)))
			a->target = t;
	}
	if (st->scenario == OC_SC_SEIZE)
		cand(out, OC_A_SEIZE);
	if (st->scenario == OC_SC_ESCAPE)
		cand(out, OC_A_ESCAPE);
	if (st->scenario == OC_SC_RAZE)
		cand(out, OC_A_RAZE);
	for (int s = 0; s < 3; s++) {
		if (u->item[s] >= 0 && (a = cand(out, OC_A_EQUIP)))
			a->slot = s;
	}
	for (int t = 0; t < n; t++) {
		int o = oc_unit_at(st, t);
		if (o < 0 || st->u[o].seat != seat || oc_dist(st, u->sq, t) != 1)
			continue;
		for (int g = -1; g < 3; g++)
			for (int k = -1; k < 3; k++)
				if ((g >= 0 || k >= 0) && (g < 0 || u->item[g] >= 0) &&
				    (k < 0 || st->u[o].item[k] >= 0) && (a = cand(out, OC_A_TRADE))) {
					a->with = t;
					a->give = g;
					a->take = k;
				}
	}
	for (int s = 0; s < 3; s++)
		if (u->item[s] >= 0 && (a = cand(out, OC_A_DISCARD)))
			a->slot = s;
	cand(out, OC_A_END);
	for (size_t k = first; k < out->len; k++)
		((struct oc_action *)wr_list_at(out, k))->at = u->sq;
}
