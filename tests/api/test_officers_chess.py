"""Officers Chess through HTTP (issue 11): a whole match built, deployed and
played to the end with the forecast read before every attack, then audited
by /verify; and fog of war (RULINGS.md O13, G5): a hidden enemy never
reaches a seat or a spectator through the view, the post log, the action
list or an error, until the end reveals everything."""
import json
import os
import random
import unittest

os.environ["WARPOSTD_PRODUCT"] = "1"  # before matchlib picks the binary
import matchlib as ml  # noqa: E402
from matchlib import wp  # noqa: E402

RULESET = "officers-chess"

ARMY0 = {"type": "army", "units": [
    {"name": "Ana", "class": "Sword Fighter", "items": ["Steel Sword", "Vulnerary"]},
    {"name": "Bo", "class": "Archer", "items": ["Steel Bow"]},
]}
ARMY1 = {"type": "army", "units": [
    {"name": "Cy", "class": "Lance Cavalier", "items": ["Steel Lance", "Javelin"]},
    {"name": "Di", "class": "Martial Monk", "items": ["Heal", "Steel-Hand Art"]},
]}


class OfficersChessTest(wp.ServerTestCase):

    def match(self, options):
        self.a = ml.Client(self.server, "Ann")
        self.b = ml.Client(self.server, "Ben")
        g = self.a.create(2, options, client_seed="ann", ruleset=RULESET)
        self.assertEqual(self.b.join(g["id"], g["invitations"][0]["code"], "ben").status, 200)
        self.game = g["id"]
        self.who = [self.a, self.b]

    def post(self, seat, action, status=200):
        p = self.who[seat]
        r = p.turn(self.game, ml.seq_of(p, self.game), [action])
        self.assertEqual(r.status, status, r)
        return r

    def state(self, who=None):
        req = who.req if who else self.server.request
        r = req("GET", "/api/games/%d" % self.game)
        self.assertEqual(r.status, 200, r)
        return r.json()

    def build_and_deploy(self, places0, places1):
        v = self.state(self.a)
        self.assertEqual(v["state"]["phase"], "recruit")
        self.assertEqual(sorted(v["awaiting"]), [0, 1], "armies are built at the same time")
        acts = self.a.actions(self.game)["actions"]
        classes = {a["class"] for a in acts if a["type"] == "recruit"}
        self.assertIn("Thief", classes)
        self.assertIn("Dancer", classes)
        self.post(0, ARMY0)
        self.post(1, ARMY1)
        for name, sq in places0:
            self.post(0, {"type": "deploy", "unit": name, "to": sq})
        for name, sq in places1:
            self.post(1, {"type": "deploy", "unit": name, "to": sq})
        self.assertEqual(self.state(self.a)["state"]["phase"], "battle")

    def test_a_whole_match_with_forecasts(self):
        self.match({"units": 2, "round_limit": 6, "map": "crossing"})
        self.build_and_deploy([("Ana", "d2"), ("Bo", "e1")], [("Cy", "d7"), ("Di", "e8")])
        rng = random.Random(11)
        posts, attacks = 0, 0
        while posts < 600:
            v = self.state(self.a)
            if v["status"] != "active":
                break
            seat = v["awaiting"][0]
            a = self.who[seat].actions(self.game)
            acts = a["actions"]
            self.assertTrue(acts, "G6: an awaited seat has a legal action")
            att = [x for x in acts if x["type"] == "attack" and "forecast" in x]
            for x in att:
                f = x["forecast"]
                for side in ("attacker", "defender"):
                    for k in ("hit", "crit", "damage", "crit_damage", "strikes", "follow_up"):
                        self.assertIn(k, f[side])
                self.assertIn("counter", f["defender"])
            moves = [x for x in acts if x["type"] == "move"]
            if att:
                choice = att[0]
                attacks += 1
            elif moves and rng.random() < 0.8:
                # Close in: the move that ends nearest the enemy side.
                choice = max(moves, key=lambda m: int(m["to"][1]) * (1 if seat == 0 else -1))
            else:
                choice = rng.choice(acts)
            r = self.who[seat].turn(self.game, a["seq"], [choice])
            self.assertEqual(r.status, 200, r)
            posts += 1
        v = self.state(self.a)
        self.assertEqual(v["status"], "over", "the match ends (round limit 6)")
        self.assertGreater(attacks, 0, "attacks were made, each read from its forecast")
        rep = self.server.request("GET", "/api/games/%d/verify" % self.game).json()
        self.assertTrue(rep["verified"], rep.get("mismatches"))
        # The combat events carry the strikes with their rolls.
        log = self.a.req("GET", "/api/games/%d/turns?after=0&limit=500" % self.game).json()
        combats = [e for p in log["posts"] for e in p["events"] if e["type"] == "combat"]
        self.assertTrue(combats)
        self.assertIn("strikes", combats[0])

    def seen(self, who):
        """What a seat (or a spectator, who=None) gets: view state, log, actions."""
        req = who.req if who else self.server.request
        out = [json.dumps(self.state(who)["state"], sort_keys=True)]
        log = req("GET", "/api/games/%d/turns?after=0&limit=500" % self.game).json()
        out.append(json.dumps([p["events"] for p in log["posts"]], sort_keys=True))
        out.append(json.dumps([p["actions"] for p in log["posts"] if p["seat"] == 1]))
        if who:
            out.append(json.dumps(who.actions(self.game)["actions"], sort_keys=True))
        return out

    def test_fog_hides_an_unseen_enemy_everywhere(self):
        self.match({"units": 1, "fog": True, "round_limit": 2, "activations": "1"})
        self.a.turn(self.game, ml.seq_of(self.a, self.game),
                    [{"type": "recruit", "name": "Ana", "class": "Sword Fighter",
                      "items": ["Steel Sword"]}])
        self.post(1, {"type": "recruit", "name": "Zed", "class": "Thief",
                      "items": ["Steel Dagger"]})
        # Deployment is secret and simultaneous.
        self.post(1, {"type": "deploy", "unit": "Zed", "to": "h8"})
        for who in (self.a, None):
            text = "".join(self.seen(who))
            self.assertNotIn("Zed", text, "the other army is secret until both deploy")
            self.assertNotIn("h8", text)
        self.post(0, {"type": "deploy", "unit": "Ana", "to": "a1"})
        # RULINGS.md, G3 (amended): a seat's one unit to activate is its only
        # legal action, so the server activates it; posting it is refused.
        self.assertEqual(self.state(self.a)["state"]["active"]["name"], "Ana")
        self.post(0, {"type": "activate", "at": "a1"}, status=422)
        self.post(0, {"type": "end", "from": "a1"})
        self.assertEqual(self.state(self.a)["awaiting"], [1], "Zed was activated for seat 1")
        before = {id(w): self.seen(w) for w in (self.a, None)}
        # Seat 1 moves in the fog: nothing seat 0 or a spectator gets changes.
        self.post(1, {"type": "move", "from": "h8", "to": "h6"})
        for w in (self.a, None):
            after = self.seen(w)
            self.assertEqual(before[id(w)][0], after[0], "the view does not change")
            self.assertEqual(after[2], json.dumps([None, None, None]),
                             "the other seat's actions are not shown")
            text = "".join(after)
            for secret in ("Zed", "h8", "h6", "Thief"):
                self.assertNotIn(secret, text, "%s leaked" % secret)
        self.post(1, {"type": "end", "from": "h6"})
        # Round 2 (a1 activated by the server): attacking the hidden square
        # and an empty one read the same.
        seq = ml.seq_of(self.a, self.game)
        r1 = self.a.turn(self.game, seq, [{"type": "attack", "from": "a1", "target": "h6", "slot": 0}])
        r2 = self.a.turn(self.game, seq, [{"type": "attack", "from": "a1", "target": "g6", "slot": 0}])
        self.assertEqual(r1.status, 422, r1)
        d1, d2 = r1.json(), r2.json()
        self.assertEqual((d1.get("detail"), d1.get("code")), (d2.get("detail"), d2.get("code")),
                         "an error never says whether a hidden unit is there")
        self.post(0, {"type": "end", "from": "a1"})
        self.post(1, {"type": "end", "from": "h6"})
        v = self.state(self.a)
        self.assertEqual(v["status"], "over")
        names = [u["name"] for u in v["state"]["units"]]
        self.assertIn("Zed", names, "at the end everything is revealed")
        rep = self.server.request("GET", "/api/games/%d/verify" % self.game).json()
        self.assertTrue(rep["verified"], rep.get("mismatches"))


if __name__ == "__main__":
    wp.main()
