#!/usr/bin/env python3
"""Where a turn's database CPU goes (issue 32).

Warpost's one-statement turn (srv/store/sql.c, TURN_WRITE and
TURN_WRITE_KEYED) in pgbench -M prepared, beside the minimal durable turn
of run.py, on one private cluster migrated by warpostd-test, with matches
made over the API as run.py makes them and one real keyed turn played
first so that the statement's parameters (the match's state, the post's
actions and events, the key's answer) are the ones warpostd sends. Like
warpostd, the statement takes them as parameters (pgbench -D variables),
not as constants planned once.

Then variants of the keyed turn, each without one part (its trigger
disabled, its foreign key dropped, ...; SETUP before the phase, TEARDOWN
after), alternated round after round. Each phase reports tx/s, the CPU
the whole cluster used per transaction (every backend and background
process, from /proc: run.py's cluster_cpu), the WAL bytes per
transaction, commits per WAL flush and the share of the games updates
that were HOT. CPU per transaction is the figure to compare: the machine
is shared, so tx/s moves with everything else that runs.

The phases "warpostd", "warpostd-nobots" (BOT_THREADS=0) and
"warpostd-b" (the binary of --b-binary: an A/B of two builds) are run.py's
turns over HTTP (turnload, no Idempotency-Key) by a warpostd started for
the phase, on matches of their own, with the statements' calls and time a
turn from pg_stat_statements (loaded by a restart of the cluster).

--serial: one pgbench client with synchronous_commit off, the statement's
CPU without the waits for the WAL's flushes and for locks.
--perf VARIANT records the cluster's processes with perf during the
first phase of that variant and prints the top of the profile (the data
kept in $TURNSQL_PERF_DATA when set).

Nothing here asserts a time: figures are reported, not tested.

Usage: tests/bench/turnsql.py [--build build] [--matches 1000]
                              [--clients 32] [--seconds 5] [--rounds 3]
                              [--only NAME,NAME] [--perf NAME] [--serial]
                              [--b-binary PATH]
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (tests/bench/run.py: the cluster, the API calls, CPU)

# The turn as warpostd writes it: TURN_WRITE's parts, with pgbench
# variables for what warpostd passes as parameters. The guard's version is
# the row's own (pgbench carries nothing from a read it does not make); the
# post's seq comes from the update. turn() puts the parts together; a
# variant leaves one out.
UPDATE = ("UPDATE games SET status = 'active', seq = seq + 1, version = version + 1,"
          " state = :state, draws = draws, awaiting = 2, draw_offers = 0,"
          " result = NULL::jsonb, client_seeds = '\\x', updated_at = now(),"
          " clock = NULL::text WHERE id = :gid AND version = version{guard}"
          " RETURNING seq, draws, updated_at")
GUARD = (" AND EXISTS (SELECT 1 FROM devices WHERE player_id = :player"
         " AND token_hash = decode(:hash, 'hex') AND revoked_at IS NULL)")
POST = (", p AS (INSERT INTO posts (game_id, seq, seat, kind, actions, comment,"
        " comment_hidden, events, draws_from, rolls, awaiting, created_at)"
        " SELECT :gid, seq, 0::smallint, 'turn'::text, :actions::jsonb, NULL::text,"
        " false, :events::jsonb, draws, '[]'::jsonb, 2, updated_at FROM u)")
KEY = (", k AS (INSERT INTO idempotency (game_id, player_id, key, request_hash, status,"
       " body) SELECT :gid, :player, concat(:tag::text, '-', :client_id::int, '-', :n::int),"
       " decode(:hash, 'hex'), 200::smallint, {body} FROM u)")
SELECT = " SELECT count(*), min(updated_at) FROM u;"


def turn(guard=GUARD, post=POST, key=KEY, body=":answer::text", state=None):
    upd = UPDATE.format(guard=guard)
    if state:
        upd = upd.replace("state = :state", state)
    return ("\\set gid random(:first, :last)\n\\set n :n + 1\n"
            "WITH u AS (" + upd + ")" + post + key.format(body=body) + SELECT + "\n")


FK_POSTS = "posts_game_id_fkey FOREIGN KEY (game_id) REFERENCES games (id)"
FK_IDEM = "idempotency_game_id_fkey FOREIGN KEY (game_id) REFERENCES games (id)"

# name: (script, setup SQL, teardown SQL, clients or None for --clients)
VARIANTS = {
    "minimal": (run.MINIMAL_TURN.replace("random(1, %d)", "random(1, :nmin)"), "", "", None),
    "optimistic": (run.OPTIMISTIC_TURN.replace("random(1, %d)", "random(1, :nmin)"), "", "",
                   None),
    "keyed": (turn(), "", "", None),
    "unkeyed": (turn(key=""), "", "", None),
    "unkeyed8": (turn(key=""), "", "", 8),
    "no-device-guard": (turn(guard=""), "", "", None),
    "no-post": (turn(post=""), "", "", None),
    "key-no-body": (turn(body="''"), "", "", None),
    "state-kept": (turn(state="state = state"), "", "", None),
    "no-user-triggers": (turn(), "ALTER TABLE games DISABLE TRIGGER USER;",
                         "ALTER TABLE games ENABLE TRIGGER USER;", None),
    "no-notify-trigger": (turn(), "ALTER TABLE games DISABLE TRIGGER games_notify;",
                          "ALTER TABLE games ENABLE TRIGGER games_notify;", None),
    "no-snapshot-trigger": (turn(), "ALTER TABLE games DISABLE TRIGGER snapshot_take;",
                            "ALTER TABLE games ENABLE TRIGGER snapshot_take;", None),
    "no-fks": (turn(), "ALTER TABLE posts DROP CONSTRAINT posts_game_id_fkey;"
               " ALTER TABLE idempotency DROP CONSTRAINT idempotency_game_id_fkey;",
               f"ALTER TABLE posts ADD CONSTRAINT {FK_POSTS};"
               f" ALTER TABLE idempotency ADD CONSTRAINT {FK_IDEM};", None),
    "no-posts-undone": (turn(), "DROP INDEX posts_undone;",
                        "CREATE INDEX posts_undone ON posts (game_id, undone_by)"
                        " WHERE undone_by IS NOT NULL;", None),
    "games-ff50": (turn(), "ALTER TABLE games SET (fillfactor = 50);\nVACUUM FULL games;",
                   "ALTER TABLE games RESET (fillfactor);\nVACUUM FULL games;", None),
}
# turnload over HTTP (warpostd_phase), with warpostd's environment
# ("warpostd-b": the binary of --b-binary, for an A/B of two builds).
WARPOSTD = {"warpostd": {}, "warpostd-nobots": {"BOT_THREADS": "0"}, "warpostd-b": {}}
for _n in WARPOSTD:
    VARIANTS[_n] = (None, "", "", None)
DEFAULT = ["warpostd", "warpostd-nobots", "minimal", "keyed", "unkeyed", "unkeyed8", "no-device-guard", "no-post",
           "key-no-body", "state-kept", "no-user-triggers", "no-notify-trigger",
           "no-snapshot-trigger", "no-fks", "no-posts-undone", "games-ff50"]


def stat(psql):
    """WAL bytes and flushes, games updates and HOT updates so far."""
    return [int(x) for x in psql(
        "SELECT w.wal_bytes::bigint, w.wal_sync, t.n_tup_upd, t.n_tup_hot_upd"
        " FROM pg_stat_wal w, pg_stat_user_tables t WHERE t.relname = 'games'").split("|")]


def turnload(ctx, port, seconds):
    seqs = dict(line.split("|") for line in ctx.psql(
        f"SELECT id, seq FROM games WHERE id BETWEEN {ctx.wids[0]} AND {ctx.wids[-1]}").split())
    mfile = os.path.join(ctx.tmp, "matches.txt")
    with open(mfile, "w") as f:
        f.write("".join(f"{i} {seqs[str(i)]} {ctx.a['token']} {ctx.b['token']}\n"
                        for i in ctx.wids))
    out = subprocess.run([os.path.join(ctx.build, "tests/bench/turnload"), "127.0.0.1",
                          str(port), mfile, str(ctx.clients), str(seconds)],
                         capture_output=True, text=True).stdout.split()
    return dict(zip(out[0::2], out[1::2]))


def warpostd_phase(ctx, name):
    """run.py's turns over HTTP (turnload, no Idempotency-Key) on matches of
    their own, by a warpostd started for the phase with WARPOSTD[name] in
    its environment and warmed up for a second (its cache starts empty),
    with what each statement cost per turn (pg_stat_statements)."""
    port = run.free_port()
    env = dict(os.environ, DATABASE_URL=ctx.url, PORT=str(port), BIND_ADDR="127.0.0.1",
               WEB_ROOT=os.path.join(run.ROOT, "web"), MIGRATIONS_DIR=os.path.join(run.ROOT, "sql"),
               RATE_LIMITS="off", MAX_OPEN_MATCHES="0", PER_IP_CONNECTIONS="0", **WARPOSTD[name])
    binary = os.path.join(ctx.build, "tests/testrules/warpostd-test")
    if name == "warpostd-b":
        binary = ctx.b_binary
    srv = subprocess.Popen([binary], env=env,
                           stderr=open(os.path.join(os.environ.get("TURNSQL_LOG_DIR") or ctx.tmp,
                                                    name + ".log"), "a"))
    try:
        run.wait_health(f"http://127.0.0.1:{port}", srv)
        turnload(ctx, port, 1)
        return measure_warpostd(ctx, srv, port)
    finally:
        srv.terminate()
        srv.wait(timeout=30)


def told(port):
    """warpostd's counts of changes told and of the statements that told
    them (srv/store/tell.c): one statement a change when writers tell
    their own (no LISTEN thread)."""
    with run.urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics") as r:
        text = r.read().decode()
    val = lambda name: sum(float(l.split()[-1]) for l in text.splitlines()
                           if l.startswith(name))
    return val("warpost_changes_told_total"), val("warpost_tell_statements_total")


def measure_warpostd(ctx, srv, port):
    ctx.psql("SELECT pg_stat_statements_reset()")
    s0 = stat(ctx.psql)
    t0 = told(port)
    with run.CpuMeter(srv.pid, ctx.pgdir) as cpu:
        m = turnload(ctx, port, ctx.seconds)
    n = int(m["turns"])
    t1 = told(port)
    ctx.psql("SELECT pg_sleep(0.6)")
    d = [b - a for a, b in zip(s0, stat(ctx.psql))]
    top = ctx.psql("SELECT calls, round((total_exec_time + total_plan_time)::numeric * 1000),"
                   " left(regexp_replace("
                   "query, '\\s+', ' ', 'g'), 70) FROM pg_stat_statements"
                   " ORDER BY total_exec_time + total_plan_time DESC LIMIT 6")
    ctx.top = "\n".join(f"    {int(c) / max(1, n):.3f} calls/turn, {int(t) / max(1, n):.0f} us"
                         f" planning and executing/turn: {q}" for c, t, q in
                         (line.split("|", 2) for line in top.splitlines()))
    c = cpu.per(n)
    return {"tps": float(m["turns_per_s"]), "cpu": c["db"], "srv": c["server"],
            "p50": float(m["p50_ms"]),
            "per_tell": (t1[0] - t0[0]) / max(1, t1[1] - t0[1]),
            "wal": d[0] / max(1, n), "per_sync": n / max(1, d[1]), "hot": d[3] / max(1, d[2])}


def phase(ctx, name, tag):
    if name in WARPOSTD:
        return warpostd_phase(ctx, name)
    script, setup, teardown, clients = VARIANTS[name]
    clients = clients or ctx.clients
    path = os.path.join(ctx.tmp, name + ".sql")
    with open(path, "w") as f:
        f.write(script)
    for q in filter(None, setup.split("\n")):
        ctx.psql(q)
    ctx.psql("SELECT pg_stat_force_next_flush()") if ctx.pg15 else None
    s0 = stat(ctx.psql)
    if ctx.serial:
        clients = 1
    cmd = ["pgbench", "-n", "-M", "prepared", "-c", str(clients), "-j", str(min(2, clients)),
           "-T", str(ctx.seconds), "-f", path, "-D", "n=0", "-D", f"tag={tag}"]
    for k, v in ctx.vars.items():
        cmd += ["-D", f"{k}={v}"]
    perf = None
    env = dict(os.environ)
    if ctx.serial:
        env["PGOPTIONS"] = "-c synchronous_commit=off"
    with run.CpuMeter(None, ctx.pgdir) as cpu:
        pb = subprocess.Popen(cmd + [ctx.url], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=env)
        if ctx.perf == name:
            perf = start_perf(ctx)
        out, err = pb.communicate()
    if perf:
        perf.wait()
    tps = [line for line in out.splitlines() if "without initial connection time" in line]
    if not tps:
        raise SystemExit(f"pgbench ({name}) failed: {out}{err}")
    tps = float(tps[0].split("=")[1].split()[0])
    n = tps * ctx.seconds
    ctx.psql("SELECT pg_sleep(0.6)")   # the statistics of the backends that ended
    s1 = stat(ctx.psql)
    for q in filter(None, teardown.split("\n")):
        ctx.psql(q)
    d = [b - a for a, b in zip(s0, s1)]
    return {"tps": tps, "cpu": cpu.per(int(n))["db"], "wal": d[0] / max(1, n),
            "per_sync": n / max(1, d[1]), "hot": d[3] / max(1, d[2])}


def start_perf(ctx):
    """perf record of the cluster's processes for most of the phase, once
    pgbench's backends have started."""
    time.sleep(1)
    with open(os.path.join(ctx.pgdir, "postmaster.pid")) as f:
        pm = f.readline().strip()
    kids = subprocess.run(["pgrep", "-P", pm], capture_output=True, text=True).stdout.split()
    data = os.environ.get("TURNSQL_PERF_DATA") or os.path.join(ctx.tmp, "perf.data")
    ctx.perf_data = data
    return subprocess.Popen(["perf", "record", "-q", "-F", "499", "-g", "-o", data, "-p",
                             ",".join(kids + [pm]), "--", "sleep", str(max(1, ctx.seconds - 2))],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(run.ROOT, "build"))
    ap.add_argument("--matches", type=int, default=1000)
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument("--seconds", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default=",".join(DEFAULT))
    ap.add_argument("--serial", action="store_true",
                    help="one pgbench client, synchronous_commit off: the statement's CPU"
                         " alone, without the waits for the WAL's flushes and the locks")
    ap.add_argument("--b-binary", default=None, help="warpostd-test for the warpostd-b phases")
    ap.add_argument("--perf", default=None, help="a variant to record with perf (round 1)")
    args = ap.parse_args()
    names = args.only.split(",")
    for n in names:
        if n not in VARIANTS:
            raise SystemExit(f"no variant {n}: {', '.join(VARIANTS)}")

    with run.bench_server(args.build, "wp-turnsql-") as bs:
        opts = {"turn_limit": 10000}
        a, b, g = run.players_and_match(bs.base, options=opts)
        ids = [g["id"]] + [run.match_of(bs.base, a, b, opts)["id"]
                           for _ in range(args.matches - 1)]
        wids = [run.match_of(bs.base, a, b, opts)["id"] for _ in range(args.matches)]
        psql = lambda q: subprocess.run(["psql", bs.url, "-Atc", q], capture_output=True,
                                        text=True, check=True).stdout.strip()
        # One real keyed turn: its parameters are what the phases send.
        body = {"seq": g.get("seq", 1), "actions": [{"type": "move", "from": "d1", "to": "d2"}]}
        seq = int(psql(f"SELECT seq FROM games WHERE id = {ids[0]}"))
        body["seq"] = seq
        run.call(bs.base, "POST", f"/api/games/{ids[0]}/turns", body, a["token"],
                 {"Idempotency-Key": "turnsql-probe"})
        # pg_stat_statements for the warpostd phase: the cluster restarts
        # with it (warpostd reconnects; its cache starts empty).
        psql("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'")
        pgc = os.path.join(run.ROOT, "scripts/pgcluster.sh")
        subprocess.run(["bash", pgc, "stop", bs.pgdir], check=True)
        subprocess.run(["bash", pgc, "start", bs.pgdir, bs.url.rsplit("port=", 1)[1].split("&")[0]],
                       check=True, capture_output=True)
        psql("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        psql("ALTER SYSTEM SET pg_stat_statements.track_planning = on")
        psql("SELECT pg_reload_conf()")
        bs.srv.terminate()
        bs.srv.wait(timeout=30)
        row = psql("SELECT g.state::text, p.actions::text, p.events::text, i.body,"
                   f" encode(d.token_hash, 'hex') FROM games g"
                   f" JOIN posts p ON p.game_id = g.id AND p.seq = g.seq"
                   f" JOIN idempotency i ON i.game_id = g.id AND i.key = 'turnsql-probe'"
                   f" JOIN devices d ON d.player_id = {a['id']} WHERE g.id = {ids[0]}")
        state, actions, events, answer, token_hash = row.split("|")
        psql(run.MINIMAL_SETUP % args.matches)
        ctx = argparse.Namespace(
            url=bs.url, pgdir=bs.pgdir, tmp=bs.tmp, psql=psql, clients=args.clients,
            seconds=args.seconds, perf=args.perf, pg15=True, build=args.build,
            a=a, b=b, wids=wids, top="", b_binary=args.b_binary,
            serial=args.serial,
            vars={"first": ids[0], "last": ids[-1], "nmin": args.matches, "player": a["id"],
                  "hash": token_hash, "state": state, "actions": actions, "events": events,
                  "answer": answer})
        print(f"# parameters: state {len(state)} B, actions {len(actions)} B, events "
              f"{len(events)} B, the key's answer {len(answer)} B; {args.matches} matches, "
              f"{args.clients} clients, {args.seconds} s a phase", flush=True)
        res = {n: [] for n in names}
        for r in range(args.rounds):
            for n in names:
                m = phase(ctx, n, f"r{r}{n}")
                res[n].append(m)
                print(f"round {r + 1} {n}: {m['tps']:.0f} tx/s, {m['cpu']:.0f} us CPU/tx, "
                      f"{m['wal']:.0f} B WAL/tx, {m['per_sync']:.1f} tx/flush, "
                      f"HOT {100 * m['hot']:.0f}%"
                      + (f", warpostd {m['srv']:.0f} us CPU/turn, p50 {m['p50']:.1f} ms, "
                           f"{m['per_tell']:.1f} changes a NOTIFY statement\n{ctx.top}"
                         if "srv" in m else ""),
                      flush=True)
                if args.perf == n and r == 0:
                    rep = subprocess.run(["perf", "report", "-i", ctx.perf_data, "--no-children",
                                          "--stdio", "-g", "none", "--percent-limit", "0.7"],
                                         capture_output=True, text=True).stdout
                    print("\n".join(l for l in rep.splitlines() if l and l[0] != "#")[:6000])
        med = statistics.median
        print("\n| variant | tx/s | DB CPU/tx (us) | WAL B/tx | tx/flush | HOT |")
        print("| --- | --- | --- | --- | --- | --- |")
        for n in names:
            ms = res[n]
            print(f"| {n} | {med(m['tps'] for m in ms):.0f} | {med(m['cpu'] for m in ms):.0f}"
                  f" ({', '.join(format(m['cpu'], '.0f') for m in ms)}) | "
                  f"{med(m['wal'] for m in ms):.0f} | {med(m['per_sync'] for m in ms):.1f} | "
                  f"{100 * med(m['hot'] for m in ms):.0f}% |")


if __name__ == "__main__":
    main()
