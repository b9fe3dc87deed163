/* warpostd-test: warpostd with the test ruleset registered. Only the
 * tests run it; the product binary never offers "skirmish-test". */
#include "fronts.h"
#include "tr.h"

int
main(int argc, char **argv)
{
	if (wr_ruleset_register(&tr_ruleset) != 0)
		return 1;
	return wp_main(argc, argv);
}
