/* A player's devices, the one-time codes that sign in another one, and
 * the account mail (confirmation and recovery links) the notification
 * worker sends (issue 28; sql/019_devices.sql). Each statement runs on
 * its own (autocommit): a revoke's NOTIFY goes out at its commit. */
#include <stdio.h>
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
wp_db_redeem(struct wp_conn *c, enum wp_redeem how, const unsigned char hash[32],
             const unsigned char token_hash[32], const char *device, struct wp_player *who)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	wp_p_bytes(&p, hash, 32);
	wp_p_bytes(&p, token_hash, 32);
	wp_p_text(&p, device);
	if ((err = wp_sql_run(c, how == WP_REDEEM_CODE ? WP_STMT_CODE_REDEEM
	                                               : WP_STMT_RECOVERY_REDEEM, &p, &r)) != WP_OK)
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

enum wp_err
wp_db_mail_queue(struct wp_conn *c, const char *kind, int64_t player, const char *address)
{
	struct wp_params p = {0};
	int64_t id;

	wp_p_text(&p, kind);
	if (player)
		wp_p_int(&p, player);
	else
		wp_p_text(&p, NULL);
	wp_p_text(&p, address);
	return wp_sql_one(c, WP_STMT_MAIL_QUEUE, &p, &id);
}

enum wp_err
wp_db_mail_confirm_again(struct wp_conn *c, int64_t player)
{
	struct wp_params p = {0};
	int64_t id;

	wp_p_int(&p, player);
	return wp_sql_one(c, WP_STMT_MAIL_CONFIRM_AGAIN, &p, &id);
}

enum wp_err
wp_db_mail_claim(struct wp_conn *c, int limit, double lease_s, struct wp_account_mail **out,
                 int *n)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;
	char lease[32];

	*out = NULL;
	*n = 0;
	snprintf(lease, sizeof(lease), "%.3f", lease_s);
	wp_p_int(&p, limit);
	wp_p_text(&p, lease);
	if ((err = wp_sql_run(c, WP_STMT_MAIL_CLAIM, &p, &r)) != WP_OK)
		return err;
	*n = PQntuples(r);
	*out = calloc((size_t)*n + 1, sizeof(**out));
	for (int i = 0; *out && i < *n; i++) {
		struct wp_account_mail *m = &(*out)[i];
		m->id = wp_col_int(r, i, 0);
		wp_col_str(r, i, 1, m->kind, sizeof(m->kind));
		m->player = wp_col_int(r, i, 2);
		wp_col_str(r, i, 3, m->address, sizeof(m->address));
		m->attempts = (int)wp_col_int(r, i, 4);
	}
	PQclear(r);
	return *out ? WP_OK : WP_ERR_INTERNAL;
}

enum wp_err
wp_db_mail_targets(struct wp_conn *c, const struct wp_account_mail *m, int limit,
                   struct wp_mail_target **out, int *n)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	*out = NULL;
	*n = 0;
	wp_p_text(&p, m->kind);
	wp_p_int(&p, m->player);
	wp_p_text(&p, m->address);
	wp_p_int(&p, limit);
	if ((err = wp_sql_run(c, WP_STMT_MAIL_TARGETS, &p, &r)) != WP_OK)
		return err;
	*n = PQntuples(r);
	*out = calloc((size_t)*n + 1, sizeof(**out));
	for (int i = 0; *out && i < *n; i++) {
		(*out)[i].player = wp_col_int(r, i, 0);
		wp_col_str(r, i, 1, (*out)[i].name, sizeof((*out)[i].name));
		wp_col_str(r, i, 2, (*out)[i].address, sizeof((*out)[i].address));
	}
	PQclear(r);
	return *out ? WP_OK : WP_ERR_INTERNAL;
}

enum wp_err
wp_db_link_insert(struct wp_conn *c, const char *kind, int64_t player, const char *address,
                  const unsigned char hash[32], int ttl_s)
{
	struct wp_params p = {0};
	int64_t v;

	wp_p_bytes(&p, hash, 32);
	wp_p_text(&p, kind);
	wp_p_int(&p, player);
	wp_p_text(&p, address);
	wp_p_int(&p, ttl_s);
	return wp_sql_one(c, WP_STMT_LINK_INSERT, &p, &v);
}

enum wp_err
wp_db_mail_done(struct wp_conn *c, int64_t id, int done, int max_attempts, double retry_s)
{
	struct wp_params p = {0};
	char retry[32];

	snprintf(retry, sizeof(retry), "%.3f", retry_s);
	wp_p_int(&p, id);
	wp_p_text(&p, done ? "true" : "false");
	wp_p_int(&p, max_attempts);
	wp_p_text(&p, retry);
	return wp_sql_run(c, WP_STMT_MAIL_DONE, &p, NULL);
}

enum wp_err
wp_db_email_confirm(struct wp_conn *c, const unsigned char hash[32])
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	wp_p_bytes(&p, hash, 32);
	if ((err = wp_sql_run(c, WP_STMT_EMAIL_CONFIRM, &p, &r)) != WP_OK)
		return err;
	err = PQntuples(r) == 1 ? WP_OK : WP_ERR_NOT_FOUND;
	PQclear(r);
	return err;
}

enum wp_err
wp_db_sweep(struct wp_conn *c, int batch, int64_t *removed)
{
	struct wp_params p = {0};

	wp_p_int(&p, batch);
	return wp_sql_one(c, WP_STMT_SWEEP, &p, removed);
}
