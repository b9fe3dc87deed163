"""GET /api/games/{id}?at=SEQ (issue 13, "The board, for players": the
step-through shows real past positions for every ruleset). For a played
match of each product ruleset, the view at post k is byte for byte the view
that was served live right after post k, to a seat and to a spectator
(RULINGS.md G5: exactly what that viewer could see then, no more); once the
match is over, every post is seen with everything revealed, and the last
one is the final view. Bad values of `at` are problem+json."""
import os
import random
import unittest

os.environ["WARPOSTD_PRODUCT"] = "1"  # before matchlib picks the binary
import matchlib as ml  # noqa: F401  (checks every answer against the OpenAPI)
from matchlib import wp

POSTS = 14  # turns per ruleset: past the set-up of every ruleset's smallest army
LONG = 140  # posts: past two snapshots (sql/014_snapshots.sql: every 64th post)
AROUND = {2, 63, 64, 65, 100, 127, 128, 129}


class ViewAtTest(wp.ServerTestCase):

    def spectator(self, path):
        return self.server.request("GET", path)

    def live(self, ps, game, seen):
        """The views served now, by seq: seat 0's and a spectator's bytes."""
        a = ps[0].view(game)
        b = self.spectator("/api/games/%d" % game)
        self.assertEqual((a.status, b.status), (200, 200))
        seen[a.json()["seq"]] = (a.body, b.body)
        return a.json()

    def at(self, who, game, k):
        path = "/api/games/%d?at=%d" % (game, k)
        r = who.req("GET", path) if who else self.spectator(path)
        self.assertEqual(r.status, 200, r)
        return r

    def play(self, ruleset, seed):
        rng = random.Random(seed)
        ps = [ml.Client(self.server, "P%d" % i) for i in range(2)]
        g = ps[0].create(2, None, client_seed="a%d" % seed, ruleset=ruleset)
        self.assertEqual(ps[1].join(g["id"], g["invitations"][0]["code"], "b").status, 200)
        game, seen = g["id"], {}
        v = self.live(ps, game, seen)
        for i in range(POSTS):
            if v["status"] != "active":
                break
            if i == 3:
                # A side post: the draw offer is part of the view after it.
                r = ps[0].req("POST", "/api/games/%d/draw" % game, {"action": "offer"})
                self.assertEqual(r.status, 200, r)
                v = self.live(ps, game, seen)
            p = ps[rng.choice(v["awaiting"])]
            a = p.actions(game)
            r = p.turn(game, a["seq"], [rng.choice(a["actions"])])
            self.assertEqual(r.status, 200, r)
            v = self.live(ps, game, seen)
        self.assertGreater(len(seen), 5)
        for k, (mine, theirs) in sorted(seen.items()):
            with self.subTest(ruleset=ruleset, at=k):
                self.assertEqual(self.at(ps[0], game, k).body, mine)
                self.assertEqual(self.at(None, game, k).body, theirs)
        # The end: everything revealed at every post; the last is the view now.
        if v["status"] == "active":
            self.assertEqual(ps[0].req("POST", "/api/games/%d/resign" % game).status, 200)
        end, spec = ps[1].view(game), self.spectator("/api/games/%d" % game)
        last = end.json()["seq"]
        self.assertEqual(self.at(ps[1], game, last).body, end.body)
        self.assertEqual(self.at(None, game, last).body, spec.body)
        first = self.at(None, game, 1).json()
        self.assertEqual(first["dice"]["seed"], end.json()["dice"]["seed"])
        self.assertEqual((first["seq"], first["status"]), (1, "active"))
        return game, last

    def test_past_snapshots_the_view_at_is_the_live_view(self):
        """Issue 26: past positions replay from the nearest snapshot (every
        64th post); around and between them, and at the end, the view at
        post k is still the one served live after post k, to a seat and to
        a spectator, in every ruleset that plays that long (while it is
        played: once over, everything is revealed at every post)."""
        rulesets = self.server.request("GET", "/api/rulesets").json()["rulesets"]
        longest = 0
        for i, rs in enumerate(rulesets):
            rng = random.Random(100 + i)
            ps = [ml.Client(self.server, "L%d" % j) for j in range(2)]
            g = ps[0].create(2, None, client_seed="l%d" % i, ruleset=rs["id"])
            self.assertEqual(ps[1].join(g["id"], g["invitations"][0]["code"], "m").status, 200)
            game, seen = g["id"], {}
            v = self.live(ps, game, seen)
            while v["status"] == "active" and v["seq"] < LONG:
                p = ps[rng.choice(v["awaiting"])]
                a = p.actions(game)
                r = p.turn(game, a["seq"], [rng.choice(a["actions"])])
                self.assertEqual(r.status, 200, r)
                v = self.live(ps, game, seen) if v["seq"] + 1 in AROUND else ps[0].view(game).json()
            self.live(ps, game, seen)
            if v["status"] != "active":  # over: every past post is seen revealed now
                seen = {v["seq"]: seen[v["seq"]]}
            else:
                longest = max(longest, v["seq"])
            for k in sorted(seen):
                mine, theirs = seen[k]
                with self.subTest(ruleset=rs["id"], at=k):
                    self.assertEqual(self.at(ps[0], game, k).body, mine)
                    self.assertEqual(self.at(None, game, k).body, theirs)
        self.assertGreater(longest, 129, "no match was played past two snapshots")

    def test_every_ruleset_at_each_post_is_the_live_view(self):
        rulesets = self.server.request("GET", "/api/rulesets").json()["rulesets"]
        self.assertGreaterEqual(len(rulesets), 5)
        for i, rs in enumerate(rulesets):
            game, last = self.play(rs["id"], seed=i)
        # Out of range and malformed, on the last match.
        for q, status, slug in (("0", 400, "invalid-request"), ("x", 400, "invalid-request"),
                                ("-1", 400, "invalid-request"), (str(last + 1), 404, "not-found"),
                                ("99999999999", 400, "invalid-request")):
            with self.subTest(at=q):
                r = self.spectator("/api/games/%d?at=%s" % (game, q))
                self.assertEqual(r.status, status, r)
                self.assertEqual(r.media_type, "application/problem+json")
                self.assertEqual(r.json()["type"], "urn:warpost:problem:" + slug)
        r = self.spectator("/api/games/999999?at=1")
        self.assertEqual(r.status, 404)
        self.assertEqual(r.json()["type"], "urn:warpost:problem:game-not-found")


if __name__ == "__main__":
    wp.main()
