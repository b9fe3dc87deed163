/* Fuzz target: a whole request through the core. The input is split on
 * '\n' into method, raw path, query, up to 8 "Name: value" headers, an
 * empty line, then the body. Static files come from a small temp root;
 * the store points at a database that does not exist, so handlers that
 * reach it take their 503 path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core.h"
#include "store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int ready;

static void
setup(void)
{
	static char root[64];
	static struct wp_config cfg;
	struct wp_store *st;
	FILE *f;

	snprintf(root, sizeof(root), "/tmp/wp-fuzz-%d", (int)getpid());
	mkdir(root, 0755);
	char path[128];
	snprintf(path, sizeof(path), "%s/index.html", root);
	f = fopen(path, "w");
	if (f) {
		fputs("<p>x</p>", f);
		fclose(f);
	}
	cfg.web_root = root;
	st = wp_store_open("postgresql:///none?host=/nonexistent-wp-fuzz", 1);
	wp_core_init(&cfg, st);
	/* Request logs would drown the fuzzer's own output. */
	wp_log_quiet(1);
	ready = 1;
}

static char *
take_line(const char **p, const char *end)
{
	const char *nl = memchr(*p, '\n', (size_t)(end - *p));
	const char *stop = nl ? nl : end;
	size_t n = (size_t)(stop - *p);
	char *s = malloc(n + 1);

	/* The input is not NUL-terminated: copy exactly, never strndup. */
	memcpy(s, *p, n);
	s[n] = '\0';

	*p = nl ? nl + 1 : end;
	return s;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	struct wp_request req = {0};
	struct wp_response res = {0};

	if (!ready)
		setup();
	req.method = take_line(&p, end);
	req.path = take_line(&p, end);
	req.query = take_line(&p, end);
	while (p < end && req.nheaders < 8) {
		char *line = take_line(&p, end);
		char *colon = strchr(line, ':');
		if (!*line || !colon) {
			free(line);
			break;
		}
		*colon = '\0';
		req.headers[req.nheaders].name = line;
		req.headers[req.nheaders].value = strdup(colon + 1 + (colon[1] == ' '));
		req.nheaders++;
	}
	if (p < end) {
		req.body_len = (size_t)(end - p);
		req.body = malloc(req.body_len);
		memcpy(req.body, p, req.body_len);
	}
	wp_serve(&req, &res);
	if (res.status < 200 || res.status > 599)
		abort();
	wp_response_free(&res);
	wp_request_free(&req);
	return 0;
}
