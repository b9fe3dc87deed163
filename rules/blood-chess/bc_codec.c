/* Blood Chess codec: options, create, actions and events as JSON, and the
 * wr_ruleset and wr_template tables (the sheets, save/load and views are
 * in bc_snapshot.c). No rule is decided here; every client field is
 * shape-checked before bc_rules.c sees it. The top of the ruleset: it
 * calls bc_snapshot.c and the rule files; nothing calls into it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blood_chess.h"
#include "bc_rules.h"

#define B (&wr_board8)

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
				if (bc_sheet_parse(val, sh, key, err) || bc_copy_name(sh->name, key, "sheets", err))
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

static void
bc_action_out(const void *state, const void *action, struct wr_out *w)
{
	const struct bc_state *st = state;
	const struct bc_action *a = action;

	wr_out_obj(w, NULL);
	wr_out_str(w, "type", bc_act_names[a->type]);
	switch (a->type) {
	case BC_A_SHEET:
		wr_out_str(w, "role", bc_kind_names[a->role]);
		wr_out_str(w, "template", bc_tmpl_id(st, a->tmpl));
		break;
	case BC_A_MIRROR:
		wr_out_sq(w, "square", B, a->square);
		break;
	case BC_A_MOVE:
	case BC_A_SHOOT:
		wr_out_sq(w, "from", B, a->from);
		wr_out_sq(w, "to", B, a->to);
		if (a->attack >= 0)
			wr_out_int(w, "attack", a->attack);
		break;
	case BC_A_HTH:
		wr_out_int(w, "attack", a->attack);
		break;
	case BC_A_REF_HIT:
		wr_out_bool(w, "hit", a->hit);
		break;
	case BC_A_REF_STUN:
	case BC_A_REF_BODY:
		wr_out_int(w, "value", a->value);
		break;
	default:
		break;
	}
	wr_out_end(w);
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
static const struct wr_json_fields ev_flat[BC_E_MAX] = {
	[BC_E_SEGMENT] = WR_JF_LIST(ev_segment),
	[BC_E_ROLLOFF] = WR_JF_LIST(ev_rolloff),
	[BC_E_PHASE] = WR_JF_LIST(ev_phase),
	[BC_E_LOST_PHASE] = WR_JF_LIST(ev_who),
	[BC_E_DODGE] = WR_JF_LIST(ev_who),
	[BC_E_WAKE] = WR_JF_LIST(ev_recover),
	[BC_E_RECOVER] = WR_JF_LIST(ev_recover),
	[BC_E_AWAIT_REF] = WR_JF_LIST(ev_await_ref),
	[BC_E_DAMAGE] = WR_JF_LIST(ev_damage),
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
		wr_json_put_str(o, "template", bc_tmpl_id(st, e->value));
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

WR_TPL_TEMPLATE(bc, NULL)

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

WR_TPL_RULESET(bc, "blood-chess", "Blood Chess", "003_3d0ab55e00bc1e43.txt", 2, 3,
               .turn_of = bc_turn_of, .seats_in = bc_seats_in, .undo_barrier = bc_undo_barrier,
               .determinize = bc_determinize, .evaluate = bc_evaluate,
               .may_reveal = bc_may_reveal, .save_out = bc_save_out);
