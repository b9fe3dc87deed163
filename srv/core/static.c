/* Static files of the board (web/), with validators for caching
 * (RFC 9110, 8.8.3 and 13.1.2). Paths are resolved with realpath() and
 * must stay inside the web root, so neither "..", encoded dots nor a
 * symlink can reach a file outside it. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core.h"

/* Board assets are small; anything larger is not ours to serve. */
#define WP_STATIC_MAX (16u * 1024 * 1024)

#define WP_STATIC_CSP                                                                   \
	"default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "    \
	"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

static char root[PATH_MAX];
static size_t root_len;

int
wp_static_init(const char *web_root)
{
	if (!realpath(web_root, root))
		return -1;
	root_len = strlen(root);
	return 0;
}

void
wp_static_fini(void)
{
	root[0] = '\0';
	root_len = 0;
}

static const struct {
	const char *ext;
	const char *type;
} mime[] = {
	{".html", "text/html; charset=utf-8"},
	{".js", "text/javascript; charset=utf-8"},
	{".mjs", "text/javascript; charset=utf-8"},
	{".css", "text/css; charset=utf-8"},
	{".json", "application/json"},
	{".svg", "image/svg+xml"},
	{".png", "image/png"},
	{".ico", "image/x-icon"},
	{".webmanifest", "application/manifest+json"},
	{".txt", "text/plain; charset=utf-8"},
	{".woff2", "font/woff2"},
};

const char *
wp_mime_type(const char *path)
{
	const char *dot = strrchr(path, '.');
	const char *slash = strrchr(path, '/');

	if (dot && (!slash || dot > slash))
		for (size_t i = 0; i < sizeof(mime) / sizeof(mime[0]); i++)
			if (strcmp(dot, mime[i].ext) == 0)
				return mime[i].type;
	return "application/octet-stream";
}

/* No ".." or "." segment and no hidden file (".git", ".env"). */
static int
path_is_clean(const char *p)
{
	while (*p) {
		while (*p == '/')
			p++;
		if (*p == '.')
			return 0;
		p += strcspn(p, "/");
	}
	return 1;
}

/* If-None-Match: "*" or a list of entity tags, weak ones compared weakly
 * (RFC 9110, 13.1.2). */
static int
etag_matches(const char *header, const char *etag)
{
	size_t elen = strlen(etag);
	const char *p = header;

	while (*p) {
		while (*p == ' ' || *p == ',' || *p == '\t')
			p++;
		if (*p == '*')
			return 1;
		if (strncmp(p, "W/", 2) == 0)
			p += 2;
		if (strncmp(p, etag, elen) == 0 && (p[elen] == '\0' || p[elen] == ',' ||
		                                    p[elen] == ' ' || p[elen] == '\t'))
			return 1;
		p += strcspn(p, ",");
	}
	return 0;
}

static char *
slurp(const char *path, size_t size)
{
	FILE *f = fopen(path, "rb");
	char *buf;

	if (!f)
		return NULL;
	buf = malloc(size ? size : 1);
	if (buf && fread(buf, 1, size, f) != size) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

enum wp_err
wp_static_serve(const struct wp_request *req, const char *path, struct wp_response *res)
{
	char want[PATH_MAX], real[PATH_MAX], etag[64];
	const char *inm;
	struct stat sb;
	size_t plen = strlen(path);

	if (!root_len)
		return WP_ERR_NOT_FOUND;
	if (path[0] != '/' || !path_is_clean(path))
		return WP_ERR_NOT_FOUND;
	if (snprintf(want, sizeof(want), "%s%s%s", root, path,
	             path[plen - 1] == '/' ? "index.html" : "") >= (int)sizeof(want))
		return WP_ERR_NOT_FOUND;
	if (!realpath(want, real) || strncmp(real, root, root_len) != 0 ||
	    real[root_len] != '/')
		return WP_ERR_NOT_FOUND;
	if (stat(real, &sb) != 0)
		return WP_ERR_NOT_FOUND;
	if (S_ISDIR(sb.st_mode)) {
		/* "/lobby" names the folder's page, as "/lobby/" does. */
		size_t rlen = strlen(real);
		if (rlen + sizeof("/index.html") > sizeof(real))
			return WP_ERR_NOT_FOUND;
		memcpy(real + rlen, "/index.html", sizeof("/index.html"));
		if (stat(real, &sb) != 0)
			return WP_ERR_NOT_FOUND;
	}
	if (!S_ISREG(sb.st_mode) || (size_t)sb.st_size > WP_STATIC_MAX)
		return WP_ERR_NOT_FOUND;

	snprintf(etag, sizeof(etag), "\"%llx-%llx\"", (unsigned long long)sb.st_size,
	         (unsigned long long)sb.st_mtim.tv_sec * 1000000000ull +
	             (unsigned long long)sb.st_mtim.tv_nsec);
	wp_response_header(res, "ETag", etag);
	/* Assets carry no version in their names: revalidate every time, and
	 * the ETag makes that a 304 without a body. */
	wp_response_header(res, "Cache-Control", "no-cache");
	wp_response_header(res, "Content-Type", wp_mime_type(real));
	/* The board loads only its own scripts and styles; its SVG sets style
	 * attributes and the notification favicon is a data: URL, hence
	 * 'unsafe-inline' for styles and data: for images. */
	wp_response_header(res, "Content-Security-Policy", WP_STATIC_CSP);
	wp_response_header(res, "Referrer-Policy", "no-referrer");
	wp_response_header(res, "X-Frame-Options", "DENY");
	inm = wp_request_header(req, "If-None-Match");
	if (inm && etag_matches(inm, etag)) {
		res->status = 304;
		return WP_OK;
	}
	res->body = slurp(real, (size_t)sb.st_size);
	if (!res->body)
		return errno == ENOMEM ? WP_ERR_INTERNAL : WP_ERR_NOT_FOUND;
	res->body_len = (size_t)sb.st_size;
	res->status = 200;
	return WP_OK;
}
