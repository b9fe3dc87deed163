"""The match service through HTTP with the test ruleset: creation, joining,
start, views per viewer (hidden decoys), legal actions, turns, the post log
per viewer, a reaction owed by the non-active seat and the standing order
that answers it, resign, draw, abort, my matches, and the dice audit.
(Issue "Match service"; RULINGS.md G3 and G5.)"""
import hashlib
import json
import os
import random
import subprocess
import tempfile
import unittest

import matchlib as ml
from matchlib import wp


def toggle_moves():
    """Seat 0 walks its d1 Scout up the d file; seat 1 shuffles f8<->g7."""
    s0 = [("d1", "d2"), ("d2", "d3"), ("d3", "d4"), ("d4", "d5"), ("d5", "d6"), ("d6", "d7")]
    s1 = [("f8", "g7"), ("g7", "f8")] * 3
    return s0, s1


def move(a, b):
    return {"type": "move", "from": a, "to": b}


class MatchFlowTest(wp.ServerTestCase):

    def setUp(self):
        self.a = ml.Client(self.server, "Alice")
        self.b = ml.Client(self.server, "Bob")
        self.c = ml.Client(self.server, "Carol")

    def spectator(self, game):
        return self.server.request("GET", "/api/games/%d" % game)

    def test_rulesets_lists_the_test_ruleset(self):
        r = self.server.request("GET", "/api/rulesets")
        self.assertEqual(r.status, 200, r)
        ids = [x["id"] for x in r.json()["rulesets"]]
        self.assertIn(ml.RULESET, ids)
        rs = [x for x in r.json()["rulesets"] if x["id"] == ml.RULESET][0]
        self.assertEqual((rs["min_seats"], rs["max_seats"]), (2, 3))
        self.assertIn("turn_limit", rs["options"])

    def test_create_join_and_start(self):
        g = self.a.create(3, {"turn_limit": 20}, client_seed="alpha")
        self.assertEqual(len(g["invitations"]), 2)
        self.assertRegex(g["commitment"], "^[0-9a-f]{64}$")
        v = self.a.view(g["id"]).json()
        self.assertEqual((v["status"], v["seq"], v["state"], v["awaiting"]), ("open", 0, None, []))
        self.assertEqual(v["you"], 0)
        self.assertEqual(self.b.join(g["id"], g["invitations"][0]["code"], "beta").status, 200)
        self.assertEqual(self.a.view(g["id"]).json()["status"], "open", "one seat still open")
        r = self.c.join(g["id"], g["invitations"][1]["code"])
        self.assertEqual(r.json(), {"game": g["id"], "seat": 2})
        v = self.c.view(g["id"]).json()
        self.assertEqual((v["status"], v["seq"], v["awaiting"], v["you"]), ("active", 1, [0], 2))
        self.assertEqual(v["dice"]["commitment"], g["commitment"])
        self.assertIsNone(v["dice"]["seed"], "the seed stays secret while the match runs")
        self.assertEqual([s["player"]["name"] for s in v["seats"]], ["Alice", "Bob", "Carol"])
        # RULINGS.md G1: seat 2 sits at file a.
        squares = {p["square"] for p in v["state"]["pieces"] if p["seat"] == 2}
        self.assertEqual(squares, {"a3", "a4", "a5"})
        # A retried join answers as the first did.
        self.assertEqual(self.c.join(g["id"], g["invitations"][1]["code"]).json()["seat"], 2)

    def test_hidden_pieces_never_leak_in_views(self):
        """RULINGS.md G5: each seat sees its own decoy, nobody else does."""
        game = ml.start_match([self.a, self.b, self.c])
        for seat, p in enumerate([self.a, self.b, self.c]):
            v = p.view(game).json()["state"]
            for piece in v["pieces"]:
                if piece["seat"] == seat:
                    self.assertIn(piece["decoy"], (True, False))
                else:
                    self.assertIsNone(piece["decoy"], "seat %d sees another seat's decoy" % seat)
            self.assertEqual(sum(1 for x in v["pieces"] if x["seat"] == seat and x["decoy"]), 1)
        spec = self.spectator(game)
        self.assertTrue(all(x["decoy"] is None for x in spec.json()["state"]["pieces"]))
        self.assertNotIn(b"true", spec.body.split(b'"pieces"')[1].split(b"]")[0])
        # The ETag names the version and the viewer, nothing else.
        self.assertRegex(spec.headers["etag"], r'^"g%d-v\d+-x"$' % game)
        self.assertRegex(self.b.view(game).headers["etag"], r'^"g%d-v\d+-s1"$' % game)

    def test_view_bytes_do_not_depend_on_hidden_pieces(self):
        """G5, sizes included: matches that differ only in where the decoys
        are give a spectator, and the other seat, the same bytes once the
        public per-match values (id, commitment, times) are set aside."""
        import re as _re

        def norm(body, game):
            t = body.decode()
            t = t.replace('"id":%d,' % game, '"id":0,')
            t = _re.sub(r'"commitment":"[0-9a-f]{64}"', '"commitment":""', t)
            return _re.sub(r'"(created|updated)_at":"[^"]*"', '"t":""', t)

        spectator, other_seat, decoys = set(), set(), set()
        for n in range(40):
            if n >= 6 and len(decoys) > 1:
                break
            game = ml.start_match([self.a, self.b])
            spectator.add(norm(self.spectator(game).body, game))
            other_seat.add(norm(self.b.view(game).body, game).replace(
                '"decoy":true', '"decoy":X').replace('"decoy":false', '"decoy":X'))
            decoys.add(tuple(p["decoy"] for p in self.a.view(game).json()["state"]["pieces"]
                             if p["seat"] == 0))
        self.assertGreater(len(decoys), 1, "the decoys did move between matches")
        self.assertEqual(len(spectator), 1, "a spectator's bytes reveal the decoys")
        self.assertEqual(len(other_seat), 1, "seat 1's bytes reveal seat 0's decoy")

    def test_actions_only_for_the_awaited_seat(self):
        game = ml.start_match([self.a, self.b])
        mine = self.a.actions(game)
        self.assertTrue(mine["awaited"])
        self.assertEqual(mine["seat"], 0)
        self.assertIn(move("d1", "d2"), mine["actions"])
        theirs = self.b.actions(game)
        self.assertEqual((theirs["awaited"], theirs["actions"]), (False, []))
        r = self.c.req("GET", "/api/games/%d/actions" % game)
        self.assertProblem(r, 403, "not-a-player")
        r = self.server.request("GET", "/api/games/%d/actions" % game)
        self.assertProblem(r, 401, "unauthorized")

    def test_post_log_per_viewer(self):
        game = ml.start_match([self.a, self.b])
        r = self.a.turn(game, 1, [move("d1", "d2")], comment="my plan", hidden=True)
        self.assertEqual(r.status, 200, r)
        ack = r.json()
        self.assertEqual((ack["seq"], ack["awaiting"], ack["status"]), (2, [1], "active"))
        r = self.b.turn(game, 2, [move("f8", "g7")], comment="hello")
        self.assertEqual(r.status, 200, r)

        def posts(who):
            r = (who.req if who else self.server.request)("GET", "/api/games/%d/turns?after=0" % game)
            self.assertEqual(r.status, 200, r)
            return {p["seq"]: p for p in r.json()["posts"]}

        mine, theirs, spec = posts(self.a), posts(self.b), posts(None)
        self.assertEqual(sorted(mine), [1, 2, 3])
        self.assertEqual(mine[1]["kind"], "start")
        self.assertEqual(mine[2]["comment"], "my plan")
        self.assertEqual(mine[2]["actions"], [move("d1", "d2")])
        for other in (theirs, spec):
            self.assertIsNone(other[2]["comment"], "a hidden comment stays with its writer")
            self.assertTrue(other[2]["comment_hidden"])
            self.assertIsNone(other[2]["actions"], "actions are shown only to their seat")
            self.assertEqual(other[2]["events"], [{"type": "moved", "from": "d1", "to": "d2"}])
            self.assertEqual(other[3]["comment"], "hello")
        page = self.a.req("GET", "/api/games/%d/turns?after=1&limit=1" % game).json()
        self.assertEqual([p["seq"] for p in page["posts"]], [2])
        self.assertEqual(page["next_after"], 2)
        # At the end everything is revealed (G5).
        self.assertEqual(self.b.req("POST", "/api/games/%d/resign" % game).status, 200)
        over = posts(None)
        self.assertEqual(over[2]["comment"], "my plan")
        self.assertEqual(over[2]["actions"], [move("d1", "d2")])
        self.assertIn("rolls", over[1])

    def walk_to_contact(self, game):
        s0, s1 = toggle_moves()
        seq = ml.seq_of(self.a, game)
        for (a0, a1), (b0, b1) in zip(s0, s1):
            self.assertEqual(self.a.turn(game, seq, [move(a0, a1)]).status, 200)
            self.assertEqual(self.b.turn(game, seq + 1, [move(b0, b1)]).status, 200)
            seq += 2
        return seq

    def test_reaction_owed_by_the_defender(self):
        """RULINGS.md G3: the defender's choice is a pending decision of a
        seat that is not the active one."""
        game = ml.start_match([self.a, self.b])
        seq = self.walk_to_contact(game)
        r = self.a.turn(game, seq, [{"type": "attack", "from": "d7", "to": "e8"}])
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json()["awaiting"], [1], "the defender is awaited")
        v = self.b.view(game).json()
        self.assertEqual(v["state"]["pending"], [{"seat": 1, "kind": "dodge"}])
        acts = self.b.actions(game)
        self.assertEqual(sorted(json.dumps(a) for a in acts["actions"]),
                         sorted(json.dumps({"type": "dodge", "dodge": d}) for d in (True, False)))
        self.assertEqual(self.a.actions(game)["actions"], [])
        r = self.b.turn(game, seq + 1, [{"type": "dodge", "dodge": True}])
        self.assertEqual(r.status, 200, r)
        rolls = [e for e in r.json()["events"] if e["type"] == "roll"]
        self.assertEqual(len(rolls), 1)
        roll = rolls[0]
        self.assertTrue(1 <= roll["attacker"] <= 6 and 1 <= roll["defender"] <= 6)
        escaped = roll["defender"] >= roll["attacker"]
        self.assertEqual(any(e["type"] == "escaped" for e in r.json()["events"]), escaped)
        self.assertEqual(r.json()["status"], "active" if escaped else "over")

    def test_standing_order_answers_in_advance(self):
        game = ml.start_match([self.a, self.b])
        r = self.b.req("POST", "/api/games/%d/orders" % game, {"orders": {"dodge": "never"}})
        self.assertEqual(r.status, 200, r)
        self.assertEqual(self.b.view(game).json()["state"]["orders"], "never")
        self.assertEqual(self.a.view(game).json()["state"]["orders"], "ask",
                         "each seat sees its own orders only")
        self.assertNotIn("orders", self.spectator(game).json()["state"])
        log = self.a.req("GET", "/api/games/%d/turns" % game).json()["posts"]
        self.assertIsNone(log[-1]["actions"], "the orders' content stays with their seat")
        r = self.b.req("POST", "/api/games/%d/orders" % game, {"orders": {"dodge": "sometimes"}})
        self.assertProblem(r, 422, "invalid-orders")
        seq = self.walk_to_contact(game)
        r = self.a.turn(game, seq, [{"type": "attack", "from": "d7", "to": "e8"}])
        self.assertEqual(r.status, 200, r)
        rolls = [e for e in r.json()["events"] if e["type"] == "roll"]
        self.assertEqual(len(rolls), 1, "the order answered: the roll happened at once")
        self.assertFalse(rolls[0]["dodge"])
        self.assertEqual(r.json()["status"], "over", "no dodge: the Chief falls")

    def test_resign_reveals_the_seed_and_the_log_verifies(self):
        game = ml.start_match([self.a, self.b], seeds=["a-seed", "b-seed"])
        ml.play_random([self.a, self.b], game, 12, random.Random(5))
        r = self.a.req("POST", "/api/games/%d/resign" % game)
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json()["result"], {"winners": [1], "draw": False,
                                              "reason": "last seat standing"})
        v = self.spectator(game).json()
        self.assertEqual(v["status"], "over")
        seed = bytes.fromhex(v["dice"]["seed"])
        self.assertEqual(hashlib.sha256(seed).hexdigest(), v["dice"]["commitment"],
                         "the revealed seed matches the commitment published at creation")
        self.assertTrue(all(p["decoy"] is not None for p in v["state"]["pieces"]),
                        "G5: at the end everything is revealed")
        rep = self.server.request("GET", "/api/games/%d/verify" % game).json()
        self.assertTrue(rep["verified"], rep["mismatches"])
        self.assertTrue(rep["commitment_ok"] and rep["state_ok"])
        self.assertEqual(rep["posts"], v["seq"])
        exp = self.server.request("GET", "/api/games/%d/export" % game)
        self.assertEqual(exp.status, 200, exp)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "match.json")
            with open(path, "wb") as f:
                f.write(exp.body)
            ok = subprocess.run([ml.WARPOST_CLI, "verify", path], capture_output=True)
            self.assertEqual(ok.returncode, 0, ok.stderr)
            doc = json.loads(exp.body)
            rolled = [p for p in doc["posts"] if p["rolls"]]
            self.assertTrue(rolled, "the start draws the decoys")
            rolled[0]["rolls"][0][1] = (rolled[0]["rolls"][0][1] + 1) % rolled[0]["rolls"][0][0]
            with open(path, "w") as f:
                json.dump(doc, f)
            bad = subprocess.run([ml.WARPOST_CLI, "verify", path], capture_output=True)
            self.assertEqual(bad.returncode, 1, "a tampered roll is caught")
            doc = json.loads(exp.body)
            doc["seed"] = "00" * 32
            with open(path, "w") as f:
                json.dump(doc, f)
            bad = subprocess.run([ml.WARPOST_CLI, "verify", path], capture_output=True)
            self.assertEqual(bad.returncode, 1, "a different seed fails the commitment")
            # an edited final state is caught, and the report names where
            # it differs (never the values)
            doc = json.loads(exp.body)
            doc["final_state"]["turn"] += 1
            with open(path, "w") as f:
                json.dump(doc, f)
            bad = subprocess.run([ml.WARPOST_CLI, "verify", path], capture_output=True)
            self.assertEqual(bad.returncode, 1, "an edited final state is caught")
            rep = json.loads(bad.stdout)
            self.assertIn({"seq": 0, "field": "final_state.turn",
                           "what": "the replayed final state differs from the stored one "
                                   "at turn"}, rep["mismatches"], rep)

    def test_verify_replays_a_version_once_and_keeps_who_may_ask(self):
        """Issue 32, "Flat in the match's length": an ended match's audit is
        the same answer each time (every change bumps its version), so the
        first call replays every post and the next send the kept answer;
        who may ask is still checked at every call (issue 24: a private
        match's stranger gets the missing id's 404)."""
        applies = "warpost_rules_applies_total"
        for spectators in ("open", "private"):
            r = self.a.req("POST", "/api/games", {"ruleset": ml.RULESET, "seats": 2, "seat": 0,
                                                  "spectators": spectators})
            self.assertEqual(r.status, 201, r)
            game = r.json()["id"]
            self.assertEqual(self.b.join(game, r.json()["invitations"][0]["code"]).status, 200)
            ml.play_random([self.a, self.b], game, 12, random.Random(7))
            self.assertEqual(self.a.req("POST", "/api/games/%d/resign" % game).status, 200)
            path = "/api/games/%d/verify" % game
            before = wp.metric(self.server, applies)
            first = self.a.req("GET", path)
            self.assertEqual(first.status, 200, first)
            self.assertTrue(first.json()["verified"], first.json()["mismatches"])
            replayed = wp.metric(self.server, applies)
            self.assertGreater(replayed, before, "the first call replays the posts")
            again = self.b.req("GET", path)
            self.assertEqual((again.status, again.body), (200, first.body))
            self.assertEqual(again.headers.get("content-type"), first.headers.get("content-type"))
            self.assertEqual(wp.metric(self.server, applies), replayed, "nothing replayed again")
            stranger = self.c.req("GET", path)
            if spectators == "private":
                self.assertProblem(stranger, 404, "game-not-found")
            else:
                self.assertEqual((stranger.status, stranger.body), (200, first.body))

    def test_verify_and_export_wait_for_the_end(self):
        game = ml.start_match([self.a, self.b])
        self.assertProblem(self.server.request("GET", "/api/games/%d/verify" % game), 409,
                           "game-not-over")
        self.assertProblem(self.server.request("GET", "/api/games/%d/export" % game), 409,
                           "game-not-over")

    def test_draw_offer_decline_accept(self):
        game = ml.start_match([self.a, self.b])
        path = "/api/games/%d/draw" % game
        self.assertProblem(self.b.req("POST", path, {"action": "accept"}), 409, "no-draw-offer")
        self.assertEqual(self.a.req("POST", path, {"action": "offer"}).status, 200)
        self.assertEqual(self.a.view(game).json()["draw_offers"], [0])
        self.assertProblem(self.a.req("POST", path, {"action": "offer"}), 409,
                           "draw-already-offered")
        self.assertEqual(self.b.req("POST", path, {"action": "decline"}).status, 200)
        self.assertEqual(self.a.view(game).json()["draw_offers"], [])
        self.assertEqual(self.b.req("POST", path, {"action": "offer"}).status, 200)
        r = self.a.req("POST", path, {"action": "accept"})
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json()["result"], {"winners": [], "draw": True, "reason": "agreement"})
        self.assertEqual(self.a.view(game).json()["status"], "over")
        self.assertTrue(self.server.request("GET", "/api/games/%d/verify" % game).json()["verified"])

    def test_abort_only_before_the_first_turn(self):
        game = ml.start_match([self.a, self.b])
        self.assertEqual(self.b.req("POST", "/api/games/%d/orders" % game,
                                    {"orders": {"dodge": "always"}}).status, 200)
        r = self.b.req("POST", "/api/games/%d/abort" % game)
        self.assertEqual(r.status, 200, r)
        v = self.a.view(game).json()
        self.assertEqual((v["status"], v["result"]["reason"]), ("aborted", "aborted"))
        self.assertIsNotNone(v["dice"]["seed"])
        game = ml.start_match([self.a, self.b])
        self.assertEqual(self.a.turn(game, 1, [move("d1", "d2")]).status, 200)
        self.assertProblem(self.a.req("POST", "/api/games/%d/abort" % game), 409, "game-under-way")
        g = self.a.create(2)
        self.assertEqual(self.a.req("POST", "/api/games/%d/abort" % g["id"]).status, 200,
                         "an open match can be aborted by its creator's seat")

    def test_my_matches_awaiting_me_first(self):
        g1 = ml.start_match([self.a, self.b])
        g2 = ml.start_match([self.b, self.a])
        g3 = ml.start_match([self.a, self.c])
        self.assertEqual(self.a.turn(g1, 1, [move("d1", "d2")]).status, 200)
        self.assertEqual(self.a.turn(g3, 1, [move("d1", "d2")]).status, 200)
        r = self.a.req("GET", "/api/me/games")
        self.assertEqual(r.status, 200, r)
        doc = r.json()
        self.assertEqual(doc["count"], 3)
        # Alice is awaited only in g2, where she is seat 1 (Bob moves first?
        # no: seat 0 moves first, so she waits there too after Bob moves).
        awaited = [x["id"] for x in doc["games"] if x["awaiting_you"]]
        self.assertEqual(doc["games"][0]["awaiting_you"], bool(awaited))
        self.assertEqual(self.b.turn(g2, 1, [move("d1", "d2")]).status, 200)
        doc = self.a.req("GET", "/api/me/games").json()
        self.assertEqual(doc["games"][0]["id"], g2, "the match awaiting me comes first")
        self.assertTrue(doc["games"][0]["awaiting_you"])
        self.assertEqual([x["awaiting_you"] for x in doc["games"][1:]], [False, False])
        page = self.a.req("GET", "/api/me/games?limit=1&offset=1").json()
        self.assertEqual((page["count"], len(page["games"])), (3, 1))
        page = self.a.req("GET", "/api/me/games?offset=10").json()
        self.assertEqual((page["count"], page["games"]), (3, []), "past the end")
        # Issue 13: each line names the players and the result, and with
        # boards=1 carries the state as the seat sees it (G5), so "My
        # matches" is one request: the same members as each match's view.
        self.assertEqual(self.c.req("POST", "/api/games/%d/resign" % g3).status, 200)
        doc = self.a.req("GET", "/api/me/games").json()
        self.assertNotIn("state", doc["games"][0])
        doc = self.a.req("GET", "/api/me/games?boards=1").json()
        for line in doc["games"]:
            v = self.a.view(line["id"]).json()
            self.assertEqual(ml.dumps(line["players"]), ml.dumps(v["seats"]))
            self.assertEqual(ml.dumps(line["result"]), ml.dumps(v["result"]))
            self.assertEqual(ml.dumps(line["state"]), ml.dumps(v["state"]))
        line3 = next(x for x in doc["games"] if x["id"] == g3)
        self.assertIsNotNone(line3["result"])
        self.assertEqual(line3["players"][1]["player"]["name"], self.c.name)
        self.assertProblem(self.a.req("GET", "/api/me/games?boards=2"), 400, "invalid-request")
        self.assertProblem(self.server.request("GET", "/api/me/games"), 401, "unauthorized")

    def test_three_seats_a_resigning_seat_leaves_the_board(self):
        game = ml.start_match([self.a, self.b, self.c])
        self.assertEqual(self.a.turn(game, 1, [move("d1", "d2")]).status, 200)
        r = self.c.req("POST", "/api/games/%d/resign" % game)
        self.assertEqual(r.status, 200, r)
        v = self.a.view(game).json()
        self.assertEqual(v["status"], "active", "two seats still play")
        self.assertFalse([p for p in v["state"]["pieces"] if p["seat"] == 2])
        self.assertEqual(v["awaiting"], [1])
        self.assertEqual(self.b.turn(game, v["seq"], [move("d8", "d7")]).json()["awaiting"], [0])
        self.assertProblem(self.c.req("POST", "/api/games/%d/draw" % game, {"action": "offer"}),
                           409, "not-in-play")


if __name__ == "__main__":
    wp.main()
