"""Live updates (issue 14): GET /api/games/{id}/events is a Server-Sent
Events stream of a match's posts. Each event is one post (id = its seq,
data = the post exactly as GET /api/games/{id}/turns gives it to the same
caller, RULINGS.md G5); Last-Event-ID (or ?after=) resumes with exactly
the posts missed; with nothing to send the request waits for NOTIFY like a
long-poll; through nginx and the FastCGI front as well."""
import json
import random
import threading
import unittest

import matchlib as ml
from matchlib import wp

def parse_sse(body):
    """The events of a text/event-stream body: [(id, event, data)], and
    the last id field seen (events without data included)."""
    events, last_id = [], None
    for block in body.decode().split("\n\n"):
        ev = {"data": []}
        for line in block.split("\n"):
            if not line or line.startswith(":"):
                continue
            k, _, v = line.partition(":")
            v = v[1:] if v.startswith(" ") else v
            if k == "data":
                ev["data"].append(v)
            else:
                ev[k] = v
        if "id" in ev:
            last_id = ev["id"]
        if ev["data"]:
            events.append((int(ev["id"]), ev.get("event"), "\n".join(ev["data"])))
    return events, last_id


def open_stream(test, game, who, query="", headers=None):
    """Sends an EventSource's request (Last-Event-ID 1) on a raw socket:
    the answer's headers and a function reading its next chunk."""
    sock = wp.raw_connect(test.server.port, timeout=20)
    test.addCleanup(sock.close)
    sock.sendall(wp.http_request_bytes("GET", "/api/games/%d/events%s" % (game, query), dict({
        "Host": "x", "Accept": "text/event-stream", "Last-Event-ID": "1",
        "Authorization": "Bearer " + who.token}, **(headers or {}))))
    f = sock.makefile("rb")
    test.addCleanup(f.close)
    test.assertIn(b" 200 ", f.readline())
    headers = {}
    for line in iter(f.readline, b"\r\n"):
        k, _, v = line.decode().partition(":")
        headers[k.strip().lower()] = v.strip()

    def part():
        size = int(f.readline().strip(), 16)
        data = f.read(size)
        f.readline()
        return data
    return headers, part


def play(players, game, n):
    """n turns, each a legal action of the awaited seat (seeded)."""
    ml.play_random(players, game, n, random.Random(n))


class EventsTest(wp.NginxTestCase):

    def setUp(self):
        self.a = ml.Client(self.server, "Ann")
        self.b = ml.Client(self.server, "Ben")

    def events(self, game, who=None, headers=None, query="wait=0", via=None):
        h = dict(headers or {})
        if who is not None:
            h.update(ml.auth(who.token))
        via = via or self.server
        r = via.request("GET", "/api/games/%d/events?%s" % (game, query), headers=h)
        return r

    def turns_posts(self, game, who=None):
        h = ml.auth(who.token) if who else None
        r = self.server.request("GET", "/api/games/%d/turns?after=0" % game, headers=h)
        self.assertEqual(r.status, 200, r)
        return r.json()["posts"]

    def test_one_event_per_post_as_the_turns_log_gives_it(self):
        game = ml.start_match([self.a, self.b])
        play([self.a, self.b], game, 3)
        for who in (self.a, self.b, None):
            r = self.events(game, who, {"Last-Event-ID": "0"})
            self.assertEqual(r.status, 200, r)
            self.assertEqual(r.media_type, "text/event-stream")
            self.assertEqual(r.headers.get("x-accel-buffering"), "no")
            evs, _ = parse_sse(r.body)
            self.assertEqual([e[0] for e in evs], [1, 2, 3, 4])
            self.assertEqual({e[1] for e in evs}, {"post"})
            # Byte for byte what the log gives the same caller (G5).
            logged = [json.dumps(p, separators=(",", ":")) for p in self.turns_posts(game, who)]
            self.assertEqual([json.loads(e[2]) for e in evs],
                             [json.loads(x) for x in logged])

    def test_resumption_gives_exactly_the_missed_posts(self):
        game = ml.start_match([self.a, self.b])
        play([self.a, self.b], game, 2)
        evs, last = parse_sse(self.events(game, self.a, {"Last-Event-ID": "0"}).body)
        self.assertEqual(last, "3")
        play([self.a, self.b], game, 2)  # missed while disconnected
        evs, last = parse_sse(self.events(game, self.a, {"Last-Event-ID": last}).body)
        self.assertEqual([e[0] for e in evs], [4, 5])
        self.assertEqual(last, "5")
        # ?after= is the same place for a client that cannot set headers.
        evs2, _ = parse_sse(self.events(game, self.a, query="after=3&wait=0").body)
        self.assertEqual(evs2, evs)
        # Nothing new: no event, but the id keeps the client's place.
        r = self.events(game, self.a, {"Last-Event-ID": "5"})
        evs, last = parse_sse(r.body)
        self.assertEqual((evs, last), ([], "5"))
        self.assertIn(b"retry:", r.body)
        # No id at all: from now on.
        evs, last = parse_sse(self.events(game, self.a).body)
        self.assertEqual((evs, last), ([], "5"))

    def test_a_waiting_stream_is_woken_by_a_post(self):
        game = ml.start_match([self.a, self.b])
        before = self.longpolls()
        got = {}

        def listen():
            got["r"] = self.events(game, self.b, {"Last-Event-ID": "1"}, query="wait=30")

        t = threading.Thread(target=listen)
        t.start()
        wp.wait_until(lambda: self.longpolls() > before, 10)
        play([self.a, self.b], game, 1)
        t.join(20)
        self.assertFalse(t.is_alive())
        evs, last = parse_sse(got["r"].body)
        self.assertEqual(([e[0] for e in evs], last), ([2], "2"))

    def longpolls(self):
        text = self.server.request("GET", "/metrics").body.decode()
        for line in text.splitlines():
            if line.startswith("warpost_longpolls_total"):
                return int(float(line.split()[-1]))
        self.fail("no long-poll counter in /metrics")

    def test_the_end_stops_the_stream(self):
        game = ml.start_match([self.a, self.b])
        self.assertEqual(self.a.req("POST", "/api/games/%d/resign" % game).status, 200)
        evs, _ = parse_sse(self.events(game, self.b, {"Last-Event-ID": "0"}).body)
        self.assertEqual([e[0] for e in evs], [1, 2])
        r = self.events(game, self.b, {"Last-Event-ID": "2"}, query="wait=30")
        self.assertEqual(r.status, 204, "EventSource stops on 204")

    def test_bad_place_is_a_problem_and_changes_nothing(self):
        game = ml.start_match([self.a, self.b])
        for h, q in (({"Last-Event-ID": "x"}, "wait=0"), ({"Last-Event-ID": "-3"}, "wait=0"),
                     ({}, "after=abc"), ({}, "wait=99")):
            self.assertProblem(self.events(game, None, h, q), 400, "invalid-request")
        self.assertProblem(self.events(999999), 404, "game-not-found")

    def test_an_eventsource_gets_one_open_stream(self):
        """Accept: text/event-stream (what EventSource sends) over HTTP:
        one answer kept open (chunked), a part per change as it comes,
        ended when the match is over."""
        game = ml.start_match([self.a, self.b])
        headers, part = open_stream(self, game, self.b)
        self.assertEqual(headers.get("content-type"), "text/event-stream")
        self.assertEqual(headers.get("transfer-encoding"), "chunked")

        self.assertEqual(parse_sse(part()), ([], "1"), "the first part keeps the place")
        got = []
        for _ in range(2):
            play([self.a, self.b], game, 1)
            while True:
                evs, last = parse_sse(part())
                if evs:
                    break
            got += evs
        self.assertEqual([e[0] for e in got], [2, 3])
        logged = self.turns_posts(game, self.b)
        self.assertEqual([json.loads(e[2]) for e in got], logged[1:3])
        self.assertEqual(self.a.req("POST", "/api/games/%d/resign" % game).status, 200)
        tail = b""
        while True:
            p = part()
            if not p:
                break
            tail += p
        self.assertEqual([e[0] for e in parse_sse(tail)[0]], [4], "then the stream ends")

    def my_events(self, who, last=None, wait=0, via=None):
        h = ml.auth(who.token)
        if last is not None:
            h["Last-Event-ID"] = last
        via = via or self.server
        return via.request("GET", "/api/me/events?wait=%d" % wait, headers=h)

    def test_my_matches_stream(self):
        """One `games` event with what GET /api/me/games gives; its id
        resumes: the same id waits (a ping keeps it), a change of any of
        my matches (a join, a post) gives the list again with a new id."""
        c = ml.Client(self.server, "Cat")
        r = self.my_events(c)
        self.assertEqual(r.status, 200, r)
        evs, last = parse_sse(r.body)
        self.assertEqual([(e[1], json.loads(e[2])["count"]) for e in evs], [("games", 0)])
        self.assertEqual(parse_sse(self.my_events(c, last).body), ([], last))
        g = c.create(2)
        evs, last2 = parse_sse(self.my_events(c, last).body)
        self.assertNotEqual(last2, last)
        mine = c.req("GET", "/api/me/games").json()
        self.assertEqual(json.loads(evs[0][2]), mine)
        self.assertEqual(parse_sse(self.my_events(c, last2).body), ([], last2))
        # Someone else's match does not concern me.
        ml.start_match([self.a, self.b])
        self.assertEqual(parse_sse(self.my_events(c, last2).body), ([], last2))
        before = self.longpolls()
        got = {}

        def listen():
            got["r"] = self.my_events(c, last2, wait=30)

        t = threading.Thread(target=listen)
        t.start()
        wp.wait_until(lambda: self.longpolls() > before, 10)
        self.assertEqual(self.a.join(g["id"], g["invitations"][0]["code"]).status, 200)
        t.join(20)
        self.assertFalse(t.is_alive())
        evs, last3 = parse_sse(got["r"].body)
        self.assertNotEqual(last3, last2)
        self.assertEqual(json.loads(evs[0][2])["games"][0]["status"], "active")
        self.assertProblem(self.server.request("GET", "/api/me/events"), 401, "unauthorized")

    def test_through_nginx_and_fastcgi(self):
        """The same events through nginx and the FastCGI front, resumed
        there, and a waiting stream woken by a post made over HTTP."""
        game = ml.start_match([self.a, self.b])
        play([self.a, self.b], game, 1)
        direct = self.events(game, self.b, {"Last-Event-ID": "0"})
        proxied = self.events(game, self.b, {"Last-Event-ID": "0"}, via=self.nginx)
        self.assertEqual(proxied.status, 200, proxied)
        self.assertEqual(proxied.media_type, "text/event-stream")
        self.assertEqual(proxied.body, direct.body)
        got = {}

        def listen():
            got["r"] = self.events(game, self.b, {"Last-Event-ID": "2"}, query="wait=30",
                                   via=self.nginx)

        t = threading.Thread(target=listen)
        t.start()
        play([self.a, self.b], game, 1)
        t.join(30)
        self.assertFalse(t.is_alive())
        evs, last = parse_sse(got["r"].body)
        self.assertEqual(([e[0] for e in evs], last), ([3], "3"))


class StreamCapTest(wp.ServerTestCase):
    """Open streams take at most half of MAX_CONNECTIONS; past that an
    EventSource gets finite answers, as through FastCGI."""

    server_env = {"MAX_CONNECTIONS": "6"}

    def test_streams_past_the_cap_get_finite_answers(self):
        a, b = ml.Client(self.server, "Ann"), ml.Client(self.server, "Ben")
        game = ml.start_match([a, b])
        for _ in range(3):
            headers, part = open_stream(self, game, b)
            self.assertEqual(headers.get("transfer-encoding"), "chunked")
            self.assertEqual(parse_sse(part()), ([], "1"))
        r = self.server.request("GET", "/api/games/%d/events?wait=0" % game, headers={
            "Accept": "text/event-stream", "Last-Event-ID": "1"})
        self.assertEqual(r.status, 200, r)
        self.assertNotIn("transfer-encoding", r.headers)
        self.assertEqual(parse_sse(r.body), ([], "1"))


class StreamRateTest(wp.ServerTestCase):
    """An open stream is one request to the rate limit, however many
    parts it sends (README, "Rate limits"): its parts are the same answer
    served again, not requests of their own."""

    server_env = {"RATE_LIMITS": "on", "TRUST_X_FORWARDED_FOR": "1",
                  "RATE_LIMIT_REQUESTS": "3/3600", "RATE_LIMIT_WRITES": "off",
                  "RATE_LIMIT_PLAYERS": "off", "RATE_LIMIT_GAMES": "off"}

    def test_a_stream_counts_once(self):
        a, b = ml.Client(self.server, "Ann"), ml.Client(self.server, "Ben")
        addresses = ("10.0.8.%d" % i for i in range(1, 250))
        for p in (a, b):
            p.via = {"X-Forwarded-For": next(addresses)}
        game = ml.start_match([a, b])
        headers, part = open_stream(self, game, b, headers={"X-Forwarded-For": "10.0.9.1"})
        self.assertEqual(headers.get("transfer-encoding"), "chunked")
        self.assertEqual(parse_sse(part()), ([], "1"))
        got, parts = [], 0
        rng = random.Random(5)
        while parts < 6:
            # The players' own requests come from fresh addresses.
            for p in (a, b):
                p.via = {"X-Forwarded-For": next(addresses)}
            ml.play_random([a, b], game, 1, rng)
            evs, _ = parse_sse(part())
            got += [e[0] for e in evs]
            parts += 1 if evs else 0
        # A part may carry two posts (a turn and the reaction after it,
        # told together: srv/store/tell.c); none is lost or repeated.
        self.assertEqual(got, list(range(2, 2 + len(got))), "every post, once, in order")
        self.assertGreaterEqual(parts, 6, "six parts, more than the limit of 3")
        # The stream's address has spent one request: two are left.
        via = {"X-Forwarded-For": "10.0.9.1"}
        self.assertEqual([b.req("GET", "/api/rulesets", headers=via).status for _ in range(3)],
                         [200, 200, 429])


if __name__ == "__main__":
    wp.main()
