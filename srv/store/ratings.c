/* Ratings in the store (issue 28): marking a match rated, a profile and
 * a leaderboard read as one JSON text each, the settings written at start,
 * and the replay of every rated result (`warpost ratings`). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ratings.h"
#include "store_priv.h"

enum wp_err
wp_db_game_rated_set(struct wp_conn *c, int64_t game)
{
	struct wp_params p = {0};

	wp_p_int(&p, game);
	return wp_sql_run(c, WP_STMT_GAME_RATED_SET, &p, NULL);
}

static enum wp_err
json_text(struct wp_conn *c, enum wp_stmt st, const struct wp_params *p, char **json)
{
	PGresult *r;
	enum wp_err err;

	*json = NULL;
	if ((err = wp_sql_run(c, st, p, &r)) != WP_OK)
		return err;
	if (PQntuples(r) == 0 || wp_col_null(r, 0, 0))
		err = WP_ERR_NOT_FOUND;
	else if (!(*json = wp_col_strdup(r, 0, 0)))
		err = WP_ERR_INTERNAL;
	PQclear(r);
	return err;
}

enum wp_err
wp_db_profile(struct wp_conn *c, int64_t player, int64_t viewer, char **json)
{
	struct wp_params p = {0};

	wp_p_int(&p, player);
	wp_p_int(&p, viewer);
	return json_text(c, WP_STMT_PROFILE, &p, json);
}

enum wp_err
wp_db_leaderboard(struct wp_conn *c, const char *ruleset, const char *pool, int64_t viewer,
                  char **json)
{
	struct wp_params p = {0};

	wp_p_text(&p, ruleset);
	wp_p_text(&p, pool);
	wp_p_int(&p, viewer);
	return json_text(c, WP_STMT_LEADERBOARD, &p, json);
}

/* One statement on a connection of its own; 0 when it succeeded. */
static int
run(PGconn *pg, const char *sql, int n, const char *const *values, PGresult **out, char *err,
    size_t errlen)
{
	PGresult *r = PQexecParams(pg, sql, n, NULL, values, NULL, NULL, 0);
	ExecStatusType s = PQresultStatus(r);

	if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) {
		snprintf(err, errlen, "%s", PQresultErrorMessage(r));
		err[strcspn(err, "\n")] = '\0';
		PQclear(r);
		return -1;
	}
	if (out)
		*out = r;
	else
		PQclear(r);
	return 0;
}

static PGconn *
connect_to(const char *conninfo, char *err, size_t errlen)
{
	return wp_pg_connect_own(conninfo, "warpostd-ratings", "10", err, errlen);
}

int
wp_ratings_configure(const char *conninfo, const struct wp_config *cfg, char *err,
                     size_t errlen)
{
	char tau[32], period[16], set[4];
	const char *v[] = {tau, period, cfg->rating_mix_bots ? "true" : "false", set};
	PGconn *pg;
	PGresult *r = NULL;
	int rc;

	/* Only the settings this instance was given: an instance started
	 * without them leaves what another one set (the defaults are the
	 * row's, sql/017_ratings.sql). */
	if (!cfg->rating_set)
		return 0;
	if (!(pg = connect_to(conninfo, err, errlen)))
		return -1;
	/* %.17g: the configured double exactly, so the SQL maths uses it. */
	snprintf(tau, sizeof(tau), "%.17g", cfg->rating_tau);
	snprintf(period, sizeof(period), "%u", cfg->rating_period);
	snprintf(set, sizeof(set), "%u", cfg->rating_set);
	rc = run(pg, "WITH n AS (SELECT CASE WHEN $4::int & 1 = 1 THEN $1::float8 ELSE tau END tau,"
	             " CASE WHEN $4::int & 2 = 2 THEN $2::int ELSE period_seconds END p,"
	             " CASE WHEN $4::int & 4 = 4 THEN $3::bool ELSE mix_bots END m"
	             " FROM rating_settings WHERE id = 1)"
	             " UPDATE rating_settings s SET tau = n.tau, period_seconds = n.p, mix_bots = n.m"
	             " FROM n WHERE s.id = 1 AND (s.tau, s.period_seconds, s.mix_bots)"
	             " IS DISTINCT FROM (n.tau, n.p, n.m) RETURNING s.tau, s.period_seconds, s.mix_bots",
	         4, v, &r, err, errlen);
	if (rc == 0 && PQntuples(r) == 1)
		wp_log("ratings: the database's rating settings are now tau %s, period %s s,"
		       " bots mixed %s (this instance's RATING_*)", PQgetvalue(r, 0, 0),
		       PQgetvalue(r, 0, 1), PQgetvalue(r, 0, 2));
	PQclear(r);
	PQfinish(pg);
	return rc;
}

static int
usage(void)
{
	fprintf(stderr, "usage: warpost ratings --recompute | --check\n"
	                "Replays every rated result from the database (DATABASE_URL) through the\n"
	                "rating function and compares with the stored ratings and history;\n"
	                "--recompute keeps the replay, --check only compares (exit 1 when they\n"
	                "differ).\n");
	return 2;
}

int
wp_ratings_cli(int argc, char **argv)
{
	const char *url = getenv("DATABASE_URL");
	char err[1024];
	int keep, rc = 2;
	PGconn *pg;
	PGresult *r = NULL;

	if (argc != 3 || (strcmp(argv[2], "--recompute") != 0 && strcmp(argv[2], "--check") != 0))
		return usage();
	keep = strcmp(argv[2], "--recompute") == 0;
	if (!url || !*url) {
		fprintf(stderr, "warpost: DATABASE_URL is not set\n");
		return 2;
	}
	if (!(pg = connect_to(url, err, sizeof(err)))) {
		fprintf(stderr, "warpost: %s\n", err);
		return 2;
	}
	if (run(pg, "BEGIN", 0, NULL, NULL, err, sizeof(err)) ||
	    run(pg, "SELECT replayed, differences FROM wp_ratings_recompute()", 0, NULL, &r, err,
	        sizeof(err)) ||
	    run(pg, keep ? "COMMIT" : "ROLLBACK", 0, NULL, NULL, err, sizeof(err))) {
		fprintf(stderr, "warpost: ratings: %s\n", err);
		goto out;
	}
	long long differ = atoll(PQgetvalue(r, 0, 1));
	printf("{\"replayed\": %s, \"differences\": %lld, \"replaced\": %s}\n", PQgetvalue(r, 0, 0),
	       differ, keep ? "true" : "false");
	fprintf(stderr, "warpost: ratings: %s rated matches replayed, %lld rows differed%s\n",
	        PQgetvalue(r, 0, 0), differ, keep && differ ? "; replaced" : "");
	rc = !keep && differ ? 1 : 0;
out:
	PQclear(r);
	PQfinish(pg);
	return rc;
}
