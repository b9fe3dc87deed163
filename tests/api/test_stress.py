"""Every surface at once, for a while, under the sanitizers (issue 24,
item 1: warpostd crashed under mixed load, 5 webhooks failing and retried
while a player posted quick turns, another client fetched board.png of a
Blood Chess match and took back a post with undo).

One warpostd on a fresh database: warpostd-test, the product program with
the test clock (WP_TEST_CLOCK_FILE; it offers the five real rulesets, and
only its clock lets a timed match run out within seconds). Webhooks may call
loopback; the receiver fails every call (500, a dropped connection, or a
hang past WEBHOOK_TIMEOUT), so deliveries are retried; a real SMTP server
(aiosmtpd) takes the digests of a short DIGEST_PERIOD_SECONDS. For
WP_STRESS_SECONDS (default 20) client threads run side by side, all to
127.0.0.1, each loop bounded in count and time:

  - a player pair per ruleset (chesswar, wargame-chess, officers-chess,
    blood-chess, confrontation) posting random legal turns from GET
    .../actions, taking some back with undo, offering, declining and
    accepting draws, resigning and starting again; every player takes
    digests, Blood Chess's players and the timed pair have 5 webhooks each;
  - a timed pair: a match of one day per move, the test clock moved into
    the warning window (a scan there), a claim too early, then past the
    deadline and the claim on time;
  - readers: board.svg and board.png (also ?at= and If-None-Match), views
    at past posts, the post log, verify of finished matches, long-polls
    (?wait= with If-None-Match) that run out;
  - streams: SSE of matches and of /api/me/events, and long-polls, on raw
    sockets closed early;
  - the webhooks re-registered, their delivery logs read, digests turned
    off and on, /metrics.

Fails on: warpostd dying, any 5xx (503 included: a renderer that died or
timed out is a 503 `overloaded`; the database limits are raised so that
load alone sheds nothing), an answer that breaks the OpenAPI document, a
connection the server dropped, any sanitizer report or crash backtrace in
its stderr (the renderer's included: it shares it), a renderer failure in
/metrics, and a stop that is not clean (exit code 0). Each surface must have
been exercised (counts > 0), so the test cannot pass by doing nothing.
WP_STRESS_SEED replays the clients' random choices (the server's timing
still differs)."""
import calendar
import collections
import http.client
import os
import random
import re
import socket
import sys
import threading
import time
import traceback

try:
    from aiosmtpd.controller import Controller
except ImportError:
    sys.path.append("/usr/lib/python3/dist-packages")   # as test_digest.py
    from aiosmtpd.controller import Controller

import matchlib as ml
from matchlib import wp
import test_digest as tdg
import test_webhooks as twh

SECONDS = float(os.environ.get("WP_STRESS_SECONDS") or 20)
SEED = int(os.environ.get("WP_STRESS_SEED") or random.SystemRandom().randrange(1 << 30))
RULESETS = ("chesswar", "wargame-chess", "officers-chess", "blood-chess", "confrontation")
HOOKS = 5                 # per player: the most a player may have
# The players with webhooks: Blood Chess's (the crash's match) and the timed
# pair's (time warnings go to webhooks). The worker sends the due rows
# oldest first, 8 a round, so a retry waits behind every newer event: with
# all five pairs hooked the backlog outgrew the worker on a busy machine
# and no retry was ever made in the run. The other pairs' matches run with
# notifications off (games.notify false), the other path of a turn.
HOOKED = ("blood-chess", "timed")
POSTS_PER_MATCH = 60      # then the seat to move resigns and a new match starts
MAX_LOOPS = 100000        # a bound on every loop besides its deadline
TIMEOUT = 120             # a hang detector, not a time limit
DAY = 86400
H = 3600
SANITIZER = re.compile(r"ERROR: AddressSanitizer|runtime error:|WARNING: ThreadSanitizer|"
                       r"LeakSanitizer|warpostd: fatal signal|board\.png: the renderer")


class FailingReceiver(twh.Receiver):
    """test_webhooks' receiver, made to fail every call: mostly a 500 at
    once, 1 in 10 a connection closed with no answer, 9 in 100 a 500 after
    0.1 s, 1 in 100 a hang past WEBHOOK_TIMEOUT (1 s): the worker sends 8
    calls a round, so a hang holds up its round."""

    def __init__(self, rng):
        super().__init__()
        self.rng = rng
        handler = self.httpd.RequestHandlerClass
        outer = self

        def do_POST(h):
            h.rfile.read(int(h.headers.get("Content-Length", "0")))
            with outer.lock:
                outer.calls.append({"path": h.path, "event_id": h.headers.get("X-Warpost-Event-Id"),
                                    "event": h.headers.get("X-Warpost-Event")})
                roll = outer.rng.random()
            if roll < 0.1:
                h.close_connection = True   # closed with no answer
                return
            if roll < 0.11:
                time.sleep(1.3)             # past WEBHOOK_TIMEOUT
            elif roll < 0.2:
                time.sleep(0.1)
            h.send_response(500)
            h.send_header("Content-Length", "0")
            h.end_headers()

        handler.do_POST = do_POST
        self.httpd.daemon_threads = True


class Load:
    """What the clients saw, shared by their threads."""

    def __init__(self, server, deadline):
        self.server = server
        self.deadline = deadline
        self.lock = threading.Lock()
        self.count = collections.Counter()     # (surface, status) -> n
        self.failures = []                     # what fails the test
        self.games = []                        # (id, ruleset, [clients]) to read and watch

    def running(self):
        return time.monotonic() < self.deadline

    def note(self, surface, status):
        with self.lock:
            self.count[(surface, status)] += 1

    def fail(self, what):
        with self.lock:
            if len(self.failures) < 50:
                self.failures.append(what)

    def n(self, surface, status=None):
        with self.lock:
            return sum(v for (s, st), v in self.count.items()
                       if s == surface and (status is None or st == status))

    def call(self, surface, method, path, body=None, who=None, headers=None):
        """One request; every answer counted, 5xx, a transport error or an
        answer outside the OpenAPI document noted as a failure. None when
        no answer came."""
        h = dict(headers or {})
        if who is not None:
            h.update(ml.auth(who.token))
        try:
            r = self.server.request(method, path, body, h, timeout=TIMEOUT)
        except (OSError, http.client.HTTPException) as e:
            self.fail("%s %s: no answer (%r)" % (method, path, e))
            return None
        except AssertionError as e:       # matchlib's OpenAPI check
            self.fail("%s %s: %s" % (method, path, str(e)[:600]))
            return None
        self.note(surface, r.status)
        if r.status >= 500:
            self.fail("%s %s: %d %r" % (method, path, r.status, r.body[:400]))
        return r

    def add_game(self, game, ruleset, players):
        with self.lock:
            self.games.append((game, ruleset, players))

    def pick_game(self, rng):
        with self.lock:
            return rng.choice(self.games) if self.games else None


def json_or(r, default=None):
    try:
        return r.json() if r is not None and r.status in (200, 201) else default
    except AssertionError:
        return default


class StressTest(wp.ServerTestCase):

    @classmethod
    def setUpClass(cls):
        cls.rng = random.Random(SEED)
        cls.box = tdg.Mailbox()
        port = wp.free_port()
        cls.smtp = Controller(cls.box, hostname="127.0.0.1", port=port)
        cls.smtp.start()
        cls.addClassCleanup(cls.smtp.stop)
        cls.rx = FailingReceiver(random.Random(SEED + 1))
        cls.addClassCleanup(cls.rx.close)
        cls.clock_dir = wp.make_tmpdir("wp-stress-")
        cls.addClassCleanup(wp.remove_tmpdir, cls.clock_dir)
        cls.clock_file = os.path.join(cls.clock_dir, "now")
        cls.now = int(time.time())
        cls.set_time(cls.now)
        cls.server_env = {
            "WP_TEST_CLOCK_FILE": cls.clock_file,
            "WEBHOOK_ALLOW_PRIVATE": "1", "WEBHOOK_RETRY_BASE_MS": "20",
            "WEBHOOK_RETRY_MAX_MS": "200", "WEBHOOK_MAX_ATTEMPTS": "6", "WEBHOOK_TIMEOUT": "1",
            "NOTIFY_POLL_MS": "50", "PUBLIC_URL": "https://warpost.test",
            "SMTP_URL": "smtp://127.0.0.1:%d" % port, "SMTP_FROM": "warpost@test.example",
            "DIGEST_PERIOD_SECONDS": "2",
            # Shedding load is right for a server, not what this test is
            # after: no 503 from waiting for the pool, a lock or a render
            # on a busy machine under the sanitizers.
            "DB_POOL_WAIT_MS": "60000", "DB_LOCK_TIMEOUT_MS": "60000",
            "DB_STATEMENT_TIMEOUT_MS": "60000", "RENDER_TIMEOUT_MS": "60000",
            # nor from a health check or a connection late on a loaded
            # machine, which the breaker would take for an outage
            "DB_CHECK_TIMEOUT_MS": "60000", "DB_CONNECT_TIMEOUT_MS": "60000",
        }
        super().setUpClass()

    @classmethod
    def set_time(cls, t):
        with open(cls.clock_file + ".tmp", "w") as f:
            f.write("%d\n" % t)
        os.replace(cls.clock_file + ".tmp", cls.clock_file)
        cls.now = t

    # ------------------------------------------------------------ players

    def player(self, name, hooks):
        """A player with `hooks` webhooks to the failing receiver and a digest."""
        p = ml.Client(self.server, name)
        for i in range(hooks):
            r = self.load.call("webhook", "POST", "/api/me/webhooks",
                               {"url": self.rx.url("/%d/%d" % (p.id, i))}, p)
            if r is not None and r.status != 201:
                self.load.fail("webhook registration: %r" % (r,))
        p.address = "p%d@example.org" % p.id
        self.load.call("digest", "PUT", "/api/me/email",
                       {"address": p.address, "digest": "daily"}, p)
        return p

    def options(self, ruleset):
        opts = self.ruleset_options[ruleset]
        for limit, n in (("turn_limit", 40), ("round_limit", 20)):
            if limit in opts:
                return {limit: n}
        return None

    def new_match(self, ruleset, players, rng, time_control=None):
        body = {"ruleset": ruleset, "seats": len(players), "seat": 0,
                "client_seed": "s%d" % rng.randrange(1000)}
        if self.options(ruleset):
            body["options"] = self.options(ruleset)
        if time_control:
            body["time_control"] = time_control
        g = json_or(self.load.call("create", "POST", "/api/games", body, players[0]))
        if g is None or "id" not in g:
            return None
        for p, inv in zip(players[1:], g["invitations"]):
            r = self.load.call("join", "POST", "/api/games/%d/join" % g["id"],
                               {"code": inv["code"]}, p)
            if r is None or r.status != 200:
                return None
        self.load.add_game(g["id"], ruleset, players)
        return g["id"]

    def view(self, game, who=None):
        return json_or(self.load.call("view", "GET", "/api/games/%d" % game, who=who))

    def post_one(self, game, players, rng, surface):
        """One random legal turn of an awaited seat; (seat, answer) or None."""
        v = self.view(game, players[0])
        if v is None or v["status"] != "active" or not v["awaiting"]:
            return None
        seat = rng.choice(v["awaiting"])
        p = players[seat]
        a = json_or(self.load.call("actions", "GET", "/api/games/%d/actions" % game, who=p))
        if not a or not a["actions"]:
            return None
        r = self.load.call(surface, "POST", "/api/games/%d/turns" % game,
                           {"seq": a["seq"], "actions": [rng.choice(a["actions"])]}, p)
        return seat, r

    def play(self, ruleset, rng):
        """A pair (or more) of players at one ruleset until the deadline."""
        ld = self.load
        seats = self.ruleset_seats[ruleset]
        hooks = HOOKS if ruleset in HOOKED else 0
        players = [self.player("%s %d" % (ruleset, i), hooks) for i in range(seats)]
        game, posts = None, 0
        for _ in range(MAX_LOOPS):
            if not ld.running():
                return
            if game is None:
                game, posts = self.new_match(ruleset, players, rng), 0
                continue
            done = self.post_one(game, players, rng, "turn " + ruleset)
            if done is None or posts >= POSTS_PER_MATCH:
                v = self.view(game)
                if v is not None and v["status"] == "active" and v["awaiting"]:
                    ld.call("resign", "POST", "/api/games/%d/resign" % game,
                            who=players[rng.choice(v["awaiting"])])
                game = None
                continue
            posts += 1
            seat, r = done
            roll = rng.random()
            if roll < 0.25 and r is not None and r.status == 200:
                # taken back at once, as the crash's client did
                ld.call("undo", "POST", "/api/games/%d/undo" % game,
                        {"seq": r.json()["seq"]}, players[seat])
            elif roll < 0.30:
                self.draw(game, players, seat, rng)
            elif roll < 0.31:
                ld.call("resign", "POST", "/api/games/%d/resign" % game, who=players[seat])

    def draw(self, game, players, seat, rng):
        ld = self.load
        r = ld.call("draw", "POST", "/api/games/%d/draw" % game, {"action": "offer"},
                    players[seat])
        if r is None or r.status != 200:
            return
        other = players[(seat + 1) % len(players)]
        answer = "accept" if rng.random() < 0.2 else "decline"
        ld.call("draw", "POST", "/api/games/%d/draw" % game, {"action": answer}, other)

    # ------------------------------------------------------- timed, claims

    def scanned_at(self):
        r = self.load.call("metrics", "GET", "/metrics")
        m = re.search(rb"(?m)^warpost_time_warning_scan_timestamp_seconds (\d+)",
                      r.body if r is not None else b"")
        return int(m.group(1)) if m else 0

    def timed(self, rng):
        """Timed matches run out on the test clock (this thread alone moves
        it): a scan inside the warning window, a claim too early, a claim
        on time."""
        ld = self.load
        players = [self.player("timed %d" % i, HOOKS if "timed" in HOOKED else 0)
                   for i in range(2)]
        for k in range(MAX_LOOPS):
            if not ld.running():
                return
            ruleset = RULESETS[k % len(RULESETS)]
            if self.ruleset_seats[ruleset] != 2:
                continue
            game = self.new_match(ruleset, players, rng, {"days_per_move": 1})
            if game is None:
                continue
            v = None
            for i in range(30):   # a few posts, until one seat alone is awaited
                v = self.view(game)
                if v is None or v["status"] != "active" or not ld.running():
                    break
                if len(v["awaiting"]) == 1 and i >= rng.randrange(4):
                    break
                self.post_one(game, players, rng, "turn timed")
            if v is None or v["status"] != "active" or len(v["awaiting"]) != 1:
                continue
            late = v["awaiting"][0]
            claimant = players[1 - late]
            deadline = self.now + DAY   # at least: the turn began at or before now
            for s in v["clock"]["seats"]:
                if s["awaited"]:
                    deadline = calendar.timegm(time.strptime(s["deadline"],
                                                             "%Y-%m-%dT%H:%M:%SZ"))
            # Into the warning window (6 h left): wait for a scan there.
            # Until the first warning was counted, as long as the scan
            # takes, past the load's end (the notify worker also delivers
            # webhooks and digests: under the sanitizers on a busy machine
            # its next round once came more than 10 s later, and the test
            # then saw no warning at all); after that, not past the end.
            self.set_time(max(self.now + 61, deadline - 3 * H))
            first = not (self.metric("warpost_time_warnings_total") or 0)
            wp.wait_until(lambda: self.scanned_at() >= self.now
                          or (not first and not ld.running()), TIMEOUT / 2, 0.05)
            ld.call("claim early", "POST", "/api/games/%d/claim" % game, who=claimant)
            self.set_time(max(self.now + 61, deadline + 60))
            r = ld.call("claim", "POST", "/api/games/%d/claim" % game, who=claimant)
            if r is not None and r.status == 200 and json_or(r) is not None:
                ld.note("claim won", 200)

    # ------------------------------------------------------------ readers

    def picks(self, rng):
        """Until the deadline: a match played so far, its players and a
        viewer (one of them, or a spectator)."""
        for _ in range(MAX_LOOPS):
            if not self.load.running():
                return
            picked = self.load.pick_game(rng)
            if picked is None:
                time.sleep(0.05)
                continue
            game, _, players = picked
            yield game, players, rng.choice(players + [None])

    def read(self, rng):
        ld = self.load
        etags = {}
        for game, players, who in self.picks(rng):
            v = self.view(game, who)
            if v is None:
                continue
            roll = rng.random()
            if roll < 0.6:
                kind = "png" if rng.random() < 0.5 else "svg"
                at = rng.randint(1, v["seq"]) if v["seq"] and rng.random() < 0.4 else None
                path = "/api/games/%d/board.%s%s" % (game, kind, "?at=%d" % at if at else "")
                h = {}
                if (path, who) in etags and rng.random() < 0.3:
                    h["If-None-Match"] = etags[(path, who)]
                r = ld.call("board." + kind + (" at" if at else ""), "GET", path, who=who,
                            headers=h)
                if r is not None and "etag" in r.headers:
                    etags[(path, who)] = r.headers["etag"]
            elif roll < 0.75:
                at = rng.randint(1, v["seq"]) if v["seq"] else 1
                ld.call("view at", "GET", "/api/games/%d?at=%d" % (game, at), who=who)
                ld.call("turns", "GET", "/api/games/%d/turns?after=%d" % (
                    game, rng.randrange(v["seq"] + 1)), who=who)
            elif roll < 0.85:
                # a long-poll that runs out (or wakes on a post)
                r = ld.call("view", "GET", "/api/games/%d" % game, who=who)
                if r is not None and "etag" in r.headers:
                    ld.call("long-poll", "GET", "/api/games/%d?wait=1" % game, who=who,
                            headers={"If-None-Match": r.headers["etag"]})
            elif v["status"] == "over":
                ld.call("verify", "GET", "/api/games/%d/verify" % game)
                ld.call("export", "GET", "/api/games/%d/export" % game)

    # ------------------------------------------------------------ streams

    def raw(self, surface, path, who, headers, linger):
        """A request on a raw socket, closed after `linger` seconds
        whatever came (an event stream or a long-poll closed early)."""
        h = {"Host": "127.0.0.1"}
        if who is not None:
            h.update(ml.auth(who.token))
        h.update(headers)
        try:
            s = wp.raw_connect(self.server.port, timeout=TIMEOUT)
        except OSError as e:
            self.load.fail("GET %s: no connection (%r)" % (path, e))
            return
        with s:
            got = b""
            try:
                s.sendall(wp.http_request_bytes("GET", path, h))
                s.settimeout(linger)
                end = time.monotonic() + linger
                while time.monotonic() < end and len(got) < 1 << 20:
                    b = s.recv(65536)
                    if not b:
                        break
                    got += b
            except socket.timeout:
                pass
            except OSError as e:
                self.load.fail("GET %s: connection dropped (%r)" % (path, e))
                return
        m = re.match(rb"HTTP/1\.[01] (\d{3})", got)
        if m:
            self.load.note(surface, int(m.group(1)))
            if int(m.group(1)) >= 500:
                self.load.fail("GET %s: %r" % (path, got[:400]))
        else:
            self.load.note(surface + " closed early", 0)

    def watch(self, rng):
        ld = self.load
        for game, players, who in self.picks(rng):
            linger = rng.uniform(0.0, 0.8)
            roll = rng.random()
            if roll < 0.45:
                ld.note("sse", "opened")
                self.raw("sse", "/api/games/%d/events" % game, who,
                         {"Accept": "text/event-stream",
                          "Last-Event-ID": str(rng.randrange(5))}, linger)
            elif roll < 0.6 and who is not None:
                ld.note("sse me", "opened")
                self.raw("sse me", "/api/me/events", who, {"Accept": "text/event-stream"},
                         linger)
            else:
                r = ld.call("view", "GET", "/api/games/%d" % game, who=who)
                if r is None or "etag" not in r.headers:
                    continue
                ld.note("long-poll raw", "opened")
                self.raw("long-poll raw", "/api/games/%d?wait=30" % game, who,
                         {"If-None-Match": r.headers["etag"]}, linger)

    # ---------------------------------------------------- webhooks, digests

    def admin(self, rng):
        """The players' own settings while their notifications run."""
        ld = self.load
        for _ in range(MAX_LOOPS):
            if not ld.running():
                return
            time.sleep(0.1)
            with self.players_lock:
                if not self.players:
                    continue
                p = rng.choice(self.players)
            hooks = json_or(ld.call("webhooks", "GET", "/api/me/webhooks", who=p), {})
            hooks = hooks.get("webhooks") or []
            if hooks:
                h = rng.choice(hooks)
                ld.call("deliveries", "GET", "/api/me/webhooks/%d/deliveries" % h["id"], who=p)
                if rng.random() < 0.3:
                    ld.call("webhook", "DELETE", "/api/me/webhooks/%d" % h["id"], who=p)
                    ld.call("webhook", "POST", "/api/me/webhooks", {"url": h["url"]}, p)
            if rng.random() < 0.2:
                ld.call("digest", "PUT", "/api/me/email",
                        {"address": p.address, "digest": "off"}, p)
                ld.call("digest", "PUT", "/api/me/email",
                        {"address": p.address, "digest": "daily"}, p)
            ld.call("me games", "GET", "/api/me/games", who=p)
            ld.call("metrics", "GET", "/metrics")

    # ---------------------------------------------------------------- run

    def runner(self, name, fn, *args):
        def run():
            try:
                fn(*args)
            except Exception:  # noqa: BLE001 (a client's own bug fails the test too)
                self.load.fail("thread %s: %s" % (name, traceback.format_exc()[-1500:]))
        return threading.Thread(target=run, name=name, daemon=True)

    def metric(self, name):
        r = self.server.request("GET", "/metrics", timeout=TIMEOUT)
        m = re.search(r"(?m)^%s (\d+)" % re.escape(name), r.body.decode())
        return int(m.group(1)) if m else None

    def test_every_surface_at_once(self):
        print("WP_STRESS_SEED=%d WP_STRESS_SECONDS=%g" % (SEED, SECONDS), file=sys.stderr)
        rulesets = {r["id"]: r for r in
                    self.server.request("GET", "/api/rulesets").json()["rulesets"]}
        self.assertTrue(set(RULESETS) <= set(rulesets), sorted(rulesets))
        self.ruleset_options = {k: r["options"] for k, r in rulesets.items()}
        self.ruleset_seats = {k: r["min_seats"] for k, r in rulesets.items()}
        self.load = ld = Load(self.server, time.monotonic() + SECONDS)
        self.players_lock = threading.Lock()
        self.players = []
        orig_player = self.player

        def player(name, hooks):
            p = orig_player(name, hooks)
            with self.players_lock:
                self.players.append(p)
            return p
        self.player = player

        rng = self.rng
        threads = [self.runner("play " + rs, self.play, rs, random.Random(rng.random()))
                   for rs in RULESETS]
        threads.append(self.runner("timed", self.timed, random.Random(rng.random())))
        threads += [self.runner("read %d" % i, self.read, random.Random(rng.random()))
                    for i in range(2)]
        threads += [self.runner("watch %d" % i, self.watch, random.Random(rng.random()))
                    for i in range(2)]
        threads.append(self.runner("admin", self.admin, random.Random(rng.random())))
        for t in threads:
            t.start()
        for t in threads:
            t.join(SECONDS + 3 * TIMEOUT)
            if t.is_alive():
                ld.fail("thread %s did not end" % t.name)

        # What the worker did with the load: bounded waits, then counted.
        def worker_did():
            ids = [c["event_id"] for c in list(self.rx.calls)]
            return (len(self.box.mails) > 0 and len(ids) > len(set(ids)) and
                    (self.metric("warpost_time_warnings_total") or 0) > 0)
        alive = self.server.alive()
        server_said = []      # the server's own failures, first in the report
        if alive:
            wp.wait_until(worker_did, 15, 0.2)
            ld.count[("digest mail", 250)] = len(self.box.mails)
            for name in ("warpost_time_warnings_total", "warpost_webhook_attempts_total",
                         "warpost_webhook_failed_total", "warpost_png_renders_total",
                         "warpost_renderer_failures_total", "warpost_longpolls_total"):
                ld.count[(name, "metric")] = self.metric(name) or 0
            if ld.count[("warpost_renderer_failures_total", "metric")]:
                server_said.append("the board.png renderer failed "
                                   "(warpost_renderer_failures_total)")
        calls = list(self.rx.calls)
        ld.count[("webhook call", "received")] = len(calls)
        ld.count[("webhook call", "retried")] = len(calls) - len({c["event_id"] for c in calls})

        # The stop: clean (exit code 0, checked by stop()), and nothing in
        # the log from a sanitizer, a crash or a dead renderer.
        if alive:
            try:
                log = self.server.stop(timeout=60)
            except AssertionError as e:
                log = str(e)
                server_said.append("warpostd did not stop cleanly: %s" % log[-3000:])
        else:
            log = self.server.stderr_text()
            server_said.append("warpostd died (exit code %s)" % self.server.proc.returncode)
        shown = 0
        for m in SANITIZER.finditer(log):
            if m.start() >= shown and len(server_said) < 6:
                shown = m.start() + 3000
                server_said.append("in warpostd's stderr: %s" % log[max(0, m.start() - 200):shown])
        if ld.failures or server_said:
            # what the server said about its 5xx: the database's errors
            lines = log.splitlines()
            said = [i for i, x in enumerate(lines) if re.match(r"\S+ database: ", x)]
            for i in said[:3]:
                server_said.append("warpostd's log: " + "\n".join(lines[i:i + 12]))

        summary = "\n".join("  %-34s %-10s %d" % (s, st, n)
                            for (s, st), n in sorted(ld.count.items(), key=str))
        print("WP_STRESS_SEED=%d: what the clients got\n%s" % (SEED, summary), file=sys.stderr)
        failures = server_said + ld.failures
        if failures:
            self.fail("WP_STRESS_SEED=%d: %d failures (the clients' first 50)\n%s" % (
                SEED, len(failures), "\n\n".join(failures)))
        # Every surface was driven: the test cannot pass by doing nothing.
        must = ["turn " + rs for rs in RULESETS] + [
            "undo", "draw", "resign", "create", "join", "board.svg", "board.png",
            "board.svg at", "board.png at", "long-poll", "view at", "sse", "sse me",
            "long-poll raw", "webhook", "deliveries", "digest", "claim early"]
        for surface in must:
            self.assertGreater(ld.n(surface), 0, "never exercised: %s\n%s" % (surface, summary))
        for surface, status in (("undo", 200), ("claim won", 200), ("sse", 200),
                                ("digest mail", 250), ("webhook call", "received"),
                                ("webhook call", "retried"),
                                ("warpost_time_warnings_total", "metric")):
            self.assertGreater(ld.n(surface, status), 0,
                               "never exercised: %s %s\n%s" % (surface, status, summary))

    def tearDown(self):
        # the test stops the server itself, to read what the sanitizers
        # write at exit; ServerTestCase's check is for a server still running
        if self.server.proc is not None and self.server.proc.returncode is None:
            super().tearDown()


class WebhookRemovedDuringPostTest(wp.ServerTestCase):
    """What the stress test found (1 run in 3): a post to a match is a 500
    when one of its players removes a webhook meanwhile. The trigger
    wp_games_notify() (sql/005_notifications.sql) inserts the outbox rows
    from a snapshot that still holds the webhook; its foreign key finds it
    deleted: 'insert or update on table "webhook_deliveries" violates
    foreign key constraint "webhook_deliveries_webhook_id_fkey"'. The same
    two clients, bounded, without the rest of the load."""

    server_env = {"WEBHOOK_ALLOW_PRIVATE": "1"}

    def test_no_500_when_a_webhook_goes_during_a_post(self):
        ann, ben = ml.Client(self.server, "Ann"), ml.Client(self.server, "Ben")
        for i in range(HOOKS):   # calls to the discard port: refused, retried
            self.assertEqual(ann.req("POST", "/api/me/webhooks",
                                     {"url": "http://127.0.0.1:9/%d" % i}).status, 201)
        g = ann.create(2, ruleset="wargame-chess")
        self.assertEqual(ben.join(g["id"], g["invitations"][0]["code"]).status, 200)
        path = "/api/games/%d/draw" % g["id"]
        stop = time.monotonic() + 4
        statuses = collections.Counter()

        def churn():
            for _ in range(5000):
                if time.monotonic() > stop:
                    return
                for h in ann.req("GET", "/api/me/webhooks").json()["webhooks"][:2]:
                    ann.req("DELETE", "/api/me/webhooks/%d" % h["id"])
                    ann.req("POST", "/api/me/webhooks", {"url": h["url"]})

        t = threading.Thread(target=churn)
        t.start()
        try:
            for _ in range(5000):     # each a post that tells Ann's webhooks
                if time.monotonic() > stop:
                    break
                statuses[ben.req("POST", path, {"action": "offer"}).status] += 1
                statuses[ann.req("POST", path, {"action": "decline"}).status] += 1
        finally:
            t.join()
        said = [x for x in self.server.log_lines() if "violates" in x][:1]
        self.assertEqual(statuses[500], 0, "%s\n%s" % (dict(statuses), said))
        self.assertGreater(statuses[200], 0)


if __name__ == "__main__":
    wp.main()
