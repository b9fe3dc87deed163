"""The example bot client (docs/examples/random_bot.py, issue 27) against
a real server: for each of the five rulesets it signs up, marks itself a
bot, starts a match against the server's level-1 computer player and plays
uniformly random legal actions from its event stream (GET /api/me/events)
until the match ends or it reaches its move cap (then it resigns); the
match is over, both seats show as bots, and every post verifies."""
import json
import os
import subprocess
import sys
import unittest

import matchlib as ml
from matchlib import wp

CLIENT = os.path.join(ml.REPO, "docs", "examples", "random_bot.py")
RULESETS = ["wargame-chess", "officers-chess", "blood-chess", "chesswar", "confrontation"]


class ExampleClientTest(wp.ServerTestCase):
    # A computer that keeps redoing its set-up resigns after this many
    # posts in a row (the level-1 engine in ChessWar's army building).
    server_env = {"BOT_MAX_RUN": "200"}

    def test_the_example_client_plays_the_computer_in_every_ruleset(self):
        for ruleset in RULESETS:
            with self.subTest(ruleset=ruleset):
                run = subprocess.run(
                    [sys.executable, CLIENT, "--server", "http://127.0.0.1:%d" % self.server.port,
                     "--name", "Random " + ruleset[:20], "--computer", ruleset, "--level", "1",
                     "--max-posts", "60", "--seed", "27"],
                    capture_output=True, timeout=300, stdin=subprocess.DEVNULL)
                self.assertEqual(run.returncode, 0, run.stderr.decode())
                out = json.loads(run.stdout.decode().strip().splitlines()[-1])
                self.assertEqual(len(out["games"]), 1, out)
                self.assertGreater(out["posts"], 0, out)
                game = out["games"][0]
                v = self.req("GET", "/api/games/%d" % game).json()
                self.assertEqual(v["ruleset"], ruleset)
                self.assertIn(v["status"], ("over",), v["status"])
                self.assertEqual([s["player"]["bot"] for s in v["seats"]], [True, True])
                self.assertEqual(v["seats"][0]["player"]["id"], out["player"])
                posts = self.req("GET", "/api/games/%d/turns?limit=500" % game).json()["posts"]
                by = {s: sum(1 for p in posts if p["seat"] == s and p["kind"] == "turn")
                      for s in (0, 1)}
                self.assertEqual(by[0], out["posts"], by)
                self.assertGreater(by[1], 0, by)
                r = self.req("GET", "/api/games/%d/verify" % game)
                self.assertEqual(r.status, 200, r)
                self.assertTrue(r.json()["verified"], r.json())


if __name__ == "__main__":
    unittest.main()
