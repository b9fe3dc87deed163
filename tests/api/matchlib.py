"""Shared helpers for the match-service API tests: they run the test server
(warpostd-test, which offers the test-only ruleset "skirmish-test") instead
of the product binary."""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
# Before the harness reads WARPOSTD: the same program plus the test ruleset,
# unless the module asks for the product binary (WARPOSTD as ctest sets it).
if not os.environ.get("WARPOSTD_PRODUCT"):
    os.environ["WARPOSTD"] = os.environ.get("WARPOSTD_TEST") or os.path.join(
        REPO, "build", "tests", "testrules", "warpostd-test")
WARPOST_CLI = os.environ.get("WARPOST_CLI_TEST") or os.path.join(
    REPO, "build", "tests", "testrules", "warpost-test")
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import warpost as wp  # noqa: E402
import openapi_check  # noqa: E402

# Every answer these tests get is checked against the OpenAPI document
# (srv/openapi.json): status documented, media type, body schema.
OPENAPI = openapi_check.load(os.path.join(REPO, "srv", "openapi.json"))
_plain_request = wp.Server.request


def _checked_request(self, method, path, body=None, headers=None, timeout=15):
    reply = _plain_request(self, method, path, body, headers, timeout=timeout)
    openapi_check.check_reply(OPENAPI, method, path, reply)
    return reply


wp.Server.request = _checked_request

RULESET = "skirmish-test"


def auth(token, extra=None):
    h = {"Authorization": "Bearer " + token}
    h.update(extra or {})
    return h


class Client:
    """One player talking to one server; with addr, every request says it
    comes from that address (X-Forwarded-For, for TRUST_X_FORWARDED_FOR)."""

    def __init__(self, server, name, addr=None):
        self.server = server
        self.via = {"X-Forwarded-For": addr} if addr else {}
        r = server.request("POST", "/api/players", {"name": name}, dict(self.via))
        assert r.status == 201, r
        doc = r.json()
        self.id, self.name, self.token = doc["id"], doc["name"], doc["token"]

    def req(self, method, path, body=None, headers=None, **kw):
        return self.server.request(method, path, body,
                                   auth(self.token, dict(self.via, **(headers or {}))), **kw)

    def create(self, seats=2, options=None, seat=0, client_seed=None, ruleset=RULESET):
        body = {"ruleset": ruleset, "seats": seats, "seat": seat}
        if options is not None:
            body["options"] = options
        if client_seed is not None:
            body["client_seed"] = client_seed
        r = self.req("POST", "/api/games", body)
        assert r.status == 201, r
        return r.json()

    def join(self, game, code, client_seed=None):
        body = {"code": code}
        if client_seed is not None:
            body["client_seed"] = client_seed
        return self.req("POST", "/api/games/%d/join" % game, body)

    def view(self, game, headers=None):
        return self.req("GET", "/api/games/%d" % game, headers=headers)

    def actions(self, game):
        r = self.req("GET", "/api/games/%d/actions" % game)
        assert r.status == 200, r
        return r.json()

    def turn(self, game, seq, actions, comment=None, hidden=None, key=None):
        body = {"seq": seq, "actions": actions}
        if comment is not None:
            body["comment"] = comment
        if hidden is not None:
            body["comment_hidden"] = hidden
        return self.req("POST", "/api/games/%d/turns" % game, body,
                        {"Idempotency-Key": key} if key else None)


class ClockTestCase(wp.ServerTestCase):
    """A server on the test server's test-only clock (WP_TEST_CLOCK_FILE,
    tests/testrules/testd.c), at clock_start when it starts and moved by
    set_time(), never by sleeping; clock_env adds to its environment."""

    clock_start = 0
    clock_env = {}

    @classmethod
    def setUpClass(cls):
        cls.clock_dir = wp.make_tmpdir("wp-clock-")
        cls.clock_file = os.path.join(cls.clock_dir, "now")
        cls.server_env = dict(cls.clock_env, WP_TEST_CLOCK_FILE=cls.clock_file)
        cls.set_time(cls.clock_start)
        super().setUpClass()
        cls.addClassCleanup(wp.remove_tmpdir, cls.clock_dir)

    @classmethod
    def set_time(cls, t):
        with open(cls.clock_file + ".tmp", "w") as f:
            f.write("%d\n" % t)
        os.replace(cls.clock_file + ".tmp", cls.clock_file)


class TwoSeatsTestCase(wp.ServerTestCase):
    """Ann and Ben (self.a, self.b; self.who by seat) and a match between
    them that match() starts (self.game), read and played by seat."""

    def setUp(self):
        self.a = Client(self.server, "Ann")
        self.b = Client(self.server, "Ben")
        self.who = [self.a, self.b]

    def match(self, ruleset=RULESET, options=None):
        g = self.a.create(2, options, ruleset=ruleset)
        r = self.b.join(g["id"], g["invitations"][0]["code"])
        self.assertEqual(r.status, 200, r)
        self.game = g["id"]
        return self.game

    def view(self, who=None):
        """The match as a seat (or a spectator, None) sees it."""
        r = (who.req if who else self.server.request)("GET", "/api/games/%d" % self.game)
        self.assertEqual(r.status, 200, r)
        return r.json()

    def post(self, seat, action):
        p = self.who[seat]
        r = p.turn(self.game, seq_of(p, self.game), [action])
        self.assertEqual(r.status, 200, r)
        return r.json()


def start_match(players, options=None, seeds=None):
    """players[0] creates with seat 0, the others join in order; returns
    the game id once every seat is taken (the match has started)."""
    seeds = seeds or [None] * len(players)
    g = players[0].create(len(players), options, client_seed=seeds[0])
    for p, inv, s in zip(players[1:], g["invitations"], seeds[1:]):
        r = p.join(g["id"], inv["code"], s)
        assert r.status == 200, r
    return g["id"]


def seq_of(player, game):
    r = player.view(game)
    assert r.status == 200, r
    return r.json()["seq"]


def awaited(views_by_player, game):
    for p in views_by_player:
        v = p.view(game).json()
        if p.id in [s["player"]["id"] for s in v["seats"] if s["player"] and s["seat"] in v["awaiting"]]:
            return p
    return None


def play_random(players, game, posts, rng, prefer=None):
    """Posts `posts` turns from the awaited seats, each a random legal action."""
    for _ in range(posts):
        p = awaited(players, game)
        if p is None:
            return
        a = p.actions(game)
        if not a["actions"]:
            return
        choice = rng.choice(a["actions"])
        r = p.turn(game, a["seq"], [choice])
        assert r.status == 200, r


def dumps(o):
    return json.dumps(o, sort_keys=True)


def attack_a_real_scout(post, defender_view):
    """skirmish-test: seat 0 walks a Scout up the file of one of seat 1's
    real Scouts (a Decoy has no defence), seat 1 shuffling a piece to and
    fro, and attacks it; post(seat, action) posts one action.
    defender_view: seat 1's view. Returns seat 1's shuffle squares
    (from, to) for its next move."""
    mine = {p["square"]: p for p in defender_view["state"]["pieces"] if p["seat"] == 1}
    target = "d8" if not mine["d8"]["decoy"] else "f8"
    walker, shuffle = (("d", ("f8", "g7")) if target == "d8" else ("f", ("d8", "c7")))
    for i in range(1, 7):
        post(0, {"type": "move", "from": "%s%d" % (walker, i), "to": "%s%d" % (walker, i + 1)})
        a, b = shuffle if i % 2 else shuffle[::-1]
        post(1, {"type": "move", "from": a, "to": b})
    post(0, {"type": "attack", "from": walker + "7", "to": target})
    return shuffle
