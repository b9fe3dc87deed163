"""Bad input to the match service: each case gets its own problem+json type
with the right status, and nothing is stored (the tables and the match's
version are compared before and after). (Issue "Match service", Bad input.)"""
import unittest

import matchlib as ml
from matchlib import wp

SNAPSHOT = ("SELECT (SELECT count(*) FROM games) || '/' || (SELECT count(*) FROM seats"
            " WHERE player_id IS NOT NULL) || '/' || (SELECT count(*) FROM posts) || '/' ||"
            " (SELECT count(*) FROM idempotency) || '/' || (SELECT coalesce(sum(version), 0)"
            " FROM games) || '/' || (SELECT coalesce(sum(seq), 0) FROM games)")


def move(a, b):
    return {"type": "move", "from": a, "to": b}


class MatchBadInputTest(wp.ServerTestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.a = ml.Client(cls.server, "Alice")
        cls.b = ml.Client(cls.server, "Bob")
        cls.c = ml.Client(cls.server, "Carol")
        g = cls.a.create(2)
        cls.open_game, cls.open_code = g["id"], g["invitations"][0]["code"]
        cls.game = ml.start_match([cls.a, cls.b])

    def snapshot(self):
        return self.db.psql(SNAPSHOT).strip()

    def refused(self, reply, status, slug):
        """The reply is the problem, and the database did not change."""
        self.assertProblem(reply, status, slug)
        self.assertEqual(self.snapshot(), self.before, "a refused request changed the store")

    def setUp(self):
        self.before = self.snapshot()

    def post_raw(self, path, body, ctype="application/json", token=None):
        headers = {"Content-Type": ctype}
        if token:
            headers["Authorization"] = "Bearer " + token
        return self.server.request("POST", path, body, headers)

    def test_malformed_json(self):
        for body in (b"{", b"{\"ruleset\":}", b"[1,]", b"{\"a\":1} trailing", b"\xff\xfe"):
            with self.subTest(body=body):
                self.refused(self.post_raw("/api/games", body, token=self.a.token), 400,
                             "malformed-json")

    def test_oversized_body(self):
        body = b'{"ruleset":"' + b"x" * 70000 + b'"}'
        self.refused(self.post_raw("/api/games", body, token=self.a.token), 413, "body-too-large")

    def test_wrong_media_type(self):
        self.refused(self.post_raw("/api/games", b"{}", "text/plain", self.a.token), 415,
                     "unsupported-media-type")

    def test_wrong_types_and_ranges(self):
        for body in ({"ruleset": 5}, {"ruleset": ml.RULESET, "seats": "2"},
                     {"ruleset": ml.RULESET, "seats": 9}, {"ruleset": ml.RULESET, "options": []},
                     {"ruleset": ml.RULESET, "extra": 1}, {},
                     {"ruleset": ml.RULESET, "client_seed": "x" * 65},
                     {"ruleset": ml.RULESET, "seats": 2, "seat": 2}):
            with self.subTest(body=body):
                self.refused(self.a.req("POST", "/api/games", body), 400, "invalid-request")

    def test_unknown_ruleset(self):
        self.refused(self.a.req("POST", "/api/games", {"ruleset": "chess960"}), 422,
                     "unknown-ruleset")

    def test_unknown_or_invalid_option(self):
        for opts in ({"bogus": 1}, {"turn_limit": 0}, {"turn_limit": "ten"}):
            with self.subTest(options=opts):
                r = self.a.req("POST", "/api/games", {"ruleset": ml.RULESET, "options": opts})
                self.refused(r, 422, "invalid-option")
        r = self.a.req("POST", "/api/games", {"ruleset": ml.RULESET, "seats": 4})
        self.refused(r, 422, "invalid-option")

    def test_unknown_match(self):
        for path in ("/api/games/999999", "/api/games/abc", "/api/games/0",
                     "/api/games/999999/turns", "/api/games/99999999999999999999"):
            with self.subTest(path=path):
                self.refused(self.server.request("GET", path), 404, "game-not-found")
        r = self.a.turn(999999, 1, [move("d1", "d2")])
        self.refused(r, 404, "game-not-found")

    def test_missing_or_wrong_token(self):
        body = {"seq": 1, "actions": [move("d1", "d2")]}
        path = "/api/games/%d/turns" % self.game
        self.refused(self.server.request("POST", path, body), 401, "unauthorized")
        r = self.server.request("POST", path, body, {"Authorization": "Bearer " + "0" * 64})
        self.refused(r, 401, "unauthorized")
        r = self.server.request("POST", path, body, {"Authorization": "Basic dXNlcjpwdw=="})
        self.refused(r, 401, "unauthorized")
        self.assertIn("Bearer", r.headers.get("www-authenticate", ""))
        r = self.server.request("GET", "/api/games/%d" % self.game,
                                headers={"Authorization": "Bearer nonsense"})
        self.refused(r, 401, "unauthorized")

    def test_acting_for_another_seat_or_not_a_player(self):
        self.refused(self.c.turn(self.game, 1, [move("d1", "d2")]), 403, "not-a-player")
        self.refused(self.b.turn(self.game, 1, [move("d1", "d2")]), 409, "not-awaited")
        self.refused(self.c.req("POST", "/api/games/%d/resign" % self.game), 403, "not-a-player")

    def test_moving_another_seats_piece(self):
        r = self.a.turn(self.game, 1, [move("d8", "d7")])
        self.refused(r, 422, "illegal-action")
        self.assertEqual(r.json()["code"], "not-your-piece")

    def test_stale_sequence(self):
        r = self.a.turn(self.game, 0, [move("d1", "d2")])
        self.refused(r, 409, "stale-sequence")
        self.assertEqual(r.json()["seq"], 1, "the problem names the current sequence number")

    def test_illegal_action_names_its_index_and_nothing_applies(self):
        r = self.a.turn(self.game, 1, [move("d1", "d3")])
        self.refused(r, 422, "illegal-action")
        self.assertEqual((r.json()["index"], r.json()["code"], r.json()["field"]),
                         (0, "too-far", "to"))
        r = self.a.turn(self.game, 1, [{"type": "teleport"}])
        self.refused(r, 422, "illegal-action")
        self.assertEqual(self.a.view(self.game).json()["state"]["pieces"][1]["square"], "d1")

    def test_second_action_refused_rolls_back_the_first(self):
        """A turn of two actions where the first ends the seat's turn: the
        second is refused with its index, and the first is not kept."""
        r = self.a.turn(self.game, 1, [move("d1", "d2"), move("e1", "e2")])
        self.refused(r, 422, "illegal-action")
        self.assertEqual((r.json()["index"], r.json()["code"]), (1, "not-awaited"))

    def test_bad_turn_bodies(self):
        for body in ({"actions": [move("d1", "d2")]}, {"seq": 1}, {"seq": 1, "actions": []},
                     {"seq": 1, "actions": "move"}, {"seq": 1, "actions": [1]},
                     {"seq": -1, "actions": [move("d1", "d2")]},
                     {"seq": 1, "actions": [move("d1", "d2")], "comment": "x" * 2001},
                     {"seq": 1, "actions": [move("d1", "d2")], "comment": "a\x01b"},
                     {"seq": 1, "actions": [move("d1", "d2")], "comment_hidden": "yes"},
                     {"seq": 1, "actions": [move("d1", "d2")] * 65}):
            with self.subTest(body=str(body)[:60]):
                r = self.a.req("POST", "/api/games/%d/turns" % self.game, body)
                self.refused(r, 400, "invalid-request")

    def test_invitations(self):
        self.refused(self.b.join(self.open_game, "f" * 32), 403, "invalid-invitation")
        self.refused(self.a.join(self.open_game, self.open_code), 409, "already-seated")
        self.refused(self.b.join(self.game, "0" * 32), 403, "invalid-invitation")

    def test_used_invitation(self):
        g = self.a.create(2)
        self.assertEqual(self.b.join(g["id"], g["invitations"][0]["code"]).status, 200)
        self.before = self.snapshot()
        self.refused(self.c.join(g["id"], g["invitations"][0]["code"]), 409, "invitation-used")

    def test_idempotency_key_reused_with_another_body(self):
        g = ml.start_match([self.a, self.b])
        r1 = self.a.turn(g, 1, [move("d1", "d2")], key="same-key")
        self.assertEqual(r1.status, 200, r1)
        self.before = self.snapshot()
        r = self.a.turn(g, 1, [move("e1", "e2")], key="same-key")
        self.refused(r, 422, "idempotency-key-reused")
        r = self.a.req("POST", "/api/games/%d/turns" % g, {"seq": 2, "actions": [move("a", "b")]},
                       {"Idempotency-Key": "bad key with spaces"})
        self.refused(r, 400, "invalid-request")

    def test_posting_before_the_start_or_after_the_end(self):
        r = self.a.turn(self.open_game, 0, [move("d1", "d2")])
        self.refused(r, 409, "game-not-started")
        g = ml.start_match([self.a, self.b])
        self.assertEqual(self.a.req("POST", "/api/games/%d/resign" % g).status, 200)
        self.before = self.snapshot()
        self.refused(self.b.turn(g, 3, [move("d8", "d7")]), 409, "game-over")
        self.refused(self.b.req("POST", "/api/games/%d/resign" % g), 409, "game-over")

    def test_bad_query_parameters(self):
        for q in ("wait=61", "wait=-1", "wait=x"):
            r = self.server.request("GET", "/api/games/%d?%s" % (self.game, q))
            self.refused(r, 400, "invalid-request")
        for q in ("after=-1", "limit=0", "limit=501", "after=x"):
            r = self.server.request("GET", "/api/games/%d/turns?%s" % (self.game, q))
            self.refused(r, 400, "invalid-request")


if __name__ == "__main__":
    wp.main()
