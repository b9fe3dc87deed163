"""Issue 16 ("Reliability and security"), item 4: rate limits per address
and per token (429 rate-limited with Retry-After, nothing changed) and a
cap on open matches per player (409 too-many-open-matches).

The harness turns the limits off for every other test (RATE_LIMITS=off,
MAX_OPEN_MATCHES=0 in tests/lib/warpost.py); these classes turn them on:
the first with the production defaults, the others with small limits."""
import threading

import matchlib as ml
from matchlib import wp

ORDERS = {"orders": {"dodge": "never"}}


def assert_limited(reply):
    wp.assert_problem(reply, 429, "rate-limited")
    after = reply.headers.get("retry-after", "")
    assert after.isdigit() and int(after) >= 1, reply
    return int(after)


class Limited(wp.ServerTestCase):
    def count(self, table):
        return int(self.db.psql("SELECT count(*) FROM %s" % table).strip())

    def player(self, name, headers=None):
        return self.req("POST", "/api/players", {"name": name}, headers)


class DefaultLimitsTest(Limited):
    """The issue's reproductions against the production defaults: one
    address creating players, one player opening matches, one player
    posting orders into one match, as fast as they can."""
    # empty: the server's own defaults, not the harness's "off"
    server_env = {"RATE_LIMITS": "", "MAX_OPEN_MATCHES": ""}

    def burst(self, send, tries):
        """Sends until the first 429; returns how many were accepted."""
        for i in range(tries):
            r = send(i)
            if r.status == 429:
                assert_limited(r)
                return i
            self.assertLess(r.status, 300, r)
        self.fail("%d requests and no 429" % tries)

    def test_item4_defaults_stop_a_flood(self):
        a, b = ml.Client(self.server, "A"), ml.Client(self.server, "B")
        before = self.count("players")
        made = self.burst(lambda i: self.player("Flood%d" % i), 60)
        self.assertGreater(made, 0)
        self.assertEqual(self.count("players"), before + made, "a refused player was stored")
        self.assertEqual(a.req("GET", "/api/me").status, 200)
        games = self.burst(lambda i: a.req("POST", "/api/games",
                                           {"ruleset": ml.RULESET, "seats": 2}), 60)
        self.assertEqual(self.count("games"), games)

        g = b.create(2)
        self.assertEqual(a.join(g["id"], g["invitations"][0]["code"]).status, 200)
        seq = ml.seq_of(a, g["id"])
        posts = self.burst(lambda i: a.req("POST", "/api/games/%d/orders" % g["id"], ORDERS),
                           400)
        self.assertGreater(posts, 0)
        self.assertEqual(ml.seq_of(a, g["id"]), seq + posts, "a refused post was applied")
        # the other player's token has its own bucket
        self.assertEqual(b.req("POST", "/api/games/%d/orders" % g["id"], ORDERS).status, 200)
        # X-Forwarded-For is not trusted unless configured
        assert_limited(self.player("Flood", {"X-Forwarded-For": "198.51.100.7"}))


class LimitsTest(Limited):
    """Small limits, and TRUST_X_FORWARDED_FOR=1: each test plays from
    addresses of its own (the last address of X-Forwarded-For, the one
    the proxy in front added, is the client)."""
    server_env = {"RATE_LIMITS": "on", "TRUST_X_FORWARDED_FOR": "1",
                  "RATE_LIMIT_PLAYERS": "3/3600", "RATE_LIMIT_REQUESTS": "40/3600",
                  "RATE_LIMIT_GAMES": "2/3600", "RATE_LIMIT_WRITES": "4/3600"}

    def test_item4_players_per_address(self):
        via = {"X-Forwarded-For": "10.0.1.1"}
        before = self.count("players")
        for i in range(3):
            self.assertEqual(self.player("P%d" % i, via).status, 201)
        r = self.player("P3", via)
        self.assertGreater(assert_limited(r), 60, "3 per hour: the next one is minutes away")
        self.assertEqual(self.count("players"), before + 3)
        # a client cannot pick its address by prepending one
        assert_limited(self.player("P4", {"X-Forwarded-For": "192.0.2.9, 10.0.1.1"}))
        self.assertEqual(self.player("P5", {"X-Forwarded-For": "10.0.1.2"}).status, 201)

    def test_item4_requests_per_address(self):
        # every API request counts, health does not, static files do not
        via = {"X-Forwarded-For": "10.0.2.1"}
        seen = []
        for _ in range(45):
            seen.append(self.req("GET", "/api/rulesets", headers=via).status)
            if seen[-1] == 429:
                break
        self.assertEqual(seen[-1], 429, seen)
        assert_limited(self.req("GET", "/api/rulesets", headers=via))
        assert_limited(self.req("GET", "/api/games/1", headers=via))
        self.assertEqual(self.req("GET", "/api/health", headers=via).status, 200)
        r = ml._plain_request(self.server, "GET", "/app.js", None, via)
        self.assertEqual(r.status, 200, r)
        r = self.req("GET", "/api/rulesets", headers={"X-Forwarded-For": "10.0.2.2"})
        self.assertEqual(r.status, 200, r)

    def test_item4_matches_per_token(self):
        a, b = ml.Client(self.server, "A", "10.0.3.1"), ml.Client(self.server, "B", "10.0.3.1")
        a.create(2)
        a.create(2)
        before = self.count("games")
        assert_limited(a.req("POST", "/api/games", {"ruleset": ml.RULESET, "seats": 2}))
        self.assertEqual(self.count("games"), before)
        b.create(2)   # another token
        # a malformed token is still a 401, not a 429
        r = self.req("POST", "/api/games", {"ruleset": ml.RULESET},
                     {"Authorization": "Bearer nope", "X-Forwarded-For": "10.0.3.1"})
        self.assertProblem(r, 401, "unauthorized")

    def test_item4_writes_per_token(self):
        a, b = ml.Client(self.server, "C", "10.0.4.1"), ml.Client(self.server, "D", "10.0.4.1")
        g = a.create(2)
        self.assertEqual(b.join(g["id"], g["invitations"][0]["code"]).status, 200)   # 1
        path = "/api/games/%d/orders" % g["id"]
        for _ in range(3):                                                         # 2..4
            self.assertEqual(b.req("POST", path, ORDERS).status, 200)
        seq = ml.seq_of(a, g["id"])
        assert_limited(b.req("POST", path, ORDERS))
        assert_limited(b.req("POST", "/api/games/%d/resign" % g["id"]))
        self.assertEqual(ml.seq_of(a, g["id"]), seq, "a refused write was applied")
        self.assertEqual(a.req("POST", path, ORDERS).status, 200)


class OpenMatchesCapTest(Limited):
    server_env = {"MAX_OPEN_MATCHES": "3"}

    def test_item4_cap_on_open_matches(self):
        a, b = ml.Client(self.server, "A"), ml.Client(self.server, "B")
        # eight creations at once: the cap holds exactly
        results = []
        threads = [threading.Thread(target=lambda: results.append(
            a.req("POST", "/api/games", {"ruleset": ml.RULESET, "seats": 2})))
            for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        made = [r.json() for r in results if r.status == 201]
        self.assertEqual(len(made), 3, results)
        for r in results:
            if r.status != 201:
                self.assertProblem(r, 409, "too-many-open-matches")
        self.assertEqual(a.req("GET", "/api/me/games").json()["count"], 3)

        # joining counts too: B holds three, then may not join A's match
        for _ in range(3):
            b.create(2)
        r = b.join(made[0]["id"], made[0]["invitations"][0]["code"])
        self.assertProblem(r, 409, "too-many-open-matches")
        # a finished match frees a place
        self.assertEqual(a.req("POST", "/api/games/%d/abort" % made[1]["id"]).status, 200)
        a.create(2)
        self.assertProblem(a.req("POST", "/api/games", {"ruleset": ml.RULESET, "seats": 2}),
                           409, "too-many-open-matches")


if __name__ == "__main__":
    wp.main()
