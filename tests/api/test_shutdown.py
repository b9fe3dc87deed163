"""Graceful shutdown on SIGTERM: exit code 0, database connections closed,
requests in flight still answered, idle connections no obstacle."""
import json
import os
import signal
import sys
import time
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import warpost as wp  # noqa: E402




class ShutdownTest(wp.ServerTestCase):
    start_server = False

    def new_server(self):
        db = self.pg.create_database()
        self.addCleanup(db.drop)
        s = wp.Server(db.url)
        self.addCleanup(s.kill)
        s.start()
        return s, db

    def test_sigterm_exit_0_and_connections_closed(self):
        s, db = self.new_server()
        # use the database through a few requests so the pool is warm
        for i in range(6):
            self.assertEqual(s.request("POST", "/api/players", {"name": "p%d" % i}).status, 201)
        self.assertGreater(db.connection_count(), 0,
                           "the server holds no connection to its database?")
        t0 = time.monotonic()
        log = s.stop(timeout=15)
        took = time.monotonic() - t0
        self.assertLess(took, 5.0, "shutdown took %.1f s" % took)
        n = wp.wait_until(lambda: db.connection_count() == 0, 5)
        self.assertTrue(n, "connections to %s still open after exit: %d\n%s" % (
            db.name, db.connection_count(), log))

    def test_in_flight_request_is_answered(self):
        """Headers sent, SIGTERM, then the body: the request still gets its
        full answer, and the server then exits 0."""
        s, db = self.new_server()
        body = json.dumps({"name": "Inflight"}).encode()
        head = wp.http_request_bytes("POST", "/api/players",
                                     {"Content-Type": "application/json",
                                      "Content-Length": str(len(body))})
        with wp.raw_connect(s.port, timeout=15) as c:
            c.sendall(head)
            time.sleep(0.3)
            s.signal(signal.SIGTERM)
            time.sleep(0.5)
            try:
                c.sendall(body)
            except OSError as e:
                self.fail("server dropped the connection of a request in flight: %s" % e)
            raw = wp.read_reply(c, timeout=10)
        r = wp.parse_reply(raw)
        self.assertEqual(r.status, 201, "in-flight request not answered: %r\n%s" % (
            raw, s.stderr_text()))
        doc = json.loads(r.body)
        self.assertEqual(doc["name"], "Inflight")
        self.assertRegex(doc["token"], wp.TOKEN_RE)
        s.stop(timeout=15)
        self.assertEqual(db.psql("SELECT count(*) FROM players WHERE name = 'Inflight'").strip(),
                         "1")

    def test_idle_connections_do_not_hold_shutdown(self):
        """An idle keep-alive connection and a connection that never sent
        anything must not keep the server alive: container runtimes kill
        after ~10 s."""
        s, db = self.new_server()
        idle = wp.raw_connect(s.port)
        keep = wp.raw_connect(s.port)
        keep.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        first = wp.parse_reply(wp.read_reply(keep, timeout=5))
        self.assertEqual(first.status, 200, first)
        try:
            t0 = time.monotonic()
            s.stop(timeout=15)
            took = time.monotonic() - t0
        finally:
            idle.close()
            keep.close()
        self.assertLess(took, 5.0, "shutdown with idle connections took %.1f s" % took)

    def test_sigint_also_stops_cleanly(self):
        s, db = self.new_server()
        s.signal(signal.SIGINT)
        try:
            s.proc.wait(15)
        except Exception:
            self.fail("no exit within 15 s of SIGINT")
        s.stop()   # checks the exit code, cleans up


if __name__ == "__main__":
    wp.main()
