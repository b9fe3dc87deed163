/* The store's connections: a small locked pool of libpq connections,
 * connected lazily and reconnected when the server went away. */
#include <errno.h>
#include <stdio.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store_priv.h"

struct wp_store {
	pthread_mutex_t lock;
	pthread_cond_t freed;
	char *conninfo;
	unsigned size;
	struct wp_conn *conns;
	unsigned char *busy;
	int closing;
};

/* How long a request waits for a free connection before it is told the
 * database is unavailable, rather than queueing without bound. */
#define WP_POOL_WAIT_SEC 5

static int
prepare_all(PGconn *c)
{
	for (int i = 0; i < WP_STMT_MAX; i++) {
		PGresult *r = PQprepare(c, wp_sql[i].name, wp_sql[i].sql, 0, NULL);
		int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
		if (!ok)
			wp_log("database: cannot prepare %s: %s", wp_sql[i].name,
			       PQresultErrorMessage(r));
		PQclear(r);
		if (!ok)
			return -1;
	}
	return 0;
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
		if (st->conns[i].pg && !st->busy[i]) {
			PQfinish(st->conns[i].pg);
			st->conns[i].pg = NULL;
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

/* Whether an idle connection still has its server. A server that went
 * away (a restart, an administrator's kill) sent its goodbye and closed
 * the socket while the connection sat in the pool, which libpq learns only
 * when it next reads. A pooled connection never LISTENs, so anything to
 * read while it is idle means it is going: look without waiting, so the
 * request that takes it does not find out by failing. */
static int
idle_alive(PGconn *c)
{
	struct pollfd p = {.fd = PQsocket(c), .events = POLLIN};

	if (PQstatus(c) != CONNECTION_OK || p.fd < 0)
		return 0;
	return poll(&p, 1, 0) == 0;
}

struct wp_conn *
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
	PGconn *c = st->conns[slot].pg;
	pthread_mutex_unlock(&st->lock);

	/* Connecting happens outside the lock: it may take seconds. */
	if (c && !idle_alive(c)) {
		PQfinish(c);
		c = NULL;
	}
	if (!c)
		c = connect_db(st->conninfo);

	pthread_mutex_lock(&st->lock);
	st->conns[slot].pg = c;
	if (!c) {
		st->busy[slot] = 0;
		pthread_cond_signal(&st->freed);
	}
	pthread_mutex_unlock(&st->lock);
	return c ? &st->conns[slot] : NULL;
}

void
wp_store_put(struct wp_store *st, struct wp_conn *conn)
{
	if (!conn)
		return;
	pthread_mutex_lock(&st->lock);
	unsigned i = (unsigned)(conn - st->conns);
	/* A connection left inside a transaction or broken is not handed to
	 * the next request. */
	if (PQstatus(conn->pg) != CONNECTION_OK || PQtransactionStatus(conn->pg) != PQTRANS_IDLE) {
		PQfinish(conn->pg);
		conn->pg = NULL;
	}
	st->busy[i] = 0;
	pthread_cond_signal(&st->freed);
	pthread_mutex_unlock(&st->lock);
}

/* 1 when the database answers a query. A connection that broke since its
 * last use (the server restarted) is replaced and tried once more. */
int
wp_store_ping(struct wp_store *st)
{
	for (int attempt = 0; attempt < 2; attempt++) {
		struct wp_conn *c = wp_store_get(st);
		if (!c)
			return 0;
		PGresult *r = PQexec(c->pg, "SELECT 1");
		int ok = PQresultStatus(r) == PGRES_TUPLES_OK;
		PQclear(r);
		wp_store_put(st, c);
		if (ok)
			return 1;
	}
	return 0;
}

/* ------------------------------------------------------------ statements */

static enum wp_err
lost_or_internal(struct wp_conn *c)
{
	return PQstatus(c->pg) != CONNECTION_OK ? WP_ERR_DB_UNAVAILABLE : WP_ERR_INTERNAL;
}

static enum wp_err
command(struct wp_conn *c, const char *sql)
{
	PGresult *r = PQexec(c->pg, sql);
	int ok = PQresultStatus(r) == PGRES_COMMAND_OK;

	if (!ok)
		wp_log("database: %s: %s", sql, PQresultErrorMessage(r));
	PQclear(r);
	return ok ? WP_OK : lost_or_internal(c);
}

enum wp_err
wp_store_tx(struct wp_conn *c, wp_tx_fn fn, void *arg)
{
	enum wp_err err = command(c, "BEGIN");

	if (err != WP_OK)
		return err;
	err = fn(c, arg);
	if (err != WP_OK) {
		command(c, "ROLLBACK");
		return err;
	}
	return command(c, "COMMIT");
}

static void
param(struct wp_params *p, const char *value, int length, int binary)
{
	if (p->n == WP_SQL_MAX_PARAMS)
		return;
	p->values[p->n] = value;
	p->lengths[p->n] = length;
	p->formats[p->n] = binary;
	p->n++;
}

void
wp_p_int(struct wp_params *p, int64_t v)
{
	if (p->n == WP_SQL_MAX_PARAMS)
		return;
	snprintf(p->text[p->n], sizeof(p->text[0]), "%lld", (long long)v);
	param(p, p->text[p->n], 0, 0);
}

void
wp_p_text(struct wp_params *p, const char *s)
{
	param(p, s, 0, 0);
}

void
wp_p_bytes(struct wp_params *p, const void *b, size_t n)
{
	param(p, b, (int)n, 1);
}

enum wp_err
wp_sql_run(struct wp_conn *c, enum wp_stmt st, const struct wp_params *p, PGresult **out)
{
	PGresult *r = PQexecPrepared(c->pg, wp_sql[st].name, p ? p->n : 0, p ? p->values : NULL,
	                             p ? p->lengths : NULL, p ? p->formats : NULL, 0);
	ExecStatusType s = PQresultStatus(r);

	wp_metric_add(WP_METRIC_DB_QUERIES, 1);
	if (s == PGRES_TUPLES_OK)
		wp_metric_add(WP_METRIC_DB_ROWS, (uint64_t)PQntuples(r));
	if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) {
		wp_log("database: %s: %s", wp_sql[st].name, PQresultErrorMessage(r));
		PQclear(r);
		return lost_or_internal(c);
	}
	if (out)
		*out = r;
	else
		PQclear(r);
	return WP_OK;
}

enum wp_err
wp_sql_one(struct wp_conn *c, enum wp_stmt st, const struct wp_params *p, int64_t *v)
{
	PGresult *r;
	enum wp_err err = wp_sql_run(c, st, p, &r);

	if (err != WP_OK)
		return err;
	if (PQntuples(r) == 0)
		err = WP_ERR_NOT_FOUND;
	else
		*v = wp_col_bool(r, 0, 0) ? 1 : wp_col_int(r, 0, 0);
	PQclear(r);
	return err;
}

/* --------------------------------------------------------------- columns */

int64_t
wp_col_int(const PGresult *r, int row, int col)
{
	return strtoll(PQgetvalue(r, row, col), NULL, 10);
}

int
wp_col_null(const PGresult *r, int row, int col)
{
	return PQgetisnull(r, row, col);
}

int
wp_col_bool(const PGresult *r, int row, int col)
{
	return strcmp(PQgetvalue(r, row, col), "t") == 0;
}

void
wp_col_str(const PGresult *r, int row, int col, char *out, size_t cap)
{
	snprintf(out, cap, "%s", PQgetvalue(r, row, col));
}

char *
wp_col_strdup(const PGresult *r, int row, int col)
{
	return PQgetisnull(r, row, col) ? NULL : strdup(PQgetvalue(r, row, col));
}

json_object *
wp_col_json(const PGresult *r, int row, int col)
{
	return PQgetisnull(r, row, col) ? NULL : json_tokener_parse(PQgetvalue(r, row, col));
}

long
wp_col_bytes(const PGresult *r, int row, int col, unsigned char *out, size_t cap)
{
	const char *text = PQgetvalue(r, row, col);
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
