"""A private match cannot be confirmed to exist (issue 24, item 3): every
answer a stranger can get with its id (anonymous, or a player without a
seat) is the answer for an id no match has, byte for byte: status, headers
(but Date) and body, with only the id itself told back as it was sent. A
stranger's wrong invitation code was a 403 invalid-invitation, where a
missing id is a 404: the one oracle found; every other endpoint that takes
an id is checked with it, in each state a match can be in."""
import re

import matchlib as ml
from matchlib import wp

SKIP_HEADERS = {"date"}

# (method, path after /api/games/{id}, body, extra headers)
ENDPOINTS = [
    ("GET", "", None, {}),
    ("HEAD", "", None, {}),
    ("GET", "", None, {"If-None-Match": '"g1-p1-x"'}),
    ("GET", "?wait=1", None, {}),
    ("GET", "?at=1", None, {}),
    ("GET", "/events?wait=0", None, {}),
    ("GET", "/events?wait=1", None, {"Accept": "text/event-stream", "Last-Event-ID": "1"}),
    ("GET", "/board.svg", None, {}),
    ("GET", "/board.svg?at=1", None, {}),
    ("GET", "/board.png", None, {}),
    ("GET", "/actions", None, {}),
    ("GET", "/turns", None, {}),
    ("GET", "/turns?since=1", None, {}),
    ("GET", "/export", None, {}),
    ("GET", "/verify", None, {}),
    ("POST", "/join", {"code": "not-the-code"}, {}),
    ("POST", "/join", {"code": "not-the-code", "client_seed": "ab"}, {}),
    ("POST", "/turns", {"seq": 1, "actions": [{"type": "pass"}]}, {}),
    ("POST", "/turns", {"seq": 1, "actions": [{"type": "pass"}]}, {"Idempotency-Key": "k1"}),
    ("POST", "/orders", {"seq": 1, "orders": {}}, {}),
    ("POST", "/resign", None, {}),
    ("POST", "/draw", {"action": "offer"}, {}),
    ("POST", "/abort", None, {}),
    ("POST", "/undo", {"seq": 1}, {}),
    ("POST", "/claim", None, {}),
]


class PrivateMatchesTest(wp.ServerTestCase):

    def answer(self, method, game, suffix, body, headers, who):
        h = dict(headers)
        if who is not None:
            h.update(ml.auth(who.token))
        r = self.server.request(method, "/api/games/%d%s" % (game, suffix), body, h)
        # The id as sent back in the body is the only thing that may differ
        # (both have two digits: the lengths agree).
        text = re.sub(rb"\b%d\b" % game, b"{id}", r.body)
        heads = {k: v for k, v in r.headers.items() if k not in SKIP_HEADERS}
        return r.status, heads, text

    def test_a_stranger_gets_the_missing_id_answer_everywhere(self):
        a, b = ml.Client(self.server, "Ann"), ml.Client(self.server, "Ben")
        stranger = ml.Client(self.server, "Cid")
        # Ids of two digits for the matches and the missing one alike, so
        # that lengths agree.
        while a.create()["id"] < 10:
            pass

        def private():
            r = a.req("POST", "/api/games", {"ruleset": ml.RULESET, "seats": 2, "seat": 0,
                                             "spectators": "private"})
            self.assertEqual(r.status, 201, r)
            return r.json()

        waiting = private()["id"]                     # open: a seat to take
        g = private()
        self.assertEqual(b.join(g["id"], g["invitations"][0]["code"]).status, 200)
        active = g["id"]
        g = private()
        self.assertEqual(b.join(g["id"], g["invitations"][0]["code"]).status, 200)
        self.assertEqual(a.req("POST", "/api/games/%d/resign" % g["id"]).status, 200)
        over = g["id"]
        missing = 99
        self.assertLess(over, missing)
        self.assertProblem(a.view(missing), 404, "game-not-found")

        for state, game in (("open", waiting), ("active", active), ("over", over)):
            for who, name in ((None, "anonymous"), (stranger, "a player without a seat")):
                for method, suffix, body, headers in ENDPOINTS:
                    with self.subTest(state=state, who=name, request=method + " " + suffix,
                                      headers=headers):
                        mine = self.answer(method, game, suffix, body, headers, who)
                        none = self.answer(method, missing, suffix, body, headers, who)
                        self.assertEqual(mine, none)
                        self.assertNotEqual(mine[0] // 100, 2, "a stranger is told nothing")
        # The seated still see their match: the private ids are real.
        for game in (waiting, active, over):
            self.assertEqual(a.view(game).status, 200)


if __name__ == "__main__":
    wp.main()
