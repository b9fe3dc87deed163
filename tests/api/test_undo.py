"""Undo (issue 14, "Correspondence play", item Undo) through HTTP on the
real server and database: within its own turn a seat takes back its last
posts until a die is rolled or hidden information is revealed to anyone
(the undo barrier); the undo is logged, the posts taken back stay in the
log, marked, and nothing revealed is hidden again (RULINGS.md G5).

Confrontation and Wargame Chess: a move taken back; the other seat's and a
spectator's view afterwards is byte for byte the view before the move; the
log shows the undo post and the marked move; verify of the finished match
passes. Skirmish (the test ruleset): a post that rolled dice stands.
Officers Chess under fog (O13, RULINGS.md G7): a move that brings an enemy
or a tile not seen before into sight stands; one that shows nothing new is
taken back."""
import json
import os
import subprocess
import tempfile
import unittest

import matchlib as ml

TEAM_0 = {"type": "team", "faction": "standard",
          "pieces": {"king": 1, "queen": 1, "rook": 2, "pawn": 5}, "upgrades": []}
TEAM_1 = {"type": "team", "faction": "standard",
          "pieces": {"king": 1, "knight": 2, "bishop": 2, "joker": 1, "pawn": 2}, "upgrades": []}


def rank(square):
    return int(square[1:])


class UndoTest(ml.TwoSeatsTestCase):

    def seen(self, who):
        """What a seat (or a spectator, None) sees of the board, as bytes."""
        v = self.view(who)
        return json.dumps([v["state"], v["awaiting"]]).encode()

    def undo(self, seat, count=None, seq=None, key=None):
        p = self.who[seat]
        body = {"seq": ml.seq_of(p, self.game) if seq is None else seq}
        if count is not None:
            body["count"] = count
        return p.req("POST", "/api/games/%d/undo" % self.game, body,
                     {"Idempotency-Key": key} if key else None)

    def refused(self, r, code):
        self.assertEqual(r.status, 409, r)
        self.assertEqual(r.json()["type"], "urn:warpost:problem:undo-not-allowed")
        self.assertEqual(r.json()["code"], code, r)

    def log(self, who=None):
        r = (who.req if who else self.server.request)(
            "GET", "/api/games/%d/turns?after=0&limit=500" % self.game)
        self.assertEqual(r.status, 200, r)
        return r.json()["posts"]

    def to_confrontation_play(self, delay=0):
        if delay:
            r = self.a.req("POST", "/api/games", {"ruleset": "confrontation", "seats": 2,
                                                  "seat": 0, "spectator_delay": delay})
            self.assertEqual(r.status, 201, r)
            g = r.json()
            self.assertEqual(self.b.join(g["id"], g["invitations"][0]["code"]).status, 200)
            self.game = g["id"]
        else:
            self.match("confrontation")
        for seat in (0, 1):
            self.post(seat, {"type": "ready"})
        # (through a seat: a spectator may be held behind)
        while self.view(self.a)["state"]["phase"] != "play":
            s = self.view(self.a)["awaiting"][0]
            self.post(s, self.who[s].actions(self.game)["actions"][0])
        return self.view(self.a)["awaiting"][0]

    def test_confrontation_move_taken_back_and_nothing_leaks(self):
        me = self.to_confrontation_play()
        other = 1 - me
        before = [self.seen(w) for w in (self.who[other], None, self.who[me])]
        self.assertFalse(self.who[me].actions(self.game)["can_undo"],
                         "nothing of this turn to take back yet")
        move = self.who[me].actions(self.game)["actions"][0]
        self.assertEqual(move["type"], "move")
        moved = self.post(me, move)
        self.assertEqual(moved["awaiting"], [me], "R4: the turn's second action is owed")
        self.assertNotEqual(self.seen(self.who[other]), before[0])
        self.assertTrue(self.who[me].actions(self.game)["can_undo"])
        self.assertFalse(self.who[other].actions(self.game)["can_undo"])

        self.refused(self.undo(other), "not-your-turn")
        stale = self.undo(me, seq=moved["seq"] - 1)
        self.assertEqual((stale.status, stale.json()["type"], stale.json()["seq"]),
                         (409, "urn:warpost:problem:stale-sequence", moved["seq"]))
        r = self.undo(me, key="undo-1")
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json()["undone"], [moved["seq"]])
        again = self.undo(me, seq=moved["seq"], key="undo-1")
        self.assertEqual((again.status, again.headers.get("idempotent-replayed"), again.body),
                         (200, "true", r.body), "a retried undo is answered, not applied")
        # G5: whoever looks sees the board exactly as before the move.
        self.assertEqual([self.seen(w) for w in (self.who[other], None, self.who[me])], before)
        self.refused(self.undo(me), "nothing-to-undo")

        # The log keeps the move, marked, and says who took it back.
        posts = {p["seq"]: p for p in self.log(self.who[other])}
        self.assertEqual(posts[moved["seq"]]["undone_by"], r.json()["seq"])
        self.assertEqual(posts[moved["seq"]]["kind"], "turn")
        u = posts[r.json()["seq"]]
        self.assertEqual((u["kind"], u["seat"], u["undone_by"]), ("undo", me, None))
        self.assertEqual(u["events"], [{"type": "undo", "seat": me, "posts": [moved["seq"]]}])

        # Play goes on from there; the finished match verifies.
        self.post(me, move)
        self.assertEqual(self.who[other].req("POST", "/api/games/%d/resign" % self.game).status,
                         200)
        v = self.server.request("GET", "/api/games/%d/verify" % self.game)
        self.assertEqual(v.status, 200, v)
        self.assertTrue(v.json()["verified"], v.json()["mismatches"])
        ex = self.server.request("GET", "/api/games/%d/export" % self.game).json()
        self.assertEqual([p["kind"] for p in ex["posts"]].count("undo"), 1)
        # Offline too; an export whose undo was edited is not verified.
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "match.json")

            def verify(edit):
                doc = json.loads(json.dumps(ex))
                edit(doc["posts"])
                with open(path, "w") as f:
                    json.dump(doc, f)
                return subprocess.run([ml.WARPOST_CLI, "verify", path],
                                      capture_output=True).returncode

            self.assertEqual(verify(lambda posts: None), 0)
            self.assertEqual(verify(lambda posts: posts[moved["seq"] - 1].update(undone_by=None)),
                             1, "a mark taken off is caught")
            self.assertEqual(verify(lambda posts: posts[r.json()["seq"] - 1]["actions"][0].update(
                posts=[1])), 1, "an undo of what may not be taken back is caught")

    def deploy_pawns_forward(self):
        """Every deployment puts a Pawn on its seat's front rank when it
        can, first where no tree stands just ahead of it (the trees are
        placed at random: once every Pawn stood behind one, and none could
        step forward)."""
        while self.view()["state"]["phase"] != "play":
            v = self.view()
            s = v["awaiting"][0]
            trees = set((v["state"].get("trees") or {}).get("squares") or [])
            acts = self.who[s].actions(self.game)["actions"]
            front = 2 if s == 0 else 7
            ahead = 3 if s == 0 else 6
            pawns = [x for x in acts if x.get("piece") == "pawn" and rank(x["square"]) == front]
            pawns.sort(key=lambda x: "%s%d" % (x["square"][0], ahead) in trees)
            back = [x for x in acts if x.get("piece") not in (None, "pawn")
                    and rank(x["square"]) != front]
            self.post(s, (pawns or back or acts)[0])

    def test_a_spectator_held_behind_sees_no_later_undo(self):
        """G5 and issue 14 (spectator delay): a spectator one post behind
        sees the move as it was made, not that an undo it may not see
        yet took it back, in the log and in the position."""
        me = self.to_confrontation_play(delay=1)
        moved = self.post(me, self.who[me].actions(self.game)["actions"][0])
        u = self.undo(me)
        self.assertEqual(u.status, 200, u)
        # Now the spectator sees up to the move (one post behind the undo).
        log = self.server.request("GET", "/api/games/%d/turns?after=0&limit=500" % self.game)
        posts = {p["seq"]: p for p in log.json()["posts"]}
        self.assertEqual(max(posts), moved["seq"])
        self.assertIsNone(posts[moved["seq"]]["undone_by"], "the undo is not shown early")
        self.assertEqual(self.log(self.who[me])[moved["seq"] - 1]["undone_by"], u.json()["seq"])
        spectator_at_move = self.view()["state"]
        self.assertEqual(spectator_at_move, self.server.request(
            "GET", "/api/games/%d?at=%d" % (self.game, moved["seq"])).json()["state"])
        before = self.server.request("GET", "/api/games/%d?at=%d" % (self.game, moved["seq"] - 1))
        self.assertNotEqual(spectator_at_move, before.json()["state"],
                            "the position shows the move as it was made")

    def test_wargame_chess_pawn_move_taken_back(self):
        self.match("wargame-chess")
        self.post(0, TEAM_0)
        self.post(1, TEAM_1)
        self.post(self.view()["awaiting"][0], {"type": "trees", "choice": "mirror"})
        self.deploy_pawns_forward()
        me = self.view()["awaiting"][0]
        other = self.who[1 - me]
        step = 1 if me == 0 else -1
        pieces = self.view()["state"]["pieces"]
        taken = {p["square"] for p in pieces if p["where"] == "board"}
        taken |= set(self.view()["state"]["trees"]["squares"])
        pawns = [p["square"] for p in pieces if p["owner"] == me and p["type"] == "pawn"
                 and p["where"] == "board"
                 and "%s%d" % (p["square"][0], rank(p["square"]) + step) not in taken]
        # A Pawn with one way to go goes at once (G3); one with a choice
        # (a token to spend, a diagonal) waits: then its step forward is a
        # post of its own, and both posts are taken back together.
        for pawn in pawns:
            ahead = "%s%d" % (pawn[0], rank(pawn) + step)
            before = [self.seen(other), self.seen(None)]
            posts = [{"type": "activate", "square": pawn}]
            r = self.post(me, posts[0])
            moves = [e for e in r["events"] if e["type"] == "move"]
            if not moves:
                fwd = [x for x in self.who[me].actions(self.game)["actions"]
                       if x["type"] == "move" and x.get("to") == ahead]
                if fwd:
                    posts.append(fwd[0])
                    r = self.post(me, fwd[0])
                    moves = [e for e in r["events"] if e["type"] == "move"]
            if moves:
                break
            self.assertEqual(self.undo(me, count=len(posts)).status, 200)
            self.assertEqual([self.seen(other), self.seen(None)], before)
        self.assertEqual([(m["from"], rank(m["to"]) - rank(pawn)) for m in moves], [(pawn, step)],
                         "the Pawn's Activation moved it one square")
        self.assertEqual(r["awaiting"], [me], "a Pawn's first Activation may move again")
        self.assertNotEqual([self.seen(other), self.seen(None)], before)
        u = self.undo(me, count=len(posts))
        self.assertEqual(u.status, 200, u)
        self.assertEqual([self.seen(other), self.seen(None)], before)
        self.assertEqual({p["seq"]: p["undone_by"] for p in self.log()}[r["seq"]], u.json()["seq"])
        # The same Activation again, then the turn's end: it verifies.
        for action in posts:
            self.post(me, action)
        self.post(me, {"type": "end"})
        self.assertEqual(other.req("POST", "/api/games/%d/resign" % self.game).status, 200)
        v = self.server.request("GET", "/api/games/%d/verify" % self.game).json()
        self.assertTrue(v["verified"], v["mismatches"])

    def test_skirmish_a_roll_stands(self):
        """Issue 14: "until a die is rolled": the defender's Dodge rolls the
        dice and passes the turn to it; that post cannot be taken back."""
        self.match(ml.RULESET)
        ml.attack_a_real_scout(self.post, self.view(self.b))
        r = self.post(1, {"type": "dodge", "dodge": True})
        self.assertTrue(any(e["type"] == "roll" for e in r["events"]))
        self.assertEqual(r["awaiting"], [1], "the defender's own turn follows")
        self.assertFalse(self.b.actions(self.game)["can_undo"])
        self.refused(self.undo(1), "dice-rolled")
        self.refused(self.undo(0), "not-your-turn")

    def test_officers_chess_fog_a_sighting_stands(self):
        """Officers Chess O13 (fog), RULINGS.md G7 (amended): a fog reveal is
        a barrier: a move that lights tiles the seat did not see stands,
        even with no enemy on them, as does one that shows an enemy; a move
        that shows the seat no new tile is taken back unseen."""
        self.match("officers-chess", {"units": 2, "fog": True, "activations": "1"})
        armies = {0: (("Ana", "d1"), ("Bea", "c2")), 1: (("Zed", "d8"), ("Yul", "e8"))}
        for seat, cls, item in ((0, "Sword Fighter", "Steel Sword"), (1, "Thief", "Steel Dagger")):
            for name, _ in armies[seat]:
                self.post(seat, {"type": "recruit", "name": name, "class": cls, "items": [item]})
        for seat in (1, 0):
            for name, sq in armies[seat]:
                self.post(seat, {"type": "deploy", "unit": name, "to": sq})
        self.post(0, {"type": "activate", "at": "d1"})
        before = [self.seen(self.b), self.seen(None)]
        # c1: c2 and d1 already saw every tile c1 sees.
        self.post(0, {"type": "move", "from": "d1", "to": "c1"})
        self.assertTrue(self.a.actions(self.game)["can_undo"])
        self.assertEqual(self.undo(0).status, 200)
        self.assertEqual([self.seen(self.b), self.seen(None)], before)
        # d2 lights d5, c4, e4 ...: empty, but scouted.
        self.post(0, {"type": "move", "from": "d1", "to": "d2"})
        self.assertNotIn("Zed", json.dumps(self.view(self.a)["state"]))
        self.refused(self.undo(0), "information-revealed")
        self.assertEqual([self.seen(self.b), self.seen(None)], before, "seat 1 learnt nothing")
        self.post(0, {"type": "end", "from": "d2"})
        self.post(1, {"type": "activate", "at": "d8"})
        self.post(1, {"type": "end", "from": "d8"})
        # G3: Bea is seat 0's last unit to activate: activated at once.
        self.post(0, {"type": "move", "from": "c2", "to": "c6"})
        self.assertIn("Zed", json.dumps(self.view(self.a)["state"]), "d8 is 3 tiles from c6")
        self.assertFalse(self.a.actions(self.game)["can_undo"], "the move was told to seat 1")
        self.refused(self.undo(0), "information-revealed")
        self.assertIn("Zed", json.dumps(self.view(self.a)["state"]))


if __name__ == "__main__":
    unittest.main()
