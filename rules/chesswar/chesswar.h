/* The ChessWar ruleset (002_0478434554df57bb.txt), for the registry. */
#ifndef CW_CHESSWAR_H
#define CW_CHESSWAR_H

#include "rules.h"

extern const struct wr_ruleset cw_ruleset;

#endif
