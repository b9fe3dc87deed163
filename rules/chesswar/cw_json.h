/*
 * What ChessWar's two JSON files share (cw_codec.c, cw_snapshot.c): the
 * small constructors and the snapshot's entry points. Private to them.
 */
#ifndef CW_JSON_H
#define CW_JSON_H

#include "cw_rules.h"

static inline json_object *
jstr(const char *s)
{
	return json_object_new_string(s);
}

static inline json_object *
jint(int v)
{
	return json_object_new_int(v);
}

static inline void
put(json_object *o, const char *k, json_object *v)
{
	json_object_object_add(o, k, v);
}

static inline json_object *
jsq(const struct cw_state *st, int sq)
{
	if (sq < 0)
		return NULL;
	return wr_json_square_new(&st->board, sq);
}

json_object *cw_snapshot(const void *state);
int cw_load(json_object *snap, void **state, struct wr_error *err);

#endif
