/* Webhooks: the URL check, the body, the signature and one attempt over
 * libcurl. A target that resolves to a private address is refused when
 * curl opens the socket, so a name that points inside after registration
 * (DNS rebinding) is refused too, unless WEBHOOK_ALLOW_PRIVATE. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>
#include <json-c/json.h>
#include <sodium.h>

#include "notify_priv.h"

static int
v4_private(uint32_t a)
{
	static const struct {
		uint32_t net, mask;
	} nets[] = {
		{0x00000000, 0xff000000}, /* 0/8 "this network" */
		{0x0a000000, 0xff000000}, /* 10/8 */
		{0x64400000, 0xffc00000}, /* 100.64/10 carrier-grade NAT */
		{0x7f000000, 0xff000000}, /* 127/8 loopback */
		{0xa9fe0000, 0xffff0000}, /* 169.254/16 link-local (cloud metadata) */
		{0xac100000, 0xfff00000}, /* 172.16/12 */
		{0xc0000000, 0xffffff00}, /* 192.0.0/24 */
		{0xc0a80000, 0xffff0000}, /* 192.168/16 */
		{0xc6120000, 0xfffe0000}, /* 198.18/15 benchmarking */
		{0xe0000000, 0xe0000000}, /* 224/3 multicast and reserved */
	};
	for (size_t i = 0; i < sizeof(nets) / sizeof(nets[0]); i++)
		if ((a & nets[i].mask) == nets[i].net)
			return 1;
	return 0;
}

static int
v6_private(const unsigned char *b)
{
	static const unsigned char zero[16];
	uint32_t v4;

	if (memcmp(b, zero, 15) == 0 && (b[15] == 0 || b[15] == 1))
		return 1;                           /* :: and ::1 */
	if ((b[0] & 0xfe) == 0xfc || b[0] == 0xff)
		return 1;                           /* fc00::/7 unique local, ff00::/8 */
	if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80)
		return 1;                           /* fe80::/10 link-local */
	/* ::ffff:a.b.c.d mapped, 64:ff9b::a.b.c.d NAT64: the IPv4 inside */
	static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
	static const unsigned char nat64[12] = {0, 0x64, 0xff, 0x9b};
	if (memcmp(b, mapped, 12) == 0 || memcmp(b, nat64, 12) == 0) {
		memcpy(&v4, b + 12, 4);
		return v4_private(ntohl(v4));
	}
	return 0;
}

int
wp_addr_private(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return v4_private(ntohl(((const struct sockaddr_in *)(const void *)sa)->sin_addr.s_addr));
	if (sa->sa_family == AF_INET6)
		return v6_private(((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr.s6_addr);
	return 1;
}

/* A host literal or name that is private on its face. */
static int
host_private(const char *host)
{
	char h[256];
	size_t n = strlen(host);
	struct sockaddr_in a4 = {.sin_family = AF_INET};
	struct sockaddr_in6 a6 = {.sin6_family = AF_INET6};

	if (n >= sizeof(h))
		return 0;
	if (host[0] == '[' && n > 2 && host[n - 1] == ']') {
		memcpy(h, host + 1, n - 2);
		h[n - 2] = '\0';
	} else {
		memcpy(h, host, n + 1);
	}
	if (inet_pton(AF_INET, h, &a4.sin_addr) == 1)
		return wp_addr_private((struct sockaddr *)&a4);
	if (inet_pton(AF_INET6, h, &a6.sin6_addr) == 1)
		return wp_addr_private((struct sockaddr *)&a6);
	n = strlen(h);
	while (n && h[n - 1] == '.')
		h[--n] = '\0';
	return strcasecmp(h, "localhost") == 0 ||
	       (n > 10 && strcasecmp(h + n - 10, ".localhost") == 0);
}

int
wp_webhook_url_check(const char *url, char *why, size_t cap)
{
	CURLU *u;
	char *scheme = NULL, *host = NULL, *user = NULL, *password = NULL;
	int rc = -1;

	if (strlen(url) > WP_WEBHOOK_URL_MAX) {
		snprintf(why, cap, "url: at most %d bytes", WP_WEBHOOK_URL_MAX);
		return -1;
	}
	for (const unsigned char *p = (const unsigned char *)url; *p; p++)
		if (*p <= 0x20 || *p >= 0x7f) {
			snprintf(why, cap, "url: visible ASCII only (percent-encode the rest)");
			return -1;
		}
	if (strncasecmp(url, "http://", 7) != 0 && strncasecmp(url, "https://", 8) != 0) {
		snprintf(why, cap, "url: must start with http:// or https://");
		return -1;
	}
	u = curl_url();
	if (!u || curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK || !host[0]) {
		snprintf(why, cap, "url: not a valid http or https URL");
		goto out;
	}
	if (curl_url_get(u, CURLUPART_USER, &user, 0) == CURLUE_OK ||
	    curl_url_get(u, CURLUPART_PASSWORD, &password, 0) == CURLUE_OK) {
		snprintf(why, cap, "url: must not carry a user name or password");
		goto out;
	}
	if (!wp_notify_cfg.allow_private && host_private(host)) {
		snprintf(why, cap, "url: loopback, private and link-local targets are not allowed "
		                   "on this server");
		goto out;
	}
	rc = 0;
out:
	curl_free(scheme);
	curl_free(host);
	curl_free(user);
	curl_free(password);
	curl_url_cleanup(u);
	return rc;
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

static curl_socket_t
open_socket(void *user, curlsocktype purpose, struct curl_sockaddr *a)
{
	struct wp_send *s = user;

	if (!wp_notify_cfg.allow_private && wp_addr_private(&a->addr)) {
		s->refused = 1;
		return CURL_SOCKET_BAD;
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
	curl_easy_setopt(c, CURLOPT_URL, o->url);
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
		snprintf(err, cap, "the address is loopback, private or link-local: not allowed "
		                   "on this server");
	} else {
		snprintf(err, cap, "%s", curl_easy_strerror(rc));
	}
	curl_slist_free_all(s->headers);
	if (s->easy)
		curl_easy_cleanup(s->easy);
	free(s->body);
	memset(s, 0, sizeof(*s));
}
