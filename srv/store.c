/* The store's connections: a small locked pool of libpq connections,
 * connected lazily and reconnected when the server went away. */
#include <errno.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core_priv.h"

struct wp_store {
	pthread_mutex_t lock;
	pthread_cond_t freed;
	char *conninfo;
	unsigned size;
	PGconn **conns;
	unsigned char *busy;
	int closing;
};

/* How long a request waits for a free connection before it is told the
 * database is unavailable, rather than queueing without bound. */
#define WP_POOL_WAIT_SEC 5

static const struct {
	const char *name;
	const char *sql;
} stmts[WP_STMT_MAX] = {
	[WP_STMT_PLAYER_INSERT] = {"player_insert",
	                           "INSERT INTO players (name, token_hash) VALUES ($1, $2)"
	                           " RETURNING id"},
	[WP_STMT_PLAYER_BY_TOKEN] = {"player_by_token",
	                             "SELECT id, name FROM players WHERE token_hash = $1"},
	[WP_STMT_GAME_INSERT] = {"game_insert",
		"INSERT INTO games (ruleset, options, seats, seed, commitment, created_by)"
		" VALUES ($1, $2, $3, $4, $5, $6) RETURNING id"},
	[WP_STMT_SEAT_INSERT] = {"seat_insert",
		"INSERT INTO seats (game_id, seat, player_id, invite_hash, client_seed, joined_at)"
		" VALUES ($1, $2, $3, $4, $5, CASE WHEN $3::bigint IS NULL THEN NULL ELSE now() END)"},
	[WP_STMT_GAME_GET] = {"game_get",
		"SELECT id, ruleset, options::text, seats, status, seq, version, state::text, seed,"
		" commitment, client_seeds, draws, awaiting, draw_offers, result::text, created_by,"
		" to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'),"
		" to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"
		" FROM games WHERE id = $1"},
	[WP_STMT_GAME_LOCK] = {"game_lock",
		"SELECT id, ruleset, options::text, seats, status, seq, version, state::text, seed,"
		" commitment, client_seeds, draws, awaiting, draw_offers, result::text, created_by,"
		" '', '' FROM games WHERE id = $1 FOR UPDATE"},
	/* A conditional GET in one round trip: the token's player, if any,
	 * the match's version and status, and the player's seat in it. */
	[WP_STMT_GAME_HEAD] = {"game_head",
		"SELECT g.version, g.status,"
		" (SELECT s.seat FROM seats s WHERE s.game_id = g.id AND s.player_id = p.id),"
		" p.id, p.name"
		" FROM games g LEFT JOIN players p ON p.token_hash = $2 WHERE g.id = $1"},
	[WP_STMT_SEATS_GET] = {"seats_get",
		"SELECT s.seat, s.player_id, p.name, s.client_seed FROM seats s"
		" LEFT JOIN players p ON p.id = s.player_id WHERE s.game_id = $1 ORDER BY s.seat"},
	[WP_STMT_SEAT_BY_INVITE] = {"seat_by_invite",
		"SELECT seat, player_id FROM seats WHERE game_id = $1 AND invite_hash = $2"},
	[WP_STMT_SEAT_JOIN] = {"seat_join",
		"UPDATE seats SET player_id = $3, client_seed = $4, joined_at = now()"
		" WHERE game_id = $1 AND seat = $2 AND player_id IS NULL"},
	[WP_STMT_GAME_UPDATE] = {"game_update",
		"UPDATE games SET status = $2, seq = $3, version = version + 1, state = $4,"
		" draws = $5, awaiting = $6, draw_offers = $7, result = $8::jsonb,"
		" client_seeds = $9, updated_at = now() WHERE id = $1"},
	[WP_STMT_GAME_BUMP] = {"game_bump",
		"UPDATE games SET version = version + 1, updated_at = now() WHERE id = $1"},
	[WP_STMT_POST_INSERT] = {"post_insert",
		"INSERT INTO posts (game_id, seq, seat, kind, actions, comment, comment_hidden,"
		" events, draws_from, rolls) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"},
	[WP_STMT_POSTS_PAGE] = {"posts_page",
		"SELECT seq, seat, kind, actions::text, comment, comment_hidden, events::text,"
		" rolls::text, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"
		" FROM posts WHERE game_id = $1 AND seq > $2 ORDER BY seq LIMIT $3"},
	[WP_STMT_POSTS_ALL] = {"posts_all",
		"SELECT seq, seat, kind, actions::text, comment, comment_hidden, events::text,"
		" rolls::text, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'),"
		" draws_from FROM posts WHERE game_id = $1 ORDER BY seq"},
	[WP_STMT_IDEM_GET] = {"idem_get",
		"SELECT request_hash, status, body FROM idempotency"
		" WHERE game_id = $1 AND player_id = $2 AND key = $3"},
	[WP_STMT_IDEM_PUT] = {"idem_put",
		"INSERT INTO idempotency (game_id, player_id, key, request_hash, status, body)"
		" VALUES ($1, $2, $3, $4, $5, $6)"},
	[WP_STMT_NOTIFY] = {"notify", "SELECT pg_notify('wp_game', $1)"},
	[WP_STMT_ME_GAMES] = {"me_games",
		"SELECT g.id, g.ruleset, g.status, g.seq, g.seats, s.seat,"
		" ((g.awaiting >> s.seat) & 1) = 1 AS awaiting_me,"
		" to_char(g.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'),"
		" count(*) OVER ()"
		" FROM seats s JOIN games g ON g.id = s.game_id WHERE s.player_id = $1"
		" ORDER BY awaiting_me DESC, g.updated_at DESC, g.id DESC LIMIT $2 OFFSET $3"},
	/* Posts after a given one that could change what a seat sees of the
	 * board: anything but standing orders and draw offers or refusals. */
	[WP_STMT_POSTS_SINCE_MOVES] = {"posts_since_moves",
		"SELECT count(*) FROM posts WHERE game_id = $1 AND seq > $2"
		" AND kind NOT IN ('orders', 'draw_offer', 'draw_decline')"},
	[WP_STMT_ME_GAMES_COUNT] = {"me_games_count",
		"SELECT count(*) FROM seats WHERE player_id = $1"},
	[WP_STMT_HAS_TURN] = {"has_turn",
		"SELECT EXISTS (SELECT 1 FROM posts WHERE game_id = $1 AND kind = 'turn')"},
};

static int
prepare_all(PGconn *c)
{
	for (int i = 0; i < WP_STMT_MAX; i++) {
		PGresult *r = PQprepare(c, stmts[i].name, stmts[i].sql, 0, NULL);
		int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
		if (!ok)
			wp_log("database: cannot prepare %s: %s", stmts[i].name,
			       PQresultErrorMessage(r));
		PQclear(r);
		if (!ok)
			return -1;
	}
	return 0;
}

PGresult *
wp_store_exec(PGconn *conn, enum wp_stmt stmt, int nparams, const char *const *values,
              const int *lengths)
{
	int formats[16] = {0};

	if (lengths)
		for (int i = 0; i < nparams && i < 16; i++)
			formats[i] = lengths[i] >= 0;
	PGresult *r = PQexecPrepared(conn, stmts[stmt].name, nparams, values, lengths,
	                             lengths ? formats : NULL, 0);
	wp_metric_add(WP_METRIC_DB_QUERIES, 1);
	if (PQresultStatus(r) == PGRES_TUPLES_OK)
		wp_metric_add(WP_METRIC_DB_ROWS, (uint64_t)PQntuples(r));
	return r;
}

int
wp_store_cmd(PGconn *conn, const char *sql)
{
	PGresult *r = PQexec(conn, sql);
	int ok = PQresultStatus(r) == PGRES_COMMAND_OK;

	if (!ok)
		wp_log("database: %s: %s", sql, PQresultErrorMessage(r));
	PQclear(r);
	return ok ? 0 : -1;
}

long
wp_bytea_decode(const char *text, unsigned char *out, size_t cap)
{
	size_t n = 0;

	if (text[0] != '\\' || text[1] != 'x')
		return -1;
	for (const char *p = text + 2; p[0] && p[1]; p += 2) {
		unsigned v;
		if (n == cap || sscanf(p, "%2x", &v) != 1)
			return -1;
		out[n++] = (unsigned char)v;
	}
	return (long)n;
}

int
wp_store_lost(PGconn *conn)
{
	return PQstatus(conn) != CONNECTION_OK;
}

static PGconn *
connect_db(const char *conninfo)
{
	const char *keys[] = {"dbname", "connect_timeout", "application_name", NULL};
	const char *vals[] = {conninfo, "5", "warpostd", NULL};
	PGconn *c = PQconnectdbParams(keys, vals, 1);

	if (c && PQstatus(c) != CONNECTION_OK) {
		wp_log("database: cannot connect: %s", PQerrorMessage(c));
		PQfinish(c);
		return NULL;
	}
	if (c && prepare_all(c) != 0) {
		PQfinish(c);
		return NULL;
	}
	return c;
}

struct wp_store *
wp_store_open(const char *conninfo, unsigned pool_size)
{
	struct wp_store *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->size = pool_size ? pool_size : 1;
	st->conninfo = strdup(conninfo);
	st->conns = calloc(st->size, sizeof(*st->conns));
	st->busy = calloc(st->size, 1);
	if (!st->conninfo || !st->conns || !st->busy) {
		free(st->conninfo);
		free(st->conns);
		free(st->busy);
		free(st);
		return NULL;
	}
	pthread_mutex_init(&st->lock, NULL);
	pthread_cond_init(&st->freed, NULL);
	return st;
}

void
wp_store_close(struct wp_store *st)
{
	if (!st)
		return;
	pthread_mutex_lock(&st->lock);
	st->closing = 1;
	for (unsigned i = 0; i < st->size; i++) {
		if (st->conns[i] && !st->busy[i]) {
			PQfinish(st->conns[i]);
			st->conns[i] = NULL;
		}
	}
	pthread_mutex_unlock(&st->lock);
	/* Connections still borrowed are finished when they come back; the
	 * fronts have stopped by now, so none should be. */
	pthread_cond_destroy(&st->freed);
	pthread_mutex_destroy(&st->lock);
	free(st->conns);
	free(st->busy);
	free(st->conninfo);
	free(st);
}

PGconn *
wp_store_get(struct wp_store *st)
{
	struct timespec deadline;
	unsigned slot = 0;
	int found = 0;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += WP_POOL_WAIT_SEC;
	pthread_mutex_lock(&st->lock);
	while (!found) {
		for (slot = 0; slot < st->size; slot++)
			if (!st->busy[slot])
				break;
		if (slot < st->size) {
			found = 1;
			break;
		}
		if (pthread_cond_timedwait(&st->freed, &st->lock, &deadline) == ETIMEDOUT)
			break;
	}
	if (!found) {
		pthread_mutex_unlock(&st->lock);
		wp_log("database: no free connection after %d s", WP_POOL_WAIT_SEC);
		return NULL;
	}
	st->busy[slot] = 1;
	PGconn *c = st->conns[slot];
	pthread_mutex_unlock(&st->lock);

	/* Connecting happens outside the lock: it may take seconds. */
	if (c && PQstatus(c) != CONNECTION_OK) {
		PQfinish(c);
		c = NULL;
	}
	if (!c)
		c = connect_db(st->conninfo);

	pthread_mutex_lock(&st->lock);
	st->conns[slot] = c;
	if (!c) {
		st->busy[slot] = 0;
		pthread_cond_signal(&st->freed);
	}
	pthread_mutex_unlock(&st->lock);
	return c;
}

void
wp_store_put(struct wp_store *st, PGconn *conn)
{
	if (!conn)
		return;
	pthread_mutex_lock(&st->lock);
	for (unsigned i = 0; i < st->size; i++) {
		if (st->conns[i] != conn)
			continue;
		/* A connection left inside a transaction or broken is not
		 * handed to the next request. */
		if (PQstatus(conn) != CONNECTION_OK ||
		    PQtransactionStatus(conn) != PQTRANS_IDLE) {
			PQfinish(conn);
			st->conns[i] = NULL;
		}
		st->busy[i] = 0;
		break;
	}
	pthread_cond_signal(&st->freed);
	pthread_mutex_unlock(&st->lock);
}

/* 1 when the database answers a query. A connection that broke since its
 * last use (the server restarted) is replaced and tried once more. */
int
wp_store_ping(struct wp_store *st)
{
	for (int attempt = 0; attempt < 2; attempt++) {
		PGconn *c = wp_store_get(st);
		if (!c)
			return 0;
		PGresult *r = PQexec(c, "SELECT 1");
		int ok = PQresultStatus(r) == PGRES_TUPLES_OK;
		PQclear(r);
		wp_store_put(st, c);
		if (ok)
			return 1;
	}
	return 0;
}
