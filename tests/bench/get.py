#!/usr/bin/env python3
"""The GET phases of tests/bench/run.py alone (issue "Performance"): the
static file (app.js) and a match's 304, each beside the bare
libmicrohttpd server (tests/bench/baremhd.c) in the same run, with the same
wrk shape (2 threads, 32 connections). The phases alternate for --rounds
rounds; besides requests per second, each line gives the server's CPU time
per request (user + system, from /proc), which moves less than req/s when
other work shares the machine. Reported, never asserted.

Usage: tests/bench/get.py [--build build] [--seconds 10] [--rounds 3]
"""
import argparse
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(__file__))
from run import (ROOT, bench_server, call, free_port, players_and_match,  # noqa: E402
                 start_bare, wrk)


def cpu_s(pid):
    """User + system CPU seconds of a process so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def phase(pid, url, headers, seconds):
    """req/s, p50, p99, non-2xx/3xx and CPU microseconds per request."""
    c0 = cpu_s(pid)
    rps, p50, p99, bad = wrk(url, headers, seconds)
    return rps, p50, p99, bad, (cpu_s(pid) - c0) / max(1.0, rps * seconds) * 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is missing: run scripts/deps.sh bench")
    with bench_server(args.build, "wp-get-") as bs:
        base, srv = bs.base, bs.srv
        a, b, g = players_and_match(base)
        _, headers, _ = call(base, "GET", f"/api/games/{g['id']}", token=a["token"])
        bares = []
        try:
            json_port, file_port = free_port(), free_port()
            bares = [start_bare(args.build, json_port),
                     start_bare(args.build, file_port, os.path.join(ROOT, "web", "app.js"))]
            phases = [
                ("app.js 200", srv.pid, f"{base}/app.js", []),
                ("bare app.js 200", bares[1].pid, f"http://127.0.0.1:{file_port}/app.js", []),
                ("match 304", srv.pid, f"{base}/api/games/{g['id']}",
                 [f"Authorization: Bearer {a['token']}", f"If-None-Match: {headers['ETag']}"]),
                ("bare 304", bares[0].pid, f"http://127.0.0.1:{json_port}/game",
                 ['If-None-Match: "bare-1"']),
            ]
            for r in range(args.rounds):
                got = {name: phase(pid, u, h, args.seconds) for name, pid, u, h in phases}
                for name, (rps, p50, p99, bad, us) in got.items():
                    print(f"round {r + 1} {name}: {rps:.0f} req/s, p50 {p50}, p99 {p99}, "
                          f"non-2xx/3xx {bad}, {us:.1f} us CPU/request")
                for ours, bare in (("app.js 200", "bare app.js 200"), ("match 304", "bare 304")):
                    print(f"round {r + 1} {ours} : {bare}: req/s {got[ours][0] / got[bare][0]:.2f}x, "
                          f"CPU per request {got[bare][4] / got[ours][4]:.2f}x (bare / ours)",
                          flush=True)
        finally:
            for p in bares:
                p.terminate()
                p.wait()


if __name__ == "__main__":
    main()
