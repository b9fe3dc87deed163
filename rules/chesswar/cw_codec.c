/*
 * ChessWar's JSON: options, create, the snapshot (save/load), the view per
 * viewer (G5: the other seat's army and deployment stay hidden until both
 * are in), action parsing and encoding, events, standing orders, and the
 * wr_ruleset and wr_template tables. No rule is decided here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chesswar.h"
#include "cw_json.h"

static const char *const phase_name[] = {"setup", "first", "movement", "shooting", "melee",
                                         "over"};
static const char *const stage_name[] = {"army", "build", "deploy", "done"};
static const char *const ustate_name[] = {"empty", "reserve", "on", "dead"};
static const char *const when_name[] = {"move", "shoot", "melee", "instant"};
static const char *const mod_name[] = {"", "moved", "range 3+", "indirect", "storm"};
static const char *const order_name[] = {"ask", "always", "never", "spells"};


/* ----------------------------------------------------------- options */

static json_object *
opt(const char *type, json_object *def, int min, int max, const char *desc)
{
	json_object *o = json_object_new_object();
	put(o, "type", jstr(type));
	put(o, "default", def);
	if (min <= max) {
		put(o, "minimum", jint(min));
		put(o, "maximum", jint(max));
	}
	put(o, "description", jstr(desc));
	return o;
}

static json_object *
cw_options(void)
{
	json_object *o = json_object_new_object();
	put(o, "total_massacre",
	    opt("boolean", json_object_new_boolean(0), 1, 0,
	        "Total massacre: play until one side is wiped out, not until a general dies; an "
	        "Undead army without its Liche loses one unit of its choice each turn (C10)"));
	put(o, "board_files",
	    opt("integer", jint(8), 8, 16,
	        "Files of a larger board (C11; catapult range is then 8 squares); three or four "
	        "armies: at least 12, 12 unless set"));
	put(o, "board_ranks",
	    opt("integer", jint(8), 8, 16,
	        "Ranks of a larger board (C11; catapult range is then 8 squares); three or four "
	        "armies: at least 12, 12 unless set"));
	put(o, "forest",
	    opt("array", json_object_new_array(), 1, 0,
	        "Forest squares, e.g. [\"d4\",\"e4\"]: block sight like a unit, can be moved "
	        "into, +1 saves against ranged attacks, no assault bonus against a unit in it "
	        "(C11)"));
	put(o, "hills",
	    opt("array", json_object_new_array(), 1, 0,
	        "Hill squares: block sight; a unit on a hill sees over units, and is seen (C11)"));
	return o;
}

static int
parse_squares(json_object *o, const char *key, const struct wr_board *b, uint8_t *terrain,
              int type, struct wr_error *err)
{
	json_object *arr;
	if (!json_object_object_get_ex(o, key, &arr))
		return 0;
	if (!json_object_is_type(arr, json_type_array))
		return wr_fail(err, "wrong-type", key, "%s: an array of squares", key);
	if (json_object_array_length(arr) > CW_MAX_SQ)
		return wr_fail(err, "out-of-range", key, "%s: too many squares", key);
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		json_object *v = json_object_array_get_idx(arr, i);
		int sq = json_object_is_type(v, json_type_string)
		                 ? wr_square_parse(b, json_object_get_string(v))
		                 : WR_NO_SQUARE;
		if (sq == WR_NO_SQUARE)
			return wr_fail(err, "not-a-square", key, "%s: an entry is not a square", key);
		if (terrain[sq] != CW_T_OPEN)
			return wr_fail(err, "terrain-overlap", key, "a square has two terrains");
		terrain[sq] = (uint8_t)type;
	}
	return 0;
}

/* Three or four armies (the expansion's "multiple armies"): a board of at
 * least 12x12 (12x12 unless set) and total massacre always. */
static int
parse_options(json_object *o, int seats, struct cw_opts *out, struct wr_error *err)
{
	static const char *const known[] = {"total_massacre", "board_files", "board_ranks",
	                                    "forest", "hills", NULL};
	int side = seats > 2 ? CW_WIDE_MIN : 8;
	struct wr_board b;
	memset(out, 0, sizeof(*out));
	out->seats = seats;
	out->files = out->ranks = side;
	out->total_massacre = seats > 2;
	if (o && !json_object_is_type(o, json_type_object))
		return wr_fail(err, "wrong-type", "", "options: an object");
	if (o && (wr_json_only(o, known, err) != 0 ||
	          wr_json_bool(o, "total_massacre", 0, seats > 2, &out->total_massacre, err) != 0 ||
	          wr_json_int(o, "board_files", 8, CW_MAX_FILES, 0, side, &out->files, err) != 0 ||
	          wr_json_int(o, "board_ranks", 8, CW_MAX_RANKS, 0, side, &out->ranks, err) != 0))
		return -1;
	if (seats > 2 && (out->files < CW_WIDE_MIN || out->ranks < CW_WIDE_MIN))
		return wr_fail(err, "board-too-small", "board_files",
		               "three or four armies need a board of at least %dx%d", CW_WIDE_MIN,
		               CW_WIDE_MIN);
	if (seats > 2 && !out->total_massacre)
		return wr_fail(err, "total-massacre", "total_massacre",
		               "three or four armies play total massacre (\"Total massacre rules "
		               "should be used\")");
	if (!o) {
		out->catapult_range = (out->files > 8 || out->ranks > 8) ? 8 : 0;
		return 0;
	}
	b.files = out->files;
	b.ranks = out->ranks;
	if (parse_squares(o, "forest", &b, out->terrain, CW_T_FOREST, err) != 0 ||
	    parse_squares(o, "hills", &b, out->terrain, CW_T_HILL, err) != 0)
		return -1;
	/* "If using a larger game board, catapult range should be limited to 8" */
	out->catapult_range = (out->files > 8 || out->ranks > 8) ? 8 : 0;
	return 0;
}

static int
cw_create(json_object *options, int seats, struct wr_rng *rng, void **state,
          struct wr_error *err)
{
	struct cw_opts o;
	struct cw_state *st;
	(void)rng;
	if (seats < 2 || seats > CW_SEATS)
		return wr_fail(err, "bad-seats", "seats", "ChessWar is for two to four players");
	if (parse_options(options, seats, &o, err) != 0)
		return -1;
	st = calloc(1, sizeof(*st));
	if (!st)
		return wr_fail(err, "internal", "", "out of memory");
	cw_init(st, &o);
	*state = st;
	return 0;
}

/* ---------------------------------------------------------- snapshot */

/* -------------------------------------------------------------- view */

static json_object *
unit_def_json(const struct cw_unit_def *d)
{
	json_object *o = json_object_new_object(), *sp = json_object_new_array();
	put(o, "unit", jstr(d->slug));
	put(o, "name", jstr(d->name));
	put(o, "piece", json_object_new_string_len(&d->piece, 1));
	put(o, "max", jint(d->max));
	put(o, "cost", jint(d->cost));
	put(o, "move", jint(d->move));
	put(o, "save", jint(d->save));
	put(o, "melee", jint(d->melee));
	for (int k = 0; k < CW_SP_COUNT; k++)
		if (d->special & (1u << k))
			json_object_array_add(sp, jstr(cw_special_name[k]));
	put(o, "special", sp);
	put(o, "weapon", d->weapon ? jstr(cw_weapons[d->weapon].slug) : NULL);
	if (d->weapon && cw_weapons[d->weapon].kind == CW_WK_BOW)
		put(o, "skill", jint(d->skill));
	sp = json_object_new_array();
	for (int k = 0; k < CW_SPELL_MAX; k++)
		if (d->spells & (1u << k))
			json_object_array_add(sp, jstr(cw_spells[k].slug));
	put(o, "spells", sp);
	return o;
}

static json_object *
army_lists(void)
{
	json_object *arr = json_object_new_array();
	for (int a = 0; a < CW_ARMY_MAX; a++) {
		json_object *o = json_object_new_object(), *u = json_object_new_array();
		put(o, "army", jstr(cw_armies[a].slug));
		put(o, "name", jstr(cw_armies[a].name));
		put(o, "initiative", jint(cw_armies[a].initiative));
		put(o, "points", jint(cw_armies[a].points));
		for (int t = 0; t < cw_armies[a].ntypes; t++)
			json_object_array_add(u, unit_def_json(&cw_armies[a].units[t]));
		put(o, "units", u);
		json_object_array_add(arr, o);
	}
	return arr;
}

static json_object *
spell_list(void)
{
	json_object *arr = json_object_new_array();
	for (int s = 0; s < CW_SPELL_MAX; s++) {
		json_object *o = json_object_new_object();
		put(o, "spell", jstr(cw_spells[s].slug));
		put(o, "name", jstr(cw_spells[s].name));
		put(o, "when", jstr(when_name[cw_spells[s].when]));
		put(o, "temporal", json_object_new_boolean(cw_spells[s].temporal));
		put(o, "source", jstr(cw_spells[s].text ? "text" : "provisional"));
		put(o, "rule", jstr(cw_spells[s].rule));
		json_object_array_add(arr, o);
	}
	return arr;
}

static json_object *
unit_ref(const struct cw_state *st, int id, int type, int sq)
{
	json_object *o = json_object_new_object();
	int seat = cw_seat_of(id), army = st->side[seat].army;
	put(o, "id", jint(id));
	put(o, "seat", jint(seat));
	put(o, "unit", army >= 0 && type >= 0 ? jstr(cw_armies[army].units[type].slug) : NULL);
	put(o, "square", jsq(st, sq));
	return o;
}

static int
side_visible(const struct cw_state *st, int seat, int viewer)
{
	return viewer == WR_EVERYONE || viewer == seat || st->phase != CW_PH_SETUP;
}

static json_object *
spell_order_json(int order, unsigned mask)
{
	json_object *a;
	if (order != 3)
		return jstr(order_name[order]);
	a = json_object_new_array();
	for (int s = 0; s < CW_SPELL_MAX; s++)
		if ((mask >> s) & 1)
			json_object_array_add(a, jstr(cw_spells[s].slug));
	return a;
}

static json_object *
orders_json(const struct cw_side *sd)
{
	json_object *o = json_object_new_object();
	put(o, "counterspell", spell_order_json(sd->counter_order, sd->counter_mask));
	put(o, "dispel", spell_order_json(sd->dispel_order, sd->dispel_mask));
	put(o, "heal", jstr(order_name[sd->heal_order]));
	put(o, "protection", jstr(order_name[sd->protect_order]));
	return o;
}

/* A pending decision of the view: {kind, seat, ..., prompt}. */
static json_object *
pending_json(const char *kind, int seat)
{
	json_object *p = json_object_new_object();
	put(p, "kind", jstr(kind));
	put(p, "seat", jint(seat));
	return p;
}

/* The decision `pending` waits for, as the match page reads it: {seat,
 * kind, prompt, ...}, or NULL. A Counterspell against a reaction carries
 * the question that reaction answered ("under"). */
static json_object *
pending_view(const struct cw_state *st, int pending)
{
	json_object *p = NULL;
	char prompt[160];
	if (pending == CW_PEND_FOLLOWUP) {
		p = pending_json("follow_up", st->turn_seat);
		put(p, "unit", jsq(st, st->u[st->pend_unit].sq));
		put(p, "emptied", jsq(st, st->pend_from));
		snprintf(prompt, sizeof(prompt),
		         "the unit that won may advance, charge again or hold");
	} else if (pending == CW_PEND_COUNTER) {
		p = pending_json("counterspell", st->react_seat);
		put(p, "spell", jstr(cw_spells[st->cast.spell].slug));
		put(p, "caster", jsq(st, st->cast.unit));
		snprintf(prompt, sizeof(prompt), "counter %s (4+) or allow it",
		         cw_spells[st->cast.spell].name);
	} else if (pending == CW_PEND_PROTECT) {
		int t = cw_protect_target(st);
		p = pending_json("protection", cw_seat_of(t));
		put(p, "attacker", jsq(st, st->nhitq > 0 ? st->shot_from : st->held.unit));
		put(p, "target", jsq(st, st->u[t].sq));
		snprintf(prompt, sizeof(prompt), "%s",
		         st->nhitq > 0 ? "cast Protection (+1 saves) on the unit hit, before its save, or not"
		                       : "cast Protection (+1 saves) on the unit attacked, or not");
	} else if (pending == CW_PEND_DISPEL) {
		const struct cw_effect *fx = &st->fx[st->dispel_fx];
		p = pending_json("dispel", st->react_seat);
		put(p, "spell", jstr(cw_spells[fx->spell].slug));
		put(p, "caster", jsq(st, st->u[fx->caster].sq));
		snprintf(prompt, sizeof(prompt), "dispel %s, just cast, or not",
		         cw_spells[fx->spell].name);
		/* a Protection cast in answer: the save or attack it answered */
		if (st->protect_after)
			put(p, "after", pending_view(st, CW_PEND_PROTECT));
	} else if (pending == CW_PEND_HEAL) {
		p = pending_json("heal", st->heal_seat);
		snprintf(prompt, sizeof(prompt),
		         "Heal (4+) a unit just destroyed, or let it fall");
	} else if (pending == CW_PEND_SACRIFICE) {
		p = pending_json("sacrifice", st->turn_seat);
		snprintf(prompt, sizeof(prompt), "choose the undead unit that is lost");
	} else if (pending == CW_PEND_RCOUNTER) {
		int w = cw_unit_at(st, st->rx.unit), sp = cw_react_spell(st->rx.type);
		p = pending_json("counter_reaction", st->rx_seat);
		put(p, "spell", jstr(cw_spells[sp].slug));
		put(p, "caster", jsq(st, st->rx.unit));
		put(p, "target", st->rx.to >= 0 ? jsq(st, st->rx.to) : NULL);
		put(p, "under", pending_view(st, st->rx.type == CW_A_PROTECT ? CW_PEND_PROTECT
		                                 : st->rx.type == CW_A_DISPEL ? CW_PEND_DISPEL
		                                                              : CW_PEND_HEAL));
		snprintf(prompt, sizeof(prompt), "counter the %s just cast by %s (4+) or allow it",
		         cw_spells[sp].name, w != CW_NONE ? cw_def(st, w)->name : "the other side");
	}
	if (p)
		put(p, "prompt", jstr(prompt));
	return p;
}

static json_object *
cw_view(const void *state, int viewer)
{
	const struct cw_state *st = state;
	json_object *o = json_object_new_object(), *arr, *f, *h;
	int nsq = st->o.files * st->o.ranks;

	put(o, "board", json_object_new_object());
	put(json_object_object_get(o, "board"), "files", jint(st->o.files));
	put(json_object_object_get(o, "board"), "ranks", jint(st->o.ranks));
	f = json_object_new_array();
	h = json_object_new_array();
	for (int i = 0; i < nsq; i++) {
		if (st->o.terrain[i] == CW_T_FOREST)
			json_object_array_add(f, jsq(st, i));
		if (st->o.terrain[i] == CW_T_HILL)
			json_object_array_add(h, jsq(st, i));
	}
	put(o, "forest", f);
	put(o, "hills", h);
	put(o, "total_massacre", json_object_new_boolean(st->o.total_massacre));
	put(o, "catapult_range", st->o.catapult_range ? jint(st->o.catapult_range) : NULL);
	put(o, "phase", jstr(phase_name[st->phase]));
	put(o, "round", jint(st->round));
	put(o, "turn_seat", st->phase >= CW_PH_MOVE ? jint(st->turn_seat) : NULL);
	put(o, "first_seat", st->first_seat >= 0 ? jint(st->first_seat) : NULL);
	put(o, "rolloff_winner",
	    st->phase == CW_PH_FIRST ? jint(st->rolloff_winner) : NULL);
	{
		/* pending decisions, as the match page reads them: [{seat, kind, prompt}] */
		json_object *arr2 = json_object_new_array(), *p = pending_view(st, st->pending);
		if (p)
			json_object_array_add(arr2, p);
		put(o, "pending", arr2);
	}
	put(o, "last_moved",
	    st->last_moved >= 0 ? jsq(st, st->u[st->last_moved].sq) : NULL);
	if (st->shot_from >= 0) {
		json_object *sh = json_object_new_object();
		put(sh, "from", jsq(st, st->shot_from));
		put(sh, "aim", jsq(st, st->shot_aim));
		put(sh, "lands", jsq(st, st->shot_land));
		put(o, "last_shot", sh);
	} else {
		put(o, "last_shot", NULL);
	}
	put(o, "seats", jint(st->nseats));
	arr = json_object_new_array();
	for (int i = 0; i < st->nseats && st->first_seat >= 0; i++)
		json_object_array_add(arr, jint(st->order[i]));
	put(o, "order", arr);
	arr = json_object_new_array();
	for (int s = 0; s < st->nseats; s++) {
		const struct cw_side *sd = &st->side[s];
		json_object *so = json_object_new_object();
		put(so, "seat", jint(s));
		put(so, "out", json_object_new_boolean((st->out >> s) & 1));
		if (!side_visible(st, s, viewer)) {
			put(so, "hidden", json_object_new_boolean(1));
			put(so, "set_up", json_object_new_boolean(sd->stage == CW_STAGE_DONE));
		} else {
			json_object *c = json_object_new_object();
			put(so, "hidden", json_object_new_boolean(0));
			put(so, "set_up", json_object_new_boolean(sd->stage == CW_STAGE_DONE));
			put(so, "stage", jstr(stage_name[sd->stage]));
			put(so, "army", sd->army >= 0 ? jstr(cw_armies[sd->army].slug) : NULL);
			if (sd->army >= 0) {
				put(so, "points", jint(cw_armies[sd->army].points));
				put(so, "spent", jint(sd->spent));
				put(so, "initiative", jint(cw_armies[sd->army].initiative));
				for (int t = 1; t < cw_armies[sd->army].ntypes; t++)
					put(c, cw_armies[sd->army].units[t].slug, jint(sd->counts[t]));
			}
			put(so, "counts", c);
			put(so, "general_alive", json_object_new_boolean(cw_general_alive(st, s)));
			if (viewer == s || viewer == WR_EVERYONE)
				put(so, "orders", orders_json(sd));
		}
		json_object_array_add(arr, so);
	}
	put(o, "sides", arr);
	arr = json_object_new_array();
	for (int i = 0; i < CW_UNITS; i++) {
		const struct cw_unit *u = &st->u[i];
		int s = cw_seat_of(i);
		json_object *uo, *ml;
		if (u->status == CW_U_EMPTY || !side_visible(st, s, viewer))
			continue;
		const struct cw_unit_def *d = cw_def(st, i);
		uo = json_object_new_object();
		put(uo, "id", jint(i));
		put(uo, "seat", jint(s));
		put(uo, "unit", jstr(d->slug));
		put(uo, "name", jstr(d->name));
		put(uo, "piece", json_object_new_string_len(&d->piece, 1));
		put(uo, "status", jstr(ustate_name[u->status]));
		put(uo, "square", u->status == CW_U_RESERVE ? NULL : jsq(st, u->sq));
		put(uo, "moved", json_object_new_boolean(u->moved));
		put(uo, "done_moving", json_object_new_boolean(u->done_moving));
		put(uo, "charged", json_object_new_boolean(u->charged));
		put(uo, "shot", json_object_new_boolean(u->shot));
		put(uo, "attacked", json_object_new_boolean(u->attacked));
		put(uo, "cast", json_object_new_boolean(u->cast));
		put(uo, "dying", json_object_new_boolean(u->dying));
		put(uo, "scary", json_object_new_boolean(u->status == CW_U_ON && cw_is_scary(st, i)));
		put(uo, "plague", json_object_new_boolean(cw_has_plague(st, i)));
		ml = json_object_new_array();
		for (int j = 0; j < CW_UNITS; j++)
			if ((u->link >> j) & 1)
				json_object_array_add(ml, jsq(st, st->u[j].sq));
		put(uo, "melee", ml);
		json_object_array_add(arr, uo);
	}
	put(o, "units", arr);
	arr = json_object_new_array();
	for (int i = 0; i < st->nfx; i++) {
		json_object *fo = json_object_new_object();
		put(fo, "index", jint(i));
		put(fo, "spell", jstr(cw_spells[st->fx[i].spell].slug));
		put(fo, "seat", jint(cw_seat_of(st->fx[i].caster)));
		put(fo, "caster", jsq(st, st->u[st->fx[i].caster].sq));
		put(fo, "target", st->fx[i].target >= 0 ? jsq(st, st->u[st->fx[i].target].sq) : NULL);
		json_object_array_add(arr, fo);
	}
	put(o, "effects", arr);
	put(o, "winner", st->phase == CW_PH_OVER && st->winner >= 0 ? jint(st->winner) : NULL);
	put(o, "reason", st->phase == CW_PH_OVER ? jstr(st->reason) : NULL);
	put(o, "army_lists", army_lists());
	put(o, "spells", spell_list());
	return o;
}

/* ----------------------------------------------------------- actions */

/* A unit type's slug, `key`, into a->utype (resolved with the acting
 * seat's army by legal()). */
static int
utype_field(json_object *j, const char *key, struct cw_action *a, struct wr_error *err)
{
	const char *s;
	if (wr_json_string(j, key, 1, &s, err))
		return -1;
	if (strlen(s) >= sizeof(a->utype))
		return wr_fail(err, "unknown-unit", key, "no such unit");
	snprintf(a->utype, sizeof(a->utype), "%s", s);
	return 0;
}

static int
sq_field(const struct cw_state *st, json_object *j, const char *key, int required, int *out,
         struct wr_error *err)
{
	json_object *v;
	*out = CW_NONE;
	if (!json_object_object_get_ex(j, key, &v)) {
		if (required)
			return wr_fail(err, "missing-field", key, "%s is required", key);
		return 0;
	}
	return wr_json_square(j, key, &st->board, out, err);
}

/* The acting unit's square: "from" (as listed), or "unit" as an alias. */
static int
unit_field(const struct cw_state *st, json_object *j, int *out, struct wr_error *err)
{
	json_object *v;
	if (json_object_object_get_ex(j, "from", &v))
		return sq_field(st, j, "from", 1, out, err);
	return sq_field(st, j, "unit", 1, out, err);
}

static int
cw_parse(const void *state, json_object *j, void *action, struct wr_error *err)
{
	static const char *const known[] = {"type", "army", "unit", "from", "count", "square", "to",
	                                    "path", "target", "first", "spell", "effect",
	                                    "raise", NULL};
	const struct cw_state *st = state;
	struct cw_action *a = action;
	const char *type, *s;
	json_object *v;
	int t = CW_NONE;

	memset(a, 0, sizeof(*a));
	a->army = a->unit = a->to = a->spell = a->effect = a->target2 = CW_NONE;
	a->count = 1;
	if (!json_object_is_type(j, json_type_object))
		return wr_fail(err, "wrong-type", "", "an action is a JSON object");
	if (wr_json_only(j, known, err) || wr_json_string(j, "type", 1, &type, err))
		return -1;
	for (int i = 0; i < CW_A_MAX; i++)
		if (strcmp(type, cw_act_name[i]) == 0)
			t = i;
	if (t == CW_NONE)
		return wr_fail(err, "unknown-action", "type", "unknown action type");
	a->type = t;
	switch (t) {
	case CW_A_ARMY:
		if (wr_json_string(j, "army", 1, &s, err))
			return -1;
		a->army = cw_army_lookup(s);
		if (a->army == CW_NONE)
			return wr_fail(err, "unknown-army", "army",
			               "armies: chaos, dwarves, elfs, humans, orcs, ratmen, undead");
		return 0;
	case CW_A_BUY:
	case CW_A_SELL:
	case CW_A_DEPLOY:
		if (utype_field(j, "unit", a, err))
			return -1;
		if (t == CW_A_DEPLOY)
			return sq_field(st, j, "square", 1, &a->to, err);
		return wr_json_int(j, "count", 1, 24, 0, 1, &a->count, err);
	case CW_A_UNDEPLOY:
		return sq_field(st, j, "square", 1, &a->to, err);
	case CW_A_FIRST:
		return wr_json_bool(j, "first", 1, 0, &a->first, err);
	case CW_A_MOVE:
		if (unit_field(st, j, &a->unit, err))
			return -1;
		if (json_object_object_get_ex(j, "path", &v)) {
			if (!json_object_is_type(v, json_type_array) || json_object_array_length(v) < 1 ||
			    json_object_array_length(v) > CW_MAX_PATH)
				return wr_fail(err, "bad-path", "path", "path: 1 to %d squares",
				               CW_MAX_PATH);
			a->npath = (int)json_object_array_length(v);
			for (int i = 0; i < a->npath; i++) {
				json_object *x = json_object_array_get_idx(v, (size_t)i);
				a->path[i] = json_object_is_type(x, json_type_string)
				                     ? wr_square_parse(&st->board, json_object_get_string(x))
				                     : WR_NO_SQUARE;
				if (a->path[i] == WR_NO_SQUARE)
					return wr_fail(err, "not-a-square", "path",
					               "path: an entry is not a square");
			}
		}
		if (sq_field(st, j, "to", a->npath == 0, &a->to, err))
			return -1;
		if (a->npath && a->to == CW_NONE)
			a->to = a->path[a->npath - 1];
		if (a->npath && a->to != a->path[a->npath - 1])
			return wr_fail(err, "bad-path", "path", "the path does not end at \"to\"");
		return 0;
	case CW_A_CHARGE:
	case CW_A_SHOOT:
	case CW_A_ATTACK:
		if (unit_field(st, j, &a->unit, err))
			return -1;
		return sq_field(st, j, "target", 1, &a->to, err);
	case CW_A_ADVANCE:
		if (unit_field(st, j, &a->unit, err))
			return -1;
		return sq_field(st, j, "to", 1, &a->to, err);
	case CW_A_HOLD:
	case CW_A_COUNTER:
	case CW_A_SACRIFICE:
	case CW_A_DISPEL:
		return unit_field(st, j, &a->unit, err);
	case CW_A_HEAL:
	case CW_A_PROTECT:
		if (unit_field(st, j, &a->unit, err))
			return -1;
		return sq_field(st, j, "target", 1, &a->to, err);
	case CW_A_CAST:
		if (unit_field(st, j, &a->unit, err) || wr_json_string(j, "spell", 1, &s, err))
			return -1;
		a->spell = cw_spell_lookup(s);
		if (a->spell == CW_NONE)
			return wr_fail(err, "unknown-spell", "spell", "no such spell");
		switch (cw_spells[a->spell].target) {
		case CW_ST_ENEMY_SEEN:
		case CW_ST_OWN:
		case CW_ST_OWN_MELEE:
			return sq_field(st, j, "target", 1, &a->to, err);
		case CW_ST_FLIGHT:
			if (sq_field(st, j, "target", 1, &a->to, err))
				return -1;
			return sq_field(st, j, "to", 1, &a->target2, err);
		case CW_ST_RAISE:
			if (utype_field(j, "raise", a, err))
				return -1;
			return sq_field(st, j, "to", 1, &a->to, err);
		case CW_ST_EFFECT:
			return wr_json_int(j, "effect", 0, CW_MAX_FX - 1, 1, 0, &a->effect, err);
		default:
			return 0;
		}
	default:
		return 0;
	}
}

static void
cw_action_out(const void *state, const void *action, struct wr_out *w)
{
	const struct cw_state *st = state;
	const struct cw_action *a = action;
	const struct wr_board *b = &st->board;

	wr_out_obj(w, NULL);
	wr_out_str(w, "type", cw_act_name[a->type]);
	switch (a->type) {
	case CW_A_ARMY:
		wr_out_str(w, "army", cw_armies[a->army].slug);
		break;
	case CW_A_BUY:
	case CW_A_SELL:
		wr_out_str(w, "unit", a->utype);
		if (a->count != 1)
			wr_out_int(w, "count", a->count);
		break;
	case CW_A_DEPLOY:
		wr_out_str(w, "unit", a->utype);
		wr_out_sq(w, "square", b, a->to);
		break;
	case CW_A_UNDEPLOY:
		wr_out_sq(w, "square", b, a->to);
		break;
	case CW_A_FIRST:
		wr_out_bool(w, "first", a->first);
		break;
	case CW_A_MOVE:
	case CW_A_ADVANCE:
		wr_out_sq(w, "from", b, a->unit);
		wr_out_sq(w, "to", b, a->to);
		if (a->npath) {
			wr_out_arr(w, "path");
			for (int i = 0; i < a->npath; i++)
				wr_out_sq(w, NULL, b, a->path[i]);
			wr_out_end(w);
		}
		break;
	case CW_A_CHARGE:
	case CW_A_SHOOT:
	case CW_A_ATTACK:
		wr_out_sq(w, "from", b, a->unit);
		wr_out_sq(w, "target", b, a->to);
		break;
	case CW_A_HOLD:
	case CW_A_COUNTER:
	case CW_A_SACRIFICE:
	case CW_A_DISPEL:
		wr_out_sq(w, "from", b, a->unit);
		break;
	case CW_A_HEAL:
	case CW_A_PROTECT:
		wr_out_sq(w, "from", b, a->unit);
		wr_out_sq(w, "target", b, a->to);
		break;
	case CW_A_CAST:
		wr_out_sq(w, "from", b, a->unit);
		wr_out_str(w, "spell", cw_spells[a->spell].slug);
		switch (cw_spells[a->spell].target) {
		case CW_ST_ENEMY_SEEN:
		case CW_ST_OWN:
		case CW_ST_OWN_MELEE:
			wr_out_sq(w, "target", b, a->to);
			break;
		case CW_ST_FLIGHT:
			wr_out_sq(w, "target", b, a->to);
			wr_out_sq(w, "to", b, a->target2);
			break;
		case CW_ST_RAISE:
			wr_out_str(w, "raise", a->utype);
			wr_out_sq(w, "to", b, a->to);
			break;
		case CW_ST_EFFECT:
			wr_out_int(w, "effect", a->effect);
			break;
		default:
			break;
		}
		break;
	default:
		break;
	}
	wr_out_end(w);
}

/* ------------------------------------------------------------ events */

static json_object *
cw_event_json(const void *state, const void *event, unsigned *visible_to)
{
	const struct cw_state *st = state;
	const struct cw_event *e = event;
	json_object *o = json_object_new_object();
	*visible_to = e->vis;
	put(o, "type", jstr(cw_ev_name[e->type]));
	if (e->seat >= 0)
		put(o, "seat", jint(e->seat));
	if (e->unit >= 0)
		put(o, "unit", unit_ref(st, e->unit, e->utype, e->usq));
	if (e->other >= 0 && e->type != CW_E_CAST)
		put(o, "target", unit_ref(st, e->other, e->otype, e->osq));
	if (e->nfaces) {
		json_object *f = json_object_new_array();
		for (int i = 0; i < e->nfaces; i++)
			json_object_array_add(f, jint(e->faces[i]));
		put(o, "dice", f);
	}
	switch (e->type) {
	case CW_E_ARMY:
	case CW_E_READY:
		put(o, "army", jstr(cw_armies[e->army].slug));
		if (e->type == CW_E_READY)
			put(o, "units", jint(e->value));
		break;
	case CW_E_BUY:
	case CW_E_SELL:
		put(o, "unit", jstr(cw_armies[e->army].units[e->utype].slug));
		put(o, "count", jint(e->value));
		break;
	case CW_E_REVEAL: {
		json_object *arr = json_object_new_array();
		for (int s = 0; s < st->nseats; s++) {
			json_object *so = json_object_new_object(), *u = json_object_new_array();
			put(so, "seat", jint(s));
			put(so, "army", st->side[s].army >= 0 ? jstr(cw_armies[st->side[s].army].slug) : NULL);
			for (int k = 0; k < CW_UPS; k++) {
				int id = s * CW_UPS + k;
				if (st->u[id].status != CW_U_EMPTY)
					json_object_array_add(u, unit_ref(st, id, st->u[id].type, st->u[id].sq));
			}
			put(so, "units", u);
			json_object_array_add(arr, so);
		}
		put(o, "armies", arr);
		break;
	}
	case CW_E_TURN:
		put(o, "round", jint(e->value));
		break;
	case CW_E_PHASE:
		put(o, "phase", jstr(phase_name[e->value]));
		break;
	case CW_E_MOVE: {
		json_object *p = json_object_new_array();
		for (int i = 0; i < e->npath; i++)
			json_object_array_add(p, jsq(st, e->path[i]));
		put(o, "path", p);
		put(o, "to", jsq(st, e->sq));
		break;
	}
	case CW_E_SHOOT: {
		json_object *m = json_object_new_array();
		for (int i = 0; i < e->nmods; i++)
			json_object_array_add(m, jstr(mod_name[e->mods[i]]));
		put(o, "modifiers", m);
		put(o, "need", jint(e->need));
		put(o, "hit", json_object_new_boolean(e->ok));
		break;
	}
	case CW_E_SCATTER:
		put(o, "aim", jsq(st, e->sq));
		put(o, "lands", e->value >= 0 ? jsq(st, e->value) : NULL);
		put(o, "direct", json_object_new_boolean(e->ok));
		if (e->why[0])
			put(o, "miss", jstr(e->why));
		break;
	case CW_E_SAVE:
		put(o, "need", jint(e->need));
		put(o, "saved", json_object_new_boolean(e->ok));
		break;
	case CW_E_ATTACK:
		put(o, "total", jint(e->value));
		put(o, "result", jint(e->need));
		put(o, "assault", json_object_new_boolean(e->ok));
		break;
	case CW_E_CAST:
		put(o, "spell", jstr(cw_spells[e->spell].slug));
		if (e->spell == CW_SPELL_DISPEL && e->value >= 0)
			put(o, "dispels", jstr(cw_spells[e->value].slug));
		else if (e->sq >= 0)
			put(o, "at", jsq(st, e->sq));
		break;
	case CW_E_COUNTER:
		put(o, "spell", jstr(cw_spells[e->spell].slug));
		put(o, "need", jint(e->need));
		put(o, "countered", json_object_new_boolean(e->ok));
		break;
	case CW_E_SPELL_END:
		put(o, "spell", jstr(cw_spells[e->spell].slug));
		break;
	case CW_E_REGENERATE:
		put(o, "need", jint(e->need));
		put(o, "returns", json_object_new_boolean(e->ok));
		break;
	case CW_E_ADVANCE:
	case CW_E_FLIGHT:
		put(o, "to", jsq(st, e->sq));
		break;
	case CW_E_ROLLOFF:
		put(o, "winner", e->seat >= 0 ? jint(e->seat) : NULL);
		if (e->npath)
			put(o, "seats", wr_json_ints(e->path, e->npath));
		break;
	case CW_E_FIRST:
		if (e->npath)
			put(o, "order", wr_json_ints(e->path, e->npath));
		break;
	case CW_E_OVER:
		put(o, "winner", e->seat >= 0 ? jint(e->seat) : NULL);
		break;
	case CW_E_HEAL:
		put(o, "need", jint(e->need));
		put(o, "healed", json_object_new_boolean(e->ok));
		break;
	case CW_E_PLAGUE:
		if (e->ok)
			put(o, "immune", json_object_new_boolean(1));
		break;
	default:
		break;
	}
	if (e->why[0] && e->type != CW_E_SCATTER)
		put(o, "why", jstr(e->why));
	return o;
}

/* ------------------------------------------------------ the tables */

/* to_act: the server takes every forced action, after a post or a
 * resignation (RULINGS.md G3, amended). */
WR_TPL_TEMPLATE(cw, NULL)

/* A standing order about spells: "ask", "always", "never" (0-2) or a list
 * of spells (3, their bits in *mask). */
static int
spell_order(json_object *v, const char *field, int *order, unsigned *mask,
            struct wr_error *err)
{
	*order = -1;
	*mask = 0;
	if (json_object_is_type(v, json_type_string)) {
		for (int i = 0; i < 3; i++)
			if (strcmp(json_object_get_string(v), order_name[i]) == 0)
				*order = i;
	} else if (json_object_is_type(v, json_type_array) &&
	           json_object_array_length(v) <= CW_SPELL_MAX) {
		*order = 3;
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			json_object *x = json_object_array_get_idx(v, i);
			int sp = json_object_is_type(x, json_type_string)
			                 ? cw_spell_lookup(json_object_get_string(x))
			                 : CW_NONE;
			if (sp == CW_NONE)
				return wr_fail(err, "unknown-spell", field, "no such spell");
			*mask |= 1u << sp;
		}
	}
	if (*order < 0)
		return wr_fail(err, "bad-order", field, "%s: ask, always, never or a list of spells",
		               field);
	return 0;
}

/* Standing orders (G3, C9): {"counterspell": "ask" | "always" | "never" |
 * ["zap", "storm", ...]} (counter those spells only), {"heal": "ask" |
 * "always" | "never"}. Checked whole before anything is set. */
static int
cw_set_orders(void *state, int seat, json_object *orders, struct wr_error *err)
{
	static const char *const known[] = {"counterspell", "heal", "protection", "dispel", NULL};
	struct cw_state *st = state;
	json_object *v;
	int corder = -1, horder = -1, porder = -1, dorder = -1;
	unsigned mask = 0, dmask = 0;
	if (seat < 0 || seat >= st->nseats)
		return wr_fail(err, "no-such-seat", "", "no such seat");
	if (!json_object_is_type(orders, json_type_object))
		return wr_fail(err, "wrong-type", "", "orders: an object");
	if (wr_json_only(orders, known, err))
		return -1;
	if (json_object_object_get_ex(orders, "heal", &v)) {
		for (int i = 0; i < 3 && json_object_is_type(v, json_type_string); i++)
			if (strcmp(json_object_get_string(v), order_name[i]) == 0)
				horder = i;
		if (horder < 0)
			return wr_fail(err, "bad-order", "heal", "heal: ask, always or never");
	}
	if (json_object_object_get_ex(orders, "protection", &v)) {
		for (int i = 0; i < 3 && json_object_is_type(v, json_type_string); i++)
			if (strcmp(json_object_get_string(v), order_name[i]) == 0)
				porder = i;
		if (porder < 0)
			return wr_fail(err, "bad-order", "protection",
			               "protection: ask, always or never");
	}
	if (json_object_object_get_ex(orders, "counterspell", &v) &&
	    spell_order(v, "counterspell", &corder, &mask, err))
		return -1;
	if (json_object_object_get_ex(orders, "dispel", &v) &&
	    spell_order(v, "dispel", &dorder, &dmask, err))
		return -1;
	if (horder >= 0)
		st->side[seat].heal_order = horder;
	if (porder >= 0)
		st->side[seat].protect_order = porder;
	if (corder >= 0) {
		st->side[seat].counter_order = corder;
		st->side[seat].counter_mask = mask;
	}
	if (dorder >= 0) {
		st->side[seat].dispel_order = dorder;
		st->side[seat].dispel_mask = dmask;
	}
	return 0;
}

/* The seats still in play: not wiped out, not resigned (3-4 armies). */
static unsigned
cw_seats_in(const void *state)
{
	const struct cw_state *st = state;
	return ((1u << st->nseats) - 1) & ~st->out;
}

static void
cw_result(const void *state, struct wr_result *out)
{
	const struct cw_state *st = state;
	memset(out, 0, sizeof(*out));
	if (st->phase != CW_PH_OVER)
		return;
	out->over = 1;
	out->winners = st->winner >= 0 ? 1u << st->winner : 0;
	snprintf(out->reason, sizeof(out->reason), "%s", st->reason);
}

/* RULINGS.md G8 (amended): the turn's seat holds its phases while the
 * enemy answers with an instant spell (C9). */
static unsigned
cw_turn_of(const void *state)
{
	const struct cw_state *st = state;
	if (st->phase == CW_PH_MOVE || st->phase == CW_PH_SHOOT || st->phase == CW_PH_MELEE)
		return 1u << st->turn_seat;
	return cw_to_act(st);
}

WR_TPL_RULESET(cw, "chesswar", "ChessWar", "002_0478434554df57bb.txt", 2, CW_SEATS,
               .turn_of = cw_turn_of, .set_orders = cw_set_orders, .seats_in = cw_seats_in,
               .determinize = cw_determinize, .evaluate = cw_evaluate,
               .bot_skips = cw_bot_skips, .undo_barrier = cw_undo_barrier,
               .may_reveal = cw_may_reveal, .save_out = cw_save_out);
