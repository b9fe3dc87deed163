"""Issue 16, item 6: FastCGI long-polls do not take the API down.

warpostd --fcgi with THREADS=2 behind the shipped nginx configuration: a
long-poll holds no worker while it waits, a poll whose client left is
dropped at once, and a request that waited in the queue longer than
FCGI_QUEUE_TIMEOUT is answered 503 overloaded without being worked on."""
import os
import re
import socket
import struct
import sys
import time
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import matchlib as ml  # noqa: E402
from matchlib import wp  # noqa: E402

THREADS = 2


def move(a, b):
    return {"type": "move", "from": a, "to": b}


def longpoll_bytes(game, wait=60, headers=None):
    h = {"Host": "x", "If-None-Match": "*"}
    h.update(headers or {})
    return ("GET /api/games/%d?wait=%d HTTP/1.1\r\n" % (game, wait) +
            "".join("%s: %s\r\n" % kv for kv in h.items()) + "\r\n").encode()


# A minimal FastCGI client (the FastCGI 1.0 specification), to send what
# nginx would, with a WARPOST_QUEUED_AT of our choosing.
def _record(rtype, content, req_id=1):
    return struct.pack(">BBHHBx", 1, rtype, req_id, len(content), 0) + content


def _pair(k, v):
    k, v = k.encode(), v.encode()
    def n(b):
        return struct.pack(">B", len(b)) if len(b) < 128 else struct.pack(">I", len(b) | 1 << 31)
    return n(k) + n(v) + k + v


def fcgi_request(sock_path, params, stdin=b""):
    env = b"".join(_pair(k, v) for k, v in params.items())
    data = (_record(1, struct.pack(">HB5x", 1, 0)) + _record(4, env) + _record(4, b"") +
            (_record(5, stdin) if stdin else b"") + _record(5, b""))
    out = b""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(10)
        s.connect(sock_path)
        s.sendall(data)
        buf = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            buf += chunk
        while len(buf) >= 8:
            _, rtype, _, clen, plen = struct.unpack(">BBHHB", buf[:7])
            content = buf[8:8 + clen]
            buf = buf[8 + clen + plen:]
            if rtype == 6:
                out += content
            if rtype == 3:
                break
    head, _, body = out.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (l.partition(":") for l in lines)}
    return int(headers["status"].split()[0]), headers, body


class FcgiLongPollTest(wp.ServerTestCase):
    start_server = False

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.fcgi = wp.FcgiServer(cls.db.url, env={"THREADS": str(THREADS),
                                                  "FCGI_QUEUE_TIMEOUT": "30"})
        cls.addClassCleanup(cls.fcgi.stop)
        cls.fcgi.start()
        cls.nginx = wp.Nginx(cls.fcgi.socket_path)
        cls.addClassCleanup(cls.nginx.stop)
        cls.nginx.start()
        cls.a = ml.Client(cls.nginx, "Ann")
        cls.b = ml.Client(cls.nginx, "Bob")

    def tearDown(self):
        if not self.fcgi.alive():
            self.fail("warpostd --fcgi died:\n" + self.fcgi.stderr_text()[-4000:])

    def longpolls_started(self):
        try:
            r = self.nginx.request("GET", "/metrics", timeout=5)
        except OSError:
            return None
        m = re.search(r"^warpost_longpolls_total (\d+)", r.body.decode(), re.M)
        return int(m.group(1)) if m else None

    def open_polls(self, game, n, etag="*", source=None):
        before = self.longpolls_started()
        socks = []
        for _ in range(n):
            s = wp.raw_connect(self.nginx.port, timeout=30, source=source)
            s.sendall(longpoll_bytes(game, headers={"If-None-Match": etag}))
            socks.append(s)
        # every one is waiting in warpostd before we go on
        self.assertTrue(wp.wait_until(
            lambda: (self.longpolls_started() or 0) >= before + n, 30),
            "the long-polls did not all reach warpostd:\n" + self.fcgi.stderr_text()[-2000:])
        return socks

    def test_long_polls_hold_no_worker(self):
        game = ml.start_match([self.a, self.b])
        etag = self.nginx.request("GET", "/api/games/%d" % game).headers["etag"]
        socks = self.open_polls(game, 3 * THREADS, etag)
        try:
            # the API answers while three times THREADS polls wait
            for _ in range(2 * THREADS):
                self.assertEqual(self.nginx.request("GET", "/api/health", timeout=10).status, 200)
            self.assertEqual(self.nginx.request("GET", "/api/rulesets", timeout=10).status, 200)
            r = self.a.turn(game, 1, [move("d1", "d2")])
            self.assertEqual(r.status, 200, r)
            # and the waiting polls are answered by the change
            for s in socks:
                reply = wp.parse_reply(wp.read_reply(s, timeout=20))
                self.assertEqual(reply.status, 200, reply)
                self.assertEqual(reply.json()["seq"], 2)
        finally:
            for s in socks:
                s.close()

    def test_a_poll_whose_client_left_is_dropped(self):
        game = ml.start_match([self.a, self.b])
        path = "/api/games/%d" % game
        socks = self.open_polls(game, 2 * THREADS)
        for s in socks:
            s.close()
        # nginx closes its connection to warpostd; warpostd drops the
        # requests (logged as 499) at once, not at their 60 s deadline
        rx = re.compile(r"GET %s 499 " % re.escape(path))
        self.assertTrue(wp.wait_until(
            lambda: len([l for l in self.fcgi.log_lines() if rx.search(l)]) == 2 * THREADS, 30),
            self.fcgi.stderr_text()[-3000:])
        self.assertEqual(self.nginx.request("GET", "/api/health").status, 200)

    def test_nginx_limits_each_client_address(self):
        # the shipped configuration: 32 requests in progress per address
        game = ml.start_match([self.a, self.b])
        socks = self.open_polls(game, 32, source="127.0.0.2")
        try:
            with wp.raw_connect(self.nginx.port, source="127.0.0.2") as s:
                s.sendall(wp.http_request_bytes("GET", "/api/health"))
                r = wp.parse_reply(wp.read_reply(s))
            wp.assert_problem(r, 503, "overloaded")
            self.assertEqual(r.headers.get("retry-after"), "5", r)
            # another address is served
            self.assertEqual(self.nginx.request("GET", "/api/health").status, 200)
        finally:
            for s in socks:
                s.close()

    def test_a_request_queued_too_long_is_refused_unworked(self):
        new = b'{"name": "Queued"}'
        params = {"REQUEST_METHOD": "POST", "REQUEST_URI": "/api/players",
                  "CONTENT_TYPE": "application/json", "CONTENT_LENGTH": str(len(new)),
                  "REMOTE_ADDR": "127.0.0.1", "SERVER_PROTOCOL": "HTTP/1.1",
                  "WARPOST_QUEUED_AT": "%.3f" % (time.time() - 3600)}
        before = self.db.psql("SELECT count(*) FROM players").strip()
        status, headers, body = fcgi_request(self.fcgi.socket_path, params, new)
        self.assertEqual(status, 503, body)
        self.assertEqual(headers.get("retry-after"), "5")
        self.assertIn(b"urn:warpost:problem:overloaded", body)
        self.assertEqual(self.db.psql("SELECT count(*) FROM players").strip(), before)
        # the same request with a fresh stamp is served
        params["WARPOST_QUEUED_AT"] = "%.3f" % time.time()
        status, _, body = fcgi_request(self.fcgi.socket_path, params, new)
        self.assertEqual(status, 201, body)


if __name__ == "__main__":
    wp.main()
