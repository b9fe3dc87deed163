/* The PNG of a board (issue 14, "Board image"): the SVG document that
 * board_svg.c draws, rendered by librsvg (Debian's librsvg2-2) into a
 * cairo image surface and written as PNG. Built only when CMake finds
 * librsvg-2.0 (WP_HAVE_RSVG); without it the endpoint answers 501. One
 * rendering at a time per process: librsvg's text layout goes through
 * fontconfig and Pango, whose caches are shared, and a board is a few
 * milliseconds of work. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board_png.h"

#ifdef WP_HAVE_RSVG

#include <math.h>
#include <pthread.h>

#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <librsvg/rsvg.h>

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

	h = rsvg_handle_new_from_data((const guint8 *)svg, len, &error);
	if (!h) {
		snprintf(why, cap, "the SVG does not parse: %s", error ? error->message : "?");
		goto out;
	}
	if (!rsvg_handle_get_intrinsic_size_in_pixels(h, &w, &hgt) || !(w >= 1 && hgt >= 1)) {
		snprintf(why, cap, "the SVG has no size in pixels");
		goto out;
	}
	if (w > WP_PNG_MAX_SIDE || hgt > WP_PNG_MAX_SIDE) {
		snprintf(why, cap, "the image would be %.0fx%.0f pixels, over %d", w, hgt,
		         WP_PNG_MAX_SIDE);
		goto out;
	}
	surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)ceil(w), (int)ceil(hgt));
	cr = cairo_create(surface);
	if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
		snprintf(why, cap, "out of memory");
		goto out;
	}
	RsvgRectangle viewport = {0, 0, w, hgt};
	if (!rsvg_handle_render_document(h, cr, &viewport, &error)) {
		snprintf(why, cap, "the SVG does not render: %s", error ? error->message : "?");
		goto out;
	}
	cairo_surface_flush(surface);
	if (cairo_surface_write_to_png_stream(surface, png_write, &b) != CAIRO_STATUS_SUCCESS ||
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
		cairo_destroy(cr);
	if (surface)
		cairo_surface_destroy(surface);
	if (h)
		g_object_unref(h);
	if (error)
		g_error_free(error);
	return rc;
}

int
wp_svg_png(const char *svg, size_t len, unsigned char **png, size_t *pnglen, char *why,
           size_t cap)
{
	int rc;

	*png = NULL;
	*pnglen = 0;
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

	/* Before Pango's first use: its own FcInit() then finds it done. */
	if (!FcInit())
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
