/* Tournaments (issue 29): the handlers (tournaments.c) and the rounds
 * (tournament_rounds.c: starting a round, the standings, the worker). */
#ifndef WP_TOURNAMENTS_H
#define WP_TOURNAMENTS_H

#include "api.h"
#include "league.h"
#include "tournament_store.h"

/* Members of an event's JSON (sql/024, wp_tournament_json), borrowed;
 * absent: NULL, "" and 0. */
static inline json_object *
jget(json_object *o, const char *k)
{
	json_object *v;
	return json_object_object_get_ex(o, k, &v) ? v : NULL;
}

static inline const char *
jstr(json_object *o, const char *k)
{
	json_object *v = jget(o, k);
	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
}

static inline int
jint(json_object *o, const char *k)
{
	return json_object_get_int(jget(o, k));
}

/* The event `t` (its JSON, locked by the caller's transaction) moved on
 * as far as it can now: started (from "open", with enough players), its
 * next Swiss round paired and its matches created and started, or over
 * once every match ended. All in the caller's transaction; *moved 1 when
 * something was written. A problem set on failure. */
enum wp_err wp_tournament_advance(struct wp_ctx *ctx, struct wp_conn *c, json_object *t,
                                  int *moved);
/* The match of a table (or a ladder's challenge): the event's settings,
 * players ids[0..n-1] in its seats (seat 0 moves first), created and
 * started in the caller's transaction. */
enum wp_err wp_tournament_match(struct wp_ctx *ctx, struct wp_conn *c, json_object *t,
                                const int64_t *ids, int n, int64_t *game);
/* A running ladder's challenges settled (tournament_ladder.c): each match
 * ended moves the places (a challenger's win swaps them), each pending one
 * past its deadline is forfeited (swapped too). */
enum wp_err wp_tournament_ladder_settle(struct wp_ctx *ctx, struct wp_conn *c, json_object *t,
                                        int *moved);
/* Adds "standings" (points, tie-breaks, rank) and "crosstable" to t. */
void wp_tournament_standings(json_object *t);
/* The player's matches of the event still running, resigned (a
 * withdrawal after the start: tournament_play.c). Each match locked before
 * the event's row is. */
enum wp_err wp_tournament_forfeit(struct wp_ctx *ctx, struct wp_conn *c, int64_t id,
                                  int64_t player);
/* Test builds only (tests/testrules/testd.c): called inside the
 * transaction that starts a round, after its matches were written. */
extern void (*wp_tournament_pair_hook)(void);

#endif
