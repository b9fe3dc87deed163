/* Requests and responses as plain values. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "wp.h"

/* Header names are case-insensitive (RFC 9110, 5.1). */
static const char *
header_find(const struct wp_header *h, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcasecmp(h[i].name, name) == 0)
			return h[i].value;
	return NULL;
}

static void
headers_free(struct wp_header *h, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(h[i].name);
		free(h[i].value);
	}
}

const char *
wp_request_header(const struct wp_request *req, const char *name)
{
	return header_find(req->headers, req->nheaders, name);
}

void
wp_request_free(struct wp_request *req)
{
	free(req->method);
	free(req->path);
	free(req->query);
	headers_free(req->headers, req->nheaders);
	free(req->body);
	memset(req, 0, sizeof(*req));
}

/* Sets a header, replacing one of the same name. */
int
wp_response_header(struct wp_response *res, const char *name, const char *value)
{
	char *v = strdup(value);

	if (!v)
		return -1;
	for (size_t i = 0; i < res->nheaders; i++) {
		if (strcasecmp(res->headers[i].name, name) == 0) {
			free(res->headers[i].value);
			res->headers[i].value = v;
			return 0;
		}
	}
	if (res->nheaders == sizeof(res->headers) / sizeof(res->headers[0])) {
		free(v);
		return -1;
	}
	res->headers[res->nheaders].name = strdup(name);
	if (!res->headers[res->nheaders].name) {
		free(v);
		return -1;
	}
	res->headers[res->nheaders++].value = v;
	return 0;
}

const char *
wp_response_get_header(const struct wp_response *res, const char *name)
{
	return header_find(res->headers, res->nheaders, name);
}

void
wp_response_free(struct wp_response *res)
{
	headers_free(res->headers, res->nheaders);
	if (res->lent_put)
		res->lent_put(res->lent);
	else
		free(res->body);
	memset(res, 0, sizeof(*res));
}

int
wp_response_json(struct wp_response *res, int status, const char *json_text)
{
	free(res->body);
	res->body = strdup(json_text);
	if (!res->body) {
		res->body_len = 0;
		return -1;
	}
	res->body_len = strlen(json_text);
	res->status = status;
	return wp_response_header(res, "Content-Type", "application/json");
}

const char *
wp_status_text(int status)
{
	switch (status) {
	case 200: return "OK";
	case 201: return "Created";
	case 204: return "No Content";
	case 304: return "Not Modified";
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 409: return "Conflict";
	case 413: return "Content Too Large";
	case 415: return "Unsupported Media Type";
	case 422: return "Unprocessable Content";
	case 429: return "Too Many Requests";
	case 500: return "Internal Server Error";
	case 503: return "Service Unavailable";
	default: return "Unknown";
	}
}

int64_t
wp_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int (*wp_offload_hook)(void (*fn)(void *), void *arg);

void
wp_blocking(void (*fn)(void *), void *arg)
{
	int (*hook)(void (*)(void *), void *) = __atomic_load_n(&wp_offload_hook, __ATOMIC_ACQUIRE);

	if (!hook || hook(fn, arg) != 0)
		fn(arg);
}
