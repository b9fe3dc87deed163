"""Backup and restore: scripts/backup.sh (pg_dump) taken while warpostd
serves and a match is being played, scripts/restore.sh (pg_restore) into an
empty database, a warpostd on the copy: every finished match still verifies
(GET /api/games/{id}/verify) and exports byte for byte as before, tokens
work, an unfinished match goes on; a clean restore over a damaged copy puts
it back. Runs the test server (warpostd-test), which offers the product
rulesets and the test ruleset."""
import os
import random
import subprocess
import sys
import threading
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "api"))
import matchlib as ml  # noqa: E402
from matchlib import wp  # noqa: E402

SCRIPTS = os.path.join(wp.REPO, "scripts")
TABLES = ("players", "games", "seats", "posts", "idempotency", "schema_migrations")


def script(name, *args, env=None):
    e = dict(os.environ)
    e.update(env or {})
    r = subprocess.run(["bash", os.path.join(SCRIPTS, name)] + list(args), env=e,
                       capture_output=True, stdin=subprocess.DEVNULL, timeout=120)
    if r.returncode != 0:
        raise AssertionError("%s failed (%d):\n%s" % (name, r.returncode,
                                                       r.stderr.decode(errors="replace")))
    return r


class BackupRestoreTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.pg = wp.PgCluster.shared()
        cls.db = cls.pg.create_database()
        cls.addClassCleanup(cls.db.drop)
        cls.server = wp.Server(cls.db.url)
        cls.addClassCleanup(cls.server.stop)
        cls.server.start()
        cls.tmp = wp.make_tmpdir("wp-backup-")
        cls.addClassCleanup(wp.remove_tmpdir, cls.tmp)

        s = cls.server
        cls.players = [ml.Client(s, n) for n in ("Ann", "Bo", "Cy")]
        a, b, c = cls.players
        rng = random.Random(7)
        cls.finished = []
        # the test ruleset: two and three seats, ended by resignation
        for i in range(3):
            g = ml.start_match([a, b], seeds=["a%d" % i, "b%d" % i])
            ml.play_random([a, b], g, 6 + 3 * i, rng)
            assert a.req("POST", "/api/games/%d/resign" % g).status == 200
            cls.finished.append(g)
        g = ml.start_match([a, b, c])
        ml.play_random([a, b, c], g, 9, rng)
        for p in (b, c):
            assert p.req("POST", "/api/games/%d/resign" % g).status == 200
        cls.finished.append(g)
        # every product ruleset: a few random posts, then a resignation
        for rs in s.request("GET", "/api/rulesets").json()["rulesets"]:
            if rs["id"] == ml.RULESET or not rs["min_seats"] <= 2 <= rs["max_seats"]:
                continue
            g = a.create(2, client_seed="x", ruleset=rs["id"])
            assert b.join(g["id"], g["invitations"][0]["code"], "y").status == 200
            for _ in range(8):
                v = a.view(g["id"]).json()
                if v["status"] != "active":
                    break
                p = (a, b)[rng.choice(v["awaiting"])]
                acts = p.actions(g["id"])
                assert p.turn(g["id"], acts["seq"], [rng.choice(acts["actions"])]).status == 200
            if a.view(g["id"]).json()["status"] == "active":
                assert a.req("POST", "/api/games/%d/resign" % g["id"]).status == 200
            cls.finished.append(g["id"])
        # unfinished: one under way, one open
        cls.active = ml.start_match([a, b])
        ml.play_random([a, b], cls.active, 4, rng)
        cls.open = a.create(2)["id"]

        # the backup, taken while posts go on in another match
        busy = ml.start_match([a, b])
        stop = threading.Event()

        def keep_posting():
            # (a random post may end the match: then nothing more is posted)
            while not stop.is_set() and a.view(busy).json()["status"] == "active":
                ml.play_random([a, b], busy, 1, rng)
        t = threading.Thread(target=keep_posting)
        t.start()
        try:
            cls.dump = os.path.join(cls.tmp, "warpost.dump")
            script("backup.sh", cls.dump, cls.db.url)
        finally:
            stop.set()
            t.join(30)
        cls.busy = busy

        cls.copy = cls.pg.create_database()
        cls.addClassCleanup(cls.copy.drop)
        script("restore.sh", cls.dump, env={"DATABASE_URL": cls.copy.url})
        cls.restored = wp.Server(cls.copy.url)
        cls.addClassCleanup(cls.restored.stop)
        cls.restored.start()

    def on_copy(self, player):
        c = ml.Client.__new__(ml.Client)
        c.server, c.id, c.name, c.token = self.restored, player.id, player.name, player.token
        c.via = {}
        return c

    def test_finished_matches_verify_and_export_unchanged(self):
        self.assertGreaterEqual(len(self.finished), 5)
        over = [int(x) for x in self.copy.psql(
            "SELECT id FROM games WHERE status = 'over' AND id <> %d ORDER BY id"
            % self.busy).split()]
        self.assertEqual(over, sorted(self.finished))
        for g in over:
            with self.subTest(game=g):
                rep = self.restored.request("GET", "/api/games/%d/verify" % g)
                self.assertEqual(rep.status, 200, rep)
                self.assertTrue(rep.json()["verified"], rep.json().get("mismatches"))
                self.assertEqual(self.restored.request("GET", "/api/games/%d/export" % g).body,
                                 self.server.request("GET", "/api/games/%d/export" % g).body)

    def test_tokens_and_my_matches(self):
        for p in self.players:
            with self.subTest(player=p.name):
                mine = self.on_copy(p).req("GET", "/api/me/games")
                self.assertEqual(mine.status, 200, mine)
                ids = sorted(m["id"] for m in mine.json()["games"])
                before = self.server.request("GET", "/api/me/games", headers=ml.auth(p.token))
                # the busy match kept moving after the dump: compare ids only
                self.assertEqual(ids, sorted(m["id"] for m in before.json()["games"]))

    def test_unfinished_match_goes_on(self):
        a, b = (self.on_copy(p) for p in self.players[:2])
        v = a.view(self.active).json()
        self.assertEqual(v["seq"], self.server.request(
            "GET", "/api/games/%d" % self.active).json()["seq"])
        ml.play_random([a, b], self.active, 3, random.Random(1))
        self.assertEqual(a.view(self.active).json()["seq"], v["seq"] + 3)
        self.assertEqual(a.view(self.open).json()["status"], "open")

    def test_the_dump_is_one_snapshot(self):
        """The match being played during the dump is whole at some seq: its
        snapshot, its log and its version agree (it replays to the end)."""
        a, b = (self.on_copy(p) for p in self.players[:2])
        seq = a.view(self.busy).json()["seq"]
        posts = int(self.copy.psql("SELECT count(*) FROM posts WHERE game_id = %d" % self.busy))
        self.assertEqual(posts, seq)
        # (the busy match may have ended by itself before the dump)
        if a.view(self.busy).json()["status"] == "active":
            self.assertEqual(a.req("POST", "/api/games/%d/resign" % self.busy).status, 200)
        rep = self.restored.request("GET", "/api/games/%d/verify" % self.busy).json()
        self.assertTrue(rep["verified"], rep.get("mismatches"))

    def test_zz_clean_restore_over_a_damaged_copy(self):
        target = self.pg.create_database()
        self.addCleanup(target.drop)
        script("restore.sh", self.dump, target.url)
        counts = {t: target.psql("SELECT count(*) FROM %s" % t).strip() for t in TABLES}
        target.psql("DELETE FROM idempotency; DELETE FROM posts WHERE seq > 1; "
                    "UPDATE players SET name = 'mallory'")
        script("restore.sh", self.dump, target.url, env={"WP_RESTORE_CLEAN": "1"})
        self.assertEqual({t: target.psql("SELECT count(*) FROM %s" % t).strip() for t in TABLES},
                         counts)
        self.assertEqual(target.psql("SELECT count(*) FROM players WHERE name = 'mallory'")
                         .strip(), "0")
        s = wp.Server(target.url).start()
        try:
            for g in self.finished:
                self.assertTrue(s.request("GET", "/api/games/%d/verify" % g).json()["verified"])
        finally:
            s.stop()

    def test_a_failed_backup_leaves_no_file(self):
        out = os.path.join(self.tmp, "nothing.dump")
        r = subprocess.run(["bash", os.path.join(SCRIPTS, "backup.sh"), out,
                            wp.url_with_db(self.pg.admin_url, "no_such_db")],
                           capture_output=True, stdin=subprocess.DEVNULL, timeout=60)
        self.assertNotEqual(r.returncode, 0)
        self.assertEqual([f for f in os.listdir(self.tmp) if f.startswith("nothing")], [])


if __name__ == "__main__":
    wp.main()
