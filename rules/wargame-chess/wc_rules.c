/* Wargame Chess rules on plain structs (000_fd193abe0e5c92ac.txt with
 * RULINGS.md G1-G6 and Wargame Chess W1-W7). No JSON parsing here; events
 * are built with json-c because that is what wr_emit carries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wc_private.h"

#define B (&wr_board8)
#define WC_MAX_REROLLS 1000

/* ------------------------------------------------------------ helpers */

json_object *
wc_sq_json(int sq)
{
	if (sq < 0 || sq > 63)
		return NULL;
	return wr_json_square_new(B, sq);
}

static const struct wc_faction *
fac(const struct wc_state *st, int seat)
{
	const struct wc_faction *f = wc_faction_at(st->seat[seat].faction);
	return f ? f : &wc_standard;
}

const struct wc_option *
wc_opt(const struct wc_state *st, int piece)
{
	const struct wc_piece *p = &st->pieces[piece];
	return &fac(st, p->seat)->opts[p->opt];
}

static unsigned
rules_of(const struct wc_state *st, int piece)
{
	return wc_opt(st, piece)->rules;
}

int
wc_is_tree(const struct wc_state *st, int sq)
{
	for (int i = 0; i < st->ntrees; i++)
		if (st->trees[i] == sq)
			return 1;
	return 0;
}

int
wc_piece_at(const struct wc_state *st, int sq)
{
	for (int i = 0; i < st->npieces; i++)
		if (st->pieces[i].where == WC_ON && st->pieces[i].sq == sq)
			return i;
	return -1;
}

int
wc_free(const struct wc_state *st, int sq)
{
	return sq >= 0 && sq < 64 && !wc_is_tree(st, sq) && wc_piece_at(st, sq) < 0;
}

/* Deployment zone: "the two ranks on the board closest to the player". */
int
wc_zone(int seat, int sq)
{
	int r = sq / 8;
	return seat == 0 ? r <= 1 : r >= 6;
}

static void
emit(struct wc_ctx *c, json_object *body)
{
	if (c->ev)
		wr_emit(c->ev, WR_VIS_PUBLIC, body);
	else
		json_object_put(body);
}

static json_object *
ev_new(const char *type)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string(type));
	return o;
}

static void
add_int(json_object *o, const char *k, int v)
{
	json_object_object_add(o, k, json_object_new_int(v));
}

static void
add_sq(json_object *o, const char *k, int sq)
{
	json_object_object_add(o, k, wc_sq_json(sq));
}

static void
add_str(json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, json_object_new_string(v));
}

/* Phase changes are events too. */
static void
set_phase(struct wc_ctx *c, int phase)
{
	json_object *o = ev_new("phase");
	c->st->phase = phase;
	add_str(o, "phase", wc_phase_names[phase]);
	emit(c, o);
}

int
wc_points(const struct wc_state *st, int seat)
{
	int pts = 0;
	const struct wc_faction *f = fac(st, seat);

	for (int i = 0; i < st->npieces; i++)
		if (st->pieces[i].seat == seat && st->pieces[i].where == WC_ON)
			pts += wc_type_cost[st->pieces[i].type];
	for (int u = 0; u < f->nupgrades; u++)
		if (st->seat[seat].upgrades & (1u << u))
			pts += f->upgrades[u].cost;
	return pts;
}

void
wc_finish(struct wc_state *st, unsigned winners, const char *reason, struct wr_events *ev)
{
	if (st->over)
		return;
	st->over = 1;
	st->phase = WC_PH_OVER;
	st->winners = winners;
	st->act_piece = -1;
	snprintf(st->reason, sizeof(st->reason), "%s", reason);
	if (ev) {
		json_object *o = ev_new("game_over"), *w = json_object_new_array(),
		            *sc = json_object_new_array();
		for (int s = 0; s < WC_SEATS; s++) {
			if (winners & (1u << s))
				json_object_array_add(w, json_object_new_int(s));
			json_object_array_add(sc, json_object_new_int(wc_points(st, s)));
		}
		json_object_object_add(o, "winners", w);
		json_object_object_add(o, "points", sc);
		add_str(o, "reason", reason);
		wr_emit(ev, WR_VIS_PUBLIC, o);
	}
}

/* Points decide: after Turn 10 (W7) and in inconclusive games. */
static void
finish_by_points(struct wc_state *st, const char *reason, struct wr_events *ev)
{
	int a = wc_points(st, 0), b = wc_points(st, 1);
	wc_finish(st, a > b ? 1u : a < b ? 2u : 0u, reason, ev);
}

void
wc_inconclusive(struct wc_state *st, struct wr_events *ev)
{
	finish_by_points(st, "inconclusive: points", ev);
}

/* ------------------------------------------------------------- tokens */

static void
give_raw(struct wc_ctx *c, int piece, int kind, int n, const char *cause)
{
	struct wc_piece *p = &c->st->pieces[piece];
	int *mine = kind ? &p->dis : &p->adv, *other = kind ? &p->adv : &p->dis;
	int cancel = n < *other ? n : *other;

	/* "If a piece with an Advantage token would receive a Disadvantage
	 * token - or vice versa - they cancel each other out." */
	*other -= cancel;
	*mine += n - cancel;
	json_object *o = ev_new("tokens");
	add_int(o, "piece", piece);
	add_str(o, "kind", kind ? "disadvantage" : "advantage");
	add_int(o, "amount", n);
	add_int(o, "cancelled", cancel);
	add_int(o, "advantage", p->adv);
	add_int(o, "disadvantage", p->dis);
	add_str(o, "cause", cause);
	emit(c, o);
}

void
wc_give_tokens(struct wc_ctx *c, int piece, int kind, int n, const char *cause)
{
	struct wc_state *st = c->st;

	if (n <= 0 || piece < 0 || piece >= st->npieces)
		return;
	give_raw(c, piece, kind, n, cause);
	/* Blessed / Cursed: every other Blessed (Cursed) ally gains one, once
	 * per initial trigger, never before the first Activation. */
	if (!st->any_activation)
		return;
	for (int q = 0; q < st->npieces; q++) {
		struct wc_piece *o = &st->pieces[q];
		if (q == piece || o->seat != st->pieces[piece].seat || o->where != WC_ON)
			continue;
		if (kind == 0 ? o->blessing : o->curse)
			give_raw(c, q, kind, 1, kind ? "cursed" : "blessed");
	}
}

int
wc_give_faith(struct wc_ctx *c, int piece, int kind, const char *cause)
{
	struct wc_piece *p = &c->st->pieces[piece];
	int *mine = kind ? &p->curse : &p->blessing, *other = kind ? &p->blessing : &p->curse;
	json_object *o;

	/* "A piece that is Blessed cannot have another Blessing token placed
	 * on it, nor be a target for a Blessing token." */
	if (*mine)
		return -1;
	if (*other)
		*other = 0;
	else
		*mine = 1;
	o = ev_new("faith");
	add_int(o, "piece", piece);
	add_str(o, "kind", kind ? "curse" : "blessing");
	json_object_object_add(o, "cancelled", json_object_new_boolean(!*mine));
	add_str(o, "cause", cause);
	emit(c, o);
	return 0;
}

uint64_t
wc_token_targets(const struct wc_state *st, int giver, int kind, uint64_t cand)
{
	uint64_t ok = 0, others = 0;

	for (int i = 0; i < st->npieces && i < 64; i++) {
		const struct wc_piece *p = &st->pieces[i];
		if (!(cand >> i & 1) || p->where != WC_ON)
			continue;
		if ((kind == 2 && p->blessing) || (kind == 3 && p->curse))
			continue;
		ok |= UINT64_C(1) << i;
		if (!(p->seat == giver && p->type == WC_JOKER))
			others |= UINT64_C(1) << i;
	}
	/* "A player cannot voluntarily give their own Joker either type of
	 * token unless it is the only legal target for one." */
	return others ? others : ok;
}

int
wc_random_square(struct wc_ctx *c)
{
	int any = 0;

	for (int s = 0; s < 64; s++)
		any |= wc_free(c->st, s);
	if (!any)
		return -1;
	for (int tries = 0; tries < WC_MAX_REROLLS; tries++) {
		int rank = (int)wr_die(c->rng, 8) - 1, file = (int)wr_die(c->rng, 8) - 1;
		if (wc_free(c->st, rank * 8 + file))
			return rank * 8 + file;
	}
	/* Only a broken dice stream gets here (p < 10^-50 otherwise). */
	for (int s = 0; s < 64; s++)
		if (wc_free(c->st, s))
			return s;
	return -1;
}

int
wc_scatter(struct wc_ctx *c, int sq)
{
	int any = 0;

	for (int d = 0; d < WR_DIRS; d++)
		any |= wc_free(c->st, wr_step(B, sq, d));
	if (!any)
		return -1;
	for (int tries = 0; tries < WC_MAX_REROLLS; tries++) {
		int s = wr_step(B, sq, (int)wr_die(c->rng, 8) - 1);
		if (s != WR_NO_SQUARE && wc_free(c->st, s))
			return s;
	}
	for (int d = 0; d < WR_DIRS; d++)
		if (wc_free(c->st, wr_step(B, sq, d)))
			return wr_step(B, sq, d);
	return -1;
}

/* ------------------------------------------------------------- paths */

/* Moves and Attacks of a piece (000_fd193abe0e5c92ac.txt, Piece types).
 * Trees block paths of Moves and Attacks alike; Knights jump them. */
static void
paths(const struct wc_state *st, int piece, int *mv, int *nm, int *at, int *na)
{
	const struct wc_piece *p = &st->pieces[piece];
	int from = p->sq, n = 0, k = 0;
	*nm = *na = 0;

	if (p->where != WC_ON)
		return;
	if (p->type == WC_KNIGHT) {
		int j[8], nj = wr_knight_jumps(B, from, j);
		for (int i = 0; i < nj; i++) {
			int q = wc_piece_at(st, j[i]);
			if (wc_is_tree(st, j[i]))
				continue;
			if (q < 0)
				mv[n++] = j[i];
			else if (st->pieces[q].seat != p->seat)
				at[k++] = j[i];
		}
	} else if (p->type == WC_JOKER) {
		/* Up to three steps into unoccupied adjacent squares; the end
		 * square differs from the start (W3). */
		int dist[64];
		int queue[64], qh = 0, qt = 0;
		for (int s = 0; s < 64; s++)
			dist[s] = -1;
		dist[from] = 0;
		queue[qt++] = from;
		while (qh < qt) {
			int s = queue[qh++];
			if (dist[s] == 3)
				continue;
			for (int d = 0; d < WR_DIRS; d++) {
				int t = wr_step(B, s, d);
				if (t == WR_NO_SQUARE || dist[t] >= 0 || !wc_free(st, t))
					continue;
				dist[t] = dist[s] + 1;
				queue[qt++] = t;
			}
		}
		for (int s = 0; s < 64; s++)
			if (dist[s] > 0)
				mv[n++] = s;
	} else {
		int reach = (p->type == WC_PAWN || p->type == WC_KING) ? 1 : 8;
		for (int d = 0; d < WR_DIRS; d++) {
			int diag = d & 1;
			int can_move = p->type == WC_PAWN ? !diag
			             : p->type == WC_ROOK ? !diag
			             : p->type == WC_BISHOP ? diag : 1;
			int can_attack = p->type == WC_PAWN ? diag : can_move;
			int ray[8], nr = wr_ray(B, from, d, reach, ray);
			for (int i = 0; i < nr; i++) {
				int q;
				if (wc_is_tree(st, ray[i]))
					break;
				q = wc_piece_at(st, ray[i]);
				if (q < 0) {
					if (can_move)
						mv[n++] = ray[i];
					continue;
				}
				if (can_attack && st->pieces[q].seat != p->seat)
					at[k++] = ray[i];
				break;
			}
		}
	}
	*nm = n;
	*na = k;
}

static int
in_list(const int *v, int n, int x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

/* Castle: non-Rook allies adjacent to `to` once the Rook stands there. */
static int
castle_partners(const struct wc_state *st, int rook, int to, int *out)
{
	int n = 0;

	if (!(rules_of(st, rook) & WC_R_CASTLE))
		return 0;
	for (int d = 0; d < WR_DIRS; d++) {
		int s = wr_step(B, to, d), q;
		if (s == WR_NO_SQUARE || (q = wc_piece_at(st, s)) < 0 || q == rook)
			continue;
		if (st->pieces[q].seat == st->pieces[rook].seat && st->pieces[q].type != WC_ROOK)
			out[n++] = s;
	}
	return n;
}

/* Promotion: slain, non-Legendary positionals (not Pawns, not Jokers)
 * whose option may stand on the board now. */
static int
can_promote_into(const struct wc_state *st, int pawn, int q)
{
	const struct wc_piece *p = &st->pieces[pawn], *o;

	if (q < 0 || q >= st->npieces)
		return 0;
	o = &st->pieces[q];
	if (o->seat != p->seat || o->where != WC_SLAIN || o->type == WC_PAWN || o->type == WC_JOKER ||
	    (rules_of(st, q) & WC_R_LEGENDARY))
		return 0;
	/* Different options of one type cannot be on the board together. */
	for (int i = 0; i < st->npieces; i++)
		if (st->pieces[i].where == WC_ON && st->pieces[i].seat == p->seat &&
		    st->pieces[i].type == o->type && st->pieces[i].opt != o->opt)
			return 0;
	return 1;
}

static int
promotion_open(const struct wc_state *st, int pawn)
{
	const struct wc_piece *p = &st->pieces[pawn];
	return p->type == WC_PAWN && (rules_of(st, pawn) & WC_R_PROMOTION) && p->where == WC_ON &&
	       wc_zone(1 - p->seat, p->sq);
}

static int
adjacent_free(const struct wc_state *st, int sq, int *out)
{
	int n = 0;
	for (int d = 0; d < WR_DIRS; d++) {
		int s = wr_step(B, sq, d);
		if (s != WR_NO_SQUARE && wc_free(st, s))
			out[n++] = s;
	}
	return n;
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

/* ------------------------------------------------------------- setup */

static void
roll_trees(struct wc_ctx *c, int seat, json_object *rolls)
{
	struct wc_state *st = c->st;
	for (int k = 0; k < 3 && st->ntrees < WC_MAX_TREES; k++) {
		for (int tries = 0;; tries++) {
			int r = (int)wr_die(c->rng, 4), f = (int)wr_die(c->rng, 8);
			int rank = seat == 0 ? r - 1 : 8 - r, sq = rank * 8 + f - 1;
			json_object *o = json_object_new_object();
			add_int(o, "d4", r);
			add_int(o, "d8", f);
			add_sq(o, "square", sq);
			json_object_object_add(o, "rerolled", json_object_new_boolean(wc_is_tree(st, sq)));
			json_object_array_add(rolls, o);
			/* "If a Tree would end up on a square with a Tree already
			 * on it, re-roll" (both dice, by the server: G2). */
			if (!wc_is_tree(st, sq)) {
				st->trees[st->ntrees++] = sq;
				break;
			}
			if (tries == WC_MAX_REROLLS) {
				/* Only a broken dice stream gets here. */
				for (int q = 0; q < 64 && sq >= 0; q++)
					if (!wc_is_tree(st, q) && (seat == 0 ? q < 32 : q >= 32)) {
						st->trees[st->ntrees++] = q;
						sq = -1;
					}
				break;
			}
		}
	}
}

static void
first_trees(struct wc_ctx *c)
{
	json_object *o = ev_new("trees"), *rolls = json_object_new_array();
	c->st->ntrees = 0;
	roll_trees(c, c->st->tree_first, rolls);
	add_int(o, "seat", c->st->tree_first);
	add_str(o, "setup", "rolled");
	json_object_object_add(o, "rolls", rolls);
	emit(c, o);
}

int
wc_init(struct wc_state *st, int first_trees_random, struct wr_rng *rng, struct wr_events *ev)
{
	memset(st, 0, sizeof(*st));
	(void)ev;
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

/* ------------------------------------------------------ turn machine */

static void
call_turn_hooks(struct wc_ctx *c, int first, int end)
{
	/* Steps in order; in each, the seats alternate starting with `first`
	 * (000_fd193abe0e5c92ac.txt, Comprehensive turn breakdown). */
	int steps = end ? 2 : 3;
	for (int step = 0; step < steps && !c->st->over; step++)
		for (int k = 0; k < WC_SEATS && !c->st->over; k++) {
			int s = k ? 1 - first : first;
			const struct wc_hooks *h = &fac(c->st, s)->hooks;
			if (end && h->turn_end)
				h->turn_end(c, s, (enum wc_step)step);
			if (!end && h->turn_start)
				h->turn_start(c, s, (enum wc_step)step);
		}
}

/* Objective and Fool's Endeavour. */
static void
check_end(struct wc_ctx *c)
{
	struct wc_state *st = c->st;
	int lose[WC_SEATS] = {0};

	if (st->over || st->phase != WC_PH_PLAY)
		return;
	for (int s = 0; s < WC_SEATS; s++) {
		int on = 0, nonfool = 0;
		for (int i = 0; i < st->npieces; i++)
			if (st->pieces[i].seat == s && st->pieces[i].where == WC_ON) {
				on++;
				nonfool += !(rules_of(st, i) & WC_R_FOOL);
			}
		lose[s] = on == 0 ? 1 : nonfool == 0 ? 2 : 0;
	}
	if (lose[0] && lose[1])
		wc_finish(st, 0, "both teams lost at once", c->ev);
	else if (lose[0] || lose[1]) {
		int l = lose[0] ? 0 : 1;
		wc_finish(st, 1u << (1 - l),
		          lose[l] == 1 ? "no pieces left on the board" : "Fool's Endeavour", c->ev);
	}
}

static void end_turn(struct wc_ctx *c);

static int
unactivated(const struct wc_state *st, int seat)
{
	int n = 0;
	for (int i = 0; i < st->npieces; i++)
		n += st->pieces[i].where == WC_ON && !st->pieces[i].activated &&
		     (seat < 0 || st->pieces[i].seat == seat);
	return n;
}

static void
start_turn(struct wc_ctx *c)
{
	struct wc_state *st = c->st;
	json_object *o;

	for (int i = 0; i < st->npieces; i++) {
		st->pieces[i].activated = 0;
		st->pieces[i].reactivations = 0;
	}
	/* Turn 1: the first deployer (W2); then whoever did not have the
	 * last Re/Activation of the previous turn. */
	st->first_this_turn = st->turn == 1 || st->last_activator < 0 ? st->first_deployer
	                                                              : 1 - st->last_activator;
	st->active = st->first_this_turn;
	st->stage = WC_ST_PICK;
	st->act_piece = -1;
	o = ev_new("turn_start");
	add_int(o, "turn", st->turn);
	add_int(o, "first", st->first_this_turn);
	emit(c, o);
	call_turn_hooks(c, st->first_this_turn, 0);
	check_end(c);
	if (!st->over && !unactivated(st, -1))
		end_turn(c);
}

static void
end_turn(struct wc_ctx *c)
{
	struct wc_state *st = c->st;
	json_object *o = ev_new("turn_end");
	int first = st->last_activator < 0 ? st->first_this_turn : 1 - st->last_activator;

	add_int(o, "turn", st->turn);
	emit(c, o);
	call_turn_hooks(c, first, 1);
	/* Fool's Endeavour: "At the end of the turn, remove any/all
	 * Dis/Advantage tokens from this piece." */
	for (int i = 0; i < st->npieces && !st->over; i++) {
		struct wc_piece *p = &st->pieces[i];
		if (p->where == WC_ON && (rules_of(st, i) & WC_R_FOOL) && (p->adv || p->dis)) {
			json_object *t = ev_new("tokens_cleared");
			add_int(t, "piece", i);
			add_int(t, "advantage", p->adv);
			add_int(t, "disadvantage", p->dis);
			emit(c, t);
			p->adv = p->dis = 0;
		}
	}
	check_end(c);
	if (st->over)
		return;
	if (st->turn >= WC_LAST_TURN) {
		finish_by_points(st, "end of Turn 10: points", c->ev);
		return;
	}
	st->turn++;
	start_turn(c);
}

static void
end_activation(struct wc_ctx *c)
{
	struct wc_state *st = c->st;
	int p = st->act_piece, seat = st->active;
	json_object *o = ev_new("activation_end");

	add_int(o, "piece", p);
	emit(c, o);
	st->stage = WC_ST_PICK;
	st->atk.att = st->atk.def = -1;
	st->atk.from = st->atk.sq = -1;
	st->atk.att_spent = st->atk.def_spent = 0;
	/* End of Activation: the Activating piece's owner's rules. */
	if (fac(st, seat)->hooks.activation_end)
		fac(st, seat)->hooks.activation_end(c, p);
	st->act_piece = -1;
	st->last_activator = seat;
	check_end(c);
	/* Between Activations: the seat that just Re/Activated first. */
	for (int k = 0; k < WC_SEATS && !st->over; k++) {
		int s = k ? 1 - seat : seat;
		const struct wc_hooks *h = &fac(st, s)->hooks;
		if (h->between_activations)
			h->between_activations(c, s, p);
	}
	check_end(c);
	if (st->over)
		return;
	if (unactivated(st, -1))
		st->active = 1 - seat;
	else
		end_turn(c);
}

void
wc_slay(struct wc_ctx *c, int piece, int by)
{
	struct wc_state *st = c->st;
	struct wc_piece *p = &st->pieces[piece];
	const struct wc_hooks *h = &fac(st, p->seat)->hooks;
	int sq = p->sq;
	json_object *o;

	if (p->where != WC_ON)
		return;
	if (h->on_slain && h->on_slain(c, piece, by)) {
		/* "...cannot be slain...": an unoccupied adjacent square if
		 * possible (the first in N, NE, .., NW order), else its owner
		 * redeploys it (the first free square of its zone). */
		if (p->where == WC_ON && p->sq == sq) {
			int adj[8], n, to = -1;
			p->where = WC_OFF;   /* lifts it so its square does not count */
			n = adjacent_free(st, sq, adj);
			if (n)
				to = adj[0];
			for (int s = 0; to < 0 && s < 64; s++)
				if (wc_zone(p->seat, s) && wc_free(st, s))
					to = s;
			p->where = WC_ON;
			if (to >= 0)
				p->sq = to;
			o = ev_new("not_slain");
			add_int(o, "piece", piece);
			add_sq(o, "from", sq);
			add_sq(o, "to", p->sq);
			add_str(o, "how", n ? "adjacent" : "redeployed");
			emit(c, o);
		}
		return;
	}
	p->where = WC_SLAIN;
	p->adv = p->dis = p->blessing = p->curse = 0;
	o = ev_new("slain");
	add_int(o, "piece", piece);
	add_int(o, "by", by);
	add_sq(o, "square", sq);
	emit(c, o);
	/* Faction Leader: "their player loses the game immediately". */
	if (rules_of(st, piece) & WC_R_LEADER)
		wc_finish(st, 1u << (1 - p->seat), "Faction Leader slain", c->ev);
}

/* ------------------------------------------------------------ attack */

static unsigned
roll_side(struct wc_ctx *c, const struct wc_roll *r, const char *role)
{
	struct wc_piece *p = &c->st->pieces[r->piece];
	unsigned faces[2] = {0, 0}, n, sides, total;
	int adv = r->prevent_adv ? 0 : r->adv, dis = r->prevent_dis ? 0 : r->dis;
	int net = p->type == WC_JOKER ? 0 : adv - dis;
	json_object *o = ev_new("roll"), *fa = json_object_new_array();

	wr_parse_dice(wc_dice[p->type], &n, &sides);
	for (unsigned i = 0; i < n && i < 2; i++)
		faces[i] = wr_die(c->rng, sides);
	/* Advantage: double the higher die; Disadvantage: the lower one.
	 * Instances cancel one for one. Jokers roll one die, never at
	 * Dis/Advantage (W4). */
	if (n == 1)
		total = faces[0];
	else if (net > 0)
		total = 2 * (faces[0] > faces[1] ? faces[0] : faces[1]);
	else if (net < 0)
		total = 2 * (faces[0] < faces[1] ? faces[0] : faces[1]);
	else
		total = faces[0] + faces[1];
	total = (unsigned)((int)total + r->bonus);
	add_int(o, "piece", r->piece);
	add_str(o, "role", role);
	add_str(o, "dice", wc_dice[p->type]);
	for (unsigned i = 0; i < n && i < 2; i++)
		json_object_array_add(fa, json_object_new_int((int)faces[i]));
	json_object_object_add(o, "faces", fa);
	add_str(o, "mode", net > 0 ? "advantage" : net < 0 ? "disadvantage" : "normal");
	add_int(o, "advantages", r->adv);
	add_int(o, "disadvantages", r->dis);
	json_object_object_add(o, "advantage_prevented", json_object_new_boolean(r->prevent_adv));
	json_object_object_add(o, "disadvantage_prevented", json_object_new_boolean(r->prevent_dis));
	add_int(o, "bonus", r->bonus);
	add_int(o, "total", (int)total);
	emit(c, o);
	return total;
}

static void
spend(struct wc_ctx *c, int piece, int kind, const char *role)
{
	struct wc_piece *p = &c->st->pieces[piece];
	json_object *o = ev_new("token_spent");
	if (kind)
		p->dis--;
	else
		p->adv--;
	add_int(o, "piece", piece);
	add_str(o, "kind", kind ? "disadvantage" : "advantage");
	add_str(o, "role", role);
	emit(c, o);
}

static void
resolve_attack(struct wc_ctx *c)
{
	struct wc_state *st = c->st;
	struct wc_attack *a = &st->atk;
	struct wc_roll ra = {.piece = a->att}, rd = {.piece = a->def};
	const struct wc_piece *att = &st->pieces[a->att], *def = &st->pieces[a->def];
	unsigned ta, td;
	int adj[8], n;

	if (a->att_spent > 0)
		ra.adv++;
	if (a->att_spent < 0)
		ra.dis++;
	if (a->def_spent > 0)
		rd.adv++;
	if (a->def_spent < 0)
		rd.dis++;
	/* Mounted Advantage: other enemies adjacent to the shared square. */
	if ((rules_of(st, a->att) & WC_R_MOUNTED) && def->type != WC_KNIGHT) {
		for (int d = 0; d < WR_DIRS; d++) {
			int s = wr_step(B, a->sq, d), q;
			if (s != WR_NO_SQUARE && (q = wc_piece_at(st, s)) >= 0 &&
			    st->pieces[q].seat != att->seat) {
				ra.adv++;
				break;
			}
		}
	}
	for (int k = 0; k < WC_SEATS; k++) {
		int s = k ? def->seat : att->seat;
		const struct wc_hooks *h = &fac(st, s)->hooks;
		if (h->before_roll)
			h->before_roll(c, s, &ra, &rd);
	}
	ta = roll_side(c, &ra, "attack");
	td = roll_side(c, &rd, "defence");
	{
		json_object *o = ev_new("attack_result");
		add_int(o, "attacker", a->att);
		add_int(o, "defender", a->def);
		add_int(o, "attack", (int)ta);
		add_int(o, "defence", (int)td);
		json_object_object_add(o, "success", json_object_new_boolean(ta > td));
		emit(c, o);
	}
	if (ta > td) {
		/* After a slaying Attack the attacker stands in the target's
		 * square (W4). */
		wc_slay(c, a->def, a->att);
		st->pieces[a->att].sq = a->sq;
		if (!st->over)
			end_activation(c);
		return;
	}
	n = adjacent_free(st, a->sq, adj);
	if (n == 0) {
		/* W5: no unoccupied adjacent square for either option. */
		json_object *o = ev_new("combat_movement");
		st->pieces[a->att].sq = a->from;
		add_str(o, "option", "return");
		add_int(o, "piece", a->att);
		add_sq(o, "to", a->from);
		emit(c, o);
		wc_give_tokens(c, a->att, 1, 1, "combat movement");
		end_activation(c);
		return;
	}
	st->stage = WC_ST_COMBAT;
}

static void
start_attack(struct wc_ctx *c, int to, int adv)
{
	struct wc_state *st = c->st;
	struct wc_attack *a = &st->atk;
	struct wc_piece *att = &st->pieces[st->act_piece], *def;
	json_object *o;

	a->att = st->act_piece;
	a->def = wc_piece_at(st, to);
	a->from = att->sq;
	a->sq = to;
	a->att_spent = a->def_spent = 0;
	def = &st->pieces[a->def];
	o = ev_new("attack");
	add_int(o, "attacker", a->att);
	add_int(o, "defender", a->def);
	add_sq(o, "from", a->from);
	add_sq(o, "square", to);
	emit(c, o);
	att->sq = to;    /* both count as occupying that square */
	if (att->type != WC_JOKER) {
		if (adv && att->adv > 0) {
			spend(c, a->att, 0, "attack");
			a->att_spent = 1;
		} else if (att->dis > 0) {
			spend(c, a->att, 1, "attack");
			a->att_spent = -1;
		}
	}
	if (def->type != WC_JOKER) {
		if (def->dis > 0) {
			spend(c, a->def, 1, "defence");
			a->def_spent = -1;
		} else if (def->adv > 0) {
			int order = st->seat[def->seat].order_defend;
			if (order == WC_ORDER_ASK) {
				st->stage = WC_ST_DEFEND;
				return;
			}
			if (order == WC_ORDER_ALWAYS) {
				spend(c, a->def, 0, "defence");
				a->def_spent = 1;
			}
		}
	}
	resolve_attack(c);
}

/* -------------------------------------------------------- activation */

static int
reactivating(const struct wc_state *st, int seat)
{
	return unactivated(st, seat) == 0;
}

static void
activate(struct wc_ctx *c, int piece)
{
	struct wc_state *st = c->st;
	struct wc_piece *p = &st->pieces[piece];
	int re = p->activated;
	json_object *o = ev_new("activate");

	st->act_piece = piece;
	st->act_reactivation = re;
	st->act_first = !p->ever_activated;
	st->stage = WC_ST_ACT;
	st->any_activation = 1;
	p->activated = 1;
	p->ever_activated = 1;
	add_int(o, "seat", p->seat);
	add_int(o, "piece", piece);
	add_sq(o, "square", p->sq);
	json_object_object_add(o, "reactivation", json_object_new_boolean(re));
	emit(c, o);
	if (re) {
		p->reactivations++;
		/* "When a piece Reactivates, if it has no Disadvantage tokens,
		 * give it one." */
		if (p->dis == 0)
			wc_give_tokens(c, piece, 1, 1, "reactivation");
	}
	/* Start of Activation: the owner's rules ("their Activation"). */
	if (!st->over && fac(st, p->seat)->hooks.activation_start)
		fac(st, p->seat)->hooks.activation_start(c, piece);
	check_end(c);
	if (!st->over && p->where != WC_ON)
		end_activation(c);
}

/* --------------------------------------------------------- the lists */

void
wc_action_init(struct wc_action *a, int kind)
{
	memset(a, 0, sizeof(*a));
	a->kind = kind;
	a->sq = -1;
	a->castle = -1;
	a->piece = -1;
	a->opt = -1;
	a->choice = -1;
	a->faction = -1;
}

struct lister {
	struct wc_action *out;
	int max, n;
};

static void
push(struct lister *l, const struct wc_action *a)
{
	if (l->n < l->max)
		l->out[l->n] = *a;
	l->n++;
}

static void
list_teams(struct lister *l, int faction, int i, int *counts, int pts)
{
	const struct wc_faction *f = wc_faction_at(faction);

	if (pts > WC_TEAM_POINTS)
		return;
	if (i == f->nopts) {
		for (unsigned u = 0; u < (1u << f->nupgrades); u++) {
			struct wc_action a;
			if (wc_team_check(faction, counts, u, NULL) != 0)
				continue;
			wc_action_init(&a, WC_A_TEAM);
			a.faction = faction;
			memcpy(a.counts, counts, sizeof(a.counts));
			a.upgrades = u;
			push(l, &a);
		}
		return;
	}
	for (int k = 0; k <= f->opts[i].max; k++) {
		counts[i] = k;
		list_teams(l, faction, i + 1, counts, pts + k * wc_type_cost[f->opts[i].type]);
	}
	counts[i] = 0;
}

static void
list_play(const struct wc_state *st, int seat, struct lister *l)
{
	struct wc_action a;
	int mv[64], at[64], nm, na, p = st->act_piece;

	switch (st->stage) {
	case WC_ST_PICK: {
		int re = reactivating(st, seat);
		for (int i = 0; i < st->npieces; i++) {
			const struct wc_piece *q = &st->pieces[i];
			if (q->seat != seat || q->where != WC_ON || (q->activated && !re))
				continue;
			wc_action_init(&a, WC_A_ACTIVATE);
			a.sq = q->sq;
			push(l, &a);
		}
		break;
	}
	case WC_ST_ACT:
		paths(st, p, mv, &nm, at, &na);
		for (int i = 0; i < nm; i++) {
			int cp[8], nc = castle_partners(st, p, mv[i], cp);
			wc_action_init(&a, WC_A_MOVE);
			a.sq = mv[i];
			push(l, &a);
			for (int k = 0; k < nc; k++) {
				a.castle = cp[k];
				push(l, &a);
			}
		}
		for (int i = 0; i < na; i++) {
			wc_action_init(&a, WC_A_ATTACK);
			a.sq = at[i];
			a.adv = 0;
			push(l, &a);
			if (st->pieces[p].adv > 0 && st->pieces[p].type != WC_JOKER) {
				a.adv = 1;
				push(l, &a);
			}
		}
		if (nm == 0 && na == 0) {
			wc_action_init(&a, WC_A_STAY);
			push(l, &a);
		}
		if (promotion_open(st, p))
			for (int q = 0; q < st->npieces; q++)
				if (can_promote_into(st, p, q)) {
					wc_action_init(&a, WC_A_PROMOTE);
					a.piece = q;
					push(l, &a);
				}
		break;
	case WC_ST_EN_PASSANT:
		paths(st, p, mv, &nm, at, &na);
		for (int i = 0; i < nm; i++) {
			wc_action_init(&a, WC_A_MOVE);
			a.sq = mv[i];
			push(l, &a);
		}
		wc_action_init(&a, WC_A_END);
		push(l, &a);
		break;
	case WC_ST_DEFEND:
		for (int k = 0; k < 2; k++) {
			wc_action_init(&a, WC_A_DEFEND);
			a.adv = k;
			push(l, &a);
		}
		break;
	case WC_ST_COMBAT: {
		int adj[8], n = adjacent_free(st, st->atk.sq, adj);
		for (int k = 0; k < 2; k++)
			for (int i = 0; i < n; i++) {
				wc_action_init(&a, WC_A_COMBAT);
				a.choice = k;
				a.sq = adj[i];
				push(l, &a);
			}
		break;
	}
	}
}

unsigned
wc_to_act(const struct wc_state *st)
{
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
		if (st->stage == WC_ST_DEFEND || st->stage == WC_ST_COMBAT)
			return 1u << st->pieces[st->atk.def].seat;
		return st->active >= 0 ? 1u << st->active : 0;
	default:
		return 0;
	}
}

int
wc_list(const struct wc_state *st, int seat, struct wc_action *out, int max)
{
	struct lister l = {out, max, 0};
	struct wc_action a;

	if (seat < 0 || seat >= WC_SEATS || !(wc_to_act(st) & (1u << seat)))
		return 0;
	switch (st->phase) {
	case WC_PH_TEAMS:
		for (int f = 0; f < wc_faction_count(); f++) {
			int counts[WC_MAX_OPTS] = {0};
			list_teams(&l, f, 0, counts, 0);
		}
		break;
	case WC_PH_TREES:
		for (int k = 0; k < WC_TREES_MAX; k++) {
			wc_action_init(&a, WC_A_TREES);
			a.choice = k;
			push(&l, &a);
		}
		break;
	case WC_PH_DEPLOY: {
		const struct wc_faction *f = fac(st, seat);
		for (int o = 0; o < f->nopts; o++) {
			int any = 0;
			for (int i = 0; i < st->npieces; i++)
				any |= st->pieces[i].seat == seat && st->pieces[i].opt == o &&
				       st->pieces[i].where == WC_OFF;
			if (!any)
				continue;
			for (int s = 0; s < 64; s++)
				if (wc_zone(seat, s) && wc_free(st, s)) {
					wc_action_init(&a, WC_A_DEPLOY);
					a.opt = o;
					a.sq = s;
					push(&l, &a);
				}
		}
		break;
	}
	case WC_PH_PLAY:
		list_play(st, seat, &l);
		break;
	}
	return l.n;
}

/* ---------------------------------------------------------- checking */

int
wc_check(const struct wc_state *st, int seat, const struct wc_action *a, struct wr_error *err)
{
	struct wc_action *list;
	int n, mv[64], at[64], nm, na, found = 0;

	if (st->over)
		return wr_fail(err, "game-over", "", "the match is over");
	if (seat < 0 || seat >= WC_SEATS || !(wc_to_act(st) & (1u << seat)))
		return wr_fail(err, "not-your-turn", "", "this seat is not awaited now");
	switch (a->kind) {
	case WC_A_TEAM:
		if (st->phase != WC_PH_TEAMS)
			goto phase;
		if (wc_team_check(a->faction, a->counts, a->upgrades, err) != 0)
			return -1;
		return 0;
	case WC_A_TREES:
		if (st->phase != WC_PH_TREES)
			goto phase;
		break;
	case WC_A_DEPLOY:
		if (st->phase != WC_PH_DEPLOY)
			goto phase;
		if (!wc_zone(seat, a->sq))
			return wr_fail(err, "outside-zone", "square",
			               "pieces deploy in the two ranks nearest their player");
		if (!wc_free(st, a->sq))
			return wr_fail(err, "square-taken", "square", "that square is not free");
		break;
	default:
		if (st->phase != WC_PH_PLAY)
			goto phase;
		if (a->kind == WC_A_ACTIVATE) {
			int p;
			if (st->stage != WC_ST_PICK)
				goto stage;
			p = wc_piece_at(st, a->sq);
			if (p < 0)
				return wr_fail(err, "no-piece", "square", "no piece there");
			if (st->pieces[p].seat != seat)
				return wr_fail(err, "not-your-piece", "square", "that piece is not yours");
			if (st->pieces[p].activated && !reactivating(st, seat))
				return wr_fail(err, "already-activated", "square",
				               "that piece has Activated this turn and others have not");
			break;
		}
		if (a->kind == WC_A_DEFEND) {
			if (st->stage != WC_ST_DEFEND)
				goto stage;
			break;
		}
		if (a->kind == WC_A_COMBAT) {
			if (st->stage != WC_ST_COMBAT)
				goto stage;
			if (!wc_free(st, a->sq) || wr_chebyshev(B, a->sq, st->atk.sq) != 1)
				return wr_fail(err, "not-adjacent-free", "square",
				               "Combat Movement goes to an unoccupied adjacent square");
			break;
		}
		if (a->kind == WC_A_END) {
			if (st->stage != WC_ST_EN_PASSANT)
				goto stage;
			break;
		}
		if (st->stage != WC_ST_ACT && !(st->stage == WC_ST_EN_PASSANT && a->kind == WC_A_MOVE))
			goto stage;
		paths(st, st->act_piece, mv, &nm, at, &na);
		if (a->kind == WC_A_MOVE && !in_list(mv, nm, a->sq))
			return wr_fail(err, "not-a-move", "to", "the piece cannot Move there");
		if (a->kind == WC_A_ATTACK) {
			if (!in_list(at, na, a->sq))
				return wr_fail(err, "not-an-attack", "to", "the piece cannot Attack there");
			if (a->adv && st->pieces[st->act_piece].adv == 0)
				return wr_fail(err, "no-advantage-token", "advantage",
				               "the piece has no Advantage token");
		}
		if (a->kind == WC_A_STAY && (nm || na))
			return wr_fail(err, "must-move", "",
			               "a piece that can Move or Attack cannot stay (W3)");
		if (a->kind == WC_A_PROMOTE && (!promotion_open(st, st->act_piece) ||
		                                !can_promote_into(st, st->act_piece, a->piece)))
			return wr_fail(err, "cannot-promote", "piece", "that Promotion is not open");
		break;
	}
	/* The final word: the action is one of the listed ones, so actions()
	 * and apply() can never disagree. */
	n = wc_list(st, seat, NULL, 0);
	list = n > 0 ? calloc((size_t)n, sizeof(*list)) : NULL;
	if (list) {
		n = wc_list(st, seat, list, n);
		for (int i = 0; i < n && !found; i++)
			found = memcmp(&list[i], a, sizeof(*a)) == 0;
		free(list);
	}
	if (found)
		return 0;
	return wr_fail(err, "illegal-action", "", "that action is not legal now");
phase:
	return wr_fail(err, "wrong-phase", "type", "not an action of the %s phase",
	               wc_phase_names[st->phase]);
stage:
	return wr_fail(err, "wrong-step", "type", "not an action at this point of the Activation");
}

/* ---------------------------------------------------------- applying */

static void
reveal_teams(struct wc_ctx *c)
{
	struct wc_state *st = c->st;
	json_object *o = ev_new("teams_revealed");

	st->npieces = 0;
	for (int s = 0; s < WC_SEATS; s++) {
		const struct wc_faction *f = fac(st, s);
		for (int i = 0; i < f->nopts; i++)
			for (int k = 0; k < st->seat[s].counts[i] && st->npieces < WC_MAX_PIECES; k++) {
				struct wc_piece *p = &st->pieces[st->npieces++];
				memset(p, 0, sizeof(*p));
				p->seat = s;
				p->opt = i;
				p->type = f->opts[i].type;
				p->where = WC_OFF;
				p->sq = -1;
			}
	}
	emit(c, o);
	set_phase(c, WC_PH_TREES);
	first_trees(c);
}

static void
do_move(struct wc_ctx *c, const struct wc_action *a)
{
	struct wc_state *st = c->st;
	int p = st->act_piece;
	struct wc_piece *pc = &st->pieces[p];
	json_object *o = ev_new("move");

	add_int(o, "piece", p);
	add_sq(o, "from", pc->sq);
	add_sq(o, "to", a->sq);
	emit(c, o);
	pc->sq = a->sq;
	if (a->castle >= 0) {
		int q = wc_piece_at(st, a->castle);
		struct wc_piece *ally = &st->pieces[q];
		o = ev_new("castle");
		add_int(o, "rook", p);
		add_int(o, "ally", q);
		add_sq(o, "rook_to", a->castle);
		add_sq(o, "ally_to", a->sq);
		emit(c, o);
		ally->sq = a->sq;
		pc->sq = a->castle;
		/* Lower rank: an Advantage token; higher: lose a Disadvantage one. */
		if (ally->opt > pc->opt)
			wc_give_tokens(c, q, 0, 1, "castle");
		else if (ally->dis > 0) {
			ally->dis--;
			o = ev_new("token_removed");
			add_int(o, "piece", q);
			add_str(o, "kind", "disadvantage");
			add_str(o, "cause", "castle");
			emit(c, o);
		}
	}
	/* En Passant: "During its first Activation of the game, you may Move
	 * this Pawn twice." */
	if (st->stage == WC_ST_ACT && pc->type == WC_PAWN && st->act_first &&
	    (rules_of(st, p) & WC_R_EN_PASSANT)) {
		st->stage = WC_ST_EN_PASSANT;
		return;
	}
	end_activation(c);
}

static void
do_one(struct wc_ctx *c, int seat, const struct wc_action *a)
{
	struct wc_state *st = c->st;
	json_object *o;

	switch (a->kind) {
	case WC_A_TEAM: {
		json_object *priv = ev_new("team_list");
		st->seat[seat].submitted = 1;
		st->seat[seat].faction = a->faction;
		memcpy(st->seat[seat].counts, a->counts, sizeof(a->counts));
		st->seat[seat].upgrades = a->upgrades;
		o = ev_new("team_submitted");
		add_int(o, "seat", seat);
		emit(c, o);
		/* The list itself only to its seat until both are in (G5). */
		add_int(priv, "seat", seat);
		add_str(priv, "faction", wc_faction_at(a->faction)->id);
		{
			const struct wc_faction *f = wc_faction_at(a->faction);
			json_object *pc = json_object_new_object();
			for (int i = 0; i < f->nopts; i++)
				if (a->counts[i])
					add_int(pc, f->opts[i].id, a->counts[i]);
			json_object_object_add(priv, "pieces", pc);
			add_int(priv, "upgrades", (int)a->upgrades);
		}
		if (c->ev)
			wr_emit(c->ev, 1u << seat, priv);
		else
			json_object_put(priv);
		if (st->seat[0].submitted && st->seat[1].submitted)
			reveal_teams(c);
		break;
	}
	case WC_A_TREES: {
		json_object *rolls = json_object_new_array();
		int other = 1 - st->tree_first, base = st->ntrees;
		st->tree_choice = a->choice;
		if (a->choice == WC_TREES_RANDOM)
			roll_trees(c, other, rolls);
		else
			for (int i = 0; i < base; i++) {
				int f = st->trees[i] % 8, r = st->trees[i] / 8;
				if (a->choice == WC_TREES_MIRROR_FLIP)
					f = 7 - f;
				st->trees[st->ntrees++] = (7 - r) * 8 + f;
			}
		o = ev_new("trees");
		add_int(o, "seat", other);
		add_str(o, "setup", wc_tree_names[a->choice]);
		json_object_object_add(o, "rolls", rolls);
		{
			json_object *sq = json_object_new_array();
			for (int i = base; i < st->ntrees; i++)
				json_object_array_add(sq, wc_sq_json(st->trees[i]));
			json_object_object_add(o, "squares", sq);
		}
		emit(c, o);
		set_phase(c, WC_PH_DEPLOY);
		st->active = st->first_deployer;
		break;
	}
	case WC_A_DEPLOY: {
		int p = -1, left = 0;
		for (int i = 0; i < st->npieces && p < 0; i++)
			if (st->pieces[i].seat == seat && st->pieces[i].opt == a->opt &&
			    st->pieces[i].where == WC_OFF)
				p = i;
		st->pieces[p].where = WC_ON;
		st->pieces[p].sq = a->sq;
		o = ev_new("deploy");
		add_int(o, "seat", seat);
		add_int(o, "piece", p);
		add_sq(o, "square", a->sq);
		emit(c, o);
		for (int i = 0; i < st->npieces; i++)
			left += st->pieces[i].seat == seat && st->pieces[i].where == WC_OFF;
		if (left)
			break;
		for (int i = 0; i < st->npieces; i++)
			left += st->pieces[i].where == WC_OFF;
		if (left) {
			st->active = 1 - seat;
			break;
		}
		set_phase(c, WC_PH_PLAY);
		st->turn = 1;
		start_turn(c);
		break;
	}
	case WC_A_ACTIVATE:
		activate(c, wc_piece_at(st, a->sq));
		break;
	case WC_A_MOVE:
		do_move(c, a);
		break;
	case WC_A_ATTACK:
		start_attack(c, a->sq, a->adv);
		break;
	case WC_A_STAY:
		o = ev_new("stay");
		add_int(o, "piece", st->act_piece);
		emit(c, o);
		end_activation(c);
		break;
	case WC_A_END:
		end_activation(c);
		break;
	case WC_A_PROMOTE: {
		int pawn = st->act_piece, sq = st->pieces[pawn].sq;
		struct wc_piece *q = &st->pieces[a->piece];
		st->pieces[pawn].where = WC_REMOVED;
		q->where = WC_ON;
		q->sq = sq;
		o = ev_new("promote");
		add_int(o, "pawn", pawn);
		add_int(o, "piece", a->piece);
		add_sq(o, "square", sq);
		json_object_object_add(o, "activated", json_object_new_boolean(q->activated));
		emit(c, o);
		/* W6: the Pawn's Activation ends when it is replaced. */
		end_activation(c);
		break;
	}
	case WC_A_DEFEND:
		if (a->adv) {
			spend(c, st->atk.def, 0, "defence");
			st->atk.def_spent = 1;
		}
		st->stage = WC_ST_ACT;
		resolve_attack(c);
		break;
	case WC_A_COMBAT: {
		int who = a->choice == 0 ? st->atk.att : st->atk.def;
		o = ev_new("combat_movement");
		add_str(o, "option", a->choice == 0 ? "push" : "retreat");
		add_int(o, "piece", who);
		add_sq(o, "to", a->sq);
		emit(c, o);
		st->pieces[who].sq = a->sq;
		/* The attacker placed aside takes a Disadvantage token; the
		 * defender stepping aside gains an Advantage token. */
		wc_give_tokens(c, who, a->choice == 0 ? 1 : 0, 1, "combat movement");
		end_activation(c);
		break;
	}
	default:
		break;
	}
}

void
wc_do(struct wc_state *st, int seat, const struct wc_action *a, struct wr_rng *rng,
      struct wr_events *ev)
{
	struct wc_ctx c = {st, rng, ev};
	struct wc_action only[2];

	do_one(&c, seat, a);
	/* Where only one option is possible, the server takes it (G3). */
	while (!st->over && (st->phase == WC_PH_PLAY || st->phase == WC_PH_DEPLOY)) {
		unsigned m = wc_to_act(st);
		int s = m == 1u ? 0 : m == 2u ? 1 : -1;
		if (s < 0 || wc_list(st, s, only, 2) != 1)
			break;
		do_one(&c, s, &only[0]);
	}
}
