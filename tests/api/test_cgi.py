"""warpostd as a CGI program (one request per run) answers like the HTTP
front."""
import os
import subprocess
import sys
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import warpost as wp  # noqa: E402


class CgiTest(wp.ServerTestCase):
    """self.server: HTTP front (it also applies the migrations);
    self.cgi: the same requests as CGI runs on the same database."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.cgi = wp.CgiClient(cls.db.url)

    def test_same_answers_as_http(self):
        http = wp.run_comparison_set(self.server)
        cgi = wp.run_comparison_set(self.cgi)
        for label in http:
            with self.subTest(label):
                self.assertEqual(cgi[label], http[label])
        want = {"health": 200, "unknown route": 404, "method not allowed": 405,
                "unsupported media type": 415, "malformed json": 400,
                "invalid request": 400, "create player": 201, "me": 200,
                "me without token": 401, "me with wrong token": 401,
                "body too large": 413, "bad path": 400}
        self.assertEqual({k: v["status"] for k, v in cgi.items()}, want)

    def test_a_change_through_cgi_is_told_to_other_instances(self):
        """Plain CGI runs no LISTEN thread to send its notifications: the
        CGI run sends NOTIFY wp_game 'id:version' itself before it exits
        (srv/store/tell.c), which is how other instances hear of it."""
        def call(method, path, body=None, token=None):
            h = {"Authorization": "Bearer " + token} if token else None
            r = self.cgi.request(method, path, body, h)
            self.assertLess(r.status, 300, r)
            return wp.json_of(r, "application/json")
        ann = call("POST", "/api/players", {"name": "Ann"})
        ben = call("POST", "/api/players", {"name": "Ben"})
        g = call("POST", "/api/games", {"ruleset": "confrontation", "seats": 2, "seat": 0},
                 ann["token"])
        # psql prints the notifications it heard after each command.
        listener = subprocess.Popen(["psql", "-X", "-q", self.db.url], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        listener.stdin.write("LISTEN wp_game;\nSELECT 'listening';\n")
        listener.stdin.flush()
        self.assertIn("listening", listener.stdout.readline() + listener.stdout.readline()
                      + listener.stdout.readline())
        call("POST", "/api/games/%d/join" % g["id"], {"code": g["invitations"][0]["code"]},
             ben["token"])
        out, _ = listener.communicate("SELECT 1;\n", timeout=30)
        self.assertRegex(out, r'notification "wp_game" with payload "%d:\d+"' % g["id"])

    def test_exit_code_and_output(self):
        r = wp.cgi("GET", "/api/health", env={"DATABASE_URL": self.db.url})
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(wp.json_of(r, "application/json").get("status"), "ok")
        r = wp.cgi("GET", "/api/nope", env={"DATABASE_URL": self.db.url})
        wp.assert_problem(r, 404, "not-found")
        self.assertEqual(r.returncode, 0, "a 404 is a served request: %s" % r.stderr)

    def test_query_string_and_head(self):
        r = wp.cgi("GET", "/api/health", query="x=1", env={"DATABASE_URL": self.db.url})
        self.assertEqual(r.status, 200, r)
        r = wp.cgi("HEAD", "/api/health", env={"DATABASE_URL": self.db.url})
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.body, b"", r)

    def test_static_file(self):
        with open(os.path.join(wp.WEB_DIR, "index.html"), "rb") as f:
            want = f.read()
        r = wp.cgi("GET", "/", env={"DATABASE_URL": self.db.url})
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.body, want)
        self.assertEqual(wp.norm_content_type(r.headers.get("content-type")),
                         "text/html;charset=utf-8")

    def test_content_length_larger_than_stdin(self):
        """CONTENT_LENGTH says more than stdin holds (client went away):
        an error answer, not a hang and not a player."""
        r = wp.cgi("POST", "/api/players", headers={"Content-Type": "application/json",
                                                    "Content-Length": "5000"},
                   body=b'{"name":"Short"}', env={"DATABASE_URL": self.db.url}, timeout=20)
        self.assertEqual(r.status, 400, r)
        self.assertEqual(self.db.psql("SELECT count(*) FROM players WHERE name = 'Short'")
                         .strip(), "0")


if __name__ == "__main__":
    wp.main()
