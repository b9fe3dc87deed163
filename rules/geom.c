/* Board geometry shared by every ruleset: squares, directions, rays,
 * knight jumps, distances and line of sight. */
#include <stdlib.h>

#include "rules.h"

const struct wr_board wr_board8 = {8, 8};

/* N NE E SE S SW W NW; north is towards rank 8. */
const int wr_dir_df[8] = {0, 1, 1, 1, 0, -1, -1, -1};
const int wr_dir_dr[8] = {1, 1, 0, -1, -1, -1, 0, 1};

int
wr_square(const struct wr_board *b, int file, int rank)
{
	if (file < 0 || file >= b->files || rank < 0 || rank >= b->ranks)
		return WR_NO_SQUARE;
	return rank * b->files + file;
}

int
wr_file(const struct wr_board *b, int sq)
{
	return sq % b->files;
}

int
wr_rank(const struct wr_board *b, int sq)
{
	return sq / b->files;
}

int
wr_square_parse(const struct wr_board *b, const char *name)
{
	int file, rank = 0;
	const char *p;

	if (!name || name[0] < 'a' || name[0] > 'z')
		return WR_NO_SQUARE;
	file = name[0] - 'a';
	p = name + 1;
	if (*p < '1' || *p > '9')
		return WR_NO_SQUARE;
	while (*p >= '0' && *p <= '9' && rank < 100)
		rank = rank * 10 + (*p++ - '0');
	if (*p || rank < 1)
		return WR_NO_SQUARE;
	return wr_square(b, file, rank - 1);
}

const char *
wr_square_name(const struct wr_board *b, int sq, char buf[8])
{
	if (sq < 0 || sq >= b->files * b->ranks) {
		buf[0] = '\0';
		return buf;
	}
	/* By hand, not snprintf: action lists name thousands of squares
	 * (issue 17). A file letter, then the rank 1..99. */
	unsigned rank = (unsigned)(wr_rank(b, sq) + 1) % 100u;
	char *p = buf;
	*p++ = (char)('a' + wr_file(b, sq) % 26);
	if (rank >= 10)
		*p++ = (char)('0' + rank / 10);
	*p++ = (char)('0' + rank % 10);
	*p = '\0';
	return buf;
}

int
wr_step(const struct wr_board *b, int sq, int dir)
{
	return wr_square(b, wr_file(b, sq) + wr_dir_df[dir], wr_rank(b, sq) + wr_dir_dr[dir]);
}

int
wr_ray(const struct wr_board *b, int sq, int dir, int max, int *out)
{
	int n = 0;

	for (int s = wr_step(b, sq, dir); s != WR_NO_SQUARE && n < max; s = wr_step(b, s, dir))
		out[n++] = s;
	return n;
}

int
wr_knight_jumps(const struct wr_board *b, int sq, int out[8])
{
	static const int df[8] = {1, 2, 2, 1, -1, -2, -2, -1};
	static const int dr[8] = {2, 1, -1, -2, -2, -1, 1, 2};
	int n = 0, f = wr_file(b, sq), r = wr_rank(b, sq);

	for (int i = 0; i < 8; i++) {
		int s = wr_square(b, f + df[i], r + dr[i]);
		if (s != WR_NO_SQUARE)
			out[n++] = s;
	}
	return n;
}

static int
sign(int x)
{
	return (x > 0) - (x < 0);
}

int
wr_line_dir(const struct wr_board *b, int a, int c)
{
	int df = wr_file(b, c) - wr_file(b, a), dr = wr_rank(b, c) - wr_rank(b, a);

	if (a == c || (df != 0 && dr != 0 && abs(df) != abs(dr)))
		return -1;
	for (int d = 0; d < 8; d++)
		if (wr_dir_df[d] == sign(df) && wr_dir_dr[d] == sign(dr))
			return d;
	return -1;
}

int
wr_between(const struct wr_board *b, int a, int c, int *out)
{
	int d = wr_line_dir(b, a, c), n = 0;

	if (d < 0)
		return 0;
	for (int s = wr_step(b, a, d); s != c && s != WR_NO_SQUARE; s = wr_step(b, s, d))
		out[n++] = s;
	return n;
}

int
wr_chebyshev(const struct wr_board *b, int a, int c)
{
	int df = abs(wr_file(b, c) - wr_file(b, a)), dr = abs(wr_rank(b, c) - wr_rank(b, a));
	return df > dr ? df : dr;
}

int
wr_manhattan(const struct wr_board *b, int a, int c)
{
	return abs(wr_file(b, c) - wr_file(b, a)) + abs(wr_rank(b, c) - wr_rank(b, a));
}

/* Walks the segment between the two centres cell by cell. In units of
 * half a square the centres sit on odd coordinates and the grid lines on
 * even ones, so the k-th file line is crossed at t = (2k-1) / (2|df|)
 * and the m-th rank line at t = (2m-1) / (2|dr|); comparing
 * (2k-1)|dr| with (2m-1)|df| orders the crossings exactly. Equal means the
 * segment passes through a corner: it goes between the two squares that
 * meet there, and is blocked only when both are occupied (C6). */
int
wr_line_of_sight(const struct wr_board *b, int from, int to,
                 int (*occupied)(int sq, void *ctx), void *ctx)
{
	int f = wr_file(b, from), r = wr_rank(b, from);
	int df = wr_file(b, to) - f, dr = wr_rank(b, to) - r;
	int sf = sign(df), sr = sign(dr), adf = abs(df), adr = abs(dr);
	int k = 1, m = 1;

	while (k <= adf || m <= adr) {
		long tx = 2L * k - 1, ty = 2L * m - 1;
		long lhs = tx * adr, rhs = ty * adf;
		if (k <= adf && m <= adr && lhs == rhs) {
			int side1 = wr_square(b, f + sf, r), side2 = wr_square(b, f, r + sr);
			if (occupied(side1, ctx) && occupied(side2, ctx))
				return 0;
			f += sf;
			r += sr;
			k++;
			m++;
		} else if (m > adr || (k <= adf && lhs < rhs)) {
			f += sf;
			k++;
		} else {
			r += sr;
			m++;
		}
		int sq = wr_square(b, f, r);
		if (sq != to && occupied(sq, ctx))
			return 0;
	}
	return 1;
}
