/*
 * ChessWar's movement (Movement; RULINGS.md C5): the one step rule and the
 * one search over the squares a unit may reach by it. The action list, both
 * forms of a move ({"from","to"} and {"from","path"}), the server's own path
 * for a move and Flight's destinations all ask these two functions, so no
 * two of them can disagree (a finding: the Liche's Teleport through occupied
 * squares was accepted as a path and refused as a destination). Depends on
 * cw_units.c only.
 */
#include <string.h>

#include "cw_rules.h"

void
cw_mover_of(const struct cw_state *st, int id, struct cw_mover *m)
{
	m->seat = cw_seat_of(id);
	m->from = st->u[id].sq;
	m->max = cw_def(st, id)->move;
	/* Teleport: "move ignores other units" */
	m->ghost = (cw_def(st, id)->special & CW_SP_TELEPORT) != 0;
}

void
cw_mover_flight(const struct cw_state *st, int id, struct cw_mover *m)
{
	m->seat = cw_seat_of(id);
	m->from = st->u[id].sq;
	m->max = CW_FLIGHT_STEPS;
	m->ghost = 1;   /* C9 Flight: "ignoring units, leaving any melee" */
}

/* "the unit cannot move from square adjacent to particular enemy to other
 * square adjacent to that same enemy" (Movement; C5, step by step). */
static int
stays_next_to_enemy(const struct cw_state *st, int seat, int a, int b)
{
	for (int d = 0; d < WR_DIRS; d++) {
		int e = cw_unit_at(st, wr_step(&st->board, a, d));
		if (e != CW_NONE && cw_seat_of(e) != seat && cw_dist(st, b, st->u[e].sq) == 1)
			return 1;
	}
	return 0;
}

/* The step a -> b, the last of the move or not: 0 when it may be taken,
 * else -1 and why. A ghost (Teleport, Flight) passes any unit and is not
 * held by enemies, but never ends on a unit. */
static int
step(const struct cw_state *st, const struct cw_mover *m, int a, int b, int last,
     struct wr_error *err)
{
	if (b < 0 || cw_dist(st, a, b) != 1)
		return wr_fail(err, "not-adjacent", "path",
		               "each step of a path goes to an adjacent square");
	if (cw_unit_at(st, b) != CW_NONE && (!m->ghost || last))
		return wr_fail(err, "occupied", "path", "a step goes into an occupied square");
	if (!m->ghost && stays_next_to_enemy(st, m->seat, a, b))
		return wr_fail(err, "stays-next-to-enemy", "path",
		               "a unit cannot move from a square next to an enemy to another square "
		               "next to the same enemy (Movement)");
	return 0;
}

void
cw_reach(const struct cw_state *st, const struct cw_mover *m, int *dist, int *prev)
{
	int nsq = st->board.files * st->board.ranks, queue[CW_MAX_SQ], qh = 0, qt = 0;
	for (int i = 0; i < nsq; i++)
		dist[i] = prev[i] = -1;
	dist[m->from] = 0;
	queue[qt++] = m->from;
	while (qh < qt) {
		int a = queue[qh++];
		if (dist[a] >= m->max)
			continue;
		for (int d = 0; d < WR_DIRS; d++) {
			int b = wr_step(&st->board, a, d);
			if (b < 0 || dist[b] >= 0 || step(st, m, a, b, 0, NULL) != 0)
				continue;
			dist[b] = dist[a] + 1;
			prev[b] = a;
			queue[qt++] = b;
		}
	}
	/* the squares passed through are not destinations */
	for (int i = 0; i < nsq; i++)
		if (dist[i] > 0 && cw_unit_at(st, i) != CW_NONE)
			dist[i] = -1;
}

int
cw_route(const struct cw_state *st, const struct cw_mover *m, int to, int *path)
{
	int dist[CW_MAX_SQ], prev[CW_MAX_SQ], n;
	if (to < 0 || to >= st->board.files * st->board.ranks)
		return 0;
	cw_reach(st, m, dist, prev);
	n = dist[to] > 0 ? dist[to] : 0;
	for (int sq = to, i = n - 1; i >= 0; sq = prev[sq], i--)
		path[i] = sq;
	return n;
}

int
cw_path_check(const struct cw_state *st, const struct cw_mover *m, const int *path, int n,
              int to, struct wr_error *err)
{
	int at = m->from;
	if (n > m->max)
		return wr_fail(err, "too-far", "path", "this unit moves at most %d squares", m->max);
	for (int i = 0; i < n; i++) {
		if (step(st, m, at, path[i], i == n - 1, err))
			return -1;
		at = path[i];
	}
	if (at != to)
		return wr_fail(err, "bad-path", "path", "the path does not end at \"to\"");
	return 0;
}
