"""Every ruleset the product offers, played through HTTP to the end by
seeded random choices from GET .../actions, then audited by GET .../verify.
(Issues "Confrontation ruleset" and "Wargame Chess ruleset": a whole match
through HTTP.) Runs the product binary: the test ruleset is not offered."""
import concurrent.futures
import os
import random
import unittest

os.environ["WARPOSTD_PRODUCT"] = "1"  # before matchlib picks the binary
import matchlib as ml  # noqa: F401  (checks every answer against the OpenAPI)
from matchlib import wp

MAX_POSTS = 4000


class PlayEveryRulesetTest(wp.ServerTestCase):

    def players(self, n):
        return [ml.Client(self.server, "Player %d" % i) for i in range(n)]

    def bounded(self, ruleset):
        """Random play may never end a match whose text has no turn limit
        (Blood Chess ends only when a King falls): where a ruleset offers a
        limit, set one."""
        rs = next(r for r in self.server.request("GET", "/api/rulesets").json()["rulesets"]
                  if r["id"] == ruleset)
        for limit, n in (("turn_limit", 40), ("round_limit", 20)):  # Blood Chess; Officers Chess (O14)
            if limit in rs["options"]:
                return {limit: n}
        return None

    def play(self, ruleset, seats, seed):
        rng = random.Random(seed)
        ps = self.players(seats)
        g = ps[0].create(seats, self.bounded(ruleset), client_seed="s%d" % seed, ruleset=ruleset)
        for p, inv in zip(ps[1:], g["invitations"]):
            self.assertEqual(p.join(g["id"], inv["code"], "c%d" % rng.randrange(1000)).status, 200)
        game = g["id"]
        posts = 0
        while posts < MAX_POSTS:
            v = ps[0].view(game).json()
            if v["status"] != "active":
                break
            self.assertTrue(v["awaiting"], "an active match awaits someone")
            seat = rng.choice(v["awaiting"])
            p = ps[seat]
            a = p.actions(game)
            self.assertTrue(a["awaited"], a)
            self.assertTrue(a["actions"], "G6: an awaited seat has a legal action")
            r = p.turn(game, a["seq"], [rng.choice(a["actions"])])
            self.assertEqual(r.status, 200, r)
            posts += 1
        v = ps[0].view(game).json()
        self.assertEqual(v["status"], "over", "%s did not end in %d posts" % (ruleset, MAX_POSTS))
        self.assertIsNotNone(v["result"])
        rep = self.server.request("GET", "/api/games/%d/verify" % game).json()
        self.assertTrue(rep["verified"], rep["mismatches"])
        return posts

    def test_every_product_ruleset_plays_to_the_end(self):
        rulesets = self.server.request("GET", "/api/rulesets").json()["rulesets"]
        self.assertNotIn(ml.RULESET, [r["id"] for r in rulesets],
                         "the test ruleset is never offered by the product")
        self.assertTrue(rulesets, "the product offers at least one ruleset")
        # Every match on a thread of its own (each with its own players):
        # the server plays them side by side, as it would for real players.
        games = [(rs["id"], seats) for rs in rulesets
                 for seats in range(rs["min_seats"], rs["max_seats"] + 1)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
            done = {g: pool.submit(self.play, g[0], g[1], seed=g[1]) for g in games}
        for (ruleset, seats), future in done.items():
            with self.subTest(ruleset=ruleset, seats=seats):
                future.result()


if __name__ == "__main__":
    wp.main()
