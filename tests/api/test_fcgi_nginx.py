"""The FastCGI front behind a real nginx (nginx/*.conf.in) answers like the
HTTP front, and nginx serves web/."""
import os
import re
import sys
import time
import unittest
from concurrent.futures import ThreadPoolExecutor

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import warpost as wp  # noqa: E402


class FcgiNginxTest(wp.NginxTestCase):
    """self.server: HTTP front; self.fcgi + self.nginx: FastCGI front, all
    on the same database."""

    def test_same_answers_as_http(self):
        http = wp.run_comparison_set(self.server)
        fcgi = wp.run_comparison_set(self.nginx)
        for label in http:
            with self.subTest(label):
                self.assertEqual(fcgi[label], http[label],
                                 "\nnginx log:\n%s" % self.nginx.stderr_text()[-2000:])
        # and the expected statuses, so that two equally broken fronts fail
        want = {"health": 200, "unknown route": 404, "method not allowed": 405,
                "unsupported media type": 415, "malformed json": 400,
                "invalid request": 400, "create player": 201, "me": 200,
                "me without token": 401, "me with wrong token": 401,
                "body too large": 413, "bad path": 400}
        self.assertEqual({k: v["status"] for k, v in fcgi.items()}, want)

    def test_fcgi_requests_are_logged(self):
        tag = wp.random_suffix()
        r = self.nginx.request("GET", "/api/log-" + tag)
        self.assertEqual(r.status, 404, r)
        rx = re.compile(r"(?<!\S)GET\s+/api/log-%s\s+404\s+\d+(?:\.\d+)?\s?(?:ns|us|\u00b5s|ms|s)\b"
                        % tag)
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            found = [l for l in self.fcgi.log_lines() if rx.search(l)]
            if found:
                break
            time.sleep(0.05)
        self.assertEqual(len(found), 1, self.fcgi.stderr_text()[-2000:])

    def test_static_from_web(self):
        for name, ctype in (("index.html", "text/html; charset=utf-8"),
                            ("app.js", "text/javascript; charset=utf-8"),
                            ("style.css", "text/css; charset=utf-8")):
            path = os.path.join(wp.WEB_DIR, name)
            if not os.path.exists(path):
                continue
            with self.subTest(name=name):
                with open(path, "rb") as f:
                    want = f.read()
                r = self.nginx.request("GET", "/" + name)
                self.assertEqual(r.status, 200, r)
                self.assertEqual(r.body, want)
                self.assertEqual(wp.norm_content_type(r.headers.get("content-type")),
                                 wp.norm_content_type(ctype), r)
                self.assertEqual(r.headers.get("cache-control", "").lower(), "no-cache", r)
                etag = r.headers.get("etag")
                self.assertTrue(etag, r)
                r2 = self.nginx.request("GET", "/" + name, headers={"If-None-Match": etag})
                self.assertEqual(r2.status, 304, r2)
                # same type as the HTTP front gives
                h = self.req("GET", "/" + name)
                self.assertEqual(wp.norm_content_type(h.headers.get("content-type")),
                                 wp.norm_content_type(r.headers.get("content-type")))
        with open(os.path.join(wp.WEB_DIR, "index.html"), "rb") as f:
            index = f.read()
        r = self.nginx.request("GET", "/")
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.body, index)

    def test_static_traversal_via_nginx(self):
        for path in ("/../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/%2E%2E%2Fetc%2Fpasswd",
                     "/a/..%2f..%2fetc/passwd", "/api/..%2f..%2f..%2fetc/passwd"):
            with self.subTest(path=path):
                r = self.nginx.request("GET", path)
                self.assertIn(r.status, (400, 404), r)
                self.assertNotIn(b"root:x:0:0", r.body)

    def test_body_over_the_proxy_limit(self):
        body = b'{"name":"' + b"x" * (2 * 1024 * 1024) + b'"}'
        r = self.nginx.request("POST", "/api/players", body, {"Content-Type": "application/json"})
        wp.assert_problem(r, 413, "body-too-large")

    def test_concurrent_requests(self):
        with ThreadPoolExecutor(max_workers=12) as pool:
            replies = list(pool.map(lambda i: self.nginx.request(
                "POST", "/api/players", {"name": "c%d" % i}), range(30)))
        self.assertEqual([r.status for r in replies], [201] * 30, replies[:3])
        self.assertEqual(len({r.json()["id"] for r in replies}), 30)


if __name__ == "__main__":
    wp.main()
