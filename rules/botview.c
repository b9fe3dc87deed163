/* Lenient view readers for the determinize hooks (botview.h). */
#include <string.h>

#include "botview.h"

json_object *
wr_v_get(json_object *o, const char *key)
{
	json_object *v = NULL;
	if (!o || !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

int
wr_v_int(json_object *o, const char *key, int def)
{
	json_object *v = wr_v_get(o, key);
	return v && (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_boolean))
	           ? json_object_get_int(v)
	           : def;
}

int
wr_v_bool(json_object *o, const char *key, int def)
{
	return wr_v_int(o, key, def) != 0;
}

const char *
wr_v_str(json_object *o, const char *key)
{
	json_object *v = wr_v_get(o, key);
	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

int
wr_v_sq(json_object *o, const char *key, const struct wr_board *b)
{
	const char *s = wr_v_str(o, key);
	return s ? wr_square_parse(b, s) : -1;
}

int
wr_v_name(json_object *o, const char *key, const char *const *names, int n, int def)
{
	const char *s = wr_v_str(o, key);
	int i = s ? wr_json_name_index(s, names, n) : -1;
	return i >= 0 ? i : def;
}

json_object *
wr_v_array(json_object *o, const char *key, size_t *n)
{
	json_object *v = wr_v_get(o, key);
	if (!v || !json_object_is_type(v, json_type_array)) {
		*n = 0;
		return NULL;
	}
	*n = json_object_array_length(v);
	return v;
}

void *
wr_bot_finish(const struct wr_ruleset *rs, void *take_st, struct wr_error *err)
{
	json_object *snap;
	void *out = NULL;
	struct wr_error e;

	if (!take_st) {
		wr_fail(err, "no-memory", "", "out of memory");
		return NULL;
	}
	snap = rs->save(take_st);
	rs->free(take_st);
	if (!snap || rs->load(snap, &out, &e) != 0) {
		wr_fail(err, "bad-view", "", "the view does not make a %s state (%s)", rs->id,
		        snap ? e.message : "no snapshot");
		out = NULL;
	}
	json_object_put(snap);
	return out;
}

void
wr_bot_shuffle(int *v, int n, struct wr_rng *rng)
{
	for (int i = n - 1; i > 0; i--) {
		int j = (int)rng->next(rng, (uint32_t)i + 1), t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
}

int
wr_bot_awaited(const struct wr_ruleset *rs, const void *st)
{
	unsigned m = rs->to_act(st);
	for (int s = 0; s < WR_MAX_SEATS; s++)
		if (m & (1u << s))
			return s;
	return -1;
}

double
wr_bot_share(double mine, double theirs, double k)
{
	return 0.5 + (mine - theirs) / (2 * (mine + theirs + k));
}
