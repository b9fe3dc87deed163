/* Small parsers for what arrives from clients: percent-encoding
 * (RFC 3986, 2.1), query strings, media types (RFC 9110, 8.3.1); and
 * integers written in decimal for the database's parameters. */
#include <ctype.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "core.h"

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int
wp_percent_decode(const char *in, char *out, size_t cap)
{
	size_t o = 0;

	if (cap == 0)
		return -1;
	for (const char *p = in; *p; p++) {
		int c = (unsigned char)*p;
		if (c == '%') {
			int hi = hexval((unsigned char)p[1]);
			int lo = hi < 0 ? -1 : hexval((unsigned char)p[2]);
			if (hi < 0 || lo < 0)
				return -1;
			c = hi * 16 + lo;
			if (c == 0)
				return -1;
			p += 2;
		}
		if (o + 1 >= cap)
			return -1;
		out[o++] = (char)c;
	}
	out[o] = '\0';
	return 0;
}

/* A path: as wp_percent_decode(), but an encoded '/' (or '\\') is data in
 * a segment (RFC 3986, 2.2 and 3.3), never a separator, and no resource
 * here has one in its name: -2, so "/api/games/1%2Fturns" cannot route
 * as "/api/games/1/turns". */
int
wp_path_decode(const char *in, char *out, size_t cap)
{
	for (const char *p = strchr(in, '%'); p; p = strchr(p + 1, '%'))
		if ((p[1] == '2' && (p[2] == 'f' || p[2] == 'F')) ||
		    (p[1] == '5' && (p[2] == 'c' || p[2] == 'C')))
			return -2;
	return wp_percent_decode(in, out, cap);
}

/* application/x-www-form-urlencoded: '+' is a space in query values. */
int
wp_query_param(const char *query, const char *name, char *out, size_t cap)
{
	size_t nlen = strlen(name);
	const char *p = query;

	while (p && *p) {
		const char *end = strchr(p, '&');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len > nlen && strncmp(p, name, nlen) == 0 && p[nlen] == '=') {
			char raw[512];
			size_t vlen = len - nlen - 1;
			if (vlen >= sizeof(raw))
				return -1;
			memcpy(raw, p + nlen + 1, vlen);
			raw[vlen] = '\0';
			for (char *c = raw; *c; c++)
				if (*c == '+')
					*c = ' ';
			return wp_percent_decode(raw, out, cap) == 0 ? 1 : -1;
		}
		if (len == nlen && strncmp(p, name, nlen) == 0) {
			if (cap)
				out[0] = '\0';
			return 1;
		}
		p = end ? end + 1 : NULL;
	}
	return 0;
}

/* "application/json; charset=utf-8" is application/json. */
int
wp_media_type_is(const char *content_type, const char *type)
{
	size_t tlen = strlen(type);
	const char *p = content_type;

	if (!p)
		return 0;
	while (*p == ' ' || *p == '\t')
		p++;
	if (strncasecmp(p, type, tlen) != 0)
		return 0;
	p += tlen;
	while (*p == ' ' || *p == '\t')
		p++;
	return *p == '\0' || *p == ';';
}

size_t
wp_i64_text(char *out, int64_t v)
{
	char d[20];
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	size_t n = 0, k = 0;

	do
		d[k++] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		out[n++] = '-';
	while (k > 0)
		out[n++] = d[--k];
	out[n] = '\0';
	return n;
}
