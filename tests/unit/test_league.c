/* Tournament pairings and standings (srv/league/, issue 29 "Correspondence
 * tournaments and ladders"): the round robin's tables, Swiss pairing
 * checked as properties over many seeded random events (no avoidable
 * rematch, one bye at most a player, a colour difference of at most 2,
 * pairs within their score group when possible: against an exhaustive
 * search on small events), tables of 3 and 4, and every tie-break against
 * hand-computed examples. */
#include <stdlib.h>

#include "check.h"
#include "league.h"

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static unsigned
roll(unsigned bound)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % bound);
}

static void
round_robin_table(void)
{
	int ok_meet = 1, ok_once = 1, ok_bye = 1, ok_colour = 1;

	for (int n = 2; n <= 13; n++)
		for (int cycles = 1; cycles <= 2; cycles++) {
			static uint8_t met[WL_MAX_PLAYERS * WL_MAX_PLAYERS];
			int byes[WL_MAX_PLAYERS] = {0}, diff[WL_MAX_PLAYERS] = {0};
			int rounds = wl_round_robin_rounds(n, cycles);
			memset(met, 0, sizeof(met));
			for (int r = 1; r <= rounds; r++) {
				struct wl_table t[WL_MAX_PLAYERS];
				int seen[WL_MAX_PLAYERS] = {0}, k = wl_round_robin(n, cycles, r, t);
				for (int i = 0; i < k; i++) {
					for (int a = 0; a < t[i].size; a++)
						ok_once &= ++seen[t[i].seat[a]] == 1;
					if (t[i].size == 1) {
						byes[t[i].seat[0]]++;
						continue;
					}
					met[t[i].seat[0] * n + t[i].seat[1]]++;
					met[t[i].seat[1] * n + t[i].seat[0]]++;
					diff[t[i].seat[0]]++;
					diff[t[i].seat[1]]--;
				}
				for (int p = 0; p < n; p++)
					ok_once &= seen[p] == 1;
			}
			for (int a = 0; a < n; a++) {
				ok_bye &= byes[a] == (n % 2 ? cycles : 0);
				ok_colour &= abs(diff[a]) <= (cycles == 1 ? 1 : 0);
				for (int b = 0; b < n; b++)
					ok_meet &= a == b || met[a * n + b] == cycles;
			}
			CHECK(wl_round_robin(n, cycles, rounds + 1, NULL) == -1, "no round after the last");
		}
	CHECK(ok_meet, "issue 29, round robin: every pair meets once a cycle (single or double)");
	CHECK(ok_once, "round robin: every player in every round exactly once");
	CHECK(ok_bye, "round robin, odd players: one bye each a cycle");
	CHECK(ok_colour, "round robin: colours balanced within one a cycle, exactly over two");
	CHECK(wl_round_robin_rounds(5, 1) == 5 && wl_round_robin_rounds(6, 2) == 10,
	      "round robin: rounds");
}

/* ------------------------------------------------ Swiss, as properties */

struct crit {
	int rematch, colour, cross;
};

/* The exhaustive best (rematches, colour conflicts, pairs across score
 * groups) of the active players, a bye node when odd: the reference the
 * pairing is held to on small events. */
static void
brute(const int *nodes, int k, uint32_t left, const struct wl_entry *e, const uint8_t *met, int n,
      struct crit so_far, struct crit *best)
{
	if (!left) {
		if (so_far.rematch < best->rematch ||
		    (so_far.rematch == best->rematch &&
		     (so_far.colour < best->colour ||
		      (so_far.colour == best->colour && so_far.cross < best->cross))))
			*best = so_far;
		return;
	}
	int i = __builtin_ctz(left);
	for (int j = i + 1; j < k; j++) {
		if (!(left >> j & 1))
			continue;
		struct crit c = so_far;
		int a = nodes[i], b = nodes[j];
		if (a < 0 || b < 0) {
			c.rematch += e[a < 0 ? b : a].byes > 0;
		} else {
			int da = e[a].whites - e[a].blacks, db = e[b].whites - e[b].blacks;
			c.rematch += met[a * n + b] > 0;
			c.colour += (da >= 2 && db >= 2) || (da <= -2 && db <= -2);
			c.cross += e[a].points2 != e[b].points2;
		}
		brute(nodes, k, left & ~(1u << i) & ~(1u << j), e, met, n, c, best);
	}
}

static void
swiss_properties(void)
{
	int events = 0, rounds_paired = 0, ok_once = 1, ok_rematch = 1, ok_bye = 1, ok_colour = 1;
	int ok_group = 1, ok_dirac = 1, compared = 0;
	static uint8_t met[WL_MAX_PLAYERS * WL_MAX_PLAYERS];

	for (int ev = 0; ev < 400; ev++) {
		int n = 3 + roll(ev % 4 == 0 ? 30 : 10);   /* a quarter past 20 (the greedy search) */
		struct wl_entry e[WL_MAX_PLAYERS];
		int rounds = wl_max_rounds(n, 2);
		if (rounds > 9)
			rounds = 9;
		memset(e, 0, sizeof(e));
		memset(met, 0, sizeof(met));
		for (int p = 0; p < n; p++) {
			e[p].active = 1;
			e[p].last_colour = -1;
		}
		events++;
		for (int r = 1; r <= rounds; r++) {
			struct wl_table t[WL_MAX_PLAYERS];
			int seen[WL_MAX_PLAYERS] = {0}, k = wl_swiss_pair(n, e, met, t);
			struct crit got = {0, 0, 0};
			if (k < 0) {
				ok_bye &= n % 2 == 1;   /* only an odd event runs out of byes */
				break;
			}
			rounds_paired++;
			if (n <= 11) {
				int nodes[WL_MAX_PLAYERS + 1], kk = 0;
				for (int p = 0; p < n; p++)
					nodes[kk++] = p;
				if (kk % 2)
					nodes[kk++] = -1;
				struct crit best = {1 << 20, 0, 0};
				brute(nodes, kk, (uint32_t)((1ULL << kk) - 1), e, met, n, best, &best);
				best = (struct crit){1 << 20, 0, 0};
				brute(nodes, kk, (uint32_t)((1ULL << kk) - 1), e, met, n, (struct crit){0, 0, 0},
				      &best);
				for (int i = 0; i < k; i++) {
					if (t[i].size == 1) {
						got.rematch += e[t[i].seat[0]].byes > 0;
						continue;
					}
					int a = t[i].seat[0], b = t[i].seat[1];
					int da = e[a].whites - e[a].blacks, db = e[b].whites - e[b].blacks;
					got.rematch += met[a * n + b] > 0;
					got.colour += (da >= 2 && db >= 2) || (da <= -2 && db <= -2);
					got.cross += e[a].points2 != e[b].points2;
				}
				ok_rematch &= got.rematch == best.rematch;
				ok_group &= got.rematch != best.rematch || got.colour != best.colour ||
				            got.cross == best.cross;
				compared++;
			}
			for (int i = 0; i < k; i++) {
				for (int a = 0; a < t[i].size; a++)
					ok_once &= ++seen[t[i].seat[a]] == 1;
				if (t[i].size == 1) {
					ok_bye &= e[t[i].seat[0]].byes++ == 0;
					e[t[i].seat[0]].points2 += 2;
					continue;
				}
				int a = t[i].seat[0], b = t[i].seat[1], res = (int)roll(3);
				/* Dirac: with r - 1 < n/2 - 1 rounds played the players
				 * not yet met leave a pairing without a rematch. */
				if (r <= n / 2 - 1 && met[a * n + b])
					ok_dirac = 0;
				met[a * n + b]++;
				met[b * n + a]++;
				e[a].whites++, e[a].last_colour = 0;
				e[b].blacks++, e[b].last_colour = 1;
				e[a].points2 += res;
				e[b].points2 += 2 - res;
			}
			for (int p = 0; p < n; p++) {
				ok_once &= seen[p] == 1;
				ok_colour &= abs(e[p].whites - e[p].blacks) <= 2;
			}
		}
	}
	CHECK(ok_once, "issue 29, Swiss: every active player paired once a round");
	CHECK(ok_rematch, "Swiss: no rematch while one can be avoided (exhaustive search, <= 11 players)");
	CHECK(ok_dirac, "Swiss: no rematch in the first n/2 - 1 rounds (any size, greedy too)");
	CHECK(ok_bye, "Swiss: at most one bye a player");
	CHECK(ok_colour, "Swiss: colour imbalance at most 2");
	CHECK(ok_group, "Swiss: as few pairs across score groups as possible (exhaustive search)");
	CHECK(events == 400 && compared > 500 && rounds_paired > 1500, "Swiss: the events ran");
	printf("swiss: %d events, %d rounds paired, %d compared with the exhaustive search\n",
	       events, rounds_paired, compared);
}

static void
withdrawn_and_byes(void)
{
	struct wl_entry e[5];
	uint8_t met[25] = {0};
	struct wl_table t[5];

	memset(e, 0, sizeof(e));
	for (int p = 0; p < 5; p++)
		e[p].active = 1, e[p].last_colour = -1, e[p].points2 = 8 - 2 * p;
	e[4].byes = 1;   /* the lowest had a bye: the next lowest takes it */
	int k = wl_swiss_pair(5, e, met, t), bye = -1;
	for (int i = 0; i < k; i++)
		if (t[i].size == 1)
			bye = t[i].seat[0];
	CHECK(k == 3 && bye == 3, "Swiss: the bye to the lowest-ranked without one");
	e[2].active = 0;   /* withdrawn: not paired, no bye needed */
	k = wl_swiss_pair(5, e, met, t);
	CHECK(k == 2 && t[0].size == 2 && t[1].size == 2, "Swiss: a withdrawn player is not paired");
	for (int p = 0; p < 5; p++)
		e[p].byes = 1, e[p].active = 1;
	CHECK(wl_swiss_pair(5, e, met, t) == -1, "Swiss: no round when everyone had the bye");
	CHECK(wl_max_rounds(6, 2) == 5 && wl_max_rounds(7, 2) == 7 && wl_max_rounds(1, 2) == 0,
	      "Swiss: the most rounds of 2");
	CHECK(wl_max_rounds(10, 4) == 5 && wl_max_rounds(12, 3) == 11 && wl_max_rounds(2, 3) == 0,
	      "tables of 3-4: rounds limited by one bye each");
}

static void
tables_of_three_and_four(void)
{
	int ok_once = 1, ok_bye = 1, ok_size = 1, repeats = 0, pairs = 0;
	static uint8_t met[WL_MAX_PLAYERS * WL_MAX_PLAYERS];

	for (int ev = 0; ev < 100; ev++) {
		int size = 3 + ev % 2, n = size + roll(14);
		struct wl_entry e[WL_MAX_PLAYERS];
		int rounds = wl_max_rounds(n, size);
		memset(e, 0, sizeof(e));
		memset(met, 0, sizeof(met));
		for (int p = 0; p < n; p++)
			e[p].active = 1, e[p].last_colour = -1;
		for (int r = 1; r <= rounds && r <= 6; r++) {
			struct wl_table t[WL_MAX_PLAYERS];
			int seen[WL_MAX_PLAYERS] = {0}, k = wl_group_tables(n, size, e, met, t);
			if (k < 0) {
				ok_bye = 0;
				break;
			}
			for (int i = 0; i < k; i++) {
				ok_size &= t[i].size == 1 || t[i].size == size;
				for (int a = 0; a < t[i].size; a++) {
					ok_once &= ++seen[t[i].seat[a]] == 1;
					for (int b = a + 1; b < t[i].size; b++) {
						int x = t[i].seat[a], y = t[i].seat[b];
						repeats += met[x * n + y] > 0;
						pairs++;
						met[x * n + y]++, met[y * n + x]++;
					}
				}
				if (t[i].size == 1)
					ok_bye &= e[t[i].seat[0]].byes++ == 0;
				else   /* a finishing order at random: the first takes the most */
					for (int a = 0; a < t[i].size; a++)
						e[t[i].seat[a]].points2 += 2 * (int)roll((unsigned)size);
			}
			for (int p = 0; p < n; p++)
				ok_once &= seen[p] == 1;
		}
	}
	CHECK(ok_once && ok_size, "issue 29, multi-seat: tables of the event's size, each player once");
	CHECK(ok_bye, "multi-seat: those who sit out take one bye at most");
	CHECK(repeats * 4 < pairs, "multi-seat: meetings repeated in under a quarter of the pairs");
	printf("tables of 3-4: %d of %d meetings repeated\n", repeats, pairs);
}

/* ------------------------------------------------- standings by hand */

static struct wl_result
game(int round, int a, int b, int result)   /* result: 1 a wins, 0 draw, -1 b wins */
{
	struct wl_result r = {.t = {.size = 2, .seat = {a, b}}, .round = round};
	r.place[0] = result < 0 ? 2 : 1;
	r.place[1] = result > 0 ? 2 : 1;
	return r;
}

static void
standings_by_hand(void)
{
	/* Round robin of four, A-D = 0-3: A beats B, C beats A, A beats D, B
	 * beats C, B beats D, C draws D. Points A 2, B 2, C 1.5, D 0.5.
	 * Sonneborn-Berger: A 2 (B) + 0.5 (D) = 2.5; B 1.5 (C) + 0.5 (D) =
	 * 2; C 2 (A) + 0.25 (half of D's) = 2.25; D 0.75 (half of C's). */
	struct wl_result rr[] = {game(1, 0, 1, 1), game(1, 2, 3, 0), game(2, 2, 0, 1),
	                         game(2, 1, 3, 1), game(3, 0, 3, 1), game(3, 1, 2, 1)};
	struct wl_standing s[4];
	wl_standings(4, rr, 6, WL_TB_SB, s);
	CHECK(s[0].player == 0 && s[0].points2 == 4 && s[0].sb4 == 10 && s[0].rank == 1,
	      "Sonneborn-Berger: A 2 points, SB 2.5, first");
	CHECK(s[1].player == 1 && s[1].points2 == 4 && s[1].sb4 == 8 && s[1].rank == 2,
	      "Sonneborn-Berger: B 2 points, SB 2, second on the tie-break");
	CHECK(s[2].player == 2 && s[2].points2 == 3 && s[2].sb4 == 9,
	      "Sonneborn-Berger: C 1.5 points, SB 2.25");
	CHECK(s[3].player == 3 && s[3].points2 == 1 && s[3].sb4 == 3 && s[3].draws == 1 &&
	          s[3].losses == 2, "Sonneborn-Berger: D 0.5, SB 0.75, one draw two losses");

	/* Swiss, six players P1-P6 = 0-5, two rounds. R1: P1 beats P4, P2
	 * draws P5, P3 beats P6. R2: P1 draws P3, P2 beats P6, P4 draws P5.
	 * Points: P1 P2 P3 1.5, P5 1, P4 0.5, P6 0. Buchholz: P1 0.5+1.5 = 2,
	 * P2 1+0 = 1, P3 0+1.5 = 1.5, P4 1.5+1 = 2.5, P5 1.5+0.5 = 2, P6
	 * 1.5+1.5 = 3. So P1, P3, P2 (Buchholz), P5, P4, P6. SB: P1 0.5 +
	 * 0.75 = 1.25, P3 0 + 0.75, P2 0.5 + 0, P5 0.75 + 0.25 = 1. */
	struct wl_result sw[] = {game(1, 0, 3, 1), game(1, 1, 4, 0), game(1, 2, 5, 1),
	                         game(2, 0, 2, 0), game(2, 1, 5, 1), game(2, 3, 4, 0)};
	struct wl_standing w[6];
	static const int order[6] = {0, 2, 1, 4, 3, 5}, bh2[6] = {4, 3, 2, 4, 5, 6},
	                 sb4[6] = {5, 3, 2, 4, 2, 0};
	int ok = 1;
	wl_standings(6, sw, 6, WL_TB_BUCHHOLZ_SB, w);
	for (int i = 0; i < 6; i++)
		ok &= w[i].player == order[i] && w[i].buchholz2 == bh2[i] && w[i].sb4 == sb4[i] &&
		      w[i].rank == i + 1;
	CHECK(ok, "Buchholz, then Sonneborn-Berger: the hand-computed Swiss example");

	/* Buchholz equal, Sonneborn-Berger decides; all equal: one rank. */
	struct wl_result two[] = {game(1, 0, 1, 0)};
	wl_standings(2, two, 1, WL_TB_BUCHHOLZ_SB, w);
	CHECK(w[0].rank == 1 && w[1].rank == 1 && w[0].player == 0,
	      "equal on every key: equal ranks, seeding orders them");

	/* Finishing order (issue 29, multi-seat): one point a seat finished
	 * ahead of, a half a seat level with. */
	struct wl_result four = {.t = {.size = 4, .seat = {0, 1, 2, 3}}, .place = {3, 1, 4, 2}};
	struct wl_result three = {.t = {.size = 3, .seat = {0, 1, 2}}, .place = {1, 2, 2}};
	struct wl_result bye = {.t = {.size = 1, .seat = {0}}};
	struct wl_result pending = {.t = {.size = 2, .seat = {0, 1}}};
	CHECK(wl_points2(&four, 1) == 6 && wl_points2(&four, 3) == 4 && wl_points2(&four, 0) == 2 &&
	          wl_points2(&four, 2) == 0, "four seats by finishing order: 3, 2, 1, 0 points");
	CHECK(wl_points2(&three, 0) == 4 && wl_points2(&three, 1) == 1 && wl_points2(&three, 2) == 1,
	      "three seats, two out in the same post: they draw (a half each)");
	CHECK(wl_points2(&bye, 0) == 2 && wl_points2(&pending, 0) == 0,
	      "a bye is a win; a match not ended counts nothing");
}

static void
ladder(void)
{
	int order[5] = {10, 11, 12, 13, 14};

	CHECK(wl_ladder_may_challenge(4, 2, 2) && !wl_ladder_may_challenge(4, 1, 2) &&
	          !wl_ladder_may_challenge(2, 3, 2) && !wl_ladder_may_challenge(2, 2, 2),
	      "issue 29, ladder: up to N places above, never below or oneself");
	wl_ladder_result(order, 4, 2, 0);
	CHECK(order[2] == 12 && order[4] == 14, "ladder: a defence changes nothing");
	wl_ladder_result(order, 4, 2, 1);
	CHECK(order[2] == 14 && order[4] == 12 && order[3] == 13, "ladder: a win swaps places");
}

int
main(void)
{
	round_robin_table();
	swiss_properties();
	withdrawn_and_byes();
	tables_of_three_and_four();
	standings_by_hand();
	ladder();
	return check_done("league");
}
