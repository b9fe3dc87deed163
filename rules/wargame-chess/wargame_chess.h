/* Wargame Chess (000_fd193abe0e5c92ac.txt with RULINGS.md, Wargame Chess
 * W1-W7): the ruleset a registry lists. */
#ifndef WARGAME_CHESS_H
#define WARGAME_CHESS_H

#include "rules.h"

extern const struct wr_ruleset wc_ruleset;

#endif
