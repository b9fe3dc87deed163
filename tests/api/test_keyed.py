"""Idempotency-Key on the writes outside a match (srv/api/keyed.c,
sql/025_request_idempotency.sql): the standard "a retried POST with the
same Idempotency-Key is applied once" for creating a match, a challenge or
a tournament, joining a match, and the tournament writes.

- a retry with the same key, path and body gets the first answer byte for
  byte (Idempotent-Replayed: true, the same Location) and makes nothing;
- the same key with another body is 422 idempotency-key-reused and makes
  nothing;
- sixteen retries at once make one match: each gets the first answer or
  409 idempotency-key-in-use, never a second match;
- a failure frees the key: the same failing request is evaluated again,
  and the same key then serves a corrected request;
- a claim whose outcome was never kept (an instance that died between the
  change and its answer) answers 409 for good and never runs again;
- the key is the token's: another player's same key is another key;
- a bad key is 400 and makes nothing; no key, no change: two creates make
  two matches."""
import hashlib
import json

import matchlib as ml
from matchlib import wp


def key(k):
    return {"Idempotency-Key": k}


class KeyedTest(wp.ServerTestCase):

    def sql(self, text):
        return self.db.psql(text).strip()

    def mine(self, who):
        """SQL: the keys of who's token."""
        return "scope = '\\x%s'" % hashlib.sha256(who.token.encode()).hexdigest()

    def matches_of(self, who):
        return int(self.sql("SELECT count(*) FROM seats WHERE player_id = %d" % who.id))

    def create(self, who, k, **body):
        body.setdefault("ruleset", ml.RULESET)
        body.setdefault("seats", 2)
        body.setdefault("seat", 0)
        return who.req("POST", "/api/games", body, key(k) if k else None)

    def test_a_retried_create_is_applied_once(self):
        ann = ml.Client(self.server, "Ann")
        first = self.create(ann, "create-1", client_seed="aa")
        self.assertEqual(first.status, 201, first)
        self.assertNotIn("idempotent-replayed", first.headers)
        again = self.create(ann, "create-1", client_seed="aa")
        self.assertEqual(again.status, 201, again)
        self.assertEqual(again.body, first.body)
        self.assertEqual(again.headers["idempotent-replayed"], "true")
        self.assertEqual(again.headers["location"], first.headers["location"])
        self.assertEqual(self.matches_of(ann), 1)
        # the invitation it answered still takes the seat: it is the match's
        code = first.json()["invitations"][0]["code"]
        bob = ml.Client(self.server, "Bob")
        self.assertEqual(bob.join(first.json()["id"], code).status, 200)

    def test_the_same_key_with_another_body_changes_nothing(self):
        ann = ml.Client(self.server, "Ann")
        self.assertEqual(self.create(ann, "k-body").status, 201)
        for body in ({"seat": 1}, {"client_seed": "bb"}, {"seats": 3}):
            with self.subTest(body=body):
                r = self.create(ann, "k-body", **body)
                wp.assert_problem(r, 422, "idempotency-key-reused")
        # another path with the same key: another request
        r = ann.req("POST", "/api/challenges", {"ruleset": ml.RULESET}, key("k-body"))
        wp.assert_problem(r, 422, "idempotency-key-reused")
        self.assertEqual(self.matches_of(ann), 1)
        self.assertEqual(self.sql("SELECT count(*) FROM challenges WHERE poster_id = %d"
                                  % ann.id), "0")

    def test_retries_at_once_make_one_match(self):
        ann = ml.Client(self.server, "Ann")
        replies = wp.run_together([lambda: self.create(ann, "at-once")] * 16)
        made = set()
        for r in replies:
            if r.status == 201:
                made.add(r.json()["id"])
            else:
                wp.assert_problem(r, 409, "idempotency-key-in-use")
        self.assertEqual(len(made), 1, [r.status for r in replies])
        self.assertEqual(self.matches_of(ann), 1)
        # once the first has answered, every retry gets its answer
        r = self.create(ann, "at-once")
        self.assertEqual((r.status, r.json()["id"]), (201, made.pop()))

    def test_a_failure_frees_the_key(self):
        ann = ml.Client(self.server, "Ann")
        for _ in range(2):
            r = self.create(ann, "k-fail", ruleset="no-such-ruleset")
            wp.assert_problem(r, 422, "unknown-ruleset")
            self.assertNotIn("idempotent-replayed", r.headers)
        r = self.create(ann, "k-fail")
        self.assertEqual(r.status, 201, r)
        self.assertEqual(self.matches_of(ann), 1)
        self.assertEqual(self.sql("SELECT count(*) FROM request_idempotency WHERE %s"
                                  " AND status IS NULL" % self.mine(ann)), "0")

    def test_an_unknown_outcome_is_never_run_again(self):
        ann = ml.Client(self.server, "Ann")
        body = {"ruleset": ml.RULESET, "seats": 2, "seat": 0}
        raw = json.dumps(body).encode()
        # the claim an instance leaves when it dies between the change and
        # keeping its answer: no status
        self.sql("INSERT INTO request_idempotency (scope, key, request_hash) VALUES"
                 " ('\\x%s', 'k-lost', '\\x%s')"
                 % (hashlib.sha256(ann.token.encode()).hexdigest(),
                    hashlib.sha256(b"/api/games\n" + raw).hexdigest()))
        for _ in range(2):
            r = ann.req("POST", "/api/games", raw,
                        dict(key("k-lost"), **{"Content-Type": "application/json"}))
            wp.assert_problem(r, 409, "idempotency-key-in-use")
        self.assertEqual(self.matches_of(ann), 0)
        self.assertEqual(self.create(ann, "k-new").status, 201)

    def test_the_key_is_the_tokens(self):
        ann, bob = ml.Client(self.server, "Ann"), ml.Client(self.server, "Bob")
        a, b = self.create(ann, "shared"), self.create(bob, "shared")
        self.assertEqual((a.status, b.status), (201, 201))
        self.assertNotEqual(a.json()["id"], b.json()["id"])
        self.assertNotIn("idempotent-replayed", b.headers)

    def test_a_bad_key_is_refused_and_makes_nothing(self):
        ann = ml.Client(self.server, "Ann")
        for k in ("", "has space", "x" * 256, "caf\u00e9"):
            with self.subTest(k=k):
                headers = {"Idempotency-Key": k.encode("utf-8").decode("latin-1")}
                r = ann.req("POST", "/api/games",
                            {"ruleset": ml.RULESET, "seats": 2, "seat": 0}, headers)
                wp.assert_problem(r, 400, "invalid-request")
        self.assertEqual(self.matches_of(ann), 0)

    def test_without_a_key_nothing_changes(self):
        ann = ml.Client(self.server, "Ann")
        self.assertEqual(self.create(ann, None).status, 201)
        self.assertEqual(self.create(ann, None).status, 201)
        self.assertEqual(self.matches_of(ann), 2)
        self.assertEqual(self.sql("SELECT count(*) FROM request_idempotency WHERE %s"
                                  % self.mine(ann)), "0")
        # no token: the 401 of the write itself, nothing claimed
        r = self.server.request("POST", "/api/games", {"ruleset": ml.RULESET}, key("anon"))
        wp.assert_problem(r, 401, "unauthorized")
        self.assertEqual(self.sql("SELECT count(*) FROM request_idempotency WHERE key = 'anon'"),
                         "0")

    def test_joins_challenges_and_tournaments(self):
        ann, bob = ml.Client(self.server, "Ann"), ml.Client(self.server, "Bob")
        game = ann.create(seats=2)
        body = {"code": game["invitations"][0]["code"], "client_seed": "cd"}
        path = "/api/games/%d/join" % game["id"]
        first = bob.req("POST", path, body, key("join-1"))
        again = bob.req("POST", path, body, key("join-1"))
        self.assertEqual((first.status, again.status), (200, 200), again)
        self.assertEqual(again.body, first.body)
        self.assertEqual(again.headers["idempotent-replayed"], "true")

        for path, body, table in (
                ("/api/challenges", {"ruleset": ml.RULESET}, "challenges"),
                ("/api/tournaments", {"ruleset": ml.RULESET, "name": "Winter cup",
                                      "kind": "round_robin"}, "tournaments")):
            with self.subTest(path=path):
                first = ann.req("POST", path, body, key("make-" + table))
                again = ann.req("POST", path, body, key("make-" + table))
                self.assertEqual((first.status, again.status), (201, 201), again)
                self.assertEqual(again.body, first.body)
                self.assertEqual(again.headers["location"], first.headers["location"])
                owner = "poster_id" if table == "challenges" else "organiser_id"
                self.assertEqual(self.sql("SELECT count(*) FROM %s WHERE %s = %d"
                                          % (table, owner, ann.id)), "1")

        tid = int(self.sql("SELECT id FROM tournaments WHERE organiser_id = %d" % ann.id))
        first = bob.req("POST", "/api/tournaments/%d/join" % tid, None, key("tj"))
        again = bob.req("POST", "/api/tournaments/%d/join" % tid, None, key("tj"))
        self.assertEqual((first.status, again.status), (200, 200), again)
        self.assertEqual(again.headers["idempotent-replayed"], "true")
        self.assertEqual(self.sql("SELECT count(*) FROM tournament_players"
                                  " WHERE player_id = %d" % bob.id), "1")


if __name__ == "__main__":
    wp.main()
