/* The results the service records itself (replay.h). */
#include "replay.h"

/* A match ended without the rules deciding (a draw agreed, an abort), as
 * the service records it: api/posts.c and every replay. */
json_object *
wp_result_by(const char *reason, int draw)
{
	json_object *r = json_object_new_object();

	json_object_object_add(r, "winners", json_object_new_array());
	json_object_object_add(r, "draw", json_object_new_boolean(draw));
	json_object_object_add(r, "reason", json_object_new_string(reason));
	return r;
}

json_object *
wp_result_adjudicated(json_object *content, int nseats)
{
	json_object *w;

	if (!json_object_object_get_ex(content, "winner", &w))
		return NULL;
	if (!w)
		return wp_result_by("adjudication", 1);
	int seat = json_object_get_int(w);
	if (!json_object_is_type(w, json_type_int) || seat < 0 || seat >= nseats)
		return NULL;
	json_object *r = wp_result_by("adjudication", 0);
	json_object *winners;
	json_object_object_get_ex(r, "winners", &winners);
	json_object_array_add(winners, json_object_new_int(seat));
	return r;
}
