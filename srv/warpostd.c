/* warpostd: the Warpost service (see service.c). */
#include "fronts.h"

int
main(int argc, char **argv)
{
	return wp_main(argc, argv);
}
