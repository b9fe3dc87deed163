/*
 * Confrontation's codec: options and create, actions (JSON <-> struct
 * cf_action), events (struct cf_event -> JSON), standing orders, and the
 * wr_ruleset and wr_template tables. It decides no rule; the snapshot and
 * the view are in cf_state.c. README.md documents every shape here.
 * The top of the ruleset: it calls cf_state.c and the rule files, and
 * nothing in the folder calls into it.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cf_rules.h"

/* ----------------------------------------------------------- options */

static json_object *
cf_options(void)
{
	json_object *o = json_object_new_object();
	wr_json_put(o, "army_points", wr_json_option("integer", json_object_new_int(15), 5, 100,
	            NULL, 0, "Army points each seat spends (II. Setting Up, RULINGS.md R1)"));
	wr_json_put(o, "races", wr_json_option("boolean", json_object_new_boolean(0), 1, 0, NULL, 0,
	            "IX. Races: each army picks a race"));
	wr_json_put(o, "treasure", wr_json_option("boolean", json_object_new_boolean(0), 1, 0, NULL, 0,
	            "XI. Treasure: a 6 after defeating a Knight, Bishop or Queen"));
	wr_json_put(o, "kings_magic", wr_json_option("boolean", json_object_new_boolean(0), 1, 0,
	            NULL, 0, "XII. King's Magic: a King may buy one spell for 2 points"));
	wr_json_put(o, "terrain", wr_json_option("string", json_object_new_string("none"), 1, 0,
	            cf_tm_name, CF_TM_MAX,
	            "X. Terrain: none, random (the server draws it) or given (terrain_areas)"));
	wr_json_put(o, "terrain_areas", wr_json_option("array", json_object_new_array(), 1, 0, NULL, 0,
	            "with terrain=given: [{\"type\": \"barrier|counterspell|enhancement|rough\", "
	            "\"squares\": [4 or 8 squares joined by their sides]}], at most 8 areas, not "
	            "overlapping"));
	wr_json_put(o, "random_areas", wr_json_option("integer", json_object_new_int(2), 1, 4, NULL, 0,
	            "with terrain=random: how many areas the server draws"));
	return o;
}

static int
parse_areas(json_object *arr, int *terrain, struct wr_error *err)
{
	int n;
	if (!json_object_is_type(arr, json_type_array))
		return wr_fail(err, "wrong-type", "terrain_areas", "terrain_areas: must be an array");
	n = (int)json_object_array_length(arr);
	if (n < 1 || n > 8)
		return wr_fail(err, "out-of-range", "terrain_areas",
		               "terrain_areas: from 1 to 8 areas");
	for (int i = 0; i < n; i++) {
		static const char *const known[] = {"type", "squares", NULL};
		json_object *a = json_object_array_get_idx(arr, (size_t)i), *sqs;
		const char *ts;
		int type, sq[8], k;
		if (wr_json_only(a, known, err) != 0 || wr_json_string(a, "type", 1, &ts, err) != 0)
			return -1;
		type = cf_lookup(cf_terrain_name, CF_T_MAX, ts);
		if (type <= CF_T_NONE)
			return wr_fail(err, "unknown-terrain", "terrain_areas",
			               "unknown terrain \"%.24s\": barrier, counterspell, enhancement or "
			               "rough", ts);
		if (!json_object_object_get_ex(a, "squares", &sqs) ||
		    !json_object_is_type(sqs, json_type_array))
			return wr_fail(err, "missing-field", "terrain_areas", "an area needs squares");
		k = (int)json_object_array_length(sqs);
		if (k != 4 && k != 8)
			return wr_fail(err, "terrain-size", "terrain_areas",
			               "a terrain area has 4 or 8 squares, not %d (X. Terrain)", k);
		for (int j = 0; j < k; j++) {
			json_object *v = json_object_array_get_idx(sqs, (size_t)j);
			sq[j] = json_object_is_type(v, json_type_string)
			                ? wr_square_parse(CF_B8, json_object_get_string(v))
			                : WR_NO_SQUARE;
			if (sq[j] == WR_NO_SQUARE)
				return wr_fail(err, "not-a-square", "terrain_areas",
				               "terrain_areas: an entry is not a square of the board");
		}
		if (cf_terrain_check(sq, k, err) != 0)
			return -1;
		for (int j = 0; j < k; j++) {
			if (terrain[sq[j]] != CF_T_NONE)
				return wr_fail(err, "terrain-overlap", "terrain_areas",
				               "two terrain areas share a square");
			terrain[sq[j]] = type;
		}
	}
	return 0;
}

static int
parse_options(json_object *o, struct cf_opts *out, int *terrain, struct wr_error *err)
{
	static const char *const known[] = {"army_points", "races", "treasure", "kings_magic",
	                                    "terrain", "terrain_areas", "random_areas", NULL};
	const char *tm;
	json_object *areas = NULL;
	memset(out, 0, sizeof(*out));
	if (o && wr_json_only(o, known, err) != 0)
		return -1;
	if (!o) {
		out->points = 15;
		out->random_areas = 2;
		return 0;
	}
	if (wr_json_int(o, "army_points", 5, 100, 0, 15, &out->points, err) != 0 ||
	    wr_json_bool(o, "races", 0, 0, &out->races, err) != 0 ||
	    wr_json_bool(o, "treasure", 0, 0, &out->treasure, err) != 0 ||
	    wr_json_bool(o, "kings_magic", 0, 0, &out->kings_magic, err) != 0 ||
	    wr_json_int(o, "random_areas", 1, 4, 0, 2, &out->random_areas, err) != 0 ||
	    wr_json_string(o, "terrain", 0, &tm, err) != 0)
		return -1;
	out->terrain_mode = tm ? cf_lookup(cf_tm_name, CF_TM_MAX, tm) : CF_TM_NONE;
	if (out->terrain_mode < 0)
		return wr_fail(err, "unknown-terrain-mode", "terrain",
		               "terrain: none, random or given, not \"%.24s\"", tm);
	json_object_object_get_ex(o, "terrain_areas", &areas);
	if (out->terrain_mode == CF_TM_GIVEN) {
		if (!areas)
			return wr_fail(err, "missing-field", "terrain_areas",
			               "terrain=given needs terrain_areas");
		return parse_areas(areas, terrain, err);
	}
	if (areas && !(json_object_is_type(areas, json_type_array) &&
	               json_object_array_length(areas) == 0))
		return wr_fail(err, "terrain-areas-unused", "terrain_areas",
		               "terrain_areas is only for terrain=given");
	return 0;
}

/* ------------------------------------------------------------ create */

static int
cf_create(json_object *options, int seats, struct wr_rng *rng, void **state,
          struct wr_error *err)
{
	struct cf_opts o;
	int terrain[CF_NSQ] = {0};
	struct cf_state *st;
	struct wr_list ev;
	*state = NULL;
	if (seats < 2 || seats > WR_MAX_SEATS)
		return wr_fail(err, "seats", "seats",
		               "Confrontation is for 2 to 4 seats (VIII. Multi-Player Game)");
	if (options && !json_object_is_type(options, json_type_object))
		return wr_fail(err, "wrong-type", "", "options must be a JSON object");
	if (parse_options(options, &o, terrain, err) != 0)
		return -1;
	if (!(st = malloc(sizeof(*st))))
		return wr_fail(err, "no-memory", "", "out of memory");
	cf_init(st, &o, seats);
	memcpy(st->terrain, terrain, sizeof(terrain));
	if (o.terrain_mode == CF_TM_RANDOM)
		cf_random_terrain(st, rng);
	wr_list_init(&ev, sizeof(struct cf_event));
	cf_settle(st, rng, &ev);
	wr_list_free(&ev);
	*state = st;
	return 0;
}

/* ----------------------------------------------------------- actions */

/* The actions and events that are a run of plain fields, as descriptor
 * tables (rules/json.c, wr_json_put_fields), in the order they are written. */
#define AF(key, kind, member, names) {key, kind, offsetof(struct cf_action, member), names}
#define EF(key, kind, member, names) {key, kind, offsetof(struct cf_event, member), names}
static const struct wr_json_field a_buy[] = {AF("piece", WR_JF_NAME, piece_type, cf_type_name)};
static const struct wr_json_field a_add_spell[] = {
	AF("piece", WR_JF_INT, piece, NULL), AF("spell", WR_JF_NAME, spell, cf_spell_name)};
static const struct wr_json_field a_race[] = {AF("race", WR_JF_NAME, race, cf_race_name)};
static const struct wr_json_field a_spell[] = {AF("spell", WR_JF_NAME, spell, cf_spell_name)};
static const struct wr_json_field a_order[] = {AF("choice", WR_JF_NAME, choice, cf_choice_name)};
static const struct wr_json_field a_place[] = {
	AF("piece", WR_JF_INT, piece, NULL), AF("square", WR_JF_SQ, square, NULL)};
static const struct wr_json_field a_move[] = {
	AF("from", WR_JF_SQ, from, NULL), AF("to", WR_JF_SQ, to, NULL)};
static const struct wr_json_field a_leadership[] = {
	AF("a", WR_JF_SQ, from, NULL), AF("b", WR_JF_SQ, to, NULL)};
static const struct wr_json_field a_use[] = {AF("use", WR_JF_BOOL, use, NULL)};
static const struct wr_json_field a_square[] = {AF("square", WR_JF_SQ, square, NULL)};
static const struct wr_json_fields act_fields[CF_A_MAX] = {
	[CF_A_BUY] = WR_JF_LIST(a_buy),
	[CF_A_ADD_SPELL] = WR_JF_LIST(a_add_spell),
	[CF_A_RACE] = WR_JF_LIST(a_race),
	[CF_A_KING_SPELL] = WR_JF_LIST(a_spell),
	[CF_A_ORDER] = WR_JF_LIST(a_order),
	[CF_A_PLACE] = WR_JF_LIST(a_place),
	[CF_A_MOVE] = WR_JF_LIST(a_move),
	[CF_A_RISE] = WR_JF_LIST(a_move),
	[CF_A_SWIFT] = WR_JF_LIST(a_move),
	[CF_A_FURY] = WR_JF_LIST(a_move),
	[CF_A_LEADERSHIP] = WR_JF_LIST(a_leadership),
	[CF_A_HTL] = WR_JF_LIST(a_use),
	[CF_A_LUCK] = WR_JF_LIST(a_use),
	[CF_A_PANIC_SQ] = WR_JF_LIST(a_square),
};

static void
cf_action_out(const void *vst, const void *va, struct wr_out *w)
{
	const struct cf_action *a = va;
	(void)vst;
	wr_out_obj(w, NULL);
	wr_out_str(w, "type", cf_act_name[a->type]);
	wr_out_fields(w, a, act_fields[a->type].f, act_fields[a->type].n, CF_B8);
	switch (a->type) {
	case CF_A_CAST:
		wr_out_sq(w, "from", CF_B8, a->from);
		wr_out_str(w, "spell", cf_spell_name[a->spell]);
		if (a->spell == CF_HEAL) {
			wr_out_str(w, "revive", cf_type_name[a->revive]);
			wr_out_sq(w, "square", CF_B8, a->square);
		} else if (a->spell != CF_JUDGEMENT) {
			wr_out_sq(w, "target", CF_B8, a->target);
		}
		break;
	case CF_A_LIVE:
		wr_out_bool(w, "use", a->use);
		if (a->use)
			wr_out_sq(w, "square", CF_B8, a->square);
		break;
	default:
		break;
	}
	wr_out_end(w);
}

static int
name_field(json_object *j, const char *key, const char *const *names, int n, const char *what,
           int *out, struct wr_error *err)
{
	const char *s;
	if (wr_json_string(j, key, 1, &s, err) != 0)
		return -1;
	if ((*out = cf_lookup(names, n, s)) < 0)
		return wr_fail(err, "unknown-name", key, "%s: unknown %s \"%.24s\"", key, what, s);
	return 0;
}

static int
parse_cast(json_object *j, struct cf_action *a, struct wr_error *err)
{
	static const char *const k_target[] = {"type", "from", "spell", "target", NULL};
	static const char *const k_judgement[] = {"type", "from", "spell", NULL};
	static const char *const k_heal[] = {"type", "from", "spell", "revive", "square", NULL};
	if (wr_json_square(j, "from", CF_B8, &a->from, err) != 0 ||
	    name_field(j, "spell", cf_spell_name, CF_SPELL_MAX, "spell", &a->spell, err) != 0)
		return -1;
	if (a->spell == CF_JUDGEMENT)
		return wr_json_only(j, k_judgement, err);
	if (a->spell == CF_HEAL)
		return wr_json_only(j, k_heal, err) != 0 ||
		       name_field(j, "revive", cf_type_name, CF_TYPE_MAX, "piece", &a->revive, err) ||
		       wr_json_square(j, "square", CF_B8, &a->square, err) ? -1 : 0;
	return wr_json_only(j, k_target, err) != 0 ||
	       wr_json_square(j, "target", CF_B8, &a->target, err) ? -1 : 0;
}

/* Strict: each type has a fixed set of fields, all required. Shape only:
 * whether the action is legal is cf_legal()'s to say. */
int
cf_parse(const void *vst, json_object *j, void *va, struct wr_error *err)
{
	static const char *const k_none[] = {"type", NULL};
	static const char *const k_piece[] = {"type", "piece", NULL};
	static const char *const k_pspell[] = {"type", "piece", "spell", NULL};
	static const char *const k_race[] = {"type", "race", NULL};
	static const char *const k_spell[] = {"type", "spell", NULL};
	static const char *const k_choice[] = {"type", "choice", NULL};
	static const char *const k_place[] = {"type", "piece", "square", NULL};
	static const char *const k_fromto[] = {"type", "from", "to", NULL};
	static const char *const k_ab[] = {"type", "a", "b", NULL};
	static const char *const k_use[] = {"type", "use", NULL};
	static const char *const k_usesq[] = {"type", "use", "square", NULL};
	static const char *const k_sq[] = {"type", "square", NULL};
	struct cf_action *a = va;
	const char *type;
	int t;
	(void)vst;
	cf_action_init(a, -1);
	if (!json_object_is_type(j, json_type_object))
		return wr_fail(err, "wrong-type", "", "an action is a JSON object");
	if (wr_json_string(j, "type", 1, &type, err) != 0)
		return -1;
	if ((t = cf_lookup(cf_act_name, CF_A_MAX, type)) < 0)
		return wr_fail(err, "unknown-action", "type", "unknown action type \"%.24s\"", type);
	a->type = t;
	switch (t) {
	case CF_A_BUY:
		return wr_json_only(j, k_piece, err) != 0 ||
		       name_field(j, "piece", cf_type_name, CF_TYPE_MAX, "piece", &a->piece_type, err)
		       ? -1 : 0;
	case CF_A_ADD_SPELL:
		return wr_json_only(j, k_pspell, err) != 0 ||
		       wr_json_int(j, "piece", 0, CF_MAX_PIECES - 1, 1, 0, &a->piece, err) != 0 ||
		       name_field(j, "spell", cf_spell_name, CF_SPELL_MAX, "spell", &a->spell, err)
		       ? -1 : 0;
	case CF_A_RACE:
		if (wr_json_only(j, k_race, err) != 0 ||
		    name_field(j, "race", cf_race_name, CF_RACE_MAX, "race", &a->race, err) != 0)
			return -1;
		if (a->race == CF_NORACE)
			return wr_fail(err, "unknown-name", "race", "race: choose one of the six races");
		return 0;
	case CF_A_KING_SPELL:
		return wr_json_only(j, k_spell, err) != 0 ||
		       name_field(j, "spell", cf_spell_name, CF_SPELL_MAX, "spell", &a->spell, err)
		       ? -1 : 0;
	case CF_A_ORDER:
		return wr_json_only(j, k_choice, err) != 0 ||
		       name_field(j, "choice", cf_choice_name, CF_CHOICE_MAX, "choice", &a->choice,
		                  err) ? -1 : 0;
	case CF_A_PLACE:
		return wr_json_only(j, k_place, err) != 0 ||
		       wr_json_int(j, "piece", 0, CF_MAX_PIECES - 1, 1, 0, &a->piece, err) != 0 ||
		       wr_json_square(j, "square", CF_B8, &a->square, err) != 0 ? -1 : 0;
	case CF_A_MOVE:
	case CF_A_RISE:
	case CF_A_SWIFT:
	case CF_A_FURY:
		return wr_json_only(j, k_fromto, err) != 0 ||
		       wr_json_square(j, "from", CF_B8, &a->from, err) ||
		       wr_json_square(j, "to", CF_B8, &a->to, err) ? -1 : 0;
	case CF_A_LEADERSHIP:
		return wr_json_only(j, k_ab, err) != 0 || wr_json_square(j, "a", CF_B8, &a->from, err) ||
		       wr_json_square(j, "b", CF_B8, &a->to, err) ? -1 : 0;
	case CF_A_CAST:
		return parse_cast(j, a, err);
	case CF_A_HTL:
	case CF_A_LUCK:
		return wr_json_only(j, k_use, err) != 0 ||
		       wr_json_bool(j, "use", 1, 0, &a->use, err) != 0 ? -1 : 0;
	case CF_A_LIVE:
		if (wr_json_bool(j, "use", 1, 0, &a->use, err) != 0)
			return -1;
		if (!a->use)
			return wr_json_only(j, k_use, err);
		return wr_json_only(j, k_usesq, err) != 0 ||
		       wr_json_square(j, "square", CF_B8, &a->square, err) ? -1 : 0;
	case CF_A_PANIC_SQ:
		return wr_json_only(j, k_sq, err) != 0 ||
		       wr_json_square(j, "square", CF_B8, &a->square, err) ? -1 : 0;
	default:
		return wr_json_only(j, k_none, err);
	}
}

/* ------------------------------------------------------------ events */

static void
add_piece(json_object *o, const struct cf_state *st, const char *key, int seat, int id)
{
	json_object_object_add(o, key, cf_piece_ref(st, seat, id));
}

static json_object *
side_json(const struct cf_mods *m, int die)
{
	static const char *const names[] = {"weapon_mastery", "hold_the_line", "enhancement",
	                                    "treasure"};
	json_object *o = json_object_new_object(), *mods = json_object_new_array();
	int vals[] = {m->wm, m->htl, m->enh, m->treasure};
	wr_json_put_int(o, "die", die);
	wr_json_put_int(o, "combat", m->base);
	for (int i = 0; i < 4; i++)
		if (vals[i]) {
			json_object *x = json_object_new_object();
			wr_json_put_str(x, "name", names[i]);
			wr_json_put_int(x, "value", vals[i]);
			json_object_array_add(mods, x);
		}
	json_object_object_add(o, "modifiers", mods);
	wr_json_put_int(o, "total", die + m->base + m->wm + m->htl + m->enh + m->treasure);
	return o;
}

static void
battle_result_json(json_object *o, const struct cf_event *e)
{
	static const char *const intimidation[] = {NULL, "draw turned into a win",
	                                           "two queens: the mover wins"};
	json_object_object_add(o, "attacker", side_json(&e->am, e->a_die));
	json_object_object_add(o, "defender", side_json(&e->dm, e->d_die));
	if (e->intimidation)
		wr_json_put_str(o, "intimidation", intimidation[e->intimidation]);
	if (e->strength)
		wr_json_put_str(o, "strength", e->strength == 1 ? "attacker" : "defender");
	wr_json_put_str(o, "outcome", e->outcome == 1 ? "attacker wins"
	                       : e->outcome == 0 ? "draw" : "defender wins");
	if (e->outcome == 0 && e->spell < 0)
		wr_json_put_str(o, "returns", "the mover stays on the square it moved from");
	/* R7: a spell that does not win its battle has no effect. */
	if (e->outcome != 1 && e->spell >= 0)
		wr_json_put_str(o, "effect", "none");
}

/* G5: the armies as the others may see them -- how many spells, not which. */
static json_object *
armies_json(const struct cf_state *st)
{
	json_object *arr = json_object_new_array();
	for (int s = 0; s < st->nseats; s++) {
		json_object *a = json_object_new_object(), *ps = json_object_new_array();
		wr_json_put_int(a, "seat", s);
		for (int i = 0; i < st->s[s].n; i++) {
			json_object *p = json_object_new_object();
			wr_json_put_int(p, "id", i);
			wr_json_put_str(p, "type", cf_type_name[st->s[s].p[i].type]);
			wr_json_put_int(p, "spell_count", cf_nspells(&st->s[s].p[i]));
			json_object_array_add(ps, p);
		}
		json_object_object_add(a, "pieces", ps);
		if (st->o.races) {
			wr_json_put_str(a, "race", cf_race_name[st->s[s].race]);
			wr_json_put_int(a, "racial_tokens", st->s[s].racial);
		}
		json_object_array_add(arr, a);
	}
	return arr;
}

static json_object *
winners_json(const struct cf_state *st, unsigned winners)
{
	json_object *w = json_object_new_array();
	for (int s = 0; s < st->nseats; s++)
		if (winners & (1u << s))
			json_object_array_add(w, json_object_new_int(s));
	return w;
}

/* The fields of events that name one piece, after "piece". */
static const struct wr_json_field e_square[] = {EF("square", WR_JF_SQ, square, NULL)};
static const struct wr_json_field e_move[] = {
	EF("from", WR_JF_SQ, from, NULL), EF("to", WR_JF_SQ, to, NULL)};
static const struct wr_json_field e_advance[] = {EF("to", WR_JF_SQ, to, NULL)};
static const struct wr_json_field e_luck[] = {EF("die_before", WR_JF_INT, luck_before, NULL),
                                              EF("reroll", WR_JF_INT, luck_reroll, NULL),
                                              EF("kept", WR_JF_INT, luck_kept, NULL)};
static const struct wr_json_field e_treasure[] = {
	EF("die", WR_JF_INT, die, NULL), EF("found", WR_JF_BOOL, found, NULL)};
static const struct wr_json_field e_bought[] = {
	EF("id", WR_JF_INT, id, NULL), EF("piece", WR_JF_NAME, piece_type, cf_type_name),
	EF("points_left", WR_JF_INT, points_left, NULL)};
static const struct wr_json_field e_spell_added[] = {
	EF("id", WR_JF_INT, id, NULL), EF("spell", WR_JF_NAME, spell, cf_spell_name),
	EF("points_left", WR_JF_INT, points_left, NULL)};
static const struct wr_json_field e_king_spell[] = {
	EF("spell", WR_JF_NAME, spell, cf_spell_name), EF("points_left", WR_JF_INT, points_left, NULL)};
static const struct wr_json_field e_race[] = {EF("race", WR_JF_NAME, race, cf_race_name)};
static const struct wr_json_field e_racial[] = {
	EF("racial_tokens", WR_JF_INT, tokens, NULL), EF("points_left", WR_JF_INT, points_left, NULL)};
static const struct wr_json_field e_reset[] = {EF("points_left", WR_JF_INT, points_left, NULL)};
static const struct wr_json_field e_setup_roll[] = {EF("seat", WR_JF_INT, seat, NULL),
                                                    EF("round", WR_JF_INT, round, NULL),
                                                    EF("die", WR_JF_INT, die, NULL)};
static const struct wr_json_field e_turn[] = {
	EF("turn", WR_JF_INT, turn, NULL), EF("seat", WR_JF_INT, seat, NULL)};
static const struct wr_json_field e_dice[] = {
	EF("attacker", WR_JF_INT, a_die, NULL), EF("defender", WR_JF_INT, d_die, NULL)};
static const struct wr_json_field e_seat[] = {EF("seat", WR_JF_INT, seat, NULL)};
/* After the piece of an event that names one (names_piece). */
static const struct wr_json_fields ev_fields[CF_E_MAX] = {
	[CF_E_PLACED] = WR_JF_LIST(e_square),
	[CF_E_HEALED] = WR_JF_LIST(e_square),
	[CF_E_REMOVED] = WR_JF_LIST(e_square),
	[CF_E_MOVE] = WR_JF_LIST(e_move),
	[CF_E_SWIFT_MOVE] = WR_JF_LIST(e_move),
	[CF_E_FURY_MOVE] = WR_JF_LIST(e_move),
	[CF_E_RISE] = WR_JF_LIST(e_move),
	[CF_E_LIVE_AGAIN] = WR_JF_LIST(e_move),
	[CF_E_PANIC_MOVED] = WR_JF_LIST(e_move),
	[CF_E_ADVANCE] = WR_JF_LIST(e_advance),
	[CF_E_LUCK] = WR_JF_LIST(e_luck),
	[CF_E_TREASURE_ROLL] = WR_JF_LIST(e_treasure),
	[CF_E_BOUGHT] = WR_JF_LIST(e_bought),
	[CF_E_SPELL_ADDED] = WR_JF_LIST(e_spell_added),
	[CF_E_KING_SPELL] = WR_JF_LIST(e_king_spell),
	[CF_E_RACE_CHOSEN] = WR_JF_LIST(e_race),
	[CF_E_RACIAL_BOUGHT] = WR_JF_LIST(e_racial),
	[CF_E_ARMY_RESET] = WR_JF_LIST(e_reset),
	[CF_E_SETUP_ROLL] = WR_JF_LIST(e_setup_roll),
	[CF_E_TURN] = WR_JF_LIST(e_turn),
	[CF_E_DICE] = WR_JF_LIST(e_dice),
	/* and no other field */
	[CF_E_ARMY_READY] = WR_JF_LIST(e_seat),
	[CF_E_TURN_END] = WR_JF_LIST(e_seat),
	[CF_E_BATTLE_FURY] = WR_JF_LIST(e_seat),
	[CF_E_RESIGNED] = WR_JF_LIST(e_seat),
};

static int
names_piece(int type)
{
	switch (type) {
	case CF_E_PLACED: case CF_E_NO_ROOM: case CF_E_MOVE: case CF_E_SWIFT_MOVE:
	case CF_E_FURY_MOVE: case CF_E_SWIFT_MOVEMENT: case CF_E_RISE: case CF_E_STAY:
	case CF_E_CAST: case CF_E_HEALED: case CF_E_HOLD_THE_LINE: case CF_E_LUCK:
	case CF_E_TREASURE_ROLL: case CF_E_LIVE_AGAIN: case CF_E_REMOVED: case CF_E_ADVANCE:
	case CF_E_PANIC_MOVED:
		return 1;
	default:
		return 0;
	}
}

json_object *
cf_event_json(const void *vst, const void *vev, unsigned *visible_to)
{
	const struct cf_state *st = vst;
	const struct cf_event *e = vev;
	json_object *o = wr_json_typed(cf_ev_name[e->type]);
	*visible_to = e->visible_to;
	if (names_piece(e->type))
		add_piece(o, st, "piece", e->seat, e->id);
	wr_json_put_fields(o, e, ev_fields[e->type].f, ev_fields[e->type].n, CF_B8);
	switch (e->type) {
	case CF_E_CAST:
		wr_json_put_str(o, "spell", cf_spell_name[e->spell]);
		if (e->spell != CF_JUDGEMENT && e->spell != CF_HEAL)
			wr_json_put_sq(o, "target", CF_B8, e->target);
		break;
	case CF_E_ARMIES_REVEALED:
		json_object_object_add(o, "armies", armies_json(st));
		break;
	case CF_E_PHASE:
		wr_json_put_str(o, "phase", cf_phase_name[e->phase]);
		if (e->chooser >= 0)
			wr_json_put_int(o, "chooser", e->chooser);
		break;
	case CF_E_ORDER_CHOSEN:
		wr_json_put_int(o, "seat", e->seat);
		wr_json_put_str(o, "choice", cf_choice_name[e->choice]);
		json_object_object_add(o, "order", wr_json_ints(e->order, e->norder));
		break;
	case CF_E_LEADERSHIP:
		add_piece(o, st, "a", e->seat, e->id);
		add_piece(o, st, "b", e->seat2, e->id2);
		break;
	case CF_E_BATTLE:
		add_piece(o, st, "attacker", e->seat, e->id);
		add_piece(o, st, "defender", e->seat2, e->id2);
		wr_json_put_sq(o, "from", CF_B8, e->from);
		wr_json_put_sq(o, "at", CF_B8, e->to);
		if (e->spell >= 0)
			wr_json_put_str(o, "spell", cf_spell_name[e->spell]);
		break;
	case CF_E_BATTLE_RESULT:
		battle_result_json(o, e);
		break;
	case CF_E_GAME_OVER:
		json_object_object_add(o, "winners", winners_json(st, e->winners));
		wr_json_put_str(o, "reason", e->reason);
		break;
	case CF_E_SEAT_OUT:
		wr_json_put_int(o, "seat", e->seat);
		wr_json_put_str(o, "reason", e->reason);
		break;
	default:
		break;
	}
	return o;
}

/* ---------------------------------------------------- standing orders */

static int
order_field(json_object *orders, const char *key, const char *const *names, int n,
            const char *words, int *out, struct wr_error *err)
{
	const char *s;
	if (wr_json_string(orders, key, 0, &s, err) != 0)
		return -1;
	if (s && (*out = cf_lookup(names, n, s)) < 0)
		return wr_fail(err, "unknown-order", key, "%s: %s", key, words);
	return 0;
}

static int
cf_orders(void *vst, int seat, json_object *orders, struct wr_error *err)
{
	static const char *const known[] = {"hold_the_line", "luck", "live_again", "battle_fury",
	                                    NULL};
	struct cf_state *st = vst;
	int v[4] = {-1, -1, -1, -1};
	if (seat < 0 || seat >= st->nseats)
		return wr_fail(err, "no-such-seat", "", "no seat %d in this match", seat);
	if (wr_json_only(orders, known, err) != 0 ||
	    order_field(orders, "hold_the_line", cf_yesno_name, CF_YESNO_MAX,
	                "ask, always or never", &v[0], err) != 0 ||
	    order_field(orders, "luck", cf_luck_name, CF_LUCK_MAX,
	                "ask, always, never, if_losing or unless_winning", &v[1], err) != 0 ||
	    order_field(orders, "live_again", cf_yesno_name, CF_YESNO_MAX,
	                "ask, always or never", &v[2], err) != 0 ||
	    order_field(orders, "battle_fury", cf_fury_order_name, 2, "ask or never", &v[3],
	                err) != 0)
		return -1;
	cf_set_orders(st, seat, v[0], v[1], v[2], v[3]);
	return 0;
}

/* ------------------------------------------------------------ tables */

static int
cf_refuse(const void *state, int seat, struct wr_error *err)
{
	const struct cf_state *st = state;
	if (seat < 0 || seat >= st->nseats)
		return wr_fail(err, "no-such-seat", "", "no seat %d in this match", seat);
	if (st->phase == CF_OVER)
		return wr_fail(err, "game-over", "", "the match is over");
	return 0;
}

/* .to_act: RULINGS.md G3 (amended), an awaited seat's only legal action
 * is taken by the server (wr_tpl_settle), after a post or a resignation. */
WR_TPL_TEMPLATE(cf, cf_refuse)

static void
cf_result(const void *vst, struct wr_result *out)
{
	const struct cf_state *st = vst;
	memset(out, 0, sizeof(*out));
	out->over = st->phase == CF_OVER;
	out->winners = out->over ? st->winners : 0;
	snprintf(out->reason, sizeof(out->reason), "%s", out->over ? st->reason : "");
}

/* RULINGS.md R10: seats knocked out take no part in a draw by agreement,
 * which the service handles (POST /api/games/{id}/draw). */
static unsigned
cf_seats_in(const void *state)
{
	const struct cf_state *st = state;
	unsigned in = 0;
	for (int i = 0; i < st->nseats; i++)
		if (!st->s[i].out)
			in |= 1u << i;
	return in;
}

/* RULINGS.md G8 (amended): in play, the active seat's turn goes on while
 * another seat answers (Hold the Line, Luck, Live Again, Panic, Fury). */
static unsigned
cf_turn_of(const void *vst)
{
	const struct cf_state *st = vst;
	if (st->phase == CF_PLAY && st->active >= 0)
		return 1u << st->active;
	return cf_to_act(st);
}

WR_TPL_RULESET(cf, "confrontation", "Confrontation", "004_13fa4739ee387ac7.txt", 2, 4,
               .turn_of = cf_turn_of, .set_orders = cf_orders, .seats_in = cf_seats_in,
               .undo_barrier = cf_undo_barrier,
               .determinize = cf_determinize, .evaluate = cf_evaluate,
               .bot_skips = cf_bot_skips, .save_out = cf_save_out);
