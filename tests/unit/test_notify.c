/* Notifications without a network (issue 14): which addresses a public
 * server refuses to call (SSRF), the webhook URL and e-mail address checks,
 * the signature receivers verify, and that a webhook body holds only the
 * public facts of a match (RULINGS.md G5). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>

#include "check.h"
#include "clock.h"
#include "notify_priv.h"

static int
private_ip(const char *text)
{
	struct sockaddr_in a4 = {.sin_family = AF_INET};
	struct sockaddr_in6 a6 = {.sin6_family = AF_INET6};

	if (inet_pton(AF_INET, text, &a4.sin_addr) == 1)
		return wp_addr_private((struct sockaddr *)&a4);
	if (inet_pton(AF_INET6, text, &a6.sin6_addr) == 1)
		return wp_addr_private((struct sockaddr *)&a6);
	return -1;
}

static int
url_ok(const char *url)
{
	char why[160];
	return wp_webhook_url_check(url, why, sizeof(why)) == 0;
}

int
main(void)
{
	static const char *const inside[] = {
		"127.0.0.1", "127.9.9.9", "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1",
		"169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255",
		"198.18.0.1", "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "ff02::1",
		"::ffff:10.0.0.1", "::ffff:127.0.0.1", "64:ff9b::7f00:1",
	};
	static const char *const outside[] = {
		"8.8.8.8", "172.32.0.1", "172.15.255.255", "100.128.0.1", "93.184.216.34",
		"2606:4700:4700::1111", "::ffff:8.8.8.8", "2a00:1450:4001::1",
	};
	for (size_t i = 0; i < sizeof(inside) / sizeof(inside[0]); i++)
		CHECK(private_ip(inside[i]) == 1, inside[i]);
	for (size_t i = 0; i < sizeof(outside) / sizeof(outside[0]); i++)
		CHECK(private_ip(outside[i]) == 0, outside[i]);

	wp_notify_cfg.allow_private = 0;
	CHECK(url_ok("https://example.org/hook"), "a public https URL");
	CHECK(url_ok("http://93.184.216.34:8080/x?y=1"), "a public address literal");
	CHECK(!url_ok("http://127.0.0.1/x"), "loopback literal");
	CHECK(!url_ok("http://[::1]:80/x"), "IPv6 loopback literal");
	CHECK(!url_ok("http://LocalHost./x"), "localhost, any case, trailing dot");
	CHECK(!url_ok("http://a.b.localhost/x"), "a .localhost name");
	CHECK(!url_ok("http://169.254.169.254/latest/meta-data"), "cloud metadata");
	CHECK(!url_ok("ftp://example.org/"), "not http");
	CHECK(!url_ok("https://u:p@example.org/"), "credentials");
	CHECK(!url_ok("https://example.org/a b"), "a space");
	CHECK(!url_ok("https://"), "no host");
	CHECK(!url_ok("https://:80/x"), "a port but no host");
	CHECK(!url_ok("javascript:alert(1)"), "another scheme");
	wp_notify_cfg.allow_private = 1;
	CHECK(url_ok("http://127.0.0.1:9/x"), "loopback allowed by WEBHOOK_ALLOW_PRIVATE");
	CHECK(!url_ok("gopher://127.0.0.1/"), "still only http and https");

	/* "Time running out" (README "Notifications"): a day left, or a
	 * quarter of the time per move when that is shorter. */
	static const struct {
		int days;
		int64_t hours;
	} warn[] = {{1, 6}, {2, 12}, {3, 18}, {4, 24}, {5, 24}, {WP_TC_PER_MOVE_MAX, 24}};
	for (size_t i = 0; i < sizeof(warn) / sizeof(warn[0]); i++) {
		struct wp_tc tc = {.on = 1, .per_move = warn[i].days * (int64_t)WP_DAY};
		tc.max_bank = tc.per_move;
		CHECK(wp_time_warning_threshold(&tc) == warn[i].hours * 3600,
		      "the time warning threshold");
	}

	CHECK(wp_email_check("alice@example.org") == 0, "plain address");
	CHECK(wp_email_check("a.b+tag@mail.example.org") == 0, "dots and plus");
	CHECK(wp_email_check("alice") != 0, "no @");
	CHECK(wp_email_check("@example.org") != 0, "no local part");
	CHECK(wp_email_check("a@") != 0, "no domain");
	CHECK(wp_email_check("a@b@c.org") != 0, "two @");
	CHECK(wp_email_check("a@exa_mple.org") != 0, "bad domain character");
	CHECK(wp_email_check("a@.example.org") != 0, "domain starts with a dot");
	CHECK(wp_email_check("a\r\nBcc: x@y.org@example.org") != 0, "header injection");
	CHECK(wp_email_check("<a@example.org>") != 0, "angle brackets");

	/* From Python: hmac.new(b"Jefe", b'1769860800.{"event":"your_turn"}',
	 * hashlib.sha256).hexdigest(), an implementation of its own. */
	char sig[65];
	const char *body = "{\"event\":\"your_turn\"}";
	wp_webhook_sign("Jefe", "1769860800", body, strlen(body), sig);
	CHECK_STR(sig, "8217868789726563ff3393fa7f5d64b50c17f5b14ccbfe293c18b1c2fad604e0",
	          "HMAC-SHA256 over timestamp.body");

	snprintf(wp_notify_cfg.public_url, sizeof(wp_notify_cfg.public_url), "https://w.test");
	struct wp_outbox o = {.game = 7, .id = 42, .attempt = 1, .seat = 1, .seq = 12, .seats = 3,
	                      .awaiting = 0x6, .url = "https://example.org", .secret = "s"};
	snprintf(o.event, sizeof(o.event), "your_turn");
	snprintf(o.status, sizeof(o.status), "active");
	snprintf(o.ruleset, sizeof(o.ruleset), "wargame-chess");
	snprintf(o.created_at, sizeof(o.created_at), "2026-01-31T12:00:00Z");
	char *text = wp_webhook_body(&o);
	CHECK_STR(text,
	          "{\"event\":\"your_turn\",\"event_id\":42,\"game\":7,\"ruleset\":\"wargame-chess\","
	          "\"status\":\"active\",\"seq\":12,\"seat\":1,\"awaiting\":[1,2],"
	          "\"url\":\"https://w.test/#/match/7\",\"created_at\":\"2026-01-31T12:00:00Z\"}",
	          "the body: public facts only, the secret and the target not in it");
	free(text);
	return check_done("notify");
}
