/* Officers Chess: the one legality check (oc_legal) on plain structs:
 * army building, deployment, the combat turn, staves and special actions,
 * items, the Qi Adept decision. It changes nothing (apply trusts it).
 * Calls oc_board.c, oc_combat.c and the data; the codec calls into it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oc_rules.h"

static int
must_be_active(const struct oc_state *st, int seat, struct wr_error *err)
{
	if (st->active < 0)
		return wr_fail(err, "no-active-unit", "", "activate a unit first");
	(void)seat;
	return 0;
}

/* What Restore removes: "any Status Effect tags" (the Status Effects
 * table: Barrier while it holds, Broken, Poisoned, Silenced), and Frozen. */
static int
has_status(const struct oc_state *st, const struct oc_unit *u)
{
	return u->broken || u->poisoned || u->silenced || u->frozen ||
	       (u->barrier > 0 && u->barrier >= st->round);
}

static int
check_recruit(const struct oc_state *st, int seat, const struct oc_recruit *r, int field_idx,
              struct wr_error *err)
{
	char f[32];
	const struct oc_class *c;
	struct oc_unit tmp;

	snprintf(f, sizeof(f), field_idx < 0 ? "name" : "units[%d]", field_idx);
	if (!r->name[0])
		return wr_fail(err, "bad-name", f, "a unit needs a name");
	for (const char *p = r->name; *p; p++)
		if ((unsigned char)*p < 0x20)
			return wr_fail(err, "bad-name", f, "a name has no control characters");
	for (int i = 0; i < st->nu; i++)
		if (st->u[i].seat == seat && strcmp(st->u[i].name, r->name) == 0)
			return wr_fail(err, "duplicate-name", f, "%s is already in your army", r->name);
	if (r->cls < 0 || r->cls >= oc_nclasses)
		return wr_fail(err, "no-such-class", f, "no such class");
	c = &oc_classes[r->cls];
	if (c->promoted && !st->promoted)
		return wr_fail(err, "promoted-not-allowed", f,
		               "%s is a promoted class; this match allows base classes only", c->id);
	if (r->nitems > 3)
		return wr_fail(err, "too-many-items", f, "a unit carries at most 3 items");
	memset(&tmp, 0, sizeof(tmp));
	tmp.cls = r->cls;
	for (int k = 0; k < r->nitems; k++) {
		if (r->items[k] < 0 || r->items[k] >= oc_nitems)
			return wr_fail(err, "no-such-item", f, "no such item");
		const struct oc_item *it = &oc_items[r->items[k]];
		if (!it->offered)
			return wr_fail(err, "item-not-offered", f, "%s is not offered: %s", it->name,
			               it->why);
		if (it->kind == OC_WEAPON && !oc_usable_weapon(&tmp, it)) {
			int lv = c->prof[it->wtype];
			if (lv < 0)
				return wr_fail(err, "not-proficient", f, "%s cannot use %ss (%s)", c->id,
				               oc_wtype_names[it->wtype], it->name);
			return wr_fail(err, "not-proficient", f,
			               "%s uses %ss up to level %s; %s is level %s", c->id,
			               oc_wtype_names[it->wtype], oc_rating_names[lv], it->name,
			               oc_rating_names[it->level]);
		}
	}
	return 0;
}

/* --------------------------------------------------------------- legal */

/* The item in the acting unit's slot, or NULL and why. */
static const struct oc_item *
slot_item(const struct oc_unit *u, int slot, struct wr_error *err)
{
	if (slot < 0 || slot > 2 || u->item[slot] < 0) {
		wr_fail(err, "no-item", "slot", "no item in that slot");
		return NULL;
	}
	return &oc_items[u->item[slot]];
}

/* The item an Action uses (attack, use): one Action per turn. */
static const struct oc_item *
action_item(const struct oc_state *st, const struct oc_unit *u, int slot, struct wr_error *err)
{
	if (st->acted) {
		wr_fail(err, "already-acted", "", "one Action per turn");
		return NULL;
	}
	return slot_item(u, slot, err);
}

static int
legal_staff(const struct oc_state *st, int seat, const struct oc_action *a, struct wr_error *err)
{
	const struct oc_unit *u = &st->u[st->active];
	const struct oc_item *it;
	int t, d;

	if (!(it = slot_item(u, a->slot, err)))
		return -1;
	if (!oc_is_staff(it))
		return wr_fail(err, "not-a-staff", "slot", "%s is not a staff", it->name);
	if (!oc_usable_weapon(u, it))
		return wr_fail(err, "not-proficient", "slot", "%s cannot use %s",
		               oc_classes[u->cls].id, it->name);
	if (u->silenced)
		return wr_fail(err, "silenced", "slot", "a Silenced unit cannot use staves");
	switch (it->special) {
	case OC_SP_TORCH:
		if (a->target >= 0 || a->to >= 0)
			return wr_fail(err, "bad-target", "target", "%s needs no target", it->name);
		return 0;
	case OC_SP_REWARP:
		if (a->target >= 0)
			return wr_fail(err, "bad-target", "target", "Rewarp moves the user: give only to");
		if (a->to < 0 || oc_dist(st, u->sq, a->to) > OC_WARP_RANGE || a->to == u->sq)
			return wr_fail(err, "out-of-range", "to", "Rewarp reaches %d tiles", OC_WARP_RANGE);
		if (!oc_seat_sees(st, seat, a->to) || !oc_passable(st, a->to) || oc_unit_at(st, a->to) >= 0)
			return wr_fail(err, "bad-destination", "to",
			               "the destination must be an empty tile you see");
		return 0;
	case OC_SP_VEIN:
		if (a->to >= 0)
			return wr_fail(err, "bad-target", "to", "Vein takes only a target tile");
		if (a->target < 0 || !oc_in_range(it, oc_dist(st, u->sq, a->target)))
			return wr_fail(err, "out-of-range", "target", "out of the staff's range");
		if (!oc_seat_sees(st, seat, a->target) || oc_unit_at(st, a->target) >= 0)
			return wr_fail(err, "bad-target", "target", "Vein needs an unoccupied tile you see");
		if (st->vein[a->target] || st->terrain[a->target] == it->sp_arg ||
		    st->terrain[a->target] == OC_TR_GATE)
			return wr_fail(err, "bad-target", "target", "that tile cannot be changed");
		return 0;
	case OC_SP_HEAL:
		if (it->aoe) {
			if (a->target >= 0 || a->to >= 0)
				return wr_fail(err, "bad-target", "target", "%s heals every ally in range",
				               it->name);
			for (int i = 0; i < st->nu; i++)
				if (st->u[i].seat == seat && st->u[i].where == OC_W_MAP &&
				    st->u[i].hp < oc_max_hp(&st->u[i]) &&
				    oc_in_range(it, oc_dist(st, u->sq, st->u[i].sq)))
					return 0;
			return wr_fail(err, "no-target", "slot", "no wounded ally in range");
		}
		break;
	default:
		break;
	}
	if (it->special == OC_SP_NONE)
		return wr_fail(err, "no-effect", "slot", "%s has no Special Action", it->name);
	t = oc_known_unit_at(st, seat, a->target);
	if (t < 0)
		return wr_fail(err, "no-target", "target", "no unit you see there");
	d = oc_dist(st, u->sq, st->u[t].sq);
	if (!oc_in_range(it, d))
		return wr_fail(err, "out-of-range", "target", "out of the staff's range");
	int ally = st->u[t].seat == seat;
	int need_to = it->special == OC_SP_ENTRAP || it->special == OC_SP_RESCUE ||
	              it->special == OC_SP_WARP;
	if (need_to != (a->to >= 0))
		return wr_fail(err, need_to ? "missing-field" : "bad-target", "to",
		               need_to ? "%s needs a destination (to)" : "%s takes no destination",
		               it->name);
	switch (it->special) {
	case OC_SP_HEAL:
	case OC_SP_RESCUE:
	case OC_SP_WARP:
	case OC_SP_RESTORE:
		if (!ally)
			return wr_fail(err, "not-an-ally", "target", "%s targets an ally", it->name);
		if (t == st->active && it->special != OC_SP_RESTORE)
			return wr_fail(err, "bad-target", "target", "not on the user");
		break;
	default:
		if (ally)
			return wr_fail(err, "not-an-enemy", "target", "%s targets an enemy", it->name);
		break;
	}
	if (it->special == OC_SP_HEAL && st->u[t].hp >= oc_max_hp(&st->u[t]))
		return wr_fail(err, "full-health", "target", "that unit is at full health");
	if (it->special == OC_SP_RESTORE && !has_status(st, &st->u[t]))
		return wr_fail(err, "no-status", "target", "that unit has no status effect");
	if (need_to) {
		int center = it->special == OC_SP_WARP ? -1 : u->sq;
		if (center >= 0 && oc_dist(st, center, a->to) != 1)
			return wr_fail(err, "bad-destination", "to", "the destination must be adjacent to the user");
		if (center < 0 && (oc_dist(st, u->sq, a->to) > OC_WARP_RANGE))
			return wr_fail(err, "out-of-range", "to", "Warp reaches %d tiles", OC_WARP_RANGE);
		if (!oc_seat_sees(st, seat, a->to) || !oc_passable(st, a->to) || oc_unit_at(st, a->to) >= 0)
			return wr_fail(err, "bad-destination", "to",
			               "the destination must be an empty tile you see");
	}
	return 0;
}

static int
legal_battle(const struct oc_state *st, int seat, const struct oc_action *a, struct wr_error *err)
{
	const struct oc_unit *u;
	int t;

	if (st->pend) {
		int c[OC_MAX_ALL], n = oc_qi_candidates(st, st->pend_def, c), ok = 0;
		if (a->type == OC_A_NO_GUARD)
			return 0;
		if (a->type != OC_A_GUARD)
			return wr_fail(err, "decision-owed", "type",
			               "first decide whether a Qi Adept takes the attack on %s",
			               st->u[st->pend_def].name);
		for (int k = 0; k < n; k++)
			ok |= st->u[c[k]].sq == a->at;
		if (!ok)
			return wr_fail(err, "not-a-guard", "at",
			               "no Qi Adept at full health next to %s there",
			               st->u[st->pend_def].name);
		return 0;
	}
	if (a->type == OC_A_GUARD || a->type == OC_A_NO_GUARD)
		return wr_fail(err, "no-decision", "type", "no Qi Adept decision is owed");
	if (a->type == OC_A_ACTIVATE) {
		if (st->active >= 0)
			return wr_fail(err, "unit-active", "unit", "%s is taking its turn",
			               st->u[st->active].name);
		t = oc_unit_at(st, a->at);
		if (t < 0 || st->u[t].seat != seat)
			return wr_fail(err, "not-your-unit", "unit", "you have no unit there");
		if (st->u[t].activated)
			return wr_fail(err, "already-activated", "unit", "%s has moved this round",
			               st->u[t].name);
		return 0;
	}
	if (must_be_active(st, seat, err))
		return -1;
	u = &st->u[st->active];
	if (a->at != u->sq)
		return wr_fail(err, "not-active-unit", "from", "%s at %s is taking its turn", u->name,
		               wr_square_name(&wr_board8, u->sq, (char[8]){0}));
	switch (a->type) {
	case OC_A_MOVE: {
		int cost[OC_MAX_TILES], prev[OC_MAX_TILES];
		if (st->acted && st->canto <= 0)
			return wr_fail(err, "already-acted", "to", "no Move after the Action (only Canto)");
		if (st->moved && !st->acted)
			return wr_fail(err, "already-moved", "to", "%s has already moved", u->name);
		if (u->frozen)
			return wr_fail(err, "frozen", "to", "%s is Frozen and cannot move this turn",
			               u->name);
		if (a->to >= 0 && oc_known_unit_at(st, seat, a->to) >= 0 && a->to != u->sq)
			return wr_fail(err, "occupied", "to", "a move never ends on an occupied tile");
		if (a->to == u->sq || a->to < 0 || oc_dist(st, u->sq, a->to) > oc_budget(st))
			return wr_fail(err, "unreachable", "to", "%s cannot reach that tile this turn",
			               u->name);
		oc_reach(st, st->active, oc_budget(st), cost, prev);
		if (cost[a->to] > oc_budget(st))
			return wr_fail(err, "unreachable", "to", "%s cannot reach that tile this turn",
			               u->name);
		if (oc_known_unit_at(st, seat, a->to) >= 0)
			return wr_fail(err, "occupied", "to", "a move never ends on an occupied tile");
		return 0;
	}
	case OC_A_ATTACK: {
		const struct oc_item *w;
		if (!(w = action_item(st, u, a->slot, err)))
			return -1;
		if (w->kind != OC_WEAPON || oc_is_staff(w))
			return wr_fail(err, "not-a-weapon", "slot", "%s cannot attack", w->name);
		if (!oc_usable_weapon(u, w))
			return wr_fail(err, "not-proficient", "slot", "%s cannot use %s",
			               oc_classes[u->cls].id, w->name);
		if (u->silenced && w->wtype == OC_TOME)
			return wr_fail(err, "silenced", "slot", "a Silenced unit cannot use tomes");
		t = oc_known_unit_at(st, seat, a->target);
		if (t < 0) {
			int tr = a->target >= 0 ? st->terrain[a->target] : -1;
			if (a->target < 0 || oc_unit_at(st, a->target) >= 0 ||
			    (tr != OC_TR_GATE && tr != OC_TR_ICE))
				return wr_fail(err, "no-target", "target", "nothing you see to attack there");
		} else if (st->u[t].seat == seat) {
			return wr_fail(err, "not-an-enemy", "target", "attack an enemy");
		}
		if (!oc_in_range(w, oc_dist(st, u->sq, a->target)))
			return wr_fail(err, "out-of-range", "target", "%s reaches %d-%d tiles", w->name,
			               w->rmin, w->rmax);
		return 0;
	}
	case OC_A_STAFF:
		if (st->acted)
			return wr_fail(err, "already-acted", "", "one Action per turn");
		return legal_staff(st, seat, a, err);
	case OC_A_DANCE:
		if (st->acted)
			return wr_fail(err, "already-acted", "", "one Action per turn");
		if (!(oc_classes[u->cls].tags & OC_T_DANCE))
			return wr_fail(err, "no-dance", "", "%s cannot Dance", u->name);
		t = oc_unit_at(st, a->target);
		if (t < 0 || st->u[t].seat != seat || t == st->active)
			return wr_fail(err, "not-an-ally", "target", "Dance targets another allied unit");
		if (oc_dist(st, u->sq, a->target) != 1)
			return wr_fail(err, "out-of-range", "target", "Dance targets an adjacent ally");
		if (!st->u[t].activated)
			return wr_fail(err, "not-activated", "target", "%s has not acted this round",
			               st->u[t].name);
		if (st->u[t].danced)
			return wr_fail(err, "already-danced", "target",
			               "%s was already danced for this round", st->u[t].name);
		return 0;
	case OC_A_PICK: {
		int key = 0;
		if (st->acted)
			return wr_fail(err, "already-acted", "", "one Action per turn");
		for (int s = 0; s < 3; s++)
			if (u->item[s] >= 0 && oc_items[u->item[s]].special == OC_SP_PICK &&
			    oc_items[u->item[s]].kind == OC_CONSUMABLE)
				key = 1;
		if (!(oc_classes[u->cls].tags & OC_T_PICK) && !key)
			return wr_fail(err, "no-pick", "", "%s has no Pick (Thief or Master Key)", u->name);
		if (a->target < 0 || st->terrain[a->target] != OC_TR_GATE ||
		    oc_dist(st, u->sq, a->target) != 1)
			return wr_fail(err, "no-target", "target", "Pick opens an adjacent Gate/Door");
		return 0;
	}
	case OC_A_USE: {
		const struct oc_item *it;
		if (!(it = action_item(st, u, a->slot, err)))
			return -1;
		if (it->kind != OC_CONSUMABLE || it->special == OC_SP_PICK)
			return wr_fail(err, "not-usable", "slot", "%s is not used this way", it->name);
		if (it->special == OC_SP_HEAL && u->hp >= oc_max_hp(u))
			return wr_fail(err, "full-health", "slot", "%s is at full health", u->name);
		if (it->special == OC_SP_RESTORE && !has_status(st, u))
			return wr_fail(err, "no-status", "slot", "%s has no status effect", u->name);
		return 0;
	}
	case OC_A_EQUIP: {
		const struct oc_item *it;
		if (!(it = slot_item(u, a->slot, err)))
			return -1;
		if (a->slot == u->equip || a->slot == u->acc)
			return wr_fail(err, "already-equipped", "slot", "%s is already equipped", it->name);
		if (it->kind == OC_ACCESSORY)
			return 0;
		if (it->kind != OC_WEAPON || oc_is_staff(it) || !oc_usable_weapon(u, it))
			return wr_fail(err, "not-equippable", "slot", "%s cannot equip %s", u->name,
			               it->name);
		return 0;
	}
	case OC_A_DISCARD:
		return slot_item(u, a->slot, err) ? 0 : -1;
	case OC_A_TRADE: {
		const struct oc_unit *p;
		t = oc_unit_at(st, a->with);
		if (t < 0 || st->u[t].seat != seat || t == st->active)
			return wr_fail(err, "not-an-ally", "with", "trade with an allied unit");
		if (oc_dist(st, u->sq, a->with) != 1)
			return wr_fail(err, "out-of-range", "with", "trade with an adjacent ally");
		if (st->traded >= 0 && st->traded != t)
			return wr_fail(err, "already-traded", "with",
			               "a unit trades with one unit per turn");
		p = &st->u[t];
		if (a->give < 0 && a->take < 0)
			return wr_fail(err, "missing-field", "give", "give or take an item");
		if (a->give >= 0 && (a->give > 2 || u->item[a->give] < 0))
			return wr_fail(err, "no-item", "give", "no item in that slot");
		if (a->take >= 0 && (a->take > 2 || p->item[a->take] < 0))
			return wr_fail(err, "no-item", "take", "no item in that slot");
		if (a->give >= 0 && a->take < 0 && oc_free_slot(p) < 0)
			return wr_fail(err, "inventory-full", "give", "%s carries 3 items", p->name);
		if (a->take >= 0 && a->give < 0 && oc_free_slot(u) < 0)
			return wr_fail(err, "inventory-full", "take", "%s carries 3 items", u->name);
		return 0;
	}
	case OC_A_SEIZE:
	case OC_A_ESCAPE:
	case OC_A_RAZE: {
		int sc = a->type == OC_A_SEIZE ? OC_SC_SEIZE : a->type == OC_A_ESCAPE ? OC_SC_ESCAPE
		                                                                       : OC_SC_RAZE;
		if (st->acted)
			return wr_fail(err, "already-acted", "", "one Action per turn");
		if (!oc_scen_ok(st, u, sc))
			return wr_fail(err, "not-here", "", "%s cannot %s here", u->name,
			               oc_act_names[a->type]);
		return 0;
	}
	case OC_A_END:
		return 0;
	default:
		return wr_fail(err, "wrong-phase", "type", "not during the battle");
	}
}

int
oc_legal(const void *state, int seat, const void *action, struct wr_error *err)
{
	const struct oc_state *st = state;
	const struct oc_action *a = action;

	if (seat < 0 || seat >= st->seats)
		return wr_fail(err, "no-such-seat", "", "no such seat");
	if (st->phase == OC_PH_OVER)
		return wr_fail(err, "game-over", "", "the match is over");
	if (!(oc_to_act(st) & 1u << seat))
		return wr_fail(err, "not-awaited", "", "it is not your turn");
	switch (st->phase) {
	case OC_PH_RECRUIT:
		if (a->type == OC_A_RECRUIT) {
			if (oc_count_units(st, seat, -1) >= st->nunits)
				return wr_fail(err, "army-full", "", "your army has %d units", st->nunits);
			return check_recruit(st, seat, &a->rec[0], -1, err);
		}
		if (a->type == OC_A_ARMY) {
			if (oc_count_units(st, seat, -1) > 0)
				return wr_fail(err, "army-started", "",
				               "you have recruited units one by one; go on that way");
			if (a->nrec != st->nunits)
				return wr_fail(err, "wrong-size", "units", "an army has %d units",
				               st->nunits);
			for (int k = 0; k < a->nrec; k++) {
				if (check_recruit(st, seat, &a->rec[k], k, err))
					return -1;
				for (int j = 0; j < k; j++)
					if (strcmp(a->rec[j].name, a->rec[k].name) == 0)
						return wr_fail(err, "duplicate-name", "units",
						               "two units are named %s", a->rec[k].name);
			}
			return 0;
		}
		return wr_fail(err, "wrong-phase", "type", "build your army first (recruit or army)");
	case OC_PH_DEPLOY: {
		int i = -1;
		if (a->type != OC_A_DEPLOY)
			return wr_fail(err, "wrong-phase", "type", "deploy your units first");
		for (int k = 0; k < st->nu; k++)
			if (st->u[k].seat == seat && strcmp(st->u[k].name, a->unit) == 0)
				i = k;
		if (i < 0)
			return wr_fail(err, "no-such-unit", "unit", "no unit of yours has that name");
		if (st->u[i].where != OC_W_RESERVE)
			return wr_fail(err, "already-deployed", "unit", "%s is deployed", a->unit);
		if (a->to < 0 || !oc_in_zone(st, seat, a->to))
			return wr_fail(err, "outside-zone", "to", "deploy on your two nearest ranks");
		if (!oc_passable(st, a->to))
			return wr_fail(err, "impassable", "to", "that tile cannot be entered");
		for (int k = 0; k < st->nu; k++)
			if (st->u[k].seat == seat && st->u[k].where == OC_W_MAP && st->u[k].sq == a->to)
				return wr_fail(err, "occupied", "to", "one unit per tile");
		return 0;
	}
	case OC_PH_BATTLE:
		if (a->type == OC_A_RECRUIT || a->type == OC_A_ARMY || a->type == OC_A_DEPLOY)
			return wr_fail(err, "wrong-phase", "type", "the battle has begun");
		return legal_battle(st, seat, a, err);
	default:
		return wr_fail(err, "game-over", "", "the match is over");
	}
}
