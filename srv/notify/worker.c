/* The notification worker: one thread per instance. It claims due outbox
 * rows (FOR UPDATE SKIP LOCKED and a lease, so instances never send one
 * row at once), sends each, records the attempt, and schedules a retry
 * with exponential backoff up to a cap and a number of attempts. It wakes
 * on NOTIFY wp_outbox (the triggers send it with the rows they queue; the
 * LISTEN thread passes it on) or every NOTIFY_POLL_MS; it sends the digests
 * that are due on the way. It borrows the request pool's connections for
 * single statements and never holds one while it waits on the network, so
 * it adds no database connection. Nothing here runs inside a request or a
 * turn's transaction. */
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curl/curl.h>

#include "core.h"
#include "notify_priv.h"
#include "tournament_store.h"

struct wp_notify_cfg wp_notify_cfg;

/* Claimed and sent at once per round; each row's lease covers the round. */
#define WP_OUTBOX_BATCH 8
#define WP_DIGEST_BATCH 16
#define WP_DIGEST_GAMES 50

static pthread_t worker;
static int running;
/* Wake-ups and the stop: one byte each. Non-blocking, so a burst of
 * NOTIFYs never blocks the LISTEN thread (a full pipe wakes all the same). */
static int wake_pipe[2] = {-1, -1};
static volatile int stopping;

void
wp_notify_init(const struct wp_config *cfg)
{
	size_t n;

	snprintf(wp_notify_cfg.public_url, sizeof(wp_notify_cfg.public_url), "%s", cfg->public_url);
	n = strlen(wp_notify_cfg.public_url);
	while (n && wp_notify_cfg.public_url[n - 1] == '/')
		wp_notify_cfg.public_url[--n] = '\0';
	wp_notify_cfg.allow_private = cfg->webhook_allow_private;
	wp_notify_cfg.retry_base_ms = cfg->webhook_retry_base_ms;
	wp_notify_cfg.retry_max_ms = cfg->webhook_retry_max_ms;
	wp_notify_cfg.max_attempts = cfg->webhook_max_attempts;
	wp_notify_cfg.timeout = cfg->webhook_timeout;
	wp_notify_cfg.poll_ms = cfg->notify_poll_ms;
	wp_notify_cfg.smtp_url = cfg->smtp_url;
	wp_notify_cfg.smtp_from = cfg->smtp_from;
	wp_notify_cfg.digest_period = cfg->digest_period;
}

int
wp_notify_stopping(void)
{
	return __atomic_load_n(&stopping, __ATOMIC_RELAXED);
}

/* Seconds until the retry after attempt n (from 1): base, 2 base, 4 base,
 * ... up to the cap. */
static double
backoff_s(int attempt)
{
	double ms = wp_notify_cfg.retry_base_ms;

	for (int i = 1; i < attempt && ms < wp_notify_cfg.retry_max_ms; i++)
		ms *= 2;
	if (ms > wp_notify_cfg.retry_max_ms)
		ms = wp_notify_cfg.retry_max_ms;
	return ms / 1000.0;
}

/* Runs the prepared transfers at once: a slow receiver holds up the
 * round (WEBHOOK_TIMEOUT at most), not each call behind it. */
static void
send_all(struct wp_send *s, int n)
{
	CURLM *m = curl_multi_init();
	CURLMsg *msg;
	int active = 0, left;

	for (int i = 0; i < n; i++) {
		s[i].rc = CURLE_OUT_OF_MEMORY;
		if (s[i].easy && s[i].body && m && curl_multi_add_handle(m, s[i].easy) == CURLM_OK)
			s[i].done = 1;
	}
	do {
		if (!m || curl_multi_perform(m, &active) != CURLM_OK)
			break;
		if (active && curl_multi_poll(m, NULL, 0, 200, NULL) != CURLM_OK)
			break;
	} while (active);
	while (m && (msg = curl_multi_info_read(m, &left)) != NULL) {
		struct wp_send *one = NULL;
		if (msg->msg != CURLMSG_DONE)
			continue;
		curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&one);
		one->rc = msg->data.result;
	}
	for (int i = 0; i < n; i++)
		if (s[i].done)
			curl_multi_remove_handle(m, s[i].easy);
	curl_multi_cleanup(m);
}

/* One round of webhook deliveries; the number of rows claimed. A
 * connection is taken for each statement and given back before the
 * network is touched. */
static int
deliver_round(struct wp_store *st)
{
	struct wp_conn *c = wp_store_get(st);
	struct wp_outbox *rows = NULL;
	struct wp_send sends[WP_OUTBOX_BATCH];
	int n = 0;

	if (!c)
		return 0;
	double lease = wp_notify_cfg.timeout + 60.0;
	if (wp_db_outbox_claim(c, WP_OUTBOX_BATCH, lease, &rows, &n) != WP_OK)
		n = 0;
	/* The claim's LIMIT is evaluated once (a MATERIALIZED CTE: as a
	 * subquery of the UPDATE it was rescanned under concurrent deletes and
	 * claimed more, which overran sends[] under ASan); never trust it. */
	if (n > WP_OUTBOX_BATCH) {
		wp_log("notify: %d deliveries claimed, %d sent now, the rest when their lease ends", n,
		       WP_OUTBOX_BATCH);
		for (int i = WP_OUTBOX_BATCH; i < n; i++) {
			free(rows[i].url);
			free(rows[i].secret);
			rows[i].url = rows[i].secret = NULL;
		}
		n = WP_OUTBOX_BATCH;
	}
	wp_store_put(st, c);
	for (int i = 0; i < n; i++)
		wp_webhook_begin(&rows[i], &sends[i]);
	send_all(sends, n);
	for (int i = 0; i < n; i++) {
		char err[256];
		int status;
		wp_webhook_finish(&sends[i], sends[i].rc, &status, err, sizeof(err));
		wp_metric_add(WP_METRIC_WEBHOOK_ATTEMPTS, 1);
		if (status >= 200 && status <= 299)
			wp_metric_add(WP_METRIC_WEBHOOK_DELIVERED, 1);
		else if (rows[i].attempt >= (int)wp_notify_cfg.max_attempts)
			wp_metric_add(WP_METRIC_WEBHOOK_FAILED, 1);
		if (!(c = wp_store_get(st)) ||
		    wp_db_outbox_done(c, &rows[i], status, err[0] ? err : NULL,
		                      (int)wp_notify_cfg.max_attempts,
		                      backoff_s(rows[i].attempt)) != WP_OK)
			wp_log("notify: delivery %lld of match %lld: the attempt was not recorded",
			       (long long)rows[i].id, (long long)rows[i].game);
		wp_store_put(st, c);
	}
	wp_outbox_free(rows, n);
	return n;
}

/* The digests due now, each claimed for the period before it is sent. */
static void
digest_round(struct wp_store *st)
{
	struct wp_conn *c;
	struct wp_digest *due = NULL;
	int n = 0;
	double retry = wp_notify_cfg.digest_period < 300 ? wp_notify_cfg.digest_period : 300;

	if (!wp_notify_cfg.smtp_url || !(c = wp_store_get(st)))
		return;
	if (wp_db_digest_claim(c, wp_notify_cfg.digest_period, WP_DIGEST_BATCH, &due, &n) != WP_OK)
		n = 0;
	wp_store_put(st, c);
	for (int i = 0; i < n && !wp_notify_stopping(); i++) {
		struct wp_digest_game *games = NULL;
		int k = 0, sent;
		char err[256];
		if (!(c = wp_store_get(st)))
			break;
		if (wp_db_digest_games(c, due[i].player, WP_DIGEST_GAMES, &games, &k) != WP_OK)
			k = 0;
		wp_store_put(st, c);
		if (k == 0) {
			free(games);
			continue;   /* nothing awaits: no mail this period */
		}
		sent = wp_digest_send(&due[i], games, k, err, sizeof(err)) == 0;
		wp_metric_add(WP_METRIC_DIGESTS_SENT, (uint64_t)sent);
		if (!sent)
			wp_log("notify: digest for player %lld not sent: %s", (long long)due[i].player,
			       err);
		if ((c = wp_store_get(st)) != NULL)
			wp_db_digest_done(c, due[i].player, sent, retry);
		wp_store_put(st, c);
		free(games);
	}
	free(due);
}

/* Sleeps until a wake-up, the stop or the poll interval. */
static void
wait_for_work(void)
{
	struct pollfd p = {wake_pipe[0], POLLIN, 0};
	char buf[64];

	if (poll(&p, 1, (int)wp_notify_cfg.poll_ms) > 0)
		while (read(wake_pipe[0], buf, sizeof(buf)) > 0)
			;
}

static void
wake(void)
{
	if (write(wake_pipe[1], "w", 1) < 0) {
		/* full: the worker has a wake-up waiting already */
	}
}

static void *
worker_main(void *arg)
{
	struct wp_store *st = arg;

	wp_json_thread_init();   /* the parses below: core/json.c */
	while (!wp_notify_stopping()) {
		int busy = deliver_round(st);
		digest_round(st);
		wp_account_mail_round(st);
		wp_time_warn_round(st);
		wp_tournament_round(st);   /* issue 29 */
		wp_sweep_round(st);
		if (!busy)
			wait_for_work();
	}
	return NULL;
}

int
wp_notify_start(struct wp_store *st)
{
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != 0 || pipe(wake_pipe) != 0)
		return -1;
	fcntl(wake_pipe[0], F_SETFL, O_NONBLOCK);
	fcntl(wake_pipe[1], F_SETFL, O_NONBLOCK);
	if (pthread_create(&worker, NULL, worker_main, st) != 0)
		return -1;
	wp_listen_outbox_hook(wake);
	running = 1;
	return 0;
}

void
wp_notify_stop(void)
{
	if (!running)
		return;
	wp_listen_outbox_hook(NULL);
	__atomic_store_n(&stopping, 1, __ATOMIC_RELAXED);
	wake();
	pthread_join(worker, NULL);
	close(wake_pipe[0]);
	close(wake_pipe[1]);
	curl_global_cleanup();
	running = 0;
}
