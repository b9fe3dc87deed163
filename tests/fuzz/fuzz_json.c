/* Fuzz target: the strict JSON body parser. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
		/* wp_json_text writes what json-c writes (issue 32). */
		int flags = JSON_C_TO_STRING_PLAIN | (size & 1 ? JSON_C_TO_STRING_NOSLASHESCAPE : 0);
		size_t len;
		const char *want = json_object_to_json_string_length(o, flags, &len);
		char *copy = malloc(len + 1);
		if (copy) {
			memcpy(copy, want, len + 1);
			const char *got = wp_json_text(o, flags);
			if (got && (strlen(got) != len || memcmp(got, copy, len) != 0))
				abort();
			free(copy);
		}
	}
	json_object_put(o);
	return 0;
}
