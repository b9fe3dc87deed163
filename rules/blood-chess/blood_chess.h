/* Blood Chess (003_3d0ab55e00bc1e43.txt, RULINGS.md B1-B12). */
#ifndef BLOOD_CHESS_H
#define BLOOD_CHESS_H

#include "rules.h"

extern const struct wr_ruleset bc_ruleset;

#endif
