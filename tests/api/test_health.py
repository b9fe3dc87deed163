"""GET /api/health: shape, methods, and behaviour while the database is down."""
import os
import subprocess
import sys
import time
import threading

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import warpost as wp  # noqa: E402


class HealthTest(wp.ServerTestCase):

    def test_ok(self):
        r = self.req("GET", "/api/health")
        self.assertEqual(r.status, 200, r)
        doc = wp.json_of(r, "application/json")
        self.assertEqual(doc.get("status"), "ok", r)
        self.assertEqual(doc.get("database"), "up", r)
        self.assertIsInstance(doc.get("version"), str, r)
        self.assertTrue(doc["version"], r)

    def test_head_has_headers_and_no_body(self):
        get = self.req("GET", "/api/health")
        raw = wp.raw_exchange(self.server.port, wp.http_request_bytes("HEAD", "/api/health"))
        head, sep, rest = raw.partition(b"\r\n\r\n")
        self.assertTrue(sep, raw)
        r = wp.parse_reply(raw)
        self.assertEqual(r.status, 200, raw)
        self.assertEqual(rest, b"", "HEAD answered with a body: %r" % raw)
        self.assertEqual(r.media_type, "application/json", raw)
        if "content-length" in r.headers:
            self.assertEqual(int(r.headers["content-length"]), len(get.body), raw)

    def test_other_methods_405_with_allow(self):
        for method in ("POST", "PUT", "DELETE", "PATCH"):
            with self.subTest(method=method):
                r = self.req(method, "/api/health")
                self.assertProblem(r, 405, "method-not-allowed")
                self.assertEqual(wp.allow_set(r), {"GET", "HEAD"}, r)

    def test_query_string_ignored(self):
        r = self.req("GET", "/api/health?verbose=1&x=%20")
        self.assertEqual(r.status, 200, r)
        self.assertEqual(wp.json_of(r, "application/json").get("status"), "ok")


class DatabaseDownTest(wp.ServerTestCase):
    """Stops the database under a running server: needs a cluster of its
    own (the shared one serves the other modules)."""

    private_cluster = True
    # What is tested is that requests are refused while it is down and
    # served once it is back, not the deadlines: under the sanitizer build
    # on a machine busy with the main run, a POST just after the restart
    # once got 503 although health said up (a reconnect and its prepared
    # statements missing the default 2 s, or the pool's 500 ms wait). A
    # stopped cluster refuses connections at once, so generous deadlines
    # do not slow the "down" half; the notification worker is kept quiet
    # as in DatabaseRestartTest.
    server_env = {"DB_CHECK_TIMEOUT_MS": "15000", "DB_CONNECT_TIMEOUT_MS": "15000",
                  "DB_STATEMENT_TIMEOUT_MS": "15000", "DB_POOL_WAIT_MS": "15000",
                  "DB_LOCK_TIMEOUT_MS": "60000", "NOTIFY_POLL_MS": "600000"}

    def test_down_then_up(self):
        s = self.server
        r = s.request("GET", "/api/health")
        self.assertEqual(r.status, 200, r)
        r = s.request("POST", "/api/players", {"name": "Before"})
        self.assertEqual(r.status, 201, r)

        self.pg.stop_cluster()
        try:
            r = wp.wait_until(lambda: (lambda x: x if x.status == 503 else None)(
                s.request("GET", "/api/health", timeout=10)), 10)
            self.assertIsNotNone(r, "health never answered 503 with the database stopped")
            self.assertEqual(r.status, 503, r)
            doc = wp.json_of(r, "application/json")   # a health report, not problem+json
            self.assertEqual(doc.get("status"), "degraded", r)
            self.assertEqual(doc.get("database"), "down", r)
            self.assertTrue(s.alive(), "warpostd exited when the database went away")

            r = s.request("POST", "/api/players", {"name": "During"}, timeout=15)
            wp.assert_problem(r, 503, "database-unavailable")
            # still serving, still alive
            r = s.request("GET", "/api/health", timeout=10)
            self.assertEqual(r.status, 503, r)
            self.assertTrue(s.alive(), "warpostd exited while the database was down")
        finally:
            self.pg.start_cluster()

        r = wp.wait_until(lambda: (lambda x: x if x.status == 200 else None)(
            s.request("GET", "/api/health", timeout=10)), 20)
        self.assertIsNotNone(r, "health did not come back to 200 after the database restarted")
        self.assertEqual(wp.json_of(r, "application/json").get("database"), "up")
        # every pooled connection must have been replaced, not only the one
        # health used: a few requests in a row all succeed
        for i in range(8):
            r = s.request("POST", "/api/players", {"name": "After%d" % i})
            self.assertEqual(r.status, 201, "%r\n--- warpostd's log, last lines ---\n%s"
                             % (r, "\n".join(s.stderr_text().splitlines()[-30:])))
        token = r.json()["token"]
        r = s.request("GET", "/api/me", headers={"Authorization": "Bearer " + token})
        self.assertEqual(r.status, 200, r)


class DatabaseRestartTest(wp.ServerTestCase):
    """Issue "Reliability and security", item 10: after a PostgreSQL
    restart the first request on each pooled connection answered 503. The
    pool notices a connection the server closed while it sat idle and
    replaces it before the request uses it."""

    private_cluster = True
    # What is tested is the pooled connections from before the restart, not
    # the deadlines: on a machine busy with other tests (the sanitizer build
    # beside the main run), a deadline once passed just after the restart
    # (the log said "no answer in time", then "down (cannot connect)"), the
    # breaker opened and a request got 503 for that. Generous deadlines keep
    # the load out of the verdict; a connection from before the restart
    # still fails a request at once (its error is not a deadline). The
    # notification worker, which polls the database every second through
    # the pool, is kept quiet: a statement of its own ended under it is not
    # what is tested.
    server_env = {"DB_CHECK_TIMEOUT_MS": "15000", "DB_CONNECT_TIMEOUT_MS": "15000",
                  "DB_STATEMENT_TIMEOUT_MS": "15000", "DB_POOL_WAIT_MS": "15000",
                  "DB_LOCK_TIMEOUT_MS": "60000", "NOTIFY_POLL_MS": "600000"}

    def test_first_requests_after_a_restart_succeed(self):
        s = self.server
        # Use several pooled connections at once, so that more than one
        # sits idle across the restart.
        results = []
        threads = [threading.Thread(target=lambda i=i: results.append(
            s.request("POST", "/api/players", {"name": "Before%d" % i}).status)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(results, [201] * 8)
        self.pg.stop_cluster()
        self.pg.start_cluster()
        # Once the server has seen the database back (its health check,
        # every second, may have caught the restart and opened the breaker;
        # on a busy machine the next check can take a moment), the pooled
        # connections from before the restart must not cost a request.
        self.assertTrue(wp.wait_until(
            lambda: s.request("GET", "/api/health", timeout=15).status == 200, 30),
            "health did not come back after the restart")
        mark = len(s.log_lines())
        for i in range(8):
            r = s.request("POST", "/api/players", {"name": "After%d" % i}, timeout=30)
            self.assertEqual(r.status, 201, (r, s.log_lines()[mark - 4:]))

    def test_pooled_connections_ended_while_idle_cost_no_request(self):
        """The same without a restart: the pool's connections are ended
        while idle (pg_terminate_backend) and the database stays up, so
        the health monitor, whose connection is left alone, sees no outage
        and the breaker replaces nothing; only the pool's look at an idle
        connection before it lends it (srv/store/pool.c) keeps the next
        requests from failing."""
        s = self.server
        threads = [threading.Thread(target=lambda i=i: s.request(
            "POST", "/api/players", {"name": "Idle%d" % i})) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        pool = "FROM pg_stat_activity WHERE application_name = 'warpostd' AND pid <> pg_backend_pid()"
        # One at least (on a busy machine the eight may share one).
        self.assertGreaterEqual(int(self.db.psql("SELECT count(*) " + pool).strip()), 1)
        ended = self.db.psql("SELECT string_agg(pid::text, ',') FROM (SELECT pg_terminate_backend(pid),"
                             " pid " + pool + ") t").strip()
        # Gone, those: the LISTEN thread and the health monitor may have
        # opened new ones meanwhile (a busy machine leaves time for that),
        # so the count of all of warpostd's is not the question.
        self.assertTrue(wp.wait_until(lambda: self.db.psql(
            "SELECT count(*) FROM pg_stat_activity WHERE pid IN (%s)" % ended).strip() == "0", 30))
        mark = len(s.log_lines())
        for i in range(8):
            r = s.request("POST", "/api/players", {"name": "Later%d" % i}, timeout=30)
            self.assertEqual(r.status, 201, (r, s.log_lines()[mark:]))
        self.assertNotIn("database: down", "\n".join(s.log_lines()[mark:]))

    def test_a_statement_ended_mid_way_costs_that_request_only(self):
        """A pooled connection ended by the server while a request's
        statement runs on it (pg_terminate_backend, SQLSTATE 57P01) fails
        that request with a 503, and no other: the database answers, so the
        breaker stays closed (once it opened for every request until the
        next health check, srv/store/pool.c wp_store_put). The statement is
        held mid-way by a row lock taken from psql on the player that
        PATCH /api/me updates (a row, not the table: a new connection's
        statements, prepared before the request's, must not wait on it)."""
        s = self.server
        r = s.request("POST", "/api/players", {"name": "Holder"})
        self.assertEqual(r.status, 201, r)
        me, token = r.json()["id"], r.json()["token"]
        holder = subprocess.Popen(
            [os.path.join(wp.pg_bindir(), "psql"), "-X", "-q", "-d", self.db.url,
             "-v", "ON_ERROR_STOP=1", "-c",
             "BEGIN; SELECT 1 FROM players WHERE id = %d FOR UPDATE; SELECT pg_sleep(120);" % me],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env=dict(os.environ, PGAPPNAME="lock-holder"))
        self.addCleanup(holder.wait, 30)
        self.addCleanup(lambda: self.db.psql(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE application_name = 'lock-holder'"))
        self.assertTrue(wp.wait_until(lambda: self.db.psql(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'lock-holder'"
            " AND wait_event = 'PgSleep'").strip() == "1", 30))
        mark = len(s.log_lines())
        blocked = []
        t = threading.Thread(target=lambda: blocked.append(s.request(
            "PATCH", "/api/me", {"bot": True}, headers={"Authorization": "Bearer " + token},
            timeout=120)))
        t.start()
        waiting = "FROM pg_stat_activity WHERE application_name = 'warpostd' AND wait_event_type = 'Lock'"
        self.assertTrue(wp.wait_until(
            lambda: self.db.psql("SELECT count(*) " + waiting).strip() == "1", 30),
            "the request never waited on the lock")
        self.db.psql("SELECT pg_terminate_backend(pid) " + waiting)
        t.join(60)
        self.assertFalse(t.is_alive(), "the request ended under it did not answer")
        self.assertEqual(blocked[0].status, 503, blocked[0])
        self.db.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                     " WHERE application_name = 'lock-holder'")
        holder.wait(30)
        for i in range(8):
            r = s.request("POST", "/api/players", {"name": "Next%d" % i}, timeout=30)
            self.assertEqual(r.status, 201, (r, s.log_lines()[mark:]))
        self.assertNotIn("database: down", "\n".join(s.log_lines()[mark:]))

if __name__ == "__main__":
    wp.main()
