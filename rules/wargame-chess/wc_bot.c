/* Wargame Chess for the computer player (issue 27, bot/): a state rebuilt
 * from one seat's view, and a material evaluation.
 *
 * What the view hides (G5, W8): the other seat's team list until both
 * teams are deployed, and its standing order. While teams are built the
 * other list is taken as not yet submitted; while deploying, the other
 * seat's reserve is guessed as the pieces it has deployed plus, per
 * option, as many as the bot's own list holds (a list of the same
 * faction). Not in any view and read back as a best guess: a piece's
 * "first Activation of the game" (En Passant) is taken as done unless it
 * is a Pawn still in its deployment zone; a faction's free counters
 * (var, mark) are 0 (the Standard faction has none). Calls the rule files
 * and the codec's tables; only the ruleset table names it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "botview.h"
#include "wc_rules.h"

extern const struct wr_ruleset wc_ruleset;

static const char *const where_names[] = {"reserve", "board", "slain", "removed", "redeploy"};

static int
option_index(const struct wc_faction *f, const char *id)
{
	for (int i = 0; f && id && i < f->nopts; i++)
		if (strcmp(f->opts[i].id, id) == 0)
			return i;
	return -1;
}

static void
read_team(struct wc_state *st, int s, json_object *t)
{
	struct wc_seat *ss = &st->seat[s];
	const char *fid = wr_v_str(t, "faction");
	json_object *pcs = wr_v_get(t, "pieces"), *ups, *ord = wr_v_get(t, "orders");
	size_t n;

	ss->submitted = wr_v_bool(t, "submitted", 0);
	ss->faction = fid ? wc_faction_find(fid) : 0;
	if (ss->faction < 0)
		ss->faction = 0;
	const struct wc_faction *f = wc_faction_at(ss->faction);
	if (pcs && json_object_is_type(pcs, json_type_object)) {
		json_object_object_foreach(pcs, k, v) {
			int o = option_index(f, k);
			if (o >= 0)
				ss->counts[o] = json_object_get_int(v);
		}
	}
	ups = wr_v_array(t, "upgrades", &n);
	for (size_t i = 0; i < n; i++) {
		const char *u = json_object_get_string(json_object_array_get_idx(ups, i));
		for (int k = 0; u && k < f->nupgrades; k++)
			if (strcmp(f->upgrades[k].id, u) == 0)
				ss->upgrades |= 1u << k;
	}
	ss->order_defend = wr_v_name(ord, "defend_advantage", wc_order_names, 3, WC_ORDER_ASK);
}

void *
wc_determinize(json_object *view, int seat, struct wr_rng *rng, struct wr_error *err)
{
	struct wc_state *st = calloc(1, sizeof(*st));
	json_object *act = wr_v_get(view, "activation"), *atk = wr_v_get(act, "attack"),
	            *trees = wr_v_get(view, "trees"), *teams, *pcs, *res = wr_v_get(view, "result");
	size_t n, nt;
	int lists_hidden = 0;

	if (!st)
		return wr_bot_finish(&wc_ruleset, NULL, err);
	if (seat < 0 || seat >= WC_SEATS) {
		free(st);
		wr_fail(err, "bad-seat", "seat", "no seat %d", seat);
		return NULL;
	}
	st->phase = wr_v_name(view, "phase", wc_phase_names, WC_PH_OVER + 1, WC_PH_TEAMS);
	st->stage = wr_v_name(act, "step", wc_stage_names, WC_ST_COMBAT + 1, WC_ST_PICK);
	st->turn = wr_v_int(view, "turn", 0);
	st->active = wr_v_int(view, "active", -1);
	st->first_this_turn = wr_v_int(view, "first_this_turn", -1);
	st->last_activator = wr_v_int(view, "last_activator", -1);
	st->act_piece = wr_v_int(act, "piece", -1);
	st->act_reactivation = wr_v_bool(act, "reactivation", 0);
	st->atk = (struct wc_attack){-1, -1, -1, -1, 0, 0};
	if (atk && json_object_is_type(atk, json_type_object)) {
		st->atk.att = wr_v_int(atk, "attacker", -1);
		st->atk.def = wr_v_int(atk, "defender", -1);
		st->atk.from = wr_v_sq(atk, "from", &wr_board8);
		st->atk.sq = wr_v_sq(atk, "square", &wr_board8);
	}
	st->tree_first = wr_v_int(trees, "first_seat", 0) ? 1 : 0;
	st->first_deployer = 1 - st->tree_first;
	st->tree_choice = wr_v_name(trees, "choice", wc_tree_names, WC_TREES_MAX, -1);
	json_object *tq = wr_v_array(trees, "squares", &nt);
	for (size_t i = 0; i < nt && st->ntrees < WC_MAX_TREES; i++) {
		const char *s = json_object_get_string(json_object_array_get_idx(tq, i));
		int sq = s ? wr_square_parse(&wr_board8, s) : -1;
		if (sq >= 0)
			st->trees[st->ntrees++] = sq;
	}
	teams = wr_v_array(view, "teams", &n);
	for (size_t i = 0; i < n && i < WC_SEATS; i++) {
		json_object *t = json_object_array_get_idx(teams, i);
		read_team(st, (int)i, t);
		if ((int)i != seat && st->seat[i].submitted &&
		    !json_object_is_type(wr_v_get(t, "pieces"), json_type_object))
			lists_hidden = 1;
	}
	pcs = wr_v_array(view, "pieces", &n);
	for (size_t i = 0; i < n && st->npieces < WC_MAX_PIECES; i++) {
		json_object *x = json_object_array_get_idx(pcs, i);
		struct wc_piece *p = &st->pieces[st->npieces++];
		p->seat = wr_v_int(x, "owner", 0) ? 1 : 0;
		p->type = (enum wc_type)wr_v_name(x, "type", wc_type_names, WC_TYPE_MAX, 0);
		p->opt = option_index(wc_faction_at(st->seat[p->seat].faction), wr_v_str(x, "option"));
		if (p->opt < 0)
			p->opt = wr_v_int(x, "rank", 0);
		p->where = wr_v_name(x, "where", where_names, 5, WC_ON);
		p->sq = p->where == WC_ON ? wr_v_sq(x, "square", &wr_board8) : -1;
		p->adv = wr_v_int(x, "advantage", 0);
		p->dis = wr_v_int(x, "disadvantage", 0);
		p->blessing = wr_v_bool(x, "blessing", 0);
		p->curse = wr_v_bool(x, "curse", 0);
		p->activated = wr_v_bool(x, "activated", 0);
		p->reactivations = wr_v_int(x, "reactivations", 0);
		p->ever_activated = p->activated || p->type != WC_PAWN || p->where != WC_ON ||
		                    !wc_zone(p->seat, p->sq);
		if (p->activated)
			st->any_activation = 1;
	}
	if (st->phase == WC_PH_PLAY && st->turn > 1)
		st->any_activation = 1;
	if (st->act_piece >= 0 && st->act_piece < st->npieces)
		st->act_first = !st->pieces[st->act_piece].reactivations &&
		                st->pieces[st->act_piece].type == WC_PAWN &&
		                !st->pieces[st->act_piece].ever_activated;
	if (lists_hidden) {
		/* The other list, unseen: before both are in, not yet
		 * submitted; while deploying, what it has on the board plus
		 * a guess of its reserve (the bot's own list). */
		int o = 1 - seat;
		struct wc_seat *os = &st->seat[o];
		if (st->phase == WC_PH_TEAMS) {
			os->submitted = 0;
			memset(os->counts, 0, sizeof(os->counts));
		} else {
			os->faction = st->seat[seat].faction;
			for (int k = 0; k < WC_MAX_OPTS; k++) {
				int on = 0;
				for (int i = 0; i < st->npieces; i++)
					on += st->pieces[i].seat == o && st->pieces[i].opt == k;
				os->counts[k] = on > st->seat[seat].counts[k] ? on : st->seat[seat].counts[k];
			}
		}
	}
	st->over = wr_v_bool(res, "over", 0);
	{
		json_object *w = wr_v_array(res, "winners", &n);
		for (size_t i = 0; i < n; i++)
			st->winners |= 1u << (json_object_get_int(json_object_array_get_idx(w, i)) & 1);
		const char *r = wr_v_str(res, "reason");
		snprintf(st->reason, sizeof(st->reason), "%s", r ? r : "");
	}
	(void)rng;
	return wr_bot_finish(&wc_ruleset, st, err);
}

/* W7: after Turn 10 the points (pieces on the board and upgrades) decide,
 * and a side whose Faction Leader falls loses at once: the lead in points
 * (a King worth 6 more, as the Leader it may be), squashed (tanh), and
 * worth more the later the turn (fewer turns left to turn it round). A
 * share of the total (the evaluation before) made a one-point lead at
 * Turn 10 look like an even match, and the bot drew 9-9 on points. */
#define WC_LEAD_SCALE_EARLY 12.0
#define WC_LEAD_SCALE_LATE 3.0

double
wc_evaluate(const void *state, int seat)
{
	const struct wc_state *st = state;
	double lead = wc_points(st, seat) - wc_points(st, !seat);

	for (int i = 0; i < st->npieces; i++) {
		const struct wc_piece *p = &st->pieces[i];
		if (p->type == WC_KING && (p->where == WC_ON || p->where == WC_REDEPLOY))
			lead += p->seat == seat ? 6 : -6;
	}
	int turn = st->turn < 1 ? 1 : st->turn > 10 ? 10 : st->turn;
	double scale = WC_LEAD_SCALE_LATE +
	               (WC_LEAD_SCALE_EARLY - WC_LEAD_SCALE_LATE) * (10 - turn) / 9.0;
	return 0.5 + 0.5 * tanh(lead / scale);
}
