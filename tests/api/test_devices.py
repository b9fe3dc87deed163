"""An account on several devices (issue 28): a player's bearer tokens are
its devices (sql/019_devices.sql), listed, renamed and revoked through
/api/me/devices; a signed-in device makes a one-time code that signs in
another (single use, 15 minutes, stored hashed, rate limited, one answer
for an unknown, used or expired code); a revoked token fails at once on
every instance, the token cache of the other one included; and a turn
with a device's token is still one statement."""
import hashlib
import re

import matchlib as ml
from matchlib import wp
from test_cache import queries

CODE = re.compile(r"^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$")


class Device:
    """A second device of a player, signed in with a code."""

    def __init__(self, server, token, via=None):
        self.server, self.token, self.via = server, token, via or {}

    def req(self, method, path, body=None, headers=None):
        return self.server.request(method, path, body,
                                   ml.auth(self.token, dict(self.via, **(headers or {}))))


def make_code(player):
    r = player.req("POST", "/api/me/device-codes")
    assert r.status == 201, r
    assert CODE.match(r.json()["code"]), r
    assert r.json()["expires_in"] == 900, r
    return r.json()["code"]


def redeem(server, code, device=None, via=None):
    body = {"code": code}
    if device is not None:
        body["device"] = device
    return server.request("POST", "/api/device-codes/redeem", body, dict(via or {}))


def sign_in(server, player, device="Phone"):
    r = redeem(server, make_code(player), device, player.via)
    assert r.status == 201, r
    doc = r.json()
    assert (doc["id"], doc["name"]) == (player.id, player.name), doc
    return Device(server, doc["token"], player.via), doc["device"]


class DevicesTest(wp.ServerTestCase):
    # Each test comes from addresses of its own (X-Forwarded-For), so the
    # small account limit counts only its own tries.
    server_env = {"RATE_LIMITS": "on", "TRUST_X_FORWARDED_FOR": "1",
                  "RATE_LIMIT_ACCOUNT": "4/600"}
    _addr = [10]

    def player(self, name):
        self._addr[0] += 1
        return ml.Client(self.server, name, addr="192.0.2.%d" % self._addr[0])

    def sql(self, text):
        return self.db.psql(text).strip()

    def devices(self, who):
        r = who.req("GET", "/api/me/devices")
        self.assertEqual(r.status, 200, r)
        return r.json()["devices"]

    def test_a_second_device_is_the_same_player(self):
        ann = self.player("Ann")
        first = self.devices(ann)
        self.assertEqual([(d["name"], d["this_device"]) for d in first], [("First device", True)])
        phone, pid = sign_in(self.server, ann, "Phone")
        me = phone.req("GET", "/api/me")
        self.assertEqual(me.json(), {"id": ann.id, "name": "Ann", "bot": False})
        # A match made on one device is seen on the other.
        g = ann.create()
        games = phone.req("GET", "/api/me/games").json()["games"]
        self.assertEqual([x["id"] for x in games], [g["id"]])
        seen = self.devices(phone)
        self.assertEqual([(d["name"], d["this_device"]) for d in seen],
                         [("First device", False), ("Phone", True)])
        self.assertEqual(seen[1]["id"], pid)
        self.assertIsNotNone(seen[1]["last_used_at"], "used once: its last use is written")
        # Stored hashed: neither the code nor the token is in the database.
        rows = self.db.psql("SELECT encode(token_hash, 'hex') FROM devices "
                            "WHERE player_id = %d ORDER BY id" % ann.id).split()
        self.assertEqual(rows, [hashlib.sha256(t.encode()).hexdigest()
                                for t in (ann.token, phone.token)])
        self.assertEqual(self.sql("SELECT count(*) FROM players WHERE token_hash IS NOT NULL"),
                         "0", "players.token_hash is emptied: the tokens live in devices")

    def test_last_use_written_every_few_minutes_not_every_request(self):
        ann = self.player("Ann")
        used = lambda: self.sql("SELECT extract(epoch FROM last_used_at)::bigint FROM devices"
                                " WHERE player_id = %d" % ann.id)
        self.sql("UPDATE devices SET last_used_at = now() - interval '1 minute'"
                 " WHERE player_id = %d" % ann.id)
        before = used()
        for _ in range(3):
            self.assertEqual(ann.req("GET", "/api/me").status, 200)
        self.assertEqual(used(), before, "a minute old: not written again")
        self.sql("UPDATE devices SET last_used_at = now() - interval '6 minutes'"
                 " WHERE player_id = %d" % ann.id)
        before = used()
        self.assertEqual(ann.req("GET", "/api/me").status, 200)
        self.assertGreaterEqual(int(used()), int(before) + 300, "six minutes old: written")

    def test_rename_and_bad_input_change_nothing(self):
        ann, ben = self.player("Ann"), self.player("Ben")
        phone, pid = sign_in(self.server, ann, "Phone")
        r = ann.req("PATCH", "/api/me/devices/%d" % pid, {"name": "  Old phone "})
        self.assertEqual(r.status, 200, r)
        self.assertEqual((r.json()["name"], r.json()["this_device"]), ("Old phone", False))
        before = self.devices(ann)
        for body, field in [({}, "name"), ({"name": ""}, "name"), ({"name": "   "}, "name"),
                            ({"name": "x" * 41}, "name"), ({"name": 7}, "name"),
                            ({"name": "a\u0007b"}, "name"), ({"name": "P", "x": 1}, "x")]:
            wp.assert_problem(ann.req("PATCH", "/api/me/devices/%d" % pid, body), 400,
                              "invalid-request", field)
        for path in ["/api/me/devices/0", "/api/me/devices/abc", "/api/me/devices/99999999"]:
            wp.assert_problem(ann.req("PATCH", path, {"name": "X"}), 404, "not-found")
            wp.assert_problem(ann.req("DELETE", path), 404, "not-found")
        # Another player's device is as unknown as none.
        wp.assert_problem(ben.req("PATCH", "/api/me/devices/%d" % pid, {"name": "Mine"}), 404,
                          "not-found")
        wp.assert_problem(ben.req("DELETE", "/api/me/devices/%d" % pid), 404, "not-found")
        wp.assert_problem(self.server.request("GET", "/api/me/devices"), 401, "unauthorized")
        self.assertEqual(self.devices(ann), before, "nothing changed")
        self.assertEqual(phone.req("GET", "/api/me").status, 200)

    def test_codes_are_single_use_and_expire(self):
        ann = self.player("Ann")
        code = make_code(ann)
        used = make_code(ann)
        late = make_code(ann)
        # Case, spaces and the dash do not matter.
        r = redeem(self.server, " " + used.lower().replace("-", " ") + " ", "Tablet", ann.via)
        self.assertEqual(r.status, 201, r)
        self.sql("UPDATE device_codes SET expires_at = now() - interval '1 second'"
                     " WHERE code_hash = sha256('%s')" % late.replace("-", ""))
        wrong = "2222-2222" if code != "2222-2222" else "3333-3333"
        # Unknown, used and expired: one answer, word for word.
        answers = []
        for c in (wrong, used, late):
            r = redeem(self.server, c, None, {"X-Forwarded-For": "198.51.100.%d" % len(answers)})
            wp.assert_problem(r, 403, "invalid-code")
            answers.append(r.body)
        self.assertEqual(len(set(answers)), 1, answers)
        # The one still good works once.
        self.assertEqual(redeem(self.server, code, "Phone", ann.via).status, 201)
        wp.assert_problem(redeem(self.server, code, "Again", {"X-Forwarded-For": "198.51.100.9"}),
                          403, "invalid-code")
        names = [d["name"] for d in self.devices(ann)]
        self.assertEqual(names, ["First device", "Tablet", "Phone"], "failed tries made nothing")
        self.assertEqual(self.sql("SELECT count(*) FROM device_codes WHERE player_id = %d"
                                      " AND used_at IS NOT NULL" % ann.id), "2")

    def test_bad_redeem_bodies(self):
        via = {"X-Forwarded-For": "203.0.113.77"}
        for body, status, slug in [({}, 400, "invalid-request"),
                                   ({"code": 12345678}, 400, "invalid-request"),
                                   ({"code": "ABCD-EFGH", "x": 1}, 400, "invalid-request"),
                                   ({"code": "ABCD-EFGH", "device": ""}, 400, "invalid-request"),
                                   ({"code": "ABCD-EFG0"}, 403, "invalid-code"),
                                   ({"code": "ABCD"}, 403, "invalid-code")]:
            wp.assert_problem(self.server.request("POST", "/api/device-codes/redeem", body, via),
                              status, slug)
        self.assertEqual(self.sql("SELECT count(*) FROM devices WHERE name = 'New device'"),
                         "0")

    def test_rate_limits(self):
        ann = self.player("Ann")
        for _ in range(4):
            make_code(ann)
        r = ann.req("POST", "/api/me/device-codes")
        wp.assert_problem(r, 429, "rate-limited")
        self.assertIn("retry-after", r.headers)
        # Tries from one address: four, then even a good code waits.
        ben = self.player("Ben")
        good = make_code(ben)
        guess = {"X-Forwarded-For": "203.0.113.5"}
        for c in ("2222-2222", "3333-3333", "4444-4444", "5555-5555"):
            if c != good:
                wp.assert_problem(redeem(self.server, c, None, guess), 403, "invalid-code")
        wp.assert_problem(redeem(self.server, good, None, guess), 429, "rate-limited")
        # The code was not spent by the refused try: from elsewhere it works.
        self.assertEqual(redeem(self.server, good, None, ben.via).status, 201)

    def test_revoke_and_sign_out_others(self):
        ann = self.player("Ann")
        phone, pid = sign_in(self.server, ann, "Phone")
        tablet, tid = sign_in(self.server, ann, "Tablet")
        r = ann.req("DELETE", "/api/me/devices/%d" % pid)
        self.assertEqual(r.status, 204, r)
        wp.assert_problem(phone.req("GET", "/api/me"), 401, "unauthorized")
        wp.assert_problem(ann.req("DELETE", "/api/me/devices/%d" % pid), 404, "not-found")
        self.assertEqual([d["name"] for d in self.devices(ann)], ["First device", "Tablet"])
        # Sign out every other device: the tablet's token fails, this one's not.
        r = tablet.req("DELETE", "/api/me/devices")
        self.assertEqual((r.status, r.json()), (200, {"revoked": 1}), r)
        wp.assert_problem(ann.req("GET", "/api/me"), 401, "unauthorized")
        self.assertEqual([d["id"] for d in self.devices(tablet)], [tid])
        # A device may sign itself out.
        self.assertEqual(tablet.req("DELETE", "/api/me/devices/%d" % tid).status, 204)
        wp.assert_problem(tablet.req("GET", "/api/me"), 401, "unauthorized")

    def test_a_player_inserted_the_old_way_keeps_its_token(self):
        """A row written as before 019 (players.token_hash) is moved to a
        device by the trigger, so its token works."""
        token = "ab" * 32
        self.sql("INSERT INTO players (name, token_hash) VALUES ('Old', sha256('%s'))" % token)
        r = self.server.request("GET", "/api/me", headers=ml.auth(token))
        self.assertEqual((r.status, r.json()["name"]), (200, "Old"), r)
        self.assertEqual(self.sql("SELECT count(*) FROM players WHERE token_hash IS NOT NULL"),
                         "0")


class TwoInstancesTest(wp.ServerTestCase):
    """A revoke on instance A: B, which holds the token in its cache, refuses
    it on its next request once it has heard anything committed after the
    revoke; the turn with a device's token stays one statement."""
    server_env = {"NOTIFY_POLL_MS": "600000"}

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.b = wp.Server(cls.db.url, env=cls.server_env).start()
        cls.addClassCleanup(cls.b.stop)

    def start(self):
        ann, ben = ml.Client(self.server, "Ann"), ml.Client(self.server, "Ben")
        g = ann.create()
        self.assertEqual(ben.join(g["id"], g["invitations"][0]["code"]).status, 200)
        return g["id"], ann, ben

    def get(self, server, game, token, etag=None):
        h = ml.auth(token)
        if etag:
            h["If-None-Match"] = etag
        return server.request("GET", "/api/games/%d" % game, headers=h)

    def held(self, server, game, token, etag):
        """A 304 with no statement run: the match and the token are held."""
        def warm():
            before = queries(server)
            r = self.get(server, game, token, etag)
            assert r.status == 304, r
            return queries(server) == before
        return wp.wait_until(warm, 10, 0.05)

    def test_revoked_on_one_instance_refused_on_the_other(self):
        game, ann, ben = self.start()
        phone, pid = sign_in(self.server, ann, "Phone")
        etag = self.get(self.b, game, phone.token).headers["etag"]
        self.assertTrue(self.held(self.b, game, phone.token, etag), "B holds the phone's token")
        self.assertTrue(self.held(self.b, game, ann.token, etag))
        self.assertEqual(ann.req("DELETE", "/api/me/devices/%d" % pid).status, 204)
        # A turn committed after the revoke; once B has heard of it (its
        # copy of the match forgotten), it has heard of the revoke too.
        acts = ann.actions(game)
        self.assertEqual(ann.turn(game, acts["seq"], [acts["actions"][0]]).status, 200)
        self.assertTrue(wp.wait_until(
            lambda: self.get(self.b, game, ann.token, etag).status == 200, 10, 0.02))
        # B holds the match again: the phone's conditional GET would be a
        # 304 from memory if B still held its token.
        etag = self.get(self.b, game, ann.token).headers["etag"]
        self.assertTrue(self.held(self.b, game, ann.token, etag))
        wp.assert_problem(self.get(self.b, game, phone.token, etag), 401, "unauthorized")
        wp.assert_problem(self.get(self.server, game, phone.token, etag), 401, "unauthorized")
        acts = ben.actions(game)
        r = self.b.request("POST", "/api/games/%d/turns" % game,
                           {"seq": acts["seq"], "actions": [acts["actions"][0]]},
                           ml.auth(phone.token))
        wp.assert_problem(r, 401, "unauthorized")

    def test_a_turn_with_a_devices_token_is_one_statement(self):
        game, ann, ben = self.start()
        phone, _ = sign_in(self.server, ann, "Phone")
        etag = self.get(self.server, game, phone.token).headers["etag"]
        self.assertTrue(self.held(self.server, game, phone.token, etag))
        acts = phone.req("GET", "/api/games/%d/actions" % game).json()
        self.assertTrue(self.held(self.server, game, phone.token, etag))
        before = queries(self.server)
        r = phone.req("POST", "/api/games/%d/turns" % game,
                      {"seq": acts["seq"], "actions": [acts["actions"][0]]})
        self.assertEqual(r.status, 200, r)
        self.assertEqual(queries(self.server) - before, 1, "guarded update and post, one statement")


if __name__ == "__main__":
    wp.main()
