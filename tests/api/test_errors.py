"""Error answers: RFC 9457 problem+json with the documented slugs."""
import os
import sys
import time
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import warpost as wp  # noqa: E402

JSON = {"Content-Type": "application/json"}


class NotFoundTest(wp.ServerTestCase):

    def test_unknown_api_route(self):
        for path in ("/api/nope", "/api/players/extra/parts", "/api/", "/api",
                     "/api/healthz", "/api/HEALTH"):
            with self.subTest(path=path):
                r = self.req("GET", path)
                self.assertProblem(r, 404, "not-found")

    def test_unknown_route_with_post_body(self):
        r = self.req("POST", "/api/nope", {"name": "x"})
        self.assertProblem(r, 404, "not-found")


class MethodTest(wp.ServerTestCase):

    def test_405_on_health(self):
        r = self.req("POST", "/api/health", b"{}", JSON)
        self.assertProblem(r, 405, "method-not-allowed")
        self.assertEqual(wp.allow_set(r), {"GET", "HEAD"}, r)

    def test_405_on_static(self):
        r = self.req("POST", "/index.html", b"", {})
        self.assertProblem(r, 405, "method-not-allowed")
        self.assertEqual(wp.allow_set(r), {"GET", "HEAD"}, r)


class BodyTooLargeTest(wp.ServerTestCase):

    def test_100k_body(self):
        body = b'{"name":"' + b"x" * 100000 + b'"}'
        r = self.req("POST", "/api/players", body, JSON)
        self.assertProblem(r, 413, "body-too-large")

    def test_answered_before_the_body_is_read(self):
        """Headers announcing 10 MB, then silence: 413 must come at once,
        not after a timeout waiting for a body that never comes."""
        data = wp.http_request_bytes("POST", "/api/players",
                                     {"Content-Type": "application/json",
                                      "Content-Length": "10000000"})
        t0 = time.monotonic()
        with wp.raw_connect(self.server.port) as s:
            s.sendall(data)
            raw = wp.read_reply(s, timeout=5)
        took = time.monotonic() - t0
        r = wp.parse_reply(raw)
        self.assertEqual(r.status, 413, "no 413 within 5 s; got %r" % raw)
        self.assertLess(took, 3.0, "413 took %.1f s" % took)
        self.assertProblem(r, 413, "body-too-large")

    def test_body_too_large_then_still_serving(self):
        # the client keeps sending after the 413: the server must cope
        body = b"[" * 300000
        data = wp.http_request_bytes("POST", "/api/players",
                                     {"Content-Type": "application/json"}, body)
        r = wp.raw_request(self.server.port, data, timeout=10)
        self.assertEqual(r.status, 413, r)
        self.assertEqual(self.req("GET", "/api/health").status, 200)


class MalformedJsonTest(wp.ServerTestCase):

    CASES = {
        "truncated": b'{"name":',
        "trailing garbage": b'{"name":"Alice"} x',
        "two documents": b'{"name":"Alice"}{"name":"Bob"}',
        "trailing comma": b'{"name":"Alice",}',
        "single quotes": b"{'name':'Alice'}",
        "unquoted key": b'{name:"Alice"}',
        "comment": b'{"name":"Alice" /* hi */}',
        # values in the name slot: if the parser let them through, the
        # answer would be invalid-request (name not a string) instead
        "NaN": b'{"name":NaN}',
        "Infinity": b'{"name":-Infinity}',
        "number ending in a dot": b'{"name":1.}',
        "leading zero": b'{"name":01}',
        "hex number": b'{"name":0x10}',
        "control char in string": b'{"name":"Al\x01ice"}',
        "invalid utf-8": b'{"name":"\xff\xfe"}',
        "overlong utf-8": b'{"name":"\xc0\xaf"}',
        "truncated utf-8": b'{"name":"\xe2\x82"}',
        "utf-16 surrogate bytes": b'{"name":"\xed\xa0\x80"}',
        "bare word": b"hello",
        "lone bracket": b"]",
    }

    def test_malformed(self):
        for label, body in self.CASES.items():
            with self.subTest(label):
                r = self.req("POST", "/api/players", body, JSON)
                self.assertProblem(r, 400, "malformed-json")

    def test_empty_body(self):
        r = self.req("POST", "/api/players", b"", JSON)
        self.assertEqual(r.status, 400, r)
        doc = wp.json_of(r, wp.PROBLEM_TYPE)
        self.assertIn(doc.get("type"), (wp.PROBLEM_PREFIX + "malformed-json",
                                        wp.PROBLEM_PREFIX + "invalid-request"), r)

    @staticmethod
    def nested(depth):
        """{"name": [[...]]} with `depth` containers in all (the object
        counts as one)."""
        inner = depth - 1
        return b'{"name":' + b"[" * inner + b"]" * inner + b"}"

    def test_nesting_64_is_parsed(self):
        # 64 levels is within the limit: valid JSON, but name is not a string
        r = self.req("POST", "/api/players", self.nested(64), JSON)
        self.assertProblem(r, 400, "invalid-request", field="name")

    def test_nesting_65_is_malformed(self):
        r = self.req("POST", "/api/players", self.nested(65), JSON)
        self.assertProblem(r, 400, "malformed-json")

    def test_very_deep_nesting(self):
        # 20 KB stays under the body limit: the parser itself must refuse it
        r = self.req("POST", "/api/players", b"[" * 20000, JSON)
        self.assertProblem(r, 400, "malformed-json")
        body = b'{"a":' * 4000 + b"1" + b"}" * 4000
        r = self.req("POST", "/api/players", body, JSON)
        self.assertProblem(r, 400, "malformed-json")
        self.assertEqual(self.req("GET", "/api/health").status, 200)

    def test_valid_escapes_accepted(self):
        r = self.req("POST", "/api/players", b'{"name":"\\u00c9mile \\ud83d\\ude00"}', JSON)
        self.assertEqual(r.status, 201, r)
        self.assertEqual(r.json()["name"], "\u00c9mile \U0001F600")


class MediaTypeTest(wp.ServerTestCase):

    def test_415(self):
        for ct in ("text/plain", "application/x-www-form-urlencoded", "application/jsonx",
                   "application/json-patch+json", "text/json", "multipart/form-data; boundary=x",
                   "application/xml"):
            with self.subTest(ct=ct):
                r = self.req("POST", "/api/players", b'{"name":"Alice"}', {"Content-Type": ct})
                self.assertProblem(r, 415, "unsupported-media-type")

    def test_415_without_content_type(self):
        r = self.req("POST", "/api/players", b'{"name":"Alice"}', {})
        self.assertProblem(r, 415, "unsupported-media-type")

    def test_charset_parameter_accepted(self):
        for ct in ("application/json; charset=utf-8", "application/json;charset=UTF-8",
                   "Application/JSON"):
            with self.subTest(ct=ct):
                r = self.req("POST", "/api/players", b'{"name":"Alice"}', {"Content-Type": ct})
                self.assertEqual(r.status, 201, r)


class BadPathTest(wp.ServerTestCase):

    def test_bad_paths(self):
        for path in ("/api/health%00", "/api/%00health", "/index.html%00.png", "/%00",
                     "/api/health%zz", "/api/%g1", "/api/health%", "/api/health%4",
                     "/index.html%2"):
            with self.subTest(path=path):
                r = self.req("GET", path)
                self.assertProblem(r, 400, "bad-path")

    def test_raw_nul_byte_in_request_target(self):
        """A NUL byte sent as such (not %00) must not cut the path short:
        /index.html<NUL>.png is not /index.html. The answer is a 400 (from
        the HTTP layer or bad-path) or a closed connection."""
        for target in (b"/index.html\x00.png", b"/api/health\x00junk", b"/api/he\x00alth"):
            with self.subTest(target=target):
                r = wp.raw_request(self.server.port, b"GET " + target + b" HTTP/1.1\r\n"
                                   b"Host: x\r\nConnection: close\r\n\r\n")
                self.assertIn(r.status, (400, None), r)
        self.assertEqual(self.req("GET", "/api/health").status, 200)


class ProblemShapeTest(wp.ServerTestCase):

    def test_problem_fields(self):
        r = self.req("GET", "/api/nope")
        doc = self.assertProblem(r, 404, "not-found")
        self.assertTrue(doc["type"].startswith("urn:warpost:problem:"))
        # a problem answer is never cached as a resource
        self.assertNotIn("etag", r.headers, r)


if __name__ == "__main__":
    wp.main()
