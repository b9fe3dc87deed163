"""Access log: one stderr line per request with method, path, status and a
duration, e.g. "GET /api/health 200 0.42ms"."""
import concurrent.futures
import http.client
import os
import re
import sys
import time
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import warpost as wp  # noqa: E402

DURATION = r"\d+(?:\.\d+)?\s?(?:ns|us|\u00b5s|ms|s)\b"


def line_re(method, path, status):
    return re.compile(r"(?<!\S)%s\s+%s\s+%d\s+%s" % (
        re.escape(method), re.escape(path), status, DURATION))


class LoggingTest(wp.ServerTestCase):

    def lines_matching(self, rx, want, timeout=3.0):
        """Wait until `want` lines match (logs may be written just after
        the answer), then a little longer to catch extra ones."""
        deadline = time.monotonic() + timeout
        while True:
            found = [l for l in self.server.log_lines() if rx.search(l)]
            if len(found) >= want or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        time.sleep(0.2)
        return [l for l in self.server.log_lines() if rx.search(l)]

    def test_one_line_per_request(self):
        tag = wp.random_suffix()
        cases = [
            ("GET", "/api/nope-" + tag, None, 404),
            ("POST", "/api/players", {"name": "log-" + tag}, 201),
            ("DELETE", "/api/health", None, 405),
            ("GET", "/missing-" + tag + ".css", None, 404),
        ]
        for method, path, body, status in cases:
            with self.subTest(method=method, path=path):
                r = self.req(method, path, body)
                self.assertEqual(r.status, status, r)
        for method, path, body, status in cases:
            if path == "/api/players":
                continue   # not unique to this test
            with self.subTest(method=method, path=path):
                rx = line_re(method, path, status)
                found = self.lines_matching(rx, 1)
                self.assertEqual(len(found), 1, "want one line like %r, stderr:\n%s" % (
                    rx.pattern, self.server.stderr_text()[-3000:]))

    def test_count_matches_requests(self):
        rx = line_re("GET", "/api/health", 200)
        before = len([l for l in self.server.log_lines() if rx.search(l)])
        n = 7
        for _ in range(n):
            self.assertEqual(self.req("GET", "/api/health").status, 200)
        found = self.lines_matching(rx, before + n)
        self.assertEqual(len(found) - before, n, self.server.stderr_text()[-3000:])

    def test_concurrent_lines_whole(self):
        """Under load each loop writes the access lines of one round with
        one write() (core/log.c, wp_log_hold): every request still has its
        line, whole, one a line, and in the order they were answered on a
        connection."""
        tag = wp.random_suffix()
        per, conns = 40, 12
        paths = [["/api/c-%s-%d-%d" % (tag, k, i) for i in range(per)] for k in range(conns)]

        def client(k):
            c = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=60)
            for p in paths[k]:
                c.request("GET", p)
                r = c.getresponse()
                r.read()
                self.assertEqual(r.status, 404)
            c.close()

        with concurrent.futures.ThreadPoolExecutor(conns) as ex:
            for f in [ex.submit(client, k) for k in range(conns)]:
                f.result()
        rx = re.compile(r"/api/c-%s-" % tag)
        found = self.lines_matching(rx, per * conns)
        self.assertEqual(len(found), per * conns, self.server.stderr_text()[-3000:])
        stamp = re.compile(r"\d{4}-\d\d-\d\dT")
        for k in range(conns):
            mine = [l for l in found if "/api/c-%s-%d-" % (tag, k) in l]
            self.assertEqual([re.search(r"/api/\S+", l).group(0) for l in mine], paths[k])
            for line in mine:
                self.assertRegex(line, line_re("GET", re.search(r"/api/\S+", line).group(0), 404))
                self.assertEqual(len(stamp.findall(line)), 1, line)

    def test_health_line(self):
        self.req("GET", "/api/health")
        found = self.lines_matching(line_re("GET", "/api/health", 200), 1)
        self.assertTrue(found, self.server.stderr_text())

    def test_query_string_kept_out_of_the_path(self):
        tag = wp.random_suffix()
        self.req("GET", "/api/q-%s?token=sekrit%s" % (tag, tag))
        found = self.lines_matching(re.compile(r"/api/q-" + tag), 1)
        self.assertEqual(len(found), 1, self.server.stderr_text()[-3000:])
        self.assertRegex(found[0], line_re("GET", "/api/q-" + tag, 404))

    def test_bearer_token_never_logged(self):
        r = self.req("POST", "/api/players", {"name": "Quiet"})
        tok = r.json()["token"]
        self.req("GET", "/api/me", headers={"Authorization": "Bearer " + tok})
        self.req("GET", "/api/me", headers={"Authorization": "Bearer " + tok[::-1]})
        self.lines_matching(line_re("GET", "/api/me", 401), 1)
        self.assertNotIn(tok, self.server.stderr_text())
        self.assertNotIn(tok[::-1], self.server.stderr_text())

    def test_log_line_injection(self):
        """A path with an encoded newline must not start a forged log line."""
        tag = wp.random_suffix()
        forged = "FORGED-" + tag
        self.req("GET", "/api/x%0d%0a" + forged + "%0aGET%20/api/health%20200%201ms")
        raw = wp.raw_request(self.server.port, b"GET /api/y\r" + forged.encode() +
                             b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        self.req("GET", "/api/health")
        self.lines_matching(line_re("GET", "/api/health", 200), 1)
        for line in self.server.log_lines():
            self.assertFalse(line.lstrip().startswith(forged),
                             "forged log line: %r (raw reply %r)" % (line, raw))


if __name__ == "__main__":
    wp.main()
