/* Notifications (issue 14): per-player webhooks and e-mail digests,
 * delivered after the commit by one worker thread per instance from the
 * outbox that sql/005_notifications.sql's triggers fill in the same
 * transaction as the change (README "Notifications"). */
#ifndef WP_NOTIFY_H
#define WP_NOTIFY_H

#include <stddef.h>
#include <stdint.h>

#include "wp.h"

/* Keeps the settings the checks and the worker use (the configuration
 * outlives them). Every mode calls it, CGI included. */
void wp_notify_init(const struct wp_config *cfg);
/* The worker thread: delivers webhooks and sends digests with
 * connections of the request pool `st`. 0 or -1. */
struct wp_store;
int wp_notify_start(struct wp_store *st);
void wp_notify_stop(void);

/* A webhook URL a player may register: http or https, a host, no user
 * or password, at most WP_WEBHOOK_URL_MAX bytes of visible ASCII, and
 * a host a public server may call (addr.h, wp_host_judge; names are
 * checked again, resolved, at each delivery). 0; -1 and why for a URL of
 * the wrong shape; -2 and why for a host this server will not call. */
int wp_webhook_url_check(const char *url, char *why, size_t cap);
/* The signature receivers check: lower-case hex of
 * HMAC-SHA256(key = secret, message = timestamp "." body). */
void wp_webhook_sign(const char *secret, const char *timestamp, const char *body, size_t len,
                     char hex[65]);
/* An e-mail address we send digests to: local@domain, visible ASCII
 * without spaces, quotes or angle brackets, at most WP_EMAIL_MAX bytes. */
int wp_email_check(const char *address);

/* "Time running out" (README "Notifications"): an awaited seat is warned
 * once per turn when its time left falls to this many seconds: a day, or a
 * quarter of the time per move when that is shorter. */
struct wp_tc;
int64_t wp_time_warning_threshold(const struct wp_tc *tc);

#endif
