/* Fuzz target: the strict JSON body parser. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "core.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char why[160];
	json_object *o = NULL;
	int rc = wp_json_parse((const char *)data, size, &o, why, sizeof(why));

	if (rc != 0 && o)
		abort(); /* a failure never hands out a tree */

	if (o) {
		const char *key = NULL;
		if (wp_json_find_nul(o, &key) && !key)
			abort(); /* a NUL found is always placed */
		(void)json_object_to_json_string(o);
	}
	json_object_put(o);
	return 0;
}
