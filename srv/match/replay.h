/* Auditing a finished match: the export document and its replay. Pure:
 * used by GET /api/games/{id}/verify and, offline, by `warpost verify`. */
#ifndef WP_REPLAY_H
#define WP_REPLAY_H

#include <json-c/json.h>

#include "match.h"

#define WP_EXPORT_FORMAT "warpost-export-1"

/* Replays the export from its revealed seed: the commitment, every roll of
 * every post, the final state, and the declared status, result and seats
 * (a mismatch names the member in "field"). Returns the report (never NULL):
 * {"verified", "commitment_ok", "state_ok", "posts", "rolls", "mismatches"}. */
json_object *wp_verify(json_object *export_doc);

/* One stored post as the replay needs it (actions: not owned). */
struct wp_past_post {
	int seat;
	enum wp_post_kind kind;
	json_object *actions;
	int64_t draws_from;
};
/* The match after a post, as api/write.c stored it then. */
struct wp_past {
	void *state;             /* owned: free with rs->free */
	enum wp_status status;
	unsigned awaiting, draw_offers;
	json_object *result;     /* owned, NULL while playing */
};
/* The match after its first n posts (posts 1..n, in order), replayed from
 * the start with its own dice (GET /api/games/{id}?at=). 0, or -1 when a
 * post does not replay. */
int wp_replay_past_at(const struct wp_game *g, const struct wp_past_post *posts, int n,
                     struct wp_past *out);

/* The `warpost` command (cli.c). */
int wp_cli(int argc, char **argv);

#endif
