/* Pairings (issue 29): the round robin's Berger tables, Swiss pairing by
 * score groups, and tables of 3 or 4 for multi-seat events. League.h
 * says what each promises. */
#include <stdlib.h>
#include <string.h>

#include "league.h"

/* ------------------------------------------------------- round robin */

int
wl_round_robin_rounds(int n, int cycles)
{
	int m = n + (n & 1);

	if (n < 2 || n > WL_MAX_PLAYERS || cycles < 1 || cycles > 2)
		return 0;
	return (m - 1) * cycles;
}

/* The circle method: player m-1 (or the bye, for odd n) stays, the others
 * turn one place a round; the fixed board alternates colours. */
int
wl_round_robin(int n, int cycles, int r, struct wl_table *out)
{
	int m = n + (n & 1), rounds = wl_round_robin_rounds(n, cycles), k = 0;
	int base, second, ring[WL_MAX_PLAYERS];

	if (r < 1 || r > rounds)
		return -1;
	base = (r - 1) % (m - 1);
	second = r > m - 1;
	for (int i = 0; i < m - 1; i++)
		ring[i] = (i + base) % (m - 1);
	ring[m - 1] = m - 1;
	for (int i = 0; i < m / 2; i++) {
		int a = ring[i], b = ring[m - 1 - i], white;
		if (a >= n || b >= n) {
			out[k].size = 1;
			out[k++].seat[0] = a >= n ? b : a;
			continue;
		}
		white = i == 0 ? (base % 2 == 0) : 1;   /* 1: a has White */
		if (second)
			white = !white;
		out[k].size = 2;
		out[k].seat[0] = white ? a : b;
		out[k++].seat[1] = white ? b : a;
	}
	return k;
}

/* -------------------------------------------------------------- Swiss */

#define COST_REMATCH 1000000000LL   /* a pair that met already, or a second bye */
#define COST_COLOUR 100000000LL     /* both would reach a colour difference of 3 */
#define COST_GROUP 100000LL         /* a pair across score groups (plus the gap squared) */
#define COST_SOFT 100LL             /* both due the same colour */

struct swiss {
	int k;                   /* nodes: active players, and the bye when odd */
	int who[WL_MAX_PLAYERS + 1];   /* node -> player; WL_BYE for the bye node */
	const struct wl_entry *e;
	const uint8_t *met;
	int n;
	long long *memo;         /* exact search: by the mask of nodes left */
	signed char *choice;
	long budget;             /* greedy search: steps left */
	long long limit;         /* greedy search: the worst pair cost allowed */
	int mate[WL_MAX_PLAYERS + 1];
};

static long long
pair_cost(const struct swiss *s, int x, int y)
{
	int a = s->who[x], b = s->who[y];

	if (a == WL_BYE || b == WL_BYE) {
		int p = a == WL_BYE ? b : a, rank = a == WL_BYE ? y : x;
		if (s->e[p].byes > 0)
			return COST_REMATCH;
		/* The lowest-ranked takes it: fewer points, later in the order. */
		return 1000LL * s->e[p].points2 + (s->k - rank);
	}
	long long c = COST_REMATCH * s->met[a * s->n + b];
	int da = s->e[a].whites - s->e[a].blacks, db = s->e[b].whites - s->e[b].blacks;
	if ((da >= 2 && db >= 2) || (da <= -2 && db <= -2))
		c += COST_COLOUR;
	else if ((da > 0 && db > 0) || (da < 0 && db < 0))
		c += COST_SOFT;
	if (s->e[a].points2 != s->e[b].points2) {
		long long gap = s->e[a].points2 - s->e[b].points2;
		c += COST_GROUP + gap * gap;
	}
	return c;
}

/* The cheapest pairing of the nodes in `left` (exact; k <= 21). */
static long long
exact(struct swiss *s, uint32_t left)
{
	long long best = -1;
	int i, bestj = -1;

	if (!left)
		return 0;
	if (s->memo[left] >= 0)
		return s->memo[left];
	i = __builtin_ctz(left);
	for (int j = i + 1; j < s->k; j++) {
		if (!(left >> j & 1))
			continue;
		long long c = pair_cost(s, i, j) + exact(s, left & ~(1u << i) & ~(1u << j));
		if (best < 0 || c < best) {
			best = c;
			bestj = j;
		}
	}
	s->memo[left] = best;
	s->choice[left] = (signed char)bestj;
	return best;
}

/* Greedy with backtracking, in rank order, cheapest partner first, no
 * pair costlier than s->limit; 1 when everyone is paired. */
static int
greedy(struct swiss *s)
{
	int i = 0, order[WL_MAX_PLAYERS + 1], n = 0;

	while (i < s->k && s->mate[i] >= 0)
		i++;
	if (i == s->k)
		return 1;
	if (--s->budget < 0)
		return 0;
	for (int j = i + 1; j < s->k; j++)
		if (s->mate[j] < 0 && pair_cost(s, i, j) <= s->limit)
			order[n++] = j;
	for (int a = 1; a < n; a++)   /* cheapest first; stable: rank order among equals */
		for (int b = a; b > 0 && pair_cost(s, i, order[b]) < pair_cost(s, i, order[b - 1]); b--) {
			int t = order[b];
			order[b] = order[b - 1];
			order[b - 1] = t;
		}
	for (int a = 0; a < n; a++) {
		s->mate[i] = order[a];
		s->mate[order[a]] = i;
		if (greedy(s))
			return 1;
		s->mate[i] = s->mate[order[a]] = -1;
	}
	return 0;
}

/* Active players in rank order: points, then seeding. */
static int
ranked(int n, const struct wl_entry *e, int *out)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		if (e[i].active)
			out[k++] = i;
	for (int a = 1; a < k; a++)
		for (int b = a; b > 0 && e[out[b]].points2 > e[out[b - 1]].points2; b--) {
			int t = out[b];
			out[b] = out[b - 1];
			out[b - 1] = t;
		}
	return k;
}

/* White for the one further behind on whites, else the one due it by
 * alternation, else the higher-ranked (x, the earlier node). */
static void
colours(const struct wl_entry *e, int a, int b, struct wl_table *t)
{
	int da = e[a].whites - e[a].blacks, db = e[b].whites - e[b].blacks, a_white;

	if (da != db)
		a_white = da < db;
	else if (e[a].last_colour != e[b].last_colour && e[a].last_colour >= 0 &&
	         e[b].last_colour >= 0)
		a_white = e[a].last_colour == 1;
	else
		a_white = e[a].last_colour != 0;
	t->size = 2;
	t->seat[0] = a_white ? a : b;
	t->seat[1] = a_white ? b : a;
}

int
wl_swiss_pair(int n, const struct wl_entry *e, const uint8_t *met, struct wl_table *out)
{
	struct swiss s = {.e = e, .met = met, .n = n};
	int k = 0, tables = 0;

	if (n < 1 || n > WL_MAX_PLAYERS)
		return -1;
	k = ranked(n, e, s.who);
	if (k < 2)
		return -1;
	if (k % 2)
		s.who[k++] = WL_BYE;
	s.k = k;
	memset(s.mate, -1, sizeof(s.mate));
	if (k <= 21) {
		s.memo = malloc(sizeof(*s.memo) << k);
		s.choice = malloc((size_t)1 << k);
		if (!s.memo || !s.choice) {
			free(s.memo);
			free(s.choice);
			return -1;
		}
		memset(s.memo, -1, sizeof(*s.memo) << k);
		uint32_t left = (uint32_t)((1ULL << k) - 1);
		exact(&s, left);
		while (left) {
			int i = __builtin_ctz(left), j = s.choice[left];
			s.mate[i] = j;
			s.mate[j] = i;
			left &= ~(1u << i) & ~(1u << j);
		}
		free(s.memo);
		free(s.choice);
	} else {
		static const long long limits[] = {COST_COLOUR - 1, COST_REMATCH - 1, -1};
		int done = 0;
		for (int l = 0; !done && l < 3; l++) {
			s.limit = limits[l] < 0 ? 1LL << 62 : limits[l];
			s.budget = 200000;
			memset(s.mate, -1, sizeof(s.mate));
			done = greedy(&s);
		}
		if (!done)
			return -1;
	}
	for (int i = 0; i < k; i++) {
		int j = s.mate[i];
		if (j < i)
			continue;
		if (s.who[j] == WL_BYE || s.who[i] == WL_BYE) {
			int p = s.who[i] == WL_BYE ? s.who[j] : s.who[i];
			if (e[p].byes > 0)
				return -1;   /* everyone had one: no round left */
			out[tables].size = 1;
			out[tables++].seat[0] = p;
			continue;
		}
		colours(e, s.who[i], s.who[j], &out[tables++]);
	}
	return tables;
}

/* --------------------------------------------------- tables of 3 or 4 */

static long long
table_cost(const struct wl_table *t, int n, const struct wl_entry *e, const uint8_t *met)
{
	long long c = 0;
	int lo = e[t->seat[0]].points2, hi = lo;

	for (int a = 0; a < t->size; a++) {
		int p = e[t->seat[a]].points2;
		lo = p < lo ? p : lo;
		hi = p > hi ? p : hi;
		for (int b = a + 1; b < t->size; b++)
			c += 1000LL * met[t->seat[a] * n + t->seat[b]];
	}
	return c + (hi - lo);
}

int
wl_group_tables(int n, int size, const struct wl_entry *e, const uint8_t *met,
                struct wl_table *out)
{
	int order[WL_MAX_PLAYERS], k, out_n = 0, sit, seated = 0;

	if (n < 1 || n > WL_MAX_PLAYERS || size < 3 || size > WL_MAX_TABLE)
		return -1;
	k = ranked(n, e, order);
	if (k < size)
		return -1;
	sit = k % size;
	/* Those who sit out: from the bottom, none twice. */
	for (int i = k - 1; i >= 0 && sit > 0; i--) {
		if (e[order[i]].byes > 0)
			continue;
		out[out_n].size = 1;
		out[out_n++].seat[0] = order[i];
		order[i] = -1;
		sit--;
	}
	if (sit > 0)
		return -1;
	int first = out_n;
	for (int i = 0; i < k; i++) {
		if (order[i] < 0)
			continue;
		if (seated % size == 0)
			out[out_n++].size = 0;
		out[out_n - 1].seat[out[out_n - 1].size++] = order[i];
		seated++;
	}
	/* Exchanges between tables while one lowers the cost (met again, then
	 * the spread of points at a table). */
	for (int pass = 0, better = 1; better && pass < 50; pass++) {
		better = 0;
		for (int x = first; x < out_n; x++)
			for (int y = x + 1; y < out_n && y <= x + 2; y++)
				for (int a = 0; a < size; a++)
					for (int b = 0; b < size; b++) {
						struct wl_table tx = out[x], ty = out[y];
						long long before = table_cost(&tx, n, e, met) +
						                   table_cost(&ty, n, e, met);
						int t = tx.seat[a];
						tx.seat[a] = ty.seat[b];
						ty.seat[b] = t;
						if (table_cost(&tx, n, e, met) + table_cost(&ty, n, e, met) <
						    before) {
							out[x] = tx;
							out[y] = ty;
							better = 1;
						}
					}
	}
	return out_n;
}

int
wl_max_rounds(int n, int table)
{
	int sit;

	if (table < 2 || table > WL_MAX_TABLE || n < table || n > WL_MAX_PLAYERS)
		return 0;
	if (table == 2)
		return n % 2 ? n : n - 1;
	sit = n % table;
	return sit ? (n / sit < n - 1 ? n / sit : n - 1) : n - 1;
}
