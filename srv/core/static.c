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

#include <pthread.h>
#include <zlib.h>

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

static void kept_clear(void);

void
wp_static_fini(void)
{
	root[0] = '\0';
	root_len = 0;
	kept_clear();
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

/* ------------------------------------------------------------ in memory */

/* Files of up to WP_STATIC_KEEP bytes are kept in memory with their ETag
 * and, for text, a gzip copy made once (issue "Performance"); a stat() of
 * the resolved path per request keeps them true to the disk. */
#define WP_STATIC_KEEP (1u << 20)
#define WP_STATIC_SLOTS 256

struct kept {
	char *key;               /* the request's path */
	char real[PATH_MAX];
	struct stat sb;
	char etag[64], etag_gz[72];
	const char *type;
	char *body, *gz;
	size_t len, gzlen;
	int refs;                /* the table's and each request's */
};

static struct kept *kept[WP_STATIC_SLOTS];
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;

static void
kept_put(struct kept *k)
{
	pthread_mutex_lock(&kept_lock);
	int last = --k->refs == 0;
	pthread_mutex_unlock(&kept_lock);
	if (last) {
		free(k->key);
		free(k->body);
		free(k->gz);
		free(k);
	}
}

static size_t
slot_of(const char *key)
{
	size_t h = 5381;

	for (const char *p = key; *p; p++)
		h = h * 33 + (unsigned char)*p;
	return h % WP_STATIC_SLOTS;
}

static struct kept *
kept_get(const char *key)
{
	struct kept *k;

	pthread_mutex_lock(&kept_lock);
	k = kept[slot_of(key)];
	if (k && strcmp(k->key, key) == 0)
		k->refs++;
	else
		k = NULL;
	pthread_mutex_unlock(&kept_lock);
	return k;
}

/* Replaces the slot's file; the table takes one reference. */
static void
kept_set(struct kept *k)
{
	struct kept *old;

	pthread_mutex_lock(&kept_lock);
	k->refs++;
	old = kept[slot_of(k->key)];
	kept[slot_of(k->key)] = k;
	pthread_mutex_unlock(&kept_lock);
	if (old)
		kept_put(old);
}

static void
kept_clear(void)
{
	for (size_t i = 0; i < WP_STATIC_SLOTS; i++) {
		pthread_mutex_lock(&kept_lock);
		struct kept *k = kept[i];
		kept[i] = NULL;
		pthread_mutex_unlock(&kept_lock);
		if (k)
			kept_put(k);
	}
}

static int
compressible(const char *type)
{
	return strncmp(type, "text/", 5) == 0 || strcmp(type, "application/json") == 0 ||
	       strcmp(type, "image/svg+xml") == 0 ||
	       strcmp(type, "application/manifest+json") == 0;
}

static void
gzip_of(struct kept *k)
{
	z_stream z = {0};
	uLong cap = compressBound((uLong)k->len) + 32;

	if (!compressible(k->type) || k->len < 256 || !(k->gz = malloc(cap)))
		return;
	if (deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(k->gz);
		k->gz = NULL;
		return;
	}
	z.next_in = (Bytef *)k->body;
	z.avail_in = (uInt)k->len;
	z.next_out = (Bytef *)k->gz;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END || z.total_out >= k->len) {
		free(k->gz);
		k->gz = NULL;
	} else {
		k->gzlen = z.total_out;
	}
	deflateEnd(&z);
}

static int
same_file(const struct stat *a, const struct stat *b)
{
	return a->st_ino == b->st_ino && a->st_dev == b->st_dev && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/* Accept-Encoding names gzip with a weight above 0 (RFC 9110, 12.5.3). */
static int
accepts_gzip(const char *ae)
{
	for (const char *p = ae; p && (p = strstr(p, "gzip")) != NULL; p += 4) {
		const char *q = p + 4;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q != ';')
			return 1;
		q++;
		while (*q == ' ' || *q == '\t')
			q++;
		if (strncmp(q, "q=0", 3) != 0 || strspn(q + 3, ".0") != strcspn(q + 3, ",; \t"))
			return 1;
	}
	return 0;
}

/* Resolves a request path to a regular file inside the root: 0 and its
 * real path and stat, or -1. */
static int
resolve(const char *path, char real[PATH_MAX], struct stat *sb)
{
	char want[PATH_MAX];
	size_t plen = strlen(path);

	if (path[0] != '/' || !path_is_clean(path))
		return -1;
	if (snprintf(want, sizeof(want), "%s%s%s", root, path,
	             path[plen - 1] == '/' ? "index.html" : "") >= (int)sizeof(want))
		return -1;
	if (!realpath(want, real) || strncmp(real, root, root_len) != 0 ||
	    real[root_len] != '/')
		return -1;
	if (stat(real, sb) != 0)
		return -1;
	if (S_ISDIR(sb->st_mode)) {
		/* "/lobby" names the folder's page, as "/lobby/" does. */
		size_t rlen = strlen(real);
		if (rlen + sizeof("/index.html") > PATH_MAX)
			return -1;
		memcpy(real + rlen, "/index.html", sizeof("/index.html"));
		if (stat(real, sb) != 0)
			return -1;
	}
	if (!S_ISREG(sb->st_mode) || (size_t)sb->st_size > WP_STATIC_MAX)
		return -1;
	return 0;
}

/* The file as it is on disk now, from memory when it has not changed. */
static struct kept *
load(const char *path, enum wp_err *err)
{
	struct kept *k = kept_get(path);
	struct stat sb;

	*err = WP_ERR_NOT_FOUND;
	if (k) {
		/* The resolved path is kept; one stat() says it is unchanged. */
		if (stat(k->real, &sb) == 0 && same_file(&sb, &k->sb))
			return k;
		kept_put(k);
	}
	if (!(k = calloc(1, sizeof(*k))))
		return *err = WP_ERR_INTERNAL, NULL;
	k->refs = 1;
	if (resolve(path, k->real, &k->sb) != 0 || !(k->key = strdup(path))) {
		kept_put(k);
		return NULL;
	}
	k->len = (size_t)k->sb.st_size;
	if (!(k->body = slurp(k->real, k->len))) {
		*err = errno == ENOMEM ? WP_ERR_INTERNAL : WP_ERR_NOT_FOUND;
		kept_put(k);
		return NULL;
	}
	k->type = wp_mime_type(k->real);
	snprintf(k->etag, sizeof(k->etag), "\"%llx-%llx\"", (unsigned long long)k->sb.st_size,
	         (unsigned long long)k->sb.st_mtim.tv_sec * 1000000000ull +
	             (unsigned long long)k->sb.st_mtim.tv_nsec);
	/* Another representation, another strong validator. */
	snprintf(k->etag_gz, sizeof(k->etag_gz), "%.*s-gz\"", (int)strlen(k->etag) - 1, k->etag);
	if (k->len <= WP_STATIC_KEEP) {
		gzip_of(k);
		kept_set(k);
	}
	return k;
}

enum wp_err
wp_static_serve(const struct wp_request *req, const char *path, struct wp_response *res)
{
	const char *inm;
	enum wp_err err;
	struct kept *k;

	if (!root_len)
		return WP_ERR_NOT_FOUND;
	if (!(k = load(path, &err)))
		return err;
	int gz = k->gz && accepts_gzip(wp_request_header(req, "Accept-Encoding"));
	const char *etag = gz ? k->etag_gz : k->etag;
	wp_response_header(res, "ETag", etag);
	/* Assets carry no version in their names: revalidate every time, and
	 * the ETag makes that a 304 without a body. */
	wp_response_header(res, "Cache-Control", "no-cache");
	wp_response_header(res, "Content-Type", k->type);
	if (k->gz) {
		wp_response_header(res, "Vary", "Accept-Encoding");
		if (gz)
			wp_response_header(res, "Content-Encoding", "gzip");
	}
	/* The board loads only its own scripts and styles; its SVG sets style
	 * attributes and the notification favicon is a data: URL, hence
	 * 'unsafe-inline' for styles and data: for images. */
	wp_response_header(res, "Content-Security-Policy", WP_STATIC_CSP);
	wp_response_header(res, "Referrer-Policy", "no-referrer");
	wp_response_header(res, "X-Frame-Options", "DENY");
	inm = wp_request_header(req, "If-None-Match");
	err = WP_OK;
	if (inm && etag_matches(inm, etag)) {
		res->status = 304;
	} else {
		size_t n = gz ? k->gzlen : k->len;
		res->body = malloc(n ? n : 1);
		if (res->body) {
			memcpy(res->body, gz ? k->gz : k->body, n);
			res->body_len = n;
			res->status = 200;
		} else {
			err = WP_ERR_INTERNAL;
		}
	}
	kept_put(k);
	return err;
}
