/* The Confrontation ruleset (004_13fa4739ee387ac7.txt), for the registry. */
#ifndef CF_CONFRONTATION_H
#define CF_CONFRONTATION_H

#include "rules.h"

extern const struct wr_ruleset cf_ruleset;

#endif
