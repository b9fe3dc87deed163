"""Migrations: applied at start, once, recorded in schema_migrations; safe
when several servers start at once on a fresh database."""
import glob
import os
import re
import sys
import threading
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import warpost as wp  # noqa: E402


def migration_versions():
    """Versions from the leading number of each sql/*.sql file name."""
    out = set()
    for path in glob.glob(os.path.join(wp.SQL_DIR, "*.sql")):
        m = re.match(r"(\d+)", os.path.basename(path))
        if m:
            out.add(int(m.group(1)))
    return out


def recorded(db):
    rows = db.psql("SELECT version, name, applied_at FROM schema_migrations ORDER BY version")
    return [tuple(line.split("|")) for line in rows.splitlines() if line]


class MigrationsTest(wp.ServerTestCase):
    start_server = False

    def new_db(self):
        db = self.pg.create_database()
        self.addCleanup(db.drop)
        return db

    def test_table_shape(self):
        db = self.new_db()
        wp.Server(db.url).start().stop()
        cols = db.psql("SELECT column_name, data_type FROM information_schema.columns "
                       "WHERE table_schema = 'public' AND table_name = 'schema_migrations' "
                       "ORDER BY column_name")
        cols = dict(line.split("|") for line in cols.splitlines())
        want = {"version": "integer", "name": "text", "applied_at": "timestamp with time zone"}
        self.assertEqual({k: cols.get(k) for k in want}, want, cols)
        pk = db.psql("SELECT a.attname FROM pg_index i JOIN pg_attribute a "
                     "ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) "
                     "WHERE i.indrelid = 'schema_migrations'::regclass AND i.indisprimary")
        self.assertEqual(pk.split(), ["version"])

    def test_applied_once_each(self):
        want = migration_versions()
        self.assertTrue(want, "no migrations found in %s" % wp.SQL_DIR)
        db = self.new_db()
        wp.Server(db.url).start().stop()
        first = recorded(db)
        self.assertEqual({int(r[0]) for r in first}, want, first)
        for r in first:
            self.assertTrue(r[1], "migration %s has no name" % r[0])
        # the schema is there
        self.assertEqual(db.psql("SELECT to_regclass('public.players') IS NOT NULL").strip(), "t")

        # second start: nothing applied again (same rows, same times)
        wp.Server(db.url).start().stop()
        self.assertEqual(recorded(db), first)

    def test_new_migration_applied_on_next_start(self):
        db = self.new_db()
        wp.Server(db.url).start().stop()
        before = recorded(db)
        mdir = wp.make_tmpdir("wp-migrations-")
        self.addCleanup(wp.remove_tmpdir, mdir)
        for path in glob.glob(os.path.join(wp.SQL_DIR, "*.sql")):
            with open(path, "rb") as src, open(os.path.join(mdir, os.path.basename(path)), "wb") as dst:
                dst.write(src.read())
        with open(os.path.join(mdir, "900_test_extra.sql"), "w") as f:
            f.write("CREATE TABLE test_extra (x int);\n")
        s = wp.Server(db.url, migrations_dir=mdir).start()
        s.stop()
        after = recorded(db)
        self.assertEqual(after[:len(before)], before, "earlier migrations re-recorded")
        self.assertEqual([int(r[0]) for r in after[len(before):]], [900], after)
        self.assertEqual(db.psql("SELECT to_regclass('public.test_extra') IS NOT NULL").strip(), "t")
        # and only once
        wp.Server(db.url, migrations_dir=mdir).start().stop()
        self.assertEqual(recorded(db), after)

    def test_concurrent_start_on_fresh_database(self):
        want = migration_versions()
        db = self.new_db()
        servers = [wp.Server(db.url) for _ in range(3)]
        errors = []

        def start(s):
            try:
                s.start()
            except AssertionError as e:
                errors.append(str(e))

        threads = [threading.Thread(target=start, args=(s,)) for s in servers]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        try:
            self.assertEqual(errors, [], "a server failed to start")
            for s in servers:
                r = s.request("GET", "/api/health")
                self.assertEqual(r.status, 200, r)
                r = s.request("POST", "/api/players", {"name": "p%d" % s.port})
                self.assertEqual(r.status, 201, r)
        finally:
            logs = []
            for s in servers:
                if s.proc is not None:
                    try:
                        logs.append(s.stop())
                    except AssertionError as e:
                        errors.append(str(e))
        self.assertEqual(errors, [])
        rows = recorded(db)
        versions = [int(r[0]) for r in rows]
        self.assertEqual(sorted(versions), sorted(want), rows)
        # Three players and no more (the engine's, issue 27, come with the migrations).
        self.assertEqual(db.psql("SELECT count(*) FROM players WHERE NOT bot").strip(), "3")


if __name__ == "__main__":
    wp.main()


class GamesChecksTest(wp.ServerTestCase):
    """sql/012_turn_cost.sql: the checks of games' columns a turn never sets
    moved from CHECK constraints to a trigger (PostgreSQL compiles every
    CHECK at each statement that writes a row); each rule must still refuse
    a bad row, on INSERT and on an UPDATE that sets the column, with the
    same SQLSTATE (23514) and constraint name as before."""
    start_server = False

    def setUp(self):
        super().setUp()
        self.db = self.pg.create_database()
        self.addCleanup(self.db.drop)
        wp.Server(self.db.url).start().stop()
        self.db.psql("INSERT INTO players (name, token_hash) VALUES ('p', decode(repeat('ab', 32), 'hex'))")

    def insert(self, seats="2", seed="repeat('cd', 32)", commitment="repeat('ef', 32)",
               spectators="'open'", delay="0", status="'open'"):
        return ("INSERT INTO games (ruleset, seats, seed, commitment, created_by, spectators,"
                " spectator_delay, status) SELECT 'chesswar', %s, decode(%s, 'hex'),"
                " decode(%s, 'hex'), id, %s, %s, %s FROM players RETURNING id"
                % (seats, seed, commitment, spectators, delay, status))

    def refused(self, sql, constraint):
        cmd = [os.path.join(wp.pg_bindir(), "psql"), "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1",
               "-d", self.db.url, "-c", "\\set VERBOSITY verbose",
               "-c", sql]
        r = wp.subprocess.run(cmd, capture_output=True, text=True, timeout=30)
        self.assertNotEqual(r.returncode, 0, "accepted: " + sql)
        self.assertIn("23514", r.stderr, r.stderr)
        self.assertIn(constraint, r.stderr, r.stderr)

    def test_insert_checked(self):
        self.assertTrue(self.db.psql(self.insert()).strip().isdigit())
        for kw, name in ((dict(seats="5"), "games_seats_check"),
                         (dict(seats="1"), "games_seats_check"),
                         (dict(seed="repeat('cd', 31)"), "games_seed_check"),
                         (dict(commitment="repeat('ef', 33)"), "games_commitment_check"),
                         (dict(spectators="'everyone'"), "games_spectators_check"),
                         (dict(delay="1001"), "games_spectator_delay_check"),
                         (dict(delay="-1"), "games_spectator_delay_check"),
                         (dict(status="'paused'"), "games_status_check")):
            with self.subTest(kw=kw):
                self.refused(self.insert(**kw), name)

    def test_update_checked(self):
        gid = self.db.psql(self.insert()).strip()
        for sets, name in (("seats = 7", "games_seats_check"),
                           ("seed = '\\x00'", "games_seed_check"),
                           ("commitment = ''", "games_commitment_check"),
                           ("spectators = 'all'", "games_spectators_check"),
                           ("spectator_delay = 5000", "games_spectator_delay_check"),
                           ("status = 'gone'", "games_status_check")):
            with self.subTest(sets=sets):
                self.refused("UPDATE games SET %s WHERE id = %s" % (sets, gid), name)
        # good values pass, and a refused update changed nothing
        self.db.psql("UPDATE games SET spectators = 'private', spectator_delay = 3 WHERE id = %s" % gid)
        self.assertEqual(self.db.psql("SELECT seats, spectators, spectator_delay, status"
                                      " FROM games WHERE id = %s" % gid).strip(),
                         "2|private|3|open")
