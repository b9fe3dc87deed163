/*
 * ChessWar's snapshot: the whole state as JSON (save) and back (load,
 * validated field by field, then cw_check_state; fuzzed). Fields added
 * after matches were stored are optional, so older snapshots still load.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cw_json.h"

/* The snapshot's plain int fields, each under its member's name, in the
 * order they are written. */
#define SAVED(type, member) {#member, WR_JF_INT, offsetof(struct type, member), NULL}
static const struct wr_json_field action_head[] = {SAVED(cw_action, type), SAVED(cw_action, army)};
static const struct wr_json_field action_target[] = {SAVED(cw_action, count),
                                                     SAVED(cw_action, unit), SAVED(cw_action, to)};
static const struct wr_json_field action_tail[] = {SAVED(cw_action, first), SAVED(cw_action, spell),
                                                   SAVED(cw_action, effect),
                                                   SAVED(cw_action, target2)};
static const struct wr_json_field state_turn[] = {
	SAVED(cw_state, phase), SAVED(cw_state, turn_seat),  SAVED(cw_state, round),
	SAVED(cw_state, turn),  SAVED(cw_state, first_seat), SAVED(cw_state, out)};
static const struct wr_json_field state_pending[] = {
	SAVED(cw_state, rolloff_winner), SAVED(cw_state, last_moved), SAVED(cw_state, pending),
	SAVED(cw_state, pend_unit),      SAVED(cw_state, pend_from),  SAVED(cw_state, heal_seat),
	SAVED(cw_state, pending_next)};
static const struct wr_json_field state_react[] = {
	SAVED(cw_state, react_seat), SAVED(cw_state, dispel_fx), SAVED(cw_state, protect_after)};

static void
action_out(struct wr_out *w, const char *key, const struct cw_state *st,
           const struct cw_action *a)
{
	wr_out_obj(w, key);
	wr_out_fields(w, a, action_head, WR_JF_COUNT(action_head), &st->board);
	wr_out_str(w, "utype", a->utype);
	wr_out_fields(w, a, action_target, WR_JF_COUNT(action_target), &st->board);
	wr_out_ints(w, "path", a->path, a->npath);
	wr_out_fields(w, a, action_tail, WR_JF_COUNT(action_tail), &st->board);
	wr_out_end(w);
}

/* A set of unit ids: a number (the bits) while it fits in 63 bits, as every
 * set of two seats does, else the list of ids. */
static void
links_out(struct wr_out *w, cw_links l)
{
	if (!(l >> 63)) {
		wr_out_int(w, NULL, (int64_t)l);
		return;
	}
	wr_out_arr(w, NULL);
	for (int j = 0; j < CW_UNITS; j++)
		if ((l >> j) & 1)
			wr_out_int(w, NULL, j);
	wr_out_end(w);
}

static int
links_load(json_object *v, cw_links *out)
{
	*out = 0;
	if (json_object_is_type(v, json_type_int)) {
		if (json_object_get_int64(v) < 0)
			return -1;
		*out = (cw_links)(uint64_t)json_object_get_int64(v);
		return 0;
	}
	if (!json_object_is_type(v, json_type_array) || json_object_array_length(v) > CW_UNITS)
		return -1;
	for (size_t i = 0; i < json_object_array_length(v); i++) {
		json_object *x = json_object_array_get_idx(v, i);
		int j = json_object_is_type(x, json_type_int) ? json_object_get_int(x) : -1;
		if (j < 0 || j >= CW_UNITS)
			return -1;
		*out |= CW_BIT(j);
	}
	return 0;
}

/* The snapshot, written once for its tree and its text (rules/out.c). */
void
cw_save_out(const void *state, struct wr_out *w)
{
	const struct cw_state *st = state;
	char terr[CW_MAX_SQ + 1];
	int nsq = st->o.files * st->o.ranks;

	wr_out_obj(w, NULL);
	wr_out_int(w, "seats", st->nseats);
	wr_out_int(w, "files", st->o.files);
	wr_out_int(w, "ranks", st->o.ranks);
	wr_out_int(w, "total_massacre", st->o.total_massacre);
	for (int i = 0; i < nsq; i++)
		terr[i] = "ofh"[st->o.terrain[i]];
	terr[nsq] = 0;
	wr_out_str(w, "terrain", terr);
	wr_out_fields(w, st, state_turn, WR_JF_COUNT(state_turn), &st->board);
	wr_out_arr(w, "order");
	for (int s = 0; s < st->nseats; s++)
		wr_out_int(w, NULL, st->order[s]);
	wr_out_end(w);
	wr_out_fields(w, st, state_pending, WR_JF_COUNT(state_pending), &st->board);
	action_out(w, "cast", st, &st->cast);
	action_out(w, "held", st, &st->held);
	/* only while a reaction waits for a Counterspell: older snapshots and
	 * every other state are as before */
	if (st->pending == CW_PEND_RCOUNTER) {
		action_out(w, "rx", st, &st->rx);
		wr_out_int(w, "rx_seat", st->rx_seat);
	}
	wr_out_fields(w, st, state_react, WR_JF_COUNT(state_react), &st->board);
	wr_out_arr(w, "hits");
	wr_out_int(w, NULL, st->hit_weapon);
	for (int i = 0; i < st->nhitq; i++)
		wr_out_int(w, NULL, st->hitq[i]);
	wr_out_end(w);
	wr_out_arr(w, "fx");
	for (int i = 0; i < st->nfx; i++) {
		int f[] = {st->fx[i].spell, st->fx[i].caster, st->fx[i].target};
		wr_out_ints(w, NULL, f, 3);
	}
	wr_out_end(w);
	wr_out_int(w, "winner", st->winner);
	int shot[] = {st->shot_from, st->shot_aim, st->shot_land};
	wr_out_ints(w, "shot", shot, 3);
	wr_out_str(w, "reason", st->reason);
	wr_out_arr(w, "sides");
	for (int s = 0; s < st->nseats; s++) {
		const struct cw_side *sd = &st->side[s];
		wr_out_obj(w, NULL);
		wr_out_int(w, "army", sd->army);
		wr_out_int(w, "stage", sd->stage);
		wr_out_int(w, "spent", sd->spent);
		wr_out_ints(w, "counts", sd->counts, CW_TYPES);
		wr_out_int(w, "counter_order", sd->counter_order);
		wr_out_int(w, "counter_mask", (int)sd->counter_mask);
		wr_out_int(w, "heal_order", sd->heal_order);
		wr_out_int(w, "protect_order", sd->protect_order);
		wr_out_int(w, "dispel_order", sd->dispel_order);
		wr_out_int(w, "dispel_mask", (int)sd->dispel_mask);
		wr_out_end(w);
	}
	wr_out_end(w);
	wr_out_arr(w, "units");
	for (int i = 0; i < st->nseats * CW_UPS; i++) {
		const struct cw_unit *u = &st->u[i];
		int v[] = {u->status,   u->type, u->sq,      u->moved, u->charged, u->shot,
		           u->attacked, u->cast, u->instant, u->regen, u->strike,  u->dying};
		wr_out_arr(w, NULL);
		for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++)
			wr_out_int(w, NULL, v[k]);
		links_out(w, u->link);
		links_out(w, u->was_link);
		/* after the links, so that snapshots without it still load */
		wr_out_int(w, NULL, u->done_moving);
		wr_out_end(w);
	}
	wr_out_end(w);
	wr_out_end(w);
}

json_object *
cw_snapshot(const void *state)
{
	return wr_out_tree(cw_save_out, state);
}

static int
get_int(json_object *o, const char *k, int min, int max, int *out, struct wr_error *err)
{
	return wr_json_int(o, k, min, max, 1, 0, out, err);
}

/* The string `k`, shorter than `size`, copied into `buf`. */
static int
get_str(json_object *o, const char *k, char *buf, size_t size, struct wr_error *err)
{
	json_object *t;
	if (!json_object_object_get_ex(o, k, &t) || !json_object_is_type(t, json_type_string) ||
	    strlen(json_object_get_string(t)) >= size)
		return wr_fail(err, "bad-snapshot", k, "bad %s", k);
	snprintf(buf, size, "%s", json_object_get_string(t));
	return 0;
}

/* The array `k` of min to max items, or NULL and err ("bad-snapshot",
 * `message`). */
static json_object *
get_array(json_object *o, const char *k, size_t min, size_t max, const char *message,
          struct wr_error *err)
{
	json_object *t;
	if (!json_object_object_get_ex(o, k, &t) || !json_object_is_type(t, json_type_array) ||
	    json_object_array_length(t) < min || json_object_array_length(t) > max) {
		wr_fail(err, "bad-snapshot", k, "%s", message);
		return NULL;
	}
	return t;
}

/* A field added after matches were stored: `def` when absent. */
static int
get_new(json_object *o, const char *k, int min, int max, int def, int *out, struct wr_error *err)
{
	return wr_json_int(o, k, min, max, 0, def, out, err);
}

static int
load_action(const struct cw_state *st, json_object *o, struct cw_action *a, struct wr_error *err)
{
	json_object *p;
	int nsq = st->o.files * st->o.ranks;
	memset(a, 0, sizeof(*a));
	if (!json_object_is_type(o, json_type_object))
		return wr_fail(err, "bad-snapshot", "cast", "cast: an object");
	if (get_int(o, "type", 0, CW_A_MAX - 1, &a->type, err) ||
	    get_int(o, "army", -1, CW_ARMY_MAX - 1, &a->army, err) ||
	    get_int(o, "count", 0, 100, &a->count, err) ||
	    get_int(o, "unit", -1, nsq - 1, &a->unit, err) ||
	    get_int(o, "to", -1, nsq - 1, &a->to, err) ||
	    get_int(o, "first", 0, 1, &a->first, err) ||
	    get_int(o, "spell", -1, CW_SPELL_MAX - 1, &a->spell, err) ||
	    get_int(o, "effect", -1, CW_MAX_FX - 1, &a->effect, err) ||
	    get_int(o, "target2", -1, nsq - 1, &a->target2, err))
		return -1;
	if (get_str(o, "utype", a->utype, sizeof(a->utype), err) ||
	    !(p = get_array(o, "path", 0, CW_MAX_PATH, "bad path", err)))
		return -1;
	a->npath = (int)json_object_array_length(p);
	for (int i = 0; i < a->npath; i++) {
		json_object *v = json_object_array_get_idx(p, (size_t)i);
		if (!json_object_is_type(v, json_type_int) || json_object_get_int(v) < 0 ||
		    json_object_get_int(v) >= nsq)
			return wr_fail(err, "bad-snapshot", "path", "bad path");
		a->path[i] = json_object_get_int(v);
	}
	return 0;
}

static int
load_into(json_object *o, struct cw_state *st, struct wr_error *err)
{
	json_object *t, *arr;
	int nsq, v, v2;
	struct cw_opts op;
	memset(&op, 0, sizeof(op));
	if (!json_object_is_type(o, json_type_object))
		return wr_fail(err, "bad-snapshot", "", "a snapshot is an object");
	if (get_new(o, "seats", 2, CW_SEATS, 2, &op.seats, err) ||
	    get_int(o, "files", 8, CW_MAX_FILES, &op.files, err) ||
	    get_int(o, "ranks", 8, CW_MAX_RANKS, &op.ranks, err) ||
	    get_int(o, "total_massacre", 0, 1, &op.total_massacre, err))
		return -1;
	nsq = op.files * op.ranks;
	op.catapult_range = (op.files > 8 || op.ranks > 8) ? 8 : 0;
	if (!json_object_object_get_ex(o, "terrain", &t) || !json_object_is_type(t, json_type_string) ||
	    json_object_get_string_len(t) != nsq)
		return wr_fail(err, "bad-snapshot", "terrain", "bad terrain");
	for (int i = 0; i < nsq; i++) {
		const char *p = strchr("ofh", json_object_get_string(t)[i]);
		if (!p || !*p)
			return wr_fail(err, "bad-snapshot", "terrain", "bad terrain");
		op.terrain[i] = (uint8_t)(p - "ofh");
	}
	cw_init(st, &op);
	if (get_int(o, "phase", 0, CW_PH_OVER, &st->phase, err) ||
	    get_int(o, "turn_seat", 0, st->nseats - 1, &st->turn_seat, err) ||
	    get_int(o, "round", 0, 1000000, &st->round, err) ||
	    get_int(o, "turn", 0, 2000000, &st->turn, err) ||
	    get_int(o, "first_seat", -1, st->nseats - 1, &st->first_seat, err) ||
	    get_new(o, "out", 0, (1 << st->nseats) - 1, 0, &v, err) ||
	    get_int(o, "rolloff_winner", -1, 1, &st->rolloff_winner, err) ||
	    get_int(o, "last_moved", -1, CW_UNITS - 1, &st->last_moved, err) ||
	    get_int(o, "pending", 0, CW_PEND_RCOUNTER, &st->pending, err) ||
	    get_new(o, "react_seat", 0, st->nseats - 1, 1 - st->turn_seat, &st->react_seat, err) ||
	    get_new(o, "dispel_fx", 0, CW_MAX_FX - 1, 0, &st->dispel_fx, err) ||
	    get_new(o, "protect_after", 0, 1, 0, &st->protect_after, err) ||
	    get_int(o, "heal_seat", 0, st->nseats - 1, &st->heal_seat, err) ||
	    get_int(o, "pending_next", 0, CW_PEND_HEAL, &st->pending_next, err) ||
	    get_int(o, "pend_unit", -1, CW_UNITS - 1, &st->pend_unit, err) ||
	    get_int(o, "pend_from", -1, nsq - 1, &st->pend_from, err) ||
	    get_int(o, "winner", -1, st->nseats - 1, &st->winner, err))
		return -1;
	st->out = (unsigned)v;
	/* the turn order; stored before 3-4 armies: the first seat, then the other */
	if (json_object_object_get_ex(o, "order", &t)) {
		if (!json_object_is_type(t, json_type_array) ||
		    json_object_array_length(t) != (size_t)st->nseats)
			return wr_fail(err, "bad-snapshot", "order", "bad turn order");
		for (int s = 0; s < st->nseats; s++) {
			json_object *x = json_object_array_get_idx(t, (size_t)s);
			int sv = json_object_is_type(x, json_type_int) ? json_object_get_int(x) : -1;
			if (sv < 0 || sv >= st->nseats)
				return wr_fail(err, "bad-snapshot", "order", "bad turn order");
			st->order[s] = (int8_t)sv;
		}
	} else if (st->nseats == 2 && st->first_seat >= 0) {
		st->order[0] = (int8_t)st->first_seat;
		st->order[1] = (int8_t)(1 - st->first_seat);
	}
	if (!(t = get_array(o, "shot", 3, 3, "bad shot", err)))
		return -1;
	{
		int *dst[3] = {&st->shot_from, &st->shot_aim, &st->shot_land};
		for (int k = 0; k < 3; k++) {
			json_object *x = json_object_array_get_idx(t, (size_t)k);
			if (!json_object_is_type(x, json_type_int) || json_object_get_int(x) < -1 ||
			    json_object_get_int(x) >= nsq)
				return wr_fail(err, "bad-snapshot", "shot", "bad shot");
			*dst[k] = json_object_get_int(x);
		}
		if ((st->shot_from < 0) != (st->shot_aim < 0))
			return wr_fail(err, "bad-snapshot", "shot", "bad shot");
	}
	if (!json_object_object_get_ex(o, "cast", &t) || load_action(st, t, &st->cast, err))
		return wr_fail(err, "bad-snapshot", "cast", "bad cast");
	if (!json_object_object_get_ex(o, "held", &t) || load_action(st, t, &st->held, err))
		return wr_fail(err, "bad-snapshot", "held", "bad held action");
	if (st->pending == CW_PEND_RCOUNTER &&
	    (!json_object_object_get_ex(o, "rx", &t) || load_action(st, t, &st->rx, err) ||
	     get_int(o, "rx_seat", 0, st->nseats - 1, &st->rx_seat, err)))
		return wr_fail(err, "bad-snapshot", "rx", "bad reaction");
	if (!json_object_object_get_ex(o, "hits", &t))
		t = NULL;   /* stored before C9 (amended): nothing queued */
	else if (!json_object_is_type(t, json_type_array) || json_object_array_length(t) < 1 ||
	         json_object_array_length(t) > CW_UNITS + 1)
		return wr_fail(err, "bad-snapshot", "hits", "bad hits");
	st->nhitq = t ? (int)json_object_array_length(t) - 1 : 0;
	for (int k = 0; t && k <= st->nhitq; k++) {
		json_object *x = json_object_array_get_idx(t, (size_t)k);
		int hv = json_object_is_type(x, json_type_int) ? json_object_get_int(x) : -1;
		if (hv < 0 || hv >= (k == 0 ? CW_W_MAX : CW_UNITS))
			return wr_fail(err, "bad-snapshot", "hits", "bad hits");
		if (k == 0)
			st->hit_weapon = hv;
		else
			st->hitq[k - 1] = hv;
	}
	if (get_str(o, "reason", st->reason, sizeof(st->reason), err) ||
	    !(arr = get_array(o, "fx", 0, CW_MAX_FX, "bad effects", err)))
		return -1;
	st->nfx = (int)json_object_array_length(arr);
	for (int i = 0; i < st->nfx; i++) {
		json_object *f = json_object_array_get_idx(arr, (size_t)i);
		int val[3];
		if (!json_object_is_type(f, json_type_array) || json_object_array_length(f) != 3)
			return wr_fail(err, "bad-snapshot", "fx", "bad effect");
		for (int k = 0; k < 3; k++) {
			json_object *x = json_object_array_get_idx(f, (size_t)k);
			if (!json_object_is_type(x, json_type_int))
				return wr_fail(err, "bad-snapshot", "fx", "bad effect");
			val[k] = json_object_get_int(x);
		}
		if (val[0] < 0 || val[0] >= CW_SPELL_MAX || val[1] < 0 || val[1] >= CW_UNITS ||
		    val[2] < -1 || val[2] >= CW_UNITS)
			return wr_fail(err, "bad-snapshot", "fx", "bad effect");
		st->fx[i] = (struct cw_effect){val[0], val[1], val[2]};
	}
	if (!(arr = get_array(o, "sides", (size_t)st->nseats, (size_t)st->nseats, "bad sides", err)))
		return -1;
	for (int s = 0; s < st->nseats; s++) {
		json_object *so = json_object_array_get_idx(arr, (size_t)s), *c;
		struct cw_side *sd = &st->side[s];
		int spent = 0;
		if (!json_object_is_type(so, json_type_object) ||
		    get_int(so, "army", -1, CW_ARMY_MAX - 1, &sd->army, err) ||
		    get_int(so, "stage", 0, CW_STAGE_DONE, &sd->stage, err) ||
		    get_int(so, "spent", 0, 1000, &sd->spent, err) ||
		    get_int(so, "counter_order", 0, 3, &sd->counter_order, err) ||
		    get_int(so, "heal_order", 0, 2, &sd->heal_order, err) ||
		    get_int(so, "protect_order", 0, 2, &sd->protect_order, err) ||
		    get_new(so, "dispel_order", 0, 3, 0, &sd->dispel_order, err) ||
		    get_new(so, "dispel_mask", 0, (1 << CW_SPELL_MAX) - 1, 0, &v2, err) ||
		    get_int(so, "counter_mask", 0, (1 << CW_SPELL_MAX) - 1, &v, err))
			return wr_fail(err, "bad-snapshot", "sides", "bad side");
		sd->counter_mask = (unsigned)v;
		sd->dispel_mask = (unsigned)v2;
		if (!(c = get_array(so, "counts", CW_TYPES, CW_TYPES, "bad counts", err)))
			return -1;
		for (int k = 0; k < CW_TYPES; k++) {
			json_object *x = json_object_array_get_idx(c, (size_t)k);
			int max = 0;
			if (sd->army >= 0 && k > 0 && k < cw_armies[sd->army].ntypes)
				max = cw_armies[sd->army].units[k].max;
			if (!json_object_is_type(x, json_type_int) || json_object_get_int(x) < 0 ||
			    json_object_get_int(x) > max)
				return wr_fail(err, "bad-snapshot", "counts", "bad counts");
			sd->counts[k] = json_object_get_int(x);
			if (sd->army >= 0)
				spent += sd->counts[k] * cw_armies[sd->army].units[k].cost;
		}
		if (spent != sd->spent || (sd->army >= 0 && spent > cw_armies[sd->army].points))
			return wr_fail(err, "bad-snapshot", "spent", "bad spent");
	}
	size_t nunits = (size_t)(st->nseats * CW_UPS);
	if (!(arr = get_array(o, "units", nunits, nunits, "bad units", err)))
		return -1;
	for (int i = 0; i < st->nseats * CW_UPS; i++) {
		json_object *a = json_object_array_get_idx(arr, (size_t)i);
		int val[12];
		static const int lo[12] = {0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
		int hi[12] = {CW_U_DEAD, CW_TYPES - 1, nsq - 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
		json_object *l, *wl, *dm;
		cw_links link, was_link;
		int done_moving = 0;
		/* 14 fields before done_moving was kept (it is then 0) */
		if (!json_object_is_type(a, json_type_array) ||
		    (json_object_array_length(a) != 14 && json_object_array_length(a) != 15))
			return wr_fail(err, "bad-snapshot", "units", "bad unit");
		if ((dm = json_object_array_get_idx(a, 14))) {
			if (!json_object_is_type(dm, json_type_int) || json_object_get_int(dm) < 0 ||
			    json_object_get_int(dm) > 1)
				return wr_fail(err, "bad-snapshot", "units", "bad unit");
			done_moving = json_object_get_int(dm);
		}
		for (int k = 0; k < 12; k++) {
			json_object *x = json_object_array_get_idx(a, (size_t)k);
			if (!json_object_is_type(x, json_type_int) || json_object_get_int(x) < lo[k] ||
			    json_object_get_int(x) > hi[k])
				return wr_fail(err, "bad-snapshot", "units", "bad unit");
			val[k] = json_object_get_int(x);
		}
		l = json_object_array_get_idx(a, 12);
		wl = json_object_array_get_idx(a, 13);
		if (links_load(l, &link) || links_load(wl, &was_link))
			return wr_fail(err, "bad-snapshot", "units", "bad link");
		st->u[i] = (struct cw_unit){.status = (int8_t)val[0], .type = (int8_t)val[1],
		                            .sq = (int16_t)val[2], .moved = (uint8_t)val[3],
		                            .charged = (uint8_t)val[4], .shot = (uint8_t)val[5],
		                            .attacked = (uint8_t)val[6], .cast = (uint8_t)val[7],
		                            .instant = (uint8_t)val[8], .regen = (uint8_t)val[9],
		                            .strike = (uint8_t)val[10], .dying = (uint8_t)val[11],
		                            .done_moving = (uint8_t)done_moving,
		                            .link = link, .was_link = was_link};
		/* An empty slot is all zero but its square (-1): field by field, since
		 * a struct's padding bytes are not part of its value. */
		int blank = val[2] == -1 && st->u[i].link == 0 && st->u[i].was_link == 0 &&
		            !done_moving;
		for (int k = 1; k < 12; k++)
			blank &= k == 2 || val[k] == 0;
		if (st->u[i].status == CW_U_EMPTY && !blank)
			return wr_fail(err, "bad-snapshot", "units", "bad empty slot");
		if (st->u[i].regen && st->u[i].status != CW_U_DEAD)
			return wr_fail(err, "bad-snapshot", "units", "bad regen");
	}
	/* the reserve and fielded units match the counts bought */
	for (int s = 0; s < st->nseats; s++) {
		int n[CW_TYPES] = {0}, k0 = 0;
		if (st->side[s].stage < CW_STAGE_DEPLOY)
			continue;
		for (int k = 0; k < CW_UPS; k++) {
			const struct cw_unit *u = &st->u[s * CW_UPS + k];
			if (u->status == CW_U_EMPTY) {
				k0 = 1;
				continue;
			}
			if (k0)
				return wr_fail(err, "bad-snapshot", "units", "a gap in the units");
			n[u->type]++;
		}
		for (int k = 1; k < CW_TYPES; k++)
			if (n[k] != st->side[s].counts[k])
				return wr_fail(err, "bad-snapshot", "units", "units and counts disagree");
	}
	if (st->phase == CW_PH_SETUP) {
		for (int s = 0; s < st->nseats; s++)
			for (int k = 0; k < CW_UPS; k++)
				if (st->u[s * CW_UPS + k].status == CW_U_DEAD)
					return wr_fail(err, "bad-snapshot", "units", "dead in set-up");
	}
	cw_rebuild_at(st);
	return cw_check_state(st, err);
}

int
cw_load(json_object *snap, void **state, struct wr_error *err)
{
	struct cw_state *st = calloc(1, sizeof(*st));
	if (!st)
		return wr_fail(err, "internal", "", "out of memory");
	if (load_into(snap, st, err) != 0) {
		free(st);
		return -1;
	}
	*state = st;
	return 0;
}
