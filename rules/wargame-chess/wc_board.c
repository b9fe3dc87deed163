/* Wargame Chess board helpers on plain structs (000_fd193abe0e5c92ac.txt):
 * squares, paths of Moves and Attacks, Castle and Promotion targets,
 * tokens and faith, random set-up and Scatter. No JSON. Calls only the
 * data; the turn, the rules and the codec call into it. */
#include <string.h>

#include "wc_rules.h"

#define B (&wr_board8)
#define WC_MAX_REROLLS 1000

struct wc_event *
wc_emit(struct wc_ctx *c, enum wc_ev type)
{
	static _Thread_local struct wc_event scratch;   /* no list: dropped */
	struct wc_event *e = c->ev ? wr_list_push(c->ev) : NULL;

	if (!e) {
		memset(&scratch, 0, sizeof(scratch));
		e = &scratch;
	}
	e->type = type;
	e->visible_to = WR_VIS_PUBLIC;
	return e;
}

const struct wc_faction *
wc_fac(const struct wc_state *st, int seat)
{
	const struct wc_faction *f = wc_faction_at(st->seat[seat].faction);
	return f ? f : &wc_standard;
}

const struct wc_option *
wc_opt(const struct wc_state *st, int piece)
{
	const struct wc_piece *p = &st->pieces[piece];
	return &wc_fac(st, p->seat)->opts[p->opt];
}

unsigned
wc_rules_of(const struct wc_state *st, int piece)
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

/* wc_free() of every square, in one pass over the trees and pieces rather
 * than one per square (issue 17: a Joker's search asks dozens). */
static void
free_squares(const struct wc_state *st, unsigned char open[64])
{
	memset(open, 1, 64);
	for (int i = 0; i < st->ntrees; i++)
		if (st->trees[i] >= 0 && st->trees[i] < 64)
			open[st->trees[i]] = 0;
	for (int i = 0; i < st->npieces; i++)
		if (st->pieces[i].where == WC_ON && st->pieces[i].sq >= 0 && st->pieces[i].sq < 64)
			open[st->pieces[i].sq] = 0;
}

/* Deployment zone: "the two ranks on the board closest to the player". */
int
wc_zone(int seat, int sq)
{
	int r = sq / 8;
	return seat == 0 ? r <= 1 : r >= 6;
}

int
wc_redeploying(const struct wc_state *st)
{
	for (int i = 0; i < st->npieces; i++)
		if (st->pieces[i].where == WC_REDEPLOY)
			return i;
	return -1;
}

/* "Whenever a rule mentions redeploying a piece, you set it up anywhere
 * within your deployment zone": its unoccupied squares; with none (a
 * zone full of pieces and Trees), any unoccupied square (decision). */
int
wc_redeploy_squares(const struct wc_state *st, int seat, int *out)
{
	int n = 0;
	for (int pass = 0; pass < 2 && n == 0; pass++)
		for (int s = 0; s < 64; s++)
			if ((pass || wc_zone(seat, s)) && wc_free(st, s))
				out[n++] = s;
	return n;
}

int
wc_option_find(const struct wc_state *st, int seat, const char *id)
{
	const struct wc_faction *f = wc_fac(st, seat);
	for (int i = 0; i < f->nopts; i++)
		if (strcmp(f->opts[i].id, id) == 0)
			return i;
	return -1;
}

int
wc_reserve(const struct wc_state *st, int seat, int opt)
{
	int n;

	if (opt < 0 || opt >= WC_MAX_OPTS)
		return 0;
	n = st->seat[seat].counts[opt];
	for (int i = 0; i < st->npieces; i++)
		n -= st->pieces[i].seat == seat && st->pieces[i].opt == opt;
	return n > 0 ? n : 0;
}

int
wc_lists_shown(const struct wc_state *st)
{
	/* Step 5 of the Setup order comes once both teams are deployed: the
	 * play phase (turn >= 1), or a match ended after that. */
	return st->turn >= 1 && (st->phase == WC_PH_PLAY || st->phase == WC_PH_OVER);
}

/* ------------------------------------------------------------- tokens */

static void
give_raw(struct wc_ctx *c, int piece, int kind, int n, const char *cause)
{
	struct wc_piece *p = &c->st->pieces[piece];
	int *mine = kind ? &p->dis : &p->adv, *other = kind ? &p->adv : &p->dis;
	int cancel = n < *other ? n : *other;
	struct wc_event *e;

	/* "If a piece with an Advantage token would receive a Disadvantage
	 * token - or vice versa - they cancel each other out." */
	*other -= cancel;
	*mine += n - cancel;
	e = wc_emit(c, WC_EV_TOKENS);
	e->u.tokens.piece = piece;
	e->u.tokens.kind = kind;
	e->u.tokens.amount = n;
	e->u.tokens.cancelled = cancel;
	e->u.tokens.advantage = p->adv;
	e->u.tokens.disadvantage = p->dis;
	e->u.tokens.cause = cause;
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
	struct wc_event *e;

	/* "A piece that is Blessed cannot have another Blessing token placed
	 * on it, nor be a target for a Blessing token." */
	if (*mine)
		return -1;
	if (*other)
		*other = 0;
	else
		*mine = 1;
	e = wc_emit(c, WC_EV_FAITH);
	e->u.faith.piece = piece;
	e->u.faith.kind = kind;
	e->u.faith.cancelled = !*mine;
	e->u.faith.cause = cause;
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
	/* Dis/Advantage and Jokers: "A player cannot voluntarily give their
	 * own Joker either type of token unless it is the only legal target
	 * for one": Advantage or Disadvantage, the types that section covers.
	 * Blessings and Curses limit only Blessed or Cursed targets. */
	if (kind >= 2)
		return ok;
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

/* Joker: up to three steps into unoccupied adjacent squares; the end
 * square differs from the start (W3). */
static int
joker_moves(const struct wc_state *st, int from, int *mv)
{
	int dist[64], queue[64], qh = 0, qt = 0, n = 0;
	unsigned char open[64];

	free_squares(st, open);
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
			if (t == WR_NO_SQUARE || dist[t] >= 0 || !open[t])
				continue;
			dist[t] = dist[s] + 1;
			queue[qt++] = t;
		}
	}
	for (int s = 0; s < 64; s++)
		if (dist[s] > 0)
			mv[n++] = s;
	return n;
}

/* Moves and Attacks of a piece (000_fd193abe0e5c92ac.txt, Piece types).
 * Trees block paths of Moves and Attacks alike; Knights jump them. */
void
wc_paths(const struct wc_state *st, int piece, int *mv, int *nm, int *at, int *na)
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
		n = joker_moves(st, from, mv);
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

int
wc_in_list(const int *v, int n, int x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

/* Castle: non-Rook allies adjacent to `to` once the Rook stands there. */
int
wc_castle_partners(const struct wc_state *st, int rook, int to, int *out)
{
	int n = 0;

	if (!(wc_rules_of(st, rook) & WC_R_CASTLE))
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

/* Promotion: slain, non-Legendary positionals (not Pawns; Jokers are
 * positionals, RULINGS.md W6) whose option may stand on the board now. */
int
wc_can_promote_into(const struct wc_state *st, int pawn, int q)
{
	const struct wc_piece *p = &st->pieces[pawn], *o;

	if (q < 0 || q >= st->npieces)
		return 0;
	o = &st->pieces[q];
	if (o->seat != p->seat || o->where != WC_SLAIN || o->type == WC_PAWN ||
	    (wc_rules_of(st, q) & WC_R_LEGENDARY))
		return 0;
	/* Different options of one type cannot be on the board together
	 * (Jokers excepted, as in Building a team). */
	for (int i = 0; o->type != WC_JOKER && i < st->npieces; i++)
		if (st->pieces[i].where == WC_ON && st->pieces[i].seat == p->seat &&
		    st->pieces[i].type == o->type && st->pieces[i].opt != o->opt)
			return 0;
	return 1;
}

int
wc_promotion_open(const struct wc_state *st, int pawn)
{
	const struct wc_piece *p = &st->pieces[pawn];
	return p->type == WC_PAWN && (wc_rules_of(st, pawn) & WC_R_PROMOTION) && p->where == WC_ON &&
	       wc_zone(1 - p->seat, p->sq);
}

int
wc_adjacent_free(const struct wc_state *st, int sq, int *out)
{
	int n = 0;
	for (int d = 0; d < WR_DIRS; d++) {
		int s = wr_step(B, sq, d);
		if (s != WR_NO_SQUARE && wc_free(st, s))
			out[n++] = s;
	}
	return n;
}
