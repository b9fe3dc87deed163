"""Wargame Chess rulings through the whole service (RULINGS.md, Wargame
Chess W7 and W8).

W8: a team list stays hidden from the other seat and spectators until both
teams are deployed; until then they see of it only the pieces on the board
-- not in the view, the post log, the action list, nor an error.
W7: a resignation is a loss; a match ended by agreement is decided on
points, through the ruleset's agreed_end, live and in verify."""
import json
import os
import unittest

os.environ["WARPOSTD_PRODUCT"] = "1"  # before matchlib picks the binary
import matchlib as ml  # noqa: E402
from matchlib import wp  # noqa: E402

TEAM_0 = {"type": "team", "faction": "standard",
          "pieces": {"king": 1, "queen": 1, "rook": 2, "pawn": 5}, "upgrades": []}
TEAM_1 = {"type": "team", "faction": "standard",
          "pieces": {"king": 1, "knight": 2, "bishop": 2, "joker": 1, "pawn": 2}, "upgrades": []}


class WargameChessRulingsTest(wp.ServerTestCase):

    def setUp(self):
        self.a = ml.Client(self.server, "Ann")
        self.b = ml.Client(self.server, "Ben")
        g = self.a.create(2, ruleset="wargame-chess")
        self.assertEqual(self.b.join(g["id"], g["invitations"][0]["code"]).status, 200)
        self.game = g["id"]

    def act(self, who, action):
        a = who.actions(self.game)
        self.assertIn(action, a["actions"])
        r = who.turn(self.game, a["seq"], [action])
        self.assertEqual(r.status, 200, r)

    def seen_by_others(self):
        """Everything seat 1 and a spectator can read about the match:
        views, the post log, seat 1's actions and one of its mistakes."""
        reads = [(who.req if who else self.server.request)("GET", path % self.game)
                 for who in (self.b, None)
                 for path in ("/api/games/%d", "/api/games/%d/turns?after=0")]
        self.assertEqual([r.status for r in reads], [200] * 4)
        mistake = self.b.turn(self.game, self.a.view(self.game).json()["seq"],
                              [{"type": "deploy", "piece": "queen", "square": "d8"}])
        self.assertNotEqual(mistake.status, 200, mistake)
        return "\n".join([r.body.decode() for r in reads + [mistake]] +
                         [json.dumps(self.b.actions(self.game))])

    def state_for(self, who):
        return who.view(self.game).json()["state"]

    def test_w8_team_lists_hidden_until_both_are_deployed(self):
        self.act(self.a, TEAM_0)
        self.act(self.b, TEAM_1)
        self.assertEqual(self.state_for(self.a)["phase"], "trees")
        self.assertNotIn('"queen"', self.seen_by_others(),
                         "W8: the other list is hidden once both are built")
        team0 = self.state_for(self.b)["teams"][0]
        self.assertEqual((team0["faction"], team0["pieces"], team0["upgrades"]),
                         (None, None, None))
        self.assertEqual(self.state_for(self.a)["teams"][0]["pieces"]["queen"], 1,
                         "the builder sees its own list")
        self.act(self.b, {"type": "trees", "choice": "mirror"})
        # Seat 1 set up Trees second: it deploys its whole team first (W2).
        while self.state_for(self.a)["phase"] == "deploy" and \
                self.b.actions(self.game)["actions"]:
            self.act(self.b, self.b.actions(self.game)["actions"][0])
        # Seat 0 deploys everything but its Queen.
        while True:
            acts = [x for x in self.a.actions(self.game)["actions"] if x["piece"] != "queen"]
            if not acts:
                break
            self.act(self.a, acts[0])
            self.assertNotIn('"queen"', self.seen_by_others(),
                             "W8: only the pieces on the board are seen")
            self.assertEqual(self.state_for(self.b)["points"][0], 0)
        queen = [x for x in self.a.actions(self.game)["actions"] if x["piece"] == "queen"][0]
        self.act(self.a, queen)
        st = self.state_for(self.b)
        self.assertEqual(st["phase"], "play")
        self.assertEqual(st["teams"][0]["pieces"]["queen"], 1,
                         "W8: both teams deployed, the lists are shown (Setup order, step 5)")
        self.assertEqual(st["points"], [14, 14])

    def test_w7_resignation_is_a_loss(self):
        self.act(self.a, TEAM_0)
        self.act(self.b, TEAM_1)
        self.assertEqual(self.a.req("POST", "/api/games/%d/resign" % self.game).status, 200)
        res = self.a.view(self.game).json()["result"]
        self.assertEqual((res["winners"], res["draw"], res["reason"]), ([1], False, "resignation"))

    def test_w7_agreed_end_is_decided_on_points(self):
        st = self.state_for(self.a)
        self.assertEqual(st["agreement"], {"decided_on": "points",
                                           "prompt": "End the match on points"})
        self.act(self.a, TEAM_0)
        self.act(self.b, TEAM_1)
        for who, what in ((self.a, "offer"), (self.b, "accept")):
            r = who.req("POST", "/api/games/%d/draw" % self.game, {"action": what})
            self.assertEqual(r.status, 200, r)
        res = self.a.view(self.game).json()["result"]
        # Nothing on the board yet: 0 points each, a draw on points.
        self.assertEqual((res["winners"], res["draw"], res["reason"]),
                         ([], True, "inconclusive: points"))
        rep = self.a.req("GET", "/api/games/%d/verify" % self.game).json()
        self.assertTrue(rep["verified"], rep["mismatches"])


if __name__ == "__main__":
    wp.main()
