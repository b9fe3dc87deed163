/* Officers Chess (001_acae27716807a788.txt), on the ruleset template. */
#ifndef OC_OFFICERS_CHESS_H
#define OC_OFFICERS_CHESS_H

#include "rules.h"

extern const struct wr_ruleset oc_ruleset;

#endif
