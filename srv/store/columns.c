/* What a result's columns read as: the store's readers of libpq's text
 * values (integers, booleans, strings, JSON, bytea in hex), apart from
 * the pool that runs the statements (pool.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_priv.h"

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
