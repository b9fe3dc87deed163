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
        self.assertEqual(db.psql("SELECT count(*) FROM players").strip(), "3")


if __name__ == "__main__":
    wp.main()
