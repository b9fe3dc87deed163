/* The problem types come from one table (srv/core/problem.c): every slug
 * in it is listed by the OpenAPI document (srv/openapi.json, as
 * urn:warpost:problem:<slug>) and has a sentence in the web client
 * (web/api.js, SENTENCES), and neither lists a slug the table lacks.
 * Usage: test_problems OPENAPI_JSON API_JS */
#include <ctype.h>
#include <stdlib.h>

#include "check.h"
#include "wp.h"

#define MAX_SLUGS 256

struct slugs {
	char *s[MAX_SLUGS];
	int n;
};

static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n + 1)) != NULL) {
		buf[fread(buf, 1, (size_t)n, f)] = '\0';
	}
	fclose(f);
	return buf;
}

static int
slug_char(char c)
{
	return islower((unsigned char)c) || isdigit((unsigned char)c) || c == '-';
}

static void
add(struct slugs *l, const char *p, size_t len)
{
	for (int i = 0; i < l->n; i++)
		if (strlen(l->s[i]) == len && strncmp(l->s[i], p, len) == 0)
			return;
	if (len && l->n < MAX_SLUGS) {
		l->s[l->n] = calloc(1, len + 1);
		memcpy(l->s[l->n++], p, len);
	}
}

static int
has(const struct slugs *l, const char *s)
{
	for (int i = 0; i < l->n; i++)
		if (strcmp(l->s[i], s) == 0)
			return 1;
	return 0;
}

/* Every slug after a prefix, in text from start to end (NULL: the end). */
static void
collect(struct slugs *l, const char *start, const char *end, const char *prefix)
{
	size_t pl = strlen(prefix);

	for (const char *p = strstr(start, prefix); p && (!end || p < end); p = strstr(p + 1, prefix)) {
		size_t len = 0;
		while (slug_char(p[pl + len]))
			len++;
		add(l, p + pl, len);
	}
}

/* The keys of the SENTENCES object: 'slug': ... */
static void
collect_sentences(struct slugs *l, const char *js)
{
	const char *start = strstr(js, "const SENTENCES = {");
	const char *end = start ? strstr(start, "\n};") : NULL;

	CHECK(start && end, "web/api.js has const SENTENCES = { ... };");
	if (!start || !end)
		return;
	for (const char *p = strstr(start, "\n  '"); p && p < end; p = strstr(p + 1, "\n  '")) {
		const char *k = p + 4;
		size_t len = 0;
		while (slug_char(k[len]))
			len++;
		if (k[len] == '\'' && k[len + 1] == ':')
			add(l, k, len);
	}
}

static void
compare(const struct slugs *table, const struct slugs *other, const char *where)
{
	char what[160];

	for (int i = 0; i < table->n; i++) {
		snprintf(what, sizeof(what), "%s lists the slug %s", where, table->s[i]);
		CHECK(has(other, table->s[i]), what);
	}
	for (int i = 0; i < other->n; i++) {
		snprintf(what, sizeof(what), "%s's slug %s is in the table", where, other->s[i]);
		CHECK(has(table, other->s[i]), what);
	}
}

int
main(int argc, char **argv)
{
	struct slugs table = {0}, openapi = {0}, web = {0};
	char *doc, *js;

	if (argc != 3) {
		fprintf(stderr, "usage: test_problems OPENAPI_JSON API_JS\n");
		return 2;
	}
	for (int e = WP_OK + 1; e < WP_ERR_MAX; e++) {
		const char *s = wp_err_slug((enum wp_err)e);
		int before = table.n;
		add(&table, s, strlen(s));
		CHECK(table.n == before + 1, "each problem type has its own slug");
		CHECK(wp_err_status((enum wp_err)e) >= 400 && wp_err_status((enum wp_err)e) < 600,
		      "each problem type has an error status");
		CHECK(wp_strerror((enum wp_err)e)[0] != '\0', "each problem type has a title");
	}
	/* The statuses README "Errors" and the OpenAPI document promise. */
	CHECK(wp_err_status(WP_ERR_STALE_SEQUENCE) == 409, "stale-sequence is 409");
	CHECK(wp_err_status(WP_ERR_ILLEGAL_ACTION) == 422, "illegal-action is 422");
	CHECK(wp_err_status(WP_ERR_NOT_A_PLAYER) == 403, "not-a-player is 403");
	CHECK(wp_err_status(WP_ERR_GAME_NOT_FOUND) == 404, "game-not-found is 404");
	CHECK(wp_err_status(WP_ERR_DB_UNAVAILABLE) == 503, "database-unavailable is 503");
	CHECK_STR(wp_err_slug(WP_ERR_MAX), "internal-error", "an unknown value is internal");

	doc = slurp(argv[1]);
	js = slurp(argv[2]);
	CHECK(doc != NULL, "srv/openapi.json is readable");
	CHECK(js != NULL, "web/api.js is readable");
	if (doc) {
		collect(&openapi, doc, NULL, "urn:warpost:problem:");
		compare(&table, &openapi, "srv/openapi.json");
	}
	if (js) {
		collect_sentences(&web, js);
		compare(&table, &web, "web/api.js");
	}
	for (int i = 0; i < table.n; i++)
		free(table.s[i]);
	for (int i = 0; i < openapi.n; i++)
		free(openapi.s[i]);
	for (int i = 0; i < web.n; i++)
		free(web.s[i]);
	free(doc);
	free(js);
	return check_done("problems");
}
