/* The request core without sockets: routing errors as problem+json,
 * body checks, static files and their validators, traversal. The store
 * points at a database that does not exist, so health says 503. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "core.h"
#include "store.h"

static char root[256];

static void
put_file(const char *rel, const char *text)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	FILE *f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

static void
request(const char *method, const char *path, const char *ctype, const char *body,
        struct wp_response *res)
{
	struct wp_request req = {0};

	req.method = strdup(method);
	req.path = strdup(path);
	req.query = strdup("");
	if (ctype) {
		req.headers[0].name = strdup("Content-Type");
		req.headers[0].value = strdup(ctype);
		req.nheaders = 1;
	}
	if (body) {
		req.body = strdup(body);
		req.body_len = strlen(body);
	}
	memset(res, 0, sizeof(*res));
	wp_serve(&req, res);
	wp_request_free(&req);
}

/* A problem+json answer with this status and slug, and the four members
 * RFC 9457 names. */
static int
is_problem(const struct wp_response *res, int status, const char *slug)
{
	char type[96];
	json_object *o, *v;
	int ok;

	if (res->status != status)
		return 0;
	if (!wp_media_type_is(wp_response_get_header(res, "Content-Type"),
	                      "application/problem+json"))
		return 0;
	o = json_tokener_parse(res->body);
	snprintf(type, sizeof(type), "urn:warpost:problem:%s", slug);
	ok = o && json_object_object_get_ex(o, "type", &v) &&
	     strcmp(json_object_get_string(v), type) == 0 &&
	     json_object_object_get_ex(o, "status", &v) && json_object_get_int(v) == status &&
	     json_object_object_get_ex(o, "title", &v) &&
	     json_object_object_get_ex(o, "detail", &v);
	json_object_put(o);
	return ok;
}

int
main(void)
{
	struct wp_config cfg = {0};
	struct wp_response res;
	char outside[512], link[512];

	snprintf(root, sizeof(root), "/tmp/wp-unit-%d", (int)getpid());
	mkdir(root, 0755);
	snprintf(outside, sizeof(outside), "%s-secret", root);
	put_file("index.html", "<p>board</p>");
	put_file("app.js", "export {}");
	put_file("app-0123456789ab.js", "export {}");
	put_file("app-0123456789AB.js", "export {}");
	put_file("style-0123456789ab.css", "p{}");
	put_file("x-0123456789ab.html", "<p>x</p>");
	put_file(".env", "SECRET=1");
	FILE *f = fopen(outside, "w");
	fputs("secret", f);
	fclose(f);
	snprintf(link, sizeof(link), "%s/leak.txt", root);
	CHECK(symlink(outside, link) == 0, "make a symlink out of the root");

	cfg.web_root = root;
	struct wp_store *st = wp_store_open("postgresql:///none?host=/nonexistent&connect_timeout=1", 1);
	CHECK(wp_core_init(&cfg, st) == 0, "core init");

	request("GET", "/", NULL, NULL, &res);
	CHECK(res.status == 200, "index served");
	CHECK_STR(wp_response_get_header(&res, "Content-Type"), "text/html; charset=utf-8",
	          "html type");
	CHECK_STR(wp_response_get_header(&res, "Cache-Control"), "no-cache", "revalidate");
	CHECK(res.body_len == 12 && memcmp(res.body, "<p>board</p>", 12) == 0, "index body");
	char etag[64];
	snprintf(etag, sizeof(etag), "%s", wp_response_get_header(&res, "ETag"));
	wp_response_free(&res);

	struct wp_request req = {0};
	req.method = strdup("GET");
	req.path = strdup("/index.html");
	req.query = strdup("");
	req.headers[0].name = strdup("If-None-Match");
	req.headers[0].value = strdup(etag);
	req.nheaders = 1;
	memset(&res, 0, sizeof(res));
	wp_serve(&req, &res);
	CHECK(res.status == 304 && res.body_len == 0, "If-None-Match gives 304, no body");
	wp_response_free(&res);
	free(req.headers[0].value);
	req.headers[0].value = strdup("\"other\", W/\"x\"");
	wp_serve(&req, &res);
	CHECK(res.status == 200, "another ETag gives the file");
	wp_response_free(&res);
	wp_request_free(&req);

	request("GET", "/app.js", NULL, NULL, &res);
	CHECK_STR(wp_response_get_header(&res, "Content-Type"),
	          "text/javascript; charset=utf-8", "module type");
	CHECK_STR(wp_response_get_header(&res, "Cache-Control"), "no-cache", "a plain name revalidates");
	wp_response_free(&res);
	/* Named by a hash of the content (the bundle): kept a year. Only
	 * scripts and styles with 12 lower-case hex digits after a dash. */
	const char *named[][2] = {
		{"/app-0123456789ab.js", "public, max-age=31536000, immutable"},
		{"/style-0123456789ab.css", "public, max-age=31536000, immutable"},
		{"/app-0123456789AB.js", "no-cache"},
		{"/x-0123456789ab.html", "no-cache"},
	};
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		request("GET", named[i][0], NULL, NULL, &res);
		CHECK(res.status == 200, named[i][0]);
		CHECK_STR(wp_response_get_header(&res, "Cache-Control"), named[i][1], named[i][0]);
		wp_response_free(&res);
	}

	const char *refused[] = {"/../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd",
	                         "/%2E%2E%2Fetc%2Fpasswd", "/a/..%2f..%2fetc/passwd",
	                         "/leak.txt", "/.env", "/./index.html", "/nope.html"};
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		request("GET", refused[i], NULL, NULL, &res);
		CHECK(is_problem(&res, 404, "not-found"), refused[i]);
		CHECK(!res.body || !strstr(res.body, "secret"), "nothing from outside the root");
		wp_response_free(&res);
	}
	request("GET", "/a%00", NULL, NULL, &res);
	CHECK(is_problem(&res, 400, "bad-path"), "NUL in path");
	wp_response_free(&res);
	request("POST", "/index.html", NULL, NULL, &res);
	CHECK(is_problem(&res, 405, "method-not-allowed"), "POST to a file");
	CHECK_STR(wp_response_get_header(&res, "Allow"), "GET, HEAD", "static Allow");
	wp_response_free(&res);

	request("GET", "/api/nothing", NULL, NULL, &res);
	CHECK(is_problem(&res, 404, "not-found"), "unknown route");
	wp_response_free(&res);
	request("PUT", "/api/players", "application/json", "{}", &res);
	CHECK(is_problem(&res, 405, "method-not-allowed"), "wrong method");
	CHECK_STR(wp_response_get_header(&res, "Allow"), "POST", "route Allow");
	wp_response_free(&res);
	request("POST", "/api/players", "text/plain", "{}", &res);
	CHECK(is_problem(&res, 415, "unsupported-media-type"), "text/plain body");
	wp_response_free(&res);
	request("POST", "/api/players", "application/json", "{\"name\":", &res);
	CHECK(is_problem(&res, 400, "malformed-json"), "truncated JSON");
	wp_response_free(&res);
	request("POST", "/api/players", "application/json", "[]", &res);
	CHECK(is_problem(&res, 400, "invalid-request"), "not an object");
	wp_response_free(&res);
	request("POST", "/api/players", "application/json", "{\"name\":\"\\u0007\"}", &res);
	CHECK(is_problem(&res, 400, "invalid-request"), "control character in name");
	wp_response_free(&res);
	request("POST", "/api/players", "application/json", "{\"name\":\"   \"}", &res);
	CHECK(is_problem(&res, 400, "invalid-request"), "blank name");
	wp_response_free(&res);
	request("POST", "/api/players", "application/json",
	        "{\"name\":\"Alice\",\"admin\":true}", &res);
	CHECK(is_problem(&res, 400, "invalid-request"), "unknown field");
	CHECK(strstr(res.body, "admin") != NULL, "detail names the field");
	wp_response_free(&res);
	request("POST", "/api/players", "application/json",
	        "{\"name\":\"ÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆ\"}", &res);
	CHECK(is_problem(&res, 400, "invalid-request"), "41 characters is too long");
	wp_response_free(&res);

	memset(&req, 0, sizeof(req));
	req.method = strdup("POST");
	req.path = strdup("/api/players");
	req.query = strdup("");
	req.body_too_large = 1;
	wp_serve(&req, &res);
	CHECK(is_problem(&res, 413, "body-too-large"), "413 from the front's flag");
	wp_response_free(&res);
	wp_request_free(&req);

	request("GET", "/api/health", NULL, NULL, &res);
	CHECK(res.status == 503, "health 503 without a database");
	CHECK(strstr(res.body, "\"database\":\"down\"") != NULL, "says the database is down");
	wp_response_free(&res);
	request("GET", "/api/me", NULL, NULL, &res);
	CHECK(is_problem(&res, 503, "database-unavailable"), "me without a database");
	wp_response_free(&res);

	wp_core_fini();
	wp_store_close(st);
	unlink(link);
	unlink(outside);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0, "clean up");
	return check_done("core");
}
