/* Where two JSON documents first differ (replay.h): verify names the
 * place in a final state that differs from the replay's. */
#include <stdio.h>
#include <string.h>

#include "replay.h"

/* Where two saved states first differ, as a path ("units[4][14]"), into
 * `path`; "" when they do not. Only the place is named, never the values:
 * an auditor learns which part of the state to look at. */
void
wp_json_first_difference(json_object *a, json_object *b, char *path, size_t size)
{
	size_t len = strlen(path);

	if (json_object_get_type(a) != json_object_get_type(b))
		return;
	if (json_object_is_type(a, json_type_object)) {
		json_object_object_foreach(a, key, va) {
			json_object *vb = NULL;
			if (!json_object_object_get_ex(b, key, &vb) || !json_object_equal(va, vb)) {
				snprintf(path + len, size - len, "%s%.64s", len ? "." : "", key);
				if (vb)
					wp_json_first_difference(va, vb, path, size);
				return;
			}
		}
		json_object_object_foreach(b, kb, vb2) {
			(void)vb2;
			if (!json_object_object_get_ex(a, kb, NULL)) {
				snprintf(path + len, size - len, "%s%.64s", len ? "." : "", kb);
				return;
			}
		}
	} else if (json_object_is_type(a, json_type_array)) {
		size_t na = json_object_array_length(a), nb = json_object_array_length(b);
		for (size_t i = 0; i < na && i < nb; i++) {
			json_object *va = json_object_array_get_idx(a, i),
			            *vb = json_object_array_get_idx(b, i);
			if (!json_object_equal(va, vb)) {
				snprintf(path + len, size - len, "[%zu]", i);
				wp_json_first_difference(va, vb, path, size);
				return;
			}
		}
	}
}
