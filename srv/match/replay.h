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
