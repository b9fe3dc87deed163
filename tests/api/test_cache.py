"""Issue 17 "Performance": the conditional GET from memory and the turn in
one round trip (srv/store/cache.c, wp_db_post_commit).

Two warpostd on one database. A GET /api/games/{id} whose If-None-Match
names the current ETag is answered 304 with no statement run
(warpost_db_queries_total does not move), for a seat and for a spectator;
the tag and the refusals are those the database would give: a private
match is "not found" to whoever is not seated, a spectator held behind
gets the tag of the post it sees, and no viewer is answered from another
viewer's tag (RULINGS.md G5). A write through one instance is seen at once
by that instance (its own commit forgets the match) and by the other once
its NOTIFY arrives (the long-poll it wakes reads the new version). A token
unknown is refused at once; a token taken away in the database is refused
by every write at once (which asks the database, and drops it from the
token cache), and by reads at the latest when its short lifetime ends.

A turn made from a warm cache is one statement (guarded update and post;
the Idempotency-Key's answer in it), and its NOTIFY goes out
from the LISTEN connection with other writers' (srv/store/tell.c); when another
instance moved first its guard fails and the transaction decides from the
database: each turn is written once, a retry through either instance gets
the first answer."""
import secrets
import threading
import time
import unittest

import matchlib as ml
from matchlib import wp




def queries(server):
    return wp.metric(server, "warpost_db_queries_total")


def lookups(server):
    return wp.metric(server, "warpost_token_lookups_total")


def told(server):
    return wp.metric(server, "warpost_changes_told_total")


def told_settled(server, timeout=10.0):
    """told(server) once the changes already committed have been told: the
    LISTEN thread tells a commit a few milliseconds after it, so a count
    read at once can miss the last one (and told_since then counts it)."""
    deadline = time.monotonic() + timeout
    n = told(server)
    while time.monotonic() < deadline:
        time.sleep(0.2)
        m = told(server)
        if m == n:
            return n
        n = m
    return n


def told_since(server, before, timeout=10.0):
    """The changes this instance told (NOTIFY) since before, once at least
    one more was: the LISTEN thread sends them a few milliseconds after
    the commit, not before the answer."""
    deadline = time.monotonic() + timeout
    while True:
        n = told(server) - before
        if n > 0 or time.monotonic() > deadline:
            return n
        time.sleep(0.01)


def get(server, game, who=None, headers=None):
    h = dict(headers or {})
    if who is not None:
        h.update(ml.auth(who.token))
    return server.request("GET", "/api/games/%d" % game, headers=h)


def from_memory(server, game, etag, who=None):
    """A 304 with no statement run: the match and the player are held (the
    first conditional GET may load them; each try is one GET)."""
    def warm():
        before = queries(server)
        r = get(server, game, who, {"If-None-Match": etag})
        assert r.status == 304, r
        assert r.headers["etag"] == etag, r
        return queries(server) == before
    return wp.wait_until(warm, 10, 0.05)


class CacheTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.pg = wp.PgCluster.shared()
        cls.db = cls.pg.create_database()
        cls.addClassCleanup(cls.db.drop)
        # The statements counted are the requests' own: the notification
        # worker, which looks for due deliveries every NOTIFY_POLL_MS,
        # looks once at the start and then sleeps (no match here has
        # subscribers to wake it).
        quiet = {"NOTIFY_POLL_MS": "600000"}
        cls.a = wp.Server(cls.db.url, env=quiet).start()
        cls.addClassCleanup(cls.a.stop)
        cls.b = wp.Server(cls.db.url, env=quiet).start()
        cls.addClassCleanup(cls.b.stop)

    def start(self, *names, **watch):
        players = [ml.Client(self.a, n) for n in names]
        body = {"ruleset": ml.RULESET, "seats": len(players), "seat": 0}
        body.update(watch)
        r = players[0].req("POST", "/api/games", body)
        self.assertEqual(r.status, 201, r)
        g = r.json()
        for p, inv in zip(players[1:], g["invitations"]):
            self.assertEqual(p.join(g["id"], inv["code"]).status, 200)
        return [g["id"]] + players

    def play(self, player, game):
        acts = player.actions(game)
        r = player.turn(game, acts["seq"], [acts["actions"][0]])
        self.assertEqual(r.status, 200, r)
        return r.json()

    def test_304_from_memory_and_own_write_seen_at_once(self):
        game, ann, ben = self.start("Ann", "Ben")
        etag = get(self.a, game, ann).headers["etag"]
        self.assertTrue(from_memory(self.a, game, etag, ann), "a seat's 304 ran no statement")
        spect = get(self.a, game).headers["etag"]
        self.assertNotEqual(spect, etag)
        self.assertTrue(from_memory(self.a, game, spect), "a spectator's 304 ran no statement")
        # Ann's turn through A: A's next conditional GET sees it, with no
        # wait for the NOTIFY (the commit forgot the match).
        turn = self.play(ann, game)
        r = get(self.a, game, ann, {"If-None-Match": etag})
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json()["version"], turn["version"])
        self.assertEqual(get(self.a, game, None, {"If-None-Match": spect}).status, 200)

    def test_another_instances_write_wakes_and_invalidates(self):
        game, ann, ben = self.start("Ann", "Ben")
        # A spectator waits on B: only the NOTIFY can tell B its copy is old.
        etag = get(self.b, game).headers["etag"]
        self.assertTrue(from_memory(self.b, game, etag), "B holds the match")
        got = {}

        def waiter():
            got["r"] = self.b.request("GET", "/api/games/%d?wait=20" % game,
                                      headers={"If-None-Match": etag}, timeout=30)
        t = threading.Thread(target=waiter)
        t.start()
        turn = self.play(ann, game)
        t.join(25)
        self.assertEqual(got["r"].status, 200, "B's long-poll woke and was not held from memory")
        self.assertEqual(got["r"].json()["version"], turn["version"])
        new = got["r"].headers["etag"]
        self.assertTrue(from_memory(self.b, game, new))
        self.assertEqual(get(self.b, game, None, {"If-None-Match": etag}).status, 200)
        # Ben, through B, sees Ann's turn and his own at once.
        ben_etag = get(self.b, game, ben).headers["etag"]
        self.assertTrue(from_memory(self.b, game, ben_etag, ben))
        b_ben = ml.Client.__new__(ml.Client)
        b_ben.__dict__.update(ben.__dict__, server=self.b)
        self.play(b_ben, game)
        self.assertEqual(get(self.b, game, ben, {"If-None-Match": ben_etag}).status, 200)

    def test_private_and_delayed_as_from_the_database(self):
        game, ann, ben = self.start("Ann", "Ben", spectators="private")
        cid = ml.Client(self.a, "Cid")
        etag = get(self.a, game, ann).headers["etag"]
        self.assertTrue(from_memory(self.a, game, etag, ann))
        self.assertEqual(get(self.a, game, cid).status, 404)   # Cid's token now known
        none = get(self.a, 99999999).json()
        for who in (cid, None):
            for _ in range(2):
                before = queries(self.a)
                r = get(self.a, game, who, {"If-None-Match": etag})
                wp.assert_problem(r, 404, "game-not-found")
                self.assertEqual(r.json()["detail"].replace(str(game), "N"),
                                 none["detail"].replace("99999999", "N"))
            self.assertEqual(queries(self.a), before, "refused from memory")
        # Held three posts behind: the spectator's tag is the post it sees,
        # the same from memory as from the database, and a post it may not
        # see yet changes nothing it is told.
        game, ann, ben = self.start("Ann", "Ben", spectators="open", spectator_delay=3)
        first = get(self.a, game)
        self.assertEqual(first.json()["seq"], 1)
        self.assertTrue(from_memory(self.a, game, first.headers["etag"]))
        self.play(ann, game)
        self.assertTrue(from_memory(self.a, game, first.headers["etag"]),
                        "a later post it may not see: still 304, the same tag")
        self.assertEqual(get(self.b, game).headers["etag"], first.headers["etag"])

    def test_no_viewer_answered_from_another_viewers_tag(self):
        game, ann, ben = self.start("Ann", "Ben")
        cid = ml.Client(self.a, "Cid")
        etag = get(self.a, game, ann).headers["etag"]
        self.assertTrue(from_memory(self.a, game, etag, ann))
        unknown = {"Authorization": "Bearer " + secrets.token_hex(32), "If-None-Match": etag}
        wp.assert_problem(get(self.a, game, None, unknown), 401, "unauthorized")
        wp.assert_problem(get(self.a, game, None, {"Authorization": "Bearer x",
                                                  "If-None-Match": etag}), 401, "unauthorized")
        for who in (ben, cid, None):
            get(self.a, game, who)     # each viewer known to the caches
            r = get(self.a, game, who, {"If-None-Match": etag})
            self.assertEqual(r.status, 200, "another viewer's ETag is not theirs")
            self.assertNotEqual(r.headers["etag"], etag)

    def test_the_first_turn_after_the_start_is_one_batch(self):
        """The join that fills the last seat writes the start post and keeps
        the match as it left it: the first turn, with nothing read between,
        is one batch."""
        game, ann, ben = self.start("Ann", "Ben")
        before, told_before = queries(self.a), told(self.a)
        r = ann.turn(game, 1, [{"type": "move", "from": "d1", "to": "d2"}])
        self.assertEqual(r.status, 200, r)
        self.assertEqual(queries(self.a) - before, 1, "guarded update and post, one statement")
        self.assertGreaterEqual(told_since(self.a, told_before), 1,
                                "and its NOTIFY, from the LISTEN thread")

    def test_warm_turn_is_one_batch(self):
        game, ann, ben = self.start("Ann", "Ben")
        etag = get(self.a, game, ann).headers["etag"]
        self.assertTrue(from_memory(self.a, game, etag, ann))
        acts = ann.actions(game)
        self.assertTrue(from_memory(self.a, game, etag, ann))
        before, told_before = queries(self.a), told(self.a)
        r = ann.turn(game, acts["seq"], [acts["actions"][0]])
        self.assertEqual(r.status, 200, r)
        self.assertEqual(queries(self.a) - before, 1, "guarded update and post, one statement")
        self.assertGreaterEqual(told_since(self.a, told_before), 1,
                                "and its NOTIFY, from the LISTEN thread")
        # The match after it stays held: Ben's turn is one batch too, with
        # its key's answer in it, and the views agree with the answers.
        acts = ben.actions(game)
        before = queries(self.a)
        r2 = ben.turn(game, acts["seq"], [acts["actions"][0]], key="k-" + secrets.token_hex(4))
        self.assertEqual(r2.status, 200, r2)
        self.assertEqual(queries(self.a) - before, 1, "and the Idempotency-Key's answer in it")
        view = get(self.a, game, ann).json()
        self.assertEqual((view["seq"], view["version"]), (r2.json()["seq"], r2.json()["version"]))
        self.assertEqual(get(self.b, game, ben).json()["version"], r2.json()["version"])
        # A change the cache cannot hear of (no NOTIFY): the guard fails,
        # nothing of the batch is written, the transaction decides.
        acts = ann.actions(game)
        self.db.psql("UPDATE games SET version = version + 1 WHERE id = %d" % game)
        before = queries(self.a)
        r3 = ann.turn(game, acts["seq"], [acts["actions"][0]])
        self.assertEqual(r3.status, 200, r3)
        self.assertGreater(queries(self.a) - before, 1, "the statement, then the transaction")
        self.assertEqual(r3.json()["version"], r2.json()["version"] + 2)
        self.assertEqual(get(self.b, game, ben).json()["version"], r3.json()["version"])
        posts = self.db.psql("SELECT count(*) FROM posts WHERE game_id = %d" % game)
        self.assertEqual(int(posts), r3.json()["seq"], "each post written once")

    def test_a_held_match_parses_no_snapshot(self):
        """Issue 32: the ruleset state is kept beside the held match at its
        version, so turns, views and action lists of a held match load no
        snapshot (warpost_rules_state_loads_total stands still); the first
        read of a match not held loads one; a refused action (which may
        change the state part way) costs the next request one load, and
        what is answered after it is what the database holds."""
        game, ann, ben = self.start("Ann", "Ben")
        loads = lambda: wp.metric(self.a, "warpost_rules_state_loads_total")  # noqa: E731
        etag = get(self.a, game, ann).headers["etag"]
        self.assertTrue(from_memory(self.a, game, etag, ann))
        ann.actions(game)
        before = loads()
        for who in (ann, ben, ann, ben):
            self.play(who, game)
            self.assertEqual(get(self.a, game, ann).status, 200)
        self.assertEqual(loads(), before, "no snapshot parsed for a held match")
        acts = ann.actions(game)
        bad = ann.turn(game, acts["seq"], [{"type": "move", "from": "a1", "to": "h8"}])
        self.assertEqual(bad.status, 422, bad)
        self.play(ann, game)
        self.assertEqual(loads(), before + 1, "the refused one's state was not kept")
        # What this instance answers is what the other, cold, reads.
        mine = get(self.a, game, ben).json()
        theirs = get(self.b, game, ben).json()
        self.assertEqual(mine["state"], theirs["state"])
        self.assertEqual(mine["version"], theirs["version"])
        # The log replays to what was stored (verify, of the match ended).
        self.assertEqual(ann.req("POST", "/api/games/%d/resign" % game).status, 200)
        v = self.a.request("GET", "/api/games/%d/verify" % game).json()
        self.assertTrue(v["verified"], v)

    def test_a_refusal_from_memory_runs_the_ruleset_once(self):
        """Issue 26, "write.c": an illegal turn made from the cache is
        refused from it once the database says the match is still at that
        version (and the token still the player's, the key unused): one
        statement and one run of the ruleset, not the transaction that
        decides it all again. The refusal is the one the transaction gives."""
        game, ann, ben = self.start("Ann", "Ben")
        etag = get(self.a, game, ann).headers["etag"]
        self.assertTrue(from_memory(self.a, game, etag, ann))
        bad = [{"type": "move", "from": "d1", "to": "d7"}]
        before = (queries(self.a), wp.metric(self.a, "warpost_rules_applies_total"),
                  wp.metric(self.a, "warpost_rules_state_loads_total"))
        r = ann.turn(game, 1, bad)
        self.assertEqual(r.status, 422, r)
        after = (queries(self.a), wp.metric(self.a, "warpost_rules_applies_total"),
                 wp.metric(self.a, "warpost_rules_state_loads_total"))
        self.assertEqual([a - b for a, b in zip(after, before)], [1, 1, 0],
                         "one statement, one apply, and no state loaded: the first view's"
                         " is kept beside the match (issue 32)")
        # The same refusal from the database (the other instance, cold).
        b_ann = ml.Client.__new__(ml.Client)
        b_ann.__dict__.update(ann.__dict__, server=self.b)
        cold = b_ann.turn(game, 1, bad)
        self.assertEqual((cold.status, cold.json()), (r.status, r.json()))
        # Not the current version: decided again from the database.
        self.db.psql("UPDATE games SET version = version + 1 WHERE id = %d" % game)
        before = queries(self.a)
        again = ann.turn(game, 1, bad)
        self.assertEqual((again.status, again.json()), (r.status, r.json()))
        self.assertGreater(queries(self.a) - before, 1, "the check, then the transaction")

    def test_timed_turn_reads_its_clocks_from_memory(self):
        """A timed match's clocks derive from every post's time and the
        seats' vacations: kept with the match at its version, and after a
        turn its own mark added, so a warm timed turn is one batch as well,
        also right after the other seat's; the clocks shown from memory are
        those the other instance derives from the database."""
        ann, ben = ml.Client(self.a, "Ann"), ml.Client(self.a, "Ben")
        r = ann.req("POST", "/api/games", {"ruleset": ml.RULESET, "seats": 2, "seat": 0,
                                           "time_control": {"days_per_move": 3}})
        self.assertEqual(r.status, 201, r)
        game = r.json()["id"]
        self.assertEqual(ben.join(game, r.json()["invitations"][0]["code"]).status, 200)
        etag = get(self.a, game, ann).headers["etag"]
        self.assertTrue(from_memory(self.a, game, etag, ann))
        # The match is held: a view now keeps the clocks' input with it (the
        # first view's may have been read while the join's NOTIFY was on its
        # way, and then was not kept).
        self.assertEqual(get(self.a, game, ann).status, 200)
        for who in (ann, ben, ann):
            acts = who.actions(game)
            before = queries(self.a)
            r = who.turn(game, acts["seq"], [acts["actions"][0]])
            self.assertEqual(r.status, 200, r)
            self.assertEqual(queries(self.a) - before, 1, "guarded update and post, one statement")

        def clocks(server):
            c = get(server, game, ann).json()["clock"]
            for seat in c["seats"]:
                seat.pop("seconds_left", None)
            return c
        before = queries(self.a)
        mine = clocks(self.a)
        self.assertIsNotNone(mine)
        self.assertEqual(mine, clocks(self.b))
        self.assertEqual(mine, clocks(self.a))
        # A view loads the match and its posts, not the clocks' input.
        self.assertGreater(queries(self.a), before)

    def test_a_vacation_forgets_its_matches_only(self):
        """Issue 26, "Cache bookkeeping at its depth": a vacation gives the
        player's matches in play a new version and forgets those, each told
        (NOTIFY 'id:version') through tell.c like any other change, not the
        whole cache: another match stays held, a 304 from memory."""
        game, ann, ben = self.start("Ann", "Ben")
        other, cat, dan = self.start("Cat", "Dan")
        etag = get(self.a, game, ann).headers["etag"]
        ben_etag = get(self.b, game, ben).headers["etag"]
        other_etag = get(self.a, other, cat).headers["etag"]
        self.assertTrue(from_memory(self.a, other, other_etag, cat))
        self.assertTrue(from_memory(self.b, game, ben_etag, ben))
        # A balance: one day earned every 30 since the account was made.
        self.db.psql("UPDATE players SET created_at = now() - interval '100 days'"
                     " WHERE id = %d" % ann.id)
        told_before = told_settled(self.a)
        r = ann.req("POST", "/api/me/vacation", {"days": 1})
        self.assertEqual(r.status, 201, r)
        self.assertEqual(told_since(self.a, told_before), 1, "its one match in play, told")
        before = queries(self.a)
        r = get(self.a, other, cat, {"If-None-Match": other_etag})
        self.assertEqual(r.status, 304, r)
        self.assertEqual(queries(self.a), before, "another match stays held")
        self.assertNotEqual(get(self.a, game, ann).headers["etag"], etag, "a new version")
        self.assertTrue(wp.wait_until(
            lambda: get(self.b, game, ben, {"If-None-Match": ben_etag}).status == 200, 10, 0.05),
            "the other instance heard of it")

    def test_a_timed_view_reads_no_post_times(self):
        """Issue 26, "The clock re-read on hot paths": a timed match's clock
        input (each post's time, the seats' vacations) comes with its row,
        so a first view of it costs the statements an untimed match's does,
        and shows the clocks the other instance shows."""
        def cold(timed):
            ann, ben = ml.Client(self.a, "Ann"), ml.Client(self.a, "Ben")
            body = {"ruleset": ml.RULESET, "seats": 2, "seat": 0}
            if timed:
                body["time_control"] = {"days_per_move": 3}
            r = ann.req("POST", "/api/games", body)
            self.assertEqual(r.status, 201, r)
            game = r.json()["id"]
            self.assertEqual(ben.join(game, r.json()["invitations"][0]["code"]).status, 200)
            told_before = told(self.a)
            self.play(ann, game)
            # Its NOTIFY heard by B before B reads it: one heard during the
            # read would keep B from keeping what it read (cache.c).
            self.assertGreaterEqual(told_since(self.a, told_before), 1)
            time.sleep(0.3)
            b_ann = ml.Client.__new__(ml.Client)
            b_ann.__dict__.update(ann.__dict__, server=self.b)
            self.assertEqual(b_ann.req("GET", "/api/me").status, 200)   # the token held
            before = queries(self.b)
            view = get(self.b, game, ann)
            self.assertEqual(view.status, 200, view)
            return queries(self.b) - before, view.json()["clock"], game, ann
        untimed, clock, _, _ = cold(False)
        self.assertIsNone(clock)
        timed, clock, game, ann = cold(True)
        self.assertIsNotNone(clock)
        self.assertEqual(timed, untimed, "no statement of its own for the clocks")
        mine = get(self.a, game, ann).json()["clock"]
        for c in (clock, mine):
            for seat in c["seats"]:
                seat.pop("seconds_left", None)
        self.assertEqual(clock, mine)

    def test_a_timed_view_reads_its_clocks_from_the_match_row(self):
        """Issue 26, "The clock re-read on hot paths": the match row keeps
        the fold of its posts' clocks (games.clock, sql/023), so a view
        reads no post times: with the posts' times moved a day back behind
        the server's back, a cold view on the other instance still shows
        the clocks the row says. A row with no fold (a match from before
        sql/023) is read from the posts' times, as before."""
        ann, ben = ml.Client(self.a, "Ann"), ml.Client(self.a, "Ben")
        r = ann.req("POST", "/api/games", {"ruleset": ml.RULESET, "seats": 2, "seat": 0,
                                           "time_control": {"days_per_move": 3}})
        self.assertEqual(r.status, 201, r)
        game = r.json()["id"]
        self.assertEqual(ben.join(game, r.json()["invitations"][0]["code"]).status, 200)
        for who in (ann, ben, ann):
            self.play(who, game)
        fold = self.db.psql("SELECT clock FROM games WHERE id = %d" % game).strip()
        self.assertRegex(fold, r"^\d+;\d+:\d+(;-?\d+:\d+:\d+){2}$")

        def deadlines(server):
            view = get(server, game, ann)
            self.assertEqual(view.status, 200, view)
            return [s["deadline"] for s in view.json()["clock"]["seats"]]
        before = deadlines(self.a)
        self.db.psql("UPDATE posts SET created_at = created_at - interval '1 day'"
                     " WHERE game_id = %d" % game)
        self.assertEqual(deadlines(self.b), before, "the cold view read no post times")
        self.db.psql("UPDATE games SET clock = NULL WHERE id = %d" % game)
        fresh = wp.Server(self.db.url, env={"NOTIFY_POLL_MS": "600000"}).start()
        try:
            after = deadlines(fresh)
        finally:
            fresh.stop()
        self.assertNotEqual(after, before, "no fold: the posts' times tell")
        self.assertEqual(len([d for d in after if d]), 1)

    def test_a_cold_timed_turn_reads_its_clocks_in_one_statement(self):
        """Issue 26, "The clock re-read on hot paths": a turn on an instance
        that does not hold the match (cold) reads a timed match's clock
        input (the posts' times and the seats' vacations) in one statement
        beside what an untimed match's turn costs, not one each."""
        def cold_turn(timed):
            ann, ben = ml.Client(self.a, "Ann"), ml.Client(self.a, "Ben")
            body = {"ruleset": ml.RULESET, "seats": 2, "seat": 0}
            if timed:
                body["time_control"] = {"days_per_move": 3}
            r = ann.req("POST", "/api/games", body)
            self.assertEqual(r.status, 201, r)
            game = r.json()["id"]
            self.assertEqual(ben.join(game, r.json()["invitations"][0]["code"]).status, 200)
            self.play(ann, game)
            acts = ben.actions(game)
            b_ben = ml.Client.__new__(ml.Client)
            b_ben.__dict__.update(ben.__dict__, server=self.b)
            self.assertEqual(b_ben.req("GET", "/api/me").status, 200)   # the token held
            before = queries(self.b)
            r = b_ben.turn(game, acts["seq"], [acts["actions"][0]])
            self.assertEqual(r.status, 200, r)
            return queries(self.b) - before
        untimed, timed = cold_turn(False), cold_turn(True)
        self.assertLessEqual(timed, untimed + 1, "one statement for the clock input")

    def test_spectators_held_behind_share_one_replay(self):
        """A spectator held behind sees the match replayed up to the post it
        may see; that past position never changes, so it is kept: the next
        spectator's view reads no posts, and says what a fresh replay on
        the other instance says."""
        game, ann, ben = self.start("Ann", "Ben", spectators="open", spectator_delay=2)
        for who in (ann, ben, ann, ben):
            self.play(who, game)
        views = []
        for _ in range(2):
            before = queries(self.a)
            r = get(self.a, game)
            self.assertEqual(r.status, 200, r)
            views.append((r.json(), queries(self.a) - before))
        (first, cold), (second, warm) = views
        self.assertEqual(first["seq"], 3)
        self.assertEqual(second, first)
        self.assertEqual(warm, cold - 1, "the same view without reading the posts")
        self.assertEqual(get(self.b, game).json(), first)

    def test_a_change_never_told_is_found_within_seconds(self):
        """A change whose NOTIFY never came (an instance killed between its
        commit and the NOTIFY after it; here, SQL by hand) is found by the
        LISTEN thread's check of the versions held, every 5 s: the cache
        forgets the match and the long-polls waiting on it wake."""
        game, ann, ben = self.start("Ann", "Ben")
        r = get(self.a, game, ann)
        etag, version = r.headers["etag"], r.json()["version"]
        self.assertTrue(from_memory(self.a, game, etag, ann))
        got = {}

        def waiter():
            got["r"] = self.a.request("GET", "/api/games/%d?wait=60" % game,
                                      headers=dict(ml.auth(ann.token), **{"If-None-Match": etag}),
                                      timeout=70)
        t = threading.Thread(target=waiter)
        t.start()
        self.db.psql("UPDATE games SET version = version + 1 WHERE id = %d" % game)
        # Long before the poll's own end (60 s), which would answer anyway.
        t.join(30)
        self.assertFalse(t.is_alive(), "the long-poll was not woken")
        self.assertEqual(got["r"].status, 200, got["r"])
        self.assertEqual(got["r"].json()["version"], version + 1)
        self.assertEqual(get(self.a, game, ann, {"If-None-Match": etag}).status, 200)

    def test_turns_through_both_instances_written_once(self):
        game, ann, ben = self.start("Ann", "Ben")
        b_ben = ml.Client.__new__(ml.Client)
        b_ben.__dict__.update(ben.__dict__, server=self.b)
        b_ann = ml.Client.__new__(ml.Client)
        b_ann.__dict__.update(ann.__dict__, server=self.b)
        for who, server in ((ann, self.a), (ben, self.b), (ann, self.b)):
            etag = get(server, game, who).headers["etag"]
            self.assertTrue(from_memory(server, game, etag, who))
        r1 = self.play(ann, game)
        # Ben through B, then Ann through A at once: A holds the match as
        # its own turn left it and may not have heard of Ben's yet.
        r2 = self.play(b_ben, game)
        acts = ann.actions(game)
        self.assertEqual(acts["seq"], r2["seq"])
        stale = ann.turn(game, r1["seq"], [acts["actions"][0]])
        self.assertEqual(stale.status, 409, stale)
        key = "k-" + secrets.token_hex(4)
        r3 = ann.turn(game, acts["seq"], [acts["actions"][0]], key=key)
        self.assertEqual(r3.status, 200, r3)
        self.assertEqual(r3.json()["version"], r2["version"] + 1)
        for who in (ann, b_ann):
            again = who.turn(game, acts["seq"], [acts["actions"][0]], key=key)
            self.assertEqual((again.status, again.body), (200, r3.body))
            self.assertEqual(again.headers.get("idempotent-replayed"), "true")
        view = get(self.b, game, ben).json()
        self.assertEqual((view["seq"], view["version"]), (r3.json()["seq"], r3.json()["version"]))
        posts = self.db.psql("SELECT count(*) FROM posts WHERE game_id = %d AND kind = 'turn'"
                             % game)
        self.assertEqual(posts.strip(), "3", "each turn written once")

    def test_listen_lost_starts_empty(self):
        """Notifications sent while B's LISTEN connection was down are lost:
        B forgets everything and reads the database again."""
        game, ann, ben = self.start("Ann", "Ben")
        etag = get(self.b, game).headers["etag"]
        self.assertTrue(from_memory(self.b, game, etag))
        sql = ("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'warpostd-listen'"
               " AND datname = current_database()")
        self.assertEqual(self.db.psql(sql).strip(), "2", "A's and B's LISTEN connections")
        pids = "SELECT pid FROM pg_stat_activity WHERE application_name = 'warpostd-listen'" \
               " AND datname = current_database()"
        old = set(self.db.psql(pids).split())
        # A change whose notification B never hears (as if sent while it
        # was away), then both lose their LISTEN connection.
        version = get(self.a, game).json()["version"]
        self.db.psql("UPDATE games SET version = version + 1 WHERE id = %d" % game)
        self.db.psql("SELECT pg_terminate_backend(pid) FROM (%s) x" % pids)
        self.assertTrue(wp.wait_until(
            lambda: len(set(self.db.psql(pids).split()) - old) == 2, 10, 0.05), "reconnected")
        r = get(self.b, game, None, {"If-None-Match": etag})
        self.assertEqual(r.status, 200, "B does not answer from what it held before")
        self.assertEqual(r.json()["version"], version + 1)

    def test_token_taken_away(self):
        game, ann, ben = self.start("Ann", "Ben")
        etag = get(self.a, game, ann).headers["etag"]
        self.assertTrue(from_memory(self.a, game, etag, ann))
        self.db.psql("UPDATE devices SET token_hash = sha256(token_hash) WHERE player_id = %d"
                     % ann.id)
        acts = ben.actions(game)
        r = ann.turn(game, 1, [{"type": "pass"}])
        wp.assert_problem(r, 401, "unauthorized")
        wp.assert_problem(get(self.a, game, ann, {"If-None-Match": etag}), 401, "unauthorized")
        self.assertEqual(ben.actions(game)["seq"], acts["seq"], "nothing changed")

    def test_token_renewed_before_it_ends(self):
        """A token is held 5 s after the database last said whose it is; in
        its last 2 s one read asks the database again and the others are
        answered from memory, so many pollers of one token do not all go to
        the database when it ends (nor all wait on it if it is slow then),
        and a steady poller keeps it held."""
        game, ann, ben = self.start("Ann", "Ben")
        cid = ml.Client(self.a, "Cid")   # a spectator whose token A never read
        n = lookups(self.a)
        r = get(self.a, game, cid)
        t0 = time.monotonic()            # the token held from (just before) now
        self.assertEqual(r.status, 200, r)
        etag = r.headers["etag"]
        self.assertEqual(lookups(self.a), n + 1)

        def poll(k):
            for _ in range(k):
                self.assertEqual(get(self.a, game, cid, {"If-None-Match": etag}).status, 304)
        poll(3)
        self.assertEqual(lookups(self.a), n + 1, "held: no lookup in its first 3 s")
        time.sleep(max(0.0, t0 + 3.5 - time.monotonic()))
        poll(5)
        self.assertEqual(lookups(self.a), n + 2, "one read of five renewed it")
        time.sleep(max(0.0, t0 + 5.5 - time.monotonic()))
        poll(3)
        self.assertEqual(lookups(self.a), n + 2, "renewed: still held after its first 5 s")


if __name__ == "__main__":
    wp.main()
