/* A match's enums and the one G5 visibility rule (RULINGS.md G5) as the
 * service applies it: wr_visible over wp_viewer and wp_private_to. */
#include "check.h"
#include "match.h"

static void
test_enums(void)
{
	for (int s = 0; s < WP_STATUS_MAX; s++)
		CHECK(wp_status_parse(wp_status_str((enum wp_status)s)) == (enum wp_status)s,
		      "each status reads back");
	for (int k = 0; k < WP_POST_KIND_MAX; k++)
		CHECK(wp_post_kind_parse(wp_post_kind_str((enum wp_post_kind)k)) == (enum wp_post_kind)k,
		      "each post kind reads back");
	CHECK(wp_status_parse("paused") == WP_STATUS_MAX, "an unknown status is _MAX");
	CHECK(wp_post_kind_parse("") == WP_POST_KIND_MAX, "an unknown kind is _MAX");
	CHECK_STR(wp_status_str(WP_STATUS_ACTIVE), "active", "stored text of active");
	CHECK_STR(wp_post_kind_str(WP_POST_DRAW_DECLINE), "draw_decline", "stored text of a refusal");
}

static void
test_visibility(void)
{
	CHECK(wp_viewer(0, 1) == 1, "a seat sees as itself while playing");
	CHECK(wp_viewer(0, -1) == WR_SPECTATOR, "anyone else is a spectator");
	CHECK(wp_viewer(1, 0) == WR_EVERYONE, "at the end everything is revealed");
	CHECK(wr_visible(WR_VIS_PUBLIC, WR_SPECTATOR), "public: spectators see it");
	CHECK(wr_visible(wp_private_to(2), 2), "a seat sees its own");
	CHECK(!wr_visible(wp_private_to(2), 1), "another seat does not");
	CHECK(!wr_visible(wp_private_to(2), WR_SPECTATOR), "nor does a spectator");
	CHECK(wr_visible(wp_private_to(2), WR_EVERYONE), "until the end");
	for (int v = WR_EVERYONE; v < WR_MAX_SEATS; v++)
		CHECK(wr_visible(wp_private_to(-1), v) == (v == WR_EVERYONE),
		      "the server's secrets only at the end");
	CHECK(wr_visible(1u << 0 | 1u << 3, 3) && !wr_visible(1u << 0 | 1u << 3, 2),
	      "a mask of several seats");
}

int
main(void)
{
	test_enums();
	test_visibility();
	return check_done("match");
}
