#!/usr/bin/env python3
"""Self-test of tests/lib/openapi_check.py against srv/openapi.json: real
answers of the server pass, and answers with a wrong type, a missing or an
extra property, a value outside an enum, ... fail, so the API tests' check
can fail. Also checks promises of the document no linter knows about
(every error is a Problem, the validator implements every keyword used)."""
import copy
import json
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import openapi_check as oa  # noqa: E402

DOC = oa.load()

JSON = {"Content-Type": "application/json"}
PROBLEM = {"Content-Type": "application/problem+json"}
HEX = "ed1531e4eaf085acc2c1659cdb90fa48d414a86720b2a3d7fd928cba413756d7"

# Answers of the test server (warpostd-test, ruleset skirmish-test).
PLAYER = {"id": 1, "name": "Alice",
          "token": "39a3cff2aed720744c4ff0671ea9a531a1a2716ceac7afd10c2270ceefb919cc"}
CREATED = {"id": 1, "ruleset": "skirmish-test", "seats": 3, "seat": 0, "status": "open",
           "commitment": HEX,
           "invitations": [{"seat": 1, "code": "b9219fccf16d2d5e10bc914ee4061077"},
                           {"seat": 2, "code": "36e85d60d7cfc3a1376b7cb0e9bdfdc2"}]}
GAME = {
    "id": 1, "ruleset": "skirmish-test", "title": "Skirmish (test ruleset)",
    "options": {"turn_limit": 5}, "status": "active", "seq": 1, "version": 2,
    "seats": [{"seat": 0, "player": {"id": 1, "name": "Alice"}},
              {"seat": 1, "player": {"id": 2, "name": "Bob"}},
              {"seat": 2, "player": None}],
    "you": 0, "awaiting": [0], "draw_offers": [],
    "state": {"turn": 1, "active": 0, "out": 0,
              "pieces": [{"seat": 0, "kind": "chief", "square": "e1", "decoy": False},
                         {"seat": 1, "kind": "chief", "square": "e8", "decoy": None}],
              "orders": "ask", "pending": [{"seat": 0, "kind": "turn"}]},
    "result": None,
    "dice": {"commitment": HEX, "seed": None},
    "created_at": "2026-11-21T23:50:34Z", "updated_at": "2026-11-21T23:50:40Z"}
GAME_HEADERS = {"Content-Type": "application/json", "ETag": '"g1-v2-s0"',
                "Cache-Control": "private, no-cache", "Vary": "Authorization"}
ACK = {"game": 1, "seq": 13, "version": 14, "status": "active", "awaiting": [2],
       "events": [{"type": "roll", "attacker": 5, "defender": 4, "dodge": True},
                  {"type": "seat_out", "seat": 1}],
       "result": None}
POSTS = {"game": 1, "seq": 16, "next_after": None, "posts": [
    {"seq": 1, "seat": None, "kind": "start", "at": "2026-11-21T23:50:40Z", "actions": [],
     "comment_hidden": False, "comment": None, "events": [], "rolls": [[2, 0], [2, 1]]},
    {"seq": 3, "seat": 2, "kind": "orders", "at": "2026-11-21T23:50:52Z",
     "actions": {"dodge": "never"}, "comment_hidden": False, "comment": None,
     "events": [], "rolls": []},
    {"seq": 13, "seat": 1, "kind": "turn", "at": "2026-11-21T23:51:04Z",
     "actions": [{"type": "dodge", "dodge": True}], "comment_hidden": False,
     "comment": "ha", "events": [{"type": "seat_out", "seat": 1}], "rolls": [[6, 4], [6, 3]]},
    {"seq": 14, "seat": 0, "kind": "draw_offer", "at": "2026-11-21T23:51:04Z",
     "actions": None, "comment_hidden": True, "comment": None, "events": []}]}
EXPORT = {"format": "warpost-export-1", "game": 2, "ruleset": "skirmish-test", "options": {},
          "seats": 2, "client_seeds": ["", "bob"], "commitment": HEX, "seed": HEX,
          "status": "aborted", "result": {"draw": False, "reason": "aborted", "winners": []},
          "posts": [{"seq": 1, "seat": 0, "kind": "abort", "at": "2026-11-21T23:51:15Z",
                     "actions": [], "comment_hidden": False, "comment": None, "events": [],
                     "rolls": [], "draws_from": 0}],
          "final_state": None}
VERIFY = {"verified": True, "commitment_ok": True, "state_ok": True, "posts": 1,
          "rolls_checked": 0, "mismatches": [], "rolls": [{"seq": 1, "dice": []}],
          "game": 2, "seed": HEX, "commitment": HEX}
STALE = {"type": "urn:warpost:problem:stale-sequence", "title": "Conflict", "status": 409,
         "detail": "the match is at post 1, not 0: reload and try again", "seq": 1}
ILLEGAL = {"type": "urn:warpost:problem:illegal-action", "title": "Unprocessable request",
           "status": 422, "detail": "one king step", "index": 0, "code": "too-far",
           "field": "to"}
UNAUTHORIZED = {"type": "urn:warpost:problem:unauthorized", "title": "Unauthorized",
                "status": 401, "detail": "the token is not known"}


def body(value):
    return json.dumps(value).encode()


class Accepts(unittest.TestCase):
    """Real answers pass."""

    def ok(self, method, path, status, headers, value):
        got = oa.check_response(DOC, method, path, status, headers, body(value))
        self.assertEqual(got, value)

    def test_players(self):
        self.ok("POST", "/api/players", 201, JSON, PLAYER)
        self.ok("GET", "/api/me", 200, JSON, {"id": 1, "name": "Alice"})

    def test_create_with_location(self):
        self.ok("POST", "/api/games", 201, dict(JSON, Location="/api/games/1"), CREATED)

    def test_game_view_and_304(self):
        self.ok("GET", "/api/games/1", 200, GAME_HEADERS, GAME)
        self.ok("GET", "/api/games/1?wait=30", 200, GAME_HEADERS, GAME)
        over = dict(GAME, status="over", you=None, awaiting=[],
                    result={"winners": [0], "draw": False, "reason": "last seat standing"},
                    dice={"commitment": HEX, "seed": HEX})
        self.ok("GET", "/api/games/1", 200, GAME_HEADERS, over)
        h = {"ETag": '"g1-v2-s0"', "Cache-Control": "private, no-cache"}
        self.assertIsNone(oa.check_response(DOC, "GET", "/api/games/1", 304, h, b""))

    def test_head_answers_like_get_without_body(self):
        self.assertIsNone(oa.check_response(DOC, "HEAD", "/api/games/7", 200,
                                            GAME_HEADERS, b""))

    def test_writes(self):
        self.ok("POST", "/api/games/1/turns", 200, JSON, ACK)
        self.ok("POST", "/api/games/1/turns", 200, dict(JSON, **{"Idempotent-Replayed": "true"}),
                ACK)
        self.ok("POST", "/api/games/1/join", 200, JSON, {"game": 1, "seat": 2})
        self.ok("POST", "/api/games/1/resign", 200, JSON, dict(
            ACK, status="over", awaiting=[],
            result={"winners": [0], "draw": False, "reason": "last seat standing"}))

    def test_log_export_verify(self):
        self.ok("GET", "/api/games/1/turns?after=0&limit=3", 200, JSON, POSTS)
        self.ok("GET", "/api/games/2/export", 200,
                dict(JSON, **{"Content-Disposition": 'attachment; filename="match.json"'}),
                EXPORT)
        self.ok("GET", "/api/games/2/verify", 200, JSON, VERIFY)

    def test_problems(self):
        self.ok("POST", "/api/games/1/turns", 409, PROBLEM, STALE)
        self.ok("POST", "/api/games/1/turns", 422, PROBLEM, ILLEGAL)
        self.ok("GET", "/api/me", 401, dict(PROBLEM, **{
            "WWW-Authenticate": 'Bearer realm="warpost", error="invalid_token"'}), UNAUTHORIZED)

    def test_health_503_is_not_a_problem(self):
        self.ok("GET", "/api/health", 503, JSON,
                {"status": "degraded", "database": "down", "version": "0.1.0"})

    def test_metrics_text(self):
        text = "# TYPE warpost_longpolls_total counter\nwarpost_longpolls_total 1\n"
        got = oa.check_response(DOC, "GET", "/metrics", 200,
                                {"content-type": "text/plain; version=0.0.4; charset=utf-8"},
                                text.encode())
        self.assertEqual(got, text)

    def test_media_type_parameters_and_case(self):
        self.ok("GET", "/api/me", 200, {"CONTENT-TYPE": "Application/JSON; charset=utf-8"},
                {"id": 1, "name": "Alice"})

    def test_generic_problems(self):
        nf = {"type": "urn:warpost:problem:not-found", "title": "Not found", "status": 404,
              "detail": "there is no resource at this path"}
        self.assertEqual(oa.check_problem(DOC, 404, PROBLEM, body(nf)), nf)


class Rejects(unittest.TestCase):
    """Answers that break the document fail, naming the place."""

    def bad(self, method, path, status, headers, value, *needles):
        raw = value if isinstance(value, bytes) else body(value)
        with self.assertRaises(AssertionError) as cm:
            oa.check_response(DOC, method, path, status, headers, raw)
        for n in needles:
            self.assertIn(n, str(cm.exception))
        return str(cm.exception)

    def test_wrong_type(self):
        self.bad("GET", "/api/me", 200, JSON, {"id": "1", "name": "Alice"},
                 "$.id", "expected integer, got string")
        self.bad("GET", "/api/games/1", 200, GAME_HEADERS, dict(GAME, seq=True),
                 "$.seq", "got boolean")
        self.bad("GET", "/api/games/1", 200, GAME_HEADERS, dict(GAME, state=[]),
                 "$.state", "expected object or null")

    def test_missing_required(self):
        g = dict(GAME)
        del g["dice"]
        self.bad("GET", "/api/games/1", 200, GAME_HEADERS, g, "'dice' is missing")
        p = copy.deepcopy(POSTS)
        del p["posts"][1]["kind"]
        self.bad("GET", "/api/games/1/turns", 200, JSON, p, "$.posts[1]", "'kind' is missing")

    def test_extra_property(self):
        self.bad("GET", "/api/me", 200, JSON, {"id": 1, "name": "A", "email": "a@b"},
                 "'email' is not allowed")
        e = copy.deepcopy(EXPORT)
        e["posts"][0]["secret"] = 1
        self.bad("GET", "/api/games/2/export", 200,
                 dict(JSON, **{"Content-Disposition": "attachment"}), e, "$.posts[0]",
                 "'secret'")
        self.bad("POST", "/api/games/1/turns", 409, PROBLEM, dict(STALE, hint="x"),
                 "'hint' is not allowed")

    def test_bad_enum_const_and_pattern(self):
        self.bad("GET", "/api/games/1", 200, GAME_HEADERS, dict(GAME, status="paused"),
                 "$.status", '"paused" is not one of')
        self.bad("POST", "/api/games", 201, dict(JSON, Location="/api/games/1"),
                 dict(CREATED, status="paused"), "$.status", '"paused" is not one of')
        self.bad("POST", "/api/players", 201, JSON, dict(PLAYER, token="abc"),
                 "$.token", "does not match")
        self.bad("GET", "/api/games/1", 200, GAME_HEADERS,
                 dict(GAME, created_at="2026-11-21 23:50:34"), "$.created_at")

    def test_problem_slug_not_listed_for_the_status(self):
        wrong = dict(STALE, type="urn:warpost:problem:game-not-found")
        self.bad("POST", "/api/games/1/turns", 409, PROBLEM, wrong, "$.type", "not one of")
        self.bad("POST", "/api/games/1/turns", 409, PROBLEM, dict(STALE, type="stale"),
                 "$.type")

    def test_problem_status_must_be_the_answer_status(self):
        self.bad("POST", "/api/games/1/turns", 409, PROBLEM, dict(STALE, status=400),
                 "status")

    def test_ranges(self):
        self.bad("GET", "/api/games/1", 200, GAME_HEADERS, dict(GAME, you=4), "$.you")
        self.bad("GET", "/api/games/1", 200, GAME_HEADERS, dict(GAME, seq=-1),
                 "below the minimum")
        p = copy.deepcopy(POSTS)
        p["posts"][0]["rolls"] = [[6]]
        self.bad("GET", "/api/games/1/turns", 200, JSON, p, "$.posts[0].rolls[0]",
                 "at least 2")

    def test_one_of(self):
        self.bad("GET", "/api/games/1", 200, GAME_HEADERS,
                 dict(GAME, dice={"commitment": HEX, "seed": "xyz"}), "$.dice.seed", "oneOf")
        self.bad("GET", "/api/games/1", 200, GAME_HEADERS,
                 dict(GAME, result={"winners": [0]}), "$.result", "oneOf")

    def test_status_not_documented(self):
        self.bad("GET", "/api/health", 418, JSON, {}, "status 418 is not documented")
        self.bad("GET", "/api/rulesets", 404, PROBLEM, {}, "status 404 is not documented")

    def test_content_type(self):
        self.bad("GET", "/api/me", 200, {"Content-Type": "text/html"}, {"id": 1, "name": "A"},
                 "Content-Type 'text/html' is not documented")
        self.bad("GET", "/api/me", 200, {}, {"id": 1, "name": "A"}, "no Content-Type")
        www = {"WWW-Authenticate": 'Bearer realm="warpost"'}
        self.bad("GET", "/api/me", 401, dict(JSON, **www), UNAUTHORIZED,
                 "'application/json' is not documented")
        self.bad("GET", "/metrics", 200, {"Content-Type": "text/plain"}, b"x\n",
                 "not documented")

    def test_not_json(self):
        self.bad("GET", "/api/me", 200, JSON, b"{id: 1}", "not JSON")
        self.bad("GET", "/api/me", 200, JSON, b'{"id": NaN, "name": "A"}', "not JSON")

    def test_headers(self):
        self.bad("POST", "/api/games", 201, JSON, CREATED, "header Location is missing")
        self.bad("POST", "/api/games", 201, dict(JSON, Location="/games/1"), CREATED,
                 "header Location")
        h = dict(GAME_HEADERS)
        del h["ETag"]
        self.bad("GET", "/api/games/1", 200, h, GAME, "header ETag")
        self.bad("GET", "/api/me", 401, PROBLEM, UNAUTHORIZED, "WWW-Authenticate")
        self.bad("POST", "/api/games/1/turns", 200,
                 dict(JSON, **{"Idempotent-Replayed": "yes"}), ACK, "Idempotent-Replayed")

    def test_bodies_that_must_be_empty(self):
        self.bad("HEAD", "/api/games/1", 200, GAME_HEADERS, GAME, "no body")
        h = {"ETag": '"g1-v2-s0"', "Cache-Control": "private, no-cache"}
        self.bad("GET", "/api/games/1", 304, h, GAME, "no body")

    def test_unknown_path_and_method(self):
        self.bad("GET", "/api/nope", 404, PROBLEM, {}, "no path of the document matches")
        self.bad("DELETE", "/api/games/1", 405, PROBLEM, {}, "no DELETE", "GET")
        self.bad("GET", "/api/games/1/turns/2", 200, JSON, {}, "no path")
        with self.assertRaises(AssertionError):
            oa.check_problem(DOC, 404, JSON, body({"type": "x"}))


class Finds(unittest.TestCase):
    def op(self, method, path):
        return oa.find_operation(DOC, method, path)[1]["operationId"]

    def test_concrete_paths_match_templates(self):
        self.assertEqual(self.op("GET", "/api/games/12/turns"), "listPosts")
        self.assertEqual(self.op("POST", "/api/games/12/turns"), "postTurn")
        self.assertEqual(self.op("GET", "/api/games/12?wait=5"), "getGame")
        self.assertEqual(self.op("GET", "/api/games/{id}/verify"), "verifyGame")
        self.assertEqual(self.op("GET", "/api/me/games"), "listMyGames")
        self.assertEqual(self.op("get", "/api/me"), "getMe")
        self.assertEqual(self.op("HEAD", "/metrics"), "getMetrics")

    def test_coverage_record(self):
        oa.check_response(DOC, "GET", "/api/me", 200, JSON, body({"id": 1, "name": "A"}))
        self.assertNotIn(("GET", "/api/me"), oa.unchecked(DOC))
        every = [(m.upper(), path) for path, item in DOC["paths"].items()
                 for m in item if m in oa.METHODS]
        self.assertEqual(sorted(oa.operations(DOC)), sorted(every))
        self.assertIn(("DELETE", "/api/me/webhooks/{id}"), every)


class Validator(unittest.TestCase):
    """The JSON Schema subset on small schemas."""

    def ok(self, schema, value):
        oa.validate(DOC, schema, value)

    def bad(self, schema, value, needle=""):
        with self.assertRaises(AssertionError) as cm:
            oa.validate(DOC, schema, value)
        self.assertIn(needle, str(cm.exception))

    def test_types(self):
        self.ok({"type": ["integer", "null"]}, None)
        self.ok({"type": "integer"}, 3)
        self.ok({"type": "integer"}, 3.0)
        self.bad({"type": "integer"}, 3.5)
        self.bad({"type": "integer"}, True, "boolean")
        self.bad({"type": "boolean"}, 0)
        self.ok({"type": "number"}, 2.5)

    def test_enum_and_const_are_json_equality(self):
        self.bad({"enum": [1, 2]}, True)
        self.bad({"const": False}, 0)
        self.ok({"const": [1, {"a": None}]}, [1, {"a": None}])

    def test_strings(self):
        self.ok({"type": "string", "maxLength": 2}, "éé")
        self.bad({"type": "string", "maxLength": 2}, "abc", "longer")
        self.bad({"type": "string", "minLength": 1}, "", "shorter")
        self.bad({"pattern": "^[a-z]+$"}, "a1", "does not match")
        self.ok({"pattern": "[0-9]"}, "a1")

    def test_no_control_characters_pattern(self):
        name = DOC["components"]["schemas"]["PlayerName"]
        self.ok(name, "Alice")
        self.bad(name, "Al\nice", "does not match")

    def test_objects(self):
        s = {"type": "object", "properties": {"a": {"type": "integer"}},
             "additionalProperties": {"type": "string"}}
        self.ok(s, {"a": 1, "b": "x"})
        self.bad(s, {"a": 1, "b": 2}, "$.b")
        self.bad(s, {"a": 1, "odd key": 2}, '$["odd key"]')

    def test_combinators(self):
        self.ok({"anyOf": [{"type": "string"}, {"minimum": 0}]}, 5)
        self.bad({"anyOf": [{"type": "string"}, {"minimum": 0}]}, -5, "anyOf")
        self.bad({"oneOf": [{"type": "integer"}, {"minimum": 0}]}, 5, "2 branches")
        self.bad({"allOf": [{"type": "integer"}, {"maximum": 3}]}, 5, "above the maximum")

    def test_refs_with_siblings(self):
        self.ok({"$ref": "#/components/schemas/Seat"}, 3)
        self.bad({"$ref": "#/components/schemas/Seat", "maximum": 1}, 2, "maximum")
        with self.assertRaises(AssertionError):
            oa.validate(DOC, {"$ref": "#/components/schemas/Nope"}, 1)

    def test_unknown_keywords_are_not_ignored(self):
        with self.assertRaises(NotImplementedError):
            oa.validate(DOC, {"type": "integer", "multipleOf": 2}, 3)
        with self.assertRaises(NotImplementedError):
            oa.validate(DOC, {"type": "array", "items": [{"type": "integer"}]}, [1])


def walk(node, path=""):
    """Every (json pointer, dict) in a document."""
    if isinstance(node, dict):
        yield path, node
        for k, v in node.items():
            yield from walk(v, path + "/" + str(k).replace("~", "~0").replace("/", "~1"))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from walk(v, "%s/%d" % (path, i))


SCHEMA_KEYS = ("schema", "items", "additionalProperties")


class Document(unittest.TestCase):
    """What the document promises beyond what Redocly lints."""

    def schemas(self):
        """Every schema object of the document, with its pointer."""
        out = []

        def add(ptr, s):
            if not isinstance(s, dict):
                return
            out.append((ptr, s))
            for k in ("items", "additionalProperties"):
                if isinstance(s.get(k), dict):
                    add(ptr + "/" + k, s[k])
            for k in ("properties",):
                for name, sub in s.get(k, {}).items():
                    add(ptr + "/properties/" + name, sub)
            for k in ("allOf", "anyOf", "oneOf"):
                for i, sub in enumerate(s.get(k, [])):
                    add("%s/%s/%d" % (ptr, k, i), sub)

        for name, s in DOC["components"]["schemas"].items():
            add("#/components/schemas/" + name, s)
        for ptr, node in walk(DOC["paths"], "#/paths"):
            if "schema" in node and isinstance(node["schema"], dict):
                add(ptr + "/schema", node["schema"])
        for ptr, node in walk(DOC["components"], "#/components"):
            if not ptr.startswith("#/components/schemas") and "schema" in node:
                add(ptr + "/schema", node["schema"])
        return out

    def test_every_schema_keyword_is_implemented(self):
        for ptr, s in self.schemas():
            unknown = set(s) - oa.CHECKED - oa.ANNOTATIONS
            self.assertFalse(unknown, "%s uses %s" % (ptr, unknown))

    def test_every_ref_resolves(self):
        for ptr, node in walk(DOC):
            if "$ref" in node and isinstance(node["$ref"], str):
                oa.resolve(DOC, {"$ref": node["$ref"]})

    def test_every_error_is_a_problem(self):
        for method, template in oa.operations(DOC):
            op = DOC["paths"][template][method.lower()]
            for status, response in op["responses"].items():
                if int(status) < 400 or op["operationId"] == "getHealth" and status == "503":
                    continue
                response = oa.resolve(DOC, response)
                content = response.get("content", {})
                where = "%s %s %s" % (method, template, status)
                self.assertEqual(list(content), ["application/problem+json"], where)
                schema = content["application/problem+json"]["schema"]
                refs = [schema.get("$ref")] + [s.get("$ref") for s in schema.get("allOf", [])]
                self.assertIn("#/components/schemas/Problem", refs, where)

    def test_every_operation_answers_errors_and_has_an_id(self):
        ids = []
        for method, template in oa.operations(DOC):
            op = DOC["paths"][template][method.lower()]
            ids.append(op["operationId"])
            self.assertIn("413", op["responses"], template)
            if "{id}" in template:
                self.assertIn("404", op["responses"], template)
            if op.get("requestBody"):
                self.assertIn("415", op["responses"], template)
        self.assertEqual(len(ids), len(set(ids)))

    def test_examples_match_their_schemas(self):
        for ptr, node in walk(DOC):
            if "schema" in node and "example" in node and isinstance(node["schema"], dict):
                oa.validate(DOC, node["schema"], node["example"], ptr)


if __name__ == "__main__":
    unittest.main(verbosity=1)
