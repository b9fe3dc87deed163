/* What the two files of the open challenges share (issue 28):
 * challenges.c (posting, the list, one challenge) and challenge_seats.c
 * (accepting, leaving, cancelling). */
#ifndef WP_API_CHALLENGES_H
#define WP_API_CHALLENGES_H

#include "api.h"
#include "challenge_store.h"

/* The {id} of the path; 404 challenge-not-found when it is not one. */
enum wp_err wp_challenge_id(struct wp_ctx *ctx, int64_t *id);
/* The problem for a failed read of challenge id (404 when none). */
enum wp_err wp_challenge_not_found(struct wp_ctx *ctx, enum wp_err err, int64_t id);
/* The player's seat in the challenge, or -1. */
int wp_challenge_seat_of(const struct wp_challenge *ch, int64_t player);
/* The challenge as `viewer` (0: anyone) sees it. */
json_object *wp_challenge_json(const struct wp_challenge *ch, int64_t viewer);
/* *in_range: the player's rating in the ruleset is within the range. */
enum wp_err wp_challenge_rating(struct wp_ctx *ctx, struct wp_conn *c,
                                const struct wp_challenge *ch, int64_t player, int *in_range);
/* 409 challenge-closed unless the challenge is open. */
enum wp_err wp_challenge_open(struct wp_ctx *ctx, const struct wp_challenge *ch);

#endif
