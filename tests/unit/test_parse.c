/* Edge parsers: percent-decoding, queries, media types, strict JSON. */
#include <locale.h>
#include <pthread.h>
#include <stdlib.h>

#include "check.h"
#include "core.h"
#include "rules.h"

/* wp_json_thread_init (issue 32): the thread uses glibc's static "C"
 * locale, which duplocale, newlocale(LC_NUMERIC_MASK, "C", ...) and
 * freelocale -- what json-c calls around every parse -- hand back as it
 * is, without the process-wide lock; a parse still reads numbers in "C"
 * and leaves the thread's locale as it was. */
static void *
locale_thread(void *arg)
{
	int *ok = arg;
	char why[160];
	json_object *o = NULL;

	wp_json_thread_init();
	locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0), here = uselocale((locale_t)0);
	ok[0] = here == c;
	ok[1] = duplocale(here) == here && newlocale(LC_NUMERIC_MASK, "C", here) == here;
	ok[2] = wp_json_parse("[1.5]", 5, &o, why, sizeof(why)) == 0 &&
	        json_object_get_double(json_object_array_get_idx(o, 0)) == 1.5;
	ok[3] = uselocale((locale_t)0) == here;
	json_object_put(o);
	return NULL;
}

static int
json_fails(const char *text, size_t len)
{
	char why[160];
	json_object *o = NULL;
	int rc = wp_json_parse(text, len, &o, why, sizeof(why));
	json_object_put(o);
	return rc != 0;
}

/* wp_json_text (issue 32) against json-c's own writer, on trees drawn
 * from a fixed seed: every type, strings with every byte below 0x80 that
 * is escaped, '/', NUL and UTF-8, empty and nested containers, NULL
 * members, integers at both ends and a uint64 past INT64_MAX, doubles
 * made and parsed. */
static struct wr_rng text_rng;   /* rules/dice.c's seeded stream */

static unsigned
text_draw(unsigned n)
{
	return text_rng.next(&text_rng, n);
}

static void
text_chars(char *buf, size_t *len)
{
	static const char pool[] = "ab/\\\"\b\f\n\r\t\x01\x1f\x7f \xc3\xa9\xe2\x82\xac";
	size_t n = text_draw(12);

	for (size_t i = 0; i < n; i++)
		buf[i] = text_draw(20) == 0 ? '\0' : pool[text_draw(sizeof(pool) - 1)];
	*len = n;
}

static json_object *
text_tree(int depth)
{
	char s[16];
	size_t len;

	switch (text_draw(depth > 4 ? 7 : 9)) {
	case 0: return NULL;
	case 1: return json_object_new_boolean(text_draw(2));
	case 2: {
		static const int64_t ends[] = {0, -1, 7, INT64_MIN, INT64_MAX - 1, 2147483648LL};
		return text_draw(3) ? json_object_new_int64((int64_t)text_draw(100000) - 50000)
		                    : json_object_new_int64(ends[text_draw(6)]);
	}
	case 3: return text_draw(4) ? json_object_new_double((double)text_draw(1000) / 8 - 60)
	                            : json_object_new_uint64(UINT64_MAX - text_draw(3));
	case 4: {
		json_object *o = NULL;
		char why[64];
		static const char *const nums[] = {"1.50", "-0.0", "1e300", "3", "2.5e-7"};
		const char *t = nums[text_draw(5)];
		wp_json_parse(t, strlen(t), &o, why, sizeof(why));
		return o;
	}
	case 5:
	case 6:
		text_chars(s, &len);
		return json_object_new_string_len(s, (int)len);
	case 7: {
		json_object *a = json_object_new_array();
		for (unsigned i = text_draw(5); i > 0; i--)
			json_object_array_add(a, text_tree(depth + 1));
		return a;
	}
	default: {
		json_object *o = json_object_new_object();
		for (unsigned i = text_draw(5); i > 0; i--) {
			text_chars(s, &len);
			for (size_t j = 0; j < len; j++)
				if (!s[j])
					s[j] = '0';   /* keys are C strings */
			s[len] = '\0';
			json_object_object_add(o, s, text_tree(depth + 1));
		}
		return o;
	}
	}
}

static void
check_json_text(void)
{
	static const int flags[] = {JSON_C_TO_STRING_PLAIN,
	                            JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE,
	                            JSON_C_TO_STRING_SPACED};
	int same = 1, tries = 0;
	uint64_t state;

	wr_rng_seeded(&text_rng, &state, 32);

	for (int i = 0; i < 3000 && same; i++) {
		json_object *root = text_draw(2) ? json_object_new_array() : json_object_new_object();
		json_object *t = text_tree(0);
		if (json_object_is_type(root, json_type_array))
			json_object_array_add(root, t);
		else
			json_object_object_add(root, "t", t);
		for (int f = 0; f < 3; f++) {
			char *want = strdup(json_object_to_json_string_ext(root, flags[f]));
			const char *got = wp_json_text(root, flags[f]);
			if (!got || strcmp(got, want) != 0) {
				fprintf(stderr, "json_text: flags %d: got %s\n  want %s\n", flags[f],
				        got ? got : "(null)", want);
				same = 0;
			}
			free(want);
			tries++;
		}
		json_object_put(root);
	}
	CHECK(same && tries == 9000, "json_text: the same text as json-c's, 9000 trees and flags");
	json_object *o = json_object_new_object();
	json_object_object_add(o, "a/b", json_object_new_string("</script>"));
	CHECK_STR(wp_json_text(o, JSON_C_TO_STRING_PLAIN), "{\"a\\/b\":\"<\\/script>\"}",
	          "json_text: '/' escaped without NOSLASHESCAPE");
	CHECK_STR(wp_json_text(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE),
	          "{\"a/b\":\"</script>\"}", "json_text: written again after a change of flags");
	json_object_object_add(o, "n", json_object_new_int(-12));
	CHECK_STR(wp_json_text(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE),
	          "{\"a/b\":\"</script>\",\"n\":-12}", "json_text: written again after a change");
	json_object_put(o);
	json_object *s = json_object_new_string("x/y");
	CHECK_STR(wp_json_text(s, JSON_C_TO_STRING_PLAIN), "\"x\\/y\"", "json_text: a bare string");
	json_object_put(s);
}

int
main(void)
{
	char out[64], why[160];

	CHECK(wp_percent_decode("/a%20b%2Fc", out, sizeof(out)) == 0, "decode");
	CHECK_STR(out, "/a b/c", "decoded");
	CHECK(wp_percent_decode("/%2e%2E", out, sizeof(out)) == 0, "dots decode");
	CHECK_STR(out, "/..", "encoded dots become dots, checked later");
	CHECK(wp_percent_decode("/a%00b", out, sizeof(out)) != 0, "%00 refused");
	CHECK(wp_percent_decode("/a%zz", out, sizeof(out)) != 0, "bad hex refused");
	CHECK(wp_percent_decode("/a%4", out, sizeof(out)) != 0, "truncated escape refused");
	CHECK(wp_percent_decode("/a%", out, sizeof(out)) != 0, "lone percent refused");
	CHECK(wp_percent_decode("/0123456789", out, 5) != 0, "too long refused");
	/* issue 16, item 5: an encoded slash never routes as a separator */
	CHECK(wp_path_decode("/api/games/1%2Fturns", out, sizeof(out)) != 0, "path_encoded_slash");
	CHECK(wp_path_decode("/api/games/1%2fturns", out, sizeof(out)) != 0, "path_encoded_slash lower");
	CHECK(wp_path_decode("/a%5Cb", out, sizeof(out)) != 0, "path_encoded_backslash");
	CHECK(wp_path_decode("/a%20b%2e", out, sizeof(out)) == 0, "path_other_escapes");
	CHECK_STR(out, "/a b.", "path decoded");

	CHECK(wp_query_param("wait=30&after=5", "after", out, sizeof(out)) == 1, "query");
	CHECK_STR(out, "5", "query value");
	CHECK(wp_query_param("a=1+2%21", "a", out, sizeof(out)) == 1, "query plus");
	CHECK_STR(out, "1 2!", "plus is space, escapes decode");
	CHECK(wp_query_param("wait=30", "wai", out, sizeof(out)) == 0, "prefix is not a name");
	CHECK(wp_query_param("", "x", out, sizeof(out)) == 0, "empty query");
	CHECK(wp_query_param("flag&x=1", "flag", out, sizeof(out)) == 1, "bare name");
	CHECK(wp_query_param("x=%00", "x", out, sizeof(out)) == -1, "bad value");

	CHECK(wp_media_type_is("application/json", "application/json"), "media type");
	CHECK(wp_media_type_is("Application/JSON; charset=utf-8", "application/json"),
	      "type is case-insensitive, parameters allowed (RFC 9110, 8.3.1)");
	CHECK(!wp_media_type_is("application/jsonx", "application/json"), "no prefix match");
	CHECK(!wp_media_type_is("text/plain", "application/json"), "other type");
	CHECK(!wp_media_type_is(NULL, "application/json"), "absent");

	{
		/* The database's integer parameters (core/util.c, store/pool.c):
		 * snprintf's text, at both ends and between. */
		static const int64_t v[] = {0, 1, -1, 9, 10, -10, 99, 100, 123456789, -987654321,
		                            INT64_MAX, INT64_MIN, INT64_MAX - 1, INT64_MIN + 1,
		                            4294967296LL, -4294967296LL};
		char got[24], want[24];
		int same = 1;
		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]) + 2000; i++) {
			int64_t x = i < sizeof(v) / sizeof(v[0]) ? v[i]
			            : (int64_t)(((uint64_t)i * 0x9e3779b97f4a7c15ull) >> (i % 64));
			size_t n = wp_i64_text(got, x);
			snprintf(want, sizeof(want), "%lld", (long long)x);
			if (strcmp(got, want) != 0 || n != strlen(want)) {
				fprintf(stderr, "i64_text: got %s, want %s\n", got, want);
				same = 0;
			}
		}
		CHECK(same, "i64_text: snprintf's %lld, its ends and 2000 more");
	}

	json_object *o = NULL;
	CHECK(wp_json_parse("{\"a\":[1,2]} \n", 13, &o, why, sizeof(why)) == 0 &&
	          json_object_is_type(o, json_type_object), "object with trailing space");
	json_object_put(o);
	{
		int ok[4] = {0};
		pthread_t t;
		CHECK(pthread_create(&t, NULL, locale_thread, ok) == 0 && pthread_join(t, NULL) == 0,
		      "locale thread ran");
		CHECK(ok[0], "json_thread_init: the thread uses the static C locale");
		CHECK(ok[1], "json_thread_init: duplocale and newlocale hand it back (no lock)");
		CHECK(ok[2], "json_thread_init: a number parses as in C");
		CHECK(ok[3], "json_thread_init: a parse leaves the thread's locale");
	}
	CHECK(wp_json_parse("42", 2, &o, why, sizeof(why)) == 0 && json_object_get_int(o) == 42,
	      "a bare number ends at end of input");
	json_object_put(o);
	CHECK(wp_json_parse("null", 4, &o, why, sizeof(why)) == 0 && o == NULL,
	      "null is JSON (RFC 8259, 3)");
	CHECK(wp_json_parse("\"\\ud83d\\ude00\"", 14, &o, why, sizeof(why)) == 0,
	      "a surrogate pair escape");
	json_object_put(o);
	const char *bad[] = {"NaN", "-Infinity", "Infinity", "1.", ".5", "01", "-", "1e",
	                     "1e+", "\"\x01\"", "\"\xc0\xaf\"", "\"\xed\xa0\x80\"",
	                     "\"\xf4\x90\x80\x80\"", "\"\xe2\x82\"",
	                     "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"\\x41\"",
	                     "{\"a\" 1}", "{1:2}", "[1 2]", "tru", "nul", "[", "{\"a\":1,}",
	                     "\"abc"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(json_fails(bad[i], strlen(bad[i])), bad[i]);
	CHECK(!json_fails("-0.5e+10", 8), "a full number");
	CHECK(!json_fails("\"\xf0\x9f\x98\x80\"", 6), "four-byte UTF-8");
	CHECK(json_fails("", 0), "empty");
	CHECK(json_fails("{\"a\":1} x", 9), "trailing garbage");
	CHECK(json_fails("{\"a\":1}{}", 9), "two values");
	CHECK(json_fails("{\"a\":1", 6), "truncated");
	CHECK(json_fails("{'a':1}", 7), "single quotes (strict)");
	CHECK(json_fails("[1,]", 4), "trailing comma (strict)");
	CHECK(json_fails("\"\xff\"", 3), "invalid UTF-8");
	CHECK(json_fails("{\"a\":1}\0", 8), "NUL byte");
	/* issue 16, item 3: a NUL in a key would be cut by json-c's C-string
	 * keys, so "seq\u0000x" would be read as a second "seq". */
	CHECK(json_fails("{\"seq\":1,\"seq\\u0000x\":2}", 24), "json_nul_key: NUL in a key");
	CHECK(json_fails("{\"\\u0000\":1}", 12), "json_nul_key: a key that is only NUL");
	CHECK(json_fails("{\"a\":{\"piece\\u0000x\":\"queen\"}}", 30), "json_nul_key: nested");
	CHECK(!json_fails("{\"a\\u0001\":1}", 13), "json_nul_key: other escapes stay valid");
	const char *key = NULL;
	CHECK(wp_json_parse("{\"t\":\"buy\",\"piece\":[\"dragon\\u0000x\"]}", 37, &o, why,
	                    sizeof(why)) == 0 && wp_json_find_nul(o, &key) == 1 &&
	          key && strcmp(key, "piece") == 0,
	      "json_nul_value: found and named");
	json_object_put(o);
	CHECK(wp_json_parse("{\"piece\":\"queen\"}", 17, &o, why, sizeof(why)) == 0 &&
	          wp_json_find_nul(o, &key) == 0, "json_nul_value: none");
	json_object_put(o);
	char deep[200];
	memset(deep, '[', 100);
	memset(deep + 100, ']', 100);
	CHECK(json_fails(deep, 200), "nesting deeper than the limit");
	memset(deep, '[', 10);
	memset(deep + 10, ']', 10);
	CHECK(!json_fails(deep, 20), "modest nesting is fine");
	check_json_text();
	return check_done("parse");
}
