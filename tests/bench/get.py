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
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from run import ROOT, call, free_port, start_bare, wait_health, wrk  # noqa: E402


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
    tmp = tempfile.mkdtemp(prefix="wp-get-")
    os.chmod(tmp, 0o755)  # the cluster runs as the postgres user
    pgdir = os.path.join(tmp, "pg")
    url = subprocess.run(["bash", os.path.join(ROOT, "scripts/pgcluster.sh"), "start", pgdir,
                          str(free_port())], capture_output=True, text=True,
                         check=True).stdout.strip()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, DATABASE_URL=url, PORT=str(port), BIND_ADDR="127.0.0.1",
               WEB_ROOT=os.path.join(ROOT, "web"), MIGRATIONS_DIR=os.path.join(ROOT, "sql"),
               RATE_LIMITS="off", MAX_OPEN_MATCHES="0", PER_IP_CONNECTIONS="0")
    srv = subprocess.Popen([os.path.join(args.build, "tests/testrules/warpostd-test")],
                           env=env, stderr=open(os.path.join(tmp, "warpostd.log"), "w"))
    bares = []
    try:
        wait_health(base, srv)
        _, _, a = call(base, "POST", "/api/players", {"name": "Bench A"})
        _, _, b = call(base, "POST", "/api/players", {"name": "Bench B"})
        _, _, g = call(base, "POST", "/api/games", {"ruleset": "skirmish-test"}, a["token"])
        call(base, "POST", f"/api/games/{g['id']}/join", {"code": g["invitations"][0]["code"]},
             b["token"])
        _, headers, _ = call(base, "GET", f"/api/games/{g['id']}", token=a["token"])
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
        srv.terminate()
        srv.wait(timeout=30)
        subprocess.run(["bash", os.path.join(ROOT, "scripts/pgcluster.sh"), "destroy", pgdir],
                       capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
