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
  - a second warning comes only after the seat's next turn begins, not
    when a turn that waited for another seat's reaction runs on (one per
    move, RULINGS.md G8, amended);
  - a vacation pauses the clock, so no warning comes during it;
  - two instances on one database send each warning once;
  - a scan borrows one connection from the pool for all it does (issue 26)."""
import calendar
import json
import os
import re
import subprocess
import threading
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

    def timed(self, a, b, tc, options=None):
        body = {"ruleset": ml.RULESET, "seats": 2, "seat": 0, "time_control": tc}
        if options is not None:
            body["options"] = options
        g = a.req("POST", "/api/games", body)
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

    def post(self, player, game, *actions):
        r = player.turn(game, ml.seq_of(player, game), list(actions))
        self.assertEqual(r.status, 200, r)
        return r.json()

    def test_one_warning_per_move_across_a_reaction(self):
        """RULINGS.md, G8 (amended): a turn that waits for another seat's
        reaction and runs on when it is awaited again is one move, so one
        warning. Ada's turn (two actions, the test ruleset's
        actions_per_turn) runs low and she is warned; she attacks Bob's
        Scout, Bob is asked to dodge and answers; her turn runs on with
        what it had and no second warning comes. Her next turn is a new
        move and gets its own."""
        t0 = FRI + 21 * D
        self.set_time(t0)
        a, b = self.player("Ra"), self.player("Rb")
        g = self.timed(a, b, {"days_per_move": 2}, {"actions_per_turn": 2})   # threshold 12 h
        col = [p["square"][0] for p in b.view(g).json()["state"]["pieces"]
               if p["seat"] == 1 and p["kind"] == "scout" and p["decoy"] is False][0]

        def step(f, r1, r2):
            return {"type": "move", "from": "%s%d" % (f, r1), "to": "%s%d" % (f, r2)}

        def two(player, f, *ranks):   # a turn of two steps along file f
            self.post(player, g, step(f, ranks[0], ranks[1]), step(f, ranks[1], ranks[2]))
        # Quick turns bring the Scouts face to face (Bob's last goes and comes back).
        for player, f, ranks in ((a, col, (1, 2, 3)), (b, col, (8, 7, 6)), (a, col, (3, 4, 5)),
                                 (b, "e", (8, 7, 8))):
            two(player, f, *ranks)
        self.at(t0 + 37 * H)                                  # 11 h left
        [(_, doc)] = self.warnings(a, g, 1)
        self.assertEqual(doc["deadline"], iso(t0 + 2 * D))
        r = self.post(a, g, {"type": "attack", "from": "%s5" % col, "to": "%s6" % col})
        self.assertEqual(r["awaiting"], [1], "Bob is asked to dodge")
        self.set_time(t0 + 38 * H)
        r = self.post(b, g, {"type": "dodge", "dodge": False})
        self.assertEqual(r["awaiting"], [0], "Ada's turn goes on")
        self.assertEqual(a.view(g).json()["clock"]["seats"][0]["deadline"],
                         iso(t0 + 2 * D + H), "her clock runs on with the 11 h it had")
        self.at(t0 + 39 * H)
        self.assertEqual(len(self.queued(a, g)), 1,
                         "RULINGS.md, G8 (amended): one warning per move, not a second "
                         "when a turn that waited for a reaction runs on")
        self.assertEqual(len(self.rx.events(a.path, EVENT, g)), 1)
        # Her turn ends, Bob's quick one too: her next turn is a new move.
        self.post(a, g, step("e", 1, 2))
        self.set_time(t0 + 40 * H)
        two(b, "e", 8, 7, 8)
        seq = a.view(g).json()["seq"]
        self.at(t0 + 40 * H + 35 * H)
        self.assertEqual(len(self.queued(a, g)), 1, "13 h left: not yet")
        self.at(t0 + 40 * H + 37 * H)
        calls = self.warnings(a, g, 2)
        self.assertEqual((calls[1][1]["seq"], calls[1][1]["deadline"]),
                         (seq, iso(t0 + 40 * H + 2 * D)))
        self.assertEqual(self.queued(b, g), [])

    def hold_row(self, game):
        """A psql session holding the games row of `game` (FOR UPDATE)
        until release_row."""
        s = subprocess.Popen([os.path.join(wp.pg_bindir(), "psql"), "-X", "-q", "-At",
                              "-d", self.db.url], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        s.stdin.write("BEGIN;\nSELECT 'held' FROM games WHERE id = %d FOR UPDATE;\n" % game)
        s.stdin.flush()
        self.assertEqual(s.stdout.readline().strip(), "held")
        self.addCleanup(s.kill)
        return s

    def release_row(self, s):
        s.communicate("ROLLBACK;\n", timeout=WAIT)

    def lock_waits(self, n):
        """Waits until n of the servers' connections wait for a row lock."""
        return wp.wait_until(lambda: int(self.db.psql(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND application_name = 'warpostd' AND wait_event_type = 'Lock'")) == n, WAIT, 0.02)

    def test_one_connection_a_scan(self):
        """Issue 26: a scan borrows one connection from the pool for all it
        reads and writes. A server of its own (its own clock, two pooled
        connections): a turn held in the database keeps the first while
        the scan begins, so the scan takes the second; the scan is held at
        its second match until the turn has given the first back, and
        still warns its third match on the connection it began with (a
        trigger notes the backend of each warning). Taking a connection
        per statement took the first one back for the third."""
        t0 = FRI + 28 * D
        self.set_time(t0)
        clock = os.path.join(self.clock_dir, "solo")
        with open(clock, "w") as f:
            f.write("%d\n" % t0)
        solo = wp.Server(self.db.url, env=dict(
            self.server_env, WP_TEST_CLOCK_FILE=clock, DB_POOL_SIZE="2",
            DB_LOCK_TIMEOUT_MS="60000", DB_STATEMENT_TIMEOUT_MS="60000")).start()
        self.addCleanup(solo.stop)
        a, b = self.player("Ca"), self.player("Cb")
        games = [self.timed(a, b, {"days_per_move": 1}) for _ in range(3)]  # threshold 6 h
        c, d = ml.Client(solo, "Cc"), ml.Client(solo, "Cd")
        x = ml.start_match([c, d])
        self.db.psql("CREATE TABLE warned_by (game bigint, pid integer);"
                     " CREATE FUNCTION warned_by() RETURNS trigger LANGUAGE plpgsql AS $$"
                     " BEGIN INSERT INTO warned_by VALUES (NEW.game_id, pg_backend_pid());"
                     " RETURN NULL; END $$;"
                     " CREATE TRIGGER warned_by AFTER INSERT ON time_warnings"
                     " FOR EACH ROW EXECUTE FUNCTION warned_by()")
        self.addCleanup(self.db.psql, "DROP TRIGGER warned_by ON time_warnings;"
                                      " DROP FUNCTION warned_by(); DROP TABLE warned_by")
        acts = c.actions(x)
        moves = [m for m in acts["actions"] if m.get("type") == "move"]
        turn = {}
        held = self.hold_row(x)
        t = threading.Thread(target=lambda: turn.update(r=c.turn(x, acts["seq"], moves[:1])))
        t.start()
        self.addCleanup(t.join, WAIT)
        self.assertTrue(self.lock_waits(1), "the turn waits, holding a connection")
        second = self.hold_row(games[1])
        with open(clock + ".tmp", "w") as f:
            f.write("%d\n" % (t0 + 19 * H))
        os.replace(clock + ".tmp", clock)
        self.assertTrue(self.lock_waits(2), "the scan waits at its second match")
        self.release_row(held)
        t.join(WAIT)
        self.assertEqual(turn["r"].status, 200, turn)
        self.release_row(second)
        self.assertTrue(wp.wait_until(lambda: scanned_at(solo) == t0 + 19 * H, WAIT, 0.02))
        rows = [tuple(map(int, l.split("|"))) for l in self.db.psql(
            "SELECT game, pid FROM warned_by ORDER BY game").split()]
        self.assertEqual([g for g, _ in rows], games)
        self.assertEqual(len({pid for _, pid in rows}), 1, rows)
        for g in games:
            self.warnings(a, g, 1)

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
