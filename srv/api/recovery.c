/* E-mail for recovery (issue 28): the link that confirms a player's
 * address (POST /api/email/confirm, and POST /api/me/email/confirmation
 * to send it again), and the sign-in link a lost key is recovered with
 * (POST /api/recovery, POST /api/recovery/redeem). Mail goes out through
 * the notification worker (notify/account_mail.c).
 *
 * No enumeration: POST /api/recovery checks the address's shape, counts
 * the try against the limits (per client address and per e-mail address,
 * alike for every address), queues one row without looking the address
 * up and answers the same 202 and the same body whatever it is; the
 * worker finds out later, and sends nothing for an address nobody has
 * confirmed. A link is 64 hex digits, stored only as its SHA-256, good
 * once; a recovery revokes no device (DELETE /api/me/devices does, when
 * asked). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "api.h"
#include "notify.h"
#include "notify_store.h"
#include "ratelimit.h"

#define LINK_INVALID "this link is not valid (any more): ask for a new one"

/* The body's "token": the 64 hex digits of a link, hashed; the same 403
 * for any other string as for a link unknown, used or expired. */
static enum wp_err
link_token(struct wp_ctx *ctx, unsigned char hash[32])
{
	const char *t;
	enum wp_err err = wp_body_string(ctx, "token", 100, 0, &t);

	if (err != WP_OK)
		return err;
	if (!t)
		return wp_fail(ctx, WP_ERR_INVALID, "token: required, from the link in the mail");
	if ((err = wp_rate_check_ip(ctx, WP_RATE_ACCOUNT)) != WP_OK)
		return err;
	if (strlen(t) != 64 || strspn(t, "0123456789abcdef") != 64)
		return wp_fail(ctx, WP_ERR_INVALID_CODE, LINK_INVALID);
	crypto_hash_sha256(hash, (const unsigned char *)t, 64);
	return WP_OK;
}

enum wp_err
wp_api_recovery_create(struct wp_ctx *ctx)
{
	static const char *const fields[] = {"address", NULL};
	char lower[WP_EMAIL_MAX + 1];
	unsigned char key[32];
	const char *address;
	struct wp_conn *c;
	enum wp_err err;
	size_t n;

	if ((err = wp_body_only(ctx, fields)) ||
	    (err = wp_body_string(ctx, "address", WP_EMAIL_MAX, 0, &address)))
		return err;
	if (!address || wp_email_check(address) != 0)
		return wp_fail(ctx, WP_ERR_INVALID, "address: required, an e-mail address "
		                                    "(local@domain, at most %d bytes)", WP_EMAIL_MAX);
	for (n = 0; address[n] && n < WP_EMAIL_MAX; n++)
		lower[n] = (char)tolower((unsigned char)address[n]);
	lower[n] = '\0';
	crypto_hash_sha256(key, (const unsigned char *)lower, n);
	if ((err = wp_rate_check_ip(ctx, WP_RATE_ACCOUNT)) ||
	    (err = wp_rate_check(ctx, WP_RATE_ACCOUNT, key, sizeof(key))) ||
	    (err = wp_conn_get(ctx, &c)))
		return err;
	err = wp_db_mail_queue(c, "recover", 0, address);
	wp_store_put(ctx->store, c);
	if (err)
		return wp_fail_store(ctx, err);
	json_object *o = json_object_new_object();
	json_object_object_add(o, "message", json_object_new_string(
		"If this address is confirmed on an account here, a sign-in link is on its way to it."));
	return wp_reply_json(ctx, 202, o);
}

enum wp_err
wp_api_recovery_redeem(struct wp_ctx *ctx)
{
	static const char *const fields[] = {"token", "device", NULL};
	char device[4 * 40 + 1];
	unsigned char hash[32];
	struct wp_conn *c;
	enum wp_err err;

	if ((err = wp_body_only(ctx, fields)) ||
	    (err = wp_device_name(ctx, "New device", device, sizeof(device))) ||
	    (err = link_token(ctx, hash)) || (err = wp_conn_get(ctx, &c)))
		return err;
	return wp_new_device(ctx, c, WP_REDEEM_RECOVERY, hash, device, LINK_INVALID);
}

enum wp_err
wp_api_email_confirm(struct wp_ctx *ctx)
{
	static const char *const fields[] = {"token", NULL};
	unsigned char hash[32];
	struct wp_conn *c;
	enum wp_err err;

	if ((err = wp_body_only(ctx, fields)) || (err = link_token(ctx, hash)) ||
	    (err = wp_conn_get(ctx, &c)))
		return err;
	err = wp_db_email_confirm(c, hash);
	wp_store_put(ctx->store, c);
	if (err == WP_ERR_NOT_FOUND)
		return wp_fail(ctx, WP_ERR_INVALID_CODE, LINK_INVALID);
	if (err)
		return wp_fail_store(ctx, err);
	json_object *o = json_object_new_object();
	json_object_object_add(o, "confirmed", json_object_new_boolean(1));
	return wp_reply_json(ctx, 200, o);
}

enum wp_err
wp_api_email_confirmation(struct wp_ctx *ctx)
{
	struct wp_player who;
	struct wp_conn *c;
	enum wp_err err;

	if ((err = wp_limit_token(ctx, WP_RATE_ACCOUNT)) || (err = wp_me(ctx, &c, &who)))
		return err;
	err = wp_db_mail_confirm_again(c, who.id);
	wp_store_put(ctx->store, c);
	if (err == WP_ERR_NOT_FOUND)
		return wp_fail(ctx, err, "you have no address waiting for its confirmation");
	if (err)
		return wp_fail_store(ctx, err);
	json_object *o = json_object_new_object();
	json_object_object_add(o, "message", json_object_new_string(
		"A new confirmation link is on its way to your address."));
	return wp_reply_json(ctx, 202, o);
}
