/* Officers Chess: the saved state (save, load), the validation of a
 * loaded state against every invariant the rules rely on (oc_check), the
 * map's grid string, and the view each viewer may see (O13, G5). Calls the board, combat and data files; only
 * oc_codec.c calls into it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oc_rules.h"

static int
glyph_tile(char c)
{
	for (int t = 0; t < OC_TR_MAX; t++)
		if (oc_tiles[t].glyph == c)
			return t;
	return -1;
}

/* A grid: 8 rows of 8 letters separated by '/', rank 8 first. */
int
oc_parse_grid(const char *g, unsigned char *terrain, struct wr_error *err)
{
	int r = 7, f = 0;

	for (const char *p = g; *p; p++) {
		if (*p == '/') {
			if (f != 8)
				return wr_fail(err, "bad-grid", "grid", "each row has 8 tiles");
			r--;
			f = 0;
			continue;
		}
		int t = glyph_tile(*p);
		if (t < 0)
			return wr_fail(err, "bad-grid", "grid", "unknown tile letter '%c'", *p);
		if (r < 0 || f >= 8)
			return wr_fail(err, "bad-grid", "grid", "the grid is 8 rows of 8 tiles");
		terrain[r * 8 + f++] = (unsigned char)t;
	}
	if (r != 0 || f != 8)
		return wr_fail(err, "bad-grid", "grid", "the grid is 8 rows of 8 tiles");
	return 0;
}

void
oc_grid_string(const unsigned char *terrain, char *out)
{
	int k = 0;
	for (int r = 7; r >= 0; r--) {
		for (int f = 0; f < 8; f++)
			out[k++] = oc_tiles[terrain[r * 8 + f]].glyph;
		if (r)
			out[k++] = '/';
	}
	out[k] = 0;
}

/* The snapshot, written once for its tree and its text (rules/out.c). */
void
oc_save_out(const void *state, struct wr_out *w)
{
	const struct oc_state *st = state;
	char g[80];
	int v[OC_MAX_TILES];

	wr_out_obj(w, NULL);
	wr_out_int(w, "seats", st->seats);
	wr_out_int(w, "units", st->nunits);
	wr_out_int(w, "promoted", st->promoted);
	wr_out_int(w, "fog", st->fog);
	wr_out_int(w, "first_random", st->first_random);
	wr_out_ints(w, "act", st->act, 2);
	wr_out_int(w, "round_limit", st->round_limit);
	wr_out_int(w, "scenario", st->scenario);
	wr_out_int(w, "scenario_seat", st->scen_seat);
	wr_out_str(w, "map", st->map);
	oc_grid_string(st->terrain, g);
	wr_out_str(w, "terrain", g);
	oc_grid_string(st->base, g);
	wr_out_str(w, "base", g);
	for (int t = 0; t < 64; t++)
		v[t] = st->vein[t];
	wr_out_ints(w, "vein", v, 64);
	for (int t = 0; t < 64; t++)
		v[t] = st->mark[t];
	wr_out_ints(w, "mark", v, 64);
	wr_out_ints(w, "tile_dmg", st->tile_dmg, 64);
	int play[] = {st->phase, st->round, st->first, st->cur, st->left, st->active, st->moved,
	              st->acted, st->canto, st->traded, st->ready[0], st->ready[1], st->routed[0],
	              st->routed[1], st->escaped[0], st->escaped[1], st->razed, st->qi[0],
	              st->qi[1], st->winners, st->reason, st->pend, st->pend_att, st->pend_def};
	wr_out_ints(w, "play", play, (int)(sizeof(play) / sizeof(play[0])));
	wr_out_arr(w, "u");
	for (int i = 0; i < st->nu; i++) {
		const struct oc_unit *u = &st->u[i];
		int f[] = {u->seat, u->cls, u->hp, u->where, u->sq, u->item[0], u->item[1], u->item[2],
		           u->uses[0], u->uses[1], u->uses[2], u->equip, u->acc, u->activated,
		           u->danced, u->broken, u->poisoned, u->silenced, u->frozen, u->barrier,
		           u->scen};
		wr_out_obj(w, NULL);
		wr_out_str(w, "name", u->name);
		wr_out_ints(w, "f", f, (int)(sizeof(f) / sizeof(f[0])));
		wr_out_end(w);
	}
	wr_out_end(w);
	wr_out_arr(w, "torch");
	for (int k = 0; k < st->ntorch; k++) {
		int t[] = {st->torch[k].seat, st->torch[k].sq, st->torch[k].radius};
		wr_out_ints(w, NULL, t, 3);
	}
	wr_out_end(w);
	wr_out_end(w);
}

json_object *
oc_snapshot(const void *state)
{
	return wr_out_tree(oc_save_out, state);
}

static int
get_ints(json_object *o, const char *k, int *out, int n, int lo, int hi, struct wr_error *err)
{
	json_object *a;
	if (!json_object_object_get_ex(o, k, &a) || !json_object_is_type(a, json_type_array) ||
	    (int)json_object_array_length(a) != n)
		return wr_fail(err, "bad-snapshot", k, "%s: a list of %d numbers", k, n);
	for (int i = 0; i < n; i++) {
		json_object *x = json_object_array_get_idx(a, (size_t)i);
		if (!json_object_is_type(x, json_type_int))
			return wr_fail(err, "bad-snapshot", k, "%s: numbers", k);
		int64_t v = json_object_get_int64(x);
		if (v < lo || v > hi)
			return wr_fail(err, "bad-snapshot", k, "%s: out of range", k);
		out[i] = (int)v;
	}
	return 0;
}

#define BAD(...) do { wr_fail(err, "bad-snapshot", "", __VA_ARGS__); goto fail; } while (0)

int
oc_load(json_object *j, void **state, struct wr_error *err)
{
	static const char *const known[] = {"seats", "units", "promoted", "fog", "first_random",
		"act", "round_limit", "scenario", "scenario_seat", "map", "terrain", "base", "vein",
		"mark", "tile_dmg", "play", "u", "torch", NULL};
	struct oc_state *st = calloc(1, sizeof(*st));
	const char *s;
	int v[OC_MAX_TILES];
	json_object *us, *tq;

	if (!st)
		return wr_fail(err, "internal", "", "out of memory");
	if (!json_object_is_type(j, json_type_object))
		BAD("a snapshot is an object");
	if (wr_json_only(j, known, err) ||
	    wr_json_int(j, "seats", 2, 2, 1, 2, &st->seats, err) ||
	    wr_json_int(j, "units", 1, OC_MAX_UNITS, 1, 5, &st->nunits, err) ||
	    wr_json_int(j, "promoted", 0, 1, 1, 0, &st->promoted, err) ||
	    wr_json_int(j, "fog", 0, 1, 1, 0, &st->fog, err) ||
	    wr_json_int(j, "first_random", 0, 1, 1, 0, &st->first_random, err) ||
	    get_ints(j, "act", st->act, 2, 1, 4, err) ||
	    wr_json_int(j, "round_limit", 0, 99, 1, 0, &st->round_limit, err) ||
	    wr_json_int(j, "scenario", 0, OC_SC_MAX - 1, 1, 0, &st->scenario, err) ||
	    wr_json_int(j, "scenario_seat", 0, 1, 1, 0, &st->scen_seat, err) ||
	    wr_json_string(j, "map", 1, &s, err))
		goto fail;
	st->files = st->ranks = 8;
	if (strlen(s) >= sizeof(st->map))
		BAD("map: too long");
	snprintf(st->map, sizeof(st->map), "%s", s);
	if (wr_json_string(j, "terrain", 1, &s, err) || oc_parse_grid(s, st->terrain, err) ||
	    wr_json_string(j, "base", 1, &s, err) || oc_parse_grid(s, st->base, err))
		goto fail;
	if (get_ints(j, "vein", v, 64, 0, 1, err))
		goto fail;
	for (int t = 0; t < 64; t++)
		st->vein[t] = (unsigned char)v[t];
	if (get_ints(j, "mark", v, 64, 0, 1, err))
		goto fail;
	for (int t = 0; t < 64; t++)
		st->mark[t] = (unsigned char)v[t];
	if (get_ints(j, "tile_dmg", st->tile_dmg, 64, 0, 1000, err))
		goto fail;
	int play[24];
	if (get_ints(j, "play", play, 24, -1, 100000, err))
		goto fail;
	st->phase = play[0];
	st->round = play[1];
	st->first = play[2];
	st->cur = play[3];
	st->left = play[4];
	st->active = play[5];
	st->moved = play[6];
	st->acted = play[7];
	st->canto = play[8];
	st->traded = play[9];
	st->ready[0] = play[10];
	st->ready[1] = play[11];
	st->routed[0] = play[12];
	st->routed[1] = play[13];
	st->escaped[0] = play[14];
	st->escaped[1] = play[15];
	st->razed = play[16];
	st->qi[0] = play[17];
	st->qi[1] = play[18];
	st->winners = play[19];
	st->reason = play[20];
	st->pend = play[21];
	st->pend_att = play[22];
	st->pend_def = play[23];
	if (!json_object_object_get_ex(j, "u", &us) || !json_object_is_type(us, json_type_array) ||
	    json_object_array_length(us) > (size_t)(2 * st->nunits))
		BAD("u: the units");
	st->nu = (int)json_object_array_length(us);
	for (int i = 0; i < st->nu; i++) {
		json_object *x = json_object_array_get_idx(us, (size_t)i);
		struct oc_unit *u = &st->u[i];
		int f[21];
		static const char *const uk[] = {"name", "f", NULL};
		if (!json_object_is_type(x, json_type_object) || wr_json_only(x, uk, err) ||
		    wr_json_string(x, "name", 1, &s, err) ||
		    get_ints(x, "f", f, 21, -1, 1000, err))
			goto fail;
		if (!*s || strlen(s) >= OC_NAME)
			BAD("a unit's name");
		snprintf(u->name, sizeof(u->name), "%s", s);
		u->seat = f[0];
		u->cls = f[1];
		u->hp = f[2];
		u->where = f[3];
		u->sq = f[4];
		for (int k = 0; k < 3; k++) {
			u->item[k] = f[5 + k];
			u->uses[k] = f[8 + k];
		}
		u->equip = f[11];
		u->acc = f[12];
		u->activated = f[13];
		u->danced = f[14];
		u->broken = f[15];
		u->poisoned = f[16];
		u->silenced = f[17];
		u->frozen = f[18];
		u->barrier = f[19];
		u->scen = f[20];
	}
	if (!json_object_object_get_ex(j, "torch", &tq) || !json_object_is_type(tq, json_type_array) ||
	    json_object_array_length(tq) > OC_MAX_TORCH)
		BAD("torch");
	st->ntorch = (int)json_object_array_length(tq);
	for (int k = 0; k < st->ntorch; k++) {
		json_object *x = json_object_array_get_idx(tq, (size_t)k), *w = json_object_new_object();
		int t[3];
		json_object_object_add(w, "t", json_object_get(x));
		int rc = get_ints(w, "t", t, 3, 0, 63, err);
		json_object_put(w);
		if (rc)
			goto fail;
		st->torch[k] = (struct oc_torch){t[0], t[1], t[2]};
	}
	if (oc_check(st, err))
		goto fail;
	*state = st;
	return 0;
fail:
	free(st);
	return -1;
}

/* Everything load() must hold so that no rule reads out of bounds. */
int
oc_check(const struct oc_state *st, struct wr_error *err)
{
	int per[2] = {0, 0};
	unsigned char occ[OC_MAX_TILES] = {0};

#define NO(...) return wr_fail(err, "bad-snapshot", "", __VA_ARGS__)
	if (st->phase < 0 || st->phase >= OC_PH_MAX)
		NO("phase");
	if (st->round < 0 || st->round > OC_MAX_ROUND || st->first < 0 || st->first > 1 || st->cur < 0 ||
	    st->cur > 1 || st->left < 0 || st->left > 4)
		NO("round");
	if (st->moved < 0 || st->moved > 1 || st->acted < 0 || st->acted > 1 || st->canto < 0 ||
	    st->canto > 2)
		NO("turn");
	for (int s = 0; s < 2; s++)
		if (st->ready[s] < 0 || st->ready[s] > 1 || st->routed[s] < 0 ||
		    st->routed[s] > OC_MAX_UNITS || st->escaped[s] < 0 ||
		    st->escaped[s] > OC_MAX_UNITS || st->qi[s] < 0 || st->qi[s] >= OC_QI_MAX)
			NO("seat counters");
	if (st->razed < 0 || st->razed > 64 || st->winners < 0 || st->winners > 3 ||
	    st->reason < 0 || st->reason >= OC_R_MAX)
		NO("result");
	for (int t = 0; t < 64; t++)
		if (st->vein[t] && !oc_tiles[st->terrain[t]].vein)
			NO("vein");
	for (int i = 0; i < st->nu; i++) {
		const struct oc_unit *u = &st->u[i];
		if (u->seat < 0 || u->seat > 1 || u->cls < 0 || u->cls >= oc_nclasses)
			NO("unit %d", i);
		if (oc_classes[u->cls].promoted && !st->promoted)
			NO("unit %d: promoted", i);
		if (++per[u->seat] > st->nunits)
			NO("too many units");
		for (int k = 0; k < i; k++)
			if (st->u[k].seat == u->seat && strcmp(st->u[k].name, u->name) == 0)
				NO("duplicate name");
		if (u->hp < 0 || u->hp > oc_classes[u->cls].hp || u->where < 0 || u->where >= OC_W_MAX)
			NO("unit %d: hp", i);
		if ((u->where == OC_W_MAP) != (u->sq >= 0) || u->sq > 63)
			NO("unit %d: square", i);
		if (u->where == OC_W_MAP) {
			if (occ[u->sq]++ || u->hp == 0)
				NO("unit %d: square", i);
		} else if (u->where != OC_W_RESERVE && u->hp != 0 && u->where == OC_W_ROUTED) {
			NO("unit %d: routed with hp", i);
		}
		if (u->where == OC_W_RESERVE && st->phase >= OC_PH_BATTLE && st->phase != OC_PH_OVER)
			NO("unit %d: not deployed", i);
		if (u->where != OC_W_RESERVE && st->phase < OC_PH_DEPLOY)
			NO("unit %d: deployed early", i);
		for (int k = 0; k < 3; k++) {
			if (u->item[k] < -1 || u->item[k] >= oc_nitems)
				NO("unit %d: item", i);
			if (u->uses[k] < 0 || u->uses[k] > 20 || (u->item[k] < 0 && u->uses[k]))
				NO("unit %d: uses", i);
		}
		if (u->equip < -1 || u->equip > 2 || u->acc < -1 || u->acc > 2)
			NO("unit %d: equipped", i);
		if (u->equip >= 0 && (u->item[u->equip] < 0 ||
		                      oc_items[u->item[u->equip]].kind != OC_WEAPON))
			NO("unit %d: equipped weapon", i);
		if (u->acc >= 0 && (u->item[u->acc] < 0 ||
		                    oc_items[u->item[u->acc]].kind != OC_ACCESSORY))
			NO("unit %d: equipped accessory", i);
		int flags[] = {u->activated, u->danced, u->broken, u->poisoned, u->silenced, u->frozen,
		               u->scen};
		for (size_t k = 0; k < sizeof(flags) / sizeof(flags[0]); k++)
			if (flags[k] < 0 || flags[k] > 1)
				NO("unit %d: flags", i);
		if (u->barrier < 0 || u->barrier > OC_MAX_ROUND + 1)
			NO("unit %d: barrier", i);
	}
	if (st->pend < 0 || st->pend > 1)
		NO("pending");
	if (st->pend) {
		if (st->phase != OC_PH_BATTLE || st->active < 0 || st->pend_att != st->active ||
		    st->pend_def < 0 || st->pend_def >= st->nu ||
		    st->u[st->pend_def].where != OC_W_MAP ||
		    st->u[st->pend_def].seat == st->u[st->pend_att].seat)
			NO("pending");
		if (st->u[st->pend_att].where != OC_W_MAP || !oc_weapon(&st->u[st->pend_att]))
			NO("pending");
	}
	if (st->phase == OC_PH_BATTLE) {
		if (st->active >= 0) {
			if (st->active >= st->nu || st->u[st->active].where != OC_W_MAP)
				NO("active unit");
			if (st->traded < -1 || st->traded >= st->nu)
				NO("traded");
		} else if (st->active != -1) {
			NO("active unit");
		}
		if (per[0] != st->nunits || per[1] != st->nunits)
			NO("armies");
	} else if (st->active != -1) {
		NO("active unit");
	}
	if (st->phase == OC_PH_DEPLOY && (per[0] != st->nunits || per[1] != st->nunits))
		NO("armies");
	if (st->phase == OC_PH_RECRUIT)
		for (int s = 0; s < 2; s++)
			if (st->ready[s] != (per[s] == st->nunits))
				NO("ready");
	if (st->phase == OC_PH_DEPLOY)
		for (int s = 0; s < 2; s++) {
			int left = 0;
			for (int i = 0; i < st->nu; i++)
				left += st->u[i].seat == s && st->u[i].where == OC_W_RESERVE;
			if (st->ready[s] != (left == 0))
				NO("ready");
		}
	for (int k = 0; k < st->ntorch; k++)
		if (st->torch[k].seat > 1 || st->torch[k].radius > 20)
			NO("torch");
	return 0;
#undef NO
}

/* -------------------------------------------------------------- view */

static json_object *
unit_view(const struct oc_state *st, int i)
{
	const struct oc_unit *u = &st->u[i];
	const struct oc_class *c = &oc_classes[u->cls];
	json_object *o = json_object_new_object(), *items = json_object_new_array(),
	            *status = json_object_new_array(), *r = json_object_new_object(),
	            *tags = json_object_new_array();

	wr_json_put_str(o, "name", u->name);
	wr_json_put_int(o, "seat", u->seat);
	wr_json_put_str(o, "class", c->id);
	json_object_object_add(o, "promoted", json_object_new_boolean(c->promoted));
	wr_json_put_int(o, "hp", u->hp);
	wr_json_put_int(o, "max_hp", c->hp);
	wr_json_put_str(o, "where", oc_where_names[u->where]);
	json_object_object_add(o, "square", wr_json_sq(&wr_board8, u->where == OC_W_MAP ? u->sq : -1));
	for (int k = 0; k < 3; k++) {
		if (u->item[k] < 0) {
			json_object_array_add(items, NULL);
			continue;
		}
		json_object *x = json_object_new_object();
		wr_json_put_str(x, "name", oc_items[u->item[k]].name);
		if (u->uses[k])
			wr_json_put_int(x, "uses", u->uses[k]);
		json_object_object_add(x, "equipped", json_object_new_boolean(k == u->equip || k == u->acc));
		json_object_array_add(items, x);
	}
	json_object_object_add(o, "items", items);
	for (int s = 0; s < OC_STAT_MAX; s++)
		wr_json_put_str(r, oc_stat_names[s], oc_rating_names[oc_rating(st, u, s)]);
	json_object_object_add(o, "ratings", r);
	wr_json_put_int(o, "agility", oc_agility(st, u));
	wr_json_put_int(o, "movement", oc_movement(st, u));
	for (int t = 0; t < OC_NTAGS; t++)
		if (c->tags & 1u << t)
			json_object_array_add(tags, json_object_new_string(oc_tag_names[t]));
	if (c->slow) {
		char b[16];
		snprintf(b, sizeof(b), "Slow(%d)", c->slow);
		json_object_array_add(tags, json_object_new_string(b));
	}
	if (u->scen)
		json_object_array_add(tags, json_object_new_string(
			st->scenario == OC_SC_SEIZE ? "Leader" : st->scenario == OC_SC_ESCAPE ? "Fleeing" : "Raider"));
	json_object_object_add(o, "tags", tags);
	if (u->broken)
		json_object_array_add(status, json_object_new_string("Broken"));
	if (u->poisoned)
		json_object_array_add(status, json_object_new_string("Poisoned"));
	if (u->silenced)
		json_object_array_add(status, json_object_new_string("Silenced"));
	if (u->frozen)
		json_object_array_add(status, json_object_new_string("Frozen"));
	if (u->barrier >= st->round && u->barrier > 0)
		json_object_array_add(status, json_object_new_string("Barrier"));
	json_object_object_add(o, "status", status);
	json_object_object_add(o, "activated", json_object_new_boolean(u->activated));
	return o;
}

json_object *
oc_view(const void *state, int viewer)
{
	const struct oc_state *st = state;
	json_object *o = json_object_new_object(), *us = json_object_new_array(),
	            *seats = json_object_new_array(), *marks = json_object_new_array(),
	            *seen = json_object_new_array(), *opts = json_object_new_object(),
	            *res = json_object_new_object(), *w = json_object_new_array();
	unsigned char sight[OC_MAX_TILES];
	char g[80];
	int everyone = viewer == WR_EVERYONE || st->phase == OC_PH_OVER;
	int vw = everyone ? WR_EVERYONE : viewer;

	wr_json_put_str(o, "phase", oc_phase_names[st->phase]);
	wr_json_put_int(o, "round", st->round);
	json_object_object_add(o, "turn_seat",
	                       st->phase == OC_PH_BATTLE ? json_object_new_int(st->cur) : NULL);
	wr_json_put_int(opts, "units", st->nunits);
	json_object_object_add(opts, "promoted", json_object_new_boolean(st->promoted));
	json_object_object_add(opts, "fog", json_object_new_boolean(st->fog));
	json_object_object_add(opts, "activations", wr_json_ints(st->act, 2));
	wr_json_put_int(opts, "round_limit", st->round_limit);
	wr_json_put_str(opts, "scenario", oc_scenario_names[st->scenario]);
	wr_json_put_int(opts, "scenario_seat", st->scen_seat);
	wr_json_put_str(opts, "map", st->map);
	json_object_object_add(o, "options", opts);
	oc_grid_string(st->terrain, g);
	wr_json_put_str(o, "grid", g);
	for (int t = 0; t < 64; t++)
		if (st->mark[t])
			json_object_array_add(marks, wr_json_sq(&wr_board8, t));
	json_object_object_add(o, "marks", marks);
	json_object *td = json_object_new_object();
	for (int t = 0; t < 64; t++)
		if (st->tile_dmg[t]) {
			char b[8];
			json_object_object_add(td, wr_square_name(&wr_board8, t, b),
			                       json_object_new_int(st->tile_dmg[t]));
		}
	json_object_object_add(o, "tile_damage", td);
	if (st->fog && !everyone) {
		oc_sight(st, viewer, sight);
		for (int t = 0; t < 64; t++)
			if (sight[t])
				json_object_array_add(seen, wr_json_sq(&wr_board8, t));
		json_object_object_add(o, "seen", seen);
	} else {
		json_object_put(seen);
		json_object_object_add(o, "seen", NULL);
	}
	for (int i = 0; i < st->nu; i++)
		if (oc_visible(st, vw, i))
			json_object_array_add(us, unit_view(st, i));
	json_object_object_add(o, "units", us);
	for (int s = 0; s < st->seats; s++) {
		json_object *x = json_object_new_object();
		wr_json_put_int(x, "seat", s);
		json_object_object_add(x, "ready", json_object_new_boolean(st->ready[s]));
		if (everyone || viewer == s || !st->fog) {
			wr_json_put_int(x, "routed", st->routed[s]);
			wr_json_put_int(x, "escaped", st->escaped[s]);
		}
		if (everyone || viewer == s)
			wr_json_put_str(x, "qi_adept_order", oc_qi_names[st->qi[s]]);
		json_object_array_add(seats, x);
	}
	json_object_object_add(o, "seats", seats);
	if (st->phase == OC_PH_BATTLE && st->active >= 0 && oc_visible(st, vw, st->active)) {
		json_object *t = json_object_new_object();
		json_object_object_add(t, "unit", wr_json_sq(&wr_board8, st->u[st->active].sq));
		wr_json_put_str(t, "name", st->u[st->active].name);
		json_object_object_add(t, "moved", json_object_new_boolean(st->moved));
		json_object_object_add(t, "acted", json_object_new_boolean(st->acted));
		wr_json_put_int(t, "canto", st->canto);
		json_object_object_add(o, "active", t);
	} else {
		json_object_object_add(o, "active", NULL);
	}
	json_object *pend = json_object_new_array();
	if (st->pend) {
		json_object *x = json_object_new_object();
		char b[160];
		wr_json_put_int(x, "seat", st->u[st->pend_def].seat);
		wr_json_put_str(x, "kind", "qi_adept");
		/* Under fog only the units the viewer sees are named (O19, G5). */
		snprintf(b, sizeof(b), "%s is attacked by %s: may a Qi Adept next to it take the first strike (halved)?",
		         oc_visible(st, vw, st->pend_def) ? st->u[st->pend_def].name : "a unit",
		         oc_visible(st, vw, st->pend_att) ? st->u[st->pend_att].name : "an unseen unit");
		wr_json_put_str(x, "prompt", b);
		json_object_array_add(pend, x);
	}
	json_object_object_add(o, "pending", pend);
	json_object_object_add(res, "over", json_object_new_boolean(st->phase == OC_PH_OVER));
	for (int s = 0; s < 2; s++)
		if (st->winners & 1 << s)
			json_object_array_add(w, json_object_new_int(s));
	json_object_object_add(res, "winners", w);
	wr_json_put_str(res, "reason", oc_reason_names[st->reason]);
	json_object_object_add(o, "result", res);
	return o;
}
