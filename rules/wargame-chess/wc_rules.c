/* Wargame Chess on the ruleset template (rules/README.md, "Adding a
 * ruleset"; 000_fd193abe0e5c92ac.txt with RULINGS.md G1-G8, W1-W9): the
 * candidates, the one legality check, and the apply, on plain structs.
 * No JSON here. Calls wc_turn.c, wc_board.c and the data; only the codec
 * (wc_codec.c, wc_snapshot.c) calls into it. */
#include <stdio.h>
#include <string.h>

#include "wc_rules.h"

#define B (&wr_board8)

void
wc_action_init(struct wc_action *a, int kind)
{
	memset(a, 0, sizeof(*a));
	a->kind = kind;
	a->sq = -1;
	a->castle = -1;
	a->piece = -1;
	a->faction = -1;
	a->trees = -1;
}

int
wc_init(struct wc_state *st, int first_trees_random, struct wr_rng *rng)
{
	memset(st, 0, sizeof(*st));
	st->phase = WC_PH_TEAMS;
	st->first_trees_random = first_trees_random;
	st->tree_first = first_trees_random ? (int)wr_die(rng, 2) - 1 : 0;
	st->tree_choice = -1;
	st->active = -1;
	st->first_deployer = 1 - st->tree_first;
	st->first_this_turn = -1;
	st->last_activator = -1;
	st->act_piece = -1;
	st->atk.att = st->atk.def = -1;
	st->atk.from = st->atk.sq = -1;
	return 0;
}

unsigned
wc_to_act(const void *state)
{
	const struct wc_state *st = state;
	unsigned m = 0;

	switch (st->phase) {
	case WC_PH_TEAMS:
		for (int s = 0; s < WC_SEATS; s++)
			if (!st->seat[s].submitted)
				m |= 1u << s;
		return m;
	case WC_PH_TREES:
		return 1u << (1 - st->tree_first);
	case WC_PH_DEPLOY:
		return st->active >= 0 ? 1u << st->active : 0;
	case WC_PH_PLAY:
		if (wc_redeploying(st) >= 0 && !st->over)   /* W9: the owner first */
			return 1u << st->pieces[wc_redeploying(st)].seat;
		if (st->stage == WC_ST_DEFEND || st->stage == WC_ST_COMBAT)
			return 1u << st->pieces[st->atk.def].seat;
		return st->active >= 0 ? 1u << st->active : 0;
	default:
		return 0;
	}
}

/* ------------------------------------------------------------ teams */

static int
team_cost(const struct wc_faction *f, const int *counts, unsigned upgrades)
{
	int pts = 0;
	for (int i = 0; i < f->nopts; i++)
		pts += counts[i] * wc_type_cost[f->opts[i].type];
	for (int u = 0; u < f->nupgrades; u++)
		if (upgrades & (1u << u))
			pts += f->upgrades[u].cost;
	return pts;
}

/* 000_fd193abe0e5c92ac.txt, Building a team. */
int
wc_team_check(int faction, const int *counts, unsigned upgrades, struct wr_error *err)
{
	const struct wc_faction *f = wc_faction_at(faction);
	int per_type[WC_TYPE_MAX] = {0}, options[WC_TYPE_MAX] = {0};

	if (!f)
		return wr_fail(err, "unknown-faction", "faction", "no such faction");
	if (upgrades >> f->nupgrades)
		return wr_fail(err, "unknown-upgrade", "upgrades", "no such upgrade");
	for (int i = f->nopts; i < WC_MAX_OPTS; i++)
		if (counts[i])
			return wr_fail(err, "unknown-piece", "pieces", "not in this faction's roster");
	for (int i = 0; i < f->nopts; i++) {
		const struct wc_option *o = &f->opts[i];
		if (counts[i] < 0 || counts[i] > o->max)
			return wr_fail(err, "quantity-out-of-range", "pieces",
			               "%s: at most %d may be taken", o->id, o->max);
		per_type[o->type] += counts[i];
		if (counts[i] > 0)
			options[o->type]++;
	}
	for (int t = 0; t < WC_TYPE_MAX; t++) {
		/* "you may only run 1 of those options" - Jokers excepted. */
		if (t != WC_JOKER && options[t] > 1)
			return wr_fail(err, "one-option-per-type", "pieces",
			               "only one option of the %s may be taken", wc_type_names[t]);
		if (per_type[t] > wc_set_limit[t])
			return wr_fail(err, "set-limit", "pieces",
			               "a standard set has only %d of the %s", wc_set_limit[t],
			               wc_type_names[t]);
	}
	for (int i = 0; i < f->nopts; i++) {
		const struct wc_option *o = &f->opts[i];
		/* A minimum binds the option taken for its type; an untaken
		 * type binds every option of it. */
		if (counts[i] < o->min && (counts[i] > 0 || o->type == WC_JOKER || !options[o->type]))
			return wr_fail(err, "quantity-out-of-range", "pieces",
			               "%s: at least %d must be taken", o->id, o->min);
	}
	if (team_cost(f, counts, upgrades) != WC_TEAM_POINTS)
		return wr_fail(err, "not-14-points", "pieces",
		               "a team is exactly %d points of pieces and upgrades", WC_TEAM_POINTS);
	return 0;
}

/* ------------------------------------------------------- candidates */

static struct wc_action *
push(struct wr_list *l, int kind)
{
	struct wc_action *a = wr_list_push(l);
	static _Thread_local struct wc_action scratch;  /* out of memory: dropped */

	if (!a)
		a = &scratch;
	wc_action_init(a, kind);
	return a;
}

/* Every team of a faction within the points, every upgrade set. */
static void
team_candidates(struct wr_list *l, int faction, int i, int *counts, int pts)
{
	const struct wc_faction *f = wc_faction_at(faction);

	if (pts > WC_TEAM_POINTS)
		return;
	if (i == f->nopts) {
		for (unsigned u = 0; u < (1u << f->nupgrades); u++) {
			struct wc_action *a;
			if (team_cost(f, counts, u) != WC_TEAM_POINTS)
				continue;      /* a shortcut: legal() refuses these too */
			a = push(l, WC_A_TEAM);
			a->faction = faction;
			memcpy(a->counts, counts, sizeof(a->counts));
			a->upgrades = u;
		}
		return;
	}
	for (int k = 0; k <= f->opts[i].max; k++) {
		counts[i] = k;
		team_candidates(l, faction, i + 1, counts, pts + k * wc_type_cost[f->opts[i].type]);
	}
	counts[i] = 0;
}

static void
play_candidates(const struct wc_state *st, int seat, struct wr_list *l)
{
	int mv[64], at[64], nm, na, p = st->act_piece;
	struct wc_action *a;

	if (wc_redeploying(st) >= 0) {
		nm = wc_redeploy_squares(st, seat, mv);
		for (int i = 0; i < nm; i++)
			push(l, WC_A_REDEPLOY)->sq = mv[i];
		return;
	}
	switch (st->stage) {
	case WC_ST_PICK:
		for (int i = 0; i < st->npieces; i++)
			if (st->pieces[i].seat == seat && st->pieces[i].where == WC_ON)
				push(l, WC_A_ACTIVATE)->sq = st->pieces[i].sq;
		break;
	case WC_ST_ACT:
	case WC_ST_EN_PASSANT:
		wc_paths(st, p, mv, &nm, at, &na);
		for (int i = 0; i < nm; i++) {
			int cp[8], nc = wc_castle_partners(st, p, mv[i], cp);
			push(l, WC_A_MOVE)->sq = mv[i];
			for (int k = 0; k < nc; k++) {
				a = push(l, WC_A_MOVE);
				a->sq = mv[i];
				a->castle = cp[k];
			}
		}
		for (int i = 0; i < na; i++)
			for (int k = 0; k < 2; k++) {
				a = push(l, WC_A_ATTACK);
				a->sq = at[i];
				a->advantage = k;
			}
		push(l, WC_A_STAY);
		for (int q = 0; q < st->npieces; q++)
			push(l, WC_A_PROMOTE)->piece = q;
		push(l, WC_A_END);
		break;
	case WC_ST_DEFEND:
		for (int k = 0; k < 2; k++)
			push(l, WC_A_DEFEND)->advantage = k;
		break;
	case WC_ST_COMBAT: {
		int adj[8], n = wc_adjacent_free(st, st->atk.sq, adj);
		for (int k = 0; k < 2; k++)
			for (int i = 0; i < n; i++) {
				a = push(l, WC_A_COMBAT);
				a->combat = k;
				a->sq = adj[i];
			}
		break;
	}
	}
}

void
wc_candidates(const void *state, int seat, struct wr_list *l)
{
	const struct wc_state *st = state;

	if (seat < 0 || seat >= WC_SEATS || !(wc_to_act(st) & (1u << seat)))
		return;
	switch (st->phase) {
	case WC_PH_TEAMS:
		for (int f = 0; f < wc_faction_count(); f++) {
			int counts[WC_MAX_OPTS] = {0};
			team_candidates(l, f, 0, counts, 0);
		}
		break;
	case WC_PH_TREES:
		for (int k = 0; k < WC_TREES_MAX; k++)
			push(l, WC_A_TREES)->trees = k;
		break;
	case WC_PH_DEPLOY: {
		const struct wc_faction *f = wc_fac(st, seat);
		for (int o = 0; o < f->nopts; o++)
			for (int s = 0; s < 64 && wc_reserve(st, seat, o) > 0; s++)
				if (wc_zone(seat, s)) {
					struct wc_action *a = push(l, WC_A_DEPLOY);
					snprintf(a->option, sizeof(a->option), "%s", f->opts[o].id);
					a->sq = s;
				}
		break;
	}
	case WC_PH_PLAY:
		play_candidates(st, seat, l);
		break;
	}
}

/* ------------------------------------------------------------ legal */

static int
legal_deploy(const struct wc_state *st, int seat, const struct wc_action *a, struct wr_error *err)
{
	int opt = wc_option_find(st, seat, a->option);

	if (opt < 0)
		return wr_fail(err, "unknown-piece", "piece", "not in this team's roster");
	if (wc_reserve(st, seat, opt) == 0)
		return wr_fail(err, "none-left", "piece", "no %s of your team is left to deploy",
		               wc_fac(st, seat)->opts[opt].name);
	if (a->sq < 0 || a->sq > 63 || !wc_zone(seat, a->sq))
		return wr_fail(err, "outside-zone", "square",
		               "pieces deploy in the two ranks nearest their player");
	if (!wc_free(st, a->sq))
		return wr_fail(err, "square-taken", "square", "that square is not free");
	return 0;
}

static int
legal_activate(const struct wc_state *st, int seat, const struct wc_action *a,
               struct wr_error *err)
{
	int p = a->sq >= 0 ? wc_piece_at(st, a->sq) : -1;

	if (p < 0)
		return wr_fail(err, "no-piece", "square", "no piece there");
	if (st->pieces[p].seat != seat)
		return wr_fail(err, "not-your-piece", "square", "that piece is not yours");
	/* Reactivation: only once every own piece on the board Activated. */
	if (st->pieces[p].activated && wc_unactivated(st, seat) > 0)
		return wr_fail(err, "already-activated", "square",
		               "that piece has Activated this turn and others have not");
	return 0;
}

/* Move, Attack, stay, Promote, end: what the Activated piece may do. */
static int
legal_act(const struct wc_state *st, const struct wc_action *a, struct wr_error *err)
{
	int mv[64], at[64], nm, na, cp[8], nc, p = st->act_piece;

	if (st->stage != WC_ST_ACT && !(st->stage == WC_ST_EN_PASSANT &&
	                                (a->kind == WC_A_MOVE || a->kind == WC_A_END)))
		return wr_fail(err, "wrong-step", "type", "not an action at this point of the Activation");
	if (a->kind == WC_A_END) {
		if (st->stage != WC_ST_EN_PASSANT)
			return wr_fail(err, "wrong-step", "type",
			               "not an action at this point of the Activation");
		return 0;
	}
	wc_paths(st, p, mv, &nm, at, &na);
	switch (a->kind) {
	case WC_A_MOVE:
		if (!wc_in_list(mv, nm, a->sq))
			return wr_fail(err, "not-a-move", "to", "the piece cannot Move there");
		if (a->castle < 0)
			return 0;
		/* En Passant's second Move is no Castle (a Rook rule). */
		nc = st->stage == WC_ST_ACT ? wc_castle_partners(st, p, a->sq, cp) : 0;
		if (!wc_in_list(cp, nc, a->castle))
			return wr_fail(err, "not-a-castle", "castle",
			               "Castle swaps the Rook with a non-Rook ally next to where it Moves");
		return 0;
	case WC_A_ATTACK:
		if (!wc_in_list(at, na, a->sq))
			return wr_fail(err, "not-an-attack", "to", "the piece cannot Attack there");
		/* Jokers cannot spend tokens (W4). */
		if (a->advantage && (st->pieces[p].adv == 0 || st->pieces[p].type == WC_JOKER))
			return wr_fail(err, "no-advantage-token", "advantage",
			               "the piece has no Advantage token to spend");
		return 0;
	case WC_A_STAY:
		/* Text, Move: "If a piece is not able to Move ... it is
		 * permitted to travel fewer than 1 square": a legal Attack
		 * does not take that away (W3 names one case, not the only). */
		if (nm)
			return wr_fail(err, "must-move", "",
			               "a piece that can Move cannot stay (W3)");
		return 0;
	case WC_A_PROMOTE:
		if (!wc_promotion_open(st, p) || !wc_can_promote_into(st, p, a->piece))
			return wr_fail(err, "cannot-promote", "piece", "that Promotion is not open");
		return 0;
	}
	return wr_fail(err, "unknown-action", "type", "unknown action type");
}

static int
legal_play(const struct wc_state *st, int seat, const struct wc_action *a, struct wr_error *err)
{
	int sq[64], n;

	if ((wc_redeploying(st) >= 0) != (a->kind == WC_A_REDEPLOY))
		return wr_fail(err, "wrong-step", "type",
		               wc_redeploying(st) >= 0 ? "first redeploy your piece (W9)"
		                                       : "no piece of yours is to be redeployed");
	switch (a->kind) {
	case WC_A_REDEPLOY:
		n = wc_redeploy_squares(st, seat, sq);
		if (!wc_in_list(sq, n, a->sq))
			return wr_fail(err, "outside-zone", "square",
			               "redeploy on an unoccupied square of your deployment zone");
		return 0;
	case WC_A_ACTIVATE:
		if (st->stage != WC_ST_PICK)
			break;
		return legal_activate(st, seat, a, err);
	case WC_A_DEFEND:
		if (st->stage != WC_ST_DEFEND)
			break;
		if (a->advantage && st->pieces[st->atk.def].adv == 0)
			return wr_fail(err, "no-advantage-token", "advantage",
			               "the piece has no Advantage token to spend");
		return 0;
	case WC_A_COMBAT:
		if (st->stage != WC_ST_COMBAT)
			break;
		if (!wc_free(st, a->sq) || wr_chebyshev(B, a->sq, st->atk.sq) != 1)
			return wr_fail(err, "not-adjacent-free", "square",
			               "Combat Movement goes to an unoccupied adjacent square");
		return 0;
	default:
		return legal_act(st, a, err);
	}
	return wr_fail(err, "wrong-step", "type", "not an action at this point of the Activation");
}

/* The one legality check: listing is the candidates it accepts. Nothing
 * it reads during set-up depends on the other seat's hidden team (G5,
 * W8): the acting seat's own list, and the board. */
int
wc_legal(const void *state, int seat, const void *action, struct wr_error *err)
{
	const struct wc_state *st = state;
	const struct wc_action *a = action;
	int phase = a->kind == WC_A_TEAM ? WC_PH_TEAMS : a->kind == WC_A_TREES ? WC_PH_TREES
	          : a->kind == WC_A_DEPLOY ? WC_PH_DEPLOY : WC_PH_PLAY;

	if (st->over)
		return wr_fail(err, "game-over", "", "the match is over");
	if (seat < 0 || seat >= WC_SEATS)
		return wr_fail(err, "no-such-seat", "", "no such seat");
	if (!(wc_to_act(st) & (1u << seat)))
		return wr_fail(err, "not-awaited", "", "this seat is not awaited now");
	if (a->kind <= 0 || a->kind >= WC_A_MAX)
		return wr_fail(err, "unknown-action", "type", "unknown action type");
	if (st->phase != phase)
		return wr_fail(err, "wrong-phase", "type", "not an action of the %s phase",
		               wc_phase_names[st->phase]);
	switch (a->kind) {
	case WC_A_TEAM:
		return wc_team_check(a->faction, a->counts, a->upgrades, err);
	case WC_A_TREES:
		if (a->trees < 0 || a->trees >= WC_TREES_MAX)
			return wr_fail(err, "bad-choice", "choice", "choice: mirror, mirror_flip or random");
		return 0;
	case WC_A_DEPLOY:
		return legal_deploy(st, seat, a, err);
	default:
		return legal_play(st, seat, a, err);
	}
}

/* ------------------------------------------------------------ apply */

static void
first_trees(struct wc_ctx *c)
{
	struct wc_event *e = wc_emit(c, WC_EV_TREES);

	c->st->ntrees = 0;
	e->u.trees.seat = c->st->tree_first;
	e->u.trees.setup = WC_SETUP_ROLLED;
	wc_roll_trees(c, c->st->tree_first, e);
}

int
wc_undo_barrier(const void *before, const void *after, int seat, const struct wr_events *ev)
{
	const struct wc_state *a = before, *b = after;

	(void)seat;
	(void)ev;
	if (a->phase != WC_PH_DEPLOY)
		return 0;
	for (int i = 0; i < b->npieces; i++)
		if (b->pieces[i].where == WC_ON && (i >= a->npieces || a->pieces[i].where != WC_ON))
			return 1;
	return 0;
}

static void
do_team(struct wc_ctx *c, int seat, const struct wc_action *a)
{
	struct wc_state *st = c->st;
	struct wc_event *e;

	st->seat[seat].submitted = 1;
	st->seat[seat].faction = a->faction;
	memcpy(st->seat[seat].counts, a->counts, sizeof(a->counts));
	st->seat[seat].upgrades = a->upgrades;
	wc_emit(c, WC_EV_TEAM_SUBMITTED)->u.seat.seat = seat;
	/* The list itself only to its seat until both teams are deployed
	 * (G5, W8). */
	e = wc_emit(c, WC_EV_TEAM_LIST);
	e->visible_to = 1u << seat;
	e->u.team_list.seat = seat;
	e->u.team_list.faction = a->faction;
	memcpy(e->u.team_list.counts, a->counts, sizeof(a->counts));
	e->u.team_list.upgrades = a->upgrades;
	if (st->seat[0].submitted && st->seat[1].submitted) {
		wc_set_phase(c, WC_PH_TREES);
		first_trees(c);
	}
}

static void
do_trees(struct wc_ctx *c, const struct wc_action *a)
{
	struct wc_state *st = c->st;
	int other = 1 - st->tree_first, base = st->ntrees;
	struct wc_event *e = wc_emit(c, WC_EV_TREES);

	st->tree_choice = a->trees;
	e->u.trees.seat = other;
	e->u.trees.setup = a->trees;
	if (a->trees == WC_TREES_RANDOM)
		wc_roll_trees(c, other, e);
	else
		for (int i = 0; i < base; i++) {
			int f = st->trees[i] % 8, r = st->trees[i] / 8;
			if (a->trees == WC_TREES_MIRROR_FLIP)
				f = 7 - f;
			st->trees[st->ntrees++] = (7 - r) * 8 + f;
		}
	for (int i = base; i < st->ntrees && e->u.trees.nsquares < 3; i++)
		e->u.trees.squares[e->u.trees.nsquares++] = st->trees[i];
	wc_set_phase(c, WC_PH_DEPLOY);
	st->active = st->first_deployer;
}

/* A piece exists in the state once deployed (W8: nothing of a team that
 * is not on the board reaches the other seat, not even its size). */
static void
do_deploy(struct wc_ctx *c, int seat, const struct wc_action *a)
{
	struct wc_state *st = c->st;
	int opt = wc_option_find(st, seat, a->option), mine = 0, left = 0, p = st->npieces;
	struct wc_piece *pc;
	struct wc_event *e;

	if (p >= WC_MAX_PIECES)
		return;
	pc = &st->pieces[st->npieces++];
	memset(pc, 0, sizeof(*pc));
	pc->seat = seat;
	pc->opt = opt;
	pc->type = wc_fac(st, seat)->opts[opt].type;
	pc->where = WC_ON;
	pc->sq = a->sq;
	e = wc_emit(c, WC_EV_DEPLOY);
	e->u.deploy.seat = seat;
	e->u.deploy.piece = p;
	e->u.deploy.sq = a->sq;
	for (int o = 0; o < WC_MAX_OPTS; o++)
		mine += wc_reserve(st, seat, o);
	if (mine)
		return;          /* this seat deploys its whole team first (W2) */
	for (int o = 0; o < WC_MAX_OPTS; o++)
		left += wc_reserve(st, 1 - seat, o);
	if (left) {
		st->active = 1 - seat;
		return;
	}
	/* Setup order, step 5: both teams deployed, the lists are shown. */
	wc_emit(c, WC_EV_TEAMS_REVEALED);
	wc_set_phase(c, WC_PH_PLAY);
	st->turn = 1;
	wc_start_turn(c);
}

static void
do_move(struct wc_ctx *c, const struct wc_action *a)
{
	struct wc_state *st = c->st;
	int p = st->act_piece;
	struct wc_piece *pc = &st->pieces[p];
	struct wc_event *e = wc_emit(c, WC_EV_MOVE);

	e->u.move.piece = p;
	e->u.move.from = pc->sq;
	e->u.move.to = a->sq;
	pc->sq = a->sq;
	if (a->castle >= 0) {
		int q = wc_piece_at(st, a->castle);
		struct wc_piece *ally = &st->pieces[q];
		e = wc_emit(c, WC_EV_CASTLE);
		e->u.castle.rook = p;
		e->u.castle.ally = q;
		e->u.castle.rook_to = a->castle;
		e->u.castle.ally_to = a->sq;
		ally->sq = a->sq;
		pc->sq = a->castle;
		/* Lower rank: an Advantage token; higher: lose a Disadvantage one. */
		if (ally->opt > pc->opt)
			wc_give_tokens(c, q, 0, 1, "castle");
		else if (ally->dis > 0) {
			ally->dis--;
			e = wc_emit(c, WC_EV_TOKEN_REMOVED);
			e->u.removed.piece = q;
			e->u.removed.kind = 1;
			e->u.removed.cause = "castle";
		}
	}
	/* En Passant: "During its first Activation of the game, you may Move
	 * this Pawn twice." */
	if (st->stage == WC_ST_ACT && pc->type == WC_PAWN && st->act_first &&
	    (wc_rules_of(st, p) & WC_R_EN_PASSANT)) {
		st->stage = WC_ST_EN_PASSANT;
		return;
	}
	wc_end_activation(c);
}

/* W6: the Pawn is replaced and its Activation ends; the positional keeps
 * its "Activated this turn" flag (it may still Activate unless it had). */
static void
do_promote(struct wc_ctx *c, const struct wc_action *a)
{
	struct wc_state *st = c->st;
	int pawn = st->act_piece, sq = st->pieces[pawn].sq;
	struct wc_piece *q = &st->pieces[a->piece];
	struct wc_event *e;

	st->pieces[pawn].where = WC_REMOVED;
	q->where = WC_ON;
	q->sq = sq;
	e = wc_emit(c, WC_EV_PROMOTE);
	e->u.promote.pawn = pawn;
	e->u.promote.piece = a->piece;
	e->u.promote.sq = sq;
	e->u.promote.activated = q->activated;
	wc_end_activation(c);
}

static void
do_one(struct wc_ctx *c, int seat, const struct wc_action *a)
{
	struct wc_state *st = c->st;
	struct wc_event *e;

	switch (a->kind) {
	case WC_A_TEAM: do_team(c, seat, a); break;
	case WC_A_TREES: do_trees(c, a); break;
	case WC_A_DEPLOY: do_deploy(c, seat, a); break;
	case WC_A_ACTIVATE: wc_activate(c, wc_piece_at(st, a->sq)); break;
	case WC_A_MOVE: do_move(c, a); break;
	case WC_A_ATTACK: wc_start_attack(c, a->sq, a->advantage); break;
	case WC_A_STAY:
		wc_emit(c, WC_EV_STAY)->u.piece.piece = st->act_piece;
		wc_end_activation(c);
		break;
	case WC_A_END: wc_end_activation(c); break;
	case WC_A_PROMOTE: do_promote(c, a); break;
	case WC_A_DEFEND:
		if (a->advantage) {
			wc_spend(c, st->atk.def, 0, 1);
			st->atk.def_spent = 1;
		}
		st->stage = WC_ST_ACT;
		wc_resolve_attack(c);
		break;
	case WC_A_REDEPLOY: {
		int p = wc_redeploying(st);
		st->pieces[p].where = WC_ON;
		st->pieces[p].sq = a->sq;
		e = wc_emit(c, WC_EV_REDEPLOYED);
		e->u.deploy.seat = seat;
		e->u.deploy.piece = p;
		e->u.deploy.sq = a->sq;
		break;
	}
	case WC_A_COMBAT: {
		int who = a->combat == WC_CM_PUSH ? st->atk.att : st->atk.def;
		e = wc_emit(c, WC_EV_COMBAT_MOVEMENT);
		e->u.combat.option = a->combat;
		e->u.combat.piece = who;
		e->u.combat.to = a->sq;
		st->pieces[who].sq = a->sq;
		/* The attacker placed aside takes a Disadvantage token; the
		 * defender stepping aside gains an Advantage token. */
		wc_give_tokens(c, who, a->combat == WC_CM_PUSH ? 1 : 0, 1, "combat movement");
		wc_end_activation(c);
		break;
	}
	default:
		break;
	}
}

/* Where the awaited seat has only one legal action, the server takes it
 * after this one (RULINGS.md G3, amended): wr_tpl_settle(), through
 * wc_template.to_act. */
void
wc_apply(void *state, int seat, const void *action, struct wr_rng *rng, struct wr_list *ev)
{
	struct wc_ctx c = {state, rng, ev};

	do_one(&c, seat, action);
}

int
wc_resign(void *state, int seat, struct wr_rng *rng, struct wr_list *ev)
{
	struct wc_state *st = state;
	struct wc_ctx c = {st, NULL, ev};

	(void)rng;
	if (seat < 0 || seat >= WC_SEATS || st->over)
		return -1;
	wc_emit(&c, WC_EV_RESIGN)->u.seat.seat = seat;
	wc_finish(&c, 1u << (1 - seat), "resignation");
	return 0;
}

void
wc_inconclusive(struct wc_state *st, struct wr_list *ev)
{
	struct wc_ctx c = {st, NULL, ev};

	wc_finish_by_points(&c, "inconclusive: points");
}
