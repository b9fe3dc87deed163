/* warpost-test: `warpost` linked with the test registry. */
#include "replay.h"

int
main(int argc, char **argv)
{
	return wp_cli(argc, argv);
}
