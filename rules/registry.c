/* The rulesets a server offers. Product rulesets are listed here; tests
 * add their own with wr_ruleset_register(). */
#include <string.h>

#include "rules.h"
#include "chesswar/chesswar.h"
#include "confrontation/confrontation.h"
#include "wargame-chess/wargame_chess.h"

#define WR_MAX_RULESETS 16

static const struct wr_ruleset *table[WR_MAX_RULESETS];
static size_t count;
static int seeded;

/* Product rulesets, added as their issues land. */
static const struct wr_ruleset *const product[] = {
	&cf_ruleset,
	&wc_ruleset,
	&cw_ruleset,
	NULL,
};

static void
seed(void)
{
	if (seeded)
		return;
	seeded = 1;
	for (size_t i = 0; product[i]; i++)
		table[count++] = product[i];
}

int
wr_ruleset_register(const struct wr_ruleset *rs)
{
	seed();
	if (count == WR_MAX_RULESETS || wr_ruleset_find(rs->id))
		return -1;
	table[count++] = rs;
	return 0;
}

const struct wr_ruleset *
wr_ruleset_find(const char *id)
{
	seed();
	for (size_t i = 0; i < count; i++)
		if (strcmp(table[i]->id, id) == 0)
			return table[i];
	return NULL;
}

size_t
wr_ruleset_count(void)
{
	seed();
	return count;
}

const struct wr_ruleset *
wr_ruleset_at(size_t i)
{
	seed();
	return i < count ? table[i] : NULL;
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
