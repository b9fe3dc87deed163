"""Hidden information through the whole service with the product's
rulesets (RULINGS.md G5): what a Confrontation seat builds in secret (its
army, its Bishop's spells, its standing orders) never reaches the other
seat or a spectator — not in the view, the post log, the action list, nor
an error — until the rules reveal it; at the end everything is revealed."""
import json
import os
import re
import unittest

os.environ["WARPOSTD_PRODUCT"] = "1"  # before matchlib picks the binary
import matchlib as ml  # noqa: E402
from matchlib import wp  # noqa: E402

SECRET_SPELL = "judgement"


class ConfrontationSecretsTest(wp.ServerTestCase):

    def setUp(self):
        self.a = ml.Client(self.server, "Ann")
        self.b = ml.Client(self.server, "Ben")
        g = self.a.create(2, ruleset="confrontation")
        self.assertEqual(self.b.join(g["id"], g["invitations"][0]["code"]).status, 200)
        self.game = g["id"]

    def seen_by_others(self):
        """Everything seat 1 and a spectator can read about the match."""
        out = []
        for who in (self.b, None):
            req = who.req if who else self.server.request
            for path in ("/api/games/%d", "/api/games/%d/turns?after=0"):
                r = req("GET", path % self.game)
                self.assertEqual(r.status, 200, r)
                out.append(r.body.decode())
        out.append(json.dumps(self.b.actions(self.game)))
        return "\n".join(out)

    def act(self, who, action):
        a = who.actions(self.game)
        self.assertIn(action, a["actions"])
        r = who.turn(self.game, a["seq"], [action])
        self.assertEqual(r.status, 200, r)
        return r

    def test_a_secret_army_stays_secret_until_revealed(self):
        v = self.a.view(self.game).json()
        self.assertEqual(v["state"]["phase"], "build")
        self.assertEqual(v["awaiting"], [0, 1], "armies are built at the same time")
        self.act(self.a, {"type": "buy", "piece": "bishop"})
        mine = self.a.view(self.game).json()["state"]
        bishop = [p for p in mine["seats"][0]["pieces"] if p["type"] == "bishop"][0]
        self.act(self.a, {"type": "add_spell", "piece": bishop["id"], "spell": SECRET_SPELL})
        r = self.a.req("POST", "/api/games/%d/orders" % self.game,
                       {"orders": {"luck": "always"}})
        self.assertIn(r.status, (200, 422), r)
        text = self.seen_by_others()
        self.assertNotIn(SECRET_SPELL, text, "a spell leaked while armies are built")
        for who in (self.b, None):
            r = (who.req if who else self.server.request)("GET", "/api/games/%d" % self.game)
            seat0 = r.json()["state"]["seats"][0]
            self.assertEqual((seat0["pieces"], seat0["points_left"], seat0["standing_orders"]),
                             (None, None, None), "the army leaked while armies are built")
        log = self.b.req("GET", "/api/games/%d/turns" % self.game).json()["posts"]
        self.assertEqual([p["events"] for p in log if p["seat"] == 0], [[], [], []],
                         "build events are private to their seat")
        # The other seat's mistakes name only its own army.
        r = self.b.turn(self.game, self.a.view(self.game).json()["seq"],
                        [{"type": "add_spell", "piece": bishop["id"], "spell": SECRET_SPELL}])
        self.assertEqual(r.status, 422, r)
        seq = self.a.view(self.game).json()["seq"]
        r2 = self.b.turn(self.game, seq, [{"type": "add_spell", "piece": 15, "spell": SECRET_SPELL}])
        # The refusal is the same whether or not the other seat has a Bishop
        # with that number: it speaks of the acting seat's own army.
        def norm(reply):
            doc = reply.json()
            doc["detail"] = re.sub(r"\d+", "N", doc["detail"])
            return doc
        self.assertEqual(norm(r), norm(r2))

        # Both armies ready: the armies (not the spells) are revealed.
        mine = self.a.actions(self.game)["actions"]
        while {"type": "ready"} not in mine:
            self.act(self.a, [x for x in mine if x["type"] == "add_spell"][0])
            mine = self.a.actions(self.game)["actions"]
        self.act(self.a, {"type": "ready"})
        self.act(self.b, {"type": "ready"})
        text = self.seen_by_others()
        self.assertIn('"type":"bishop"', text, "armies are revealed when all are ready")
        self.assertNotIn(SECRET_SPELL, text, "spells stay hidden until cast")
        b_view = self.b.view(self.game).json()["state"]
        theirs = [p for p in b_view["seats"][0]["pieces"] if p["type"] == "bishop"][0]
        self.assertIsNone(theirs["spells"])
        self.assertGreaterEqual(theirs["spell_count"], 2, "the count is public (II)")

        # At the end everything is revealed.
        self.assertEqual(self.b.req("POST", "/api/games/%d/resign" % self.game).status, 200)
        self.assertIn(SECRET_SPELL, self.server.request("GET", "/api/games/%d" % self.game)
                      .body.decode())


if __name__ == "__main__":
    wp.main()
