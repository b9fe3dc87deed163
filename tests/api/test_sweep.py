"""Retention (srv/notify/sweep.c, store/account_sql.h WP_STMT_SWEEP): rows
that can no longer matter are deleted by the notification worker at its
start and hourly, and nothing that still matters is.

- a device code or recovery/confirmation link a day past its expiry goes,
  a live one (or one expired less than a day ago) stays;
- account mail done 30 days ago goes; mail not yet done, or done lately,
  stays;
- a bot's claim done 7 days ago goes once the match has moved past its
  post; the claim of the post the match is at stays however old (it keeps
  a second instance from playing that post again), and so does a recent one;
- a keyed request's kept answer (sql/025) goes after 7 days, a recent one
  stays.

The rows are made old in the database and a second instance started on it:
its first sweep runs as its worker starts."""

import matchlib as ml
from matchlib import wp

METRICS = "metrics-s3cret"




def move(a, b):
    return {"type": "move", "from": a, "to": b}


class SweepTest(wp.ServerTestCase):
    server_env = {"METRICS_TOKEN": METRICS}

    def sql(self, text):
        return self.db.psql(text).strip()

    def hash_of(self, label):
        return "sha256('%s'::bytea)" % label

    def test_what_no_longer_matters_goes_and_nothing_else(self):
        ann, bob = ml.Client(self.server, "Ann"), ml.Client(self.server, "Bob")
        for _ in range(3):
            self.assertEqual(ann.req("POST", "/api/me/device-codes").status, 201)
        self.sql("UPDATE device_codes SET expires_at = now() - interval '2 days' WHERE code_hash"
                 " = (SELECT code_hash FROM device_codes ORDER BY created_at, code_hash LIMIT 1)")
        self.sql("UPDATE device_codes SET expires_at = now() - interval '1 hour' WHERE code_hash"
                 " = (SELECT code_hash FROM device_codes WHERE expires_at > now()"
                 " ORDER BY code_hash LIMIT 1)")
        for label, expires in (("link-old", "now() - interval '3 days'"),
                               ("link-lately", "now() - interval '2 hours'"),
                               ("link-live", "now() + interval '1 hour'")):
            self.sql("INSERT INTO account_links (token_hash, kind, player_id, address, expires_at)"
                     " VALUES (%s, 'recover', %d, 'ann@example.org', %s)"
                     % (self.hash_of(label), ann.id, expires))
        for address, done in (("old@example.org", "now() - interval '31 days'"),
                              ("lately@example.org", "now() - interval '1 day'"),
                              ("waiting@example.org", "NULL")):
            self.sql("INSERT INTO account_mail (kind, player_id, address, created_at, done_at)"
                     " VALUES ('confirm', %d, '%s', now() - interval '40 days', %s)"
                     % (ann.id, address, done))
        game = ml.start_match([ann, bob], {"turn_limit": 100})
        self.assertEqual(ann.turn(game, 1, [move("d1", "d2")]).status, 200)
        at = int(self.sql("SELECT seq FROM games WHERE id = %d" % game))
        self.assertGreater(at, 1)
        for seq, seat, done in ((0, 0, "now() - interval '8 days'"),      # past, old: goes
                                (1, 1, "now() - interval '1 day'"),       # past, recent
                                (at, 1, "now() - interval '30 days'")):   # the post it is at
            self.sql("INSERT INTO bot_claims (game_id, seq, seat, seed, outcome, created_at,"
                     " done_at) VALUES (%d, %d, %d, 7, 'posted', %s, %s)"
                     % (game, seq, seat, done, done))

        for key, made in (("key-old", "now() - interval '8 days'"),
                          ("key-lately", "now() - interval '6 days'")):
            self.sql("INSERT INTO request_idempotency (scope, key, request_hash, status, body,"
                     " created_at) VALUES (%s, '%s', %s, 201, '{}', %s)"
                     % (self.hash_of("scope"), key, self.hash_of(key), made))

        second = wp.Server(self.db.url, env=dict(self.server_env)).start()
        self.addCleanup(second.stop)
        self.assertTrue(wp.wait_until(
            lambda: wp.metric(second, "warpost_sweeps_total", METRICS) >= 1, 60),
            "the second instance's first sweep did not run")
        # Each row goes once: the first instance's sweep may have come late
        # (its first try at its start can fail on a busy machine and is
        # made again a second later) and taken some of them.
        swept = lambda: sum(wp.metric(s, "warpost_rows_swept_total", METRICS)  # noqa: E731
                            for s in (self.server, second))
        wp.wait_until(lambda: swept() >= 5, 30)
        self.assertEqual(swept(), 5)

        self.assertEqual(self.sql("SELECT count(*) FROM device_codes"), "2")
        self.assertEqual(self.sql("SELECT count(*) FROM device_codes"
                                  " WHERE expires_at < now() - interval '1 day'"), "0")
        self.assertEqual(self.sql("SELECT string_agg(encode(token_hash, 'hex'), ',' ORDER BY 1)"
                                  " FROM account_links"),
                         self.sql("SELECT string_agg(encode(h, 'hex'), ',' ORDER BY 1) FROM"
                                  " (VALUES (%s), (%s)) v(h)"
                                  % (self.hash_of("link-lately"), self.hash_of("link-live"))))
        self.assertEqual(self.sql("SELECT string_agg(address, ',' ORDER BY address)"
                                  " FROM account_mail"), "lately@example.org,waiting@example.org")
        self.assertEqual(self.sql("SELECT string_agg(seq || ':' || seat, ',' ORDER BY seq)"
                                  " FROM bot_claims"), "1:1,%d:1" % at)
        self.assertEqual(self.sql("SELECT count(*) FROM device_codes WHERE expires_at > now()"),
                         "1")
        self.assertEqual(self.sql("SELECT string_agg(key, ',') FROM request_idempotency"),
                         "key-lately")


if __name__ == "__main__":
    wp.main()
