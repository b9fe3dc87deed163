/* A keyed request's claim and answer outside a match (sql/025;
 * api/keyed.c says when each runs). Each statement commits alone. */
#include <stdlib.h>
#include <string.h>

#include "store_priv.h"

static void
scope_key(struct wp_params *p, const unsigned char scope[32], const char *key)
{
	wp_p_bytes(p, scope, 32);
	wp_p_text(p, key);
}

enum wp_err
wp_db_keyed_claim(struct wp_conn *c, const unsigned char scope[32], const char *key,
                  const unsigned char request_hash[32], struct wp_keyed *first)
{
	enum wp_err err;

	memset(first, 0, sizeof(*first));
	/* A claim dropped between the two statements (its request failed)
	 * leaves the key free again: claim once more. */
	for (int tries = 0; tries < 3; tries++) {
		struct wp_params p = {0};
		PGresult *r;
		int64_t one;

		scope_key(&p, scope, key);
		wp_p_bytes(&p, request_hash, 32);
		if ((err = wp_sql_one(c, WP_STMT_KEYED_CLAIM, &p, &one)) != WP_ERR_NOT_FOUND)
			return err == WP_OK ? WP_ERR_NOT_FOUND : err;
		p = (struct wp_params){0};
		scope_key(&p, scope, key);
		if ((err = wp_sql_run(c, WP_STMT_KEYED_GET, &p, &r)) != WP_OK)
			return err;
		if (PQntuples(r) == 1) {
			if (wp_col_bytes(r, 0, 0, first->request_hash, 32) != 32)
				memset(first->request_hash, 0, 32);
			first->status = wp_col_null(r, 0, 1) ? 0 : (int)wp_col_int(r, 0, 1);
			first->headers = wp_col_strdup(r, 0, 2);
			first->body = wp_col_strdup(r, 0, 3);
			PQclear(r);
			return WP_OK;
		}
		PQclear(r);
	}
	return WP_ERR_INTERNAL;
}

enum wp_err
wp_db_keyed_done(struct wp_conn *c, const unsigned char scope[32], const char *key, int status,
                 const char *headers, const char *body)
{
	struct wp_params p = {0};

	scope_key(&p, scope, key);
	wp_p_int(&p, status);
	wp_p_text(&p, headers);
	wp_p_text(&p, body);
	return wp_sql_run(c, WP_STMT_KEYED_DONE, &p, NULL);
}

enum wp_err
wp_db_keyed_drop(struct wp_conn *c, const unsigned char scope[32], const char *key)
{
	struct wp_params p = {0};

	scope_key(&p, scope, key);
	return wp_sql_run(c, WP_STMT_KEYED_DROP, &p, NULL);
}

void
wp_keyed_free(struct wp_keyed *k)
{
	free(k->headers);
	free(k->body);
	k->headers = k->body = NULL;
}
