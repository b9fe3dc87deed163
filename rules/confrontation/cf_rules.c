/*
 * Confrontation's rule logic on plain structs: army building, set-up,
 * turns, movement, combat, spells, races, terrain, treasure, the end.
 * 004_13fa4739ee387ac7.txt with RULINGS.md G1-G6 and Confrontation R1-R10;
 * the decisions of our own are listed in README.md.
 *
 * Every action goes through cf_do(): it is refused unless it is one of
 * cf_legal()'s list (so the list is exact by construction), then applied,
 * then settle() runs everything that follows without a decision: battles,
 * automatic choices, the end of the turn, the next turn.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cf_priv.h"

#define B8 (&wr_board8)
enum { WAIT = 1 };

static struct cf_piece *
P(struct cf_state *st, int seat, int id)
{
	return &st->s[seat].p[id];
}

static const struct cf_piece *
CP(const struct cf_state *st, int seat, int id)
{
	return &st->s[seat].p[id];
}

int
cf_piece_on(const struct cf_state *st, int sq, int *seat, int *id)
{
	if (sq < 0 || sq >= CF_NSQ || st->board[sq] < 0)
		return 0;
	*seat = st->board[sq] / CF_MAX_PIECES;
	*id = st->board[sq] % CF_MAX_PIECES;
	return 1;
}

static int
owner_at(const struct cf_state *st, int sq)
{
	return st->board[sq] < 0 ? -1 : st->board[sq] / CF_MAX_PIECES;
}

static void
put(struct cf_state *st, int seat, int id, int sq)
{
	struct cf_piece *p = P(st, seat, id);
	if (p->status == CF_ON && p->sq >= 0 && st->board[p->sq] == seat * CF_MAX_PIECES + id)
		st->board[p->sq] = -1;
	p->sq = sq;
	p->status = CF_ON;
	st->board[sq] = seat * CF_MAX_PIECES + id;
}

static void
take(struct cf_state *st, int seat, int id, int status)
{
	struct cf_piece *p = P(st, seat, id);
	if (p->status == CF_ON && p->sq >= 0 && st->board[p->sq] == seat * CF_MAX_PIECES + id)
		st->board[p->sq] = -1;
	p->sq = -1;
	p->status = status;
	p->treasure = 0;     /* XI: the treasure leaves with the piece */
	if (status == CF_REMOVED)
		memset(p->spells, 0, sizeof(p->spells)); /* VII: spells are lost */
}

void
cf_rebuild_board(struct cf_state *st)
{
	for (int i = 0; i < CF_NSQ; i++)
		st->board[i] = -1;
	for (int s = 0; s < st->nseats; s++)
		for (int i = 0; i < st->s[s].n; i++)
			if (st->s[s].p[i].status == CF_ON && st->s[s].p[i].sq >= 0 &&
			    st->s[s].p[i].sq < CF_NSQ)
				st->board[st->s[s].p[i].sq] = s * CF_MAX_PIECES + i;
}

/* G1, R3: a seat's two nearest ranks (files for seats 2 and 3). */
int
cf_in_area(const struct cf_state *st, int seat, int sq)
{
	int f = wr_file(B8, sq), r = wr_rank(B8, sq);
	(void)st;
	switch (seat) {
	case 0: return r <= 1;
	case 1: return r >= 6;
	case 2: return f <= 1;
	default: return f >= 6;
	}
}

/* IX Undead, VII Panic: "the rank closest to the player". */
static int
on_near_line(int seat, int sq)
{
	int f = wr_file(B8, sq), r = wr_rank(B8, sq);
	switch (seat) {
	case 0: return r == 0;
	case 1: return r == 7;
	case 2: return f == 0;
	default: return f == 7;
	}
}

static int
racial_ok(const struct cf_state *st, int seat, int race, int sq)
{
	/* X Counterspell: a piece on it is not affected by racial abilities. */
	return st->o.races && st->s[seat].race == race && st->s[seat].racial > 0 &&
	       !(sq >= 0 && st->terrain[sq] == CF_COUNTERSPELL);
}

static int
nspells(const struct cf_piece *p)
{
	int n = 0;
	for (int k = 0; k < CF_SPELL_MAX; k++)
		n += p->spells[k];
	return n;
}

static int
alive_count(const struct cf_state *st)
{
	int n = 0;
	for (int s = 0; s < st->nseats; s++)
		n += !st->s[s].out;
	return n;
}

/* An empty square a piece of this type may be put on in play: not a
 * Barrier (our ruling: impassable), not Rough for a King (X, R9). */
static int
can_stand(const struct cf_state *st, int type, int sq)
{
	if (st->board[sq] >= 0 || st->terrain[sq] == CF_BARRIER)
		return 0;
	return !(type == CF_KING && st->terrain[sq] == CF_ROUGH);
}

/* ------------------------------------------------------------ set-up */

static void
army_reset(struct cf_state *st, int seat)
{
	struct cf_seat *s = &st->s[seat];
	int o_htl = s->o_htl, o_luck = s->o_luck, o_live = s->o_live;
	memset(s, 0, sizeof(*s));
	s->o_htl = o_htl;
	s->o_luck = o_luck;
	s->o_live = o_live;
	s->points = st->o.points;
	/* II, R1: one King and three Pawns, free. */
	s->n = 4;
	for (int i = 0; i < 4; i++) {
		s->p[i].type = i == 0 ? CF_KING : CF_PAWN;
		s->p[i].sq = -1;
		s->p[i].status = CF_UNPLACED;
	}
	s->race = CF_NORACE;
	s->racial = st->o.races ? 3 : 0;
}

void
cf_init(struct cf_state *st, const struct cf_opts *o, int nseats)
{
	memset(st, 0, sizeof(*st));
	st->o = *o;
	st->nseats = nseats;
	st->phase = CF_BUILD;
	st->chooser = -1;
	st->active = -1;
	st->risen = st->swift = -1;
	st->r.panic_seat = st->r.panic_id = -1;
	for (int s = 0; s < nseats; s++)
		army_reset(st, s);
	cf_rebuild_board(st);
}

/* Terrain areas: 4 or 8 squares connected by sides (X). */
static int
connected(const int *sq, int n)
{
	int seen[8] = {1}, grew = 1, cnt = 1;
	while (grew) {
		grew = 0;
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n && !seen[i]; j++)
				if (seen[j] && wr_manhattan(B8, sq[i], sq[j]) == 1)
					seen[i] = 1, grew = 1, cnt++;
	}
	return cnt == n;
}

int
cf_terrain_check(const int *sqs, int n, struct wr_error *err)
{
	if (n != 4 && n != 8)
		return wr_fail(err, "terrain-size", "terrain_areas",
		               "a terrain area has 4 or 8 squares, not %d (X. Terrain)", n);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++)
			if (sqs[i] == sqs[j])
				return wr_fail(err, "terrain-repeat", "terrain_areas",
				               "a terrain area names a square twice");
	if (!connected(sqs, n))
		return wr_fail(err, "terrain-not-connected", "terrain_areas",
		               "the squares of a terrain area must touch by their sides (X. Terrain)");
	return 0;
}

/* Whether the squares that are not Barrier hang together by king steps. */
static int
open_board(const struct cf_state *st)
{
	int seen[CF_NSQ] = {0}, stack[CF_NSQ], top = 0, start = -1, total = 0, reached = 0;
	for (int sq = 0; sq < CF_NSQ; sq++)
		if (st->terrain[sq] != CF_BARRIER) {
			total++;
			if (start < 0)
				start = sq;
		}
	if (start < 0)
		return 0;
	stack[top++] = start;
	seen[start] = 1;
	while (top) {
		int sq = stack[--top];
		reached++;
		for (int d = 0; d < WR_DIRS; d++) {
			int n = wr_step(B8, sq, d);
			if (n != WR_NO_SQUARE && !seen[n] && st->terrain[n] != CF_BARRIER) {
				seen[n] = 1;
				stack[top++] = n;
			}
		}
	}
	return reached == total;
}

/* R9: random areas, grown square by square inside the squares no seat
 * sets up on; a failed growth is re-rolled at once (G2). */
int
cf_random_terrain(struct cf_state *st, struct wr_rng *rng)
{
	int zone[CF_NSQ], nz = 0;
	for (int sq = 0; sq < CF_NSQ; sq++) {
		int in = 0;
		for (int s = 0; s < st->nseats; s++)
			in |= cf_in_area(st, s, sq);
		if (!in)
			zone[nz++] = sq;
	}
	for (int a = 0; a < st->o.random_areas; a++) {
		int size = wr_die(rng, 2) == 1 ? 4 : 8, type = (int)wr_die(rng, 4);
		int placed = 0;
		for (int attempt = 0; attempt < 64 && !placed; attempt++) {
			int area[8], n = 0, free_n = 0, freesq[CF_NSQ];
			if (attempt == 32)
				size = 4;
			for (int i = 0; i < nz; i++)
				if (st->terrain[zone[i]] == CF_T_NONE)
					freesq[free_n++] = zone[i];
			if (free_n < size)
				break;
			area[n++] = freesq[wr_die(rng, (unsigned)free_n) - 1];
			while (n < size) {
				int fr[CF_NSQ], nf = 0;
				for (int i = 0; i < free_n; i++) {
					int in = 0, adj = 0;
					for (int j = 0; j < n; j++) {
						in |= area[j] == freesq[i];
						adj |= wr_manhattan(B8, area[j], freesq[i]) == 1;
					}
					if (!in && adj)
						fr[nf++] = freesq[i];
				}
				if (!nf)
					break;
				area[n++] = fr[wr_die(rng, (unsigned)nf) - 1];
			}
			if (n == size) {
				for (int i = 0; i < n; i++)
					st->terrain[area[i]] = type;
				placed = 1;
				/* Our ruling: a random Barrier never cuts the board in two
				 * (the match could never end); such a draw is re-rolled. */
				if (type == CF_BARRIER && !open_board(st)) {
					for (int i = 0; i < n; i++)
						st->terrain[area[i]] = CF_T_NONE;
					placed = 0;
				}
			}
		}
	}
	return 0;
}

/* ---------------------------------------------------------- movement */

/* R5 with X: the squares a piece at `from` may end its move on. Knights
 * pass pieces (VI Leap); Barrier squares stop everyone; entering Rough
 * costs two, except the square of a battle (X: terrain does not affect
 * "pieces moving into those spaces to begin combat"); Kings never enter
 * Rough (X, R9). `enemy_only`: Battle Fury's moves. */
static int
gen_moves(const struct cf_state *st, int seat, int type, int from, int enemy_only, int *out)
{
	int n = 0;
	for (int d = 0; d < WR_DIRS; d++) {
		int spent = 0, sq = from;
		for (;;) {
			sq = wr_step(B8, sq, d);
			if (sq == WR_NO_SQUARE || st->terrain[sq] == CF_BARRIER)
				break;
			if (type == CF_KING && st->terrain[sq] == CF_ROUGH)
				break;
			int own = owner_at(st, sq);
			int enemy = own >= 0 && own != seat;
			int pass = st->terrain[sq] == CF_ROUGH ? 2 : 1;
			int end = enemy ? 1 : pass;
			if (own != seat && spent + end <= cf_move[type] && (enemy || !enemy_only))
				out[n++] = sq;
			if (own >= 0 && type != CF_KNIGHT)
				break;
			spent += pass;
			if (spent >= cf_move[type])
				break;
		}
	}
	return n;
}


/* ------------------------------------------------------------ spells */

/* R7: range in king steps, blockers do not matter, a Barrier on the
 * straight line between caster and target (where there is one) does. */
static int
spell_reach(const struct cf_state *st, int from, int to, int range)
{
	int between[8], n;
	if (wr_chebyshev(B8, from, to) > range)
		return 0;
	n = wr_between(B8, from, to, between);
	for (int i = 0; i < n; i++)
		if (st->terrain[between[i]] == CF_BARRIER)
			return 0;
	return 1;
}

static int
panic_squares(const struct cf_state *st, int tseat, int ttype, int *out)
{
	int n = 0;
	for (int sq = 0; sq < CF_NSQ; sq++)
		if (on_near_line(tseat, sq) && can_stand(st, ttype, sq))
			out[n++] = sq;
	return n;
}

/* A target of Fireball, Hurt or Panic: an enemy in range, not on
 * Counterspell (X). Panic also needs a square to send it to. */
static int
spell_target_ok(const struct cf_state *st, int seat, int from, int spell, int to)
{
	int ts, tid, tmp[64];
	if (!cf_piece_on(st, to, &ts, &tid) || ts == seat || st->terrain[to] == CF_COUNTERSPELL)
		return 0;
	if (!spell_reach(st, from, to, cf_spell_range[spell]))
		return 0;
	if (spell == CF_PANIC && !panic_squares(st, ts, CP(st, ts, tid)->type, tmp))
		return 0;
	return 1;
}

static int
judgement_targets(const struct cf_state *st, int seat, int from, int *ts, int *tid)
{
	int n = 0;
	for (int d = 0; d < WR_DIRS; d++) {
		int sq = wr_step(B8, from, d), s, i;
		if (sq != WR_NO_SQUARE && cf_piece_on(st, sq, &s, &i) && s != seat &&
		    st->terrain[sq] != CF_COUNTERSPELL) {
			ts[n] = s;
			tid[n++] = i;
		}
	}
	return n;
}

static int
healable(const struct cf_state *st, int seat, int type)
{
	const struct cf_seat *s = &st->s[seat];
	for (int i = 0; i < s->n; i++)
		if (s->p[i].type == type && s->p[i].status == CF_REMOVED)
			return i;
	return -1;
}

/* ------------------------------------------------------ legal actions */

struct acts {
	struct cf_act *v;
	int n, max;
};

static void
add(struct acts *L, int kind, int a, int b, int c, int d)
{
	if (L->n < L->max)
		L->v[L->n] = (struct cf_act){kind, a, b, c, d};
	L->n++;
}

static int
bishop_cost(const struct cf_piece *p)
{
	return nspells(p) < 2 ? 0 : 1; /* VI: two spells come with the Bishop */
}

static int
army_complete(const struct cf_state *st, int seat)
{
	const struct cf_seat *s = &st->s[seat];
	for (int i = 0; i < s->n; i++)
		if (s->p[i].type == CF_BISHOP && nspells(&s->p[i]) < 2)
			return 0;
	return !st->o.races || s->race != CF_NORACE;
}

static void
legal_build(const struct cf_state *st, int seat, struct acts *L)
{
	const struct cf_seat *s = &st->s[seat];
	for (int t = CF_QUEEN; t < CF_TYPE_MAX; t++)
		if (s->points >= cf_cost[t] && s->n < CF_MAX_PIECES)
			add(L, CF_A_BUY, t, 0, 0, 0);
	for (int i = 0; i < s->n; i++)
		if (s->p[i].type == CF_BISHOP && s->points >= bishop_cost(&s->p[i]))
			for (int k = 0; k < CF_SPELL_MAX; k++)
				add(L, CF_A_ADD_SPELL, i, k, 0, 0);
	if (st->o.races && s->race == CF_NORACE)
		for (int r = 1; r < CF_RACE_MAX; r++)
			add(L, CF_A_RACE, r, 0, 0, 0);
	if (st->o.races && s->points >= 1)
		add(L, CF_A_BUY_RACIAL, 0, 0, 0, 0);
	if (st->o.kings_magic && nspells(&s->p[0]) == 0 && s->points >= 2)
		for (int k = 0; k < CF_SPELL_MAX; k++)
			add(L, CF_A_KING_SPELL, k, 0, 0, 0);
	add(L, CF_A_RESET, 0, 0, 0, 0);
	if (army_complete(st, seat))
		add(L, CF_A_READY, 0, 0, 0, 0);
}

static int
setup_free(const struct cf_state *st, int seat, int *out)
{
	int n = 0;
	for (int sq = 0; sq < CF_NSQ; sq++)
		if (cf_in_area(st, seat, sq) && st->board[sq] < 0 && st->terrain[sq] != CF_BARRIER)
			out[n++] = sq;
	return n;
}

static void
legal_setup(const struct cf_state *st, int seat, struct acts *L)
{
	int fr[64], nf = setup_free(st, seat, fr);
	const struct cf_seat *s = &st->s[seat];
	/* Our ruling: with one square left, the King must have it. */
	int king_only = s->p[0].status == CF_UNPLACED && nf <= 1;
	for (int i = 0; i < s->n; i++) {
		if (s->p[i].status != CF_UNPLACED || (king_only && i != 0))
			continue;
		for (int k = 0; k < nf; k++)
			add(L, CF_A_PLACE, i, fr[k], 0, 0);
	}
}

/* The actions (not racial follow-ups) of one piece: move, rise, cast. */
static void
legal_piece(const struct cf_state *st, int seat, int id, struct acts *L, int risen)
{
	const struct cf_piece *p = CP(st, seat, id);
	int t[64], n = gen_moves(st, seat, p->type, p->sq, 0, t);
	for (int i = 0; i < n; i++)
		add(L, CF_A_MOVE, p->sq, t[i], 0, 0);
	if (risen)
		return;
	if (racial_ok(st, seat, CF_DEMONS, p->sq))
		for (int sq = 0; sq < CF_NSQ; sq++)
			if (can_stand(st, p->type, sq))
				add(L, CF_A_RISE, p->sq, sq, 0, 0);
	for (int k = 0; k < CF_SPELL_MAX; k++) {
		if (!p->spells[k])
			continue;
		if (k == CF_JUDGEMENT) {
			int ts[8], tid[8];
			if (judgement_targets(st, seat, p->sq, ts, tid))
				add(L, CF_A_CAST, p->sq, k, -1, -1);
		} else if (k == CF_HEAL) {
			for (int ty = CF_ROOK; ty < CF_TYPE_MAX; ty++) {
				if (ty == CF_BISHOP || healable(st, seat, ty) < 0)
					continue;
				for (int sq = 0; sq < CF_NSQ; sq++)
					if (cf_in_area(st, seat, sq) && can_stand(st, ty, sq))
						add(L, CF_A_CAST, p->sq, k, sq, ty);
			}
		} else {
			for (int sq = 0; sq < CF_NSQ; sq++)
				if (spell_target_ok(st, seat, p->sq, k, sq))
					add(L, CF_A_CAST, p->sq, k, sq, -1);
		}
	}
}

static int
queen_on(const struct cf_state *st, int seat)
{
	for (int i = 0; i < st->s[seat].n; i++)
		if (st->s[seat].p[i].type == CF_QUEEN && st->s[seat].p[i].status == CF_ON)
			return 1;
	return 0;
}

/* Kings never enter Rough, whatever moves them (X, R9). */
static int
swap_ok(const struct cf_state *st, const struct cf_piece *a, const struct cf_piece *b)
{
	return !(a->type == CF_KING && st->terrain[b->sq] == CF_ROUGH) &&
	       !(b->type == CF_KING && st->terrain[a->sq] == CF_ROUGH);
}

/* The active seat's choices in its turn. *real counts actions proper
 * (moves, rises, casts); the rest are optional (Leadership, Swift
 * Movement, Battle Fury, ending the turn). */
static void
legal_turn(const struct cf_state *st, int seat, struct acts *L, int *real)
{
	const struct cf_seat *s = &st->s[seat];
	int n0 = L->n;
	if (st->risen >= 0) {
		legal_piece(st, seat, st->risen, L, 1);
		add(L, CF_A_STAY, 0, 0, 0, 0);
		*real = 1;
		return;
	}
	if (st->nacts < 2)
		for (int i = 0; i < s->n; i++)
			if (s->p[i].status == CF_ON && !(st->used & (1u << i)))
				legal_piece(st, seat, i, L, 0);
	*real = L->n - n0;
	if (st->swift >= 0) {
		const struct cf_piece *p = CP(st, seat, st->swift);
		int t[64], n = gen_moves(st, seat, p->type, p->sq, 0, t);
		for (int i = 0; i < n; i++)
			add(L, CF_A_SWIFT, p->sq, t[i], 0, 0);
	}
	if (st->fury)
		for (int i = 0; i < s->n; i++) {
			const struct cf_piece *p = &s->p[i];
			if (p->status != CF_ON || (st->fury_excl & (1u << i)) ||
			    st->terrain[p->sq] == CF_COUNTERSPELL)
				continue;
			int t[64], n = gen_moves(st, seat, p->type, p->sq, 1, t);
			for (int k = 0; k < n; k++)
				add(L, CF_A_FURY, p->sq, t[k], 0, 0);
		}
	if (!st->leadership_used && queen_on(st, seat))
		for (int i = 0; i < s->n; i++)
			for (int j = 0; j < s->n; j++)
				if (i != j && s->p[i].status == CF_ON && s->p[j].status == CF_ON &&
				    swap_ok(st, &s->p[i], &s->p[j]))
					add(L, CF_A_LEADERSHIP, s->p[i].sq, s->p[j].sq, 0, 0);
	if (*real == 0 && L->n > n0)
		add(L, CF_A_END_TURN, 0, 0, 0, 0);
}

/* -------------------------------------------------- battle arithmetic */

struct side_mods {
	int base, wm, htl, enh, treasure;
};

static void
battle_mods(const struct cf_state *st, const struct cf_battle *b, int htl, struct side_mods *a,
            struct side_mods *d)
{
	const struct cf_piece *pa = CP(st, b->a_seat, b->a_id), *pd = CP(st, b->d_seat, b->d_id);
	memset(a, 0, sizeof(*a));
	memset(d, 0, sizeof(*d));
	/* R6 order: Weapon Mastery, Hold the Line, Enhancement, Treasure. */
	if (b->spell >= 0) {
		a->base = cf_spell_combat[b->spell];
	} else {
		a->base = cf_combat[pa->type];
		a->wm = pa->type == CF_KNIGHT ? 2 : 0;
		a->enh = st->terrain[b->from] == CF_ENHANCEMENT;
		d->htl = htl ? 2 : 0;
		d->enh = st->terrain[b->at] == CF_ENHANCEMENT;
	}
	d->base = cf_combat[pd->type];
	a->treasure = pa->treasure;
	d->treasure = pd->treasure;
}

static int
mods_total(const struct side_mods *m)
{
	return m->base + m->wm + m->htl + m->enh + m->treasure;
}

/* The outcome for the attacker (1 win, 0 draw, -1 loss) of the given
 * dice, R6 steps after Luck: Intimidation, then Strength (*strength set
 * to the side whose Rook absorbs the defeat: 1 attacker, 2 defender). */
static int
battle_outcome(const struct cf_state *st, const struct cf_battle *b, int htl, int ad, int dd,
               int *strength)
{
	struct side_mods ma, md;
	const struct cf_piece *pa = CP(st, b->a_seat, b->a_id), *pd = CP(st, b->d_seat, b->d_id);
	battle_mods(st, b, htl, &ma, &md);
	int ta = ad + mods_total(&ma), td = dd + mods_total(&md);
	int o = (ta > td) - (ta < td);
	*strength = 0;
	if (b->spell < 0 && pa->type == CF_QUEEN) {
		if (o == 0)
			o = 1;          /* VI Intimidation */
		if (pd->type == CF_QUEEN)
			o = 1;          /* VI: two Queens, the mover wins */
	}
	if (o == 1 && pd->type == CF_ROOK && pd->strength > 0) {
		o = 0;
		*strength = 2;
	} else if (o == -1 && pa->type == CF_ROOK && pa->strength > 0 && b->spell < 0) {
		o = 0;
		*strength = 1;
	}
	return o;
}

/* Whether Hold the Line can change anything (G3: no question whose
 * answer cannot matter). */
static int
htl_matters(const struct cf_state *st, const struct cf_battle *b)
{
	int s1, s2;
	for (int x = 1; x <= 6; x++)
		for (int y = 1; y <= 6; y++)
			if (battle_outcome(st, b, 0, x, y, &s1) != battle_outcome(st, b, 1, x, y, &s2))
				return 1;
	return 0;
}

static int
htl_possible(const struct cf_state *st, const struct cf_battle *b)
{
	return b->spell < 0 && racial_ok(st, b->d_seat, CF_DWARVES, b->at) && htl_matters(st, b);
}

/* Luck (IX Humans) for side 'a' or 'd': the piece is the mover (never on
 * its square: X), a caster on its square, or the defender on `at`. */
static int
luck_possible(const struct cf_state *st, const struct cf_battle *b, int att)
{
	int seat = att ? b->a_seat : b->d_seat, s;
	int sq = att ? (b->spell >= 0 ? CP(st, b->a_seat, b->a_id)->sq : -1) : b->at;
	if (!racial_ok(st, seat, CF_HUMANS, sq))
		return 0;
	int cur = battle_outcome(st, b, b->htl, b->a_die, b->d_die, &s);
	for (int f = 1; f <= 6; f++) {
		int ad = att && f > b->a_die ? f : b->a_die, dd = !att && f > b->d_die ? f : b->d_die;
		if (battle_outcome(st, b, b->htl, ad, dd, &s) != cur)
			return 1;
	}
	return 0;
}

static int
luck_order_says(const struct cf_state *st, const struct cf_battle *b, int att)
{
	int seat = att ? b->a_seat : b->d_seat, s;
	int o = battle_outcome(st, b, b->htl, b->a_die, b->d_die, &s);
	int mine = att ? o : -o;
	switch (st->s[seat].o_luck) {
	case CF_LUCK_ALWAYS: return 1;
	case CF_LUCK_NEVER: return 0;
	case CF_LUCK_IF_LOSING: return mine < 0;
	case CF_LUCK_UNLESS_WINNING: return mine <= 0;
	default: return -1;
	}
}

static int
live_squares(const struct cf_state *st, int seat, int id, int *out)
{
	int n = 0;
	for (int sq = 0; sq < CF_NSQ; sq++)
		if (on_near_line(seat, sq) && can_stand(st, CP(st, seat, id)->type, sq))
			out[n++] = sq;
	return n;
}

static int
live_possible(const struct cf_state *st, const struct cf_battle *b)
{
	int seat = b->loser_seat, id = b->loser_id, tmp[64];
	const struct cf_piece *p = CP(st, seat, id);
	int attacker_moving = b->spell < 0 && seat == b->a_seat && id == b->a_id;
	if (p->type != CF_PAWN && p->type != CF_ROOK && p->type != CF_KNIGHT)
		return 0;
	if (!racial_ok(st, seat, CF_UNDEAD, attacker_moving ? -1 : p->sq))
		return 0;
	return live_squares(st, seat, id, tmp) > 0 && st->s[seat].o_live != CF_NEVER;
}

/* ------------------------------------------------------------ events */

static json_object *
ev_piece(const struct cf_state *st, const char *type, int seat, int id)
{
	json_object *e = cf_ev(type);
	json_object_object_add(e, "piece", cf_piece_ref(st, seat, id));
	return e;
}

static json_object *
side_json(const struct side_mods *m, int die, int first_die)
{
	json_object *o = json_object_new_object(), *mods = json_object_new_array();
	cf_ev_int(o, "die", die);
	if (first_die)
		cf_ev_int(o, "die_before_luck", first_die);
	cf_ev_int(o, "combat", m->base);
	static const char *names[] = {"weapon_mastery", "hold_the_line", "enhancement", "treasure"};
	int vals[] = {m->wm, m->htl, m->enh, m->treasure};
	for (int i = 0; i < 4; i++)
		if (vals[i]) {
			json_object *x = json_object_new_object();
			cf_ev_str(x, "name", names[i]);
			cf_ev_int(x, "value", vals[i]);
			json_object_array_add(mods, x);
		}
	json_object_object_add(o, "modifiers", mods);
	cf_ev_int(o, "total", die + mods_total(m));
	return o;
}

/* ---------------------------------------------------------- the end */

static void
game_over(struct cf_state *st, unsigned winners, const char *reason, struct wr_events *ev)
{
	json_object *e = cf_ev("game_over"), *w = json_object_new_array();
	st->phase = CF_OVER;
	st->winners = winners;
	snprintf(st->reason, sizeof(st->reason), "%s", reason);
	for (int s = 0; s < st->nseats; s++)
		if (winners & (1u << s))
			json_object_array_add(w, json_object_new_int(s));
	json_object_object_add(e, "winners", w);
	cf_ev_str(e, "reason", reason);
	wr_emit(ev, WR_VIS_PUBLIC, e);
}

/* A seat leaves: R10. With two seats the other wins and the board stays;
 * with more, its pieces leave the board. */
static void
seat_out(struct cf_state *st, int seat, const char *reason, struct wr_events *ev)
{
	json_object *e = cf_ev("seat_out");
	st->s[seat].out = 1;
	cf_ev_int(e, "seat", seat);
	cf_ev_str(e, "reason", reason);
	wr_emit(ev, WR_VIS_PUBLIC, e);
	if (st->nseats > 2 && st->phase != CF_BUILD)
		for (int i = 0; i < st->s[seat].n; i++)
			if (st->s[seat].p[i].status == CF_ON || st->s[seat].p[i].status == CF_UNPLACED)
				take(st, seat, i, CF_GONE);
	if (alive_count(st) == 1) {
		for (int s = 0; s < st->nseats; s++)
			if (!st->s[s].out) {
				char why[96];
				snprintf(why, sizeof(why), "%s", reason);
				game_over(st, 1u << s, why, ev);
			}
	}
}

/* V, R10: a seat whose King is gone, or whose King stands alone, is out. */
static void
check_out(struct cf_state *st, struct wr_events *ev)
{
	for (int s = 0; s < st->nseats && st->phase == CF_PLAY; s++) {
		const struct cf_seat *x = &st->s[s];
		int others = 0;
		if (x->out)
			continue;
		if (x->p[0].status != CF_ON) {
			seat_out(st, s, "king defeated", ev);
			continue;
		}
		for (int i = 1; i < x->n; i++)
			others += x->p[i].status == CF_ON;
		if (!others)
			seat_out(st, s, "only the king remains", ev);
	}
}

/* ------------------------------------------------------------ battles */

static void
start_battle(struct cf_state *st, int as, int ai, int ds, int di, int from, int at, int spell,
             struct wr_events *ev)
{
	struct cf_battle *b = &st->r.b;
	memset(b, 0, sizeof(*b));
	b->stage = CF_ST_HTL;
	b->a_seat = as, b->a_id = ai, b->d_seat = ds, b->d_id = di;
	b->from = from, b->at = at, b->spell = spell;
	b->loser_seat = b->loser_id = -1;
	st->r.in_battle = 1;
	json_object *e = cf_ev("battle");
	json_object_object_add(e, "attacker", cf_piece_ref(st, as, ai));
	json_object_object_add(e, "defender", cf_piece_ref(st, ds, di));
	cf_ev_sq(e, "from", from);
	cf_ev_sq(e, "at", at);
	if (spell >= 0)
		cf_ev_str(e, "spell", cf_spell_name[spell]);
	wr_emit(ev, WR_VIS_PUBLIC, e);
}

static void
treasure_roll(struct cf_state *st, int seat, int id, int loser_type, struct wr_rng *rng,
              struct wr_events *ev)
{
	/* XI: defeating a Knight, Bishop or Queen; a 6 finds a treasure. */
	if (!st->o.treasure || CP(st, seat, id)->status != CF_ON)
		return;
	if (loser_type != CF_KNIGHT && loser_type != CF_BISHOP && loser_type != CF_QUEEN)
		return;
	int die = (int)wr_die(rng, 6);
	json_object *e = ev_piece(st, "treasure_roll", seat, id);
	cf_ev_int(e, "die", die);
	json_object_object_add(e, "found", json_object_new_boolean(die == 6));
	wr_emit(ev, WR_VIS_PUBLIC, e);
	if (die == 6)
		P(st, seat, id)->treasure++;
}

/* The loser of a battle leaves (or lives again); then a winning mover
 * takes the contested square. */
static void
battle_finish_loser(struct cf_state *st, int live_sq, struct wr_events *ev)
{
	struct cf_battle *b = &st->r.b;
	int seat = b->loser_seat, id = b->loser_id;
	if (seat >= 0 && P(st, seat, id)->status == CF_ON) {
		if (live_sq >= 0) {
			json_object *e = ev_piece(st, "live_again", seat, id);
			cf_ev_sq(e, "from", P(st, seat, id)->sq);
			cf_ev_sq(e, "to", live_sq);
			st->s[seat].racial--;
			put(st, seat, id, live_sq);
			wr_emit(ev, WR_VIS_PUBLIC, e);
		} else {
			json_object *e = ev_piece(st, "removed", seat, id);
			cf_ev_sq(e, "square", P(st, seat, id)->sq);
			take(st, seat, id, CF_REMOVED);
			wr_emit(ev, WR_VIS_PUBLIC, e);
		}
	}
	if (b->outcome == 1 && b->spell < 0 && P(st, b->a_seat, b->a_id)->status == CF_ON &&
	    st->board[b->at] < 0) {
		put(st, b->a_seat, b->a_id, b->at);
		json_object *e = ev_piece(st, "advance", b->a_seat, b->a_id);
		cf_ev_sq(e, "to", b->at);
		wr_emit(ev, WR_VIS_PUBLIC, e);
	}
	if (b->outcome == 1 && b->a_seat == st->r.seat && b->a_id == st->r.id)
		st->r.won = 1;
	st->r.in_battle = 0;
	b->stage = CF_ST_NONE;
	check_out(st, ev);
}

static void
do_luck(struct cf_state *st, int att, struct wr_rng *rng, struct wr_events *ev)
{
	struct cf_battle *b = &st->r.b;
	int seat = att ? b->a_seat : b->d_seat, id = att ? b->a_id : b->d_id;
	int die = (int)wr_die(rng, 6), *keep = att ? &b->a_die : &b->d_die;
	json_object *e = ev_piece(st, "luck", seat, id);
	st->s[seat].racial--;
	cf_ev_int(e, "die_before", *keep);
	cf_ev_int(e, "reroll", die);
	if (die > *keep)
		*keep = die;
	cf_ev_int(e, "kept", *keep);
	if (att)
		b->a_luck = 1;
	else
		b->d_luck = 1;
	wr_emit(ev, WR_VIS_PUBLIC, e);
}

static int
battle_step(struct cf_state *st, struct wr_rng *rng, struct wr_events *ev)
{
	struct cf_battle *b = &st->r.b;
	int s;
	if (!rng)
		return WAIT; /* settle() without dice: never reached */
	for (;;) {
		switch (b->stage) {
		case CF_ST_HTL:
			if (htl_possible(st, b)) {
				int o = st->s[b->d_seat].o_htl;
				if (o == CF_ASK)
					return WAIT;
				if (o == CF_ALWAYS) {
					b->htl = 1;
					st->s[b->d_seat].racial--;
					wr_emit(ev, WR_VIS_PUBLIC,
					        ev_piece(st, "hold_the_line", b->d_seat, b->d_id));
				}
			}
			b->stage = CF_ST_ROLL;
			break;
		case CF_ST_ROLL:
			b->a_die = (int)wr_die(rng, 6);
			b->d_die = (int)wr_die(rng, 6);
			{
				json_object *e = cf_ev("dice");
				cf_ev_int(e, "attacker", b->a_die);
				cf_ev_int(e, "defender", b->d_die);
				wr_emit(ev, WR_VIS_PUBLIC, e);
			}
			b->stage = CF_ST_LUCK_A;
			break;
		case CF_ST_LUCK_A:
		case CF_ST_LUCK_D: {
			int att = b->stage == CF_ST_LUCK_A;
			if (luck_possible(st, b, att)) {
				int says = luck_order_says(st, b, att);
				if (says < 0)
					return WAIT;
				if (says)
					do_luck(st, att, rng, ev);
			}
			b->stage = att ? CF_ST_LUCK_D : CF_ST_RESOLVE;
			break;
		}
		case CF_ST_RESOLVE: {
			struct side_mods ma, md;
			battle_mods(st, b, b->htl, &ma, &md);
			b->outcome = battle_outcome(st, b, b->htl, b->a_die, b->d_die, &s);
			json_object *e = cf_ev("battle_result");
			json_object_object_add(e, "attacker", side_json(&ma, b->a_die, 0));
			json_object_object_add(e, "defender", side_json(&md, b->d_die, 0));
			{
				struct cf_piece *pa = P(st, b->a_seat, b->a_id),
				                *pd = P(st, b->d_seat, b->d_id);
				int ta = b->a_die + mods_total(&ma), td = b->d_die + mods_total(&md);
				int raw = (ta > td) - (ta < td);
				if (b->spell < 0 && pa->type == CF_QUEEN && pd->type == CF_QUEEN)
					cf_ev_str(e, "intimidation", "two queens: the mover wins");
				else if (b->spell < 0 && pa->type == CF_QUEEN && raw == 0)
					cf_ev_str(e, "intimidation", "draw turned into a win");
				if (s) {
					struct cf_piece *r = s == 1 ? pa : pd;
					r->strength--;
					cf_ev_str(e, "strength", s == 1 ? "attacker" : "defender");
				}
			}
			cf_ev_str(e, "outcome", b->outcome == 1 ? "attacker wins"
			                        : b->outcome == 0 ? "draw" : "defender wins");
			if (b->outcome == 0 && b->spell < 0)
				cf_ev_str(e, "returns", "the mover stays on the square it moved from");
			if (b->outcome == 0 && b->spell >= 0)
				cf_ev_str(e, "effect", "none");
			wr_emit(ev, WR_VIS_PUBLIC, e);
			if (b->outcome == 1) {
				b->loser_seat = b->d_seat, b->loser_id = b->d_id;
				treasure_roll(st, b->a_seat, b->a_id, P(st, b->d_seat, b->d_id)->type,
				              rng, ev);
			} else if (b->outcome == -1 && b->spell < 0) {
				b->loser_seat = b->a_seat, b->loser_id = b->a_id;
				treasure_roll(st, b->d_seat, b->d_id, P(st, b->a_seat, b->a_id)->type,
				              rng, ev);
			} else if (b->outcome == -1) {
				b->outcome = 0; /* R7: a spell that fails has no effect */
			}
			if (b->loser_seat < 0) {
				battle_finish_loser(st, -1, ev);
				return 0;
			}
			b->stage = CF_ST_LIVE;
			break;
		}
		case CF_ST_LIVE:
			if (live_possible(st, b)) {
				int sq[64], n = live_squares(st, b->loser_seat, b->loser_id, sq);
				if (st->s[b->loser_seat].o_live == CF_ALWAYS && n == 1) {
					battle_finish_loser(st, sq[0], ev);
					return 0;
				}
				return WAIT;
			}
			battle_finish_loser(st, -1, ev);
			return 0;
		default:
			st->r.in_battle = 0;
			return 0;
		}
	}
}

/* -------------------------------------------------------- resolution */

static int
any_fury(const struct cf_state *st, int seat)
{
	const struct cf_seat *s = &st->s[seat];
	for (int i = 0; i < s->n; i++) {
		const struct cf_piece *p = &s->p[i];
		int t[64];
		if (p->status == CF_ON && !(st->fury_excl & (1u << i)) &&
		    st->terrain[p->sq] != CF_COUNTERSPELL &&
		    gen_moves(st, seat, p->type, p->sq, 1, t) > 0)
			return 1;
	}
	return 0;
}

static void
finish_res(struct cf_state *st)
{
	struct cf_res r = st->r;
	memset(&st->r, 0, sizeof(st->r));
	st->r.panic_seat = st->r.panic_id = -1;
	if (st->phase != CF_PLAY || st->s[r.seat].out || r.seat != st->active)
		return;
	const struct cf_piece *p = CP(st, r.seat, r.id);
	if (r.src == CF_SRC_ACTION) {
		st->nacts++;
		st->used |= 1u << r.id;
		/* IX Elves: the piece that just moved may move again at once. */
		if (r.moved && p->status == CF_ON && racial_ok(st, r.seat, CF_ELVES, p->sq)) {
			int t[64];
			if (gen_moves(st, r.seat, p->type, p->sq, 0, t))
				st->swift = r.id;
		}
		/* IX Orcs, R8: after a won battle, two moves by other Orcs. */
		if (r.won && racial_ok(st, r.seat, CF_ORCS, -1)) {
			st->fury = 1;
			st->fury_excl = 1u << r.id;
			if (!any_fury(st, r.seat))
				st->fury = 0;
		}
	} else if (r.src == CF_SRC_FURY) {
		st->fury_excl |= 1u << r.id;
		st->fury = st->fury == 1 ? 2 : 0;
		if (st->fury && !any_fury(st, r.seat))
			st->fury = 0;
	}
}

/* Runs the resolution in progress until it ends or waits. */
static int
run_res(struct cf_state *st, struct wr_rng *rng, struct wr_events *ev)
{
	while (st->r.kind != CF_RES_NONE && st->phase == CF_PLAY) {
		if (st->r.in_battle) {
			if (battle_step(st, rng, ev) == WAIT)
				return WAIT;
			continue;
		}
		if (st->r.panic_seat >= 0) {
			int sq[64], ps = st->r.panic_seat, pid = st->r.panic_id;
			const struct cf_piece *p = CP(st, ps, pid);
			int n = p->status == CF_ON ? panic_squares(st, ps, p->type, sq) : 0;
			if (n > 1)
				return WAIT;
			if (n == 1) {
				json_object *e = ev_piece(st, "panic_moved", ps, pid);
				cf_ev_sq(e, "from", p->sq);
				cf_ev_sq(e, "to", sq[0]);
				put(st, ps, pid, sq[0]);
				wr_emit(ev, WR_VIS_PUBLIC, e);
			}
			st->r.panic_seat = st->r.panic_id = -1;
			continue;
		}
		if (st->r.kind == CF_RES_SPELL && st->r.ti < st->r.nt) {
			int i = st->r.ti++, ts = st->r.tseat[i], tid = st->r.tid[i];
			const struct cf_piece *c = CP(st, st->r.seat, st->r.id);
			const struct cf_piece *t = CP(st, ts, tid);
			if (c->status != CF_ON || t->status != CF_ON || st->s[ts].out)
				continue;
			start_battle(st, st->r.seat, st->r.id, ts, tid, c->sq, t->sq, st->r.spell, ev);
			continue;
		}
		finish_res(st);
	}
	return 0;
}

/* ---------------------------------------------------------- the turn */

static void
start_turn(struct cf_state *st, int seat, struct wr_events *ev)
{
	st->active = seat;
	st->turn++;
	st->nacts = 0;
	st->used = 0;
	st->leadership_used = 0;
	st->risen = st->swift = -1;
	st->fury = 0;
	st->fury_excl = 0;
	json_object *e = cf_ev("turn");
	cf_ev_int(e, "turn", st->turn);
	cf_ev_int(e, "seat", seat);
	wr_emit(ev, WR_VIS_PUBLIC, e);
}

static void
next_turn(struct cf_state *st, struct wr_events *ev)
{
	int k = 0;
	while (k < st->norder && st->order[k] != st->active)
		k++;
	for (int step = 1; step <= st->norder; step++) {
		int s = st->order[(k + step) % st->norder];
		if (!st->s[s].out) {
			start_turn(st, s, ev);
			return;
		}
	}
}


/* R2: every seat rolls; seats with the same rolls so far roll again
 * until every seat's sequence differs. After eight rounds of ties (odds
 * about one in a million) the lower seat number ranks first. */
static void
roll_off(struct cf_state *st, struct wr_rng *rng, struct wr_events *ev)
{
	int again = 1, round = 0;
	json_object *e;
	for (int s = 0; s < st->nseats; s++)
		st->s[s].nrolls = 0;
	while (again && round < 8) {
		int roll_now[WR_MAX_SEATS] = {0};
		for (int s = 0; s < st->nseats; s++) {
			if (st->s[s].out)
				continue;
			if (round == 0) {
				roll_now[s] = 1;
				continue;
			}
			for (int t = 0; t < st->nseats; t++)
				if (t != s && !st->s[t].out && st->s[t].nrolls == st->s[s].nrolls &&
				    memcmp(st->s[t].rolls, st->s[s].rolls,
				           sizeof(int) * (size_t)st->s[s].nrolls) == 0)
					roll_now[s] = 1;
		}
		again = 0;
		for (int s = 0; s < st->nseats; s++)
			if (roll_now[s]) {
				int d = (int)wr_die(rng, 6);
				st->s[s].rolls[st->s[s].nrolls++] = d;
				e = cf_ev("setup_roll");
				cf_ev_int(e, "seat", s);
				cf_ev_int(e, "round", round + 1);
				cf_ev_int(e, "die", d);
				wr_emit(ev, WR_VIS_PUBLIC, e);
				again = 1;
			}
		round++;
		/* Stop once no two sequences are equal. */
		int tie = 0;
		for (int s = 0; s < st->nseats; s++)
			for (int t = 0; t < s; t++)
				if (!st->s[s].out && !st->s[t].out && st->s[t].nrolls == st->s[s].nrolls &&
				    memcmp(st->s[t].rolls, st->s[s].rolls,
				           sizeof(int) * (size_t)st->s[s].nrolls) == 0)
					tie = 1;
		again = tie;
	}
}

/* Seats ordered by their set-up rolls, highest first. */
static int
rank_seats(const struct cf_state *st, int *out)
{
	int n = 0;
	for (int s = 0; s < st->nseats; s++)
		if (!st->s[s].out)
			out[n++] = s;
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0; j--) {
			const struct cf_seat *x = &st->s[out[j]], *y = &st->s[out[j - 1]];
			int k = 0, cmp = 0;
			while (!cmp && k < x->nrolls && k < y->nrolls) {
				cmp = x->rolls[k] - y->rolls[k];
				k++;
			}
			if (!cmp)
				cmp = x->nrolls - y->nrolls;
			if (cmp > 0) {
				int t = out[j];
				out[j] = out[j - 1];
				out[j - 1] = t;
			}
		}
	return n;
}

static void
reveal_armies(struct cf_state *st, struct wr_events *ev)
{
	json_object *e = cf_ev("armies_revealed"), *arr = json_object_new_array();
	for (int s = 0; s < st->nseats; s++) {
		json_object *a = json_object_new_object(), *ps = json_object_new_array();
		cf_ev_int(a, "seat", s);
		for (int i = 0; i < st->s[s].n; i++) {
			json_object *p = json_object_new_object();
			cf_ev_int(p, "id", i);
			cf_ev_str(p, "type", cf_type_name[st->s[s].p[i].type]);
			cf_ev_int(p, "spell_count", nspells(&st->s[s].p[i]));
			json_object_array_add(ps, p);
		}
		json_object_object_add(a, "pieces", ps);
		if (st->o.races) {
			cf_ev_str(a, "race", cf_race_name[st->s[s].race]);
			cf_ev_int(a, "racial_tokens", st->s[s].racial);
		}
		json_object_array_add(arr, a);
	}
	json_object_object_add(e, "armies", arr);
	wr_emit(ev, WR_VIS_PUBLIC, e);
}

/* Everything that follows without a decision. With rng NULL nothing that
 * needs dice is started (the service always passes the match's dice). */
static void
settle(struct cf_state *st, struct wr_rng *rng, struct wr_events *ev)
{
	for (int guard = 0; guard < 1000; guard++) {
		if (st->phase == CF_OVER)
			return;
		if (alive_count(st) <= 1) {
			for (int s = 0; s < st->nseats; s++)
				if (!st->s[s].out)
					game_over(st, 1u << s, "last seat standing", ev);
			if (st->phase != CF_OVER)
				game_over(st, 0, "no seat left", ev);
			return;
		}
		if (st->phase == CF_BUILD) {
			int all = 1;
			for (int s = 0; s < st->nseats; s++)
				all &= st->s[s].out || st->s[s].ready;
			if (!all || !rng)
				return;
			reveal_armies(st, ev);
			roll_off(st, rng, ev);
			int rk[WR_MAX_SEATS];
			rank_seats(st, rk);
			st->chooser = rk[0];
			st->phase = CF_ORDER;
			json_object *e = cf_ev("phase");
			cf_ev_str(e, "phase", "order");
			cf_ev_int(e, "chooser", st->chooser);
			wr_emit(ev, WR_VIS_PUBLIC, e);
			return;
		}
		if (st->phase == CF_ORDER) {
			if (st->s[st->chooser].out) {
				int rk[WR_MAX_SEATS];
				rank_seats(st, rk);
				st->chooser = rk[0];
			}
			return;
		}
		if (st->phase == CF_SETUP) {
			while (st->placer < st->norder && st->s[st->order[st->placer]].out)
				st->placer++;
			if (st->placer >= st->norder) {
				st->phase = CF_PLAY;
				json_object *e = cf_ev("phase");
				cf_ev_str(e, "phase", "play");
				wr_emit(ev, WR_VIS_PUBLIC, e);
				check_out(st, ev);
				if (st->phase != CF_PLAY)
					return;
				st->active = -1;
				for (int k = 0; k < st->norder && st->active < 0; k++)
					if (!st->s[st->order[k]].out)
						start_turn(st, st->order[k], ev);
				continue;
			}
			int seat = st->order[st->placer], left = 0;
			struct cf_act buf[1];
			struct acts L = {buf, 0, 1};
			for (int i = 0; i < st->s[seat].n; i++)
				left += st->s[seat].p[i].status == CF_UNPLACED;
			legal_setup(st, seat, &L);
			if (left && L.n)
				return;
			/* Our ruling: what finds no square in the area is set aside,
			 * as removed from the game (Heal may bring it back). */
			for (int i = 0; i < st->s[seat].n; i++)
				if (st->s[seat].p[i].status == CF_UNPLACED) {
					take(st, seat, i, CF_REMOVED);
					wr_emit(ev, WR_VIS_PUBLIC, ev_piece(st, "no_room", seat, i));
				}
			st->placer++;
			continue;
		}
		/* CF_PLAY */
		if (st->r.kind != CF_RES_NONE) {
			if (!rng && st->r.in_battle && st->r.b.stage == CF_ST_ROLL)
				return;
			if (run_res(st, rng, ev) == WAIT)
				return;
			continue;
		}
		if (st->phase != CF_PLAY)
			return;
		if (st->active < 0 || st->s[st->active].out) {
			next_turn(st, ev);
			continue;
		}
		struct cf_act buf[1];
		struct acts L = {buf, 0, 1};
		int real = 0;
		legal_turn(st, st->active, &L, &real);
		if (L.n)
			return;
		/* G6: nothing to do, the turn ends by itself. */
		if (st->nacts == 0 && !st->leadership_used)
			st->idle++;
		else
			st->idle = 0;
		json_object *e = cf_ev("turn_end");
		cf_ev_int(e, "seat", st->active);
		wr_emit(ev, WR_VIS_PUBLIC, e);
		if (st->idle >= alive_count(st)) {
			game_over(st, 0, "no seat can act", ev);
			return;
		}
		next_turn(st, ev);
	}
}

/* ------------------------------------------------------------ awaited */

unsigned
cf_awaited(const struct cf_state *st)
{
	unsigned m = 0;
	switch (st->phase) {
	case CF_BUILD: {
		int all = 1;
		for (int s = 0; s < st->nseats; s++) {
			if (!st->s[s].out && !st->s[s].ready)
				m |= 1u << s;
			all &= st->s[s].out || st->s[s].ready;
		}
		if (all)  /* only a state settled without dice: someone calls the roll */
			for (int s = st->nseats - 1; s >= 0; s--)
				if (!st->s[s].out)
					m = 1u << s;
		return m;
	}
	case CF_ORDER:
		return st->chooser >= 0 ? 1u << st->chooser : 0;
	case CF_SETUP:
		return st->placer < st->norder ? 1u << st->order[st->placer] : 0;
	case CF_PLAY:
		if (st->r.kind != CF_RES_NONE) {
			const struct cf_battle *b = &st->r.b;
			if (st->r.in_battle) {
				switch (b->stage) {
				case CF_ST_HTL: return 1u << b->d_seat;
				case CF_ST_LUCK_A: return 1u << b->a_seat;
				case CF_ST_LUCK_D: return 1u << b->d_seat;
				case CF_ST_LIVE: return 1u << b->loser_seat;
				default: return 0;
				}
			}
			if (st->r.panic_seat >= 0)
				return 1u << st->r.panic_seat;
			return 0;
		}
		return st->active >= 0 ? 1u << st->active : 0;
	default:
		return 0;
	}
}

const char *
cf_pending_kind(const struct cf_state *st, int seat)
{
	if (!(cf_awaited(st) & (1u << seat)))
		return NULL;
	switch (st->phase) {
	case CF_BUILD: return st->s[seat].ready ? "roll_off" : "build";
	case CF_ORDER: return "order";
	case CF_SETUP: return "place";
	default: break;
	}
	if (st->r.kind != CF_RES_NONE && st->r.in_battle) {
		int stg = st->r.b.stage;
		return stg == CF_ST_LUCK_A || stg == CF_ST_LUCK_D ? "luck" : cf_stage_name[stg];
	}
	if (st->r.kind != CF_RES_NONE)
		return "panic_square";
	return st->risen >= 0 ? "rise_move" : "turn";
}

/* ------------------------------------------------------- legal list */

int
cf_legal(const struct cf_state *st, int seat, struct cf_act *out, int max)
{
	struct acts L = {out, 0, max};
	if (seat < 0 || seat >= st->nseats || !(cf_awaited(st) & (1u << seat)))
		return 0;
	switch (st->phase) {
	case CF_BUILD:
		if (st->s[seat].ready)
			add(&L, CF_A_READY, 0, 0, 0, 0); /* the roll-off call */
		else
			legal_build(st, seat, &L);
		break;
	case CF_ORDER:
		add(&L, CF_A_ORDER, 0, 0, 0, 0);
		add(&L, CF_A_ORDER, st->nseats == 2 ? 1 : 2, 0, 0, 0);
		break;
	case CF_SETUP:
		legal_setup(st, seat, &L);
		break;
	case CF_PLAY:
		if (st->r.kind != CF_RES_NONE) {
			const struct cf_battle *b = &st->r.b;
			if (st->r.in_battle && b->stage == CF_ST_HTL) {
				add(&L, CF_A_HTL, 1, 0, 0, 0);
				add(&L, CF_A_HTL, 0, 0, 0, 0);
			} else if (st->r.in_battle &&
			           (b->stage == CF_ST_LUCK_A || b->stage == CF_ST_LUCK_D)) {
				add(&L, CF_A_LUCK, 1, 0, 0, 0);
				add(&L, CF_A_LUCK, 0, 0, 0, 0);
			} else if (st->r.in_battle && b->stage == CF_ST_LIVE) {
				int sq[64], n = live_squares(st, b->loser_seat, b->loser_id, sq);
				for (int i = 0; i < n; i++)
					add(&L, CF_A_LIVE, 1, sq[i], 0, 0);
				if (st->s[b->loser_seat].o_live != CF_ALWAYS)
					add(&L, CF_A_LIVE, 0, -1, 0, 0);
			} else if (st->r.panic_seat >= 0) {
				const struct cf_piece *p = CP(st, st->r.panic_seat, st->r.panic_id);
				int sq[64], n = panic_squares(st, st->r.panic_seat, p->type, sq);
				for (int i = 0; i < n; i++)
					add(&L, CF_A_PANIC_SQ, sq[i], 0, 0, 0);
			}
		} else {
			int real;
			legal_turn(st, seat, &L, &real);
		}
		break;
	default:
		break;
	}
	return L.n < max ? L.n : max;
}

/* --------------------------------------------------------- diagnosis */

static const char *
sqn(int sq, char buf[8])
{
	return wr_square_name(B8, sq, buf);
}

/* Why an action is not in the legal list: a specific code and message.
 * Only what the seat may see is used (G5). */
static int
diagnose(const struct cf_state *st, int seat, const struct cf_act *a, struct wr_error *err)
{
	char b1[8], b2[8];
	const struct cf_seat *me = &st->s[seat];
	static const int phase_of[CF_A_MAX] = {
		CF_BUILD, CF_BUILD, CF_BUILD, CF_BUILD, CF_BUILD, CF_BUILD, CF_BUILD, CF_ORDER,
		CF_SETUP, CF_PLAY, CF_PLAY, CF_PLAY, CF_PLAY, CF_PLAY, CF_PLAY, CF_PLAY, CF_PLAY,
		CF_PLAY, CF_PLAY, CF_PLAY, CF_PLAY};
	if (st->phase == CF_OVER)
		return wr_fail(err, "game-over", "", "the match is over");
	if (!(cf_awaited(st) & (1u << seat)))
		return wr_fail(err, "not-awaited", "", "seat %d is not awaited now", seat);
	if (phase_of[a->kind] != st->phase)
		return wr_fail(err, "wrong-phase", "type", "\"%s\" is not an action of the %s phase",
		               cf_act_name[a->kind], cf_phase_name[st->phase]);
	const char *pk = cf_pending_kind(st, seat);
	int deciding = st->phase == CF_PLAY && st->r.kind != CF_RES_NONE;
	int is_decision = a->kind >= CF_A_HTL;
	if (deciding && (!is_decision || strcmp(pk, cf_act_name[a->kind]) != 0))
		return wr_fail(err, "decision-pending", "type", "a decision is awaited: %s", pk);
	if (!deciding && is_decision)
		return wr_fail(err, "no-such-decision", "type", "no %s decision is awaited",
		               cf_act_name[a->kind]);
	switch (a->kind) {
	case CF_A_BUY:
		if (me->ready)
			return wr_fail(err, "army-ready", "", "the army is already final");
		if (a->a == CF_KING)
			return wr_fail(err, "one-king", "piece",
			               "each army has exactly one King (VI. The Pieces, King)");
		if (me->n >= CF_MAX_PIECES)
			return wr_fail(err, "too-many-pieces", "piece",
			               "an army has at most %d pieces (RULINGS.md R1)", CF_MAX_PIECES);
		if (me->points < cf_cost[a->a])
			return wr_fail(err, "over-budget", "piece",
			               "a %s costs %d points, %d left: %d over", cf_type_name[a->a],
			               cf_cost[a->a], me->points, cf_cost[a->a] - me->points);
		break;
	case CF_A_ADD_SPELL:
		if (a->a >= me->n || me->p[a->a].type != CF_BISHOP)
			return wr_fail(err, "not-a-bishop", "piece", "piece %d is not a Bishop of this army",
			               a->a);
		if (me->points < 1)
			return wr_fail(err, "over-budget", "spell",
			               "an extra spell costs 1 point, 0 left: 1 over");
		break;
	case CF_A_RACE:
		if (!st->o.races)
			return wr_fail(err, "races-off", "race", "races are not enabled in this match");
		if (me->race != CF_NORACE)
			return wr_fail(err, "race-chosen", "race",
			               "the race is already chosen (reset to change it)");
		break;
	case CF_A_BUY_RACIAL:
		if (!st->o.races)
			return wr_fail(err, "races-off", "", "races are not enabled in this match");
		return wr_fail(err, "over-budget", "", "a racial use costs 1 point, 0 left: 1 over");
	case CF_A_KING_SPELL:
		if (!st->o.kings_magic)
			return wr_fail(err, "kings-magic-off", "spell",
			               "King's Magic is not enabled in this match");
		if (nspells(&me->p[0]))
			return wr_fail(err, "king-has-spell", "spell",
			               "a King can only have one spell (XII. King's Magic)");
		return wr_fail(err, "over-budget", "spell", "King's Magic costs 2 points, %d left: %d over",
		               me->points, 2 - me->points);
	case CF_A_READY:
		for (int i = 0; i < me->n; i++)
			if (me->p[i].type == CF_BISHOP && nspells(&me->p[i]) < 2)
				return wr_fail(err, "bishop-needs-spells", "",
				               "Bishop %d has %d spell(s); each Bishop needs two", i,
				               nspells(&me->p[i]));
		return wr_fail(err, "race-needed", "race", "choose a race first");
	case CF_A_PLACE:
		if (a->a >= me->n || me->p[a->a].status != CF_UNPLACED)
			return wr_fail(err, "not-unplaced", "piece", "piece %d is not waiting to be placed",
			               a->a);
		if (!cf_in_area(st, seat, a->b))
			return wr_fail(err, "not-in-area", "square",
			               "%s is not in this seat's two nearest ranks", sqn(a->b, b1));
		if (st->board[a->b] >= 0)
			return wr_fail(err, "occupied", "square", "%s is occupied", sqn(a->b, b1));
		if (st->terrain[a->b] == CF_BARRIER)
			return wr_fail(err, "barrier", "square", "%s is a Barrier square", sqn(a->b, b1));
		return wr_fail(err, "king-first", "piece",
		               "the last free square of the area is the King's");
	case CF_A_MOVE:
	case CF_A_RISE:
	case CF_A_CAST:
	case CF_A_SWIFT:
	case CF_A_FURY:
	case CF_A_LEADERSHIP: {
		int s, id;
		s = id = 0;
		if (!cf_piece_on(st, a->a, &s, &id))
			return wr_fail(err, "no-piece", "from", "there is no piece on %s", sqn(a->a, b1));
		if (s != seat)
			return wr_fail(err, "not-your-piece", "from", "the piece on %s is not yours",
			               sqn(a->a, b1));
		const struct cf_piece *p = CP(st, s, id);
		if (a->kind == CF_A_LEADERSHIP) {
			int s2, id2;
			if (st->risen >= 0)
				return wr_fail(err, "finish-rise", "", "the risen piece must move or stay first");
			if (st->leadership_used)
				return wr_fail(err, "leadership-used", "",
				               "Leadership is used at most once a turn (RULINGS.md R4)");
			if (!queen_on(st, seat))
				return wr_fail(err, "no-queen", "", "Leadership needs a Queen on the board");
			if (!cf_piece_on(st, a->b, &s2, &id2) || s2 != seat)
				return wr_fail(err, "not-your-piece", "b", "the piece on %s is not yours",
				               sqn(a->b, b2));
			if (a->a == a->b)
				return wr_fail(err, "same-piece", "b", "two different pieces swap");
			return wr_fail(err, "rough-king", "b", "a King cannot enter Rough terrain");
		}
		if (a->kind == CF_A_SWIFT) {
			if (st->swift != id)
				return wr_fail(err, "no-swift", "from",
				               "Swift Movement is only for the piece that just moved, at once");
		} else if (a->kind == CF_A_FURY) {
			if (!st->fury)
				return wr_fail(err, "no-fury", "", "no Battle Fury is open");
			if (st->fury_excl & (1u << id))
				return wr_fail(err, "fury-piece", "from",
				               "Battle Fury moves other Orc pieces than the ones that fought");
		} else if (st->risen >= 0) {
			if (id != st->risen || a->kind != CF_A_MOVE)
				return wr_fail(err, "finish-rise", "from",
				               "the risen piece must move or stay first");
		} else {
			if (st->nacts >= 2)
				return wr_fail(err, "no-actions-left", "",
				               "two actions were taken this turn (III. To Play)");
			if (st->used & (1u << id))
				return wr_fail(err, "piece-used", "from",
				               "this piece already acted this turn (III. To Play)");
		}
		if (a->kind == CF_A_RISE) {
			if (!st->o.races || me->race != CF_DEMONS)
				return wr_fail(err, "wrong-race", "", "Rise From Hell is the Demons' ability");
			if (me->racial <= 0)
				return wr_fail(err, "no-tokens", "", "no racial tokens left");
			if (st->terrain[a->a] == CF_COUNTERSPELL)
				return wr_fail(err, "counterspell", "from",
				               "a piece on Counterspell is not affected by racial abilities");
			return wr_fail(err, "cannot-stand", "to", "%s is not an empty square the piece may take",
			               sqn(a->b, b2));
		}
		if (a->kind == CF_A_CAST) {
			int k = a->b;
			if (!p->spells[k])
				return wr_fail(err, "no-spell", "spell", "the piece on %s has no %s spell",
				               sqn(a->a, b1), cf_spell_name[k]);
			if (k == CF_JUDGEMENT)
				return wr_fail(err, "no-target", "", "no enemy next to the caster can be affected");
			if (k == CF_HEAL) {
				if (a->d < 0 || a->d == CF_KING || a->d == CF_QUEEN || a->d == CF_BISHOP)
					return wr_fail(err, "not-healable", "revive",
					               "Heal returns a Pawn, Rook or Knight");
				if (healable(st, seat, a->d) < 0)
					return wr_fail(err, "none-removed", "revive", "no %s of this army is removed",
					               cf_type_name[a->d]);
				if (!cf_in_area(st, seat, a->c))
					return wr_fail(err, "not-in-area", "square",
					               "%s is not in the caster's set-up area", sqn(a->c, b2));
				return wr_fail(err, "cannot-stand", "square", "%s is not empty", sqn(a->c, b2));
			}
			int ts, tid;
			if (!cf_piece_on(st, a->c, &ts, &tid) || ts == seat)
				return wr_fail(err, "not-an-enemy", "target", "no enemy piece on %s",
				               sqn(a->c, b2));
			if (st->terrain[a->c] == CF_COUNTERSPELL)
				return wr_fail(err, "counterspell", "target",
				               "a piece on Counterspell cannot be affected by spells");
			if (wr_chebyshev(B8, a->a, a->c) > cf_spell_range[k])
				return wr_fail(err, "out-of-range", "target", "%s has range %d; %s is %d away",
				               cf_spell_name[k], cf_spell_range[k], sqn(a->c, b2),
				               wr_chebyshev(B8, a->a, a->c));
			if (!spell_reach(st, a->a, a->c, 99))
				return wr_fail(err, "barrier", "target", "a Barrier square is in the way");
			return wr_fail(err, "no-room", "target",
			               "no empty square on its owner's nearest rank for Panic");
		}
		/* move, swift, fury */
		if (wr_line_dir(B8, a->a, a->b) < 0)
			return wr_fail(err, "not-a-line", "to",
			               "%s to %s is not one straight line (RULINGS.md R5)", sqn(a->a, b1),
			               sqn(a->b, b2));
		{
			int bt[8], n = wr_between(B8, a->a, a->b, bt), cost = 0, ts, tid;
			for (int i = 0; i < n; i++) {
				if (st->terrain[bt[i]] == CF_BARRIER)
					return wr_fail(err, "barrier", "to", "a Barrier square is in the way");
				if (st->board[bt[i]] >= 0 && p->type != CF_KNIGHT)
					return wr_fail(err, "blocked", "to",
					               "%s is in the way; only Knights pass pieces", sqn(bt[i], b1));
				cost += st->terrain[bt[i]] == CF_ROUGH ? 2 : 1;
			}
			if (cf_piece_on(st, a->b, &ts, &tid) && ts == seat)
				return wr_fail(err, "own-piece", "to", "%s holds a piece of the same army",
				               sqn(a->b, b2));
			if (st->terrain[a->b] == CF_BARRIER)
				return wr_fail(err, "barrier", "to", "%s is a Barrier square", sqn(a->b, b2));
			if (p->type == CF_KING && st->terrain[a->b] == CF_ROUGH)
				return wr_fail(err, "rough-king", "to", "Kings cannot move into Rough terrain");
			for (int i = 0; i < n && p->type == CF_KING; i++)
				if (st->terrain[bt[i]] == CF_ROUGH)
					return wr_fail(err, "rough-king", "to", "Kings cannot move into Rough terrain");
			int enemy = st->board[a->b] >= 0;
			cost += enemy ? 1 : (st->terrain[a->b] == CF_ROUGH ? 2 : 1);
			if (cost > cf_move[p->type])
				return wr_fail(err, "too-far", "to",
				               "a %s moves at most %d; this move costs %d", cf_type_name[p->type],
				               cf_move[p->type], cost);
			if (a->kind == CF_A_FURY && !enemy)
				return wr_fail(err, "fury-must-fight", "to",
				               "a Battle Fury move must end on an enemy piece");
			if (a->kind == CF_A_FURY && st->terrain[a->a] == CF_COUNTERSPELL)
				return wr_fail(err, "counterspell", "from",
				               "a piece on Counterspell is not affected by racial abilities");
		}
		break;
	}
	case CF_A_STAY:
		return wr_fail(err, "no-rise", "", "no risen piece is waiting");
	case CF_A_END_TURN:
		return wr_fail(err, "actions-left", "",
		               "a legal action remains: a turn has two actions (RULINGS.md G6, R4)");
	case CF_A_LIVE:
		if (a->a && a->b < 0)
			return wr_fail(err, "missing-field", "square", "square: required");
		if (!a->a)
			return wr_fail(err, "live-again-ordered", "use",
			               "the standing order says always: choose a square");
		return wr_fail(err, "cannot-stand", "square",
		               "%s is not an empty square on this seat's nearest rank", sqn(a->b, b1));
	case CF_A_PANIC_SQ:
		return wr_fail(err, "cannot-stand", "square",
		               "%s is not an empty square on this seat's nearest rank", sqn(a->a, b1));
	default:
		break;
	}
	return wr_fail(err, "illegal", "", "this %s is not legal now", cf_act_name[a->kind]);
}

/* ----------------------------------------------------------- apply */

static int
act_eq(const struct cf_act *x, const struct cf_act *y)
{
	return x->kind == y->kind && x->a == y->a && x->b == y->b && x->c == y->c && x->d == y->d;
}

static void
begin_move(struct cf_state *st, int seat, int id, int to, int src, struct wr_events *ev)
{
	struct cf_piece *p = P(st, seat, id);
	int from = p->sq, ts, tid;
	static const char *names[] = {"move", "swift_move", "fury_move"};
	json_object *e = ev_piece(st, names[src], seat, id);
	cf_ev_sq(e, "from", from);
	cf_ev_sq(e, "to", to);
	wr_emit(ev, WR_VIS_PUBLIC, e);
	memset(&st->r, 0, sizeof(st->r));
	st->r.panic_seat = st->r.panic_id = -1;
	st->r.kind = CF_RES_MOVE;
	st->r.src = src;
	st->r.seat = seat;
	st->r.id = id;
	st->r.moved = 1;
	if (cf_piece_on(st, to, &ts, &tid))
		start_battle(st, seat, id, ts, tid, from, to, -1, ev);
	else
		put(st, seat, id, to);
}

int
cf_do(struct cf_state *st, int seat, const struct cf_act *a, struct wr_rng *rng,
      struct wr_events *ev, struct wr_error *err)
{
	struct cf_act *list = malloc(sizeof(*list) * CF_MAX_ACTS);
	if (!list)
		return wr_fail(err, "no-memory", "", "out of memory");
	int n = cf_legal(st, seat, list, CF_MAX_ACTS), found = 0;
	for (int i = 0; i < n && !found; i++)
		found = act_eq(&list[i], a);
	free(list);
	if (!found)
		return diagnose(st, seat, a, err);

	struct cf_seat *me = &st->s[seat];
	json_object *e;
	int s = 0, id = 0;
	unsigned mine = 1u << seat;
	/* Anything else lets an offered follow-up lapse ("at once", R8). */
	if (st->phase == CF_PLAY && st->r.kind == CF_RES_NONE) {
		if (a->kind != CF_A_SWIFT)
			st->swift = -1;
		if (a->kind != CF_A_FURY)
			st->fury = 0;
	}
	switch (a->kind) {
	case CF_A_BUY:
		me->points -= cf_cost[a->a];
		me->p[me->n] = (struct cf_piece){.type = a->a, .sq = -1, .status = CF_UNPLACED,
		                                  .strength = a->a == CF_ROOK};
		e = cf_ev("bought");
		cf_ev_int(e, "id", me->n);
		cf_ev_str(e, "piece", cf_type_name[a->a]);
		cf_ev_int(e, "points_left", me->points);
		wr_emit(ev, mine, e);
		me->n++;
		break;
	case CF_A_ADD_SPELL:
		me->points -= bishop_cost(&me->p[a->a]);
		me->p[a->a].spells[a->b]++;
		e = cf_ev("spell_added");
		cf_ev_int(e, "id", a->a);
		cf_ev_str(e, "spell", cf_spell_name[a->b]);
		cf_ev_int(e, "points_left", me->points);
		wr_emit(ev, mine, e);
		break;
	case CF_A_RACE:
		me->race = a->a;
		e = cf_ev("race_chosen");
		cf_ev_str(e, "race", cf_race_name[a->a]);
		wr_emit(ev, mine, e);
		break;
	case CF_A_BUY_RACIAL:
		me->points--;
		me->racial++;
		me->racial_bought++;
		e = cf_ev("racial_bought");
		cf_ev_int(e, "racial_tokens", me->racial);
		cf_ev_int(e, "points_left", me->points);
		wr_emit(ev, mine, e);
		break;
	case CF_A_KING_SPELL:
		me->points -= 2;
		me->p[0].spells[a->a] = 1;
		e = cf_ev("king_spell");
		cf_ev_str(e, "spell", cf_spell_name[a->a]);
		cf_ev_int(e, "points_left", me->points);
		wr_emit(ev, mine, e);
		break;
	case CF_A_RESET:
		army_reset(st, seat);
		e = cf_ev("army_reset");
		cf_ev_int(e, "points_left", me->points);
		wr_emit(ev, mine, e);
		break;
	case CF_A_READY:
		if (!me->ready) {
			me->ready = 1;
			e = cf_ev("army_ready");
			cf_ev_int(e, "seat", seat);
			wr_emit(ev, WR_VIS_PUBLIC, e);
		}
		break;
	case CF_A_ORDER: {
		int rk[WR_MAX_SEATS], nr = rank_seats(st, rk), k = 0;
		/* R2: the high roller is first or last; the others follow in
		 * descending roll. */
		if (a->a == 0)
			st->order[k++] = seat;
		for (int i = 0; i < nr; i++)
			if (rk[i] != seat)
				st->order[k++] = rk[i];
		if (a->a != 0)
			st->order[k++] = seat;
		for (int t = 0; t < st->nseats; t++)  /* resigned seats, skipped */
			if (st->s[t].out)
				st->order[k++] = t;
		st->norder = k;
		st->placer = 0;
		st->phase = CF_SETUP;
		e = cf_ev("order_chosen");
		cf_ev_int(e, "seat", seat);
		cf_ev_str(e, "choice", a->a == 0 ? "first" : a->a == 1 ? "second" : "last");
		{
			json_object *o = json_object_new_array();
			for (int i = 0; i < k; i++)
				json_object_array_add(o, json_object_new_int(st->order[i]));
			json_object_object_add(e, "order", o);
		}
		wr_emit(ev, WR_VIS_PUBLIC, e);
		break;
	}
	case CF_A_PLACE:
		put(st, seat, a->a, a->b);
		e = ev_piece(st, "placed", seat, a->a);
		cf_ev_sq(e, "square", a->b);
		wr_emit(ev, WR_VIS_PUBLIC, e);
		break;
	case CF_A_MOVE:
		cf_piece_on(st, a->a, &s, &id);
		if (st->risen == id)
			st->risen = -1;
		begin_move(st, seat, id, a->b, CF_SRC_ACTION, ev);
		break;
	case CF_A_SWIFT:
		cf_piece_on(st, a->a, &s, &id);
		me->racial--;
		st->swift = -1;
		wr_emit(ev, WR_VIS_PUBLIC, ev_piece(st, "swift_movement", seat, id));
		begin_move(st, seat, id, a->b, CF_SRC_SWIFT, ev);
		break;
	case CF_A_FURY:
		cf_piece_on(st, a->a, &s, &id);
		if (st->fury == 1) {
			me->racial--;
			e = cf_ev("battle_fury");
			cf_ev_int(e, "seat", seat);
			wr_emit(ev, WR_VIS_PUBLIC, e);
		}
		begin_move(st, seat, id, a->b, CF_SRC_FURY, ev);
		break;
	case CF_A_RISE:
		cf_piece_on(st, a->a, &s, &id);
		me->racial--;
		e = ev_piece(st, "rise_from_hell", seat, id);
		cf_ev_sq(e, "from", a->a);
		cf_ev_sq(e, "to", a->b);
		wr_emit(ev, WR_VIS_PUBLIC, e);
		put(st, seat, id, a->b);
		st->risen = id;
		break;
	case CF_A_STAY:
		e = ev_piece(st, "stay", seat, st->risen);
		wr_emit(ev, WR_VIS_PUBLIC, e);
		memset(&st->r, 0, sizeof(st->r));
		st->r.kind = CF_RES_MOVE;
		st->r.seat = seat;
		st->r.id = st->risen;
		st->r.panic_seat = st->r.panic_id = -1;
		st->risen = -1;
		break;
	case CF_A_LEADERSHIP: {
		int s2 = 0, id2 = 0, sa = a->a, sb = a->b;
		cf_piece_on(st, sa, &s, &id);
		cf_piece_on(st, sb, &s2, &id2);
		st->board[sa] = st->board[sb] = -1;
		put(st, seat, id, sb);
		put(st, seat, id2, sa);
		st->leadership_used = 1;
		e = cf_ev("leadership");
		json_object_object_add(e, "a", cf_piece_ref(st, seat, id));
		json_object_object_add(e, "b", cf_piece_ref(st, seat, id2));
		wr_emit(ev, WR_VIS_PUBLIC, e);
		break;
	}
	case CF_A_END_TURN:
		if (st->nacts == 0 && !st->leadership_used)
			st->idle++;
		else
			st->idle = 0;
		e = cf_ev("turn_end");
		cf_ev_int(e, "seat", seat);
		wr_emit(ev, WR_VIS_PUBLIC, e);
		if (st->idle >= alive_count(st))
			game_over(st, 0, "no seat can act", ev);
		else
			next_turn(st, ev);
		break;
	case CF_A_CAST: {
		int k = a->b;
		struct cf_piece *c;
		cf_piece_on(st, a->a, &s, &id);
		c = P(st, seat, id);
		c->spells[k]--;
		e = ev_piece(st, "cast", seat, id);
		cf_ev_str(e, "spell", cf_spell_name[k]);
		if (k != CF_JUDGEMENT && k != CF_HEAL)
			cf_ev_sq(e, "target", a->c);
		wr_emit(ev, WR_VIS_PUBLIC, e);
		memset(&st->r, 0, sizeof(st->r));
		st->r.kind = CF_RES_SPELL;
		st->r.seat = seat;
		st->r.id = id;
		st->r.spell = k;
		st->r.panic_seat = st->r.panic_id = -1;
		if (k == CF_HEAL) {
			int h = healable(st, seat, a->d);
			struct cf_piece *hp = P(st, seat, h);
			hp->strength = hp->type == CF_ROOK; /* VII: a healed Rook has its token */
			hp->treasure = 0;
			put(st, seat, h, a->c);
			e = ev_piece(st, "healed", seat, h);
			cf_ev_sq(e, "square", a->c);
			wr_emit(ev, WR_VIS_PUBLIC, e);
		} else if (k == CF_PANIC) {
			cf_piece_on(st, a->c, &st->r.panic_seat, &st->r.panic_id);
		} else if (k == CF_JUDGEMENT) {
			st->r.nt = judgement_targets(st, seat, a->a, st->r.tseat, st->r.tid);
		} else {
			st->r.nt = 1;
			cf_piece_on(st, a->c, &st->r.tseat[0], &st->r.tid[0]);
		}
		break;
	}
	case CF_A_HTL: {
		struct cf_battle *b = &st->r.b;
		if (a->a) {
			b->htl = 1;
			st->s[b->d_seat].racial--;
			wr_emit(ev, WR_VIS_PUBLIC, ev_piece(st, "hold_the_line", b->d_seat, b->d_id));
		}
		b->stage = CF_ST_ROLL;
		break;
	}
	case CF_A_LUCK: {
		struct cf_battle *b = &st->r.b;
		int att = b->stage == CF_ST_LUCK_A;
		if (a->a)
			do_luck(st, att, rng, ev);
		b->stage = att ? CF_ST_LUCK_D : CF_ST_RESOLVE;
		break;
	}
	case CF_A_LIVE:
		battle_finish_loser(st, a->a ? a->b : -1, ev);
		break;
	case CF_A_PANIC_SQ: {
		int ps = st->r.panic_seat, pid = st->r.panic_id;
		e = ev_piece(st, "panic_moved", ps, pid);
		cf_ev_sq(e, "from", P(st, ps, pid)->sq);
		cf_ev_sq(e, "to", a->a);
		put(st, ps, pid, a->a);
		wr_emit(ev, WR_VIS_PUBLIC, e);
		st->r.panic_seat = st->r.panic_id = -1;
		break;
	}
	default:
		break;
	}
	settle(st, rng, ev);
	return 0;
}

int
cf_set_orders(struct cf_state *st, int seat, int htl, int luck, int live)
{
	if (htl >= 0)
		st->s[seat].o_htl = htl;
	if (luck >= 0)
		st->s[seat].o_luck = luck;
	if (live >= 0)
		st->s[seat].o_live = live;
	return 0;
}

/* What follows without a decision, for create() and for tests that
 * build a position by hand. */
void
cf_settle_public(struct cf_state *st, struct wr_rng *rng, struct wr_events *ev)
{
	settle(st, rng, ev);
}

void
cf_resign(struct cf_state *st, int seat, struct wr_rng *rng, struct wr_events *ev)
{
	if (st->phase == CF_OVER || st->s[seat].out)
		return;
	json_object *e = cf_ev("resigned");
	cf_ev_int(e, "seat", seat);
	wr_emit(ev, WR_VIS_PUBLIC, e);
	if (st->nseats == 2) {
		st->s[seat].out = 1;
		game_over(st, 1u << (1 - seat), "resignation", ev);
		return;
	}
	/* The resolution in progress stops where it involves the seat. */
	if (st->phase == CF_PLAY && st->r.kind != CF_RES_NONE) {
		const struct cf_battle *b = &st->r.b;
		if (st->r.seat == seat || (st->r.in_battle && (b->a_seat == seat || b->d_seat == seat)) ||
		    st->r.panic_seat == seat) {
			if (st->r.seat == seat) {
				memset(&st->r, 0, sizeof(st->r));
				st->r.panic_seat = st->r.panic_id = -1;
			} else {
				/* the actor's action still counts; the rest of it lapses */
				st->r.in_battle = 0;
				st->r.nt = st->r.ti;
				st->r.panic_seat = st->r.panic_id = -1;
			}
		}
	}
	seat_out(st, seat, "resignation", ev);
	if (st->phase == CF_OVER)
		return;
	settle(st, rng, ev);
}

/* ------------------------------------------------------- invariants */

static int
bad(struct wr_error *err, const char *what)
{
	return wr_fail(err, "bad-snapshot", "", "inconsistent state: %s", what);
}

static int
piece_ok(const struct cf_state *st, int seat, int id)
{
	return seat >= 0 && seat < st->nseats && id >= 0 && id < st->s[seat].n;
}

/* Everything load() must make sure of before any rule code runs, and what
 * the playout tests assert after every action. */
int
cf_check(const struct cf_state *st, struct wr_error *err)
{
	int seen[CF_NSQ];
	for (int i = 0; i < CF_NSQ; i++)
		seen[i] = 0;
	if (st->nseats < 2 || st->nseats > WR_MAX_SEATS || st->phase < 0 || st->phase >= CF_PHASE_MAX)
		return bad(err, "seats or phase");
	for (int sq = 0; sq < CF_NSQ; sq++)
		if (st->terrain[sq] < 0 || st->terrain[sq] >= CF_T_MAX)
			return bad(err, "terrain");
	for (int s = 0; s < st->nseats; s++) {
		const struct cf_seat *x = &st->s[s];
		if (x->n < 1 || x->n > CF_MAX_PIECES || x->points < 0 || x->points > 100 ||
		    x->race < 0 || x->race >= CF_RACE_MAX || x->racial < 0 || x->racial > 200 ||
		    x->nrolls < 0 || x->nrolls > 8 || x->o_htl < 0 || x->o_htl >= CF_YESNO_MAX ||
		    x->o_luck < 0 || x->o_luck >= CF_LUCK_MAX || x->o_live < 0 ||
		    x->o_live >= CF_YESNO_MAX)
			return bad(err, "seat fields");
		if (x->p[0].type != CF_KING)
			return bad(err, "piece 0 is the King");
		for (int i = 0; i < x->n; i++) {
			const struct cf_piece *p = &x->p[i];
			if (p->type < 0 || p->type >= CF_TYPE_MAX || (i && p->type == CF_KING) ||
			    p->status < 0 || p->status >= CF_STATUS_MAX || p->strength < 0 ||
			    p->strength > 1 || p->treasure < 0 || p->treasure > 1000)
				return bad(err, "piece fields");
			for (int k = 0; k < CF_SPELL_MAX; k++)
				if (p->spells[k] < 0 || p->spells[k] > 100)
					return bad(err, "spells");
			if ((p->status == CF_ON) != (p->sq >= 0) || p->sq >= CF_NSQ)
				return bad(err, "square and status");
			if (p->status == CF_ON) {
				if (seen[p->sq]++ || st->terrain[p->sq] == CF_BARRIER)
					return bad(err, "two pieces on a square, or one on a Barrier");
				if (st->phase < CF_SETUP)
					return bad(err, "a piece on the board before set-up");
			}
		}
	}
	if (st->norder < 0 || st->norder > st->nseats)
		return bad(err, "order");
	for (int k = 0; k < st->norder; k++) {
		if (st->order[k] < 0 || st->order[k] >= st->nseats)
			return bad(err, "order");
		for (int j = 0; j < k; j++)
			if (st->order[j] == st->order[k])
				return bad(err, "order");
	}
	if (st->phase == CF_ORDER && (st->chooser < 0 || st->chooser >= st->nseats))
		return bad(err, "chooser");
	if ((st->phase == CF_SETUP || st->phase == CF_PLAY ||
	     (st->phase == CF_OVER && st->norder)) && st->norder != st->nseats)
		return bad(err, "order");
	if (st->placer < 0 || st->placer > st->norder)
		return bad(err, "placer");
	if (st->phase == CF_PLAY) {
		if (st->active < 0 || st->active >= st->nseats)
			return bad(err, "active seat");
		if (st->nacts < 0 || st->nacts > 2 || st->fury < 0 || st->fury > 2 || st->idle < 0)
			return bad(err, "turn fields");
		if (st->risen >= 0 && (!piece_ok(st, st->active, st->risen) ||
		                       CP(st, st->active, st->risen)->status != CF_ON))
			return bad(err, "risen piece");
		if (st->swift >= 0 && (!piece_ok(st, st->active, st->swift) ||
		                       CP(st, st->active, st->swift)->status != CF_ON))
			return bad(err, "swift piece");
		const struct cf_res *r = &st->r;
		if (r->kind < 0 || r->kind >= CF_RES_MAX || r->src < 0 || r->src >= CF_SRC_MAX)
			return bad(err, "resolution");
		if (r->kind != CF_RES_NONE) {
			if (!piece_ok(st, r->seat, r->id) || r->nt < 0 || r->nt > 8 || r->ti < 0 ||
			    r->ti > r->nt || r->spell < 0 || r->spell >= CF_SPELL_MAX)
				return bad(err, "resolution");
			for (int i = 0; i < r->nt; i++)
				if (!piece_ok(st, r->tseat[i], r->tid[i]))
					return bad(err, "targets");
			if (r->panic_seat >= 0 && (!piece_ok(st, r->panic_seat, r->panic_id) ||
			                           CP(st, r->panic_seat, r->panic_id)->status != CF_ON))
				return bad(err, "panic");
			if (r->in_battle) {
				const struct cf_battle *b = &r->b;
				if (!piece_ok(st, b->a_seat, b->a_id) || !piece_ok(st, b->d_seat, b->d_id) ||
				    b->a_seat == b->d_seat || b->from < 0 || b->from >= CF_NSQ || b->at < 0 ||
				    b->at >= CF_NSQ || b->spell < -1 || b->spell >= CF_SPELL_MAX ||
				    b->stage <= CF_ST_NONE || b->stage >= CF_ST_MAX || b->a_die < 0 ||
				    b->a_die > 6 || b->d_die < 0 || b->d_die > 6 || b->outcome < -1 ||
				    b->outcome > 1)
					return bad(err, "battle");
				if (CP(st, b->a_seat, b->a_id)->status != CF_ON ||
				    CP(st, b->d_seat, b->d_id)->status != CF_ON ||
				    CP(st, b->d_seat, b->d_id)->sq != b->at ||
				    (b->spell < 0 && CP(st, b->a_seat, b->a_id)->sq != b->from))
					return bad(err, "battle pieces");
				if (b->stage == CF_ST_LIVE &&
				    (!piece_ok(st, b->loser_seat, b->loser_id) ||
				     (b->loser_seat != b->a_seat && b->loser_seat != b->d_seat)))
					return bad(err, "battle loser");
				if (b->stage > CF_ST_ROLL && (b->a_die < 1 || b->d_die < 1))
					return bad(err, "battle dice");
			} else if (r->panic_seat < 0) {
				return bad(err, "idle resolution");
			}
		}
	}
	return 0;
}
