/* warpostd-test: warpostd linked with the test registry (registry.c built
 * with WR_TEST_RULESETS), so it also offers "skirmish-test". Only the
 * tests run it; the product binary never does. */
#include "fronts.h"

int
main(int argc, char **argv)
{
	return wp_main(argc, argv);
}
