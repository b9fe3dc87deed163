/*
 * ChessWar's rule-case table: positions built directly in C, each row
 * naming the section of 002_0478434554df57bb.txt or the ruling of
 * RULINGS.md it tests, with scripted dice (wr_rng_script) for outcomes.
 * Legal and illegal cases both; refusals by their stable error code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../unit/check.h"
#include "chesswar.h"
#include "cw_rules.h"

#define T "002_0478434554df57bb.txt, "
#define R "RULINGS.md, ChessWar "

static int rows;
static struct wr_list sink = {.size = sizeof(struct cw_event)};
static const char *row_name;

static void
row(const char *name)
{
	rows++;
	row_name = name;
}

/* ------------------------------------------------------------ helpers */

static struct cw_state *
pos(int a0, int a1, int files, int ranks)
{
	struct cw_state *st = calloc(1, sizeof(*st));
	struct cw_opts o;
	memset(&o, 0, sizeof(o));
	o.files = files;
	o.ranks = ranks;
	o.catapult_range = (files > 8 || ranks > 8) ? 8 : 0;
	cw_init(st, &o);
	st->side[0].army = a0;
	st->side[1].army = a1;
	st->side[0].stage = st->side[1].stage = CW_STAGE_DONE;
	st->phase = CW_PH_MOVE;
	st->turn_seat = 0;
	st->first_seat = 0;
	st->round = 1;
	return st;
}

static int
sq(const struct cw_state *st, const char *name)
{
	return wr_square_parse(&st->board, name);
}

/* Puts a unit of `slug` (the seat's army) on `at`; the first unit of a
 * seat must be its general. Returns its id. */
static int
add(struct cw_state *st, int seat, const char *slug, const char *at)
{
	int type = cw_type_lookup(st->side[seat].army, slug);
	int k = 0;
	if (type < 0) {
		fprintf(stderr, "no unit %s\n", slug);
		exit(2);
	}
	if (type != 0) {
		k = 1;
		while (st->u[seat * CW_UPS + k].status != CW_U_EMPTY)
			k++;
		st->side[seat].counts[type]++;
		st->side[seat].spent += cw_armies[st->side[seat].army].units[type].cost;
	}
	st->u[seat * CW_UPS + k].type = (int8_t)type;
	cw_put(st, seat * CW_UPS + k, sq(st, at));
	return seat * CW_UPS + k;
}

static struct wr_error last_err;
static struct wr_events last_ev;
static int dice_left;

/* Applies a JSON action with scripted dice; returns 0 or -1. */
static int
act(struct cw_state *st, int seat, const char *json, const unsigned *faces, size_t nfaces)
{
	struct wr_script s = {.faces = faces, .n = nfaces};
	struct wr_rng rng;
	json_object *j = json_tokener_parse(json);
	int rc;
	wr_rng_script(&rng, &s);
	wr_events_free(&last_ev);
	memset(&last_err, 0, sizeof(last_err));
	rc = cw_ruleset.apply(st, seat, j, &rng, &last_ev, &last_err);
	json_object_put(j);
	dice_left = (int)(s.n - s.pos);
	CHECK(!s.exhausted, "the scripted dice sufficed");
	if (s.exhausted)
		fprintf(stderr, "  in row: %s (%s)\n", row_name, json);
	return rc;
}

#define D(...) (const unsigned[]){__VA_ARGS__}, sizeof((const unsigned[]){__VA_ARGS__}) / sizeof(unsigned)
#define NODICE NULL, 0

static void
ok(struct cw_state *st, int seat, const char *json, const unsigned *f, size_t n)
{
	int rc = act(st, seat, json, f, n);
	CHECK(rc == 0, row_name);
	if (rc)
		fprintf(stderr, "  refused %s: %s %s\n", json, last_err.code, last_err.message);
	CHECK(dice_left == 0, "every scripted die was used");
	if (dice_left)
		fprintf(stderr, "  in row: %s (%s): %d dice left\n", row_name, json, dice_left);
}

static void
refused(struct cw_state *st, int seat, const char *json, const char *code)
{
	int rc = act(st, seat, json, NULL, 0);
	CHECK(rc != 0, row_name);
	CHECK_STR(last_err.code, code, row_name);
}

/* The seat ends its turn: end_phase until the turn has passed (the server
 * takes every phase with nothing else to do itself, G3 amended). */
static void
end_turn_by(struct cw_state *st, int seat)
{
	while (st->phase >= CW_PH_MOVE && st->phase <= CW_PH_MELEE && st->turn_seat == seat &&
	       st->pending == CW_PEND_NONE)
		ok(st, seat, "{\"type\":\"end_phase\"}", NODICE);
}

static int
listed(const struct cw_state *st, int seat, const char *json)
{
	json_object *a = cw_ruleset.actions(st, seat), *want = json_tokener_parse(json);
	int found = 0;
	for (size_t i = 0; i < json_object_array_length(a); i++)
		if (json_object_equal(json_object_array_get_idx(a, i), want))
			found = 1;
	json_object_put(a);
	json_object_put(want);
	return found;
}

static int
on_at(const struct cw_state *st, int id, const char *at)
{
	return st->u[id].status == CW_U_ON && st->u[id].sq == sq(st, at);
}

static int
dead(const struct cw_state *st, int id)
{
	return st->u[id].status == CW_U_DEAD;
}

static int
linked(const struct cw_state *st, int a, int b)
{
	return ((st->u[a].link >> b) & 1) && ((st->u[b].link >> a) & 1);
}

static int
has_event(const char *type)
{
	for (size_t i = 0; i < last_ev.len; i++) {
		json_object *t;
		if (json_object_object_get_ex(last_ev.items[i].body, "type", &t) &&
		    strcmp(json_object_get_string(t), type) == 0)
			return 1;
	}
	return 0;
}

static json_object *
event(const char *type)
{
	for (size_t i = 0; i < last_ev.len; i++) {
		json_object *t;
		if (json_object_object_get_ex(last_ev.items[i].body, "type", &t) &&
		    strcmp(json_object_get_string(t), type) == 0)
			return last_ev.items[i].body;
	}
	return NULL;
}

static int
ev_int(const char *type, const char *key)
{
	json_object *e = event(type), *v;
	if (!e || !json_object_object_get_ex(e, key, &v))
		return -999;
	return json_object_get_int(v);
}

static const char *
ev_str(const char *type, const char *key)
{
	json_object *e = event(type), *v;
	if (!e || !json_object_object_get_ex(e, key, &v) || !v)
		return "";
	return json_object_get_string(v);
}

static char *
view_str(const struct cw_state *st, int viewer)
{
	json_object *v = cw_ruleset.view(st, viewer);
	char *s = strdup(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
	json_object_put(v);
	return s;
}

/* -------------------------------------------------------------- rows */

static void
armies_data(void)
{
	static const struct {
		int army, initiative, points, ntypes;
	} a[] = {
		{CW_ARMY_CHAOS, 4, 12, 6},  {CW_ARMY_DWARVES, 3, 12, 5}, {CW_ARMY_ELFS, 1, 18, 6},
		{CW_ARMY_HUMANS, 2, 19, 6}, {CW_ARMY_ORCS, 5, 16, 6},    {CW_ARMY_RATMEN, 6, 20, 5},
		{CW_ARMY_UNDEAD, 7, 16, 6},
	};
	row(T "Army lists: initiative, points, unit types of each army (C1)");
	for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
		const struct cw_army *ar = &cw_armies[a[i].army];
		CHECK(ar->initiative == a[i].initiative, row_name);
		CHECK(ar->points == a[i].points, row_name);
		CHECK(ar->ntypes == a[i].ntypes, row_name);
		CHECK(ar->units[0].piece == 'K' && ar->units[0].cost == 0 && ar->units[0].max == 1,
		      "the general is K, free, one");
	}
	row(T "Army lists: rows as printed (Max, Cost, Move, Save, Melee, Special)");
	{
		const struct cw_unit_def *g = &cw_armies[CW_ARMY_CHAOS].units[2];
		CHECK_STR(g->slug, "giants", row_name);
		CHECK(g->max == 2 && g->cost == 2 && g->move == 2 && g->save == 2 && g->melee == 1 &&
		      g->weapon == CW_W_ROCKS, row_name);
		const struct cw_unit_def *t = &cw_armies[CW_ARMY_ORCS].units[2];
		CHECK(t->max == 4 && t->cost == 2 && t->move == 1 && t->save == 3 && t->melee == 1 &&
		      t->weapon == CW_W_ROCKS && (t->special & CW_SP_PLAGUE) &&
		      (t->special & CW_SP_REGENERATE), "Trolls: Rocks, Plague, Regenerate");
		const struct cw_unit_def *l = &cw_armies[CW_ARMY_UNDEAD].units[0];
		CHECK((l->special & CW_SP_UNDEAD) && (l->special & CW_SP_TELEPORT) &&
		      (l->spells & (1u << CW_SPELL_RAISE_DEAD)), "Liche: Undead, Teleport, Raise Dead");
		const struct cw_unit_def *e = &cw_armies[CW_ARMY_ELFS].units[3];
		CHECK(e->weapon == CW_W_LONGBOWS && e->skill == 2 && e->cost == 2, "Elite Archers");
		const struct cw_unit_def *w = &cw_armies[CW_ARMY_DWARVES].units[0];
		CHECK(w->weapon == CW_W_CROSSBOWS && w->skill == 3 && w->move == 1 && w->melee == 2,
		      "Dwarf Warlord: Crossbows (3+)");
		const struct cw_unit_def *m = &cw_armies[CW_ARMY_RATMEN].units[3];
		CHECK(m->weapon == CW_W_PLAGUEBOMBS && (m->special & CW_SP_BRAVE) &&
		      (m->special & CW_SP_PLAGUE), "Plague Monks");
		const struct cw_unit_def *u = &cw_armies[CW_ARMY_UNDEAD].units[2];
		CHECK(u->weapon == CW_W_TERRORPULTS && u->move == 0 && u->cost == 2,
		      "Undead Catapults: Terrorpults");
	}
	row(T "Army lists: every row of the seven tables (Max, Cost, Move, Save, Melee, Special)");
	{
		/* Transcribed from the text, not from cw_data.c. */
		static const struct {
			int army;
			const char *slug;
			int max, cost, move, save, melee;
			unsigned sp;
			int weapon, skill, nspells;
		} rows_[] = {
			{CW_ARMY_CHAOS, "chaos_lord", 1, 0, 2, 2, 2, CW_SP_BRAVE | CW_SP_SCARY, CW_W_NONE, 0, 0},
			{CW_ARMY_CHAOS, "sorcerer", 2, 2, 2, 3, -1, 0, CW_W_NONE, 0, 6},
			{CW_ARMY_CHAOS, "giants", 2, 2, 2, 2, 1, 0, CW_W_ROCKS, 0, 0},
			{CW_ARMY_CHAOS, "chaos_bowmen", 4, 1, 2, 5, 0, 0, CW_W_BOWS, 3, 0},
			{CW_ARMY_CHAOS, "chaos_knights", 4, 2, 3, 3, 1, CW_SP_ASSAULT | CW_SP_BRAVE, CW_W_NONE, 0, 0},
			{CW_ARMY_CHAOS, "beastmen", 12, 1, 1, 4, 0, CW_SP_PLAGUE, CW_W_NONE, 0, 0},
			{CW_ARMY_DWARVES, "warlord", 1, 0, 1, 2, 2, CW_SP_BRAVE, CW_W_CROSSBOWS, 3, 0},
			{CW_ARMY_DWARVES, "rune_lord", 1, 3, 1, 2, 2, CW_SP_BRAVE, CW_W_CROSSBOWS, 3, 4},
			{CW_ARMY_DWARVES, "catapults", 4, 1, 0, 3, 0, 0, CW_W_CATAPULT, 0, 0},
			{CW_ARMY_DWARVES, "crossbowers", 4, 1, 1, 3, 0, 0, CW_W_CROSSBOWS, 3, 0},
			{CW_ARMY_DWARVES, "infantry", 12, 1, 1, 3, 1, 0, CW_W_NONE, 0, 0},
			{CW_ARMY_ELFS, "general", 1, 0, 3, 2, 1, CW_SP_BRAVE | CW_SP_ASSAULT, CW_W_NONE, 0, 0},
			{CW_ARMY_ELFS, "wizard", 2, 4, 3, 3, -1, CW_SP_ASSAULT, CW_W_NONE, 0, 6},
			{CW_ARMY_ELFS, "treemen", 2, 2, 1, 2, 1, 0, CW_W_NONE, 0, 0},
			{CW_ARMY_ELFS, "elite_archers", 4, 2, 2, 4, 0, 0, CW_W_LONGBOWS, 2, 0},
			{CW_ARMY_ELFS, "cavalry", 2, 2, 3, 3, 0, CW_SP_ASSAULT, CW_W_NONE, 0, 0},
			{CW_ARMY_ELFS, "archers", 16, 1, 2, 5, -1, 0, CW_W_BOWS, 3, 0},
			{CW_ARMY_HUMANS, "general", 1, 0, 2, 2, 1, CW_SP_BRAVE, CW_W_NONE, 0, 0},
			{CW_ARMY_HUMANS, "wizard", 2, 3, 2, 3, -1, 0, CW_W_NONE, 0, 6},
			{CW_ARMY_HUMANS, "catapults", 4, 1, 0, 4, -1, 0, CW_W_CATAPULT, 0, 0},
			{CW_ARMY_HUMANS, "archers", 4, 1, 2, 5, -1, 0, CW_W_BOWS, 3, 0},
			{CW_ARMY_HUMANS, "knights", 4, 2, 3, 3, 0, CW_SP_ASSAULT, CW_W_NONE, 0, 0},
			{CW_ARMY_HUMANS, "infantry", 16, 1, 1, 4, 0, 0, CW_W_NONE, 0, 0},
			{CW_ARMY_ORCS, "warlord", 1, 0, 2, 2, 1, CW_SP_BRAVE, CW_W_NONE, 0, 0},
			{CW_ARMY_ORCS, "shaman", 2, 3, 2, 3, 0, 0, CW_W_NONE, 0, 6},
			{CW_ARMY_ORCS, "trolls", 4, 2, 1, 3, 1, CW_SP_PLAGUE | CW_SP_REGENERATE, CW_W_ROCKS, 0, 0},
			{CW_ARMY_ORCS, "archers", 4, 1, 1, 4, 0, 0, CW_W_BOWS, 3, 0},
			{CW_ARMY_ORCS, "wolf_riders", 4, 1, 4, 4, -1, CW_SP_ASSAULT, CW_W_NONE, 0, 0},
			{CW_ARMY_ORCS, "orcs", 16, 1, 1, 3, 0, 0, CW_W_NONE, 0, 0},
			{CW_ARMY_RATMEN, "rat_lord", 1, 0, 2, 2, 1, CW_SP_BRAVE, CW_W_NONE, 0, 0},
			{CW_ARMY_RATMEN, "seer", 2, 3, 2, 3, -1, 0, CW_W_NONE, 0, 6},
			{CW_ARMY_RATMEN, "rat_ogres", 4, 2, 2, 3, 1, 0, CW_W_NONE, 0, 0},
			{CW_ARMY_RATMEN, "plague_monks", 4, 2, 2, 4, 0, CW_SP_BRAVE | CW_SP_PLAGUE, CW_W_PLAGUEBOMBS, 0, 0},
			{CW_ARMY_RATMEN, "clanrats", 16, 1, 2, 5, 0, 0, CW_W_NONE, 0, 0},
			{CW_ARMY_UNDEAD, "liche", 1, 0, 2, 2, 1, CW_SP_UNDEAD | CW_SP_TELEPORT, CW_W_NONE, 0, 6},
			{CW_ARMY_UNDEAD, "necromancer", 2, 3, 2, 3, -1, CW_SP_BRAVE, CW_W_NONE, 0, 6},
			{CW_ARMY_UNDEAD, "undead_catapults", 4, 2, 0, 4, -1, CW_SP_UNDEAD, CW_W_TERRORPULTS, 0, 0},
			{CW_ARMY_UNDEAD, "undead_archers", 4, 1, 1, 5, -1, CW_SP_UNDEAD, CW_W_BOWS, 4, 0},
			{CW_ARMY_UNDEAD, "undead_cavalry", 4, 2, 3, 3, -1, CW_SP_UNDEAD | CW_SP_ASSAULT, CW_W_NONE, 0, 0},
			{CW_ARMY_UNDEAD, "zombies", 16, 1, 1, 4, -1, CW_SP_UNDEAD, CW_W_NONE, 0, 0},
		};
		for (size_t i = 0; i < sizeof(rows_) / sizeof(rows_[0]); i++) {
			int ty = cw_type_lookup(rows_[i].army, rows_[i].slug);
			const struct cw_unit_def *u = ty >= 0 ? &cw_armies[rows_[i].army].units[ty] : NULL;
			CHECK(u && u->max == rows_[i].max && u->cost == rows_[i].cost &&
			      u->move == rows_[i].move && u->save == rows_[i].save &&
			      u->melee == rows_[i].melee && u->special == rows_[i].sp &&
			      u->weapon == rows_[i].weapon && u->skill == rows_[i].skill &&
			      __builtin_popcount(u->spells) == rows_[i].nspells, rows_[i].slug);
		}
	}
	row(T "Army lists: weapons (Bows 4, Long Bows 5, Crossbows no move and fire, no indirect)");
	CHECK(cw_weapons[CW_W_BOWS].range == 4 && cw_weapons[CW_W_LONGBOWS].range == 5 &&
	      !cw_weapons[CW_W_CROSSBOWS].move_fire && !cw_weapons[CW_W_CROSSBOWS].indirect,
	      row_name);
	CHECK(cw_weapons[CW_W_ROCKS].range == 2 && cw_weapons[CW_W_ROCKS].min_range == 0 &&
	      cw_weapons[CW_W_ROCKS].scatter_indirect == 1 && cw_weapons[CW_W_CATAPULT].min_range == 2 &&
	      cw_weapons[CW_W_CATAPULT].scatter_direct == 2 &&
	      cw_weapons[CW_W_CATAPULT].scatter_indirect == 3,
	      T "Catapults; Rocks and plaguebombs");
}

static struct cw_state *
fresh(void)
{
	void *vs;
	struct wr_error err;
	CHECK(cw_ruleset.create(NULL, 2, NULL, &vs, &err) == 0, "create");
	return vs;
}

static void
building(void)
{
	struct cw_state *st = fresh();
	row(R "C1: choose an army, buy within points and Max");
	refused(st, 0, "{\"type\":\"buy\",\"unit\":\"archers\"}", "not-building");
	ok(st, 0, "{\"type\":\"army\",\"army\":\"orcs\"}", NODICE);
	ok(st, 0, "{\"type\":\"buy\",\"unit\":\"orcs\",\"count\":10}", NODICE);
	CHECK(st->side[0].spent == 10, row_name);
	row(R "C1: over budget by how much");
	refused(st, 0, "{\"type\":\"buy\",\"unit\":\"trolls\",\"count\":4}", "over-budget");
	CHECK(strstr(last_err.message, "over budget by 2") != NULL, row_name);
	row(R "C1: over Max");
	refused(st, 0, "{\"type\":\"buy\",\"unit\":\"shaman\",\"count\":3}", "over-max");
	row(R "C1: the general is always taken and free, never bought");
	refused(st, 0, "{\"type\":\"buy\",\"unit\":\"warlord\"}", "general");
	row(R "C1: sell");
	ok(st, 0, "{\"type\":\"sell\",\"unit\":\"orcs\",\"count\":4}", NODICE);
	CHECK(st->side[0].spent == 6 && st->side[0].counts[5] == 6, row_name);
	refused(st, 0, "{\"type\":\"sell\",\"unit\":\"trolls\"}", "not-bought");
	row(R "C1: unknown unit of the army");
	refused(st, 0, "{\"type\":\"buy\",\"unit\":\"zombies\"}", "unknown-unit");
	row(R "C2 (Rulings needed): an army larger than its set-up area is refused");
	ok(st, 1, "{\"type\":\"army\",\"army\":\"ratmen\"}", NODICE);
	ok(st, 1, "{\"type\":\"buy\",\"unit\":\"clanrats\",\"count\":15}", NODICE);
	refused(st, 1, "{\"type\":\"buy\",\"unit\":\"clanrats\"}", "army-too-large");
	row(R "G5: the other seat's army is hidden during set-up, views same bytes");
	{
		char *v1 = view_str(st, 0), *sp1 = view_str(st, WR_SPECTATOR);
		json_object *a1 = cw_ruleset.actions(st, 0);
		char *as1 = strdup(json_object_to_json_string(a1));
		ok(st, 1, "{\"type\":\"army\",\"army\":\"undead\"}", NODICE);
		ok(st, 1, "{\"type\":\"buy\",\"unit\":\"zombies\",\"count\":3}", NODICE);
		char *v2 = view_str(st, 0), *sp2 = view_str(st, WR_SPECTATOR);
		json_object *a2 = cw_ruleset.actions(st, 0);
		CHECK_STR(v1, v2, "seat 0's view does not depend on seat 1's army");
		CHECK_STR(sp1, sp2, "the spectator's view does not depend on the armies");
		CHECK_STR(as1, json_object_to_json_string(a2), "nor do seat 0's actions");
		row(R "G5: set-up events are visible to their seat only");
		for (size_t i = 0; i < last_ev.len; i++)
			CHECK(last_ev.items[i].visible_to == 2u, row_name);
		free(v1);
		free(v2);
		free(sp1);
		free(sp2);
		free(as1);
		json_object_put(a1);
		json_object_put(a2);
	}
	row(R "C2: deploy on the two nearest ranks, secretly; done when all are placed");
	ok(st, 0, "{\"type\":\"ready\"}", NODICE);
	refused(st, 0, "{\"type\":\"buy\",\"unit\":\"orcs\"}", "not-building");
	refused(st, 0, "{\"type\":\"deploy\",\"unit\":\"warlord\",\"square\":\"e3\"}",
	        "outside-set-up-area");
	ok(st, 0, "{\"type\":\"deploy\",\"unit\":\"warlord\",\"square\":\"e1\"}", NODICE);
	refused(st, 0, "{\"type\":\"deploy\",\"unit\":\"orcs\",\"square\":\"e1\"}", "occupied");
	refused(st, 0, "{\"type\":\"done\"}", "units-left");
	for (int f = 0; f < 6; f++) {
		char j[96];
		snprintf(j, sizeof(j), "{\"type\":\"deploy\",\"unit\":\"orcs\",\"square\":\"%c2\"}",
		         'a' + f);
		ok(st, 0, j, NODICE);
	}
	refused(st, 0, "{\"type\":\"deploy\",\"unit\":\"orcs\",\"square\":\"h2\"}", "none-left");
	ok(st, 0, "{\"type\":\"undeploy\",\"square\":\"a2\"}", NODICE);
	ok(st, 0, "{\"type\":\"deploy\",\"unit\":\"orcs\",\"square\":\"a1\"}", NODICE);
	ok(st, 0, "{\"type\":\"done\"}", NODICE);
	CHECK(cw_to_act(st) == 2u, "seat 0 done: only seat 1 is awaited");
	{
		json_object *a = cw_ruleset.actions(st, 0);
		CHECK(json_object_array_length(a) == 0, "G6/G3: a seat not awaited has no actions");
		json_object_put(a);
	}
	refused(st, 0, "{\"type\":\"ready\"}", "not-awaited");
	row(R "C2, G5: the other seat's secret deployment changes no byte of a view or list");
	char *hv0 = view_str(st, 0), *hsp = view_str(st, WR_SPECTATOR);
	ok(st, 1, "{\"type\":\"ready\"}", NODICE);
	row("RULINGS.md G1: seat 1 sits at rank 8: its two nearest ranks are 7 and 8");
	refused(st, 1, "{\"type\":\"deploy\",\"unit\":\"liche\",\"square\":\"d2\"}",
	        "outside-set-up-area");
	refused(st, 1, "{\"type\":\"deploy\",\"unit\":\"liche\",\"square\":\"d6\"}",
	        "outside-set-up-area");
	ok(st, 1, "{\"type\":\"deploy\",\"unit\":\"liche\",\"square\":\"d8\"}", NODICE);
	for (int f = 0; f < 3; f++) {
		char j[96];
		snprintf(j, sizeof(j), "{\"type\":\"deploy\",\"unit\":\"zombies\",\"square\":\"%c7\"}",
		         'a' + f);
		ok(st, 1, j, NODICE);
	}
	{
		char *hv1 = view_str(st, 0), *hsp1 = view_str(st, WR_SPECTATOR);
		CHECK_STR(hv0, hv1, "seat 0's view");
		CHECK_STR(hsp, hsp1, "the spectator's view");
		free(hv1);
		free(hsp1);
	}
	free(hv0);
	free(hsp);
	row(R "C2: both deployments revealed when both are in; C3 lower initiative first");
	ok(st, 1, "{\"type\":\"done\"}", NODICE);
	CHECK(has_event("reveal"), row_name);
	CHECK(st->phase == CW_PH_MOVE && st->first_seat == 0 && st->turn_seat == 0,
	      "orcs (5) before undead (7)");
	{
		char *v = view_str(st, 0);
		CHECK(strstr(v, "\"army\":\"undead\"") != NULL, "revealed in the view");
		free(v);
	}
	free(st);
	wr_events_free(&last_ev);
}

static void
initiative_tie(void)
{
	struct cw_state *st = fresh();
	row(R "C3, RULINGS.md G2: equal initiative, a d6 roll-off (ties re-rolled by the server), "
	      "the winner chooses (G3)");
	ok(st, 0, "{\"type\":\"army\",\"army\":\"elfs\"}", NODICE);
	ok(st, 1, "{\"type\":\"army\",\"army\":\"elfs\"}", NODICE);
	ok(st, 0, "{\"type\":\"ready\"}", NODICE);
	ok(st, 1, "{\"type\":\"ready\"}", NODICE);
	ok(st, 0, "{\"type\":\"deploy\",\"unit\":\"general\",\"square\":\"e1\"}", NODICE);
	ok(st, 1, "{\"type\":\"deploy\",\"unit\":\"general\",\"square\":\"e8\"}", NODICE);
	ok(st, 0, "{\"type\":\"done\"}", NODICE);
	ok(st, 1, "{\"type\":\"done\"}", D(3, 3, 2, 5));
	CHECK(st->phase == CW_PH_FIRST && st->rolloff_winner == 1, row_name);
	CHECK(cw_to_act(st) == 2u, "the winner is awaited");
	refused(st, 0, "{\"type\":\"first\",\"first\":true}", "not-awaited");
	ok(st, 1, "{\"type\":\"first\",\"first\":false}", NODICE);
	CHECK(st->first_seat == 0 && st->turn_seat == 0 && st->phase == CW_PH_MOVE, row_name);
	free(st);
}

static void
movement(void)
{
	struct cw_state *st = pos(CW_ARMY_HUMANS, CW_ARMY_ORCS, 8, 8);
	int g0 = add(st, 0, "general", "a1"), g1 = add(st, 1, "warlord", "h8");
	int k = add(st, 0, "knights", "d4"), e = add(st, 1, "orcs", "e5");
	int inf = add(st, 0, "infantry", "b2"), cat = add(st, 0, "catapults", "c1");
	(void)g0;
	(void)g1;
	(void)inf;
	row(T "Movement: cannot move from a square next to an enemy to another next to it");
	refused(st, 0, "{\"type\":\"move\",\"unit\":\"d4\",\"path\":[\"d5\"]}", "stays-next-to-enemy");
	{
		/* infantry (Move 1) next to an enemy cannot slide along it */
		add(st, 0, "infantry", "f6");
		refused(st, 0, "{\"type\":\"move\",\"unit\":\"f6\",\"to\":\"f5\"}", "unreachable");
		CHECK(!listed(st, 0, "{\"type\":\"move\",\"from\":\"f6\",\"to\":\"e6\",\"path\":[\"e6\"]}"),
		      row_name);
	}
	row(T "Movement: the same applies to an enemy situated diagonally");
	refused(st, 0, "{\"type\":\"move\",\"unit\":\"d4\",\"path\":[\"e4\"]}", "stays-next-to-enemy");
	row(T "Movement: first move away and then return to a different square next to the enemy");
	ok(st, 0, "{\"type\":\"move\",\"unit\":\"d4\",\"path\":[\"d3\",\"e4\"]}", NODICE);
	CHECK(on_at(st, k, "e4"), row_name);
	row(R "C4: a unit moves once per movement phase");
	refused(st, 0, "{\"type\":\"move\",\"unit\":\"e4\",\"to\":\"e3\"}", "already-moved");
	row(R "C5: never into an occupied square");
	refused(st, 0, "{\"type\":\"move\",\"unit\":\"b2\",\"to\":\"a1\"}", "unreachable");
	row(T "Movement: Move is the most squares per movement phase");
	refused(st, 0, "{\"type\":\"move\",\"unit\":\"b2\",\"to\":\"b4\"}", "unreachable");
	refused(st, 0, "{\"type\":\"move\",\"unit\":\"b2\",\"path\":[\"b3\",\"b4\"]}", "too-far");
	row(T "Movement: a unit with move of 0 cannot move");
	refused(st, 0, "{\"type\":\"move\",\"unit\":\"c1\",\"to\":\"c2\"}", "cannot-move");
	row(R "C4: one unit at a time: a charge right after the unit's own move");
	ok(st, 0, "{\"type\":\"move\",\"unit\":\"b2\",\"to\":\"b3\"}", NODICE);
	refused(st, 0, "{\"type\":\"charge\",\"unit\":\"e4\",\"target\":\"e5\"}", "not-after-move");
	row(R "C4: phases are never mixed");
	refused(st, 0, "{\"type\":\"shoot\",\"unit\":\"c1\",\"target\":\"e5\"}", "wrong-phase");
	refused(st, 0, "{\"type\":\"attack\",\"unit\":\"b3\",\"target\":\"e5\"}", "wrong-phase");
	row("RULINGS.md G6: ending the phase is always a legal action, so a seat never passes");
	CHECK(listed(st, 0, "{\"type\":\"end_phase\"}"), row_name);
	refused(st, 1, "{\"type\":\"end_phase\"}", "not-awaited");
	(void)e;
	(void)cat;
	free(st);

	st = pos(CW_ARMY_UNDEAD, CW_ARMY_ORCS, 8, 8);
	int li = add(st, 0, "liche", "d4");
	add(st, 1, "warlord", "h8");
	add(st, 0, "zombies", "d5");
	add(st, 1, "orcs", "c5");
	row(T "Army lists (Undead): Teleport, move ignores other units");
	ok(st, 0, "{\"type\":\"move\",\"unit\":\"d4\",\"path\":[\"d5\",\"d6\"]}", NODICE);
	CHECK(on_at(st, li, "d6"), row_name);
	free(st);
}

/* A move of the unit on `from` to `to` is in the seat's list (whatever
 * path the server found for it). */
static int
listed_move(const struct cw_state *st, int seat, const char *from, const char *to)
{
	json_object *a = cw_ruleset.actions(st, seat), *v;
	int found = 0;
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		json_object *x = json_object_array_get_idx(a, i);
		found |= json_object_object_get_ex(x, "type", &v) &&
		         strcmp(json_object_get_string(v), "move") == 0 &&
		         json_object_object_get_ex(x, "from", &v) &&
		         strcmp(json_object_get_string(v), from) == 0 &&
		         json_object_object_get_ex(x, "to", &v) && strcmp(json_object_get_string(v), to) == 0;
	}
	json_object_put(a);
	return found;
}

/* Finding (checks by people who did not read the code): the Liche's
 * Teleport through occupied squares was missing from the list and refused
 * in the {"from","to"} form, accepted in the {"from","path"} form. One
 * search (cw_move.c) answers all three now. */
static void
teleport_one_search(void)
{
	struct cw_state *st = pos(CW_ARMY_HUMANS, CW_ARMY_UNDEAD, 8, 8);
	add(st, 0, "general", "e1");
	int li = add(st, 1, "liche", "b8");
	add(st, 1, "zombies", "a7");
	add(st, 1, "zombies", "b7");
	add(st, 1, "zombies", "c7");
	st->turn_seat = 1;
	row("finding (Teleport, \"move ignores other units\"): the Liche walled in by its zombies "
	    "is offered b6, a6, c6 and d6 through them");
	CHECK(listed_move(st, 1, "b8", "b6") && listed_move(st, 1, "b8", "a6") &&
	      listed_move(st, 1, "b8", "c6") && listed_move(st, 1, "b8", "d6"), row_name);
	row("finding (Teleport): it never ends on a unit");
	CHECK(!listed_move(st, 1, "b8", "b7"), row_name);
	refused(st, 1, "{\"type\":\"move\",\"from\":\"b8\",\"to\":\"b7\"}", "unreachable");
	refused(st, 1, "{\"type\":\"move\",\"from\":\"b8\",\"path\":[\"b7\"]}", "occupied");
	row("finding (Teleport): the {\"from\",\"path\"} form through a zombie is accepted");
	{
		struct cw_state *cp = malloc(sizeof(*cp));
		memcpy(cp, st, sizeof(*cp));
		ok(cp, 1, "{\"type\":\"move\",\"from\":\"b8\",\"path\":[\"c7\",\"d6\"]}", NODICE);
		CHECK(on_at(cp, li, "d6"), row_name);
		free(cp);
	}
	row("finding (Teleport): the {\"from\",\"to\"} form through the zombies is accepted");
	ok(st, 1, "{\"type\":\"move\",\"from\":\"b8\",\"to\":\"b6\"}", NODICE);
	CHECK(on_at(st, li, "b6") && ev_int("move", "to") != -999, row_name);
	free(st);

	st = pos(CW_ARMY_ORCS, CW_ARMY_HUMANS, 8, 8);
	add(st, 0, "warlord", "a1");
	add(st, 1, "general", "h8");
	int w = add(st, 0, "shaman", "d1");
	add(st, 0, "orcs", "c2");
	add(st, 0, "orcs", "d2");
	add(st, 0, "orcs", "e2");
	row(R "C9 Flight: the same search, ignoring units: the walled-in shaman flies to d7 "
	      "(6 squares), not to d8 (7)");
	CHECK(listed(st, 0, "{\"type\":\"cast\",\"from\":\"d1\",\"spell\":\"flight\",\"target\":\"d1\","
	                    "\"to\":\"d7\"}") &&
	      !listed(st, 0, "{\"type\":\"cast\",\"from\":\"d1\",\"spell\":\"flight\",\"target\":\"d1\","
	                     "\"to\":\"d8\"}"), row_name);
	refused(st, 0, "{\"type\":\"cast\",\"from\":\"d1\",\"spell\":\"flight\",\"target\":\"d1\",\"to\":\"d8\"}",
	        "bad-destination");
	ok(st, 0, "{\"type\":\"cast\",\"from\":\"d1\",\"spell\":\"flight\",\"target\":\"d1\",\"to\":\"d7\"}",
	   NODICE);
	CHECK(on_at(st, w, "d7"), row_name);
	free(st);
}

static void
charges(void)
{
	struct cw_state *st = pos(CW_ARMY_HUMANS, CW_ARMY_CHAOS, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "chaos_lord", "h8");
	int k = add(st, 0, "knights", "d4"), b = add(st, 1, "beastmen", "e5");
	int b2 = add(st, 1, "beastmen", "e4");
	int inf = add(st, 0, "infantry", "c3"), b3 = add(st, 1, "beastmen", "b4");
	int c = add(st, 0, "catapults", "a3");
	row(T "Charge move: no diagonal charge when a side square has an enemy unit");
	refused(st, 0, "{\"type\":\"charge\",\"unit\":\"d4\",\"target\":\"e5\"}", "diagonal-blocked");
	row(T "Charge move: the unit can always charge laterally");
	ok(st, 0, "{\"type\":\"charge\",\"unit\":\"d4\",\"target\":\"e4\"}", NODICE);
	CHECK(linked(st, k, b2) && has_event("charge"), row_name);
	row(T "Charge move: neither can leave the melee");
	refused(st, 0, "{\"type\":\"move\",\"unit\":\"d4\",\"to\":\"c4\"}", "in-melee");
	row(T "Charge move: own units do not prevent a diagonal charge");
	/* c3 -> b4 diagonal: side squares b3 (empty) and c4 (empty) */
	st->u[inf].moved = 0;
	ok(st, 0, "{\"type\":\"charge\",\"unit\":\"c3\",\"target\":\"b4\"}", NODICE);
	CHECK(linked(st, inf, b3), row_name);
	row(T "Charge move: a unit with move of 0 can charge enemies next to it");
	{
		int e2 = add(st, 1, "beastmen", "b2");
		ok(st, 0, "{\"type\":\"charge\",\"unit\":\"a3\",\"target\":\"b2\"}", NODICE);
		CHECK(linked(st, c, e2), row_name);
	}
	row(T "Charge move: a target already in melee may be attacked by another unit");
	{
		int k2 = add(st, 0, "knights", "f3");
		ok(st, 0, "{\"type\":\"charge\",\"unit\":\"f3\",\"target\":\"e4\"}", NODICE);
		CHECK(linked(st, k2, b2) && linked(st, k, b2), row_name);
	}
	(void)b;
	free(st);

	st = pos(CW_ARMY_HUMANS, CW_ARMY_UNDEAD, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "liche", "h8");
	int inf1 = add(st, 0, "infantry", "d4"), z = add(st, 1, "zombies", "d5");
	int inf2 = add(st, 0, "infantry", "f4"), z2 = add(st, 1, "zombies", "f5");
	int gen = 0;
	row(R "C5: a non-brave unit charging a Scary target saves first; a failure stops it");
	ok(st, 0, "{\"type\":\"charge\",\"unit\":\"d4\",\"target\":\"d5\"}", D(3));
	CHECK(!linked(st, inf1, z) && has_event("charge_failed"), row_name);
	refused(st, 0, "{\"type\":\"charge\",\"unit\":\"d4\",\"target\":\"d5\"}", "already-charged");
	ok(st, 0, "{\"type\":\"charge\",\"unit\":\"f4\",\"target\":\"f5\"}", D(4));
	CHECK(linked(st, inf2, z2), "a made save: the charge happens");
	row(T "Army lists: Brave cancels scary (no save to charge)");
	{
		int z3 = add(st, 1, "zombies", "a2");
		ok(st, 0, "{\"type\":\"charge\",\"unit\":\"a1\",\"target\":\"a2\"}", NODICE);
		CHECK(linked(st, gen, z3), row_name);
	}
	free(st);
}

/* The text's figure (Shooting): the firer A sees 1; sees 2 through the
 * empty one of two squares; not 3 (an own unit blocks) but another own
 * unit sees 3 (indirect fire); 4 is seen by no unit of A's army. */
static void
line_of_sight_figure(void)
{
	struct cw_state *st = pos(CW_ARMY_HUMANS, CW_ARMY_ORCS, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "warlord", "h8");
	int A = add(st, 0, "archers", "d1");
	add(st, 1, "orcs", "d4");               /* 1 */
	add(st, 0, "infantry", "f1");           /* blocks one of the two squares to 2 */
	add(st, 1, "orcs", "g2");               /* 2: the line d1-g2 runs between f1 and e2 */
	add(st, 0, "infantry", "c2");           /* blocks A's line to 3 */
	add(st, 1, "orcs", "b3");               /* 3 */
	add(st, 0, "infantry", "a4");           /* sees 3 */
	add(st, 1, "orcs", "h4");               /* 4, walled in */
	add(st, 1, "orcs", "g3");
	add(st, 1, "orcs", "g4");
	add(st, 1, "orcs", "g5");
	add(st, 1, "orcs", "h3");
	add(st, 1, "orcs", "h5");
	st->phase = CW_PH_SHOOT;
	row(T "Shooting (figure): A clearly sees unit 1");
	CHECK(cw_sees(st, sq(st, "d1"), sq(st, "d4")), row_name);
	row(R "C6: exactly between two squares, the firer picks the empty one (unit 2)");
	CHECK(cw_sees(st, sq(st, "d1"), sq(st, "g2")), row_name);
	add(st, 0, "infantry", "e2");
	CHECK(!cw_sees(st, sq(st, "d1"), sq(st, "g2")), "both occupied: blocked");
	st->u[cw_unit_at(st, sq(st, "e2"))].status = CW_U_DEAD;
	cw_lift(st, cw_unit_at(st, sq(st, "e2")));
	cw_rebuild_at(st);
	row(T "Shooting (figure): A cannot see unit 3, another own unit does: indirect fire; "
	      "RULINGS.md, ChessWar C6 (indirect fire uses any own unit's sight)");
	CHECK(!cw_sees(st, sq(st, "d1"), sq(st, "b3")), row_name);
	CHECK(cw_seen_by_seat(st, 0, sq(st, "b3"), A), row_name);
	CHECK(listed(st, 0, "{\"type\":\"shoot\",\"from\":\"d1\",\"target\":\"b3\"}"), row_name);
	row(T "Shooting (figure): unit 4 is seen by no unit and cannot be targeted even indirectly");
	CHECK(!cw_seen_by_seat(st, 0, sq(st, "h4"), CW_NONE), row_name);
	refused(st, 0, "{\"type\":\"shoot\",\"unit\":\"d1\",\"target\":\"h4\"}", "no-line-of-sight");
	row(T "Bows: -2 for indirect fire; A at d1 to b3 is 2 squares");
	{
		int mods[4], n;
		CHECK(cw_shoot_need(st, A, cw_unit_at(st, sq(st, "b3")), mods, &n) == 5 && n == 1,
		      row_name);
	}
	row(T "Bows: a hit from indirect fire: roll 5 hits, the orcs save 3+ fails on 2");
	add(st, 0, "archers", "h1");            /* may still fire at h3: the phase goes on */
	ok(st, 0, "{\"type\":\"shoot\",\"unit\":\"d1\",\"target\":\"b3\"}", D(5, 2));
	CHECK(cw_unit_at(st, sq(st, "b3")) == CW_NONE, row_name);
	refused(st, 0, "{\"type\":\"shoot\",\"unit\":\"d1\",\"target\":\"d4\"}", "already-shot");
	free(st);
}

static void
shooting(void)
{
	struct cw_state *st = pos(CW_ARMY_DWARVES, CW_ARMY_ELFS, 8, 8);
	add(st, 0, "warlord", "a1");
	add(st, 1, "general", "h8");
	int xb = add(st, 0, "crossbowers", "d1"), xb2 = add(st, 0, "crossbowers", "f1");
	int ar = add(st, 1, "archers", "d5");
	add(st, 1, "elite_archers", "d6");
	add(st, 0, "infantry", "b1");
	add(st, 0, "infantry", "e3");
	(void)ar;
	st->phase = CW_PH_SHOOT;
	row(T "Bows: range 4; -1 at 3 or more squares");
	{
		int m[4], n;
		CHECK(cw_shoot_need(st, xb, cw_unit_at(st, sq(st, "d5")), m, &n) == 4 && n == 1,
		      row_name);
	}
	refused(st, 0, "{\"type\":\"shoot\",\"unit\":\"d1\",\"target\":\"d6\"}", "out-of-range");
	row(T "Army lists: Crossbows, no indirect fire");
	refused(st, 0, "{\"type\":\"shoot\",\"unit\":\"f1\",\"target\":\"d5\"}", "no-line-of-sight");
	(void)xb2;
	row(T "Army lists: Crossbows, no move and fire");
	st->u[xb].moved = 1;
	refused(st, 0, "{\"type\":\"shoot\",\"unit\":\"d1\",\"target\":\"d5\"}", "moved");
	st->u[xb].moved = 0;
	row(T "Bows: a miss below the need");
	ok(st, 0, "{\"type\":\"shoot\",\"unit\":\"d1\",\"target\":\"d5\"}", D(3));
	CHECK(ev_int("shoot", "need") == 4 && has_event("shoot") && !has_event("save"), row_name);
	free(st);

	st = pos(CW_ARMY_UNDEAD, CW_ARMY_HUMANS, 8, 8);
	add(st, 0, "liche", "a1");
	add(st, 1, "general", "h8");
	{
		int ua = add(st, 0, "undead_archers", "d2");
		int hi = add(st, 1, "infantry", "d5");
		st->phase = CW_PH_SHOOT;
		st->u[ua].moved = 1;
		st->fx[st->nfx++] = (struct cw_effect){CW_SPELL_STORM, 0, CW_NONE};
		row(T "Bows: the roll 6 does not always hit (4+, moved, range 3, storm: need 7)");
		ok(st, 0, "{\"type\":\"shoot\",\"from\":\"d2\",\"target\":\"d5\"}", D(6));
		CHECK(ev_int("shoot", "need") == 7 && !has_event("save") && cw_on(st, hi), row_name);
	}
	free(st);

	st = pos(CW_ARMY_ELFS, CW_ARMY_UNDEAD, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "liche", "h8");
	int e = add(st, 0, "elite_archers", "d1");
	int zb = add(st, 1, "undead_archers", "d6");
	st->phase = CW_PH_SHOOT;
	st->u[e].moved = 1;
	row(T "Army lists: Long Bows range 5; -1 moved, -1 range 3+ (2+ becomes 4+)");
	{
		int m[4], n;
		CHECK(cw_shoot_need(st, e, zb, m, &n) == 4 && n == 2, row_name);
	}
	row(R "C7: Undead +1 saves vs bows: save 5+ made on a 4");
	ok(st, 0, "{\"type\":\"shoot\",\"unit\":\"d1\",\"target\":\"d6\"}", D(4, 4));
	CHECK(ev_int("save", "need") == 4 && !dead(st, zb), row_name);
	free(st);

	st = pos(CW_ARMY_ELFS, CW_ARMY_UNDEAD, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "liche", "h8");
	add(st, 0, "archers", "d2");
	int t1 = add(st, 0, "treemen", "d5");
	int z = add(st, 1, "zombies", "d6");
	int t2 = add(st, 0, "treemen", "e6");
	cw_link(st, t1, z);
	cw_link(st, t2, z);
	st->phase = CW_PH_SHOOT;
	row(T "Shooting into melee: 1-2, one random opponent is hit");
	ok(st, 0, "{\"type\":\"shoot\",\"unit\":\"d2\",\"target\":\"d6\"}", D(6, 2, 2, 1));
	CHECK(dead(st, t2) && !dead(st, z) && !dead(st, t1), row_name);
	free(st);

	st = pos(CW_ARMY_ELFS, CW_ARMY_UNDEAD, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "liche", "h8");
	add(st, 0, "archers", "d2");
	t1 = add(st, 0, "treemen", "d5");
	z = add(st, 1, "zombies", "d6");
	cw_link(st, t1, z);
	st->phase = CW_PH_SHOOT;
	row(T "Shooting into melee: 3-4, the target and one random opponent are hit");
	ok(st, 0, "{\"type\":\"shoot\",\"unit\":\"d2\",\"target\":\"d6\"}", D(6, 4, 1, 1));
	CHECK(dead(st, z) && dead(st, t1), row_name);
	row(R "C9 Heal (provisional): the Liche within 4 squares may Heal the zombie: asked");
	CHECK(st->pending == CW_PEND_HEAL && cw_to_act(st) == 2u && st->u[z].dying, row_name);
	CHECK(cw_general_alive(st, 1) && cw_units_alive(st, 1) == 2, "not dead while undecided");
	ok(st, 1, "{\"type\":\"no_heal\"}", NODICE);
	CHECK(!st->u[z].dying && dead(st, z), "let it fall");
	row(T "Shooting into melee: the survivor gets no free follow-up (no longer in melee)");
	CHECK(st->pending == CW_PEND_NONE, row_name);
	free(st);

	st = pos(CW_ARMY_ELFS, CW_ARMY_UNDEAD, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "liche", "h8");
	add(st, 0, "archers", "d2");
	t1 = add(st, 0, "treemen", "d5");
	z = add(st, 1, "zombies", "d6");
	cw_link(st, t1, z);
	st->phase = CW_PH_SHOOT;
	row(T "Shooting into melee: 5-6, the original target is hit");
	ok(st, 0, "{\"type\":\"shoot\",\"unit\":\"d2\",\"target\":\"d6\"}", D(6, 5, 1));
	CHECK(dead(st, z) && !dead(st, t1), row_name);
	free(st);
}

static void
catapults(void)
{
	struct cw_state *st = pos(CW_ARMY_HUMANS, CW_ARMY_ORCS, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "warlord", "h8");
	int c = add(st, 0, "catapults", "d1");
	int o1 = add(st, 1, "orcs", "d5"), o2 = add(st, 1, "orcs", "e6");
	st->phase = CW_PH_SHOOT;
	row(T "Catapults: cannot be aimed at a square next to the catapult");
	refused(st, 0, "{\"type\":\"shoot\",\"unit\":\"d1\",\"target\":\"d2\"}", "too-close");
	row(T "Catapults: the target square may be empty; 2 scatter rolls when direct");
	CHECK(listed(st, 0, "{\"type\":\"shoot\",\"from\":\"d1\",\"target\":\"d4\"}"), row_name);
	row(T "Catapults: 1 square over (toward the other end) and no scatter: lands d5");
	ok(st, 0, "{\"type\":\"shoot\",\"unit\":\"d1\",\"target\":\"d4\"}", D(1, 5, 2));
	CHECK(strcmp(ev_str("scatter", "lands"), "d5") == 0 && dead(st, o1), row_name);
	(void)o2;
	(void)c;
	free(st);


	st = pos(CW_ARMY_HUMANS, CW_ARMY_DWARVES, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "warlord", "h8");
	add(st, 1, "catapults", "d8");
	int t = add(st, 0, "infantry", "c5");
	st->turn_seat = 1;
	st->phase = CW_PH_SHOOT;
	row(T "Catapults: the direction is aligned by the shooting player (seat 1: 1 over is "
	      "toward rank 1, 2 right is toward file a)");
	ok(st, 1, "{\"type\":\"shoot\",\"unit\":\"d8\",\"target\":\"d6\"}", D(1, 2, 1));
	CHECK(strcmp(ev_str("scatter", "lands"), "c5") == 0 && dead(st, t), row_name);
	row(T "Catapults: 1 and 3 cancel, the original square is hit");
	free(st);

	st = pos(CW_ARMY_HUMANS, CW_ARMY_DWARVES, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "warlord", "h8");
	add(st, 1, "catapults", "d8");
	add(st, 1, "infantry", "b8");
	t = add(st, 0, "infantry", "d6");
	st->turn_seat = 1;
	st->phase = CW_PH_SHOOT;
	ok(st, 1, "{\"type\":\"shoot\",\"unit\":\"d8\",\"target\":\"d6\"}", D(1, 3, 4));
	CHECK(strcmp(ev_str("scatter", "lands"), "d6") == 0 && !dead(st, t), row_name);
	row(T "Catapults: a shot falling in the catapult square is just a miss");
	st->u[cw_unit_at(st, sq(st, "d8"))].shot = 0;
	ok(st, 1, "{\"type\":\"shoot\",\"unit\":\"d8\",\"target\":\"d6\"}", D(3, 3));
	CHECK(strstr(ev_str("scatter", "miss"), "catapult") != NULL, row_name);
	free(st);

	st = pos(CW_ARMY_HUMANS, CW_ARMY_DWARVES, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "warlord", "h8");
	add(st, 1, "catapults", "b8");
	st->turn_seat = 1;
	row(T "Catapults: a shot off the board is a complete miss");
	st->phase = CW_PH_SHOOT;
	ok(st, 1, "{\"type\":\"shoot\",\"unit\":\"b8\",\"target\":\"a6\"}", D(2, 5));
	CHECK(strstr(ev_str("scatter", "miss"), "off the board") != NULL, row_name);
	free(st);

	st = pos(CW_ARMY_HUMANS, CW_ARMY_DWARVES, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "warlord", "h8");
	add(st, 1, "catapults", "d8");
	add(st, 1, "infantry", "c3");
	add(st, 0, "infantry", "d7");
	add(st, 0, "infantry", "c7");
	add(st, 0, "infantry", "e7");
	st->turn_seat = 1;
	st->phase = CW_PH_SHOOT;
	row(T "Catapults: indirect fire (the square seen by another own unit): 3 scatter rolls");
	ok(st, 1, "{\"type\":\"shoot\",\"unit\":\"d8\",\"target\":\"d4\"}", D(5, 5, 6));
	CHECK(ev_int("scatter", "direct") == 0, row_name);
	free(st);

	st = pos(CW_ARMY_CHAOS, CW_ARMY_HUMANS, 8, 8);
	add(st, 0, "chaos_lord", "a1");
	add(st, 1, "general", "h8");
	add(st, 0, "giants", "d4");
	int hi = add(st, 1, "infantry", "d5");
	add(st, 0, "giants", "h4");             /* may still throw at h6: the phase goes on */
	add(st, 1, "infantry", "h6");
	st->phase = CW_PH_SHOOT;
	st->u[cw_unit_at(st, sq(st, "d4"))].moved = 1;
	row(T "Rocks: no minimum range, one scatter roll, moving does not matter");
	ok(st, 0, "{\"type\":\"shoot\",\"unit\":\"d4\",\"target\":\"d5\"}", D(6, 2));
	CHECK(dead(st, hi), row_name);
	row(R "C9 Storm: rocks scatter twice in a storm (\"always scatter just once (except in storm)\")");
	{
		int gi = cw_unit_at(st, sq(st, "d4"));
		st->u[gi].shot = 0;
		st->fx[st->nfx++] = (struct cw_effect){CW_SPELL_STORM, 0, CW_NONE};
		add(st, 1, "infantry", "e6");
		ok(st, 0, "{\"type\":\"shoot\",\"from\":\"d4\",\"target\":\"e6\"}", D(5, 6, 2));
		CHECK(ev_int("scatter", "direct") == 1 && cw_unit_at(st, sq(st, "e6")) == CW_NONE, row_name);
		st->nfx = 0;
	}
	row(T "Rocks: maximum range 2");
	{
		st->u[cw_unit_at(st, sq(st, "d4"))].shot = 0;
		add(st, 1, "infantry", "d7");
		refused(st, 0, "{\"type\":\"shoot\",\"unit\":\"d4\",\"target\":\"d7\"}", "out-of-range");
	}
	free(st);

	st = pos(CW_ARMY_HUMANS, CW_ARMY_UNDEAD, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "liche", "h8");
	add(st, 1, "undead_catapults", "d8");
	int inf = add(st, 0, "infantry", "d5");
	int gen = 0;
	add(st, 1, "undead_catapults", "a8");   /* may still fire: the phase goes on */
	st->turn_seat = 1;
	st->phase = CW_PH_SHOOT;
	row(T "Army lists (Undead): Terrorpults destroy a non-brave unit without a save");
	ok(st, 1, "{\"type\":\"shoot\",\"unit\":\"d8\",\"target\":\"d5\"}", D(5, 5));
	CHECK(dead(st, inf) && !has_event("save"), row_name);
	row(T "Army lists (Undead): Terrorpults, braves save +0");
	st->u[cw_unit_at(st, sq(st, "d8"))].shot = 0;
	cw_put(st, gen, sq(st, "d5"));
	ok(st, 1, "{\"type\":\"shoot\",\"unit\":\"d8\",\"target\":\"d5\"}", D(5, 5, 2));
	CHECK(!dead(st, gen) && ev_int("save", "need") == 2, row_name);
	free(st);

	st = pos(CW_ARMY_RATMEN, CW_ARMY_HUMANS, 8, 8);
	add(st, 0, "rat_lord", "a1");
	add(st, 1, "general", "h8");
	add(st, 0, "plague_monks", "d3");
	int cr = add(st, 0, "clanrats", "d4");
	int h1 = add(st, 1, "infantry", "d5"), h2 = add(st, 1, "infantry", "e5");
	int pm2 = add(st, 0, "plague_monks", "f4");
	cw_link(st, cr, h1);
	cw_link(st, cr, h2);
	cw_link(st, pm2, h2);
	st->phase = CW_PH_SHOOT;
	row(T "Army lists (Ratmen): Plaguebombs hit all in the same melee, plague save +1, "
	      "plague units immune");
	ok(st, 0, "{\"type\":\"shoot\",\"unit\":\"d3\",\"target\":\"d5\"}", D(5, 4, 4, 1));
	/* clanrats d4: save 5+ at +1 -> 6, roll 4 fails; h1: 4+ -> 5, roll 4 fails;
	 * h2: roll 1 fails; the monk at f4 is immune */
	CHECK(dead(st, cr) && dead(st, h1) && dead(st, h2) && !dead(st, pm2), row_name);
	free(st);
}

/* RULINGS.md C8 (amended): plague from any cause while engaged, scary on
 * every result of 6 or more, a charge as the end of the unit's own move. */
static void
c8_amended(void)
{
	struct cw_state *st = pos(CW_ARMY_HUMANS, CW_ARMY_CHAOS, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "chaos_lord", "h8");
	int inf = add(st, 0, "infantry", "d4"), bm = add(st, 1, "beastmen", "d5");
	add(st, 0, "archers", "b3");
	cw_link(st, inf, bm);
	st->phase = CW_PH_SHOOT;
	row(R "C8 (amended): a Plague unit destroyed in melee by a shot spreads its plague: "
	      "hit on 3, the shot into melee 5 hits the beastmen, their save 2 fails, the "
	      "infantry's plague save (5+) fails on 4");
	ok(st, 0, "{\"type\":\"shoot\",\"from\":\"b3\",\"target\":\"d5\"}", D(3, 5, 2, 4));
	CHECK(dead(st, bm) && has_event("plague") && dead(st, inf), row_name);
	free(st);

	st = pos(CW_ARMY_HUMANS, CW_ARMY_CHAOS, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "chaos_lord", "h8");
	inf = add(st, 0, "infantry", "d4");
	bm = add(st, 1, "beastmen", "d5");
	int inf2 = add(st, 0, "infantry", "c6");
	add(st, 0, "wizard", "f5");
	cw_link(st, inf, bm);
	cw_link(st, inf2, add(st, 1, "beastmen", "c7"));
	st->phase = CW_PH_SHOOT;
	row(R "C8 (amended): a Plague unit destroyed in melee by a spell (Zap!) spreads its "
	      "plague to the enemies linked to it, not to another melee");
	ok(st, 0, "{\"type\":\"cast\",\"from\":\"f5\",\"spell\":\"zap\",\"target\":\"d5\"}", D(6, 1, 4));
	CHECK(dead(st, bm) && has_event("plague") && dead(st, inf) && !dead(st, inf2), row_name);
	free(st);

	st = pos(CW_ARMY_ORCS, CW_ARMY_UNDEAD, 8, 8);
	add(st, 0, "warlord", "a1");
	add(st, 1, "liche", "h8");
	int tr = add(st, 0, "trolls", "d4"), z = add(st, 1, "zombies", "d5");
	cw_link(st, tr, z);
	st->phase = CW_PH_MELEE;
	row(R "C8 (amended): 6 or more by modifiers (5 + 1 + 1 = 7) against a scary defender "
	      "is result 5 for a non-brave attacker (the brave zombies save once, on 4)");
	ok(st, 0, "{\"type\":\"attack\",\"from\":\"d4\",\"target\":\"d5\"}", D(5, 4));
	CHECK(ev_int("attack", "result") == 5 && !dead(st, z), row_name);
	free(st);

	st = pos(CW_ARMY_HUMANS, CW_ARMY_UNDEAD, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "liche", "h8");
	add(st, 0, "wizard", "d4");
	add(st, 1, "zombies", "d5");
	add(st, 0, "infantry", "b2");
	add(st, 1, "zombies", "b4");
	ok(st, 0, "{\"type\":\"move\",\"from\":\"b2\",\"to\":\"b3\"}", NODICE);
	row(R "C8 (amended): a charge is a move of no squares: a unit that has not moved "
	      "charges after another unit's move (the wizard's scary save fails on 2)");
	ok(st, 0, "{\"type\":\"charge\",\"from\":\"d4\",\"target\":\"d5\"}", D(2));
	CHECK(has_event("charge_failed"), row_name);
	row(R "C8 (amended): a charge ends the unit's own move: a failed charge spends it, and "
	      "no move spell follows");
	refused(st, 0, "{\"type\":\"charge\",\"from\":\"d4\",\"target\":\"d5\"}", "already-charged");
	refused(st, 0, "{\"type\":\"cast\",\"from\":\"d4\",\"spell\":\"storm\"}", "not-after-move");
	row(R "C8 (amended): a charge comes before any other unit moves: the infantry that moved "
	      "before the wizard's charge can no longer charge");
	refused(st, 0, "{\"type\":\"charge\",\"from\":\"b3\",\"target\":\"b4\"}", "not-after-move");
	free(st);
}

static void
melee(void)
{
	struct cw_state *st;
	int a, d;
	/* a fresh melee of human infantry (save 4+, melee 0) against orcs (3+, 0) */
#define MELEE(A0, A1, AT, DT)                                   \
	st = pos(A0, A1, 8, 8);                                 \
	add(st, 0, cw_armies[A0].units[0].slug, "a1");          \
	add(st, 1, cw_armies[A1].units[0].slug, "h8");          \
	a = add(st, 0, AT, "d4");                               \
	d = add(st, 1, DT, "d5");                               \
	cw_link(st, a, d);                                      \
	st->phase = CW_PH_MELEE;
	MELEE(CW_ARMY_HUMANS, CW_ARMY_ORCS, "infantry", "orcs");
	row(T "Melee: 6 or more, the defender is destroyed (no save)");
	ok(st, 0, "{\"type\":\"attack\",\"unit\":\"d4\",\"target\":\"d5\"}", D(6));
	CHECK(dead(st, d) && !has_event("save"), row_name);
	row(R "C8: follow-up after a kill: advance into the emptied square, charge, or hold");
	CHECK(st->pending == CW_PEND_FOLLOWUP && listed(st, 0, "{\"type\":\"advance\",\"from\":\"d4\",\"to\":\"d5\"}") &&
	      listed(st, 0, "{\"type\":\"hold\",\"from\":\"d4\"}"), row_name);
	refused(st, 0, "{\"type\":\"end_phase\"}", "illegal-action");
	ok(st, 0, "{\"type\":\"advance\",\"unit\":\"d4\",\"to\":\"d5\"}", NODICE);
	CHECK(on_at(st, a, "d5") && st->pending == CW_PEND_NONE, row_name);
	free(st);

	MELEE(CW_ARMY_HUMANS, CW_ARMY_ORCS, "infantry", "orcs");
	row(T "Melee: 5, the defender must make 2 saves (first made, second failed)");
	ok(st, 0, "{\"type\":\"attack\",\"unit\":\"d4\",\"target\":\"d5\"}", D(5, 3, 2));
	CHECK(dead(st, d), row_name);
	free(st);

	st = pos(CW_ARMY_CHAOS, CW_ARMY_ORCS, 8, 8);
	add(st, 0, "chaos_lord", "a1");
	d = add(st, 1, "warlord", "d5");
	a = add(st, 0, "chaos_knights", "d4");
	cw_link(st, a, d);
	cw_link(st, add(st, 0, "beastmen", "a4"), add(st, 1, "orcs", "a5"));   /* the phase goes on */
	st->phase = CW_PH_MELEE;
	/* Chaos Knights (+1) against the orc Warlord (brave, +1, save 2+): 5 + 1 - 1 */
	row(T "Melee: 5, a brave defender must only save once (one die, made on 2)");
	ok(st, 0, "{\"type\":\"attack\",\"from\":\"d4\",\"target\":\"d5\"}", D(5, 2));
	CHECK(ev_int("attack", "result") == 5 && !dead(st, d), row_name);
	st->u[a].attacked = 0;
	row(R "C10: the general dies, the match ends; a natural 6 always destroys");
	ok(st, 0, "{\"type\":\"attack\",\"from\":\"d4\",\"target\":\"d5\"}", D(6));
	CHECK(dead(st, d) && st->phase == CW_PH_OVER && st->winner == 0, row_name);
	free(st);

	MELEE(CW_ARMY_ORCS, CW_ARMY_HUMANS, "trolls", "infantry");
	row(T "Melee: add attacker melee, deduct defender melee (4 + 1 - 0 = 5: two saves, both made)");
	ok(st, 0, "{\"type\":\"attack\",\"unit\":\"d4\",\"target\":\"d5\"}", D(4, 4, 4));
	CHECK(!dead(st, d) && ev_int("attack", "result") == 5, row_name);
	free(st);

	MELEE(CW_ARMY_HUMANS, CW_ARMY_ORCS, "infantry", "orcs");
	{
		int d2 = add(st, 1, "orcs", "c5");
		cw_link(st, a, d2);
		row(T "Charge move: the target must destroy all its opponents before it is free to move");
		ok(st, 0, "{\"type\":\"attack\",\"from\":\"d4\",\"target\":\"d5\"}", D(6));
		CHECK(dead(st, d) && cw_in_melee(st, a) && linked(st, a, d2) &&
		      st->pending == CW_PEND_NONE, "still in melee: no follow-up");
		st->phase = CW_PH_MOVE;
		st->turn_seat = 0;
		refused(st, 0, "{\"type\":\"move\",\"from\":\"d4\",\"to\":\"d3\"}", "in-melee");
	}
	free(st);

	MELEE(CW_ARMY_HUMANS, CW_ARMY_ORCS, "infantry", "orcs");
	row(T "Melee: 4, the defender must make its save");
	ok(st, 0, "{\"type\":\"attack\",\"unit\":\"d4\",\"target\":\"d5\"}", D(4, 2));
	CHECK(dead(st, d), row_name);
	free(st);

	MELEE(CW_ARMY_HUMANS, CW_ARMY_ORCS, "infantry", "orcs");
	row(T "Melee: 2-3, stand-off");
	cw_link(st, add(st, 0, "infantry", "a4"), add(st, 1, "orcs", "a5"));   /* the phase goes on */
	ok(st, 0, "{\"type\":\"attack\",\"unit\":\"d4\",\"target\":\"d5\"}", D(3));
	CHECK(!dead(st, d) && !dead(st, a) && linked(st, a, d), row_name);
	row(T "Melee: each own unit attacks once");
	refused(st, 0, "{\"type\":\"attack\",\"unit\":\"d4\",\"target\":\"d5\"}", "already-attacked");
	free(st);

	MELEE(CW_ARMY_HUMANS, CW_ARMY_ORCS, "infantry", "orcs");
	row(T "Melee: 1 or less, the attacker is destroyed unless it saves");
	ok(st, 0, "{\"type\":\"attack\",\"unit\":\"d4\",\"target\":\"d5\"}", D(1, 3));
	CHECK(dead(st, a) && st->pending == CW_PEND_NONE,
	      "and the defender makes no follow-up move");
	free(st);

	MELEE(CW_ARMY_UNDEAD, CW_ARMY_HUMANS, "zombies", "infantry");
	row(T "Melee: scary attacker on 1 or less must only save if the defender is brave");
	ok(st, 0, "{\"type\":\"attack\",\"unit\":\"d4\",\"target\":\"d5\"}", D(1));
	CHECK(!dead(st, a) && !has_event("save"), row_name);
	free(st);

	MELEE(CW_ARMY_HUMANS, CW_ARMY_UNDEAD, "infantry", "zombies");
	row(T "Melee: a natural 6 against a scary defender by a non-brave attacker is result 5");
	ok(st, 0, "{\"type\":\"attack\",\"unit\":\"d4\",\"target\":\"d5\"}", D(6, 4));
	/* zombies are brave (Undead): one save, 4+ made on 4 */
	CHECK(ev_int("attack", "result") == 5 && !dead(st, d), row_name);
	free(st);

	MELEE(CW_ARMY_HUMANS, CW_ARMY_CHAOS, "infantry", "chaos_knights");
	st->side[1].army = CW_ARMY_CHAOS;
	row(T "Melee: a natural 6 destroys a brave defender that is not scary (no save)");
	ok(st, 0, "{\"type\":\"attack\",\"unit\":\"d4\",\"target\":\"d5\"}", D(6));
	CHECK(dead(st, d) && !has_event("save"), row_name);
	free(st);

	MELEE(CW_ARMY_CHAOS, CW_ARMY_HUMANS, "beastmen", "infantry");
	{
		int h2 = add(st, 1, "infantry", "e5");
		cw_link(st, h2, a);
		row(T "Army lists (Chaos): Plague, if destroyed in melee its opponents save at +1");
		/* human attacks beastmen: it is the humans' turn */
		st->turn_seat = 1;
		ok(st, 1, "{\"type\":\"attack\",\"unit\":\"d5\",\"target\":\"d4\"}", D(6, 5, 4));
		/* opponents d5 and e5 save 4+ at +1 = 5: 5 made, 4 failed */
		CHECK(dead(st, a) && !dead(st, d) && dead(st, h2), row_name);
		row(R "C8: the follow-up waits until the plague is handled (the attacker d5 is free)");
		CHECK(st->pending == CW_PEND_FOLLOWUP && st->pend_unit == d, row_name);
	}
	free(st);

	MELEE(CW_ARMY_ORCS, CW_ARMY_HUMANS, "wolf_riders", "infantry");
	st->u[a].charged = 1;
	row(R "C8: Assault counts in the melee phase of the turn the unit charged (+1)");
	ok(st, 0, "{\"type\":\"attack\",\"unit\":\"d4\",\"target\":\"d5\"}", D(4, 4));
	CHECK(ev_int("attack", "total") == 4, "4 - 1 + 1 assault - 0 = 4");
	free(st);

	MELEE(CW_ARMY_ORCS, CW_ARMY_HUMANS, "wolf_riders", "infantry");
	st->u[a].charged = 1;
	st->o.terrain[sq(st, "d5")] = CW_T_FOREST;
	row(T "Expansion (forest): if charged, the attacker loses any assault bonus (C11)");
	ok(st, 0, "{\"type\":\"attack\",\"unit\":\"d4\",\"target\":\"d5\"}", D(3));
	CHECK(ev_int("attack", "total") == 2, row_name);
	free(st);

	MELEE(CW_ARMY_HUMANS, CW_ARMY_ORCS, "catapults", "orcs");
	row(T "Melee: units with move of 0 can only make a follow-up charge, not move");
	{
		add(st, 1, "orcs", "c5");
		ok(st, 0, "{\"type\":\"attack\",\"unit\":\"d4\",\"target\":\"d5\"}", D(6));
		CHECK(st->pending == CW_PEND_FOLLOWUP, row_name);
		refused(st, 0, "{\"type\":\"advance\",\"unit\":\"d4\",\"to\":\"d5\"}", "cannot-move");
		ok(st, 0, "{\"type\":\"charge\",\"unit\":\"d4\",\"target\":\"c5\"}", NODICE);
		CHECK(cw_in_melee(st, a), row_name);
	}
	free(st);

	MELEE(CW_ARMY_HUMANS, CW_ARMY_ORCS, "infantry", "orcs");
	st->u[d].sq = (int16_t)sq(st, "e5");
	cw_rebuild_at(st);
	add(st, 1, "orcs", "d6");
	add(st, 1, "orcs", "e4");
	row(R "C8: advance diagonally only with no enemies in the side squares");
	ok(st, 0, "{\"type\":\"attack\",\"unit\":\"d4\",\"target\":\"e5\"}", D(6));
	refused(st, 0, "{\"type\":\"advance\",\"unit\":\"d4\",\"to\":\"e5\"}", "diagonal-blocked");
	ok(st, 0, "{\"type\":\"hold\",\"unit\":\"d4\"}", NODICE);
	free(st);

	MELEE(CW_ARMY_ORCS, CW_ARMY_HUMANS, "trolls", "infantry");
	row(T "Army lists (Orcs): Regenerate, returns on 3+ at the end of the turn");
	st->turn_seat = 1;
	ok(st, 1, "{\"type\":\"attack\",\"unit\":\"d5\",\"target\":\"d4\"}", D(6, 6));
	CHECK(dead(st, a), "the troll died (and its plague: the infantry saved)");
	/* the melee phase ends by itself (G3 amended): the troll rolls 3 */
	ok(st, 1, "{\"type\":\"hold\",\"unit\":\"d5\"}", D(3));
	CHECK(on_at(st, a, "d4") && st->turn_seat == 0, row_name);
	free(st);

	MELEE(CW_ARMY_ORCS, CW_ARMY_HUMANS, "trolls", "infantry");
	row(T "Army lists (Orcs): Regenerate fails when the square is occupied");
	st->turn_seat = 1;
	ok(st, 1, "{\"type\":\"attack\",\"unit\":\"d5\",\"target\":\"d4\"}", D(6, 6));
	ok(st, 1, "{\"type\":\"advance\",\"unit\":\"d5\",\"to\":\"d4\"}", NODICE);
	CHECK(dead(st, a) && st->turn_seat == 0 && has_event("regenerate"), row_name);
	free(st);
#undef MELEE
}

static void
orders(struct cw_state *st, int seat, const char *json)
{
	json_object *o = json_tokener_parse(json);
	struct wr_error err;
	CHECK(cw_ruleset.set_orders(st, seat, o, &err) == 0, json);
	json_object_put(o);
}

/* Two Human armies, each with a wizard (Counterspell, Dispel, Heal,
 * Protection, Storm, Zap!): seat 0's wizard on c3 next to its infantry on
 * d4, seat 1 to play. */
static struct cw_state *
wizards(int phase)
{
	struct cw_state *st = pos(CW_ARMY_HUMANS, CW_ARMY_HUMANS, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "general", "h8");
	add(st, 0, "wizard", "c3");
	add(st, 0, "infantry", "d4");
	st->turn_seat = 1;
	st->phase = phase;
	return st;
}

/* Seat 0 posts `json` (no dice): 1 when the ruleset's dry run said it may
 * reveal something (may_reveal, before) plus 2 when the post is an undo
 * barrier (wr_undo_reveals, after). RULINGS.md G7. */
static int
g7_post(struct cw_state *st, const char *json)
{
	struct cw_state *before = malloc(sizeof(*st));
	json_object *j = json_tokener_parse(json);
	int r;
	memcpy(before, st, sizeof(*st));
	r = cw_ruleset.may_reveal(before, 0, j) == 1;
	ok(st, 0, json, NODICE);
	r |= (wr_undo_reveals(&cw_ruleset, before, st, 0, &last_ev) == 1) << 1;
	json_object_put(j);
	free(before);
	return r;
}

/* The question st asks of `seat`, rebuilt: by the computer player from
 * the seat's view (cw_bot.c: the same answers offered, the same question
 * pending) and from a snapshot (cw_snapshot.c: saved, it loads asking the
 * same). */
static void
rebuilt(struct cw_state *st, int seat)
{
	struct wr_rng brng;
	uint64_t bs;
	struct wr_error derr, err;
	json_object *v = cw_ruleset.view(st, seat), *snap = cw_ruleset.save(st);
	void *back = NULL, *d;
	struct cw_state *x;

	wr_rng_seeded(&brng, &bs, 5);
	d = cw_ruleset.determinize(v, seat, &brng, &derr);
	x = d;
	json_object *ra = cw_ruleset.actions(st, seat), *da = d ? cw_ruleset.actions(d, seat) : NULL;
	CHECK(d && da && json_object_equal(ra, da) && x->pending == st->pending &&
	      x->protect_after == st->protect_after,
	      "cw_bot.c: a determinization of the asked seat's view asks the same");
	if (!d)
		fprintf(stderr, "  determinize: %s %s\n", derr.field, derr.message);
	x = NULL;
	CHECK(cw_ruleset.load(snap, &back, &err) == 0 && (x = back) && x->pending == st->pending &&
	      x->protect_after == st->protect_after,
	      "cw_snapshot.c: the question is saved and loads");
	json_object_put(ra);
	json_object_put(da);
	if (d)
		cw_ruleset.free(d);
	if (back)
		cw_ruleset.free(back);
	json_object_put(snap);
	json_object_put(v);
}

/* Humans against Humans, seat 1 shooting at seat 0's infantry d4 from d7
 * (and e7, so that its phase goes on), its wizard f7 able to counter the
 * Protection seat 0's wizard c3 casts by standing order. */
static struct cw_state *
protected_shot(void)
{
	struct cw_state *st = wizards(CW_PH_SHOOT);
	add(st, 1, "archers", "d7");
	add(st, 1, "archers", "e7");
	add(st, 1, "wizard", "f7");
	orders(st, 0, "{\"protection\":\"always\"}");
	return st;
}

/* RULINGS.md C9 (amended): every instant spell on the enemy's turn. */
static void
c9_amended(void)
{
	struct cw_state *st = wizards(CW_PH_SHOOT);
	int inf = cw_unit_at(st, sq(st, "d4"));
	add(st, 1, "archers", "d7");
	add(st, 1, "archers", "e7");
	row(R "C9 (amended): Protection is asked before the save of a unit hit by a bow: the "
	      "hit (4 at range 3) is rolled first");
	ok(st, 1, "{\"type\":\"shoot\",\"from\":\"d7\",\"target\":\"d4\"}", D(4));
	CHECK(st->pending == CW_PEND_PROTECT && cw_to_act(st) == 1u && has_event("shoot") &&
	      !has_event("save") &&
	      listed(st, 0, "{\"type\":\"protect\",\"from\":\"c3\",\"target\":\"d4\"}"), row_name);
	ok(st, 0, "{\"type\":\"protect\",\"from\":\"c3\",\"target\":\"d4\"}", D(3));
	CHECK(!dead(st, inf) && ev_int("save", "need") == 3 && st->nfx == 1, "3 + 1 saves on 4+");
	row(R "C9 (amended): a bow that misses asks nothing");
	ok(st, 1, "{\"type\":\"shoot\",\"from\":\"e7\",\"target\":\"d4\"}", D(2));
	CHECK(st->pending == CW_PEND_NONE && !has_event("save"), row_name);
	free(st);

	st = wizards(CW_PH_SHOOT);
	inf = cw_unit_at(st, sq(st, "d4"));
	add(st, 1, "catapults", "d8");
	row(R "C9 (amended): Protection is asked for the unit a catapult hits, after the scatter "
	      "(aimed at d5, a 1 carries it to d4)");
	ok(st, 1, "{\"type\":\"shoot\",\"from\":\"d8\",\"target\":\"d5\"}", D(1, 5));
	CHECK(st->pending == CW_PEND_PROTECT && has_event("scatter") &&
	      listed(st, 0, "{\"type\":\"protect\",\"from\":\"c3\",\"target\":\"d4\"}"), row_name);
	ok(st, 0, "{\"type\":\"no_protect\"}", D(4));
	CHECK(!dead(st, inf) && st->nfx == 0 && ev_int("save", "need") == 4, "no Protection: 4+");
	free(st);

	st = wizards(CW_PH_SHOOT);
	inf = cw_unit_at(st, sq(st, "d4"));
	add(st, 1, "wizard", "d7");
	orders(st, 0, "{\"counterspell\":\"never\"}");
	row(R "C9 (amended): Protection is asked before the save of a unit hit by Zap!");
	ok(st, 1, "{\"type\":\"cast\",\"from\":\"d7\",\"spell\":\"zap\",\"target\":\"d4\"}", NODICE);
	CHECK(st->pending == CW_PEND_PROTECT && cw_to_act(st) == 1u, row_name);
	ok(st, 0, "{\"type\":\"protect\",\"from\":\"c3\",\"target\":\"d4\"}", D(3));
	CHECK(!dead(st, inf) && st->u[cw_unit_at(st, sq(st, "c3"))].instant, row_name);
	free(st);

	st = wizards(CW_PH_SHOOT);
	inf = cw_unit_at(st, sq(st, "d4"));
	add(st, 1, "archers", "d7");
	add(st, 1, "archers", "e7");   /* the shooting phase goes on after the first shot */
	int cw1 = add(st, 1, "wizard", "f7");
	orders(st, 1, "{\"counterspell\":\"always\"}");
	row(T "Spells, \"Most spells are always successful, unless the other side tries to "
	      "counterspell them\"; Counterspell \"counter just cast spell on 4+\": a Protection "
	      "cast in answer is countered by the other side's standing order, and the save has "
	      "no +1");
	ok(st, 1, "{\"type\":\"shoot\",\"from\":\"d7\",\"target\":\"d4\"}", D(4));
	CHECK(st->pending == CW_PEND_PROTECT, "asked about Protection first");
	ok(st, 0, "{\"type\":\"protect\",\"from\":\"c3\",\"target\":\"d4\"}", D(5, 4));
	CHECK(has_event("counterspell") && ev_int("save", "need") == 4 && st->nfx == 0 &&
	      !dead(st, inf) && st->u[cw_unit_at(st, sq(st, "c3"))].cast && st->u[cw1].cast &&
	      !st->u[cw1].instant, row_name);
	free(st);

	st = protected_shot();
	inf = cw_unit_at(st, sq(st, "d4"));
	row(T "Spells, \"unless the other side tries to counterspell them\"; RULINGS.md, ChessWar "
	      "C9 \"Counterspell is a reaction: a standing order ... or the server asks\": a "
	      "Protection cast by standing order waits for the other side's answer");
	ok(st, 1, "{\"type\":\"shoot\",\"from\":\"d7\",\"target\":\"d4\"}", D(4));
	CHECK(st->pending == CW_PEND_RCOUNTER && cw_to_act(st) == 2u && has_event("cast") &&
	      !has_event("save") && listed(st, 1, "{\"type\":\"counterspell\",\"from\":\"f7\"}") &&
	      listed(st, 1, "{\"type\":\"allow\"}") && !listed(st, 0, "{\"type\":\"allow\"}"),
	      row_name);
	{
		json_object *v = cw_ruleset.view(st, 0), *pd, *p0, *x;
		const char *kind = NULL;
		if (json_object_object_get_ex(v, "pending", &pd) && json_object_array_length(pd) == 1 &&
		    (p0 = json_object_array_get_idx(pd, 0)) &&
		    json_object_object_get_ex(p0, "kind", &x))
			kind = json_object_get_string(x);
		CHECK(kind && !strcmp(kind, "counter_reaction"), "the view names the question");
		json_object_put(v);
	}
	rebuilt(st, 1);
	row(T "Counterspell \"counter just cast spell on 4+\": a 2 fails, the Protection stands "
	      "and the unit saves on 3 (+1)");
	ok(st, 1, "{\"type\":\"counterspell\",\"unit\":\"f7\"}", D(2, 3));
	CHECK(has_event("counterspell") && st->nfx == 1 && !dead(st, inf) &&
	      st->pending == CW_PEND_NONE && cw_to_act(st) == 2u, row_name);
	free(st);

	st = protected_shot();
	inf = cw_unit_at(st, sq(st, "d4"));
	row(T "Spells, \"unless the other side tries to counterspell them\": the side asked may "
	      "let the Protection be (allow)");
	ok(st, 1, "{\"type\":\"shoot\",\"from\":\"d7\",\"target\":\"d4\"}", D(4));
	ok(st, 1, "{\"type\":\"allow\"}", NODICE);
	CHECK(st->nfx == 1 && !has_event("save"), row_name);
	row(R "C9 (amended): \"Dispel is asked as soon as an enemy temporal spell is cast\": a "
	      "Protection (temporal) cast in answer too, before the save it answers");
	CHECK(st->pending == CW_PEND_DISPEL && cw_to_act(st) == 2u && st->protect_after &&
	      listed(st, 1, "{\"type\":\"dispel\",\"from\":\"f7\"}") &&
	      listed(st, 1, "{\"type\":\"no_dispel\"}"), row_name);
	rebuilt(st, 1);
	row(R "C9 (amended): the Dispel declined, the unit saves on 3 (+1)");
	ok(st, 1, "{\"type\":\"no_dispel\"}", D(3));
	CHECK(st->nfx == 1 && !dead(st, inf) && ev_int("save", "need") == 3 &&
	      st->pending == CW_PEND_NONE && !st->protect_after, row_name);
	free(st);

	st = protected_shot();
	inf = cw_unit_at(st, sq(st, "d4"));
	row(R "C9 (amended): a Protection cast in answer dispelled by the seat whose turn it is: "
	      "the save has no +1 (a 3 fails on 4+)");
	ok(st, 1, "{\"type\":\"shoot\",\"from\":\"d7\",\"target\":\"d4\"}", D(4));
	ok(st, 1, "{\"type\":\"allow\"}", NODICE);
	ok(st, 1, "{\"type\":\"dispel\",\"from\":\"f7\"}", D(3));
	CHECK(st->nfx == 0 && has_event("spell_end") && ev_int("save", "need") == 4 &&
	      dead(st, inf) && st->pending == CW_PEND_NONE && !st->protect_after &&
	      st->u[cw_unit_at(st, sq(st, "f7"))].cast, row_name);
	free(st);

	st = wizards(CW_PH_MOVE);
	st->turn_seat = 0;
	add(st, 0, "wizard", "b3");
	add(st, 1, "wizard", "d7");
	orders(st, 0, "{\"counterspell\":\"always\"}");
	orders(st, 1, "{\"counterspell\":\"never\"}");
	row(T "Spells, \"unless the other side tries to counterspell them\": a Dispel cast in "
	      "answer to a Storm is countered (4+) by the caster's other wizard, and the Storm "
	      "stands");
	ok(st, 0, "{\"type\":\"cast\",\"from\":\"c3\",\"spell\":\"storm\"}", NODICE);
	CHECK(st->pending == CW_PEND_DISPEL, "asked about Dispel");
	ok(st, 1, "{\"type\":\"dispel\",\"from\":\"d7\"}", D(4));
	CHECK(has_event("counterspell") && st->nfx == 1 && st->pending == CW_PEND_NONE &&
	      cw_to_act(st) == 1u && st->u[cw_unit_at(st, sq(st, "b3"))].cast, row_name);
	free(st);

	st = wizards(CW_PH_SHOOT);
	add(st, 1, "archers", "d7");
	add(st, 1, "wizard", "f7");
	orders(st, 1, "{\"counterspell\":\"never\"}");
	row("RULINGS.md, G7 Undo: a Protection cast in answer where the other side could "
	    "counter it showed that side's orders: a barrier");
	ok(st, 1, "{\"type\":\"shoot\",\"from\":\"d7\",\"target\":\"d4\"}", D(4));
	{
		struct cw_state *before = malloc(sizeof(*st));
		memcpy(before, st, sizeof(*st));
		ok(st, 0, "{\"type\":\"protect\",\"from\":\"c3\",\"target\":\"d4\"}", NODICE);
		CHECK(st->nfx == 1 && st->pending == CW_PEND_DISPEL &&
		      wr_undo_reveals(&cw_ruleset, before, st, 0, &last_ev) == 1, row_name);
		free(before);
	}
	free(st);

	st = wizards(CW_PH_MOVE);
	st->turn_seat = 0;
	int w1 = add(st, 1, "wizard", "d7");
	orders(st, 1, "{\"counterspell\":\"never\"}");
	row(R "C9 (amended): Dispel is asked as soon as an enemy temporal spell is cast");
	ok(st, 0, "{\"type\":\"cast\",\"from\":\"c3\",\"spell\":\"storm\"}", NODICE);
	CHECK(st->pending == CW_PEND_DISPEL && cw_to_act(st) == 2u && st->nfx == 1 &&
	      listed(st, 1, "{\"type\":\"dispel\",\"from\":\"d7\"}") &&
	      listed(st, 1, "{\"type\":\"no_dispel\"}"), row_name);
	refused(st, 0, "{\"type\":\"end_phase\"}", "not-awaited");
	ok(st, 1, "{\"type\":\"dispel\",\"from\":\"d7\"}", NODICE);
	CHECK(st->nfx == 0 && has_event("spell_end") && st->u[w1].instant && st->u[w1].cast &&
	      cw_to_act(st) == 1u, "dispelled; its next turn's spell is used");
	free(st);

	st = wizards(CW_PH_MOVE);
	st->turn_seat = 0;
	add(st, 1, "wizard", "d7");
	orders(st, 1, "{\"counterspell\":\"never\",\"dispel\":[\"storm\"]}");
	row(R "C9 (amended): a standing order (these spells) answers Dispel: Storm is dispelled "
	      "without asking");
	ok(st, 0, "{\"type\":\"cast\",\"from\":\"c3\",\"spell\":\"storm\"}", NODICE);
	CHECK(st->pending == CW_PEND_NONE && st->nfx == 0 && has_event("spell_end"), row_name);
	free(st);

	st = wizards(CW_PH_MOVE);
	st->turn_seat = 0;
	add(st, 1, "wizard", "d7");
	orders(st, 1, "{\"counterspell\":\"never\",\"dispel\":\"never\"}");
	row(R "C9 (amended): a standing order (never) answers Dispel: the Storm stands");
	CHECK(g7_post(st, "{\"type\":\"cast\",\"from\":\"c3\",\"spell\":\"storm\"}") == 3 &&
	      st->pending == CW_PEND_NONE && st->nfx == 1,
	      "RULINGS.md, G7 Undo: a cast that met the other seat's standing orders (no die "
	      "drawn) told the caster those orders: it cannot be taken back; G5: a draft's dry "
	      "run ends at a cast the other seat's wizard could answer, whatever its orders");
	free(st);

	st = wizards(CW_PH_MOVE);
	st->turn_seat = 0;
	add(st, 1, "archers", "d7");
	row("RULINGS.md, G7 Undo: a cast no other seat could answer (no enemy wizard) told "
	    "nothing: it may be taken back, and its dry run goes on");
	CHECK(g7_post(st, "{\"type\":\"cast\",\"from\":\"c3\",\"spell\":\"storm\"}") == 0 &&
	      st->nfx == 1, row_name);
	free(st);

	st = wizards(CW_PH_MOVE);
	st->turn_seat = 0;
	add(st, 1, "wizard", "d7");
	orders(st, 1, "{\"counterspell\":\"never\",\"dispel\":\"never\"}");
	row("RULINGS.md, G7 Undo: a move that met no standing order may still be taken back");
	CHECK(g7_post(st, "{\"type\":\"move\",\"from\":\"d4\",\"to\":\"d5\"}") == 0, row_name);
	free(st);

	st = pos(CW_ARMY_HUMANS, CW_ARMY_CHAOS, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "chaos_lord", "h8");
	inf = add(st, 0, "infantry", "d4");
	int bm = add(st, 1, "beastmen", "d5");
	add(st, 0, "archers", "b3");
	add(st, 0, "wizard", "c2");
	cw_link(st, inf, bm);
	st->phase = CW_PH_SHOOT;
	row(R "C9 (amended): Heal is asked once the shot is fully resolved, its plague included");
	ok(st, 0, "{\"type\":\"shoot\",\"from\":\"b3\",\"target\":\"d5\"}", D(3, 5, 2, 4));
	CHECK(dead(st, bm) && has_event("plague") && st->pending == CW_PEND_HEAL &&
	      st->heal_seat == 0 &&
	      listed(st, 0, "{\"type\":\"heal\",\"from\":\"c2\",\"target\":\"d4\"}"), row_name);
	ok(st, 0, "{\"type\":\"heal\",\"from\":\"c2\",\"target\":\"d4\"}", D(4));
	CHECK(on_at(st, inf, "d4") && !cw_in_melee(st, inf), "healed; its enemy is gone");
	free(st);

	st = pos(CW_ARMY_DWARVES, CW_ARMY_HUMANS, 8, 8);
	add(st, 0, "warlord", "a1");
	add(st, 1, "general", "h8");
	int xb = add(st, 0, "crossbowers", "d2");
	int ti = add(st, 1, "infantry", "d4");
	int sw = add(st, 1, "wizard", "h7");
	st->fx[st->nfx++] = (struct cw_effect){CW_SPELL_STORM, sw, CW_NONE};
	row(R "C9 Storm (amended): crossbows -1 to hit (3+ becomes 4+)");
	{
		int m[4], n;
		CHECK(cw_shoot_need(st, xb, ti, m, &n) == 4 && n == 1 && m[0] == 4, row_name);
	}
	free(st);

	st = pos(CW_ARMY_HUMANS, CW_ARMY_HUMANS, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "general", "h8");
	add(st, 0, "catapults", "c1");
	add(st, 0, "catapults", "f1");          /* may still fire: the phase goes on */
	add(st, 0, "infantry", "c2");           /* blocks the catapult's own sight; sees c5 */
	sw = add(st, 1, "wizard", "h7");
	st->fx[st->nfx++] = (struct cw_effect){CW_SPELL_STORM, sw, CW_NONE};
	st->phase = CW_PH_SHOOT;
	row(R "C9 Storm (amended): every catapult rolls one more scatter die (indirect: 3 + 1)");
	ok(st, 0, "{\"type\":\"shoot\",\"from\":\"c1\",\"target\":\"c5\"}", D(5, 6, 5, 6));
	CHECK(ev_int("scatter", "direct") == 0, row_name);
	free(st);
}

/* A snapshot stored before the fields of C9 (amended) (hits, react_seat,
 * dispel_fx, the dispel orders) still loads: stored matches go on. */
static void
old_snapshot(void)
{
	struct cw_state *st = wizards(CW_PH_MOVE);
	json_object *snap = cw_ruleset.save(st), *sides;
	void *back = NULL;
	struct wr_error err;
	row("cw_snapshot.c: a snapshot without the fields added for C9 (amended) loads");
	json_object_object_del(snap, "hits");
	json_object_object_del(snap, "react_seat");
	json_object_object_del(snap, "dispel_fx");
	json_object_object_get_ex(snap, "sides", &sides);
	for (size_t i = 0; i < json_object_array_length(sides); i++) {
		json_object_object_del(json_object_array_get_idx(sides, i), "dispel_order");
		json_object_object_del(json_object_array_get_idx(sides, i), "dispel_mask");
	}
	CHECK(cw_ruleset.load(snap, &back, &err) == 0, row_name);
	if (back)
		cw_ruleset.free(back);
	json_object_put(snap);
	free(st);
}

static void
saves(void)
{
	struct cw_state *st = pos(CW_ARMY_HUMANS, CW_ARMY_ORCS, 8, 8);
	struct wr_list ev;
	struct wr_script s;
	struct wr_rng rng;
	add(st, 0, "general", "a1");
	add(st, 1, "warlord", "h8");
	int u = add(st, 0, "infantry", "d4");
	wr_list_init(&ev, sizeof(struct cw_event));
	row(R "C7: a roll of 1 always fails, even needing 2 with a bonus");
	s = (struct wr_script){.faces = (const unsigned[]){1}, .n = 1};
	wr_rng_script(&rng, &s);
	CHECK(cw_save(st, u, 2, 1, &rng, &ev) == 0, row_name);
	row(R "C7: a need of 7 or more cannot succeed (no die is rolled)");
	s = (struct wr_script){.faces = NULL, .n = 0};
	wr_rng_script(&rng, &s);
	CHECK(cw_save(st, u, 7, 0, &rng, &ev) == 0 && s.pos == 0 && !s.exhausted, row_name);
	row(R "C7: save +N raises the need, +N saves adds to the roll");
	s = (struct wr_script){.faces = (const unsigned[]){5}, .n = 1};
	wr_rng_script(&rng, &s);
	CHECK(cw_save(st, u, 4 + 1, 0, &rng, &ev) == 1, "5 makes 5+");
	s = (struct wr_script){.faces = (const unsigned[]){4}, .n = 1};
	wr_rng_script(&rng, &s);
	CHECK(cw_save(st, u, 5, 1, &rng, &ev) == 1, "4 + 1 makes 5+");
	row(T "Melee table as a function (natural 6, scary, brave)");
	CHECK(cw_melee_result(6, 3, 0, 0) == 6, "natural 6 regardless of modifiers");
	CHECK(cw_melee_result(6, 3, 1, 0) == 5, "scary defender, non-brave attacker: 5");
	CHECK(cw_melee_result(6, 3, 1, 1) == 6, "brave attacker: 6");
	CHECK(cw_melee_result(5, 7, 1, 0) == 5, "6 or more by modifiers against scary: 5");
	CHECK(cw_melee_result(2, 1, 0, 0) == 1 && cw_melee_result(1, -2, 0, 0) == 1, "1 or less");
	CHECK(cw_melee_result(3, 3, 0, 0) == 2 && cw_melee_result(2, 2, 0, 0) == 2, "2-3");
	wr_list_free(&ev);
	free(st);
}

static void
spells(void)
{
	struct cw_state *st = pos(CW_ARMY_HUMANS, CW_ARMY_CHAOS, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "chaos_lord", "h8");
	int w = add(st, 0, "wizard", "d2");
	int so = add(st, 1, "sorcerer", "d7");
	add(st, 0, "archers", "c2");
	add(st, 1, "beastmen", "c5");
	row(R "C9: a move spell after the wizard's move; the other seat is asked to counter");
	ok(st, 0, "{\"type\":\"move\",\"unit\":\"d2\",\"to\":\"d3\"}", NODICE);
	ok(st, 0, "{\"type\":\"cast\",\"unit\":\"d3\",\"spell\":\"storm\"}", NODICE);
	CHECK(st->pending == CW_PEND_COUNTER && cw_to_act(st) == 2u, row_name);
	CHECK(listed(st, 1, "{\"type\":\"counterspell\",\"from\":\"d7\"}") &&
	      listed(st, 1, "{\"type\":\"allow\"}"), row_name);
	refused(st, 0, "{\"type\":\"end_phase\"}", "not-awaited");
	row(R "C9: Counterspell counters a spell just cast on 4+ (a 3 fails)");
	ok(st, 1, "{\"type\":\"counterspell\",\"unit\":\"d7\"}", D(3));
	CHECK(st->nfx == 1 && st->fx[0].spell == CW_SPELL_STORM, row_name);
	row(R "C9: an instant spell on the enemy's turn uses up the wizard's next spell");
	CHECK(st->u[so].cast == 1, row_name);
	row(R "C9: one spell per wizard per turn");
	refused(st, 0, "{\"type\":\"cast\",\"unit\":\"d3\",\"spell\":\"storm\"}", "spell-used");
	row(R "C9 Storm (provisional): bows -1 to hit");
	ok(st, 0, "{\"type\":\"end_phase\"}", NODICE);
	{
		int m[4], n;
		CHECK(cw_shoot_need(st, cw_unit_at(st, sq(st, "c2")), cw_unit_at(st, sq(st, "c5")), m,
		                    &n) == 5 && n == 2, "3+ archers, range 3 and storm: 5");
	}
	row(R "C9 Zap! (provisional, shoot): the one spell per turn is used");
	refused(st, 0, "{\"type\":\"cast\",\"unit\":\"d3\",\"spell\":\"zap\",\"target\":\"c5\"}",
	        "spell-used");
	st->u[w].cast = 0;
	ok(st, 0, "{\"type\":\"cast\",\"unit\":\"d3\",\"spell\":\"zap\",\"target\":\"c5\"}", D(1));
	CHECK(cw_unit_at(st, sq(st, "c5")) == CW_NONE && has_event("destroyed"),
	      "the sorcerer cannot counter again; beastmen save 4+ fails on 1");
	row(R "C9: temporal spells last until the start of the caster's next turn");
	end_turn_by(st, 0);
	CHECK(st->turn_seat == 1 && st->nfx == 1, "still in effect on the enemy's turn");
	CHECK(st->u[so].cast == 1, "the sorcerer's spell of this turn was used up");
	end_turn_by(st, 1);
	CHECK(st->turn_seat == 0 && st->nfx == 0 && has_event("spell_end"), row_name);
	free(st);

	st = pos(CW_ARMY_HUMANS, CW_ARMY_CHAOS, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "chaos_lord", "h8");
	add(st, 0, "wizard", "d2");
	add(st, 1, "sorcerer", "d7");
	row(R "C9, G3: a standing order counters without asking");
	{
		json_object *o = json_tokener_parse("{\"counterspell\":[\"storm\"]}");
		struct wr_error err;
		CHECK(cw_ruleset.set_orders(st, 1, o, &err) == 0, row_name);
		json_object_put(o);
		ok(st, 0, "{\"type\":\"cast\",\"unit\":\"d2\",\"spell\":\"storm\"}", D(4));
		CHECK(st->pending == CW_PEND_NONE && st->nfx == 0 && has_event("counterspell"),
		      "countered on 4");
		char *v0 = view_str(st, 0), *v1 = view_str(st, 1);
		CHECK(strstr(v1, "\"counterspell\":[\"storm\"]") != NULL && strstr(v0, "[\"storm\"]") == NULL,
		      "G5: standing orders are private to the seat");
		free(v0);
		free(v1);
	}
	free(st);

	st = pos(CW_ARMY_HUMANS, CW_ARMY_CHAOS, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "chaos_lord", "h8");
	add(st, 0, "wizard", "d2");
	int cs1 = add(st, 1, "sorcerer", "d7");
	int cs2 = add(st, 1, "sorcerer", "e7");
	row(T "Counterspell, C9: one spell per wizard, so a second unused wizard "
	      "tries after a failed counter (standing order)");
	orders(st, 1, "{\"counterspell\":\"always\"}");
	ok(st, 0, "{\"type\":\"cast\",\"unit\":\"d2\",\"spell\":\"storm\"}", D(3, 5));
	CHECK(st->pending == CW_PEND_NONE && st->nfx == 0 && st->u[cs1].cast &&
	      st->u[cs2].cast, row_name);
	free(st);

	st = pos(CW_ARMY_HUMANS, CW_ARMY_CHAOS, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "chaos_lord", "h8");
	add(st, 0, "wizard", "d2");
	cs1 = add(st, 1, "sorcerer", "d7");
	cs2 = add(st, 1, "sorcerer", "e7");
	row(T "Counterspell, C9: after a failed counter the seat is asked again for its "
	      "other wizard");
	ok(st, 0, "{\"type\":\"cast\",\"unit\":\"d2\",\"spell\":\"storm\"}", NODICE);
	ok(st, 1, "{\"type\":\"counterspell\",\"unit\":\"d7\"}", D(3));
	CHECK(st->pending == CW_PEND_COUNTER && st->react_seat == 1 && st->nfx == 0, row_name);
	refused(st, 1, "{\"type\":\"counterspell\",\"unit\":\"d7\"}", "spell-used");
	ok(st, 1, "{\"type\":\"counterspell\",\"unit\":\"e7\"}", D(5));
	CHECK(st->pending == CW_PEND_NONE && st->nfx == 0 && st->u[cs2].cast, "countered on 5");
	free(st);

	st = pos(CW_ARMY_HUMANS, CW_ARMY_ORCS, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "warlord", "h8");
	int hw = add(st, 0, "wizard", "c3");
	int hinf = add(st, 0, "infantry", "d4");
	int orc = add(st, 1, "orcs", "d5");
	int orc2 = add(st, 1, "orcs", "e6");
	cw_link(st, hinf, orc);
	st->turn_seat = 1;
	st->phase = CW_PH_MELEE;
	row(R "C9 Protection (provisional), instant \"even on enemy's turn\": asked before the roll");
	ok(st, 1, "{\"type\":\"attack\",\"from\":\"d5\",\"target\":\"d4\"}", NODICE);
	CHECK(st->pending == CW_PEND_PROTECT && cw_to_act(st) == 1u &&
	      listed(st, 0, "{\"type\":\"protect\",\"from\":\"c3\",\"target\":\"d4\"}") &&
	      listed(st, 0, "{\"type\":\"no_protect\"}"), row_name);
	row(R "C9 Heal (provisional): a reaction on the enemy's turn; the follow-up waits for it");
	ok(st, 0, "{\"type\":\"no_protect\"}", D(6));
	CHECK(st->pending == CW_PEND_HEAL && cw_to_act(st) == 1u &&
	      listed(st, 0, "{\"type\":\"heal\",\"from\":\"c3\",\"target\":\"d4\"}"), row_name);
	refused(st, 1, "{\"type\":\"advance\",\"from\":\"d5\",\"to\":\"d4\"}", "not-awaited");
	row(R "C9 Heal: survives on 4+, back in its square and its melee; no follow-up then");
	ok(st, 0, "{\"type\":\"heal\",\"from\":\"c3\",\"target\":\"d4\"}", D(4));
	CHECK(on_at(st, hinf, "d4") && linked(st, hinf, orc) && st->pending == CW_PEND_NONE, row_name);
	row(R "C9: the instant spell on the enemy's turn uses up the wizard's next spell");
	CHECK(st->u[hw].cast && st->u[hw].instant, row_name);
	(void)orc2;
	free(st);

	st = pos(CW_ARMY_HUMANS, CW_ARMY_ORCS, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "warlord", "h8");
	add(st, 0, "wizard", "c3");
	hinf = add(st, 0, "infantry", "d4");
	orc = add(st, 1, "orcs", "d5");
	cw_link(st, hinf, orc);
	st->turn_seat = 1;
	st->phase = CW_PH_MELEE;
	row(R "C9 Heal, G3: a standing order heals without asking; a 3 fails; then the follow-up");
	{
		json_object *o = json_tokener_parse("{\"heal\":\"always\",\"protection\":\"never\"}");
		struct wr_error err;
		CHECK(cw_ruleset.set_orders(st, 0, o, &err) == 0, row_name);
		json_object_put(o);
	}
	ok(st, 1, "{\"type\":\"attack\",\"from\":\"d5\",\"target\":\"d4\"}", D(6, 3));
	CHECK(dead(st, hinf) && has_event("heal") && st->pending == CW_PEND_FOLLOWUP, row_name);
	free(st);

	st = pos(CW_ARMY_HUMANS, CW_ARMY_ORCS, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "warlord", "h8");
	add(st, 0, "wizard", "c3");
	hinf = add(st, 0, "infantry", "d4");
	orc = add(st, 1, "orcs", "d5");
	int sham = add(st, 1, "shaman", "f7");
	cw_link(st, hinf, orc);
	st->turn_seat = 1;
	st->phase = CW_PH_MELEE;
	orders(st, 0, "{\"heal\":\"always\",\"protection\":\"never\"}");
	orders(st, 1, "{\"counterspell\":\"always\"}");
	row(T "Spells, \"unless the other side tries to counterspell them\": a Heal by standing "
	      "order is countered on 4+ by the side whose turn it is: no Heal roll, the unit stays "
	      "destroyed, and the follow-up comes");
	ok(st, 1, "{\"type\":\"attack\",\"from\":\"d5\",\"target\":\"d4\"}", D(6, 5));
	CHECK(dead(st, hinf) && has_event("counterspell") && !has_event("heal") &&
	      st->pending == CW_PEND_FOLLOWUP && st->u[sham].cast && !st->u[sham].instant, row_name);
	free(st);

	st = pos(CW_ARMY_HUMANS, CW_ARMY_ORCS, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "warlord", "h8");
	hw = add(st, 0, "wizard", "c3");
	hinf = add(st, 0, "infantry", "d4");
	orc = add(st, 1, "orcs", "d5");
	cw_link(st, hinf, orc);
	st->turn_seat = 1;
	st->phase = CW_PH_MELEE;
	row(R "C9 Protection: cast on the unit attacked, +1 saves: result 4, a 3 saves on 4+");
	ok(st, 1, "{\"type\":\"attack\",\"from\":\"d5\",\"target\":\"d4\"}", NODICE);
	refused(st, 0, "{\"type\":\"protect\",\"from\":\"c3\",\"target\":\"d5\"}", "bad-target");
	ok(st, 0, "{\"type\":\"protect\",\"from\":\"c3\",\"target\":\"d4\"}", D(4, 3));
	CHECK(on_at(st, hinf, "d4") && has_event("cast") && st->u[hw].instant, row_name);
	row(R "C9: the protection lasts to the start of the wizard's next turn");
	/* the orcs' melee phase had nothing left: the server ended it (G3 amended) */
	CHECK(st->turn_seat == 0 && st->nfx == 0 && has_event("spell_end"), row_name);
	free(st);

	st = pos(CW_ARMY_UNDEAD, CW_ARMY_HUMANS, 8, 8);
	add(st, 0, "liche", "a1");
	add(st, 1, "general", "h8");
	int ne = add(st, 0, "necromancer", "d2");
	int z = add(st, 0, "zombies", "e2");
	z = add(st, 0, "zombies", "f2");
	st->u[z].status = CW_U_DEAD;
	cw_rebuild_at(st);
	row(R "C9 Raise Dead (provisional): a destroyed unit returns next to the wizard");
	ok(st, 0, "{\"type\":\"cast\",\"unit\":\"d2\",\"spell\":\"raise_dead\",\"raise\":\"zombies\",\"to\":\"d3\"}",
	   NODICE);
	CHECK(on_at(st, z, "d3"), row_name);
	refused(st, 0, "{\"type\":\"cast\",\"unit\":\"a1\",\"spell\":\"raise_dead\",\"raise\":\"liche\",\"to\":\"a2\"}",
	        "cannot-raise");
	(void)ne;
	free(st);

	st = pos(CW_ARMY_UNDEAD, CW_ARMY_HUMANS, 8, 8);
	add(st, 0, "liche", "a1");
	add(st, 1, "general", "h8");
	add(st, 0, "necromancer", "d2");
	int ua = add(st, 0, "undead_archers", "f2");
	add(st, 1, "infantry", "d5");
	st->u[ua].status = CW_U_DEAD;
	cw_rebuild_at(st);
	row(T "Bows \"-1 the firer moved\", C9 Raise Dead: a raised unit may not move but has "
	      "not moved, and shoots without the -1");
	ok(st, 0, "{\"type\":\"cast\",\"unit\":\"d2\",\"spell\":\"raise_dead\",\"raise\":\"undead_archers\",\"to\":\"d3\"}",
	   NODICE);
	CHECK(on_at(st, ua, "d3") && !st->u[ua].moved, row_name);
	refused(st, 0, "{\"type\":\"move\",\"unit\":\"d3\",\"to\":\"c3\"}", "already-moved");
	ok(st, 0, "{\"type\":\"end_phase\"}", NODICE);
	ok(st, 0, "{\"type\":\"shoot\",\"from\":\"d3\",\"target\":\"d5\"}", D(1));
	CHECK(ev_int("shoot", "need") == 4, "4+ undead archers at range 2, no -1 for moving");
	free(st);

	st = pos(CW_ARMY_DWARVES, CW_ARMY_ORCS, 8, 8);
	add(st, 0, "warlord", "a1");
	add(st, 1, "warlord", "h8");
	int rl = add(st, 0, "rune_lord", "d2");
	add(st, 1, "orcs", "d5");
	row(T "Crossbows \"no move and fire\", C9 Storm: a Rune Lord that cast Storm without "
	      "moving may not move, but may fire");
	ok(st, 0, "{\"type\":\"cast\",\"unit\":\"d2\",\"spell\":\"storm\"}", NODICE);
	CHECK(st->nfx == 1 && !st->u[rl].moved && st->u[rl].done_moving, row_name);
	refused(st, 0, "{\"type\":\"move\",\"unit\":\"d2\",\"to\":\"d3\"}", "already-moved");
	row("cw_snapshot.c: a unit that may not move but has not moved stays so when saved and "
	    "loaded; a snapshot without that field loads");
	{
		json_object *snap = cw_ruleset.save(st), *units;
		void *back = NULL;
		struct wr_error err;
		CHECK(cw_ruleset.load(snap, &back, &err) == 0 && back &&
		      ((struct cw_state *)back)->u[rl].done_moving &&
		      !((struct cw_state *)back)->u[rl].moved, row_name);
		if (back)
			cw_ruleset.free(back);
		back = NULL;
		json_object_object_get_ex(snap, "units", &units);
		for (size_t i = 0; i < json_object_array_length(units); i++)
			json_object_array_del_idx(json_object_array_get_idx(units, i), 14, 1);
		CHECK(cw_ruleset.load(snap, &back, &err) == 0 && back &&
		      !((struct cw_state *)back)->u[rl].done_moving, "14 fields: not done moving");
		if (back)
			cw_ruleset.free(back);
		json_object_put(snap);
	}
	row(T "Crossbows \"no move and fire\", Bows \"-1 the firer moved\", C9 Storm: the Rune "
	      "Lord fires at 3+, +1 range 3, +1 Storm");
	ok(st, 0, "{\"type\":\"end_phase\"}", NODICE);
	ok(st, 0, "{\"type\":\"shoot\",\"from\":\"d2\",\"target\":\"d5\"}", D(1));
	CHECK(ev_int("shoot", "need") == 5, row_name);
	free(st);

	st = pos(CW_ARMY_ORCS, CW_ARMY_HUMANS, 8, 8);
	add(st, 0, "warlord", "a1");
	add(st, 1, "general", "h8");
	int sh = add(st, 0, "shaman", "d2");
	int wr = add(st, 0, "wolf_riders", "e2");
	int hi = add(st, 1, "infantry", "e3");
	cw_link(st, wr, hi);
	row(R "C9 Flight (provisional): only the wizard himself flies out of a melee");
	refused(st, 0, "{\"type\":\"cast\",\"unit\":\"d2\",\"spell\":\"flight\",\"target\":\"e2\",\"to\":\"e6\"}",
	        "in-melee");
	cw_link(st, sh, hi);
	ok(st, 0, "{\"type\":\"cast\",\"unit\":\"d2\",\"spell\":\"flight\",\"target\":\"d2\",\"to\":\"d7\"}",
	   NODICE);
	CHECK(on_at(st, sh, "d7") && !cw_in_melee(st, sh) && cw_in_melee(st, wr), row_name);
	free(st);

	st = pos(CW_ARMY_ORCS, CW_ARMY_HUMANS, 8, 8);
	add(st, 0, "warlord", "a1");
	add(st, 1, "general", "h8");
	add(st, 0, "shaman", "d2");
	wr = add(st, 0, "orcs", "e2");
	hi = add(st, 1, "infantry", "e3");
	cw_link(st, wr, hi);
	st->phase = CW_PH_MELEE;
	row(R "C9 Strike (provisional): +2 melee for the unit's attack this phase");
	ok(st, 0, "{\"type\":\"cast\",\"unit\":\"d2\",\"spell\":\"strike\",\"target\":\"e2\"}", NODICE);
	ok(st, 0, "{\"type\":\"attack\",\"unit\":\"e2\",\"target\":\"e3\"}", D(2, 2));
	CHECK(ev_int("attack", "total") == 4 && dead(st, hi), row_name);
	free(st);

	st = pos(CW_ARMY_CHAOS, CW_ARMY_HUMANS, 8, 8);
	add(st, 0, "chaos_lord", "a1");
	add(st, 1, "general", "h8");
	add(st, 0, "sorcerer", "d2");
	int bm = add(st, 0, "beastmen", "d5");
	int far = add(st, 0, "beastmen", "h7");
	int hk = add(st, 1, "infantry", "d6");
	row(R "C9 Fear (provisional): own units within 4 squares of the wizard are Scary");
	ok(st, 0, "{\"type\":\"cast\",\"unit\":\"d2\",\"spell\":\"fear\"}", NODICE);
	CHECK(cw_is_scary(st, bm) && !cw_is_scary(st, far), row_name);
	row(R "C9 Dispel (provisional): ends one temporal spell in effect");
	(void)hk;
	st->turn_seat = 1;
	free(st);

	st = pos(CW_ARMY_HUMANS, CW_ARMY_CHAOS, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "chaos_lord", "h8");
	add(st, 0, "wizard", "d2");
	int so2 = add(st, 1, "sorcerer", "d7");
	st->fx[st->nfx++] = (struct cw_effect){CW_SPELL_STORM, so2, CW_NONE};
	st->fx[st->nfx++] = (struct cw_effect){CW_SPELL_STORM, so2, CW_NONE};
	st->u[so2].cast = 1;   /* no counterspell left this turn */
	ok(st, 0, "{\"type\":\"cast\",\"unit\":\"d2\",\"spell\":\"dispel\",\"effect\":0}", NODICE);
	CHECK(st->nfx == 1 && cw_storms(st), "two storms need two dispels");
	row(R "C9: a wizard's temporal spells end when it dies");
	cw_destroy(st, so2, "test", &sink);
	CHECK(st->nfx == 0, row_name);
	free(st);

	st = pos(CW_ARMY_RATMEN, CW_ARMY_HUMANS, 8, 8);
	add(st, 0, "rat_lord", "a1");
	add(st, 1, "general", "h8");
	add(st, 0, "seer", "d2");
	int cr = add(st, 0, "clanrats", "f2");
	row(R "C9 Contagion (text): all own units have Plague");
	ok(st, 0, "{\"type\":\"cast\",\"unit\":\"d2\",\"spell\":\"contagion\"}", NODICE);
	CHECK(cw_has_plague(st, cr) && cw_immune_plague(st, cr), row_name);
	row(R "C9 Protection (provisional): +1 saves for one own unit");
	free(st);

	st = pos(CW_ARMY_HUMANS, CW_ARMY_ORCS, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "warlord", "h8");
	add(st, 0, "wizard", "d2");
	int inf = add(st, 0, "infantry", "d3");
	ok(st, 0, "{\"type\":\"cast\",\"unit\":\"d2\",\"spell\":\"protection\",\"target\":\"d3\"}",
	   NODICE);
	{
		struct wr_list ev;
		struct wr_script s = {.faces = (const unsigned[]){3}, .n = 1};
		struct wr_rng rng;
		wr_list_init(&ev, sizeof(struct cw_event));
		wr_rng_script(&rng, &s);
		st->phase = CW_PH_SHOOT;
		/* the shot-into-melee path is not taken: a plain ranged hit */
		cw_ranged_hit(st, inf, CW_W_BOWS, &rng, &ev);
		CHECK(cw_on(st, inf), "4+ saved on 3 + 1");
		wr_list_free(&ev);
	}
	free(st);
}

static void
endings(void)
{
	struct cw_state *st = pos(CW_ARMY_UNDEAD, CW_ARMY_HUMANS, 8, 8);
	int li = add(st, 0, "liche", "a1");
	add(st, 1, "general", "h8");
	add(st, 0, "zombies", "c3");
	add(st, 0, "zombies", "c4");
	st->o.total_massacre = 1;
	row(R "C10 total_massacre: the general's death does not end the match");
	cw_destroy(st, li, "test", &sink);
	cw_check_end(st, &sink);
	CHECK(st->phase != CW_PH_OVER, row_name);
	row(R "C10 total_massacre: an Undead army without its Liche loses a unit of its choice "
	      "at the start of its turn");
	st->turn_seat = 1;
	st->phase = CW_PH_MELEE;
	ok(st, 1, "{\"type\":\"end_phase\"}", NODICE);
	CHECK(st->pending == CW_PEND_SACRIFICE && cw_to_act(st) == 1u, row_name);
	refused(st, 0, "{\"type\":\"end_phase\"}", "illegal-action");
	ok(st, 0, "{\"type\":\"sacrifice\",\"unit\":\"c3\"}", NODICE);
	CHECK(cw_units_alive(st, 0) == 1, row_name);
	row("RULINGS.md, G3 (amended): a phase with end_phase the only legal action is ended by "
	    "the server (zombies neither shoot nor fight: one post ends the turn)");
	ok(st, 0, "{\"type\":\"end_phase\"}", NODICE);
	CHECK(st->turn_seat == 1 && st->phase == CW_PH_MOVE, row_name);
	refused(st, 0, "{\"type\":\"end_phase\"}", "not-awaited");
	row("RULINGS.md, G3 (amended): the only legal action, the sacrifice of the last undead "
	    "unit, is taken by the server");
	ok(st, 1, "{\"type\":\"end_phase\"}", NODICE);
	CHECK(has_event("sacrifice") && has_event("over"), row_name);
	row(R "C10 total_massacre: the match ends when a side has no units");
	CHECK(st->phase == CW_PH_OVER && st->winner == 1, row_name);
	free(st);

	st = pos(CW_ARMY_HUMANS, CW_ARMY_ORCS, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "warlord", "h8");
	row("rules.h resign: with two seats the other seat wins");
	{
		struct wr_events ev = {0};
		struct wr_result r;
		cw_ruleset.resign(st, 0, NULL, &ev);
		cw_ruleset.result(st, &r);
		CHECK(r.over && r.winners == 2u, row_name);
		wr_events_free(&ev);
	}
	free(st);
}

#define X "002_0478434554df57bb.txt, Expansion (multiple armies): "

static struct cw_state *
create_multi(int seats, const char *options)
{
	void *vs = NULL;
	struct wr_error err;
	json_object *o = options ? json_tokener_parse(options) : NULL;
	int rc = cw_ruleset.create(o, seats, NULL, &vs, &err);
	json_object_put(o);
	if (rc != 0) {
		CHECK_STR(err.code, "", row_name);
		return NULL;
	}
	return vs;
}

static void
create_refused(int seats, const char *options, const char *code)
{
	void *vs = NULL;
	struct wr_error err;
	json_object *o = options ? json_tokener_parse(options) : NULL;
	CHECK(cw_ruleset.create(o, seats, NULL, &vs, &err) != 0, row_name);
	CHECK_STR(err.code, code, row_name);
	json_object_put(o);
}

/* Every seat of a new match plays `army[s]` with its general alone on
 * `at[s]`, in one post each. */
static void
set_up_generals(struct cw_state *st, const int *army, const char *const *at,
                const unsigned *faces, size_t nfaces)
{
	char buf[256];
	for (int s = 0; s < st->nseats; s++) {
		const char *g = cw_armies[army[s]].units[0].slug;
		snprintf(buf, sizeof(buf), "{\"type\":\"army\",\"army\":\"%s\"}", cw_armies[army[s]].slug);
		ok(st, s, buf, NODICE);
		ok(st, s, "{\"type\":\"ready\"}", NODICE);
		snprintf(buf, sizeof(buf), "{\"type\":\"deploy\",\"unit\":\"%s\",\"square\":\"%s\"}", g,
		         at[s]);
		ok(st, s, buf, NODICE);
		if (s < st->nseats - 1)
			ok(st, s, "{\"type\":\"done\"}", NODICE);
		else
			ok(st, s, "{\"type\":\"done\"}", faces, nfaces);
	}
}

/* The expansion: "there could be enough room to handle multiple armies.
 * In such a case, each army acts one by one as using normal rules. Total
 * massacre rules should be used". */
static void
multiple_armies(void)
{
	struct cw_state *st;
	row(X "3 or 4 seats: the board is 12x12 unless set, total massacre always");
	CHECK(cw_ruleset.max_seats == 4, row_name);
	st = create_multi(3, NULL);
	CHECK(st && st->nseats == 3 && st->board.files == 12 && st->board.ranks == 12 &&
	      st->o.total_massacre && st->o.catapult_range == 8, row_name);
	free(st);
	st = create_multi(4, "{\"board_files\":16,\"board_ranks\":14}");
	CHECK(st && st->nseats == 4 && st->board.files == 16 && st->board.ranks == 14, row_name);
	free(st);
	row(X "RULINGS.md, ChessWar C11: a board smaller than 12x12 is refused for 3-4 armies");
	create_refused(3, "{\"board_files\":10,\"board_ranks\":12}", "board-too-small");
	row(X "total massacre cannot be turned off for 3-4 armies");
	create_refused(4, "{\"total_massacre\":false}", "total-massacre");
	row(X "at most four armies");
	create_refused(5, NULL, "bad-seats");

	st = create_multi(4, NULL);
	row("RULINGS.md, G1: seat 2 sits at file a, seat 3 at the last file: their two nearest "
	    "files are their set-up areas; the 2x2 corners are no one's");
	CHECK(cw_in_setup_area(st, 2, sq(st, "a5")) && cw_in_setup_area(st, 2, sq(st, "b10")) &&
	      !cw_in_setup_area(st, 2, sq(st, "c5")) && cw_in_setup_area(st, 3, sq(st, "l5")) &&
	      cw_in_setup_area(st, 3, sq(st, "k3")) && cw_in_setup_area(st, 0, sq(st, "e2")) &&
	      cw_in_setup_area(st, 1, sq(st, "e11")), row_name);
	for (int s = 0; s < 4; s++)
		CHECK(!cw_in_setup_area(st, s, sq(st, "a1")) && !cw_in_setup_area(st, s, sq(st, "l12")) &&
		      !cw_in_setup_area(st, s, sq(st, "b11")), "no seat owns a corner");
	ok(st, 2, "{\"type\":\"army\",\"army\":\"orcs\"}", NODICE);
	ok(st, 2, "{\"type\":\"ready\"}", NODICE);
	refused(st, 2, "{\"type\":\"deploy\",\"unit\":\"warlord\",\"square\":\"e1\"}",
	        "outside-set-up-area");
	refused(st, 2, "{\"type\":\"deploy\",\"unit\":\"warlord\",\"square\":\"a1\"}",
	        "outside-set-up-area");
	ok(st, 2, "{\"type\":\"deploy\",\"unit\":\"warlord\",\"square\":\"a6\"}", NODICE);
	row("RULINGS.md, ChessWar C1: the army fits its set-up area (16 squares: 2 x 8 files)");
	ok(st, 0, "{\"type\":\"army\",\"army\":\"ratmen\"}", NODICE);
	refused(st, 0, "{\"type\":\"buy\",\"unit\":\"clanrats\",\"count\":16}", "army-too-large");
	free(st);

	row(X "each army acts one by one, in initiative order (C3): Humans 2, Chaos 4, Orcs 5");
	st = create_multi(3, NULL);
	{
		const int army[] = {CW_ARMY_ORCS, CW_ARMY_HUMANS, CW_ARMY_CHAOS};
		const char *const at[] = {"f1", "f12", "a6"};
		set_up_generals(st, army, at, NODICE);
	}
	CHECK(st->phase == CW_PH_MOVE && st->turn_seat == 1 && st->order[0] == 1 &&
	      st->order[1] == 2 && st->order[2] == 0 && st->round == 1, row_name);
	CHECK(has_event("reveal") && has_event("first"), row_name);
	row(X "the turn passes to the next army in that order; a round ends after the last");
	end_turn_by(st, 1);
	CHECK(st->turn_seat == 2 && st->round == 1, row_name);
	end_turn_by(st, 2);
	CHECK(st->turn_seat == 0 && st->round == 1, row_name);
	refused(st, 1, "{\"type\":\"end_phase\"}", "not-awaited");
	end_turn_by(st, 0);
	CHECK(st->turn_seat == 1 && st->round == 2, row_name);
	free(st);

	row(X "equal initiative: a roll-off among the equals (G2 dice, a tie re-rolled), the "
	      "higher roll acts first; no choice with more than two armies");
	st = create_multi(4, NULL);
	{
		const int army[] = {CW_ARMY_HUMANS, CW_ARMY_ORCS, CW_ARMY_HUMANS, CW_ARMY_ELFS};
		const char *const at[] = {"f1", "f12", "a6", "l6"};
		/* the two Humans (seats 0 and 2) roll 3, 3: again; 2, 5: seat 2 first */
		set_up_generals(st, army, at, D(3, 3, 2, 5));
	}
	CHECK(st->order[0] == 3 && st->order[1] == 2 && st->order[2] == 0 && st->order[3] == 1 &&
	      st->turn_seat == 3 && st->phase == CW_PH_MOVE, row_name);
	free(st);

	row("RULINGS.md, G1: forward and right for seats 2 and 3 (catapult scatter)");
	{
		int df, dr;
		cw_dir_of_seat(2, 1, &df, &dr);
		CHECK(df == 1 && dr == 0, "seat 2: 1 is toward the last file");
		cw_dir_of_seat(2, 2, &df, &dr);
		CHECK(df == 0 && dr == -1, "seat 2: right is toward rank 1");
		cw_dir_of_seat(3, 1, &df, &dr);
		CHECK(df == -1 && dr == 0, "seat 3: 1 is toward file a");
		cw_dir_of_seat(3, 4, &df, &dr);
		CHECK(df == 0 && dr == -1, "seat 3: left is toward rank 1");
	}

	row(X "an army wiped out is out: its turns are skipped; it is never awaited");
	st = create_multi(3, NULL);
	{
		const int army[] = {CW_ARMY_HUMANS, CW_ARMY_CHAOS, CW_ARMY_ORCS};
		const char *const at[] = {"f1", "f12", "a6"};
		set_up_generals(st, army, at, NODICE);
	}
	{
		int kn = add(st, 0, "knights", "b6");
		int wl = 2 * CW_UPS;
		cw_link(st, kn, wl);
		st->phase = CW_PH_MELEE;
		/* the knights' natural 6 destroys the warlord: the orcs are out */
		ok(st, 0, "{\"type\":\"attack\",\"from\":\"b6\",\"target\":\"a6\"}", D(6));
		CHECK((st->out & 4u) && has_event("out") && st->phase != CW_PH_OVER, row_name);
		ok(st, 0, "{\"type\":\"hold\",\"from\":\"b6\"}", NODICE);
		CHECK(st->turn_seat == 1, "humans, chaos, (orcs out), humans");
		end_turn_by(st, 1);
		CHECK(st->turn_seat == 0 && st->round == 2 && !(cw_to_act(st) & 4u), row_name);
		row(X "the last army standing wins");
		cw_destroy(st, 1 * CW_UPS, "test", &sink);
		cw_check_end(st, &sink);
		CHECK(st->phase == CW_PH_OVER && st->winner == 0, row_name);
	}
	free(st);

	row("rules.h resign: with 3-4 seats the seat leaves, its army leaves the board, play goes "
	    "on; a question put to it is declined");
	st = create_multi(3, NULL);
	{
		const int army[] = {CW_ARMY_HUMANS, CW_ARMY_ORCS, CW_ARMY_DWARVES};
		const char *const at[] = {"f1", "f12", "a6"};
		set_up_generals(st, army, at, NODICE);
	}
	{
		struct wr_events ev = {0};
		struct wr_rng rng;
		struct wr_script scr = {.faces = NULL, .n = 0};
		add(st, 0, "wizard", "e2");
		add(st, 2, "rune_lord", "a7");
		ok(st, 0, "{\"type\":\"cast\",\"from\":\"e2\",\"spell\":\"storm\"}", NODICE);
		CHECK(st->pending == CW_PEND_COUNTER && st->react_seat == 2 && cw_to_act(st) == 4u,
		      "the dwarves (seat 2), not the orcs (no wizard), are asked to counter");
		wr_rng_script(&rng, &scr);
		CHECK(cw_ruleset.resign(st, 2, &rng, &ev) == 0, row_name);
		CHECK((st->out & 4u) && st->phase == CW_PH_MOVE && st->turn_seat == 0 &&
		      cw_to_act(st) == 1u && st->nfx == 1 && cw_units_alive(st, 2) == 0, row_name);
		wr_events_free(&ev);
		row(X "the seats still in play");
		CHECK(cw_ruleset.seats_in(st) == 3u, row_name);
	}
	free(st);

	row(X "G5: a seat's secret set-up is in no other seat's view until every army is in");
	st = create_multi(3, NULL);
	ok(st, 0, "{\"type\":\"army\",\"army\":\"orcs\"}", NODICE);
	ok(st, 0, "{\"type\":\"ready\"}", NODICE);
	ok(st, 0, "{\"type\":\"deploy\",\"unit\":\"warlord\",\"square\":\"f1\"}", NODICE);
	for (int v = 1; v <= 3; v++) {
		json_object *view = cw_ruleset.view(st, v == 3 ? WR_SPECTATOR : v);
		json_object *units, *sides, *s0;
		json_object_object_get_ex(view, "units", &units);
		json_object_object_get_ex(view, "sides", &sides);
		s0 = json_object_array_get_idx(sides, 0);
		CHECK(json_object_array_length(units) == 0, row_name);
		CHECK(json_object_get_boolean(json_object_object_get(s0, "hidden")) &&
		      !json_object_object_get(s0, "army"), "seat 0's army is hidden");
		json_object_put(view);
	}
	free(st);
}

static void
expansion(void)
{
	void *vs;
	struct wr_error err;
	json_object *o = json_tokener_parse(
	        "{\"board_files\":10,\"board_ranks\":12,\"forest\":[\"d5\"],\"hills\":[\"c3\"]}");
	row(R "C11: a larger board, catapult range then 8");
	CHECK(cw_ruleset.create(o, 2, NULL, &vs, &err) == 0, row_name);
	struct cw_state *st = vs;
	CHECK(st->o.catapult_range == 8 && st->board.files == 10 && st->board.ranks == 12, row_name);
	json_object_put(o);
	st->side[0].army = CW_ARMY_HUMANS;
	st->side[1].army = CW_ARMY_ORCS;
	st->side[0].stage = st->side[1].stage = CW_STAGE_DONE;
	st->phase = CW_PH_SHOOT;
	st->first_seat = 0;
	add(st, 0, "general", "a1");
	add(st, 1, "warlord", "j12");
	add(st, 0, "catapults", "c1");
	add(st, 0, "infantry", "c11");
	add(st, 1, "orcs", "c10");
	refused(st, 0, "{\"type\":\"shoot\",\"unit\":\"c1\",\"target\":\"c10\"}", "out-of-range");
	row(T "Expansion: forest blocks visibility like a unit");
	CHECK(!cw_sees(st, sq(st, "d4"), sq(st, "d6")), row_name);
	row(T "Expansion: a unit on a hill sees over units (not forest)");
	add(st, 0, "infantry", "c4");
	CHECK(cw_sees(st, sq(st, "c3"), sq(st, "c6")) && !cw_sees(st, sq(st, "c2"), sq(st, "c6")),
	      row_name);
	CHECK(!cw_sees(st, sq(st, "c3"), sq(st, "e7")), "forest d5 blocks the hill's line");
	row(T "Expansion: forest can be moved into; a unit on a hill can be seen over units");
	{
		int inf = add(st, 0, "infantry", "d4");
		st->phase = CW_PH_MOVE;
		ok(st, 0, "{\"type\":\"move\",\"from\":\"d4\",\"to\":\"d5\"}", NODICE);
		CHECK(on_at(st, inf, "d5"), row_name);
		CHECK(cw_sees(st, sq(st, "c6"), sq(st, "c3")), "the hill unit is seen over c4");
		st->u[inf].status = CW_U_DEAD;
		cw_rebuild_at(st);
		st->phase = CW_PH_SHOOT;
	}
	row(T "Expansion: +1 saves against ranged attacks in forest");
	{
		int u = add(st, 1, "orcs", "d5");
		struct wr_list ev;
		struct wr_script s = {.faces = (const unsigned[]){2}, .n = 1};
		struct wr_rng rng;
		wr_list_init(&ev, sizeof(struct cw_event));
		wr_rng_script(&rng, &s);
		cw_ranged_hit(st, u, CW_W_BOWS, &rng, &ev);
		CHECK(cw_on(st, u), "3+ saved on 2 + 1");
		wr_list_free(&ev);
	}
	row("RULINGS.md G4: options chosen at creation, refused when out of range (C11)");
	o = json_tokener_parse("{\"board_files\":17}");
	CHECK(cw_ruleset.create(o, 2, NULL, &vs, &err) != 0, row_name);
	json_object_put(o);
	o = json_tokener_parse("{\"forest\":[\"z9\"]}");
	CHECK(cw_ruleset.create(o, 2, NULL, &vs, &err) != 0, row_name);
	json_object_put(o);
	free(st);
}

/* Rows added by the rules audit: rulings and text rules no row named yet. */
static void
audit_rows(void)
{
	struct cw_state *st = pos(CW_ARMY_HUMANS, CW_ARMY_ORCS, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "warlord", "h8");
	add(st, 0, "archers", "b2");
	add(st, 1, "orcs", "f6");
	add(st, 1, "orcs", "g2");
	st->phase = CW_PH_SHOOT;
	row(R "C6: range counts king steps (g2 is 5 along the rank: out of a bow's 4)");
	refused(st, 0, "{\"type\":\"shoot\",\"from\":\"b2\",\"target\":\"g2\"}", "out-of-range");
	row(R "C6: range counts king steps (f6 is 4 diagonal steps: in range, -1 at 3 or more)");
	ok(st, 0, "{\"type\":\"shoot\",\"from\":\"b2\",\"target\":\"f6\"}", D(3));
	CHECK(ev_int("shoot", "need") == 4 && !has_event("save"), "3+ bows at 4: need 4, 3 misses");
	free(st);

	st = pos(CW_ARMY_HUMANS, CW_ARMY_ORCS, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "warlord", "h8");
	add(st, 0, "catapults", "d1");
	int o = add(st, 1, "orcs", "d5");
	st->fx[st->nfx++] = (struct cw_effect){CW_SPELL_STORM, 0, CW_NONE};
	st->phase = CW_PH_SHOOT;
	row(R "C9 Storm (provisional): every catapult scatters once more (direct: 3 rolls)");
	ok(st, 0, "{\"type\":\"shoot\",\"from\":\"d1\",\"target\":\"d4\"}", D(5, 6, 1, 2));
	CHECK(ev_int("scatter", "direct") == 1 && strcmp(ev_str("scatter", "lands"), "d5") == 0 &&
	      dead(st, o), "5, 6 and 1 (one over): lands d5; the orcs' 3+ save fails on 2");
	free(st);

	st = pos(CW_ARMY_HUMANS, CW_ARMY_ORCS, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "warlord", "h8");
	add(st, 0, "wizard", "d2");
	add(st, 0, "infantry", "f4");
	add(st, 1, "orcs", "d7");
	add(st, 1, "orcs", "h6");
	o = add(st, 1, "orcs", "d6");
	st->phase = CW_PH_SHOOT;
	row(R "C9 Zap! (provisional): one enemy within 4 squares (d7 is 5 away)");
	refused(st, 0, "{\"type\":\"cast\",\"from\":\"d2\",\"spell\":\"zap\",\"target\":\"d7\"}",
	        "out-of-range");
	row(R "C9 Zap! (provisional): in the wizard's own sight (f4 blocks h6; no indirect Zap!)");
	refused(st, 0, "{\"type\":\"cast\",\"from\":\"d2\",\"spell\":\"zap\",\"target\":\"h6\"}",
	        "no-line-of-sight");
	row(R "C9 Zap! (provisional): the target is hit and must save or be destroyed");
	ok(st, 0, "{\"type\":\"cast\",\"from\":\"d2\",\"spell\":\"zap\",\"target\":\"d6\"}", D(2));
	CHECK(dead(st, o) && ev_int("save", "need") == 3, "orcs save 3+, fail on 2");
	free(st);

	st = pos(CW_ARMY_HUMANS, CW_ARMY_ORCS, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "warlord", "h8");
	int w = add(st, 0, "wizard", "d2");
	int ar = add(st, 0, "archers", "f2");
	cw_link(st, w, add(st, 1, "orcs", "d3"));
	cw_link(st, ar, add(st, 1, "orcs", "f3"));
	add(st, 1, "orcs", "f5");
	row(T "Spells: a move spell cannot be cast if the wizard is in melee");
	refused(st, 0, "{\"type\":\"cast\",\"from\":\"d2\",\"spell\":\"storm\"}", "in-melee");
	st->phase = CW_PH_SHOOT;
	row(T "Spells: a wizard in melee combat cannot cast a shoot spell");
	refused(st, 0, "{\"type\":\"cast\",\"from\":\"d2\",\"spell\":\"zap\",\"target\":\"d3\"}",
	        "in-melee");
	row(T "Shooting: units with ranged attacks fire in this phase unless they are in melee");
	refused(st, 0, "{\"type\":\"shoot\",\"from\":\"f2\",\"target\":\"f5\"}", "in-melee");
	free(st);

	st = pos(CW_ARMY_ORCS, CW_ARMY_HUMANS, 8, 8);
	add(st, 0, "warlord", "a1");
	add(st, 1, "general", "h8");
	add(st, 0, "shaman", "d2");
	int orc = add(st, 0, "orcs", "h2");
	add(st, 0, "orcs", "a6");
	add(st, 0, "orcs", "h3");
	add(st, 0, "orcs", "h4");
	int hi = add(st, 1, "infantry", "h6");
	row(R "C9 Flight (provisional): a6 is within 4 squares of the shaman, but h7 is 7 "
	      "squares from a6: too far");
	refused(st, 0, "{\"type\":\"cast\",\"from\":\"d2\",\"spell\":\"flight\",\"target\":\"a6\","
	              "\"to\":\"h7\"}", "bad-destination");
	row(R "C9 Flight (provisional): up to 6 squares ignoring units (over h3, h4), then a charge");
	ok(st, 0, "{\"type\":\"cast\",\"from\":\"d2\",\"spell\":\"flight\",\"target\":\"h2\","
	          "\"to\":\"h5\"}", NODICE);
	CHECK(on_at(st, orc, "h5"), row_name);
	ok(st, 0, "{\"type\":\"charge\",\"from\":\"h5\",\"target\":\"h6\"}", NODICE);
	CHECK(linked(st, orc, hi), "the flown orcs charged");
	free(st);

	st = pos(CW_ARMY_ORCS, CW_ARMY_HUMANS, 8, 8);
	add(st, 0, "warlord", "a1");
	add(st, 1, "general", "h8");
	add(st, 0, "shaman", "b2");
	add(st, 0, "orcs", "g2");
	row(R "C9 Flight (provisional): g2 is 5 squares from the shaman: out of range");
	refused(st, 0, "{\"type\":\"cast\",\"from\":\"b2\",\"spell\":\"flight\",\"target\":\"g2\","
	              "\"to\":\"g4\"}", "out-of-range");
	free(st);

	st = pos(CW_ARMY_HUMANS, CW_ARMY_ORCS, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "warlord", "h8");
	add(st, 0, "wizard", "d2");
	int hinf = add(st, 0, "infantry", "e6");
	o = add(st, 1, "orcs", "d6");
	cw_link(st, hinf, o);
	st->phase = CW_PH_SHOOT;
	row(T "Shooting into melee: a spell is a ranged attack too (Zap!, 1-2: one random "
	      "opponent is hit)");
	ok(st, 0, "{\"type\":\"cast\",\"from\":\"d2\",\"spell\":\"zap\",\"target\":\"d6\"}",
	   D(1, 2));
	CHECK(has_event("melee_shot") && dead(st, hinf) && !dead(st, o), row_name);
	free(st);

	for (int k = 0; k < 2; k++) {
		st = pos(CW_ARMY_HUMANS, CW_ARMY_ORCS, 8, 8);
		add(st, 0, "general", "h1");
		add(st, 1, "warlord", "h8");
		add(st, 0, "wizard", k ? "b1" : "a1");
		hinf = add(st, 0, "infantry", "f4");
		o = add(st, 1, "orcs", "f5");
		cw_link(st, hinf, o);
		st->turn_seat = 1;
		st->phase = CW_PH_MELEE;
		json_object *ord = json_tokener_parse("{\"protection\":\"never\"}");
		struct wr_error oerr;
		CHECK(cw_ruleset.set_orders(st, 0, ord, &oerr) == 0, "standing order");
		json_object_put(ord);
		row(k ? R "C9 Heal (provisional): a wizard 4 squares away may heal: asked"
		      : R "C9 Heal (provisional): a wizard 5 squares away cannot heal: not asked");
		ok(st, 1, "{\"type\":\"attack\",\"from\":\"f5\",\"target\":\"f4\"}", D(6));
		CHECK((st->pending == CW_PEND_HEAL) == k && dead(st, hinf), row_name);
		free(st);
	}

	st = pos(CW_ARMY_HUMANS, CW_ARMY_UNDEAD, 8, 8);
	add(st, 0, "general", "h1");
	add(st, 1, "liche", "h8");
	int fa = add(st, 0, "infantry", "a4");
	int fd = add(st, 1, "zombies", "a5");
	add(st, 1, "zombies", "b4");
	cw_link(st, fa, fd);
	st->phase = CW_PH_MELEE;
	row(T "Melee: a natural 6 against a scary defender by a non-brave attacker is result 5 "
	      "(the zombies, brave, save once: 4+ fails on 1); a follow-up is owed");
	ok(st, 0, "{\"type\":\"attack\",\"from\":\"a4\",\"target\":\"a5\"}", D(6, 1));
	CHECK(dead(st, fd) && st->pending == CW_PEND_FOLLOWUP, row_name);
	row(R "C5, C8: a non-brave unit's follow-up charge at a Scary target saves first; a "
	      "failure stops it");
	ok(st, 0, "{\"type\":\"charge\",\"from\":\"a4\",\"target\":\"b4\"}", D(1));
	CHECK(!cw_in_melee(st, fa) && has_event("charge_failed"), row_name);
	free(st);

	st = pos(CW_ARMY_HUMANS, CW_ARMY_ORCS, 8, 8);
	add(st, 0, "general", "a1");
	add(st, 1, "warlord", "h8");
	row(R "C4: on the enemy's turn a seat acts only by instant spells (the mover is awaited)");
	refused(st, 1, "{\"type\":\"end_phase\"}", "not-awaited");
	refused(st, 1, "{\"type\":\"move\",\"from\":\"h8\",\"to\":\"h7\"}", "not-awaited");
	free(st);
}

int
main(void)
{
	armies_data();
	building();
	initiative_tie();
	movement();
	teleport_one_search();
	charges();
	line_of_sight_figure();
	shooting();
	catapults();
	melee();
	c8_amended();
	c9_amended();
	old_snapshot();
	saves();
	spells();
	endings();
	expansion();
	multiple_armies();
	audit_rows();
	wr_events_free(&last_ev);
	wr_list_free(&sink);
	printf("cw_table: %d rule rows\n", rows);
	return check_done("cw_table");
}
