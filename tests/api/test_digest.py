"""E-mail digests (issue 14, "Notifications"): opt-in per player through
PUT /api/me/email, sent by the worker through the SMTP relay of SMTP_URL
(a real local SMTP server here: aiosmtpd from Debian's python3-aiosmtpd),
at most one per player per period, listing only the matches that await the
player and only their public facts (RULINGS.md G5), with an unsubscribe
link that turns digests off without a login."""
import email
import email.policy
import re
import sys
import threading
import urllib.parse

try:
    from aiosmtpd.controller import Controller
except ImportError:
    # An interpreter other than Debian's (pyenv) does not see the modules
    # of Debian's python3-* packages; the same minor version can load them.
    sys.path.append("/usr/lib/python3/dist-packages")
    from aiosmtpd.controller import Controller

import matchlib as ml
from matchlib import wp

WAIT = 15


class Mailbox:
    """What the SMTP server received: (envelope sender, recipients, message).
    to() leaves out the mails whose subject starts with `skip`: a new
    address gets its confirmation link (issue 28, test_recovery.py)."""

    def __init__(self, skip="Warpost: confirm"):
        self.mails = []
        self.lock = threading.Lock()
        self.skip = skip

    async def handle_DATA(self, server, session, envelope):
        msg = email.message_from_bytes(envelope.original_content or envelope.content,
                                       policy=email.policy.default)
        with self.lock:
            self.mails.append((envelope.mail_from, list(envelope.rcpt_tos), msg))
        return "250 OK"

    def to(self, address):
        with self.lock:
            return [m for m in self.mails if address in m[1]
                    and not (self.skip and m[2]["Subject"].startswith(self.skip))]

    def wait(self, address):
        return wp.wait_until(lambda: self.to(address), WAIT, 0.05)


class DigestTest(wp.ServerTestCase):

    @classmethod
    def setUpClass(cls):
        cls.box = Mailbox()
        port = wp.free_port()
        cls.smtp = Controller(cls.box, hostname="127.0.0.1", port=port)
        cls.smtp.start()
        cls.addClassCleanup(cls.smtp.stop)
        # An hour per period: a second digest within the test would break
        # the promise; the other players' digests show the worker went on.
        cls.server_env = {"SMTP_URL": "smtp://127.0.0.1:%d" % port,
                          "SMTP_FROM": "warpost@test.example", "DIGEST_PERIOD_SECONDS": "3600",
                          "NOTIFY_POLL_MS": "50", "PUBLIC_URL": "https://warpost.test"}
        super().setUpClass()

    def player(self, name):
        p = ml.Client(self.server, name)
        p.address = "%s-%d@example.org" % (name.lower(), p.id)
        return p

    def opt(self, p, digest="daily"):
        r = p.req("PUT", "/api/me/email", {"address": p.address, "digest": digest})
        self.assertEqual(r.status, 200, r)
        return r.json()

    def test_settings_and_bad_input(self):
        a = self.player("Alice")
        self.assertEqual(a.req("GET", "/api/me/email").json(),
                         {"address": None, "digest": "off", "last_digest_at": None,
                          "confirmed": False})
        bad = [({"digest": "daily"}, "address"),
               ({"address": "no-at-sign", "digest": "daily"}, "address"),
               ({"address": "a@b@c", "digest": "daily"}, "address"),
               ({"address": "a b@example.org", "digest": "daily"}, "address"),
               ({"address": "x@example.org\r\nBcc: y@example.org", "digest": "daily"}, "address"),
               ({"address": "<x@example.org>", "digest": "daily"}, "address"),
               ({"address": "x@" + "e" * 260 + ".org", "digest": "daily"}, "address"),
               ({"address": "x@example.org"}, "digest"),
               ({"address": "x@example.org", "digest": "weekly"}, "digest"),
               ({"address": "x@example.org", "digest": "off", "more": 1}, "more")]
        for body, field in bad:
            with self.subTest(body=body):
                self.assertProblem(a.req("PUT", "/api/me/email", body), 400, "invalid-request", field)
        self.assertEqual(a.req("GET", "/api/me/email").json()["address"], None)
        self.assertEqual(self.opt(a, "off"),
                         {"address": a.address, "digest": "off", "last_digest_at": None,
                          "confirmed": False})
        self.assertProblem(self.server.request("GET", "/api/me/email"), 401, "unauthorized")

    def test_one_digest_per_period_with_only_awaiting_matches(self):
        a, b, c = self.player("Alice"), self.player("Bob"), self.player("Carol")
        mine = [ml.start_match([a, b]), ml.start_match([a, c])]      # seat 0 moves first
        theirs = ml.start_match([b, a])                               # Bob is awaited there
        r = a.turn(mine[1], 1, [{"type": "move", "from": "d1", "to": "d2"}], comment="hush",
                   hidden=True)
        self.assertEqual(r.status, 200, r)                            # now Carol's turn there
        self.opt(b, "off")            # Bob is awaited, but did not opt in
        self.opt(a)
        [(sender, rcpt, msg)] = self.box.wait(a.address)
        self.assertEqual((sender, rcpt), ("warpost@test.example", [a.address]))
        self.assertIn("1 match awaits", msg["Subject"])
        body = msg.get_content()
        self.assertIn("https://warpost.test/#/match/%d" % mine[0], body)
        for g in (mine[1], theirs):
            self.assertNotIn("#/match/%d\n" % g, body.replace("\r\n", "\n"))
        text = re.sub(r"(token=|unsubscribe/)[0-9a-f]{64}", r"\1", body)
        for word in ("hush", "decoy", "d1", "d2"):
            self.assertNotIn(word, text)
        self.assertRegex(msg["List-Unsubscribe"],
                         r"^<https://warpost\.test/api/unsubscribe\?token=[0-9a-f]{64}>$")
        # RFC 8058: a mail client's one-click unsubscribe posts to that URL
        self.assertEqual(msg["List-Unsubscribe-Post"], "List-Unsubscribe=One-Click")
        token = re.search(r"token=([0-9a-f]{64})", msg["List-Unsubscribe"]).group(1)
        self.assertIn("https://warpost.test/#/unsubscribe/" + token, body)
        got = a.req("GET", "/api/me/email").json()
        self.assertEqual(got["digest"], "daily")
        self.assertIsNotNone(wp.wait_until(
            lambda: a.req("GET", "/api/me/email").json()["last_digest_at"], WAIT, 0.05))
        # Carol opts in and gets hers: the worker went on, and sent Alice no
        # second digest in the period, nor Bob one he did not ask for.
        self.opt(c)
        self.assertTrue(self.box.wait(c.address))
        self.opt(a, "off")
        self.opt(a)                   # off and on again: still the same period
        d = self.player("Dave")
        ml.start_match([d, b])
        self.opt(d)
        self.assertTrue(self.box.wait(d.address))
        self.assertEqual(len(self.box.to(a.address)), 1, "a second digest in one period")
        self.assertEqual(self.box.to(b.address), [], "Bob did not opt in")

    def test_unsubscribe_link_asks_and_the_post_turns_digests_off(self):
        e, f = self.player("Erin"), self.player("Frank")
        ml.start_match([e, f])
        self.opt(e)
        [(_, _, msg)] = self.box.wait(e.address)
        token = re.search(r"https://warpost\.test/#/unsubscribe/([0-9a-f]{64})",
                          msg.get_content()).group(1)
        link = "/api/unsubscribe?token=" + token
        self.assertEqual(msg["List-Unsubscribe"], "<https://warpost.test%s>" % link)
        # Following the link (a mail scanner does) changes nothing: it
        # leads to the board's page, where a person confirms.
        for method in ("GET", "HEAD"):
            r = self.server.request(method, link)
            self.assertEqual((r.status, r.headers["location"]), (303, "/#/unsubscribe/" + token), r)
        self.assertEqual(e.req("GET", "/api/me/email").json()["digest"], "daily")
        # The one-click POST of RFC 8058 (a form body, not read) turns them off.
        r = self.server.request("POST", link, "List-Unsubscribe=One-Click",
                                {"Content-Type": "application/x-www-form-urlencoded"})
        self.assertEqual((r.status, r.json()), (200, {"digest": "off"}), r)
        self.assertEqual(e.req("GET", "/api/me/email").json()["digest"], "off")
        # the board's page posts no body; again is the same answer
        r = self.server.request("POST", link)
        self.assertEqual((r.status, r.json()), (200, {"digest": "off"}), r)
        self.assertTrue(wp.wait_until(lambda: re.search(
            r"(?m)^warpost_digests_sent_total [1-9]",
            self.server.request("GET", "/metrics").body.decode()), WAIT, 0.05))
        for method in ("GET", "POST"):
            self.assertProblem(self.server.request(method, "/api/unsubscribe"), 400,
                               "invalid-request")
            self.assertProblem(self.server.request(method, "/api/unsubscribe?token=xyz"), 400,
                               "invalid-request")
        self.assertProblem(self.server.request(
            "POST", "/api/unsubscribe?token=" + ("0" if token[0] != "0" else "1") + token[1:]),
            404, "not-found")
        # A new address makes the old link invalid.
        e.address = "erin-new@example.org"
        self.opt(e, "off")
        self.assertProblem(self.server.request("POST", link), 404, "not-found")

if __name__ == "__main__":
    wp.main()
