"""A request of an event loop that finds every pooled PostgreSQL
connection taken (issue 32, "what is left": the wait for a free pooled
connection). It waits in its coroutine, the loop serves other requests
meanwhile, and it is woken when a connection is given back, not by
polling: before, the waiting coroutine looked every millisecond, about a
thousand wake-ups of its loop a second of waiting (srv/store/pool.c,
wp_store_get; srv/store/health.c, wp_pool_wake).

One loop and one pooled connection. A row lock taken from psql holds the
one connection in a turn's statement for as long as the test keeps it; a
second turn then waits for the connection. No timed assertion: the
deadlines are generous (a request that does not come back is a hang), and
what is counted is the server's context switches while the second turn
waits, which a loop woken every millisecond makes by the hundred."""
import glob
import os
import subprocess
import threading
import time

import matchlib as ml
from matchlib import wp

HOLD_S = 1.0     # how long the waiting request is watched
HANG = 60        # a request that takes longer than this is a hang


def switches(pid):
    """The context switches of every thread of the process so far."""
    total = 0
    for path in glob.glob("/proc/%d/task/*/status" % pid):
        try:
            with open(path) as f:
                for line in f:
                    if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                        total += int(line.split()[1])
        except FileNotFoundError:
            pass   # a thread that ended
    return total


class PoolWaitTest(wp.ServerTestCase):

    server_env = {"EVENT_LOOPS": "1", "DB_POOL_SIZE": "1",
                  "DB_POOL_WAIT_MS": "30000", "DB_LOCK_TIMEOUT_MS": "30000",
                  "DB_STATEMENT_TIMEOUT_MS": "30000",
                  # the notification worker polls through the pool
                  "NOTIFY_POLL_MS": "600000"}

    def psql_one(self, sql):
        return self.db.psql(sql).strip()

    def test_a_waiting_request_is_woken_when_a_connection_is_given_back(self):
        s = self.server
        a, b = ml.Client(s, "Alice"), ml.Client(s, "Bob")
        held, other = ml.start_match([a, b]), ml.start_match([a, b])
        turns = {}
        for g in (held, other):
            acts = a.actions(g)
            self.assertTrue(acts["awaited"], acts)
            turns[g] = {"seq": acts["seq"], "actions": [acts["actions"][0]]}

        # psql holds the held match's row: its turn's statement waits on
        # the lock, with the pool's one connection.
        locker = subprocess.Popen(
            [os.path.join(wp.pg_bindir(), "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", self.db.url],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.addCleanup(lambda: locker.poll() is None and locker.kill())
        locker.stdin.write("BEGIN;\nSELECT id FROM games WHERE id = %d FOR UPDATE;\n"
                           "SELECT 'locked';\n" % held)
        locker.stdin.flush()
        self.assertTrue(wp.wait_until(lambda: self.psql_one(
            "SELECT count(*) FROM pg_stat_activity WHERE state = 'idle in transaction'"
            " AND query LIKE 'SELECT ''locked''%'") == "1", 30), "psql took no lock")

        replies = {}

        def post(g):
            replies[g] = s.request("POST", "/api/games/%d/turns" % g, turns[g],
                                   ml.auth(a.token), timeout=HANG)

        first = threading.Thread(target=post, args=(held,))
        first.start()
        self.assertTrue(wp.wait_until(lambda: self.psql_one(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
            " AND application_name = 'warpostd'") == "1", 30),
            "the turn's statement never waited on the row lock")

        waits = wp.metric(s, "warpost_db_pool_waits_total")
        second = threading.Thread(target=post, args=(other,))
        second.start()
        # /metrics is answered by the same loop while the turn waits
        self.assertTrue(wp.wait_until(
            lambda: wp.metric(s, "warpost_db_pool_waits_total") > waits, 30),
            "the second turn never waited for the pool's connection")
        before = switches(s.pid)
        time.sleep(HOLD_S)
        during = switches(s.pid) - before
        self.assertTrue(second.is_alive(), "the second turn ended while the connection was held")

        locker.stdin.write("COMMIT;\n")
        locker.stdin.close()
        self.assertEqual(locker.wait(30), 0, locker.stderr.read())
        first.join(HANG)
        second.join(HANG)
        for g in (held, other):
            self.assertEqual(replies[g].status, 200, replies[g])
            self.assertEqual(replies[g].json()["seq"], 2, replies[g])
        # Woken by the connection given back: a handful of switches of
        # the server's threads (the monitor's check, /metrics) in the
        # second, not one a millisecond.
        self.assertLess(during, 200, "%d context switches of warpostd in %.1f s of waiting"
                        % (during, HOLD_S))
        self.assertEqual(wp.metric(s, "warpost_db_pool_waits_total"), waits + 1)


if __name__ == "__main__":
    wp.main()
