"""Nothing lost, nothing doubled, nothing replayed: many clients posting
against one sequence number, retried posts with an Idempotency-Key,
long-polls woken by NOTIFY (also across two server instances), and GETs
that do the same work on a match of 5,000 posts as on one of 5.
(Issue "Match service": Turns, Views, item 9, Concurrency test.)"""
import http.client
import json
import re
import threading
import time
import unittest

import matchlib as ml
from matchlib import wp


def move(a, b):
    return {"type": "move", "from": a, "to": b}


def metrics(server):
    r = server.request("GET", "/metrics")
    assert r.status == 200, r
    out = {}
    for line in r.body.decode().splitlines():
        m = re.match(r"^(warpost_[a-z_]+)(\{[^}]*\})? (\d+)$", line)
        if m:
            out[m.group(1) + (m.group(2) or "")] = int(m.group(3))
    return out


class ConcurrencyTest(wp.ServerTestCase):

    def setUp(self):
        self.a = ml.Client(self.server, "Alice")
        self.b = ml.Client(self.server, "Bob")

    def test_one_winner_per_sequence_number(self):
        game = ml.start_match([self.a, self.b])
        candidates = [move("d1", "d2"), move("d1", "c2"), move("e1", "e2"), move("e1", "f2"),
                      move("f1", "f2"), move("f1", "g2"), move("d1", "e2"), move("f1", "e2")] * 2
        results = [None] * len(candidates)
        go = threading.Event()

        def post(i):
            go.wait()
            results[i] = self.a.turn(game, 1, [candidates[i]])

        threads = [threading.Thread(target=post, args=(i,)) for i in range(len(candidates))]
        for t in threads:
            t.start()
        go.set()
        for t in threads:
            t.join()
        codes = sorted(r.status for r in results)
        self.assertEqual(codes.count(200), 1, codes)
        for r in results:
            if r.status != 200:
                self.assertProblem(r, 409, "stale-sequence")
        seqs = [int(x) for x in self.db.psql(
            "SELECT seq FROM posts WHERE game_id = %d ORDER BY seq" % game).split()]
        self.assertEqual(seqs, [1, 2], "no gap and no duplicate in the log")

    def test_side_posts_do_not_make_a_turn_stale(self):
        """Standing orders and draw offers are posts (the log orders every
        change), but a turn made against the seq before them still stands;
        a move or a start in between makes it stale."""
        game = ml.start_match([self.a, self.b])
        self.assertEqual(self.b.req("POST", "/api/games/%d/orders" % game,
                                    {"orders": {"dodge": "never"}}).status, 200)
        self.assertEqual(self.b.req("POST", "/api/games/%d/draw" % game,
                                    {"action": "offer"}).status, 200)
        self.assertEqual(self.a.req("POST", "/api/games/%d/draw" % game,
                                    {"action": "decline"}).status, 200)
        self.assertEqual(ml.seq_of(self.a, game), 4)
        r = self.a.turn(game, 1, [move("d1", "d2")])
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json()["seq"], 5)
        r = self.b.turn(game, 4, [move("d8", "d7")])
        self.assertProblem(r, 409, "stale-sequence")
        self.assertEqual(r.json()["seq"], 5)
        self.assertProblem(self.b.turn(game, 0, [move("d8", "d7")]), 409, "stale-sequence")
        self.assertProblem(self.b.turn(game, 9, [move("d8", "d7")]), 409, "stale-sequence")

    def test_retries_with_the_same_key_apply_once(self):
        game = ml.start_match([self.a, self.b])
        results = [None] * 8
        go = threading.Event()

        def post(i):
            go.wait()
            results[i] = self.a.turn(game, 1, [move("d1", "d2")], comment="once", key="retry-1")

        threads = [threading.Thread(target=post, args=(i,)) for i in range(len(results))]
        for t in threads:
            t.start()
        go.set()
        for t in threads:
            t.join()
        self.assertEqual({r.status for r in results}, {200}, [r.status for r in results])
        self.assertEqual(len({r.body for r in results}), 1, "every retry gets the same bytes")
        self.assertEqual(sum(1 for r in results if r.headers.get("idempotent-replayed")), 7)
        self.assertEqual(self.db.psql("SELECT count(*) FROM posts WHERE game_id = %d AND "
                                      "kind = 'turn'" % game).strip(), "1")
        self.assertEqual(ml.seq_of(self.a, game), 2)

    def test_long_poll_wakes_on_a_post(self):
        game = ml.start_match([self.a, self.b])
        r = self.b.view(game)
        etag = r.headers["etag"]
        self.assertEqual(self.b.view(game, {"If-None-Match": etag}).status, 304)
        got = {}

        def waiter():
            t0 = time.monotonic()
            got["r"] = self.b.req("GET", "/api/games/%d?wait=30" % game,
                                  headers={"If-None-Match": etag}, timeout=40)
            got["t"] = time.monotonic() - t0

        t = threading.Thread(target=waiter)
        t.start()
        time.sleep(0.5)
        self.assertEqual(self.a.turn(game, 1, [move("d1", "d2")]).status, 200)
        t.join(35)
        self.assertEqual(got["r"].status, 200, got["r"])
        self.assertLess(got["t"], 20, "woken by the post, not by the deadline")
        self.assertEqual(got["r"].json()["seq"], 2)
        self.assertNotEqual(got["r"].headers["etag"], etag)
        # While it waited, the HTTP front kept only a parked copy of the
        # request (issue 17, long-poll memory): served again, it is still
        # B's, Authorization included, not a spectator's.
        mine = self.b.view(game)
        spectator = self.server.request("GET", "/api/games/%d" % game)
        self.assertNotEqual(spectator.headers["etag"], mine.headers["etag"])
        self.assertEqual(got["r"].headers["etag"], mine.headers["etag"])
        self.assertEqual(got["r"].json(), mine.json())

    def test_long_poll_times_out_with_304(self):
        game = ml.start_match([self.a, self.b])
        etag = self.a.view(game).headers["etag"]
        t0 = time.monotonic()
        r = self.a.req("GET", "/api/games/%d?wait=1" % game, headers={"If-None-Match": etag})
        self.assertEqual(r.status, 304, r)
        self.assertGreaterEqual(time.monotonic() - t0, 0.9)
        self.assertEqual(r.body, b"")

    def test_long_poll_across_two_instances(self):
        """NOTIFY keeps several srv instances on one database in step."""
        game = ml.start_match([self.a, self.b])
        other = wp.Server(self.db.url).start()
        try:
            etag = self.b.view(game).headers["etag"]
            got = {}

            def waiter():
                got["r"] = other.request("GET", "/api/games/%d?wait=30" % game,
                                         headers={"If-None-Match": etag,
                                                  "Authorization": "Bearer " + self.b.token},
                                         timeout=40)

            t = threading.Thread(target=waiter)
            t0 = time.monotonic()
            t.start()
            time.sleep(0.5)
            self.assertEqual(self.a.turn(game, 1, [move("d1", "d2")]).status, 200)
            t.join(35)
            self.assertEqual(got["r"].status, 200, got["r"])
            self.assertLess(time.monotonic() - t0, 20)
        finally:
            other.stop()

    def play_toggles(self, game, posts):
        """Each seat moves its Scout back and forth, posts turns in all, on
        one keep-alive connection per player: a new connection a post cost
        the sanitizer build most of this module's time."""
        seq = ml.seq_of(self.a, game)
        conns = {}
        try:
            for i in range(posts):
                p = self.a if i % 2 == 0 else self.b
                back = (i // 2) % 2
                m = (move("d2", "d1") if back else move("d1", "d2")) if p is self.a else \
                    (move("d7", "d8") if back else move("d8", "d7"))
                if p.token not in conns:
                    conns[p.token] = http.client.HTTPConnection("127.0.0.1", self.server.port,
                                                                timeout=15)
                c = conns[p.token]
                c.request("POST", "/api/games/%d/turns" % game,
                          body=json.dumps({"seq": seq, "actions": [m]}),
                          headers={"Authorization": "Bearer " + p.token,
                                   "Content-Type": "application/json"})
                r = c.getresponse()
                body = r.read()
                self.assertEqual(r.status, 200, body)
                seq += 1
        finally:
            for c in conns.values():
                c.close()

    def test_get_does_not_replay_the_log(self):
        """Issue "Match service" item 9: GET of a match of 5,000 posts does
        the same work as GET of a match of 5: the same statements, the same
        rows, one snapshot load and no ruleset apply."""
        small = ml.start_match([self.a, self.b], {"turn_limit": 10000})
        big = ml.start_match([self.a, self.b], {"turn_limit": 10000})
        self.play_toggles(small, 4)
        self.play_toggles(big, 4999)
        self.assertEqual(ml.seq_of(self.a, big), 5000)
        work = {}
        for name, game in (("small", small), ("big", big)):
            self.a.view(game)  # warm: connection and prepared statements exist
            # The least of three GETs: what a GET needs, not what the
            # caches (a token's lifetime, a new pooled connection) add
            # now and then, whatever the match's length.
            runs = []
            for _ in range(3):
                before = metrics(self.server)
                r = self.a.view(game)
                after = metrics(self.server)
                self.assertEqual(r.status, 200, r)
                runs.append({k: after[k] - before.get(k, 0) for k in after
                             if not k.startswith("warpost_http")})
            work[name] = {k: min(run[k] for run in runs) for k in runs[0]}
        self.assertEqual(work["small"], work["big"])
        self.assertEqual(work["big"]["warpost_rules_applies_total"], 0)
        self.assertEqual(work["big"]["warpost_rules_state_loads_total"], 1)


if __name__ == "__main__":
    wp.main()
