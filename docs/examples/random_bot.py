#!/usr/bin/env python3
"""A Warpost bot in one file, Python's standard library only: it signs up,
marks its account a bot (PATCH /api/me), follows its event stream
(GET /api/me/events, Server-Sent Events: one `games` event, the player's
matches as GET /api/me/games lists them, whenever one changes) and plays a
uniformly random legal action wherever it is awaited, in every ruleset and
every phase (army building, deployment, reactions): GET
/api/games/{id}/actions lists them, POST /api/games/{id}/turns posts one
with the `seq` it was chosen at and an Idempotency-Key, so a retried post
is never applied twice. Draw offers are declined.

    python3 random_bot.py --server http://127.0.0.1:8080 --name "Random bot"
    python3 random_bot.py --server URL --computer wargame-chess --level 1 --max-posts 100

--computer RULESET starts a match against the server's computer player
(that ruleset, --level) first; --max-posts resigns every match still in
play after that many posts of ours and stops; --token reuses an account.
It prints one JSON line at the end: {"player": id, "games": [ids]}.
README "Playing the computer and writing a bot" explains the API it uses.
"""
import argparse
import http.client
import json
import random
import sys
import time
import urllib.parse
import uuid


class Api:
    def __init__(self, base, token=None):
        u = urllib.parse.urlsplit(base)
        self.host, self.port = u.hostname, u.port or (443 if u.scheme == "https" else 80)
        self.https = u.scheme == "https"
        self.token = token

    def conn(self, timeout=30):
        cls = http.client.HTTPSConnection if self.https else http.client.HTTPConnection
        return cls(self.host, self.port, timeout=timeout)

    def headers(self, extra=None):
        h = {"Accept": "application/json"}
        if self.token:
            h["Authorization"] = "Bearer " + self.token
        h.update(extra or {})
        return h

    def call(self, method, path, body=None, extra=None):
        """(status, JSON body or None); retries a dropped connection once."""
        data = json.dumps(body).encode() if body is not None else None
        h = self.headers(extra)
        if data is not None:
            h["Content-Type"] = "application/json"
        for attempt in range(3):
            c = self.conn()
            try:
                c.request(method, path, data, h)
                r = c.getresponse()
                raw = r.read()
                if r.status == 429 or r.status == 503:
                    time.sleep(float(r.getheader("Retry-After") or 1))
                    continue
                try:
                    return r.status, json.loads(raw) if raw else None
                except ValueError:
                    return r.status, None
            except (OSError, http.client.HTTPException):
                if attempt == 2:
                    raise
                time.sleep(1)
            finally:
                c.close()
        return 503, None

    def events(self, last_id):
        """Yields (id, data) of GET /api/me/events as a stream, from last_id."""
        c = self.conn(timeout=90)
        h = self.headers({"Accept": "text/event-stream"})
        if last_id is not None:
            h["Last-Event-ID"] = str(last_id)
        try:
            c.request("GET", "/api/me/events", headers=h)
            r = c.getresponse()
            if r.status != 200:
                r.read()
                time.sleep(1)
                return
            ev_id, data = last_id, []
            while True:
                line = r.readline()
                if not line:
                    return
                line = line.decode("utf-8").rstrip("\r\n")
                if line == "":
                    if data:
                        yield ev_id, "\n".join(data)
                    data = []
                elif line.startswith("id:"):
                    ev_id = line[3:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].lstrip(" "))
        except (OSError, http.client.HTTPException):
            time.sleep(1)
        finally:
            c.close()


class RandomBot:
    def __init__(self, api, rng, max_posts):
        self.api, self.rng, self.max_posts = api, rng, max_posts
        self.posts, self.games = 0, set()

    def play(self, game):
        """Posts random legal actions while this seat is awaited in game."""
        while self.posts < self.max_posts:
            status, a = self.api.call("GET", "/api/games/%d/actions" % game)
            if status != 200 or not a or not a.get("actions"):
                return
            action = self.rng.choice(a["actions"])
            key = "random-bot-%d-%d-%s" % (game, a["seq"], uuid.uuid4().hex[:8])
            status, _ = self.api.call("POST", "/api/games/%d/turns" % game,
                                      {"seq": a["seq"], "actions": [action]},
                                      {"Idempotency-Key": key})
            if status == 200:
                self.posts += 1
            elif status != 409:     # stale: read the actions again
                print("turn refused (%d) in match %d" % (status, game), file=sys.stderr)
                return

    def answer(self, doc):
        """Every match of the `games` event that waits for us."""
        for g in doc.get("games", []):
            self.games.add(g["id"])
            if g["status"] != "active":
                continue
            _, v = self.api.call("GET", "/api/games/%d" % g["id"])
            if v and v.get("draw_offers") and g["seat"] not in v["draw_offers"]:
                self.api.call("POST", "/api/games/%d/draw" % g["id"], {"action": "decline"})
            if g["awaiting_you"]:
                self.play(g["id"])

    def active(self):
        _, doc = self.api.call("GET", "/api/me/games")
        return [g["id"] for g in (doc or {}).get("games", []) if g["status"] in ("open", "active")]

    def run(self, stop_when_idle):
        last = None
        while self.posts < self.max_posts:
            for last, data in self.api.events(last):
                self.answer(json.loads(data))
                if self.posts >= self.max_posts:
                    break
                if stop_when_idle and self.games and not self.active():
                    return
        for game in self.active():    # the cap: leave what is still played
            self.api.call("POST", "/api/games/%d/resign" % game)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--server", default="http://127.0.0.1:8080")
    ap.add_argument("--name", default="Random bot")
    ap.add_argument("--token", help="an existing account's token (else a new account)")
    ap.add_argument("--computer", metavar="RULESET", help="first start a match against the computer")
    ap.add_argument("--level", type=int, default=1)
    ap.add_argument("--max-posts", type=int, default=10 ** 9)
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()

    api = Api(args.server, args.token)
    if not api.token:
        status, me = api.call("POST", "/api/players", {"name": args.name})
        if status != 201:
            sys.exit("sign-up refused: %s %s" % (status, me))
        api.token = me["token"]
        print("token: %s" % api.token, file=sys.stderr)
    status, me = api.call("PATCH", "/api/me", {"bot": True})
    if status != 200:
        sys.exit("could not become a bot: %s %s" % (status, me))
    if args.computer:
        status, g = api.call("POST", "/api/games", {
            "ruleset": args.computer, "seat": 0, "bots": [{"seat": 1, "level": args.level}]})
        if status != 201:
            sys.exit("match refused: %s %s" % (status, g))
    bot = RandomBot(api, random.Random(args.seed), args.max_posts)
    bot.run(stop_when_idle=bool(args.computer))
    print(json.dumps({"player": me["id"], "games": sorted(bot.games), "posts": bot.posts}))


if __name__ == "__main__":
    main()
