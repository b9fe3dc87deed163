"""Issue 16, item 1: one client cannot take every HTTP connection.

A client here is 127.0.0.2 (any 127/8 address reaches the server on
127.0.0.1); the requests that must still be served come from 127.0.0.1.
Small limits (MAX_CONNECTIONS, PER_IP_CONNECTIONS, REQUEST_TIMEOUT) make
the effect show in seconds."""
import os
import socket
import sys
import threading
import time
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import matchlib as ml  # noqa: E402
from matchlib import wp  # noqa: E402

OTHER = "127.0.0.2"


def connect_from(port, timeout=5):
    return wp.raw_connect(port, timeout=timeout, source=OTHER)


def served(sock, path="/api/health"):
    """Whether a request sent on an open connection gets an answer."""
    try:
        sock.sendall(("GET %s HTTP/1.1\r\nHost: x\r\n\r\n" % path).encode())
        return wp.parse_reply(wp.read_reply(sock, timeout=5))[0] == 200
    except (OSError, ValueError, AssertionError, IndexError, TypeError):
        return False


def closed_by_server(sock, deadline):
    """Whether the server closes the connection before the deadline."""
    sock.settimeout(max(0.01, deadline - time.monotonic()))
    try:
        return sock.recv(1) == b""
    except socket.timeout:
        return False
    except OSError:
        return True   # reset




class SlowRequestTest(wp.ServerTestCase):
    """A request must arrive whole within REQUEST_TIMEOUT, however steadily
    its bytes trickle in; CONNECTION_TIMEOUT (idle) is far away."""
    server_env = {"MAX_CONNECTIONS": "8", "PER_IP_CONNECTIONS": "0", "THREADS": "2",
                  "REQUEST_TIMEOUT": "1", "CONNECTION_TIMEOUT": "600"}

    def test_slow_headers_bodies_and_idle_connections_are_cut(self):
        stop = threading.Event()
        heads = "GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: " + "a" * 200
        body_req = ("POST /api/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                    "\r\nContent-Length: 200\r\n\r\n{\"name\": \"" + "b" * 200)
        outcome = {}

        def loris(i, data):
            s = connect_from(self.server.port)
            try:
                for ch in data:
                    if stop.is_set():
                        break
                    try:
                        s.sendall(ch.encode())
                    except OSError:
                        outcome[i] = "closed"
                        return
                    # a byte a beat: never idle for long, never done
                    if closed_now(s):
                        outcome[i] = "closed"
                        return
                outcome[i] = "still open"
            finally:
                s.close()

        def closed_now(s):
            s.settimeout(0.2)
            try:
                return s.recv(1) == b""
            except socket.timeout:
                return False
            except OSError:
                return True

        def idle(i, _):
            s = connect_from(self.server.port)
            try:
                outcome[i] = "closed" if closed_by_server(s, time.monotonic() + 30) \
                    else "still open"
            finally:
                s.close()

        # every connection the server takes: 5 trickling headers, 2 a body,
        # 1 sending nothing
        threads = [threading.Thread(target=idle if i == 7 else loris,
                                    args=(i, heads if i < 5 else body_req))
                   for i in range(8)]
        for t in threads:
            t.start()
        try:
            for t in threads:
                t.join(60)
        finally:
            stop.set()
        self.assertEqual(outcome, {i: "closed" for i in range(8)})
        self.assertEqual(self.req("GET", "/api/health").status, 200)

    def test_an_idle_keep_alive_connection_is_not_a_slow_request(self):
        """After an answer, a connection waiting for its next request is
        idle, not slow: it outlives REQUEST_TIMEOUT (CONNECTION_TIMEOUT is
        for it) and is not logged as late, where a connection opened after
        it that sends nothing is cut and logged."""
        late = "whose request took over REQUEST_TIMEOUT"

        def logged_late():
            return sum(int(l.split(" closed ")[1].split()[0])
                       for l in self.server.log_lines() if late in l)

        before = logged_late()
        keep = connect_from(self.server.port)
        try:
            self.assertTrue(served(keep))
            silent = connect_from(self.server.port)
            try:
                self.assertTrue(closed_by_server(silent, time.monotonic() + 30))
            finally:
                silent.close()
            wp.wait_until(lambda: logged_late() > before, 5)
            self.assertEqual(logged_late() - before, 1, self.server.stderr_text()[-2000:])
            self.assertTrue(served(keep))
        finally:
            keep.close()

    def test_a_keep_alive_connection_serves_several_requests(self):
        s = wp.raw_connect(self.server.port)
        try:
            for _ in range(3):
                self.assertTrue(served(s))
        finally:
            s.close()


class ConnectionLimitTest(wp.ServerTestCase):
    """8 connections in all, 6 from one address."""
    server_env = {"MAX_CONNECTIONS": "8", "PER_IP_CONNECTIONS": "6", "THREADS": "2"}

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.a = ml.Client(cls.server, "Ann")
        cls.b = ml.Client(cls.server, "Bob")

    def poll_and_leave(self, game, n):
        """n long-polls from one address, each seen waiting, then closed by
        their client. Connections that same address closed just before may
        still be counted for a moment, and the server then turns a new one
        away: a poll not seen waiting within 5 s is sent again."""
        socks = []

        def one_more():
            before = wp.metric(self.server, "warpost_longpolls_total")
            s = connect_from(self.server.port)
            s.sendall(("GET /api/games/%d?wait=60 HTTP/1.1\r\nHost: x\r\n"
                       "If-None-Match: *\r\n\r\n" % game).encode())
            if wp.wait_until(lambda: wp.metric(self.server, "warpost_longpolls_total")
                             >= before + 1, 5):
                socks.append(s)
                return True
            s.close()
            return False
        try:
            for _ in range(n):
                self.assertTrue(wp.wait_until(one_more, 30),
                                "a long-poll did not start waiting")
        finally:
            for s in socks:
                s.close()

    def the_address_is_served(self, k):
        socks = []
        try:
            socks = [connect_from(self.server.port) for _ in range(k)]
            return all(served(s) for s in socks)
        except OSError:
            return False
        finally:
            for s in socks:
                s.close()

    def test_one_address_cannot_take_every_connection(self):
        seen = []

        def attempt():
            # as many connections as the server takes at all, from one address
            socks = [connect_from(self.server.port) for _ in range(8)]
            try:
                # someone else is still served
                with wp.raw_connect(self.server.port) as s:
                    other = [served(s) for _ in range(3)]
                # and the one address got its share, no more
                mine = sum(served(s) for s in socks)
                seen.append((other, mine))
                return other == [True] * 3 and mine == 6
            finally:
                for s in socks:
                    s.close()

        # (connections closed by an earlier test may still be counted for
        # a moment: try again until they are not)
        self.assertTrue(wp.wait_until(attempt, 30), seen)

    def test_closed_long_polls_free_their_slots(self):
        """A long-poll whose client closed frees its connection at once, not
        at its deadline: after 6 polls (?wait=60) from one address were
        closed by their client, 6 new connections from it are served at
        once (without the release the server would be 4 short)."""
        game = ml.start_match([self.a, self.b])
        for _ in range(2):
            self.poll_and_leave(game, 6)
            self.assertTrue(wp.wait_until(lambda: self.the_address_is_served(6), 30),
                            "the closed long-polls still hold their connections")


if __name__ == "__main__":
    wp.main()
