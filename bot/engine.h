/* bot/engine.h — the computer player (issue 27): information-set Monte Carlo tree search over the ruleset template. */
#ifndef WB_ENGINE_H
#define WB_ENGINE_H
#include "rules.h"
#define WB_LEVELS 4          /* levels 1 (weakest, near random) .. 4 (strongest) */
struct wb_params {
	int level;               /* 1..WB_LEVELS */
	uint64_t seed;           /* the engine's own generator; never the match's dice */
	long iterations;         /* 0: the level's default budget; >0 overrides (operator/bench) */
};
/* An action for `seat`, chosen from only what that seat sees: `view` is rs->view(state, seat)
 * (JSON, as the service sends to that seat). Returns a new action object (caller owns), or NULL with err set
 * (code "no_action" when the seat has nothing to do). Thread-safe: no globals; several threads may call it at once. */
json_object *wb_decide(const struct wr_ruleset *rs, json_object *view, int seat,
                       const struct wb_params *p, struct wr_error *err);
/* Optional evaluation of a seat's prospects in [0,1] from its view (for draw offers: < 0.2 means lost). */
double wb_evaluate(const struct wr_ruleset *rs, json_object *view, int seat);

/* Additions (not part of the fixed interface above). */

/* The default iteration budget of a level (1..WB_LEVELS; out of range: clamped). */
long wb_level_iterations(int level);
/* The longest random playout (posts) after a new node before the
 * evaluation hook scores the position; 0 scores the new node itself
 * (bot/README.md says why that is the default). */
#define WB_PLAYOUT_DEPTH 0
/* wb_decide with another playout cap (the bench compares them). */
json_object *wb_decide_depth(const struct wr_ruleset *rs, json_object *view, int seat,
                             const struct wb_params *p, int depth, struct wr_error *err);
#endif
