/* Edge parsers: percent-decoding, queries, media types, strict JSON. */
#include <locale.h>
#include <pthread.h>
#include <stdlib.h>

#include "check.h"
#include "core.h"

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
	return check_done("parse");
}
