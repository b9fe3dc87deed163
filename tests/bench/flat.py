#!/usr/bin/env python3
"""Flat in the match's length (issue 32): the time of the paths that look
into a match's past, for a match of 5 posts and one of 5,000 posts of the
test ruleset, and each 5,000/5 ratio (target <= 1.5x; reported, never
asserted).

Paths, each the median of --runs calls, the two matches taking turns call
by call (this machine's speed moves within seconds):
  - GET /api/games/{id}?at=N near the start (N = 2, 3, ...) and near the
    end (the last posts but one): each call asks another post, since the
    last past position replayed is kept;
  - a delayed spectator's GET (spectator_delay 3, no token), a post made
    before each (unmeasured) so that no kept position answers it;
  - GET /api/games/{id}/board.svg?at=N of the last posts but one;
  - POST /api/games/{id}/undo of the seat's move just made (the move is
    made unmeasured before each);
  - GET /api/games/{id}/verify once the match is over: its first call (one
    call a match) replays every post from the seed, as an audit must, so
    it is not flat, and its ratio is reported as it is; the calls after it
    (srv/api/export.c keeps the answer for the match's version).

The matches are played as tests/api/test_matches_concurrency.py's
LongMatchTest plays them: each seat toggles its Scout, two actions a turn,
one post an action, on one keep-alive connection a player.

Usage: tests/bench/flat.py [--build build] [--runs 15] [--posts 5000]
       (or tests/bench/run.py --flat). Prints a Markdown table and writes it
       to test-output/flat.md.
"""
import argparse
import http.client
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as bench  # noqa: E402  (tests/bench/run.py: the server and cluster start-up)

GOAL = 1.5


def toggle(t):
    """The t-th post of a toggling match (as LongMatchTest's toggle)."""
    seat, back = (t // 2) % 2, t % 2
    sq = ("d1", "d2") if seat == 0 else ("d8", "d7")
    return seat, {"type": "move", "from": sq[back], "to": sq[1 - back]}


class Match:
    """A started match of the test ruleset, the two players' keep-alive
    connections, and how many toggles were posted."""

    def __init__(self, srv, a, b):
        self.srv = srv
        self.who = (a, b)
        _, _, g = bench.call(srv.base, "POST", "/api/games", {
            "ruleset": "skirmish-test", "seats": 2, "seat": 0, "spectator_delay": 3,
            "options": {"turn_limit": 10000, "actions_per_turn": 2}}, a["token"])
        bench.call(srv.base, "POST", f"/api/games/{g['id']}/join",
                   {"code": g["invitations"][0]["code"]}, b["token"])
        self.id = g["id"]
        self.done = 0
        self.seq = 1
        self.conns = [self.conn(), self.conn()]
        self.anon = self.conn()

    def conn(self):
        return http.client.HTTPConnection("127.0.0.1", self.srv.port, timeout=120)

    def req(self, seat, method, path, body=None):
        """One request on the seat's connection (seat None: no token):
        (status, body bytes)."""
        c = self.anon if seat is None else self.conns[seat]
        headers = {}
        if seat is not None:
            headers["Authorization"] = "Bearer " + self.who[seat]["token"]
        data = None
        if body is not None:
            data = json.dumps(body)
            headers["Content-Type"] = "application/json"
        c.request(method, path, body=data, headers=headers)
        r = c.getresponse()
        out = r.read()
        if r.status >= 300:
            raise SystemExit(f"{method} {path}: {r.status} {out[:300]!r}")
        return r.status, out

    def play(self, posts):
        for _ in range(posts):
            seat, m = toggle(self.done)
            _, out = self.req(seat, "POST", f"/api/games/{self.id}/turns",
                              {"seq": self.seq, "actions": [m]})
            self.seq = json.loads(out)["seq"]
            self.done += 1

    def timed(self, seat, method, path, body=None):
        t = time.perf_counter()
        self.req(seat, method, path, body)
        return time.perf_counter() - t


def measure(matches, runs, ask, prepare=None):
    """{name: median seconds} of runs calls of ask(match, i), the matches
    alternating call by call; prepare(match, i) runs before each, unmeasured."""
    times = {name: [] for name in matches}
    for i in range(runs):
        for name, m in matches.items():
            if prepare:
                prepare(m, i)
            times[name].append(ask(m, i))
    return {name: statistics.median(t) for name, t in times.items()}


def flat(build, runs, posts):
    rows = []
    with bench.bench_server(build, "wp-flat-", NOTIFY_POLL_MS="600000") as srv:
        _, _, a = bench.call(srv.base, "POST", "/api/players", {"name": "Flat A"})
        _, _, b = bench.call(srv.base, "POST", "/api/players", {"name": "Flat B"})
        t0 = time.time()
        small, big = Match(srv, a, b), Match(srv, a, b)
        small.play(4)
        big.play(posts - 1)
        print(f"played {small.seq} and {big.seq} posts in {time.time() - t0:.0f} s", flush=True)
        matches = {"short": small, "long": big}
        counts = (small.seq, big.seq)  # as played; the measures add a few posts
        # warm: connections, prepared statements, the caches of a view
        for m in matches.values():
            m.req(0, "GET", f"/api/games/{m.id}")

        def row(what, medians):
            rows.append((what, medians["short"], medians["long"]))
            print(f"{what}: {medians['short'] * 1e3:.2f} ms, {medians['long'] * 1e3:.2f} ms",
                  flush=True)

        row("GET (current)", measure(matches, runs, lambda m, i: m.timed(
            0, "GET", f"/api/games/{m.id}")))
        row("GET ?at= near the start", measure(matches, runs, lambda m, i: m.timed(
            0, "GET", f"/api/games/{m.id}?at={2 + i % 3}")))
        row("GET ?at= near the end", measure(matches, runs, lambda m, i: m.timed(
            0, "GET", f"/api/games/{m.id}?at={m.seq - 1 - i % 3}")))

        def one_post(m, i):
            m.play(1)
        row("delayed spectator's GET", measure(matches, runs, lambda m, i: m.timed(
            None, "GET", f"/api/games/{m.id}"), prepare=one_post))
        row("board.svg?at= near the end", measure(matches, runs, lambda m, i: m.timed(
            0, "GET", f"/api/games/{m.id}/board.svg?at={m.seq - 1 - i % 3}")))

        for m in matches.values():
            if m.done % 2:
                m.play(1)  # to the start of a seat's turn

        def move_once(m, i):
            seat, mv = toggle(m.done)
            _, out = m.req(seat, "POST", f"/api/games/{m.id}/turns",
                           {"seq": m.seq, "actions": [mv]})
            m.seq = json.loads(out)["seq"]

        def undo(m, i):
            seat, _ = toggle(m.done)
            t = time.perf_counter()
            _, out = m.req(seat, "POST", f"/api/games/{m.id}/undo", {"seq": m.seq})
            took = time.perf_counter() - t
            m.seq = json.loads(out).get("seq", m.seq + 1)
            return took
        row("undo of the move just made", measure(matches, runs, undo, prepare=move_once))

        for m in matches.values():
            m.req(0, "POST", f"/api/games/{m.id}/resign")
        def verify(m, i):
            return m.timed(None, "GET", f"/api/games/{m.id}/verify")
        row("verify, its first call (a full audit: every post replayed)",
            measure(matches, 1, verify))
        row("verify again (the answer kept for the match's version)",
            measure(matches, max(3, runs // 3), verify))
    return rows, counts


def table(rows, counts, runs):
    out = [f"Flat in the match's length (issue 32): a match of {counts[0]} posts and one of "
           f"{counts[1]:,} (the test ruleset), median of {runs} calls each "
           f"(verify: its first call, then {max(3, runs // 3)}), alternating; target <= {GOAL}x, reported, "
           "not asserted.", "",
           f"| path | {counts[0]} posts | {counts[1]:,} posts | ratio | target |",
           "|---|---:|---:|---:|---:|"]
    for what, s, b in rows:
        r = b / s
        mark = "" if r <= GOAL else " (over)"
        out.append(f"| {what} | {s * 1e3:.2f} ms | {b * 1e3:.2f} ms | {r:.2f}x{mark} | <= {GOAL}x |")
    return "\n".join(out) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(bench.ROOT, "build"))
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--posts", type=int, default=5000)
    args = ap.parse_args(argv)
    rows, counts = flat(os.path.abspath(args.build), args.runs, args.posts)
    text = table(rows, counts, args.runs)
    print(text)
    os.makedirs(os.path.join(bench.ROOT, "test-output"), exist_ok=True)
    with open(os.path.join(bench.ROOT, "test-output", "flat.md"), "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
