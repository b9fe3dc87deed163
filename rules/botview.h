/*
 * Reading a seat's view back into a state (issue 27, the computer
 * player): the lenient readers each ruleset's determinize hook
 * (rules/<ruleset>/xx_bot.c) uses. A view is the ruleset's own output, so
 * a missing or mistyped member reads as the default given; the state
 * built is then checked by the ruleset's own load (wr_bot_finish).
 */
#ifndef WR_BOTVIEW_H
#define WR_BOTVIEW_H

#include "rules.h"

json_object *wr_v_get(json_object *o, const char *key);
int wr_v_int(json_object *o, const char *key, int def);
int wr_v_bool(json_object *o, const char *key, int def);
/* NULL when absent or null. */
const char *wr_v_str(json_object *o, const char *key);
/* A square's name on b; -1 when absent, null or not a square. */
int wr_v_sq(json_object *o, const char *key, const struct wr_board *b);
/* The index of o[key] in names[0..n), or def. */
int wr_v_name(json_object *o, const char *key, const char *const *names, int n, int def);
/* The array o[key] (NULL when not an array) and its length in *n. */
json_object *wr_v_array(json_object *o, const char *key, size_t *n);
/* The state built from a view, saved and loaded again by the ruleset so
 * that its own checks hold and its derived fields are rebuilt; `take_st`
 * is freed. NULL and err ("bad-view") when the ruleset refuses it. */
void *wr_bot_finish(const struct wr_ruleset *rs, void *take_st, struct wr_error *err);
/* The lowest seat the state awaits, or -1 (the engine and its tests
 * take simultaneous decisions one seat at a time). */
int wr_bot_awaited(const struct wr_ruleset *rs, const void *st);
/* A score in [0, 1] from a seat's material and its opponents' (their
 * mean): 0.5 when equal, rising with `mine` even when the opponents have
 * nothing (a hidden army is rebuilt empty), `k` the size of a small army. */
double wr_bot_share(double mine, double theirs, double k);
/* Fisher-Yates shuffle of n ints with rng. */
void wr_bot_shuffle(int *v, int n, struct wr_rng *rng);

#endif
