/* Static files are lent to the response, not copied (issue 26, HTTP):
 * two answers for one file point at the same bytes, plain or gzip, and
 * the bytes a response holds outlive a newer version of the file and the
 * static module itself. Under ASan (WP_SANITIZE) a lent body freed twice,
 * read after it was freed or never given back shows up here. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "core.h"

static char root[256];

static void
put_file(const char *rel, const char *text, size_t len)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	FILE *f = fopen(path, "w");
	fwrite(text, 1, len, f);
	fclose(f);
}

/* GET path, gzip accepted or not, into res. */
static void
get(const char *path, int gzip, struct wp_response *res)
{
	char ae[] = "Accept-Encoding", gz[] = "gzip";
	struct wp_request req = {0};

	if (gzip)
		req.headers[req.nheaders++] = (struct wp_header){.name = ae, .value = gz};
	memset(res, 0, sizeof(*res));
	CHECK(wp_static_serve(&req, path, res) == WP_OK && res->status == 200, path);
}

static int
holds(const struct wp_response *res, const char *text, size_t len)
{
	return res->body_len == len && memcmp(res->body, text, len) == 0;
}

int
main(void)
{
	struct wp_response a, b, c, z1, z2, big;
	char text[4096], newer[] = "a newer version";
	size_t big_len = 2u << 20; /* over WP_STATIC_KEEP: not kept, read each time */
	char *big_text = malloc(big_len);

	snprintf(root, sizeof(root), "/tmp/wp-unit-static-%d", (int)getpid());
	mkdir(root, 0755);
	for (size_t i = 0; i < sizeof(text); i++)
		text[i] = "let board = 1;\n"[i % 15];
	put_file("app.js", text, sizeof(text));
	memset(big_text, 'x', big_len);
	put_file("big.txt", big_text, big_len);
	CHECK(wp_static_init(root) == 0, "static init");

	get("/app.js", 0, &a);
	get("/app.js", 0, &b);
	CHECK(holds(&a, text, sizeof(text)) && holds(&b, text, sizeof(text)), "the file's bytes");
	CHECK(a.body == b.body, "issue 26, HTTP: two answers for one file lend the same bytes");
	CHECK(a.lent_put && a.lent, "issue 26, HTTP: the body is lent, not owned");
	get("/app.js", 1, &z1);
	get("/app.js", 1, &z2);
	CHECK_STR(wp_response_get_header(&z1, "Content-Encoding"), "gzip", "gzip answer");
	CHECK(z1.body == z2.body && z1.body != a.body && z1.body_len < a.body_len,
	      "issue 26, HTTP: two gzip answers lend the same compressed bytes");
	wp_response_free(&b);
	wp_response_free(&z2);

	/* A newer version takes the file's place in memory; the answers made
	 * before still read the old bytes until they are freed. */
	sleep(1); /* another mtime even on a coarse clock */
	put_file("app.js", newer, strlen(newer));
	get("/app.js", 0, &c);
	CHECK(holds(&c, newer, strlen(newer)), "the newer version is served");
	CHECK(holds(&a, text, sizeof(text)), "an answer keeps the version it lent after a newer one");
	CHECK(z1.body_len > 0 && z1.body[0] == '\x1f', "and its gzip bytes too");
	wp_response_free(&z1);

	get("/big.txt", 0, &big);
	CHECK(holds(&big, big_text, big_len), "a file over the kept size is lent too");

	/* The module ends (the daemon stops) while answers are still sent. */
	wp_static_fini();
	CHECK(holds(&a, text, sizeof(text)) && holds(&c, newer, strlen(newer)) &&
	          holds(&big, big_text, big_len),
	      "answers outlive the static module");
	wp_response_free(&a);
	wp_response_free(&c);
	wp_response_free(&big);
	CHECK(!a.body && !a.lent_put, "a freed answer holds nothing");

	free(big_text);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0, "clean up");
	return check_done("static");
}
