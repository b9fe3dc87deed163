"""The schema stays ready for Citus (docs/operations.md, "Scaling out"):
after every migration in sql/, the catalog must show that

  - every table is classified: the distribution root `games` (distributed
    by id), a match-scoped table (distributed by game_id, co-located with
    games), a reference table (replicated to every node), or bookkeeping
    that stays on the coordinator;
  - every match-scoped table carries game_id in its primary key, in every
    unique constraint and unique index (Citus enforces uniqueness only
    with the distribution column), and in every foreign key to games or to
    another match-scoped table (a foreign key between distributed tables
    must include it); foreign keys to reference tables are fine;
  - no reference table points at a match-scoped one.

A new table fails this test until it is classified below: decide how it is
distributed when it is made, not when the database is too big."""
import os
import sys
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import warpost as wp  # noqa: E402

ROOT = "games"                       # distributed by its primary key id
MATCH_KEY = "game_id"
REFERENCE = {"players", "vacations"}  # small, read everywhere: replicated
REFERENCE |= {"webhooks", "email_settings"}  # a player's notification settings (issue 14)
# Issue 28: a player's devices, sign-in codes, account mail and its links
# (read on every request or rarely written), the ratings and their
# settings, and the lobby's open challenges (a match only once started:
# then its rows are the match's own); issue 27: the engine's players.
REFERENCE |= {"devices", "device_codes", "account_links", "account_mail"}
REFERENCE |= {"ratings", "rating_settings"}
REFERENCE |= {"challenges", "challenge_seats", "challenge_idempotency"}
REFERENCE |= {"bot_engines"}
# a keyed write outside a match: its answer, by token (sql/025)
REFERENCE |= {"request_idempotency"}
# Issue 29: tournaments, their players, rounds and tables, and a ladder's
# challenges (an event's rows; its matches named by id, no foreign key).
REFERENCE |= {"tournaments", "tournament_players", "tournament_rounds", "tournament_tables",
              "ladder_challenges"}
COORDINATOR = {"schema_migrations"}  # bookkeeping of the migration runner


class DistributionKeysTest(wp.ServerTestCase):
    start_server = False

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        wp.Server(cls.db.url).start().stop()   # applies every migration

    def q(self, sql):
        return [line.split("|") for line in self.db.psql(sql).splitlines() if line]

    def tables(self):
        return {r[0] for r in self.q(
            "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')")}

    def match_scoped(self):
        return self.tables() - REFERENCE - COORDINATOR - {ROOT}

    def columns_of_constraints(self, table, kinds):
        """(name, kind, [columns], referenced table or '') per constraint."""
        rows = self.q(
            "SELECT con.conname, con.contype, "
            "  (SELECT string_agg(a.attname, ',' ORDER BY k.i) FROM unnest(con.conkey) "
            "     WITH ORDINALITY AS k(n, i) JOIN pg_attribute a "
            "     ON a.attrelid = con.conrelid AND a.attnum = k.n), "
            "  coalesce(ref.relname, '') "
            "FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid "
            "LEFT JOIN pg_class ref ON ref.oid = con.confrelid "
            "WHERE c.relname = '%s' AND con.contype IN (%s)" % (
                table, ",".join("'%s'" % k for k in kinds)))
        return [(r[0], r[1], r[2].split(","), r[3]) for r in rows]

    def test_every_table_is_classified(self):
        tables = self.tables()
        self.assertIn(ROOT, tables)
        for t in sorted(self.match_scoped()):
            with self.subTest(table=t):
                cols = {r[0] for r in self.q(
                    "SELECT attname FROM pg_attribute WHERE attrelid = 'public.%s'::regclass "
                    "AND attnum > 0 AND NOT attisdropped" % t)}
                self.assertIn(MATCH_KEY, cols,
                              "table %s is neither match-scoped (no %s) nor listed as a "
                              "reference or coordinator table in %s" % (t, MATCH_KEY, __file__))

    def test_root_is_keyed_by_its_id(self):
        pk = [c for c in self.columns_of_constraints(ROOT, "p")]
        self.assertEqual([c[2] for c in pk], [["id"]])

    def test_match_id_in_every_primary_key(self):
        for t in sorted(self.match_scoped()):
            with self.subTest(table=t):
                pk = self.columns_of_constraints(t, "p")
                self.assertEqual(len(pk), 1, "%s has no primary key" % t)
                self.assertIn(MATCH_KEY, pk[0][2], "%s: primary key %s" % (t, pk[0][2]))

    def test_match_id_in_every_unique_constraint_and_index(self):
        for t in sorted(self.match_scoped()):
            for name, _, cols, _ in self.columns_of_constraints(t, "u"):
                with self.subTest(table=t, constraint=name):
                    self.assertIn(MATCH_KEY, cols)
            for name, cols in self.q(
                    "SELECT i.relname, (SELECT string_agg(a.attname, ',') FROM pg_attribute a "
                    "  WHERE a.attrelid = x.indrelid AND a.attnum = ANY(x.indkey)) "
                    "FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid "
                    "WHERE x.indrelid = 'public.%s'::regclass AND x.indisunique" % t):
                with self.subTest(table=t, index=name):
                    self.assertIn(MATCH_KEY, (cols or "").split(","))

    def test_foreign_keys_between_distributed_tables_carry_the_match_id(self):
        distributed = self.match_scoped() | {ROOT}
        for t in sorted(self.match_scoped()):
            for name, _, cols, ref in self.columns_of_constraints(t, "f"):
                with self.subTest(table=t, fk=name):
                    if ref in distributed:
                        self.assertIn(MATCH_KEY, cols, "%s -> %s on %s" % (t, ref, cols))
                    else:
                        self.assertIn(ref, REFERENCE, "%s -> %s: not a reference table" % (t, ref))
        for t in sorted(REFERENCE):
            for name, _, cols, ref in self.columns_of_constraints(t, "f"):
                with self.subTest(table=t, fk=name):
                    self.assertNotIn(ref, distributed,
                                     "a reference table cannot point at a distributed one")


if __name__ == "__main__":
    wp.main()
