/* warpost-test: `warpost` with the test ruleset registered. */
#include "replay.h"
#include "tr.h"

int
main(int argc, char **argv)
{
	if (wr_ruleset_register(&tr_ruleset) != 0)
		return 2;
	return wp_cli(argc, argv);
}
