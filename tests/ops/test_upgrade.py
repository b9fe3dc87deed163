"""Upgrade: a database of the previous release, then the current warpostd.

tests/ops/fixtures/release-aaeaa27.sql is a database made by the previous
release's own binary (commit aaeaa27: players only, migration 001) with
three players whose tokens are in release-aaeaa27.players.json. The test
loads it, starts two current instances at the same moment (as a rolling
upgrade or `docker compose up` with two app services does), and checks:
the new migrations are applied once, under the advisory lock, by one of
them; the old one is not touched; the old players and their tokens work;
the new features work on the old data; a restart applies nothing.
Runs the product binary (WARPOSTD)."""
import json
import os
import re
import subprocess
import sys
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import warpost as wp  # noqa: E402

FIXTURE = os.path.join(HERE, "fixtures", "release-aaeaa27.sql")
PLAYERS = os.path.join(HERE, "fixtures", "release-aaeaa27.players.json")


def migrations_in(sql_dir):
    return sorted(f for f in os.listdir(sql_dir) if re.match(r"^\d+_.*\.sql$", f))


class UpgradeTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.pg = wp.PgCluster.shared()
        cls.db = cls.pg.create_database()
        cls.addClassCleanup(cls.db.drop)
        r = subprocess.run([os.path.join(wp.pg_bindir(), "psql"), "-X", "-q", "-v",
                            "ON_ERROR_STOP=1", "-d", cls.db.url, "-f", FIXTURE],
                           capture_output=True, stdin=subprocess.DEVNULL, timeout=60)
        if r.returncode != 0:
            raise AssertionError("loading the fixture failed:\n" + r.stderr.decode())
        with open(PLAYERS) as f:
            cls.old_players = json.load(f)
        cls.before = cls.db.psql("SELECT version, name, checksum, applied_at "
                                 "FROM schema_migrations ORDER BY version").splitlines()
        # two new instances at once: they race for the advisory lock
        cls.servers = [wp.Server(cls.db.url) for _ in range(2)]
        for s in cls.servers:
            cls.addClassCleanup(s.stop)
            s.start(wait=False)
        for s in cls.servers:
            s.wait_ready()

    def test_fixture_is_the_previous_release(self):
        self.assertEqual([l.split("|")[1] for l in self.before], ["001_players.sql"])
        self.assertIn("players", self.db.psql(
            "SELECT string_agg(tablename, ',') FROM pg_tables WHERE schemaname = 'public'"))

    def test_new_migrations_applied_once(self):
        rows = self.db.psql("SELECT version, name, checksum, applied_at FROM schema_migrations "
                            "ORDER BY version").splitlines()
        names = [r.split("|")[1] for r in rows]
        self.assertEqual(names, migrations_in(wp.SQL_DIR))
        # the old row is untouched (same checksum, same time)
        self.assertEqual(rows[0], self.before[0])
        # each new migration was applied by exactly one of the two instances
        for name in names[1:]:
            logs = [sum(1 for l in s.log_lines() if "migration %s applied" % name in l)
                    for s in self.servers]
            self.assertEqual(sorted(logs), [0, 1], (name, logs))

    def test_old_players_and_tokens_still_work(self):
        for p in self.old_players:
            with self.subTest(player=p["name"]):
                r = self.servers[0].request("GET", "/api/me",
                                            headers={"Authorization": "Bearer " + p["token"]})
                self.assertEqual(r.status, 200, r)
                self.assertEqual((r.json()["id"], r.json()["name"]), (p["id"], p["name"]))
                r = self.servers[1].request("GET", "/api/me/games",
                                            headers={"Authorization": "Bearer " + p["token"]})
                self.assertEqual(r.status, 200, r)

    def test_new_features_on_old_data(self):
        """An old player creates a match of a current ruleset, a new player
        joins, a turn is posted; identities continue after the old ones."""
        s = self.servers[0]
        old = self.old_players[0]
        r = s.request("POST", "/api/players", {"name": "Newcomer"})
        self.assertEqual(r.status, 201, r)
        new = r.json()
        self.assertGreater(new["id"], max(p["id"] for p in self.old_players))
        auth = {old["id"]: {"Authorization": "Bearer " + old["token"]},
                new["id"]: {"Authorization": "Bearer " + new["token"]}}
        rs = next(x for x in s.request("GET", "/api/rulesets").json()["rulesets"]
                  if x["min_seats"] <= 2 <= x["max_seats"])
        r = s.request("POST", "/api/games", {"ruleset": rs["id"], "seats": 2, "seat": 0},
                      auth[old["id"]])
        self.assertEqual(r.status, 201, r)
        g = r.json()
        r = self.servers[1].request("POST", "/api/games/%d/join" % g["id"],
                                    {"code": g["invitations"][0]["code"]}, auth[new["id"]])
        self.assertEqual(r.status, 200, r)
        v = s.request("GET", "/api/games/%d" % g["id"]).json()
        who = [x["player"]["id"] for x in v["seats"] if x["seat"] == v["awaiting"][0]][0]
        a = s.request("GET", "/api/games/%d/actions" % g["id"], None, auth[who]).json()
        r = s.request("POST", "/api/games/%d/turns" % g["id"],
                      {"seq": a["seq"], "actions": [a["actions"][0]]}, auth[who])
        self.assertEqual(r.status, 200, r)

    def test_restart_applies_nothing(self):
        before = self.db.psql("SELECT version, checksum, applied_at FROM schema_migrations "
                              "ORDER BY version")
        s = wp.Server(self.db.url).start()
        log = s.stop()
        self.assertNotIn(" applied", log)
        self.assertEqual(self.db.psql("SELECT version, checksum, applied_at FROM "
                                      "schema_migrations ORDER BY version"), before)


if __name__ == "__main__":
    wp.main()
