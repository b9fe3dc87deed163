/* Blood Chess's pieces (text rule 1, B1): the layout of a side, whose
 * piece is which and of what kind, where it starts, what stands on a
 * square, and the real piece behind a pair's Mirror. The bottom of the
 * rule files: it calls nothing of the ruleset; bc_combat.c, bc_rules.c
 * and the codec call into it. */
#include <string.h>

#include "bc_rules.h"

/* Piece layout per side: K Q R R B B N N, then Pawns a..h. */
static const int layout_kind[BC_PER_SIDE] = {BC_KING,   BC_QUEEN,  BC_ROOK,   BC_ROOK,
                                             BC_BISHOP, BC_BISHOP, BC_KNIGHT, BC_KNIGHT,
                                             BC_PAWN,   BC_PAWN,   BC_PAWN,   BC_PAWN,
                                             BC_PAWN,   BC_PAWN,   BC_PAWN,   BC_PAWN};
static const int layout_file[BC_PER_SIDE] = {4, 3, 0, 7, 2, 5, 1, 6, 0, 1, 2, 3, 4, 5, 6, 7};

int
bc_piece_seat(int i)
{
	return i / BC_PER_SIDE;
}

int
bc_piece_kind(int i)
{
	return layout_kind[i % BC_PER_SIDE];
}

int
bc_char_of_piece(int i)
{
	int k = bc_piece_kind(i);
	return k == BC_PAWN ? -1 : k;
}

int
bc_start_square(int i)
{
	int seat = bc_piece_seat(i), j = i % BC_PER_SIDE;
	int rank = j < 8 ? (seat == 0 ? 0 : 7) : (seat == 0 ? 1 : 6);
	return rank * 8 + layout_file[j];
}

int
bc_start_piece(int sq)
{
	for (int i = 0; i < BC_PIECES; i++)
		if (bc_start_square(i) == sq)
			return i;
	return -1;
}

int
bc_pieces_at(const struct bc_state *st, int sq, int out[2])
{
	int n = 0;
	for (int i = 0; i < BC_PIECES && n < 2; i++)
		if (st->p[i].sq == sq && sq >= 0)
			out[n++] = i;
	return n;
}

int
bc_real_piece(const struct bc_state *st, int seat, int role)
{
	for (int j = 0; j < 8; j++) {
		int i = seat * BC_PER_SIDE + j;
		if (layout_kind[j] == role && !st->p[i].decoy && st->p[i].sq >= 0)
			return i;
	}
	return -1;
}

/* A Mirror is an exact replica: it shows its character's condition. */
int
bc_piece_looks_unconscious(const struct bc_state *st, int i)
{
	int role = bc_char_of_piece(i);
	const struct bc_char *c;

	if (role < 0 || st->p[i].sq < 0)
		return 0;
	c = &st->ch[bc_piece_seat(i)][role];
	if (c->removed)
		return 0;   /* the Mirror of a removed character stands on */
	return c->unconscious;
}
