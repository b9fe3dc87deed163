/* warpost: offline tools (see cli.c). */
#include "replay.h"

int
main(int argc, char **argv)
{
	return wp_cli(argc, argv);
}
