/* One save code, two results (issue 32): a snapshot written through
 * struct wr_out becomes a json-c tree or, without building one, the very
 * text json-c writes of that tree (json_object_to_json_string_ext with
 * JSON_C_TO_STRING_PLAIN, '/' escaped unless noslash). A turn keeps its
 * snapshot as text, and building the tree, writing it and freeing it cost
 * 20 to 110 us a turn in the product rulesets (tests/bench/rulebench.c).
 * The text writer of any tree is here too (wr_out_json; the server's
 * wp_json_text): one writer of JSON text in the program. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"

/* ------------------------------------------------------------- text */

static int
room(struct wr_out *w, size_t need)
{
	if (w->failed)
		return -1;
	if (w->n + need < w->cap)
		return 0;
	size_t cap = w->cap ? w->cap : 512;
	while (w->n + need >= cap)
		cap *= 2;
	char *p = realloc(w->p, cap);
	if (!p) {
		w->failed = 1;
		return -1;
	}
	w->p = p;
	w->cap = cap;
	return 0;
}

static void
raw(struct wr_out *w, const char *s, size_t n)
{
	if (room(w, n) == 0) {
		memcpy(w->p + w->n, s, n);
		w->n += n;
	}
}

/* As json-c's json_escape_str: '"', '\\', '/' (unless noslash) and the
 * control characters below 0x20 escaped, \u00xx in lower case; every
 * other byte as it is. */
static void
string(struct wr_out *w, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";

	if (room(w, n * 6 + 2) != 0)
		return;
	char *o = w->p + w->n;
	*o++ = '"';
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c != '"' && c != '\\' && (c != '/' || w->noslash)) {
			*o++ = (char)c;
			continue;
		}
		*o++ = '\\';
		switch (c) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '/': *o++ = '/'; break;
		case '\b': *o++ = 'b'; break;
		case '\f': *o++ = 'f'; break;
		case '\n': *o++ = 'n'; break;
		case '\r': *o++ = 'r'; break;
		case '\t': *o++ = 't'; break;
		default:
			*o++ = 'u';
			*o++ = '0';
			*o++ = '0';
			*o++ = hex[c >> 4];
			*o++ = hex[c & 15];
		}
	}
	*o++ = '"';
	w->n = (size_t)(o - w->p);
}

static void
integer(struct wr_out *w, int64_t v)
{
	char d[24], *e = d + sizeof(d), *s = e;
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

	do
		*--s = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		*--s = '-';
	raw(w, s, (size_t)(e - s));
}

/* Text: the comma and the key before a value at the current depth. */
static void
text_lead(struct wr_out *w, const char *key)
{
	if (w->depth == 0)
		return;
	int d = w->depth - 1;
	if (w->more[d])
		raw(w, ",", 1);
	w->more[d] = 1;
	if (w->is_obj[d]) {
		string(w, key ? key : "", key ? strlen(key) : 0);
		raw(w, ":", 1);
	}
}

void
wr_out_value(struct wr_out *w, json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_null:
		raw(w, "null", 4);
		return;
	case json_type_boolean:
		if (json_object_get_boolean(o))
			raw(w, "true", 4);
		else
			raw(w, "false", 5);
		return;
	case json_type_int: {
		int64_t v = json_object_get_int64(o);
		if (v != INT64_MAX) {
			integer(w, v);
			return;
		}
		break;   /* perhaps a uint64 past it: json-c's text */
	}
	case json_type_string:
		string(w, json_object_get_string(o), (size_t)json_object_get_string_len(o));
		return;
	case json_type_array: {
		size_t n = json_object_array_length(o);
		raw(w, "[", 1);
		for (size_t i = 0; i < n; i++) {
			if (i)
				raw(w, ",", 1);
			wr_out_value(w, json_object_array_get_idx(o, i));
		}
		raw(w, "]", 1);
		return;
	}
	case json_type_object: {
		int first = 1;
		raw(w, "{", 1);
		json_object_object_foreach(o, k, v) {
			if (!first)
				raw(w, ",", 1);
			first = 0;
			string(w, k, strlen(k));
			raw(w, ":", 1);
			wr_out_value(w, v);
		}
		raw(w, "}", 1);
		return;
	}
	default:
		break;
	}
	/* Doubles (json-c keeps a parsed one's own digits) and big uint64s. */
	size_t len;
	const char *s = json_object_to_json_string_length(
		o, JSON_C_TO_STRING_PLAIN | (w->noslash ? JSON_C_TO_STRING_NOSLASHESCAPE : 0), &len);
	raw(w, s, len);
}

/* ------------------------------------------------------------- tree */

/* Tree: v under its key in the open container, or the root. */
static void
tree_add(struct wr_out *w, const char *key, json_object *v)
{
	if (w->depth == 0) {
		json_object_put(w->root);
		w->root = v;
		return;
	}
	json_object *parent = w->open[w->depth - 1];
	if (w->is_obj[w->depth - 1])
		json_object_object_add_ex(parent, key ? key : "", v, JSON_C_OBJECT_ADD_CONSTANT_KEY);
	else
		json_object_array_add(parent, v);
}

/* ------------------------------------------------------------ calls */

/* hint: the items an array will hold (0: not known), so that a tree's
 * array is made at its size rather than grown by doubling. */
static void
open_container(struct wr_out *w, const char *key, int obj, size_t hint)
{
	if (w->depth == WR_OUT_DEPTH) {
		w->failed = 1;
		return;
	}
	if (w->text) {
		text_lead(w, key);
		raw(w, obj ? "{" : "[", 1);
	} else {
		json_object *c = obj ? json_object_new_object()
		                 : hint ? json_object_new_array_ext(hint < INT_MAX ? (int)hint : INT_MAX)
		                        : json_object_new_array();
		tree_add(w, key, c);
		w->open[w->depth] = c;
	}
	w->is_obj[w->depth] = (unsigned char)obj;
	w->more[w->depth] = 0;
	w->depth++;
}

void
wr_out_obj(struct wr_out *w, const char *key)
{
	open_container(w, key, 1, 0);
}

void
wr_out_arr(struct wr_out *w, const char *key)
{
	open_container(w, key, 0, 0);
}

void
wr_out_arr_of(struct wr_out *w, const char *key, size_t n)
{
	open_container(w, key, 0, n);
}

void
wr_out_end(struct wr_out *w)
{
	if (w->depth == 0) {
		w->failed = 1;
		return;
	}
	w->depth--;
	if (w->text)
		raw(w, w->is_obj[w->depth] ? "}" : "]", 1);
}

void
wr_out_int(struct wr_out *w, const char *key, int64_t v)
{
	if (w->text) {
		text_lead(w, key);
		integer(w, v);
	} else {
		tree_add(w, key, json_object_new_int64(v));
	}
}

void
wr_out_bool(struct wr_out *w, const char *key, int v)
{
	if (w->text) {
		text_lead(w, key);
		raw(w, v ? "true" : "false", v ? 4 : 5);
	} else {
		tree_add(w, key, json_object_new_boolean(v));
	}
}

void
wr_out_str(struct wr_out *w, const char *key, const char *s)
{
	if (w->text) {
		text_lead(w, key);
		if (s)
			string(w, s, strlen(s));
		else
			raw(w, "null", 4);
	} else {
		tree_add(w, key, s ? json_object_new_string(s) : NULL);
	}
}

void
wr_out_sq(struct wr_out *w, const char *key, const struct wr_board *b, int sq)
{
	char buf[8];

	wr_out_str(w, key, sq >= 0 && sq < b->files * b->ranks ? wr_square_name(b, sq, buf) : NULL);
}

void
wr_out_ints(struct wr_out *w, const char *key, const int *v, int n)
{
	wr_out_arr(w, key);
	for (int i = 0; i < n; i++)
		wr_out_int(w, NULL, v[i]);
	wr_out_end(w);
}

void
wr_out_json(struct wr_out *w, const char *key, json_object *take)
{
	if (w->text) {
		text_lead(w, key);
		wr_out_value(w, take);
		json_object_put(take);
	} else {
		tree_add(w, key, take);
	}
}

void
wr_out_fields(struct wr_out *w, const void *s, const struct wr_json_field *f, int n,
              const struct wr_board *b)
{
	for (int i = 0; i < n; i++) {
		int v;
		memcpy(&v, (const char *)s + f[i].offset, sizeof(v));
		switch (f[i].kind) {
		case WR_JF_BOOL:
			wr_out_bool(w, f[i].key, v);
			break;
		case WR_JF_SQ:
			wr_out_sq(w, f[i].key, b, v);
			break;
		case WR_JF_NAME:
			wr_out_str(w, f[i].key, v >= 0 ? f[i].names[v] : NULL);
			break;
		default:
			wr_out_int(w, f[i].key, v);
			break;
		}
	}
}

json_object *
wr_out_root(struct wr_out *w)
{
	if (w->failed || w->depth != 0) {
		json_object_put(w->root);
		return NULL;
	}
	return w->root;
}

json_object *
wr_out_tree(wr_save_fn save, const void *state)
{
	struct wr_out w = {0};

	save(state, &w);
	return wr_out_root(&w);
}

char *
wr_out_finish(struct wr_out *w)
{
	if (w->failed || w->depth != 0 || room(w, 1) != 0) {
		free(w->p);
		return NULL;
	}
	w->p[w->n] = '\0';
	return w->p;
}

char *
wr_out_text(wr_save_fn save, const void *state, int noslash)
{
	struct wr_out w = {.text = 1, .noslash = noslash};

	save(state, &w);
	return wr_out_finish(&w);
}

char *
wr_save_text(const struct wr_ruleset *rs, const void *state)
{
	struct wr_out w = {.text = 1};

	if (rs->save_out)
		return wr_out_text(rs->save_out, state, 0);
	json_object *snap = rs->save(state);
	wr_out_value(&w, snap);
	json_object_put(snap);
	return wr_out_finish(&w);
}

char *
wr_out_text_of(json_object *o, int noslash)
{
	struct wr_out w = {.text = 1, .noslash = noslash};

	wr_out_value(&w, o);
	return wr_out_finish(&w);
}

void
wr_actions_out(const struct wr_ruleset *rs, const void *state, int seat, struct wr_out *w,
               const char *key)
{
	if (rs->actions_out)
		rs->actions_out(state, seat, w, key);
	else
		wr_out_json(w, key, rs->actions(state, seat));
}
