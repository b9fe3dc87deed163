/* Webhook targets a public server refuses (issue 24, item 2; README
 * "Notifications", "Private targets"): one row per range of the IANA IPv4
 * and IPv6 Special-Purpose Address Registries, every IPv4-in-IPv6
 * embedding decoded, the host's own addresses, and the hosts of URLs as
 * written, including each one a hostile check got registered. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>

#include "addr.h"
#include "check.h"
#include "notify_priv.h"

/* The range named for an address literal; "" when it is public. */
static const char *
range_of(const char *text, char *why, size_t cap)
{
	struct sockaddr_in a4 = {.sin_family = AF_INET};
	struct sockaddr_in6 a6 = {.sin6_family = AF_INET6};
	int special;

	if (inet_pton(AF_INET, text, &a4.sin_addr) == 1)
		special = wp_addr_special((struct sockaddr *)&a4, why, cap);
	else if (inet_pton(AF_INET6, text, &a6.sin6_addr) == 1)
		special = wp_addr_special((struct sockaddr *)&a6, why, cap);
	else
		return "(not an address)";
	return special ? why : "";
}

static const struct {
	const char *addr, *range;   /* range: a part of the reason; NULL: public */
} table[] = {
	/* IPv4 Special-Purpose Address Registry */
	{"0.0.0.0", "\"this network\" 0.0.0.0/8"},
	{"0.255.255.255", "\"this network\""},
	{"10.0.0.1", "private-use 10.0.0.0/8"},
	{"10.255.255.255", "private-use 10.0.0.0/8"},
	{"100.64.0.1", "shared address space"},
	{"100.127.255.255", "shared address space"},
	{"100.100.100.200", "shared address space"},   /* Alibaba's metadata */
	{"127.0.0.1", "loopback 127.0.0.0/8"},
	{"127.255.255.254", "loopback"},
	{"169.254.169.254", "link-local (cloud metadata)"},
	{"172.16.0.1", "private-use 172.16.0.0/12"},
	{"172.31.255.255", "private-use 172.16.0.0/12"},
	{"192.0.0.8", "IETF protocol assignments 192.0.0.0/24"},
	{"192.0.0.9", "IETF protocol assignments"},    /* PCP anycast */
	{"192.0.0.170", "IETF protocol assignments"},  /* NAT64 discovery */
	{"192.0.2.2", "TEST-NET-1"},                   /* this machine's eth0 once */
	{"192.31.196.1", "AS112-v4"},
	{"192.52.193.1", "AMT"},
	{"192.88.99.1", "6to4 relay anycast"},
	{"192.168.1.1", "private-use 192.168.0.0/16"},
	{"192.175.48.6", "AS112 direct delegation"},
	{"198.18.0.1", "benchmarking"},
	{"198.19.255.255", "benchmarking"},
	{"198.51.100.7", "TEST-NET-2"},
	{"203.0.113.9", "TEST-NET-3"},
	{"224.0.0.1", "multicast"},
	{"239.255.255.250", "multicast"},
	{"240.0.0.1", "reserved 240.0.0.0/4"},
	{"255.255.255.254", "reserved"},
	{"255.255.255.255", "limited broadcast"},
	/* their neighbours are public */
	{"1.1.1.1", NULL}, {"8.8.8.8", NULL}, {"9.255.255.255", NULL}, {"11.0.0.0", NULL},
	{"100.63.255.255", NULL}, {"100.128.0.0", NULL}, {"126.255.255.255", NULL},
	{"128.0.0.0", NULL}, {"169.253.255.255", NULL}, {"169.255.0.0", NULL},
	{"172.15.255.255", NULL}, {"172.32.0.0", NULL}, {"191.255.255.255", NULL},
	{"192.0.1.0", NULL}, {"192.0.3.0", NULL}, {"192.88.98.255", NULL}, {"192.167.255.255", NULL},
	{"192.169.0.0", NULL}, {"198.17.255.255", NULL}, {"198.20.0.0", NULL},
	{"198.51.99.255", NULL}, {"203.0.112.255", NULL}, {"223.255.255.255", NULL},
	/* IPv6 Special-Purpose Address Registry */
	{"::", "unspecified ::/128"},
	{"::1", "loopback ::1/128"},
	{"::2", "(0.0.0.2 inside deprecated IPv4-compatible ::/96)"},
	{"0:0:0:0:1::", "reserved by the IETF ::/8"},
	{"100::1", "discard-only 100::/64"},
	{"100:0:0:1::1", "dummy prefix"},
	{"2001:db8::1", "documentation 2001:db8::/32"},
	{"2001:1::1", "IETF protocol assignments 2001::/23"},
	{"2001:2::1", "IETF protocol assignments"},    /* benchmarking */
	{"2001:3::1", "IETF protocol assignments"},    /* AMT */
	{"2001:4:112::1", "IETF protocol assignments"}, /* AS112 */
	{"2001:20::1", "IETF protocol assignments"},   /* ORCHIDv2 */
	{"2001:1ff:ffff::1", "IETF protocol assignments"},
	{"2620:4f:8000::1", "AS112 direct delegation"},
	{"3fff::1", "documentation 3fff::/20"},
	{"3fff:fff::1", "documentation 3fff::/20"},
	{"5f00::1", "segment routing"},
	{"fc00::1", "unique-local fc00::/7"},
	{"fd00::2", "unique-local"},                   /* this machine's eth0 */
	{"fe80::1", "link-local fe80::/10"},
	{"febf::1", "link-local"},
	{"fec0::1", "site-local"},
	{"ff02::1", "multicast ff00::/8"},
	{"4000::1", "outside global unicast 2000::/3"},
	{"e000::1", "outside global unicast"},
	{"2001:200::1", NULL}, {"2606:4700:4700::1111", NULL}, {"2a00:1450:4001::1", NULL},
	{"2620:4f:7fff::1", NULL}, {"3ffe::1", NULL}, {"3fff:1000::1", NULL},
	/* IPv4 inside IPv6 */
	{"::ffff:127.0.0.1", "loopback 127.0.0.0/8 (127.0.0.1 inside IPv4-mapped"},
	{"::ffff:7f00:1", "loopback"},
	{"::ffff:10.0.0.1", "private-use 10.0.0.0/8 (10.0.0.1 inside IPv4-mapped"},
	{"::ffff:8.8.8.8", NULL},
	{"64:ff9b::7f00:1", "loopback 127.0.0.0/8 (127.0.0.1 inside NAT64 64:ff9b::/96)"},
	{"64:ff9b::169.254.169.254", "link-local"},
	{"64:ff9b::8.8.8.8", NULL},
	{"64:ff9b:1::7f00:1", "loopback 127.0.0.0/8 (127.0.0.1 inside local-use NAT64"},
	{"64:ff9b:1::808:808", "local-use NAT64 64:ff9b:1::/48 (carrying 8.8.8.8)"},
	{"::127.0.0.1", "loopback 127.0.0.0/8 (127.0.0.1 inside deprecated IPv4-compatible"},
	{"::8.8.8.8", "deprecated IPv4-compatible ::/96 (carrying 8.8.8.8)"},
	{"2002:7f00:1::", "loopback 127.0.0.0/8 (127.0.0.1 inside 6to4 2002::/16)"},
	{"2002:a9fe:a9fe::1", "169.254.0.0/16 (169.254.169.254 inside 6to4"},
	{"2002:808:808::1", "6to4 2002::/16 (carrying 8.8.8.8)"},
	/* Teredo: server 65.54.227.120, client NOT(0x80ffffe) = 127.0.0.1 */
	{"2001:0:4136:e378:8000:63bf:80ff:fffe", "loopback 127.0.0.0/8 (127.0.0.1 inside Teredo"},
	{"2001:0:4136:e378:8000:63bf:f5ff:fffe", "private-use 10.0.0.0/8 (10.0.0.1 inside Teredo"},
	{"2001:0:4136:e378:8000:63bf:f7f7:f7f7", "Teredo 2001::/32 (carrying 8.8.8.8)"},
};

static const struct {
	const char *url;
	int want;          /* 0 accepted, -1 invalid (400), -2 refused target (422) */
	const char *why;   /* a part of the reason */
} urls[] = {
	{"https://example.org/hook", 0, NULL},
	{"https://Example.ORG./hook", 0, NULL},
	{"http://93.184.216.34:8080/x?y=1", 0, NULL},
	{"http://[2606:4700:4700::1111]:443/x", 0, NULL},
	{"https://hooks.example.org/a@b", 0, NULL},   /* '@' in the path only */
	/* the hostile checks of issue 24 */
	{"http://127.0.0.1.:8080/", -2, "loopback"},
	{"http://0.0.0.0.:8080/", -2, "\"this network\""},
	{"http://169.254.169.254./x", -2, "link-local"},
	{"http://[::127.0.0.1]:8080/", -2, "loopback"},
	{"http://[2002:7f00:1::]/h", -2, "6to4"},
	{"http://metadata.google.internal/x", -2, "cloud metadata"},
	{"http://METADATA.google.internal./x", -2, "cloud metadata"},
	{"http://metadata/computeMetadata/v1/", -2, "cloud metadata"},
	{"http://instance-data/latest/", -2, "cloud metadata"},
	{"http://metadata.azure.com/x", -2, "cloud metadata"},
	{"http:///h", -2, "the host is empty"},
	{"http://", -2, "the host is empty"},
	{"https://:80/x", -2, "the host is empty"},
	{"http://192.0.2.2:8080/", -2, "TEST-NET-1"},
	/* other spellings of inside */
	{"http://127.1/", -2, "four decimal numbers"},
	{"http://2130706433/", -2, "four decimal numbers"},
	{"http://0x7f.0.0.1/", -2, "four decimal numbers"},
	{"http://0177.0.0.1/", -2, "four decimal numbers"},
	{"http://127.0.0.1../", -2, "malformed host"},
	{"http://example.org../", -2, "malformed host"},
	{"http://%31%32%37.0.0.1/", -2, "malformed host"},
	{"http://exa_mple..org/", -2, "malformed host"},
	{"http://[::1%25lo]/", -2, "zone index"},
	{"http://[::1/", -2, "malformed IPv6"},
	{"http://[]/", -2, "malformed IPv6"},
	{"http://[127.0.0.1]/", -2, "malformed IPv6"},
	{"http://[::ffff:127.0.0.1]/", -2, "loopback"},
	{"http://[fd00::2]/", -2, "unique-local"},
	{"http://localhost./x", -2, "special-use"},
	{"http://app.LOCALHOST/x", -2, "special-use"},
	{"http://printer.local/x", -2, "special-use"},
	{"http://db.internal/x", -2, "special-use"},
	{"http://router.home.arpa/x", -2, "special-use"},
	{"http://vm/x", -2, "single-label"},
	{"http://vm./x", -2, "single-label"},
	{"http://example.org:0/", -2, "port"},
	{"http://example.org:65536/", -2, "port"},
	{"http://example.org:/", -2, "port"},
	{"http://example.org:80:80/", -2, "port"},
	{"http://[2606:4700::1]x/", -2, "port"},
	/* the URL's shape: 400 as before */
	{"https://user:pw@example.org/", -1, "user name"},
	{"https://@example.org/", -1, "user name"},
	{"http://127.0.0.1\\@example.org/", -1, "user name"},
	{"ftp://example.org/", -1, "http://"},
	{"javascript:alert(1)", -1, "http://"},
	{"https://example.org/a b", -1, "visible ASCII"},
};

int
main(void)
{
	char why[240];

	wp_notify_cfg.allow_private = 0;
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		const char *got = range_of(table[i].addr, why, sizeof(why));
		char what[300];
		snprintf(what, sizeof(what), "%s: \"%s\" holds \"%s\"", table[i].addr, got,
		         table[i].range ? table[i].range : "");
		if (table[i].range)
			CHECK(got[0] && strstr(got, table[i].range), what);
		else
			CHECK(got[0] == '\0', what);
	}
	for (size_t i = 0; i < sizeof(urls) / sizeof(urls[0]); i++) {
		char what[400];
		why[0] = '\0';
		int rc = wp_webhook_url_check(urls[i].url, why, sizeof(why));
		snprintf(what, sizeof(what), "%s: %d \"%s\", want %d \"%s\"", urls[i].url, rc, why,
		         urls[i].want, urls[i].why ? urls[i].why : "");
		CHECK(rc == urls[i].want && (!urls[i].why || strstr(why, urls[i].why)), what);
	}

	/* The operator's escape hatch (WEBHOOK_ALLOW_PRIVATE=1, for tests and
	 * closed networks) lets addresses and inside names through, never a
	 * malformed host nor a metadata name. */
	wp_notify_cfg.allow_private = 1;
	CHECK(wp_webhook_url_check("http://127.0.0.1:9/x", why, sizeof(why)) == 0, "loopback allowed");
	CHECK(wp_webhook_url_check("http://[fd00::2]/x", why, sizeof(why)) == 0, "ULA allowed");
	CHECK(wp_webhook_url_check("http://vm:9/x", why, sizeof(why)) == 0, "a single label allowed");
	CHECK(wp_webhook_url_check("http:///h", why, sizeof(why)) == -2, "still no empty host");
	CHECK(wp_webhook_url_check("http://127.1/", why, sizeof(why)) == -2, "still dotted quads");
	CHECK(wp_webhook_url_check("http://metadata.google.internal/", why, sizeof(why)) == -2,
	      "never a metadata name");
	wp_notify_cfg.allow_private = 0;

	/* The host's own addresses (getifaddrs): loopback is always one. */
	struct sockaddr_in lo = {.sin_family = AF_INET}, far = {.sin_family = AF_INET};
	struct sockaddr_in6 lo6 = {.sin6_family = AF_INET6};
	inet_pton(AF_INET, "127.0.0.1", &lo.sin_addr);
	inet_pton(AF_INET, "203.0.113.250", &far.sin_addr);
	inet_pton(AF_INET6, "::ffff:127.0.0.1", &lo6.sin6_addr);
	CHECK(wp_addr_own((struct sockaddr *)&lo) == 1, "127.0.0.1 is this host's own");
	CHECK(wp_addr_own((struct sockaddr *)&lo6) == 1, "so is its IPv4-mapped form");
	CHECK(wp_addr_own((struct sockaddr *)&far) == 0, "203.0.113.250 is not");

	return check_done("addr");
}
