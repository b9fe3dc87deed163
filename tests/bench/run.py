#!/usr/bin/env python3
"""Warpost benchmarks, each beside a baseline measured in the same run.

1. Turns: THREADS clients post turns of the test ruleset over MATCHES
   matches (tests/bench/turnload.c) for SECONDS, then pgbench -M prepared
   runs a script of the same SQL one turn executes, with as many clients,
   on the same database: turns/s against transactions/s.
2. Conditional GET of a match (If-None-Match -> 304) with wrk, beside a
   plain GET of a static file from the same server.

Prints a Markdown table and writes it to test-output/bench.md. Nothing here
asserts a time: figures are reported, not tested.

Usage: tests/bench/run.py [--build build] [--matches 1000] [--threads 32]
                          [--seconds 15]
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(base, method, path, body=None, token=None, headers=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    for k, v in (headers or {}).items():
        req.add_header(k, v)
    with urllib.request.urlopen(req) as r:
        return r.status, dict(r.headers), json.loads(r.read() or b"null")


def wait_health(base, proc):
    for _ in range(200):
        if proc.poll() is not None:
            raise SystemExit("warpostd-test exited early")
        try:
            call(base, "GET", "/api/health")
            return
        except Exception:
            time.sleep(0.05)
    raise SystemExit("warpostd-test did not come up")


def pgbench_script(nmatches, token_hash_hex, state_text):
    state = state_text.replace("'", "''")
    events = '[{"to":0,"e":{"type":"moved","from":"d1","to":"d2"}}]'
    return f"""\\set gid random(1, {nmatches})
SELECT id, name FROM players WHERE token_hash = decode('{token_hash_hex}', 'hex');
BEGIN;
SELECT id, ruleset, options::text, seats, status, seq, version, state::text, seed, commitment, client_seeds, draws, awaiting, draw_offers, result::text, created_by, '' AS c1, '' AS c2 FROM games WHERE id = :gid FOR UPDATE \\gset g_
SELECT s.seat, s.player_id, p.name, s.client_seed FROM seats s LEFT JOIN players p ON p.id = s.player_id WHERE s.game_id = :gid ORDER BY s.seat;
\\set nseq :g_seq + 1
INSERT INTO posts (game_id, seq, seat, kind, actions, comment, comment_hidden, events, draws_from, rolls) VALUES (:gid, :nseq, 0, 'turn', '[{{"type":"move","from":"d1","to":"d2"}}]', NULL, false, '{events}', :g_draws, '[]');
UPDATE games SET status = 'active', seq = :nseq, version = version + 1, state = '{state}', draws = :g_draws, awaiting = 2, draw_offers = 0, result = NULL, client_seeds = '\\x', updated_at = now() WHERE id = :gid;
SELECT pg_notify('wp_game', :gid::text);
COMMIT;
"""


def wrk(url, headers, seconds, threads=2, conns=32):
    cmd = ["wrk", f"-t{threads}", f"-c{conns}", f"-d{seconds}s", "--latency"]
    for h in headers:
        cmd += ["-H", h]
    out = subprocess.run(cmd + [url], capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p50 = re.search(r"50%\s+([\d.]+\w+)", out).group(1)
    p99 = re.search(r"99%\s+([\d.]+\w+)", out).group(1)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return rps, p50, p99, int(non2xx.group(1)) if non2xx else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--matches", type=int, default=1000)
    ap.add_argument("--threads", type=int, default=32)
    ap.add_argument("--seconds", type=int, default=15)
    args = ap.parse_args()
    for tool in ("pgbench", "wrk"):
        if not shutil.which(tool):
            raise SystemExit(f"{tool} is missing: run scripts/deps.sh bench")

    tmp = tempfile.mkdtemp(prefix="wp-bench-")
    os.chmod(tmp, 0o755)  # the cluster runs as the postgres user
    pgdir = os.path.join(tmp, "pg")
    pgport = free_port()
    url = subprocess.run(["bash", os.path.join(ROOT, "scripts/pgcluster.sh"), "start", pgdir,
                          str(pgport)], capture_output=True, text=True, check=True).stdout.strip()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, DATABASE_URL=url, PORT=str(port), BIND_ADDR="127.0.0.1",
               WEB_ROOT=os.path.join(ROOT, "web"), MIGRATIONS_DIR=os.path.join(ROOT, "sql"))
    log = open(os.path.join(tmp, "warpostd.log"), "w")
    srv = subprocess.Popen([os.path.join(args.build, "tests/testrules/warpostd-test")],
                           env=env, stderr=log)
    rows = []
    try:
        wait_health(base, srv)
        _, _, a = call(base, "POST", "/api/players", {"name": "Bench A"})
        _, _, b = call(base, "POST", "/api/players", {"name": "Bench B"})
        lines = []
        for _ in range(args.matches):
            _, _, g = call(base, "POST", "/api/games",
                           {"ruleset": "skirmish-test", "options": {"turn_limit": 200}},
                           a["token"])
            call(base, "POST", f"/api/games/{g['id']}/join",
                 {"code": g["invitations"][0]["code"]}, b["token"])
            lines.append(f"{g['id']} 1 {a['token']} {b['token']}")
        mfile = os.path.join(tmp, "matches.txt")
        with open(mfile, "w") as f:
            f.write("\n".join(lines) + "\n")

        out = subprocess.run([os.path.join(args.build, "tests/bench/turnload"), "127.0.0.1",
                              str(port), mfile, str(args.threads), str(args.seconds)],
                             capture_output=True, text=True)
        m = dict(zip(out.stdout.split()[0::2], out.stdout.split()[1::2]))
        if "turns_per_s" not in m:
            raise SystemExit("turnload failed: " + out.stdout + out.stderr)
        turns = float(m["turns_per_s"])

        psql = lambda q: subprocess.run(["psql", url, "-Atc", q], capture_output=True,
                                        text=True, check=True).stdout.strip()
        token_hash = psql(f"SELECT encode(token_hash, 'hex') FROM players WHERE id = {a['id']}")
        state_text = psql("SELECT state::text FROM games WHERE id = 1")
        first = int(lines[0].split()[0])
        script = os.path.join(tmp, "turn.sql")
        with open(script, "w") as f:
            f.write(pgbench_script(args.matches, token_hash, state_text).replace(
                "random(1,", f"random({first},").replace(
                f"random({first}, {args.matches})", f"random({first}, {first + args.matches - 1})"))
        pb = subprocess.run(["pgbench", "-n", "-M", "prepared", "-c", str(args.threads), "-j", "2",
                             "-T", str(args.seconds), "-f", script, url],
                            capture_output=True, text=True)
        tps = re.search(r"tps = ([\d.]+) \(without initial connection time\)", pb.stdout)
        if not tps:
            raise SystemExit("pgbench failed: " + pb.stdout + pb.stderr)
        tps = float(tps.group(1))
        lat = re.search(r"latency average = ([\d.]+) ms", pb.stdout)
        rows.append(("Turns posted (HTTP, warpostd)", f"{turns:.0f} turns/s",
                     f"p50 {m['p50_ms']} ms, p90 {m['p90_ms']} ms, p99 {m['p99_ms']} ms",
                     f"errors {m['errors']}"))
        rows.append(("Same SQL, pgbench -M prepared", f"{tps:.0f} tx/s",
                     f"avg {lat.group(1) if lat else '?'} ms", ""))
        rows.append(("Ratio turns/s : pgbench tx/s", f"{turns / tps:.2f}x", "", "aim >= 0.7x"))

        status, headers, _ = call(base, "GET", f"/api/games/{first}", token=a["token"])
        etag = headers["ETag"]
        g_rps, g50, g99, g_bad = wrk(f"{base}/api/games/{first}",
                                     [f"Authorization: Bearer {a['token']}",
                                      f"If-None-Match: {etag}"], min(args.seconds, 10))
        s_rps, s50, s99, s_bad = wrk(f"{base}/app.js", [], min(args.seconds, 10))
        rows.append(("GET match, If-None-Match -> 304", f"{g_rps:.0f} req/s",
                     f"p50 {g50}, p99 {g99}", f"non-2xx/3xx {g_bad}"))
        rows.append(("GET static file (app.js) -> 200", f"{s_rps:.0f} req/s",
                     f"p50 {s50}, p99 {s99}", f"non-2xx/3xx {s_bad}"))
        rows.append(("Ratio 304 match : static", f"{g_rps / s_rps:.2f}x", "", ""))
    finally:
        srv.send_signal(signal.SIGTERM)
        srv.wait(timeout=30)
        subprocess.run(["bash", os.path.join(ROOT, "scripts/pgcluster.sh"), "destroy", pgdir],
                       capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)

    cpu = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
    table = [f"Benchmark: {args.matches} matches, {args.threads} clients, {args.seconds} s, "
             f"{cpu} cores, server and load on the same machine.", "",
             "| what | rate | latency | notes |", "| --- | --- | --- | --- |"]
    table += [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows]
    text = "\n".join(table) + "\n"
    print(text)
    os.makedirs(os.path.join(ROOT, "test-output"), exist_ok=True)
    with open(os.path.join(ROOT, "test-output", "bench.md"), "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
