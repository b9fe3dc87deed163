"""Webhooks (issue 14, "Notifications"): registered through the API, called
by the worker on "your turn", "draw offered" and "match over" with an
HMAC-SHA256 signature over the timestamp and the body, against a real local
HTTP receiver (Python's http.server) that checks the signature; a receiver
that is down and comes back gets the event after retries, every attempt in
the delivery log; the body carries only what the seat may see (RULINGS.md
G5); a public server refuses private targets, at registration and again
when it connects; two instances never deliver one event twice."""
import hashlib
import hmac
import http.server
import json
import threading
import time

import matchlib as ml
from matchlib import wp

FAST = {"WEBHOOK_RETRY_BASE_MS": "50", "WEBHOOK_RETRY_MAX_MS": "200",
        "NOTIFY_POLL_MS": "50", "PUBLIC_URL": "https://warpost.test/"}
PAYLOAD_KEYS = {"event", "event_id", "game", "ruleset", "status", "seq", "seat", "awaiting",
                "url", "created_at"}
DELIVERY_WAIT = 15


class Receiver:
    """A real HTTP server on 127.0.0.1 that records every call and checks
    its signature with the secret registered for its path."""

    def __init__(self, port=0, fail_first=0, secrets=None, host="127.0.0.1"):
        self.calls = []
        # (given here when calls may already be waiting for the port: a
        # secret set after the start could miss the first of them)
        self.secrets = dict(secrets or {})
        self.status = 204
        self.fail_first = fail_first   # answer 503 to this many calls first
        self.lock = threading.Lock()
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                h = {k.lower(): v for k, v in self.headers.items()}
                secret = outer.secrets.get(self.path, "")
                mac = hmac.new(secret.encode(), h.get("x-warpost-timestamp", "").encode() + b"." + body,
                               hashlib.sha256).hexdigest()
                with outer.lock:
                    outer.calls.append({"path": self.path, "headers": h, "body": body,
                                        "signed": h.get("x-warpost-signature") == "sha256=" + mac})
                    status = 503 if len(outer.calls) <= outer.fail_first else outer.status
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *a):
                pass

        self.host = host
        self.httpd = http.server.ThreadingHTTPServer((host, port), Handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path):
        return "http://%s:%d%s" % (self.host, self.port, path)

    def events(self, path, event=None, game=None):
        with self.lock:
            calls = [c for c in self.calls if c["path"] == path]
        out = []
        for c in calls:
            doc = json.loads(c["body"])
            if (event is None or doc["event"] == event) and (game is None or doc["game"] == game):
                out.append((c, doc))
        return out

    def wait(self, path, event, game, count=1):
        return wp.wait_until(lambda: len(self.events(path, event, game)) >= count and
                             self.events(path, event, game), DELIVERY_WAIT, 0.05)

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def hook(player, url, secret=None):
    body = {"url": url}
    if secret:
        body["secret"] = secret
    r = player.req("POST", "/api/me/webhooks", body)
    assert r.status == 201, r
    return r.json()


def move(a, b):
    return {"type": "move", "from": a, "to": b}


class WebhooksTest(wp.ServerTestCase):
    server_env = dict(FAST, WEBHOOK_ALLOW_PRIVATE="1", WEBHOOK_MAX_ATTEMPTS="100")

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.rx = Receiver()
        cls.addClassCleanup(cls.rx.close)

    def setUp(self):
        self.a = ml.Client(self.server, "Alice")
        self.b = ml.Client(self.server, "Bob")
        self.pa, self.pb = "/alice/%d" % self.a.id, "/bob/%d" % self.b.id
        ha = hook(self.a, self.rx.url(self.pa))
        self.rx.secrets[self.pa] = ha["secret"]
        self.rx.secrets[self.pb] = "bobs-own-secret-32-characters!!"
        hb = hook(self.b, self.rx.url(self.pb), self.rx.secrets[self.pb])
        self.assertNotIn("secret", hb, "a secret the player chose is not echoed")
        self.hooks = {self.a.id: ha["id"], self.b.id: hb["id"]}

    def deliveries(self, player):
        r = player.req("GET", "/api/me/webhooks/%d/deliveries" % self.hooks[player.id])
        self.assertEqual(r.status, 200, r)
        return r.json()["deliveries"]

    def test_register_list_delete(self):
        ha = self.a.req("GET", "/api/me/webhooks").json()["webhooks"]
        self.assertEqual([(h["id"], h["url"]) for h in ha],
                         [(self.hooks[self.a.id], self.rx.url(self.pa))])
        self.assertNotIn("secret", ha[0], "the secret is shown once only")
        extra = hook(self.a, "https://example.org/x")
        self.assertRegex(extra["secret"], "^[0-9a-f]{64}$")
        # Another player's webhook is not found, for every verb.
        path = "/api/me/webhooks/%d" % extra["id"]
        self.assertProblem(self.b.req("DELETE", path), 404, "not-found")
        self.assertProblem(self.b.req("GET", path + "/deliveries"), 404, "not-found")
        r = self.a.req("DELETE", path)
        self.assertEqual((r.status, r.body), (204, b""), r)
        self.assertProblem(self.a.req("DELETE", path), 404, "not-found")
        self.assertEqual(len(self.a.req("GET", "/api/me/webhooks").json()["webhooks"]), 1)
        self.assertProblem(self.server.request("GET", "/api/me/webhooks"), 401, "unauthorized")

    def test_bad_registrations_change_nothing(self):
        before = self.a.req("GET", "/api/me/webhooks").json()
        bad = [
            ({}, "url"),
            ({"url": 7}, "url"),
            ({"url": "ftp://example.org/x"}, "url"),
            ({"url": "https://user:pw@example.org/x"}, "url"),
            ({"url": "https://example.org/" + "x" * 2000}, "url"),
            ({"url": "https://exa mple.org/"}, "url"),
            ({"url": "https://example.org/", "secret": "short"}, "secret"),
            ({"url": "https://example.org/", "secret": "with a space in it!!"}, "secret"),
            ({"url": "https://example.org/", "extra": 1}, "extra"),
        ]
        for body, field in bad:
            with self.subTest(body=body):
                self.assertProblem(self.a.req("POST", "/api/me/webhooks", body), 400,
                                   "invalid-request", field)
        # WEBHOOK_ALLOW_PRIVATE lets loopback through, never an empty or
        # malformed host nor a metadata name (README "Private targets").
        for url in ("http://", "http:///h", "http://127.1/", "http://metadata.google.internal/"):
            with self.subTest(url=url):
                self.assertProblem(self.a.req("POST", "/api/me/webhooks", {"url": url}), 422,
                                   "webhook-target-refused", "url")
        for n in range(4):
            hook(self.a, "https://example.org/%d" % n)
        self.assertProblem(self.a.req("POST", "/api/me/webhooks", {"url": "https://example.org/6"}),
                           400, "invalid-request")
        after = self.a.req("GET", "/api/me/webhooks").json()["webhooks"]
        self.assertEqual(len(after), 5)
        self.assertEqual(after[0], before["webhooks"][0])
        for h in after[1:]:
            self.assertEqual(self.a.req("DELETE", "/api/me/webhooks/%d" % h["id"]).status, 204)

    def test_your_turn_is_signed_and_shows_nothing_hidden(self):
        game = ml.start_match([self.a, self.b])
        [(call, doc)] = self.rx.wait(self.pa, "your_turn", game)
        self.assertTrue(call["signed"], call)
        self.assertEqual(set(doc), PAYLOAD_KEYS)
        self.assertEqual((doc["seat"], doc["awaiting"], doc["status"], doc["ruleset"]),
                         (0, [0], "active", ml.RULESET))
        self.assertEqual(doc["url"], "https://warpost.test/#/match/%d" % game)
        self.assertEqual(call["headers"]["x-warpost-event"], "your_turn")
        self.assertEqual(call["headers"]["x-warpost-event-id"], str(doc["event_id"]))
        self.assertLess(abs(int(call["headers"]["x-warpost-timestamp"]) - time.time()), 600)
        # Alice's move, with a hidden comment: Bob is told it is his turn
        # and nothing of what Alice did.
        r = self.a.turn(game, 1, [move("d1", "d2")], comment="secret plan", hidden=True)
        self.assertEqual(r.status, 200, r)
        [(call, doc)] = self.rx.wait(self.pb, "your_turn", game)
        self.assertTrue(call["signed"], "Bob's own secret signs his calls")
        self.assertEqual(set(doc), PAYLOAD_KEYS)
        self.assertEqual((doc["seat"], doc["seq"], doc["awaiting"]), (1, 2, [1]))
        for word in (b"d1", b"d2", b"secret plan", b"decoy", b"move"):
            self.assertNotIn(word, call["body"])
        # Alice was not awaited again: no second "your turn" for her.
        self.assertEqual(len(self.rx.events(self.pa, "your_turn", game)), 1)
        # (the receiver has the call before the worker records its answer)
        mine = wp.wait_until(lambda: [d for d in self.deliveries(self.b) if d["game"] == game
                                      and d["state"] != "pending"], DELIVERY_WAIT, 0.05)
        self.assertEqual([(d["event"], d["state"], d["attempts"], d["last_status"]) for d in mine],
                         [("your_turn", "delivered", 1, 204)])
        self.assertEqual(mine[0]["id"], doc["event_id"])
        self.assertEqual(len(mine[0]["log"]), 1)
        self.assertIsNotNone(mine[0]["delivered_at"])
        self.assertIsNone(mine[0]["next_attempt_at"])

    def test_draw_offered_and_match_over(self):
        game = ml.start_match([self.a, self.b])
        r = self.b.req("POST", "/api/games/%d/draw" % game, {"action": "offer"})
        self.assertEqual(r.status, 200, r)
        [(_, doc)] = self.rx.wait(self.pa, "draw_offered", game)
        self.assertEqual(doc["seat"], 0)
        self.assertEqual(self.rx.events(self.pb, "draw_offered", game), [],
                         "the seat that offers is not told of its own offer")
        r = self.a.req("POST", "/api/games/%d/draw" % game, {"action": "accept"})
        self.assertEqual(r.status, 200, r)
        for path, seat in ((self.pa, 0), (self.pb, 1)):
            [(call, doc)] = self.rx.wait(path, "match_over", game)
            self.assertTrue(call["signed"])
            self.assertEqual((doc["status"], doc["seat"], doc["awaiting"]), ("over", seat, []))

    def test_time_running_out_hook(self):
        """The hook a clock calls (README "Notifications"): queued in the
        caller's transaction for the seats of the mask, delivered like the
        others; rolled back, it is never sent."""
        game = ml.start_match([self.a, self.b])
        self.db.psql("BEGIN; SELECT wp_notify_seats(%d, 2, 'time_running_out'); ROLLBACK" % game)
        self.db.psql("SELECT wp_notify_seats(%d, 1, 'time_running_out')" % game)
        [(call, doc)] = self.rx.wait(self.pa, "time_running_out", game)
        self.assertTrue(call["signed"])
        self.assertEqual((doc["seat"], doc["awaiting"], doc["status"]), (0, [0], "active"))
        # Bob's was rolled back; Alice's own next event shows the worker
        # went on without sending it.
        self.assertEqual(self.b.req("POST", "/api/games/%d/draw" % game,
                                    {"action": "offer"}).status, 200)
        self.assertTrue(self.rx.wait(self.pa, "draw_offered", game))
        self.assertEqual(self.rx.events(self.pb, "time_running_out", game), [])

    def test_resign_tells_both(self):
        game = ml.start_match([self.a, self.b])
        self.assertEqual(self.a.req("POST", "/api/games/%d/resign" % game).status, 200)
        self.assertTrue(self.rx.wait(self.pa, "match_over", game))
        self.assertTrue(self.rx.wait(self.pb, "match_over", game))

    def test_registered_mid_match_then_deleted(self):
        """A webhook counts for the matches its player already sits in, and
        a deleted one is called no more."""
        c, d = ml.Client(self.server, "Carol"), ml.Client(self.server, "Dave")
        game = ml.start_match([c, d])
        path = "/dave/%d" % d.id
        h = hook(d, self.rx.url(path))
        self.rx.secrets[path] = h["secret"]
        self.assertEqual(c.turn(game, 1, [move("d1", "d2")]).status, 200)
        [(call, doc)] = self.rx.wait(path, "your_turn", game)
        self.assertEqual((doc["seq"], call["signed"]), (2, True))
        self.assertEqual(d.req("DELETE", "/api/me/webhooks/%d" % h["id"]).status, 204)
        self.assertEqual(d.turn(game, 2, [move("f8", "g7")]).status, 200)
        self.assertEqual(c.turn(game, 3, [move("d2", "d3")]).status, 200)
        # Carol's hook-less seat and Dave's deleted hook: the worker sends
        # Alice's next event, and still nothing more reached Dave's path.
        other = ml.start_match([self.a, self.b])
        self.assertTrue(self.rx.wait(self.pa, "your_turn", other))
        self.assertEqual(len(self.rx.events(path)), 1)

    def test_receiver_down_then_back(self):
        """The turn is not held by a receiver that is down; the worker
        retries with backoff and delivers once the receiver is back."""
        port = wp.free_port()
        c = ml.Client(self.server, "Carol")
        h = hook(c, "http://127.0.0.1:%d/carol" % port)
        game = ml.start_match([c, self.a])
        path = "/api/me/webhooks/%d/deliveries" % h["id"]

        def log():
            return [d for d in c.req("GET", path).json()["deliveries"] if d["game"] == game]

        down = wp.wait_until(lambda: [d for d in log() if d["attempts"] >= 2], DELIVERY_WAIT, 0.05)
        self.assertTrue(down, log())
        d = down[0]
        self.assertEqual((d["state"], d["last_status"], d["delivered_at"]), ("pending", None, None))
        self.assertTrue(d["last_error"])
        self.assertIsNotNone(d["next_attempt_at"])
        self.assertTrue(all(a["status"] is None and a["error"] for a in d["log"]), d)
        back = Receiver(port, secrets={"/carol": h["secret"]})
        self.addCleanup(back.close)
        [(call, doc)] = back.wait("/carol", "your_turn", game)
        self.assertTrue(call["signed"])
        done = wp.wait_until(lambda: [x for x in log() if x["state"] == "delivered"], DELIVERY_WAIT, 0.05)
        self.assertTrue(done, log())
        d = done[0]
        self.assertEqual(d["last_status"], 204)
        self.assertGreaterEqual(d["attempts"], 3)
        self.assertEqual([a["attempt"] for a in d["log"]], list(range(1, d["attempts"] + 1)))
        self.assertEqual(d["log"][-1]["status"], 204)
        self.assertEqual(d["id"], doc["event_id"])

    def test_error_status_is_retried(self):
        """An answer outside 2xx is a failed attempt with its status in the
        log; the same event (same id, fresh timestamp and signature) comes
        again until a 2xx."""
        rx = Receiver(fail_first=2)
        self.addCleanup(rx.close)
        c = ml.Client(self.server, "Carol")
        h = hook(c, rx.url("/c"))
        rx.secrets["/c"] = h["secret"]
        game = ml.start_match([c, self.b])
        calls = rx.wait("/c", "your_turn", game, 3)
        self.assertEqual(len(calls), 3, calls)
        self.assertTrue(all(call["signed"] for call, _ in calls))
        self.assertEqual(len({doc["event_id"] for _, doc in calls}), 1)
        log = wp.wait_until(lambda: [d for d in c.req(
            "GET", "/api/me/webhooks/%d/deliveries" % h["id"]).json()["deliveries"]
            if d["state"] == "delivered"], DELIVERY_WAIT, 0.05)
        self.assertTrue(log)
        self.assertEqual([(a["attempt"], a["status"]) for a in log[0]["log"]],
                         [(1, 503), (2, 503), (3, 204)])
        self.assertEqual(log[0]["log"][0]["error"], "HTTP status 503")

    def test_two_instances_deliver_each_event_once(self):
        """FOR UPDATE SKIP LOCKED: with two workers on one database every
        event reaches the receiver exactly once."""
        other = wp.Server(self.db.url, env=self.server_env).start()
        self.addCleanup(other.stop)
        rx = Receiver()
        self.addCleanup(rx.close)
        players = [ml.Client(self.server, "P%d" % i) for i in range(4)]
        for p in players:
            rx.secrets["/p%d" % p.id] = hook(p, rx.url("/p%d" % p.id))["secret"]
        pairs = [(0, 1), (2, 3), (3, 0), (1, 2)]
        games = [ml.start_match([players[i], players[j]]) for i, j in pairs]
        for g, (i, _) in zip(games, pairs):
            self.assertEqual(players[i].req("POST", "/api/games/%d/resign" % g).status, 200)
        # Per match: a "your turn" to its first seat and "match over" to both.
        want = 3 * len(games)
        got = wp.wait_until(lambda: len(rx.calls) >= want, DELIVERY_WAIT, 0.05)
        self.assertTrue(got, rx.calls)
        ids = [json.loads(c["body"])["event_id"] for c in rx.calls]
        self.assertEqual(len(ids), len(set(ids)), "an event was delivered twice")
        self.assertEqual(len(ids), want)
        self.assertTrue(all(c["signed"] for c in rx.calls))


def interface_address():
    """An IPv4 address of one of this machine's interfaces other than
    loopback (SIOCGIFADDR), or None."""
    import fcntl
    import socket
    import struct
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in socket.if_nameindex():
            try:
                raw = fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", name.encode()[:15]))
            except OSError:
                continue
            addr = socket.inet_ntoa(raw[20:24])
            if not addr.startswith("127."):
                return addr
    return None


class PublicServerTest(wp.ServerTestCase):
    """Without WEBHOOK_ALLOW_PRIVATE (issue 24, item 2; README "Private
    targets") a server refuses every special-purpose address, metadata and
    inside names and malformed hosts at registration (422), and refuses to
    connect to a special-purpose address or one of its own (a name that
    resolves inside, here a row put in the table by hand)."""
    server_env = dict(FAST, WEBHOOK_MAX_ATTEMPTS="2")

    def test_private_targets_refused_at_registration(self):
        a = ml.Client(self.server, "Alice")
        refused = [
            # issue 24's hostile checks, each with the reason it must name
            ("http://127.0.0.1.:8080/", "loopback"),
            ("http://0.0.0.0.:8080/", "this network"),
            ("http://169.254.169.254./x", "link-local"),
            ("http://[::127.0.0.1]:8080/", "loopback"),
            ("http://[2002:7f00:1::]/h", "6to4"),
            ("http://metadata.google.internal/x", "metadata"),
            ("http:///h", "empty"),
            ("http://192.0.2.2:8080/", "TEST-NET-1"),
            ("http://vm:8080/", "single-label"),         # /etc/hosts: 127.0.0.1
            ("http://localhost./x", "special-use"),
            # and the ranges refused before
            ("http://127.0.0.1:9/x", "loopback"), ("http://[::1]/x", "loopback"),
            ("http://10.1.2.3/x", "private-use"), ("http://192.168.0.1/", "private-use"),
            ("http://169.254.169.254/latest", "link-local"), ("http://[fe80::1]/", "link-local"),
            ("http://[::ffff:127.0.0.1]/", "loopback"), ("https://app.localhost/", "special-use"),
            ("http://[64:ff9b::7f00:1]/", "loopback"), ("http://2130706433/", "decimal"),
        ]
        for url, why in refused:
            with self.subTest(url=url):
                doc = self.assertProblem(a.req("POST", "/api/me/webhooks", {"url": url}), 422,
                                         "webhook-target-refused", "url")
                self.assertIn(why, doc["detail"])
        self.assertEqual(a.req("GET", "/api/me/webhooks").json()["webhooks"], [])

    def refused_when_connecting(self, host):
        """A hook whose URL is put in the table by hand: the worker gives
        up after its attempts, never reaching the receiver; the last error."""
        rx = Receiver(host=host)
        self.addCleanup(rx.close)
        a, b = ml.Client(self.server, "Alice"), ml.Client(self.server, "Bob")
        h = hook(a, "https://example.org/hook")
        self.db.psql("UPDATE webhooks SET url = '%s' WHERE id = %d" % (rx.url("/x"), h["id"]))
        game = ml.start_match([a, b])
        path = "/api/me/webhooks/%d/deliveries" % h["id"]
        failed = wp.wait_until(lambda: [d for d in a.req("GET", path).json()["deliveries"]
                                        if d["game"] == game and d["state"] == "failed"],
                               DELIVERY_WAIT, 0.05)
        self.assertTrue(failed, a.req("GET", path).json())
        d = failed[0]
        self.assertEqual((d["attempts"], len(d["log"]), d["next_attempt_at"]), (2, 2, None))
        self.assertEqual(rx.calls, [], "the refused address was never called")
        return d["last_error"]

    def test_private_address_refused_when_connecting_then_given_up(self):
        self.assertIn("refused", self.refused_when_connecting("127.0.0.1"))
        metrics = self.server.request("GET", "/metrics").body.decode()
        self.assertRegex(metrics, r"(?m)^warpost_webhook_failed_total [1-9]")
        self.assertRegex(metrics, r"(?m)^warpost_webhook_attempts_total [2-9]")

    def test_own_interface_address_refused_when_connecting(self):
        """Issue 24: a delivery reached http://192.0.2.2:P/, this machine's
        own eth0. An address of the host's own interfaces is refused when
        connecting (getifaddrs), whatever range it lies in."""
        addr = interface_address()
        self.assertIsNotNone(addr, "this machine has no interface but loopback")
        self.assertIn("one of this server's own", self.refused_when_connecting(addr))


if __name__ == "__main__":
    wp.main()
