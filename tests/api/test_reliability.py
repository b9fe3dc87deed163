"""Issue 16, "Reliability and security": each item's reproduction, named
after the item (the CGI edges of item 9 are in test_cgi_edges.py)."""
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


class RetryAfterTest(unittest.TestCase):
    """item 4: every 503 carries Retry-After. Stops the database under a
    running server, so a cluster of its own."""

    @classmethod
    def setUpClass(cls):
        cls.pg = wp.PgCluster(private=True).start()
        cls.addClassCleanup(cls.pg.close)
        cls.db = cls.pg.create_database()
        cls.server = wp.Server(cls.db.url).start()
        cls.addClassCleanup(cls.server.stop)

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
