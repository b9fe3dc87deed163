"""Profiles and leaderboards (issue 28): GET /api/players/{id} and
GET /api/leaderboards/{ruleset}, through HTTP and the real database.

  - a profile: name, bot flag, per ruleset rating (provisional while the
    deviation is above 110), games, wins/draws/losses, recent finished
    matches with their opponents and outcome, one history point per rated
    match;
  - a private or unlisted match is not named to a stranger: not in
    `recent`, its history point without the match; its players see it;
  - a leaderboard: non-provisional players only, best first, the first
    100, the caller's own line and rank; pools;
  - ETags: a conditional GET is a 304 until something changes;
  - bad input: a malformed or unknown id 404, an unknown ruleset 404, a
    bad pool 400, all problem+json."""
import matchlib as ml
from matchlib import wp


class ProfilesTest(wp.ServerTestCase):

    def sql(self, q):
        return self.db.psql(q).strip()

    def players(self, *names):
        return [ml.Client(self.server, n) for n in names]

    def play(self, winner, loser, spectators="open", rated=True):
        r = loser.req("POST", "/api/games", {"ruleset": ml.RULESET, "rated": rated,
                                             "spectators": spectators})
        self.assertEqual(r.status, 201, r)
        g = r.json()
        self.assertEqual(winner.join(g["id"], g["invitations"][0]["code"]).status, 200)
        self.assertEqual(loser.req("POST", "/api/games/%d/resign" % g["id"]).status, 200)
        return g["id"]

    def profile(self, of, who=None, headers=None):
        h = dict(headers or {})
        if who is not None:
            h.update(ml.auth(who.token))
        return self.req("GET", "/api/players/%d" % of.id, headers=h)

    def test_a_profile_shows_ratings_record_and_recent_matches(self):
        a, b = self.players("Ada", "Bel")
        g1 = self.play(a, b)
        g2 = self.play(b, a, rated=False)
        r = self.profile(a)
        self.assertEqual(r.status, 200, r)
        p = r.json()
        self.assertEqual((p["id"], p["name"], p["bot"]), (a.id, "Ada", False))
        [line] = p["ratings"]
        self.assertEqual((line["ruleset"], line["pool"], line["games"], line["wins"],
                          line["draws"], line["losses"]), (ml.RULESET, "human", 1, 1, 0, 0))
        self.assertGreater(line["rating"], 1500)
        self.assertTrue(line["provisional"], "RD above 110")
        self.assertEqual([(m["id"], m["rated"], m["outcome"]) for m in p["recent"]],
                         [(g2, False, "loss"), (g1, True, "win")])
        self.assertEqual(p["recent"][0]["opponents"],
                         [{"seat": 1, "id": b.id, "name": "Bel", "bot": False}])
        [point] = p["history"]
        self.assertEqual((point["game"], point["outcome"], point["before"]), (g1, "win", 1500))
        self.assertEqual(point["rating"], line["rating"])

    def test_private_and_unlisted_matches_are_not_named_to_strangers(self):
        a, b, stranger = self.players("Pia", "Pat", "Sam")
        hidden = {self.play(a, b, "private"), self.play(b, a, "unlisted")}
        shown = self.play(a, b, "open")
        for who in (None, stranger):
            p = self.profile(a, who).json()
            self.assertEqual([m["id"] for m in p["recent"]], [shown], who)
            self.assertEqual([h["game"] for h in p["history"]], [None, None, shown])
        for who in (a, b):
            p = self.profile(a, who).json()
            self.assertEqual({m["id"] for m in p["recent"]}, hidden | {shown})
            self.assertEqual(len([h for h in p["history"] if h["game"]]), 3)

    def test_a_seat_out_before_a_draw_lost_it(self):
        """Seeded rows: three seats, seat 0 out in post 2, the other two
        agree a draw. Seat 0's match is a loss in its profile, as rated."""
        ps = self.players("D0", "D1", "D2")
        game = int(self.sql(
            "INSERT INTO games (ruleset, seats, seed, commitment, created_by, rated, status, seq,"
            " spectators) VALUES ('%s', 3, sha256('s'), sha256('c'), %d, true, 'active', 3,"
            " 'open') RETURNING id" % (ml.RULESET, ps[0].id)).split()[0])
        self.sql("INSERT INTO seats (game_id, seat, player_id, invite_hash) VALUES " + ", ".join(
            "(%d, %d, %d, sha256('%d'))" % (game, i, p.id, i) for i, p in enumerate(ps)))
        self.sql("INSERT INTO posts (game_id, seq, kind, events, draws_from) VALUES (%d, 2,"
                 " 'turn', '[{\"to\": 0, \"e\": {\"type\": \"seat_out\", \"seat\": 0}}]', 0)"
                 % game)
        self.sql("UPDATE games SET status = 'over', result = '{\"winners\": [], \"draw\": true,"
                 " \"reason\": \"agreement\"}' WHERE id = %d" % game)
        outcomes = [self.profile(p).json()["recent"][0]["outcome"] for p in ps]
        self.assertEqual(outcomes, ["loss", "draw", "draw"])

    def test_etag_and_conditional_get(self):
        a, b = self.players("Eve", "Eli")
        r = self.profile(a)
        tag = r.headers["etag"]
        self.assertEqual(r.headers["vary"], "Authorization")
        self.assertEqual(self.profile(a, headers={"If-None-Match": tag}).status, 304)
        self.play(a, b)
        r2 = self.profile(a, headers={"If-None-Match": tag})
        self.assertEqual(r2.status, 200)
        self.assertNotEqual(r2.headers["etag"], tag)
        board = self.req("GET", "/api/leaderboards/" + ml.RULESET)
        self.assertEqual(self.req("GET", "/api/leaderboards/" + ml.RULESET,
                                  headers={"If-None-Match": board.headers["etag"]}).status, 304)

    def test_bad_input(self):
        for path in ("/api/players/0", "/api/players/abc", "/api/players/99999999",
                     "/api/players/-1", "/api/leaderboards/no-such-game"):
            with self.subTest(path=path):
                self.assertProblem(self.req("GET", path), 404, "not-found")
        r = self.req("GET", "/api/leaderboards/%s?pool=martian" % ml.RULESET)
        self.assertProblem(r, 400, "invalid-request")

    def test_leaderboard_lists_only_established_players_best_first(self):
        ps = self.players("L1", "L2", "L3", "L4")
        for i in range(3):
            self.play(ps[i], ps[i + 1])
        board = self.req("GET", "/api/leaderboards/" + ml.RULESET).json()
        self.assertEqual(board["players"], [], "everyone is provisional after one match")
        self.assertIsNone(board["you"])
        # Deviations as after many matches (a hundred matches a test is
        # too slow): three of the four are established.
        self.sql("UPDATE ratings SET rd = 60 WHERE player_id IN (%d, %d, %d)"
                 % (ps[0].id, ps[1].id, ps[3].id))
        board = self.req("GET", "/api/leaderboards/" + ml.RULESET,
                         headers=ml.auth(ps[2].token)).json()
        names = [(x["rank"], x["name"]) for x in board["players"]]
        ratings = [x["rating"] for x in board["players"]]
        self.assertEqual(sorted(ratings, reverse=True), ratings)
        self.assertEqual({n for _, n in names}, {"L1", "L2", "L4"})
        self.assertEqual([r for r, _ in names], [1, 2, 3])
        self.assertEqual((board["you"]["id"], board["you"]["rank"], board["you"]["provisional"]),
                         (ps[2].id, None, True))
        mine = self.req("GET", "/api/leaderboards/" + ml.RULESET,
                        headers=ml.auth(ps[0].token)).json()["you"]
        self.assertEqual(mine["rank"], [n for _, n in names].index("L1") + 1)
        bots = self.req("GET", "/api/leaderboards/%s?pool=bot" % ml.RULESET).json()
        self.assertEqual((bots["pool"], bots["players"]), ("bot", []))

    def test_top_100(self):
        self.sql("INSERT INTO players (name, token_hash) SELECT 'T' || i,"
                 " sha256(('top' || i)::bytea) FROM generate_series(1, 105) i")
        self.sql("INSERT INTO ratings (player_id, ruleset, pool, rating, rd, volatility, games)"
                 " SELECT id, '%s', 'human', 1000 + id, 50, 0.06, 1 FROM players"
                 " WHERE name LIKE 'T%%'" % ml.RULESET)
        board = self.req("GET", "/api/leaderboards/" + ml.RULESET).json()
        self.assertEqual(len(board["players"]), 100)
        self.assertEqual(board["players"][0]["rank"], 1)
        self.assertGreater(board["players"][0]["rating"], board["players"][99]["rating"])


if __name__ == "__main__":
    import unittest
    unittest.main()
