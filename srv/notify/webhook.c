/* Webhooks: the URL check, the body, the signature and one attempt over
 * libcurl. Unless WEBHOOK_ALLOW_PRIVATE, a URL whose host is refused on
 * its face (addr.c) is refused at registration and again before each
 * attempt, and every address libcurl is about to connect to is checked in
 * its socket callback: the very address connect() is then given, so a
 * name that points inside after registration, or between a check and the
 * connection (DNS rebinding), is refused too (issue 24). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>
#include <json-c/json.h>
#include <sodium.h>

#include "addr.h"
#include "notify_priv.h"

int
wp_addr_private(const struct sockaddr *sa)
{
	char why[160];

	return wp_addr_special(sa, why, sizeof(why));
}

/* The authority of an http(s) URL read strictly (RFC 3986 3.2): no user
 * information, a host (IPv6 in brackets) and an optional port of 1 to 5
 * digits. 0 and where the host is; -1 when there is user information. */
static int
authority(const char *url, const char **host, size_t *hlen, const char **port, size_t *plen)
{
	const char *a = strstr(url, "://") + 3;
	size_t n = strcspn(a, "/?#"), h;

	if (memchr(a, '@', n))
		return -1;
	if (a[0] == '[') {
		const char *close = memchr(a, ']', n);
		h = close ? (size_t)(close - a) + 1 : n;
	} else {
		const char *colon = memchr(a, ':', n);
		h = colon ? (size_t)(colon - a) : n;
	}
	*host = a;
	*hlen = h;
	*port = h < n ? a + h : NULL;   /* with its ':' */
	*plen = n - h;
	return 0;
}

static int
port_ok(const char *p, size_t n)
{
	unsigned long v = 0;

	if (!p)
		return 1;
	if (n < 2 || n > 6 || p[0] != ':')
		return 0;
	for (size_t i = 1; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return 0;
		v = v * 10 + (unsigned long)(p[i] - '0');
	}
	return v >= 1 && v <= 65535;
}

static int
url_check(const char *url, int flags, char *why, size_t cap)
{
	CURLU *u = NULL;
	char *host = NULL, *user = NULL, *password = NULL;
	const char *h, *p;
	size_t hn, pn;
	int rc = -2;

	if (strlen(url) > WP_WEBHOOK_URL_MAX) {
		snprintf(why, cap, "url: at most %d bytes", WP_WEBHOOK_URL_MAX);
		return -1;
	}
	for (const unsigned char *c = (const unsigned char *)url; *c; c++)
		if (*c <= 0x20 || *c >= 0x7f) {
			snprintf(why, cap, "url: visible ASCII only (percent-encode the rest)");
			return -1;
		}
	if (strncasecmp(url, "http://", 7) != 0 && strncasecmp(url, "https://", 8) != 0) {
		snprintf(why, cap, "url: must start with http:// or https://");
		return -1;
	}
	if (authority(url, &h, &hn, &p, &pn) != 0) {
		snprintf(why, cap, "url: must not carry a user name or password");
		return -1;
	}
	if (wp_host_judge(h, hn, flags, why, cap) != 0)
		return -2;
	if (!port_ok(p, pn)) {
		snprintf(why, cap, "url: the port must be a number from 1 to 65535");
		return -2;
	}
	/* libcurl, which connects, must read the same host: a URL the two
	 * parsers read differently is refused, whatever libcurl would do. */
	u = curl_url();
	if (!u || curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK ||
	    strlen(host) != hn || strncasecmp(host, h, hn) != 0) {
		snprintf(why, cap, "url: malformed (libcurl reads another host)");
		goto out;
	}
	if (curl_url_get(u, CURLUPART_USER, &user, 0) == CURLUE_OK ||
	    curl_url_get(u, CURLUPART_PASSWORD, &password, 0) == CURLUE_OK) {
		snprintf(why, cap, "url: must not carry a user name or password");
		rc = -1;
		goto out;
	}
	rc = 0;
out:
	curl_free(host);
	curl_free(user);
	curl_free(password);
	curl_url_cleanup(u);
	return rc;
}

int
wp_webhook_url_check(const char *url, char *why, size_t cap)
{
	return url_check(url, wp_notify_cfg.allow_private ? WP_HOST_ALLOW_PRIVATE : 0, why, cap);
}

void
wp_webhook_sign(const char *secret, const char *timestamp, const char *body, size_t len,
                char hex[65])
{
	crypto_auth_hmacsha256_state st;
	unsigned char mac[crypto_auth_hmacsha256_BYTES];

	crypto_auth_hmacsha256_init(&st, (const unsigned char *)secret, strlen(secret));
	crypto_auth_hmacsha256_update(&st, (const unsigned char *)timestamp, strlen(timestamp));
	crypto_auth_hmacsha256_update(&st, (const unsigned char *)".", 1);
	crypto_auth_hmacsha256_update(&st, (const unsigned char *)body, len);
	crypto_auth_hmacsha256_final(&st, mac);
	sodium_bin2hex(hex, 65, mac, sizeof(mac));
}

char *
wp_webhook_body(const struct wp_outbox *o)
{
	json_object *b = json_object_new_object(), *aw = json_object_new_array();
	char url[512];
	char *text;

	for (int s = 0; s < o->seats && s < 32; s++)
		if (o->awaiting >> s & 1u)
			json_object_array_add(aw, json_object_new_int(s));
	snprintf(url, sizeof(url), "%s/#/match/%lld", wp_notify_cfg.public_url, (long long)o->game);
	json_object_object_add(b, "event", json_object_new_string(o->event));
	json_object_object_add(b, "event_id", json_object_new_int64(o->id));
	json_object_object_add(b, "game", json_object_new_int64(o->game));
	json_object_object_add(b, "ruleset", json_object_new_string(o->ruleset));
	json_object_object_add(b, "status", json_object_new_string(o->status));
	json_object_object_add(b, "seq", json_object_new_int(o->seq));
	json_object_object_add(b, "seat", json_object_new_int(o->seat));
	json_object_object_add(b, "awaiting", aw);
	json_object_object_add(b, "url", json_object_new_string(url));
	json_object_object_add(b, "created_at", json_object_new_string(o->created_at));
	if (o->deadline[0])   /* time_running_out: the seat's own deadline, public */
		json_object_object_add(b, "deadline", json_object_new_string(o->deadline));
	text = strdup(json_object_to_json_string_ext(b, JSON_C_TO_STRING_PLAIN |
	                                                    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(b);
	return text;
}

static size_t
discard(char *p, size_t size, size_t n, void *user)
{
	(void)p;
	(void)user;
	return size * n;
}

int
wp_notify_progress(void *user, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un)
{
	return wp_notify_stopping();
}

/* Refuses an address in a special-purpose range or bound to this host's
 * own interfaces (192.0.2.2 of this machine was once reached: a range
 * list alone does not know the host's addresses). */
static curl_socket_t
open_socket(void *user, curlsocktype purpose, struct curl_sockaddr *a)
{
	struct wp_send *s = user;
	char range[160];

	(void)purpose;
	if (s->refused)
		return CURL_SOCKET_BAD;
	if (!wp_notify_cfg.allow_private) {
		int own = wp_addr_own(&a->addr);
		if (own != 0 || wp_addr_special(&a->addr, range, sizeof(range))) {
			snprintf(s->why, sizeof(s->why), "the address is %s: not allowed on this server",
			         own > 0 ? "one of this server's own"
			                 : own < 0 ? "unchecked (interfaces unknown)" : range);
			s->refused = 1;
			return CURL_SOCKET_BAD;
		}
	}
	return socket(a->family, a->socktype, a->protocol);
}

int
wp_webhook_begin(const struct wp_outbox *o, struct wp_send *s)
{
	char line[256], ts[24], sig[65];
	CURL *c;

	memset(s, 0, sizeof(*s));
	s->body = wp_webhook_body(o);
	s->easy = c = curl_easy_init();
	if (!c || !s->body)
		return -1;
	snprintf(ts, sizeof(ts), "%lld", (long long)time(NULL));
	wp_webhook_sign(o->secret, ts, s->body, strlen(s->body), sig);
	s->headers = curl_slist_append(s->headers, "Content-Type: application/json");
	snprintf(line, sizeof(line), "X-Warpost-Event: %s", o->event);
	s->headers = curl_slist_append(s->headers, line);
	snprintf(line, sizeof(line), "X-Warpost-Event-Id: %lld", (long long)o->id);
	s->headers = curl_slist_append(s->headers, line);
	snprintf(line, sizeof(line), "X-Warpost-Timestamp: %s", ts);
	s->headers = curl_slist_append(s->headers, line);
	snprintf(line, sizeof(line), "X-Warpost-Signature: sha256=%s", sig);
	s->headers = curl_slist_append(s->headers, line);
	s->headers = curl_slist_append(s->headers, "Expect:");
	/* The stored URL is judged again (a row from before a rule, or put by
	 * hand): a refused one is never resolved nor connected. Its address
	 * literals are left to open_socket, which knows this host's own. */
	int flags = wp_notify_cfg.allow_private ? WP_HOST_ALLOW_PRIVATE : WP_HOST_LITERAL_LATER;
	if (url_check(o->url, flags, s->why, sizeof(s->why)) != 0)
		s->refused = 1;
	curl_easy_setopt(c, CURLOPT_URL, s->refused ? "http://0.0.0.0/" : o->url);
	/* Straight to the checked address: no proxy from the environment */
	curl_easy_setopt(c, CURLOPT_PROXY, "");
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, s->headers);
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, s->body);
	curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)strlen(s->body));
	curl_easy_setopt(c, CURLOPT_USERAGENT, "warpost/" WP_VERSION);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, (long)wp_notify_cfg.timeout);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, discard);
	curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, wp_notify_progress);
	curl_easy_setopt(c, CURLOPT_OPENSOCKETFUNCTION, open_socket);
	curl_easy_setopt(c, CURLOPT_OPENSOCKETDATA, s);
	curl_easy_setopt(c, CURLOPT_PRIVATE, s);
	return 0;
}

void
wp_webhook_finish(struct wp_send *s, CURLcode rc, int *http_status, char *err, size_t cap)
{
	long status = 0;

	*http_status = 0;
	err[0] = '\0';
	if (!s->easy || !s->body)
		snprintf(err, cap, "out of memory");
	else if (rc == CURLE_OK) {
		curl_easy_getinfo(s->easy, CURLINFO_RESPONSE_CODE, &status);
		*http_status = (int)status;
		if (status < 200 || status > 299)
			snprintf(err, cap, "HTTP status %ld", status);
	} else if (s->refused) {
		snprintf(err, cap, "refused: %s", s->why);
	} else {
		snprintf(err, cap, "%s", curl_easy_strerror(rc));
	}
	curl_slist_free_all(s->headers);
	if (s->easy)
		curl_easy_cleanup(s->easy);
	free(s->body);
	memset(s, 0, sizeof(*s));
}
