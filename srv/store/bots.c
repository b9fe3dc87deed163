/* The computer players in the store (issue 27): engine players and bot
 * accounts on the request pool; the bot worker's scans and claims on a
 * connection of its own (bots_store.h), like the LISTEN thread's. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots_store.h"
#include "store_priv.h"

/* The most a worker's statement may take. */
#define BOT_QUERY_MS 5000

enum wp_err
wp_db_bot_engine(struct wp_conn *c, int level, struct wp_player *out)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	wp_p_int(&p, level);
	if ((err = wp_sql_run(c, WP_STMT_BOT_ENGINE, &p, &r)) != WP_OK)
		return err;
	if (PQntuples(r) == 1) {
		memset(out, 0, sizeof(*out));
		out->id = wp_col_int(r, 0, 0);
		wp_col_str(r, 0, 1, out->name, sizeof(out->name));
		out->bot = 1;
	} else {
		err = WP_ERR_NOT_FOUND;
	}
	PQclear(r);
	return err;
}

enum wp_err
wp_db_player_set_bot(struct wp_conn *c, int64_t player)
{
	struct wp_params p = {0};
	int64_t id;

	wp_p_int(&p, player);
	return wp_sql_one(c, WP_STMT_PLAYER_SET_BOT, &p, &id);
}

/* ------------------------------------------------- the worker's connection */

struct wp_bot_conn {
	PGconn *pg;
	int pending_one;   /* PENDING_ONE prepared on pg */
	int engine_seats;  /* ENGINE_SEATS prepared on pg */
};

struct wp_bot_conn *
wp_bot_conn_open(const char *conninfo)
{
	PGconn *pg = wp_pg_connect_own(conninfo, "warpostd-bot", "5", NULL, 0);
	struct wp_bot_conn *bc;

	if (!pg || !(bc = malloc(sizeof(*bc)))) {
		PQfinish(pg);
		return NULL;
	}
	bc->pg = pg;
	bc->pending_one = 0;
	bc->engine_seats = 0;
	return bc;
}

void
wp_bot_conn_close(struct wp_bot_conn *bc)
{
	if (!bc)
		return;
	PQfinish(bc->pg);
	free(bc);
}

/* r, a statement's result: 1 when it answered as expected (rows kept in
 * *out when asked), 0 otherwise (logged), -1 when the connection is lost. */
static int
judge(struct wp_bot_conn *bc, PGresult *r, PGresult **out)
{
	ExecStatusType s = PQresultStatus(r);

	if (out)
		*out = NULL;
	if (!r || PQstatus(bc->pg) != CONNECTION_OK) {
		PQclear(r);
		return -1;
	}
	if (s != PGRES_TUPLES_OK && s != PGRES_COMMAND_OK) {
		wp_log("bot: %s", PQresultErrorMessage(r));
		PQclear(r);
		return 0;
	}
	if (out)
		*out = r;
	else
		PQclear(r);
	return 1;
}

/* Runs sql (judge). */
static int
run(struct wp_bot_conn *bc, const char *sql, int n, const char *const *vals, PGresult **out)
{
	return judge(bc, wp_pg_exec_within(bc->pg, sql, n, vals, BOT_QUERY_MS), out);
}

/* The matches where an engine seat is awaited or owes an answer to a draw
 * offer, and no claim at that post is done or out of tries. */
#define PENDING(games)                                                                           \
	"SELECT g.id, g.seq, s.seat, b.level, b.player_id FROM bot_engines b"                    \
	" JOIN seats s ON s.player_id = b.player_id JOIN games g ON g.id = s.game_id"            \
	" WHERE g.status = 'active' AND " games                                                  \
	" AND (((g.awaiting >> s.seat) & 1) = 1 OR (((g.draw_offers >> s.seat) & 1) = 0"          \
	"      AND (g.draw_offers & ~(1 << s.seat)) <> 0))"                                        \
	" AND NOT EXISTS (SELECT 1 FROM bot_claims c WHERE c.game_id = g.id AND c.seq = g.seq"    \
	"      AND c.seat = s.seat AND (c.done_at IS NOT NULL OR c.attempts >= $3::int))"          \
	" ORDER BY g.updated_at LIMIT $2::int"
#define PENDING_SQL PENDING("($1::bigint[] IS NULL OR g.id = ANY($1::bigint[]))")
/* The same of one match, asked at every change the LISTEN thread hears
 * (srv/bot/botplay.c), so prepared once a connection: planned each time,
 * it took the database 140 to 170 us a turn, more than the turn's own
 * statement (issue 32, README "Performance", tests/bench/turnsql.py). */
#define PENDING_ONE_SQL PENDING("g.id = $1::bigint")

int
wp_bot_pending(struct wp_bot_conn *bc, const int64_t *games, int n, int max_attempts,
               struct wp_bot_task *out, int cap)
{
	char *list = NULL, limit[16], tries[16], one[24];
	PGresult *r;
	int k = 0, rc;

	if (games && n == 1) {
		snprintf(one, sizeof(one), "%" PRId64, games[0]);
		list = one;
	} else if (games) {
		size_t size = (size_t)n * 21 + 3, used = 0;
		if (!(list = malloc(size)))
			return 0;
		list[used++] = '{';
		for (int i = 0; i < n; i++)
			used += (size_t)snprintf(list + used, size - used, "%s%" PRId64, i ? "," : "",
			                         games[i]);
		snprintf(list + used, size - used, "}");
	}
	snprintf(limit, sizeof(limit), "%d", cap);
	snprintf(tries, sizeof(tries), "%d", max_attempts);
	const char *vals[3] = {list, limit, tries};
	if (list == one)
		rc = judge(bc, wp_pg_exec_named_within(bc->pg, &bc->pending_one, "bot_pending_one",
		                                       PENDING_ONE_SQL, 3, vals, BOT_QUERY_MS), &r);
	else {
		rc = run(bc, PENDING_SQL, 3, vals, &r);
		free(list);
	}
	if (rc <= 0)
		return rc;
	for (int i = 0; i < PQntuples(r) && k < cap; i++, k++) {
		out[k].game = wp_col_int(r, i, 0);
		out[k].seq = (int)wp_col_int(r, i, 1);
		out[k].seat = (int)wp_col_int(r, i, 2);
		out[k].level = (int)wp_col_int(r, i, 3);
		out[k].player = wp_col_int(r, i, 4);
	}
	PQclear(r);
	return k;
}

/* Whether any seat of the match is an engine's (they are all given at
 * the match's creation, srv/api/bots.c). */
#define ENGINE_SEATS_SQL                                                                         \
	"SELECT EXISTS (SELECT 1 FROM seats s JOIN bot_engines b ON b.player_id = s.player_id"    \
	" WHERE s.game_id = $1::bigint)"

int
wp_bot_engine_seats(struct wp_bot_conn *bc, int64_t game)
{
	char one[24];
	const char *vals[1] = {one};
	PGresult *r;
	int rc;

	snprintf(one, sizeof(one), "%" PRId64, game);
	rc = judge(bc, wp_pg_exec_named_within(bc->pg, &bc->engine_seats, "bot_engine_seats",
	                                       ENGINE_SEATS_SQL, 1, vals, BOT_QUERY_MS), &r);
	if (rc <= 0)
		return rc < 0 ? -1 : 1;   /* not answered: taken to have one */
	rc = PQntuples(r) == 1 && strcmp(PQgetvalue(r, 0, 0), "t") == 0;
	PQclear(r);
	return rc;
}

#define CLAIM_KEY "game_id = $1::bigint AND seq = $2::int AND seat = $3::smallint"

int
wp_bot_claim(struct wp_bot_conn *bc, const struct wp_bot_task *t, int max_attempts,
             uint64_t fresh_seed, uint64_t *seed, int *run_len)
{
	char game[24], seq[16], seat[16], extra[24];
	const char *vals[4] = {game, seq, seat, extra};
	PGresult *r;
	int rc;

	snprintf(game, sizeof(game), "%" PRId64, t->game);
	snprintf(seq, sizeof(seq), "%d", t->seq);
	snprintf(seat, sizeof(seat), "%d", t->seat);
	/* The seed is drawn once, with the claim's first try: a decision
	 * tried again after a crash is the same decision. */
	snprintf(extra, sizeof(extra), "%" PRId64, (int64_t)(fresh_seed >> 1));
	if ((rc = run(bc, "INSERT INTO bot_claims (game_id, seq, seat, seed) VALUES ($1::bigint,"
	                  " $2::int, $3::smallint, $4::bigint) ON CONFLICT DO NOTHING",
	              4, vals, NULL)) <= 0)
		return rc;
	/* The try is counted in a statement of its own, committed before the
	 * engine runs: a decision that kills the process is not tried forever. */
	snprintf(extra, sizeof(extra), "%d", max_attempts);
	if ((rc = run(bc, "UPDATE bot_claims SET attempts = attempts + 1 WHERE (game_id, seq, seat)"
	                  " IN (SELECT game_id, seq, seat FROM bot_claims WHERE " CLAIM_KEY
	                  " AND done_at IS NULL AND attempts < $4::int FOR UPDATE SKIP LOCKED)"
	                  " RETURNING attempts",
	              4, vals, &r)) <= 0)
		return rc;
	int tried = PQntuples(r) == 1;
	PQclear(r);
	if (!tried)
		return 0;
	if ((rc = run(bc, "BEGIN", 0, NULL, NULL)) <= 0)
		return rc;
	/* With the seat's run: its posts since another seat's last. */
	if ((rc = run(bc, "SELECT seed, (SELECT count(*) FROM posts p WHERE p.game_id = $1::bigint"
	                  " AND p.seq > coalesce((SELECT max(q.seq) FROM posts q WHERE q.game_id ="
	                  " $1::bigint AND q.seat IS DISTINCT FROM $3::smallint), 0))"
	                  " FROM bot_claims WHERE " CLAIM_KEY " AND done_at IS NULL"
	                  " FOR UPDATE SKIP LOCKED", 3, vals, &r)) <= 0)
		return rc;
	int held = PQntuples(r) == 1;
	if (held) {
		*seed = (uint64_t)wp_col_int(r, 0, 0);
		*run_len = (int)wp_col_int(r, 0, 1);
	}
	PQclear(r);
	if (!held)
		return run(bc, "ROLLBACK", 0, NULL, NULL) < 0 ? -1 : 0;
	return 1;
}

int
wp_bot_finish(struct wp_bot_conn *bc, const struct wp_bot_task *t, const char *outcome, int done)
{
	char game[24], seq[16], seat[16], isdone[4];
	const char *vals[5] = {game, seq, seat, outcome, isdone};
	int rc;

	snprintf(game, sizeof(game), "%" PRId64, t->game);
	snprintf(seq, sizeof(seq), "%d", t->seq);
	snprintf(seat, sizeof(seat), "%d", t->seat);
	snprintf(isdone, sizeof(isdone), "%d", done ? 1 : 0);
	rc = run(bc, "UPDATE bot_claims SET outcome = $4, done_at = CASE WHEN $5::int = 1"
	             " THEN clock_timestamp() END WHERE " CLAIM_KEY, 5, vals, NULL);
	if (rc < 0)
		return -1;
	return run(bc, rc > 0 ? "COMMIT" : "ROLLBACK", 0, NULL, NULL);
}
