"""Board images of the product's rulesets (issue 14, "Board image"; RULINGS.md
G5): for every ruleset, after some seeded play, each caller's image draws a
piece only on a square that caller's own view puts a piece on, so a piece
hidden from the view is hidden from the image; ChessWar's and Officers
Chess's secret set-up shows the owner pieces the others do not get."""
import os
import random
import unittest

os.environ["WARPOSTD_PRODUCT"] = "1"  # before matchlib picks the binary
import matchlib as ml  # noqa: E402
from matchlib import wp  # noqa: E402
from test_board_svg import pieces_of_svg  # noqa: E402

RULESETS = ["chesswar", "wargame-chess", "officers-chess", "blood-chess", "confrontation"]
SECRET_SETUP = {"chesswar", "officers-chess"}


def view_pieces(node, owner=None, out=None):
    """{square: seat} of the objects with a square and an owner in a view
    (as web/renderers/generic.js reads it)."""
    out = {} if out is None else out
    if isinstance(node, list):
        for x in node:
            view_pieces(x, owner, out)
    elif isinstance(node, dict):
        own = next((node[k] for k in ("seat", "owner", "player", "side")
                    if isinstance(node.get(k), int) and not isinstance(node.get(k), bool)), owner)
        sq = node.get("square")
        if isinstance(sq, str) and own is not None and sq not in out:
            out[sq] = own
        for k, v in node.items():
            if not k.startswith("last") and k not in ("pending", "options"):
                view_pieces(v, own, out)
    return out


class RulesetImagesTest(wp.ServerTestCase):

    def test_each_image_draws_what_its_view_shows(self):
        a, b = ml.Client(self.server, "Ann"), ml.Client(self.server, "Ben")
        for rs in RULESETS:
            with self.subTest(ruleset=rs):
                g = a.create(2, ruleset=rs)
                self.assertEqual(b.join(g["id"], g["invitations"][0]["code"]).status, 200)
                ml.play_random([a, b], g["id"], 12, random.Random(1))
                drawn = {}
                for name, who in (("seat 0", a), ("seat 1", b), ("spectator", None)):
                    h = ml.auth(who.token) if who else None
                    r = self.server.request("GET", "/api/games/%d/board.svg" % g["id"], headers=h)
                    self.assertEqual(r.status, 200, r)
                    v = self.server.request("GET", "/api/games/%d" % g["id"], headers=h).json()
                    drawn[name] = pieces_of_svg(r.body)
                    shown = view_pieces(v["state"])
                    for sq, seat in drawn[name].items():
                        self.assertEqual(shown.get(sq), seat,
                                         "%s's image draws a piece its view lacks" % name)
                if rs in SECRET_SETUP:
                    own = {s for s, seat in drawn["seat 0"].items() if seat == 0}
                    self.assertTrue(own, "seat 0 has set pieces up in secret")
                    for name in ("seat 1", "spectator"):
                        self.assertFalse(own & set(drawn[name]), "%s sees seat 0's set-up" % name)


if __name__ == "__main__":
    wp.main()
