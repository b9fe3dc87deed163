/* Officers Chess JSON: options and create, actions in and out (with the
 * combat forecast), events, views, and the wr_ruleset and wr_template
 * tables (save/load and views: oc_save.c). No rule is decided here. The top of the
 * ruleset: it calls oc_save.c, the rule files and the data; nothing in
 * the folder calls into it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oc_rules.h"
#include "officers_chess.h"

/* ------------------------------------------------------------- maps */

/* Built-in 8x8 maps, rank 8 first (O5). Letters: oc_tiles[].glyph. */
static const struct {
	const char *name, *grid;
} maps[] = {
	{"plains", "......../......../......../......../......../......../......../........"},
	{"crossing", ".W....W./..M..F../.T....T./~~.~~.~~/~~.~~.~~/.T....T./..F..M../.W....W."},
	{"keep", "...FR.../.T....T./Z.VDDV.Z/..X..X../~..II..~/.W.HS.W./..M..P../........"},
};
#define NMAPS (sizeof(maps) / sizeof(maps[0]))

/* ---------------------------------------------------------- options */

static const char *const first_names[] = {"seat0", "random"};

static json_object *
oc_options(void)
{
	json_object *o = json_object_new_object();
	const char *mapnames[NMAPS + 1];

	for (size_t i = 0; i < NMAPS; i++)
		mapnames[i] = maps[i].name;
	mapnames[NMAPS] = "custom";
	wr_json_put(o, "units", wr_json_option("integer", json_object_new_int(5), 1, OC_MAX_UNITS,
	            NULL, 0, "Units in each army (RULINGS.md O4)."));
	wr_json_put(o, "promoted", wr_json_option("boolean", json_object_new_boolean(0), 1, 0, NULL,
	            0, "Allow promoted classes in the armies."));
	wr_json_put(o, "fog", wr_json_option("boolean", json_object_new_boolean(0), 1, 0, NULL, 0,
	            "Fog of war: a unit sees 3 tiles around it; deployment is secret (O13)."));
	wr_json_put(o, "first", wr_json_option("string", json_object_new_string("seat0"), 1, 0,
	            first_names, 2, "Who activates first each round: seat 0 or a random seat (O6)."));
	wr_json_put(o, "activations", wr_json_option("string", json_object_new_string("1"), 1, 0,
	            NULL, 0,
	            "Units activated per alternation: one number for both seats, or two as "
	            "\"seat0,seat1\" (the text's GM pattern is \"1,3\"), each 1-4 (O6)."));
	wr_json_put(o, "round_limit", wr_json_option("integer", json_object_new_int(0), 0, 99, NULL,
	            0, "The match ends after this round (0, the default: no limit); under Rout the "
	            "seat that routed more units wins, else the defender (O14)."));
	wr_json_put(o, "scenario", wr_json_option("string", json_object_new_string("rout"), 1, 0,
	            oc_scenario_names, OC_SC_MAX,
	            "Victory: rout every enemy, or Seize / Escape / Raze the marked tiles (O14)."));
	wr_json_put(o, "scenario_seat", wr_json_option("integer", json_object_new_int(0), 0, 1, NULL,
	            0, "The seat whose units get the scenario tag (Leader, Fleeing, Raider)."));
	wr_json_put(o, "map", wr_json_option("string", json_object_new_string("plains"), 1, 0,
	            mapnames, (int)NMAPS + 1, "A built-in 8x8 map, or custom (give grid)."));
	wr_json_put(o, "grid", wr_json_option("string", json_object_new_string(""), 1, 0, NULL, 0,
	            "A custom map: 8 rows of 8 tile letters separated by '/', rank 8 first. "
	            ". Plains, M Mountain, W Woods, P Pillar, T Thicket, Z Fog, F Fort, "
	            "R Protection Tile, H Heal Tile, D Gate/Door, ~ Water, S Stone Pillars, V Vines, "
	            "X Flames, I Ice, _ Floor, r Ruins."));
	wr_json_put(o, "marks", wr_json_option("string", json_object_new_string(""), 1, 0, NULL, 0,
	            "The scenario's marked tiles, e.g. \"d8 e8\" (default: Seize d8 e8, Escape a8 h8, "
	            "Raze c6 f6, seen from the scenario seat)."));
	return o;
}

static int
parse_acts(const char *s, int act[2], struct wr_error *err)
{
	int a, b, n = 0;
	char extra;

	if (sscanf(s, "%d,%d%c", &a, &b, &extra) == 2)
		n = 2;
	else if (sscanf(s, "%d%c", &a, &extra) == 1) {
		b = a;
		n = 1;
	}
	if (!n || a < 1 || a > 4 || b < 1 || b > 4)
		return wr_fail(err, "bad-option", "activations",
		               "activations: one or two numbers 1-4, as \"1\" or \"1,3\"");
	act[0] = a;
	act[1] = b;
	return 0;
}

static int
parse_marks(struct oc_state *st, const char *s, struct wr_error *err)
{
	char buf[8];
	int n = 0;

	for (const char *p = s; *p;) {
		while (*p == ' ' || *p == ',')
			p++;
		if (!*p)
			break;
		int k = 0;
		while (*p && *p != ' ' && *p != ',' && k < 7)
			buf[k++] = *p++;
		buf[k] = 0;
		int sq = wr_square_parse(&wr_board8, buf);
		if (sq < 0)
			return wr_fail(err, "bad-option", "marks", "marks: squares such as \"d8 e8\"");
		st->mark[sq] = 1;
		n++;
	}
	return n;
}

static void
default_marks(struct oc_state *st)
{
	int far = st->scen_seat == 0 ? 7 : 0, near = st->scen_seat == 0 ? 5 : 2;

	switch (st->scenario) {
	case OC_SC_SEIZE:
		st->mark[far * 8 + 3] = st->mark[far * 8 + 4] = 1;
		break;
	case OC_SC_ESCAPE:
		st->mark[far * 8 + 0] = st->mark[far * 8 + 7] = 1;
		break;
	case OC_SC_RAZE:
		st->mark[near * 8 + 2] = st->mark[near * 8 + 5] = 1;
		break;
	default:
		break;
	}
}

static int
oc_create(json_object *options, int seats, struct wr_rng *rng, void **state,
          struct wr_error *err)
{
	static const char *const known[] = {"units", "promoted", "fog", "first", "activations",
		"round_limit", "scenario", "scenario_seat", "map", "grid", "marks", NULL};
	struct oc_state *st;
	const char *first = "seat0", *acts = "1", *scen = "rout", *map = "plains", *grid = "",
	           *marks = "";
	int k;

	if (seats != 2)
		return wr_fail(err, "bad-seats", "seats", "Officers Chess is played by 2 seats");
	st = calloc(1, sizeof(*st));
	if (!st)
		return wr_fail(err, "internal", "", "out of memory");
	st->seats = 2;
	st->files = st->ranks = 8;
	st->nunits = 5;
	st->round_limit = 0;       /* O14: no limit by default */
	if (options && !json_object_is_type(options, json_type_object)) {
		wr_fail(err, "bad-option", "", "options are an object");
		goto fail;
	}
	if (options &&
	    (wr_json_only(options, known, err) ||
	     wr_json_int(options, "units", 1, OC_MAX_UNITS, 0, 5, &st->nunits, err) ||
	     wr_json_bool(options, "promoted", 0, 0, &st->promoted, err) ||
	     wr_json_bool(options, "fog", 0, 0, &st->fog, err) ||
	     wr_json_string(options, "first", 0, &first, err) ||
	     wr_json_string(options, "activations", 0, &acts, err) ||
	     wr_json_int(options, "round_limit", 0, 99, 0, 0, &st->round_limit, err) ||
	     wr_json_string(options, "scenario", 0, &scen, err) ||
	     wr_json_int(options, "scenario_seat", 0, 1, 0, 0, &st->scen_seat, err) ||
	     wr_json_string(options, "map", 0, &map, err) ||
	     wr_json_string(options, "grid", 0, &grid, err) ||
	     wr_json_string(options, "marks", 0, &marks, err)))
		goto fail;
	if (!first)
		first = "seat0";
	if (strcmp(first, "seat0") && strcmp(first, "random")) {
		wr_fail(err, "bad-option", "first", "first: seat0 or random");
		goto fail;
	}
	st->first_random = strcmp(first, "random") == 0;
	if (parse_acts(acts ? acts : "1", st->act, err))
		goto fail;
	st->scenario = -1;
	for (k = 0; k < OC_SC_MAX; k++)
		if (scen && strcmp(scen, oc_scenario_names[k]) == 0)
			st->scenario = k;
	if (!scen)
		st->scenario = OC_SC_ROUT;
	if (st->scenario < 0) {
		wr_fail(err, "bad-option", "scenario", "scenario: rout, seize, escape or raze");
		goto fail;
	}
	if (!map)
		map = "plains";
	if (strcmp(map, "custom") == 0) {
		if (!grid || !*grid) {
			wr_fail(err, "bad-option", "grid", "a custom map needs a grid");
			goto fail;
		}
		if (oc_parse_grid(grid, st->terrain, err))
			goto fail;
	} else {
		size_t i;
		for (i = 0; i < NMAPS; i++)
			if (strcmp(map, maps[i].name) == 0)
				break;
		if (i == NMAPS) {
			wr_fail(err, "bad-option", "map", "no such map");
			goto fail;
		}
		if (grid && *grid) {
			wr_fail(err, "bad-option", "grid", "a grid is given only with map: custom");
			goto fail;
		}
		oc_parse_grid(maps[i].grid, st->terrain, err);
		snprintf(st->map, sizeof(st->map), "%s", maps[i].name);
	}
	if (!st->map[0])
		snprintf(st->map, sizeof(st->map), "custom");
	memcpy(st->base, st->terrain, sizeof(st->base));
	for (int s = 0; s < 2; s++) {
		int free_tiles = 0;
		for (int t = 0; t < 64; t++) {
			int r = t / 8;
			if ((s == 0 ? r < 2 : r >= 6) && oc_tiles[st->terrain[t]].move >= 0)
				free_tiles++;
		}
		if (free_tiles < st->nunits) {
			wr_fail(err, "bad-option", "grid", "seat %d's two nearest ranks have room for "
			        "%d units only", s, free_tiles);
			goto fail;
		}
	}
	if (st->scenario != OC_SC_ROUT) {
		k = parse_marks(st, marks ? marks : "", err);
		if (k < 0)
			goto fail;
		if (k == 0)
			default_marks(st);
	} else if (marks && *marks) {
		wr_fail(err, "bad-option", "marks", "marks are for the Seize, Escape and Raze scenarios");
		goto fail;
	}
	oc_start(st, rng);
	*state = st;
	return 0;
fail:
	free(st);
	return -1;
}

/* ---------------------------------------------------------- actions */

static int
sq_field(json_object *j, const char *k, int required, int *out, struct wr_error *err)
{
	json_object *v;
	*out = -1;
	if (!json_object_object_get_ex(j, k, &v) || json_object_is_type(v, json_type_null)) {
		if (required)
			return wr_fail(err, "missing-field", k, "%s: required", k);
		return 0;
	}
	return wr_json_square(j, k, &wr_board8, out, err);
}

static int
slot_field(json_object *j, const char *k, int required, int *out, struct wr_error *err)
{
	return wr_json_int(j, k, 0, 2, required, -1, out, err);
}

static int
parse_unit(json_object *u, struct oc_recruit *r, const char *field, struct wr_error *err)
{
	static const char *const known[] = {"type", "name", "class", "items", NULL};
	const char *name, *cls;
	json_object *items;

	if (!json_object_is_type(u, json_type_object))
		return wr_fail(err, "wrong-type", field, "a unit is an object");
	if (wr_json_only(u, known, err) || wr_json_string(u, "name", 1, &name, err) ||
	    wr_json_string(u, "class", 1, &cls, err))
		return -1;
	if (strlen(name) >= OC_NAME)
		return wr_fail(err, "bad-name", "name", "a name has at most %d bytes", OC_NAME - 1);
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->cls = oc_class_find(cls);
	if (r->cls < 0)
		return wr_fail(err, "no-such-class", "class", "no class named %.60s", cls);
	r->nitems = 0;
	if (json_object_object_get_ex(u, "items", &items) &&
	    !json_object_is_type(items, json_type_null)) {
		if (!json_object_is_type(items, json_type_array))
			return wr_fail(err, "wrong-type", "items", "items: a list of item names");
		size_t n = json_object_array_length(items);
		if (n > 3)
			return wr_fail(err, "too-many-items", "items", "a unit carries at most 3 items");
		for (size_t i = 0; i < n; i++) {
			json_object *x = json_object_array_get_idx(items, i);
			if (!json_object_is_type(x, json_type_string))
				return wr_fail(err, "wrong-type", "items", "items: item names");
			int id = oc_item_find(json_object_get_string(x));
			if (id < 0)
				return wr_fail(err, "no-such-item", "items", "no item named %.60s",
				               json_object_get_string(x));
			r->items[r->nitems++] = id;
		}
	}
	return 0;
}

static int
oc_parse(const void *state, json_object *j, void *action, struct wr_error *err)
{
	struct oc_action *a = action;
	const char *type;
	int t = -1;

	(void)state;
	if (!json_object_is_type(j, json_type_object))
		return wr_fail(err, "wrong-type", "", "an action is a JSON object");
	if (wr_json_string(j, "type", 1, &type, err))
		return -1;
	for (int k = 0; k < OC_A_MAX; k++)
		if (strcmp(type, oc_act_names[k]) == 0)
			t = k;
	if (t < 0)
		return wr_fail(err, "unknown-action", "type", "unknown action type");
	memset(a, 0, sizeof(*a));
	a->type = (enum oc_act)t;
	a->at = a->to = a->target = a->slot = a->give = a->take = a->with = -1;
	switch (a->type) {
	case OC_A_RECRUIT:
		a->nrec = 1;
		return parse_unit(j, &a->rec[0], "", err);
	case OC_A_ARMY: {
		static const char *const known[] = {"type", "units", NULL};
		json_object *us;
		if (wr_json_only(j, known, err))
			return -1;
		if (!json_object_object_get_ex(j, "units", &us) ||
		    !json_object_is_type(us, json_type_array))
			return wr_fail(err, "missing-field", "units", "units: a list of units");
		size_t n = json_object_array_length(us);
		if (n < 1 || n > OC_MAX_UNITS)
			return wr_fail(err, "wrong-size", "units", "an army has 1 to %d units",
			               OC_MAX_UNITS);
		a->nrec = (int)n;
		for (size_t i = 0; i < n; i++)
			if (parse_unit(json_object_array_get_idx(us, i), &a->rec[i], "units", err))
				return -1;
		return 0;
	}
	case OC_A_DEPLOY: {
		static const char *const known[] = {"type", "unit", "to", NULL};
		const char *name;
		if (wr_json_only(j, known, err) || wr_json_string(j, "unit", 1, &name, err) ||
		    sq_field(j, "to", 1, &a->to, err))
			return -1;
		if (strlen(name) >= OC_NAME)
			return wr_fail(err, "no-such-unit", "unit", "no unit of yours has that name");
		snprintf(a->unit, sizeof(a->unit), "%s", name);
		return 0;
	}
	case OC_A_ACTIVATE:
	case OC_A_GUARD: {
		static const char *const known[] = {"type", "at", NULL};
		return wr_json_only(j, known, err) || sq_field(j, "at", 1, &a->at, err) ? -1 : 0;
	}
	case OC_A_NO_GUARD: {
		static const char *const known[] = {"type", NULL};
		return wr_json_only(j, known, err);
	}
	default:
		break;
	}
	/* The combat turn: every action names its unit's square ("from"). */
	static const char *const known[] = {"type", "from", "to", "target", "slot", "give", "take",
		"forecast", NULL};
	if (wr_json_only(j, known, err) || sq_field(j, "from", 1, &a->at, err))
		return -1;
	switch (a->type) {
	case OC_A_MOVE:
		return sq_field(j, "to", 1, &a->to, err);
	case OC_A_ATTACK:
		return slot_field(j, "slot", 1, &a->slot, err) || sq_field(j, "target", 1, &a->target, err)
		           ? -1 : 0;
	case OC_A_STAFF:
		return slot_field(j, "slot", 1, &a->slot, err) ||
		               sq_field(j, "target", 0, &a->target, err) ||
		               sq_field(j, "to", 0, &a->to, err)
		           ? -1 : 0;
	case OC_A_DANCE:
	case OC_A_PICK:
		return sq_field(j, "target", 1, &a->target, err);
	case OC_A_USE:
	case OC_A_EQUIP:
	case OC_A_DISCARD:
		return slot_field(j, "slot", 1, &a->slot, err);
	case OC_A_TRADE:
		return sq_field(j, "target", 1, &a->with, err) ||
		               slot_field(j, "give", 0, &a->give, err) ||
		               slot_field(j, "take", 0, &a->take, err)
		           ? -1 : 0;
	default:
		return 0;
	}
}

static void
side_out(struct wr_out *w, const char *key, const struct oc_side *s, int counter)
{
	wr_out_obj(w, key);
	wr_out_int(w, "hit", s->hit);
	wr_out_int(w, "crit", s->crit);
	wr_out_int(w, "damage", s->dmg);
	wr_out_int(w, "crit_damage", s->crit_dmg);
	wr_out_int(w, "strikes", s->strikes);
	wr_out_bool(w, "follow_up", s->follow_up);
	if (counter >= 0)
		wr_out_bool(w, "counter", counter);
	wr_out_end(w);
}

/* The combat forecast, in an action and in its combat event. */
static void
forecast_out(struct wr_out *w, const char *key, const struct oc_forecast *f)
{
	wr_out_obj(w, key);
	side_out(w, "attacker", &f->att, -1);
	side_out(w, "defender", &f->def, f->def.can_strike != 0);
	wr_out_bool(w, "defender_first", f->heavy_first);
	wr_out_bool(w, "backup", f->backup);
	wr_out_int(w, "triangle", f->triangle);
	wr_out_end(w);
}

static json_object *
unit_json_brief(const struct oc_state *st, int i)
{
	json_object *o = json_object_new_object();
	wr_json_put_str(o, "name", st->u[i].name);
	wr_json_put_int(o, "seat", st->u[i].seat);
	wr_json_put_str(o, "class", oc_classes[st->u[i].cls].id);
	return o;
}

static void
recruit_out(struct wr_out *w, const struct oc_recruit *r, const char *type)
{
	wr_out_obj(w, NULL);
	if (type)
		wr_out_str(w, "type", type);
	wr_out_str(w, "name", r->name);
	wr_out_str(w, "class", oc_classes[r->cls].id);
	wr_out_arr(w, "items");
	for (int k = 0; k < r->nitems; k++)
		wr_out_str(w, NULL, oc_items[r->items[k]].name);
	wr_out_end(w);
	wr_out_end(w);
}

/* The fields after the type (the object is open). */
static void
action_fields(const struct oc_state *st, const struct oc_action *a, struct wr_out *w)
{
	const struct wr_board *b = &wr_board8;

	switch (a->type) {
	case OC_A_ARMY:
		wr_out_arr(w, "units");
		for (int k = 0; k < a->nrec; k++)
			recruit_out(w, &a->rec[k], NULL);
		wr_out_end(w);
		return;
	case OC_A_DEPLOY:
		wr_out_str(w, "unit", a->unit);
		wr_out_sq(w, "to", b, a->to);
		return;
	case OC_A_ACTIVATE:
	case OC_A_GUARD:
		wr_out_sq(w, "at", b, a->at);
		return;
	case OC_A_NO_GUARD:
		return;
	default:
		break;
	}
	wr_out_sq(w, "from", b, a->at);
	if (a->type == OC_A_TRADE) {
		wr_out_sq(w, "target", b, a->with);
		if (a->give >= 0)
			wr_out_int(w, "give", a->give);
		if (a->take >= 0)
			wr_out_int(w, "take", a->take);
		return;
	}
	if (a->slot >= 0)
		wr_out_int(w, "slot", a->slot);
	if (a->target >= 0)
		wr_out_sq(w, "target", b, a->target);
	if (a->to >= 0)
		wr_out_sq(w, "to", b, a->to);
	if (a->type == OC_A_ATTACK && st->active >= 0) {
		/* The forecast players expect, from the code that resolves it;
		 * parse() accepts and ignores it. */
		int t = oc_unit_at(st, a->target);
		if (t >= 0) {
			struct oc_forecast f;
			oc_forecast(st, st->active, t, a->slot, &f);
			forecast_out(w, "forecast", &f);
		}
	}
	if (a->type == OC_A_STAFF && st->active >= 0) {
		int t = oc_unit_at(st, a->target);
		if (t >= 0 && st->u[t].seat != st->u[st->active].seat) {
			wr_out_obj(w, "forecast");
			wr_out_int(w, "hit", oc_staff_hit(st, st->active, a->slot, t));
			wr_out_end(w);
		}
	}
}

static void
oc_action_out(const void *state, const void *action, struct wr_out *w)
{
	const struct oc_action *a = action;

	if (a->type == OC_A_RECRUIT) {
		recruit_out(w, &a->rec[0], "recruit");
		return;
	}
	wr_out_obj(w, NULL);
	wr_out_str(w, "type", oc_act_names[a->type]);
	action_fields(state, a, w);
	wr_out_end(w);
}

/* ----------------------------------------------------------- events */

static json_object *
oc_event_json(const void *state, const void *event, unsigned *visible_to)
{
	const struct oc_state *st = state;
	const struct oc_event *e = event;
	json_object *o = json_object_new_object();

	*visible_to = e->vis;
	wr_json_put_str(o, "type", oc_ev_names[e->type]);
	if (e->seat >= 0)
		wr_json_put_int(o, "seat", e->seat);
	if (e->unit >= 0)
		json_object_object_add(o, "unit", unit_json_brief(st, e->unit));
	if (e->other >= 0)
		json_object_object_add(o, e->type == OC_E_COMBAT ? "defender" : "other",
		                       unit_json_brief(st, e->other));
	if (e->from >= 0)
		json_object_object_add(o, "from", wr_json_sq(&wr_board8, e->from));
	if (e->to >= 0)
		json_object_object_add(o, "to", wr_json_sq(&wr_board8, e->to));
	switch (e->type) {
	case OC_E_ROUND:
		wr_json_put_int(o, "round", e->amount);
		break;
	case OC_E_TILE:
		wr_json_put_str(o, "tile", oc_tiles[e->kind].name);
		wr_json_put_int(o, "hp_change", e->amount);
		wr_json_put_int(o, "hp", e->hp);
		break;
	case OC_E_COMBAT: {
		json_object *ss = json_object_new_array();
		if (e->unit >= 0 && e->item >= 0)
			wr_json_put_str(o, "weapon", oc_items[e->item].name);
		if (e->other >= 0 && e->item2 >= 0)
			wr_json_put_str(o, "defender_weapon", oc_items[e->item2].name);
		if (e->unit >= 0) {
			struct wr_out fw = {0};
			forecast_out(&fw, NULL, &e->fc);
			json_object_object_add(o, "forecast", wr_out_root(&fw));
		}
		for (int k = 0; k < e->nstrikes; k++) {
			const struct oc_strike *s = &e->strikes[k];
			json_object *x = json_object_new_object();
			wr_json_put_str(x, "by", s->by_attacker ? "attacker" : "defender");
			wr_json_put_int(x, "roll", s->roll);
			/* -1: not told to this seat (an attacker or a Qi Adept it
			 * does not see, oc_rules.c resolve_attack) */
			if (s->need >= 0)
				wr_json_put_int(x, "need", s->need);
			if (s->crit_need >= 0)
				wr_json_put_int(x, "crit_need", s->crit_need);
			if (s->hit >= 0) {
				json_object_object_add(x, "hit", json_object_new_boolean(s->hit));
				json_object_object_add(x, "crit", json_object_new_boolean(s->crit));
			}
			if (s->dmg >= 0)
				wr_json_put_int(x, "damage", s->dmg);
			if (s->hp >= 0)
				wr_json_put_int(x, "hp", s->hp);
			if (s->broke)
				json_object_object_add(x, "broken", json_object_new_boolean(1));
			if (s->status)
				wr_json_put_str(x, "status", oc_status_names[s->status]);
			if (s->drained)
				wr_json_put_int(x, "drained", s->drained);
			if (s->pushed_to >= 0)
				json_object_object_add(x, "pushed_to", wr_json_sq(&wr_board8, s->pushed_to));
			if (s->guard >= 0)
				json_object_object_add(x, "qi_adept", unit_json_brief(st, s->guard));
			else if (s->guard == OC_GUARD_HIDDEN)   /* an unseen one (O19) */
				json_object_object_add(x, "qi_adept", NULL);
			json_object_array_add(ss, x);
		}
		json_object_object_add(o, "strikes", ss);
		break;
	}
	case OC_E_TILE_HIT:
		wr_json_put_str(o, "tile", oc_tiles[e->kind].name);
		wr_json_put_int(o, "damage", e->amount);
		json_object_object_add(o, "destroyed", json_object_new_boolean(e->hp));
		break;
	case OC_E_STAFF:
		wr_json_put_str(o, "action", e->special < 0 ? "dance" : oc_special_names[e->special]);
		if (e->item >= 0)
			wr_json_put_str(o, "item", oc_items[e->item].name);
		if (e->special == OC_SP_HEAL)
			wr_json_put_int(o, "healed", e->amount);
		if (e->special == OC_SP_TORCH)
			wr_json_put_int(o, "radius", e->amount);
		if (e->special == OC_SP_VEIN)
			wr_json_put_str(o, "tile", oc_tiles[e->kind].name);
		if ((e->special == OC_SP_RESCUE || e->special == OC_SP_WARP ||
		     e->special == OC_SP_ENTRAP) && e->hit && e->amount >= 0 && e->other >= 0)
			json_object_object_add(o, "moved_to", wr_json_sq(&wr_board8, e->amount));
		if (e->special == OC_SP_STATUS)
			wr_json_put_str(o, "status", oc_status_names[e->status]);
		if (e->roll) {
			wr_json_put_int(o, "roll", e->roll);
			wr_json_put_int(o, "need", e->need);
		}
		json_object_object_add(o, "hit", json_object_new_boolean(e->hit));
		break;
	case OC_E_USE:
		wr_json_put_str(o, "item", oc_items[e->item].name);
		if (e->special == OC_SP_HEAL)
			wr_json_put_int(o, "healed", e->amount);
		wr_json_put_int(o, "hp", e->hp);
		break;
	case OC_E_EQUIP:
	case OC_E_DISCARD:
		wr_json_put_str(o, "item", oc_items[e->item].name);
		break;
	case OC_E_TRADE:
		if (e->item >= 0)
			wr_json_put_str(o, "gave", oc_items[e->item].name);
		if (e->item2 >= 0)
			wr_json_put_str(o, "took", oc_items[e->item2].name);
		break;
	case OC_E_VEIN_END:
		wr_json_put_str(o, "tile", oc_tiles[e->kind].name);
		break;
	case OC_E_OVER: {
		json_object *w = json_object_new_array();
		for (int s = 0; s < 2; s++)
			if (e->amount & 1 << s)
				json_object_array_add(w, json_object_new_int(s));
		json_object_object_add(o, "winners", w);
		wr_json_put_str(o, "reason", oc_reason_names[e->kind]);
		break;
	}
	default:
		break;
	}
	return o;
}

/* -------------------------------------------------- the ruleset table */

WR_TPL_TEMPLATE(oc, NULL)

/* Qi Adept's guard is the one yes/no reaction (G3):
 * {"qi_adept": "always" | "never" | "ask"}; "ask" (the default, no order)
 * makes the server ask the seat. */
static int
oc_set_orders(void *state, int seat, json_object *orders, struct wr_error *err)
{
	static const char *const known[] = {"qi_adept", NULL};
	struct oc_state *st = state;
	const char *v = NULL;

	if (seat < 0 || seat >= st->seats)
		return wr_fail(err, "no-such-seat", "", "no such seat");
	if (!json_object_is_type(orders, json_type_object))
		return wr_fail(err, "wrong-type", "", "orders are an object");
	if (wr_json_only(orders, known, err) || wr_json_string(orders, "qi_adept", 0, &v, err))
		return -1;
	if (!v)
		return 0;
	for (int k = 0; k < OC_QI_MAX; k++)
		if (strcmp(v, oc_qi_names[k]) == 0) {
			st->qi[seat] = k;
			return 0;
		}
	return wr_fail(err, "bad-order", "qi_adept", "qi_adept: always, never or ask");
}

static void
oc_result(const void *state, struct wr_result *out)
{
	const struct oc_state *st = state;

	memset(out, 0, sizeof(*out));
	out->over = st->phase == OC_PH_OVER;
	out->winners = (unsigned)st->winners;
	if (st->phase == OC_PH_OVER) {
		/* Score: enemy units routed (Dealing Damage); at the end only,
		 * as a routed unit in the fog is hidden until then. */
		out->has_scores = 1;
		out->scores[0] = st->routed[1];
		out->scores[1] = st->routed[0];
	}
	snprintf(out->reason, sizeof(out->reason), "%s", oc_reason_names[st->reason]);
}

/* RULINGS.md G8 (amended): the active unit's seat holds its combat turn
 * while the defender decides on Qi Adept (O19). */
static unsigned
oc_turn_of(const void *state)
{
	const struct oc_state *st = state;
	if (st->phase != OC_PH_BATTLE)
		return oc_to_act(st);
	return 1u << (st->active >= 0 ? st->u[st->active].seat : st->cur);
}

WR_TPL_RULESET(oc, "officers-chess", "Officers Chess", "001_acae27716807a788.txt", 2, 2,
               .turn_of = oc_turn_of, .set_orders = oc_set_orders,
               .undo_barrier = oc_undo_barrier,
               .determinize = oc_determinize, .evaluate = oc_evaluate,
               .may_reveal = oc_may_reveal, .save_out = oc_save_out);
