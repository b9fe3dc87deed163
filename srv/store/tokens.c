/* A player's devices and the one-time codes that sign in another one
 * (issue 28; sql/019_devices.sql). Each statement runs on its own
 * (autocommit): a revoke's NOTIFY goes out at its commit. */
#include <stdlib.h>
#include <string.h>

#include "store_priv.h"

enum { WP_DEVICE_COLUMNS(WP_COLUMN_ENUM) };

static void
device_row(const PGresult *r, int i, struct wp_device *d)
{
	d->id = wp_col_int(r, i, DVC_ID);
	wp_col_str(r, i, DVC_NAME, d->name, sizeof(d->name));
	wp_col_str(r, i, DVC_CREATED_AT, d->created_at, sizeof(d->created_at));
	wp_col_str(r, i, DVC_LAST_USED_AT, d->last_used_at, sizeof(d->last_used_at));
}

enum wp_err
wp_db_devices(struct wp_conn *c, int64_t player, struct wp_device **out, int *n)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	*out = NULL;
	*n = 0;
	wp_p_int(&p, player);
	if ((err = wp_sql_run(c, WP_STMT_DEVICES_LIST, &p, &r)) != WP_OK)
		return err;
	*n = PQntuples(r);
	if ((*out = calloc((size_t)*n + 1, sizeof(**out))) != NULL)
		for (int i = 0; i < *n; i++)
			device_row(r, i, &(*out)[i]);
	PQclear(r);
	return *out ? WP_OK : WP_ERR_INTERNAL;
}

enum wp_err
wp_db_device_rename(struct wp_conn *c, int64_t player, int64_t id, const char *name,
                    struct wp_device *out)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	wp_p_int(&p, player);
	wp_p_int(&p, id);
	wp_p_text(&p, name);
	if ((err = wp_sql_run(c, WP_STMT_DEVICE_RENAME, &p, &r)) != WP_OK)
		return err;
	if (PQntuples(r) == 1)
		device_row(r, 0, out);
	else
		err = WP_ERR_NOT_FOUND;
	PQclear(r);
	return err;
}

enum wp_err
wp_db_device_revoke(struct wp_conn *c, int64_t player, int64_t id, int others, int *n)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	*n = 0;
	wp_p_int(&p, player);
	wp_p_int(&p, id);
	if ((err = wp_sql_run(c, others ? WP_STMT_DEVICES_REVOKE_OTHERS : WP_STMT_DEVICE_REVOKE,
	                      &p, &r)) != WP_OK)
		return err;
	/* Committed: this instance forgets the tokens before it answers; the
	 * others hear the NOTIFY (cache.c). */
	*n = PQntuples(r);
	for (int i = 0; i < *n; i++)
		if (PQgetlength(r, i, 0) == 32)
			wp_cache_token_revoked((const unsigned char *)PQgetvalue(r, i, 0));
	PQclear(r);
	return *n || others ? WP_OK : WP_ERR_NOT_FOUND;
}

enum wp_err
wp_db_code_insert(struct wp_conn *c, int64_t player, const unsigned char code_hash[32],
                  int ttl_s)
{
	struct wp_params p = {0};
	int64_t v;

	wp_p_bytes(&p, code_hash, 32);
	wp_p_int(&p, player);
	wp_p_int(&p, ttl_s);
	return wp_sql_one(c, WP_STMT_CODE_INSERT, &p, &v);
}

enum wp_err
wp_db_code_redeem(struct wp_conn *c, const unsigned char code_hash[32],
                  const unsigned char token_hash[32], const char *device, struct wp_player *who)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	wp_p_bytes(&p, code_hash, 32);
	wp_p_bytes(&p, token_hash, 32);
	wp_p_text(&p, device);
	if ((err = wp_sql_run(c, WP_STMT_CODE_REDEEM, &p, &r)) != WP_OK)
		return err;
	if (PQntuples(r) == 1) {
		who->id = wp_col_int(r, 0, 0);
		wp_col_str(r, 0, 1, who->name, sizeof(who->name));
		who->device = wp_col_int(r, 0, 2);
	} else {
		err = WP_ERR_NOT_FOUND;
	}
	PQclear(r);
	return err;
}
