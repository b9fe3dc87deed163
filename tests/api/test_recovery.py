"""E-mail for recovery (issue 28): a player's address is confirmed by a
link sent through the mail worker (a real local SMTP server, aiosmtpd, as
test_digest.py); with a confirmed address, a lost key is recovered by a
link that signs a new device in, revoking nothing. POST /api/recovery
answers the same for a known, an unknown and an unconfirmed address
(status, body, length; one row queued either way); links are single use,
expire, and are stored hashed; bad input is a 4xx problem that changes
nothing."""
import hashlib
import re

import matchlib as ml
from matchlib import wp
from test_digest import Mailbox, WAIT

CONFIRM = re.compile(r"https://warpost\.test/#/email/confirm/([0-9a-f]{64})")
RECOVER = re.compile(r"https://warpost\.test/#/recover/([0-9a-f]{64})")


class RecoveryTest(wp.ServerTestCase):
    _addr = [10]

    @classmethod
    def setUpClass(cls):
        from aiosmtpd.controller import Controller
        cls.box = Mailbox(skip=None)
        port = wp.free_port()
        cls.smtp = Controller(cls.box, hostname="127.0.0.1", port=port)
        cls.smtp.start()
        cls.addClassCleanup(cls.smtp.stop)
        # Each test comes from client addresses of its own (X-Forwarded-For)
        # and uses e-mail addresses of its own, so the small account limit
        # counts only its own tries.
        cls.server_env = {"SMTP_URL": "smtp://127.0.0.1:%d" % port,
                          "SMTP_FROM": "warpost@test.example", "NOTIFY_POLL_MS": "50",
                          "PUBLIC_URL": "https://warpost.test", "RATE_LIMITS": "on",
                          "TRUST_X_FORWARDED_FOR": "1", "RATE_LIMIT_ACCOUNT": "4/600"}
        super().setUpClass()

    def via(self):
        self._addr[0] += 1
        return {"X-Forwarded-For": "192.0.2.%d" % self._addr[0]}

    def player(self, name):
        p = ml.Client(self.server, name, addr=self.via()["X-Forwarded-For"])
        p.address = "%s-%d@example.org" % (name.lower(), p.id)
        return p

    def sql(self, text):
        return self.db.psql(text).strip()

    def link(self, address, pattern, n=1):
        """The token of the n-th mail to address whose body has the link."""
        def got():
            found = [pattern.search(m[2].get_content()) for m in self.box.to(address)]
            found = [f.group(1) for f in found if f]
            return found if len(found) >= n else None
        found = wp.wait_until(got, WAIT, 0.05)
        self.assertTrue(found, "no mail with the link to %s" % address)
        return found[n - 1]

    def email(self, p):
        r = p.req("GET", "/api/me/email")
        self.assertEqual(r.status, 200, r)
        return r.json()

    def confirmed(self, p):
        r = p.req("PUT", "/api/me/email", {"address": p.address, "digest": "off"})
        self.assertEqual((r.status, r.json()["confirmed"]), (200, False), r)
        token = self.link(p.address, CONFIRM)
        r = self.server.request("POST", "/api/email/confirm", {"token": token}, self.via())
        self.assertEqual((r.status, r.json()), (200, {"confirmed": True}), r)
        self.assertTrue(self.email(p)["confirmed"])
        return token

    def recover(self, address, via=None):
        return self.server.request("POST", "/api/recovery", {"address": address},
                                   via or self.via())

    def test_confirmation_link(self):
        a = self.player("Alice")
        token = self.confirmed(a)
        [(sender, rcpt, msg)] = self.box.to(a.address)
        self.assertEqual((sender, rcpt), ("warpost@test.example", [a.address]))
        self.assertIn("confirm", msg["Subject"])
        self.assertIn("Hello Alice", msg.get_content())
        # Stored hashed, used once.
        self.assertEqual(self.sql("SELECT count(*) FROM account_links WHERE token_hash = "
                                  "sha256('%s') AND used_at IS NOT NULL" % token), "1")
        self.assertEqual(self.sql("SELECT count(*) FROM account_links WHERE "
                                  "encode(token_hash, 'hex') = '%s'" % token), "0")
        again = self.server.request("POST", "/api/email/confirm", {"token": token}, self.via())
        wp.assert_problem(again, 403, "invalid-code")
        # Digest on and off keeps the confirmation; a new address loses it
        # and gets a link of its own; the old address's link is worthless.
        r = a.req("PUT", "/api/me/email", {"address": a.address, "digest": "daily"})
        self.assertTrue(r.json()["confirmed"], r)
        old = a.address
        a.address = "alice-new@example.org"
        r = a.req("PUT", "/api/me/email", {"address": a.address, "digest": "off"})
        self.assertFalse(r.json()["confirmed"], r)
        self.link(a.address, CONFIRM)
        self.assertEqual(len(self.box.to(old)), 1, "no second mail to the old address")
        # Sent again on request, while unconfirmed; then confirmed by it.
        r = a.req("POST", "/api/me/email/confirmation")
        self.assertEqual(r.status, 202, r)
        second = self.link(a.address, CONFIRM, 2)
        r = self.server.request("POST", "/api/email/confirm", {"token": second}, self.via())
        self.assertEqual(r.status, 200, r)
        wp.assert_problem(a.req("POST", "/api/me/email/confirmation"), 404, "not-found")

    def test_recovery_signs_in_a_new_device_and_revokes_nothing(self):
        b = self.player("Bob")
        self.confirmed(b)
        g = b.create()
        r = self.recover(b.address.upper())   # case does not matter
        self.assertEqual(r.status, 202, r)
        token = self.link(b.address, RECOVER)
        r = self.server.request("POST", "/api/recovery/redeem",
                                {"token": token, "device": "New phone"}, self.via())
        self.assertEqual(r.status, 201, r)
        doc = r.json()
        self.assertEqual((doc["id"], doc["name"]), (b.id, "Bob"))
        new = ml.auth(doc["token"])
        games = self.server.request("GET", "/api/me/games", headers=new).json()["games"]
        self.assertEqual([x["id"] for x in games], [g["id"]], "the same player's matches")
        self.assertEqual(b.req("GET", "/api/me").status, 200, "the old device still works")
        names = [d["name"] for d in b.req("GET", "/api/me/devices").json()["devices"]]
        self.assertEqual(names, ["First device", "New phone"])
        again = self.server.request("POST", "/api/recovery/redeem", {"token": token}, self.via())
        wp.assert_problem(again, 403, "invalid-code")
        # An expired link is refused the same way.
        self.assertEqual(self.recover(b.address).status, 202)
        late = self.link(b.address, RECOVER, 2)
        self.sql("UPDATE account_links SET expires_at = now() - interval '1 second'"
                 " WHERE token_hash = sha256('%s')" % late)
        r = self.server.request("POST", "/api/recovery/redeem", {"token": late}, self.via())
        wp.assert_problem(r, 403, "invalid-code")
        self.assertEqual(r.body, again.body)

    def test_no_enumeration(self):
        known, pending = self.player("Carol"), self.player("Dan")
        self.confirmed(known)
        r = pending.req("PUT", "/api/me/email", {"address": pending.address, "digest": "off"})
        self.assertEqual(r.status, 200)
        unknown = "nobody-%d@example.org" % known.id
        before = int(self.sql("SELECT count(*) FROM account_mail WHERE kind = 'recover'"))
        answers = [self.recover(a) for a in (unknown, pending.address, known.address)]
        for r in answers:
            self.assertEqual(r.status, 202, r)
        self.assertEqual(len({r.body for r in answers}), 1, answers)
        self.assertEqual(len({len(r.body) for r in answers}), 1)
        strip = lambda r: {k: v for k, v in r.headers.items() if k != "date"}
        self.assertEqual(strip(answers[0]), strip(answers[2]))
        self.assertEqual(int(self.sql("SELECT count(*) FROM account_mail WHERE kind = 'recover'")),
                         before + 3, "each queued alike")
        self.link(known.address, RECOVER)
        self.assertTrue(wp.wait_until(lambda: self.sql(
            "SELECT count(*) FROM account_mail WHERE done_at IS NULL") == "0", WAIT, 0.05))
        self.assertEqual(self.box.to(unknown), [], "nothing to an unknown address")
        self.assertEqual([m for m in self.box.to(pending.address)
                          if RECOVER.search(m[2].get_content())], [],
                         "nothing to an unconfirmed one")

    def test_limits_alike_for_every_address(self):
        e = self.player("Erin")
        self.confirmed(e)
        unknown = "nobody-else-%d@example.org" % e.id
        for address in (e.address, unknown):
            for _ in range(4):
                self.assertEqual(self.recover(address).status, 202)
            r = self.recover(address)
            wp.assert_problem(r, 429, "rate-limited")
        # Per client address too.
        via = self.via()
        for i in range(4):
            self.assertEqual(self.recover("x%d-%d@example.org" % (i, e.id), via).status, 202)
        wp.assert_problem(self.recover("y-%d@example.org" % e.id, via), 429, "rate-limited")

    def test_bad_input_changes_nothing(self):
        count = lambda: self.sql("SELECT (SELECT count(*) FROM account_mail),"
                                 " (SELECT count(*) FROM devices), (SELECT count(*) FROM"
                                 " email_settings WHERE confirmed_at IS NOT NULL)")
        before = count()
        for body, field in [({}, "address"), ({"address": "no-at-sign"}, "address"),
                            ({"address": 7}, "address"),
                            ({"address": "x@example.org\r\nBcc: y@example.org"}, "address"),
                            ({"address": "x@example.org", "more": 1}, "more")]:
            wp.assert_problem(self.server.request("POST", "/api/recovery", body, self.via()),
                              400, "invalid-request", field)
        unknown = hashlib.sha256(b"x").hexdigest()
        for path in ("/api/recovery/redeem", "/api/email/confirm"):
            wp.assert_problem(self.server.request("POST", path, {}, self.via()), 400,
                              "invalid-request", "token")
            wp.assert_problem(self.server.request("POST", path, {"token": 5}, self.via()), 400,
                              "invalid-request", "token")
            wp.assert_problem(self.server.request("POST", path, {"token": unknown, "x": 1},
                                                  self.via()), 400, "invalid-request", "x")
            for token in ("xyz", unknown, unknown.upper()):
                wp.assert_problem(self.server.request("POST", path, {"token": token},
                                                      self.via()), 403, "invalid-code")
        wp.assert_problem(self.server.request("POST", "/api/recovery/redeem",
                                              {"token": unknown, "device": ""}, self.via()),
                          400, "invalid-request", "device")
        wp.assert_problem(self.server.request("POST", "/api/me/email/confirmation"), 401,
                          "unauthorized")
        self.assertEqual(count(), before)


if __name__ == "__main__":
    wp.main()
