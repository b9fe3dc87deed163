/* Officers Chess for the computer player (issue 27, bot/): a state
 * rebuilt from one seat's view, and an evaluation.
 *
 * What the view hides (G5, O5, O13): the other army until both are
 * deployed, and under fog every enemy unit the seat does not see (and
 * the enemy's routed and escaped counts). The determinization:
 * - recruiting: the other army is not yet recruited (the playouts
 *   recruit one at random);
 * - deploying: the other army is a copy of the bot's own (classes and
 *   items), in reserve, or, once the other seat is ready, placed on free
 *   squares of its two ranks drawn from rng;
 * - in battle under fog: each enemy unit not seen is a copy of one of the
 *   bot's own units, on a free square the bot does not see, drawn from
 *   rng (or routed when there is none).
 * Not in any view, read back as a best guess: who activates first in a
 * round (the seat to act, when nobody has activated yet this round, else
 * seat 0), the activations left in the alternation (the seat's full
 * allowance), Vein's base tiles and Torch (none), Dance (not danced).
 * Calls the board and the data; only the ruleset table names it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "botview.h"
#include "oc_rules.h"

extern const struct wr_ruleset oc_ruleset;

#define B (&wr_board8)

static void
read_unit(struct oc_state *st, struct oc_unit *u, json_object *x)
{
	const char *name = wr_v_str(x, "name"), *cls = wr_v_str(x, "class");
	size_t n;
	json_object *items = wr_v_array(x, "items", &n), *tags, *status;

	snprintf(u->name, sizeof(u->name), "%s", name ? name : "Unit");
	u->seat = wr_v_int(x, "seat", 0) ? 1 : 0;
	u->cls = cls ? oc_class_find(cls) : 0;
	if (u->cls < 0)
		u->cls = 0;
	u->hp = wr_v_int(x, "hp", 0);
	u->where = wr_v_name(x, "where", oc_where_names, OC_W_MAX, OC_W_RESERVE);
	u->sq = u->where == OC_W_MAP ? wr_v_sq(x, "square", B) : -1;
	u->equip = u->acc = -1;
	for (int k = 0; k < 3; k++) {
		json_object *it = k < (int)n ? json_object_array_get_idx(items, (size_t)k) : NULL;
		const char *iname = it ? wr_v_str(it, "name") : NULL;
		u->item[k] = iname ? oc_item_find(iname) : -1;
		u->uses[k] = u->item[k] >= 0 ? wr_v_int(it, "uses", 0) : 0;
		if (u->item[k] >= 0 && wr_v_bool(it, "equipped", 0)) {
			if (oc_items[u->item[k]].kind == OC_WEAPON)
				u->equip = k;
			else if (oc_items[u->item[k]].kind == OC_ACCESSORY)
				u->acc = k;
		}
	}
	u->activated = wr_v_bool(x, "activated", 0);
	tags = wr_v_array(x, "tags", &n);
	for (size_t k = 0; k < n; k++) {
		const char *t = json_object_get_string(json_object_array_get_idx(tags, k));
		if (t && (!strcmp(t, "Leader") || !strcmp(t, "Fleeing") || !strcmp(t, "Raider")))
			u->scen = 1;
	}
	status = wr_v_array(x, "status", &n);
	for (size_t k = 0; k < n; k++) {
		const char *t = json_object_get_string(json_object_array_get_idx(status, k));
		if (!t)
			continue;
		u->broken |= !strcmp(t, "Broken");
		u->poisoned |= !strcmp(t, "Poisoned");
		u->silenced |= !strcmp(t, "Silenced");
		u->frozen |= !strcmp(t, "Frozen");
		if (!strcmp(t, "Barrier"))
			u->barrier = st->round > 0 ? st->round : 1;
	}
}

/* A free square for an unseen enemy unit: not seen (when `seen` is
 * given), in `rows` (a rank mask) when given, passable, empty. */
static int
free_square(struct oc_state *st, const unsigned char *seen, unsigned rows, struct wr_rng *rng)
{
	int cand[64], n = 0;
	for (int t = 0; t < 64; t++) {
		if ((seen && seen[t]) || (rows && !(rows & (1u << (t / 8)))))
			continue;
		if (oc_tiles[st->terrain[t]].move < 0 || oc_unit_at(st, t) >= 0)
			continue;
		cand[n++] = t;
	}
	return n ? cand[rng->next(rng, (uint32_t)n)] : -1;
}

/* Copies of the bot's own units stand for the enemy units it cannot see
 * (`missing` of them), each where `rows`/`seen` allow. */
static void
fill_enemy(struct oc_state *st, int seat, int missing, int where, const unsigned char *seen,
           unsigned rows, struct wr_rng *rng)
{
	int own[OC_MAX_ALL], nown = 0;
	for (int i = 0; i < st->nu; i++)
		if (st->u[i].seat == seat)
			own[nown++] = i;
	for (int k = 0; k < missing && nown && st->nu < OC_MAX_ALL; k++) {
		struct oc_unit *u = &st->u[st->nu];
		*u = st->u[own[rng->next(rng, (uint32_t)nown)]];
		u->seat = !seat;
		u->hp = oc_classes[u->cls].hp;
		u->activated = u->broken = u->poisoned = u->silenced = u->frozen = u->barrier = 0;
		u->scen = 0;
		snprintf(u->name, sizeof(u->name), "Unseen%d", k + 1);
		u->where = where;
		u->sq = -1;
		st->nu++;
		if (where == OC_W_MAP) {
			int t = free_square(st, seen, rows, rng);
			if (t < 0)
				t = free_square(st, NULL, 0, rng);
			if (t < 0) {
				u->where = OC_W_ROUTED;
				u->hp = 0;
			} else
				u->sq = t;
		}
	}
}

void *
oc_determinize(json_object *view, int seat, struct wr_rng *rng, struct wr_error *err)
{
	struct oc_state *st = calloc(1, sizeof(*st));
	json_object *opts = wr_v_get(view, "options"), *us, *seats, *res = wr_v_get(view, "result");
	unsigned char seen[OC_MAX_TILES];
	size_t n;
	int shown = 0, any_act = 0;

	if (!st)
		return wr_bot_finish(&oc_ruleset, NULL, err);
	if (seat < 0 || seat > 1) {
		free(st);
		wr_fail(err, "bad-seat", "seat", "no seat %d", seat);
		return NULL;
	}
	st->seats = 2;
	st->files = st->ranks = 8;
	st->nunits = wr_v_int(opts, "units", 5);
	st->promoted = wr_v_bool(opts, "promoted", 0);
	st->fog = wr_v_bool(opts, "fog", 0);
	{
		json_object *a = wr_v_array(opts, "activations", &n);
		for (int s = 0; s < 2; s++)
			st->act[s] = s < (int)n ? json_object_get_int(json_object_array_get_idx(a, (size_t)s)) : 1;
	}
	st->round_limit = wr_v_int(opts, "round_limit", 0);
	st->scenario = wr_v_name(opts, "scenario", oc_scenario_names, OC_SC_MAX, OC_SC_ROUT);
	st->scen_seat = wr_v_int(opts, "scenario_seat", 0);
	snprintf(st->map, sizeof(st->map), "%s", wr_v_str(opts, "map") ? wr_v_str(opts, "map") : "plains");
	{
		const char *g = wr_v_str(view, "grid");
		if (!g || oc_parse_grid(g, st->terrain, err) != 0) {
			free(st);
			wr_fail(err, "bad-view", "grid", "the view has no map");
			return NULL;
		}
		memcpy(st->base, st->terrain, sizeof(st->base));
	}
	{
		json_object *m = wr_v_array(view, "marks", &n);
		for (size_t k = 0; k < n; k++) {
			const char *s = json_object_get_string(json_object_array_get_idx(m, k));
			int t = s ? wr_square_parse(B, s) : -1;
			if (t >= 0)
				st->mark[t] = 1;
		}
		json_object *td = wr_v_get(view, "tile_damage");
		if (td && json_object_is_type(td, json_type_object)) {
			json_object_object_foreach(td, k, v) {
				int t = wr_square_parse(B, k);
				if (t >= 0)
					st->tile_dmg[t] = json_object_get_int(v);
			}
		}
	}
	st->phase = wr_v_name(view, "phase", oc_phase_names, OC_PH_MAX, OC_PH_RECRUIT);
	st->round = wr_v_int(view, "round", 0);
	if (st->round > OC_MAX_ROUND)
		st->round = OC_MAX_ROUND;   /* load's bound */
	st->cur = wr_v_int(view, "turn_seat", 0) ? 1 : 0;
	st->left = st->act[st->cur];
	st->active = -1;
	st->traded = -1;
	us = wr_v_array(view, "units", &n);
	for (size_t k = 0; k < n && st->nu < OC_MAX_ALL; k++) {
		read_unit(st, &st->u[st->nu], json_object_array_get_idx(us, k));
		any_act |= st->u[st->nu].activated;
		shown += st->u[st->nu].seat != seat;
		st->nu++;
	}
	seats = wr_v_array(view, "seats", &n);
	for (size_t k = 0; k < n && k < 2; k++) {
		json_object *x = json_object_array_get_idx(seats, k);
		st->ready[k] = wr_v_bool(x, "ready", 0);
		st->routed[k] = wr_v_int(x, "routed", 0);
		st->escaped[k] = wr_v_int(x, "escaped", 0);
		st->qi[k] = wr_v_name(x, "qi_adept_order", oc_qi_names, OC_QI_MAX, 0);
	}
	st->first = any_act ? 0 : st->cur;
	/* The enemy units the view does not show. */
	if (st->phase == OC_PH_RECRUIT) {
		st->ready[!seat] = 0;
	} else if (st->phase == OC_PH_DEPLOY) {
		fill_enemy(st, seat, st->nunits - shown, st->ready[!seat] ? OC_W_MAP : OC_W_RESERVE, NULL,
		           seat == 0 ? 0xc0u : 0x03u, rng);
	} else if (st->phase == OC_PH_BATTLE && st->fog) {
		json_object *sn = wr_v_array(view, "seen", &n);
		memset(seen, 0, sizeof(seen));
		for (size_t k = 0; k < n; k++) {
			const char *s = json_object_get_string(json_object_array_get_idx(sn, k));
			int t = s ? wr_square_parse(B, s) : -1;
			if (t >= 0)
				seen[t] = 1;
		}
		/* A fallen enemy is unseen too: it stands here as one alive. */
		fill_enemy(st, seat, st->nunits - shown, OC_W_MAP, seen, 0, rng);
		st->routed[!seat] = 0;
		st->escaped[!seat] = 0;
		for (int i = 0; i < st->nu; i++)
			if (st->u[i].seat != seat) {
				st->routed[!seat] += st->u[i].where == OC_W_ROUTED;
				st->escaped[!seat] += st->u[i].where == OC_W_ESCAPED;
			}
	}
	{
		json_object *a = wr_v_get(view, "active");
		if (a && json_object_is_type(a, json_type_object)) {
			int t = wr_v_sq(a, "unit", B);
			st->active = t >= 0 ? oc_unit_at(st, t) : -1;
			st->moved = wr_v_bool(a, "moved", 0);
			st->acted = wr_v_bool(a, "acted", 0);
			st->canto = wr_v_int(a, "canto", 0);
			/* Whether the unit has traded this turn is not in the
			 * view: taken as done, so the bot never offers a trade
			 * the rules would refuse. */
			st->traded = st->active;
		}
	}
	{
		/* A Qi Adept guard owed: the defender is named in the prompt. */
		json_object *pd = wr_v_array(view, "pending", &n);
		for (size_t k = 0; k < n; k++) {
			json_object *x = json_object_array_get_idx(pd, k);
			const char *p = wr_v_str(x, "prompt"), *e = p ? strstr(p, " is attacked by ") : NULL;
			int ps = wr_v_int(x, "seat", -1);
			if (!e || st->active < 0)
				continue;
			for (int i = 0; i < st->nu; i++)
				if (st->u[i].seat == ps && strlen(st->u[i].name) == (size_t)(e - p) &&
				    !strncmp(st->u[i].name, p, (size_t)(e - p))) {
					st->pend = 1;
					st->pend_att = st->active;
					st->pend_def = i;
				}
		}
	}
	if (res && wr_v_bool(res, "over", 0)) {
		json_object *w = wr_v_array(res, "winners", &n);
		for (size_t i = 0; i < n; i++)
			st->winners |= 1 << (json_object_get_int(json_object_array_get_idx(w, i)) & 1);
		st->reason = wr_v_name(res, "reason", oc_reason_names, OC_R_MAX, 0);
	}
	return wr_bot_finish(&oc_ruleset, st, err);
}

/* The HP each side keeps on the map (or escaped: the Escape scenario's
 * goal) and its armed units, over both sides', and a little for standing near the enemy: a
 * rout needs contact, and without it a short search sees no difference
 * between moves. */
double
oc_evaluate(const void *state, int seat)
{
	const struct oc_state *st = state;
	double v[2] = {0, 0};

	if (seat < 0 || seat > 1)
		return 0.5;
	for (int i = 0; i < st->nu; i++) {
		const struct oc_unit *u = &st->u[i];
		int max = oc_classes[u->cls].hp > 0 ? oc_classes[u->cls].hp : 1;
		if (u->where == OC_W_MAP || u->where == OC_W_RESERVE || u->where == OC_W_ESCAPED) {
			v[u->seat] += 1.0 + (double)u->hp / max;
			/* a unit without a weapon can neither attack nor counter */
			for (int k = 0; k < 3; k++)
				if (u->item[k] >= 0 && oc_items[u->item[k]].kind == OC_WEAPON) {
					v[u->seat] += 1.0;
					break;
				}
		}
		if (u->where != OC_W_MAP)
			continue;
		int near = 14;
		for (int j = 0; j < st->nu; j++)
			if (st->u[j].seat != u->seat && st->u[j].where == OC_W_MAP) {
				int d = wr_manhattan(&wr_board8, u->sq, st->u[j].sq);
				near = d < near ? d : near;
			}
		v[u->seat] += 0.02 * (14 - near);
	}
	/* While recruiting, the other army is hidden, not yet recruited:
	 * scored against a full army, its recruiting is neither loss nor
	 * gain. */
	if (st->phase == OC_PH_RECRUIT)
		return wr_bot_share(v[seat], 3.0 * st->nunits, 10);
	return wr_bot_share(v[seat], v[!seat], 10);
}
