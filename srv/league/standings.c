/* Standings (issue 29): points by finishing order, Buchholz,
 * Sonneborn-Berger; and the ladder's two rules. */
#include <stdlib.h>
#include <string.h>

#include "league.h"

static int
decided(const struct wl_result *r)
{
	for (int i = 0; i < r->t.size; i++)
		if (r->place[i] > 0)
			return 1;
	return r->t.size == 1;
}

/* Halves that seat a scored against seat b of one table. */
static int
against(const struct wl_result *r, int a, int b)
{
	return r->place[a] < r->place[b] ? 2 : r->place[a] == r->place[b] ? 1 : 0;
}

int
wl_points2(const struct wl_result *r, int seat)
{
	int p = 0;

	if (r->t.size == 1)
		return 2;
	if (!decided(r))
		return 0;
	for (int o = 0; o < r->t.size; o++)
		if (o != seat)
			p += against(r, seat, o);
	return p;
}

static int
before(const struct wl_standing *x, const struct wl_standing *y, enum wl_tiebreak tb)
{
	if (x->points2 != y->points2)
		return x->points2 > y->points2;
	if (tb == WL_TB_BUCHHOLZ_SB && x->buchholz2 != y->buchholz2)
		return x->buchholz2 > y->buchholz2;
	if (x->sb4 != y->sb4)
		return x->sb4 > y->sb4;
	return -1;   /* equal keys: seeding decides the order, not the rank */
}

void
wl_standings(int n, const struct wl_result *res, int nres, enum wl_tiebreak tb,
             struct wl_standing *out)
{
	memset(out, 0, sizeof(*out) * (size_t)n);
	for (int i = 0; i < n; i++)
		out[i].player = i;
	for (int k = 0; k < nres; k++) {
		const struct wl_result *r = &res[k];
		if (!decided(r))
			continue;
		for (int a = 0; a < r->t.size; a++) {
			struct wl_standing *s = &out[r->t.seat[a]];
			int best = 1, shared = 0;
			s->points2 += wl_points2(r, a);
			if (r->t.size == 1) {
				s->byes++;
				continue;
			}
			s->played++;
			for (int o = 0; o < r->t.size; o++) {
				if (o == a)
					continue;
				best &= r->place[a] <= r->place[o];
				shared |= r->place[a] == r->place[o];
			}
			s->wins += best && !shared;
			s->draws += best && shared;
			s->losses += !best;
		}
	}
	/* The tie-breaks from everyone's final points. */
	for (int k = 0; k < nres; k++) {
		const struct wl_result *r = &res[k];
		if (!decided(r) || r->t.size == 1)
			continue;
		for (int a = 0; a < r->t.size; a++)
			for (int o = 0; o < r->t.size; o++) {
				if (o == a)
					continue;
				int opp = out[r->t.seat[o]].points2;
				out[r->t.seat[a]].buchholz2 += opp;
				out[r->t.seat[a]].sb4 += against(r, a, o) * opp;
			}
	}
	for (int a = 1; a < n; a++)   /* insertion: stable, so seeding breaks full ties */
		for (int b = a; b > 0 && before(&out[b], &out[b - 1], tb) == 1; b--) {
			struct wl_standing t = out[b];
			out[b] = out[b - 1];
			out[b - 1] = t;
		}
	for (int i = 0; i < n; i++)
		out[i].rank = i > 0 && before(&out[i - 1], &out[i], tb) == -1 ? out[i - 1].rank : i + 1;
}

int
wl_ladder_may_challenge(int from, int to, int reach)
{
	return to < from && from - to <= reach && to >= 0;
}

void
wl_ladder_result(int *order, int from, int to, int challenger_won)
{
	if (!challenger_won)
		return;
	int t = order[from];
	order[from] = order[to];
	order[to] = t;
}
