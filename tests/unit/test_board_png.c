/* board.png's rendering (issue 14, "Board image"; srv/api/board_png.c):
 * a PNG with the SVG's size, the same bytes every time (the API test
 * compares a served PNG with a rendering of the served SVG), and clean
 * refusals of what it must not render: an image over WP_PNG_MAX_SIDE,
 * a document without a size, one that does not parse. Without librsvg
 * every rendering is refused with a reason. */
#include <stdlib.h>

#include "board_png.h"
#include "check.h"

static unsigned
be32(const unsigned char *p)
{
	return (unsigned)p[0] << 24 | (unsigned)p[1] << 16 | (unsigned)p[2] << 8 | p[3];
}

static int
render(const char *svg, unsigned char **png, size_t *len, char *why, size_t cap)
{
	return wp_svg_png(svg, strlen(svg), png, len, why, cap);
}

int
main(void)
{
	static const char small[] =
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"60\">"
		"<rect width=\"100\" height=\"60\" fill=\"#769656\"/>"
		"<text x=\"10\" y=\"40\" font-family=\"DejaVu Sans\" font-size=\"22\">K?</text></svg>";
	static const char huge[] =
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100000\" height=\"100000\">"
		"<rect width=\"100000\" height=\"100000\"/></svg>";
	static const char wide[] =
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"2049\" height=\"10\"/>";
	static const char *const bad[] = {
		"", "not xml at all", "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\"",
		"<svg xmlns=\"http://www.w3.org/2000/svg\"/>",   /* no size */
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"0\" height=\"10\"/>",
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"-5\" height=\"10\"/>",
	};
	unsigned char *png = NULL, *again = NULL;
	size_t len = 0, len2 = 0;
	char why[160];

	if (!wp_png_available()) {
		why[0] = '\0';
		CHECK(render(small, &png, &len, why, sizeof(why)) == -1 && !png && why[0],
		      "without librsvg nothing renders, and it says why");
		return check_done("board_png (built without librsvg)");
	}
	CHECK(render(small, &png, &len, why, sizeof(why)) == 0, "a small board renders");
	CHECK(png && len > 33 && memcmp(png, "\x89PNG\r\n\x1a\n", 8) == 0, "a PNG signature");
	CHECK(png && len > 33 && memcmp(png + 12, "IHDR", 4) == 0 && be32(png + 16) == 100 &&
	      be32(png + 20) == 60, "IHDR: the SVG's width and height");
	CHECK(render(small, &again, &len2, why, sizeof(why)) == 0 && len2 == len && again &&
	      memcmp(png, again, len) == 0, "the same SVG gives the same bytes");
	free(png);
	free(again);

	png = NULL;
	CHECK(render(huge, &png, &len, why, sizeof(why)) == -1 && !png && len == 0 &&
	      strstr(why, "over 2048"), "a huge image is refused before a surface is made");
	CHECK(render(wide, &png, &len, why, sizeof(why)) == -1 && !png, "one pixel too wide");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		CHECK(render(bad[i], &png, &len, why, sizeof(why)) == -1 && !png && why[0],
		      "a document that does not parse or has no size is refused with a reason");
	}
	return check_done("board_png");
}
