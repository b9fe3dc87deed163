/* The undo barrier every ruleset shares (issue 14, "Correspondence
 * play"): what a post must not have done to be taken back. A die rolled
 * is the service's check (the post's recorded draws); here, whether the
 * post told some seat something it did not know and could not see
 * (RULINGS.md G5, G7 amended). */
#include <string.h>

#include "rules.h"

/* The "phase" member of the spectator's view, or "" when none. */
static int
same_phase(const struct wr_ruleset *rs, const void *before, const void *after)
{
	json_object *a = rs->view(before, WR_SPECTATOR), *b = rs->view(after, WR_SPECTATOR);
	json_object *pa = NULL, *pb = NULL;
	int same = 1;

	if (json_object_object_get_ex(a, "phase", &pa) | json_object_object_get_ex(b, "phase", &pb))
		same = pa && pb && strcmp(json_object_to_json_string(pa),
		                          json_object_to_json_string(pb)) == 0;
	json_object_put(a);
	json_object_put(b);
	return same;
}

int
wr_sees_all(const struct wr_ruleset *rs, const void *state, int seat)
{
	json_object *mine = rs->view(state, seat), *all = rs->view(state, WR_EVERYONE);
	int same = json_object_equal(mine, all);

	json_object_put(mine);
	json_object_put(all);
	return same;
}

int
wr_undo_reveals(const struct wr_ruleset *rs, const void *before, const void *after, int seat,
                const struct wr_events *ev)
{
	unsigned me = seat >= 0 ? 1u << seat : 0, told = 0;

	/* An event that some other seat sees while not every seat does: it
	 * told that seat something private. An event only to the poster is
	 * its own secret (an army bought, a hidden piece moved). */
	for (size_t i = 0; i < ev->len; i++)
		if (ev->items[i].visible_to != WR_VIS_PUBLIC)
			told |= ev->items[i].visible_to & ~me;
	/* G7 (amended): a seat that saw everything before the post and sees
	 * everything after it learns nothing from its copy. */
	for (int s = 0; s < WR_MAX_SEATS && told; s++)
		if ((told & (1u << s)) && wr_sees_all(rs, before, s) && wr_sees_all(rs, after, s))
			told &= ~(1u << s);
	if (told)
		return 1;
	if (!same_phase(rs, before, after))
		return 1;
	return rs->undo_barrier ? rs->undo_barrier(before, after, seat, ev) != 0 : 0;
}
