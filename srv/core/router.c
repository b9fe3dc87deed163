/* Route table matching: method and path to a handler, with {param}
 * segments, and the Allow list for 405 (RFC 9110, 15.5.6). */
#include <string.h>

#include "core.h"

static const struct {
	const char *name;
	unsigned bit;
} methods[] = {
	{"GET", WP_GET},       {"HEAD", WP_HEAD},     {"POST", WP_POST},
	{"PUT", WP_PUT},       {"DELETE", WP_DELETE}, {"PATCH", WP_PATCH},
	{"OPTIONS", WP_OPTIONS},
};

unsigned
wp_method_bit(const char *method)
{
	for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
		if (strcmp(methods[i].name, method) == 0)
			return methods[i].bit;
	return 0;
}

/* Matches one pattern against a raw path; fills params. Segments are
 * compared raw: parameter values are decoded by their handler. */
static int
pattern_match(const char *pat, const char *path, struct wp_route_match *m)
{
	m->nparams = 0;
	while (*pat && *path) {
		if (*pat == '{') {
			const char *close = strchr(pat, '}');
			size_t len = strcspn(path, "/");
			if (!close || len == 0 || len >= sizeof(m->params[0]) ||
			    m->nparams == WP_MAX_PARAMS)
				return 0;
			memcpy(m->params[m->nparams], path, len);
			m->params[m->nparams][len] = '\0';
			m->nparams++;
			pat = close + 1;
			path += len;
			continue;
		}
		if (*pat != *path)
			return 0;
		pat++;
		path++;
	}
	return *pat == '\0' && *path == '\0';
}

static void
allow_list(unsigned mask, char *out, size_t cap)
{
	out[0] = '\0';
	for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
		if (!(mask & methods[i].bit))
			continue;
		if (out[0])
			strncat(out, ", ", cap - strlen(out) - 1);
		strncat(out, methods[i].name, cap - strlen(out) - 1);
	}
}

enum wp_err
wp_route_match(const struct wp_route *table, size_t n, const char *method,
               const char *path, struct wp_route_match *m)
{
	unsigned bit = wp_method_bit(method);
	unsigned allowed = 0;

	memset(m, 0, sizeof(*m));
	for (size_t i = 0; i < n; i++) {
		struct wp_route_match tmp;
		if (!pattern_match(table[i].pattern, path, &tmp))
			continue;
		/* A GET resource answers HEAD too (RFC 9110, 9.3.2). */
		unsigned mask = table[i].methods | (table[i].methods & WP_GET ? WP_HEAD : 0);
		allowed |= mask;
		if (bit & mask) {
			*m = tmp;
			m->route = &table[i];
			return WP_OK;
		}
	}
	if (allowed) {
		allow_list(allowed, m->allow, sizeof(m->allow));
		return WP_ERR_METHOD;
	}
	return WP_ERR_NOT_FOUND;
}
