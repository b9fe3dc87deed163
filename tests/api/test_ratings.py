"""Glicko-2 ratings per ruleset (issue 28, "Ratings"), through HTTP and the
real PostgreSQL that holds the maths (sql/017_ratings.sql):

  - Glickman's worked example ("Example of the Glicko-2 system": 1500/200/
    0.06 beats 1400/30, loses to 1550/100 and 1700/300, tau 0.5) gives
    1464.06 / 151.52 / 0.05999 through the SQL function the trigger calls;
  - POST /api/games takes "rated"; the match, My matches and the lobby
    show it; a wrong type is a 400 that creates nothing;
  - a rated match changes its players' ratings in the transaction that
    records its end, whatever ends it: a turn, a resignation, a draw
    agreed, a claim on time; an unrated one changes none;
  - 3 seats: pairwise by finishing order (out earlier lost to everyone
    still standing, the survivor beat all), one rating period;
  - bots are rated in their own pool: a human-bot match changes no rating
    unless RATING_MIX_BOTS; bot against bot changes the bot pool;
  - `warpost ratings --check` replays every rated result through the same
    function and finds the stored ratings bit for bit; a stored value
    changed by a hair is found, and `--recompute` puts it back."""
import calendar
import json
import os
import subprocess

import matchlib as ml
from matchlib import wp

D = 86400
MON = calendar.timegm((2030, 1, 7, 0, 0, 0))


class RatingsTest(ml.ClockTestCase):

    clock_start = MON

    # --- helpers ---

    def sql(self, q):
        return self.db.psql(q).strip()

    def players(self, *names):
        return [ml.Client(self.server, n) for n in names]

    def start(self, players, rated=True, options=None, tc=None, spectators=None):
        body = {"ruleset": ml.RULESET, "seats": len(players), "seat": 0, "rated": rated}
        if options is not None:
            body["options"] = options
        if tc is not None:
            body["time_control"] = tc
        if spectators is not None:
            body["spectators"] = spectators
        r = players[0].req("POST", "/api/games", body)
        self.assertEqual(r.status, 201, r)
        g = r.json()
        self.assertEqual(g["rated"], rated)
        for p, inv in zip(players[1:], g["invitations"]):
            self.assertEqual(p.join(g["id"], inv["code"]).status, 200)
        return g["id"]

    def rating(self, player, pool="human"):
        """(rating, rd, volatility, games) as stored, exact text; None if unrated."""
        row = self.sql("SELECT rating, rd, volatility, games FROM ratings WHERE player_id = %d"
                       " AND ruleset = '%s' AND pool = '%s'" % (player.id, ml.RULESET, pool))
        return tuple(row.split("|")) if row else None

    def resign(self, player, game):
        r = player.req("POST", "/api/games/%d/resign" % game)
        self.assertEqual(r.status, 200, r)
        return r

    def cli(self, *args):
        env = dict(os.environ, DATABASE_URL=self.db.url)
        r = subprocess.run([ml.WARPOST_CLI, "ratings"] + list(args), env=env,
                           capture_output=True, timeout=120)
        out = r.stdout.decode().strip()
        return r.returncode, json.loads(out) if out else None, r.stderr.decode()

    # --- the maths ---

    def test_glickman_worked_example(self):
        """Glickman, "Example of the Glicko-2 system" (2013): 1464.06 /
        151.52 / 0.05999. The paper rounds its steps (mu' = -0.2069); the
        exact computation is 1464.0507, within its last digit."""
        row = self.sql("SELECT rating, deviation, volatility FROM wp_glicko2_step("
                       "1500, 200, 0.06, ARRAY[1400, 1550, 1700], ARRAY[30, 100, 300],"
                       " ARRAY[1, 0, 0], 0.5)")
        r, rd, vol = map(float, row.split("|"))
        self.assertAlmostEqual(r, 1464.06, delta=0.01)
        self.assertAlmostEqual(rd, 151.52, delta=0.005)
        self.assertAlmostEqual(vol, 0.05999, delta=0.00001)

    def test_idle_periods_grow_the_deviation_up_to_350(self):
        self.assertAlmostEqual(float(self.sql("SELECT wp_glicko2_idle(50, 0.06, 0)")), 50, 9)
        self.assertAlmostEqual(float(self.sql("SELECT wp_glicko2_idle(50, 0.06, 100)")),
                               173.7178 * ((50 / 173.7178) ** 2 + 0.06 ** 2 * 100) ** 0.5, 6)
        self.assertEqual(float(self.sql("SELECT wp_glicko2_idle(300, 0.06, 100000)")), 350)

    # --- the flag ---

    def test_rated_is_shown_and_checked(self):
        a, b = self.players("Ria", "Rob")
        r = a.req("POST", "/api/games", {"ruleset": ml.RULESET, "rated": "yes"})
        self.assertProblem(r, 400, "invalid-request")
        self.assertEqual(a.req("GET", "/api/me/games").json()["count"], 0, "nothing created")
        game = self.start([a, b], rated=True, spectators="open")
        casual = self.start([a, b], rated=False)
        self.assertTrue(a.view(game).json()["rated"])
        self.assertFalse(a.view(casual).json()["rated"])
        lines = {g["id"]: g["rated"] for g in a.req("GET", "/api/me/games").json()["games"]}
        self.assertEqual((lines[game], lines[casual]), (True, False))
        listed = {g["id"]: g["rated"] for g in self.req("GET", "/api/games").json()["games"]}
        self.assertTrue(listed[game])
        # Nobody is rated against itself: a player holds one seat a match.
        r = a.req("POST", "/api/games", {"ruleset": ml.RULESET, "rated": True})
        g = r.json()
        self.assertProblem(a.join(g["id"], g["invitations"][0]["code"]), 409, "already-seated")

    # --- every path that ends a match ---

    def test_every_way_a_rated_match_ends_rates_it(self):
        a, b = self.players("Ann", "Ben")
        seen = []

        def ended(game, how):
            self.assertEqual(a.view(game).json()["status"], "over", how)
            n = int(self.sql("SELECT count(*) FROM rating_history WHERE game_id = %d" % game))
            self.assertEqual(n, 2, "%s: both players rated for match %d" % (how, game))
            now = (self.rating(a), self.rating(b))
            self.assertNotIn(now, seen, how)
            seen.append(now)

        seen.append((self.rating(a), self.rating(b)))
        game = self.start([a, b])
        self.resign(b, game)
        ended(game, "resignation")
        self.assertEqual(self.rating(a)[3], "1")
        self.assertGreater(float(self.rating(a)[0]), 1500)
        self.assertLess(float(self.rating(b)[0]), 1500)

        game = self.start([a, b])
        path = "/api/games/%d/draw" % game
        self.assertEqual(a.req("POST", path, {"action": "offer"}).status, 200)
        self.assertEqual(b.req("POST", path, {"action": "accept"}).status, 200)
        ended(game, "draw by agreement")

        game = self.start([a, b], options={"turn_limit": 1})
        for _ in range(10):
            v = a.view(game).json()
            if v["status"] == "over":
                break
            p = a if 0 in v["awaiting"] else b
            acts = p.actions(game)
            moves = [x for x in acts["actions"] if x.get("type") == "move"] or acts["actions"]
            self.assertEqual(p.turn(game, acts["seq"], [moves[0]]).status, 200)
        self.assertEqual(a.view(game).json()["result"]["reason"], "turn limit")
        ended(game, "a turn (the turn limit)")

        self.set_time(MON)
        game = self.start([a, b], tc={"days_per_move": 1})
        self.set_time(MON + 2 * D)
        r = b.req("POST", "/api/games/%d/claim" % game)
        self.assertEqual(r.status, 200, r)
        self.assertEqual(a.view(game).json()["result"]["winners"], [1])
        ended(game, "a claim on time")
        self.set_time(MON)

        before = (self.rating(a), self.rating(b))
        game = self.start([a, b], rated=False)
        self.resign(a, game)
        self.assertEqual((self.rating(a), self.rating(b)), before, "a casual match rates nobody")
        self.assertEqual(self.sql("SELECT count(*) FROM rating_games WHERE game_id = %d" % game),
                         "0")

    def test_a_rating_change_is_in_the_transaction_of_the_result(self):
        """A result the database refuses to rate is not stored either: the
        trigger fails inside the statement that ends the match, the
        resignation answers 5xx, and nothing of it stays."""
        a, b = self.players("Tia", "Tom")
        game = self.start([a, b])
        self.sql("ALTER TABLE rating_history ADD CONSTRAINT test_refuse CHECK (game_id <> %d)"
                 % game)
        try:
            r = b.req("POST", "/api/games/%d/resign" % game)
            self.assertGreaterEqual(r.status, 500, r)
        finally:
            self.sql("ALTER TABLE rating_history DROP CONSTRAINT test_refuse")
        self.assertEqual(a.view(game).json()["status"], "active")
        self.assertIsNone(self.rating(a))
        self.resign(b, game)
        self.assertEqual(a.view(game).json()["status"], "over")
        self.assertEqual(self.rating(a)[3], "1")

    # --- three seats ---

    def test_three_seats_are_scored_pairwise_by_finishing_order(self):
        a, b, c = self.players("Out1", "Out2", "Last")
        game = self.start([a, b, c])
        self.resign(a, game)              # out first: lost to b and c
        self.resign(b, game)              # out second: beat a, lost to c; c wins
        self.assertEqual(a.view(game).json()["result"]["winners"], [2])
        hist = {int(k): v for k, v in (line.split("|") for line in self.sql(
            "SELECT player_id, outcome FROM rating_history WHERE game_id = %d" % game
        ).splitlines())}
        self.assertEqual(hist, {a.id: "loss", b.id: "loss", c.id: "win"})
        # Each is one Glicko-2 period against both others at 1500/350.
        for p, scores in ((a, "0, 0"), (b, "1, 0"), (c, "1, 1")):
            want = self.sql("SELECT rating, deviation, volatility FROM wp_glicko2_step("
                            "1500, 350, 0.06, ARRAY[1500, 1500], ARRAY[350, 350],"
                            " ARRAY[%s], 0.5)" % scores)
            self.assertEqual("|".join(self.rating(p)[:3]), want, p.name)
        self.assertEqual(self.rating(b)[0], "1500", "one win and one loss at equal ratings")

    def test_four_seats_out_in_one_post_drew_each_other(self):
        """Seeded rows, as Confrontation and ChessWar store them: seats 0
        and 1 out in post 2 (two seat_out events), seat 2 out in post 3
        (ChessWar's "out"; a seat_out in a post taken back does not count),
        seat 3 the winner."""
        ps = self.players("Q0", "Q1", "Q2", "Q3")
        game = int(self.sql(
            "INSERT INTO games (ruleset, seats, seed, commitment, created_by, rated, status, seq)"
            " VALUES ('%s', 4, sha256('s'), sha256('c'), %d, true, 'active', 4) RETURNING id"
            % (ml.RULESET, ps[0].id)).split()[0])
        self.sql("INSERT INTO seats (game_id, seat, player_id, invite_hash) VALUES " + ", ".join(
            "(%d, %d, %d, sha256('%d'))" % (game, i, p.id, i) for i, p in enumerate(ps)))
        out = lambda t, s: '{"to": 0, "e": {"type": "%s", "seat": %d}}' % (t, s)  # noqa: E731
        self.sql("INSERT INTO posts (game_id, seq, kind, events, draws_from, undone_by) VALUES"
                 " (%d, 1, 'turn', '[%s]', 0, 4), (%d, 2, 'turn', '[%s, %s]', 0, NULL),"
                 " (%d, 3, 'turn', '[%s]', 0, NULL)"
                 % (game, out("seat_out", 2), game, out("seat_out", 0), out("seat_out", 1),
                    game, out("out", 2)))
        self.sql("UPDATE games SET status = 'over', result = '{\"winners\": [3], \"draw\": false}'"
                 " WHERE id = %d" % game)
        for p, scores in zip(ps, ("0.5, 0, 0", "0.5, 0, 0", "1, 1, 0", "1, 1, 1")):
            want = self.sql("SELECT rating, deviation, volatility FROM wp_glicko2_step("
                            "1500, 350, 0.06, ARRAY[1500, 1500, 1500], ARRAY[350, 350, 350],"
                            " ARRAY[%s]::float8[], 0.5)" % scores)
            self.assertEqual("|".join(self.rating(p)[:3]), want, p.name)

    # --- bots ---

    def test_bots_are_rated_in_their_own_pool(self):
        h, b1, b2 = self.players("Hum", "Bot1", "Bot2")
        self.sql("UPDATE players SET bot = true WHERE id IN (%d, %d)" % (b1.id, b2.id))
        game = self.start([h, b1])
        self.resign(b1, game)
        self.assertIsNone(self.rating(h), "a human-bot match changes no human rating")
        self.assertEqual(self.rating(h, "bot"), None)
        self.assertIsNone(self.rating(b1, "bot"), "nor the bot's")
        self.assertEqual(self.sql("SELECT count(*) FROM rating_history WHERE game_id = %d"
                                  % game), "0")
        game = self.start([b1, b2])
        self.resign(b1, game)
        self.assertGreater(float(self.rating(b2, "bot")[0]), 1500)
        self.assertIsNone(self.rating(b2, "human"))

    # --- the replay ---

    def test_recompute_arrives_at_the_stored_ratings_exactly(self):
        ps = self.players("P0", "P1", "P2", "P3", "P4")
        self.sql("UPDATE players SET bot = true WHERE id = %d" % ps[4].id)
        for i in range(30):
            x, y = ps[i % 5], ps[(i * 3 + 1) % 5]
            if x is y:
                y = ps[(i + 2) % 5]
            game = self.start([x, y])
            if i % 4 == 3:
                path = "/api/games/%d/draw" % game
                self.assertEqual(x.req("POST", path, {"action": "offer"}).status, 200)
                self.assertEqual(y.req("POST", path, {"action": "accept"}).status, 200)
            else:
                self.resign(x if i % 3 else y, game)
        a, b, c = ps[:3]
        game = self.start([a, b, c])
        self.resign(c, game)
        self.resign(a, game)
        stored = self.sql("SELECT * FROM ratings ORDER BY 1, 2, 3")
        self.assertGreater(int(self.sql("SELECT count(*) FROM rating_games")), 30)

        rc, out, err = self.cli("--check")
        self.assertEqual((rc, out["differences"]), (0, 0), err)
        self.assertEqual(out["replayed"], int(self.sql("SELECT count(*) FROM rating_games")))
        self.assertEqual(self.sql("SELECT * FROM ratings ORDER BY 1, 2, 3"), stored)

        # One stored value off by the last bits of a double is found...
        self.sql("UPDATE ratings SET rating = rating * (1 + 1e-15) WHERE player_id = %d" % a.id)
        self.assertNotEqual(self.sql("SELECT * FROM ratings ORDER BY 1, 2, 3"), stored)
        rc, out, _ = self.cli("--check")
        self.assertEqual((rc, out["differences"], out["replaced"]), (1, 2, False))
        # ... and put back by --recompute, bit for bit.
        rc, out, _ = self.cli("--recompute")
        self.assertEqual((rc, out["differences"], out["replaced"]), (0, 2, True))
        self.assertEqual(self.sql("SELECT * FROM ratings ORDER BY 1, 2, 3"), stored)
        rc, out, _ = self.cli("--check")
        self.assertEqual((rc, out["differences"]), (0, 0))

    def test_results_that_share_players_at_once(self):
        """Twelve rated matches among four players resigned all at once:
        none waits for ever on another (the rating rows are locked in one
        order), each is rated once, and the replay, in the order the
        results were applied, finds the same ratings."""
        ps = self.players("C0", "C1", "C2", "C3")
        games = [(self.start([x, y]), y) for x in ps for y in ps if x is not y]
        replies = wp.run_together([
            (lambda g=g, y=y: y.req("POST", "/api/games/%d/resign" % g)) for g, y in games])
        self.assertEqual([r.status for r in replies], [200] * len(games), replies)
        self.assertEqual(self.sql("SELECT count(*) FROM rating_history WHERE game_id IN (%s)"
                                  % ", ".join(str(g) for g, _ in games)), str(2 * len(games)))
        self.assertEqual(self.sql("SELECT sum(games) FROM ratings WHERE player_id IN (%s)"
                                  % ", ".join(str(p.id) for p in ps)), str(2 * len(games)))
        rc, out, err = self.cli("--check")
        self.assertEqual((rc, out["differences"]), (0, 0), err)

    def test_cli_usage(self):
        rc, _, err = self.cli("--nonsense")
        self.assertEqual(rc, 2)
        self.assertIn("usage", err)


class MixedPoolsTest(wp.ServerTestCase):
    """RATING_MIX_BOTS=1: bots are rated with humans, in one pool; the
    configured tau and period are what the SQL functions read."""

    server_env = {"RATING_MIX_BOTS": "1", "RATING_TAU": "0.3",
                  "RATING_PERIOD_SECONDS": "3600"}

    def test_mixed_pools_and_settings(self):
        self.assertEqual(self.db.psql("SELECT tau, period_seconds, mix_bots FROM rating_settings"
                                      ).strip(), "0.3|3600|t")
        h, b = ml.Client(self.server, "Hum"), ml.Client(self.server, "Bot")
        self.db.psql("UPDATE players SET bot = true WHERE id = %d" % b.id)
        r = h.req("POST", "/api/games", {"ruleset": ml.RULESET, "rated": True})
        g = r.json()
        self.assertEqual(b.join(g["id"], g["invitations"][0]["code"]).status, 200)
        game = g["id"]
        self.assertEqual(b.req("POST", "/api/games/%d/resign" % game).status, 200)
        pools = self.db.psql("SELECT player_id, pool FROM ratings WHERE player_id IN (%d, %d)"
                             " ORDER BY 1" % (h.id, b.id)).split()
        self.assertEqual(pools, ["%d|human" % h.id, "%d|human" % b.id])
        want = self.db.psql("SELECT rating FROM wp_glicko2_step(1500, 350, 0.06, ARRAY[1500],"
                            " ARRAY[350], ARRAY[1], 0.3)").strip()
        self.assertEqual(self.db.psql("SELECT rating FROM ratings WHERE player_id = %d" % h.id
                                      ).strip(), want, "rated with tau 0.3")

    def test_an_instance_writes_only_the_settings_it_was_given(self):
        """Several instances on one database: one started without RATING_*
        leaves the settings as they are (before, each start wrote its own
        defaults over them); one given some writes only those."""
        row = "SELECT tau, period_seconds, mix_bots FROM rating_settings"
        plain = wp.Server(self.db.url).start()
        plain.stop()
        self.assertEqual(self.db.psql(row).strip(), "0.3|3600|t")
        self.db.psql("UPDATE rating_settings SET period_seconds = 7200")
        try:
            some = wp.Server(self.db.url, env={"RATING_TAU": "0.3", "RATING_MIX_BOTS": "1"}).start()
            some.stop()
            self.assertEqual(self.db.psql(row).strip(), "0.3|7200|t")
        finally:
            self.db.psql("UPDATE rating_settings SET period_seconds = 3600")

    def test_deviations_grow_with_idle_periods_before_a_match(self):
        """Five idle periods (RATING_PERIOD_SECONDS=3600: the last match
        moved five hours back) widen both deviations before the step:
        phi* = sqrt(phi^2 + sigma^2 * 5), the opponent's too."""
        a, b = ml.Client(self.server, "Ida"), ml.Client(self.server, "Ivo")
        for loser in (a, b):
            r = a.req("POST", "/api/games", {"ruleset": ml.RULESET, "rated": True})
            g = r.json()
            self.assertEqual(b.join(g["id"], g["invitations"][0]["code"]).status, 200)
            if loser is b:
                self.db.psql("UPDATE ratings SET last_at = last_at - interval '5 hours 1 minute'"
                             " WHERE player_id IN (%d, %d)" % (a.id, b.id))
                before = {p.id: self.db.psql("SELECT rating, rd, volatility FROM ratings WHERE"
                                             " player_id = %d" % p.id).strip().split("|")
                          for p in (a, b)}
            self.assertEqual(loser.req("POST", "/api/games/%d/resign" % g["id"]).status, 200)
        ra, rda, va = before[a.id]
        rb, rdb, vb = before[b.id]
        want = self.db.psql(
            "SELECT rating, deviation FROM wp_glicko2_step(%s, wp_glicko2_idle(%s, %s, 5), %s,"
            " ARRAY[%s::float8], ARRAY[wp_glicko2_idle(%s, %s, 5)], ARRAY[1::float8], 0.3)"
            % (ra, rda, va, va, rb, rdb, vb)).strip()
        got = self.db.psql("SELECT rating, rd FROM ratings WHERE player_id = %d" % a.id).strip()
        self.assertEqual(got, want)
        without = self.db.psql(
            "SELECT rating, deviation FROM wp_glicko2_step(%s, %s, %s, ARRAY[%s::float8],"
            " ARRAY[%s::float8], ARRAY[1::float8], 0.3)" % (ra, rda, va, rb, rdb)).strip()
        self.assertNotEqual(got, without, "the idle time counted")

    def test_a_bad_setting_stops_the_start(self):
        wp.assert_bad_settings_stop_start(self, self.db.url, (
            ("RATING_TAU", "0"), ("RATING_TAU", "x"), ("RATING_PERIOD_SECONDS", "0"),
            ("RATING_MIX_BOTS", "2")))


if __name__ == "__main__":
    import unittest
    unittest.main()
