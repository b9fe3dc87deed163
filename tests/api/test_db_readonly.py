"""Issue 31: a database that answers but may not write (a primary demoted
in a failover, or a standby a connection landed on) is a 503 with
Retry-After, never a 500, and warpostd writes again by itself once the
database does. And a multi-host DATABASE_URL whose first host never
answers (a machine gone: it takes the connection and says nothing) still
gets warpostd to the next host.

default_transaction_read_only is turned on for the database and the
server's sessions are ended: the ones it makes next (its URL allows any
server, target_session_attrs=any) answer every write with SQLSTATE 25006,
as a standby or a demoted primary does. The slow
test with a real failover (pg_auto_failover) is tests/ops/test_failover.py."""
import socket
import urllib.parse
import uuid

import matchlib as ml
from matchlib import wp


def move(a, b):
    return {"type": "move", "from": a, "to": b}


class ReadOnlyDatabaseTest(wp.ServerTestCase):
    """The server's URL says target_session_attrs=any, so that its
    connections are made to a database whose sessions are read-only, as
    to a standby: every write then gets 25006 from PostgreSQL."""

    start_server = False

    def read_only(self, on):
        """Sessions of the database read-only (or not again), and every
        session of the server ended, so that the next are made so (the
        settings of a session are taken when it starts)."""
        self.pg.psql("ALTER DATABASE %s %s default_transaction_read_only %s" % (
            self.db.name, *(("SET", "= on") if on else ("RESET", ""))))
        pids = self.db.psql("SELECT pg_terminate_backend(pid), pid FROM pg_stat_activity "
                            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                            ).split()
        gone = [p.split("|")[1] for p in pids]
        self.assertTrue(wp.wait_until(lambda: not gone or self.db.psql(
            "SELECT count(*) FROM pg_stat_activity WHERE pid IN (%s)" % ",".join(gone)
        ).strip() == "0", 60), "the server's sessions did not end")

    def setUp(self):
        url = self.db.url + ("&" if "?" in self.db.url else "?") + "target_session_attrs=any"
        self.server = wp.Server(url)
        self.addCleanup(self.server.stop, expect_code=None)
        self.server.start()

    def test_read_only_is_503_then_writes_again(self):
        s = self.server
        a, b = ml.Client(s, "Alice"), ml.Client(s, "Bob")
        game = ml.start_match([a, b], {"turn_limit": 100})
        self.assertEqual(a.turn(game, 1, [move("d1", "d2")]).status, 200)
        self.addCleanup(self.read_only, False)
        self.read_only(True)
        key = uuid.uuid4().hex
        # every write while it lasts: 503 with Retry-After (25006)
        for _ in range(3):
            r = b.turn(game, 2, [move("d8", "d7")], key=key)
            self.assertEqual(r.status, 503, r)
            self.assertTrue(r.headers.get("retry-after"), r)
            r = s.request("POST", "/api/players", {"name": "During"})
            self.assertEqual(r.status, 503, r)
        # the health monitor says so too: its check asks whether it may write
        r = wp.wait_until(lambda: (lambda x: x if x.status == 503 else None)(
            s.request("GET", "/api/health")), 30)
        self.assertIsNotNone(r, "health never said 503 with the database read-only")
        self.assertFalse(any(" 500 " in line for line in s.log_lines()),
                         "a 500 while read-only:\n" + "\n".join(s.log_lines()[-20:]))
        self.read_only(False)
        # the same post, retried with its key, is applied once
        r = wp.wait_until(lambda: (lambda x: x if x.status == 200 else None)(
            b.turn(game, 2, [move("d8", "d7")], key=key)), 60, 0.2)
        self.assertIsNotNone(r, "no write was accepted once the database wrote again")
        again = b.turn(game, 2, [move("d8", "d7")], key=key)
        self.assertEqual((again.status, again.json()), (200, r.json()))
        rows = self.db.psql("SELECT seq FROM posts WHERE game_id = %d AND kind = 'turn' "
                            "ORDER BY seq" % game).split()
        self.assertEqual(rows, ["2", "3"])
        self.assertEqual(s.request("GET", "/api/health").status, 200)


class SilentFirstHostTest(wp.ServerTestCase):
    """host=<silent>,<the database>: the silent one is a socket that
    listens and never answers, as a stopped server or a machine gone."""

    start_server = False

    def test_the_next_host_is_tried(self):
        silent = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.addCleanup(silent.close)
        silent.bind(("127.0.0.1", 0))
        silent.listen(128)
        u = urllib.parse.urlparse(self.db.url)
        q = {k: v[0] for k, v in urllib.parse.parse_qs(u.query).items()}
        host = q.get("host") or u.hostname
        port = q.get("port") or str(u.port or 5432)
        url = "host=127.0.0.1,%s port=%d,%s dbname=%s user=%s connect_timeout=2" % (
            host, silent.getsockname()[1], port, u.path.lstrip("/"), q.get("user") or u.username)
        # the migrations and LISTEN connect blocking, with libpq's own
        # per-host connect_timeout (the URL's 2 s); the pool and the
        # health monitor without blocking, each host with its share of
        # DB_CONNECT_TIMEOUT_MS
        s = wp.Server(url)
        self.addCleanup(s.stop, expect_code=None)
        s.start(wait=False)
        s.wait_ready(120)
        a, b = ml.Client(s, "Alice"), ml.Client(s, "Bob")
        game = ml.start_match([a, b], {"turn_limit": 100})
        r = a.turn(game, 1, [move("d1", "d2")])
        self.assertEqual(r.status, 200, r)
        self.assertEqual(s.request("GET", "/api/health").status, 200)


if __name__ == "__main__":
    wp.main()
