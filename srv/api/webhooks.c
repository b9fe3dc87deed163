/* A player's notifications (issue 14): webhooks and their delivery log
 * (/api/me/webhooks), e-mail digest settings (/api/me/email) and the
 * unsubscribe link of a digest (/api/unsubscribe), which needs no login. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "api.h"
#include "notify.h"
#include "notify_store.h"

#define WP_WEBHOOKS_MAX 5
#define WP_SECRET_MIN 16
#define WP_SECRET_MAX 256

static json_object *
hook_json(const struct wp_webhook *w)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "id", json_object_new_int64(w->id));
	json_object_object_add(o, "url", json_object_new_string(w->url));
	json_object_object_add(o, "created_at", json_object_new_string(w->created_at));
	return o;
}

static enum wp_err
check_secret(struct wp_ctx *ctx, const char *s)
{
	size_t n = strlen(s);

	if (n < WP_SECRET_MIN || n > WP_SECRET_MAX)
		return wp_fail(ctx, WP_ERR_INVALID, "secret: %d to %d characters", WP_SECRET_MIN,
		               WP_SECRET_MAX);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p <= 0x20 || *p >= 0x7f)
			return wp_fail(ctx, WP_ERR_INVALID, "secret: visible ASCII characters only");
	return WP_OK;
}

enum wp_err
wp_api_webhooks_create(struct wp_ctx *ctx)
{
	static const char *const fields[] = {"url", "secret", NULL};
	const char *url, *secret;
	char why[240], made[65];
	int rc;
	unsigned char raw[32];
	struct wp_webhook w;
	struct wp_player who;
	struct wp_conn *c;
	enum wp_err err;

	if ((err = wp_body_only(ctx, fields)) ||
	    (err = wp_body_string(ctx, "url", WP_WEBHOOK_URL_MAX, 0, &url)) ||
	    (err = wp_body_string(ctx, "secret", WP_SECRET_MAX, 0, &secret)))
		return err;
	if (!url)
		return wp_fail(ctx, WP_ERR_INVALID, "url: required");
	/* A URL of the wrong shape is a 400; a well-formed one whose host this
	 * server will not call a 422 that says why (issue 24). */
	if ((rc = wp_webhook_url_check(url, why, sizeof(why))) != 0)
		return wp_fail(ctx, rc == -2 ? WP_ERR_TARGET_REFUSED : WP_ERR_INVALID, "%s", why);
	if (secret && (err = check_secret(ctx, secret)))
		return err;
	if (!secret) {
		randombytes_buf(raw, sizeof(raw));
		sodium_bin2hex(made, sizeof(made), raw, sizeof(raw));
	}
	if ((err = wp_me(ctx, &c, &who)))
		return err;
	err = wp_db_webhook_insert(c, who.id, url, secret ? secret : made, WP_WEBHOOKS_MAX, &w);
	wp_store_put(ctx->store, c);
	if (err == WP_ERR_NOT_FOUND)
		return wp_fail(ctx, WP_ERR_INVALID, "a player has at most %d webhooks; delete one first",
		               WP_WEBHOOKS_MAX);
	if (err)
		return wp_fail_store(ctx, err);
	json_object *o = hook_json(&w);
	/* A secret the server made is shown this once. */
	if (!secret)
		json_object_object_add(o, "secret", json_object_new_string(made));
	sodium_memzero(made, sizeof(made));
	return wp_reply_json(ctx, 201, o);
}

static json_object *
hook_row(const void *row, const struct wp_player *who)
{
	(void)who;
	return hook_json(row);
}

static enum wp_err
hooks_of(struct wp_conn *c, int64_t player, void **rows, int *n)
{
	struct wp_webhook *w = NULL;
	enum wp_err err = wp_db_webhooks(c, player, &w, n);

	*rows = w;
	return err;
}

enum wp_err
wp_api_webhooks_list(struct wp_ctx *ctx)
{
	return wp_list_mine(ctx, "webhooks", hooks_of, sizeof(struct wp_webhook), hook_row);
}

enum wp_err
wp_api_webhooks_delete(struct wp_ctx *ctx)
{
	struct wp_player who;
	struct wp_conn *c;
	enum wp_err err;
	int64_t id;

	if ((err = wp_mine_id(ctx, "webhook", &id)) || (err = wp_me(ctx, &c, &who)))
		return err;
	err = wp_db_webhook_delete(c, who.id, id);
	wp_store_put(ctx->store, c);
	if (err)
		return wp_mine_fail(ctx, err, "webhook");
	ctx->res->status = 204;
	return WP_OK;
}

static json_object *
time_or_null(const char *t)
{
	return t[0] ? json_object_new_string(t) : NULL;
}

static json_object *
delivery_json(const struct wp_delivery *d)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "id", json_object_new_int64(d->id));
	json_object_object_add(o, "event", json_object_new_string(d->event));
	json_object_object_add(o, "game", json_object_new_int64(d->game));
	json_object_object_add(o, "seq", json_object_new_int(d->seq));
	json_object_object_add(o, "seat", json_object_new_int(d->seat));
	json_object_object_add(o, "state", json_object_new_string(d->state));
	json_object_object_add(o, "attempts", json_object_new_int(d->attempts));
	json_object_object_add(o, "last_status",
	                       d->last_status ? json_object_new_int(d->last_status) : NULL);
	json_object_object_add(o, "last_error",
	                       d->last_error ? json_object_new_string(d->last_error) : NULL);
	json_object_object_add(o, "created_at", json_object_new_string(d->created_at));
	json_object_object_add(o, "next_attempt_at", time_or_null(d->next_at));
	json_object_object_add(o, "delivered_at", time_or_null(d->delivered_at));
	json_object_object_add(o, "log", d->log ? json_object_get(d->log) : json_object_new_array());
	return o;
}

enum wp_err
wp_api_webhooks_deliveries(struct wp_ctx *ctx)
{
	struct wp_delivery *rows = NULL;
	struct wp_player who;
	struct wp_conn *c;
	enum wp_err err;
	int64_t id, limit;
	int n = 0;

	if ((err = wp_mine_id(ctx, "webhook", &id)) || (err = wp_query_int(ctx, "limit", 1, 200, 50, &limit)) ||
	    (err = wp_me(ctx, &c, &who)))
		return err;
	if ((err = wp_db_webhook_owned(c, who.id, id)) == WP_OK)
		err = wp_db_deliveries(c, id, (int)limit, &rows, &n);
	wp_store_put(ctx->store, c);
	if (err) {
		wp_deliveries_free(rows, n);
		return wp_mine_fail(ctx, err, "webhook");
	}
	json_object *o = json_object_new_object(), *list = json_object_new_array();
	for (int i = 0; i < n; i++)
		json_object_array_add(list, delivery_json(&rows[i]));
	wp_deliveries_free(rows, n);
	json_object_object_add(o, "webhook", json_object_new_int64(id));
	json_object_object_add(o, "deliveries", list);
	return wp_reply_json(ctx, 200, o);
}

/* ------------------------------------------------------------- e-mail */

static enum wp_err
email_reply(struct wp_ctx *ctx, const struct wp_email *e, int found)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "address", found ? json_object_new_string(e->address) : NULL);
	json_object_object_add(o, "digest",
	                       json_object_new_string(found && e->digest ? "daily" : "off"));
	json_object_object_add(o, "last_digest_at", found ? time_or_null(e->last_digest_at) : NULL);
	json_object_object_add(o, "confirmed", json_object_new_boolean(found && e->confirmed));
	return wp_reply_json(ctx, 200, o);
}

enum wp_err
wp_api_email_get(struct wp_ctx *ctx)
{
	struct wp_email e;
	struct wp_player who;
	struct wp_conn *c;
	enum wp_err err;

	if ((err = wp_me(ctx, &c, &who)))
		return err;
	err = wp_db_email_get(c, who.id, &e);
	wp_store_put(ctx->store, c);
	if (err && err != WP_ERR_NOT_FOUND)
		return wp_fail_store(ctx, err);
	return email_reply(ctx, &e, err == WP_OK);
}

enum wp_err
wp_api_email_put(struct wp_ctx *ctx)
{
	static const char *const fields[] = {"address", "digest", NULL};
	const char *address, *digest;
	unsigned char raw[32];
	char token[65];
	struct wp_email e;
	struct wp_player who;
	struct wp_conn *c;
	enum wp_err err;

	if ((err = wp_body_only(ctx, fields)) ||
	    (err = wp_body_string(ctx, "address", WP_EMAIL_MAX, 0, &address)) ||
	    (err = wp_body_string(ctx, "digest", 8, 0, &digest)))
		return err;
	if (!address || wp_email_check(address) != 0)
		return wp_fail(ctx, WP_ERR_INVALID, "address: required, an e-mail address "
		                                    "(local@domain, at most %d bytes)", WP_EMAIL_MAX);
	if (!digest || (strcmp(digest, "daily") != 0 && strcmp(digest, "off") != 0))
		return wp_fail(ctx, WP_ERR_INVALID, "digest: required, \"daily\" or \"off\"");
	randombytes_buf(raw, sizeof(raw));
	sodium_bin2hex(token, sizeof(token), raw, sizeof(raw));
	if ((err = wp_me(ctx, &c, &who)))
		return err;
	err = wp_db_email_put(c, who.id, address, strcmp(digest, "daily") == 0, token, &e);
	wp_store_put(ctx->store, c);
	if (err)
		return wp_fail_store(ctx, err);
	return email_reply(ctx, &e, 1);
}

static enum wp_err
unsubscribe_token(struct wp_ctx *ctx, char token[80])
{
	size_t n;

	if (wp_query_param(ctx->req->query, "token", token, 80) <= 0 ||
	    (n = strlen(token)) != 64 || strspn(token, "0123456789abcdef") != n)
		return wp_fail(ctx, WP_ERR_INVALID, "token: the 64 hex digits of the link");
	return WP_OK;
}

/* GET /api/unsubscribe?token=: changes nothing (mail scanners follow
 * links): 303 to the board's page, where a person confirms with a POST. */
enum wp_err
wp_api_unsubscribe_page(struct wp_ctx *ctx)
{
	char token[80], page[96];
	enum wp_err err;

	if ((err = unsubscribe_token(ctx, token)))
		return err;
	snprintf(page, sizeof(page), "/#/unsubscribe/%s", token);
	json_object *o = json_object_new_object();
	json_object_object_add(o, "page", json_object_new_string(page));
	wp_response_header(ctx->res, "Location", page);
	return wp_reply_json(ctx, 303, o);
}

/* POST /api/unsubscribe?token=: turns digests off without a login; the
 * board's page and a mail client's one-click unsubscribe (RFC 8058: the
 * List-Unsubscribe header's URL, posted with the body
 * "List-Unsubscribe=One-Click", which is not read). */
enum wp_err
wp_api_unsubscribe(struct wp_ctx *ctx)
{
	char token[80];
	struct wp_conn *c;
	enum wp_err err;

	if ((err = unsubscribe_token(ctx, token)))
		return err;
	if ((err = wp_conn_get(ctx, &c)))
		return err;
	err = wp_db_unsubscribe(c, token);
	wp_store_put(ctx->store, c);
	if (err == WP_ERR_NOT_FOUND)
		return wp_fail(ctx, err, "this unsubscribe link is not valid (any more)");
	if (err)
		return wp_fail_store(ctx, err);
	json_object *o = json_object_new_object();
	json_object_object_add(o, "digest", json_object_new_string("off"));
	return wp_reply_json(ctx, 200, o);
}
