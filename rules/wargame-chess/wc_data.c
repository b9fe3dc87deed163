/* Wargame Chess data: piece types, their dice and costs, the standard set's
 * limits, the Standard faction (RULINGS.md, Wargame Chess W1) and the list
 * of factions a match may choose. Calls nothing else of the ruleset. */
#include <string.h>

#include "wc_rules.h"

const char *const wc_type_names[WC_TYPE_MAX] = {
	"pawn", "rook", "knight", "bishop", "queen", "king", "joker",
};

/* 000_fd193abe0e5c92ac.txt, Piece types: Pawns 2D4, Rooks/Knights/Bishops
 * 2D6, Queens 2D8, Kings 2D10; Jokers 1d20 (RULINGS.md W4). */
const char *const wc_dice[WC_TYPE_MAX] = {"2d4", "2d6", "2d6", "2d6", "2d8", "2d10", "1d20"};

/* 000_fd193abe0e5c92ac.txt, Piece costs and quantities. */
const int wc_type_cost[WC_TYPE_MAX] = {1, 2, 2, 2, 3, 2, 2};

/* "the number of pieces that come with a standard chess set" per side.
 * Jokers are not in a chess set: their roster range alone limits them. */
const int wc_set_limit[WC_TYPE_MAX] = {8, 2, 2, 2, 1, 1, WC_MAX_PIECES};

const char *const wc_kind_names[WC_A_MAX] = {
	"", "team", "trees", "deploy", "activate", "move", "attack",
	"stay", "promote", "end", "defend", "combat_move", "redeploy",
};
const char *const wc_phase_names[] = {"teams", "trees", "deploy", "play", "over"};
const char *const wc_stage_names[] = {"pick", "act", "en_passant", "defend", "combat_move"};
const char *const wc_tree_names[WC_TREES_MAX] = {"mirror", "mirror_flip", "random"};
const char *const wc_order_names[3] = {"ask", "always", "never"};

#define PAWN_RULES (WC_R_EN_PASSANT | WC_R_PROMOTION)

/* RULINGS.md W1: King (1), Queen (0-1), Rook (0-2), Bishop (0-2),
 * Knight (0-2), Joker (0-2), Pawn (0-8), in this rank order. */
static const struct wc_option standard_opts[] = {
	{"king", "King", WC_KING, 1, 1, WC_R_LEADER},
	{"queen", "Queen", WC_QUEEN, 0, 1, 0},
	{"rook", "Rook", WC_ROOK, 0, 2, WC_R_CASTLE},
	{"bishop", "Bishop", WC_BISHOP, 0, 2, 0},
	{"knight", "Knight", WC_KNIGHT, 0, 2, WC_R_MOUNTED},
	{"joker", "Joker", WC_JOKER, 0, 2, WC_R_FOOL},
	{"pawn", "Pawn", WC_PAWN, 0, 8, PAWN_RULES},
};

const struct wc_faction wc_standard = {
	.id = "standard",
	.name = "Standard",
	.opts = standard_opts,
	.nopts = (int)(sizeof(standard_opts) / sizeof(standard_opts[0])),
	.upgrades = NULL,
	.nupgrades = 0,
	.hooks = {0},
};

#define WC_MAX_FACTIONS 8
static const struct wc_faction *factions[WC_MAX_FACTIONS] = {&wc_standard};
static int nfactions = 1;

int
wc_faction_count(void)
{
	return nfactions;
}

const struct wc_faction *
wc_faction_at(int i)
{
	return i >= 0 && i < nfactions ? factions[i] : NULL;
}

int
wc_faction_find(const char *id)
{
	for (int i = 0; id && i < nfactions; i++)
		if (strcmp(factions[i]->id, id) == 0)
			return i;
	return -1;
}

int
wc_faction_add(const struct wc_faction *f)
{
	if (nfactions == WC_MAX_FACTIONS || wc_faction_find(f->id) >= 0 || f->nopts > WC_MAX_OPTS ||
	    f->nupgrades > WC_MAX_UPGRADES)
		return -1;
	factions[nfactions++] = f;
	return 0;
}
