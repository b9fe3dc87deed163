"""Issue 31: a database that answers but may not write (a primary demoted
in a failover, or a standby a connection landed on) is a 503 with
Retry-After, never a 500, and warpostd writes again by itself once the
database does.

The server's connections are made while the database writes; then
default_transaction_read_only is turned on for the whole cluster (its own,
private: ALTER SYSTEM) and reloaded, so those same connections answer
every write with SQLSTATE 25006, as a demoted primary's would. The slow
test with a real failover (pg_auto_failover) is tests/ops/test_failover.py."""
import uuid

import matchlib as ml
from matchlib import wp


def move(a, b):
    return {"type": "move", "from": a, "to": b}


class ReadOnlyDatabaseTest(wp.ServerTestCase):

    private_cluster = True

    def read_only(self, on):
        self.pg.psql("ALTER SYSTEM %s default_transaction_read_only %s"
                     % (("SET", "= on") if on else ("RESET", "")))
        self.pg.psql("SELECT pg_reload_conf()")

    def test_read_only_is_503_then_writes_again(self):
        s = self.server
        a, b = ml.Client(s, "Alice"), ml.Client(s, "Bob")
        game = ml.start_match([a, b], {"turn_limit": 100})
        self.assertEqual(a.turn(game, 1, [move("d1", "d2")]).status, 200)
        self.addCleanup(self.read_only, False)
        self.read_only(True)
        key = uuid.uuid4().hex
        # every write while it lasts: 503 with Retry-After (the pooled
        # connections answer 25006; new ones are refused by libpq's
        # target_session_attrs=read-write)
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


if __name__ == "__main__":
    wp.main()
