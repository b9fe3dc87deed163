"""Issue 31: no single database to lose. A pg_auto_failover formation on
loopback (scripts/hacluster.sh: a monitor, a primary and its synchronous
secondary, each a private cluster run by its own `pg_autoctl run`), two
warpostd instances (A and B) on its multi-host DATABASE_URL
(host=..,.. port=..,.. target_session_attrs=read-write), and clients
posting turns through both with Idempotency-Keys, recording every
acknowledged one.

  1. The primary is killed (SIGKILL: its pg_autoctl and its postgres, the
     loss of a machine) mid-load. After the promotion: every acknowledged
     turn is in the store exactly once, every match verifies, every post
     retried with its key replays its first answer, and the clients saw
     only 503 with Retry-After meanwhile (never a 500, never another
     answer, never no answer). A long-poll and an event stream on B are
     woken by a turn posted through A (both LISTEN threads moved to the
     new primary).
  2. The old primary rejoins as the new secondary, then the formation fails
     back (pg_autoctl perform failover) under the same load, with the same
     checks.

The unavailability windows are printed, not asserted: the machine may be
busy. Needs pg_autoctl (Debian: postgresql-15-auto-failover, installed by
scripts/deps.sh ha); exits 77 (skipped) without it. Slow (label image:
scripts/test.sh --slow). Runs the test server (warpostd-test)."""
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import unittest
import uuid

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "api"))
import matchlib as ml  # noqa: E402  (sets WARPOSTD to the test server)
from matchlib import wp  # noqa: E402

HA = os.path.join(wp.REPO, "scripts", "hacluster.sh")
SKIP = 77
# Generous: a failover on a machine busy with other builds may take long;
# these only detect something that never happens.
DEADLINE = 300
ANSWER = 60          # a request without an answer in this long hangs
STREAMS = 4


def move(a, b):
    return {"type": "move", "from": a, "to": b}


def ports_free(base, n):
    for port in range(base, base + n):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                return False
    return True


def log(msg):
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()


class Load:
    """STREAMS matches, each a thread posting turns in turn order through A
    and B alternately, every post retried with its Idempotency-Key after a
    503 until acknowledged, until stop(). Records every answer."""

    def __init__(self, servers, tag):
        self.servers = servers
        self.acked = [[] for _ in range(STREAMS)]   # (seq, key, token, body, answer)
        self.answers = []                          # (sent, answered, status)
        self.errors = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.setups = []
        for i in range(STREAMS):
            p = ml.Client(servers[0], "%sP%d" % (tag, i))
            q = ml.Client(servers[1], "%sQ%d" % (tag, i))
            self.setups.append((p, q, ml.start_match([p, q], {"turn_limit": 10000})))
        self.threads = [threading.Thread(target=self.stream, args=(i,)) for i in range(STREAMS)]
        for t in self.threads:
            t.start()

    def count(self):
        with self.lock:
            return sum(len(a) for a in self.acked)

    def acked_since(self, t):
        """The fewest acknowledgements of one stream answered after t."""
        with self.lock:
            return min(sum(1 for a in acks if a[5] > t) for acks in self.acked)

    def post(self, i, k, who, game, body, key):
        for attempt in range(100000):
            srv = self.servers[(i + k + attempt) % 2]
            sent = time.monotonic()
            try:
                r = srv.request("POST", "/api/games/%d/turns" % game, body,
                                ml.auth(who.token, {"Idempotency-Key": key}), timeout=ANSWER)
            except OSError as e:
                raise AssertionError("post %d of stream %d: no answer (%s)" % (k + 1, i, e))
            now = time.monotonic()
            with self.lock:
                self.answers.append((sent, now, r.status))
            if r.status == 200:
                return r.json(), now
            if r.status != 503 or not r.headers.get("retry-after"):
                raise AssertionError("post %d of stream %d through %s: %r"
                                     % (k + 1, i, "AB"[(i + k + attempt) % 2], r))
            if now - sent > DEADLINE:
                break
            time.sleep(0.2)
        raise AssertionError("post %d of stream %d never acknowledged" % (k + 1, i))

    def stream(self, i):
        p, q, game = self.setups[i]
        k = 0
        try:
            started = time.monotonic()
            while not self.stopping.is_set():
                who = p if k % 2 == 0 else q
                back = (k // 2) % 2
                m = (move("d2", "d1") if back else move("d1", "d2")) if who is p else \
                    (move("d7", "d8") if back else move("d8", "d7"))
                body, key = {"seq": k + 1, "actions": [m]}, uuid.uuid4().hex
                answer, at = self.post(i, k, who, game, body, key)
                with self.lock:
                    self.acked[i].append((k + 1, key, who.token, body, answer, at))
                k += 1
                time.sleep(0.02)     # a player, not a benchmark
                if time.monotonic() - started > 3 * DEADLINE:
                    raise AssertionError("stream %d never told to stop" % i)
        except Exception as e:  # noqa: BLE001  (reported by check)
            with self.lock:
                self.errors.append("stream %d: %s" % (i, e))

    def stop(self):
        self.stopping.set()
        for t in self.threads:
            t.join(DEADLINE)

    def window(self, t0):
        """The writes' unavailability around t0, as text."""
        with self.lock:
            ok = sorted(a for (_, a, s) in self.answers if s == 200)
            n503 = sum(1 for (_, a, s) in self.answers if s == 503 and a >= t0)
        before = [a for a in ok if a < t0]
        after = [a for a in ok if a >= t0]
        # the longest stretch without an acknowledgement from t0 on
        gaps = [b - a for a, b in zip(([before[-1]] if before else []) + after, after)]
        return ("last acknowledged turn %.2f s before, first %.2f s after; longest stretch "
                "without one %.2f s; %d answers were 503 with Retry-After"
                % (t0 - before[-1] if before else -1, after[0] - t0 if after else -1,
                   max(gaps) if gaps else -1, n503))


class FailoverTest(unittest.TestCase):

    settled_at = None     # when the formation settled after the event
    event_at = None       # when the event began

    @classmethod
    def setUpClass(cls):
        if not shutil.which("pg_autoctl"):
            log("SKIP: pg_autoctl not installed (scripts/deps.sh ha: postgresql-15-auto-failover)")
            sys.exit(SKIP)
        cls.dir = wp.make_tmpdir("wp-ha-")
        cls.addClassCleanup(wp.remove_tmpdir, cls.dir)
        for _ in range(100):
            base = wp.free_port()
            if base < 65000 and ports_free(base, 3):
                break
        cls.addClassCleanup(cls.ha, "stop")
        cls.base = base
        t = time.monotonic()
        cls.url = cls.ha("start", str(base)).strip()
        log("formation up in %.1f s: %s" % (time.monotonic() - t, cls.url))
        log(cls.ha("state"))
        cls.a = wp.Server(cls.url, env={"THREADS": "8"})
        cls.b = wp.Server(cls.url, env={"THREADS": "8"})
        for s in (cls.a, cls.b):
            cls.addClassCleanup(s.stop, expect_code=None)
            s.start()
        cls.first_primary = cls.ha("primary").strip()

    @classmethod
    def ha(cls, *args):
        r = subprocess.run(["bash", HA, args[0], cls.dir] + list(args[1:]), capture_output=True,
                           stdin=subprocess.DEVNULL, timeout=DEADLINE + 60,
                           env=dict(os.environ, HA_WAIT=str(DEADLINE)))
        if r.returncode != 0:
            raise AssertionError("hacluster.sh %s failed:\n%s" % (" ".join(args),
                                                                r.stderr.decode(errors="replace")))
        return r.stdout.decode()

    @classmethod
    def logs(cls):
        """The state and the last lines of the monitor's and each node's
        pg_autoctl log: why the formation did not do what was waited for."""
        out = [cls.ha("state")]
        for name in ("monitor", "node1", "node2"):
            try:
                with open(os.path.join(cls.dir, name + ".log"), errors="replace") as f:
                    out.append("--- %s.log (last 40 lines)\n%s"
                               % (name, "".join(f.readlines()[-40:])))
            except OSError as e:
                out.append("--- %s.log: %s" % (name, e))
        return "\n".join(out)

    @classmethod
    def node_listens(cls, name):
        """Whether something accepts connections on node NAME's port."""
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.settimeout(5)
            return s.connect_ex(("127.0.0.1", cls.base + int(name[len("node"):]))) == 0

    def run_load(self, tag, event):
        """Load through both instances; event() once some turns are
        acknowledged; stops once every stream has more acknowledged after
        it; checks what the issue asks."""
        load = Load([self.a, self.b], tag)
        try:
            self.assertTrue(wp.wait_until(lambda: load.count() >= 4 * STREAMS or load.errors,
                                          DEADLINE, 0.05), "no turn acknowledged before")
            self.event_at = None
            failed = []

            def run_event():
                try:
                    event()
                except Exception as e:  # noqa: BLE001  (reported below)
                    failed.append(e)
                    raise

            threading.Thread(target=run_event).start()
            done = wp.wait_until(lambda: load.errors or failed or
                                 (self.settled_at is not None and
                                  load.acked_since(self.settled_at) >= 3), 2 * DEADLINE, 0.1)
            self.assertEqual(failed, [])
            self.assertTrue(done, "the streams did not go on after the event")
        finally:
            load.stop()
        self.assertEqual(load.errors, [])
        log("%s: %d turns acknowledged; writes around it: %s"
            % (tag, load.count(), load.window(self.event_at)))
        self.check(load)
        return load

    def check(self, load):
        for i, (p, q, game) in enumerate(load.setups):
            acks = load.acked[i]
            with self.subTest(stream=i):
                self.assertEqual([a[0] for a in acks], list(range(1, len(acks) + 1)))
                # a turn posted against seq s is the post s + 1 (post 1
                # starts the match): every acknowledged one, once
                rows = wp.psql(self.url, "SELECT inet_server_port(), pg_is_in_recovery(); "
                                         "SELECT seq FROM posts WHERE game_id = %d AND kind = "
                                         "'turn' ORDER BY seq" % game).split()
                server, rows = rows[0], [int(x) for x in rows[1:]]
                if rows != list(range(2, len(acks) + 2)):
                    # which server answered, and what the formation did
                    self.assertEqual(rows, list(range(2, len(acks) + 2)),
                                     "read from port|in recovery %s; nodes listening: %s\n%s"
                                     % (server, [n for n in ("node1", "node2")
                                                 if self.node_listens(n)], self.logs()))
                # every post retried with its key now replays its first
                # answer, through either instance
                for n, (seq, key, token, body, answer, _) in enumerate(acks):
                    srv = (self.a, self.b)[n % 2]
                    r = srv.request("POST", "/api/games/%d/turns" % game, body,
                                    ml.auth(token, {"Idempotency-Key": key}))
                    self.assertEqual((r.status, r.json()), (200, answer), "seq %d" % seq)
                # over (resigned), so that it can be verified
                r = q.req("POST", "/api/games/%d/resign" % game, {})
                self.assertEqual(r.status, 200, r)
                r = self.b.request("GET", "/api/games/%d/verify" % game)
                self.assertEqual(r.status, 200, r)
                self.assertTrue(r.json()["verified"], r.json())

    def open_stream(self, game, who):
        """An event stream of the match on B (an EventSource's request,
        Last-Event-ID 1), once its headers are read: a function reading
        its next chunk."""
        sock = wp.raw_connect(self.b.port, timeout=ANSWER)
        self.addCleanup(sock.close)
        sock.sendall(wp.http_request_bytes("GET", "/api/games/%d/events" % game, {
            "Host": "x", "Accept": "text/event-stream", "Last-Event-ID": "1",
            "Authorization": "Bearer " + who.token}))
        f = sock.makefile("rb")
        self.addCleanup(f.close)
        self.assertIn(b" 200 ", f.readline())
        for _ in iter(f.readline, b"\r\n"):
            pass

        def part():
            size = int(f.readline().strip(), 16)
            data = f.read(size)
            f.readline()
            return data
        return part

    def longpoll_crosses(self, tag):
        """A long-poll and an event stream held on B wake on a turn posted
        through A."""
        alice, bob = ml.Client(self.a, tag + "Alice"), ml.Client(self.a, tag + "Bob")
        game = ml.start_match([alice, bob], {"turn_limit": 10000})
        etag = bob.view(game).headers["etag"]
        got = {}

        def waiter():
            got["r"] = self.b.request("GET", "/api/games/%d?wait=30" % game,
                                      headers={"If-None-Match": etag,
                                               "Authorization": "Bearer " + bob.token},
                                      timeout=ANSWER)
            got["t"] = time.monotonic()

        def longpolls():
            r = self.b.request("GET", "/metrics")
            m = re.search(rb"^warpost_longpolls_total (\d+)$", r.body, re.M)
            return int(m.group(1)) if m else -1

        stream = self.open_stream(game, bob)
        waiting = longpolls()
        t = threading.Thread(target=waiter)
        t.start()
        self.assertTrue(wp.wait_until(lambda: longpolls() > waiting, DEADLINE, 0.02),
                        "the long-poll never started waiting on B")
        r = alice.turn(game, 1, [move("d1", "d2")])
        acked = time.monotonic()
        self.assertEqual(r.status, 200, r)
        t.join(ANSWER)
        self.assertEqual(got["r"].status, 200, got["r"])
        self.assertEqual(got["r"].json()["seq"], 2)
        log("%s: the long-poll on B woke %.3f s after the turn through A"
            % (tag, got["t"] - acked))
        seen = b""
        while not re.search(rb"^id: ?2$", seen, re.M):
            chunk = stream()
            self.assertTrue(chunk, "the event stream on B ended without post 2")
            seen += chunk
        log("%s: the event stream on B sent post 2 %.3f s after the turn through A"
            % (tag, time.monotonic() - acked))

    def wait_settled(self):
        t = time.monotonic()
        self.ha("wait")
        self.settled_at = time.monotonic()
        return self.settled_at - t

    def test_1_kill_the_primary_under_load(self):
        killed = self.first_primary

        def kill():
            self.settled_at = None
            t = self.event_at = time.monotonic()
            self.ha("kill", killed)
            log("SIGKILL to %s (the primary: pg_autoctl and postgres)" % killed)
            self.assertFalse(self.node_listens(killed), "%s still listens after SIGKILL" % killed)
            # promoted: the other node writes (wait_primary, alone)
            ok = wp.wait_until(lambda: self.ha("primary").strip() not in ("", killed) or
                               "wait_primary" in self.ha("state"), DEADLINE, 0.5)
            self.assertTrue(ok, self.logs())
            self.settled_at = time.monotonic()
            log("promotion seen by the monitor %.2f s after the kill" % (self.settled_at - t))

        self.run_load("kill", kill)
        # nothing brought it back (its keeper and postgres are gone): the
        # checks above read the promoted node, not a second primary
        self.assertFalse(self.node_listens(killed), "%s came back after SIGKILL:\n%s"
                         % (killed, self.logs()))
        log(self.ha("state"))
        self.longpoll_crosses("after the failover")
        # scripts/backup.sh with the multi-host URL dumps the new primary
        dump = os.path.join(self.dir, "after-failover.dump")
        r = subprocess.run(["bash", os.path.join(wp.REPO, "scripts", "backup.sh"), dump, self.url],
                           capture_output=True, stdin=subprocess.DEVNULL, timeout=DEADLINE)
        self.assertEqual(r.returncode, 0, r.stderr.decode(errors="replace"))
        listing = subprocess.run([os.path.join(wp.pg_bindir(), "pg_restore"), "--list", dump],
                                 capture_output=True, timeout=60).stdout.decode()
        self.assertIn("TABLE DATA public posts", listing)
        self.assertEqual(self.a.request("GET", "/api/health").status, 200)
        self.assertEqual(self.b.request("GET", "/api/health").status, 200)

    def test_2_old_primary_rejoins_then_fail_back(self):
        old = self.first_primary
        self.ha("run", old)
        log("%s rejoined as the secondary in %.1f s" % (old, self.wait_settled()))
        log(self.ha("state"))
        self.assertNotEqual(self.ha("primary").strip(), old)

        def fail_back():
            self.settled_at = None
            t = self.event_at = time.monotonic()
            self.ha("failover")
            self.settled_at = time.monotonic()
            log("pg_autoctl perform failover: settled in %.2f s" % (self.settled_at - t))

        self.run_load("fail back", fail_back)
        log(self.ha("state"))
        self.assertEqual(self.ha("primary").strip(), old)
        self.longpoll_crosses("after failing back")


if __name__ == "__main__":
    wp.main()
