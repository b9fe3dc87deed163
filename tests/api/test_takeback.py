"""Takeback requests (issue 30, item 9) through HTTP on the real server and
database: after its turn has passed a seat asks the other to take back its
last post; the other accepts (an undo post of the asker's: the position goes
back, the log keeps both, the match verifies) or declines; any other post
refuses the request; what may not be taken back is refused with a
problem+json that changes nothing."""
import unittest

import matchlib as ml
from matchlib import wp


class TakebackTest(ml.TwoSeatsTestCase):

    def setUp(self):
        super().setUp()
        self.match()

    def ask(self, who, what="", key=None):
        return who.req("POST", "/api/games/%d/takeback%s" % (self.game, what), None,
                       {"Idempotency-Key": key} if key else None)

    def refused(self, r, code):
        self.assertEqual(r.status, 409, r)
        self.assertEqual(r.headers.get("content-type"), "application/problem+json")
        self.assertEqual(r.json()["code"], code, r)

    def test_ask_accept_takes_back_exactly_one_post(self):
        self.post(0, {"type": "move", "from": "d1", "to": "d2"})
        before = self.view(self.b)
        moved = self.post(1, {"type": "move", "from": "f8", "to": "g7"})
        self.refused(self.ask(self.b, "/accept"), "no-takeback-request")
        r = self.ask(self.b, key="tb-1")
        self.assertEqual(r.status, 200, r)
        again = self.ask(self.b, key="tb-1")
        self.assertEqual((again.status, again.headers.get("idempotent-replayed")), (200, "true"))
        self.refused(self.ask(self.b), "already-asked")
        self.refused(self.ask(self.b, "/accept"), "no-takeback-request")
        log = self.view(self.a)
        self.assertEqual(log["seq"], moved["seq"] + 1)
        a = self.ask(self.a, "/accept")
        self.assertEqual(a.status, 200, a)
        self.assertEqual(a.json()["undone"], [moved["seq"]])
        after = self.view(self.b)
        self.assertEqual((after["state"], after["awaiting"]), (before["state"], before["awaiting"]))
        self.refused(self.ask(self.a, "/decline"), "no-takeback-request")
        posts = self.a.req("GET", "/api/games/%d/turns?after=0&limit=500" % self.game)
        kinds = [(p["kind"], p["seat"], p["undone_by"]) for p in posts.json()["posts"]][-3:]
        self.assertEqual(kinds, [("turn", 1, a.json()["seq"]), ("takeback_request", 1, None),
                                 ("undo", 1, None)])
        self.post(1, {"type": "move", "from": "f8", "to": "g7"})
        self.assertEqual(self.a.req("POST", "/api/games/%d/resign" % self.game).status, 200)
        v = self.server.request("GET", "/api/games/%d/verify" % self.game)
        self.assertEqual(v.status, 200, v)
        self.assertTrue(v.json()["verified"], v.json()["mismatches"])

    def test_decline_and_lapse(self):
        self.post(0, {"type": "move", "from": "d1", "to": "d2"})
        self.assertEqual(self.ask(self.a).status, 200)
        d = self.ask(self.b, "/decline")
        self.assertEqual(d.status, 200, d)
        self.assertEqual(d.json()["events"][-1]["type"], "takeback_decline")
        self.refused(self.ask(self.b, "/accept"), "no-takeback-request")
        self.refused(self.ask(self.a), "nothing-to-take-back")
        # Asked again, then the other seat plays on: the request lapses.
        self.post(1, {"type": "move", "from": "f8", "to": "g7"})
        self.assertEqual(self.ask(self.b).status, 200)
        self.post(0, {"type": "move", "from": "d2", "to": "d3"})
        self.refused(self.ask(self.a, "/accept"), "no-takeback-request")
        self.refused(self.ask(self.b), "nothing-to-take-back")

    def test_a_roll_stands(self):
        """The defender's Dodge rolls the dice (as in test_undo); posted with
        a move that ends its turn, that post may not be asked back."""
        shuffle = ml.attack_a_real_scout(self.post, self.view(self.b))
        r = self.b.turn(self.game, ml.seq_of(self.b, self.game),
                        [{"type": "dodge", "dodge": True},
                         {"type": "move", "from": shuffle[0], "to": shuffle[1]}])
        self.assertEqual(r.status, 200, r)
        self.assertTrue(any(e["type"] == "roll" for e in r.json()["events"]))
        self.assertNotIn(1, r.json()["awaiting"])
        self.refused(self.ask(self.b), "dice-rolled")
        self.assertEqual(self.view(self.a)["seq"], r.json()["seq"], "nothing changed")

    def test_refusals_change_nothing(self):
        self.refused(self.ask(self.a), "nothing-to-take-back")
        self.post(0, {"type": "move", "from": "d1", "to": "d2"})
        seq = self.view(self.a)["seq"]
        self.refused(self.ask(self.b), "nothing-to-take-back")
        stranger = ml.Client(self.server, "Cyd")
        r = self.ask(stranger)
        self.assertEqual(r.status // 100, 4, r)
        self.assertEqual(r.headers.get("content-type"), "application/problem+json")
        self.assertEqual(self.view(self.a)["seq"], seq)


class BarrierTest(wp.ServerTestCase):
    """Officers Chess under fog (O13): a move that shows the mover an enemy
    revealed something hidden; it may not be asked back."""

    def deployed(self):
        """A fresh match at Ann's first activation; (game, Ann, post)."""
        a, b = ml.Client(self.server, "Ann"), ml.Client(self.server, "Ben")
        g = a.create(2, {"units": 1, "fog": True, "activations": "1"}, ruleset="officers-chess")
        self.assertEqual(b.join(g["id"], g["invitations"][0]["code"]).status, 200)
        game, who = g["id"], [a, b]

        def post(seat, actions):
            r = who[seat].turn(game, ml.seq_of(who[seat], game), actions)
            self.assertEqual(r.status, 200, r)
            return r.json()
        post(0, [{"type": "recruit", "name": "Ana", "class": "Sword Fighter",
                  "items": ["Steel Sword"]}])
        post(1, [{"type": "recruit", "name": "Zed", "class": "Thief", "items": ["Steel Dagger"]}])
        post(1, [{"type": "deploy", "unit": "Zed", "to": "d8"}])
        post(0, [{"type": "deploy", "unit": "Ana", "to": "d1"}])
        return game, a, post

    def test_a_sighting_stands(self):
        move = {"type": "move", "from": "d1", "to": "d5"}
        game, a, post = self.deployed()
        post(0, [move])
        ends = [x for x in a.actions(game)["actions"] if "end" in x["type"]]
        self.assertTrue(ends, a.actions(game))
        # The same in a second match: the sighting and the end of the turn
        # in one post, the match's last.
        game, a, post = self.deployed()
        post(0, [move, ends[0]])
        v = a.view(game).json()
        self.assertNotIn(0, v["awaiting"])
        r = a.req("POST", "/api/games/%d/takeback" % game)
        self.assertEqual(r.status, 409, r)
        self.assertEqual(r.json()["code"], "information-revealed", r)
        self.assertEqual(a.view(game).json()["seq"], v["seq"], "nothing changed")

class BotTakebackTest(wp.ServerTestCase):
    """A bot declines a takeback request at once (srv/bot/botplay.c): asked
    while no instance plays bots, answered by the next that starts."""
    start_server = False

    def test_a_bot_declines(self):
        first = wp.Server(self.db.url, env={"BOT_THREADS": "0"}).start()
        try:
            me = ml.Client(first, "Asker")
            r = me.req("POST", "/api/games", {"ruleset": ml.RULESET, "seat": 0,
                                              "bots": [{"seat": 1, "level": 1}]})
            self.assertEqual(r.status, 201, r)
            game = r.json()["id"]
            moved = me.turn(game, ml.seq_of(me, game), [{"type": "move", "from": "d1", "to": "d2"}])
            self.assertEqual(moved.status, 200, moved)
            r = me.req("POST", "/api/games/%d/takeback" % game)
            self.assertEqual(r.status, 200, r)
        finally:
            first.stop()
        second = wp.Server(self.db.url, env={"BOT_SCAN_MS": "3600000"}).start()
        try:
            def posts():
                r = second.request("GET", "/api/games/%d/turns?after=0&limit=500" % game)
                return [(p["kind"], p["seat"], p["undone_by"]) for p in r.json()["posts"]]
            self.assertTrue(wp.wait_until(lambda: ("takeback_decline", 1, None) in posts(), 60,
                                          interval=0.05), posts())
            self.assertEqual(posts()[moved.json()["seq"] - 1], ("turn", 0, None),
                             "the move stands")
        finally:
            second.stop()


if __name__ == "__main__":
    unittest.main()
