/* Which targets a public server refuses to call (SSRF, issue 24): the
 * special-purpose address ranges, the host's own addresses, and the host
 * of a URL judged on its face. No network, no libcurl: addr.c. */
#ifndef WP_ADDR_H
#define WP_ADDR_H

#include <stddef.h>
#include <sys/socket.h>

/* 1 when the address lies in a range of the IANA IPv4 or IPv6
 * Special-Purpose Address Registry (or multicast, or outside IPv6 global
 * unicast 2000::/3), why then naming the range; 0 for an ordinary
 * public address. IPv4 inside IPv6 is decoded: mapped ::ffff:0:0/96 and
 * NAT64 64:ff9b::/96 are judged by the IPv4 address they carry; the
 * compatible ::/96, 6to4 2002::/16, Teredo 2001::/32 (client = NOT of the
 * last 32 bits) and local NAT64 64:ff9b:1::/48 are always refused, why
 * naming the IPv4 inside when that is special too. Non-IP families: 1. */
int wp_addr_special(const struct sockaddr *sa, char *why, size_t cap);

/* 1 when the address is bound to one of this host's interfaces
 * (getifaddrs; an IPv4-mapped address compared as its IPv4), 0 if not,
 * -1 when the interfaces cannot be listed. */
int wp_addr_own(const struct sockaddr *sa);

/* The host of a URL (as written between "//" and the port, IPv6 in
 * brackets, len bytes): 0 when a public server may call it, -1 and why
 * when it is empty or malformed (labels of letters, digits, '-' and '_',
 * one trailing dot at most; IPv4 only as four decimal numbers; IPv6
 * without a zone), names a cloud metadata service (always refused), or,
 * unless WP_HOST_ALLOW_PRIVATE, is a special-purpose address literal
 * (left to the connection with WP_HOST_LITERAL_LATER, which checks the
 * host's own addresses too), localhost, a special-use domain
 * (.localhost, .local, .internal, .home.arpa, .localdomain, .invalid,
 * .onion) or a name of one label (resolved through the server's own
 * search domains). */
enum { WP_HOST_ALLOW_PRIVATE = 1, WP_HOST_LITERAL_LATER = 2 };
int wp_host_judge(const char *host, size_t len, int flags, char *why, size_t cap);

#endif
