/* Wargame Chess turn machine on plain structs (000_fd193abe0e5c92ac.txt,
 * Comprehensive turn breakdown; RULINGS.md W1-W7): turns, Activations,
 * Attacks and their rolls, slaying, the end of the match. Events are plain
 * structs (wc_rules.h); the codec turns them into JSON. Calls wc_board.c
 * and the data; wc_rules.c and the codec call into it, never back. */
#include <stdio.h>
#include <string.h>

#include "wc_rules.h"

#define B (&wr_board8)
#define WC_MAX_REROLLS 1000

/* Phase changes are events too. */
void
wc_set_phase(struct wc_ctx *c, int phase)
{
	c->st->phase = phase;
	wc_emit(c, WC_EV_PHASE)->u.phase.phase = phase;
}

int
wc_points(const struct wc_state *st, int seat)
{
	int pts = 0;
	const struct wc_faction *f = wc_fac(st, seat);

	for (int i = 0; i < st->npieces; i++)
		/* A piece lifted for its owner to redeploy (W9) is in play. */
		if (st->pieces[i].seat == seat && (st->pieces[i].where == WC_ON ||
		                                   st->pieces[i].where == WC_REDEPLOY))
			pts += wc_type_cost[st->pieces[i].type];
	for (int u = 0; u < f->nupgrades; u++)
		if (st->seat[seat].upgrades & (1u << u))
			pts += f->upgrades[u].cost;
	return pts;
}

void
wc_finish(struct wc_ctx *c, unsigned winners, const char *reason)
{
	struct wc_state *st = c->st;
	struct wc_event *e;

	if (st->over)
		return;
	st->over = 1;
	st->phase = WC_PH_OVER;
	st->winners = winners;
	st->act_piece = -1;
	snprintf(st->reason, sizeof(st->reason), "%s", reason);
	e = wc_emit(c, WC_EV_GAME_OVER);
	e->u.over.winners = winners;
	for (int s = 0; s < WC_SEATS; s++)
		e->u.over.points[s] = wc_points(st, s);
	snprintf(e->u.over.reason, sizeof(e->u.over.reason), "%s", reason);
}

void
wc_finish_by_points(struct wc_ctx *c, const char *reason)
{
	int a = wc_points(c->st, 0), b = wc_points(c->st, 1);
	wc_finish(c, a > b ? 1u : a < b ? 2u : 0u, reason);
}

/* ---------------------------------------------------------- Trees */

void
wc_roll_trees(struct wc_ctx *c, int seat, struct wc_event *e)
{
	struct wc_state *st = c->st;
	for (int k = 0; k < 3 && st->ntrees < WC_MAX_TREES; k++) {
		for (int tries = 0;; tries++) {
			int r = (int)wr_die(c->rng, 4), f = (int)wr_die(c->rng, 8);
			int rank = seat == 0 ? r - 1 : 8 - r, sq = rank * 8 + f - 1;
			if (e->u.trees.nrolls < WC_MAX_TREE_ROLLS)
				e->u.trees.rolls[e->u.trees.nrolls++] =
				    (struct wc_tree_roll){r, f, sq, wc_is_tree(st, sq)};
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
			const struct wc_hooks *h = &wc_fac(c->st, s)->hooks;
			if (end && h->turn_end)
				h->turn_end(c, s, (enum wc_step)step);
			if (!end && h->turn_start)
				h->turn_start(c, s, (enum wc_step)step);
		}
}

/* Objective and Fool's Endeavour. */
void
wc_check_end(struct wc_ctx *c)
{
	struct wc_state *st = c->st;
	int lose[WC_SEATS] = {0};

	if (st->over || st->phase != WC_PH_PLAY)
		return;
	for (int s = 0; s < WC_SEATS; s++) {
		int on = 0, nonfool = 0;
		for (int i = 0; i < st->npieces; i++)
			if (st->pieces[i].seat == s && (st->pieces[i].where == WC_ON ||
			                                 st->pieces[i].where == WC_REDEPLOY)) {
				on++;
				nonfool += !(wc_rules_of(st, i) & WC_R_FOOL);
			}
		lose[s] = on == 0 ? 1 : nonfool == 0 ? 2 : 0;
	}
	if (lose[0] && lose[1])
		wc_finish(c, 0, "both teams lost at once");
	else if (lose[0] || lose[1]) {
		int l = lose[0] ? 0 : 1;
		wc_finish(c, 1u << (1 - l),
		          lose[l] == 1 ? "no pieces left on the board" : "Fool's Endeavour");
	}
}

static void end_turn(struct wc_ctx *c);

int
wc_unactivated(const struct wc_state *st, int seat)
{
	int n = 0;
	for (int i = 0; i < st->npieces; i++)
		n += (st->pieces[i].where == WC_ON || st->pieces[i].where == WC_REDEPLOY) &&
		     !st->pieces[i].activated &&
		     (seat < 0 || st->pieces[i].seat == seat);
	return n;
}

void
wc_start_turn(struct wc_ctx *c)
{
	struct wc_state *st = c->st;
	struct wc_event *e;

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
	e = wc_emit(c, WC_EV_TURN_START);
	e->u.turn.turn = st->turn;
	e->u.turn.first = st->first_this_turn;
	call_turn_hooks(c, st->first_this_turn, 0);
	wc_check_end(c);
	if (!st->over && !wc_unactivated(st, -1))
		end_turn(c);
}

static void
end_turn(struct wc_ctx *c)
{
	struct wc_state *st = c->st;
	int first = st->last_activator < 0 ? st->first_this_turn : 1 - st->last_activator;

	wc_emit(c, WC_EV_TURN_END)->u.turn.turn = st->turn;
	call_turn_hooks(c, first, 1);
	/* Fool's Endeavour: "At the end of the turn, remove any/all
	 * Dis/Advantage tokens from this piece." A lifted piece (W9) too. */
	for (int i = 0; i < st->npieces && !st->over; i++) {
		struct wc_piece *p = &st->pieces[i];
		if ((p->where == WC_ON || p->where == WC_REDEPLOY) &&
		    (wc_rules_of(st, i) & WC_R_FOOL) && (p->adv || p->dis)) {
			struct wc_event *e = wc_emit(c, WC_EV_TOKENS_CLEARED);
			e->u.cleared.piece = i;
			e->u.cleared.advantage = p->adv;
			e->u.cleared.disadvantage = p->dis;
			p->adv = p->dis = 0;
		}
	}
	wc_check_end(c);
	if (st->over)
		return;
	if (st->turn >= WC_LAST_TURN) {
		wc_finish_by_points(c, "end of Turn 10: points");
		return;
	}
	st->turn++;
	wc_start_turn(c);
}

void
wc_end_activation(struct wc_ctx *c)
{
	struct wc_state *st = c->st;
	int p = st->act_piece, seat = st->active;

	wc_emit(c, WC_EV_ACTIVATION_END)->u.piece.piece = p;
	st->stage = WC_ST_PICK;
	st->atk.att = st->atk.def = -1;
	st->atk.from = st->atk.sq = -1;
	st->atk.att_spent = st->atk.def_spent = 0;
	/* End of Activation: the Activating piece's owner's rules. */
	if (wc_fac(st, seat)->hooks.activation_end)
		wc_fac(st, seat)->hooks.activation_end(c, p);
	st->act_piece = -1;
	st->last_activator = seat;
	wc_check_end(c);
	/* Between Activations: the seat that just Re/Activated first. */
	for (int k = 0; k < WC_SEATS && !st->over; k++) {
		int s = k ? 1 - seat : seat;
		const struct wc_hooks *h = &wc_fac(st, s)->hooks;
		if (h->between_activations)
			h->between_activations(c, s, p);
	}
	wc_check_end(c);
	if (st->over)
		return;
	if (wc_unactivated(st, -1))
		st->active = 1 - seat;
	else
		end_turn(c);
}

/* "...cannot be slain...": an unoccupied adjacent square if possible (the
 * first in N, NE, .., NW order), else "its owner redeploys it": the piece
 * is lifted off the board and its owner chooses the square (RULINGS.md
 * W9, a pending decision, G3); the resolution goes on meanwhile. */
static void
not_slain(struct wc_ctx *c, int piece, int sq)
{
	struct wc_state *st = c->st;
	struct wc_piece *p = &st->pieces[piece];
	int adj[8], n;
	struct wc_event *e;

	p->where = WC_OFF;   /* lifts it so its square does not count */
	n = wc_adjacent_free(st, sq, adj);
	p->where = n ? WC_ON : WC_REDEPLOY;
	p->sq = n ? adj[0] : -1;
	e = wc_emit(c, WC_EV_NOT_SLAIN);
	e->u.not_slain.piece = piece;
	e->u.not_slain.from = sq;
	e->u.not_slain.to = p->sq;
	e->u.not_slain.adjacent = n > 0;
}

void
wc_slay(struct wc_ctx *c, int piece, int by)
{
	struct wc_state *st = c->st;
	struct wc_piece *p = &st->pieces[piece];
	const struct wc_hooks *h = &wc_fac(st, p->seat)->hooks;
	int sq = p->sq;
	struct wc_event *e;

	if (p->where != WC_ON)
		return;
	if (h->on_slain && h->on_slain(c, piece, by)) {
		if (p->where == WC_ON && p->sq == sq)
			not_slain(c, piece, sq);
		return;
	}
	p->where = WC_SLAIN;
	p->adv = p->dis = p->blessing = p->curse = 0;
	e = wc_emit(c, WC_EV_SLAIN);
	e->u.slain.piece = piece;
	e->u.slain.by = by;
	e->u.slain.sq = sq;
	/* Faction Leader: "their player loses the game immediately". */
	if (wc_rules_of(st, piece) & WC_R_LEADER)
		wc_finish(c, 1u << (1 - p->seat), "Faction Leader slain");
}

/* ------------------------------------------------------------ attack */

static unsigned
roll_side(struct wc_ctx *c, const struct wc_roll *r, int defence)
{
	struct wc_piece *p = &c->st->pieces[r->piece];
	unsigned faces[2] = {0, 0}, n, sides, total;
	int adv = r->prevent_adv ? 0 : r->adv, dis = r->prevent_dis ? 0 : r->dis;
	int net = p->type == WC_JOKER ? 0 : adv - dis;
	struct wc_event *e;

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
	e = wc_emit(c, WC_EV_ROLL);
	e->u.roll.piece = r->piece;
	e->u.roll.defence = defence;
	e->u.roll.type = p->type;
	e->u.roll.nfaces = n < 2 ? (int)n : 2;
	e->u.roll.faces[0] = (int)faces[0];
	e->u.roll.faces[1] = (int)faces[1];
	e->u.roll.net = net;
	e->u.roll.advantages = r->adv;
	e->u.roll.disadvantages = r->dis;
	e->u.roll.prevent_adv = r->prevent_adv;
	e->u.roll.prevent_dis = r->prevent_dis;
	e->u.roll.bonus = r->bonus;
	e->u.roll.total = (int)total;
	return total;
}

void
wc_spend(struct wc_ctx *c, int piece, int kind, int defence)
{
	struct wc_piece *p = &c->st->pieces[piece];
	struct wc_event *e = wc_emit(c, WC_EV_TOKEN_SPENT);

	if (kind)
		p->dis--;
	else
		p->adv--;
	e->u.spent.piece = piece;
	e->u.spent.kind = kind;
	e->u.spent.defence = defence;
}

/* Mounted Advantage: other enemies adjacent to the shared square. */
static int
mounted(const struct wc_state *st, const struct wc_attack *a)
{
	if (!(wc_rules_of(st, a->att) & WC_R_MOUNTED) || st->pieces[a->def].type == WC_KNIGHT)
		return 0;
	for (int d = 0; d < WR_DIRS; d++) {
		int s = wr_step(B, a->sq, d), q;
		if (s != WR_NO_SQUARE && (q = wc_piece_at(st, s)) >= 0 &&
		    st->pieces[q].seat != st->pieces[a->att].seat)
			return 1;
	}
	return 0;
}

void
wc_resolve_attack(struct wc_ctx *c)
{
	struct wc_state *st = c->st;
	struct wc_attack *a = &st->atk;
	struct wc_roll ra = {.piece = a->att}, rd = {.piece = a->def};
	unsigned ta, td;
	int adj[8];
	struct wc_event *e;

	ra.adv += a->att_spent > 0;
	ra.dis += a->att_spent < 0;
	rd.adv += a->def_spent > 0;
	rd.dis += a->def_spent < 0;
	ra.adv += mounted(st, a);
	for (int k = 0; k < WC_SEATS; k++) {
		int s = k ? st->pieces[a->def].seat : st->pieces[a->att].seat;
		const struct wc_hooks *h = &wc_fac(st, s)->hooks;
		if (h->before_roll)
			h->before_roll(c, s, &ra, &rd);
	}
	ta = roll_side(c, &ra, 0);
	td = roll_side(c, &rd, 1);
	e = wc_emit(c, WC_EV_ATTACK_RESULT);
	e->u.result.attacker = a->att;
	e->u.result.defender = a->def;
	e->u.result.attack = (int)ta;
	e->u.result.defence = (int)td;
	e->u.result.success = ta > td;
	if (ta > td) {
		/* After a slaying Attack the attacker stands in the target's
		 * square (W4). */
		wc_slay(c, a->def, a->att);
		st->pieces[a->att].sq = a->sq;
		if (!st->over)
			wc_end_activation(c);
		return;
	}
	if (wc_adjacent_free(st, a->sq, adj) == 0) {
		/* W5: no unoccupied adjacent square for either option. */
		st->pieces[a->att].sq = a->from;
		e = wc_emit(c, WC_EV_COMBAT_MOVEMENT);
		e->u.combat.option = WC_CM_RETURN;
		e->u.combat.piece = a->att;
		e->u.combat.to = a->from;
		wc_give_tokens(c, a->att, 1, 1, "combat movement");
		wc_end_activation(c);
		return;
	}
	st->stage = WC_ST_COMBAT;
}

void
wc_start_attack(struct wc_ctx *c, int to, int advantage)
{
	struct wc_state *st = c->st;
	struct wc_attack *a = &st->atk;
	struct wc_piece *att = &st->pieces[st->act_piece], *def;
	struct wc_event *e;

	a->att = st->act_piece;
	a->def = wc_piece_at(st, to);
	a->from = att->sq;
	a->sq = to;
	a->att_spent = a->def_spent = 0;
	def = &st->pieces[a->def];
	e = wc_emit(c, WC_EV_ATTACK);
	e->u.attack.attacker = a->att;
	e->u.attack.defender = a->def;
	e->u.attack.from = a->from;
	e->u.attack.sq = to;
	att->sq = to;    /* both count as occupying that square */
	if (att->type != WC_JOKER) {
		if (advantage && att->adv > 0) {
			wc_spend(c, a->att, 0, 0);
			a->att_spent = 1;
		} else if (att->dis > 0) {
			wc_spend(c, a->att, 1, 0);
			a->att_spent = -1;
		}
	}
	if (def->type != WC_JOKER) {
		if (def->dis > 0) {
			wc_spend(c, a->def, 1, 1);
			a->def_spent = -1;
		} else if (def->adv > 0) {
			int order = st->seat[def->seat].order_defend;
			if (order == WC_ORDER_ASK) {
				st->stage = WC_ST_DEFEND;
				return;
			}
			if (order == WC_ORDER_ALWAYS) {
				wc_spend(c, a->def, 0, 1);
				a->def_spent = 1;
			}
		}
	}
	wc_resolve_attack(c);
}

/* -------------------------------------------------------- activation */

void
wc_activate(struct wc_ctx *c, int piece)
{
	struct wc_state *st = c->st;
	struct wc_piece *p = &st->pieces[piece];
	int re = p->activated;
	struct wc_event *e;

	st->act_piece = piece;
	st->act_reactivation = re;
	st->act_first = !p->ever_activated;
	st->stage = WC_ST_ACT;
	st->any_activation = 1;
	p->activated = 1;
	p->ever_activated = 1;
	e = wc_emit(c, WC_EV_ACTIVATE);
	e->u.activate.seat = p->seat;
	e->u.activate.piece = piece;
	e->u.activate.sq = p->sq;
	e->u.activate.reactivation = re;
	if (re) {
		p->reactivations++;
		/* "When a piece Reactivates, if it has no Disadvantage tokens,
		 * give it one." */
		if (p->dis == 0)
			wc_give_tokens(c, piece, 1, 1, "reactivation");
	}
	/* Start of Activation: the owner's rules ("their Activation"). */
	if (!st->over && wc_fac(st, p->seat)->hooks.activation_start)
		wc_fac(st, p->seat)->hooks.activation_start(c, piece);
	wc_check_end(c);
	if (!st->over && p->where != WC_ON)
		wc_end_activation(c);
}
