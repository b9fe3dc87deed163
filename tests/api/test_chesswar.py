"""ChessWar through HTTP (issue 10): a whole match — armies built and
deployed in secret in single posts, the three phases played with moves,
charges, shots, spells and attacks — to the end, then audited by verify;
and the secret set-up (RULINGS.md C2, G5): what a seat builds and deploys
never reaches the other seat or a spectator until both are in."""
import json
import os
import random
import unittest

os.environ["WARPOSTD_PRODUCT"] = "1"  # before matchlib picks the binary
import matchlib as ml  # noqa: E402
from matchlib import wp  # noqa: E402

MAX_POSTS = 3000

ARMIES = {
    # army: (buys, the squares of rank 1/2 for seat 0; mirrored for seat 1)
    "humans": [("wizard", 1), ("catapults", 2), ("archers", 3), ("knights", 2), ("infantry", 4)],
    "undead": [("necromancer", 1), ("undead_catapults", 1), ("undead_archers", 2),
               ("undead_cavalry", 2), ("zombies", 4)],
    "orcs": [("shaman", 1), ("trolls", 2), ("archers", 2), ("wolf_riders", 3), ("orcs", 3)],
    "dwarves": [("rune_lord", 1), ("catapults", 2), ("crossbowers", 3), ("infantry", 4)],
}
GENERAL = {"humans": "general", "undead": "liche", "orcs": "warlord", "dwarves": "warlord"}


def set_up_actions(army, seat):
    acts = [{"type": "army", "army": army}]
    units = [GENERAL[army]]
    for unit, n in ARMIES[army]:
        acts.append({"type": "buy", "unit": unit, "count": n} if n > 1 else
                    {"type": "buy", "unit": unit})
        units += [unit] * n
    acts.append({"type": "ready"})
    ranks = ("1", "2") if seat == 0 else ("8", "7")
    squares = [f + r for r in ranks for f in "abcdefgh"]
    for unit, sq in zip(units, squares):
        acts.append({"type": "deploy", "unit": unit, "square": sq})
    acts.append({"type": "done"})
    return acts


class ChessWarMatchTest(wp.ServerTestCase):

    def start(self, options=None):
        self.a = ml.Client(self.server, "Ann")
        self.b = ml.Client(self.server, "Ben")
        g = self.a.create(2, options, ruleset="chesswar", client_seed="ann")
        self.assertEqual(self.b.join(g["id"], g["invitations"][0]["code"], "ben").status, 200)
        return g["id"]

    def post(self, who, game, actions):
        a = who.actions(game)
        r = who.turn(game, a["seq"], actions)
        self.assertEqual(r.status, 200, r)
        return r

    def test_a_whole_match_to_the_end(self):
        game = self.start()
        v = self.a.view(game).json()
        self.assertEqual(v["state"]["phase"], "setup")
        self.assertEqual(sorted(v["awaiting"]), [0, 1], "both seats set up at the same time")
        # each seat builds and deploys in one post
        self.post(self.a, game, set_up_actions("humans", 0))
        self.post(self.b, game, set_up_actions("undead", 1))
        v = self.a.view(game).json()
        self.assertEqual(v["state"]["phase"], "movement")
        self.assertEqual(v["state"]["turn_seat"], 0, "humans (2) go before undead (7)")
        self.assertEqual(len([u for u in v["state"]["units"] if u["seat"] == 1]), 11,
                         "the other army is revealed once both are in")
        rng = random.Random(7)
        players = [self.a, self.b]
        posts = 0
        seen = set()
        while posts < MAX_POSTS:
            v = self.a.view(game).json()
            if v["status"] != "active":
                break
            seat = rng.choice(v["awaiting"])
            p = players[seat]
            a = p.actions(game)
            self.assertTrue(a["actions"], "G6: an awaited seat has a legal action")
            acts = a["actions"]
            # play with purpose: fight when possible, move forward, else any
            fight = [x for x in acts if x["type"] in ("attack", "shoot", "charge", "cast",
                                                      "advance", "counterspell")]
            moves = [x for x in acts if x["type"] == "move" and
                     (int(x["to"][1:]) > int(x["from"][1:])) == (seat == 0)]
            if fight and rng.random() < 0.8:
                choice = rng.choice(fight)
            elif moves and rng.random() < 0.7:
                choice = rng.choice(moves)
            else:
                choice = rng.choice(acts)
            seen.add(choice["type"])
            r = p.turn(game, a["seq"], [choice])
            self.assertEqual(r.status, 200, r)
            posts += 1
        v = self.a.view(game).json()
        self.assertEqual(v["status"], "over", "the match ends within %d posts" % MAX_POSTS)
        self.assertIsNotNone(v["result"])
        print("chesswar match: %d posts, %s, seen %s" % (posts, v["result"], sorted(seen)))
        # end_phase is not required: a phase with nothing else to do is ended by
        # the server (RULINGS.md, G3 (amended)), so a short match may never post it
        for t in ("move", "shoot"):
            self.assertIn(t, seen)
        rep = self.server.request("GET", "/api/games/%d/verify" % game).json()
        self.assertTrue(rep["verified"], rep["mismatches"])

    def test_teleport_through_units_is_listed_and_accepted(self):
        """Finding: the Liche's Teleport through occupied squares was missing
        from GET /actions and refused in the {"from","to"} form (422
        unreachable), while the {"from","path"} form accepted it. One
        movement search (rules/chesswar/cw_move.c) answers all of them."""
        game = self.start()
        self.post(self.a, game, [{"type": "army", "army": "humans"}, {"type": "ready"},
                                 {"type": "deploy", "unit": "general", "square": "e1"},
                                 {"type": "done"}])
        self.post(self.b, game, [{"type": "army", "army": "undead"},
                                 {"type": "buy", "unit": "zombies", "count": 3},
                                 {"type": "ready"},
                                 {"type": "deploy", "unit": "liche", "square": "b8"},
                                 {"type": "deploy", "unit": "zombies", "square": "a7"},
                                 {"type": "deploy", "unit": "zombies", "square": "b7"},
                                 {"type": "deploy", "unit": "zombies", "square": "c7"},
                                 {"type": "done"}])
        # seat 0 ends its three phases (the server ends those with nothing
        # else to do itself, RULINGS.md G3 (amended))
        while self.a.view(game).json()["state"]["turn_seat"] == 0:
            self.post(self.a, game, [{"type": "end_phase"}])
        a = self.b.actions(game)
        offered = {x["to"] for x in a["actions"] if x["type"] == "move" and x["from"] == "b8"}
        for sq in ("b6", "a6", "c6", "d6"):
            self.assertIn(sq, offered, "the Liche may teleport through its zombies to " + sq)
        self.assertNotIn("b7", offered, "a teleport never ends on a unit")
        r = self.b.turn(game, a["seq"], [{"type": "move", "from": "b8", "to": "b6"}])
        self.assertEqual(r.status, 200, r)
        liche = [u for u in self.b.view(game).json()["state"]["units"] if u["unit"] == "liche"]
        self.assertEqual(liche[0]["square"], "b6")

    def test_refusals_speak_plainly(self):
        game = self.start()
        self.post(self.a, game, [{"type": "army", "army": "dwarves"}])
        a = self.a.actions(game)
        r = self.a.turn(game, a["seq"], [{"type": "buy", "unit": "catapults", "count": 13}])
        self.assertEqual(r.status, 422, r)
        self.assertIn("at most 4", r.json()["detail"])
        r = self.a.turn(game, a["seq"], [{"type": "buy", "unit": "infantry", "count": 12},
                                         {"type": "buy", "unit": "rune_lord"}])
        self.assertEqual(r.status, 422, r)
        self.assertIn("over budget by 3", r.json()["detail"])


class ChessWarSecretsTest(wp.ServerTestCase):
    """C2, G5: the secret deployment."""

    def seen_by_others(self, game):
        out = []
        for who in (self.b, None):
            req = who.req if who else self.server.request
            r = req("GET", "/api/games/%d" % game)
            self.assertEqual(r.status, 200, r)
            out.append(json.dumps(r.json()["state"], sort_keys=True))
        out.append(json.dumps(self.b.actions(game)["actions"], sort_keys=True))
        return out

    def test_the_set_up_stays_secret_until_both_are_in(self):
        self.a = ml.Client(self.server, "Ann")
        self.b = ml.Client(self.server, "Ben")
        g = self.a.create(2, None, ruleset="chesswar")
        self.assertEqual(self.b.join(g["id"], g["invitations"][0]["code"]).status, 200)
        game = g["id"]
        before = self.seen_by_others(game)
        a = self.a.actions(game)
        acts = set_up_actions("orcs", 0)
        r = self.a.turn(game, a["seq"], acts[:-1])  # everything but "done"
        self.assertEqual(r.status, 200, r)
        after = self.seen_by_others(game)
        self.assertEqual(before, after, "seat 0's army and deployment leaked")
        mine = self.a.view(game).json()["state"]
        self.assertEqual(mine["sides"][0]["army"], "orcs")
        self.assertTrue(mine["sides"][1]["hidden"])
        theirs = self.b.view(game).json()["state"]
        self.assertEqual(theirs["sides"][0], {"seat": 0, "out": False, "hidden": True, "set_up": False})
        self.assertEqual([u for u in theirs["units"] if u["seat"] == 0], [])
        log = self.b.req("GET", "/api/games/%d/turns" % game).json()["posts"]
        self.assertEqual([p["events"] for p in log if p["seat"] == 0], [[]],
                         "set-up events are private to their seat")
        spect = self.server.request("GET", "/api/games/%d/turns" % game).json()["posts"]
        self.assertEqual([p["events"] for p in spect if p["seat"] == 0], [[]])
        # the other seat's refusal speaks only of its own set-up area
        seq = self.a.view(game).json()["seq"]
        r1 = self.b.turn(game, seq, [{"type": "deploy", "unit": "liche", "square": "a1"}])
        r2 = self.b.turn(game, seq, [{"type": "deploy", "unit": "liche", "square": "h3"}])
        self.assertEqual(r1.status, 422)
        self.assertEqual(r1.json()["detail"], r2.json()["detail"])
        # done: still secret until the other seat is in too
        a = self.a.actions(game)
        self.assertEqual(self.a.turn(game, a["seq"], [{"type": "done"}]).status, 200)
        theirs = self.b.view(game).json()["state"]
        self.assertEqual(theirs["sides"][0], {"seat": 0, "out": False, "hidden": True, "set_up": True})
        a = self.b.actions(game)
        r = self.b.turn(game, a["seq"], set_up_actions("undead", 1))
        self.assertEqual(r.status, 200, r)
        theirs = self.b.view(game).json()["state"]
        self.assertEqual(theirs["sides"][0]["army"], "orcs", "revealed when both are in")
        self.assertTrue(any(u["seat"] == 0 and u["unit"] == "trolls" for u in theirs["units"]))

    def test_standing_orders_are_private(self):
        self.a = ml.Client(self.server, "Ann")
        self.b = ml.Client(self.server, "Ben")
        g = self.a.create(2, None, ruleset="chesswar")
        self.assertEqual(self.b.join(g["id"], g["invitations"][0]["code"]).status, 200)
        game = g["id"]
        before = self.seen_by_others(game)
        r = self.a.req("POST", "/api/games/%d/orders" % game,
                       {"orders": {"counterspell": ["zap", "storm"]}})
        self.assertEqual(r.status, 200, r)
        self.assertEqual(before, self.seen_by_others(game), "standing orders leaked")
        mine = self.a.view(game).json()["state"]
        self.assertEqual(mine["sides"][0]["orders"], {"counterspell": ["storm", "zap"], "dispel": "ask", "heal": "ask",
                                                     "protection": "ask"})


class ChessWarArmiesTest(wp.ServerTestCase):
    """The expansion text: "there could be enough room to handle multiple
    armies. In such a case, each army acts one by one as using normal rules.
    Total massacre rules should be used" -- 3 and 4 seats through HTTP."""

    def seat_up(self, n, options=None):
        names = ["Ann", "Ben", "Cy", "Di"][:n]
        self.players = [ml.Client(self.server, nm) for nm in names]
        g = self.players[0].create(n, options, ruleset="chesswar", client_seed="ann")
        for p, inv in zip(self.players[1:], g["invitations"]):
            r = p.join(g["id"], inv["code"])
            self.assertEqual(r.status, 200, r)
        return g["id"]

    def general_alone(self, game, seat, army, general, square):
        """The seat plays `army` with its general alone on `square`, one post."""
        p = self.players[seat]
        a = p.actions(game)
        r = p.turn(game, a["seq"], [{"type": "army", "army": army}, {"type": "ready"},
                                    {"type": "deploy", "unit": general, "square": square},
                                    {"type": "done"}])
        self.assertEqual(r.status, 200, r)

    def seen_by_others(self, game, seat):
        out = []
        for i, p in enumerate(self.players):
            if i == seat:
                continue
            out.append(json.dumps(p.view(game).json()["state"], sort_keys=True))
            out.append(json.dumps(p.actions(game)["actions"], sort_keys=True))
            log = p.req("GET", "/api/games/%d/turns" % game).json()["posts"]
            # a post of seat 2 shows in the log, its events do not
            out.append(json.dumps([q["events"] for q in log if q["events"]], sort_keys=True))
        r = self.server.request("GET", "/api/games/%d" % game)
        out.append(json.dumps(r.json()["state"], sort_keys=True))
        return out

    def test_four_armies_set_up_in_secret_and_act_in_initiative_order(self):
        rs = {r["id"]: r for r in self.server.request("GET", "/api/rulesets").json()["rulesets"]}
        self.assertEqual((rs["chesswar"]["min_seats"], rs["chesswar"]["max_seats"]), (2, 4))
        game = self.seat_up(4)
        v = self.players[0].view(game).json()
        self.assertEqual(sorted(v["awaiting"]), [0, 1, 2, 3], "every army sets up at once")
        st = v["state"]
        self.assertEqual((st["board"]["files"], st["board"]["ranks"], st["total_massacre"]),
                         (12, 12, True), "a 12x12 board and total massacre")
        # seat 2 deploys (file a) while the others look: nothing of it leaks
        army = {0: ("dwarves", "warlord", "f1"), 1: ("orcs", "warlord", "f12"),
                2: ("humans", "general", "a6"), 3: ("chaos", "chaos_lord", "l6")}
        before = self.seen_by_others(game, 2)
        p2 = self.players[2]
        a = p2.actions(game)
        r = p2.turn(game, a["seq"], [{"type": "army", "army": "humans"},
                                     {"type": "buy", "unit": "archers", "count": 2},
                                     {"type": "ready"},
                                     {"type": "deploy", "unit": "general", "square": "a6"},
                                     {"type": "deploy", "unit": "archers", "square": "a7"},
                                     {"type": "deploy", "unit": "archers", "square": "b7"}])
        self.assertEqual(r.status, 200, r)
        self.assertEqual(before, self.seen_by_others(game, 2),
                         "G5: seat 2's army and deployment leaked to another seat")
        # G1: seat 2's area is its two nearest files, not a rank
        a = p2.actions(game)
        r = p2.turn(game, a["seq"], [{"type": "undeploy", "square": "a7"},
                                     {"type": "deploy", "unit": "archers", "square": "e1"}])
        self.assertEqual(r.status, 422, r)
        self.assertIn("set-up area", r.json()["detail"])
        a = p2.actions(game)
        self.assertEqual(p2.turn(game, a["seq"], [{"type": "done"}]).status, 200)
        for seat in (0, 1, 3):
            arm, gen, sq = army[seat]
            self.general_alone(game, seat, arm, gen, sq)
        st = self.players[1].view(game).json()["state"]
        # initiative: humans 2 (seat 2), dwarves 3 (seat 0), chaos 4 (seat 3), orcs 5 (seat 1)
        self.assertEqual(st["order"], [2, 0, 3, 1])
        self.assertEqual((st["phase"], st["turn_seat"]), ("movement", 2))
        self.assertTrue(any(u["seat"] == 2 and u["square"] == "b7" for u in st["units"]),
                        "revealed once every army is in")
        seen = []
        for _ in range(4):
            v = self.players[0].view(game).json()
            seen.append(v["state"]["turn_seat"])
            p = self.players[v["awaiting"][0]]
            while True:
                a = p.actions(game)
                if not a["actions"]:
                    break
                self.assertEqual(p.turn(game, a["seq"], [{"type": "end_phase"}]).status, 200)
        self.assertEqual(seen, [2, 0, 3, 1], "each army acts one by one")
        self.assertEqual(self.players[0].view(game).json()["state"]["round"], 2)

    def test_three_armies_a_seat_out_and_the_last_standing(self):
        game = self.seat_up(3)
        for seat, (arm, gen, sq) in enumerate([("humans", "general", "f1"),
                                               ("orcs", "warlord", "f12"),
                                               ("dwarves", "warlord", "a6")]):
            self.general_alone(game, seat, arm, gen, sq)
        # seat 1 resigns: play goes on without it; its view stays readable
        r = self.players[1].req("POST", "/api/games/%d/resign" % game, {})
        self.assertIn(r.status, (200, 204), r)
        v = self.players[1].view(game).json()
        self.assertEqual(v["status"], "active")
        self.assertTrue(v["state"]["sides"][1]["out"])
        self.assertEqual(self.players[1].actions(game)["actions"], [])
        r = self.players[2].req("POST", "/api/games/%d/resign" % game, {})
        self.assertIn(r.status, (200, 204), r)
        v = self.players[0].view(game).json()
        self.assertEqual(v["status"], "over")
        self.assertEqual(v["state"]["winner"], 0, "the last army standing wins")


if __name__ == "__main__":
    wp.main()
