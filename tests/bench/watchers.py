#!/usr/bin/env python3
"""Memory of idle long-polls (issue "Performance": 10,000 watchers of one
match in under 64 MiB). Starts warpostd-test on a private cluster, makes one
match, then opens N connections that each hold GET /api/games/ID?wait=60
with the current ETag, and reads the server's resident memory (VmRSS) before
and after, and its thread count. Reported, never asserted.

With --sse the watchers hold open Server-Sent Events streams instead
(GET /api/games/ID/events, Accept: text/event-stream; issue 14), and one
turn is then posted to count the streams that receive its event.

Usage: tests/bench/watchers.py [--build build] [--watchers 10000]
                               [--connection-memory BYTES] [--sse] [--mappings]
                               [--stage idle|request-line|poll|second-poll]

--stage shows where the memory goes: connections that only connect (idle),
that send a request line and one header but never finish (request-line),
whole long-polls (poll, the default), or long-polls sent on a keep-alive
connection after a first request was answered (second-poll), as a board
tab does.
"""
import argparse
import os
import resource
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from run import ROOT, bench_server, call, players_and_match  # noqa: E402


def status_of(pid, detail=False):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            out[k] = v.strip()
    if detail:
        return {k: int(out[k].split()[0]) for k in ("RssAnon", "RssFile", "RssShmem")}
    return int(out["VmRSS"].split()[0]), int(out["Threads"])


def mappings(pid, top=12):
    """The largest resident mappings of the process (its smaps): which
    libraries and heaps the resident memory is in."""
    rows, cur = [], None
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            head = line.split()
            if "-" in head[0] and not head[0].endswith(":"):
                cur = head[5] if len(head) > 5 else "[anon]"
            elif head[0] == "Rss:":
                rows.append((int(head[1]), cur))
    total = {}
    for kib, name in rows:
        total[name] = total.get(name, 0) + kib
    for name, kib in sorted(total.items(), key=lambda r: -r[1])[:top]:
        print(f"  {kib:8d} KiB  {name}")


def report_sse(base, game, a, b, socks, rss0, rss1, threads0, threads1, pid):
    """Posts one turn and counts the open streams that get its event."""
    for s in socks:
        s.setblocking(False)
        try:
            while s.recv(65536):
                pass
        except BlockingIOError:
            pass
    _, _, acts = call(base, "GET", f"/api/games/{game}/actions", None, a["token"])
    t0 = time.time()
    call(base, "POST", f"/api/games/{game}/turns",
         {"seq": acts["seq"], "actions": [acts["actions"][0]]}, a["token"])
    got, pending = 0, set(range(len(socks)))
    while pending and time.time() - t0 < 20:
        for i in list(pending):
            try:
                if b"id: 2" in socks[i].recv(65536):
                    got += 1
                    pending.discard(i)
            except BlockingIOError:
                pass
        time.sleep(0.05)
    took = time.time() - t0
    rss2, threads2 = status_of(pid)
    n = len(socks)
    print(f"event streams {n}; RSS before {rss0 / 1024:.1f} MiB, with them {rss1 / 1024:.1f} "
          f"MiB (+{(rss1 - rss0) / 1024:.1f} MiB, {(rss1 - rss0) / max(1, n):.2f} KiB each); "
          f"threads {threads0} -> {threads1}; one turn reached {got} of {n} streams in "
          f"{took:.2f} s; RSS after {rss2 / 1024:.1f} MiB")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--watchers", type=int, default=10000)
    ap.add_argument("--connection-memory", type=int, default=0,
                    help="CONNECTION_MEMORY for the server (0: its default)")
    ap.add_argument("--sse", action="store_true",
                    help="hold event streams instead of long-polls")
    ap.add_argument("--mappings", action="store_true",
                    help="also list the largest resident mappings with the watchers")
    ap.add_argument("--stage", choices=("idle", "request-line", "poll", "second-poll"),
                    default="poll")
    args = ap.parse_args()
    need = args.watchers + 256
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(need, soft), max(need, hard)))

    env = {"MAX_CONNECTIONS": need,
           "REQUEST_TIMEOUT": 3600}  # the unfinished stages must stay
    if args.connection_memory:
        env["CONNECTION_MEMORY"] = args.connection_memory
    socks = []
    with bench_server(args.build, "wp-watch-", **env) as bs:
        base, port, srv = bs.base, bs.port, bs.srv
        a, b, g = players_and_match(base, ("Watch A", "Watch B"))
        try:
            _, headers, _ = call(base, "GET", f"/api/games/{g['id']}")
            etag = headers["ETag"]
            time.sleep(0.5)
            rss0, threads0 = status_of(srv.pid)
            detail0 = status_of(srv.pid, detail=True)
            req = (f"GET /api/games/{g['id']}?wait=60 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   f"If-None-Match: {etag}\r\n\r\n").encode()
            if args.sse:
                req = (f"GET /api/games/{g['id']}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                       f"Accept: text/event-stream\r\nLast-Event-ID: 1\r\n\r\n").encode()
            sent = {"idle": b"", "request-line": req[:req.index(b"\r\n", req.index(b"Host")) + 2],
                    "poll": req, "second-poll": req}[args.stage]
            for _ in range(args.watchers):
                s = socket.create_connection(("127.0.0.1", port))
                if args.stage == "second-poll":
                    s.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    got = b""
                    while b"\r\n\r\n" not in got or not got.rstrip().endswith(b"}"):
                        got += s.recv(4096)
                if sent:
                    s.sendall(sent)
                socks.append(s)
            time.sleep(2)
            rss1, threads1 = status_of(srv.pid)
            detail1 = status_of(srv.pid, detail=True)
            if args.sse:
                report_sse(base, g["id"], a, b, socks, rss0, rss1, threads0, threads1, srv.pid)
                return
            answered = 0
            for s in socks[:200]:
                s.setblocking(False)
                try:
                    if s.recv(1):
                        answered += 1
                except BlockingIOError:
                    pass
            per = (rss1 - rss0) * 1024 / max(1, args.watchers)
            print(f"watchers {args.watchers}; RSS before {rss0 / 1024:.1f} MiB, with them "
                  f"{rss1 / 1024:.1f} MiB (+{(rss1 - rss0) / 1024:.1f} MiB, {per / 1024:.2f} KiB "
                  f"each); threads {threads0} -> {threads1}; of 200 sampled, {answered} answered "
                  f"early (0 expected); CONNECTION_MEMORY "
                  f"{args.connection_memory or 'default'}; stage {args.stage}; goal < 64 MiB in all")
            print("  of which (KiB, before -> with them): " + ", ".join(
                f"{k} {detail0[k]} -> {detail1[k]}" for k in detail0))
            if args.mappings:
                mappings(srv.pid)
        finally:
            for s in socks:
                s.close()


if __name__ == "__main__":
    main()
