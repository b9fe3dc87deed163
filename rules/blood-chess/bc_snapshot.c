/* Blood Chess's state as JSON: the character sheets, the snapshot
 * (save/load, secrets included, never sent to a client) and the view each
 * viewer may see. Codec only: load() checks the snapshot with
 * bc_state_coherent(). Calls the rule files and the data; only
 * bc_codec.c calls into it.
 *
 * B12: a view names pieces by square and public kind only, sorted by
 * square, and no field's presence or length depends on a secret the
 * viewer may not see. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc_rules.h"

#define B (&wr_board8)

/* -------------------------------------------------------------- sheets */

/* A character sheet, in the snapshot and in views. */
static void
sheet_out(struct wr_out *w, const char *key, const struct bc_sheet *sh)
{
	wr_out_obj(w, key);
	wr_out_str(w, "name", sh->name);
	wr_out_int(w, "dex", sh->dex);
	wr_out_int(w, "spd", sh->spd);
	wr_out_int(w, "ocv", sh->ocv);
	wr_out_int(w, "dcv", sh->dcv);
	wr_out_int(w, "con", sh->con);
	wr_out_int(w, "body", sh->body);
	wr_out_int(w, "stun", sh->stun);
	wr_out_int(w, "rec", sh->rec);
	wr_out_int(w, "pd", sh->pd);
	wr_out_int(w, "ed", sh->ed);
	wr_out_int(w, "rpd", sh->rpd);
	wr_out_int(w, "red", sh->red);
	wr_out_arr(w, "attacks");
	for (int k = 0; k < sh->nattacks; k++) {
		const struct bc_attack *a = &sh->att[k];
		wr_out_obj(w, NULL);
		wr_out_str(w, "name", a->name);
		wr_out_int(w, "dice", a->dice);
		wr_out_bool(w, "killing", a->killing);
		wr_out_bool(w, "ranged", a->ranged);
		wr_out_str(w, "vs", a->vs_ed ? "ED" : "PD");
		wr_out_bool(w, "area", a->area);
		wr_out_end(w);
	}
	wr_out_end(w);
	wr_out_end(w);
}

static void
sheet_save(const void *sh, struct wr_out *w)
{
	sheet_out(w, NULL, sh);
}

json_object *
bc_sheet_json(const struct bc_sheet *sh)
{
	return wr_out_tree(sheet_save, sh);
}

int
bc_copy_name(char *dst, const char *src, const char *field, struct wr_error *err)
{
	size_t n = strlen(src);
	if (n < 1 || n >= BC_NAME)
		return wr_fail(err, "bad-sheet", field, "%s: 1 to %d characters", field, BC_NAME - 1);
	memcpy(dst, src, n + 1);
	return 0;
}

/* A sheet; `defname` names it when it has no "name" (option sheets are
 * named by their key). */
int
bc_sheet_parse(json_object *o, struct bc_sheet *sh, const char *defname, struct wr_error *err)
{
	static const char *const known[] = {"name", "dex", "spd", "ocv", "dcv", "con",     "body",
	                                    "stun", "rec", "pd",  "ed",  "rpd", "red",     "attacks",
	                                    NULL};
	static const char *const aknown[] = {"name", "dice", "killing", "ranged", "vs", "area", NULL};
	const char *name = NULL;
	json_object *arr;
	int n;

	memset(sh, 0, sizeof(*sh));
	if (!json_object_is_type(o, json_type_object))
		return wr_fail(err, "bad-sheet", "sheet", "a character sheet is a JSON object");
	if (wr_json_only(o, known, err) || wr_json_string(o, "name", !defname, &name, err) ||
	    bc_copy_name(sh->name, name ? name : defname, "name", err) ||
	    wr_json_int(o, "dex", 1, 60, 1, 0, &sh->dex, err) ||
	    wr_json_int(o, "spd", 1, 12, 1, 0, &sh->spd, err) ||
	    wr_json_int(o, "ocv", 0, 30, 1, 0, &sh->ocv, err) ||
	    wr_json_int(o, "dcv", 0, 30, 1, 0, &sh->dcv, err) ||
	    wr_json_int(o, "con", 1, 99, 1, 0, &sh->con, err) ||
	    wr_json_int(o, "body", 1, 99, 1, 0, &sh->body, err) ||
	    wr_json_int(o, "stun", 1, 199, 1, 0, &sh->stun, err) ||
	    wr_json_int(o, "rec", 1, 99, 1, 0, &sh->rec, err) ||
	    wr_json_int(o, "pd", 0, 99, 1, 0, &sh->pd, err) ||
	    wr_json_int(o, "ed", 0, 99, 1, 0, &sh->ed, err) ||
	    wr_json_int(o, "rpd", 0, 99, 1, 0, &sh->rpd, err) ||
	    wr_json_int(o, "red", 0, 99, 1, 0, &sh->red, err))
		return -1;
	if (!json_object_object_get_ex(o, "attacks", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return wr_fail(err, "bad-sheet", "attacks", "attacks: an array of 1 to %d attacks",
		               BC_MAX_ATTACKS);
	n = (int)json_object_array_length(arr);
	if (n < 1 || n > BC_MAX_ATTACKS)
		return wr_fail(err, "bad-sheet", "attacks", "attacks: an array of 1 to %d attacks",
		               BC_MAX_ATTACKS);
	sh->nattacks = n;
	for (int k = 0; k < n; k++) {
		json_object *x = json_object_array_get_idx(arr, (size_t)k);
		struct bc_attack *a = &sh->att[k];
		const char *an, *vs;
		if (!json_object_is_type(x, json_type_object))
			return wr_fail(err, "bad-sheet", "attacks", "an attack is a JSON object");
		if (wr_json_only(x, aknown, err) || wr_json_string(x, "name", 1, &an, err) ||
		    bc_copy_name(a->name, an, "name", err) ||
		    wr_json_int(x, "dice", 1, BC_MAX_DICE, 1, 0, &a->dice, err) ||
		    wr_json_bool(x, "killing", 0, 0, &a->killing, err) ||
		    wr_json_bool(x, "ranged", 0, 0, &a->ranged, err) ||
		    wr_json_bool(x, "area", 0, 0, &a->area, err) ||
		    wr_json_string(x, "vs", 0, &vs, err))
			return -1;
		if (vs && strcmp(vs, "PD") && strcmp(vs, "ED"))
			return wr_fail(err, "bad-sheet", "vs", "vs: \"PD\" or \"ED\"");
		a->vs_ed = vs && strcmp(vs, "ED") == 0;
	}
	if (!bc_sheet_valid(sh))
		return wr_fail(err, "bad-sheet", "sheet",
		               "%s: resistant defenses at most the defense, killing attacks at most "
		               "6d6, Area Effect only at range, and at least one hand-to-hand attack",
		               sh->name);
	return 0;
}

/* ---------------------------------------------------------------- save */

/* The snapshot, written once for its tree and its text (rules/out.c). */
void
bc_save_out(const void *state, struct wr_out *w)
{
	const struct bc_state *st = state;
	int pend[6] = {st->pend.attacker, st->pend.attack, st->pend.target_sq, st->pend.step,
	               st->pend.hit, st->pend.stun};

	wr_out_obj(w, NULL);
	wr_out_int(w, "version", 1);
	wr_out_int(w, "seats", st->seats);
	wr_out_int(w, "referee", st->referee);
	wr_out_int(w, "mirrors_random", st->mirrors_random);
	wr_out_int(w, "turn_limit", st->turn_limit);
	wr_out_arr(w, "custom");
	for (int k = 0; k < st->ncustom; k++)
		sheet_out(w, NULL, &st->custom[k]);
	wr_out_end(w);
	wr_out_int(w, "stage", st->stage);
	wr_out_arr(w, "pieces");
	for (int i = 0; i < BC_PIECES; i++) {
		const struct bc_piece *p = &st->p[i];
		int v[5] = {p->sq, p->decoy, p->moved, p->revealed, p->engaged};
		wr_out_ints(w, NULL, v, 5);
	}
	wr_out_end(w);
	wr_out_arr(w, "mirror_set");
	for (int s = 0; s < BC_SEATS; s++)
		wr_out_ints(w, NULL, st->mirror_set[s], 3);
	wr_out_end(w);
	wr_out_arr(w, "chars");
	for (int s = 0; s < BC_SEATS; s++)
		for (int r = 0; r < BC_ROLES; r++) {
			const struct bc_char *c = &st->ch[s][r];
			int v[7] = {c->chosen, c->stun, c->body, c->stunned, c->unconscious, c->dodging,
			            c->removed};
			wr_out_obj(w, NULL);
			wr_out_ints(w, "state", v, 7);
			if (c->chosen)
				sheet_out(w, "sheet", &c->sh);
			else
				wr_out_json(w, "sheet", NULL);
			wr_out_end(w);
		}
	wr_out_end(w);
	wr_out_int(w, "turn", st->turn);
	wr_out_int(w, "segment", st->segment);
	wr_out_ints(w, "queue", st->queue, st->nqueue);
	wr_out_int(w, "qpos", st->qpos);
	wr_out_ints(w, "pending", pend, 6);
	wr_out_ints(w, "scores", st->scores, 2);
	wr_out_int(w, "winners", (int)st->winners);
	wr_out_str(w, "reason", st->reason);
	wr_out_end(w);
}

json_object *
bc_snapshot(const void *state)
{
	return wr_out_tree(bc_save_out, state);
}

/* ---------------------------------------------------------------- load */

static int
get_arr(json_object *o, const char *key, size_t n, json_object **out, struct wr_error *err)
{
	if (!json_object_object_get_ex(o, key, out) || !json_object_is_type(*out, json_type_array) ||
	    json_object_array_length(*out) != n)
		return wr_fail(err, "bad-snapshot", key, "%s: an array of %zu", key, n);
	return 0;
}

int
bc_load(json_object *snap, void **state, struct wr_error *err)
{
	static const char *const known[] = {
		"version", "seats",   "referee", "mirrors_random", "turn_limit", "custom",
		"stage",   "pieces",  "mirror_set", "chars",       "turn",       "segment",
		"queue",   "qpos",    "pending", "scores",         "winners",    "reason", NULL};
	struct bc_state *st = calloc(1, sizeof(*st));
	json_object *cu, *pc, *ms, *ch, *x;
	int version, winners, pend[6], n;
	const char *reason;

	if (!st)
		return wr_fail(err, "no-memory", "", "out of memory");
	if (!json_object_is_type(snap, json_type_object)) {
		wr_fail(err, "bad-snapshot", "", "a snapshot is a JSON object");
		goto bad;
	}
	if (wr_json_only(snap, known, err) ||
	    wr_json_int(snap, "version", 1, 1, 1, 0, &version, err) ||
	    wr_json_int(snap, "seats", 2, 3, 1, 0, &st->seats, err) ||
	    wr_json_int(snap, "referee", 0, 1, 1, 0, &st->referee, err) ||
	    wr_json_int(snap, "mirrors_random", 0, 1, 1, 0, &st->mirrors_random, err) ||
	    wr_json_int(snap, "turn_limit", 0, 99, 1, 0, &st->turn_limit, err) ||
	    wr_json_int(snap, "stage", 0, BC_STAGE_MAX - 1, 1, 0, &st->stage, err) ||
	    wr_json_int(snap, "turn", 0, 100000, 1, 0, &st->turn, err) ||
	    wr_json_int(snap, "segment", 0, 12, 1, 0, &st->segment, err) ||
	    wr_json_int(snap, "qpos", 0, BC_SEATS * BC_ROLES, 1, 0, &st->qpos, err) ||
	    wr_json_int(snap, "winners", 0, 3, 1, 0, &winners, err) ||
	    wr_json_string(snap, "reason", 1, &reason, err))
		goto bad;
	st->winners = (unsigned)winners;
	if (strlen(reason) >= sizeof(st->reason)) {
		wr_fail(err, "bad-snapshot", "reason", "reason: too long");
		goto bad;
	}
	memcpy(st->reason, reason, strlen(reason) + 1);
	if (!json_object_object_get_ex(snap, "custom", &cu) ||
	    !json_object_is_type(cu, json_type_array) ||
	    json_object_array_length(cu) > BC_MAX_CUSTOM) {
		wr_fail(err, "bad-snapshot", "custom", "custom: an array of sheets");
		goto bad;
	}
	st->ncustom = (int)json_object_array_length(cu);
	for (int k = 0; k < st->ncustom; k++)
		if (bc_sheet_parse(json_object_array_get_idx(cu, (size_t)k), &st->custom[k], NULL, err))
			goto bad;
	if (get_arr(snap, "pieces", BC_PIECES, &pc, err))
		goto bad;
	for (int i = 0; i < BC_PIECES; i++) {
		int v[5];
		json_object *holder = json_object_new_object();
		json_object_object_add(holder, "p",
		                       json_object_get(json_object_array_get_idx(pc, (size_t)i)));
		n = wr_json_read_ints(holder, "p", v, 5, 5, -1, 63, err);
		json_object_put(holder);
		if (n < 0)
			goto bad;
		st->p[i] = (struct bc_piece){v[0], v[1], v[2], v[3], v[4]};
		if ((v[1] | v[2] | v[3]) & ~1 || v[4] >= BC_PIECES) {
			wr_fail(err, "bad-snapshot", "pieces", "pieces: out of range");
			goto bad;
		}
	}
	if (get_arr(snap, "mirror_set", BC_SEATS, &ms, err))
		goto bad;
	for (int s = 0; s < BC_SEATS; s++) {
		json_object *holder = json_object_new_object();
		json_object_object_add(holder, "m",
		                       json_object_get(json_object_array_get_idx(ms, (size_t)s)));
		n = wr_json_read_ints(holder, "m", st->mirror_set[s], 3, 3, 0, 1, err);
		json_object_put(holder);
		if (n < 0)
			goto bad;
	}
	if (get_arr(snap, "chars", BC_SEATS * BC_ROLES, &ch, err))
		goto bad;
	for (int k = 0; k < BC_SEATS * BC_ROLES; k++) {
		static const char *const cknown[] = {"state", "sheet", NULL};
		struct bc_char *c = &st->ch[k / BC_ROLES][k % BC_ROLES];
		int v[7];
		x = json_object_array_get_idx(ch, (size_t)k);
		if (!json_object_is_type(x, json_type_object) || wr_json_only(x, cknown, err)) {
			wr_fail(err, "bad-snapshot", "chars", "chars: objects");
			goto bad;
		}
		if (wr_json_read_ints(x, "state", v, 7, 7, -300, 300, err) < 0)
			goto bad;
		c->chosen = v[0];
		c->stun = v[1];
		c->body = v[2];
		c->stunned = v[3];
		c->unconscious = v[4];
		c->dodging = v[5];
		c->removed = v[6];
		if ((v[0] | v[3] | v[4] | v[5] | v[6]) & ~1) {
			wr_fail(err, "bad-snapshot", "chars", "chars: flags are 0 or 1");
			goto bad;
		}
		{
			json_object *sh = NULL;
			json_object_object_get_ex(x, "sheet", &sh);
			if (c->chosen ? bc_sheet_parse(sh, &c->sh, NULL, err) != 0 : sh != NULL) {
				wr_fail(err, "bad-snapshot", "chars", "chars: a sheet when chosen only");
				goto bad;
			}
		}
	}
	n = wr_json_read_ints(snap, "queue", st->queue, 0, BC_SEATS * BC_ROLES, 0, BC_SEATS * BC_ROLES - 1,
	             err);
	if (n < 0)
		goto bad;
	st->nqueue = n;
	if (wr_json_read_ints(snap, "pending", pend, 6, 6, -1, 200, err) < 0 ||
	    wr_json_read_ints(snap, "scores", st->scores, 2, 2, 0, 51, err) < 0)
		goto bad;
	st->pend = (struct bc_pending){pend[0], pend[1], pend[2], pend[3], pend[4], pend[5]};
	if (!bc_state_coherent(st)) {
		wr_fail(err, "bad-snapshot", "", "the snapshot is not a coherent Blood Chess state");
		goto bad;
	}
	*state = st;
	return 0;
bad:
	free(st);
	return -1;
}

/* ---------------------------------------------------------------- view */

static int
sees_all(const struct bc_state *st, int viewer)
{
	return viewer == WR_EVERYONE || st->stage == BC_OVER ||
	       (viewer == BC_REF_SEAT && st->seats == 3);
}

static const char *
identity(const struct bc_state *st, int i, int viewer)
{
	int kind = bc_piece_kind(i), seat = bc_piece_seat(i);
	const struct bc_piece *p = &st->p[i];

	if (kind == BC_PAWN)
		return "decoy";
	if (kind == BC_KING || kind == BC_QUEEN)
		return "real";
	if (st->stage == BC_SETUP && !st->mirror_set[seat][kind - BC_ROOK])
		return sees_all(st, viewer) || viewer == seat ? "unchosen" : "unknown";
	if (sees_all(st, viewer) || viewer == seat || p->revealed)
		return p->decoy ? "mirror" : "real";
	return "unknown";
}

static json_object *
phases_json(int spd)
{
	json_object *a = json_object_new_array();
	for (int s = 1; s <= 12; s++)
		if (bc_has_phase(spd, s))
			json_object_array_add(a, json_object_new_int(s));
	return a;
}

const char *
bc_tmpl_id(const struct bc_state *st, int t)
{
	if (t >= 0 && t < bc_ntemplates)
		return bc_templates[t].id;
	if (t >= BC_CUSTOM_BASE && t < BC_CUSTOM_BASE + st->ncustom)
		return st->custom[t - BC_CUSTOM_BASE].name;
	return "?";
}

json_object *
bc_view(const void *state, int viewer)
{
	const struct bc_state *st = state;
	json_object *o = json_object_new_object(), *pcs = json_object_new_array(),
	            *chs = json_object_new_array(), *setup = json_object_new_array(),
	            *tm = json_object_new_array(), *order = json_object_new_array();
	int c = bc_acting_char(st);
	struct wr_result res;

	wr_json_put_str(o, "stage", bc_stage_names[st->stage]);
	wr_json_put_int(o, "turn", st->turn);
	wr_json_put_int(o, "segment", st->segment);
	wr_json_put_bool(o, "referee", st->referee);
	wr_json_put_str(o, "mirrors", st->mirrors_random ? "random" : "choose");
	wr_json_put_int(o, "turn_limit", st->turn_limit);
	if ((st->stage == BC_PLAY || st->stage == BC_REFEREE) && c >= 0) {
		json_object *a = json_object_new_object();
		wr_json_put_int(a, "seat", c / BC_ROLES);
		wr_json_put_str(a, "role", bc_kind_names[c % BC_ROLES]);
		json_object_object_add(o, "acting", a);
	} else {
		json_object_object_add(o, "acting", NULL);
	}
	for (int k = 0; k < st->nqueue; k++) {
		json_object *a = json_object_new_object();
		wr_json_put_int(a, "seat", st->queue[k] / BC_ROLES);
		wr_json_put_str(a, "role", bc_kind_names[st->queue[k] % BC_ROLES]);
		wr_json_put_bool(a, "done", k < st->qpos);
		json_object_array_add(order, a);
	}
	json_object_object_add(o, "order", order);
	/* pieces by square, then seat: never by the index that knows Mirrors */
	for (int sq = 0; sq < 64; sq++)
		for (int s = 0; s < BC_SEATS; s++)
			for (int i = s * BC_PER_SIDE; i < (s + 1) * BC_PER_SIDE; i++) {
				json_object *x;
				if (st->p[i].sq != sq)
					continue;
				x = json_object_new_object();
				wr_json_put_sq(x, "square", B, sq);
				wr_json_put_int(x, "seat", s);
				wr_json_put_str(x, "kind", bc_kind_names[bc_piece_kind(i)]);
				wr_json_put_str(x, "identity", identity(st, i, viewer));
				wr_json_put_bool(x, "unconscious", bc_piece_looks_unconscious(st, i));
				wr_json_put_bool(x, "engaged", st->p[i].engaged >= 0);
				json_object_array_add(pcs, x);
			}
	json_object_object_add(o, "pieces", pcs);
	for (int s = 0; s < BC_SEATS; s++) {
		json_object *side = json_object_new_array(), *su = json_object_new_object();
		int sheets = 0, mirrors = 0;
		for (int r = 0; r < BC_ROLES; r++) {
			const struct bc_char *ch = &st->ch[s][r];
			json_object *x = json_object_new_object();
			int real = bc_real_piece(st, s, r), sq = -1;
			sheets += ch->chosen;
			wr_json_put_str(x, "role", bc_kind_names[r]);
			json_object_object_add(x, "sheet", ch->chosen ? bc_sheet_json(&ch->sh) : NULL);
			if (real >= 0 && (r < BC_ROOK || sees_all(st, viewer) || viewer == s ||
			                  st->p[real].revealed))
				sq = st->p[real].sq;
			if (st->stage == BC_SETUP)
				sq = -1;
			wr_json_put_sq(x, "square", B, sq);
			wr_json_put_int(x, "stun", ch->stun);
			wr_json_put_int(x, "body", ch->body);
			wr_json_put_bool(x, "stunned", ch->stunned);
			wr_json_put_bool(x, "unconscious", ch->unconscious);
			wr_json_put_bool(x, "dodging", ch->dodging);
			wr_json_put_bool(x, "removed", ch->removed);
			wr_json_put_int(x, "dcv", ch->chosen ? bc_dcv(st, s, r, NULL) : 0);
			json_object_object_add(x, "phases", phases_json(ch->chosen ? ch->sh.spd : 0));
			json_object_array_add(side, x);
		}
		for (int k = 0; k < 3; k++)
			mirrors += st->mirror_set[s][k];
		wr_json_put_int(su, "sheets", sheets);
		wr_json_put_int(su, "mirrors", mirrors);
		json_object_array_add(setup, su);
		json_object_array_add(chs, side);
	}
	json_object_object_add(o, "characters", chs);
	json_object_object_add(o, "setup", setup);
	for (int t = 0; t < bc_ntemplates + st->ncustom; t++) {
		int id = t < bc_ntemplates ? t : BC_CUSTOM_BASE + t - bc_ntemplates;
		json_object *x = json_object_new_object();
		wr_json_put_str(x, "id", bc_tmpl_id(st, id));
		wr_json_put_str(x, "description", t < bc_ntemplates ? bc_templates[t].blurb : "Given at creation");
		json_object_object_add(x, "sheet", bc_sheet_json(bc_sheet_of(st, id)));
		json_object_array_add(tm, x);
	}
	json_object_object_add(o, "templates", tm);
	if (st->stage == BC_REFEREE) {
		json_object *x = json_object_new_object();
		int a = st->pend.attacker;
		static const char *const steps[] = {"hit", "stun", "body"};
		wr_json_put_int(x, "seat", bc_piece_seat(a));
		wr_json_put_str(x, "role", bc_kind_names[bc_piece_kind(a)]);
		wr_json_put_int(x, "attack", st->pend.attack);
		wr_json_put_sq(x, "from", B, st->p[a].sq);
		wr_json_put_sq(x, "to", B, st->pend.target_sq);
		wr_json_put_str(x, "step", steps[st->pend.step]);
		wr_json_put_bool(x, "hit", st->pend.hit);
		wr_json_put_int(x, "stun", st->pend.stun);
		json_object_object_add(o, "pending", x);
	} else {
		json_object_object_add(o, "pending", NULL);
	}
	json_object_object_add(o, "scores", wr_json_ints(st->scores, 2));
	bc_result(st, &res);
	if (res.over) {
		json_object *r = json_object_new_object();
		json_object *w = json_object_new_array();
		for (int s = 0; s < BC_SEATS; s++)
			if (res.winners & (1u << s))
				json_object_array_add(w, json_object_new_int(s));
		json_object_object_add(r, "winners", w);
		wr_json_put_str(r, "reason", res.reason);
		json_object_object_add(o, "result", r);
	} else {
		json_object_object_add(o, "result", NULL);
	}
	return o;
}
