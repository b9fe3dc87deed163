/* "Skirmish", a small ruleset compiled only into the tests (never
 * registered in the product). It exercises what the match service must
 * carry for the real rulesets: hidden pieces, a reaction owed by a seat
 * that is not active, a standing order that answers it in advance, dice,
 * and 2 or 3 seats. */
#ifndef TR_H
#define TR_H

#include "rules.h"

extern const struct wr_ruleset tr_ruleset;

#endif
