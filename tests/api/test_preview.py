"""A draft tried before it is posted (issue 30, item 1): POST
/api/games/{id}/preview applies actions to a copy for the caller's seat and
answers its view and legal actions after them, through HTTP on the real
server and database.

- what the preview shows is what the post of the same actions then does;
- the match is unchanged by it (seq, version, every seat's view);
- a die is never rolled in a dry run: an action that rolls ends the draft,
  and one in the middle is refused (rolls-dice) with its index; the real
  post then rolls the very dice it would have rolled without the preview;
- an action that reveals something hidden ends the draft the same way
  (Officers Chess under fog; the end of Confrontation's secret build);
- nothing of the other seat's hidden set-up appears in an answer;
- a spectator gets 403, a stranger to a private match 404, no token 401."""
import json
import unittest

import matchlib as ml
from matchlib import wp


class PreviewTest(wp.ServerTestCase):

    def setUp(self):
        self.a = ml.Client(self.server, "Ann")
        self.b = ml.Client(self.server, "Ben")
        self.who = [self.a, self.b]

    def match(self, ruleset, options=None, **extra):
        body = dict({"ruleset": ruleset, "seats": 2, "seat": 0}, **extra)
        if options is not None:
            body["options"] = options
        r = self.a.req("POST", "/api/games", body)
        self.assertEqual(r.status, 201, r)
        self.game = r.json()["id"]
        code = r.json()["invitations"][0]["code"]
        self.assertEqual(self.b.join(self.game, code).status, 200)

    def view(self, who=None):
        get = who.req if who else self.server.request
        r = get("GET", "/api/games/%d" % self.game)
        self.assertEqual(r.status, 200, r)
        return r.json()

    def everything(self):
        """The match as each seat and a spectator see it, with its version."""
        return [json.dumps(self.view(w), sort_keys=True) for w in (self.a, self.b, None)]

    def preview(self, seat, actions, seq=None, expect=200):
        p = self.who[seat]
        body = {"actions": actions}
        if seq is not None:
            body["seq"] = seq
        r = p.req("POST", "/api/games/%d/preview" % self.game, body)
        self.assertEqual(r.status, expect, r)
        return r.json()

    def post(self, seat, actions):
        p = self.who[seat]
        r = p.turn(self.game, ml.seq_of(p, self.game), actions)
        self.assertEqual(r.status, 200, r)
        return r.json()

    # ------------------------------------------------------- Skirmish

    def skirmish_to_dodge(self):
        """Seat 0 attacks a real Scout; seat 1 owes a Dodge, which rolls."""
        self.match(ml.RULESET)
        mine = {p["square"]: p for p in self.view(self.b)["state"]["pieces"] if p["seat"] == 1}
        target = "d8" if not mine["d8"]["decoy"] else "f8"
        walker, shuffle = (("d", ("f8", "g7")) if target == "d8" else ("f", ("d8", "c7")))
        for i in range(1, 7):
            self.post(0, [{"type": "move", "from": "%s%d" % (walker, i),
                           "to": "%s%d" % (walker, i + 1)}])
            a, b = shuffle if i % 2 else shuffle[::-1]
            self.post(1, [{"type": "move", "from": a, "to": b}])
        return walker, target

    def test_preview_is_what_the_post_does_and_changes_nothing(self):
        self.match(ml.RULESET)
        seq = ml.seq_of(self.a, self.game)
        move = {"type": "move", "from": "d1", "to": "d2"}
        before = self.everything()
        p = self.preview(0, [move], seq=seq)
        self.assertEqual(self.everything(), before, "a preview changed the match")
        self.assertEqual((p["applied"], p["ends"], p["seq"], p["seat"]), (1, None, seq, 0))
        self.post(0, [move])
        after = self.view(self.a)
        self.assertEqual(p["state"], after["state"], "the preview is not what the post did")
        self.assertEqual(p["awaiting"], after["awaiting"])
        self.assertEqual(p["awaited"], 0 in after["awaiting"])
        if p["awaited"]:
            self.assertEqual(p["actions"], self.a.actions(self.game)["actions"])
        else:
            self.assertEqual(p["actions"], [])
        # The empty draft is the position now; a stale seq is refused.
        now = self.preview(1, [])
        self.assertEqual(now["state"], self.view(self.b)["state"])
        self.assertEqual(now["actions"], self.b.actions(self.game)["actions"])
        r = self.b.req("POST", "/api/games/%d/preview" % self.game, {"seq": seq, "actions": []})
        self.assertEqual(r.status, 409, r)
        self.assertEqual(r.json()["type"], "urn:warpost:problem:stale-sequence")
        # Not awaited, an illegal action: the turn's refusals.
        r = self.a.req("POST", "/api/games/%d/preview" % self.game, {"actions": [move]})
        self.assertEqual(r.status, 409, r)
        self.assertEqual(r.json()["type"], "urn:warpost:problem:not-awaited")
        r = self.b.req("POST", "/api/games/%d/preview" % self.game,
                       {"actions": [{"type": "move", "from": "a1", "to": "h8"}]})
        self.assertEqual(r.status, 422, r)
        self.assertEqual((r.json()["type"], r.json()["index"]),
                         ("urn:warpost:problem:illegal-action", 0))

    def test_a_die_is_never_rolled_in_a_dry_run(self):
        walker, target = self.skirmish_to_dodge()
        self.post(0, [{"type": "attack", "from": walker + "7", "to": target}])
        before = self.everything()
        dodge = {"type": "dodge", "dodge": True}
        last = self.preview(1, [dodge])
        self.assertEqual(last["ends"], {"index": 0, "reason": "dice"})
        self.assertEqual((last["applied"], last["awaited"], last["actions"]), (0, False, []))
        self.assertEqual(last["state"], self.view(self.b)["state"],
                         "the position before the roll, not after it")
        # In the middle of a draft: refused, naming the action.
        r = self.b.req("POST", "/api/games/%d/preview" % self.game,
                       {"actions": [dodge, {"type": "move", "from": "f8", "to": "g7"}]})
        self.assertEqual(r.status, 422, r)
        doc = r.json()
        self.assertEqual((doc["type"], doc["index"], doc["code"]),
                         ("urn:warpost:problem:illegal-action", 0, "rolls-dice"))
        self.assertIn("last", doc["detail"])
        self.assertEqual(self.everything(), before, "a preview changed the match")
        # The post rolls the match's next dice: the first draws after the
        # attack, as the log and verify say.
        r = self.post(1, [dodge])
        self.assertTrue(any(e["type"] == "roll" for e in r["events"]))
        self.assertEqual(self.b.req("POST", "/api/games/%d/resign" % self.game).status, 200)
        v = self.server.request("GET", "/api/games/%d/verify" % self.game).json()
        self.assertTrue(v["verified"], v["mismatches"])

    def test_who_may_preview(self):
        self.match(ml.RULESET)
        body = {"actions": []}
        path = "/api/games/%d/preview" % self.game
        self.assertEqual(self.server.request("POST", path, body).status, 401)
        c = ml.Client(self.server, "Cid")
        r = c.req("POST", path, body)
        self.assertEqual((r.status, r.json()["type"]),
                         (403, "urn:warpost:problem:not-a-player"))
        self.match(ml.RULESET, spectators="private")
        r = c.req("POST", "/api/games/%d/preview" % self.game, body)
        self.assertEqual((r.status, r.json()["type"]),
                         (404, "urn:warpost:problem:game-not-found"))
        r = self.a.req("POST", "/api/games/%d/preview" % self.game, {"actions": [1]})
        self.assertEqual(r.status, 400, r)

    def test_a_whole_turn_tried_then_posted_as_one(self):
        """Confrontation: two moves tried one after the other (the second
        chosen from the first's answer), then posted in one post: the
        post does what the preview showed."""
        self.match("confrontation")
        for seat in (0, 1):
            self.post(seat, [{"type": "ready"}])
        while self.view(self.a)["state"]["phase"] != "play":
            s = self.view(self.a)["awaiting"][0]
            self.post(s, [self.who[s].actions(self.game)["actions"][0]])
        me = self.view(self.a)["awaiting"][0]
        seq = ml.seq_of(self.a, self.game)
        moves = [a for a in self.who[me].actions(self.game)["actions"] if a["type"] == "move"]
        first = self.preview(me, [moves[0]], seq=seq)
        self.assertTrue(first["awaited"], first)
        again = [a for a in first["actions"] if a["type"] == "move" and a["from"] != moves[0]["to"]]
        draft = [moves[0], again[0]]
        both = self.preview(me, draft, seq=seq)
        self.assertEqual((both["applied"], both["ends"]), (2, None))
        self.assertNotEqual(both["state"], first["state"])
        self.post(me, draft)
        self.assertEqual(both["state"], self.view(self.who[me])["state"])
        self.assertEqual(ml.seq_of(self.a, self.game), seq + 1, "one post")

    # ------------------------------------------------ hidden information

    def test_officers_chess_fog_every_move_ends_the_draft(self):
        """Under fog whether a move brings a unit into sight is what the
        mover cannot see, so every move ends the draft (the ruleset's
        may_reveal), a quiet one as one that sights an enemy: the two
        answers are the same, byte for byte, and show nobody in the fog."""
        self.match("officers-chess", {"units": 1, "fog": True, "activations": "1"})
        self.post(0, [{"type": "recruit", "name": "Ana", "class": "Sword Fighter",
                       "items": ["Steel Sword"]}])
        self.post(1, [{"type": "recruit", "name": "Zed", "class": "Thief",
                       "items": ["Steel Dagger"]}])
        self.post(1, [{"type": "deploy", "unit": "Zed", "to": "d8"}])
        self.post(0, [{"type": "deploy", "unit": "Ana", "to": "d1"}])
        before = self.everything()
        quiet = self.preview(0, [{"type": "move", "from": "d1", "to": "d2"}])
        self.assertEqual((quiet["applied"], quiet["ends"]), (0, {"index": 0, "reason": "revealed"}))
        seen = {"type": "move", "from": "d1", "to": "d5"}
        p = self.preview(0, [seen])
        self.assertEqual(p, quiet, "a sighting and a quiet move answer alike")
        self.assertNotIn("Zed", json.dumps(p), "a dry run showed a unit in the fog")
        r = self.a.req("POST", "/api/games/%d/preview" % self.game,
                       {"actions": [seen, {"type": "move", "from": "d5", "to": "d6"}]})
        self.assertEqual((r.status, r.json()["code"], r.json()["index"]),
                         (422, "reveals-hidden", 0))
        self.assertNotIn("Zed", r.body.decode())
        self.assertEqual(self.everything(), before)
        self.post(0, [seen])
        self.assertIn("Zed", json.dumps(self.view(self.a)["state"]), "the post does show it")

    def test_confrontation_secret_build_stays_secret(self):
        self.match("confrontation")
        self.post(0, [{"type": "buy", "piece": "bishop"}])
        mine = self.view(self.a)["state"]
        bishop = [p for p in mine["seats"][0]["pieces"] if p["type"] == "bishop"][0]
        self.post(0, [{"type": "add_spell", "piece": bishop["id"], "spell": "judgement"}])
        other = [x for x in self.a.actions(self.game)["actions"]
                 if x["type"] == "add_spell" and x.get("spell") != "judgement"][0]
        self.post(0, [other, {"type": "ready"}])
        # Seat 1's own build, tried: seat 0's army is nowhere in the answer.
        p = self.preview(1, [{"type": "buy", "piece": "knight"}])
        self.assertEqual(p["ends"], None)
        seat0 = p["state"]["seats"][0]
        self.assertEqual((seat0["pieces"], seat0["points_left"]), (None, None))
        self.assertNotIn("judgement", json.dumps(p))
        # Seat 1 ready too would end the build (a roll for who deploys
        # first) and show both armies: the draft ends there, on the
        # position before it.
        done = self.preview(1, [{"type": "buy", "piece": "knight"}, {"type": "ready"}])
        self.assertEqual((done["applied"], done["ends"]), (1, {"index": 1, "reason": "dice"}))
        self.assertEqual(done["state"]["seats"][0]["pieces"], None)
        self.assertNotIn("judgement", json.dumps(done))
        self.assertEqual(done["state"], p["state"])


if __name__ == "__main__":
    unittest.main()
