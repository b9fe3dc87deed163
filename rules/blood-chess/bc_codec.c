/* Blood Chess codec: options, create, save/load, views, actions and events
 * as JSON, and the wr_ruleset and wr_template tables. No rule is decided
 * here; every client field is shape-checked before bc_rules.c sees it.
 *
 * B12: a view names pieces by square and public kind only, sorted by
 * square, and no field's presence or length depends on a secret the
 * viewer may not see. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blood_chess.h"
#include "bc_rules.h"

#define B (&wr_board8)

/* -------------------------------------------------------------- sheets */

static json_object *
sheet_json(const struct bc_sheet *sh)
{
	json_object *o = json_object_new_object(), *arr = json_object_new_array();

	wr_json_put_str(o, "name", sh->name);
	wr_json_put_int(o, "dex", sh->dex);
	wr_json_put_int(o, "spd", sh->spd);
	wr_json_put_int(o, "ocv", sh->ocv);
	wr_json_put_int(o, "dcv", sh->dcv);
	wr_json_put_int(o, "con", sh->con);
	wr_json_put_int(o, "body", sh->body);
	wr_json_put_int(o, "stun", sh->stun);
	wr_json_put_int(o, "rec", sh->rec);
	wr_json_put_int(o, "pd", sh->pd);
	wr_json_put_int(o, "ed", sh->ed);
	wr_json_put_int(o, "rpd", sh->rpd);
	wr_json_put_int(o, "red", sh->red);
	for (int k = 0; k < sh->nattacks; k++) {
		const struct bc_attack *a = &sh->att[k];
		json_object *x = json_object_new_object();
		wr_json_put_str(x, "name", a->name);
		wr_json_put_int(x, "dice", a->dice);
		wr_json_put_bool(x, "killing", a->killing);
		wr_json_put_bool(x, "ranged", a->ranged);
		wr_json_put_str(x, "vs", a->vs_ed ? "ED" : "PD");
		wr_json_put_bool(x, "area", a->area);
		json_object_array_add(arr, x);
	}
	json_object_object_add(o, "attacks", arr);
	return o;
}

static int
copy_name(char *dst, const char *src, const char *field, struct wr_error *err)
{
	size_t n = strlen(src);
	if (n < 1 || n >= BC_NAME)
		return wr_fail(err, "bad-sheet", field, "%s: 1 to %d characters", field, BC_NAME - 1);
	memcpy(dst, src, n + 1);
	return 0;
}

/* A sheet; `defname` names it when it has no "name" (option sheets are
 * named by their key). */
static int
sheet_parse(json_object *o, struct bc_sheet *sh, const char *defname, struct wr_error *err)
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
	    copy_name(sh->name, name ? name : defname, "name", err) ||
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
		    copy_name(a->name, an, "name", err) ||
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

/* ------------------------------------------------------------- options */

static json_object *
bc_options(void)
{
	static const char *const mirrors[] = {"choose", "random"};
	json_object *o = json_object_new_object();

	wr_json_put(o, "mirrors", wr_json_option("string", json_object_new_string("choose"), 1, 0,
	            mirrors, 2,
	            "Mirrors: each side secretly chooses which Rook, Bishop and Knight are Mirrors "
	            "(decoys), or the server picks them at random (RULINGS.md B1)"));
	wr_json_put(o, "referee", wr_json_option("boolean", json_object_new_boolean(0), 1, 0, NULL, 0,
	            "A third seat referees: it posts the outcome of every attack between characters "
	            "and sees everything (RULINGS.md B11). Needs 3 players."));
	wr_json_put(o, "turn_limit", wr_json_option("integer",
	            json_object_new_int(BC_DEFAULT_TURN_LIMIT), 0, 99, NULL, 0,
	            "The match ends when a King is removed, or on points (20 per King, 5 per "
	            "character, 1 per decoy) after this many Turns of the Speed Chart; 0: no limit"));
	wr_json_put(o, "sheets", wr_json_option("object", json_object_new_object(), 1, 0, NULL, 0,
	            "Your own character sheets, offered next to the built-in templates, as JSON: "
	            "{\"Name\": {\"dex\": 20, \"spd\": 5, \"ocv\": 7, \"dcv\": 7, \"con\": 23, "
	            "\"body\": 10, \"stun\": 40, \"rec\": 9, \"pd\": 10, \"ed\": 20, \"rpd\": 10, "
	            "\"red\": 10, \"attacks\": [{\"name\": \"Blast\", \"dice\": 12, \"ranged\": true, "
	            "\"vs\": \"ED\"}, {\"name\": \"Punch\", \"dice\": 3}]}} (at most 8)"));
	return o;
}

static int
bc_create(json_object *options, int seats, struct wr_rng *rng, void **state,
          struct wr_error *err)
{
	static const char *const known[] = {"mirrors", "referee", "turn_limit", "sheets", NULL};
	const char *mirrors = NULL;
	int referee = 0, limit = BC_DEFAULT_TURN_LIMIT, random = 0;
	struct bc_state *st = calloc(1, sizeof(*st));
	json_object *sheets = NULL;

	if (!st)
		return wr_fail(err, "no-memory", "", "out of memory");
	if (options) {
		if (wr_json_only(options, known, err) ||
		    wr_json_string(options, "mirrors", 0, &mirrors, err) ||
		    wr_json_bool(options, "referee", 0, 0, &referee, err) ||
		    wr_json_int(options, "turn_limit", 0, 99, 0, BC_DEFAULT_TURN_LIMIT, &limit,
		                err))
			goto bad;
		if (mirrors && strcmp(mirrors, "choose") && strcmp(mirrors, "random")) {
			wr_fail(err, "bad-option", "mirrors", "mirrors: \"choose\" or \"random\"");
			goto bad;
		}
		random = mirrors && strcmp(mirrors, "random") == 0;
		if (json_object_object_get_ex(options, "sheets", &sheets) && sheets) {
			if (!json_object_is_type(sheets, json_type_object)) {
				wr_fail(err, "bad-option", "sheets", "sheets: a JSON object of sheets by name");
				goto bad;
			}
			json_object_object_foreach(sheets, key, val) {
				struct bc_sheet *sh = &st->custom[st->ncustom];
				if (st->ncustom == BC_MAX_CUSTOM) {
					wr_fail(err, "bad-option", "sheets", "sheets: at most %d",
					        BC_MAX_CUSTOM);
					goto bad;
				}
				if (sheet_parse(val, sh, key, err) || copy_name(sh->name, key, "sheets", err))
					goto bad;
				for (int t = 0; t < bc_ntemplates; t++)
					if (strcmp(key, bc_templates[t].id) == 0) {
						wr_fail(err, "bad-option", "sheets",
						        "sheets: \"%s\" is a built-in template's name", key);
						goto bad;
					}
				st->ncustom++;
			}
		}
	}
	/* the third seat is the referee's: 3 seats without the option set
	 * mean the referee (a lobby that offers "3 players"); an explicit
	 * "referee": false with 3 seats, or true with 2, is refused */
	if (seats == 3 && !(options && json_object_object_get_ex(options, "referee", NULL)))
		referee = 1;
	if (referee ? seats != 3 : seats != 2) {
		wr_fail(err, "seats", "seats",
		        "Blood Chess is for 2 players, or 3 with the referee option");
		goto bad;
	}
	bc_init(st, seats, referee, random, limit, rng);
	*state = st;
	return 0;
bad:
	free(st);
	return -1;
}

/* ---------------------------------------------------------------- save */

static json_object *
bc_save(const void *state)
{
	const struct bc_state *st = state;
	json_object *o = json_object_new_object(), *pc = json_object_new_array(),
	            *ch = json_object_new_array(), *cu = json_object_new_array(),
	            *ms = json_object_new_array();
	int pend[6] = {st->pend.attacker, st->pend.attack, st->pend.target_sq, st->pend.step,
	               st->pend.hit, st->pend.stun};

	wr_json_put_int(o, "version", 1);
	wr_json_put_int(o, "seats", st->seats);
	wr_json_put_int(o, "referee", st->referee);
	wr_json_put_int(o, "mirrors_random", st->mirrors_random);
	wr_json_put_int(o, "turn_limit", st->turn_limit);
	for (int k = 0; k < st->ncustom; k++)
		json_object_array_add(cu, sheet_json(&st->custom[k]));
	json_object_object_add(o, "custom", cu);
	wr_json_put_int(o, "stage", st->stage);
	for (int i = 0; i < BC_PIECES; i++) {
		const struct bc_piece *p = &st->p[i];
		int v[5] = {p->sq, p->decoy, p->moved, p->revealed, p->engaged};
		json_object_array_add(pc, wr_json_ints(v, 5));
	}
	json_object_object_add(o, "pieces", pc);
	for (int s = 0; s < BC_SEATS; s++) {
		json_object_array_add(ms, wr_json_ints(st->mirror_set[s], 3));
		for (int r = 0; r < BC_ROLES; r++) {
			const struct bc_char *c = &st->ch[s][r];
			json_object *x = json_object_new_object();
			int v[7] = {c->chosen, c->stun, c->body, c->stunned, c->unconscious, c->dodging,
			            c->removed};
			json_object_object_add(x, "state", wr_json_ints(v, 7));
			json_object_object_add(x, "sheet", c->chosen ? sheet_json(&c->sh) : NULL);
			json_object_array_add(ch, x);
		}
	}
	json_object_object_add(o, "mirror_set", ms);
	json_object_object_add(o, "chars", ch);
	wr_json_put_int(o, "turn", st->turn);
	wr_json_put_int(o, "segment", st->segment);
	json_object_object_add(o, "queue", wr_json_ints(st->queue, st->nqueue));
	wr_json_put_int(o, "qpos", st->qpos);
	json_object_object_add(o, "pending", wr_json_ints(pend, 6));
	json_object_object_add(o, "scores", wr_json_ints(st->scores, 2));
	wr_json_put_int(o, "winners", (int)st->winners);
	wr_json_put_str(o, "reason", st->reason);
	return o;
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

static int
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
		if (sheet_parse(json_object_array_get_idx(cu, (size_t)k), &st->custom[k], NULL, err))
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
			if (c->chosen ? sheet_parse(sh, &c->sh, NULL, err) != 0 : sh != NULL) {
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

static void
bc_free(void *state)
{
	free(state);
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

static const char *
tmpl_id(const struct bc_state *st, int t)
{
	if (t >= 0 && t < bc_ntemplates)
		return bc_templates[t].id;
	if (t >= BC_CUSTOM_BASE && t < BC_CUSTOM_BASE + st->ncustom)
		return st->custom[t - BC_CUSTOM_BASE].name;
	return "?";
}

static json_object *
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
			json_object_object_add(x, "sheet", ch->chosen ? sheet_json(&ch->sh) : NULL);
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
		wr_json_put_str(x, "id", tmpl_id(st, id));
		wr_json_put_str(x, "description", t < bc_ntemplates ? bc_templates[t].blurb : "Given at creation");
		json_object_object_add(x, "sheet", sheet_json(bc_sheet_of(st, id)));
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

/* ------------------------------------------------------------- actions */

static int
bc_parse(const void *state, json_object *j, void *action, struct wr_error *err)
{
	static const char *const k_sheet[] = {"type", "role", "template", NULL};
	static const char *const k_mirror[] = {"type", "square", NULL};
	static const char *const k_move[] = {"type", "from", "to", "attack", NULL};
	static const char *const k_hth[] = {"type", "attack", NULL};
	static const char *const k_none[] = {"type", NULL};
	static const char *const k_hit[] = {"type", "hit", NULL};
	static const char *const k_value[] = {"type", "value", NULL};
	const struct bc_state *st = state;
	struct bc_action *a = action;
	const char *type, *s;
	int t = -1;

	memset(a, 0, sizeof(*a));
	a->attack = -1;
	if (!json_object_is_type(j, json_type_object))
		return wr_fail(err, "wrong-type", "", "an action is a JSON object");
	if (wr_json_string(j, "type", 1, &type, err))
		return -1;
	for (int k = 0; k < BC_A_MAX; k++)
		if (strcmp(type, bc_act_names[k]) == 0)
			t = k;
	if (t < 0)
		return wr_fail(err, "unknown-action", "type", "Unknown action type");
	a->type = (enum bc_act)t;
	switch (a->type) {
	case BC_A_SHEET:
		if (wr_json_only(j, k_sheet, err) || wr_json_string(j, "role", 1, &s, err))
			return -1;
		if ((a->role = wr_json_name_index(s, bc_kind_names, BC_ROLES)) < 0)
			return wr_fail(err, "illegal-action", "role",
			               "role: king, queen, rook, bishop or knight");
		if (wr_json_string(j, "template", 1, &s, err))
			return -1;
		a->tmpl = -1;
		for (int k = 0; k < bc_ntemplates; k++)
			if (strcmp(s, bc_templates[k].id) == 0)
				a->tmpl = k;
		for (int k = 0; k < st->ncustom; k++)
			if (strcmp(s, st->custom[k].name) == 0)
				a->tmpl = BC_CUSTOM_BASE + k;
		if (a->tmpl < 0)
			return wr_fail(err, "no-such-template", "template", "No such template");
		return 0;
	case BC_A_MIRROR:
		return wr_json_only(j, k_mirror, err) || wr_json_square(j, "square", B, &a->square, err)
		           ? -1
		           : 0;
	case BC_A_MOVE:
	case BC_A_SHOOT:
		if (wr_json_only(j, k_move, err) || wr_json_square(j, "from", B, &a->from, err) ||
		    wr_json_square(j, "to", B, &a->to, err) ||
		    wr_json_int(j, "attack", 0, BC_MAX_ATTACKS - 1, a->type == BC_A_SHOOT, -1,
		                &a->attack, err))
			return -1;
		return 0;
	case BC_A_HTH:
		return wr_json_only(j, k_hth, err) ||
		               wr_json_int(j, "attack", 0, BC_MAX_ATTACKS - 1, 1, 0, &a->attack, err)
		           ? -1
		           : 0;
	case BC_A_DODGE:
	case BC_A_RECOVER:
		return wr_json_only(j, k_none, err) ? -1 : 0;
	case BC_A_REF_HIT:
		return wr_json_only(j, k_hit, err) || wr_json_bool(j, "hit", 1, 0, &a->hit, err) ? -1
		                                                                                   : 0;
	case BC_A_REF_STUN:
	case BC_A_REF_BODY:
		return wr_json_only(j, k_value, err) ||
		               wr_json_int(j, "value", 0,
		                           a->type == BC_A_REF_STUN ? BC_MAX_OUT_STUN : BC_MAX_OUT_BODY,
		                           1, 0, &a->value, err)
		           ? -1
		           : 0;
	default:
		return wr_fail(err, "unknown-action", "type", "Unknown action type");
	}
}

static json_object *
bc_action_json(const void *state, const void *action)
{
	const struct bc_state *st = state;
	const struct bc_action *a = action;
	json_object *o = wr_json_typed(bc_act_names[a->type]);

	switch (a->type) {
	case BC_A_SHEET:
		wr_json_put_str(o, "role", bc_kind_names[a->role]);
		wr_json_put_str(o, "template", tmpl_id(st, a->tmpl));
		break;
	case BC_A_MIRROR:
		wr_json_put_sq(o, "square", B, a->square);
		break;
	case BC_A_MOVE:
	case BC_A_SHOOT:
		wr_json_put_sq(o, "from", B, a->from);
		wr_json_put_sq(o, "to", B, a->to);
		if (a->attack >= 0)
			wr_json_put_int(o, "attack", a->attack);
		break;
	case BC_A_HTH:
		wr_json_put_int(o, "attack", a->attack);
		break;
	case BC_A_REF_HIT:
		wr_json_put_bool(o, "hit", a->hit);
		break;
	case BC_A_REF_STUN:
	case BC_A_REF_BODY:
		wr_json_put_int(o, "value", a->value);
		break;
	default:
		break;
	}
	return o;
}

/* -------------------------------------------------------------- events */

static const char *
attack_name(const struct bc_state *st, int seat, int role, int k)
{
	if (seat < 0 || seat >= BC_SEATS || role < 0 || role >= BC_ROLES || k < 0 ||
	    k >= st->ch[seat][role].sh.nattacks)
		return NULL;
	return st->ch[seat][role].sh.att[k].name;
}

/* The events that are a run of plain fields, as descriptor tables. */
#define EF(key, kind, member) {key, kind, offsetof(struct bc_event, member), NULL}
#define EF_SEAT EF("seat", WR_JF_INT, seat)
#define EF_ROLE {"role", WR_JF_NAME, offsetof(struct bc_event, role), bc_kind_names}
static const struct wr_json_field ev_segment[] = {
	EF("turn", WR_JF_INT, turn), EF("segment", WR_JF_INT, segment)};
static const struct wr_json_field ev_rolloff[] = {EF_SEAT, EF_ROLE, EF("die", WR_JF_INT, value)};
static const struct wr_json_field ev_phase[] = {
	EF_SEAT, EF_ROLE, EF("turn", WR_JF_INT, turn), EF("segment", WR_JF_INT, segment)};
static const struct wr_json_field ev_who[] = {EF_SEAT, EF_ROLE};
static const struct wr_json_field ev_recover[] = {
	EF_SEAT, EF_ROLE, EF("recovered", WR_JF_INT, value), EF("stun", WR_JF_INT, stun),
	EF("unconscious", WR_JF_BOOL, unconscious)};
static const struct wr_json_field ev_await_ref[] = {
	EF_SEAT, EF_ROLE, EF("attack", WR_JF_INT, attack), EF("from", WR_JF_SQ, from),
	EF("to", WR_JF_SQ, to)};
static const struct wr_json_field ev_damage[] = {
	EF_SEAT, EF_ROLE, EF("square", WR_JF_SQ, from), EF("stun_taken", WR_JF_INT, stun_taken),
	EF("body_taken", WR_JF_INT, body_taken), EF("defense_stun", WR_JF_INT, defense_stun),
	EF("defense_body", WR_JF_INT, defense_body), EF("stun", WR_JF_INT, stun),
	EF("body", WR_JF_INT, body), EF("stunned", WR_JF_BOOL, stunned),
	EF("is_stunned", WR_JF_BOOL, is_stunned), EF("unconscious", WR_JF_BOOL, unconscious),
	EF("removed", WR_JF_BOOL, removed)};
#define N(a) (int)(sizeof(a) / sizeof((a)[0]))
static const struct {
	const struct wr_json_field *f;
	int n;
} ev_flat[BC_E_MAX] = {
	[BC_E_SEGMENT] = {ev_segment, N(ev_segment)},
	[BC_E_ROLLOFF] = {ev_rolloff, N(ev_rolloff)},
	[BC_E_PHASE] = {ev_phase, N(ev_phase)},
	[BC_E_LOST_PHASE] = {ev_who, N(ev_who)},
	[BC_E_DODGE] = {ev_who, N(ev_who)},
	[BC_E_WAKE] = {ev_recover, N(ev_recover)},
	[BC_E_RECOVER] = {ev_recover, N(ev_recover)},
	[BC_E_AWAIT_REF] = {ev_await_ref, N(ev_await_ref)},
	[BC_E_DAMAGE] = {ev_damage, N(ev_damage)},
};

static void
put_flat(json_object *o, const struct bc_event *e)
{
	wr_json_put_fields(o, e, ev_flat[e->type].f, ev_flat[e->type].n, B);
}

/* The seat and the piece's kind an event is about: {"seat", role|kind}. */
static void
put_who(json_object *o, const char *static_key, int seat, int kind)
{
	wr_json_put_int(o, "seat", seat);
	wr_json_put_str(o, static_key, bc_kind_names[kind]);
}

static json_object *
bc_event_json(const void *state, const void *event, unsigned *visible_to)
{
	const struct bc_state *st = state;
	const struct bc_event *e = event;
	json_object *o = wr_json_typed(bc_ev_names[e->type]);
	char text[160];
	unsigned ref = st->seats == 3 ? 1u << BC_REF_SEAT : 0;

	*visible_to = e->vis == BC_V_OWNER ? (1u << e->seat) | ref : WR_VIS_PUBLIC;
	switch (e->type) {
	case BC_E_SHEET:
		put_who(o, "role", e->seat, e->role);
		wr_json_put_str(o, "template", tmpl_id(st, e->value));
		break;
	case BC_E_MIRROR:
		/* B12: the redacted twin has the full one's shape and length */
		put_who(o, "kind", e->seat, e->kind);
		wr_json_put_str(o, "square", e->vis == BC_V_OWNER ? wr_square_name(B, e->from, text) : "??");
		wr_json_put_bool(o, "redacted", e->vis == BC_V_REDACTED);
		break;
	case BC_E_START:
	case BC_E_POST12:
		break;
	case BC_E_SEGMENT:
	case BC_E_ROLLOFF:
	case BC_E_PHASE:
	case BC_E_LOST_PHASE:
	case BC_E_DODGE:
	case BC_E_WAKE:
	case BC_E_RECOVER:
	case BC_E_AWAIT_REF:
		put_flat(o, e);
		break;
	case BC_E_MOVE:
	case BC_E_SHOOT:
		put_who(o, "kind", e->seat, e->kind);
		wr_json_put_sq(o, "from", B, e->from);
		wr_json_put_sq(o, "to", B, e->to);
		if (e->attack >= 0)
			wr_json_put_int(o, "attack", e->attack);
		else
			json_object_object_add(o, "attack", NULL);
		/* the owner's twin says Mirror or not; every other copy says
		 * "hidden" (same shape whatever the piece is) */
		if (e->kind >= BC_ROOK && e->kind <= BC_KNIGHT)
			wr_json_put_str(o, "piece", e->vis == BC_V_OWNER ? (e->secret ? "mirror" : "real")
			                                       : "hidden");
		wr_json_put_bool(o, "redacted", e->vis == BC_V_REDACTED);
		break;
	case BC_E_DECOY:
		wr_json_put_int(o, "seat", e->seat);
		wr_json_put_sq(o, "attacker", B, e->from);
		wr_json_put_sq(o, "square", B, e->to);
		wr_json_put_str(o, "answer", e->decoy ? "decoy" : "real");
		wr_json_put_str(o, "attacker_answer", e->attacker_decoy < 0 ? NULL
		                            : e->attacker_decoy  ? "decoy"
		                                                 : "real");
		break;
	case BC_E_ENGAGE:
		wr_json_put_int(o, "seat", e->seat);
		wr_json_put_sq(o, "square", B, e->to);
		break;
	case BC_E_ATTACK: {
		const char *an = attack_name(st, e->seat, e->role, e->attack);
		put_who(o, "role", e->seat, e->role);
		wr_json_put_int(o, "attack", e->attack);
		wr_json_put_str(o, "attack_name", an);
		wr_json_put_sq(o, "from", B, e->from);
		wr_json_put_sq(o, "to", B, e->to);
		wr_json_put_bool(o, "hit", e->hit);
		wr_json_put_bool(o, "area", e->area);
		wr_json_put_bool(o, "killing", e->killing);
		wr_json_put_bool(o, "by_referee", e->by_referee);
		if (e->by_referee) {
			snprintf(text, sizeof(text), "the referee rules: %s", e->hit ? "hit" : "miss");
		} else {
			wr_json_put_int(o, "roll", e->roll);
			wr_json_put_int(o, "need", e->need);
			json_object_object_add(o, "dice", wr_json_ints(e->dice, e->ndice));
			wr_json_put_int(o, "stun_rolled", e->stun);
			wr_json_put_int(o, "body_rolled", e->body);
			if (e->killing)
				wr_json_put_int(o, "multiplier", e->mult);
			snprintf(text, sizeof(text), "to-hit roll %d needed %d or less: %s%s", e->roll,
			         e->need, e->hit ? "hit" : "miss",
			         !e->hit && e->area ? " (the Area Effect detonates on the attacker's square)"
			                            : "");
		}
		wr_json_put_str(o, "text", text);
		break;
	}
	case BC_E_DAMAGE:
		put_flat(o, e);
		snprintf(text, sizeof(text), "%d STUN, %d BODY after defenses%s", e->stun_taken,
		         e->body_taken,
		         e->removed        ? ": removed from the board"
		         : e->unconscious  ? ": knocked out"
		         : e->is_stunned   ? ": Stunned, loses the next phase"
		                          : "");
		wr_json_put_str(o, "text", text);
		break;
	case BC_E_REMOVED:
		put_who(o, "kind", e->seat, e->kind);
		wr_json_put_sq(o, "square", B, e->from);
		wr_json_put_str(o, "was", e->kind == BC_PAWN || e->decoy ? "decoy" : "real");
		wr_json_put_int(o, "points", e->points);
		break;
	case BC_E_END: {
		/* the end: every Mirror is revealed (G5) */
		json_object *m = json_object_new_array();
		struct wr_result res;
		for (int i = 0; i < BC_PIECES; i++) {
			json_object *x;
			int k = bc_piece_kind(i);
			if (k < BC_ROOK || k > BC_KNIGHT || !st->p[i].decoy)
				continue;
			x = json_object_new_object();
			wr_json_put_int(x, "seat", bc_piece_seat(i));
			wr_json_put_str(x, "kind", bc_kind_names[k]);
			wr_json_put_sq(x, "square", B, st->p[i].sq);
			json_object_array_add(m, x);
		}
		json_object_object_add(o, "mirrors", m);
		json_object_object_add(o, "scores", wr_json_ints(st->scores, 2));
		bc_result(st, &res);
		wr_json_put_str(o, "reason", res.reason);
		break;
	}
	default:
		break;
	}
	return o;
}

/* -------------------------------------------------------------- tables */

static unsigned
bc_to_act_entry(const void *state)
{
	return bc_to_act(state);
}

const struct wr_template bc_template = {
	.action_size = sizeof(struct bc_action),
	.event_size = sizeof(struct bc_event),
	.parse = bc_parse,
	.action_json = bc_action_json,
	.candidates = bc_candidates,
	.legal = bc_legal,
	.apply = bc_apply,
	.event_json = bc_event_json,
	.to_act = bc_to_act_entry,
};

static json_object *
bc_actions(const void *state, int seat)
{
	return wr_tpl_actions(&bc_template, state, seat);
}

static int
bc_apply_entry(void *state, int seat, json_object *action, struct wr_rng *rng,
               struct wr_events *ev, struct wr_error *err)
{
	return wr_tpl_apply(&bc_template, state, seat, action, rng, ev, err);
}

static int
bc_resign_entry(void *state, int seat, struct wr_rng *rng, struct wr_events *ev)
{
	struct bc_state *st = state;
	struct wr_list plain;

	if (seat < 0 || seat >= st->seats)
		return -1;
	wr_list_init(&plain, sizeof(struct bc_event));
	bc_resign(st, seat, rng, &plain);
	wr_tpl_events(&bc_template, st, &plain, ev);
	wr_list_free(&plain);
	return 0;
}

static void
bc_result_entry(const void *state, struct wr_result *out)
{
	bc_result(state, out);
}

static unsigned
bc_seats_in(const void *state)
{
	const struct bc_state *st = state;
	return st->seats == 3 && st->referee ? 7u : 3u;
}

/* RULINGS.md G8 (amended): the acting character's seat holds the phase
 * while the referee resolves its attack (B11). */
static unsigned
bc_turn_of(const void *state)
{
	const struct bc_state *st = state;
	if ((st->stage == BC_PLAY || st->stage == BC_REFEREE) && st->qpos < st->nqueue)
		return 1u << (st->queue[st->qpos] / BC_ROLES);
	return bc_to_act(st);
}

const struct wr_ruleset bc_ruleset = {
	.id = "blood-chess",
	.title = "Blood Chess",
	.source = "003_3d0ab55e00bc1e43.txt",
	.min_seats = 2,
	.max_seats = 3,
	.options = bc_options,
	.create = bc_create,
	.load = bc_load,
	.save = bc_save,
	.free = bc_free,
	.to_act = bc_to_act_entry,
	.turn_of = bc_turn_of,
	.actions = bc_actions,
	.apply = bc_apply_entry,
	.set_orders = NULL,
	.resign = bc_resign_entry,
	.view = bc_view,
	.result = bc_result_entry,
	.seats_in = bc_seats_in,
	.undo_barrier = bc_undo_barrier,
};
