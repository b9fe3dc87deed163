"""Spectators (issue 14): who may watch a match (open: listed in GET
/api/games; unlisted: anyone with the link; private: its seated players
only, anyone else is told there is no such match) and a delay: spectators
see the match as it was N posts ago, and the view, its ETag, the post log,
the event stream and the board image all stop at that same post, with
nothing of the later posts (RULINGS.md G5 for what each post shows)."""
import json
import random
import unittest

import matchlib as ml
from matchlib import wp


def masked_state(view):
    """The state as any non-seat would see it: decoy flags and the seat's
    own standing orders set aside."""
    st = json.loads(json.dumps(view["state"]))
    st.pop("orders", None)
    for p in st.get("pieces", []):
        p["decoy"] = None
    return st


class SpectatorsTest(wp.ServerTestCase):

    def setUp(self):
        self.a = ml.Client(self.server, "Ann")
        self.b = ml.Client(self.server, "Ben")
        self.c = ml.Client(self.server, "Cid")

    def start(self, **watch):
        body = {"ruleset": ml.RULESET, "seats": 2, "seat": 0}
        body.update(watch)
        r = self.a.req("POST", "/api/games", body)
        self.assertEqual(r.status, 201, r)
        g = r.json()
        for k, v in watch.items():
            self.assertEqual(g[k], v)
        self.assertEqual(self.b.join(g["id"], g["invitations"][0]["code"]).status, 200)
        return g["id"]

    def get(self, path, who=None, headers=None):
        h = dict(headers or {})
        if who is not None:
            h.update(ml.auth(who.token))
        return self.server.request("GET", path, headers=h)

    def test_private_is_only_for_the_seated(self):
        game = self.start(spectators="private")
        paths = ["/api/games/%d", "/api/games/%d/turns", "/api/games/%d/events?wait=0",
                 "/api/games/%d/board.svg"]
        for path in paths:
            for who in (None, self.c):
                self.assertProblem(self.get(path % game, who), 404, "game-not-found")
            self.assertEqual(self.get(path % game, self.b).status, 200)
        self.assertProblem(self.get("/api/games/%d/actions" % game, self.c), 404,
                           "game-not-found")
        for path, body in (("turns", {"seq": 1, "actions": [{"type": "pass"}]}), ("resign", None),
                           ("draw", {"action": "offer"})):
            r = self.c.req("POST", "/api/games/%d/%s" % (game, path), body)
            self.assertProblem(r, 404, "game-not-found")
        self.assertEqual(ml.seq_of(self.a, game), 1, "nothing changed")
        # The same answer as a match that does not exist, word for word.
        none = self.get("/api/games/%d" % 99999999).json()
        mine = self.get("/api/games/%d" % game).json()
        self.assertEqual(mine["detail"].replace(str(game), "N"),
                         none["detail"].replace("99999999", "N"))
        self.assertEqual(self.a.req("POST", "/api/games/%d/resign" % game).status, 200)
        for path in ("/api/games/%d", "/api/games/%d/export"):
            self.assertProblem(self.get(path % game), 404, "game-not-found")
            self.assertEqual(self.get(path % game, self.a).status, 200)

    def test_only_open_matches_are_listed(self):
        open_ = self.start(spectators="open", spectator_delay=3)
        unlisted = self.start()
        private = self.start(spectators="private")
        r = self.get("/api/games?limit=100")
        self.assertEqual(r.status, 200, r)
        listed = {g["id"]: g for g in r.json()["games"]}
        self.assertIn(open_, listed)
        self.assertEqual(listed[open_]["spectator_delay"], 3)
        self.assertNotIn(unlisted, listed)
        self.assertNotIn(private, listed)
        # Unlisted: anyone with the link watches.
        self.assertEqual(self.get("/api/games/%d" % unlisted).status, 200)

    def test_bad_watch_options_are_refused(self):
        for body in ({"spectators": "public"}, {"spectators": 1}, {"spectator_delay": -1},
                     {"spectator_delay": 1001}, {"spectator_delay": "2"}):
            body.update({"ruleset": ml.RULESET})
            r = self.a.req("POST", "/api/games", body)
            self.assertProblem(r, 400, "invalid-request")
        self.assertProblem(self.get("/api/games?limit=0"), 400, "invalid-request")

    def test_delay_shows_the_match_n_posts_back_everywhere(self):
        delay = 2
        game = self.start(spectator_delay=delay)
        seen_then = {}  # seq -> the state as a non-seat sees it
        rng = random.Random(3)
        for _ in range(6):
            v = self.b.view(game).json()
            seen_then[v["seq"]] = masked_state(v)
            seq = v["seq"]
            upto = max(seq - delay, 1)
            spec = self.get("/api/games/%d" % game)
            sv = spec.json()
            self.assertEqual((sv["seq"], sv["version"]), (upto, upto))
            self.assertEqual(masked_state(sv), seen_then[upto])
            self.assertEqual((sv["status"], sv["spectator_delay"]), ("active", delay))
            etag = spec.headers["etag"]
            self.assertEqual(etag, '"g%d-d%d-x"' % (game, upto))
            self.assertEqual(self.get("/api/games/%d" % game, None,
                                      {"If-None-Match": etag}).status, 304)
            log = self.get("/api/games/%d/turns" % game).json()
            self.assertEqual(log["seq"], upto)
            self.assertEqual([p["seq"] for p in log["posts"]], list(range(1, upto + 1)))
            body = self.get("/api/games/%d/events?wait=0" % game, None,
                            {"Last-Event-ID": "0"}).body.decode()
            ids = [int(line[4:]) for line in body.splitlines() if line.startswith("id: ")]
            self.assertEqual(ids, list(range(1, upto + 1)))
            self.assertEqual(self.get("/api/games/%d/board.svg" % game).headers["etag"],
                             '"b%d-p%d-x"' % (game, upto))
            if upto < seq:
                # A later post is refused exactly like one that does not exist.
                later = self.get("/api/games/%d/board.svg?at=%d" % (game, upto + 1))
                beyond = self.get("/api/games/%d/board.svg?at=%d" % (game, 999))
                self.assertProblem(later, 404, "not-found")
                self.assertEqual(later.json()["detail"].replace(str(upto + 1), "N"),
                                 beyond.json()["detail"].replace("999", "N"))
            # The seats are not held back.
            self.assertEqual(self.b.view(game).json()["seq"], seq)
            ml.play_random([self.a, self.b], game, 1, rng)
        # Once over, everything is revealed to everyone.
        self.assertEqual(self.a.req("POST", "/api/games/%d/resign" % game).status, 200)
        final = self.b.view(game).json()
        sv = self.get("/api/games/%d" % game).json()
        self.assertEqual((sv["seq"], sv["status"]), (final["seq"], "over"))

    def test_a_spectator_held_behind_sees_the_draw_offers_of_then(self):
        """A spectator held behind sees the match as it was after the post
        it may see: the draw offers standing then too, and none made
        after it (issue 14, Spectators)."""
        r = self.a.req("POST", "/api/games", {"ruleset": ml.RULESET, "seats": 3, "seat": 0,
                                              "spectator_delay": 1})
        self.assertEqual(r.status, 201, r)
        g = r.json()
        for p, inv in zip((self.b, self.c), g["invitations"]):
            self.assertEqual(p.join(g["id"], inv["code"]).status, 200)
        game = g["id"]
        for who in (self.a, self.b):
            r = who.req("POST", "/api/games/%d/draw" % game, {"action": "offer"})
            self.assertEqual(r.status, 200, r)
        live = self.b.view(game).json()
        self.assertEqual(live["draw_offers"], [0, 1])
        spec = self.get("/api/games/%d" % game).json()
        self.assertEqual(spec["seq"], live["seq"] - 1)
        self.assertEqual(spec["draw_offers"], [0])
        self.assertEqual(spec["draw_offers"],
                         self.b.req("GET", "/api/games/%d?at=%d" % (game, spec["seq"]))
                         .json()["draw_offers"])


if __name__ == "__main__":
    wp.main()
