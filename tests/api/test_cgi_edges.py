"""CGI edges (issue 16, item 9): warpostd as a CGI program answers, with a
problem document, when it cannot start, when CONTENT_LENGTH or
REQUEST_METHOD is wrong, and when the body never comes."""
import os
import subprocess
import sys
import time
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import warpost as wp  # noqa: E402


class CgiEdgesTest(wp.ServerTestCase):
    """self.server applies the migrations; the CGI runs share its database."""

    def run_cgi(self, method, path, **kw):
        env = kw.pop("env", {})
        env.setdefault("DATABASE_URL", self.db.url)
        return wp.cgi(method, path, env=env, **kw)

    def players_named(self, name):
        return self.db.psql("SELECT count(*) FROM players WHERE name = '%s'" % name).strip()

    def test_item9_database_unreachable_is_503(self):
        url = "postgresql://nobody@127.0.0.1:%d/none?connect_timeout=2" % wp.free_port()
        r = wp.cgi("GET", "/api/health", env={"DATABASE_URL": url}, timeout=30)
        wp.assert_problem(r, 503, "database-unavailable")
        self.assertEqual(r.headers.get("retry-after"), "1", r)
        self.assertEqual(r.returncode, 1, r.stderr)

    def test_item9_migrations_missing_is_503(self):
        r = self.run_cgi("POST", "/api/players", body={"name": "NoMig"},
                         env={"MIGRATIONS_DIR": "/nonexistent-warpost-sql"})
        wp.assert_problem(r, 503, "database-unavailable")
        self.assertEqual(r.headers.get("retry-after"), "1", r)
        r = self.run_cgi("HEAD", "/api/health", env={"MIGRATIONS_DIR": "/nonexistent"})
        self.assertEqual(r.status, 503, r)
        self.assertEqual(r.body, b"", r)

    def test_item9_content_length_strict(self):
        body = b'{"name":"CLen"}'
        for cl in ("abc", "-1", "13 ", "+15", " 15", "1e2", "0x0f", "15,15", "１５"):
            with self.subTest(cl=cl):
                r = self.run_cgi("POST", "/api/players", body=body,
                                 headers={"Content-Type": "application/json",
                                          "Content-Length": cl})
                wp.assert_problem(r, 400, "bad-framing")
        self.assertEqual(self.players_named("CLen"), "0")
        r = self.run_cgi("POST", "/api/players", body=body,
                         headers={"Content-Type": "application/json",
                                  "Content-Length": "99999999999999999999999999"})
        wp.assert_problem(r, 413, "body-too-large")
        r = self.run_cgi("POST", "/api/players", body=body,
                         headers={"Content-Type": "application/json", "Content-Length": "015"})
        self.assertEqual(r.status, 201, r)

    def test_item9_missing_request_method(self):
        for method in (None, ""):
            with self.subTest(method=method):
                env = wp.cgi_env("GET", "/api/health", env={"DATABASE_URL": self.db.url})
                if method is None:
                    del env["REQUEST_METHOD"]
                else:
                    env["REQUEST_METHOD"] = method
                p = subprocess.run([wp.WARPOSTD], input=b"", capture_output=True, env=env,
                                   timeout=30, cwd="/")
                r = wp.parse_cgi_output(p.stdout)
                wp.assert_problem(r, 400, "bad-framing")

    def test_item9_short_body_with_stdin_open(self):
        env = wp.cgi_env("POST", "/api/players",
                         headers={"Content-Type": "application/json", "Content-Length": "100"},
                         env={"DATABASE_URL": self.db.url, "CONNECTION_TIMEOUT": "1"})
        p = subprocess.Popen([wp.WARPOSTD], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env, cwd="/")
        try:
            p.stdin.write(b'{"name":"Slow"}')
            p.stdin.flush()
            t0 = time.monotonic()
            while p.poll() is None and time.monotonic() - t0 < 15:
                time.sleep(0.05)
            self.assertIsNotNone(p.poll(), "the CGI run hangs on a short body")
            out = p.stdout.read()
        finally:
            if p.poll() is None:
                p.kill()
            p.wait()
            p.stdin.close()
        self.assertLess(time.monotonic() - t0, 10)
        wp.assert_problem(wp.parse_cgi_output(out), 400, "bad-framing")
        self.assertEqual(self.players_named("Slow"), "0")


if __name__ == "__main__":
    wp.main()
