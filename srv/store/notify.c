/* Notifications in the store: webhooks, the outbox and its delivery log,
 * e-mail digest settings (issue 14; notify_sql.h holds the SQL). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notify_store.h"
#include "store_priv.h"

enum { WP_HOOK_COLUMNS(WP_COLUMN_ENUM) };
enum { WP_DELIVERY_COLUMNS(WP_COLUMN_ENUM) };
enum { WP_OUTBOX_COLUMNS(WP_COLUMN_ENUM) };
enum { WP_EMAIL_COLUMNS(WP_COLUMN_ENUM) };
enum { WP_DIGEST_COLUMNS(WP_COLUMN_ENUM) };
enum { WP_DIGEST_GAME_COLUMNS(WP_COLUMN_ENUM) };
enum { WP_TIMED_GAME_COLUMNS(WP_COLUMN_ENUM) };

static void
p_seconds(struct wp_params *p, double s)
{
	if (p->n == WP_SQL_MAX_PARAMS)
		return;
	snprintf(p->text[p->n], sizeof(p->text[0]), "%.3f", s);
	wp_p_text(p, p->text[p->n]);
}

static void
read_hook(const PGresult *r, int i, struct wp_webhook *w)
{
	w->id = wp_col_int(r, i, WC_ID);
	wp_col_str(r, i, WC_URL, w->url, sizeof(w->url));
	wp_col_str(r, i, WC_CREATED_AT, w->created_at, sizeof(w->created_at));
}

enum wp_err
wp_db_webhook_insert(struct wp_conn *c, int64_t player, const char *url, const char *secret,
                     int max, struct wp_webhook *out)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	wp_p_int(&p, player);
	wp_p_text(&p, url);
	wp_p_text(&p, secret);
	wp_p_int(&p, max);
	if ((err = wp_sql_run(c, WP_STMT_WEBHOOK_INSERT, &p, &r)) != WP_OK)
		return err;
	if (PQntuples(r) == 1)
		read_hook(r, 0, out);
	else
		err = WP_ERR_NOT_FOUND;
	PQclear(r);
	return err;
}

enum wp_err
wp_db_webhooks(struct wp_conn *c, int64_t player, struct wp_webhook **out, int *n)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	*out = NULL;
	*n = 0;
	wp_p_int(&p, player);
	if ((err = wp_sql_run(c, WP_STMT_WEBHOOKS_LIST, &p, &r)) != WP_OK)
		return err;
	*out = calloc((size_t)PQntuples(r) + 1, sizeof(**out));
	for (int i = 0; *out && i < PQntuples(r); i++)
		read_hook(r, i, &(*out)[(*n)++]);
	PQclear(r);
	return *out ? WP_OK : WP_ERR_INTERNAL;
}

static enum wp_err
player_and_id(struct wp_conn *c, enum wp_stmt st, int64_t player, int64_t id)
{
	struct wp_params p = {0};
	int64_t v;

	wp_p_int(&p, player);
	wp_p_int(&p, id);
	return wp_sql_one(c, st, &p, &v);
}

enum wp_err
wp_db_webhook_delete(struct wp_conn *c, int64_t player, int64_t id)
{
	return player_and_id(c, WP_STMT_WEBHOOK_DELETE, player, id);
}

enum wp_err
wp_db_webhook_owned(struct wp_conn *c, int64_t player, int64_t id)
{
	return player_and_id(c, WP_STMT_WEBHOOK_OWNED, player, id);
}

enum wp_err
wp_db_deliveries(struct wp_conn *c, int64_t webhook, int limit, struct wp_delivery **out, int *n)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	*out = NULL;
	*n = 0;
	wp_p_int(&p, webhook);
	wp_p_int(&p, limit);
	if ((err = wp_sql_run(c, WP_STMT_DELIVERIES_PAGE, &p, &r)) != WP_OK)
		return err;
	*out = calloc((size_t)PQntuples(r) + 1, sizeof(**out));
	for (int i = 0; *out && i < PQntuples(r); i++) {
		struct wp_delivery *d = &(*out)[i];
		d->id = wp_col_int(r, i, DC_ID);
		d->game = wp_col_int(r, i, DC_GAME);
		wp_col_str(r, i, DC_EVENT, d->event, sizeof(d->event));
		d->seq = (int)wp_col_int(r, i, DC_SEQ);
		d->seat = (int)wp_col_int(r, i, DC_SEAT);
		wp_col_str(r, i, DC_STATE, d->state, sizeof(d->state));
		d->attempts = (int)wp_col_int(r, i, DC_ATTEMPTS);
		d->last_status = wp_col_null(r, i, DC_LAST_STATUS) ? 0
		                 : (int)wp_col_int(r, i, DC_LAST_STATUS);
		d->last_error = wp_col_strdup(r, i, DC_LAST_ERROR);
		wp_col_str(r, i, DC_CREATED_AT, d->created_at, sizeof(d->created_at));
		wp_col_str(r, i, DC_NEXT_AT, d->next_at, sizeof(d->next_at));
		wp_col_str(r, i, DC_DELIVERED_AT, d->delivered_at, sizeof(d->delivered_at));
		d->log = wp_col_json(r, i, DC_LOG);
		*n = i + 1;
	}
	PQclear(r);
	return *out ? WP_OK : WP_ERR_INTERNAL;
}

void
wp_deliveries_free(struct wp_delivery *d, int n)
{
	for (int i = 0; d && i < n; i++) {
		free(d[i].last_error);
		json_object_put(d[i].log);
	}
	free(d);
}

enum wp_err
wp_db_outbox_claim(struct wp_conn *c, int limit, double lease_s, struct wp_outbox **out, int *n)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	*out = NULL;
	*n = 0;
	wp_p_int(&p, limit);
	p_seconds(&p, lease_s);
	if ((err = wp_sql_run(c, WP_STMT_OUTBOX_CLAIM, &p, &r)) != WP_OK)
		return err;
	*out = calloc((size_t)PQntuples(r) + 1, sizeof(**out));
	for (int i = 0; *out && i < PQntuples(r); i++) {
		struct wp_outbox *o = &(*out)[i];
		o->game = wp_col_int(r, i, OC_GAME);
		o->id = wp_col_int(r, i, OC_ID);
		o->attempt = (int)wp_col_int(r, i, OC_ATTEMPT);
		wp_col_str(r, i, OC_EVENT, o->event, sizeof(o->event));
		o->seat = (int)wp_col_int(r, i, OC_SEAT);
		o->seq = (int)wp_col_int(r, i, OC_SEQ);
		wp_col_str(r, i, OC_STATUS, o->status, sizeof(o->status));
		o->awaiting = (unsigned)wp_col_int(r, i, OC_AWAITING);
		o->seats = (int)wp_col_int(r, i, OC_SEATS);
		wp_col_str(r, i, OC_RULESET, o->ruleset, sizeof(o->ruleset));
		wp_col_str(r, i, OC_CREATED_AT, o->created_at, sizeof(o->created_at));
		wp_col_str(r, i, OC_DEADLINE, o->deadline, sizeof(o->deadline));
		o->url = wp_col_strdup(r, i, OC_URL);
		o->secret = wp_col_strdup(r, i, OC_SECRET);
		*n = i + 1;
	}
	PQclear(r);
	return *out ? WP_OK : WP_ERR_INTERNAL;
}

void
wp_outbox_free(struct wp_outbox *o, int n)
{
	for (int i = 0; o && i < n; i++) {
		free(o[i].url);
		free(o[i].secret);
	}
	free(o);
}

enum wp_err
wp_db_outbox_done(struct wp_conn *c, const struct wp_outbox *o, int http_status,
                  const char *error, int max_attempts, double retry_s)
{
	struct wp_params p = {0};

	wp_p_int(&p, o->game);
	wp_p_int(&p, o->id);
	wp_p_int(&p, o->attempt);
	if (http_status > 0)
		wp_p_int(&p, http_status);
	else
		wp_p_text(&p, NULL);
	wp_p_text(&p, error);
	wp_p_int(&p, max_attempts);
	p_seconds(&p, retry_s);
	return wp_sql_run(c, WP_STMT_OUTBOX_DONE, &p, NULL);
}

enum wp_err
wp_db_timed_games(struct wp_conn *c, int64_t after, int limit, struct wp_timed_game **out,
                  int *n)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	*out = NULL;
	*n = 0;
	wp_p_int(&p, after);
	wp_p_int(&p, limit);
	if ((err = wp_sql_run(c, WP_STMT_TIMED_GAMES, &p, &r)) != WP_OK)
		return err;
	*out = calloc((size_t)PQntuples(r) + 1, sizeof(**out));
	for (int i = 0; *out && i < PQntuples(r); i++) {
		struct wp_timed_game *g = &(*out)[i];
		g->id = wp_col_int(r, i, TG_ID);
		g->version = (int)wp_col_int(r, i, TG_VERSION);
		g->seq = (int)wp_col_int(r, i, TG_SEQ);
		g->seats = (int)wp_col_int(r, i, TG_SEATS);
		wp_col_tc(r, i, TG_TC, &g->tc);
		*n = i + 1;
	}
	PQclear(r);
	return *out ? WP_OK : WP_ERR_INTERNAL;
}

enum wp_err
wp_db_time_warning(struct wp_conn *c, int64_t game, int seat, int turn_seq, int version,
                   int64_t deadline, int64_t *queued)
{
	struct wp_params p = {0};

	wp_p_int(&p, game);
	wp_p_int(&p, seat);
	wp_p_int(&p, turn_seq);
	wp_p_int(&p, version);
	wp_p_int(&p, deadline);
	return wp_sql_one(c, WP_STMT_TIME_WARNING, &p, queued);
}

static void
read_email(const PGresult *r, struct wp_email *e)
{
	wp_col_str(r, 0, EC_ADDRESS, e->address, sizeof(e->address));
	e->digest = wp_col_bool(r, 0, EC_DIGEST);
	wp_col_str(r, 0, EC_LAST_AT, e->last_digest_at, sizeof(e->last_digest_at));
	e->confirmed = wp_col_bool(r, 0, EC_CONFIRMED);
}

static enum wp_err
email_row(struct wp_conn *c, enum wp_stmt st, const struct wp_params *p, struct wp_email *out)
{
	PGresult *r;
	enum wp_err err = wp_sql_run(c, st, p, &r);

	if (err != WP_OK)
		return err;
	memset(out, 0, sizeof(*out));
	if (PQntuples(r) == 1)
		read_email(r, out);
	else
		err = WP_ERR_NOT_FOUND;
	PQclear(r);
	return err;
}

enum wp_err
wp_db_email_get(struct wp_conn *c, int64_t player, struct wp_email *out)
{
	struct wp_params p = {0};

	wp_p_int(&p, player);
	return email_row(c, WP_STMT_EMAIL_GET, &p, out);
}

enum wp_err
wp_db_email_put(struct wp_conn *c, int64_t player, const char *address, int digest,
                const char *token, struct wp_email *out)
{
	struct wp_params p = {0};

	wp_p_int(&p, player);
	wp_p_text(&p, address);
	wp_p_text(&p, digest ? "true" : "false");
	wp_p_text(&p, token);
	return email_row(c, WP_STMT_EMAIL_PUT, &p, out);
}

enum wp_err
wp_db_unsubscribe(struct wp_conn *c, const char *token)
{
	struct wp_params p = {0};
	int64_t v;

	wp_p_text(&p, token);
	return wp_sql_one(c, WP_STMT_UNSUBSCRIBE, &p, &v);
}

enum wp_err
wp_db_digest_claim(struct wp_conn *c, double period_s, int limit, struct wp_digest **out, int *n)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	*out = NULL;
	*n = 0;
	p_seconds(&p, period_s);
	wp_p_int(&p, limit);
	if ((err = wp_sql_run(c, WP_STMT_DIGEST_CLAIM, &p, &r)) != WP_OK)
		return err;
	*out = calloc((size_t)PQntuples(r) + 1, sizeof(**out));
	for (int i = 0; *out && i < PQntuples(r); i++) {
		struct wp_digest *d = &(*out)[i];
		d->player = wp_col_int(r, i, GC2_PLAYER);
		wp_col_str(r, i, GC2_ADDRESS, d->address, sizeof(d->address));
		wp_col_str(r, i, GC2_TOKEN, d->token, sizeof(d->token));
		wp_col_str(r, i, GC2_NAME, d->name, sizeof(d->name));
		*n = i + 1;
	}
	PQclear(r);
	return *out ? WP_OK : WP_ERR_INTERNAL;
}

enum wp_err
wp_db_digest_games(struct wp_conn *c, int64_t player, int limit, struct wp_digest_game **out,
                   int *n)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	*out = NULL;
	*n = 0;
	wp_p_int(&p, player);
	wp_p_int(&p, limit);
	if ((err = wp_sql_run(c, WP_STMT_DIGEST_GAMES, &p, &r)) != WP_OK)
		return err;
	*out = calloc((size_t)PQntuples(r) + 1, sizeof(**out));
	for (int i = 0; *out && i < PQntuples(r); i++) {
		struct wp_digest_game *g = &(*out)[i];
		g->id = wp_col_int(r, i, DG_ID);
		wp_col_str(r, i, DG_RULESET, g->ruleset, sizeof(g->ruleset));
		g->seq = (int)wp_col_int(r, i, DG_SEQ);
		g->seat = (int)wp_col_int(r, i, DG_SEAT);
		*n = i + 1;
	}
	PQclear(r);
	return *out ? WP_OK : WP_ERR_INTERNAL;
}

enum wp_err
wp_db_digest_done(struct wp_conn *c, int64_t player, int sent, double retry_s)
{
	struct wp_params p = {0};

	wp_p_int(&p, player);
	wp_p_text(&p, sent ? "true" : "false");
	p_seconds(&p, retry_s);
	return wp_sql_run(c, WP_STMT_DIGEST_DONE, &p, NULL);
}
