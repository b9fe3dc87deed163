/* Wargame Chess codec, the state: save() and load() (every field
 * validated, load is fuzzed) and view() per viewer (G5, W8: nothing of a
 * team that is not on the board reaches the other seat before both teams
 * are deployed). Calls the rule files and the data; only wc_codec.c calls
 * into it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wc_rules.h"

json_object *wc_snapshot(const void *state);
void wc_save_out(const void *state, struct wr_out *w);
int wc_load(json_object *snap, void **state, struct wr_error *err);
json_object *wc_view(const void *state, int viewer);

/* ---------------------------------------------------------------- save */

/* The snapshot, written once for its tree and its text (rules/out.c). */
void
wc_save_out(const void *state, struct wr_out *w)
{
	const struct wc_state *st = state;
	int atk[6] = {st->atk.att, st->atk.def, st->atk.from, st->atk.sq, st->atk.att_spent,
	              st->atk.def_spent};

	wr_out_obj(w, NULL);
	wr_out_int(w, "version", 1);
	wr_out_int(w, "phase", st->phase);
	wr_out_int(w, "stage", st->stage);
	wr_out_int(w, "first_trees_random", st->first_trees_random);
	wr_out_int(w, "tree_first", st->tree_first);
	wr_out_int(w, "tree_choice", st->tree_choice);
	wr_out_ints(w, "trees", st->trees, st->ntrees);
	wr_out_int(w, "turn", st->turn);
	wr_out_int(w, "active", st->active);
	wr_out_int(w, "first_deployer", st->first_deployer);
	wr_out_int(w, "first_this_turn", st->first_this_turn);
	wr_out_int(w, "last_activator", st->last_activator);
	wr_out_int(w, "any_activation", st->any_activation);
	wr_out_int(w, "act_piece", st->act_piece);
	wr_out_int(w, "act_reactivation", st->act_reactivation);
	wr_out_int(w, "act_first", st->act_first);
	wr_out_ints(w, "attack", atk, 6);
	wr_out_arr(w, "pieces");
	for (int i = 0; i < st->npieces; i++) {
		const struct wc_piece *p = &st->pieces[i];
		int v[13] = {p->seat, p->opt, (int)p->type, p->where, p->sq, p->adv, p->dis,
		             p->blessing, p->curse, p->activated, p->reactivations,
		             p->ever_activated, p->mark};
		wr_out_ints(w, NULL, v, 13);
	}
	wr_out_end(w);
	wr_out_arr(w, "seats");
	for (int s = 0; s < WC_SEATS; s++) {
		const struct wc_seat *ss = &st->seat[s];
		const struct wc_faction *f = wc_faction_at(ss->faction);
		wr_out_obj(w, NULL);
		wr_out_int(w, "submitted", ss->submitted);
		wr_out_str(w, "faction", f ? f->id : "standard");
		wr_out_ints(w, "counts", ss->counts, WC_MAX_OPTS);
		wr_out_int(w, "upgrades", (int)ss->upgrades);
		wr_out_int(w, "order_defend", ss->order_defend);
		wr_out_ints(w, "var", ss->var, 4);
		wr_out_end(w);
	}
	wr_out_end(w);
	wr_out_int(w, "over", st->over);
	wr_out_int(w, "winners", (int)st->winners);
	wr_out_str(w, "reason", st->reason);
	wr_out_end(w);
}

json_object *
wc_snapshot(const void *state)
{
	return wr_out_tree(wc_save_out, state);
}

/* ---------------------------------------------------------------- load */

#define GETI(obj, key, lo, hi, dst)                                                   \
	do {                                                                          \
		int v_;                                                               \
		if (wr_json_int(obj, key, lo, hi, 1, 0, &v_, err) != 0)               \
			goto bad;                                                     \
		dst = v_;                                                             \
	} while (0)

/* Indices a state must keep straight for the rules never to read out of
 * bounds; a snapshot that breaks them is refused. */
static int
coherent(const struct wc_state *st)
{
	int n = st->npieces;
	if (st->phase >= WC_PH_DEPLOY && st->phase <= WC_PH_PLAY && st->active < 0)
		return 0;
	if (st->phase == WC_PH_PLAY) {
		if (st->turn < 1 || st->turn > WC_LAST_TURN)
			return 0;
		if (st->stage != WC_ST_PICK && (st->act_piece < 0 || st->act_piece >= n ||
		                                st->pieces[st->act_piece].where == WC_OFF))
			return 0;
		if ((st->stage == WC_ST_DEFEND || st->stage == WC_ST_COMBAT) &&
		    (st->atk.att < 0 || st->atk.att >= n || st->atk.def < 0 || st->atk.def >= n ||
		     st->atk.sq < 0 || st->atk.from < 0))
			return 0;
	}
	for (int i = 0; i < n; i++) {
		const struct wc_piece *p = &st->pieces[i];
		const struct wc_faction *f = wc_faction_at(st->seat[p->seat].faction);
		if (!f || p->opt >= f->nopts || f->opts[p->opt].type != p->type)
			return 0;
		if ((p->where == WC_ON && p->sq < 0) || p->where == WC_OFF)
			return 0;       /* a piece exists once deployed (W8) */
		if (p->where == WC_REDEPLOY && st->phase != WC_PH_PLAY && st->phase != WC_PH_OVER)
			return 0;       /* W9: only a rule in play lifts a piece */
		int same = 0;           /* no more pieces of an option than the list */
		for (int k = 0; k < n; k++)
			same += st->pieces[k].seat == p->seat && st->pieces[k].opt == p->opt;
		if (same > st->seat[p->seat].counts[p->opt])
			return 0;
	}
	if (n > 0 && st->phase < WC_PH_DEPLOY)
		return 0;
	/* Somebody is awaited in every phase but the end (G6). */
	if ((st->phase == WC_PH_TEAMS) == (st->seat[0].submitted && st->seat[1].submitted) &&
	    st->phase != WC_PH_OVER)
		return 0;
	if (st->phase == WC_PH_DEPLOY) {
		int left = 0;
		for (int o = 0; o < WC_MAX_OPTS; o++)
			left += wc_reserve(st, st->active, o);
		if (!left)
			return 0;
	}
	for (int s = 0; s < WC_SEATS; s++) {
		const struct wc_faction *f = wc_faction_at(st->seat[s].faction);
		for (int i = f ? f->nopts : 0; i < WC_MAX_OPTS; i++)
			if (st->seat[s].counts[i])
				return 0;
	}
	return 1;
}

int
wc_load(json_object *snap, void **state, struct wr_error *err)
{
	struct wc_state *st = calloc(1, sizeof(*st));
	json_object *pcs, *seats;
	int atk[6], n;

	if (!st)
		return wr_fail(err, "no-memory", "", "out of memory");
	if (!snap || !json_object_is_type(snap, json_type_object)) {
		wr_fail(err, "bad-snapshot", "", "a JSON object is required");
		goto bad;
	}
	GETI(snap, "phase", 0, WC_PH_OVER, st->phase);
	GETI(snap, "stage", 0, WC_ST_COMBAT, st->stage);
	GETI(snap, "first_trees_random", 0, 1, st->first_trees_random);
	GETI(snap, "tree_first", 0, 1, st->tree_first);
	GETI(snap, "tree_choice", -1, WC_TREES_MAX - 1, st->tree_choice);
	if ((n = wr_json_read_ints(snap, "trees", st->trees, 0, WC_MAX_TREES, 0, 63, err)) < 0)
		goto bad;
	st->ntrees = n;
	GETI(snap, "turn", 0, WC_LAST_TURN, st->turn);
	GETI(snap, "active", -1, 1, st->active);
	GETI(snap, "first_deployer", 0, 1, st->first_deployer);
	GETI(snap, "first_this_turn", -1, 1, st->first_this_turn);
	GETI(snap, "last_activator", -1, 1, st->last_activator);
	GETI(snap, "any_activation", 0, 1, st->any_activation);
	GETI(snap, "act_piece", -1, WC_MAX_PIECES - 1, st->act_piece);
	GETI(snap, "act_reactivation", 0, 1, st->act_reactivation);
	GETI(snap, "act_first", 0, 1, st->act_first);
	if (wr_json_read_ints(snap, "attack", atk, 6, 6, -1, 63, err) < 0)
		goto bad;
	st->atk = (struct wc_attack){atk[0], atk[1], atk[2], atk[3], atk[4], atk[5]};
	if (!json_object_object_get_ex(snap, "seats", &seats) ||
	    !json_object_is_type(seats, json_type_array) || json_object_array_length(seats) != 2) {
		wr_fail(err, "bad-snapshot", "seats", "two seats are required");
		goto bad;
	}
	for (int s = 0; s < WC_SEATS; s++) {
		json_object *x = json_object_array_get_idx(seats, (size_t)s);
		struct wc_seat *ss = &st->seat[s];
		const char *fid;
		int up;
		if (!json_object_is_type(x, json_type_object)) {
			wr_fail(err, "bad-snapshot", "seats", "seat objects are required");
			goto bad;
		}
		GETI(x, "submitted", 0, 1, ss->submitted);
		if (wr_json_string(x, "faction", 1, &fid, err) != 0)
			goto bad;
		if ((ss->faction = wc_faction_find(fid)) < 0) {
			wr_fail(err, "bad-snapshot", "faction", "unknown faction");
			goto bad;
		}
		if (wr_json_read_ints(x, "counts", ss->counts, WC_MAX_OPTS, WC_MAX_OPTS, 0, WC_MAX_PIECES,
		             err) < 0)
			goto bad;
		GETI(x, "upgrades", 0, (1 << WC_MAX_UPGRADES) - 1, up);
		ss->upgrades = (unsigned)up;
		GETI(x, "order_defend", 0, 2, ss->order_defend);
		if (wr_json_read_ints(x, "var", ss->var, 4, 4, -1000000, 1000000, err) < 0)
			goto bad;
	}
	if (!json_object_object_get_ex(snap, "pieces", &pcs) ||
	    !json_object_is_type(pcs, json_type_array) ||
	    json_object_array_length(pcs) > WC_MAX_PIECES) {
		wr_fail(err, "bad-snapshot", "pieces", "a list of pieces is required");
		goto bad;
	}
	st->npieces = (int)json_object_array_length(pcs);
	for (int i = 0; i < st->npieces; i++) {
		json_object *w = json_object_new_object(), *x = json_object_array_get_idx(pcs, (size_t)i);
		int v[13];
		static const int lo[13] = {0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, -1000000};
		static const int hi[13] = {1, WC_MAX_OPTS - 1, WC_TYPE_MAX - 1, WC_REDEPLOY, 63, 99, 99,
		                           1, 1, 1, 1000, 1, 1000000};
		json_object_object_add(w, "p", json_object_get(x));
		n = wr_json_read_ints(w, "p", v, 13, 13, -1000000, 1000000, err);
		json_object_put(w);
		if (n < 0)
			goto bad;
		for (int k = 0; k < 13; k++)
			if (v[k] < lo[k] || v[k] > hi[k]) {
				wr_fail(err, "bad-snapshot", "pieces", "piece %d: field %d out of range", i, k);
				goto bad;
			}
		st->pieces[i] = (struct wc_piece){v[0], v[1], (enum wc_type)v[2], v[3], v[4], v[5],
		                                  v[6], v[7], v[8], v[9], v[10], v[11], v[12]};
	}
	GETI(snap, "over", 0, 1, st->over);
	{
		int w;
		const char *r;
		GETI(snap, "winners", 0, 3, w);
		st->winners = (unsigned)w;
		if (wr_json_string(snap, "reason", 1, &r, err) != 0)
			goto bad;
		snprintf(st->reason, sizeof(st->reason), "%s", r);
	}
	if (!coherent(st)) {
		wr_fail(err, "bad-snapshot", "", "the snapshot is not a coherent state");
		goto bad;
	}
	*state = st;
	return 0;
bad:
	free(st);
	return -1;
}

/* ---------------------------------------------------------------- view */

static const char *const where_names[] = {"reserve", "board", "slain", "removed", "redeploy"};

static json_object *
pending(const struct wc_state *st)
{
	static const char *const kinds[] = {"activate", "act", "en_passant", "defend_advantage",
	                                    "combat_movement"};
	static const char *const prompts[] = {
	    "Re/Activate a piece",
	    "Move, Attack, Promote, or stay",
	    "Move the Pawn again (En Passant) or end the Activation",
	    "Spend an Advantage token on the Defence roll?",
	    "Combat Movement: place the attacker aside, or step aside yourself",
	};
	json_object *arr = json_object_new_array();
	unsigned m = wc_to_act(st);

	for (int s = 0; s < WC_SEATS; s++) {
		json_object *o;
		const char *kind, *prompt;
		if (!(m & (1u << s)))
			continue;
		switch (st->phase) {
		case WC_PH_TEAMS:
			kind = "team";
			prompt = "Build a team of exactly 14 points";
			break;
		case WC_PH_TREES:
			kind = "trees";
			prompt = "Trees for your half: mirror, mirror_flip or random";
			break;
		case WC_PH_DEPLOY:
			kind = "deploy";
			prompt = "Deploy a piece in your deployment zone";
			break;
		default:
			kind = wc_redeploying(st) >= 0 ? "redeploy" : kinds[st->stage];
			prompt = wc_redeploying(st) >= 0
			             ? "Redeploy your piece in your deployment zone (it cannot be slain)"
			             : prompts[st->stage];
		}
		o = json_object_new_object();
		json_object_object_add(o, "seat", json_object_new_int(s));
		json_object_object_add(o, "kind", json_object_new_string(kind));
		json_object_object_add(o, "prompt", json_object_new_string(prompt));
		json_object_array_add(arr, o);
	}
	return arr;
}

json_object *
wc_view(const void *state, int viewer)
{
	const struct wc_state *st = state;
	json_object *o = json_object_new_object(), *pcs = json_object_new_array(),
	            *teams = json_object_new_array(), *trees = json_object_new_object(),
	            *tq = json_object_new_array(), *pts = json_object_new_array(),
	            *res = json_object_new_object(), *w = json_object_new_array();
	int shown = wc_lists_shown(st);

	json_object_object_add(o, "ruleset", json_object_new_string("wargame-chess"));
	json_object_object_add(o, "phase", json_object_new_string(wc_phase_names[st->phase]));
	wr_json_put_int(o, "turn", st->turn);
	wr_json_put_int(o, "active", st->active);
	wr_json_put_int(o, "first_this_turn", st->first_this_turn);
	wr_json_put_int(o, "last_activator", st->last_activator);
	{
		json_object *act = json_object_new_object();
		json_object_object_add(act, "step", json_object_new_string(wc_stage_names[st->stage]));
		wr_json_put_int(act, "piece", st->act_piece);
		json_object_object_add(act, "reactivation",
		                       json_object_new_boolean(st->act_piece >= 0 && st->act_reactivation));
		if (st->atk.att >= 0) {
			json_object *at = json_object_new_object();
			wr_json_put_int(at, "attacker", st->atk.att);
			wr_json_put_int(at, "defender", st->atk.def);
			json_object_object_add(at, "from", wr_json_sq(&wr_board8, st->atk.from));
			json_object_object_add(at, "square", wr_json_sq(&wr_board8, st->atk.sq));
			json_object_object_add(act, "attack", at);
		} else
			json_object_object_add(act, "attack", NULL);
		json_object_object_add(o, "activation", act);
	}
	json_object_object_add(o, "pending", pending(st));
	{
		/* W7: a match ended early by agreement is decided on points;
		 * the board words its draw offer from this. */
		json_object *ag = json_object_new_object();
		json_object_object_add(ag, "decided_on", json_object_new_string("points"));
		json_object_object_add(ag, "prompt", json_object_new_string("End the match on points"));
		json_object_object_add(o, "agreement", ag);
	}
	wr_json_put_int(trees, "first_seat", st->tree_first);
	json_object_object_add(trees, "choice",
	                       st->tree_choice >= 0
	                           ? json_object_new_string(wc_tree_names[st->tree_choice])
	                           : NULL);
	for (int i = 0; i < st->ntrees; i++)
		json_object_array_add(tq, wr_json_sq(&wr_board8, st->trees[i]));
	json_object_object_add(trees, "squares", tq);
	json_object_object_add(o, "trees", trees);
	for (int s = 0; s < WC_SEATS; s++) {
		const struct wc_seat *ss = &st->seat[s];
		const struct wc_faction *f = wc_faction_at(ss->faction);
		json_object *t = json_object_new_object();
		/* A team list is hidden from the other seat until both teams
		 * are deployed (G5, W8). */
		int see = ss->submitted && (shown || viewer == s || viewer == WR_EVERYONE);
		wr_json_put_int(t, "seat", s);
		json_object_object_add(t, "submitted", json_object_new_boolean(ss->submitted));
		if (see && f) {
			json_object *pc = json_object_new_object(), *up = json_object_new_array();
			json_object_object_add(t, "faction", json_object_new_string(f->id));
			for (int i = 0; i < f->nopts; i++)
				if (ss->counts[i])
					json_object_object_add(pc, f->opts[i].id, json_object_new_int(ss->counts[i]));
			for (int u = 0; u < f->nupgrades; u++)
				if (ss->upgrades & (1u << u))
					json_object_array_add(up, json_object_new_string(f->upgrades[u].id));
			json_object_object_add(t, "pieces", pc);
			json_object_object_add(t, "upgrades", up);
		} else {
			json_object_object_add(t, "faction", NULL);
			json_object_object_add(t, "pieces", NULL);
			json_object_object_add(t, "upgrades", NULL);
		}
		if (viewer == s || viewer == WR_EVERYONE) {
			json_object *ord = json_object_new_object();
			json_object_object_add(ord, "defend_advantage",
			                       json_object_new_string(wc_order_names[ss->order_defend]));
			json_object_object_add(t, "orders", ord);
		} else
			json_object_object_add(t, "orders", NULL);
		json_object_array_add(teams, t);
		json_object_array_add(pts, json_object_new_int(see ? wc_points(st, s) : 0));
	}
	json_object_object_add(o, "teams", teams);
	for (int i = 0; i < st->npieces; i++) {
		const struct wc_piece *p = &st->pieces[i];
		json_object *x = json_object_new_object();
		wr_json_put_int(x, "id", i);
		wr_json_put_int(x, "owner", p->seat);
		json_object_object_add(x, "type", json_object_new_string(wc_type_names[p->type]));
		json_object_object_add(x, "option", json_object_new_string(wc_opt(st, i)->id));
		wr_json_put_int(x, "rank", p->opt);
		json_object_object_add(x, "where", json_object_new_string(where_names[p->where]));
		json_object_object_add(x, "square", p->where == WC_ON ? wr_json_sq(&wr_board8, p->sq) : NULL);
		wr_json_put_int(x, "advantage", p->adv);
		wr_json_put_int(x, "disadvantage", p->dis);
		json_object_object_add(x, "blessing", json_object_new_boolean(p->blessing));
		json_object_object_add(x, "curse", json_object_new_boolean(p->curse));
		json_object_object_add(x, "activated", json_object_new_boolean(p->activated));
		wr_json_put_int(x, "reactivations", p->reactivations);
		json_object_array_add(pcs, x);
	}
	json_object_object_add(o, "pieces", pcs);
	json_object_object_add(o, "points", pts);
	json_object_object_add(res, "over", json_object_new_boolean(st->over));
	for (int s = 0; s < WC_SEATS; s++)
		if (st->winners & (1u << s))
			json_object_array_add(w, json_object_new_int(s));
	json_object_object_add(res, "winners", w);
	json_object_object_add(res, "reason", json_object_new_string(st->reason));
	json_object_object_add(o, "result", res);
	return o;
}

