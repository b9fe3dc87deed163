/* Strict JSON bodies (RFC 8259): one value, valid UTF-8, bounded depth,
 * nothing but whitespace after it. */
#include <stdio.h>
#include <string.h>

#include "core_priv.h"

static int
is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* json-c's strict mode still takes 'single-quoted' names; RFC 8259 has
 * no such thing, so a quote outside a string is refused here first. */
static long
stray_single_quote(const char *buf, size_t len)
{
	int in_string = 0;

	for (size_t i = 0; i < len; i++) {
		if (in_string) {
			if (buf[i] == '\\')
				i++;
			else if (buf[i] == '"')
				in_string = 0;
		} else if (buf[i] == '"') {
			in_string = 1;
		} else if (buf[i] == '\'') {
			return (long)i;
		}
	}
	return -1;
}

json_object *
wp_json_parse(const char *buf, size_t len, char *why, size_t whylen)
{
	json_tokener *tok;
	json_object *obj = NULL;
	enum json_tokener_error jerr;
	size_t end;

	if (len == 0) {
		snprintf(why, whylen, "the body is empty");
		return NULL;
	}
	if (memchr(buf, '\0', len)) {
		snprintf(why, whylen, "the body contains a NUL byte");
		return NULL;
	}
	if (len > INT32_MAX) {
		snprintf(why, whylen, "the body is too long");
		return NULL;
	}
	long q = stray_single_quote(buf, len);
	if (q >= 0) {
		snprintf(why, whylen, "unexpected character at byte %ld", q);
		return NULL;
	}
	tok = json_tokener_new_ex(WP_JSON_MAX_DEPTH);
	if (!tok) {
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	obj = json_tokener_parse_ex(tok, buf, (int)len);
	jerr = json_tokener_get_error(tok);
	if (!obj && jerr == json_tokener_continue) {
		/* A bare number only ends at the end of input: say so. Anything
		 * else still open there is a truncated text. */
		obj = json_tokener_parse_ex(tok, "", 1);
		jerr = obj ? json_tokener_success : json_tokener_continue;
		end = len;
	} else {
		end = json_tokener_get_parse_end(tok);
	}
	if (!obj) {
		if (jerr == json_tokener_continue)
			snprintf(why, whylen, "the JSON text ends too early");
		else if (jerr == json_tokener_error_depth)
			snprintf(why, whylen, "the JSON nests deeper than %d levels",
			         WP_JSON_MAX_DEPTH);
		else
			snprintf(why, whylen, "%s at byte %zu", json_tokener_error_desc(jerr),
			         json_tokener_get_parse_end(tok));
		goto out;
	}
	for (size_t i = end; i < len; i++) {
		if (!is_ws(buf[i])) {
			snprintf(why, whylen, "unexpected data after the JSON value at byte %zu", i);
			json_object_put(obj);
			obj = NULL;
			goto out;
		}
	}
out:
	json_tokener_free(tok);
	return obj;
}
