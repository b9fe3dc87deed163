/* What every ruleset's codec needs (STYLE.md): reading action and option
 * fields with their shape checked, and errors that name the field; writing
 * integers, strings, squares, option descriptions and event shells. A
 * codec says only what is its ruleset's own. Depends on nothing but
 * geom.c's square names. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rules.h"

int
wr_fail(struct wr_error *err, const char *code, const char *field, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	snprintf(err->code, sizeof(err->code), "%s", code);
	snprintf(err->field, sizeof(err->field), "%s", field ? field : "");
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	return -1;
}

/* The field's value in *v (NULL when absent or null); -1 when it is
 * required and missing. */
static int
field(json_object *obj, const char *key, int required, json_object **v, struct wr_error *err)
{
	if (!json_object_object_get_ex(obj, key, v) || json_object_is_type(*v, json_type_null)) {
		*v = NULL;
		if (required)
			return wr_fail(err, "missing-field", key, "%s: required", key);
	}
	return 0;
}

/* The field's value in *v when present and of the type: 1; 0 when absent
 * (then *out = def); -1 on an error. */
static int
typed(json_object *obj, const char *key, int required, json_type type, const char *what,
      json_object **v, struct wr_error *err)
{
	if (field(obj, key, required, v, err) != 0)
		return -1;
	if (!*v)
		return 0;
	if (!json_object_is_type(*v, type))
		return wr_fail(err, "wrong-type", key, "%s: must be %s", key, what);
	return 1;
}

int
wr_json_int(json_object *obj, const char *key, int min, int max, int required, int def,
            int *out, struct wr_error *err)
{
	json_object *v;
	int r = typed(obj, key, required, json_type_int, "a whole number", &v, err);

	if (r <= 0) {
		if (r == 0)
			*out = def;
		return r;
	}
	int64_t n = json_object_get_int64(v);
	if (n < min || n > max)
		return wr_fail(err, "out-of-range", key, "%s: must be from %d to %d", key, min, max);
	*out = (int)n;
	return 0;
}

int
wr_json_bool(json_object *obj, const char *key, int required, int def, int *out,
             struct wr_error *err)
{
	json_object *v;
	int r = typed(obj, key, required, json_type_boolean, "true or false", &v, err);

	if (r < 0)
		return -1;
	*out = r ? json_object_get_boolean(v) : def;
	return 0;
}

int
wr_json_string(json_object *obj, const char *key, int required, const char **out,
               struct wr_error *err)
{
	json_object *v;

	*out = NULL;
	if (field(obj, key, required, &v, err) != 0)
		return -1;
	if (!v)
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return wr_fail(err, "wrong-type", key, "%s: must be a string", key);
	*out = json_object_get_string(v);
	/* A \u0000 inside would silently shorten the C string. */
	if ((size_t)json_object_get_string_len(v) != strlen(*out)) {
		*out = NULL;
		return wr_fail(err, "wrong-type", key, "%s: must not contain NUL", key);
	}
	return 0;
}

int
wr_json_square(json_object *obj, const char *key, const struct wr_board *b, int *sq,
               struct wr_error *err)
{
	const char *s;

	if (wr_json_string(obj, key, 1, &s, err) != 0)
		return -1;
	*sq = wr_square_parse(b, s);
	if (*sq == WR_NO_SQUARE)
		return wr_fail(err, "not-a-square", key, "%s: \"%.8s\" is not a square of the board",
		               key, s);
	return 0;
}

int
wr_json_only(json_object *obj, const char *const *known, struct wr_error *err)
{
	if (!json_object_is_type(obj, json_type_object))
		return wr_fail(err, "wrong-type", "", "must be a JSON object");
	json_object_object_foreach(obj, key, val) {
		(void)val;
		int ok = 0;
		for (const char *const *k = known; *k && !ok; k++)
			ok = strcmp(*k, key) == 0;
		if (!ok)
			return wr_fail(err, "unknown-field", key, "%.48s: unknown field", key);
	}
	return 0;
}

json_object *
wr_json_square_new(const struct wr_board *b, int sq)
{
	char buf[8];
	return json_object_new_string(wr_square_name(b, sq, buf));
}

void
wr_json_put(json_object *obj, const char *static_key, json_object *take_value)
{
	json_object_object_add_ex(obj, static_key, take_value, JSON_C_OBJECT_ADD_CONSTANT_KEY);
}

json_object *
wr_json_ints(const int *v, int n)
{
	json_object *a = json_object_new_array_ext(n > 0 ? n : 0);
	for (int i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_int(v[i]));
	return a;
}

int
wr_json_read_ints(json_object *obj, const char *key, int *out, int min_n, int max_n, int lo,
                  int hi, struct wr_error *err)
{
	json_object *a;
	int n;

	if (!json_object_object_get_ex(obj, key, &a) || !json_object_is_type(a, json_type_array))
		return wr_fail(err, "bad-snapshot", key, "%s: an array is required", key);
	n = (int)json_object_array_length(a);
	if (n < min_n || n > max_n)
		return wr_fail(err, "bad-snapshot", key, "%s: wrong length", key);
	for (int i = 0; i < n; i++) {
		json_object *v = json_object_array_get_idx(a, (size_t)i);
		int64_t x;
		if (!json_object_is_type(v, json_type_int))
			return wr_fail(err, "bad-snapshot", key, "%s: whole numbers", key);
		x = json_object_get_int64(v);
		if (x < lo || x > hi)
			return wr_fail(err, "bad-snapshot", key, "%s: out of range", key);
		out[i] = (int)x;
	}
	return n;
}

void
wr_json_put_int(json_object *o, const char *static_key, int v)
{
	wr_json_put(o, static_key, json_object_new_int(v));
}

void
wr_json_put_bool(json_object *o, const char *static_key, int v)
{
	wr_json_put(o, static_key, json_object_new_boolean(v));
}

void
wr_json_put_str(json_object *o, const char *static_key, const char *v)
{
	wr_json_put(o, static_key, v ? json_object_new_string(v) : NULL);
}

json_object *
wr_json_sq(const struct wr_board *b, int sq)
{
	return sq >= 0 && sq < b->files * b->ranks ? wr_json_square_new(b, sq) : NULL;
}

void
wr_json_put_sq(json_object *o, const char *static_key, const struct wr_board *b, int sq)
{
	wr_json_put(o, static_key, wr_json_sq(b, sq));
}

json_object *
wr_json_typed(const char *type)
{
	json_object *o = json_object_new_object();
	wr_json_put_str(o, "type", type);
	return o;
}

json_object *
wr_json_names(const char *const *names, int n)
{
	json_object *a = json_object_new_array_ext(n > 0 ? n : 0);
	for (int i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_string(names[i]));
	return a;
}

json_object *
wr_json_option(const char *type, json_object *take_def, int min, int max,
               const char *const *names, int n, const char *desc)
{
	json_object *o = json_object_new_object();
	wr_json_put_str(o, "type", type);
	wr_json_put(o, "default", take_def);
	if (min <= max) {
		wr_json_put_int(o, "minimum", min);
		wr_json_put_int(o, "maximum", max);
	}
	if (names)
		wr_json_put(o, "enum", wr_json_names(names, n));
	wr_json_put_str(o, "description", desc);
	return o;
}

int
wr_json_name_index(const char *s, const char *const *names, int n)
{
	for (int i = 0; s && i < n; i++)
		if (names[i] && strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

void
wr_json_put_fields(json_object *o, const void *s, const struct wr_json_field *f, int n,
                   const struct wr_board *b)
{
	/* out.c's writer, its tree open at o. */
	struct wr_out w = {.open = {o}, .is_obj = {1}, .depth = 1};

	wr_out_fields(&w, s, f, n, b);
}
