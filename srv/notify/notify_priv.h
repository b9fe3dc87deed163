/* What the notification files share: the settings and the two senders. */
#ifndef WP_NOTIFY_PRIV_H
#define WP_NOTIFY_PRIV_H

#include <sys/socket.h>

#include <curl/curl.h>

#include "notify.h"
#include "notify_store.h"

struct wp_notify_cfg {
	char public_url[256];        /* without a trailing '/' */
	int allow_private;
	unsigned retry_base_ms, retry_max_ms, max_attempts, timeout, poll_ms;
	const char *smtp_url, *smtp_from;
	unsigned digest_period;
};
extern struct wp_notify_cfg wp_notify_cfg;
/* Set when the worker is stopping: transfers in flight give up (the
 * libcurl progress callback of every transfer answers it). */
int wp_notify_stopping(void);
int wp_notify_progress(void *user, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un);

/* 1 for an address no public server should call: loopback, private,
 * link-local, carrier-grade NAT, multicast, unspecified, reserved. */
int wp_addr_private(const struct sockaddr *sa);

/* One attempt of one outbox row, as a libcurl transfer the worker runs
 * with others at once: begin prepares it (-1: out of memory, finish all
 * the same), finish reads its outcome and frees it. *http_status is 0
 * when nothing answered; err then says why. */
struct wp_send {
	CURL *easy;
	struct curl_slist *headers;
	char *body;
	int refused;             /* the URL or an address was refused: why */
	char why[240];
	CURLcode rc;
	int done;                /* added to the worker's transfers */
};
int wp_webhook_begin(const struct wp_outbox *o, struct wp_send *s);
void wp_webhook_finish(struct wp_send *s, CURLcode rc, int *http_status, char *err, size_t cap);
/* The body of an outbox row: only what the receiving seat may see
 * (RULINGS.md G5). Owned by the caller. */
char *wp_webhook_body(const struct wp_outbox *o);

/* The "time running out" scan (warn.c), run by the worker between rounds:
 * does nothing unless a minute of "now" has passed since the last. */
void wp_time_warn_round(struct wp_store *st);

/* A mail's text, growing; lines end in CRLF (RFC 5322, 2.1). text NULL
 * once out of memory. */
struct wp_msg {
	char *text;
	size_t len, cap;
};
void wp_msg_add(struct wp_msg *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The header every mail of the server's has, up to Auto-Submitted. */
void wp_mail_head(struct wp_msg *m, const char *to, const char *subject, const char *kind,
                  int64_t id);
/* One mail through the relay of SMTP_URL; 0 when it took it. */
int wp_mail_send(const char *address, const char *text, size_t len, char *err, size_t cap);
/* The confirmation and recovery links due (account_mail.c, issue 28). */
void wp_account_mail_round(struct wp_store *st);
/* Retention: rows that can no longer matter, deleted hourly (sweep.c). */
void wp_sweep_round(struct wp_store *st);

/* One digest to one player; 0 when the relay took it. */
int wp_digest_send(const struct wp_digest *d, const struct wp_digest_game *games, int n,
                   char *err, size_t cap);

#endif
