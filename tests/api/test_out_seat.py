"""A seat that is out may read, nothing else (issue "Reliability and
security", item 7): in a 3-seat match, after seat 2 resigned, its further
resignations, standing orders and draw offers are refused with 409
not-in-play, add no post, and leave the live seats' turns fresh."""
import matchlib as ml
from matchlib import wp


class OutSeatTest(wp.ServerTestCase):

    def test_an_out_seat_cannot_post(self):
        a, b, c = (ml.Client(self.server, n) for n in ("Alice", "Bob", "Carol"))
        game = ml.start_match([a, b, c])
        self.assertEqual(c.req("POST", "/api/games/%d/resign" % game).status, 200)
        seq = ml.seq_of(a, game)
        for path, body in (("resign", None), ("orders", {"orders": {}}),
                           ("draw", {"action": "offer"})):
            with self.subTest(post=path):
                r = c.req("POST", "/api/games/%d/%s" % (game, path), body)
                self.assertProblem(r, 409, "not-in-play")
        self.assertEqual(ml.seq_of(a, game), seq, "nothing was posted")
        self.assertEqual(c.view(game).status, 200, "the out seat still reads the match")
        acts = a.actions(game)
        self.assertTrue(acts["awaited"])
        self.assertEqual(a.turn(game, seq, [acts["actions"][0]]).status, 200,
                         "the live seat's turn made against that seq is not stale")


if __name__ == "__main__":
    wp.main()
