"""The ruleset registry is a const table built at compile time (issue 9,
item 4): a server that has just started answers its very first requests
correctly even when 32 of them arrive at once, each on its own worker
thread (the rulesets list, views of matches and turns), with the test
ruleset offered by the test server from the first request on."""
import os
import unittest

import matchlib as ml
from matchlib import wp

MATCHES = 8
# Every ruleset folder of rules/ (the build adds each one that has a
# CMakeLists.txt), and the test ruleset.
_RULES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "rules")
RULESETS = {d for d in os.listdir(_RULES)
            if os.path.isfile(os.path.join(_RULES, d, "CMakeLists.txt"))} | {ml.RULESET}


class FirstRequestsTest(wp.ServerTestCase):

    def test_32_concurrent_first_requests(self):
        # Set the matches up through one server, then stop it ...
        a = ml.Client(self.server, "Alice")
        b = ml.Client(self.server, "Bob")
        games = []
        for _ in range(MATCHES):
            g = ml.start_match([a, b])
            acts = a.actions(g)
            self.assertTrue(acts["awaited"], acts)
            games.append((g, acts["seq"], acts["actions"][0]))
        self.server.stop()

        # ... and send the first requests of a fresh one all at once.
        # (Its readiness probe, GET /api/health, does not read the registry.)
        fresh = wp.Server(self.db.url)
        fresh.start()
        self.addCleanup(fresh.stop)
        jobs = []
        for i in range(12):
            jobs.append(("rulesets", lambda: fresh.request("GET", "/api/rulesets")))
        for i in range(12):
            g = games[i % MATCHES][0]
            jobs.append(("view", lambda g=g: fresh.request(
                "GET", "/api/games/%d" % g, headers=ml.auth(a.token))))
        for g, seq, act in games:
            jobs.append(("turn", lambda g=g, seq=seq, act=act: fresh.request(
                "POST", "/api/games/%d/turns" % g, {"seq": seq, "actions": [act]},
                ml.auth(a.token))))
        self.assertEqual(len(jobs), 32)
        replies = wp.run_together([call for _, call in jobs])

        for (what, _), r in zip(jobs, replies):
            self.assertEqual(r.status, 200, (what, r))
            doc = r.json()
            if what == "rulesets":
                self.assertEqual({x["id"] for x in doc["rulesets"]}, RULESETS, doc)
            elif what == "view":
                self.assertEqual(doc["ruleset"], ml.RULESET, doc)
                self.assertEqual(doc["status"], "active", doc)
            else:
                self.assertEqual(doc["seq"], 2, doc)
        for g, _, _ in games:
            self.assertEqual(self.db.psql(
                "SELECT count(*) FROM posts WHERE game_id = %d" % g).strip(), "2")


if __name__ == "__main__":
    wp.main()
