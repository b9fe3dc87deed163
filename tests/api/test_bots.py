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
import re
import signal
import sys
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


def play_human(client, game, seat, rng, bot_first=None):
    """One random legal action when the human seat is awaited (and, with
    bot_first, that seat is not); True if posted."""
    v = client.view(game).json()
    if v["status"] != "active" or seat not in v["awaiting"] or bot_first in v["awaiting"]:
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

    def test_a_ruleset_the_engine_cannot_play_gets_random_legal_actions(self):
        """The test ruleset has no determinize hook: the engine answers no
        action, and the bot posts one of the seat's legal actions (as
        GET /actions lists them) rather than keep the match waiting."""
        me = ml.Client(self.server, "Tester")
        g = create_bot_match(me, ml.RULESET, level=2)
        game, rng = g["id"], random.Random(2)

        def bot_made(n):
            play_human(me, game, 0, rng)
            return sum(1 for p in bot_posts(self.server, game)
                       if p["seat"] == 1 and p["kind"] == "turn") >= n
        self.assertTrue(wait_for(lambda: bot_made(3)))
        self.assertIn("a random legal action instead", self.server.stderr_text())
        me.req("POST", "/api/games/%d/resign" % game)

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


class RestartTest(wp.ServerTestCase):
    """A bot decision pending when no instance plays bots (BOT_THREADS=0)
    is played by the next instance that starts, from its scan at start
    (the next scan an hour away: no NOTIFY comes, nothing else changes)."""
    start_server = False

    def test_a_pending_bot_turn_is_played_after_a_restart(self):
        first = wp.Server(self.db.url, env={"BOT_THREADS": "0"}).start()
        try:
            me = ml.Client(first, "Waiting")
            g = create_bot_match(me, "wargame-chess", level=1, my_seat=1, bot_seat=0)
            game = g["id"]
            v = me.view(game).json()
            self.assertIn(0, v["awaiting"])
            seq = v["seq"]
        finally:
            first.stop()
        self.assertEqual(len(db_posts(self.db, game)), seq)
        second = wp.Server(self.db.url, env={"BOT_SCAN_MS": "3600000"}).start()
        try:
            self.assertTrue(wait_for(lambda: any(
                p[1] == 0 for p in db_posts(self.db, game)[seq:]), 60))
            self.assertEqual(db_posts(self.db, game)[seq], (seq + 1, 0, "turn"))
        finally:
            second.stop()


class HumanSeatsTest(wp.ServerTestCase):

    def test_the_match_starts_when_every_human_seat_is_taken(self):
        a, b = ml.Client(self.server, "First"), ml.Client(self.server, "Second")
        r = a.req("POST", "/api/games", {"ruleset": "confrontation", "seats": 3, "seat": 0,
                                         "bots": [{"seat": 2, "level": 2}]})
        self.assertEqual(r.status, 201, r)
        g = r.json()
        self.assertEqual(g["status"], "open")
        self.assertEqual([i["seat"] for i in g["invitations"]], [1])
        v = a.view(g["id"]).json()
        self.assertEqual(v["status"], "open")
        self.assertTrue(v["seats"][2]["player"]["bot"])
        self.assertEqual(b.join(g["id"], g["invitations"][0]["code"]).status, 200)
        self.assertEqual(a.view(g["id"]).json()["status"], "active")


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


def bot_turn_lines(log, game):
    """The bot worker's posts of turns answered 200, by a server's log."""
    pat = re.compile(r"POST /api/games/%d/turns 200 \S+ bot$" % game)
    return sum(1 for line in log.splitlines() if pat.search(line))


def db_posts(db, game):
    """(seq, seat, kind) of every post, from the database itself."""
    out = db.psql("SELECT seq, coalesce(seat, -1), kind FROM posts WHERE game_id = %d"
                  " ORDER BY seq" % game)
    return [(int(a), int(b), c) for a, b, c in (line.split("|") for line in out.split())]


class TwoInstancesTest(wp.ServerTestCase):
    """Two warpostd on one database, both with bot workers: each decision
    of a match between two computers is made by one of them, once."""
    server_env = {"BOT_THREADS": "2", "BOT_SCAN_MS": "200"}

    def test_each_bot_turn_is_played_once(self):
        other = wp.Server(self.db.url, env=self.server_env).start()
        logs = []
        try:
            me = ml.Client(self.server, "Spectator seat")
            r = me.req("POST", "/api/games", {
                "ruleset": "confrontation", "seats": 3, "seat": 0,
                "bots": [{"seat": 1, "level": 1}, {"seat": 2, "level": 2}]})
            self.assertEqual(r.status, 201, r)
            game = r.json()["id"]
            # The person leaves: the two computers play on, and both
            # instances hear every change of the match.
            self.assertEqual(me.req("POST", "/api/games/%d/resign" % game).status, 200)

            def enough():
                turns = [p for p in db_posts(self.db, game) if p[2] == "turn"]
                return len(turns) >= 40 or me.view(game).json()["status"] != "active"
            self.assertTrue(wait_for(enough, 240))
        finally:
            logs.append(other.stop())
            logs.append(type(self).server.stop())
            type(self).server = None
        turns = [p for p in db_posts(self.db, game) if p[2] == "turn"]
        self.assertGreaterEqual(len(turns), 10)
        self.assertTrue(all(seat in (1, 2) for _, seat, _ in turns))
        # Each turn in the log was posted by one instance, once: no
        # second post of the same decision was answered 200 (applied or
        # replayed) by either.
        by = [bot_turn_lines(log, game) for log in logs]
        print("bot turns posted by each instance:", by, file=sys.stderr)
        self.assertEqual(sum(by), len(turns), by)
        posted = self.db.psql("SELECT count(*) FROM bot_claims WHERE game_id = %d"
                              " AND outcome = 'posted' AND done_at IS NOT NULL" % game)
        self.assertEqual(int(posted), len(turns))


class KillDuringThoughtTest(wp.ServerTestCase):
    """A level-4 bot given a budget of iterations it cannot finish soon
    (BOT_ITERATIONS, the operator's setting) is thinking: GETs answer
    meanwhile, its post not there yet; warpostd is killed (SIGKILL) in
    the middle of the thought; started again with a small budget, it plays
    that decision once, from the claim left behind."""
    start_server = False
    LONG = {"BOT_ITERATIONS": "0,0,0,2000000000", "BOT_SCAN_MS": "200"}
    SHORT = {"BOT_ITERATIONS": "0,0,0,20", "BOT_SCAN_MS": "200"}

    def thinking(self, game):
        """(seq, seat, attempts) of a claim being thought over, or None."""
        out = self.db.psql("SELECT seq, seat, attempts FROM bot_claims WHERE game_id = %d"
                           " AND done_at IS NULL AND attempts >= 1" % game).split()
        return tuple(int(x) for x in out[0].split("|")) if out else None

    def test_a_long_thought_holds_up_no_get_and_a_kill_loses_and_doubles_nothing(self):
        first = wp.Server(self.db.url, env=self.LONG).start()
        try:
            me = ml.Client(first, "Patient")
            g = create_bot_match(me, "wargame-chess", level=4, my_seat=1, bot_seat=0)
            game, rng = g["id"], random.Random(4)

            def bot_thinks():
                play_human(me, game, 1, rng, bot_first=0)
                return self.thinking(game)
            claim = wait_for(bot_thinks, 120)
            self.assertTrue(claim, "the bot never started a long decision")
            seq, seat, attempts = claim
            self.assertEqual((seat, attempts), (0, 1))
            # The GETs answer while the bot thinks: the post is not there.
            for _ in range(5):
                v = me.view(game)
                self.assertEqual(v.status, 200)
                self.assertEqual(v.json()["seq"], seq)
                self.assertEqual(me.req("GET", "/api/me/games").status, 200)
            self.assertEqual(self.thinking(game), claim)
        finally:
            first.proc.send_signal(signal.SIGKILL)
            first.proc.wait()
        self.assertEqual(self.thinking(game), claim)
        self.assertEqual(len(db_posts(self.db, game)), seq)
        second = wp.Server(self.db.url, env=self.SHORT).start()
        try:
            def played():
                return self.db.psql("SELECT outcome FROM bot_claims WHERE game_id = %d AND"
                                    " seq = %d AND seat = 0 AND done_at IS NOT NULL"
                                    % (game, seq)).strip()
            self.assertEqual(wait_for(played, 120), "posted")
            posts = db_posts(self.db, game)
            self.assertEqual(posts[seq], (seq + 1, 0, "turn"))
            self.assertEqual(self.db.psql("SELECT attempts FROM bot_claims WHERE game_id = %d"
                                          " AND seq = %d" % (game, seq)).strip(), "2")
            r = second.request("POST", "/api/games/%d/resign" % game, None, ml.auth(me.token))
            self.assertEqual(r.status, 200, r)
            r = second.request("GET", "/api/games/%d/verify" % game)
            self.assertEqual(r.status, 200, r)
            self.assertTrue(r.json()["verified"], r)
        finally:
            second.stop()


class BotSettingsTest(wp.ServerTestCase):
    """README "Configuration": a bad BOT_* value stops the start with the
    setting named, as every other setting does (one parser, config.c)."""

    start_server = False

    def test_a_bad_setting_stops_the_start(self):
        wp.assert_bad_settings_stop_start(self, self.db.url, (
            ("BOT_THREADS", "x"), ("BOT_THREADS", "65"), ("BOT_QUEUE", "0"), ("BOT_SCAN_MS", "-5"),
            ("BOT_MAX_ATTEMPTS", "1e3"), ("BOT_MAX_RUN", "9"), ("BOT_ITERATIONS", "1,2")))


class HeardChangeTest(wp.ServerTestCase):
    """The bot answers a change it heard of, with no scan to find it (the
    next an hour away): the LISTEN thread hands the match to the worker,
    which asks for that match alone (srv/store/bots.c, PENDING_ONE_SQL,
    prepared once a connection; issue 32). Its second turn and after can
    only come that way: the scan at start ran before the human's moves."""
    server_env = {"BOT_SCAN_MS": "3600000"}

    def test_the_bot_answers_each_move_it_hears_of(self):
        me = ml.Client(self.server, "Heard")
        g = create_bot_match(me, "wargame-chess", level=1)
        game, rng = g["id"], random.Random(32)

        def bot_made(n):
            play_human(me, game, 0, rng)
            return sum(1 for p in bot_posts(self.server, game)
                       if p["seat"] == 1 and p["kind"] == "turn") >= n \
                or me.view(game).json()["status"] != "active"
        self.assertTrue(wait_for(lambda: bot_made(3), 60), bot_posts(self.server, game))
        self.assertEqual(me.view(game).json()["status"], "active")


class HumanMatchesCostTheWorkerNothingTest(wp.ServerTestCase):
    """A match without an engine seat is asked about once (its seats are
    given at its creation, engine seats never later): the changes heard of
    it afterwards cost the worker no query (srv/bot/botplay.c, issue 32)."""
    server_env = {"BOT_SCAN_MS": "3600000", "METRICS_TOKEN": "metrics-s3cret"}

    def test_turns_of_a_human_match_are_not_looked_up_each(self):
        lookups = lambda: wp.metric(self.server, "warpost_bot_lookups_total",  # noqa: E731
                                    "metrics-s3cret")
        players = [ml.Client(self.server, "Ann"), ml.Client(self.server, "Ben")]
        g = ml.start_match(players)
        rng = random.Random(5)
        # The first change heard of is looked up. The LISTEN connection may
        # come up after the server answered its health check (a loaded
        # machine: CI once saw no lookup in 30 s), and a post made before
        # it is heard by no one: one more post every two seconds until one
        # is heard.
        heard = False
        for _ in range(30):
            ml.play_random(players, g, 1, rng)
            if wait_for(lambda: lookups() >= 1, 2):
                heard = True
                break
        self.assertTrue(heard, "the worker heard of the match")
        time.sleep(0.5)   # what it heard of the first post, looked up
        before = lookups()
        ml.play_random(players, g, 8, rng)
        # The worker hears of each turn a little later: give it the time.
        wait_for(lambda: lookups() > before, 2)
        self.assertEqual(lookups(), before, "no lookup for the turns after the first")
        # A match with an engine seat is still looked up at each change.
        me = ml.Client(self.server, "Engine")
        b = create_bot_match(me, "wargame-chess", level=1)
        self.assertTrue(wait_for(lambda: sum(1 for p in bot_posts(self.server, b["id"])
                                             if p["seat"] == 1) >= 1, 60))


if __name__ == "__main__":
    unittest.main()
