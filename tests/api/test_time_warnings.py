"""Time running out (issue 14, "Notifications"): the notify worker warns an
awaited seat once its time left (as the clock derives it: weekends not
counted when skipped, vacations) falls to the threshold, a day or a
quarter of the time per move if shorter (README "Notifications"), with one
"time_running_out" webhook call per (match, seat, turn), against a real
local HTTP receiver (test_webhooks.Receiver). Time moves only through the
test server's clock (WP_TEST_CLOCK_FILE), never by sleeping; a scan runs
once the clock has moved a minute, and the tests wait for a scan at the
new time to complete (the gauge warpost_time_warning_scan_timestamp_seconds)
before saying that nothing came.

  - the awaited seat is warned once, with its deadline and only what it
    may see (RULINGS.md G5); the other seat is not, a match without a
    clock never is, a seat out of time is not;
  - weekends not counted delay the warning as they delay the deadline;
  - a second warning comes only after the seat's next turn begins;
  - a vacation pauses the clock, so no warning comes during it;
  - two instances on one database send each warning once."""
import calendar
import json
import os
import re
import time as _time

import matchlib as ml
from matchlib import wp
import test_webhooks as twh

D = 86400
H = 3600
FRI = calendar.timegm((2030, 1, 11, 0, 0, 0))   # a Friday
EVENT = "time_running_out"
WAIT = 15


def iso(t):
    return _time.strftime("%Y-%m-%dT%H:%M:%SZ", _time.gmtime(t))


def scanned_at(server):
    """The clock of the server's last completed scan."""
    body = server.request("GET", "/metrics").body.decode()
    m = re.search(r"(?m)^warpost_time_warning_scan_timestamp_seconds (\d+)", body)
    assert m, body
    return int(m.group(1))


class TimeWarningsTest(wp.ServerTestCase):

    @classmethod
    def setUpClass(cls):
        cls.clock_dir = wp.make_tmpdir("wp-warn-")
        cls.clock_file = os.path.join(cls.clock_dir, "now")
        cls.server_env = dict(twh.FAST, WEBHOOK_ALLOW_PRIVATE="1", WP_TEST_CLOCK_FILE=cls.clock_file,
                              VACATION_EVERY_DAYS="1", VACATION_MAX_DAYS="10")
        cls.set_time(FRI)
        super().setUpClass()
        cls.addClassCleanup(wp.remove_tmpdir, cls.clock_dir)
        cls.rx = twh.Receiver()
        cls.addClassCleanup(cls.rx.close)

    @classmethod
    def set_time(cls, t):
        with open(cls.clock_file + ".tmp", "w") as f:
            f.write("%d\n" % t)
        os.replace(cls.clock_file + ".tmp", cls.clock_file)

    def at(self, t, *servers):
        """Moves the clock (by more than a minute) and returns once every
        server has completed a scan begun after the move."""
        self.set_time(t)
        for s in servers or (self.server,):
            self.assertTrue(wp.wait_until(lambda: scanned_at(s) == t, WAIT, 0.02))

    def player(self, name):
        p = ml.Client(self.server, name)
        path = "/%s/%d" % (name.lower(), p.id)
        h = twh.hook(p, self.rx.url(path))
        self.rx.secrets[path] = h["secret"]
        p.path, p.hook = path, h["id"]
        return p

    def timed(self, a, b, tc):
        g = a.req("POST", "/api/games", {"ruleset": ml.RULESET, "seats": 2, "seat": 0,
                                         "time_control": tc})
        self.assertEqual(g.status, 201, g)
        g = g.json()
        self.assertEqual(b.join(g["id"], g["invitations"][0]["code"]).status, 200)
        return g["id"]

    def move(self, player, game):
        a = player.actions(game)
        self.assertTrue(a["awaited"], a)
        moves = [x for x in a["actions"] if x.get("type") == "move"] or a["actions"]
        self.assertEqual(player.turn(game, a["seq"], [moves[0]]).status, 200)

    def queued(self, player, game):
        """The player's time warnings for the match, from the delivery log
        (written in the scan's transaction, before any call)."""
        r = player.req("GET", "/api/me/webhooks/%d/deliveries" % player.hook)
        self.assertEqual(r.status, 200, r)
        return [d for d in r.json()["deliveries"] if d["event"] == EVENT and d["game"] == game]

    def warnings(self, player, game, count):
        got = self.rx.wait(player.path, EVENT, game, count)
        self.assertEqual(len(got or []), count, got)
        return got

    def test_warned_once_per_turn_weekends_not_counted(self):
        self.set_time(FRI)
        a, b = self.player("Wa"), self.player("Wb")
        g = self.timed(a, b, {"days_per_move": 2})          # threshold 12 h
        w = self.timed(a, b, {"days_per_move": 2, "skip_weekends": True})
        u = ml.start_match([a, b])                            # no clock
        # Saturday 11:00: 13 h left in g, a day in w (the weekend is not counted).
        self.at(FRI + D + 11 * H)
        self.assertEqual([self.queued(a, x) for x in (g, w, u)], [[], [], []])
        # Saturday 13:00: 11 h left in g.
        self.at(FRI + D + 13 * H)
        [(call, doc)] = self.warnings(a, g, 1)
        self.assertTrue(call["signed"])
        self.assertEqual(set(doc), twh.PAYLOAD_KEYS | {"deadline"})
        self.assertEqual((doc["seat"], doc["seq"], doc["awaiting"], doc["status"], doc["deadline"]),
                         (0, a.view(g).json()["seq"], [0], "active", iso(FRI + 2 * D)))
        self.assertEqual(call["headers"]["x-warpost-event"], EVENT)
        # Wb offers a draw: a post, a new version, the same turn of Wa's.
        # Another scan: still one (one per turn, not per post); nothing in
        # w nor in the match without a clock; nothing to the seat not awaited.
        self.assertEqual(b.req("POST", "/api/games/%d/draw" % g, {"action": "offer"}).status, 200)
        self.assertGreater(a.view(g).json()["seq"], doc["seq"])
        self.at(FRI + D + 14 * H)
        self.assertEqual(len(self.queued(a, g)), 1)
        self.assertEqual([self.queued(a, w), self.queued(a, u)], [[], []])
        self.assertEqual([self.queued(b, x) for x in (g, w, u)], [[], [], []])
        # Monday 13:00: 11 counted hours left in w; g ran out (no warning
        # that late, and still one).
        self.at(FRI + 3 * D + 13 * H)
        [(_, doc)] = self.warnings(a, w, 1)
        self.assertEqual(doc["deadline"], iso(FRI + 4 * D))
        self.assertEqual(len(self.queued(a, g)), 1)
        # Wa moves, Wb answers an hour later: Wa's new turn gets its own
        # warning when it runs low, Wb's short turn none.
        self.move(a, w)
        self.set_time(FRI + 3 * D + 14 * H)
        self.move(b, w)
        seq = a.view(w).json()["seq"]
        self.at(FRI + 3 * D + 14 * H + 35 * H)
        self.assertEqual(len(self.queued(a, w)), 1, "13 h left: not yet")
        self.at(FRI + 3 * D + 14 * H + 37 * H)
        calls = self.warnings(a, w, 2)
        self.assertEqual((calls[1][1]["seq"], calls[1][1]["deadline"]),
                         (seq, iso(FRI + 5 * D + 14 * H)))
        self.assertEqual(self.queued(b, w), [])
        self.assertEqual(self.rx.events(b.path, EVENT), [])

    def test_no_warning_during_a_vacation(self):
        t0 = FRI + 7 * D
        self.set_time(t0)
        a, b, c, d = (self.player(n) for n in ("Va", "Vb", "Vc", "Vd"))
        self.set_time(t0 + 5 * D)          # five vacation days earned
        g = self.timed(a, b, {"days_per_move": 1})   # threshold 6 h
        control = self.timed(c, d, {"days_per_move": 1})
        self.set_time(t0 + 5 * D + H)
        self.assertEqual(a.req("POST", "/api/me/vacation", {"days": 2}).status, 201)
        # 19 h later: 5 h left in the control match, 23 h (paused) in g.
        self.at(t0 + 5 * D + 19 * H)
        self.warnings(c, control, 1)
        self.assertEqual(self.queued(a, g), [])
        # Back from vacation, 18 h of the turn gone: the warning comes.
        self.at(t0 + 7 * D + H + 18 * H)
        [(_, doc)] = self.warnings(a, g, 1)
        self.assertEqual(doc["deadline"], iso(t0 + 8 * D))
        self.assertEqual(self.queued(b, g), [])

    def test_two_instances_warn_once(self):
        other = wp.Server(self.db.url, env=self.server_env).start()
        self.addCleanup(other.stop)
        t0 = FRI + 14 * D
        self.set_time(t0)
        a, b = self.player("Ta"), self.player("Tb")
        games = [self.timed(a, b, {"days_per_move": 1}) for _ in range(3)]
        self.at(t0 + 19 * H, self.server, other)
        for g in games:
            self.warnings(a, g, 1)
        self.at(t0 + 20 * H, self.server, other)
        for g in games:
            self.assertEqual(len(self.queued(a, g)), 1)
            self.assertEqual(len(self.rx.events(a.path, EVENT, g)), 1)
        n = json.loads(self.db.psql("SELECT json_agg(seat) FROM time_warnings"
                                    " WHERE game_id IN (%s)" % ",".join(map(str, games))))
        self.assertEqual(n, [0, 0, 0])


if __name__ == "__main__":
    wp.main()
