/* Replays: the one step every replay takes (wp_replay_step: past
 * positions, undo, the audit), and the audit of a finished match, the
 * export document replayed. Pure: used by the API and, offline, by
 * `warpost verify`. */
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

/* One stored post as a replay needs it (actions: not owned). */
struct wp_past_post {
	int seat;
	enum wp_post_kind kind;
	json_object *actions;
	int64_t draws_from;
	int undone_by;           /* taken back by then: the replay skips it; 0 none */
};
/* The match after a post, as api/write.c stored it then. */
struct wp_past {
	void *state;             /* owned: free with rs->free */
	enum wp_status status;
	unsigned awaiting, draw_offers;
	json_object *result;     /* owned, NULL while playing */
};
/* A replay under way (issue 26, one step for all of them): GET ?at=, the
 * spectator delay and the board image (api/watch.c, wp_past_at), undo
 * (api/undo.c) and the audit (wp_verify). It starts from the start or a
 * snapshot (store.h wp_db_snapshot) and goes one post at a time with the
 * match's own dice (seed and client material: the server's secret, so
 * this runs server side only, or on an export). */
struct wp_replay {
	const struct wr_ruleset *rs;
	json_object *options;    /* borrowed */
	int nseats;
	struct wr_hmac_stream hs;    /* its client material is borrowed */
	struct wp_past now;      /* the match after the last post; result unused */
	json_object *given;      /* a result the service recorded itself, owned */
	int aborted;
	int agreed, claimed;     /* the last post ended it by agreement, on time */
	struct wr_rng rng;       /* the last post's draws: log, count */
	struct wr_events ev;     /* the last post's events */
};
/* From before the first post; then, if the replay starts later, from
 * *take_start (a snapshot: the match as it was after that post). */
void wp_replay_begin(struct wp_replay *r, const struct wr_ruleset *rs, json_object *options,
                     int nseats, const unsigned char seed[32], const unsigned char *client,
                     size_t client_len);
void wp_replay_from(struct wp_replay *r, struct wp_past *take_start);
/* Applies one post as api/posts.c and api/write.c did: turns, standing
 * orders, resignations and claims through the ruleset with the dice from
 * the post's first draw; draw offers, refusals and acceptances (a turn, an
 * undo or a resignation lets an offer lapse, standing orders keep it);
 * an abort. A post taken back (undone_by) changes nothing. 0, or -1 when
 * the post does not replay. */
int wp_replay_step(struct wp_replay *r, const struct wp_past_post *p);
/* The match where the replay is: status, result, awaited seats; *out
 * takes the state. Ends the replay (then wp_replay_free does nothing). */
void wp_replay_end(struct wp_replay *r, struct wp_past *out);
void wp_replay_free(struct wp_replay *r);

/* The result of a match ended without the rules deciding (a draw agreed,
 * an abort): no winners, `draw`, `reason`. */
json_object *wp_result_by(const char *reason, int draw);
/* The result an adjudication post's content gives, {"winner": seat or
 * null (a draw), ...}: reason "adjudication"; NULL when malformed. */
json_object *wp_result_adjudicated(json_object *content, int nseats);
/* Where two saved states first differ, as a path ("units[4][14]"), into
 * `path` (statediff.c); left as it was when they do not. */
void wp_json_first_difference(json_object *a, json_object *b, char *path, size_t size);

/* An undo post's content, [{"type": "undo", "posts": [seq, ...]}]: the
 * seqs it takes back, ascending (issue 14).
 * Returns how many were written to out (at most cap), -1 when malformed. */
int wp_undo_seqs(json_object *content, int *out, int cap);

/* The `warpost` command (cli.c). */
int wp_cli(int argc, char **argv);

#endif
