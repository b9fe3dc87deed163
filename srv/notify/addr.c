/* The addresses and hosts a public server refuses to call (SSRF, issue
 * 24). The ranges are those of the IANA IPv4 and IPv6 Special-Purpose
 * Address Registries (RFC 6890 and its updates, as of 2025), plus
 * multicast and, for IPv6, all that lies outside global unicast 2000::/3.
 * Table order matters: the first match names the range. */
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "addr.h"

static const struct {
	uint32_t net;
	int bits;
	const char *name;
} v4_ranges[] = {
	{0x00000000, 8, "\"this network\" 0.0.0.0/8"},
	{0x0a000000, 8, "private-use 10.0.0.0/8"},
	{0x64400000, 10, "shared address space (carrier-grade NAT) 100.64.0.0/10"},
	{0x7f000000, 8, "loopback 127.0.0.0/8"},
	{0xa9fe0000, 16, "link-local (cloud metadata) 169.254.0.0/16"},
	{0xac100000, 12, "private-use 172.16.0.0/12"},
	{0xc0000000, 24, "IETF protocol assignments 192.0.0.0/24"},
	{0xc0000200, 24, "documentation (TEST-NET-1) 192.0.2.0/24"},
	{0xc01fc400, 24, "AS112-v4 192.31.196.0/24"},
	{0xc034c100, 24, "AMT 192.52.193.0/24"},
	{0xc0586300, 24, "deprecated 6to4 relay anycast 192.88.99.0/24"},
	{0xc0a80000, 16, "private-use 192.168.0.0/16"},
	{0xc0af3000, 24, "AS112 direct delegation 192.175.48.0/24"},
	{0xc6120000, 15, "benchmarking 198.18.0.0/15"},
	{0xc6336400, 24, "documentation (TEST-NET-2) 198.51.100.0/24"},
	{0xcb007100, 24, "documentation (TEST-NET-3) 203.0.113.0/24"},
	{0xe0000000, 4, "multicast 224.0.0.0/4"},
	{0xffffffff, 32, "limited broadcast 255.255.255.255/32"},
	{0xf0000000, 4, "reserved 240.0.0.0/4"},
};

/* IPv6 prefixes, the first bytes written out (the rest zero). */
static const struct {
	unsigned char net[16];
	int bits;
	const char *name;
} v6_ranges[] = {
	{{0}, 128, "unspecified ::/128"},
	{{[15] = 1}, 128, "loopback ::1/128"},
	{{0}, 8, "reserved by the IETF ::/8"},
	{{0x01, 0x00}, 64, "discard-only 100::/64"},
	{{0x01, 0x00, 0, 0, 0, 0, 0, 1}, 64, "dummy prefix 100:0:0:1::/64"},
	{{0x20, 0x01, 0x0d, 0xb8}, 32, "documentation 2001:db8::/32"},
	{{0x20, 0x01}, 23, "IETF protocol assignments 2001::/23"},
	{{0x26, 0x20, 0x00, 0x4f, 0x80}, 48, "AS112 direct delegation 2620:4f:8000::/48"},
	{{0x3f, 0xff}, 20, "documentation 3fff::/20"},
	{{0x5f, 0x00}, 16, "segment routing (SRv6) SIDs 5f00::/16"},
	{{0xfc}, 7, "unique-local fc00::/7"},
	{{0xfe, 0x80}, 10, "link-local fe80::/10"},
	{{0xfe, 0xc0}, 10, "deprecated site-local fec0::/10"},
	{{0xff}, 8, "multicast ff00::/8"},
};

static const char *
v4_range(uint32_t a)
{
	for (size_t i = 0; i < sizeof(v4_ranges) / sizeof(v4_ranges[0]); i++) {
		uint32_t mask = v4_ranges[i].bits ? 0xffffffffu << (32 - v4_ranges[i].bits) : 0;
		if ((a & mask) == v4_ranges[i].net)
			return v4_ranges[i].name;
	}
	return NULL;
}

static int
v6_in(const unsigned char *b, const unsigned char *net, int bits)
{
	int whole = bits / 8, rest = bits % 8;

	if (memcmp(b, net, (size_t)whole) != 0)
		return 0;
	return rest == 0 || ((b[whole] ^ net[whole]) & (0xff00 >> rest) & 0xff) == 0;
}

static uint32_t
be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void
v4_text(uint32_t a, char out[16])
{
	snprintf(out, 16, "%u.%u.%u.%u", a >> 24, a >> 16 & 0xff, a >> 8 & 0xff, a & 0xff);
}

/* IPv6 forms that carry an IPv4 address, and where. */
static const struct {
	unsigned char net[16];
	int bits;
	int judged_by_v4;     /* 1: the IPv4 inside decides; 0: always refused */
	int at;               /* byte offset of the IPv4 address */
	int inverted;         /* Teredo stores its client's address inverted */
	const char *name;
} v6_embeddings[] = {
	{{[10] = 0xff, [11] = 0xff}, 96, 1, 12, 0, "IPv4-mapped ::ffff:0:0/96"},
	{{0x00, 0x64, 0xff, 0x9b}, 96, 1, 12, 0, "NAT64 64:ff9b::/96"},
	{{0x00, 0x64, 0xff, 0x9b, 0x00, 0x01}, 48, 0, 12, 0, "local-use NAT64 64:ff9b:1::/48"},
	{{0x20, 0x02}, 16, 0, 2, 0, "6to4 2002::/16"},
	{{0x20, 0x01, 0x00, 0x00}, 32, 0, 12, 1, "Teredo 2001::/32"},
	{{0}, 96, 0, 12, 0, "deprecated IPv4-compatible ::/96"},
};

static int
v6_special(const unsigned char *b, char *why, size_t cap)
{
	const char *inner;
	char v4[16];

	/* ::/128 and ::1 before the compatible ::/96 they lie in */
	for (size_t i = 0; i < 2; i++)
		if (v6_in(b, v6_ranges[i].net, v6_ranges[i].bits))
			return snprintf(why, cap, "%s", v6_ranges[i].name), 1;
	for (size_t i = 0; i < sizeof(v6_embeddings) / sizeof(v6_embeddings[0]); i++) {
		if (!v6_in(b, v6_embeddings[i].net, v6_embeddings[i].bits))
			continue;
		uint32_t a = be32(b + v6_embeddings[i].at);
		if (v6_embeddings[i].inverted)
			a = ~a;
		v4_text(a, v4);
		if ((inner = v4_range(a)))
			snprintf(why, cap, "%s (%s inside %s)", inner, v4, v6_embeddings[i].name);
		else if (!v6_embeddings[i].judged_by_v4)
			snprintf(why, cap, "%s (carrying %s)", v6_embeddings[i].name, v4);
		return inner || !v6_embeddings[i].judged_by_v4;
	}
	for (size_t i = 2; i < sizeof(v6_ranges) / sizeof(v6_ranges[0]); i++)
		if (v6_in(b, v6_ranges[i].net, v6_ranges[i].bits))
			return snprintf(why, cap, "%s", v6_ranges[i].name), 1;
	if ((b[0] & 0xe0) != 0x20)
		return snprintf(why, cap, "outside global unicast 2000::/3"), 1;
	return 0;
}

int
wp_addr_special(const struct sockaddr *sa, char *why, size_t cap)
{
	const char *r;

	why[0] = '\0';
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *a4 = (const struct sockaddr_in *)(const void *)sa;
		if ((r = v4_range(ntohl(a4->sin_addr.s_addr))))
			snprintf(why, cap, "%s", r);
		return r != NULL;
	}
	if (sa->sa_family == AF_INET6)
		return v6_special(((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr.s6_addr,
		                  why, cap);
	snprintf(why, cap, "not an IP address");
	return 1;
}

int
wp_addr_own(const struct sockaddr *sa)
{
	static const unsigned char mapped[12] = {[10] = 0xff, [11] = 0xff};
	struct ifaddrs *list, *i;
	unsigned char want[16];
	int family, n, found = 0;

	if (sa->sa_family == AF_INET) {
		memcpy(want, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, 4);
		family = AF_INET, n = 4;
	} else if (sa->sa_family == AF_INET6) {
		memcpy(want, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, 16);
		family = AF_INET6, n = 16;
		if (memcmp(want, mapped, 12) == 0) {
			memmove(want, want + 12, 4);
			family = AF_INET, n = 4;
		}
	} else {
		return 0;
	}
	if (getifaddrs(&list) != 0)
		return -1;
	for (i = list; i && !found; i = i->ifa_next) {
		const struct sockaddr *a = i->ifa_addr;
		if (!a || a->sa_family != family)
			continue;
		const void *in = a;
		const void *have = family == AF_INET
		                       ? (const void *)&((const struct sockaddr_in *)in)->sin_addr
		                       : (const void *)&((const struct sockaddr_in6 *)in)->sin6_addr;
		found = memcmp(have, want, (size_t)n) == 0;
	}
	freeifaddrs(list);
	return found;
}

/* Cloud metadata services by name (their addresses are link-local or
 * shared space, refused anyway; a name could be pointed elsewhere by the
 * provider's resolver). AWS, GCP, Azure, Oracle, Alibaba, OpenStack. */
static const char *const metadata_names[] = {
	"metadata", "metadata.google.internal", "metadata.goog", "instance-data",
	"instance-data.ec2.internal", "metadata.azure.com", "metadata.azure.internal",
	"metadata.oraclecloud.com", "metadata.platformequinix.com", "metadata.tencentyun.com",
	"metadata.packet.net", "metadata.openstack.org",
};

/* Special-use and private-use domains (RFC 6761, 6762, 7686, 8375; ICANN's
 * .internal, 2024): never a public receiver. */
static const char *const inside_domains[] = {
	"localhost", "local", "internal", "home.arpa", "localdomain", "invalid", "onion",
};

static int
under(const char *name, size_t n, const char *domain)
{
	size_t d = strlen(domain);

	return (n == d && memcmp(name, domain, d) == 0) ||
	       (n > d && name[n - d - 1] == '.' && memcmp(name + n - d, domain, d) == 0);
}

/* A name's labels: letters, digits, '-', '_'; 1 to 63 bytes each, at most
 * 253 in all (RFC 1035 2.3.4; '_' as in service names). */
static int
name_ok(const char *h, size_t n)
{
	size_t label = 0;

	if (n == 0 || n > 253)
		return 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)h[i];
		if (c == '.') {
			if (label == 0)
				return 0;
			label = 0;
		} else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_') {
			if (++label > 63)
				return 0;
		} else {
			return 0;
		}
	}
	return label > 0;
}

static int
refuse(char *why, size_t cap, const char *what, const char *host)
{
	snprintf(why, cap, "url: %s%s%s%s", what, host ? " (" : "", host ? host : "",
	         host ? ")" : "");
	return -1;
}

static int
literal(const struct sockaddr *sa, int flags, const char *h, char *why, size_t cap)
{
	char range[160], text[320];

	if (flags || !wp_addr_special(sa, range, sizeof(range)))
		return 0;
	snprintf(text, sizeof(text), "%s is %s, not allowed as a webhook target", h, range);
	return refuse(why, cap, text, NULL);
}

int
wp_host_judge(const char *host, size_t len, int flags, char *why, size_t cap)
{
	struct sockaddr_in a4 = {.sin_family = AF_INET};
	struct sockaddr_in6 a6 = {.sin6_family = AF_INET6};
	char h[256];
	size_t n = len;

	if (n == 0)
		return refuse(why, cap, "the host is empty", NULL);
	if (n >= sizeof(h))
		return refuse(why, cap, "the host is longer than 253 bytes", NULL);
	memcpy(h, host, n);
	h[n] = '\0';
	if (h[0] == '[') {
		if (n < 3 || h[n - 1] != ']')
			return refuse(why, cap, "malformed IPv6 literal", NULL);
		h[n - 1] = '\0';
		if (strchr(h, '%'))
			return refuse(why, cap, "an IPv6 zone index is not allowed", NULL);
		if (inet_pton(AF_INET6, h + 1, &a6.sin6_addr) != 1)
			return refuse(why, cap, "malformed IPv6 literal", NULL);
		return literal((struct sockaddr *)&a6, flags, h + 1, why, cap);
	}
	for (size_t i = 0; i < n; i++)
		if (h[i] >= 'A' && h[i] <= 'Z')
			h[i] = (char)(h[i] - 'A' + 'a');
	if (h[n - 1] == '.')         /* one trailing dot: the same name, rooted */
		h[--n] = '\0';
	if (!name_ok(h, n))
		return refuse(why, cap, "malformed host", NULL);
	/* A last label that starts with a digit makes the host an IPv4 address
	 * (WHATWG URL, "ends in a number"): only the plain dotted-quad form,
	 * so that no reader takes 0x7f.1 or 2130706433 for something else. */
	const char *last = strrchr(h, '.');
	last = last ? last + 1 : h;
	if (last[0] >= '0' && last[0] <= '9') {
		if (inet_pton(AF_INET, h, &a4.sin_addr) != 1)
			return refuse(why, cap, "an IPv4 address must be four decimal numbers 0-255", h);
		return literal((struct sockaddr *)&a4, flags, h, why, cap);
	}
	for (size_t i = 0; i < sizeof(metadata_names) / sizeof(metadata_names[0]); i++)
		if (strcmp(h, metadata_names[i]) == 0)
			return refuse(why, cap, "a cloud metadata service, never a webhook target", h);
	if (flags & WP_HOST_ALLOW_PRIVATE)
		return 0;
	for (size_t i = 0; i < sizeof(inside_domains) / sizeof(inside_domains[0]); i++)
		if (under(h, n, inside_domains[i]))
			return refuse(why, cap, "a special-use or private domain, not allowed as a "
			                        "webhook target", h);
	if (!strchr(h, '.'))
		return refuse(why, cap, "a single-label name resolves through this server's own "
		                        "search domains, not allowed as a webhook target", h);
	return 0;
}
