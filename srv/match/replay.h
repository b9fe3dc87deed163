/* Auditing a finished match: the export document and its replay. Pure:
 * used by GET /api/games/{id}/verify and, offline, by `warpost verify`. */
#ifndef WP_REPLAY_H
#define WP_REPLAY_H

#include <json-c/json.h>

#define WP_EXPORT_FORMAT "warpost-export-1"

/* Replays the export from its revealed seed: the commitment, every roll of
 * every post, the final state, and the declared status, result and seats
 * (a mismatch names the member in "field"). Returns the report (never NULL):
 * {"verified", "commitment_ok", "state_ok", "posts", "rolls", "mismatches"}. */
json_object *wp_verify(json_object *export_doc);

/* The `warpost` command (cli.c). */
int wp_cli(int argc, char **argv);

#endif
