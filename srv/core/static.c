/* Static files of the board (web/), with validators for caching
 * (RFC 9110, 8.8.3 and 13.1.2). Paths are resolved with realpath() and
 * must stay inside the web root, so neither "..", encoded dots nor a
 * symlink can reach a file outside it. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pthread.h>
#include <zlib.h>

#include "core.h"

/* Board assets are small; anything larger is not ours to serve. */
#define WP_STATIC_MAX (16u * 1024 * 1024)

#define WP_STATIC_IMMUTABLE "public, max-age=31536000, immutable"
/* Scripts from the server, and the one inline script of web/index.html
 * (the match page's first reads, started as the page is parsed) by the
 * SHA-256 of its text: a change to that script must change this hash, and
 * nginx/warpost.conf.in's (tests/api/test_reliability.py checks both). */
#define WP_STATIC_SCRIPT_HASH "'sha256-B4vAsQoq7k0aYJZ9gwrPGHYoeIafGxrtg9VvSTULt+8='"
#define WP_STATIC_CSP                                                                   \
	"default-src 'self'; script-src 'self' " WP_STATIC_SCRIPT_HASH "; "                \
	"img-src 'self' data:; style-src 'self' 'unsafe-inline'; "                         \
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
/* A file named by a hash of its content (the bundle's app-<12 hex>.js,
 * style-<12 hex>.css, scripts/webbuild): a new content is a new name, so a
 * browser may keep it for a year without asking again. */
static int
content_named(const char *path)
{
	const char *base = strrchr(path, '/');
	const char *dot;

	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	if (!dot || (strcmp(dot, ".js") != 0 && strcmp(dot, ".css") != 0) || dot - base < 14)
		return 0;
	return dot[-13] == '-' && strspn(dot - 12, "0123456789abcdef") == 12;
}

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
slurp(int fd, size_t size)
{
	char *buf = malloc(size ? size : 1);
	size_t got = 0;

	while (buf && got < size) {
		ssize_t n = pread(fd, buf + got, size - got, (off_t)got);
		if (n <= 0) {
			free(buf);
			buf = NULL;
		} else {
			got += (size_t)n;
		}
	}
	return buf;
}

/* ------------------------------------------------------------ in memory */

/* Files of up to WP_STATIC_KEEP bytes are kept in memory with their ETag
 * and, for text, a gzip copy made once (issue "Performance"). The file
 * stays open: an fstat() (no path to walk) sees it written in place or
 * replaced (renamed over or deleted: no link left), and a stat() of the
 * resolved path at most every WP_STATIC_RECHECK_NS sees another file put
 * at that path otherwise (a swapped directory). The fstat() is made for a
 * request that begins WP_STATIC_FRESH_NS or more after the last check
 * that found the file unchanged began; requests closer together than that
 * share it (issue 32: at 100,000 requests a second of one file, the
 * fstat() of each was 7.6% of warpostd's CPU). So a change is served to
 * every request that begins 50 microseconds after it, which no person
 * editing a file and no deployment replacing one can tell from at once. */
#define WP_STATIC_KEEP (1u << 20)
#define WP_STATIC_SLOTS 256
#define WP_STATIC_RECHECK_NS 1000000000LL
#define WP_STATIC_FRESH_NS 50000LL

/* The codings a kept file is sent in, the client's choice among them
 * the last it takes (the smallest): GZIP the build's copy of a
 * content-named file or else made here once (gzip_of), BR the build's
 * copy (copy_beside). */
enum { AS_IS, GZIP, BR, WP_CODINGS };
static const char *const coding_names[WP_CODINGS] = {NULL, "gzip", "br"};
static const char *const etag_suffixes[WP_CODINGS] = {"", "-gz", "-br"};

struct kept {
	char *key;               /* the request's path */
	char real[PATH_MAX];
	struct stat sb;
	int fd;                  /* the file, open (-1: none) */
	int64_t checked_ns;      /* atomic: the last stat() of real */
	int64_t seen_ns;         /* atomic: when the last check began that found it */
	uint64_t serial;         /* names this version for fixed answers */
	const char *type;
	struct {                 /* the file as it is, and its compressed copies */
		char *body;      /* NULL: no such copy */
		size_t len;
		char etag[72];   /* each its own strong validator */
	} as[WP_CODINGS];
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
		if (k->fd >= 0)
			close(k->fd);
		free(k->key);
		for (int c = 0; c < WP_CODINGS; c++)
			free(k->as[c].body);
		free(k);
	}
}

/* A response's reference, as wp_response.lent_put takes it. */
static void
lent_put(void *lent)
{
	kept_put(lent);
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
	size_t len = k->as[AS_IS].len;
	uLong cap = compressBound((uLong)len) + 32;
	char *gz;

	if (!compressible(k->type) || len < 256 || !(gz = malloc(cap)))
		return;
	if (deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(gz);
		return;
	}
	z.next_in = (Bytef *)k->as[AS_IS].body;
	z.avail_in = (uInt)len;
	z.next_out = (Bytef *)gz;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END || z.total_out >= len) {
		free(gz);
	} else {
		k->as[GZIP].body = gz;
		k->as[GZIP].len = z.total_out;
	}
	deflateEnd(&z);
}

static int
same_file(const struct stat *a, const struct stat *b)
{
	return a->st_ino == b->st_ino && a->st_dev == b->st_dev && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/* A content-named file's compressed copy in `coding`, which the bundle's
 * build (scripts/webbuild/build.mjs) writes beside it: NAME.br (brotli,
 * about 14% fewer bytes than gzip's for the bundle, which a phone on a
 * slow network waits for before the board can be drawn, issue 32) and
 * NAME.gz (the copy nginx sends, gzip_static). Compressing that well
 * takes about a second for brotli, so it is made once, by the build, not
 * here; gzip_of makes the gzip copy only where the build wrote none. A
 * copy older than its file, not smaller, or a symbolic link (which could
 * lead out of the root) is not taken. */
static void
copy_beside(struct kept *k, int coding, const char *suffix)
{
	char p[PATH_MAX];
	struct stat sb;
	int fd;

	if (snprintf(p, sizeof(p), "%s%s", k->real, suffix) >= (int)sizeof(p) ||
	    (fd = open(p, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) < 0)
		return;
	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0 &&
	    (size_t)sb.st_size < k->as[AS_IS].len &&
	    (sb.st_mtim.tv_sec > k->sb.st_mtim.tv_sec ||
	     (sb.st_mtim.tv_sec == k->sb.st_mtim.tv_sec &&
	      sb.st_mtim.tv_nsec >= k->sb.st_mtim.tv_nsec)) &&
	    (k->as[coding].body = slurp(fd, (size_t)sb.st_size)) != NULL)
		k->as[coding].len = (size_t)sb.st_size;
	close(fd);
}

/* Accept-Encoding names the coding (one of its list's items; for gzip
 * also x-gzip) with a weight above 0 (RFC 9110, 12.5.3). */
static int
accepts_coding(const char *ae, const char *coding)
{
	size_t n = strlen(coding);

	for (const char *p = ae; p && (p = strstr(p, coding)) != NULL; p += n) {
		const char *q = p + n;
		const char *b = p >= ae + 2 && strncmp(p - 2, "x-", 2) == 0 ? p - 2 : p;
		if (b != ae && b[-1] != ',' && b[-1] != ' ' && b[-1] != '\t')
			continue;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q == '\0' || *q == ',')
			return 1;
		if (*q != ';')
			continue;
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

/* The kept file is still the one at its path (see WP_STATIC_KEEP). */
static int
still_same(struct kept *k)
{
	struct stat sb;
	int64_t now = wp_now_ns(), checked;

	if (now - __atomic_load_n(&k->seen_ns, __ATOMIC_RELAXED) < WP_STATIC_FRESH_NS)
		return 1;
	if (fstat(k->fd, &sb) != 0 || !same_file(&sb, &k->sb) || sb.st_nlink == 0)
		return 0;
	checked = __atomic_load_n(&k->checked_ns, __ATOMIC_RELAXED);
	if (now - checked >= WP_STATIC_RECHECK_NS) {
		if (stat(k->real, &sb) != 0 || !same_file(&sb, &k->sb))
			return 0;
		__atomic_store_n(&k->checked_ns, now, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&k->seen_ns, now, __ATOMIC_RELAXED);
	return 1;
}

/* The file as it is on disk now, from memory when it has not changed. */
static struct kept *
load(const char *path, enum wp_err *err)
{
	static uint64_t serials;
	struct kept *k = kept_get(path);

	*err = WP_ERR_NOT_FOUND;
	if (k) {
		if (still_same(k))
			return k;
		kept_put(k);
	}
	if (!(k = calloc(1, sizeof(*k))))
		return *err = WP_ERR_INTERNAL, NULL;
	k->refs = 1;
	k->fd = -1;
	if (resolve(path, k->real, &k->sb) != 0 || !(k->key = strdup(path)) ||
	    (k->fd = open(k->real, O_RDONLY | O_CLOEXEC)) < 0 ||
	    /* what is read is what the validators describe */
	    fstat(k->fd, &k->sb) != 0 || !S_ISREG(k->sb.st_mode) ||
	    (size_t)k->sb.st_size > WP_STATIC_MAX) {
		kept_put(k);
		return NULL;
	}
	k->checked_ns = wp_now_ns();
	k->seen_ns = k->checked_ns;
	k->serial = __atomic_add_fetch(&serials, 1, __ATOMIC_RELAXED);
	k->as[AS_IS].len = (size_t)k->sb.st_size;
	if (!(k->as[AS_IS].body = slurp(k->fd, k->as[AS_IS].len))) {
		*err = errno == ENOMEM ? WP_ERR_INTERNAL : WP_ERR_NOT_FOUND;
		kept_put(k);
		return NULL;
	}
	k->type = wp_mime_type(k->real);
	/* Another representation, another strong validator: "SIZE-MTIME",
	 * "SIZE-MTIME-gz", "SIZE-MTIME-br". */
	for (int c = 0; c < WP_CODINGS; c++)
		snprintf(k->as[c].etag, sizeof(k->as[c].etag), "\"%llx-%llx%s\"",
		         (unsigned long long)k->sb.st_size,
		         (unsigned long long)k->sb.st_mtim.tv_sec * 1000000000ull +
		             (unsigned long long)k->sb.st_mtim.tv_nsec,
		         etag_suffixes[c]);
	if (k->as[AS_IS].len <= WP_STATIC_KEEP) {
		if (content_named(path)) {
			copy_beside(k, BR, ".br");
			copy_beside(k, GZIP, ".gz");
		}
		if (!k->as[GZIP].body)
			gzip_of(k);
		kept_set(k);
	} else {
		k->serial = 0; /* read again each time: no fixed answer */
	}
	return k;
}

enum wp_err
wp_static_serve(const struct wp_request *req, const char *path, struct wp_response *res)
{
	const char *inm;
	enum wp_err err;
	struct kept *k;
	int bad = 0;             /* a header is missing: keep no fixed answer */

	if (!root_len)
		return WP_ERR_NOT_FOUND;
	if (!(k = load(path, &err)))
		return err;
	const char *ae = wp_request_header(req, "Accept-Encoding");
	int enc = AS_IS, compressed = 0;
	for (int c = AS_IS + 1; c < WP_CODINGS; c++) {
		compressed |= k->as[c].body != NULL;
		if (k->as[c].body && accepts_coding(ae, coding_names[c]))
			enc = c;
	}
	const char *etag = k->as[enc].etag;
	inm = wp_request_header(req, "If-None-Match");
	int not_modified = inm && etag_matches(inm, etag);
	/* Each version of a kept file has six answers: plain, gzip or
	 * brotli, 200 or 304; a front holding this one needs nothing more. */
	uint64_t key = k->serial ? k->serial << 3 | (uint64_t)enc << 1 | (uint64_t)not_modified : 0;
	if (key && req->has_fixed && req->has_fixed(key)) {
		res->status = not_modified ? 304 : 200;
		res->fixed = key;
		kept_put(k);
		return WP_OK;
	}
	bad |= wp_response_header(res, "ETag", etag);
	/* Other files carry no version in their names: revalidate every
	 * time, and the ETag makes that a 304 without a body. */
	bad |= wp_response_header(res, "Cache-Control", content_named(path) ? WP_STATIC_IMMUTABLE
	                                                                    : "no-cache");
	bad |= wp_response_header(res, "Content-Type", k->type);
	if (compressed) {
		bad |= wp_response_header(res, "Vary", "Accept-Encoding");
		if (enc != AS_IS)
			bad |= wp_response_header(res, "Content-Encoding", coding_names[enc]);
	}
	/* The board loads only its own scripts and styles; its SVG sets style
	 * attributes and the notification favicon is a data: URL, hence
	 * 'unsafe-inline' for styles and data: for images. */
	bad |= wp_response_header(res, "Content-Security-Policy", WP_STATIC_CSP);
	bad |= wp_response_header(res, "Referrer-Policy", "no-referrer");
	bad |= wp_response_header(res, "X-Frame-Options", "DENY");
	if (!bad)
		res->fixed = key;
	if (not_modified) {
		res->status = 304;
		kept_put(k);
		return WP_OK;
	}
	/* The bytes are lent, not copied (issue 26, HTTP): the response
	 * holds k until the front no longer sends them, so a newer version
	 * put in k's slot meanwhile frees nothing it points at. */
	res->body = k->as[enc].body;
	res->body_len = k->as[enc].len;
	res->lent_put = lent_put;
	res->lent = k;
	res->status = 200;
	return WP_OK;
}
