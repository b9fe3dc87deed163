/* The rulesets a server offers: one const table, fixed when the program
 * is linked, so no request ever sees it half filled. A new ruleset is one
 * line here. The test servers compile this file a second time with
 * WR_TEST_RULESETS (tests/testrules/CMakeLists.txt): their table also
 * lists the test-only ruleset, which the product never offers. */
#include <string.h>

#include "rules.h"
#include "chesswar/chesswar.h"
#include "confrontation/confrontation.h"
#include "wargame-chess/wargame_chess.h"
#include "officers-chess/officers_chess.h"
#include "blood-chess/blood_chess.h"
#ifdef WR_TEST_RULESETS
#include "tr.h"
#endif

static const struct wr_ruleset *const table[] = {
	&cf_ruleset,
	&wc_ruleset,
	&oc_ruleset,
	&bc_ruleset,
	&cw_ruleset,
#ifdef WR_TEST_RULESETS
	&tr_ruleset,
#endif
};

#define WR_NRULESETS (sizeof(table) / sizeof(table[0]))

const struct wr_ruleset *
wr_ruleset_find(const char *id)
{
	for (size_t i = 0; i < WR_NRULESETS; i++)
		if (strcmp(table[i]->id, id) == 0)
			return table[i];
	return NULL;
}

size_t
wr_ruleset_count(void)
{
	return WR_NRULESETS;
}

const struct wr_ruleset *
wr_ruleset_at(size_t i)
{
	return i < WR_NRULESETS ? table[i] : NULL;
}

void *
wr_clone(const struct wr_ruleset *rs, const void *state)
{
	json_object *snap = rs->save(state);
	void *copy = NULL;
	struct wr_error err;

	if (snap && rs->load(snap, &copy, &err) != 0)
		copy = NULL;
	json_object_put(snap);
	return copy;
}
