/* Ratings (issue 28): what the API, the server's start and the warpost
 * tool may ask of the store. The maths and the rating of every match that
 * ends are in PostgreSQL (sql/017_ratings.sql). */
#ifndef WP_RATINGS_H
#define WP_RATINGS_H

#include <stddef.h>
#include <stdint.h>

#include "wp.h"

struct wp_conn;

/* Marks a new match rated, in the caller's transaction. */
enum wp_err wp_db_game_rated_set(struct wp_conn *c, int64_t game);
/* GET /api/players/{id} as JSON text, as `viewer` (0: nobody) may see it;
 * WP_ERR_NOT_FOUND when there is no such player. *json is malloc'd. */
enum wp_err wp_db_profile(struct wp_conn *c, int64_t player, int64_t viewer, char **json);
/* GET /api/leaderboards/{ruleset} as JSON text, for pool "human" or "bot". */
enum wp_err wp_db_leaderboard(struct wp_conn *c, const char *ruleset, const char *pool,
                              int64_t viewer, char **json);
/* Writes the configuration's rating settings (RATING_TAU ..) to the
 * database's one row of rating_settings, which the SQL functions read;
 * 0 on success. */
int wp_ratings_configure(const char *conninfo, const struct wp_config *cfg, char *err,
                         size_t errlen);
/* `warpost ratings --recompute | --check` (cli.c). */
int wp_ratings_cli(int argc, char **argv);

#endif
