"""Board image as PNG (issue 14, "Board image"): GET
/api/games/{id}/board.png is board.svg rendered by librsvg. The PNG served
to a viewer is byte for byte the rendering of the SVG served to that same
viewer (wp-svg2png, the server's own rendering code as a filter), so the
sight rules (seat, spectator, spectator_delay, ?at=) are the SVG's; where
two viewers' SVGs differ (hidden pieces, RULINGS.md G5) their PNGs differ,
and a spectator never gets a seat's PNG. ETag: the SVG's with "-png", 304
on it; errors are the SVG's, word for word. A build without librsvg
answers 501 (README "Board image"), which this module checks instead when
the server it runs says so."""
import os
import random
import struct
import subprocess
import xml.etree.ElementTree as ET

import matchlib as ml
from matchlib import wp

SVG2PNG = os.environ.get("WP_SVG2PNG") or os.path.join(
    ml.REPO, "build", "tests", "unit", "wp-svg2png")
SIGNATURE = b"\x89PNG\r\n\x1a\n"


def render(svg):
    r = subprocess.run([SVG2PNG], input=svg, capture_output=True, timeout=30)
    assert r.returncode == 0, r.stderr
    return r.stdout


def ihdr(png):
    assert png[:8] == SIGNATURE and png[12:16] == b"IHDR", png[:32]
    return struct.unpack(">II", png[16:24])


class BoardPngTest(wp.ServerTestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        a = ml.Client(cls.server, "Probe")
        r = cls.server.request("GET", "/api/games/%d/board.png" % a.create(2)["id"])
        cls.available = r.status != 501

    def setUp(self):
        if not self.available and self._testMethodName != "test_without_librsvg":
            self.skipTest("built without librsvg (test_without_librsvg checks the 501)")
        self.a = ml.Client(self.server, "Ann")
        self.b = ml.Client(self.server, "Ben")

    def get(self, game, kind, who=None, query="", headers=None):
        h = dict(headers or {})
        if who is not None:
            h.update(ml.auth(who.token))
        return self.server.request("GET", "/api/games/%d/board.%s%s" % (game, kind, query),
                                   headers=h)

    def pair(self, game, who=None, query=""):
        """(svg, png) as served to one viewer; the PNG checked against the
        rendering of the SVG."""
        svg, png = self.get(game, "svg", who, query), self.get(game, "png", who, query)
        self.assertEqual((svg.status, png.status), (200, 200), (svg, png))
        self.assertEqual(png.media_type, "image/png")
        root = ET.fromstring(svg.body)
        self.assertEqual(ihdr(png.body), (int(root.get("width")), int(root.get("height"))))
        self.assertEqual(png.body, render(svg.body), "the PNG is the rendering of the SVG")
        for h in ("cache-control", "vary"):
            self.assertEqual(png.headers.get(h), svg.headers.get(h))
        return svg.body, png.body

    def test_each_viewer_gets_the_rendering_of_its_svg(self):
        """ChessWar's set-up is secret (RULINGS.md G5): seat 0's SVG shows
        its own pieces that seat 1's and a spectator's do not, so its PNG
        is neither of theirs."""
        g = self.a.create(2, ruleset="chesswar")
        self.assertEqual(self.b.join(g["id"], g["invitations"][0]["code"]).status, 200)
        ml.play_random([self.a, self.b], g["id"], 12, random.Random(1))
        mine, other, spectator = (self.pair(g["id"], who) for who in (self.a, self.b, None))
        self.assertTrue(mine[0] != spectator[0] and mine[0] != other[0],
                        "seat 0 sees its own set-up in its SVG")
        self.assertTrue(mine[1] != spectator[1], "so a spectator's PNG is not seat 0's")
        self.assertTrue(mine[1] != other[1], "nor is seat 1's")

    def test_past_positions_and_a_delayed_spectator(self):
        a, b = self.a, self.b
        g = a.req("POST", "/api/games", {"ruleset": ml.RULESET, "spectator_delay": 2}).json()
        self.assertEqual(b.join(g["id"], g["invitations"][0]["code"]).status, 200)
        game = g["id"]
        first = self.pair(game, a, "?at=1")[1]
        ml.play_random([a, b], game, 3, random.Random(5))
        self.assertEqual(self.pair(game, a, "?at=1")[1], first, "?at=1: the image of its time")
        self.assertNotEqual(self.pair(game, a)[1], first, "the moves changed the board")
        seq = ml.seq_of(a, game)
        # The spectator sees post seq - 2, and nothing later.
        spectator = self.pair(game)[1]
        self.assertEqual(spectator, self.pair(game, None, "?at=%d" % (seq - 2))[1])
        self.assertEqual(self.get(game, "png").headers["etag"], '"b%d-p%d-x-png"' % (game, seq - 2))
        self.assertProblem(self.get(game, "png", None, "?at=%d" % seq), 404, "not-found")

    def test_etag_and_not_modified(self):
        game = ml.start_match([self.a, self.b])
        r = self.get(game, "png", self.b, "?at=1")
        etag = r.headers["etag"]
        self.assertEqual(etag, '"b%d-p1-s1-png"' % game)
        r = self.get(game, "png", self.b, "?at=1", {"If-None-Match": etag})
        self.assertEqual((r.status, r.body), (304, b""))
        svg_etag = self.get(game, "svg", self.b, "?at=1").headers["etag"]
        self.assertEqual(svg_etag, etag.replace("-png", ""))
        self.assertEqual(self.get(game, "png", self.b, "?at=1",
                                  {"If-None-Match": svg_etag}).status, 200,
                         "the SVG's ETag is not the PNG's")
        self.assertNotEqual(self.get(game, "png").headers["etag"], etag, "per viewer")

    def test_errors_are_the_svgs(self):
        game = ml.start_match([self.a, self.b])
        private = self.a.req("POST", "/api/games", {"ruleset": ml.RULESET,
                                                     "spectators": "private"}).json()["id"]
        cases = [(game, q) for q in ("?at=0", "?at=-1", "?at=x", "?at=99999999999", "?at=2",
                                     "?at=2147483647", "?at=2147483648", "?at=%00", "?at=1e3",
                                     "?at=", "?at=+1", "?at=0x1", "?at=1&at=2")]
        cases += [(999999, ""), (private, "")]
        for g, q in cases:
            with self.subTest(game=g, query=q):
                svg, png = self.get(g, "svg", None, q), self.get(g, "png", None, q)
                self.assertEqual(png.status, svg.status)
                if svg.status >= 400:
                    self.assertEqual(png.media_type, "application/problem+json")
                    self.assertEqual(png.json(), svg.json())
        r = self.server.request("GET", "/api/games/x/board.png")
        self.assertEqual(r.json(), self.server.request("GET", "/api/games/x/board.svg").json())

    def test_without_librsvg(self):
        """Only where the server was built without librsvg: 501
        problem+json saying so, before anything else is looked at."""
        if self.available:
            self.skipTest("this build renders PNG (the other tests check it)")
        r = self.server.request("GET", "/api/games/%d/board.png" % self.a.create(2)["id"])
        self.assertProblem(r, 501, "not-implemented")
        self.assertIn("librsvg", r.json()["detail"])


if __name__ == "__main__":
    wp.main()
