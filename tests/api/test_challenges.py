"""Issue 28, "Open challenges": the seek lobby (srv/api/challenges.c).

A player posts a challenge; others see it in GET /api/challenges (filtered
by ruleset and time control, with ETag and a long-poll woken from another
instance) and take its seats; the last seat taken creates and starts the
match. Of 16 clients taking the last seat at once exactly one gets it and
the match starts once; the 15 others get 409 challenge-closed. A 3-seat
Confrontation challenge fills seat by seat. The poster cancels, a seated
accepter leaves; an expired challenge (its time moved into the past in
SQL, no sleeping) leaves the list and refuses accepts. Open challenges
count against MAX_OPEN_MATCHES; an accept with an Idempotency-Key is
applied once; bad input is a 4xx problem that writes nothing.

Two warpostd on one database: a (no cap) and b (MAX_OPEN_MATCHES=2)."""
import json
import threading
import time
import unittest

import matchlib as ml
from matchlib import wp

CONF = "confrontation"




class ChallengesTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.pg = wp.PgCluster.shared()
        cls.db = cls.pg.create_database()
        cls.addClassCleanup(cls.db.drop)
        cls.a = wp.Server(cls.db.url).start()
        cls.addClassCleanup(cls.a.stop)
        cls.b = wp.Server(cls.db.url, env={"MAX_OPEN_MATCHES": "2"}).start()
        cls.addClassCleanup(cls.b.stop)

    def player(self, name, server=None):
        return ml.Client(server or self.a, name)

    def post(self, who, expect=201, **body):
        body.setdefault("ruleset", ml.RULESET)
        r = who.req("POST", "/api/challenges", body)
        self.assertEqual(r.status, expect, r)
        if expect == 201:
            doc = r.json()
            self.assertEqual(r.headers["location"], "/api/challenges/%d" % doc["id"])
            return doc
        return r

    def accept(self, who, cid, key=None, body=None):
        return who.req("POST", "/api/challenges/%d/accept" % cid, body,
                       {"Idempotency-Key": key} if key else None)

    def listed(self, who, query=""):
        r = who.req("GET", "/api/challenges" + query)
        self.assertEqual(r.status, 200, r)
        return r.json()["challenges"]

    def rows(self, sql):
        return self.db.psql(sql).strip()

    def state(self):
        """Everything a refused request must leave as it was."""
        return self.rows("SELECT (SELECT count(*) FROM challenges) || '/' ||"
                         " (SELECT count(*) FROM challenge_seats) || '/' ||"
                         " (SELECT coalesce(sum(version), 0) FROM challenges) || '/' ||"
                         " (SELECT count(*) FROM challenges WHERE status <> 'open') || '/' ||"
                         " (SELECT count(*) FROM games)")

    # ------------------------------------------------------------ posting

    def test_post_list_get_accept_starts_the_match(self):
        alice, bob = self.player("Alice"), self.player("Bob")
        ch = self.post(alice, options={"turn_limit": 30}, seat=1, rated=True,
                       time_control={"days_per_move": 3}, spectators="open")
        self.assertEqual((ch["status"], ch["seats"], ch["open_seats"], ch["seat"], ch["mine"]),
                         ("open", 2, 1, 1, True))
        self.assertEqual(ch["players"], [{"seat": 1, "player": {"id": alice.id, "name": "Alice"}}])
        self.assertEqual(ch["time_control"]["days_per_move"], 3)
        seen = {c["id"]: c for c in self.listed(bob)}
        self.assertIn(ch["id"], seen)
        self.assertFalse(seen[ch["id"]]["mine"])
        self.assertIsNone(seen[ch["id"]]["seat"])
        mine = {c["id"]: c for c in self.listed(alice)}
        self.assertTrue(mine[ch["id"]]["mine"])
        # Through the other instance, and without a token.
        r = self.b.request("GET", "/api/challenges/%d" % ch["id"])
        self.assertEqual(r.status, 200, r)
        self.assertFalse(r.json()["mine"])

        r = self.accept(bob, ch["id"], body={"client_seed": "bob's own"})
        self.assertEqual(r.status, 200, r)
        doc = r.json()
        self.assertEqual((doc["seat"], doc["challenge"]["status"]), (0, "started"))
        game = doc["game"]
        self.assertEqual(doc["challenge"]["game"], game)
        view = bob.view(game).json()
        self.assertEqual(view["status"], "active")
        self.assertEqual({s["seat"]: s["player"]["id"] for s in view["seats"]},
                         {0: bob.id, 1: alice.id})
        self.assertEqual(view["time_control"]["days_per_move"], 3)
        self.assertEqual(view["spectators"], "open")
        self.assertEqual(self.rows("SELECT rated::text || options::text FROM games WHERE id = %d"
                                   % game), 'true{"turn_limit": 30}')
        self.assertEqual(self.rows("SELECT client_seed FROM seats WHERE game_id = %d AND seat = 0"
                                   % game), "bob's own")
        # Started: out of the list, and accepting it again is refused.
        self.assertNotIn(ch["id"], [c["id"] for c in self.listed(self.player("Carol"))])
        wp.assert_problem(self.accept(self.player("Dave"), ch["id"]), 409, "challenge-closed")

    def test_sixteen_accepters_of_the_last_seat_one_match(self):
        alice = self.player("Alice")
        ch = self.post(alice)
        others = [self.player("P%d" % i) for i in range(16)]
        before = int(self.rows("SELECT count(*) FROM games"))
        results = [None] * 16
        go = threading.Event()

        def take(i):
            go.wait()
            results[i] = self.accept(others[i], ch["id"])

        threads = [threading.Thread(target=take, args=(i,)) for i in range(16)]
        for t in threads:
            t.start()
        go.set()
        for t in threads:
            t.join()
        codes = sorted(r.status for r in results)
        self.assertEqual(codes, [200] + [409] * 15, codes)
        winner = next(i for i, r in enumerate(results) if r.status == 200)
        for r in results:
            if r.status != 200:
                wp.assert_problem(r, 409, "challenge-closed")
        game = results[winner].json()["game"]
        self.assertEqual(int(self.rows("SELECT count(*) FROM games")), before + 1)
        self.assertEqual(self.rows("SELECT status || ':' || game_id FROM challenges WHERE id = %d"
                                   % ch["id"]), "started:%d" % game)
        self.assertEqual(self.rows("SELECT count(*) FROM challenge_seats WHERE challenge_id = %d"
                                   % ch["id"]), "2")
        self.assertEqual(self.rows("SELECT string_agg(player_id::text, ',' ORDER BY seat)"
                                   " FROM seats WHERE game_id = %d" % game),
                         "%d,%d" % (alice.id, others[winner].id))
        self.assertEqual(self.rows("SELECT count(*) FROM posts WHERE game_id = %d" % game), "1")

    def test_three_seat_confrontation_fills_seat_by_seat(self):
        alice, bob, carol = self.player("Alice"), self.player("Bob"), self.player("Carol")
        ch = self.post(alice, ruleset=CONF, seats=3, seat=2)
        r = self.accept(bob, ch["id"])
        self.assertEqual(r.status, 200, r)
        self.assertEqual((r.json()["seat"], r.json()["game"], r.json()["challenge"]["open_seats"]),
                         (0, None, 1))
        self.assertEqual(r.json()["challenge"]["status"], "open")
        # Bob cannot take a second seat.
        wp.assert_problem(self.accept(bob, ch["id"]), 409, "already-seated")
        r = self.accept(carol, ch["id"])
        self.assertEqual(r.status, 200, r)
        game = r.json()["game"]
        self.assertEqual(r.json()["seat"], 1)
        view = carol.view(game).json()
        self.assertEqual((view["ruleset"], view["status"]), (CONF, "active"))
        self.assertEqual({s["seat"]: s["player"]["id"] for s in view["seats"]},
                         {0: bob.id, 1: carol.id, 2: alice.id})

    def test_random_seat(self):
        alice = self.player("Alice")
        seats = {self.post(alice, ruleset=CONF, seats=4, seat="random")["seat"] for _ in range(12)}
        self.assertTrue(seats <= {0, 1, 2, 3}, seats)
        self.assertGreater(len(seats), 1, seats)

    # --------------------------------------------------- cancel and leave

    def test_cancel_and_leave(self):
        alice, bob, carol = self.player("Alice"), self.player("Bob"), self.player("Carol")
        ch = self.post(alice, ruleset=CONF, seats=3)
        path = "/api/challenges/%d" % ch["id"]
        self.assertEqual(self.accept(bob, ch["id"]).status, 200)
        # A stranger may neither cancel nor leave.
        before = self.state()
        wp.assert_problem(carol.req("DELETE", path), 403, "forbidden")
        self.assertEqual(self.state(), before)
        # Bob leaves: his seat is free again.
        r = bob.req("DELETE", path)
        self.assertEqual(r.status, 200, r)
        self.assertEqual((r.json()["open_seats"], r.json()["status"], r.json()["seat"]),
                         (2, "open", None))
        # The poster cancels; a repeat answers the same; nobody may take it.
        r = alice.req("DELETE", path)
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json()["status"], "cancelled")
        self.assertEqual(alice.req("DELETE", path).json()["status"], "cancelled")
        wp.assert_problem(self.accept(carol, ch["id"]), 409, "challenge-closed")
        wp.assert_problem(bob.req("DELETE", path), 403, "forbidden")
        self.assertNotIn(ch["id"], [c["id"] for c in self.listed(carol)])
        # A started one cannot be cancelled.
        ch2 = self.post(alice)
        self.assertEqual(self.accept(bob, ch2["id"]).status, 200)
        wp.assert_problem(alice.req("DELETE", "/api/challenges/%d" % ch2["id"]), 409,
                          "challenge-closed")

    def test_expired_challenges_leave_the_list(self):
        alice, bob = self.player("Alice"), self.player("Bob")
        ch = self.post(alice, expires_in_days=1)
        self.assertIn(ch["id"], [c["id"] for c in self.listed(bob)])
        self.db.psql("UPDATE challenges SET expires_at = now() - interval '1 second'"
                     " WHERE id = %d" % ch["id"])
        self.assertNotIn(ch["id"], [c["id"] for c in self.listed(bob)])
        self.assertEqual(bob.req("GET", "/api/challenges/%d" % ch["id"]).json()["status"],
                         "expired")
        before = self.state()
        wp.assert_problem(self.accept(bob, ch["id"]), 409, "challenge-closed")
        wp.assert_problem(alice.req("DELETE", "/api/challenges/%d" % ch["id"]), 409,
                          "challenge-closed")
        self.assertEqual(self.state(), before)
        # Long expired (31 days): the next post forgets it.
        self.db.psql("UPDATE challenges SET expires_at = now() - interval '31 days'"
                     " WHERE id = %d" % ch["id"])
        self.post(alice)
        wp.assert_problem(bob.req("GET", "/api/challenges/%d" % ch["id"]), 404,
                          "challenge-not-found")

    # ---------------------------------------------------------------- cap

    def test_open_challenges_count_against_the_cap(self):
        """b: MAX_OPEN_MATCHES=2."""
        alice, bob = self.player("Alice", self.b), self.player("Bob", self.b)
        alice.create()                          # a match, open
        ch = self.post(alice)                   # a challenge: two
        before = self.state()
        wp.assert_problem(self.post(alice, expect=409), 409, "too-many-open-matches")
        r = alice.req("POST", "/api/games", {"ruleset": ml.RULESET})
        wp.assert_problem(r, 409, "too-many-open-matches")
        # Taking another's seat is one more as well.
        other = self.post(bob)
        before = self.state()
        wp.assert_problem(self.accept(alice, other["id"]), 409, "too-many-open-matches")
        self.assertEqual(self.state(), before)
        # Cancelled, it no longer counts.
        self.assertEqual(alice.req("DELETE", "/api/challenges/%d" % ch["id"]).status, 200)
        self.assertEqual(self.accept(alice, other["id"]).status, 200)
        # Expired neither.
        carol = self.player("Carol", self.b)
        c1, c2 = self.post(carol), self.post(carol)
        wp.assert_problem(self.post(carol, expect=409), 409, "too-many-open-matches")
        self.db.psql("UPDATE challenges SET expires_at = now() WHERE id = %d" % c1["id"])
        self.post(carol)
        self.assertTrue(c2)

    # ------------------------------------------------------ idempotency

    def test_idempotency_key_applies_an_accept_once(self):
        alice, bob = self.player("Alice"), self.player("Bob")
        ch = self.post(alice, ruleset=CONF, seats=3)
        first = self.accept(bob, ch["id"], key="k-1")
        self.assertEqual(first.status, 200, first)
        again = self.accept(bob, ch["id"], key="k-1")
        self.assertEqual(again.status, 200, again)
        self.assertEqual(again.body, first.body)
        self.assertEqual(again.headers.get("idempotent-replayed"), "true")
        self.assertEqual(self.rows("SELECT count(*) FROM challenge_seats WHERE challenge_id = %d"
                                   % ch["id"]), "2")
        wp.assert_problem(self.accept(bob, ch["id"], key="k-1", body={"client_seed": "x"}),
                          422, "idempotency-key-reused")
        wp.assert_problem(self.accept(bob, ch["id"], key="bad key"), 400, "invalid-request")
        # Without a key a retry is refused, not applied twice.
        wp.assert_problem(self.accept(bob, ch["id"]), 409, "already-seated")
        # The last seat with a key: the retry after the start gets the start.
        carol = self.player("Carol")
        r = self.accept(carol, ch["id"], key="k-2")
        self.assertEqual(r.status, 200, r)
        self.assertIsNotNone(r.json()["game"])
        self.assertEqual(self.accept(carol, ch["id"], key="k-2").body, r.body)

    # ----------------------------------------------------- refusals

    def test_own_challenge_and_rating_range(self):
        alice, bob = self.player("Alice"), self.player("Bob")
        own = self.post(alice)
        before = self.state()
        r = wp.assert_problem(self.accept(alice, own["id"]), 409, "already-seated")
        self.assertIn("own", r["detail"])
        # New players are rated 1500 (wp_db_rating_of).
        high = self.post(alice, min_rating=1600)
        low = self.post(alice, max_rating=1400)
        fits = self.post(alice, min_rating=1400, max_rating=1600)
        ids = [c["id"] for c in self.listed(bob)]
        self.assertNotIn(high["id"], ids)
        self.assertNotIn(low["id"], ids)
        self.assertIn(fits["id"], ids)
        self.assertIn(high["id"], [c["id"] for c in self.listed(alice)])   # her own: listed
        before = self.state()
        wp.assert_problem(self.accept(bob, high["id"]), 403, "rating-out-of-range")
        wp.assert_problem(self.accept(bob, low["id"]), 403, "rating-out-of-range")
        self.assertEqual(self.state(), before)
        self.assertEqual(self.accept(bob, fits["id"]).status, 200)

    def test_rating_range_reads_the_ratings(self):
        """The accepter's Glicko-2 rating in the ruleset and its pool
        (sql/017), 1500 without one; a rated challenge's match rates its
        players when it ends."""
        alice, bob, carol = self.player("Alice"), self.player("Bob"), self.player("Carol")
        self.db.psql("INSERT INTO ratings (player_id, ruleset, pool, rating, rd, volatility)"
                     " VALUES (%d, '%s', 'human', 1712.4, 80, 0.06)" % (bob.id, ml.RULESET))
        low = self.post(alice, max_rating=1700)
        high = self.post(alice, min_rating=1710, rated=True)
        wp.assert_problem(self.accept(bob, low["id"]), 403, "rating-out-of-range")
        wp.assert_problem(self.accept(carol, high["id"]), 403, "rating-out-of-range")
        self.assertEqual(self.accept(carol, low["id"]).status, 200)   # 1500: in range
        r = self.accept(bob, high["id"])
        self.assertEqual(r.status, 200, r)
        game = r.json()["game"]
        self.assertTrue(bob.view(game).json()["rated"])
        r = bob.req("POST", "/api/games/%d/resign" % game)
        self.assertEqual(r.status, 200, r)
        self.assertEqual(self.rows("SELECT count(*) FROM rating_history WHERE game_id = %d"
                                   % game), "2")

    def test_bad_input_is_refused_and_changes_nothing(self):
        alice = self.player("Alice")
        ch = self.post(alice)
        before = self.state()
        cases = [
            ({"ruleset": ml.RULESET, "colour": "red"}, 400, "invalid-request"),
            ({}, 400, "invalid-request"),
            ({"ruleset": "no-such-game"}, 422, "unknown-ruleset"),
            ({"ruleset": ml.RULESET, "seats": 4}, 422, "invalid-option"),
            ({"ruleset": ml.RULESET, "seats": 2, "seat": 2}, 400, "invalid-request"),
            ({"ruleset": ml.RULESET, "seat": "left"}, 400, "invalid-request"),
            ({"ruleset": ml.RULESET, "rated": "yes"}, 400, "invalid-request"),
            ({"ruleset": ml.RULESET, "min_rating": 1800, "max_rating": 1200}, 400,
             "invalid-request"),
            ({"ruleset": ml.RULESET, "min_rating": -5}, 400, "invalid-request"),
            ({"ruleset": ml.RULESET, "expires_in_days": 31}, 400, "invalid-request"),
            ({"ruleset": ml.RULESET, "expires_in_days": 0}, 400, "invalid-request"),
            ({"ruleset": ml.RULESET, "options": {"turn_limit": -1}}, 422, "invalid-option"),
            ({"ruleset": ml.RULESET, "options": []}, 400, "invalid-request"),
            ({"ruleset": ml.RULESET, "time_control": {"days_per_move": 999}}, 422,
             "invalid-option"),
            ({"ruleset": ml.RULESET, "spectators": "everyone"}, 400, "invalid-request"),
        ]
        for body, status, slug in cases:
            with self.subTest(body=body):
                r = alice.req("POST", "/api/challenges", body)
                wp.assert_problem(r, status, slug)
        r = self.a.request("POST", "/api/challenges", {"ruleset": ml.RULESET})
        wp.assert_problem(r, 401, "unauthorized")
        for path in ("/api/challenges/0", "/api/challenges/abc", "/api/challenges/999999999"):
            wp.assert_problem(alice.req("GET", path), 404, "challenge-not-found")
            wp.assert_problem(alice.req("POST", path + "/accept"), 404, "challenge-not-found")
            wp.assert_problem(alice.req("DELETE", path), 404, "challenge-not-found")
        wp.assert_problem(self.player("Bob").req("POST", "/api/challenges/%d/accept" % ch["id"],
                                                 {"seat": 1}), 400, "invalid-request")
        wp.assert_problem(self.a.request("POST", "/api/challenges/%d/accept" % ch["id"]), 401,
                          "unauthorized")
        for q in ("?ruleset=nope", "?time=forever", "?time=0", "?time=61", "?wait=61",
                  "?limit=0"):
            with self.subTest(query=q):
                wp.assert_problem(alice.req("GET", "/api/challenges" + q), 400, "invalid-request")
        self.assertEqual(self.state(), before)

    # -------------------------------------------------------- filters

    def test_filters(self):
        alice, bob = self.player("Alice"), self.player("Bob")
        untimed = self.post(alice)
        three = self.post(alice, time_control={"days_per_move": 3})
        conf = self.post(alice, ruleset=CONF, time_control={"days_per_move": 5})

        def ids(q):
            mine = {untimed["id"], three["id"], conf["id"]}
            return {c["id"] for c in self.listed(bob, q)} & mine

        self.assertEqual(ids(""), {untimed["id"], three["id"], conf["id"]})
        self.assertEqual(ids("?ruleset=" + CONF), {conf["id"]})
        self.assertEqual(ids("?ruleset=" + ml.RULESET), {untimed["id"], three["id"]})
        self.assertEqual(ids("?time=untimed"), {untimed["id"]})
        self.assertEqual(ids("?time=timed"), {three["id"], conf["id"]})
        self.assertEqual(ids("?time=3"), {three["id"]})
        self.assertEqual(ids("?time=5&ruleset=" + ml.RULESET), set())
        for c in self.listed(bob, "?ruleset=" + CONF):
            self.assertEqual(c["ruleset"], CONF)

    # ------------------------------------------------ ETag and long-poll

    def test_etag_and_long_poll_woken_from_the_other_instance(self):
        alice, bob = self.player("Alice"), self.player("Bob", self.b)
        r = bob.req("GET", "/api/challenges")
        self.assertEqual(r.status, 200, r)
        etag = r.headers["etag"]
        r = bob.req("GET", "/api/challenges", headers={"If-None-Match": etag})
        self.assertEqual(r.status, 304, r)
        held_before = wp.metric(self.b, "warpost_longpolls_total")
        out = {}

        def poll():
            t0 = time.monotonic()
            out["r"] = bob.req("GET", "/api/challenges?wait=60",
                               headers={"If-None-Match": etag}, timeout=90)
            out["t"] = time.monotonic() - t0

        t = threading.Thread(target=poll)
        t.start()
        # Posted once b holds the poll: only the NOTIFY can answer it.
        self.assertTrue(wp.wait_until(
            lambda: wp.metric(self.b, "warpost_longpolls_total") > held_before, 30, 0.02))
        ch = self.post(alice)
        t.join()
        r = out["r"]
        self.assertEqual(r.status, 200, r)
        # At the deadline the list is served again too (and differs): the
        # wake-up is told from it by the time, with a wide margin.
        self.assertLess(out["t"], 45, "woken by the NOTIFY, not by the deadline")
        self.assertNotEqual(r.headers["etag"], etag)
        self.assertIn(ch["id"], [c["id"] for c in r.json()["challenges"]])
        # A cancel on a wakes a poll on b again.
        etag = r.headers["etag"]
        held_before = wp.metric(self.b, "warpost_longpolls_total")
        t = threading.Thread(target=poll)
        t.start()
        self.assertTrue(wp.wait_until(
            lambda: wp.metric(self.b, "warpost_longpolls_total") > held_before, 30, 0.02))
        self.assertEqual(alice.req("DELETE", "/api/challenges/%d" % ch["id"]).status, 200)
        t.join()
        self.assertEqual(out["r"].status, 200, out["r"])
        self.assertLess(out["t"], 45, "woken by the NOTIFY, not by the deadline")
        self.assertNotIn(ch["id"], [c["id"] for c in out["r"].json()["challenges"]])



class ChallengeRateLimitTest(wp.ServerTestCase):
    """Posting counts as creating a match (RATE_LIMIT_GAMES), accepting as
    a write (RATE_LIMIT_WRITES); over the limit a 429 with Retry-After that
    writes nothing."""

    server_env = {"RATE_LIMITS": "on", "RATE_LIMIT_GAMES": "2/3600",
                  "RATE_LIMIT_WRITES": "2/3600"}

    def test_posts_and_accepts_are_limited(self):
        alice, bob = ml.Client(self.server, "Alice"), ml.Client(self.server, "Bob")
        body = {"ruleset": ml.RULESET}
        ids = [alice.req("POST", "/api/challenges", body).json()["id"] for _ in range(2)]
        r = alice.req("POST", "/api/challenges", body)
        wp.assert_problem(r, 429, "rate-limited")
        self.assertRegex(r.headers["retry-after"], r"^[1-9][0-9]*$")
        wp.assert_problem(alice.req("POST", "/api/games", body), 429, "rate-limited")
        carol = ml.Client(self.server, "Carol")
        third = carol.req("POST", "/api/challenges", body).json()["id"]
        for cid in ids:
            self.assertEqual(bob.req("POST", "/api/challenges/%d/accept" % cid).status, 200)
        before = self.db.psql("SELECT count(*) FROM challenge_seats").strip()
        wp.assert_problem(bob.req("POST", "/api/challenges/%d/accept" % third), 429,
                          "rate-limited")
        self.assertEqual(self.db.psql("SELECT count(*) FROM challenge_seats").strip(), before)
        self.assertEqual(len(self.req("GET", "/api/challenges").json()["challenges"]), 1)


if __name__ == "__main__":
    unittest.main()
