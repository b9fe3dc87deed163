"""Board image (issue 14): GET /api/games/{id}/board.svg draws the position
after a post from the ruleset's view for the caller. It is SVG that parses;
its pieces are those of GET /api/games/{id}; ?at=seq is the position after
that post, byte for byte the image the same caller got when it was current;
hidden information is exactly as in the view (RULINGS.md G5); a post that
does not exist is problem+json."""
import random
import re
import unittest
import xml.etree.ElementTree as ET

import matchlib as ml
from matchlib import wp

SVG = "{http://www.w3.org/2000/svg}"


def pieces_of_svg(body):
    """{square: seat} of the pieces drawn."""
    root = ET.fromstring(body)
    out, squares = {}, {}
    for r in root.iter(SVG + "rect"):
        if r.get("class") == "sq":
            squares[(r.get("x"), r.get("y"))] = r.get("id")
    for g in root.iter(SVG + "g"):
        if g.get("class") == "piece":
            c = g.find(SVG + "circle")
            x, y = int(c.get("cx")) - 24, int(c.get("cy")) - 24
            out[squares[(str(x), str(y))]] = int(g.get("data-seat"))
    return out


def last_of_svg(body):
    """The squares highlighted as the last move."""
    root = ET.fromstring(body)
    squares = {(r.get("x"), r.get("y")): r.get("id") for r in root.iter(SVG + "rect")
               if r.get("class") == "sq"}
    return {squares[(r.get("x"), r.get("y"))] for r in root.iter(SVG + "rect")
            if r.get("class") == "last"}


class BoardSvgTest(wp.ServerTestCase):

    def setUp(self):
        self.a = ml.Client(self.server, "Ann")
        self.b = ml.Client(self.server, "Ben")

    def board(self, game, who=None, query="", headers=None):
        h = dict(headers or {})
        if who is not None:
            h.update(ml.auth(who.token))
        return self.server.request("GET", "/api/games/%d/board.svg%s" % (game, query), headers=h)

    def test_valid_svg_with_the_pieces_of_the_view(self):
        game = ml.start_match([self.a, self.b])
        for who in (self.a, self.b, None):
            r = self.board(game, who)
            self.assertEqual(r.status, 200, r)
            self.assertEqual(r.media_type, "image/svg+xml")
            root = ET.fromstring(r.body)
            self.assertEqual(root.tag, SVG + "svg")
            caption = [t for t in root.iter(SVG + "text") if t.get("class") == "caption"][0]
            self.assertIn("match %d" % game, caption.text)
            self.assertIn("after post 1", caption.text)
            view = (who.view(game) if who else self.server.request(
                "GET", "/api/games/%d" % game)).json()
            want = {p["square"]: p["seat"] for p in view["state"]["pieces"] if p.get("square")}
            self.assertEqual(pieces_of_svg(r.body), want)

    def test_past_positions_are_the_images_of_their_time(self):
        game = ml.start_match([self.a, self.b])
        then = {}
        rng = random.Random(7)
        for _ in range(4):
            seq = ml.seq_of(self.a, game)
            then[seq] = (self.board(game, self.a).body, self.board(game).body)
            ml.play_random([self.a, self.b], game, 1, rng)
        now = self.board(game, self.a).body
        self.assertNotEqual(now, then[1][0], "the moves changed the board")
        for seq, (mine, spectator) in then.items():
            self.assertEqual(self.board(game, self.a, "?at=%d" % seq).body, mine)
            self.assertEqual(self.board(game, None, "?at=%d" % seq).body, spectator)

    def test_the_last_move_is_the_posts_visible_events(self):
        game = ml.start_match([self.a, self.b])
        ml.play_random([self.a, self.b], game, 2, random.Random(11))
        for who in (self.a, self.b, None):
            h = ml.auth(who.token) if who else None
            posts = self.server.request("GET", "/api/games/%d/turns" % game, headers=h).json()
            for p in posts["posts"]:
                want = {e[k] for e in p["events"] for k in ("from", "to") if k in e}
                got = last_of_svg(self.board(game, who, "?at=%d" % p["seq"]).body)
                self.assertEqual(got, want, "post %d" % p["seq"])
            self.assertTrue(want, "the last post moved a piece")

    def test_etag_and_not_modified(self):
        game = ml.start_match([self.a, self.b])
        r = self.board(game, self.b, "?at=1")
        etag = r.headers["etag"]
        self.assertRegex(etag, r'^"b%d-p1-s1"$' % game)
        self.assertEqual(self.board(game, self.b, "?at=1", {"If-None-Match": etag}).status, 304)
        self.assertNotEqual(self.board(game).headers["etag"], etag, "per viewer")

    def test_hidden_pieces_do_not_change_a_spectators_image(self):
        """G5, sizes included: matches that differ only in their hidden
        decoys give a spectator and the other seat the same image."""
        spectator, other, decoys = set(), set(), set()
        for n in range(40):
            if n >= 6 and len(decoys) > 1:
                break
            game = ml.start_match([self.a, self.b])

            def norm(body):
                return re.sub(r"match \d+", "match N", body.decode())
            spectator.add(norm(self.board(game).body))
            other.add(norm(self.board(game, self.b).body))
            decoys.add(tuple(p["decoy"] for p in self.a.view(game).json()["state"]["pieces"]
                             if p["seat"] == 0))
        self.assertGreater(len(decoys), 1, "the decoys did move between matches")
        self.assertEqual(len(spectator), 1, "a spectator's image reveals the decoys")
        self.assertEqual(len(other), 1, "seat 1's image reveals seat 0's decoy")

    def test_bad_posts_are_problems(self):
        game = ml.start_match([self.a, self.b])
        for q in ("?at=0", "?at=-1", "?at=x", "?at=99999999999"):
            self.assertProblem(self.board(game, None, q), 400, "invalid-request")
        self.assertProblem(self.board(game, None, "?at=2"), 404, "not-found")
        self.assertProblem(self.board(999999), 404, "game-not-found")

    def test_an_open_match_has_an_empty_board(self):
        g = self.a.create(2)
        r = self.board(g["id"])
        self.assertEqual(r.status, 200, r)
        self.assertEqual(pieces_of_svg(r.body), {})
        self.assertIn(b"not started", r.body)


if __name__ == "__main__":
    wp.main()
