/* Officers Chess: the board as each seat knows it (no JSON, no apply):
 * squares and units, what a seat sees (O13), where a unit can reach (O7),
 * the unit and item predicates the rules share, and who is awaited.
 * The bottom of the rule files: it calls only the data; oc_combat.c,
 * oc_cand.c, oc_legal.c, oc_rules.c and the codec call into it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oc_rules.h"

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

/* The item in a unit's slot when it is of the kind, else NULL. */
static const struct oc_item *
held(const struct oc_unit *u, int slot, int kind)
{
	if (slot < 0 || u->item[slot] < 0)
		return NULL;
	const struct oc_item *it = &oc_items[u->item[slot]];
	return it->kind == kind ? it : NULL;
}

const struct oc_item *
oc_weapon(const struct oc_unit *u)
{
	return held(u, u->equip, OC_WEAPON);
}

const struct oc_item *
oc_accessory(const struct oc_unit *u)
{
	return held(u, u->acc, OC_ACCESSORY);
}

/* Movement (O7): 4, 5 promoted, +1 Cavalry, less Slow, more with an
 * accessory's Fast. */
int
oc_movement(const struct oc_state *st, const struct oc_unit *u)
{
	const struct oc_class *c = &oc_classes[u->cls];
	const struct oc_item *a = oc_accessory(u);
	int m = c->promoted ? 5 : 4;

	(void)st;
	if (c->tags & OC_T_CAVALRY)
		m += 1;
	m -= c->slow;
	if (a)
		m += a->fast;
	return m < 0 ? 0 : m;
}

int
oc_ntiles(const struct oc_state *st)
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
	int n = oc_ntiles(st);

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

int
oc_seat_sees(const struct oc_state *st, int seat, int sq)
{
	unsigned char seen[OC_MAX_TILES];

	oc_sight(st, seat, seen);
	return seen[sq];
}

int
oc_may_reveal(const void *state, int seat, json_object *action)
{
	(void)seat;
	(void)action;
	return ((const struct oc_state *)state)->fog;
}

/* G7 (amended), O13: under fog a post stands once some seat sees a unit
 * of another seat it did not see before, or a tile it did not see before:
 * an empty tile scouted tells the seat that no enemy stands there, and
 * taking the move back would let it scout for free. In deployment the
 * enemy is hidden on every tile (oc_visible), so only battle counts. */
int
oc_undo_barrier(const void *before, const void *after, int seat, const struct wr_events *ev)
{
	const struct oc_state *a = before, *b = after;
	unsigned char sa[OC_MAX_TILES], sb[OC_MAX_TILES];

	(void)seat;
	(void)ev;
	for (int s = 0; s < b->seats; s++)
		for (int i = 0; i < b->nu && i < a->nu; i++)
			if (b->u[i].seat != s && !oc_visible(a, s, i) && oc_visible(b, s, i))
				return 1;
	if (!a->fog || a->phase != OC_PH_BATTLE || b->phase != OC_PH_BATTLE)
		return 0;
	for (int s = 0; s < b->seats; s++) {
		oc_sight(a, s, sa);
		oc_sight(b, s, sb);
		for (int t = 0; t < oc_ntiles(b); t++)
			if (sb[t] && !sa[t])
				return 1;
	}
	return 0;
}

/* A unit the seat knows to be at sq (its own, or an enemy it sees). */
int
oc_known_unit_at(const struct oc_state *st, int seat, int sq)
{
	int i = oc_unit_at(st, sq);
	if (i < 0)
		return -1;
	return oc_visible(st, seat, i) ? i : -1;
}

int
oc_count_units(const struct oc_state *st, int seat, int where)
{
	int n = 0;
	for (int i = 0; i < st->nu; i++)
		if (st->u[i].seat == seat && (where < 0 || st->u[i].where == where))
			n++;
	return n;
}

int
oc_usable_weapon(const struct oc_unit *u, const struct oc_item *it)
{
	const struct oc_class *c = &oc_classes[u->cls];
	return it->kind == OC_WEAPON && it->wtype >= 0 && c->prof[it->wtype] >= it->level;
}

int
oc_is_staff(const struct oc_item *it)
{
	return it->kind == OC_WEAPON && it->wtype == OC_STAFF;
}

int
oc_in_zone(const struct oc_state *st, int seat, int sq)
{
	int r = sq / st->files;
	return seat == 0 ? r < 2 : r >= st->ranks - 2;
}

int
oc_passable(const struct oc_state *st, int sq)
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
void
oc_reach(const struct oc_state *st, int i, int limit, int *cost, int *prev)
{
	static const int dx[4] = {0, 1, 0, -1}, dy[4] = {1, 0, -1, 0};
	const struct oc_unit *u = &st->u[i];
	int n = oc_ntiles(st);
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
				if (!oc_passable(st, t) || enemy[t])
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

int
oc_budget(const struct oc_state *st)
{
	const struct oc_unit *u = &st->u[st->active];
	if (st->acted)
		return st->canto > 0 ? st->canto : 0;
	return oc_movement(st, u);
}

int
oc_free_slot(const struct oc_unit *u)
{
	for (int s = 0; s < 3; s++)
		if (u->item[s] < 0)
			return s;
	return -1;
}

int
oc_max_hp(const struct oc_unit *u)
{
	return oc_classes[u->cls].hp;
}

/* The scenario tiles a unit may use now. */
int
oc_scen_ok(const struct oc_state *st, const struct oc_unit *u, int sc)
{
	return st->scenario == sc && u->seat == st->scen_seat && u->scen && st->mark[u->sq];
}

/* ----------------------------------------------------------- to_act */

unsigned
oc_to_act(const void *state)
{
	const struct oc_state *st = state;
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
