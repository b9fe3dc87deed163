/* The libmicrohttpd front: a request's parts as libmicrohttpd hands them
 * over, made into the core's struct wp_request (http.c answers it): its
 * headers (borrowed), its query string as received, its peer's address,
 * and the framing RFC 9112 calls ambiguous. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "http_conn.h"

/* RFC 9112, 6.3: several Content-Length fields, or one with
 * Transfer-Encoding, make the body's length ambiguous: refuse. */
const char *
wp_http_framing_problem(const struct wp_request *req)
{
	int cl = 0, te = 0;

	for (size_t i = 0; i < req->nheaders; i++) {
		cl += strcasecmp(req->headers[i].name, "Content-Length") == 0;
		te += strcasecmp(req->headers[i].name, "Transfer-Encoding") == 0;
	}
	if (cl > 1)
		return "the request has more than one Content-Length";
	if (cl && te)
		return "the request has both Content-Length and Transfer-Encoding";
	return NULL;
}

/* The header strings are borrowed, not copied: libmicrohttpd keeps them in
 * the connection's memory pool until the request completes, and
 * on_completed() drops them before the request is freed. Two allocations
 * less per header for every waiting long-poll (issue 17, long-poll
 * memory). */
static enum MHD_Result
add_header(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	struct wp_request *req = cls;

	if (req->nheaders == WP_MAX_HEADERS)
		return MHD_NO;
	req->headers[req->nheaders].name = (char *)key;
	req->headers[req->nheaders].value = (char *)(value ? value : "");
	req->nheaders++;
	return MHD_YES;
}

struct query_buf {
	char *s;
	size_t len, cap;
	int failed;
};

static void
qb_append(struct query_buf *q, const char *s)
{
	size_t n = strlen(s);
	if (q->failed)
		return;
	if (q->len + n + 1 > q->cap) {
		size_t cap = (q->cap ? q->cap * 2 : 128) + n;
		char *p = realloc(q->s, cap);
		if (!p) {
			q->failed = 1;
			return;
		}
		q->s = p;
		q->cap = cap;
	}
	memcpy(q->s + q->len, s, n + 1);
	q->len += n;
}

static enum MHD_Result
add_arg(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	struct query_buf *q = cls;

	if (q->len)
		qb_append(q, "&");
	qb_append(q, key);
	if (value) {
		qb_append(q, "=");
		qb_append(q, value);
	}
	return MHD_YES;
}

/* An IPv4 address in dotted decimal, as inet_ntop writes it, without its
 * sprintf (issue 32: a seventieth of a static file's CPU). cap >= 16. */
static void
ipv4_text(const struct in_addr *a, char *out)
{
	const unsigned char *b = (const unsigned char *)&a->s_addr;
	char *o = out;

	for (int i = 0; i < 4; i++) {
		unsigned v = b[i];
		if (v >= 100)
			*o++ = (char)('0' + v / 100);
		if (v >= 10)
			*o++ = (char)('0' + v / 10 % 10);
		*o++ = (char)('0' + v % 10);
		*o++ = i < 3 ? '.' : '\0';
	}
}

void
wp_http_peer(struct MHD_Connection *c, char *out, size_t cap)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	out[0] = '\0';
	if (!ci || !ci->client_addr)
		return;
	if (ci->client_addr->sa_family == AF_INET && cap >= INET_ADDRSTRLEN)
		ipv4_text(&((const struct sockaddr_in *)ci->client_addr)->sin_addr, out);
	else if (ci->client_addr->sa_family == AF_INET6)
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)ci->client_addr)->sin6_addr,
		          out, (socklen_t)cap);
}

char *
wp_http_query(struct MHD_Connection *c)
{
	struct query_buf q = {0};

	MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, add_arg, &q);
	if (q.failed) {
		free(q.s);
		return NULL;
	}
	return q.s;
}

void
wp_http_headers(struct MHD_Connection *c, struct wp_request *req)
{
	MHD_get_connection_values(c, MHD_HEADER_KIND, add_header, req);
}
