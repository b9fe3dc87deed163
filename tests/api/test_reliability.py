"""Issue 16, "Reliability and security": each item's reproduction, named
after the item (the CGI edges of item 9 are in test_cgi_edges.py)."""
import base64
import hashlib
import json
import os
import re
import random
import subprocess
import tempfile
import unittest

import matchlib as ml
from matchlib import wp


class ReliabilityTest(wp.ServerTestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.a = ml.Client(cls.server, "Alice")
        cls.b = ml.Client(cls.server, "Bob")
        cls.game = ml.start_match([cls.a, cls.b])

    def unchecked(self, method, path, headers=None):
        """Paths the OpenAPI document does not describe (static files, an
        encoded slash its checker would decode)."""
        return ml._plain_request(self.server, method, path, None, headers)

    def post_raw(self, path, body, token=None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = "Bearer " + token
        return self.server.request("POST", path, body, headers)

    # item 3: two readers of one body must never disagree
    def test_item3_json_nul_in_key(self):
        seq = ml.seq_of(self.a, self.game)
        path = "/api/games/%d/turns" % self.game
        for body in (b'{"seq":%d,"actions":[],"seq\\u0000x":%d}' % (seq, seq + 1),
                     b'{"seq":%d,"actions":[{"type":"buy","piece":"dragon",'
                     b'"piece\\u0000x":"queen"}]}' % seq,
                     b'{"\\u0000":1}'):
            with self.subTest(body=body):
                for p in (self.a, self.b):
                    self.assertProblem(self.post_raw(path, body, p.token), 400,
                                       "malformed-json")
        self.assertProblem(self.post_raw("/api/players", b'{"name":"Al","name\\u0000x":"Bo"}'),
                           400, "malformed-json")
        self.assertEqual(ml.seq_of(self.a, self.game), seq, "a refused body was applied")

    def test_item3_json_nul_in_value(self):
        seq = ml.seq_of(self.a, self.game)
        path = "/api/games/%d/turns" % self.game
        body = b'{"seq":%d,"actions":[{"type":"move\\u0000x"}]}' % seq
        for p in (self.a, self.b):
            self.assertProblem(self.post_raw(path, body, p.token), 400, "invalid-request",
                               field="type")
        self.assertEqual(ml.seq_of(self.a, self.game), seq, "a refused body was applied")

    # item 5: edges
    def test_item5_encoded_slash_does_not_route(self):
        for path in ("/api/games/%d%%2Fturns" % self.game, "/api/games/%d%%2fturns" % self.game,
                     "/api%2Fhealth", "/api/games/%d%%5Cturns" % self.game):
            with self.subTest(path=path):
                r = self.unchecked("GET", path, ml.auth(self.a.token))
                self.assertIn(r.status, (400, 404), r)
                self.assertEqual(r.media_type, wp.PROBLEM_TYPE, r)
        self.assertEqual(self.a.req("GET", "/api/games/%d/turns" % self.game).status, 200)

    def test_item5_static_security_headers(self):
        for path in ("/", "/index.html", "/app.js", "/style.css"):
            with self.subTest(path=path):
                r = self.unchecked("GET", path)
                self.assertEqual(r.status, 200, r)
                csp = r.headers.get("content-security-policy", "")
                for d in ("default-src 'self'", "object-src 'none'", "base-uri 'none'",
                          "frame-ancestors 'none'"):
                    self.assertIn(d, csp, r)
                self.assertEqual(r.headers.get("x-content-type-options"), "nosniff", r)
                self.assertEqual(r.headers.get("referrer-policy"), "no-referrer", r)
                self.assertEqual(r.headers.get("x-frame-options"), "DENY", r)
                etag = r.headers["etag"]
                r = self.unchecked("GET", path, {"If-None-Match": etag})
                self.assertEqual(r.status, 304, r)
                self.assertIn("default-src 'self'", r.headers.get("content-security-policy", ""))

    def test_item5_the_pages_inline_script_is_allowed_by_its_hash_alone(self):
        """web/index.html's one inline script (the match page's first
        reads) runs only because the policy names the SHA-256 of its text:
        a change to the script without the hash would leave the page
        without it (the browser refuses it), and no other inline script is
        allowed (no 'unsafe-inline' for scripts)."""
        r = self.unchecked("GET", "/")
        self.assertEqual(r.status, 200, r)
        csp = r.headers.get("content-security-policy", "")
        scripts = re.findall(r"<script>(.*?)</script>", r.body.decode(), re.S)
        self.assertEqual(len(scripts), 1, "inline scripts in web/index.html")
        digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
        script_src = [d.strip() for d in csp.split(";") if d.strip().startswith("script-src ")]
        self.assertEqual(script_src, ["script-src 'self' 'sha256-%s'" % digest],
                         "the CSP's script-src (srv/core/static.c WP_STATIC_SCRIPT_HASH) "
                         "names the inline script's hash")
        with open(os.path.join(wp.REPO, "nginx", "warpost.conf.in")) as f:
            self.assertIn("script-src 'self' 'sha256-%s';" % digest, f.read(),
                          "nginx's policy for the board names the same hash")

    def test_item5_api_nosniff(self):
        for r in (self.req("GET", "/api/health"), self.a.req("GET", "/api/me"),
                  self.unchecked("GET", "/api/nope"),
                  self.req("GET", "/metrics")):
            with self.subTest(r=r):
                self.assertEqual(r.headers.get("x-content-type-options"), "nosniff", r)

    def test_item5_metrics_public_without_token(self):
        self.assertEqual(self.req("GET", "/metrics").status, 200)

    # item 11: the audit checks what the export declares
    def verify_file(self, doc, cli=ml.WARPOST_CLI):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "match.json")
            with open(path, "w") as f:
                json.dump(doc, f)
            r = subprocess.run([cli, "verify", path], capture_output=True)
        return r.returncode, json.loads(r.stdout)

    def test_item11_product_cli_verify_edited_result(self):
        """build/srv/warpost (the product's CLI) on a real ruleset's export."""
        cli = os.path.join(os.path.dirname(ml.WARPOST_CLI), "..", "..", "srv", "warpost")
        g = self.a.create(2, ruleset="confrontation")
        self.assertEqual(self.b.join(g["id"], g["invitations"][0]["code"]).status, 200)
        self.assertEqual(self.a.req("POST", "/api/games/%d/resign" % g["id"]).status, 200)
        exp = self.server.request("GET", "/api/games/%d/export" % g["id"])
        self.assertEqual(exp.status, 200, exp)
        rc, rep = self.verify_file(json.loads(exp.body), cli)
        self.assertEqual(rc, 0, rep)
        doc = json.loads(exp.body)
        doc["result"]["winners"] = [0]
        rc, rep = self.verify_file(doc, cli)
        self.assertEqual(rc, 1, rep)
        self.assertIn("result.winners", [m.get("field") for m in rep["mismatches"]])

    def test_item11_verify_edited_result(self):
        game = ml.start_match([self.a, self.b], seeds=["a", "b"])
        ml.play_random([self.a, self.b], game, 6, random.Random(11))
        self.assertEqual(self.a.req("POST", "/api/games/%d/resign" % game).status, 200)
        rep = self.server.request("GET", "/api/games/%d/verify" % game).json()
        self.assertTrue(rep["verified"], rep["mismatches"])
        exp = self.server.request("GET", "/api/games/%d/export" % game)
        self.assertEqual(exp.status, 200, exp)
        doc = json.loads(exp.body)
        self.assertEqual(doc["result"]["winners"], [1])
        rc, rep = self.verify_file(doc)
        self.assertEqual(rc, 0, rep)

        edits = {
            "result.winners": lambda d: d["result"].update(winners=[0]),
            "result.reason": lambda d: d["result"].update(reason="king defeated"),
            "result.draw": lambda d: d["result"].update(winners=[], draw=True),
            "result.scores": lambda d: d["result"].update(scores=[3, 1]),
            "result": lambda d: d.update(result=None),
            "status": lambda d: d.update(status="aborted"),
            "client_seeds": lambda d: d["client_seeds"].append("c"),
        }
        for field, edit in edits.items():
            with self.subTest(field=field):
                d = json.loads(exp.body)
                edit(d)
                rc, rep = self.verify_file(d)
                self.assertEqual(rc, 1, rep)
                self.assertFalse(rep["verified"])
                named = [m for m in rep["mismatches"] if m.get("field") == field]
                self.assertTrue(named, rep["mismatches"])
                self.assertIn(field, named[0]["what"])

    def test_item11_verify_agreement_and_abort(self):
        game = ml.start_match([self.a, self.b])
        path = "/api/games/%d/draw" % game
        self.assertEqual(self.b.req("POST", path, {"action": "offer"}).status, 200)
        self.assertEqual(self.a.req("POST", path, {"action": "decline"}).status, 200)
        self.assertEqual(self.a.req("POST", path, {"action": "offer"}).status, 200)
        self.assertEqual(self.b.req("POST", path, {"action": "accept"}).status, 200)
        rep = self.server.request("GET", "/api/games/%d/verify" % game).json()
        self.assertTrue(rep["verified"], rep["mismatches"])
        doc = json.loads(self.server.request("GET", "/api/games/%d/export" % game).body)
        doc["result"]["draw"] = False
        doc["result"]["winners"] = [0]
        rc, rep = self.verify_file(doc)
        self.assertEqual(rc, 1, rep)
        self.assertEqual({m.get("field") for m in rep["mismatches"]},
                         {"result.draw", "result.winners"})
        game = ml.start_match([self.a, self.b])
        self.assertEqual(self.a.req("POST", "/api/games/%d/abort" % game).status, 200)
        rep = self.server.request("GET", "/api/games/%d/verify" % game).json()
        self.assertTrue(rep["verified"], rep["mismatches"])
        g = self.a.create(2)
        self.assertEqual(self.a.req("POST", "/api/games/%d/abort" % g["id"]).status, 200)
        rep = self.server.request("GET", "/api/games/%d/verify" % g["id"]).json()
        self.assertTrue(rep["verified"], rep["mismatches"])


class MetricsTokenTest(wp.ServerTestCase):
    """item 5: METRICS_TOKEN guards /metrics."""
    server_env = {"METRICS_TOKEN": "metrics-s3cret"}

    def test_item5_metrics_token(self):
        for h in (None, {"Authorization": "Bearer wrong"}, {"Authorization": "Bearer metrics-s3cre"},
                  {"Authorization": "Basic bWV0cmljcy1zM2NyZXQ="},
                  {"Authorization": "Bearer metrics-s3cretx"}):
            with self.subTest(h=h):
                r = self.req("GET", "/metrics", headers=h)
                self.assertProblem(r, 401, "unauthorized")
                self.assertIn("Bearer", r.headers.get("www-authenticate", ""))
                self.assertNotIn(b"warpost_", r.body)
        r = self.req("GET", "/metrics", headers={"Authorization": "Bearer metrics-s3cret"})
        self.assertEqual(r.status, 200, r)
        self.assertIn(b"warpost_", r.body)
        self.assertEqual(self.req("GET", "/api/health").status, 200)


class RetryAfterTest(wp.ServerTestCase):
    """item 4: every 503 carries Retry-After. Stops the database under a
    running server, so a cluster of its own."""

    private_cluster = True

    def test_item4_retry_after_on_503(self):
        s = self.server
        self.pg.stop_cluster()
        try:
            r = wp.wait_until(lambda: (lambda x: x if x.status == 503 else None)(
                s.request("GET", "/api/health", timeout=10)), 10)
            self.assertIsNotNone(r, "health never answered 503 with the database stopped")
            self.assertEqual(r.headers.get("retry-after"), "1", r)
            r = s.request("POST", "/api/players", {"name": "During"}, timeout=15)
            wp.assert_problem(r, 503, "database-unavailable")
            self.assertEqual(r.headers.get("retry-after"), "1", r)
        finally:
            self.pg.start_cluster()
        r = wp.wait_until(lambda: (lambda x: x if x.status == 200 else None)(
            s.request("GET", "/api/health", timeout=10)), 20)
        self.assertIsNotNone(r)
        self.assertNotIn("retry-after", r.headers)


if __name__ == "__main__":
    wp.main()
