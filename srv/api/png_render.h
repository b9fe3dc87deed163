/* board.png in a worker process, and the cache of rendered images
 * (png_render.c; issue 24, items 1 and 5). */
#ifndef WP_PNG_RENDER_H
#define WP_PNG_RENDER_H

#include <stddef.h>

/* argv[1] that makes warpostd the renderer (service.c). */
#define WP_RENDER_WORKER_ARG "--render-worker"

enum {
	WP_RENDER_OK = 0,
	WP_RENDER_REFUSED = -1,   /* the SVG did not render (why says why) */
	WP_RENDER_DOWN = -2,      /* the renderer died or did not answer: 503 */
};

/* The renderer's loop, on fd 3; never returns. */
int wp_render_worker_main(void);
/* Takes RENDER_TIMEOUT_MS, PNG_CACHE_BYTES and PNG_RENDER_COST from
 * cfg and, with `now` and RENDER_PRESTART, starts the renderer before
 * serving (a build without librsvg starts none; CGI, one process a
 * request, starts it only for an image and keeps no images; without
 * RENDER_PRESTART the first image starts it). 0, or -1 when it cannot
 * start (the first image tries again). */
struct wp_config;
int wp_render_start(const struct wp_config *cfg, int now);
/* What one render counts in RATE_LIMIT_REQUESTS (PNG_RENDER_COST). */
unsigned wp_render_cost(void);
/* Ends the renderer and forgets the kept images. */
void wp_render_stop(void);
/* An SVG rendered to PNG by the renderer: WP_RENDER_OK and *png
 * (malloc'd), or WP_RENDER_REFUSED / WP_RENDER_DOWN and why. One at a
 * time; a renderer that died is replaced at the next call. */
int wp_render_png(const char *svg, size_t len, unsigned char **png, size_t *pnglen, char *why,
                  size_t cap);

/* Rendered images by key (the image's ETag), least recently used out
 * first within the limit (PNG_CACHE_BYTES; 0 keeps none). get copies
 * into *png (malloc'd): 1, or 0 when not kept. */
void wp_png_cache_limit(size_t bytes);
int wp_png_cache_get(const char *key, unsigned char **png, size_t *len);
void wp_png_cache_put(const char *key, const unsigned char *png, size_t len);

#endif
