/* E-mail digests over the SMTP relay of SMTP_URL, through libcurl: the
 * matches awaiting the player (their public number, ruleset and post
 * count only, RULINGS.md G5) and an unsubscribe link that needs no login. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>

#include "notify_priv.h"

int
wp_email_check(const char *a)
{
	const char *at = strchr(a, '@');
	size_t n = strlen(a);

	if (n < 3 || n > WP_EMAIL_MAX || !at || at == a || !at[1] || strchr(at + 1, '@'))
		return -1;
	for (const unsigned char *p = (const unsigned char *)a; *p; p++)
		if (*p <= 0x20 || *p >= 0x7f || strchr("<>()[]\\,;:\"", *p))
			return -1;
	for (const unsigned char *p = (const unsigned char *)at + 1; *p; p++)
		if (!isalnum(*p) && *p != '-' && *p != '.')
			return -1;
	return at[1] == '.' || a[n - 1] == '.' ? -1 : 0;
}

struct upload {
	const char *text;
	size_t len, off;
};

static size_t
read_part(char *buf, size_t size, size_t n, void *user)
{
	struct upload *u = user;
	size_t left = u->len - u->off, take = size * n < left ? size * n : left;

	memcpy(buf, u->text + u->off, take);
	u->off += take;
	return take;
}

void
wp_msg_add(struct wp_msg *m, const char *fmt, ...)
{
	va_list ap;
	int need;

	va_start(ap, fmt);
	need = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (need < 0 || !m->text)
		return;
	if (m->len + (size_t)need + 3 > m->cap) {
		size_t cap = (m->len + (size_t)need + 3) * 2;
		char *t = realloc(m->text, cap);
		if (!t) {
			free(m->text);
			m->text = NULL;
			return;
		}
		m->text = t;
		m->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(m->text + m->len, m->cap - m->len, fmt, ap);
	va_end(ap);
	m->len += (size_t)need;
	memcpy(m->text + m->len, "\r\n", 3);
	m->len += 2;
}

void
wp_mail_head(struct wp_msg *m, const char *to, const char *subject, const char *kind,
             int64_t id)
{
	char date[64];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S +0000", &tm);
	wp_msg_add(m, "From: Warpost <%s>", wp_notify_cfg.smtp_from);
	wp_msg_add(m, "To: <%s>", to);
	wp_msg_add(m, "Subject: %s", subject);
	wp_msg_add(m, "Date: %s", date);
	wp_msg_add(m, "Message-ID: <%s-%lld-%lld@warpost>", kind, (long long)id, (long long)now);
	wp_msg_add(m, "MIME-Version: 1.0");
	wp_msg_add(m, "Content-Type: text/plain; charset=utf-8");
	wp_msg_add(m, "Content-Transfer-Encoding: 8bit");
	wp_msg_add(m, "Auto-Submitted: auto-generated");
}

static char *
compose(const struct wp_digest *d, const struct wp_digest_game *g, int n, size_t *len)
{
	struct wp_msg m = {malloc(1024), 0, 1024};
	char subject[80], unsub[384], page[384];

	/* The header's URL takes the one-click POST of RFC 8058; the body's
	 * link opens the board's page, which asks before it acts (a scanner
	 * that follows links changes nothing). */
	snprintf(unsub, sizeof(unsub), "%s/api/unsubscribe?token=%s", wp_notify_cfg.public_url,
	         d->token);
	snprintf(page, sizeof(page), "%s/#/unsubscribe/%s", wp_notify_cfg.public_url, d->token);
	snprintf(subject, sizeof(subject), "Warpost: %d %s your move", n,
	         n == 1 ? "match awaits" : "matches await");
	wp_mail_head(&m, d->address, subject, "digest", d->player);
	wp_msg_add(&m, "List-Unsubscribe: <%s>", unsub);
	wp_msg_add(&m, "List-Unsubscribe-Post: List-Unsubscribe=One-Click");
	wp_msg_add(&m, "%s", "");
	wp_msg_add(&m, "Hello %s,", d->name);
	wp_msg_add(&m, "%s", "");
	wp_msg_add(&m, "%s", n == 1 ? "This match awaits your move:" : "These matches await your move:");
	wp_msg_add(&m, "%s", "");
	for (int i = 0; i < n; i++)
		wp_msg_add(&m, "  Match %lld (%s), post %d, your seat %d: %s/#/match/%lld",
		    (long long)g[i].id, g[i].ruleset, g[i].seq, g[i].seat, wp_notify_cfg.public_url,
		    (long long)g[i].id);
	wp_msg_add(&m, "%s", "");
	wp_msg_add(&m, "You get at most one digest every %u seconds.", wp_notify_cfg.digest_period);
	wp_msg_add(&m, "To receive no more digests, open: %s", page);
	*len = m.len;
	return m.text;
}

int
wp_digest_send(const struct wp_digest *d, const struct wp_digest_game *games, int n, char *err,
               size_t cap)
{
	size_t len = 0;
	char *text = compose(d, games, n, &len);
	int rc = wp_mail_send(d->address, text, len, err, cap);

	free(text);
	return rc;
}

int
wp_mail_send(const char *address, const char *text, size_t len, char *err, size_t cap)
{
	struct upload up = {text, len, 0};
	struct curl_slist *rcpt = NULL;
	char from[300], to[300];
	CURL *c = curl_easy_init();
	CURLcode rc = CURLE_OUT_OF_MEMORY;

	if (!c || !up.text)
		goto out;
	snprintf(from, sizeof(from), "<%s>", wp_notify_cfg.smtp_from);
	snprintf(to, sizeof(to), "<%s>", address);
	rcpt = curl_slist_append(rcpt, to);
	curl_easy_setopt(c, CURLOPT_URL, wp_notify_cfg.smtp_url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
	curl_easy_setopt(c, CURLOPT_USE_SSL, (long)CURLUSESSL_TRY);
	curl_easy_setopt(c, CURLOPT_MAIL_FROM, from);
	curl_easy_setopt(c, CURLOPT_MAIL_RCPT, rcpt);
	curl_easy_setopt(c, CURLOPT_READFUNCTION, read_part);
	curl_easy_setopt(c, CURLOPT_READDATA, &up);
	curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, 30L);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, wp_notify_progress);
	rc = curl_easy_perform(c);
out:
	if (rc != CURLE_OK)
		snprintf(err, cap, "%s", curl_easy_strerror(rc));
	curl_slist_free_all(rcpt);
	if (c)
		curl_easy_cleanup(c);
	return rc == CURLE_OK ? 0 : -1;
}
