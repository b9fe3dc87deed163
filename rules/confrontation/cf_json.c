/*
 * Confrontation's JSON: options, the snapshot (save/load), the view, the
 * action list and action parsing, and the wr_ruleset table. The rules
 * themselves are in cf_rules.c; README.md documents every shape here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cf_priv.h"

#define B8 (&wr_board8)

/* ----------------------------------------------------------- helpers */

json_object *
cf_ev(const char *type)
{
	json_object *e = json_object_new_object();
	json_object_object_add(e, "type", json_object_new_string(type));
	return e;
}

void
cf_ev_int(json_object *e, const char *key, int v)
{
	json_object_object_add(e, key, json_object_new_int(v));
}

void
cf_ev_str(json_object *e, const char *key, const char *v)
{
	json_object_object_add(e, key, json_object_new_string(v));
}

void
cf_ev_sq(json_object *e, const char *key, int sq)
{
	if (sq < 0)
		json_object_object_add(e, key, NULL);
	else
		json_object_object_add(e, key, wr_json_square_new(B8, sq));
}

json_object *
cf_piece_ref(const struct cf_state *st, int seat, int id)
{
	json_object *o = json_object_new_object();
	cf_ev_int(o, "seat", seat);
	cf_ev_int(o, "id", id);
	cf_ev_str(o, "type", cf_type_name[st->s[seat].p[id].type]);
	return o;
}

static json_object *
jint(int v)
{
	return json_object_new_int(v);
}

/* ----------------------------------------------------------- options */

static json_object *
opt(const char *type, json_object *def, int min, int max, const char *const *en, int nen,
    const char *desc)
{
	json_object *o = json_object_new_object();
	cf_ev_str(o, "type", type);
	json_object_object_add(o, "default", def);
	if (min <= max) {
		cf_ev_int(o, "minimum", min);
		cf_ev_int(o, "maximum", max);
	}
	if (en) {
		json_object *a = json_object_new_array();
		for (int i = 0; i < nen; i++)
			json_object_array_add(a, json_object_new_string(en[i]));
		json_object_object_add(o, "enum", a);
	}
	cf_ev_str(o, "description", desc);
	return o;
}

static json_object *
cf_options(void)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "army_points",
	                       opt("integer", jint(15), 5, 100, NULL, 0,
	                           "Army points each seat spends (II. Setting Up, RULINGS.md R1)"));
	json_object_object_add(o, "races", opt("boolean", json_object_new_boolean(0), 1, 0, NULL, 0,
	                                       "IX. Races: each army picks a race"));
	json_object_object_add(o, "treasure",
	                       opt("boolean", json_object_new_boolean(0), 1, 0, NULL, 0,
	                           "XI. Treasure: a 6 after defeating a Knight, Bishop or Queen"));
	json_object_object_add(o, "kings_magic",
	                       opt("boolean", json_object_new_boolean(0), 1, 0, NULL, 0,
	                           "XII. King's Magic: a King may buy one spell for 2 points"));
	json_object_object_add(o, "terrain",
	                       opt("string", json_object_new_string("none"), 1, 0, cf_tm_name,
	                           CF_TM_MAX,
	                           "X. Terrain: none, random (the server draws it) or given "
	                           "(terrain_areas)"));
	json_object_object_add(o, "terrain_areas",
	                       opt("array", json_object_new_array(), 1, 0, NULL, 0,
	                           "with terrain=given: [{\"type\": \"barrier|counterspell|"
	                           "enhancement|rough\", \"squares\": [4 or 8 squares joined by "
	                           "their sides]}], at most 8 areas, not overlapping"));
	json_object_object_add(o, "random_areas",
	                       opt("integer", jint(2), 1, 4, NULL, 0,
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
			                ? wr_square_parse(B8, json_object_get_string(v))
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

/* ------------------------------------------------------- snapshot */

static json_object *
int_array(const int *v, int n)
{
	json_object *a = json_object_new_array_ext(n);
	for (int i = 0; i < n; i++)
		json_object_array_add(a, jint(v[i]));
	return a;
}

static json_object *
cf_save(const void *vst)
{
	const struct cf_state *st = vst;
	json_object *o = json_object_new_object(), *seats = json_object_new_array();
	char terrain[CF_NSQ + 1];
	int opts[6] = {st->o.points, st->o.races, st->o.treasure, st->o.kings_magic,
	               st->o.terrain_mode, st->o.random_areas};
	for (int i = 0; i < CF_NSQ; i++)
		terrain[i] = cf_terrain_letter[st->terrain[i]];
	terrain[CF_NSQ] = '\0';
	cf_ev_int(o, "v", 1);
	json_object_object_add(o, "options", int_array(opts, 6));
	cf_ev_int(o, "seats", st->nseats);
	cf_ev_str(o, "phase", cf_phase_name[st->phase]);
	cf_ev_str(o, "terrain", terrain);
	for (int s = 0; s < st->nseats; s++) {
		const struct cf_seat *x = &st->s[s];
		json_object *a = json_object_new_object(), *ps = json_object_new_array();
		int f[11] = {x->points, x->race, x->racial, x->racial_bought, x->ready, x->out,
		             x->o_htl, x->o_luck, x->o_live, x->nrolls, x->n};
		json_object_object_add(a, "f", int_array(f, 11));
		json_object_object_add(a, "rolls", int_array(x->rolls, x->nrolls));
		for (int i = 0; i < x->n; i++) {
			const struct cf_piece *p = &x->p[i];
			int v[10] = {p->type, p->sq, p->status, p->strength, p->treasure};
			memcpy(v + 5, p->spells, sizeof(p->spells));
			json_object_array_add(ps, int_array(v, 10));
		}
		json_object_object_add(a, "pieces", ps);
		json_object_array_add(seats, a);
	}
	json_object_object_add(o, "armies", seats);
	json_object_object_add(o, "order", int_array(st->order, st->norder));
	{
		int t[13] = {st->chooser, st->placer, st->turn, st->active, st->nacts, (int)st->used,
		             st->leadership_used, st->risen, st->swift, st->fury,
		             (int)st->fury_excl, st->idle, (int)st->winners};
		json_object_object_add(o, "t", int_array(t, 13));
	}
	{
		const struct cf_res *r = &st->r;
		const struct cf_battle *b = &r->b;
		int v[44] = {r->kind, r->src, r->seat, r->id, r->spell, r->nt, r->ti, r->won,
		             r->moved, r->panic_seat, r->panic_id, r->in_battle, b->stage, b->a_seat,
		             b->a_id, b->d_seat, b->d_id, b->from, b->at, b->spell, b->htl, b->a_die,
		             b->d_die, b->a_luck, b->d_luck, b->loser_seat, b->loser_id, b->outcome};
		for (int i = 0; i < 8; i++)
			v[28 + i] = r->tseat[i], v[36 + i] = r->tid[i];
		json_object_object_add(o, "res", int_array(v, 44));
	}
	cf_ev_str(o, "reason", st->reason);
	return o;
}

static int
read_ints(json_object *o, const char *key, int *out, int n, int exact, struct wr_error *err)
{
	json_object *a;
	int len;
	if (!json_object_object_get_ex(o, key, &a) || !json_object_is_type(a, json_type_array))
		return wr_fail(err, "bad-snapshot", key, "%s: missing", key);
	len = (int)json_object_array_length(a);
	if ((exact && len != n) || len > n)
		return wr_fail(err, "bad-snapshot", key, "%s: wrong length", key);
	for (int i = 0; i < len; i++) {
		json_object *v = json_object_array_get_idx(a, (size_t)i);
		if (!json_object_is_type(v, json_type_int))
			return wr_fail(err, "bad-snapshot", key, "%s: not a number", key);
		int64_t x = json_object_get_int64(v);
		if (x < -1000000 || x > 1000000)
			return wr_fail(err, "bad-snapshot", key, "%s: out of range", key);
		out[i] = (int)x;
	}
	return len;
}

static int
cf_load(json_object *snap, void **out, struct wr_error *err)
{
	struct cf_state *st = calloc(1, sizeof(*st));
	json_object *armies, *v;
	const char *s;
	int opts[6], t[13], res[44], n;
	*out = NULL;
	if (!st)
		return wr_fail(err, "no-memory", "", "out of memory");
	if (!json_object_is_type(snap, json_type_object))
		goto bad;
	if (read_ints(snap, "options", opts, 6, 1, err) < 0)
		goto fail;
	st->o = (struct cf_opts){opts[0], opts[1], opts[2], opts[3], opts[4], opts[5]};
	if (st->o.points < 5 || st->o.points > 100 || (unsigned)st->o.races > 1 ||
	    (unsigned)st->o.treasure > 1 || (unsigned)st->o.kings_magic > 1 ||
	    st->o.terrain_mode < 0 || st->o.terrain_mode >= CF_TM_MAX || st->o.random_areas < 1 ||
	    st->o.random_areas > 4)
		goto bad;
	if (wr_json_int(snap, "seats", 2, WR_MAX_SEATS, 1, 0, &st->nseats, err) != 0)
		goto fail;
	if (wr_json_string(snap, "phase", 1, &s, err) != 0)
		goto fail;
	if ((st->phase = cf_lookup(cf_phase_name, CF_PHASE_MAX, s)) < 0)
		goto bad;
	if (wr_json_string(snap, "terrain", 1, &s, err) != 0)
		goto fail;
	if (strlen(s) != CF_NSQ)
		goto bad;
	for (int i = 0; i < CF_NSQ; i++) {
		const char *p = memchr(cf_terrain_letter, s[i], CF_T_MAX);
		if (!p || !s[i])
			goto bad;
		st->terrain[i] = (int)(p - cf_terrain_letter);
	}
	if (!json_object_object_get_ex(snap, "armies", &armies) ||
	    !json_object_is_type(armies, json_type_array) ||
	    (int)json_object_array_length(armies) != st->nseats)
		goto bad;
	for (int i = 0; i < st->nseats; i++) {
		struct cf_seat *x = &st->s[i];
		json_object *a = json_object_array_get_idx(armies, (size_t)i), *ps;
		int f[11];
		if (!json_object_is_type(a, json_type_object) || read_ints(a, "f", f, 11, 1, err) < 0)
			goto bad;
		x->points = f[0], x->race = f[1], x->racial = f[2], x->racial_bought = f[3];
		x->ready = f[4], x->out = f[5], x->o_htl = f[6], x->o_luck = f[7], x->o_live = f[8];
		x->nrolls = f[9], x->n = f[10];
		if ((unsigned)x->ready > 1 || (unsigned)x->out > 1 || x->nrolls < 0 || x->nrolls > 8 ||
		    x->n < 1 || x->n > CF_MAX_PIECES || x->racial_bought < 0 || x->racial_bought > 100)
			goto bad;
		if (read_ints(a, "rolls", x->rolls, x->nrolls, 1, err) < 0)
			goto fail;
		if (!json_object_object_get_ex(a, "pieces", &ps) ||
		    !json_object_is_type(ps, json_type_array) ||
		    (int)json_object_array_length(ps) != x->n)
			goto bad;
		for (int k = 0; k < x->n; k++) {
			json_object *holder = json_object_new_object();
			int pv[10];
			json_object_object_add(holder, "p",
			                       json_object_get(json_object_array_get_idx(ps, (size_t)k)));
			n = read_ints(holder, "p", pv, 10, 1, err);
			json_object_put(holder);
			if (n < 0)
				goto fail;
			struct cf_piece *p = &x->p[k];
			p->type = pv[0], p->sq = pv[1], p->status = pv[2], p->strength = pv[3];
			p->treasure = pv[4];
			memcpy(p->spells, pv + 5, sizeof(p->spells));
			if (p->sq < -1 || p->sq >= CF_NSQ)
				goto bad;
		}
	}
	if ((n = read_ints(snap, "order", st->order, st->nseats, 0, err)) < 0)
		goto fail;
	st->norder = n;
	if (read_ints(snap, "t", t, 13, 1, err) < 0 || read_ints(snap, "res", res, 44, 1, err) < 0)
		goto fail;
	st->chooser = t[0], st->placer = t[1], st->turn = t[2], st->active = t[3];
	st->nacts = t[4], st->used = (unsigned)t[5] & 0xffffu, st->leadership_used = t[6] != 0;
	st->risen = t[7], st->swift = t[8], st->fury = t[9];
	st->fury_excl = (unsigned)t[10] & 0xffffu, st->idle = t[11];
	st->winners = (unsigned)t[12] & 0xfu;
	if (st->chooser < -1 || st->chooser >= st->nseats || st->turn < 0 || st->active < -1 ||
	    st->active >= st->nseats || st->risen < -1 || st->risen >= CF_MAX_PIECES ||
	    st->swift < -1 || st->swift >= CF_MAX_PIECES)
		goto bad;
	{
		struct cf_res *r = &st->r;
		struct cf_battle *b = &r->b;
		r->kind = res[0], r->src = res[1], r->seat = res[2], r->id = res[3], r->spell = res[4];
		r->nt = res[5], r->ti = res[6], r->won = res[7], r->moved = res[8];
		r->panic_seat = res[9], r->panic_id = res[10], r->in_battle = res[11] != 0;
		b->stage = res[12], b->a_seat = res[13], b->a_id = res[14], b->d_seat = res[15];
		b->d_id = res[16], b->from = res[17], b->at = res[18], b->spell = res[19];
		b->htl = res[20] != 0, b->a_die = res[21], b->d_die = res[22], b->a_luck = res[23];
		b->d_luck = res[24], b->loser_seat = res[25], b->loser_id = res[26];
		b->outcome = res[27];
		for (int i = 0; i < 8; i++)
			r->tseat[i] = res[28 + i], r->tid[i] = res[36 + i];
		if (r->panic_seat < -1 || r->panic_seat >= st->nseats || r->seat < 0 ||
		    r->seat >= st->nseats || r->id < 0 || r->id >= CF_MAX_PIECES ||
		    (r->panic_seat >= 0 && (r->panic_id < 0 || r->panic_id >= CF_MAX_PIECES)))
			goto bad;
		if (r->kind == CF_RES_NONE && (r->in_battle || r->panic_seat >= 0))
			goto bad;
	}
	if (wr_json_string(snap, "reason", 1, &s, err) != 0)
		goto fail;
	snprintf(st->reason, sizeof(st->reason), "%s", s);
	if (json_object_object_get_ex(snap, "v", &v) == 0 || json_object_get_int(v) != 1)
		goto bad;
	cf_rebuild_board(st);
	if (cf_check(st, err) != 0)
		goto fail;
	*out = st;
	return 0;
bad:
	wr_fail(err, "bad-snapshot", "", "not a Confrontation snapshot");
fail:
	free(st);
	return -1;
}

static void
cf_free(void *st)
{
	free(st);
}

/* ------------------------------------------------------------ create */

static int
cf_create(json_object *options, int seats, struct wr_rng *rng, void **state,
          struct wr_error *err)
{
	struct cf_opts o;
	int terrain[CF_NSQ] = {0};
	struct cf_state *st;
	struct wr_events ev = {0};
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
	cf_settle_public(st, rng, &ev);
	wr_events_free(&ev);
	*state = st;
	return 0;
}

/* ----------------------------------------------------------- actions */

static const char *
sq_name(int sq, char buf[8])
{
	return wr_square_name(B8, sq, buf);
}

json_object *
cf_act_json(const struct cf_act *a)
{
	json_object *o = cf_ev(cf_act_name[a->kind]);
	char b[8];
	switch (a->kind) {
	case CF_A_BUY:
		cf_ev_str(o, "piece", cf_type_name[a->a]);
		break;
	case CF_A_ADD_SPELL:
		cf_ev_int(o, "piece", a->a);
		cf_ev_str(o, "spell", cf_spell_name[a->b]);
		break;
	case CF_A_RACE:
		cf_ev_str(o, "race", cf_race_name[a->a]);
		break;
	case CF_A_KING_SPELL:
		cf_ev_str(o, "spell", cf_spell_name[a->a]);
		break;
	case CF_A_ORDER:
		cf_ev_str(o, "choice", a->a == 0 ? "first" : a->a == 1 ? "second" : "last");
		break;
	case CF_A_PLACE:
		cf_ev_int(o, "piece", a->a);
		cf_ev_str(o, "square", sq_name(a->b, b));
		break;
	case CF_A_MOVE:
	case CF_A_RISE:
	case CF_A_SWIFT:
	case CF_A_FURY:
		cf_ev_str(o, "from", sq_name(a->a, b));
		cf_ev_str(o, "to", sq_name(a->b, b));
		break;
	case CF_A_LEADERSHIP:
		cf_ev_str(o, "a", sq_name(a->a, b));
		cf_ev_str(o, "b", sq_name(a->b, b));
		break;
	case CF_A_CAST:
		cf_ev_str(o, "from", sq_name(a->a, b));
		cf_ev_str(o, "spell", cf_spell_name[a->b]);
		if (a->b == CF_HEAL) {
			cf_ev_str(o, "revive", cf_type_name[a->d]);
			cf_ev_str(o, "square", sq_name(a->c, b));
		} else if (a->b != CF_JUDGEMENT) {
			cf_ev_str(o, "target", sq_name(a->c, b));
		}
		break;
	case CF_A_HTL:
	case CF_A_LUCK:
		json_object_object_add(o, "use", json_object_new_boolean(a->a));
		break;
	case CF_A_LIVE:
		json_object_object_add(o, "use", json_object_new_boolean(a->a));
		if (a->a)
			cf_ev_str(o, "square", sq_name(a->b, b));
		break;
	case CF_A_PANIC_SQ:
		cf_ev_str(o, "square", sq_name(a->a, b));
		break;
	default:
		break;
	}
	return o;
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

/* Strict: each type has a fixed set of fields, all required. */
int
cf_act_parse(json_object *j, struct cf_act *a, struct wr_error *err)
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
	static const char *const k_cast_t[] = {"type", "from", "spell", "target", NULL};
	static const char *const k_cast_j[] = {"type", "from", "spell", NULL};
	static const char *const k_cast_h[] = {"type", "from", "spell", "revive", "square", NULL};
	const char *type;
	memset(a, 0, sizeof(*a));
	if (!json_object_is_type(j, json_type_object))
		return wr_fail(err, "wrong-type", "", "an action is a JSON object");
	if (wr_json_string(j, "type", 1, &type, err) != 0)
		return -1;
	if ((a->kind = cf_lookup(cf_act_name, CF_A_MAX, type)) < 0)
		return wr_fail(err, "unknown-action", "type", "unknown action type \"%.24s\"", type);
	switch (a->kind) {
	case CF_A_BUY:
		if (wr_json_only(j, k_piece, err) != 0 ||
		    name_field(j, "piece", cf_type_name, CF_TYPE_MAX, "piece", &a->a, err) != 0)
			return -1;
		return 0;
	case CF_A_ADD_SPELL:
		if (wr_json_only(j, k_pspell, err) != 0 ||
		    wr_json_int(j, "piece", 0, CF_MAX_PIECES - 1, 1, 0, &a->a, err) != 0 ||
		    name_field(j, "spell", cf_spell_name, CF_SPELL_MAX, "spell", &a->b, err) != 0)
			return -1;
		return 0;
	case CF_A_RACE:
		if (wr_json_only(j, k_race, err) != 0 ||
		    name_field(j, "race", cf_race_name, CF_RACE_MAX, "race", &a->a, err) != 0)
			return -1;
		if (a->a == CF_NORACE)
			return wr_fail(err, "unknown-name", "race", "race: choose one of the six races");
		return 0;
	case CF_A_KING_SPELL:
		if (wr_json_only(j, k_spell, err) != 0 ||
		    name_field(j, "spell", cf_spell_name, CF_SPELL_MAX, "spell", &a->a, err) != 0)
			return -1;
		return 0;
	case CF_A_ORDER: {
		static const char *const ch[] = {"first", "second", "last"};
		if (wr_json_only(j, k_choice, err) != 0 ||
		    name_field(j, "choice", ch, 3, "choice", &a->a, err) != 0)
			return -1;
		return 0;
	}
	case CF_A_PLACE:
		if (wr_json_only(j, k_place, err) != 0 ||
		    wr_json_int(j, "piece", 0, CF_MAX_PIECES - 1, 1, 0, &a->a, err) != 0 ||
		    wr_json_square(j, "square", B8, &a->b, err) != 0)
			return -1;
		return 0;
	case CF_A_MOVE:
	case CF_A_RISE:
	case CF_A_SWIFT:
	case CF_A_FURY:
		if (wr_json_only(j, k_fromto, err) != 0 || wr_json_square(j, "from", B8, &a->a, err) ||
		    wr_json_square(j, "to", B8, &a->b, err))
			return -1;
		return 0;
	case CF_A_LEADERSHIP:
		if (wr_json_only(j, k_ab, err) != 0 || wr_json_square(j, "a", B8, &a->a, err) ||
		    wr_json_square(j, "b", B8, &a->b, err))
			return -1;
		return 0;
	case CF_A_CAST:
		if (wr_json_square(j, "from", B8, &a->a, err) != 0 ||
		    name_field(j, "spell", cf_spell_name, CF_SPELL_MAX, "spell", &a->b, err) != 0)
			return -1;
		a->c = a->d = -1;
		if (a->b == CF_JUDGEMENT)
			return wr_json_only(j, k_cast_j, err);
		if (a->b == CF_HEAL) {
			if (wr_json_only(j, k_cast_h, err) != 0 ||
			    name_field(j, "revive", cf_type_name, CF_TYPE_MAX, "piece", &a->d, err) != 0 ||
			    wr_json_square(j, "square", B8, &a->c, err) != 0)
				return -1;
			return 0;
		}
		if (wr_json_only(j, k_cast_t, err) != 0 || wr_json_square(j, "target", B8, &a->c, err))
			return -1;
		return 0;
	case CF_A_HTL:
	case CF_A_LUCK:
		if (wr_json_only(j, k_use, err) != 0 || wr_json_bool(j, "use", 1, 0, &a->a, err) != 0)
			return -1;
		return 0;
	case CF_A_LIVE:
		if (wr_json_bool(j, "use", 1, 0, &a->a, err) != 0)
			return -1;
		a->b = -1;
		if (!a->a)
			return wr_json_only(j, k_use, err);
		if (wr_json_only(j, k_usesq, err) != 0 || wr_json_square(j, "square", B8, &a->b, err))
			return -1;
		return 0;
	case CF_A_PANIC_SQ:
		if (wr_json_only(j, k_sq, err) != 0 || wr_json_square(j, "square", B8, &a->a, err))
			return -1;
		return 0;
	default:
		return wr_json_only(j, k_none, err);
	}
}

static json_object *
cf_actions(const void *vst, int seat)
{
	const struct cf_state *st = vst;
	json_object *arr = json_object_new_array();
	struct cf_act *list = malloc(sizeof(*list) * CF_MAX_ACTS);
	int n;
	if (!list)
		return arr;
	n = cf_legal(st, seat, list, CF_MAX_ACTS);
	for (int i = 0; i < n; i++)
		json_object_array_add(arr, cf_act_json(&list[i]));
	free(list);
	return arr;
}

static int
cf_apply(void *vst, int seat, json_object *action, struct wr_rng *rng, struct wr_events *ev,
         struct wr_error *err)
{
	struct cf_state *st = vst;
	struct cf_act a;
	if (seat < 0 || seat >= st->nseats)
		return wr_fail(err, "no-such-seat", "", "no seat %d in this match", seat);
	if (st->phase == CF_OVER)
		return wr_fail(err, "game-over", "", "the match is over");
	if (cf_act_parse(action, &a, err) != 0)
		return -1;
	return cf_do(st, seat, &a, rng, ev, err);
}

/* ---------------------------------------------------- standing orders */

static int
cf_orders(void *vst, int seat, json_object *orders, struct wr_error *err)
{
	static const char *const known[] = {"hold_the_line", "luck", "live_again", NULL};
	struct cf_state *st = vst;
	const char *s;
	int v[3] = {-1, -1, -1};
	if (seat < 0 || seat >= st->nseats)
		return wr_fail(err, "no-such-seat", "", "no seat %d in this match", seat);
	if (wr_json_only(orders, known, err) != 0)
		return -1;
	if (wr_json_string(orders, "hold_the_line", 0, &s, err) != 0)
		return -1;
	if (s && (v[0] = cf_lookup(cf_yesno_name, CF_YESNO_MAX, s)) < 0)
		return wr_fail(err, "unknown-order", "hold_the_line",
		               "hold_the_line: ask, always or never");
	if (wr_json_string(orders, "luck", 0, &s, err) != 0)
		return -1;
	if (s && (v[1] = cf_lookup(cf_luck_name, CF_LUCK_MAX, s)) < 0)
		return wr_fail(err, "unknown-order", "luck",
		               "luck: ask, always, never, if_losing or unless_winning");
	if (wr_json_string(orders, "live_again", 0, &s, err) != 0)
		return -1;
	if (s && (v[2] = cf_lookup(cf_yesno_name, CF_YESNO_MAX, s)) < 0)
		return wr_fail(err, "unknown-order", "live_again", "live_again: ask, always or never");
	return cf_set_orders(st, seat, v[0], v[1], v[2]);
}

static int
cf_resign_seat(void *vst, int seat, struct wr_rng *rng, struct wr_events *ev)
{
	struct cf_state *st = vst;
	if (seat < 0 || seat >= st->nseats)
		return -1;
	cf_resign(st, seat, rng, ev);
	return 0;
}

/* -------------------------------------------------------------- view */

static const char *
prompt(const struct cf_state *st, const char *kind)
{
	if (!strcmp(kind, "build"))
		return "build your army: buy pieces, spells and racial uses, then ready";
	if (!strcmp(kind, "roll_off"))
		return "call the set-up roll-off (ready)";
	if (!strcmp(kind, "order"))
		return st->nseats == 2 ? "you rolled highest: set up and play first or second"
		                       : "you rolled highest: set up and play first or last";
	if (!strcmp(kind, "place"))
		return "place your army on your two nearest ranks";
	if (!strcmp(kind, "turn"))
		return st->nacts < 2 ? "your turn: take an action with a piece"
		                     : "your turn: optional abilities, or end the turn";
	if (!strcmp(kind, "rise_move"))
		return "the risen piece may move now, or stay";
	if (!strcmp(kind, "hold_the_line"))
		return "Hold the Line: +2 for your defending dwarf for one racial token?";
	if (!strcmp(kind, "luck"))
		return "Luck: re-roll your combat die for one racial token?";
	if (!strcmp(kind, "live_again"))
		return "Live Again: choose a square on your nearest rank, or decline";
	if (!strcmp(kind, "panic_square"))
		return "Panic: choose the empty square on your nearest rank your piece runs to";
	return "";
}

static json_object *
spells_json(const struct cf_piece *p)
{
	json_object *a = json_object_new_array();
	for (int k = 0; k < CF_SPELL_MAX; k++)
		for (int i = 0; i < p->spells[k]; i++)
			json_object_array_add(a, json_object_new_string(cf_spell_name[k]));
	return a;
}

static int
spell_total(const struct cf_piece *p)
{
	int n = 0;
	for (int k = 0; k < CF_SPELL_MAX; k++)
		n += p->spells[k];
	return n;
}

static json_object *
cf_view(const void *vst, int viewer)
{
	const struct cf_state *st = vst;
	json_object *o = json_object_new_object(), *a;
	int all = viewer == WR_EVERYONE || st->phase == CF_OVER;
	char b[8];
	cf_ev_str(o, "ruleset", "confrontation");
	cf_ev_str(o, "phase", cf_phase_name[st->phase]);
	cf_ev_int(o, "turn", st->turn);
	json_object_object_add(o, "active", st->phase == CF_PLAY ? jint(st->active) : NULL);
	{
		json_object *op = json_object_new_object();
		cf_ev_int(op, "army_points", st->o.points);
		json_object_object_add(op, "races", json_object_new_boolean(st->o.races));
		json_object_object_add(op, "treasure", json_object_new_boolean(st->o.treasure));
		json_object_object_add(op, "kings_magic", json_object_new_boolean(st->o.kings_magic));
		cf_ev_str(op, "terrain", cf_tm_name[st->o.terrain_mode]);
		json_object_object_add(o, "options", op);
	}
	a = json_object_new_array();
	for (int s = 0; s < st->nseats; s++) {
		const char *k = cf_pending_kind(st, s);
		if (!k)
			continue;
		json_object *p = json_object_new_object();
		cf_ev_int(p, "seat", s);
		cf_ev_str(p, "kind", k);
		cf_ev_str(p, "prompt", prompt(st, k));
		json_object_array_add(a, p);
	}
	json_object_object_add(o, "pending", a);
	/* The turn in progress. */
	if (st->phase == CF_PLAY) {
		json_object *t = json_object_new_object(), *u = json_object_new_array();
		cf_ev_int(t, "actions_taken", st->nacts);
		for (int i = 0; i < CF_MAX_PIECES; i++)
			if (st->used & (1u << i))
				json_object_array_add(u, jint(i));
		json_object_object_add(t, "pieces_used", u);
		json_object_object_add(t, "leadership_used",
		                       json_object_new_boolean(st->leadership_used));
		cf_ev_sq(t, "risen", st->risen >= 0 ? st->s[st->active].p[st->risen].sq : -1);
		cf_ev_sq(t, "swift_offer", st->swift >= 0 ? st->s[st->active].p[st->swift].sq : -1);
		json_object_object_add(t, "battle_fury", json_object_new_boolean(st->fury != 0));
		json_object_object_add(o, "turn_state", t);
	} else {
		json_object_object_add(o, "turn_state", NULL);
	}
	if (st->phase == CF_PLAY && st->r.kind != CF_RES_NONE && st->r.in_battle) {
		const struct cf_battle *bt = &st->r.b;
		json_object *x = json_object_new_object();
		json_object_object_add(x, "attacker", cf_piece_ref(st, bt->a_seat, bt->a_id));
		json_object_object_add(x, "defender", cf_piece_ref(st, bt->d_seat, bt->d_id));
		cf_ev_sq(x, "from", bt->from);
		cf_ev_sq(x, "at", bt->at);
		json_object_object_add(x, "spell",
		                       bt->spell >= 0 ? json_object_new_string(cf_spell_name[bt->spell])
		                                      : NULL);
		cf_ev_str(x, "stage", cf_stage_name[bt->stage]);
		json_object_object_add(x, "hold_the_line", json_object_new_boolean(bt->htl));
		json_object_object_add(x, "attacker_die", bt->stage > CF_ST_ROLL ? jint(bt->a_die) : NULL);
		json_object_object_add(x, "defender_die", bt->stage > CF_ST_ROLL ? jint(bt->d_die) : NULL);
		json_object_object_add(o, "battle", x);
	} else {
		json_object_object_add(o, "battle", NULL);
	}
	if (st->phase == CF_PLAY && st->r.kind != CF_RES_NONE && st->r.panic_seat >= 0)
		json_object_object_add(o, "panic",
		                       cf_piece_ref(st, st->r.panic_seat, st->r.panic_id));
	else
		json_object_object_add(o, "panic", NULL);
	/* Seats: armies are hidden from the others while they are built. */
	a = json_object_new_array();
	for (int s = 0; s < st->nseats; s++) {
		const struct cf_seat *x = &st->s[s];
		int own = all || viewer == s;
		int shown = own || st->phase != CF_BUILD;
		json_object *so = json_object_new_object(), *ps;
		cf_ev_int(so, "seat", s);
		json_object_object_add(so, "out", json_object_new_boolean(x->out));
		json_object_object_add(so, "ready", json_object_new_boolean(x->ready));
		json_object_object_add(so, "points_left", shown ? jint(x->points) : NULL);
		json_object_object_add(so, "race", shown && st->o.races
		                                           ? json_object_new_string(cf_race_name[x->race])
		                                           : NULL);
		json_object_object_add(so, "racial_tokens", shown && st->o.races ? jint(x->racial) : NULL);
		json_object_object_add(so, "setup_rolls", int_array(x->rolls, x->nrolls));
		if (shown) {
			ps = json_object_new_array();
			for (int i = 0; i < x->n; i++) {
				const struct cf_piece *p = &x->p[i];
				json_object *po = json_object_new_object();
				cf_ev_int(po, "id", i);
				cf_ev_str(po, "type", cf_type_name[p->type]);
				cf_ev_str(po, "status", cf_status_name[p->status]);
				cf_ev_sq(po, "square", p->sq);
				cf_ev_int(po, "strength_tokens", p->strength);
				cf_ev_int(po, "treasure", p->treasure);
				cf_ev_int(po, "spell_count", spell_total(p));
				/* Spells are on the owner's paper (II, VII): hidden
				 * from the others until cast. */
				json_object_object_add(po, "spells", own ? spells_json(p) : NULL);
				json_object_array_add(ps, po);
			}
		} else {
			ps = NULL;
		}
		json_object_object_add(so, "pieces", ps);
		if (viewer == s || all) {
			json_object *or = json_object_new_object();
			cf_ev_str(or, "hold_the_line", cf_yesno_name[x->o_htl]);
			cf_ev_str(or, "luck", cf_luck_name[x->o_luck]);
			cf_ev_str(or, "live_again", cf_yesno_name[x->o_live]);
			json_object_object_add(so, "standing_orders", or);
		} else {
			json_object_object_add(so, "standing_orders", NULL);
		}
		json_object_array_add(a, so);
	}
	json_object_object_add(o, "seats", a);
	json_object_object_add(o, "order", int_array(st->order, st->norder));
	a = json_object_new_array();
	for (int sq = 0; sq < CF_NSQ; sq++) {
		int s, id;
		if (!cf_piece_on(st, sq, &s, &id))
			continue;
		json_object *p = cf_piece_ref(st, s, id);
		cf_ev_str(p, "square", sq_name(sq, b));
		json_object_array_add(a, p);
	}
	json_object_object_add(o, "board", a);
	a = json_object_new_array();
	for (int sq = 0; sq < CF_NSQ; sq++)
		if (st->terrain[sq] != CF_T_NONE) {
			json_object *t = json_object_new_object();
			cf_ev_str(t, "square", sq_name(sq, b));
			cf_ev_str(t, "type", cf_terrain_name[st->terrain[sq]]);
			json_object_array_add(a, t);
		}
	json_object_object_add(o, "terrain", a);
	if (st->phase == CF_OVER) {
		json_object *r = json_object_new_object(), *w = json_object_new_array();
		for (int s = 0; s < st->nseats; s++)
			if (st->winners & (1u << s))
				json_object_array_add(w, jint(s));
		json_object_object_add(r, "winners", w);
		cf_ev_str(r, "reason", st->reason);
		json_object_object_add(o, "result", r);
	} else {
		json_object_object_add(o, "result", NULL);
	}
	return o;
}

static unsigned
cf_to_act(const void *st)
{
	return cf_awaited(st);
}

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

const struct wr_ruleset cf_ruleset = {
	.id = "confrontation",
	.title = "Confrontation",
	.source = "004_13fa4739ee387ac7.txt",
	.min_seats = 2,
	.max_seats = 4,
	.options = cf_options,
	.create = cf_create,
	.load = cf_load,
	.save = cf_save,
	.free = cf_free,
	.to_act = cf_to_act,
	.actions = cf_actions,
	.apply = cf_apply,
	.set_orders = cf_orders,
	.resign = cf_resign_seat,
	.view = cf_view,
	.result = cf_result,
	.seats_in = cf_seats_in,
};
