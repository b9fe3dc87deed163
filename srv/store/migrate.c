/* Numbered migrations from sql/: NNN_name.sql, applied in order at start,
 * each in its own transaction and recorded in schema_migrations. Several
 * instances starting at once serialise on an advisory lock, so each file is
 * applied exactly once. A recorded file whose text changed stops the start:
 * the database no longer matches the code. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>
#include <sodium.h>

#include "store.h"

/* An arbitrary constant that names Warpost's migration lock. */
#define WP_MIGRATION_LOCK "7305206114421580848"

struct migration {
	int version;
	char name[256];
};

static int
cmp_migration(const void *a, const void *b)
{
	const struct migration *x = a, *y = b;
	return (x->version > y->version) - (x->version < y->version);
}

static char *
read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
		goto out;
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
		goto out;
	}
	if (buf) {
		buf[n] = '\0';
		*len = (size_t)n;
	}
out:
	fclose(f);
	return buf;
}

static int
exec_ok(PGconn *c, const char *sql, char *err, size_t errlen)
{
	PGresult *r = PQexec(c, sql);
	ExecStatusType s = PQresultStatus(r);
	int ok = s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK;

	if (!ok)
		snprintf(err, errlen, "%s", PQresultErrorMessage(r));
	PQclear(r);
	return ok;
}

static size_t
list_migrations(const char *dir, struct migration *out, size_t cap, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	if (!d) {
		snprintf(err, errlen, "cannot open migrations directory %s", dir);
		return (size_t)-1;
	}
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		char *endp;
		long v = strtol(e->d_name, &endp, 10);
		if (len < 5 || strcmp(e->d_name + len - 4, ".sql") != 0 || endp == e->d_name ||
		    *endp != '_' || v <= 0 || v > 99999 || len >= sizeof(out[0].name))
			continue;
		if (n == cap) {
			snprintf(err, errlen, "too many migrations in %s", dir);
			closedir(d);
			return (size_t)-1;
		}
		out[n].version = (int)v;
		memcpy(out[n].name, e->d_name, len + 1);
		n++;
	}
	closedir(d);
	qsort(out, n, sizeof(*out), cmp_migration);
	for (size_t i = 1; i < n; i++) {
		if (out[i].version == out[i - 1].version) {
			snprintf(err, errlen, "two migrations numbered %d", out[i].version);
			return (size_t)-1;
		}
	}
	return n;
}

static void
hex_sha256(const char *text, size_t len, char hex[65])
{
	unsigned char h[32];

	crypto_hash_sha256(h, (const unsigned char *)text, len);
	sodium_bin2hex(hex, 65, h, sizeof(h));
}

/* Applies one migration unless recorded; 0 on success. */
static int
apply_one(PGconn *c, const char *dir, const struct migration *m, char *err, size_t errlen)
{
	char path[4096], vbuf[16], hex[65];
	const char *params[3];
	size_t len = 0;
	int rc = -1;
	char *sql;
	PGresult *r;

	snprintf(path, sizeof(path), "%s/%s", dir, m->name);
	sql = read_file(path, &len);
	if (!sql) {
		snprintf(err, errlen, "cannot read %s", path);
		return -1;
	}
	hex_sha256(sql, len, hex);
	snprintf(vbuf, sizeof(vbuf), "%d", m->version);
	params[0] = vbuf;
	r = PQexecParams(c, "SELECT checksum FROM schema_migrations WHERE version = $1", 1,
	                 NULL, params, NULL, NULL, 0);
	if (PQresultStatus(r) != PGRES_TUPLES_OK) {
		snprintf(err, errlen, "%s", PQresultErrorMessage(r));
		goto out;
	}
	if (PQntuples(r) == 1) {
		if (strcmp(PQgetvalue(r, 0, 0), hex) != 0)
			snprintf(err, errlen, "migration %s changed after it was applied", m->name);
		else
			rc = 0;
		goto out;
	}
	PQclear(r);
	r = NULL;
	if (!exec_ok(c, "BEGIN", err, errlen))
		goto out;
	if (!exec_ok(c, sql, err, errlen)) {
		char why[512];
		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "migration %s failed: %s", m->name, why);
		PQclear(PQexec(c, "ROLLBACK"));
		goto out;
	}
	params[1] = m->name;
	params[2] = hex;
	r = PQexecParams(c,
	                 "INSERT INTO schema_migrations (version, name, checksum) "
	                 "VALUES ($1, $2, $3)",
	                 3, NULL, params, NULL, NULL, 0);
	if (PQresultStatus(r) != PGRES_COMMAND_OK) {
		snprintf(err, errlen, "%s", PQresultErrorMessage(r));
		PQclear(PQexec(c, "ROLLBACK"));
		goto out;
	}
	if (!exec_ok(c, "COMMIT", err, errlen))
		goto out;
	wp_log("migration %s applied", m->name);
	rc = 0;
out:
	PQclear(r);
	free(sql);
	return rc;
}

int
wp_migrate(const char *conninfo, const char *dir, PGconn **keep, char *err, size_t errlen)
{
	struct migration list[256];
	size_t n;
	int rc = -1, unlocked = 0;
	PGconn *c;
	PGresult *r;

	n = list_migrations(dir, list, sizeof(list) / sizeof(list[0]), err, errlen);
	if (n == (size_t)-1)
		return -1;
	if (!(c = wp_pg_connect_own(conninfo, "warpostd-migrate", "10", err, errlen)))
		return -1;
	if (!exec_ok(c, "SET client_min_messages = warning", err, errlen) ||
	    !exec_ok(c, "SELECT pg_advisory_lock(" WP_MIGRATION_LOCK ")", err, errlen))
		goto out;
	if (!exec_ok(c,
	             "CREATE TABLE IF NOT EXISTS schema_migrations ("
	             " version integer PRIMARY KEY,"
	             " name text NOT NULL,"
	             " checksum text NOT NULL,"
	             " applied_at timestamptz NOT NULL DEFAULT now())",
	             err, errlen))
		goto unlock;
	rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = apply_one(c, dir, &list[i], err, errlen);
unlock:
	r = PQexec(c, "SELECT pg_advisory_unlock(" WP_MIGRATION_LOCK ")");
	/* Kept for LISTEN only without the lock, which its session would
	 * otherwise hold from every other instance's start. */
	unlocked = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 &&
	           strcmp(PQgetvalue(r, 0, 0), "t") == 0;
	PQclear(r);
out:
	if (rc == 0 && keep && unlocked && PQstatus(c) == CONNECTION_OK &&
	    PQtransactionStatus(c) == PQTRANS_IDLE) {
		*keep = c;
		return 0;
	}
	PQfinish(c);
	return rc;
}
