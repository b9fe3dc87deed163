/* SVG to PNG for GET /api/games/{id}/board.png (board_png.c). Also linked
 * by the tests' renderer (tests/unit/svg2png.c), so they can check that a
 * served PNG is exactly the rendering of the SVG served to the same
 * viewer. */
#ifndef WP_BOARD_PNG_H
#define WP_BOARD_PNG_H

#include <stddef.h>

/* The largest width or height rendered, in pixels. */
#define WP_PNG_MAX_SIDE 2048

/* 1 when this build renders PNG (librsvg found when it was configured). */
int wp_png_available(void);
/* Renders an SVG document (with a width and height in pixels, at most
 * WP_PNG_MAX_SIDE each) to PNG: 0 and *png (malloc'd, *pnglen bytes), or
 * -1 and why. Thread-safe (one rendering at a time). */
int wp_svg_png(const char *svg, size_t len, unsigned char **png, size_t *pnglen, char *why,
               size_t cap);
/* Initialises fontconfig, then Pango's font map by rendering a line of
 * text, so that nothing of theirs is still starting when the first image
 * renders (Pango runs FcInit() on a thread of its own: issue 24). The
 * renderer process calls it before its first request. */
void wp_png_fonts_init(void);

#endif
