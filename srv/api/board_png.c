/* The PNG of a board (issue 14, "Board image"): the SVG document that
 * board_svg.c draws, rendered by librsvg (Debian's librsvg2-2) into a
 * cairo image surface and written as PNG. Built only when CMake finds
 * librsvg-2.0 (WP_HAVE_RSVG); without it the endpoint answers 501. One
 * rendering at a time per process: librsvg's text layout goes through
 * fontconfig and Pango, whose caches are shared, and a board is a few
 * milliseconds of work.
 *
 * librsvg and what it uses (cairo, Pango, fontconfig, GLib: about 40
 * shared libraries) are loaded with dlopen() when the renderer process
 * (png_render.c) starts (wp_png_fonts_init), not linked: only it renders,
 * and every other start of warpostd or warpost then skips loading them
 * (measured: 53 against 28 ms of CPU for `warpostd --version`, and 1.4 MiB
 * less private memory in a running server). The headers give the types. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board_png.h"

#ifdef WP_HAVE_RSVG

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>

#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <librsvg/rsvg.h>

/* The functions used, each of the type its header declares; looked up in
 * the library of the given soname (the ABI's, stable since librsvg 2.x,
 * cairo 1.x, GLib 2.x, fontconfig 2.x). */
#define WP_RSVG_FUNCS(X)                                                  \
	X(rsvg_handle_new_from_data, "librsvg-2.so.2")                    \
	X(rsvg_handle_get_intrinsic_size_in_pixels, "librsvg-2.so.2")     \
	X(rsvg_handle_render_document, "librsvg-2.so.2")                  \
	X(cairo_image_surface_create, "libcairo.so.2")                    \
	X(cairo_create, "libcairo.so.2")                                  \
	X(cairo_status, "libcairo.so.2")                                  \
	X(cairo_destroy, "libcairo.so.2")                                 \
	X(cairo_surface_destroy, "libcairo.so.2")                         \
	X(cairo_surface_flush, "libcairo.so.2")                           \
	X(cairo_surface_write_to_png_stream, "libcairo.so.2")             \
	X(g_object_unref, "libgobject-2.0.so.0")                          \
	X(g_error_free, "libglib-2.0.so.0")                               \
	X(FcInit, "libfontconfig.so.1")

static struct {
#define WP_RSVG_FIELD(name, lib) __typeof__(name) *name;
	WP_RSVG_FUNCS(WP_RSVG_FIELD)
#undef WP_RSVG_FIELD
} lib;
static pthread_once_t lib_once = PTHREAD_ONCE_INIT;
static char lib_error[128];   /* empty when every function was found */

static void
lib_load(void)
{
	const char *open_so = NULL;   /* the library h holds: one dlopen() each */
	void *h = NULL;

#define WP_RSVG_LOAD(name, so)                                                             \
	if (!lib_error[0]) {                                                               \
		if (!open_so || strcmp(open_so, so) != 0) {                                \
			h = dlopen(so, RTLD_NOW | RTLD_LOCAL);                             \
			open_so = so;                                                      \
		}                                                                          \
		const char *e = h ? NULL : dlerror();                                      \
		if (h && !(lib.name = (__typeof__(name) *)dlsym(h, #name)))               \
			e = dlerror();                                                     \
		if (e || !lib.name)                                                        \
			snprintf(lib_error, sizeof(lib_error), "librsvg cannot be loaded (%s): %s", \
			         so, e ? e : #name " not found");                          \
	}
	WP_RSVG_FUNCS(WP_RSVG_LOAD)
#undef WP_RSVG_LOAD
}

/* 0 when librsvg is loaded; else why not, in why. */
static int
lib_ready(char *why, size_t cap)
{
	pthread_once(&lib_once, lib_load);
	if (!lib_error[0])
		return 0;
	snprintf(why, cap, "%s", lib_error);
	return -1;
}

static pthread_mutex_t render_lock = PTHREAD_MUTEX_INITIALIZER;

/* LeakSanitizer (the WP_SANITIZE build) reads this: fontconfig keeps its
 * configuration and font patterns for the life of the process, which
 * LeakSanitizer reports at exit as leaks. Nothing in them is ours. */
const char *__lsan_default_suppressions(void);
const char *
__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\n";
}

/* ThreadSanitizer (the WP_TSAN build) reads this. Pango hands fontconfig
 * results over from threads of its own ("[pango] FcFontSetMatch") through
 * GLib's mutexes and conditions, which are futexes that ThreadSanitizer
 * does not see: every handover reads as a race. They happen only in the
 * renderer process (png_render.c), whose crash costs one image. */
const char *__tsan_default_suppressions(void);
const char *
__tsan_default_suppressions(void)
{
	return "race:libpangoft2-1.0.so\n"
	       "race:libfontconfig.so\n";
}

int
wp_png_available(void)
{
	return 1;
}

struct png_buf {
	unsigned char *data;
	size_t len, cap;
	int oom;
};

static cairo_status_t
png_write(void *closure, const unsigned char *data, unsigned int n)
{
	struct png_buf *b = closure;

	if (b->len + n > b->cap) {
		size_t want = (b->len + n) * 2 + 4096;
		unsigned char *nb = realloc(b->data, want);
		if (!nb) {
			b->oom = 1;
			return CAIRO_STATUS_NO_MEMORY;
		}
		b->data = nb;
		b->cap = want;
	}
	memcpy(b->data + b->len, data, n);
	b->len += n;
	return CAIRO_STATUS_SUCCESS;
}

static int
render(const char *svg, size_t len, unsigned char **png, size_t *pnglen, char *why, size_t cap)
{
	GError *error = NULL;
	RsvgHandle *h;
	cairo_surface_t *surface = NULL;
	cairo_t *cr = NULL;
	struct png_buf b = {0};
	double w = 0, hgt = 0;
	int rc = -1;

	h = lib.rsvg_handle_new_from_data((const guint8 *)svg, len, &error);
	if (!h) {
		snprintf(why, cap, "the SVG does not parse: %s", error ? error->message : "?");
		goto out;
	}
	if (!lib.rsvg_handle_get_intrinsic_size_in_pixels(h, &w, &hgt) || !(w >= 1 && hgt >= 1)) {
		snprintf(why, cap, "the SVG has no size in pixels");
		goto out;
	}
	if (w > WP_PNG_MAX_SIDE || hgt > WP_PNG_MAX_SIDE) {
		snprintf(why, cap, "the image would be %.0fx%.0f pixels, over %d", w, hgt,
		         WP_PNG_MAX_SIDE);
		goto out;
	}
	surface = lib.cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)ceil(w), (int)ceil(hgt));
	cr = lib.cairo_create(surface);
	if (lib.cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
		snprintf(why, cap, "out of memory");
		goto out;
	}
	RsvgRectangle viewport = {0, 0, w, hgt};
	if (!lib.rsvg_handle_render_document(h, cr, &viewport, &error)) {
		snprintf(why, cap, "the SVG does not render: %s", error ? error->message : "?");
		goto out;
	}
	lib.cairo_surface_flush(surface);
	if (lib.cairo_surface_write_to_png_stream(surface, png_write, &b) != CAIRO_STATUS_SUCCESS ||
	    b.oom) {
		snprintf(why, cap, "the PNG could not be written");
		goto out;
	}
	*png = b.data;
	*pnglen = b.len;
	b.data = NULL;
	rc = 0;
out:
	free(b.data);
	if (cr)
		lib.cairo_destroy(cr);
	if (surface)
		lib.cairo_surface_destroy(surface);
	if (h)
		lib.g_object_unref(h);
	if (error)
		lib.g_error_free(error);
	return rc;
}

int
wp_svg_png(const char *svg, size_t len, unsigned char **png, size_t *pnglen, char *why,
           size_t cap)
{
	int rc;

	*png = NULL;
	*pnglen = 0;
	if (lib_ready(why, cap) != 0)
		return -1;
	pthread_mutex_lock(&render_lock);
	rc = render(svg, len, png, pnglen, why, cap);
	pthread_mutex_unlock(&render_lock);
	return rc;
}

void
wp_png_fonts_init(void)
{
	static const char text[] =
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"20\">"
		"<text x=\"2\" y=\"14\" font-size=\"11\">a1 \xc2\xb7</text></svg>";
	unsigned char *png = NULL;
	size_t n = 0;
	char why[160];

	if (lib_ready(why, sizeof(why)) != 0) {
		fprintf(stderr, "board.png: %s\n", why);
		return;
	}
	/* Before Pango's first use: its own FcInit() then finds it done. */
	if (!lib.FcInit())
		fprintf(stderr, "board.png: fontconfig did not initialise\n");
	if (wp_svg_png(text, sizeof(text) - 1, &png, &n, why, sizeof(why)) != 0)
		fprintf(stderr, "board.png: the warm-up image did not render: %s\n", why);
	free(png);
}

#else /* !WP_HAVE_RSVG */

void
wp_png_fonts_init(void)
{
}

int
wp_png_available(void)
{
	return 0;
}

int
wp_svg_png(const char *svg, size_t len, unsigned char **png, size_t *pnglen, char *why,
           size_t cap)
{
	(void)svg;
	(void)len;
	*png = NULL;
	*pnglen = 0;
	snprintf(why, cap, "this server was built without librsvg: no PNG images");
	return -1;
}

#endif
