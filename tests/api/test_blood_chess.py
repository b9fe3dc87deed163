"""Blood Chess through the whole service (issue 12): a whole match through
HTTP to the end and verify, with and without the referee seat; and its
hidden information (RULINGS.md B12, G5): two matches identical except for
seat 0's secret choice of Mirrors give the other side and a spectator the
same answers -- the view, its ETag, /actions, /turns, the error of a
refused post, and every response size -- after every post, until a
resolution reveals a piece. Per-match facts (the match id, the players,
invitations, dice commitments, times) are replaced by placeholders before
the bodies are compared; sizes are compared raw (those facts have the
same length in both matches)."""
import json
import os
import random
import re

os.environ["WARPOSTD_PRODUCT"] = "1"  # before matchlib picks the binary
import matchlib as ml  # noqa: E402
from matchlib import wp  # noqa: E402

RS = "blood-chess"
ROLES = ["king", "queen", "rook", "bishop", "knight"]


def sheet(name, dex):
    return {"dex": dex, "spd": 4, "ocv": 7, "dcv": 6, "con": 20, "body": 10, "stun": 30,
            "rec": 8, "pd": 10, "ed": 10, "rpd": 5, "red": 5,
            "attacks": [{"name": "Blast", "dice": 8, "ranged": True, "vs": "ED"},
                        {"name": "Punch", "dice": 4}]}


# Ten characters with ten different DEX: no roll-off, so the two matches'
# different dice never change the order of play.
CUSTOM = {"Alpha": sheet("Alpha", 30), "Bravo": sheet("Bravo", 31),
          "Charlie": sheet("Charlie", 32), "Delta": sheet("Delta", 33)}
PICKS = [["brick", "martial-artist", "speedster", "slasher", "grenadier"],
         ["blaster", "Alpha", "Bravo", "Charlie", "Delta"]]


class BloodChessTest(wp.ServerTestCase):

    def players(self, names):
        return [ml.Client(self.server, n) for n in names]

    def start(self, ps, options, seed="s"):
        g = ps[0].create(len(ps), options, client_seed=seed, ruleset=RS)
        for p, inv in zip(ps[1:], g["invitations"]):
            self.assertEqual(p.join(g["id"], inv["code"], seed).status, 200)
        return g["id"]

    def post(self, p, game, action):
        a = p.actions(game)
        self.assertIn(action, a["actions"], "offered: %s" % action)
        r = p.turn(game, a["seq"], [action])
        self.assertEqual(r.status, 200, r)

    def setup(self, ps, game, mirrors=(("a1", "c1", "b1"), ("a8", "c8", "b8")), picks=None):
        picks = picks or [["brick", "blaster", "martial-artist", "slasher", "speedster"]] * 2
        for seat in (0, 1):
            for sq in mirrors[seat]:
                self.post(ps[seat], game, {"type": "mirror", "square": sq})
            for role, t in zip(ROLES, picks[seat]):
                self.post(ps[seat], game, {"type": "sheet", "role": role, "template": t})

    def play_out(self, ps, game, rng, cap=4000):
        n = 0
        while n < cap:
            v = ps[0].view(game).json()
            if v["status"] != "active":
                break
            seat = rng.choice(v["awaiting"])
            a = ps[seat].actions(game)
            self.assertTrue(a["actions"], "G6: an awaited seat has a legal action")
            r = ps[seat].turn(game, a["seq"], [rng.choice(a["actions"])])
            self.assertEqual(r.status, 200, r)
            n += 1
        v = ps[0].view(game).json()
        self.assertEqual(v["status"], "over")
        rep = self.server.request("GET", "/api/games/%d/verify" % game).json()
        self.assertTrue(rep["verified"], rep.get("mismatches"))
        return v

    def test_a_whole_match(self):
        ps = self.players(["Ann", "Ben"])
        game = self.start(ps, {"turn_limit": 3})
        self.setup(ps, game)
        v = ps[0].view(game).json()
        self.assertEqual(v["state"]["stage"], "play")
        self.assertEqual((v["state"]["turn"], v["state"]["segment"]), (1, 12), "B3: Segment 12 first")
        v = self.play_out(ps, game, random.Random(12))
        self.assertIsNotNone(v["result"])
        self.assertEqual(len(v["result"]["scores"]), 2)
        # at the end every Mirror is revealed to a spectator
        end = self.server.request("GET", "/api/games/%d" % game).json()["state"]
        self.assertNotIn("unknown", [p["identity"] for p in end["pieces"]])

    def test_a_match_with_the_referee(self):
        ps = self.players(["Ann", "Ben", "Ref"])
        game = self.start(ps, {"referee": True, "turn_limit": 2})
        self.setup(ps, game)
        ref = ps[2].view(game).json()["state"]
        self.assertIn("mirror", [p["identity"] for p in ref["pieces"]], "B11: the referee sees all")
        v = self.play_out(ps, game, random.Random(7))
        self.assertIsNotNone(v["result"])

    def test_undo_past_the_referee_copy(self):
        """RULINGS.md, G7 (amended): the referee (B11) sees everything, so the
        owner's copy of a Knight's move that also reaches it is no undo
        barrier: seat 0 takes the move back. Ten different DEX: no roll-off
        die after the move; seat 0's King acts next, so it is still seat 0's
        turn."""
        ps = self.players(["Ann", "Ben", "Ref"])
        game = self.start(ps, {"referee": True, "sheets": CUSTOM})
        self.setup(ps, game, picks=PICKS)
        for _ in range(40):
            st = ps[0].view(game).json()["state"]
            acting = st["acting"]
            if acting["seat"] == 0 and acting["role"] == "knight":
                break
            self.post(ps[acting["seat"]], game, {"type": "dodge"})
        else:
            self.fail("seat 0's Knight never acted")
        before = self.server.request("GET", "/api/games/%d" % game).json()["state"]
        knight = [a for a in ps[0].actions(game)["actions"]
                  if a["type"] == "move" and "attack" not in a]
        self.assertTrue(knight)
        self.post(ps[0], game, knight[0])
        v = ps[0].view(game).json()
        self.assertEqual(v["awaiting"], [0], "seat 0's King acts next")
        self.assertTrue(ps[0].actions(game)["can_undo"], "G7 (amended): GET actions agrees")
        r = ps[0].req("POST", "/api/games/%d/undo" % game, {"seq": v["seq"]})
        self.assertEqual(r.status, 200, "G7 (amended): %s" % (r.body,))
        after = self.server.request("GET", "/api/games/%d" % game).json()["state"]
        self.assertEqual(after["pieces"], before["pieces"], "the move is taken back")

    def test_takeback_past_the_referee_copy(self):
        """RULINGS.md, G7 (amended): the same for a takeback request, once the
        turn has passed to seat 1: a Rook's, Bishop's or Knight's plain move
        of seat 0 (its copy to the owner and the referee alone, no die) may
        be asked back. Seat 0's Rook, Bishop and Knight move whenever they
        can, every other piece dodges, until such a move hands the turn to
        seat 1 (its King, DEX 20, acts after seat 0's Bishop, DEX 21)."""
        ps = self.players(["Ann", "Ben", "Ref"])
        game = self.start(ps, {"referee": True, "sheets": CUSTOM})
        self.setup(ps, game, picks=PICKS)
        for _ in range(150):
            st = ps[0].view(game).json()["state"]
            acting = st["acting"]
            moves = [a for a in ps[acting["seat"]].actions(game)["actions"]
                     if a["type"] == "move" and "attack" not in a]
            if acting["seat"] == 0 and acting["role"] in ("rook", "bishop", "knight") and moves:
                self.post(ps[0], game, moves[0])
                v = ps[0].view(game).json()
                if v["awaiting"] == [1]:
                    break
                continue
            self.post(ps[acting["seat"]], game, {"type": "dodge"})
        else:
            self.fail("no plain move of seat 0 handed the turn to seat 1")
        seq = ps[0].view(game).json()["seq"]
        r = ps[0].req("POST", "/api/games/%d/takeback" % game)
        self.assertEqual(r.status, 200, "G7 (amended): %s" % (r.body,))
        a = ps[1].req("POST", "/api/games/%d/takeback/accept" % game)
        self.assertEqual(a.status, 200, a)
        self.assertEqual(a.json()["undone"], [seq])

    # ------------------------------------------------------- hidden info

    def norm(self, text, game, names):
        text = re.sub(r"/games/\d+", "/games/G", text)
        text = re.sub(r'"(id|game|game_id|player|player_id|created_by)": ?\d+', r'"\1":N', text)
        for i, n in enumerate(names):
            text = text.replace(n, "PLAYER%d" % i)
        text = re.sub(r"\d{4}-\d\d-\d\dT[0-9:.]+Z", "TIME", text)
        text = re.sub(r'"[0-9a-f]{32,}"', '"HEX"', text)
        text = re.sub(r'"code": ?"[^"]*"', '"code":"C"', text)
        return text

    def observe(self, game, who, names):
        """What seat 1 and a spectator get from every endpoint: normalized
        bodies, raw sizes, ETags, and the refusal of a probe post."""
        out = []
        for w in who:
            req = w.req if w else self.server.request
            for path in ("/api/games/%d", "/api/games/%d/actions", "/api/games/%d/turns?after=0"):
                r = req("GET", path % game)
                out.append((path, r.status, len(r.body), r.headers.get("etag", "").replace(
                    "g%d-" % game, "gG-"), self.norm(r.body.decode(), game, names)))
        return out

    def probes(self, game, p1, names):
        """Seat 1 posts actions that are refused (not its turn, or aimed at
        seat 0's hidden pieces): the same answers in both matches."""
        seq = p1.view(game).json()["seq"]
        out = []
        for act in ({"type": "move", "from": "a8", "to": "a1", "attack": 0},
                    {"type": "shoot", "from": "d8", "to": "c1", "attack": 0},
                    {"type": "mirror", "square": "h1"},
                    {"type": "hth", "attack": 0}):
            r = p1.turn(game, seq, [act])
            out.append((r.status, len(r.body), self.norm(r.body.decode(), game, names)))
        return out

    def twin(self, mirrors0, tag):
        names = ["Ann%s" % tag, "Ben%s" % tag]
        ps = self.players(names)
        game = self.start(ps, {"sheets": CUSTOM, "turn_limit": 5})
        return ps, game, names, mirrors0

    def test_mirrors_never_reach_the_other_side_before_a_reveal(self):
        A = self.twin(("a1", "c1", "b1"), "1")
        B = self.twin(("h1", "f1", "g1"), "2")
        rng = random.Random(2026)
        steps = 0
        revealed = False

        def compare(what):
            oa = self.observe(A[1], [A[0][1], None], A[2])
            ob = self.observe(B[1], [B[0][1], None], B[2])
            for x, y in zip(oa, ob):
                self.assertEqual(x, y, "%s: %s differs between the two matches" % (what, x[0]))
            self.assertEqual(self.probes(A[1], A[0][1], A[2]), self.probes(B[1], B[0][1], B[2]),
                             "%s: refusals differ" % what)

        # set-up: seat 0's Mirrors differ, everything else is the same
        for k in range(3):
            for (ps, game, names, m) in (A, B):
                self.post(ps[0], game, {"type": "mirror", "square": m[k]})
            compare("mirror %d" % k)
        for (ps, game, names, m) in (A, B):
            for sq in ("a8", "c8", "b8"):
                self.post(ps[1], game, {"type": "mirror", "square": sq})
            for seat in (0, 1):
                for role, t in zip(ROLES, PICKS[seat]):
                    self.post(ps[seat], game, {"type": "sheet", "role": role, "template": t})
        compare("after set-up")
        # play the same actions in both until a decoy question is asked
        while steps < 60 and not revealed:
            va = A[0][0].view(A[1]).json()
            if va["status"] != "active":
                break
            seat = va["awaiting"][0]
            la = A[0][seat].actions(A[1])
            lb = B[0][seat].actions(B[1])
            self.assertEqual(la["actions"], lb["actions"], "the acting seat's own choices match")
            quiet = [x for x in la["actions"] if "attack" not in x] or la["actions"]
            act = rng.choice(quiet)
            for (ps, game, names, m), l in ((A, la), (B, lb)):
                r = ps[seat].turn(game, l["seq"], [act])
                self.assertEqual(r.status, 200, r)
                posts = ps[1].req("GET", "/api/games/%d/turns?after=0" % game).json()["posts"]
                if any(e.get("type") == "decoy" for p in posts for e in (p.get("events") or [])):
                    revealed = True
            steps += 1
            if not revealed:
                compare("step %d" % steps)
        self.assertGreater(steps, 5, "the comparison ran over several posts")
        print("compared after set-up and %d posts of play (revealed: %s)" % (steps, revealed))
        # the owner does see its Mirrors
        mine_a = [p for p in A[0][0].view(A[1]).json()["state"]["pieces"] if p["identity"] == "mirror"]
        mine_b = [p for p in B[0][0].view(B[1]).json()["state"]["pieces"] if p["identity"] == "mirror"]
        self.assertNotEqual(mine_a, mine_b)


if __name__ == "__main__":
    wp.main()
