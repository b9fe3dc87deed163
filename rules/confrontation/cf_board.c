/*
 * Confrontation's board: pieces on squares, set-up areas, terrain (X),
 * movement (III, VI, R5, R9) and the reach of spells (VII, R7). Plain
 * structs only; every function here answers a question or moves a piece
 * without deciding whose turn it is. Calls only cf_data.c; every other
 * file of the ruleset calls into it.
 */
#include <stdio.h>
#include <string.h>

#include "cf_rules.h"

struct cf_piece *
cf_p(struct cf_state *st, int seat, int id)
{
	return &st->s[seat].p[id];
}

const struct cf_piece *
cf_cp(const struct cf_state *st, int seat, int id)
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

int
cf_owner_at(const struct cf_state *st, int sq)
{
	return st->board[sq] < 0 ? -1 : st->board[sq] / CF_MAX_PIECES;
}

void
cf_put(struct cf_state *st, int seat, int id, int sq)
{
	struct cf_piece *p = cf_p(st, seat, id);
	if (p->status == CF_ON && p->sq >= 0 && st->board[p->sq] == seat * CF_MAX_PIECES + id)
		st->board[p->sq] = -1;
	p->sq = sq;
	p->status = CF_ON;
	st->board[sq] = seat * CF_MAX_PIECES + id;
}

void
cf_take(struct cf_state *st, int seat, int id, int status)
{
	struct cf_piece *p = cf_p(st, seat, id);
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
	int f = sq % 8, r = sq / 8;   /* the 8x8 board of squares 0..63 */
	(void)st;
	switch (seat) {
	case 0: return r <= 1;
	case 1: return r >= 6;
	case 2: return f <= 1;
	default: return f >= 6;
	}
}

/* IX Undead, VII Panic: "the rank closest to the player". */
int
cf_on_near_line(int seat, int sq)
{
	int f = sq % 8, r = sq / 8;
	switch (seat) {
	case 0: return r == 0;
	case 1: return r == 7;
	case 2: return f == 0;
	default: return f == 7;
	}
}

int
cf_racial_ok(const struct cf_state *st, int seat, int race, int sq)
{
	/* X Counterspell: a piece on it is not affected by racial abilities. */
	return st->o.races && st->s[seat].race == race && st->s[seat].racial > 0 &&
	       !(sq >= 0 && st->terrain[sq] == CF_COUNTERSPELL);
}

int
cf_nspells(const struct cf_piece *p)
{
	int n = 0;
	for (int k = 0; k < CF_SPELL_MAX; k++)
		n += p->spells[k];
	return n;
}

int
cf_undo_barrier(const void *before, const void *after, int seat, const struct wr_events *ev)
{
	const struct cf_state *a = before, *b = after;

	(void)seat;
	(void)ev;
	if (a->phase == CF_BUILD)
		return 0;        /* a spell given back while building is the builder's */
	for (int s = 0; s < b->nseats; s++)
		for (int i = 0; i < b->s[s].n && i < a->s[s].n; i++)
			if (cf_nspells(&b->s[s].p[i]) < cf_nspells(&a->s[s].p[i]))
				return 1;
	return 0;
}

int
cf_alive_count(const struct cf_state *st)
{
	int n = 0;
	for (int s = 0; s < st->nseats; s++)
		n += !st->s[s].out;
	return n;
}

/* An empty square a piece of this type may be put on in play: not Rough
 * for a King (X, R9); a Barrier square is fine (R9, amended: only
 * crossing one is barred). */
int
cf_can_stand(const struct cf_state *st, int type, int sq)
{
	if (st->board[sq] >= 0)
		return 0;
	return !(type == CF_KING && st->terrain[sq] == CF_ROUGH);
}

int
cf_queen_on(const struct cf_state *st, int seat)
{
	for (int i = 0; i < st->s[seat].n; i++)
		if (st->s[seat].p[i].type == CF_QUEEN && st->s[seat].p[i].status == CF_ON)
			return 1;
	return 0;
}

/* ---------------------------------------------------------- movement */

/* R5 with X and R9: whether the seat's piece on `from` may end a move on
 * `to`. One straight line; Knights pass pieces (VI Leap); no one crosses
 * a Barrier square, though a move may start or end on one (R9, amended);
 * entering Rough costs two and Kings never enter it --
 * except the square of a battle: terrain does not affect "pieces moving
 * into those spaces to begin combat" (X, R9), so an attack onto Rough
 * costs one, a King's too. `enemy_only`: Battle Fury's moves. */
int
cf_move_check(const struct cf_state *st, int seat, int from, int to, int enemy_only,
              struct wr_error *err)
{
	char b1[8], b2[8];
	int between[8], n, cost = 0, s, id, type, enemy;
	if (!cf_piece_on(st, from, &s, &id))
		return wr_fail(err, "no-piece", "from", "there is no piece on %s",
		               wr_square_name(CF_B8, from, b1));
	type = cf_cp(st, s, id)->type;
	if (wr_line_dir(CF_B8, from, to) < 0)
		return wr_fail(err, "not-a-line", "to", "%s to %s is not one straight line (RULINGS.md R5)",
		               wr_square_name(CF_B8, from, b1), wr_square_name(CF_B8, to, b2));
	n = wr_between(CF_B8, from, to, between);
	for (int i = 0; i < n; i++) {
		if (st->terrain[between[i]] == CF_BARRIER)
			return wr_fail(err, "barrier", "to", "a Barrier square is in the way");
		if (st->board[between[i]] >= 0 && type != CF_KNIGHT)
			return wr_fail(err, "blocked", "to", "%s is in the way; only Knights pass pieces",
			               wr_square_name(CF_B8, between[i], b1));
		cost += st->terrain[between[i]] == CF_ROUGH ? 2 : 1;
	}
	if (cf_owner_at(st, to) == seat)
		return wr_fail(err, "own-piece", "to", "%s holds a piece of the same army",
		               wr_square_name(CF_B8, to, b2));
	enemy = st->board[to] >= 0;
	if (!enemy && type == CF_KING && st->terrain[to] == CF_ROUGH)
		return wr_fail(err, "rough-king", "to", "Kings cannot move into Rough terrain");
	cost += enemy || st->terrain[to] != CF_ROUGH ? 1 : 2;
	if (cost > cf_move[type])
		return wr_fail(err, "too-far", "to", "a %s moves at most %d; this move costs %d",
		               cf_type_name[type], cf_move[type], cost);
	if (enemy_only && !enemy)
		return wr_fail(err, "fury-must-fight", "to",
		               "a Battle Fury move must end on an enemy piece");
	return 0;
}

int
cf_any_move(const struct cf_state *st, int seat, int from, int enemy_only)
{
	for (int d = 0; d < WR_DIRS; d++) {
		int ray[8], n = wr_ray(CF_B8, from, d, 7, ray);
		for (int k = 0; k < n; k++)
			if (cf_move_check(st, seat, from, ray[k], enemy_only, NULL) == 0)
				return 1;
	}
	return 0;
}

/* ------------------------------------------------------------ spells */

/* R7: range in king steps, blockers do not matter, a Barrier on the
 * straight line between caster and target (where there is one) does. */
int
cf_spell_reach(const struct cf_state *st, int from, int to, int range)
{
	int between[8], n;
	if (wr_chebyshev(CF_B8, from, to) > range)
		return 0;
	n = wr_between(CF_B8, from, to, between);
	for (int i = 0; i < n; i++)
		if (st->terrain[between[i]] == CF_BARRIER)
			return 0;
	return 1;
}

int
cf_panic_squares(const struct cf_state *st, int tseat, int ttype, int *out)
{
	int n = 0;
	for (int sq = 0; sq < CF_NSQ; sq++)
		if (cf_on_near_line(tseat, sq) && cf_can_stand(st, ttype, sq))
			out[n++] = sq;
	return n;
}

int
cf_judgement_targets(const struct cf_state *st, int seat, int from, int *ts, int *tid)
{
	int n = 0;
	for (int d = 0; d < WR_DIRS; d++) {
		int sq = wr_step(CF_B8, from, d), s, i;
		if (sq != WR_NO_SQUARE && cf_piece_on(st, sq, &s, &i) && s != seat &&
		    st->terrain[sq] != CF_COUNTERSPELL) {
			ts[n] = s;
			tid[n++] = i;
		}
	}
	return n;
}

int
cf_healable(const struct cf_state *st, int seat, int type)
{
	const struct cf_seat *s = &st->s[seat];
	for (int i = 0; i < s->n; i++)
		if (s->p[i].type == type && s->p[i].status == CF_REMOVED)
			return i;
	return -1;
}

/* ----------------------------------------------------------- terrain */

/* Terrain areas: 4 or 8 squares connected by sides (X). */
static int
connected(const int *sq, int n)
{
	int seen[8] = {1}, grew = 1, cnt = 1;
	while (grew) {
		grew = 0;
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n && !seen[i]; j++)
				if (seen[j] && wr_manhattan(CF_B8, sq[i], sq[j]) == 1)
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

/* One random area of `size` squares grown square by square from the free
 * squares of the zone; returns how many squares it got. */
static int
grow_area(const struct cf_state *st, const int *zone, int nz, int size, struct wr_rng *rng,
          int *area)
{
	int n = 0, free_n = 0, freesq[CF_NSQ];
	for (int i = 0; i < nz; i++)
		if (st->terrain[zone[i]] == CF_T_NONE)
			freesq[free_n++] = zone[i];
	if (free_n < size)
		return -1;
	area[n++] = freesq[wr_die(rng, (unsigned)free_n) - 1];
	while (n < size) {
		int fr[CF_NSQ], nf = 0;
		for (int i = 0; i < free_n; i++) {
			int in = 0, adj = 0;
			for (int j = 0; j < n; j++) {
				in |= area[j] == freesq[i];
				adj |= wr_manhattan(CF_B8, area[j], freesq[i]) == 1;
			}
			if (!in && adj)
				fr[nf++] = freesq[i];
		}
		if (!nf)
			break;
		area[n++] = fr[wr_die(rng, (unsigned)nf) - 1];
	}
	return n;
}

/* R9: random areas, grown inside the squares no seat sets up on; a failed
 * growth is re-rolled at once (G2). */
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
			int area[8], n;
			if (attempt == 32)
				size = 4;
			n = grow_area(st, zone, nz, size, rng, area);
			if (n < 0)
				break;
			if (n != size)
				continue;
			for (int i = 0; i < n; i++)
				st->terrain[area[i]] = type;
			placed = 1;
		}
	}
	return 0;
}
