"""Time controls and vacations (issue 14 "Correspondence play", Time
controls), through HTTP against the real database. Time moves through the
test server's test-only clock (WP_TEST_CLOCK_FILE, tests/testrules/testd.c),
never by sleeping.

  - a time control is chosen at creation and validated at the edge (400 for
    a wrong shape, 422 for values out of range; nothing is created);
  - only the awaited seat's clock runs; views send deadlines derived from
    the stored post times, so the view's ETag changes only with a post or
    a vacation; the increment is earned per turn up to the maximum bank;
  - weekends (Saturday and Sunday UTC) are not counted when skipped; a
    seat whose time ran out may still resign;
  - the clock is the same for every viewer, spectators included (it shows
    only who is awaited and when: RULINGS.md G5);
  - a vacation pauses the clocks of all the player's matches; the balance
    follows VACATION_EVERY_DAYS and VACATION_MAX_DAYS;
  - a claim before the deadline is refused and changes nothing; after it
    the claimant wins "on time" with a post in the log that the audit
    replays; the flagged seat's turns are refused (time-expired);
  - with 3 seats the flagged seat leaves as a resigning seat does and the
    match goes on;
  - a fresh server process on the same database shows the same clocks;
  - a turn that waits for another seat's reaction keeps its clock stopped,
    with no increment, until it ends; the answer is the reacting seat's
    move (RULINGS.md G8, amended)."""
import calendar
import time as _time

import matchlib as ml
from matchlib import wp

D = 86400
H = 3600
MON = calendar.timegm((2030, 1, 7, 0, 0, 0))   # a Monday


def iso(t):
    return _time.strftime("%Y-%m-%dT%H:%M:%SZ", _time.gmtime(t))


class ClockTest(ml.ClockTestCase):

    clock_start = MON
    clock_env = {"VACATION_EVERY_DAYS": "20", "VACATION_MAX_DAYS": "3"}

    def players(self, *names):
        return [ml.Client(self.server, n) for n in names]

    def timed(self, players, tc, options=None):
        body = {"ruleset": ml.RULESET, "seats": len(players), "seat": 0, "time_control": tc}
        if options is not None:
            body["options"] = options
        g = players[0].req("POST", "/api/games", body)
        self.assertEqual(g.status, 201, g)
        g = g.json()
        self.assertEqual(g["time_control"]["days_per_move"], tc["days_per_move"])
        for p, inv in zip(players[1:], g["invitations"]):
            self.assertEqual(p.join(g["id"], inv["code"]).status, 200)
        return g["id"]

    def clock(self, player, game):
        r = player.view(game)
        self.assertEqual(r.status, 200, r)
        return r.json()["clock"]["seats"]

    def move(self, player, game):
        """One post of the awaited player: a move (no reaction owed)."""
        a = player.actions(game)
        self.assertTrue(a["awaited"], a)
        moves = [x for x in a["actions"] if x.get("type") == "move"] or a["actions"]
        return player.turn(game, a["seq"], [moves[0]])

    def line(self, player, game):
        games = player.req("GET", "/api/me/games").json()["games"]
        return [g for g in games if g["id"] == game][0]

    def test_time_control_is_validated_at_creation(self):
        self.set_time(MON)
        a, = self.players("Ann")
        bad = [({"days_per_move": "3"}, 400), ({}, 400), ({"days_per_move": 3, "x": 1}, 400),
               ({"days_per_move": 3, "skip_weekends": "yes"}, 400), ([3], 400),
               ({"days_per_move": 0}, 422), ({"days_per_move": 61}, 422),
               ({"days_per_move": 5, "max_bank_days": 4}, 422),
               ({"days_per_move": 3, "increment_days": 31}, 422)]
        for tc, status in bad:
            with self.subTest(tc=tc):
                r = a.req("POST", "/api/games", {"ruleset": ml.RULESET, "time_control": tc})
                self.assertProblem(r, status, "invalid-request" if status == 400
                                   else "invalid-option", "time_control")
        self.assertEqual(a.req("GET", "/api/me/games").json()["count"], 0, "nothing created")
        b, = self.players("Ben")
        game = ml.start_match([a, b])
        v = a.view(game).json()
        self.assertIsNone(v["time_control"])
        self.assertIsNone(v["clock"])
        self.assertIsNone(self.line(a, game)["deadline"])
        self.set_time(MON + 365 * D)
        self.assertProblem(b.req("POST", "/api/games/%d/claim" % game), 409, "time-not-expired")

    def test_only_the_awaited_clock_runs_with_increment_and_bank(self):
        self.set_time(MON)
        a, b = self.players("Ada", "Bob")
        game = self.timed([a, b], {"days_per_move": 3, "increment_days": 1, "max_bank_days": 4})
        v = a.view(game)
        etag = v.headers["etag"]
        self.assertEqual(v.json()["time_control"], {"days_per_move": 3, "increment_days": 1,
                                                    "max_bank_days": 4, "skip_weekends": False})
        c = self.clock(b, game)
        spectator = self.server.request("GET", "/api/games/%d" % game).json()["clock"]["seats"]
        self.assertEqual(spectator, c, "every viewer sees the same clock (G5)")
        self.assertTrue(c[0]["awaited"])
        self.assertEqual(c[0]["deadline"], iso(MON + 3 * D))
        self.assertEqual(c[0]["since"], iso(MON))
        self.assertFalse(c[1]["awaited"])
        self.assertIsNone(c[1]["deadline"])
        self.assertEqual(c[1]["bank_seconds"], 3 * D)

        self.set_time(MON + D)
        self.assertEqual(self.clock(b, game), c, "a deadline, not a countdown")
        self.assertEqual(a.view(game, {"If-None-Match": etag}).status, 304,
                         "time passing changes no ETag")
        self.assertEqual(self.line(a, game)["seconds_left"], 2 * D)
        self.assertEqual(self.line(a, game)["deadline"], iso(MON + 3 * D))
        self.assertIsNone(self.line(b, game)["seconds_left"], "Bob's clock does not run")

        self.assertEqual(self.move(a, game).status, 200)
        c = self.clock(b, game)
        self.assertEqual(c[0]["bank_seconds"], 3 * D, "2 days left + 1 increment")
        self.assertEqual(c[1]["deadline"], iso(MON + 4 * D), "Bob's clock runs from his turn")
        self.assertNotEqual(a.view(game).headers["etag"], etag)
        # Quick turns earn a day each, up to the maximum bank of 4 days.
        for t in range(3):
            self.set_time(MON + D + (2 * t + 1) * H)
            self.assertEqual(self.move(b, game).status, 200)
            self.set_time(MON + D + (2 * t + 2) * H)
            self.assertEqual(self.move(a, game).status, 200)
        c = self.clock(a, game)
        self.assertEqual(c[0]["bank_seconds"], 4 * D, "capped at max_bank_days")
        self.assertEqual(c[1]["bank_seconds"], 4 * D, "Bob's turn began with a full bank")
        self.assertEqual(c[1]["deadline"], iso(MON + D + 6 * H + 4 * D))

    def same_clock_from_the_database(self, game):
        """A fresh process on the same database (no cache) derives the
        same clocks."""
        other = wp.Server(self.db.url, env=self.server_env).start()
        try:
            self.assertEqual(other.request("GET", "/api/games/%d" % game).json()["clock"],
                             self.server.request("GET", "/api/games/%d" % game).json()["clock"])
        finally:
            other.stop()

    def post(self, player, game, *actions):
        r = player.turn(game, ml.seq_of(player, game), list(actions))
        self.assertEqual(r.status, 200, r)
        return r.json()

    def test_a_turn_waiting_for_a_reaction(self):
        """RULINGS.md, G8 (amended): Ada's turn (two actions, Skirmish's
        actions_per_turn) attacks Bob's Scout and Bob is asked to dodge:
        Ada's clock stops with what it had, no increment and no floor;
        Bob's answer is his move (charged, then his increment); Ada's turn
        runs on with what it had and earns its increment when it ends."""
        self.set_time(MON)
        a, b = self.players("Ada", "Bob")
        game = self.timed([a, b], {"days_per_move": 2, "increment_days": 1,
                                   "max_bank_days": 10}, {"actions_per_turn": 2})
        mine = b.view(game).json()["state"]["pieces"]
        col = [p["square"][0] for p in mine
               if p["seat"] == 1 and p["kind"] == "scout" and p["decoy"] is False][0]

        def step(f, r1, r2):
            return {"type": "move", "from": "%s%d" % (f, r1), "to": "%s%d" % (f, r2)}
        # Two quick turns each bring the Scouts face to face: 4 days each.
        self.post(a, game, step(col, 1, 2), step(col, 2, 3))
        self.post(b, game, step(col, 8, 7), step(col, 7, 6))
        self.post(a, game, step(col, 3, 4), step(col, 4, 5))
        self.post(b, game, step("e", 8, 7), step("e", 7, 8))
        c = self.clock(a, game)
        self.assertEqual((c[0]["bank_seconds"], c[1]["bank_seconds"]), (4 * D, 4 * D))

        self.set_time(MON + D)
        r = self.post(a, game, {"type": "attack", "from": "%s5" % col, "to": "%s6" % col})
        self.assertEqual(r["awaiting"], [1], "Bob is asked to dodge")
        c = self.clock(b, game)
        self.assertFalse(c[0]["awaited"])
        self.assertEqual(c[0]["bank_seconds"], 3 * D,
                         "RULINGS.md, G8 (amended): the waiting turn keeps what it had, "
                         "no increment")
        self.assertEqual((c[1]["since"], c[1]["deadline"]), (iso(MON + D), iso(MON + 5 * D)),
                         "the reacting seat's clock runs")
        self.set_time(MON + D + 12 * H)
        self.assertEqual(self.clock(b, game), c, "RULINGS.md, G8 (amended): Ada's clock is "
                                                 "stopped while Bob decides")
        self.assertIsNone(self.line(a, game)["seconds_left"])

        r = self.post(b, game, {"type": "dodge", "dodge": False})
        self.assertEqual(r["awaiting"], [0], "Ada's turn goes on")
        c = self.clock(a, game)
        self.assertEqual(c[1]["bank_seconds"], 4 * D - 12 * H + D,
                         "RULINGS.md, G8 (amended): the answer is Bob's move: charged, "
                         "then his increment")
        self.assertFalse(c[1]["awaited"])
        self.assertEqual((c[0]["bank_seconds"], c[0]["since"], c[0]["deadline"]),
                         (3 * D, iso(MON + D + 12 * H), iso(MON + 4 * D + 12 * H)),
                         "RULINGS.md, G8 (amended): Ada's turn runs on with what it had")

        self.set_time(MON + D + 14 * H)
        r = self.post(a, game, step("e", 1, 2))
        self.assertEqual(r["awaiting"], [1], "Ada's turn ended")
        c = self.clock(b, game)
        self.assertEqual(c[0]["bank_seconds"], 3 * D - 2 * H + D,
                         "RULINGS.md, G8 (amended): the increment comes when the turn ends")
        self.assertEqual((c[1]["bank_seconds"], c[1]["since"]),
                         (4 * D + 12 * H, iso(MON + D + 14 * H)))
        self.same_clock_from_the_database(game)

    def test_claim_on_time_and_a_fresh_server(self):
        self.set_time(MON)
        a, b = self.players("Al", "Bea")
        game = self.timed([a, b], {"days_per_move": 2})
        self.set_time(MON + 2 * D - 1)
        seq = ml.seq_of(a, game)
        self.assertProblem(b.req("POST", "/api/games/%d/claim" % game), 409, "time-not-expired")
        self.assertEqual(ml.seq_of(a, game), seq, "a refused claim changes nothing")
        self.assertFalse(self.line(b, game)["can_claim"])

        self.same_clock_from_the_database(game)

        self.set_time(MON + 2 * D)
        self.assertProblem(self.move(a, game), 409, "time-expired")
        self.assertProblem(a.req("POST", "/api/games/%d/claim" % game), 409, "time-expired")
        self.assertTrue(self.line(b, game)["can_claim"])
        self.assertEqual(ml.seq_of(a, game), seq)
        r = b.req("POST", "/api/games/%d/claim" % game)
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json()["status"], "over")
        v = a.view(game).json()
        self.assertEqual(v["result"]["winners"], [1])
        self.assertEqual(v["result"]["reason"], "time")
        self.assertFalse(any(s["awaited"] for s in v["clock"]["seats"]), "the clocks stopped")
        posts = a.req("GET", "/api/games/%d/turns" % game).json()["posts"]
        self.assertEqual((posts[-1]["kind"], posts[-1]["seat"]), ("claim", 1))
        self.assertEqual(posts[-1]["at"], iso(MON + 2 * D), "posts carry the clock's time")
        audit = a.req("GET", "/api/games/%d/verify" % game).json()
        self.assertTrue(audit["verified"], audit)
        self.assertProblem(b.req("POST", "/api/games/%d/claim" % game), 409, "game-over")

    def test_weekends_are_not_counted(self):
        fri_noon = MON + 4 * D + 12 * H
        self.set_time(fri_noon)
        a, b = self.players("Wes", "Kay")
        game = self.timed([a, b], {"days_per_move": 1, "skip_weekends": True})
        self.assertEqual(self.clock(a, game)[0]["deadline"], iso(MON + 7 * D + 12 * H),
                         "Friday noon + 1 day, weekend skipped: Monday noon")
        self.set_time(MON + 7 * D + 11 * H)
        self.assertEqual(self.line(a, game)["seconds_left"], H)
        self.assertProblem(b.req("POST", "/api/games/%d/claim" % game), 409, "time-not-expired")
        self.set_time(MON + 7 * D + 12 * H)
        self.assertProblem(self.move(a, game), 409, "time-expired")
        r = a.req("POST", "/api/games/%d/resign" % game)
        self.assertEqual(r.status, 200, "a seat out of time may still resign")
        self.assertEqual(a.view(game).json()["result"]["winners"], [1])

    def test_a_vacation_pauses_all_matches(self):
        V = 80 * D   # four days earned (one per 20), three kept (VACATION_MAX_DAYS)
        self.set_time(MON)
        a, b, c = self.players("Vic", "Bo", "Cy")
        self.set_time(MON + V)
        r = a.req("GET", "/api/me/vacation")
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json()["balance_days"], 3,
                         "one day per 20 days (VACATION_EVERY_DAYS), at most 3 (VACATION_MAX_DAYS)")
        self.assertEqual((r.json()["earn_every_days"], r.json()["max_days"]), (20, 3))
        self.assertIsNone(r.json()["on_vacation_until"])
        g1 = self.timed([a, b], {"days_per_move": 3})
        g2 = self.timed([a, c], {"days_per_move": 3})
        etag = a.view(g1).headers["etag"]
        self.set_time(MON + V + D)
        for body in ({"days": 4}, {"days": 0}, {"days": "2"}, {}):
            with self.subTest(body=body):
                self.assertProblem(a.req("POST", "/api/me/vacation", body), 400,
                                   "invalid-request")
        self.assertEqual(a.req("GET", "/api/me/vacation").json()["vacations"], [])
        r = a.req("POST", "/api/me/vacation", {"days": 2})
        self.assertEqual(r.status, 201, r)
        self.assertEqual(r.json()["balance_days"], 1)
        self.assertEqual(r.json()["on_vacation_until"], iso(MON + V + 3 * D))
        self.assertProblem(a.req("POST", "/api/me/vacation", {"days": 1}), 409,
                           "vacation-unavailable")
        self.assertNotEqual(a.view(g1).headers["etag"], etag, "the vacation is a new version")
        for g, opp in ((g1, b), (g2, c)):
            cl = self.clock(opp, g)
            self.assertEqual(cl[0]["deadline"], iso(MON + V + 5 * D), "3 days + 2 of vacation")
            self.assertEqual(cl[0]["last_vacation"], {"from": iso(MON + V + D),
                                                      "until": iso(MON + V + 3 * D)})
            self.set_time(MON + V + 4 * D)
            self.assertProblem(opp.req("POST", "/api/games/%d/claim" % g), 409,
                               "time-not-expired")
            self.assertEqual(self.line(a, g)["seconds_left"], D)
        # Back, with one day left: two are too many.
        self.assertProblem(a.req("POST", "/api/me/vacation", {"days": 2}), 409,
                           "vacation-unavailable")
        self.assertEqual(len(a.req("GET", "/api/me/vacation").json()["vacations"]), 1)

    def test_three_seats_the_flagged_seat_leaves(self):
        self.set_time(MON)
        a, b, c = self.players("Xa", "Xb", "Xc")
        game = self.timed([a, b, c], {"days_per_move": 1})
        self.set_time(MON + D)
        r = c.req("POST", "/api/games/%d/claim" % game)
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json()["status"], "active", "two seats play on")
        v = b.view(game).json()
        self.assertEqual(v["awaiting"], [1])
        self.assertEqual(v["state"]["out"], 1, "seat 0 is out, as after a resignation")
        self.assertProblem(a.req("POST", "/api/games/%d/resign" % game), 409, "not-in-play")
        c1 = v["clock"]["seats"][1]
        self.assertEqual(c1["deadline"], iso(MON + 2 * D))
        self.assertEqual(self.move(b, game).status, 200)
        self.assertEqual(c.req("POST", "/api/games/%d/resign" % game).status, 200)
        audit = a.req("GET", "/api/games/%d/verify" % game).json()
        self.assertTrue(audit["verified"], "the claim in the middle replays: %r" % audit)


if __name__ == "__main__":
    wp.main()
