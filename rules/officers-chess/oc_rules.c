/* Officers Chess rules on plain structs: candidates, the one legality
 * check, and apply (army building, deployment, rounds, the combat turn,
 * staves and special actions, items, fog of war, victory). No JSON here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oc_rules.h"

#define WARP_RANGE 5             /* README, Rulings needed: Warp and Rewarp */

/* ------------------------------------------------------------ basics */

int
oc_unit_at(const struct oc_state *st, int sq)
{
	if (sq < 0)
		return -1;
	for (int i = 0; i < st->nu; i++)
		if (st->u[i].where == OC_W_MAP && st->u[i].sq == sq)
			return i;
	return -1;
}

static int
ntiles(const struct oc_state *st)
{
	return st->files * st->ranks;
}

/* Marks the tiles within `radius` of sq (oc_dist), row by row: only the
 * diamond is visited, not the whole map (issue 17). */
static void
mark_within(const struct oc_state *st, int sq, int radius, unsigned char *seen)
{
	int x = sq % st->files, y = sq / st->files;

	for (int dy = -radius; dy <= radius; dy++) {
		int ty = y + dy, w = radius - abs(dy);
		if (ty < 0 || ty >= st->ranks)
			continue;
		for (int tx = x - w > 0 ? x - w : 0; tx <= x + w && tx < st->files; tx++)
			seen[ty * st->files + tx] = 1;
	}
}

void
oc_sight(const struct oc_state *st, int seat, unsigned char *seen)
{
	int n = ntiles(st);

	if (!st->fog || seat == WR_EVERYONE) {
		memset(seen, 1, (size_t)n);
		return;
	}
	memset(seen, 0, (size_t)n);
	if (seat < 0)
		return;
	for (int i = 0; i < st->nu; i++) {
		const struct oc_unit *u = &st->u[i];
		if (u->seat == seat && u->where == OC_W_MAP)
			mark_within(st, u->sq, OC_SIGHT, seen);
	}
	for (int k = 0; k < st->ntorch; k++)
		if (st->torch[k].seat == seat)
			mark_within(st, st->torch[k].sq, st->torch[k].radius, seen);
}

unsigned
oc_seen_mask(const struct oc_state *st, int sq)
{
	unsigned char seen[OC_MAX_TILES];
	unsigned m = 0;

	for (int s = 0; s < st->seats; s++) {
		oc_sight(st, s, seen);
		if (sq >= 0 && seen[sq])
			m |= 1u << s;
	}
	return m;
}

int
oc_visible(const struct oc_state *st, int viewer, int i)
{
	const struct oc_unit *u = &st->u[i];
	unsigned char seen[OC_MAX_TILES];

	if (viewer == WR_EVERYONE || u->seat == viewer)
		return 1;
	if (st->phase < OC_PH_BATTLE)
		return 0;        /* armies and deployment are secret until both are in */
	if (!st->fog)
		return 1;
	if (u->where != OC_W_MAP || viewer < 0)
		return 0;
	oc_sight(st, viewer, seen);
	return seen[u->sq];
}

static int
seat_sees(const struct oc_state *st, int seat, int sq)
{
	unsigned char seen[OC_MAX_TILES];

	oc_sight(st, seat, seen);
	return seen[sq];
}

int
oc_undo_barrier(const void *before, const void *after, int seat, const struct wr_events *ev)
{
	const struct oc_state *a = before, *b = after;

	(void)seat;
	(void)ev;
	for (int s = 0; s < b->seats; s++)
		for (int i = 0; i < b->nu && i < a->nu; i++)
			if (b->u[i].seat != s && !oc_visible(a, s, i) && oc_visible(b, s, i))
				return 1;
	return 0;
}

/* A unit the seat knows to be at sq (its own, or an enemy it sees). */
static int
known_unit_at(const struct oc_state *st, int seat, int sq)
{
	int i = oc_unit_at(st, sq);
	if (i < 0)
		return -1;
	return oc_visible(st, seat, i) ? i : -1;
}

static int
count_units(const struct oc_state *st, int seat, int where)
{
	int n = 0;
	for (int i = 0; i < st->nu; i++)
		if (st->u[i].seat == seat && (where < 0 || st->u[i].where == where))
			n++;
	return n;
}

static int
usable_weapon(const struct oc_unit *u, const struct oc_item *it)
{
	const struct oc_class *c = &oc_classes[u->cls];
	return it->kind == OC_WEAPON && it->wtype >= 0 && c->prof[it->wtype] >= it->level;
}

static int
is_staff(const struct oc_item *it)
{
	return it->kind == OC_WEAPON && it->wtype == OC_STAFF;
}

static int
in_zone(const struct oc_state *st, int seat, int sq)
{
	int r = sq / st->files;
	return seat == 0 ? r < 2 : r >= st->ranks - 2;
}

static int
passable(const struct oc_state *st, int sq)
{
	return oc_tiles[st->terrain[sq]].move >= 0;
}

/* Movement costs from the unit's square as its seat knows the map (O7):
 * steps in 4 directions paying each tile's Move (Flying 1), through
 * allies and unseen tiles, never through a known enemy. prev[] gives a
 * path; ties go to the lower square index so paths are deterministic.
 * Every tile below `limit` is expanded, in buckets of equal cost (Dial):
 * a step costs at least 1 (oc_tiles), so the tiles at cost c are final
 * once the cheaper ones are expanded; no tile is searched for (issue 17). */
static void
reach(const struct oc_state *st, int i, int limit, int *cost, int *prev)
{
	static const int dx[4] = {0, 1, 0, -1}, dy[4] = {1, 0, -1, 0};
	const struct oc_unit *u = &st->u[i];
	int n = ntiles(st);
	int fly = oc_classes[u->cls].tags & OC_T_FLYING;
	unsigned char seen[OC_MAX_TILES], enemy[OC_MAX_TILES];

	oc_sight(st, u->seat, seen);
	memset(enemy, 0, sizeof(enemy));
	for (int k = 0; k < st->nu; k++)
		if (st->u[k].where == OC_W_MAP && st->u[k].seat != u->seat && seen[st->u[k].sq])
			enemy[st->u[k].sq] = 1;
	for (int t = 0; t < n; t++) {
		cost[t] = 1 << 20;
		prev[t] = -1;
	}
	cost[u->sq] = 0;
	for (int c = 0; c < limit; c++) {
		for (int from = 0; from < n; from++) {
			if (cost[from] != c)
				continue;
			int x = from % st->files, y = from / st->files;
			for (int d = 0; d < 4; d++) {
				int nx = x + dx[d], ny = y + dy[d];
				if (nx < 0 || ny < 0 || nx >= st->files || ny >= st->ranks)
					continue;
				int t = ny * st->files + nx;
				if (!passable(st, t) || enemy[t])
					continue;
				int step = fly ? 1 : oc_tiles[st->terrain[t]].move;
				if (c + step < cost[t] || (c + step == cost[t] && from < prev[t])) {
					cost[t] = c + step;
					prev[t] = from;
				}
			}
		}
	}
}

static int
budget(const struct oc_state *st)
{
	const struct oc_unit *u = &st->u[st->active];
	if (st->acted)
		return st->canto > 0 ? st->canto : 0;
	return oc_movement(st, u);
}

static int
free_slot(const struct oc_unit *u)
{
	for (int s = 0; s < 3; s++)
		if (u->item[s] < 0)
			return s;
	return -1;
}

static int
max_hp(const struct oc_unit *u)
{
	return oc_classes[u->cls].hp;
}

/* The scenario tiles a unit may use now. */
static int
scen_ok(const struct oc_state *st, const struct oc_unit *u, int sc)
{
	return st->scenario == sc && u->seat == st->scen_seat && u->scen && st->mark[u->sq];
}

/* ---------------------------------------------------------- fail helpers */

static int
must_be_active(const struct oc_state *st, int seat, struct wr_error *err)
{
	if (st->active < 0)
		return wr_fail(err, "no-active-unit", "", "activate a unit first");
	(void)seat;
	return 0;
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
		if (it->kind == OC_WEAPON && !usable_weapon(&tmp, it)) {
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

static int
legal_staff(const struct oc_state *st, int seat, const struct oc_action *a, struct wr_error *err)
{
	const struct oc_unit *u = &st->u[st->active];
	const struct oc_item *it;
	int t, d;

	if (a->slot < 0 || a->slot > 2 || u->item[a->slot] < 0)
		return wr_fail(err, "no-item", "slot", "no item in that slot");
	it = &oc_items[u->item[a->slot]];
	if (!is_staff(it))
		return wr_fail(err, "not-a-staff", "slot", "%s is not a staff", it->name);
	if (!usable_weapon(u, it))
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
		if (a->to < 0 || oc_dist(st, u->sq, a->to) > WARP_RANGE || a->to == u->sq)
			return wr_fail(err, "out-of-range", "to", "Rewarp reaches %d tiles", WARP_RANGE);
		if (!seat_sees(st, seat, a->to) || !passable(st, a->to) || oc_unit_at(st, a->to) >= 0)
			return wr_fail(err, "bad-destination", "to",
			               "the destination must be an empty tile you see");
		return 0;
	case OC_SP_VEIN:
		if (a->to >= 0)
			return wr_fail(err, "bad-target", "to", "Vein takes only a target tile");
		if (a->target < 0 || !oc_in_range(it, oc_dist(st, u->sq, a->target)))
			return wr_fail(err, "out-of-range", "target", "out of the staff's range");
		if (!seat_sees(st, seat, a->target) || oc_unit_at(st, a->target) >= 0)
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
				    st->u[i].hp < max_hp(&st->u[i]) &&
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
	t = known_unit_at(st, seat, a->target);
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
	if (it->special == OC_SP_HEAL && st->u[t].hp >= max_hp(&st->u[t]))
		return wr_fail(err, "full-health", "target", "that unit is at full health");
	if (it->special == OC_SP_RESTORE &&
	    !(st->u[t].poisoned || st->u[t].silenced || st->u[t].broken || st->u[t].frozen))
		return wr_fail(err, "no-status", "target", "that unit has no status effect");
	if (need_to) {
		int center = it->special == OC_SP_WARP ? -1 : u->sq;
		if (center >= 0 && oc_dist(st, center, a->to) != 1)
			return wr_fail(err, "bad-destination", "to", "the destination must be adjacent to the user");
		if (center < 0 && (oc_dist(st, u->sq, a->to) > WARP_RANGE))
			return wr_fail(err, "out-of-range", "to", "Warp reaches %d tiles", WARP_RANGE);
		if (!seat_sees(st, seat, a->to) || !passable(st, a->to) || oc_unit_at(st, a->to) >= 0)
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
		if (a->to >= 0 && known_unit_at(st, seat, a->to) >= 0 && a->to != u->sq)
			return wr_fail(err, "occupied", "to", "a move never ends on an occupied tile");
		if (a->to == u->sq || a->to < 0 || oc_dist(st, u->sq, a->to) > budget(st))
			return wr_fail(err, "unreachable", "to", "%s cannot reach that tile this turn",
			               u->name);
		reach(st, st->active, budget(st), cost, prev);
		if (cost[a->to] > budget(st))
			return wr_fail(err, "unreachable", "to", "%s cannot reach that tile this turn",
			               u->name);
		if (known_unit_at(st, seat, a->to) >= 0)
			return wr_fail(err, "occupied", "to", "a move never ends on an occupied tile");
		return 0;
	}
	case OC_A_ATTACK: {
		const struct oc_item *w;
		if (st->acted)
			return wr_fail(err, "already-acted", "", "one Action per turn");
		if (a->slot < 0 || a->slot > 2 || u->item[a->slot] < 0)
			return wr_fail(err, "no-item", "slot", "no item in that slot");
		w = &oc_items[u->item[a->slot]];
		if (w->kind != OC_WEAPON || is_staff(w))
			return wr_fail(err, "not-a-weapon", "slot", "%s cannot attack", w->name);
		if (!usable_weapon(u, w))
			return wr_fail(err, "not-proficient", "slot", "%s cannot use %s",
			               oc_classes[u->cls].id, w->name);
		if (u->silenced && w->wtype == OC_TOME)
			return wr_fail(err, "silenced", "slot", "a Silenced unit cannot use tomes");
		t = known_unit_at(st, seat, a->target);
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
		if (st->acted)
			return wr_fail(err, "already-acted", "", "one Action per turn");
		if (a->slot < 0 || a->slot > 2 || u->item[a->slot] < 0)
			return wr_fail(err, "no-item", "slot", "no item in that slot");
		it = &oc_items[u->item[a->slot]];
		if (it->kind != OC_CONSUMABLE || it->special == OC_SP_PICK)
			return wr_fail(err, "not-usable", "slot", "%s is not used this way", it->name);
		if (it->special == OC_SP_HEAL && u->hp >= max_hp(u))
			return wr_fail(err, "full-health", "slot", "%s is at full health", u->name);
		if (it->special == OC_SP_RESTORE && !(u->poisoned || u->silenced || u->frozen))
			return wr_fail(err, "no-status", "slot", "%s has no status effect", u->name);
		return 0;
	}
	case OC_A_EQUIP: {
		const struct oc_item *it;
		if (a->slot < 0 || a->slot > 2 || u->item[a->slot] < 0)
			return wr_fail(err, "no-item", "slot", "no item in that slot");
		it = &oc_items[u->item[a->slot]];
		if (a->slot == u->equip || a->slot == u->acc)
			return wr_fail(err, "already-equipped", "slot", "%s is already equipped", it->name);
		if (it->kind == OC_ACCESSORY)
			return 0;
		if (it->kind != OC_WEAPON || is_staff(it) || !usable_weapon(u, it))
			return wr_fail(err, "not-equippable", "slot", "%s cannot equip %s", u->name,
			               it->name);
		return 0;
	}
	case OC_A_DISCARD:
		if (a->slot < 0 || a->slot > 2 || u->item[a->slot] < 0)
			return wr_fail(err, "no-item", "slot", "no item in that slot");
		return 0;
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
		if (a->give >= 0 && a->take < 0 && free_slot(p) < 0)
			return wr_fail(err, "inventory-full", "give", "%s carries 3 items", p->name);
		if (a->take >= 0 && a->give < 0 && free_slot(u) < 0)
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
		if (!scen_ok(st, u, sc))
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
			if (count_units(st, seat, -1) >= st->nunits)
				return wr_fail(err, "army-full", "", "your army has %d units", st->nunits);
			return check_recruit(st, seat, &a->rec[0], -1, err);
		}
		if (a->type == OC_A_ARMY) {
			if (count_units(st, seat, -1) > 0)
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
		if (a->to < 0 || !in_zone(st, seat, a->to))
			return wr_fail(err, "outside-zone", "to", "deploy on your two nearest ranks");
		if (!passable(st, a->to))
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

/* ----------------------------------------------------------- to_act */

unsigned
oc_to_act(const struct oc_state *st)
{
	unsigned m = 0;

	switch (st->phase) {
	case OC_PH_RECRUIT:
	case OC_PH_DEPLOY:
		for (int s = 0; s < st->seats; s++)
			if (!st->ready[s])
				m |= 1u << s;
		return m;
	case OC_PH_BATTLE:
		if (st->pend)
			return 1u << st->u[st->pend_def].seat;
		if (st->active >= 0)
			return 1u << st->u[st->active].seat;
		return 1u << st->cur;
	default:
		return 0;
	}
}

/* ------------------------------------------------------------ events */

static struct oc_event *
push(struct wr_list *ev, enum oc_ev type, unsigned vis)
{
	struct oc_event *e = wr_list_push(ev);
	if (!e)
		return NULL;
	e->type = type;
	e->vis = vis;
	e->seat = e->unit = e->other = e->from = e->to = e->item = e->item2 = -1;
	return e;
}

/* An event about units: public without fog; under fog one copy per seat,
 * with what that seat does not see (unit at `from`, other at `to`) taken
 * out, and none for a seat that sees nothing of it (G5, O13). */
static void
emit_units(const struct oc_state *st, struct wr_list *ev, const struct oc_event *e)
{
	if (!st->fog) {
		struct oc_event *c = wr_list_push(ev);
		if (c) {
			*c = *e;
			c->vis = WR_VIS_PUBLIC;
		}
		return;
	}
	for (int s = 0; s < st->seats; s++) {
		int su = e->unit >= 0 && (st->u[e->unit].seat == s ||
		                          (e->from >= 0 && seat_sees(st, s, e->from)));
		int so = e->other >= 0 && (st->u[e->other].seat == s ||
		                           (e->to >= 0 && seat_sees(st, s, e->to)));
		int sto = e->to >= 0 && seat_sees(st, s, e->to);
		if (e->unit >= 0 && st->u[e->unit].seat == s)
			su = so = sto = 1;
		if (!su && !so && !(e->unit < 0 && e->other < 0))
			continue;
		struct oc_event *c = wr_list_push(ev);
		if (!c)
			return;
		*c = *e;
		c->vis = 1u << s;
		if (!su) {
			c->unit = -1;
			c->from = -1;
			memset(&c->fc, 0, sizeof(c->fc));
		}
		if (!so && !sto) {
			c->other = -1;
			c->to = -1;
		} else if (!so) {
			c->other = -1;
		}
	}
}

/* An event about a tile that everyone sees (terrain is public), made by a
 * unit: without fog public; under fog one copy per seat, the unit taken out
 * for a seat that does not see it; spectators get none (O13). */
static void
emit_tile(const struct oc_state *st, struct wr_list *ev, const struct oc_event *e, int seat)
{
	for (int s = 0; s < (st->fog ? st->seats : 1); s++) {
		struct oc_event *c = wr_list_push(ev);
		if (!c)
			return;
		*c = *e;
		c->vis = st->fog ? 1u << s : WR_VIS_PUBLIC;
		if (st->fog && s != seat && !(e->from >= 0 && seat_sees(st, s, e->from))) {
			c->unit = -1;
			c->from = -1;
		}
	}
}

/* ------------------------------------------------------- round flow */

static int
unactivated(const struct oc_state *st, int seat)
{
	for (int i = 0; i < st->nu; i++)
		if (st->u[i].seat == seat && st->u[i].where == OC_W_MAP && !st->u[i].activated)
			return 1;
	return 0;
}

static void check_victory(struct oc_state *st, struct wr_list *ev);

static void
end_game(struct oc_state *st, unsigned winners, int reason, struct wr_list *ev)
{
	struct oc_event *e;

	st->phase = OC_PH_OVER;
	st->winners = (int)winners;
	st->reason = reason;
	st->active = -1;
	e = push(ev, OC_E_OVER, WR_VIS_PUBLIC);
	if (e) {
		e->amount = (int)winners;
		e->kind = reason;
	}
}

static void
start_round(struct oc_state *st, struct wr_list *ev)
{
	struct oc_event *e;

	st->round++;
	for (int i = 0; i < st->nu; i++)
		st->u[i].activated = st->u[i].danced = 0;
	st->cur = st->first;
	if (!unactivated(st, st->cur))
		st->cur = !st->first;
	st->left = st->act[st->cur];
	e = push(ev, OC_E_ROUND, WR_VIS_PUBLIC);
	if (e) {
		e->amount = st->round;
		e->seat = st->cur;
	}
}

static void
end_round(struct oc_state *st, struct wr_list *ev)
{
	/* Vein and Torch last to the end of the round (O13, O15). */
	for (int t = 0; t < ntiles(st); t++)
		if (st->vein[t]) {
			st->terrain[t] = st->base[t];
			st->vein[t] = 0;
			st->tile_dmg[t] = 0;
			struct oc_event *e = push(ev, OC_E_VEIN_END, WR_VIS_PUBLIC);
			if (e) {
				e->to = t;
				e->kind = st->terrain[t];
			}
		}
	st->ntorch = 0;
	if (st->round_limit > 0 && st->round >= st->round_limit) {
		unsigned w = 0;
		if (st->scenario != OC_SC_ROUT)
			w = 1u << !st->scen_seat;       /* the defender held out */
		else if (st->routed[1] > st->routed[0])
			w = 1u;
		else if (st->routed[0] > st->routed[1])
			w = 2u;
		end_game(st, w, OC_R_ROUNDS, ev);
		return;
	}
	start_round(st, ev);
}

/* After an activation ends: the seat's alternation goes on or passes
 * (O6); a seat with no unit left to activate is skipped. */
static void
next_activation(struct oc_state *st, struct wr_list *ev)
{
	int other = !st->cur;

	if (st->phase != OC_PH_BATTLE)
		return;
	st->left--;
	if (st->left > 0 && unactivated(st, st->cur))
		return;
	if (unactivated(st, other)) {
		st->cur = other;
		st->left = st->act[other];
	} else if (unactivated(st, st->cur)) {
		st->left = st->act[st->cur];
	} else {
		end_round(st, ev);
	}
}

static void
end_turn(struct oc_state *st, struct wr_list *ev)
{
	int i = st->active;
	struct oc_event *e;

	if (i < 0)
		return;
	st->u[i].frozen = 0;      /* Freeze: its next turn; Silenced: one activation */
	st->u[i].silenced = 0;
	st->active = -1;
	e = push(ev, OC_E_TURN_END, WR_VIS_PUBLIC);
	if (e)
		e->seat = st->u[i].seat;
	next_activation(st, ev);
}

static void
routed_event(struct oc_state *st, int i, int sq, struct wr_list *ev)
{
	struct oc_event e = {.type = OC_E_ROUTED, .unit = i, .from = sq, .other = -1, .to = -1,
	                     .seat = st->u[i].seat, .item = -1, .item2 = -1};
	emit_units(st, ev, &e);
}

static void
check_victory(struct oc_state *st, struct wr_list *ev)
{
	int on[2];

	if (st->phase != OC_PH_BATTLE)
		return;
	for (int s = 0; s < 2; s++)
		on[s] = count_units(st, s, OC_W_MAP);
	if (st->scenario == OC_SC_ESCAPE) {
		int fs = st->scen_seat, need = (st->nunits + 1) / 2;
		if (st->escaped[fs] >= need) {
			end_game(st, 1u << fs, OC_R_ESCAPE, ev);
			return;
		}
		if (st->escaped[fs] + on[fs] < need) {
			end_game(st, 1u << !fs, OC_R_ROUT, ev);
			return;
		}
	}
	if (st->scenario == OC_SC_SEIZE) {
		for (int i = 0; i < st->nu; i++)
			if (st->u[i].seat == st->scen_seat && st->u[i].scen &&
			    st->u[i].where == OC_W_ROUTED) {
				end_game(st, 1u << !st->scen_seat, OC_R_ROUT, ev);
				return;
			}
	}
	if (on[0] == 0 && on[1] == 0)
		end_game(st, 0, OC_R_ROUT, ev);
	else if (on[0] == 0)
		end_game(st, 2u, OC_R_ROUT, ev);
	else if (on[1] == 0)
		end_game(st, 1u, OC_R_ROUT, ev);
}

/* --------------------------------------------------------- apply parts */

static void
add_unit(struct oc_state *st, int seat, const struct oc_recruit *r)
{
	struct oc_unit *u = &st->u[st->nu++];

	memset(u, 0, sizeof(*u));
	snprintf(u->name, sizeof(u->name), "%s", r->name);
	u->seat = seat;
	u->cls = r->cls;
	u->hp = oc_classes[r->cls].hp;
	u->where = OC_W_RESERVE;
	u->sq = -1;
	u->equip = u->acc = -1;
	for (int s = 0; s < 3; s++) {
		u->item[s] = s < r->nitems ? r->items[s] : -1;
		u->uses[s] = u->item[s] >= 0 ? oc_items[u->item[s]].uses : 0;
	}
	/* The first usable weapon (not a staff) and accessory start equipped. */
	for (int s = 0; s < 3; s++) {
		if (u->item[s] < 0)
			continue;
		const struct oc_item *it = &oc_items[u->item[s]];
		if (u->equip < 0 && it->kind == OC_WEAPON && !is_staff(it) && usable_weapon(u, it))
			u->equip = s;
		if (u->acc < 0 && it->kind == OC_ACCESSORY)
			u->acc = s;
	}
	/* Scenario Tags (O14): the first unit of the scenario's seat is its
	 * Leader; every unit of it is Fleeing or a Raider. */
	if (st->scenario != OC_SC_ROUT && seat == st->scen_seat)
		u->scen = st->scenario != OC_SC_SEIZE || count_units(st, seat, -1) == 1;
}

static void
use_up(struct oc_unit *u, int slot)
{
	if (u->uses[slot] <= 0)
		return;            /* unlimited */
	if (--u->uses[slot] == 0) {
		u->item[slot] = -1;
		if (u->equip == slot)
			u->equip = -1;
		if (u->acc == slot)
			u->acc = -1;
	}
}

static int
heal(struct oc_unit *u, int amount)
{
	int before = u->hp, max = max_hp(u);
	u->hp = u->hp + amount > max ? max : u->hp + amount;
	return u->hp - before;
}

static void
tile_start(struct oc_state *st, int i, struct wr_list *ev)
{
	struct oc_unit *u = &st->u[i];
	const struct oc_tile *tl = &oc_tiles[st->terrain[u->sq]];
	struct oc_event e = {.type = OC_E_TILE, .unit = i, .from = u->sq, .other = -1, .to = -1,
	                     .item = -1, .item2 = -1, .seat = u->seat};
	int sq = u->sq;

	if (tl->heal && u->hp < max_hp(u)) {
		e.amount = heal(u, tl->heal);
		e.kind = st->terrain[sq];
		e.hp = u->hp;
		emit_units(st, ev, &e);
	}
	if (tl->burn) {
		/* Flames: 5 Damage, Piercing (Defense or Resistance as E). */
		int d = tl->burn - OC_E;
		e.amount = -d;
		u->hp = u->hp > d ? u->hp - d : 0;
		e.kind = st->terrain[sq];
		e.hp = u->hp;
		emit_units(st, ev, &e);
		if (u->hp == 0) {
			u->where = OC_W_ROUTED;
			u->sq = -1;
			st->routed[u->seat]++;
			routed_event(st, i, sq, ev);
		}
	}
}

static void
do_move(struct oc_state *st, int seat, int to, struct wr_list *ev)
{
	int cost[OC_MAX_TILES], prev[OC_MAX_TILES], path[OC_MAX_TILES], n = 0;
	struct oc_unit *u = &st->u[st->active];
	int from = u->sq, stop = to, ambush = -1;

	reach(st, st->active, budget(st), cost, prev);
	for (int t = to; t != from && t >= 0; t = prev[t])
		path[n++] = t;
	/* Walk from the start; an unseen enemy on the path stops the unit on
	 * the last tile before it that it may end on (fog of war). */
	int last_free = from;
	for (int k = n - 1; k >= 0; k--) {
		int o = oc_unit_at(st, path[k]);
		if (o >= 0 && st->u[o].seat != seat) {
			ambush = o;
			stop = last_free;
			break;
		}
		if (o < 0)
			last_free = path[k];
	}
	if (ambush >= 0)
		stop = last_free;
	if (st->acted)
		st->canto = 0;
	else
		st->moved = 1;
	u->sq = stop;
	struct oc_event e = {.type = OC_E_MOVED, .unit = st->active, .from = from, .to = stop,
	                     .other = -1, .item = -1, .item2 = -1, .seat = seat};
	/* Under fog, other seats see the move's ends they see. */
	if (st->fog) {
		for (int s = 0; s < st->seats; s++) {
			int sf = s == seat || seat_sees(st, s, from), stt = s == seat || seat_sees(st, s, stop);
			if (!sf && !stt)
				continue;
			struct oc_event *c = wr_list_push(ev);
			if (!c)
				break;
			*c = e;
			c->vis = 1u << s;
			if (!sf)
				c->from = -1;
			if (!stt)
				c->to = -1;
		}
	} else {
		struct oc_event *c = wr_list_push(ev);
		if (c) {
			*c = e;
			c->vis = WR_VIS_PUBLIC;
		}
	}
	if (ambush >= 0) {
		struct oc_event *a = push(ev, OC_E_AMBUSH, 1u << seat);
		if (a) {
			a->unit = st->active;
			a->to = stop;
			a->seat = seat;
		}
	}
}

static void
after_action(struct oc_state *st)
{
	const struct oc_unit *u = &st->u[st->active];
	const struct oc_item *a = oc_accessory(u);

	st->acted = 1;
	st->canto = ((oc_classes[u->cls].tags & OC_T_CANTO) || (a && a->canto)) ? 2 : 0;
}

static void
destroy_tile(struct oc_state *st, int sq)
{
	if (st->terrain[sq] == OC_TR_GATE) {
		st->terrain[sq] = OC_TR_FLOOR;
		if (!st->vein[sq])
			st->base[sq] = OC_TR_FLOOR;
	} else if (st->vein[sq]) {
		st->terrain[sq] = st->base[sq];
		st->vein[sq] = 0;
	} else {
		st->terrain[sq] = st->base[sq] = OC_TR_PLAINS;
	}
	st->tile_dmg[sq] = 0;
}

/* The combat of the active unit against t, its events and routs. */
static void
resolve_attack(struct oc_state *st, int t, int guard, struct wr_rng *rng, struct wr_list *ev)
{
	struct oc_unit *u = &st->u[st->active];
	struct oc_event e = {.type = OC_E_COMBAT, .seat = u->seat, .item = u->item[u->equip],
	                     .item2 = -1};
	int before[OC_MAX_ALL];
	const struct oc_item *dw = oc_weapon(&st->u[t]);

	for (int i = 0; i < st->nu; i++)
		before[i] = st->u[i].where == OC_W_MAP ? st->u[i].sq : -1;
	e.item2 = dw ? st->u[t].item[st->u[t].equip] : -1;
	oc_combat(st, st->active, t, guard, rng, &e);
	emit_units(st, ev, &e);
	for (int i = 0; i < st->nu; i++)
		if (before[i] >= 0 && st->u[i].where == OC_W_ROUTED)
			routed_event(st, i, before[i], ev);
}

static void
do_attack(struct oc_state *st, int seat, const struct oc_action *a, struct wr_rng *rng,
          struct wr_list *ev)
{
	struct oc_unit *u = &st->u[st->active];
	int t = oc_unit_at(st, a->target);

	u->equip = a->slot;
	if (t < 0) {
		/* Gate/Door and Ice: deal 15 Damage to destroy (always hits). */
		const struct oc_item *w = oc_weapon(u);
		int base = 3 + oc_rating(st, u, w->magic ? OC_MAG : OC_STR) + w->mt;
		struct oc_event e = {.type = OC_E_TILE_HIT, .unit = st->active, .from = u->sq,
		                     .to = a->target, .other = -1, .item = -1, .item2 = -1,
		                     .seat = seat, .amount = base * (w->brave ? 2 : 1),
		                     .kind = st->terrain[a->target]};
		st->tile_dmg[a->target] += e.amount;
		if (st->tile_dmg[a->target] >= oc_tiles[st->terrain[a->target]].hp) {
			destroy_tile(st, a->target);
			e.hp = 1;
		}
		emit_tile(st, ev, &e, seat);
	} else if (!st->fog && st->qi[st->u[t].seat] == OC_QI_ASK &&
	           oc_qi_candidates(st, t, (int[OC_MAX_ALL]){0}) > 0) {
		/* A Qi Adept may take the first strike: the defender's seat is
		 * asked (G3) before any die is rolled. Without fog only: under fog
		 * the question would reveal a hidden adept (README). */
		st->pend = 1;
		st->pend_att = st->active;
		st->pend_def = t;
		struct oc_event *q = push(ev, OC_E_GUARD_ASKED, WR_VIS_PUBLIC);
		if (q) {
			q->seat = st->u[t].seat;
			q->unit = st->active;
			q->from = u->sq;
			q->other = t;
			q->to = st->u[t].sq;
		}
	} else {
		resolve_attack(st, t, -2, rng, ev);
	}
	after_action(st);
}

/* Enemy targets of a staff: roll as an attack with the staff (O9), no
 * crit; the forecast of a staff action shows the same number. */
int
oc_staff_hit(const struct oc_state *st, int user, int slot, int t)
{
	struct oc_state *tmp = malloc(sizeof(*tmp));
	int hit = 0, crit, dmg, cdmg;

	if (!tmp)
		return 0;
	*tmp = *st;
	tmp->u[user].equip = slot;
	oc_strike_numbers(tmp, user, t, 0, &hit, &crit, &dmg, &cdmg);
	free(tmp);
	return hit;
}

static int
staff_roll(const struct oc_state *st, int user, int slot, int t, struct wr_rng *rng,
           struct oc_event *e)
{
	int hit = oc_staff_hit(st, user, slot, t);

	e->need = hit;
	e->roll = (int)wr_die(rng, 100);
	e->hit = e->roll <= hit;
	return e->hit;
}

static void
apply_status(struct oc_unit *t, int status)
{
	switch (status) {
	case OC_ST_POISONED:
		t->poisoned = 1;
		break;
	case OC_ST_SILENCED:
		t->silenced = 1;
		break;
	case OC_ST_BROKEN:
		if (!(oc_classes[t->cls].tags & OC_T_ARMOR))
			t->broken = 1;
		break;
	default:
		break;
	}
}

static void
add_torch(struct oc_state *st, int seat, int sq, int radius)
{
	if (st->ntorch < OC_MAX_TORCH)
		st->torch[st->ntorch++] = (struct oc_torch){seat, sq, radius};
}

static void
do_staff(struct oc_state *st, int seat, const struct oc_action *a, struct wr_rng *rng,
         struct wr_list *ev)
{
	struct oc_unit *u = &st->u[st->active];
	int item = u->item[a->slot];
	const struct oc_item *it = &oc_items[item];
	int t = oc_unit_at(st, a->target);
	int mag = 3 + oc_rating(st, u, OC_MAG);
	struct oc_event e = {.type = OC_E_STAFF, .seat = seat, .unit = st->active, .from = u->sq,
	                     .other = t, .to = t >= 0 ? st->u[t].sq : a->target, .item = item,
	                     .item2 = -1, .special = it->special, .hit = 1};

	switch (it->special) {
	case OC_SP_HEAL:
		if (it->aoe) {
			e.other = -1;
			e.to = -1;
			for (int i = 0; i < st->nu; i++)
				if (st->u[i].seat == seat && st->u[i].where == OC_W_MAP &&
				    oc_in_range(it, oc_dist(st, u->sq, st->u[i].sq)))
					e.amount += heal(&st->u[i], it->sp_arg + mag);
		} else {
			e.amount = heal(&st->u[t], it->sp_arg + mag);
			e.hp = st->u[t].hp;
		}
		break;
	case OC_SP_TORCH:
		add_torch(st, seat, u->sq, it->sp_arg);
		e.amount = it->sp_arg;
		e.other = -1;
		e.to = -1;
		break;
	case OC_SP_REWARP:
		e.other = -1;
		e.to = a->to;
		u->sq = a->to;
		break;
	case OC_SP_VEIN:
		e.other = -1;
		st->base[a->target] = st->terrain[a->target];
		st->terrain[a->target] = (unsigned char)it->sp_arg;
		st->vein[a->target] = 1;
		st->tile_dmg[a->target] = 0;
		e.kind = it->sp_arg;
		break;
	case OC_SP_RESCUE:
	case OC_SP_WARP:
		st->u[t].sq = a->to;
		e.amount = a->to;
		break;
	case OC_SP_RESTORE:
		st->u[t].poisoned = st->u[t].silenced = st->u[t].broken = st->u[t].frozen = 0;
		break;
	case OC_SP_ENTRAP:
		if (staff_roll(st, st->active, a->slot, t, rng, &e)) {
			st->u[t].sq = a->to;
			e.amount = a->to;
		}
		break;
	case OC_SP_FREEZE:
		if (staff_roll(st, st->active, a->slot, t, rng, &e))
			st->u[t].frozen = 1;
		break;
	case OC_SP_STATUS:
		if (staff_roll(st, st->active, a->slot, t, rng, &e))
			apply_status(&st->u[t], it->status);
		e.status = it->status;
		break;
	default:
		break;
	}
	use_up(u, a->slot);
	if (it->special == OC_SP_VEIN || it->special == OC_SP_TORCH || it->aoe) {
		emit_tile(st, ev, &e, seat);
	} else {
		emit_units(st, ev, &e);
	}
	after_action(st);
}

static void
do_use(struct oc_state *st, int seat, const struct oc_action *a, struct wr_list *ev)
{
	struct oc_unit *u = &st->u[st->active];
	int item = u->item[a->slot];
	const struct oc_item *it = &oc_items[item];
	struct oc_event e = {.type = OC_E_USE, .seat = seat, .unit = st->active, .from = u->sq,
	                     .other = -1, .to = -1, .item = item, .item2 = -1,
	                     .special = it->special};

	switch (it->special) {
	case OC_SP_HEAL:
		e.amount = heal(u, it->sp_arg + 3 + oc_rating(st, u, OC_MAG));
		break;
	case OC_SP_TORCH:
		add_torch(st, seat, u->sq, it->sp_arg);
		e.amount = it->sp_arg;
		break;
	case OC_SP_RESTORE:
		u->poisoned = u->silenced = u->frozen = 0;
		break;
	case OC_SP_STATUS:
		if (it->status == OC_ST_BARRIER)
			u->barrier = st->round + 1;     /* until the end of next round */
		else
			apply_status(u, it->status);
		e.status = it->status;
		break;
	default:
		break;
	}
	e.hp = u->hp;
	use_up(u, a->slot);
	emit_units(st, ev, &e);
	after_action(st);
}

static void
do_trade(struct oc_state *st, int seat, const struct oc_action *a, struct wr_list *ev)
{
	struct oc_unit *u = &st->u[st->active];
	int t = oc_unit_at(st, a->with);
	struct oc_unit *p = &st->u[t];
	struct oc_event e = {.type = OC_E_TRADE, .seat = seat, .unit = st->active, .from = u->sq,
	                     .other = t, .to = p->sq, .item = -1, .item2 = -1};

	int gs = a->give, ts = a->take;
	int gi = gs >= 0 ? u->item[gs] : -1, gu = gs >= 0 ? u->uses[gs] : 0;
	int ti = ts >= 0 ? p->item[ts] : -1, tu = ts >= 0 ? p->uses[ts] : 0;
	if (gs >= 0) {
		if (u->equip == gs)
			u->equip = -1;
		if (u->acc == gs)
			u->acc = -1;
		u->item[gs] = -1;
		u->uses[gs] = 0;
	}
	if (ts >= 0) {
		if (p->equip == ts)
			p->equip = -1;
		if (p->acc == ts)
			p->acc = -1;
		p->item[ts] = -1;
		p->uses[ts] = 0;
	}
	if (gi >= 0) {
		int s = ts >= 0 ? ts : free_slot(p);
		p->item[s] = gi;
		p->uses[s] = gu;
	}
	if (ti >= 0) {
		int s = gs >= 0 ? gs : free_slot(u);
		u->item[s] = ti;
		u->uses[s] = tu;
	}
	/* A unit left with nothing equipped equips what it receives. */
	struct oc_unit *both[2] = {u, p};
	for (int k = 0; k < 2; k++)
		for (int s = 0; s < 3; s++) {
			struct oc_unit *x = both[k];
			if (x->item[s] < 0)
				continue;
			const struct oc_item *it = &oc_items[x->item[s]];
			if (x->equip < 0 && it->kind == OC_WEAPON && !is_staff(it) && usable_weapon(x, it))
				x->equip = s;
			if (x->acc < 0 && it->kind == OC_ACCESSORY)
				x->acc = s;
		}
	e.item = gi;
	e.item2 = ti;
	st->traded = t;
	emit_units(st, ev, &e);
}

/* --------------------------------------------------------------- apply */

void
oc_apply(void *state, int seat, const void *action, struct wr_rng *rng, struct wr_list *ev)
{
	struct oc_state *st = state;
	const struct oc_action *a = action;
	struct oc_unit *u = st->active >= 0 ? &st->u[st->active] : NULL;
	struct oc_event *e;

	switch (a->type) {
	case OC_A_RECRUIT:
	case OC_A_ARMY:
		for (int k = 0; k < a->nrec; k++) {
			add_unit(st, seat, &a->rec[k]);
			e = push(ev, OC_E_RECRUITED, 1u << seat);
			if (e) {
				e->unit = st->nu - 1;
				e->seat = seat;
			}
		}
		if (count_units(st, seat, -1) == st->nunits) {
			st->ready[seat] = 1;
			e = push(ev, OC_E_ARMY_READY, WR_VIS_PUBLIC);
			if (e)
				e->seat = seat;
			if (st->ready[0] && st->ready[1]) {
				st->phase = OC_PH_DEPLOY;
				st->ready[0] = st->ready[1] = 0;
			}
		}
		return;
	case OC_A_DEPLOY: {
		int i = -1;
		for (int k = 0; k < st->nu; k++)
			if (st->u[k].seat == seat && strcmp(st->u[k].name, a->unit) == 0)
				i = k;
		st->u[i].where = OC_W_MAP;
		st->u[i].sq = a->to;
		e = push(ev, OC_E_DEPLOYED, 1u << seat);
		if (e) {
			e->unit = i;
			e->to = a->to;
			e->seat = seat;
		}
		if (count_units(st, seat, OC_W_RESERVE) == 0) {
			st->ready[seat] = 1;
			e = push(ev, OC_E_ARMY_READY, WR_VIS_PUBLIC);
			if (e)
				e->seat = seat;
		}
		if (st->ready[0] && st->ready[1]) {
			st->phase = OC_PH_BATTLE;
			push(ev, OC_E_DEPLOY_DONE, WR_VIS_PUBLIC);
			start_round(st, ev);
		}
		return;
	}
	case OC_A_ACTIVATE: {
		int i = oc_unit_at(st, a->at);
		st->active = i;
		st->moved = st->acted = 0;
		st->canto = 0;
		st->traded = -1;
		st->u[i].activated = 1;
		st->u[i].broken = 0;     /* activating the unit clears Broken */
		struct oc_event ae = {.type = OC_E_ACTIVATED, .seat = seat, .unit = i, .from = a->at,
		                      .other = -1, .to = -1, .item = -1, .item2 = -1};
		emit_units(st, ev, &ae);
		tile_start(st, i, ev);
		if (st->u[i].where != OC_W_MAP) {
			st->active = -1;
			check_victory(st, ev);
			next_activation(st, ev);
		}
		return;
	}
	case OC_A_MOVE:
		do_move(st, seat, a->to, ev);
		return;
	case OC_A_ATTACK:
		do_attack(st, seat, a, rng, ev);
		break;
	case OC_A_STAFF:
		do_staff(st, seat, a, rng, ev);
		break;
	case OC_A_DANCE: {
		int t = oc_unit_at(st, a->target);
		st->u[t].activated = 0;
		st->u[t].danced = 1;
		struct oc_event de = {.type = OC_E_STAFF, .seat = seat, .unit = st->active,
		                      .from = u->sq, .other = t, .to = a->target, .item = -1,
		                      .item2 = -1, .special = -1, .hit = 1};
		emit_units(st, ev, &de);
		after_action(st);
		break;
	}
	case OC_A_PICK: {
		int used = -1;
		if (!(oc_classes[u->cls].tags & OC_T_PICK))
			for (int s = 0; s < 3 && used < 0; s++)
				if (u->item[s] >= 0 && oc_items[u->item[s]].special == OC_SP_PICK &&
				    oc_items[u->item[s]].kind == OC_CONSUMABLE)
					used = s;
		struct oc_event pe = {.type = OC_E_STAFF, .seat = seat, .unit = st->active,
		                      .from = u->sq, .other = -1, .to = a->target,
		                      .item = used >= 0 ? u->item[used] : -1, .item2 = -1,
		                      .special = OC_SP_PICK, .hit = 1};
		if (used >= 0)
			use_up(u, used);
		st->terrain[a->target] = OC_TR_FLOOR;
		st->base[a->target] = OC_TR_FLOOR;
		st->tile_dmg[a->target] = 0;
		emit_tile(st, ev, &pe, seat);
		after_action(st);
		break;
	}
	case OC_A_USE:
		do_use(st, seat, a, ev);
		break;
	case OC_A_EQUIP: {
		const struct oc_item *it = &oc_items[u->item[a->slot]];
		if (it->kind == OC_ACCESSORY)
			u->acc = a->slot;
		else
			u->equip = a->slot;
		struct oc_event qe = {.type = OC_E_EQUIP, .seat = seat, .unit = st->active,
		                      .from = u->sq, .other = -1, .to = -1,
		                      .item = u->item[a->slot], .item2 = -1};
		emit_units(st, ev, &qe);
		return;
	}
	case OC_A_DISCARD: {
		struct oc_event de = {.type = OC_E_DISCARD, .seat = seat, .unit = st->active,
		                      .from = u->sq, .other = -1, .to = -1,
		                      .item = u->item[a->slot], .item2 = -1};
		u->item[a->slot] = -1;
		u->uses[a->slot] = 0;
		if (u->equip == a->slot)
			u->equip = -1;
		if (u->acc == a->slot)
			u->acc = -1;
		emit_units(st, ev, &de);
		return;
	}
	case OC_A_TRADE:
		do_trade(st, seat, a, ev);
		return;
	case OC_A_SEIZE:
	case OC_A_ESCAPE:
	case OC_A_RAZE: {
		struct oc_event se = {.type = a->type == OC_A_SEIZE ? OC_E_SEIZED
		                            : a->type == OC_A_ESCAPE ? OC_E_ESCAPED : OC_E_RAZED,
		                      .seat = seat, .unit = st->active, .from = u->sq, .other = -1,
		                      .to = -1, .item = -1, .item2 = -1};
		emit_tile(st, ev, &se, seat);
		if (a->type == OC_A_SEIZE) {
			end_game(st, 1u << seat, OC_R_SEIZE, ev);
			return;
		}
		if (a->type == OC_A_ESCAPE) {
			u->where = OC_W_ESCAPED;   /* the turn ends below */
			u->sq = -1;
			st->escaped[seat]++;
		} else {
			st->mark[u->sq] = 0;
			st->terrain[u->sq] = st->base[u->sq] = OC_TR_RUINS;
			st->vein[u->sq] = 0;
			st->razed++;
			int left = 0;
			for (int t = 0; t < ntiles(st); t++)
				left += st->mark[t];
			if (left == 0) {
				end_game(st, 1u << seat, OC_R_RAZE, ev);
				return;
			}
		}
		after_action(st);
		break;
	}
	case OC_A_END:
		end_turn(st, ev);
		check_victory(st, ev);
		return;
	case OC_A_GUARD:
	case OC_A_NO_GUARD:
		st->pend = 0;
		resolve_attack(st, st->pend_def, a->type == OC_A_GUARD ? oc_unit_at(st, a->at) : -1,
		               rng, ev);
		break;
	default:
		return;
	}
	/* After an Action: routs decide the match; a unit no longer on the
	 * map ends its turn. */
	check_victory(st, ev);
	if (st->phase == OC_PH_BATTLE && st->active >= 0 && st->u[st->active].where != OC_W_MAP)
		end_turn(st, ev);
}

void
oc_resign(struct oc_state *st, int seat, struct wr_list *ev)
{
	if (st->phase == OC_PH_OVER)
		return;
	end_game(st, 1u << !seat, OC_R_RESIGN, ev);
}

/* ---------------------------------------------------------- candidates */

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
			    oc_items[i].wtype == t && usable_weapon(&tmp, &oc_items[i]) &&
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
			if (!oc_items[w].offered || !usable_weapon(&tmp, &oc_items[w]))
				continue;
			struct oc_action *a = cand(out, OC_A_RECRUIT);
			if (!a)
				return;
			a->nrec = 1;
			kit(c, w, vul, &a->rec[0]);
			memcpy(a->rec[0].name, name, sizeof(name));
		}
	}
	if (count_units(st, seat, -1) == 0) {
		struct oc_action *a = cand(out, OC_A_ARMY);
		if (!a)
			return;
		a->nrec = st->nunits;
		for (int k = 0; k < st->nunits; k++) {
			int c = oc_class_find(sample_army[k % 12]), w = -1;
			struct oc_unit tmp = {.cls = c};
			for (int i = oc_nitems - 1; i >= 0 && w < 0; i--)
				if (oc_items[i].offered && usable_weapon(&tmp, &oc_items[i]) &&
				    !is_staff(&oc_items[i]))
					w = i;
			if (w < 0)
				for (int i = oc_nitems - 1; i >= 0 && w < 0; i--)
					if (oc_items[i].offered && usable_weapon(&tmp, &oc_items[i]))
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
	int n = ntiles(st);
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
				if (!in_zone(st, seat, t) || !(a = cand(out, OC_A_DEPLOY)))
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
	int bud = budget(st);
	for (int t = 0; t < n; t++)
		if (oc_dist(st, u->sq, t) <= bud && t != u->sq && (a = cand(out, OC_A_MOVE)))
			a->to = t;
	for (int s = 0; s < 3; s++) {
		if (u->item[s] < 0)
			continue;
		const struct oc_item *it = &oc_items[u->item[s]];
		if (it->kind == OC_WEAPON && !is_staff(it)) {
			for (int t = 0; t < n; t++)
				if ((oc_unit_at(st, t) >= 0 || st->terrain[t] == OC_TR_GATE ||
				     st->terrain[t] == OC_TR_ICE) && oc_in_range(it, oc_dist(st, u->sq, t)) &&
				    (a = cand(out, OC_A_ATTACK))) {
					a->slot = s;
					a->target = t;
				}
		} else if (is_staff(it)) {
			int needs_to = it->special == OC_SP_ENTRAP || it->special == OC_SP_RESCUE ||
			               it->special == OC_SP_WARP;
			if (it->special == OC_SP_TORCH || (it->special == OC_SP_HEAL && it->aoe)) {
				if ((a = cand(out, OC_A_STAFF)))
					a->slot = s;
			} else if (it->special == OC_SP_REWARP) {
				for (int t = 0; t < n; t++)
					if (oc_dist(st, u->sq, t) <= WARP_RANGE && (a = cand(out, OC_A_STAFF))) {
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
						if (it->special == OC_SP_WARP && oc_dist(st, u->sq, d) > WARP_RANGE)
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

/* ------------------------------------------------------------- start */

void
oc_start(struct oc_state *st, struct wr_rng *rng)
{
	st->phase = OC_PH_RECRUIT;
	st->active = -1;
	st->traded = -1;
	st->first = st->first_random ? (int)wr_die(rng, 2) - 1 : 0;
	st->cur = st->first;
	st->qi[0] = st->qi[1] = OC_QI_ASK;
}
