"""POST /api/players and GET /api/me (bearer tokens)."""
import os
import re
import sys
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import warpost as wp  # noqa: E402

JSON = {"Content-Type": "application/json"}


def bearer(token):
    return {"Authorization": "Bearer " + token}


class PlayersTest(wp.ServerTestCase):
    # The statements counted are the requests' own: the notification
    # worker, which looks for due deliveries every NOTIFY_POLL_MS, looks
    # once at the start and then sleeps (as in test_cache).
    server_env = {"NOTIFY_POLL_MS": "600000"}

    def create(self, name):
        r = self.req("POST", "/api/players", {"name": name})
        self.assertEqual(r.status, 201, r)
        return wp.json_of(r, "application/json")

    def test_create(self):
        r = self.req("POST", "/api/players", {"name": "Alice"})
        self.assertEqual(r.status, 201, r)
        doc = wp.json_of(r, "application/json")
        self.assertEqual(set(doc), {"id", "name", "token"}, r)
        self.assertIsInstance(doc["id"], int, r)
        self.assertNotIsInstance(doc["id"], bool, r)
        self.assertEqual(doc["name"], "Alice", r)
        self.assertRegex(doc["token"], wp.TOKEN_RE, r)

    def test_ids_and_tokens_are_distinct(self):
        a, b = self.create("Ann"), self.create("Ann")
        self.assertNotEqual(a["id"], b["id"])
        self.assertNotEqual(a["token"], b["token"])

    def test_token_stored_only_as_hash(self):
        doc = self.create("Hashed")
        tok = doc["token"].lower()
        rows = self.db.psql("SELECT name FROM players WHERE id = %d" % doc["id"]).strip()
        self.assertEqual(rows, "Hashed", "player row not found in table players")
        # neither the token text nor its bytes (bytea shows as \x<hex>) in
        # any column of any row
        n = int(self.db.psql("SELECT count(*) FROM players p "
                             "WHERE strpos(lower(p::text), '%s') > 0" % tok).strip())
        self.assertEqual(n, 0, "table players holds the token in clear")
        # nor anywhere else in the database's tables
        tables = self.db.psql("SELECT quote_ident(schemaname) || '.' || quote_ident(tablename) "
                              "FROM pg_tables WHERE schemaname NOT IN "
                              "('pg_catalog', 'information_schema')").split()
        for t in tables:
            n = int(self.db.psql("SELECT count(*) FROM %s x WHERE strpos(lower(x::text), '%s') > 0"
                                 % (t, tok)).strip())
            self.assertEqual(n, 0, "table %s holds the token in clear" % t)

    def test_me(self):
        doc = self.create("Alice")
        r = self.req("GET", "/api/me", headers=bearer(doc["token"]))
        self.assertEqual(r.status, 200, r)
        me = wp.json_of(r, "application/json")
        self.assertEqual(me, {"id": doc["id"], "name": "Alice", "bot": False}, r)

    def test_me_picks_the_right_player(self):
        a, b = self.create("First"), self.create("Second")
        for p in (a, b):
            r = self.req("GET", "/api/me", headers=bearer(p["token"]))
            self.assertEqual(r.status, 200, r)
            self.assertEqual(r.json()["id"], p["id"], r)

    def test_bearer_scheme_is_case_insensitive(self):
        # RFC 9110 11.1: auth schemes are case-insensitive
        doc = self.create("Case")
        r = self.req("GET", "/api/me", headers={"Authorization": "bearer " + doc["token"]})
        self.assertEqual(r.status, 200, r)

    def test_me_unauthorized(self):
        good = self.create("Mallory")["token"]
        cases = {
            "no header": None,
            "empty": "",
            "scheme only": "Bearer",
            "scheme and space": "Bearer ",
            "wrong token": "Bearer " + "0" * 64,
            "token with extra char": "Bearer " + good + "0",
            "token cut short": "Bearer " + good[:-1],
            "half a token": "Bearer " + good[:32],
            "token twice": "Bearer " + good + " " + good,
            "basic scheme": "Basic " + good,
            "no scheme": good,
            "not hex": "Bearer " + "z" * 64,
        }
        for label, value in cases.items():
            with self.subTest(label):
                h = {} if value is None else {"Authorization": value}
                r = self.req("GET", "/api/me", headers=h)
                self.assertProblem(r, 401, "unauthorized")
                self.assertRegex(r.headers.get("www-authenticate", ""), r"(?i)^bearer\b", r)


    def test_my_matches_is_one_query_however_many(self):
        """Issue 26, "The clock re-read on hot paths": GET /api/me/games is
        one statement for 1 match as for 30, timed ones included (their
        clock inputs come in that answer, not a round trip a match), and
        each line carries what My matches shows (web/pages/home.js):
        players, result, deadline and the rest, with the clock those
        matches show on their own."""
        def player(name):
            return self.create(name)

        def match(owner, opponent, timed):
            body = {"ruleset": "wargame-chess", "seats": 2, "seat": 0}
            if timed:
                body["time_control"] = {"days_per_move": 3}
            r = self.req("POST", "/api/games", body, headers=bearer(owner["token"]))
            self.assertEqual(r.status, 201, r)
            g = r.json()
            r = self.req("POST", "/api/games/%d/join" % g["id"],
                         {"code": g["invitations"][0]["code"]}, headers=bearer(opponent["token"]))
            self.assertEqual(r.status, 200, r)
            return g["id"]

        def queries():
            r = self.req("GET", "/metrics")
            return int(re.search(r"^warpost_db_queries_total (\d+)$", r.body.decode(), re.M)
                       .group(1))

        def cost(who, path):
            self.assertEqual(self.req("GET", "/api/me", headers=bearer(who["token"])).status, 200)
            before = queries()
            r = self.req("GET", path, headers=bearer(who["token"]))
            self.assertEqual(r.status, 200, r)
            return queries() - before, r.json()

        one, many, opp = player("One"), player("Many"), player("Opp")
        match(one, opp, True)
        ids = [match(many, opp, i % 2 == 0) for i in range(30)]
        for path in ("/api/me/games", "/api/me/games?boards=1"):
            with self.subTest(path=path):
                n1, doc1 = cost(one, path)
                n30, doc30 = cost(many, path)
                self.assertEqual(len(doc1["games"]), 1)
                self.assertEqual(len(doc30["games"]), 30)
                self.assertEqual(n30, n1, "as many statements for 30 matches as for 1")
        for line in doc30["games"]:
            self.assertIn(line["id"], ids)
            self.assertEqual([p["player"]["name"] for p in line["players"]], ["Many", "Opp"])
            self.assertIn("result", line)
            view = self.req("GET", "/api/games/%d" % line["id"],
                            headers=bearer(many["token"])).json()
            if view["clock"] is None:
                self.assertIsNone(line["time_control"])
                continue
            me = view["clock"]["seats"][0]
            self.assertEqual(line["deadline"], me["deadline"] if me["awaited"] else None)
            self.assertEqual(line["can_claim"], False)


class NameValidationTest(wp.ServerTestCase):

    def post(self, body):
        return self.req("POST", "/api/players", body, JSON)

    def test_invalid(self):
        cases = {
            "missing": {},
            "null": {"name": None},
            "number": {"name": 42},
            "bool": {"name": True},
            "array": {"name": ["Alice"]},
            "object": {"name": {"first": "Alice"}},
            "empty": {"name": ""},
            "blank": {"name": "   "},
            "tabs and newlines only": {"name": "\t\n "},
            "41 characters": {"name": "x" * 41},
            "41 after trimming": {"name": "  " + "y" * 41 + "  "},
            "very long": {"name": "z" * 5000},
            "control char": {"name": "Al\u0001ice"},
            "NUL": {"name": "Al\u0000ice"},
            "newline inside": {"name": "Al\nice"},
            "tab inside": {"name": "Al\tice"},
            "DEL": {"name": "Al\u007fice"},
            "escape": {"name": "\u001b[31mred"},
            # C1 controls, direction overrides and isolates, separators and
            # invisible characters: a name that looks like another or empty.
            "C1 NEL": {"name": "Al\u0085ice"},
            "C1 CSI": {"name": "\u009b31mred"},
            "right-to-left override": {"name": "\u202eecilA"},
            "left-to-right embedding": {"name": "Al\u202aice"},
            "isolate": {"name": "Al\u2067ice"},
            "line separator": {"name": "Al\u2028ice"},
            "zero width space only": {"name": "\u200b"},
            "byte order mark": {"name": "\ufeffAlice"},
            "word joiner": {"name": "Al\u2060ice"},
        }
        for label, body in cases.items():
            with self.subTest(label):
                self.assertProblem(self.post(body), 400, "invalid-request", field="name")

    def test_body_not_an_object(self):
        for body in (b"[]", b'["Alice"]', b'"Alice"', b"null", b"42", b"true"):
            with self.subTest(body=body):
                self.assertProblem(self.post(body), 400, "invalid-request")

    def test_limits_accepted(self):
        for name in ("A", "x" * 40, "  " + "w" * 40 + "  ", "\u00e9" * 40, "\u6226" * 40,
                     "\U0001F3B2" * 40, "Jean-Luc O'Neil", "\u00c9mile",
                     # joiners stay: emoji sequences and scripts need them
                     "\U0001F468\u200d\U0001F469", "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"):
            with self.subTest(name=name):
                r = self.post({"name": name})
                self.assertEqual(r.status, 201, r)
                self.assertEqual(r.json()["name"], name.strip(), r)

    def test_name_is_trimmed(self):
        r = self.post({"name": "   Bob  "})
        self.assertEqual(r.status, 201, r)
        doc = r.json()
        self.assertEqual(doc["name"], "Bob", r)
        me = self.req("GET", "/api/me", headers=bearer(doc["token"]))
        self.assertEqual(me.json()["name"], "Bob", me)

    def test_unicode_round_trip(self):
        name = "Zo\u00eb \u6226\u4e89 \U0001F3B2"
        r = self.post({"name": name})
        self.assertEqual(r.status, 201, r)
        tok = r.json()["token"]
        me = self.req("GET", "/api/me", headers=bearer(tok))
        self.assertEqual(me.json()["name"], name, me)
        stored = self.db.psql("SELECT name FROM players WHERE id = %d" % r.json()["id"])
        self.assertEqual(stored.rstrip("\n"), name)

    def test_sql_metacharacters_are_data(self):
        name = "x'); DROP TABLE players;--"
        r = self.post({"name": name})
        self.assertEqual(r.status, 201, r)
        self.assertEqual(r.json()["name"], name)
        self.assertEqual(self.req("POST", "/api/players", {"name": "still"}).status, 201)


if __name__ == "__main__":
    wp.main()
