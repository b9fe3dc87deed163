/* Shared board geometry (rules/geom.c). */
#include "../unit/check.h"
#include "rules.h"

static const struct wr_board *B = &wr_board8;

static int occ[64];
static int
is_occ(int sq, void *ctx)
{
	return sq >= 0 && occ[sq];
}

static int
sq(const char *n)
{
	return wr_square_parse(B, n);
}

static int
los(const char *a, const char *b)
{
	return wr_line_of_sight(B, sq(a), sq(b), is_occ, NULL);
}

static void
clear(void)
{
	memset(occ, 0, sizeof(occ));
}

int
main(void)
{
	char buf[8];
	int out[16];

	CHECK(sq("a1") == 0 && sq("h1") == 7 && sq("a8") == 56 && sq("h8") == 63,
	      "RULINGS.md G1: a1..h8, files a-h, rank 1 first");
	CHECK(sq("i1") == -1 && sq("a9") == -1 && sq("a0") == -1 && sq("a") == -1 &&
	          sq("A1") == -1 && sq("a1x") == -1 && sq("") == -1 && sq(NULL) == -1,
	      "not squares");
	CHECK_STR(wr_square_name(B, 28, buf), "e4", "name of e4");
	struct wr_board big = {16, 16};
	CHECK(wr_square_parse(&big, "p16") == 255, "a 16x16 board (RULINGS.md C11)");
	CHECK_STR(wr_square_name(&big, 255, buf), "p16", "name on a 16x16 board");
	/* The name is written by hand (issue 17): every square of the largest
	 * board named reads back as itself; off the board it is empty. */
	struct wr_board widest = {26, 99};
	int round_trip = 1;
	for (int s = 0; s < 26 * 99; s++)
		round_trip &= wr_square_parse(&widest, wr_square_name(&widest, s, buf)) == s;
	CHECK(round_trip, "every square of a 26x99 board named and parsed back");
	CHECK_STR(wr_square_name(&widest, 26 * 99, buf), "", "no name off the board");
	CHECK_STR(wr_square_name(&widest, 26 * 98 + 25, buf), "z99", "the last square");

	CHECK(wr_step(B, sq("e4"), 0) == sq("e5"), "north is up the ranks");
	CHECK(wr_step(B, sq("h4"), 2) == WR_NO_SQUARE, "east off the board");
	CHECK(wr_ray(B, sq("a1"), 1, 8, out) == 7 && out[6] == sq("h8"), "diagonal ray");
	CHECK(wr_ray(B, sq("d4"), 0, 2, out) == 2 && out[1] == sq("d6"), "ray capped");
	CHECK(wr_knight_jumps(B, sq("a1"), out) == 2, "knight in the corner has 2 jumps");
	CHECK(wr_knight_jumps(B, sq("d4"), out) == 8, "knight in the centre has 8 jumps");
	CHECK(wr_knight_jumps(B, sq("b1"), out) == 3, "knight on b1 has 3 jumps");

	CHECK(wr_chebyshev(B, sq("a1"), sq("c7")) == 6, "king steps");
	CHECK(wr_manhattan(B, sq("a1"), sq("c7")) == 8, "Manhattan");
	CHECK(wr_line_dir(B, sq("a1"), sq("a5")) == 0, "same file");
	CHECK(wr_line_dir(B, sq("a1"), sq("b3")) == -1, "no line");
	CHECK(wr_between(B, sq("a1"), sq("d4"), out) == 2 && out[0] == sq("b2"), "between");

	clear();
	CHECK(los("a1", "a8"), "clear file");
	occ[sq("a4")] = 1;
	CHECK(!los("a1", "a8"), "a unit on the line blocks (RULINGS.md C6)");
	CHECK(los("a1", "a4"), "the target square does not block itself");
	clear();
	occ[sq("b2")] = 1;
	CHECK(!los("a1", "c3"), "diagonal through an occupied square");
	clear();
	/* a1 -> b2 passes the corner between a2 and b1. */
	occ[sq("a2")] = 1;
	CHECK(los("a1", "b2"), "C6: exactly between two squares, one empty: the firer takes it");
	occ[sq("b1")] = 1;
	CHECK(!los("a1", "b2"), "C6: exactly between two squares, both occupied: blocked");
	clear();
	/* a1 -> c2: centre line crosses the file line x=1 at y=1 (the
	 * middle of b's column at the rank line between b1 and b2? no: at
	 * y = 1.0 exactly, a corner) -- (0.5,0.5)->(2.5,1.5) passes (1.5,1). */
	occ[sq("b1")] = 1;
	CHECK(!los("a1", "c2"), "a1-c2 passes through b1");
	clear();
	occ[sq("b2")] = 1;
	CHECK(!los("a1", "c2"), "a1-c2 passes through b2");
	clear();
	occ[sq("a2")] = 1;
	occ[sq("c1")] = 1;
	CHECK(los("a1", "c2"), "a1-c2 does not touch a2 or c1");
	clear();
	/* a1 -> e3 (4 by 2) runs through a1 b1 b2 c2 d2 d3 e3 and no corner. */
	const char *path_e3[] = {"b1", "b2", "c2", "d2", "d3"};
	for (int i = 0; i < 5; i++) {
		clear();
		occ[sq(path_e3[i])] = 1;
		CHECK(!los("a1", "e3"), path_e3[i]);
	}
	clear();
	occ[sq("a2")] = occ[sq("c1")] = occ[sq("c3")] = occ[sq("e2")] = 1;
	CHECK(los("a1", "e3"), "a1-e3 touches none of a2 c1 c3 e2");
	/* a1 -> d2 (3 by 1) passes the corner of b1 c1 b2 c2 at (2, 1): from
	 * b1 to c2, between c1 and b2. */
	clear();
	occ[sq("c1")] = 1;
	CHECK(los("a1", "d2"), "C6: corner of c1/b2, only c1 occupied: clear");
	occ[sq("b2")] = 1;
	CHECK(!los("a1", "d2"), "C6: corner of c1/b2, both occupied: blocked");
	clear();
	occ[sq("b1")] = 1;
	CHECK(!los("a1", "d2"), "a1-d2 runs through b1");
	clear();
	occ[sq("c2")] = 1;
	CHECK(!los("a1", "d2"), "a1-d2 runs through c2");
	CHECK(los("d2", "a1") == los("a1", "d2"), "sight is symmetric here");
	clear();
	int blocked = 0;
	for (int a = 0; a < 64; a++)
		for (int b = 0; b < 64; b++)
			blocked += a != b && !wr_line_of_sight(B, a, b, is_occ, NULL);
	CHECK(blocked == 0, "an empty board never blocks");
	return check_done("geom");
}
