"""Issue 29, correspondence tournaments (srv/api/tournaments.c,
tournament_rounds.c, sql/024_tournaments.sql).

A round robin of 4 is played to the end (losers resign, a draw agreed)
and its standings, Sonneborn-Berger and crosstable are checked against
values computed by hand; a Swiss event of 5 over 3 rounds gives one bye a
round, never twice to one player, and no rematch, each round paired by the
round worker once the previous one ended; a withdrawn player is not paired
again; bad input is a 4xx problem that writes nothing; two instances
racing to start the same event start it once; a kill -9 in the middle of
pairing (the test server's WP_TEST_TOURNAMENT_PAIR_FILE hold, inside the
transaction) loses and doubles nothing: after a restart the round exists
once.

Two warpostd on one database (a, b), both running the round worker."""
import calendar
import os
import unittest

import matchlib as ml
from matchlib import wp

WAIT = 30


class TournamentsTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.pg = wp.PgCluster.shared()
        cls.db = cls.pg.create_database()
        cls.addClassCleanup(cls.db.drop)
        env = {"NOTIFY_POLL_MS": "50"}
        cls.a = wp.Server(cls.db.url, env=env).start()
        cls.addClassCleanup(cls.a.stop)
        cls.b = wp.Server(cls.db.url, env=env).start()
        cls.addClassCleanup(cls.b.stop)

    def players(self, n, prefix, server=None):
        return [ml.Client(server or self.a, "%s%d" % (prefix, i + 1)) for i in range(n)]

    def create(self, who, expect=201, **body):
        body.setdefault("ruleset", ml.RULESET)
        body.setdefault("name", "Autumn league")
        r = who.req("POST", "/api/tournaments", body)
        self.assertEqual(r.status, expect, r)
        if expect != 201:
            return r
        tid = r.json()["id"]
        self.assertEqual(r.headers["location"], "/api/tournaments/%d" % tid)
        return tid

    def get(self, who, tid):
        r = who.req("GET", "/api/tournaments/%d" % tid)
        self.assertEqual(r.status, 200, r)
        return r.json()

    def join(self, who, tid, body=None):
        return who.req("POST", "/api/tournaments/%d/join" % tid, body)

    def rows(self, sql):
        return self.db.psql(sql).strip()

    def state(self):
        """Everything a refused request must leave as it was."""
        return self.rows("SELECT (SELECT count(*) FROM tournaments) || '/' ||"
                         " (SELECT count(*) FROM tournament_players) || '/' ||"
                         " (SELECT coalesce(sum(version), 0) FROM tournaments) || '/' ||"
                         " (SELECT count(*) FROM tournament_rounds) || '/' ||"
                         " (SELECT count(*) FROM games)")

    def by_id(self, clients):
        return {c.id: c for c in clients}

    def finish(self, table, clients, winner_seat):
        """Ends a table's match: the other seat resigns, or a draw agreed
        (winner_seat None)."""
        game = table["game"]
        seat = [clients[p] for p in table["players"]]
        if winner_seat is None:
            self.assertEqual(seat[0].req("POST", "/api/games/%d/draw" % game,
                                         {"action": "offer"}).status, 200)
            r = seat[1].req("POST", "/api/games/%d/draw" % game, {"action": "accept"})
        else:
            r = seat[1 - winner_seat].req("POST", "/api/games/%d/resign" % game)
        self.assertEqual(r.status, 200, r)

    # -------------------------------------------------------- round robin

    def test_round_robin_of_four_to_the_end(self):
        org = ml.Client(self.a, "Organiser")
        p = self.players(4, "rr")
        tid = self.create(org, kind="round_robin", max_players=4, min_players=4)
        for c in p:
            self.assertEqual(self.join(c, tid).status, 200)
        r = org.req("POST", "/api/tournaments/%d/start" % tid)
        self.assertEqual(r.status, 200, r)
        t = r.json()
        self.assertEqual(t["status"], "running")
        self.assertEqual(t["rounds"], 3)
        games = [x for x in t["tables"] if x["game"]]
        self.assertEqual(len(games), 6)   # every match of the event started at once
        pairs = {frozenset(x["players"]) for x in games}
        self.assertEqual(len(pairs), 6)
        for x in games:
            self.assertEqual(x["status"], "active")
        # By hand: 1 beats 2, 3 beats 1, 1 beats 4, 2 beats 3, 2 beats 4,
        # 3 and 4 draw. Points 1: 2, 2: 2, 3: 1.5, 4: 0.5. Sonneborn-Berger:
        # 1: 2 (of 2) + 0.5 (of 4) = 2.5; 2: 1.5 + 0.5 = 2; 3: 2 (of 1) +
        # 0.25 (half of 4's 0.5) = 2.25; 4: half of 3's 1.5 = 0.75.
        ids = [c.id for c in p]
        beats = {(ids[0], ids[1]), (ids[2], ids[0]), (ids[0], ids[3]), (ids[1], ids[2]),
                 (ids[1], ids[3])}
        clients = self.by_id(p)
        for x in games:
            s0, s1 = x["players"]
            self.finish(x, clients, 0 if (s0, s1) in beats else 1 if (s1, s0) in beats
                        else None)
        t = wp.wait_until(lambda: (lambda d: d if d["status"] == "over" else None)(
            self.get(org, tid)), WAIT)
        self.assertTrue(t, "the event did not end")
        got = [(s["rank"], s["player"]["id"], s["points"], s["sonneborn_berger"])
               for s in t["standings"]]
        self.assertEqual(got, [(1, ids[0], 2, 2.5), (2, ids[1], 2, 2), (3, ids[2], 1.5, 2.25),
                               (4, ids[3], 0.5, 0.75)])
        row1 = next(r for r in t["crosstable"] if r["player"]["id"] == ids[0])
        self.assertEqual(row1["against"], [[], [1], [0], [1]])
        row3 = next(r for r in t["crosstable"] if r["player"]["id"] == ids[2])
        self.assertEqual(row3["against"], [[1], [0], [], [0.5]])
        ex = org.req("GET", "/api/tournaments/%d/export" % tid)
        self.assertEqual(ex.status, 200, ex)
        self.assertEqual(ex.json()["standings"], t["standings"])

    # -------------------------------------------------------------- Swiss

    def test_swiss_of_five_over_three_rounds(self):
        org = ml.Client(self.a, "SwissOrg")
        p = self.players(5, "sw")
        tid = self.create(org, kind="swiss", rounds=3, max_players=5)
        for c in p:
            self.assertEqual(self.join(c, tid).status, 200)
        self.assertEqual(org.req("POST", "/api/tournaments/%d/start" % tid).status, 200)
        clients = self.by_id(p)
        byes, met = {}, set()
        for rnd in range(1, 4):
            t = wp.wait_until(lambda: (lambda d: d if d["round"] == rnd else None)(
                self.get(org, tid)), WAIT)
            self.assertTrue(t, "round %d was not paired" % rnd)
            tables = [x for x in t["tables"] if x["round"] == rnd]
            self.assertEqual(sorted(len(x["players"]) for x in tables), [1, 2, 2])
            for x in tables:
                if len(x["players"]) == 1:
                    self.assertIsNone(x["game"])
                    b = x["players"][0]
                    self.assertNotIn(b, byes, "a second bye")
                    byes[b] = rnd
                else:
                    pair = frozenset(x["players"])
                    self.assertNotIn(pair, met, "a rematch")
                    met.add(pair)
                    self.finish(x, clients, 0)
        t = wp.wait_until(lambda: (lambda d: d if d["status"] == "over" else None)(
            self.get(org, tid)), WAIT)
        self.assertTrue(t)
        self.assertEqual(self.rows("SELECT count(*) FROM tournament_rounds WHERE"
                                   " tournament_id = %d" % tid), "3")
        self.assertEqual(sum(s["points"] for s in t["standings"]), 9)
        self.assertEqual(sum(s["byes"] for s in t["standings"]), 3)
        # Buchholz and Sonneborn-Berger counted again from the tables: a bye
        # scores 1 and adds to neither; then the order, points, Buchholz, SB.
        pts, games = {c.id: 0 for c in p}, []
        for x in t["tables"]:
            if len(x["players"]) == 1:
                pts[x["players"][0]] += 1
                continue
            (w, wp_), (l, lp) = zip(x["players"], x["places"])
            score = {w: 1 if wp_ < lp else 0.5 if wp_ == lp else 0}
            score[l] = 1 - score[w]
            pts[w] += score[w]
            pts[l] += score[l]
            games.append((w, l, score))
        bu = {i: sum(pts[o] for a, b, _ in games for me, o in ((a, b), (b, a)) if me == i)
              for i in pts}
        sb = {i: sum(pts[o] * sc[me] for a, b, sc in games for me, o in ((a, b), (b, a))
                     if me == i) for i in pts}
        for s in t["standings"]:
            i = s["player"]["id"]
            self.assertEqual((s["points"], s["buchholz"], s["sonneborn_berger"]),
                             (pts[i], bu[i], sb[i]), s)
        keys = [(-pts[i], -bu[i], -sb[i]) for i in (s["player"]["id"] for s in t["standings"])]
        self.assertEqual(keys, sorted(keys), "ranked by points, then Buchholz, then SB")

    def test_confrontation_tables_of_three_score_by_finishing_order(self):
        """Swiss tables of 3 (wl_group_tables): the seat put out first
        finishes third, the next second; a point for each seat finished
        ahead of (wl_points2): 2, 1, 0."""
        org = ml.Client(self.a, "ConfOrg")
        p = self.players(6, "cf")
        tid = self.create(org, ruleset="confrontation", seats=3, kind="swiss", rounds=1,
                          max_players=6)
        for c in p:
            self.assertEqual(self.join(c, tid).status, 200)
        r = org.req("POST", "/api/tournaments/%d/start" % tid)
        self.assertEqual(r.status, 200, r)
        tables = r.json()["tables"]
        self.assertEqual([len(x["players"]) for x in tables], [3, 3])
        clients = self.by_id(p)
        for x in tables:
            view = clients[x["players"][0]].view(x["game"]).json()
            self.assertEqual((view["ruleset"], len(view["seats"])), ("confrontation", 3))
            for seat in (2, 1):
                r = clients[x["players"][seat]].req("POST", "/api/games/%d/resign" % x["game"])
                self.assertEqual(r.status, 200, r)
        t = wp.wait_until(lambda: (lambda d: d if d["status"] == "over" else None)(
            self.get(org, tid)), WAIT)
        self.assertTrue(t)
        pts = {s["player"]["id"]: s["points"] for s in t["standings"]}
        for x in t["tables"]:
            self.assertEqual(x["places"], [1, 2, 3])
            self.assertEqual([pts[i] for i in x["players"]], [2, 1, 0])

    def test_swiss_round_deadline_pairs_the_next_round_while_a_match_runs(self):
        org = ml.Client(self.a, "DlOrg")
        p = self.players(4, "dl")
        tid = self.create(org, kind="swiss", rounds=2, max_players=4, round_days=3)
        for c in p:
            self.join(c, tid)
        t = org.req("POST", "/api/tournaments/%d/start" % tid).json()
        self.assertIsNotNone(t["round_deadline"])
        clients = self.by_id(p)
        done, slow = t["tables"][0], t["tables"][1]
        self.finish(done, clients, 0)
        # Round 2 waits for the slow match until the deadline passes.
        self.assertEqual(self.get(org, tid)["round"], 1)
        self.db.psql("UPDATE tournament_rounds SET started_at = now() - interval '4 days'"
                     " WHERE tournament_id = %d" % tid)
        t = wp.wait_until(lambda: (lambda d: d if d["round"] == 2 else None)(
            self.get(org, tid)), WAIT)
        self.assertTrue(t, "the deadline did not start round 2")
        self.assertEqual(next(x for x in t["tables"] if x["game"] == slow["game"])["status"],
                         "active")
        r2 = [x for x in t["tables"] if x["round"] == 2]
        self.assertEqual(sorted(len(x["players"]) for x in r2), [2, 2])
        met1 = {frozenset(done["players"]), frozenset(slow["players"])}
        self.assertFalse(met1 & {frozenset(x["players"]) for x in r2}, "no rematch")
        # The slow match counts when it ends; the event ends with the last.
        self.finish(slow, clients, 1)
        for x in r2:
            self.finish(x, clients, 0)
        t = wp.wait_until(lambda: (lambda d: d if d["status"] == "over" else None)(
            self.get(org, tid)), WAIT)
        self.assertTrue(t)
        self.assertEqual(sum(s["points"] for s in t["standings"]), 4)
        self.assertEqual(self.rows("SELECT count(*) FROM tournament_rounds WHERE"
                                   " tournament_id = %d" % tid), "2")

    def test_seeding_by_rating_at_the_start(self):
        """Seeds are the joining order until the start, then the rating in
        the ruleset (1500 without one), equal ratings in joining order."""
        org = ml.Client(self.a, "SeedOrg")
        p = self.players(4, "seed")
        for c, r in ((p[3], 1800), (p[1], 1400)):
            self.db.psql("INSERT INTO ratings (player_id, ruleset, pool, rating, rd, volatility)"
                         " VALUES (%d, '%s', 'human', %d, 60, 0.06)" % (c.id, ml.RULESET, r))
        tid = self.create(org, kind="swiss", rounds=1, max_players=4)
        for c in p:
            self.join(c, tid)
        self.assertEqual([x["id"] for x in self.get(org, tid)["players"]], [c.id for c in p])
        t = org.req("POST", "/api/tournaments/%d/start" % tid).json()
        self.assertEqual([x["id"] for x in t["players"]], [p[3].id, p[0].id, p[2].id, p[1].id])
        self.assertEqual([x["seed"] for x in t["players"]], [1, 2, 3, 4])

    def test_withdrawn_player_is_not_paired_again(self):
        org = ml.Client(self.a, "WdOrg")
        p = self.players(4, "wd")
        tid = self.create(org, kind="swiss", rounds=2, max_players=4)
        for c in p:
            self.join(c, tid)
        t = org.req("POST", "/api/tournaments/%d/start" % tid).json()
        quitter = p[3]
        r = quitter.req("POST", "/api/tournaments/%d/leave" % tid)
        self.assertEqual(r.status, 200, r)
        self.assertTrue(next(x for x in r.json()["players"] if x["id"] == quitter.id)
                        ["withdrawn"])
        # Its match of round 1 was forfeited: the others are played.
        t = self.get(org, tid)
        for x in t["tables"]:
            if quitter.id in x["players"]:
                self.assertEqual(x["status"], "over")
            elif x["game"]:
                self.finish(x, self.by_id(p), 0)
        t = wp.wait_until(lambda: (lambda d: d if d["round"] == 2 else None)(
            self.get(org, tid)), WAIT)
        self.assertTrue(t)
        r2 = [x for x in t["tables"] if x["round"] == 2]
        self.assertNotIn(quitter.id, [i for x in r2 for i in x["players"]])
        self.assertEqual(sorted(len(x["players"]) for x in r2), [1, 2])

    # ---------------------------------------------- adjudication, forfeits

    def started_round_robin(self, org, p):
        tid = self.create(org, kind="round_robin", max_players=len(p))
        for c in p:
            self.assertEqual(self.join(c, tid).status, 200)
        r = org.req("POST", "/api/tournaments/%d/start" % tid)
        self.assertEqual(r.status, 200, r)
        return tid, [x for x in r.json()["tables"] if x["game"]]

    def test_organiser_adjudicates_a_stalled_match(self):
        org = ml.Client(self.a, "AdjOrg")
        p = self.players(3, "adj")
        tid, games = self.started_round_robin(org, p)
        other = ml.Client(self.a, "AdjOther").create()["id"]
        first, second = games[0], games[1]
        path = "/api/tournaments/%d/adjudicate" % tid
        before = self.state()
        wp.assert_problem(p[0].req("POST", path, {"game": first["game"], "winner": 1}), 403,
                          "forbidden")
        wp.assert_problem(org.req("POST", path, {"game": other, "winner": 0}), 404,
                          "game-not-found")
        wp.assert_problem(org.req("POST", path, {"game": first["game"]}), 400,
                          "invalid-request")
        wp.assert_problem(org.req("POST", path, {"game": first["game"], "winner": 2}), 400,
                          "invalid-request")
        self.assertEqual(self.state(), before)
        r = org.req("POST", path, {"game": first["game"], "winner": 1})
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json()["result"], {"winners": [1], "draw": False,
                                              "reason": "adjudication"})
        wp.assert_problem(org.req("POST", path, {"game": first["game"], "winner": 0}), 409,
                          "game-over")
        self.assertEqual(org.req("POST", path, {"game": second["game"], "winner": None}).status,
                         200)
        # A post of the organiser in the match's log, verified like any other.
        exp = self.a.request("GET", "/api/games/%d/export" % first["game"])
        log = exp.json()["posts"]
        last = log[-1]
        self.assertEqual((last["kind"], last["seat"]), ("adjudication", None))
        self.assertEqual(last["actions"]["winner"], 1)
        self.assertEqual(last["actions"]["by"], {"id": org.id, "name": "AdjOrg"})
        rep = self.a.request("GET", "/api/games/%d/verify" % first["game"]).json()
        self.assertTrue(rep["verified"], rep)
        t = self.get(org, tid)
        pts = {s["player"]["id"]: s["points"] for s in t["standings"]}
        winner = first["players"][1]
        self.assertEqual(pts[winner], 1 + (0.5 if winner in second["players"] else 0))
        drawn = {x["players"][0]: x["places"] for x in t["tables"] if x["game"] == second["game"]}
        self.assertEqual(list(drawn.values()), [[1, 1]])

    def test_withdrawal_after_the_start_forfeits_the_rest(self):
        org = ml.Client(self.a, "WfOrg")
        p = self.players(3, "wf")
        tid, games = self.started_round_robin(org, p)
        ids = [c.id for c in p]
        clients = self.by_id(p)
        played = next(x for x in games if set(x["players"]) == {ids[0], ids[1]})
        self.finish(played, clients, played["players"].index(ids[0]))
        r = p[2].req("POST", "/api/tournaments/%d/leave" % tid)
        self.assertEqual(r.status, 200, r)
        t = wp.wait_until(lambda: (lambda d: d if d["status"] == "over" else None)(
            self.get(org, tid)), WAIT)
        self.assertTrue(t, "every match ended: the event is over")
        pts = {s["player"]["id"]: s["points"] for s in t["standings"]}
        self.assertEqual(pts, {ids[0]: 2, ids[1]: 1, ids[2]: 0})
        self.assertTrue(next(s for s in t["standings"] if s["player"]["id"] == ids[2])
                        ["withdrawn"])
        for x in t["tables"]:
            if x["game"] and ids[2] in x["players"]:
                log = self.a.request("GET", "/api/games/%d/export" % x["game"]).json()["posts"]
                self.assertEqual((log[-1]["kind"], log[-1]["seat"]),
                                 ("resign", x["players"].index(ids[2])))

    # ------------------------------------------------------------- ladder

    def test_ladder_challenge_won_then_one_forfeited(self):
        org = ml.Client(self.a, "LadOrg")
        p = self.players(5, "lad")   # places 1..5 in joining order
        tid = self.create(org, kind="ladder", reach=2, accept_days=3, max_players=6)
        for c in p:
            self.assertEqual(self.join(c, tid).status, 200)
        self.assertEqual(org.req("POST", "/api/tournaments/%d/start" % tid).status, 200)
        late = ml.Client(self.a, "lad6")   # a ladder stands: one joins at its foot
        self.assertEqual(self.join(late, tid).status, 200)
        order = lambda: [s["player"]["id"] for s in self.get(org, tid)["standings"]]
        ids = [c.id for c in p] + [late.id]
        self.assertEqual(order(), ids)
        path = "/api/tournaments/%d/challenges" % tid
        before = self.state()
        wp.assert_problem(p[4].req("POST", path, {"player": ids[1]}), 403, "forbidden")
        wp.assert_problem(org.req("POST", path, {"player": ids[1]}), 403, "not-a-player")
        self.assertEqual(self.state(), before)
        # 5th challenges 3rd (two above), 3rd accepts and loses: they swap.
        r = p[4].req("POST", path, {"player": ids[2]})
        self.assertEqual(r.status, 200, r)
        ch = r.json()["challenges"][0]
        self.assertEqual((ch["challenger"], ch["challenged"], ch["status"]),
                         (ids[4], ids[2], "pending"))
        wp.assert_problem(p[3].req("POST", path, {"player": ids[2]}), 409, "tournament-closed")
        wp.assert_problem(p[4].req("POST", "%s/%d/accept" % (path, ch["id"])), 403, "forbidden")
        r = p[2].req("POST", "%s/%d/accept" % (path, ch["id"]))
        self.assertEqual(r.status, 200, r)
        game = r.json()["challenges"][0]["game"]
        self.assertEqual(p[2].req("POST", "/api/games/%d/resign" % game).status, 200)
        self.assertTrue(wp.wait_until(lambda: order()[2] == ids[4], WAIT), "no swap")
        self.assertEqual(order(), [ids[0], ids[1], ids[4], ids[3], ids[2], ids[5]])
        self.assertEqual(self.get(org, tid)["challenges"][0]["status"], "done")
        # 2nd challenges 1st, who lets it lapse: forfeited, they swap.
        r = p[1].req("POST", path, {"player": ids[0]})
        cid = r.json()["challenges"][0]["id"]
        self.db.psql("UPDATE ladder_challenges SET deadline = now() - interval '1 second'"
                     " WHERE id = %d" % cid)
        self.assertTrue(wp.wait_until(lambda: order()[0] == ids[1], WAIT), "not forfeited")
        t = self.get(org, tid)
        self.assertEqual((t["challenges"][0]["status"], t["challenges"][0]["swapped"]),
                         ("forfeited", True))
        wp.assert_problem(p[0].req("POST", "%s/%d/accept" % (path, cid)), 409,
                          "tournament-closed")

    # ------------------------------------------------------- long-poll

    def test_etag_and_long_poll_woken_by_another_instance(self):
        org = ml.Client(self.a, "PollOrg")
        tid = self.create(org, kind="round_robin")
        r = org.req("GET", "/api/tournaments/%d" % tid)
        etag = r.headers["etag"]
        self.assertEqual(org.req("GET", "/api/tournaments/%d" % tid,
                                 headers={"If-None-Match": etag}).status, 304)
        joiner = ml.Client(self.b, "PollJoiner")
        out = []
        import threading
        th = threading.Thread(target=lambda: out.append(org.req(
            "GET", "/api/tournaments/%d?wait=30" % tid, headers={"If-None-Match": etag},
            timeout=40)))
        th.start()
        wp.wait_until(lambda: False, 0.3)   # let the poll be held first (not asserted)
        self.assertEqual(self.join(joiner, tid).status, 200)
        th.join(40)
        self.assertEqual(out[0].status, 200, out[0])
        self.assertEqual([x["id"] for x in out[0].json()["players"]], [joiner.id])

    # ------------------------------------------------------- bad input

    def test_bad_input_is_a_problem_and_changes_nothing(self):
        org = ml.Client(self.a, "BadOrg")
        x, y, z = self.players(3, "bad")
        tid = self.create(org, kind="swiss", rounds=1, max_players=2, code="s3cret")
        before = self.state()
        for body in [{"kind": "swiss", "rounds": 9, "max_players": 4},
                     {"kind": "swiss", "max_players": 4},
                     {"kind": "knockout"},
                     {"kind": "round_robin", "seats": 3},
                     {"kind": "round_robin", "max_players": 33},
                     {"kind": "ladder", "reach": 0},
                     {"kind": "round_robin", "min_players": 5, "max_players": 4},
                     {"kind": "round_robin", "name": ""},
                     {"kind": "round_robin", "name": "   "},
                     {"kind": "round_robin", "name": "Spring \u202eCup"},
                     {"kind": "round_robin", "starts_at": "next tuesday"}]:
            wp.assert_problem(self.create(org, 400, **body), 400, "invalid-request")
        wp.assert_problem(self.join(x, tid), 403, "invalid-invitation")
        wp.assert_problem(self.join(x, tid, {"code": "wrong"}), 403, "invalid-invitation")
        wp.assert_problem(self.join(x, 999999), 404, "tournament-not-found")
        self.assertEqual(self.state(), before)
        self.assertEqual(self.join(x, tid, {"code": "s3cret"}).status, 200)
        self.assertEqual(self.join(y, tid, {"code": "s3cret"}).status, 200)
        before = self.state()
        wp.assert_problem(self.join(x, tid, {"code": "s3cret"}), 409, "already-seated")
        wp.assert_problem(self.join(z, tid, {"code": "s3cret"}), 409, "tournament-closed")
        wp.assert_problem(x.req("POST", "/api/tournaments/%d/start" % tid), 403, "forbidden")
        wp.assert_problem(x.req("DELETE", "/api/tournaments/%d/players/%d" % (tid, y.id)),
                          403, "forbidden")
        wp.assert_problem(org.req("GET", "/api/tournaments/%d/export" % tid), 409,
                          "tournament-closed")
        self.assertEqual(self.state(), before)
        # The code is the organiser's to see.
        self.assertIsNone(self.get(x, tid)["code"])
        self.assertEqual(self.get(org, tid)["code"], "s3cret")
        # The organiser removes a player before the start.
        r = org.req("DELETE", "/api/tournaments/%d/players/%d" % (tid, y.id))
        self.assertEqual(r.status, 200, r)
        self.assertEqual([p["id"] for p in r.json()["players"]], [x.id])
        self.assertEqual(self.join(z, tid, {"code": "s3cret"}).status, 200)
        self.assertEqual(org.req("POST", "/api/tournaments/%d/start" % tid).status, 200)
        before = self.state()
        wp.assert_problem(self.join(y, tid, {"code": "s3cret"}), 409, "tournament-closed")
        wp.assert_problem(org.req("POST", "/api/tournaments/%d/start" % tid), 409,
                          "tournament-closed")
        wp.assert_problem(org.req("DELETE", "/api/tournaments/%d/players/%d" % (tid, z.id)),
                          409, "tournament-closed")
        self.assertEqual(self.state(), before)

    # ------------------------------------------------------- exactly once

    def test_two_instances_race_to_start_one_event(self):
        """The event starts by its date once its fourth player joins: both
        instances' workers hear of it at once; one starts it."""
        org = ml.Client(self.a, "RaceOrg")
        p = self.players(4, "race")
        for attempt in range(5):
            tid = self.create(org, kind="round_robin", min_players=4, max_players=4,
                              starts_at="2000-01-01T00:00:00Z")
            for c in p:
                self.assertEqual(self.join(c, tid).status, 200)
            t = wp.wait_until(lambda: (lambda d: d if d["status"] == "running" else None)(
                self.get(org, tid)), WAIT)
            self.assertTrue(t, "the event did not start by its date")
            self.assertEqual(self.rows("SELECT count(*) FROM tournament_rounds WHERE"
                                       " tournament_id = %d" % tid), "3")
            self.assertEqual(self.rows("SELECT count(*) FROM tournament_tables WHERE"
                                       " tournament_id = %d" % tid), "6")
            self.assertEqual(self.rows(
                "SELECT count(*) FROM games g WHERE g.created_by = %d AND NOT EXISTS"
                " (SELECT 1 FROM tournament_tables x WHERE x.game_id = g.id)" % org.id), "0")
            self.assertEqual(self.rows(
                "SELECT count(*) FROM games g JOIN tournament_tables x ON x.game_id = g.id"
                " WHERE x.tournament_id = %d" % tid), "6")


class TournamentClockTest(ml.ClockTestCase):
    """An event's matches keep the ordinary clocks: a timeout claimed ends
    the match, a loss for the seat out of time, and the standings count
    it (the test server's clock, moved by set_time, never by sleeping)."""

    clock_start = calendar.timegm((2030, 1, 7, 0, 0, 0))   # a Monday
    clock_env = {"NOTIFY_POLL_MS": "50"}

    def test_a_timeout_claimed_counts_as_a_loss(self):
        mon = self.clock_start
        org, a, b = (ml.Client(self.server, n) for n in ("ClkOrg", "ClkA", "ClkB"))
        r = org.req("POST", "/api/tournaments", {
            "ruleset": ml.RULESET, "name": "Timed", "kind": "round_robin",
            "time_control": {"days_per_move": 2}})
        tid = r.json()["id"]
        for c in (a, b):
            self.assertEqual(c.req("POST", "/api/tournaments/%d/join" % tid).status, 200)
        t = org.req("POST", "/api/tournaments/%d/start" % tid).json()
        game = t["tables"][0]["game"]
        seats = {c.id: c for c in (a, b)}
        first, second = (seats[i] for i in t["tables"][0]["players"])
        self.assertEqual(first.view(game).json()["time_control"]["days_per_move"], 2)
        self.set_time(mon + 2 * 86400)
        r = second.req("POST", "/api/games/%d/claim" % game)
        self.assertEqual(r.status, 200, r)
        done = wp.wait_until(lambda: (lambda d: d if d["status"] == "over" else None)(
            org.req("GET", "/api/tournaments/%d" % tid).json()), WAIT)
        self.assertTrue(done, "the event did not end")
        pts = {s["player"]["id"]: s["points"] for s in done["standings"]}
        self.assertEqual(pts, {second.id: 1, first.id: 0})


class TournamentKillTest(unittest.TestCase):
    """kill -9 of the instance that is pairing, inside its transaction."""

    def test_kill_during_pairing_loses_and_doubles_nothing(self):
        pg = wp.PgCluster.shared()
        db = pg.create_database()
        self.addCleanup(db.drop)
        tmp = wp.make_tmpdir("wp-tourn-")
        self.addCleanup(wp.remove_tmpdir, tmp)
        hold = os.path.join(tmp, "pairing")
        plain = wp.Server(db.url).start()
        self.addCleanup(plain.stop)
        org = ml.Client(plain, "KillOrg")
        p = [ml.Client(plain, "kill%d" % i) for i in range(4)]
        r = org.req("POST", "/api/tournaments", {"ruleset": ml.RULESET, "name": "K",
                                                 "kind": "round_robin", "min_players": 4,
                                                 "max_players": 4})
        tid = r.json()["id"]
        for c in p:
            self.assertEqual(c.req("POST", "/api/tournaments/%d/join" % tid).status, 200)
        plain.stop()
        held = wp.Server(db.url, env={"WP_TEST_TOURNAMENT_PAIR_FILE": hold,
                                      "NOTIFY_POLL_MS": "50"}).start()
        db.psql("UPDATE tournaments SET starts_at = now() WHERE id = %d" % tid)
        self.assertTrue(wp.wait_until(lambda: os.path.exists(hold), WAIT),
                        "the worker did not start pairing")
        held.kill()
        os.remove(hold)
        self.assertEqual(db.psql("SELECT (SELECT count(*) FROM tournament_rounds) || '/' ||"
                                 " (SELECT count(*) FROM games) || '/' ||"
                                 " (SELECT status FROM tournaments)").strip(), "0/0/open")
        again = wp.Server(db.url, env={"NOTIFY_POLL_MS": "50"}).start()
        self.addCleanup(again.stop)
        self.assertTrue(wp.wait_until(lambda: db.psql(
            "SELECT status FROM tournaments").strip() == "running", WAIT))
        self.assertEqual(db.psql("SELECT (SELECT count(*) FROM tournament_rounds) || '/' ||"
                                 " (SELECT count(*) FROM games) || '/' ||"
                                 " (SELECT count(*) FROM tournament_tables)").strip(),
                         "3/6/6")


if __name__ == "__main__":
    unittest.main()
