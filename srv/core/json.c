/* Strict JSON bodies (RFC 8259): one value, nothing but whitespace after
 * it. json-c's strict mode still takes NaN, Infinity, "1.", single quotes
 * and some ill-formed UTF-8, so a small validator of the grammar runs
 * first: valid UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
 * past U+10FFFF), no raw control characters in strings, escapes paired as
 * UTF-16 surrogates, bounded depth, and no \u0000 in an object key:
 * json-c keys are C strings, so "seq\u0000x" would become a second "seq"
 * and two readers of one body would disagree (issue 16, item 3). A NUL
 * in a string value is refused by wp_json_find_nul() (400
 * invalid-request naming the member). Only then does json-c build the
 * tree. */
#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "rules.h"

/* json-c switches to the "C" numeric locale around every parse:
 * duplocale(), newlocale() and freelocale() of the thread's locale.
 * glibc takes one process-wide lock as a writer in each of them (and
 * mallocs a locale) unless that locale is its own static "C" object,
 * which all three hand back as it is. warpostd never sets a locale, so
 * the global one is "C" too; a thread that uses the static object parses
 * the same, without the lock: under the turn load the lock's waits were
 * 9% of the server's CPU (perf, issue 32). Every thread that may parse
 * calls this once, before its first parse; later calls cost a load. */
void
wp_json_thread_init(void)
{
	static _Thread_local int done;

	if (!done) {
		uselocale(newlocale(LC_ALL_MASK, "C", (locale_t)0));
		done = 1;
	}
}

struct scan {
	const unsigned char *p, *end;
	int depth;
	const char *why;
};

static void
ws(struct scan *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
		s->p++;
}

static int
fail(struct scan *s, const char *why)
{
	if (!s->why)
		s->why = why;
	return -1;
}

/* One UTF-8 sequence at s->p (RFC 3629, 4: the well-formed table). */
static int
utf8(struct scan *s)
{
	const unsigned char *p = s->p;
	unsigned c = *p;
	int n;
	unsigned lo = 0x80, hi = 0xbf;

	if (c < 0x80) {
		s->p++;
		return 0;
	}
	if (c >= 0xc2 && c <= 0xdf)
		n = 1;
	else if (c >= 0xe0 && c <= 0xef) {
		n = 2;
		if (c == 0xe0)
			lo = 0xa0;
		if (c == 0xed)
			hi = 0x9f; /* no surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 3;
		if (c == 0xf0)
			lo = 0x90;
		if (c == 0xf4)
			hi = 0x8f;
	} else
		return fail(s, "invalid UTF-8");
	if (s->end - p <= n)
		return fail(s, "invalid UTF-8");
	if (p[1] < lo || p[1] > hi)
		return fail(s, "invalid UTF-8");
	for (int i = 2; i <= n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return fail(s, "invalid UTF-8");
	s->p += n + 1;
	return 0;
}

static int
hex4(struct scan *s, unsigned *out)
{
	unsigned v = 0;

	if (s->end - s->p < 4)
		return fail(s, "a \\u escape needs four hex digits");
	for (int i = 0; i < 4; i++) {
		unsigned c = s->p[i], d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return fail(s, "a \\u escape needs four hex digits");
		v = v * 16 + d;
	}
	s->p += 4;
	*out = v;
	return 0;
}

static int
string(struct scan *s, int key)
{
	s->p++; /* the opening quote */
	while (s->p < s->end) {
		unsigned c = *s->p;
		if (c == '"') {
			s->p++;
			return 0;
		}
		if (c < 0x20)
			return fail(s, "a control character inside a string must be escaped");
		if (c != '\\') {
			if (utf8(s) != 0)
				return -1;
			continue;
		}
		if (++s->p >= s->end)
			break;
		c = *s->p++;
		if (strchr("\"\\/bfnrt", (int)c) && c)
			continue;
		if (c != 'u')
			return fail(s, "an unknown escape in a string");
		unsigned u, lo;
		if (hex4(s, &u) != 0)
			return -1;
		if (u == 0 && key)
			return fail(s, "an object key must not contain \\u0000");
		if (u >= 0xdc00 && u <= 0xdfff)
			return fail(s, "a lone low surrogate escape");
		if (u >= 0xd800 && u <= 0xdbff) {
			if (s->end - s->p < 6 || s->p[0] != '\\' || s->p[1] != 'u')
				return fail(s, "a lone high surrogate escape");
			s->p += 2;
			if (hex4(s, &lo) != 0)
				return -1;
			if (lo < 0xdc00 || lo > 0xdfff)
				return fail(s, "a lone high surrogate escape");
		}
	}
	return fail(s, "the JSON text ends too early");
}

static int
digits(struct scan *s)
{
	const unsigned char *start = s->p;
	while (s->p < s->end && *s->p >= '0' && *s->p <= '9')
		s->p++;
	return s->p > start ? 0 : fail(s, "a number is malformed");
}

/* RFC 8259, 6: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
static int
number(struct scan *s)
{
	if (*s->p == '-')
		s->p++;
	if (s->p >= s->end)
		return fail(s, "a number is malformed");
	if (*s->p == '0')
		s->p++;
	else if (digits(s) != 0)
		return -1;
	if (s->p < s->end && *s->p == '.') {
		s->p++;
		if (digits(s) != 0)
			return -1;
	}
	if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
		s->p++;
		if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
			s->p++;
		if (digits(s) != 0)
			return -1;
	}
	return 0;
}

static int
literal(struct scan *s, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n) != 0)
		return fail(s, "unexpected character");
	s->p += n;
	return 0;
}

static int value(struct scan *s);

static int
container(struct scan *s, unsigned char close)
{
	int first = 1;

	if (++s->depth > WP_JSON_MAX_DEPTH)
		return fail(s, "the JSON nests too deeply");
	s->p++;
	for (;;) {
		ws(s);
		if (s->p >= s->end)
			return fail(s, "the JSON text ends too early");
		if (*s->p == close && first) {
			s->p++;
			break;
		}
		if (close == '}') {
			if (*s->p != '"')
				return fail(s, "an object key must be a string");
			if (string(s, 1) != 0)
				return -1;
			ws(s);
			if (s->p >= s->end || *s->p != ':')
				return fail(s, s->p >= s->end ? "the JSON text ends too early"
				                              : "a ':' is missing after a key");
			s->p++;
		}
		if (value(s) != 0)
			return -1;
		ws(s);
		if (s->p >= s->end)
			return fail(s, "the JSON text ends too early");
		if (*s->p == ',') {
			s->p++;
			first = 0;
			continue;
		}
		if (*s->p != close)
			return fail(s, "a ',' or a closing bracket is missing");
		s->p++;
		break;
	}
	s->depth--;
	return 0;
}

static int
value(struct scan *s)
{
	ws(s);
	if (s->p >= s->end)
		return fail(s, "the JSON text ends too early");
	switch (*s->p) {
	case '{': return container(s, '}');
	case '[': return container(s, ']');
	case '"': return string(s, 0);
	case 't': return literal(s, "true");
	case 'f': return literal(s, "false");
	case 'n': return literal(s, "null");
	default:
		if (*s->p == '-' || (*s->p >= '0' && *s->p <= '9'))
			return number(s);
		return fail(s, "unexpected character");
	}
}

/* One json-c tokener a thread, reset for each parse: making one (its
 * depth's stack zeroed) was 2% of a turn's CPU (issue 32). Freed when the
 * thread ends. */
static pthread_key_t tok_key;
static pthread_once_t tok_once = PTHREAD_ONCE_INIT;

static void
tok_free(void *tok)
{
	json_tokener_free(tok);
}

static void
tok_key_make(void)
{
	(void)pthread_key_create(&tok_key, tok_free);
}

static json_tokener *
thread_tokener(void)
{
	json_tokener *tok;

	pthread_once(&tok_once, tok_key_make);
	tok = pthread_getspecific(tok_key);
	if (tok) {
		json_tokener_reset(tok);
		return tok;
	}
	tok = json_tokener_new_ex(WP_JSON_MAX_DEPTH);
	if (tok && pthread_setspecific(tok_key, tok) != 0) {
		json_tokener_free(tok);
		tok = NULL;
	}
	return tok;
}

int
wp_json_parse(const char *buf, size_t len, json_object **out, char *why, size_t whylen)
{
	struct scan s = {NULL, NULL, 0, NULL};
	json_tokener *tok;

	*out = NULL;
	if (len == 0 || !buf) {
		snprintf(why, whylen, "the body is empty");
		return -1;
	}
	s.p = (const unsigned char *)buf;
	s.end = s.p + len;
	if (len > INT32_MAX) {
		snprintf(why, whylen, "the body is too long");
		return -1;
	}
	if (value(&s) == 0) {
		ws(&s);
		if (s.p < s.end)
			fail(&s, "unexpected data after the JSON value");
	}
	if (s.why) {
		snprintf(why, whylen, "%s at byte %zu", s.why, (size_t)(s.p - (const unsigned char *)buf));
		return -1;
	}
	/* The grammar is valid: json-c builds the tree. A bare number ends
	 * only at the end of input, so the end is said explicitly. */
	tok = thread_tokener();
	if (!tok) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	*out = json_tokener_parse_ex(tok, buf, (int)len);
	enum json_tokener_error jerr = json_tokener_get_error(tok);
	if (!*out && jerr == json_tokener_continue) {
		*out = json_tokener_parse_ex(tok, "", 1);
		jerr = json_tokener_get_error(tok);
	}
	if (jerr != json_tokener_success) {
		json_object_put(*out);
		*out = NULL;
		snprintf(why, whylen, "%s", json_tokener_error_desc(jerr));
		return -1;
	}
	return 0; /* *out is NULL for the JSON value null */
}

/* Any string value holding a NUL: a C string would cut it where json-c
 * does not, so the body could mean two things. 1 and the key of the
 * nearest member (or "" at the top), else 0. */
int
wp_json_find_nul(json_object *o, const char **key)
{
	switch (json_object_get_type(o)) {
	case json_type_string:
		if ((size_t)json_object_get_string_len(o) != strlen(json_object_get_string(o))) {
			*key = "";
			return 1;
		}
		return 0;
	case json_type_array:
		for (size_t i = 0; i < json_object_array_length(o); i++)
			if (wp_json_find_nul(json_object_array_get_idx(o, i), key))
				return 1;
		return 0;
	case json_type_object: {
		json_object_object_foreach(o, k, v)
			if (wp_json_find_nul(v, key)) {
				if (!**key)
					*key = k;
				return 1;
			}
		return 0;
	}
	default:
		return 0;
	}
}

/* Text of a tree, byte for byte what json_object_to_json_string_ext()
 * writes with JSON_C_TO_STRING_PLAIN (and NOSLASHESCAPE, when given),
 * written by rules/out.c's writer in one buffer: json-c appends each token
 * through its printbuf and writes every integer with snprintf(), and its
 * writing was 6% of warpostd's CPU a turn (issue 32; tests/bench/rulebench.c
 * has the ratio). Any other flag is json-c's own. */
static void
text_free(json_object *o, void *text)
{
	(void)o;
	free(text);
}

const char *
wp_json_text(json_object *o, int flags)
{
	enum json_type type = json_object_get_type(o);

	/* The text is kept with the tree (its user data), as json-c keeps its
	 * own; only objects and arrays, whose user data json-c never reads. */
	if ((flags & ~JSON_C_TO_STRING_NOSLASHESCAPE) != JSON_C_TO_STRING_PLAIN ||
	    (type != json_type_object && type != json_type_array))
		return json_object_to_json_string_ext(o, flags);
	char *text = wr_out_text_of(o, (flags & JSON_C_TO_STRING_NOSLASHESCAPE) != 0);
	if (text)
		json_object_set_userdata(o, text, text_free);
	return text;   /* NULL as json-c's, when out of memory */
}
