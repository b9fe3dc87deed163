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
	int undone_by;           /* the undo post that took it back, 0: none */
};
/* The match after a post, as api/write.c stored it then. */
struct wp_past {
	void *state;             /* owned: free with rs->free */
	enum wp_status status;
	unsigned awaiting, draw_offers;
	json_object *result;     /* owned, NULL while playing */
};
/* The match after its first n posts (posts 1..n, in order), replayed from
 * the start with its own dice (seed and client material: the server's
 * secret, so this runs server side only): GET /api/games/{id}?at=, the
 * spectator delay and the board image (api/watch.c, wp_past_at). 0, or -1
 * when a post does not replay. */
int wp_replay_past_at(const struct wp_game *g, const struct wp_past_post *posts, int n,
                     struct wp_past *out);

/* Replays one post onto *state (a start creates it) with the match's
 * dice from the post's first draw `from`: turns, standing orders and
 * resignations change the state, other kinds nothing. The draws made are
 * recorded in rng (free with wr_rng_record_free), the events in ev.
 * 0, or -1 when the post does not replay. */
int wp_replay_one(const struct wr_ruleset *rs, json_object *options, int nseats,
                  struct wr_hmac_stream *hs, void **state, enum wp_post_kind kind, int seat,
                  json_object *content, int64_t from, struct wr_rng *rng, struct wr_events *ev);

/* An undo post's content, [{"type": "undo", "posts": [seq, ...]}]: the
 * seqs it takes back, ascending (issue 14).
 * Returns how many were written to out (at most cap), -1 when malformed. */
int wp_undo_seqs(json_object *content, int *out, int cap);

/* The `warpost` command (cli.c). */
int wp_cli(int argc, char **argv);

#endif
