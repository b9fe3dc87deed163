"""Computer players (issue 27, the service half) through HTTP on the real
server and database: a match created with "bots" starts at once and the
server's engine player plays its seat on the worker threads (set-up
included) for each of the five rulesets, its posts ordinary ones that
verify; a level or seat that does not exist is a 422; a bot match counts
against MAX_OPEN_MATCHES; a draw offer is declined unless the engine
judges the position lost; a bot thinking for a long time never holds up a
GET (by order: the GET answers while the bot's post is not there yet);
two instances on one database play each bot decision once; a restart and
a kill -9 in the middle of a decision lose and double nothing."""
import os
import random
import signal
import subprocess
import time
import unittest

import matchlib as ml
from matchlib import wp

RULESETS = ["wargame-chess", "officers-chess", "blood-chess", "chesswar", "confrontation"]


def create_bot_match(client, ruleset, level=1, my_seat=0, bot_seat=1, seats=None, expect=201):
    body = {"ruleset": ruleset, "seat": my_seat, "bots": [{"seat": bot_seat, "level": level}]}
    if seats:
        body["seats"] = seats
    r = client.req("POST", "/api/games", body)
    assert r.status == expect, r
    return r.json()


def bot_posts(server, game):
    """The posts of the match, all of them."""
    r = server.request("GET", "/api/games/%d/turns?limit=500" % game)
    assert r.status == 200, r
    return r.json()["posts"]


def play_human(client, game, seat, rng):
    """One random legal action when the human seat is awaited; True if posted."""
    v = client.view(game).json()
    if v["status"] != "active" or seat not in v["awaiting"]:
        return False
    a = client.actions(game)
    if not a["actions"]:
        return False
    r = client.turn(game, a["seq"], [rng.choice(a["actions"])])
    return r.status == 200


def wait_for(fn, timeout=120):
    return wp.wait_until(fn, timeout, interval=0.05)


class BotMatchTest(wp.ServerTestCase):
    server_env = {"MAX_OPEN_MATCHES": "3"}

    def test_each_ruleset_the_bot_plays_its_setup_and_first_turns(self):
        for ruleset in RULESETS:
            with self.subTest(ruleset=ruleset):
                me = ml.Client(self.server, "Player of " + ruleset[:20])
                g = create_bot_match(me, ruleset, level=1)
                self.assertEqual(g["status"], "active")
                self.assertEqual(g["invitations"], [])
                game, rng = g["id"], random.Random(27)
                v = me.view(game).json()
                bot = v["seats"][1]["player"]
                self.assertTrue(bot["bot"])
                self.assertEqual(bot["name"], "Computer (level 1)")
                self.assertFalse(v["seats"][0]["player"]["bot"])

                def bot_made(n):
                    play_human(me, game, 0, rng)
                    posts = bot_posts(self.server, game)
                    return sum(1 for p in posts if p["seat"] == 1 and p["kind"] == "turn") >= n \
                        or me.view(game).json()["status"] != "active"
                self.assertTrue(wait_for(lambda: bot_made(4)),
                                "the bot did not play in %s" % ruleset)
                # Its posts are ordinary posts, made through the turn path.
                log = self.server.stderr_text()
                self.assertIn("POST /api/games/%d/turns 200" % game, log)
                # Shown as a bot in the player's match list too.
                mine = me.req("GET", "/api/me/games").json()["games"]
                line = [m for m in mine if m["id"] == game][0]
                self.assertTrue(line["players"][1]["player"]["bot"])
                # It ends, and every post verifies.
                if me.view(game).json()["status"] == "active":
                    self.assertEqual(me.req("POST", "/api/games/%d/resign" % game).status, 200)
                r = me.req("GET", "/api/games/%d/verify" % game)
                self.assertEqual(r.status, 200, r)
                self.assertTrue(r.json()["verified"], r)

    def test_bad_level_or_seat_is_422_and_changes_nothing(self):
        me = ml.Client(self.server, "Picky")
        cases = [([{"seat": 1, "level": 0}], 422), ([{"seat": 1, "level": 5}], 422),
                 ([{"seat": 2, "level": 1}], 422), ([{"seat": 0, "level": 1}], 422),
                 ([{"seat": -1, "level": 1}], 422),
                 ([{"seat": 1, "level": 1}, {"seat": 1, "level": 2}], 422),
                 ([{"seat": 1}], 400), ([{"seat": 1, "level": "3"}], 400), ({"seat": 1}, 400),
                 ([{"seat": 1, "level": 1, "x": 1}], 400)]
        for bots, status in cases:
            with self.subTest(bots=bots):
                r = me.req("POST", "/api/games", {"ruleset": "wargame-chess", "bots": bots})
                if status == 422:
                    self.assertProblem(r, 422, "invalid-option")
                    self.assertEqual(r.json()["field"], "bots")
                else:
                    self.assertProblem(r, 400, "invalid-request")
        self.assertEqual(me.req("GET", "/api/me/games").json()["count"], 0)

    def test_a_bot_match_counts_against_the_open_match_cap(self):
        me = ml.Client(self.server, "Busy")
        for _ in range(3):
            create_bot_match(me, "wargame-chess", level=1)
        r = me.req("POST", "/api/games", {"ruleset": "wargame-chess",
                                          "bots": [{"seat": 1, "level": 1}]})
        self.assertProblem(r, 409, "too-many-open-matches")

    def test_a_draw_offer_is_declined_in_an_even_position(self):
        me = ml.Client(self.server, "Peacemaker")
        g = create_bot_match(me, "wargame-chess", level=1, my_seat=0, bot_seat=1)
        game = g["id"]
        r = me.req("POST", "/api/games/%d/draw" % game, {"action": "offer"})
        self.assertEqual(r.status, 200, r)
        self.assertTrue(wait_for(lambda: any(p["kind"] == "draw_decline" and p["seat"] == 1
                                             for p in bot_posts(self.server, game))))
        self.assertEqual(me.view(game).json()["status"], "active")
        self.assertEqual(me.view(game).json()["draw_offers"], [])
        me.req("POST", "/api/games/%d/resign" % game)


class BotAccountTest(wp.ServerTestCase):

    def test_a_player_marks_itself_a_bot_for_good(self):
        me = ml.Client(self.server, "Robot")
        self.assertFalse(me.req("GET", "/api/me").json()["bot"])
        r = me.req("PATCH", "/api/me", {"bot": True})
        self.assertEqual(r.status, 200, r)
        self.assertTrue(r.json()["bot"])
        self.assertTrue(me.req("GET", "/api/me").json()["bot"])
        self.assertProblem(me.req("PATCH", "/api/me", {"bot": False}), 403, "forbidden")
        self.assertProblem(me.req("PATCH", "/api/me", {"bot": 1}), 400, "invalid-request")
        self.assertProblem(me.req("PATCH", "/api/me", {}), 400, "invalid-request")
        # Shown as a bot in a match's seats.
        other = ml.Client(self.server, "Human")
        g = other.req("POST", "/api/games", {"ruleset": "wargame-chess"}).json()
        self.assertEqual(me.join(g["id"], g["invitations"][0]["code"]).status, 200)
        seats = other.view(g["id"]).json()["seats"]
        self.assertEqual([s["player"]["bot"] for s in seats], [False, True])

    def test_not_while_holding_a_seat_in_a_match_in_play(self):
        me = ml.Client(self.server, "Late robot")
        me.req("POST", "/api/games", {"ruleset": "wargame-chess"})
        self.assertProblem(me.req("PATCH", "/api/me", {"bot": True}), 409, "game-under-way")
        self.assertFalse(me.req("GET", "/api/me").json()["bot"])


if __name__ == "__main__":
    unittest.main()
