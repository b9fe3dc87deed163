/* Account mail (issue 28), sent by the notification worker between its
 * other rounds: the link that confirms an address (PUT /api/me/email) and
 * the link that signs a new device in (POST /api/recovery). A request only
 * queues a row (account_mail); here the row is claimed with a lease, its
 * addressee looked up (a recovery for an address nobody has confirmed
 * sends nothing, and the asker cannot tell), a link's token made and only
 * its SHA-256 stored (account_links), and the mail sent through the relay
 * of SMTP_URL. A mail the relay refused is tried again later; a link made
 * for it that never arrived only expires. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "core.h"
#include "notify_priv.h"

#define MAIL_BATCH 8
#define MAIL_LEASE_S 120.0
#define MAIL_RETRY_S 30.0
#define MAIL_MAX_ATTEMPTS 5
#define MAIL_TARGETS 10          /* players a recovery mail names at most */
#define CONFIRM_TTL_S (24 * 3600)
#define RECOVER_TTL_S 3600

/* A fresh link token (64 hex digits) for the target, stored hashed. */
static int
make_link(struct wp_store *st, const char *kind, const struct wp_mail_target *t, int ttl_s,
          char token[65])
{
	unsigned char raw[32], hash[32];
	struct wp_conn *c = wp_store_get(st);
	enum wp_err err = WP_ERR_DB_UNAVAILABLE;

	randombytes_buf(raw, sizeof(raw));
	sodium_bin2hex(token, 65, raw, sizeof(raw));
	crypto_hash_sha256(hash, (const unsigned char *)token, 64);
	if (c)
		err = wp_db_link_insert(c, kind, t->player, t->address, hash, ttl_s);
	wp_store_put(st, c);
	return err == WP_OK ? 0 : -1;
}

/* The mail to one target, with its link; NULL when out of memory. */
static char *
compose(const struct wp_account_mail *m, const struct wp_mail_target *t, const char *token,
        size_t *len)
{
	struct wp_msg msg = {malloc(1024), 0, 1024};

	if (strcmp(m->kind, "confirm") == 0) {
		wp_mail_head(&msg, t->address, "Warpost: confirm your e-mail address", m->kind, m->id);
		wp_msg_add(&msg, "%s", "");
		wp_msg_add(&msg, "Hello %s,", t->name);
		wp_msg_add(&msg, "%s", "");
		wp_msg_add(&msg, "To confirm that this address is yours, open:");
		wp_msg_add(&msg, "  %s/#/email/confirm/%s", wp_notify_cfg.public_url, token);
		wp_msg_add(&msg, "It works once, within 24 hours. Until then this address "
		                 "cannot be used to sign in again if you lose your key.");
	} else {
		wp_mail_head(&msg, t->address, "Warpost: sign in again", m->kind, m->id);
		wp_msg_add(&msg, "%s", "");
		wp_msg_add(&msg, "Hello %s,", t->name);
		wp_msg_add(&msg, "%s", "");
		wp_msg_add(&msg, "Someone, we hope you, asked to sign in to Warpost again with "
		                 "this address. To sign in on the device you want to play on, open:");
		wp_msg_add(&msg, "  %s/#/recover/%s", wp_notify_cfg.public_url, token);
		wp_msg_add(&msg, "It works once, within an hour, and signs no other device out.");
	}
	wp_msg_add(&msg, "%s", "");
	wp_msg_add(&msg, "If you did not ask for this, ignore this mail: nothing changes.");
	*len = msg.len;
	return msg.text;
}

/* One row: looked up, and a mail with a link of its own sent to each
 * player it is for; 1 when done with it. */
static int
send_one(struct wp_store *st, const struct wp_account_mail *m)
{
	struct wp_mail_target *t = NULL;
	struct wp_conn *c = wp_store_get(st);
	int ttl = strcmp(m->kind, "confirm") == 0 ? CONFIRM_TTL_S : RECOVER_TTL_S;
	int n = 0, done = 1;

	if (!c || wp_db_mail_targets(c, m, MAIL_TARGETS, &t, &n) != WP_OK) {
		wp_store_put(st, c);
		free(t);
		return 0;
	}
	wp_store_put(st, c);
	/* Nobody to write to: done, without a word. */
	for (int i = 0; i < n && done; i++) {
		char token[65], err[256] = "", *text = NULL;
		size_t len = 0;
		done = make_link(st, m->kind, &t[i], ttl, token) == 0 &&
		       (text = compose(m, &t[i], token, &len)) != NULL &&
		       wp_mail_send(t[i].address, text, len, err, sizeof(err)) == 0;
		if (!done)
			wp_log("notify: account mail %lld not sent: %s", (long long)m->id,
			       err[0] ? err : "no link stored");
		sodium_memzero(token, sizeof(token));
		if (text)
			sodium_memzero(text, len);
		free(text);
	}
	free(t);
	return done;
}

void
wp_account_mail_round(struct wp_store *st)
{
	struct wp_account_mail *rows = NULL;
	struct wp_conn *c;
	int n = 0;

	if (!wp_notify_cfg.smtp_url || !(c = wp_store_get(st)))
		return;
	if (wp_db_mail_claim(c, MAIL_BATCH, MAIL_LEASE_S, &rows, &n) != WP_OK)
		n = 0;
	wp_store_put(st, c);
	for (int i = 0; i < n && !wp_notify_stopping(); i++) {
		int done = send_one(st, &rows[i]);
		if ((c = wp_store_get(st)) == NULL ||
		    wp_db_mail_done(c, rows[i].id, done, MAIL_MAX_ATTEMPTS, MAIL_RETRY_S) != WP_OK)
			wp_log("notify: account mail %lld: the attempt was not recorded",
			       (long long)rows[i].id);
		wp_store_put(st, c);
	}
	free(rows);
}
