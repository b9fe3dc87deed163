/* Tournaments (issue 29): pairings and standings, pure functions over
 * plain arrays (no I/O, no allocation visible to the caller), so that the
 * store can run them inside the transaction that starts a round and the
 * tests can run them on thousands of seeded events.
 *
 * Players are 0..n-1 in the order of their seeding (rating, then joining
 * time): the caller decides. A "game" is a table of 2 to 4 seats; seat 0
 * of a 2-seat table has the first move (White). */
#ifndef WL_LEAGUE_H
#define WL_LEAGUE_H

#include <stdint.h>

#define WL_MAX_PLAYERS 256
#define WL_MAX_TABLE 4
#define WL_BYE (-1)

/* One table of a round: seats[0..size-1] are players; a bye is a table of
 * size 1 (the player sits out and scores the bye's points). */
struct wl_table {
	int size;
	int seat[WL_MAX_TABLE];
};

/* A finished (or adjudicated) table: each seat's place, 1 the best; equal
 * places are a draw between them (a 2-seat draw is 1, 1). A table with
 * places all 0 has no result yet and counts nothing. */
struct wl_result {
	struct wl_table t;
	int place[WL_MAX_TABLE];
	int round;               /* 1-based */
};

/* ------------------------------------------------------- round robin */

/* The Berger table: round r (1..n-1, or 1..n for odd n; twice as many
 * rounds for a double round robin, the second cycle with colours
 * reversed) of a round robin of n players: n/2 tables of 2 and, for odd
 * n, one bye. Returns the number of tables written (at most n/2 + 1), or
 * -1 when r is not a round of it. */
int wl_round_robin_rounds(int n, int cycles);
int wl_round_robin(int n, int cycles, int r, struct wl_table *out);

/* -------------------------------------------------------------- Swiss */

/* What the pairing knows of each player before a round. */
struct wl_entry {
	int points2;             /* points so far, in halves (a win 2, a draw 1) */
	int whites, blacks;      /* 2-seat games as seat 0 and seat 1 */
	int last_colour;         /* 0 White, 1 Black, -1 none yet */
	int byes;
	int active;              /* 0: withdrawn, not paired */
};

/* Pairs the active players for the next round of a Swiss event with
 * tables of 2: no rematch while one can be avoided, at most one bye a
 * player, a colour difference (whites - blacks) kept within 2, and as few
 * pairs across score groups as those allow (exactly so up to 20 active
 * players; a greedy search with backtracking beyond). met[i * n + j] is
 * how often i and j met already. Returns the number of tables (a bye is a
 * table of 1, given to the lowest-ranked player who has had none), or -1
 * when no pairing is possible (every player already had a bye). */
int wl_swiss_pair(int n, const struct wl_entry *e, const uint8_t *met, struct wl_table *out);

/* Tables of `size` (3 or 4) for a round of a multi-seat event: players
 * in order of points (then seeding) fill tables, exchanging players
 * between neighbouring tables to avoid meeting the same opponents again
 * where that helps; n % size players sit out (a bye each), chosen among
 * the lowest-ranked who have had none. Returns the tables, or -1. */
int wl_group_tables(int n, int size, const struct wl_entry *e, const uint8_t *met,
                    struct wl_table *out);

/* The most rounds an event may have: a round robin has its own; a Swiss
 * event of n players at most n - 1 rounds of 2 (no rematch needed) and,
 * with tables of k and n % k players sitting out each round, no more
 * rounds than give everyone one bye at most. 0: too few players. */
int wl_max_rounds(int n, int table);

/* ---------------------------------------------------------- standings */

/* Points, in halves, of one table's seat: one point for each seat it
 * finished ahead of, a half for each it finished level with (a 2-seat
 * win 2, draw 1, loss 0); a bye is worth a win (2). */
int wl_points2(const struct wl_result *r, int seat);

struct wl_standing {
	int player;
	int points2;             /* halves */
	int buchholz2;           /* the sum of opponents' points, halves */
	int sb4;                 /* Sonneborn-Berger, quarters: each opponent's points times the score against it */
	int played, wins, draws, losses, byes;
	int rank;                /* 1-based; equal ranks for equal keys */
};

enum wl_tiebreak { WL_TB_SB, WL_TB_BUCHHOLZ_SB };

/* The standings of n players after the results: points, then the
 * tie-breaks (round robin: Sonneborn-Berger; Swiss: Buchholz, then
 * Sonneborn-Berger), then seeding. Byes count their points but add
 * nothing to Buchholz or Sonneborn-Berger. out[] is in rank order. */
void wl_standings(int n, const struct wl_result *res, int nres, enum wl_tiebreak tb,
                  struct wl_standing *out);

/* ------------------------------------------------------------- ladder */

/* A challenge from the player at place `from` to the one at `to` (places
 * are 0-based ranks, 0 the top) may be made when to is above from by at
 * most `reach` places. 1 when allowed. */
int wl_ladder_may_challenge(int from, int to, int reach);
/* After a challenge: a win of the challenger swaps the two places; any
 * other result changes nothing. order[place] = player. */
void wl_ladder_result(int *order, int from, int to, int challenger_won);

#endif
