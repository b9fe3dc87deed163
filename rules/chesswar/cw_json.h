/*
 * What ChessWar's two JSON files share (cw_codec.c, cw_snapshot.c): short
 * names for rules/json.c's writers, and the snapshot's entry points.
 * Private to them.
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

/* `k` is a string literal or a name of the army tables (rules/json.c). */
static inline void
put(json_object *o, const char *k, json_object *v)
{
	wr_json_put(o, k, v);
}

static inline json_object *
jsq(const struct cw_state *st, int sq)
{
	return wr_json_sq(&st->board, sq);
}

json_object *cw_snapshot(const void *state);
void cw_save_out(const void *state, struct wr_out *w);
int cw_load(json_object *snap, void **state, struct wr_error *err);

#endif
