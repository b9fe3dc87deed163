/* wp-svg2png: the server's SVG-to-PNG rendering (srv/api/board_png.c) as
 * a filter, SVG on stdin, PNG on stdout, for the API tests: a board.png
 * served to a viewer must be exactly this rendering of the board.svg
 * served to the same viewer. Exit 2 when the build has no librsvg, 1 when
 * the SVG does not render (why on stderr). */
#include <stdio.h>
#include <stdlib.h>

#include "board_png.h"

int
main(void)
{
	size_t len = 0, cap = 1 << 16, n;
	char *svg = malloc(cap), why[160];
	unsigned char *png;
	size_t pnglen;

	if (!wp_png_available()) {
		fprintf(stderr, "built without librsvg\n");
		return 2;
	}
	while (svg && (n = fread(svg + len, 1, cap - len, stdin)) > 0) {
		len += n;
		if (len == cap) {
			char *more = realloc(svg, cap *= 2);
			if (!more)
				break;
			svg = more;
		}
	}
	if (!svg || wp_svg_png(svg, len, &png, &pnglen, why, sizeof(why)) != 0) {
		fprintf(stderr, "%s\n", svg ? why : "out of memory");
		free(svg);
		return 1;
	}
	fwrite(png, 1, pnglen, stdout);
	free(png);
	free(svg);
	return 0;
}
