"""DATABASE_DIRECT_URL (docs/operations.md, scale-out): the LISTEN
connection and the migrations use it, the pool uses DATABASE_URL. Behind a
pooler in transaction mode LISTEN must not go through the pooler.

Shown here without a pooler: DATABASE_URL reaches PostgreSQL over TCP,
DATABASE_DIRECT_URL over its Unix socket; PostgreSQL's own view of its
connections shows the LISTEN connection on the socket and the pool on TCP,
and a long-poll is woken by a turn (the NOTIFY reached the LISTEN
connection opened on DATABASE_DIRECT_URL)."""
import re
import threading
import unittest

import matchlib as ml
from matchlib import wp


class DirectUrlTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.pg = wp.PgCluster.shared()
        cls.db = cls.pg.create_database()
        cls.addClassCleanup(cls.db.drop)

    def test_listen_on_the_direct_url_wakes_long_polls(self):
        tcp = re.sub(r"host=[^&]*", "host=127.0.0.1", self.db.url)
        self.assertNotEqual(tcp, self.db.url, "the test URL names its socket directory")
        server = wp.Server(tcp, env={"DATABASE_DIRECT_URL": self.db.url}).start()
        self.addCleanup(server.stop)
        rows = wp.wait_until(lambda: self.db.psql(
            "SELECT application_name, client_addr IS NULL FROM pg_stat_activity "
            "WHERE datname = current_database() AND application_name LIKE 'warpostd%' "
            "ORDER BY 1").split() or None, 10, 0.1)
        self.assertIn("warpostd-listen|t", rows, "LISTEN is on the socket (DATABASE_DIRECT_URL)")
        self.assertNotIn("warpostd|t", rows, "the pool is on TCP (DATABASE_URL): %r" % rows)
        a, b = ml.Client(server, "Ann"), ml.Client(server, "Ben")
        game = ml.start_match([a, b])
        etag = b.view(game).headers["etag"]
        got = {}

        def waiter():
            got["r"] = b.req("GET", "/api/games/%d?wait=30" % game,
                             headers={"If-None-Match": etag}, timeout=40)
        t = threading.Thread(target=waiter)
        t.start()
        acts = a.actions(game)
        wp.wait_until(lambda: False, 0.3, 0.1)
        self.assertEqual(a.turn(game, acts["seq"], [acts["actions"][0]]).status, 200)
        t.join(35)
        self.assertEqual(got["r"].status, 200, "the long-poll was woken by the turn")


if __name__ == "__main__":
    wp.main()
