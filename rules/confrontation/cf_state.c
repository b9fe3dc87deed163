/*
 * Confrontation's state as JSON: the snapshot (save/load, secrets
 * included, never sent to a client) and the view each viewer may see
 * (G5). Codec only: load() checks the snapshot with cf_check(). Calls
 * the rule files (cf_rules.c, cf_match.c, cf_board.c) and the data; only
 * cf_codec.c calls into it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cf_rules.h"

static const char *
sq_name(int sq, char buf[8])
{
	return wr_square_name(CF_B8, sq, buf);
}

/* A piece as events and views name it: {seat, id, type}. */
json_object *
cf_piece_ref(const struct cf_state *st, int seat, int id)
{
	json_object *o = json_object_new_object();
	wr_json_put_int(o, "seat", seat);
	wr_json_put_int(o, "id", id);
	wr_json_put_str(o, "type", cf_type_name[st->s[seat].p[id].type]);
	return o;
}

/* ------------------------------------------------------- snapshot */

/* The snapshot, written once for its tree and its text (rules/out.c). */
void
cf_save_out(const void *vst, struct wr_out *w)
{
	const struct cf_state *st = vst;
	char terrain[CF_NSQ + 1];
	int opts[6] = {st->o.points, st->o.races, st->o.treasure, st->o.kings_magic,
	               st->o.terrain_mode, st->o.random_areas};
	for (int i = 0; i < CF_NSQ; i++)
		terrain[i] = cf_terrain_letter[st->terrain[i]];
	terrain[CF_NSQ] = '\0';
	wr_out_obj(w, NULL);
	wr_out_int(w, "v", 1);
	wr_out_ints(w, "options", opts, 6);
	wr_out_int(w, "seats", st->nseats);
	wr_out_str(w, "phase", cf_phase_name[st->phase]);
	wr_out_str(w, "terrain", terrain);
	wr_out_arr(w, "armies");
	for (int s = 0; s < st->nseats; s++) {
		const struct cf_seat *x = &st->s[s];
		int f[11] = {x->points, x->race, x->racial, x->racial_bought, x->ready, x->out,
		             x->o_htl, x->o_luck, x->o_live, x->nrolls, x->n};
		wr_out_obj(w, NULL);
		wr_out_ints(w, "f", f, 11);
		wr_out_ints(w, "rolls", x->rolls, x->nrolls);
		wr_out_arr(w, "pieces");
		for (int i = 0; i < x->n; i++) {
			const struct cf_piece *p = &x->p[i];
			int v[10] = {p->type, p->sq, p->status, p->strength, p->treasure};
			memcpy(v + 5, p->spells, sizeof(p->spells));
			wr_out_ints(w, NULL, v, 10);
		}
		wr_out_end(w);
		wr_out_end(w);
	}
	wr_out_end(w);
	wr_out_ints(w, "order", st->order, st->norder);
	{
		/* t[6] holds Leadership used (bit 0) and a rise this turn (bit 1,
		 * R8), so that snapshots keep their shape. */
		int t[13] = {st->chooser, st->placer, st->turn, st->active, st->nacts, (int)st->used,
		             (st->leadership_used ? 1 : 0) | (st->rose ? 2 : 0), st->risen, st->swift, st->fury,
		             (int)st->fury_excl, st->idle, (int)st->winners};
		wr_out_ints(w, "t", t, 13);
	}
	{
		const struct cf_res *r = &st->r;
		const struct cf_battle *b = &r->b;
		int v[44] = {r->kind, r->src, r->seat, r->id, r->spell, r->nt, r->ti, 0,
		             r->moved, r->panic_seat, r->panic_id, r->in_battle, b->stage, b->a_seat,
		             b->a_id, b->d_seat, b->d_id, b->from, b->at, b->spell, b->htl, b->a_die,
		             b->d_die, b->a_luck, b->d_luck, b->loser_seat, b->loser_id, b->outcome};
		for (int i = 0; i < 8; i++)
			v[28 + i] = r->tseat[i], v[36 + i] = r->tid[i];
		wr_out_ints(w, "res", v, 44);
	}
	{
		/* Battle Fury (R8, amended): its seat, the Furies owed, each
		 * seat's standing order. A key of its own: older snapshots
		 * without it still load. */
		int f[1 + 2 * WR_MAX_SEATS] = {st->fury_seat};
		for (int s = 0; s < WR_MAX_SEATS; s++)
			f[1 + s] = (int)st->fury_won[s], f[1 + WR_MAX_SEATS + s] = st->s[s].o_fury;
		wr_out_ints(w, "fury", f, 1 + 2 * WR_MAX_SEATS);
		/* The Orc pieces that fought in those battles (R8); older
		 * snapshots without the key take the winners alone. */
		int g[WR_MAX_SEATS];
		for (int s = 0; s < WR_MAX_SEATS; s++)
			g[s] = (int)st->fury_fought[s];
		wr_out_ints(w, "fury_fought", g, WR_MAX_SEATS);
	}
	/* The order an open Live Again question was asked under (G3); older
	 * snapshots without the key answer it with the current order. */
	wr_out_int(w, "live_asked", st->r.b.live_asked);
	wr_out_str(w, "reason", st->reason);
	wr_out_end(w);
}

json_object *
cf_snapshot(const void *vst)
{
	return wr_out_tree(cf_save_out, vst);
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

int
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
		if ((unsigned)x->ready > 1 || (unsigned)x->out > 1 || x->nrolls < 0 || x->nrolls > CF_MAX_ROLLS ||
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
	st->nacts = t[4], st->used = (unsigned)t[5] & 0xffffu, st->leadership_used = t[6] & 1;
	st->rose = (t[6] >> 1) & 1;
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
		r->nt = res[5], r->ti = res[6], r->moved = res[8];
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
	st->fury_seat = st->fury ? st->active : -1;
	if (json_object_object_get_ex(snap, "fury", &v)) {
		int f[1 + 2 * WR_MAX_SEATS];
		if (read_ints(snap, "fury", f, 1 + 2 * WR_MAX_SEATS, 1, err) < 0)
			goto fail;
		st->fury_seat = f[0];
		for (int k = 0; k < WR_MAX_SEATS; k++)
			st->fury_won[k] = (unsigned)f[1 + k], st->s[k].o_fury = f[1 + WR_MAX_SEATS + k];
	}
	for (int k = 0; k < WR_MAX_SEATS; k++)
		st->fury_fought[k] = st->fury_won[k];
	if (json_object_object_get_ex(snap, "fury_fought", &v)) {
		int g[WR_MAX_SEATS];
		if (read_ints(snap, "fury_fought", g, WR_MAX_SEATS, 1, err) < 0)
			goto fail;
		for (int k = 0; k < WR_MAX_SEATS; k++)
			st->fury_fought[k] = (unsigned)g[k];
	}
	if (wr_json_int(snap, "live_asked", 0, CF_YESNO_MAX, 0, 0, &st->r.b.live_asked, err) != 0)
		goto bad;
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


/* -------------------------------------------------------------- view */

static const char *
prompt(const struct cf_state *st, const char *kind)
{
	/* What each pending kind (cf_pending_kind) asks; order and turn say
	 * more, below. */
	static const char *const asks[][2] = {
		{"build", "build your army: buy pieces, spells and racial uses, then ready"},
		{"roll_off", "call the set-up roll-off (ready)"},
		{"place", "place your army on your two nearest ranks"},
		{"rise_move", "the risen piece may move now, or stay"},
		{"hold_the_line", "Hold the Line: +2 for your defending dwarf for one racial token?"},
		{"luck", "Luck: re-roll your combat die for one racial token?"},
		{"live_again", "Live Again: choose a square on your nearest rank, or decline"},
		{"battle_fury", "Battle Fury: move another orc piece onto an enemy, or end the fury"},
		{"panic_square",
		 "Panic: choose the empty square on your nearest rank your piece runs to"},
	};
	if (!strcmp(kind, "order"))
		return st->nseats == 2 ? "you rolled highest: set up and play first or second"
		                       : "you rolled highest: set up and play first or last";
	if (!strcmp(kind, "turn"))
		return st->nacts < 2 ? "your turn: take an action with a piece"
		                     : "your turn: optional abilities, or end the turn";
	for (size_t i = 0; i < sizeof(asks) / sizeof(asks[0]); i++)
		if (!strcmp(kind, asks[i][0]))
			return asks[i][1];
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

json_object *
cf_view(const void *vst, int viewer)
{
	const struct cf_state *st = vst;
	json_object *o = json_object_new_object(), *a;
	int all = viewer == WR_EVERYONE || st->phase == CF_OVER;
	char b[8];
	wr_json_put_str(o, "ruleset", "confrontation");
	wr_json_put_str(o, "phase", cf_phase_name[st->phase]);
	wr_json_put_int(o, "turn", st->turn);
	json_object_object_add(o, "active", st->phase == CF_PLAY ? json_object_new_int(st->active) : NULL);
	{
		json_object *op = json_object_new_object();
		wr_json_put_int(op, "army_points", st->o.points);
		json_object_object_add(op, "races", json_object_new_boolean(st->o.races));
		json_object_object_add(op, "treasure", json_object_new_boolean(st->o.treasure));
		json_object_object_add(op, "kings_magic", json_object_new_boolean(st->o.kings_magic));
		wr_json_put_str(op, "terrain", cf_tm_name[st->o.terrain_mode]);
		json_object_object_add(o, "options", op);
	}
	a = json_object_new_array();
	for (int s = 0; s < st->nseats; s++) {
		const char *k = cf_pending_kind(st, s);
		if (!k)
			continue;
		json_object *p = json_object_new_object();
		wr_json_put_int(p, "seat", s);
		wr_json_put_str(p, "kind", k);
		wr_json_put_str(p, "prompt", prompt(st, k));
		json_object_array_add(a, p);
	}
	json_object_object_add(o, "pending", a);
	/* The turn in progress. */
	if (st->phase == CF_PLAY) {
		json_object *t = json_object_new_object(), *u = json_object_new_array();
		wr_json_put_int(t, "actions_taken", st->nacts);
		for (int i = 0; i < CF_MAX_PIECES; i++)
			if (st->used & (1u << i))
				json_object_array_add(u, json_object_new_int(i));
		json_object_object_add(t, "pieces_used", u);
		json_object_object_add(t, "leadership_used",
		                       json_object_new_boolean(st->leadership_used));
		wr_json_put_sq(t, "risen", CF_B8, st->risen >= 0 ? st->s[st->active].p[st->risen].sq : -1);
		wr_json_put_sq(t, "swift_offer", CF_B8, st->swift >= 0 ? st->s[st->active].p[st->swift].sq : -1);
		json_object_object_add(t, "battle_fury", json_object_new_boolean(st->fury != 0));
		wr_json_put(t, "fury_seat", st->fury_seat >= 0 ? json_object_new_int(st->fury_seat)
		                                               : NULL);
		json_object_object_add(o, "turn_state", t);
	} else {
		json_object_object_add(o, "turn_state", NULL);
	}
	if (st->phase == CF_PLAY && st->r.kind != CF_RES_NONE && st->r.in_battle) {
		const struct cf_battle *bt = &st->r.b;
		json_object *x = json_object_new_object();
		json_object_object_add(x, "attacker", cf_piece_ref(st, bt->a_seat, bt->a_id));
		json_object_object_add(x, "defender", cf_piece_ref(st, bt->d_seat, bt->d_id));
		wr_json_put_sq(x, "from", CF_B8, bt->from);
		wr_json_put_sq(x, "at", CF_B8, bt->at);
		json_object_object_add(x, "spell",
		                       bt->spell >= 0 ? json_object_new_string(cf_spell_name[bt->spell])
		                                      : NULL);
		wr_json_put_str(x, "stage", cf_stage_name[bt->stage]);
		json_object_object_add(x, "hold_the_line", json_object_new_boolean(bt->htl));
		json_object_object_add(x, "attacker_die", bt->stage > CF_ST_ROLL ? json_object_new_int(bt->a_die) : NULL);
		json_object_object_add(x, "defender_die", bt->stage > CF_ST_ROLL ? json_object_new_int(bt->d_die) : NULL);
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
		wr_json_put_int(so, "seat", s);
		json_object_object_add(so, "out", json_object_new_boolean(x->out));
		json_object_object_add(so, "ready", json_object_new_boolean(x->ready));
		json_object_object_add(so, "points_left", shown ? json_object_new_int(x->points) : NULL);
		json_object_object_add(so, "race", shown && st->o.races
		                                           ? json_object_new_string(cf_race_name[x->race])
		                                           : NULL);
		json_object_object_add(so, "racial_tokens", shown && st->o.races ? json_object_new_int(x->racial) : NULL);
		json_object_object_add(so, "setup_rolls", wr_json_ints(x->rolls, x->nrolls));
		if (shown) {
			ps = json_object_new_array();
			for (int i = 0; i < x->n; i++) {
				const struct cf_piece *p = &x->p[i];
				json_object *po = json_object_new_object();
				wr_json_put_int(po, "id", i);
				wr_json_put_str(po, "type", cf_type_name[p->type]);
				wr_json_put_str(po, "status", cf_status_name[p->status]);
				wr_json_put_sq(po, "square", CF_B8, p->sq);
				wr_json_put_int(po, "strength_tokens", p->strength);
				wr_json_put_int(po, "treasure", p->treasure);
				wr_json_put_int(po, "spell_count", cf_nspells(p));
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
			wr_json_put_str(or, "hold_the_line", cf_yesno_name[x->o_htl]);
			wr_json_put_str(or, "luck", cf_luck_name[x->o_luck]);
			wr_json_put_str(or, "live_again", cf_yesno_name[x->o_live]);
			wr_json_put_str(or, "battle_fury", cf_fury_order_name[x->o_fury]);
			json_object_object_add(so, "standing_orders", or);
		} else {
			json_object_object_add(so, "standing_orders", NULL);
		}
		json_object_array_add(a, so);
	}
	json_object_object_add(o, "seats", a);
	json_object_object_add(o, "order", wr_json_ints(st->order, st->norder));
	a = json_object_new_array();
	for (int sq = 0; sq < CF_NSQ; sq++) {
		int s, id;
		if (!cf_piece_on(st, sq, &s, &id))
			continue;
		json_object *p = cf_piece_ref(st, s, id);
		wr_json_put_str(p, "square", sq_name(sq, b));
		json_object_array_add(a, p);
	}
	json_object_object_add(o, "board", a);
	a = json_object_new_array();
	for (int sq = 0; sq < CF_NSQ; sq++)
		if (st->terrain[sq] != CF_T_NONE) {
			json_object *t = json_object_new_object();
			wr_json_put_str(t, "square", sq_name(sq, b));
			wr_json_put_str(t, "type", cf_terrain_name[st->terrain[sq]]);
			json_object_array_add(a, t);
		}
	json_object_object_add(o, "terrain", a);
	if (st->phase == CF_OVER) {
		json_object *r = json_object_new_object(), *w = json_object_new_array();
		for (int s = 0; s < st->nseats; s++)
			if (st->winners & (1u << s))
				json_object_array_add(w, json_object_new_int(s));
		json_object_object_add(r, "winners", w);
		wr_json_put_str(r, "reason", st->reason);
		json_object_object_add(o, "result", r);
	} else {
		json_object_object_add(o, "result", NULL);
	}
	return o;
}

