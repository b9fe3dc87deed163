/* The rounds of a tournament (issue 29): starting an event, pairing and
 * starting a Swiss round, ending the event, and the standings. Pairing
 * and standings are srv/league's pure functions; this file turns the
 * event's JSON (sql/024, wp_tournament_json) into their arrays and their
 * tables into matches, all in the transaction of the caller, which holds
 * the event's row locked: a round is started once, with all its matches,
 * or not at all. The worker that calls it when a round's matches ended
 * is wp_tournament_round (notify/worker.c's loop). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "challenge_store.h"
#include "tournaments.h"

void (*wp_tournament_pair_hook)(void);

/* The event read into league's arrays: players by seed (index 0 the
 * first seed), every table as a result (places 0 while it goes on). */
struct event {
	json_object *t, *players, *tables;
	int n, nres, seats;
	struct wl_result *res;
	int all_ended;
};

static int
index_of(const struct event *ev, int64_t id)
{
	for (int i = 0; i < ev->n; i++)
		if (json_object_get_int64(jget(json_object_array_get_idx(ev->players, i), "id")) == id)
			return i;
	return -1;
}

static int64_t
id_at(const struct event *ev, int i)
{
	return json_object_get_int64(jget(json_object_array_get_idx(ev->players, i), "id"));
}

static void
event_read(struct event *ev, json_object *t)
{
	memset(ev, 0, sizeof(*ev));
	ev->t = t;
	ev->players = jget(t, "players");
	ev->tables = jget(t, "tables");
	ev->n = (int)json_object_array_length(ev->players);
	ev->seats = jint(t, "seats");
	int nt = (int)json_object_array_length(ev->tables);
	ev->res = calloc((size_t)nt + 1, sizeof(*ev->res));
	ev->all_ended = 1;
	/* A round robin's bye is a rest, everyone's once: it scores nothing
	 * (a Swiss bye scores a win, wl_points2). */
	int rests = strcmp(jstr(t, "kind"), "round_robin") == 0;
	for (int k = 0; k < nt; k++) {
		json_object *x = json_object_array_get_idx(ev->tables, k);
		json_object *ps = jget(x, "players"), *places = jget(x, "places");
		if (rests && json_object_array_length(ps) == 1)
			continue;
		struct wl_result *r = &ev->res[ev->nres++];
		r->round = jint(x, "round");
		r->t.size = (int)json_object_array_length(ps);
		for (int s = 0; s < r->t.size && s < WL_MAX_TABLE; s++) {
			r->t.seat[s] = index_of(ev, json_object_get_int64(json_object_array_get_idx(ps, s)));
			if (places && json_object_is_type(places, json_type_array))
				r->place[s] = json_object_get_int(json_object_array_get_idx(places, s));
		}
		if (r->t.size > 1 && !(places && json_object_is_type(places, json_type_array)))
			ev->all_ended = 0;
	}
}

enum wp_err
wp_tournament_match(struct wp_ctx *ctx, struct wp_conn *c, json_object *t, const int64_t *ids,
                    int n, int64_t *game)
{
	json_object *opts = jget(t, "options"), *tc = jget(t, "time_control");
	struct wp_match_new m = {.rs = wr_ruleset_find(jstr(t, "ruleset")),
	                         .options = opts ? json_object_to_json_string_ext(
	                                               opts, JSON_C_TO_STRING_PLAIN) : "{}",
	                         .time_control = tc ? json_object_to_json_string_ext(
	                                                  tc, JSON_C_TO_STRING_PLAIN) : NULL,
	                         .seats = n, .rated = json_object_get_boolean(jget(t, "rated")),
	                         .watch = WP_WATCH_UNLISTED,
	                         .created_by = json_object_get_int64(
	                             jget(jget(t, "organiser"), "id"))};
	struct wp_game g;
	enum wp_err err;

	if (!m.rs)
		return wp_fail(ctx, WP_ERR_INTERNAL, "this server does not offer the ruleset");
	for (int s = 0; s < n; s++)
		m.player[s] = ids[s];
	if ((err = wp_match_insert(ctx, c, &m)) || (err = wp_game_get(ctx, c, m.id, 1, &g)))
		return err;
	err = wp_match_start(ctx, c, &g);
	wp_game_free(&g);
	*game = m.id;
	return err;
}

/* Round `round`: its row (refused when it exists: never twice), then its
 * tables, each a match started or a bye. */
static enum wp_err
round_write(struct wp_ctx *ctx, struct wp_conn *c, const struct event *ev, int64_t id,
            int round, const struct wl_table *tables, int nt)
{
	enum wp_err err = wp_db_tournament_round(c, id, round);

	if (err == WP_ERR_NOT_FOUND)
		return wp_fail(ctx, WP_ERR_TOURNAMENT_CLOSED, "round %d has started already", round);
	if (err)
		return wp_fail_store(ctx, err);
	for (int k = 0; k < nt; k++) {
		int64_t ids[WL_MAX_TABLE], game = 0;
		for (int s = 0; s < tables[k].size; s++)
			ids[s] = id_at(ev, tables[k].seat[s]);
		if (tables[k].size > 1 &&
		    (err = wp_tournament_match(ctx, c, ev->t, ids, tables[k].size, &game)))
			return err;
		if ((err = wp_db_tournament_table(c, id, round, k + 1, game, ids, tables[k].size)))
			return wp_fail_store(ctx, err);
	}
	return WP_OK;
}

/* What the Swiss pairing knows before round `round`. */
static void
entries(const struct event *ev, struct wl_entry *e, uint8_t *met)
{
	memset(e, 0, sizeof(*e) * (size_t)ev->n);
	memset(met, 0, (size_t)ev->n * (size_t)ev->n);
	for (int i = 0; i < ev->n; i++) {
		e[i].last_colour = -1;
		e[i].active = !json_object_get_boolean(
		    jget(json_object_array_get_idx(ev->players, i), "withdrawn"));
	}
	for (int k = 0; k < ev->nres; k++) {
		const struct wl_result *r = &ev->res[k];
		for (int s = 0; s < r->t.size; s++) {
			int p = r->t.seat[s];
			if (p < 0)
				continue;
			e[p].points2 += wl_points2(r, s);
			e[p].byes += r->t.size == 1;
			if (r->t.size == 2) {
				e[p].whites += s == 0;
				e[p].blacks += s == 1;
				e[p].last_colour = s;
			}
			for (int o = 0; o < r->t.size; o++)
				if (o != s && r->t.seat[o] >= 0 && met[p * ev->n + r->t.seat[o]] < 255)
					met[p * ev->n + r->t.seat[o]]++;
		}
	}
}

static enum wp_err
swiss_round(struct wp_ctx *ctx, struct wp_conn *c, const struct event *ev, int64_t id, int round)
{
	struct wl_entry *e = calloc((size_t)ev->n, sizeof(*e));
	uint8_t *met = calloc((size_t)ev->n * (size_t)ev->n + 1, 1);
	struct wl_table *tables = calloc((size_t)ev->n + 1, sizeof(*tables));
	enum wp_err err;
	int nt;

	entries(ev, e, met);
	nt = ev->seats == 2 ? wl_swiss_pair(ev->n, e, met, tables)
	                    : wl_group_tables(ev->n, ev->seats, e, met, tables);
	if (nt < 0)
		err = wp_fail(ctx, WP_ERR_TOURNAMENT_CLOSED, "no pairing is possible for round %d",
		              round);
	else
		err = round_write(ctx, c, ev, id, round, tables, nt);
	free(e);
	free(met);
	free(tables);
	return err;
}

/* Seeds at the start: by rating in the ruleset (wp_db_rating_of, 1500
 * without one), highest first, equal ratings in joining order; the event
 * read again in that order. */
static enum wp_err
seed_by_rating(struct wp_ctx *ctx, struct wp_conn *c, struct event *ev, int64_t id)
{
	int *rating = calloc((size_t)ev->n + 1, sizeof(*rating));
	int64_t *ids = calloc((size_t)ev->n + 1, sizeof(*ids));
	json_object *again = NULL;
	enum wp_err err = WP_OK;

	for (int i = 0; i < ev->n && !err; i++) {
		ids[i] = id_at(ev, i);
		err = wp_db_rating_of(c, ids[i], jstr(ev->t, "ruleset"), &rating[i]);
	}
	/* Insertion sort, stable: a few hundred players at most. */
	for (int i = 1; i < ev->n && !err; i++)
		for (int j = i; j > 0 && rating[j] > rating[j - 1]; j--) {
			int r = rating[j];
			int64_t p = ids[j];
			rating[j] = rating[j - 1], ids[j] = ids[j - 1];
			rating[j - 1] = r, ids[j - 1] = p;
		}
	for (int i = 0; i < ev->n && !err; i++)
		err = wp_db_tournament_seed(c, id, ids[i], i + 1);
	if (!err && !(err = wp_db_tournament(c, id, 0, 0, &again))) {
		json_object_object_add(ev->t, "players", json_object_get(jget(again, "players")));
		json_object_put(again);
		free(ev->res);
		event_read(ev, ev->t);
	}
	free(rating);
	free(ids);
	return err ? wp_fail_store(ctx, err) : WP_OK;
}

static enum wp_err
start(struct wp_ctx *ctx, struct wp_conn *c, struct event *ev, int64_t id)
{
	struct wl_table tables[WL_MAX_PLAYERS / 2 + 1];
	int rounds = jint(ev->t, "rounds"), cycles = jint(ev->t, "cycles");
	enum wp_err err = WP_OK;

	if (ev->n < jint(ev->t, "min_players") || ev->n < ev->seats)
		return wp_fail(ctx, WP_ERR_TOURNAMENT_CLOSED, "the event needs %d players to start",
		               jint(ev->t, "min_players"));
	if ((err = seed_by_rating(ctx, c, ev, id)))
		return err;
	if (strcmp(jstr(ev->t, "kind"), "ladder") == 0) {
		rounds = 0;   /* a standing ladder: challenges, no rounds */
	} else if (strcmp(jstr(ev->t, "kind"), "round_robin") == 0) {
		/* Correspondence: every round's matches at once. */
		rounds = wl_round_robin_rounds(ev->n, cycles);
		for (int r = 1; r <= rounds && !err; r++) {
			int nt = wl_round_robin(ev->n, cycles, r, tables);
			err = round_write(ctx, c, ev, id, r, tables, nt);
		}
	} else {
		int most = wl_max_rounds(ev->n, ev->seats);
		if (rounds > most)   /* fewer joined than the maximum: as many as possible */
			rounds = most;
		if (rounds < 1)
			return wp_fail(ctx, WP_ERR_TOURNAMENT_CLOSED, "too few players for a round");
		err = swiss_round(ctx, c, ev, id, 1);
	}
	if (err)
		return err;
	if ((err = wp_db_tournament_set(c, id, "running",
	                                strcmp(jstr(ev->t, "kind"), "swiss") == 0 ? 1 : rounds,
	                                rounds)))
		return wp_fail_store(ctx, err);
	return WP_OK;
}

enum wp_err
wp_tournament_advance(struct wp_ctx *ctx, struct wp_conn *c, json_object *t, int *moved)
{
	struct event ev;
	int64_t id = json_object_get_int64(jget(t, "id"));
	int round = jint(t, "round"), rounds = jint(t, "rounds");
	const char *status = jstr(t, "status");
	enum wp_err err = WP_OK;

	*moved = 0;
	event_read(&ev, t);
	if (strcmp(status, "open") == 0) {
		err = start(ctx, c, &ev, id);
		*moved = err == WP_OK;
	} else if (strcmp(status, "running") == 0 && strcmp(jstr(t, "kind"), "ladder") == 0) {
		err = wp_tournament_ladder_settle(ctx, c, t, moved);
	} else if (strcmp(status, "running") == 0 &&
	           (ev.all_ended || (round < rounds && json_object_get_boolean(
	                                                    jget(t, "round_deadline_passed"))))) {
		/* At the round's deadline a match still running goes on: its
		 * players are paired again on the points they have, and it
		 * counts when it ends. The event ends when every match has. */
		int active = 0;
		for (int i = 0; i < ev.n; i++)
			active += !json_object_get_boolean(
			    jget(json_object_array_get_idx(ev.players, i), "withdrawn"));
		/* Too few left to pair (withdrawals): the event ends early, once
		 * its last matches have. */
		int last = round >= rounds || active < ev.seats;
		if (last && ev.all_ended)
			err = wp_db_tournament_set(c, id, "over", round, rounds) ? wp_fail_store(
			                                                               ctx, WP_ERR_INTERNAL)
			                                                         : WP_OK;
		else if (!last && (err = swiss_round(ctx, c, &ev, id, round + 1)) == WP_OK &&
		         wp_db_tournament_set(c, id, "running", round + 1, rounds))
			err = wp_fail_store(ctx, WP_ERR_INTERNAL);
		*moved = err == WP_OK && (!last || ev.all_ended);
	}
	if (*moved && wp_tournament_pair_hook)
		wp_tournament_pair_hook();
	if (*moved && wp_db_tournament_notify(c, id))
		err = wp_fail_store(ctx, WP_ERR_INTERNAL);
	free(ev.res);
	return err;
}

/* ---------------------------------------------------------- standings */

static json_object *
halves(int v2)
{
	return v2 % 2 ? json_object_new_double(v2 / 2.0) : json_object_new_int(v2 / 2);
}

static json_object *
player_ref(const struct event *ev, int i)
{
	json_object *p = json_object_array_get_idx(ev->players, i), *o = json_object_new_object();
	json_object_object_add(o, "id", json_object_get(jget(p, "id")));
	json_object_object_add(o, "name", json_object_get(jget(p, "name")));
	return o;
}

/* crosstable[i].against[j]: i's score in each ended meeting with j. */
static json_object *
crosstable(const struct event *ev)
{
	json_object *rows = json_object_new_array();

	for (int i = 0; i < ev->n; i++) {
		json_object *row = json_object_new_object(), *against = json_object_new_array();
		for (int j = 0; j < ev->n; j++) {
			json_object *cell = json_object_new_array();
			for (int k = 0; k < ev->nres; k++) {
				const struct wl_result *r = &ev->res[k];
				int a = -1, b = -1;
				for (int s = 0; s < r->t.size; s++) {
					a = r->t.seat[s] == i ? s : a;
					b = r->t.seat[s] == j ? s : b;
				}
				if (i == j || a < 0 || b < 0 || r->place[a] == 0)
					continue;
				json_object_array_add(cell, halves(r->place[a] < r->place[b] ? 2
				                                 : r->place[a] == r->place[b] ? 1 : 0));
			}
			json_object_array_add(against, cell);
		}
		json_object_object_add(row, "player", player_ref(ev, i));
		json_object_object_add(row, "against", against);
		json_object_array_add(rows, row);
	}
	return rows;
}

void
wp_tournament_standings(json_object *t)
{
	struct event ev;
	json_object *list = json_object_new_array();

	event_read(&ev, t);
	struct wl_standing *st = calloc((size_t)ev.n + 1, sizeof(*st));
	wl_standings(ev.n, ev.res, ev.nres,
	             strcmp(jstr(t, "kind"), "swiss") == 0 ? WL_TB_BUCHHOLZ_SB : WL_TB_SB, st);
	if (strcmp(jstr(t, "kind"), "ladder") == 0)   /* the ladder's places are its order */
		for (int k = 0; k < ev.n; k++) {
			memset(&st[k], 0, sizeof(st[k]));
			st[k].player = k;
			st[k].rank = k + 1;
		}
	for (int k = 0; k < ev.n; k++) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "rank", json_object_new_int(st[k].rank));
		json_object_object_add(o, "player", player_ref(&ev, st[k].player));
		json_object_object_add(o, "points", halves(st[k].points2));
		json_object_object_add(o, "buchholz", halves(st[k].buchholz2));
		json_object_object_add(o, "sonneborn_berger",
		                       st[k].sb4 % 4 ? json_object_new_double(st[k].sb4 / 4.0)
		                                     : json_object_new_int(st[k].sb4 / 4));
		json_object_object_add(o, "played", json_object_new_int(st[k].played));
		json_object_object_add(o, "wins", json_object_new_int(st[k].wins));
		json_object_object_add(o, "draws", json_object_new_int(st[k].draws));
		json_object_object_add(o, "losses", json_object_new_int(st[k].losses));
		json_object_object_add(o, "byes", json_object_new_int(st[k].byes));
		json_object_object_add(o, "withdrawn", json_object_get(jget(
		                           json_object_array_get_idx(ev.players, st[k].player),
		                           "withdrawn")));
		json_object_array_add(list, o);
	}
	json_object_object_add(t, "standings", list);
	json_object_object_add(t, "crosstable", crosstable(&ev));
	free(st);
	free(ev.res);
}

/* ------------------------------------------------------------- worker */

struct due {
	struct wp_ctx ctx;
	int64_t after, id;
};

static enum wp_err
due_tx(struct wp_conn *c, void *arg)
{
	struct due *d = arg;
	json_object *t = NULL;
	int moved;
	enum wp_err err;

	if ((err = wp_db_tournament_due(c, d->after, &d->id)) || !d->id)
		return err ? err : WP_ERR_NOT_FOUND;
	if ((err = wp_db_tournament(c, d->id, 0, 0, &t)))
		return err;
	err = wp_tournament_advance(&d->ctx, c, t, &moved);
	json_object_put(t);
	return err;
}

void
wp_tournament_round(struct wp_store *st)
{
	struct due d = {.ctx = {.store = st}};

	/* Each event with work, one transaction each; one another instance
	 * holds is skipped (it is at work on it). */
	for (int i = 0; i < 100; i++) {
		struct wp_conn *c = wp_store_get(st);
		if (!c)
			return;
		d.id = 0;
		enum wp_err err = wp_store_tx(c, due_tx, &d);
		wp_store_put(st, c);
		if (!d.id)
			return;
		if (err && err != WP_ERR_NOT_FOUND)
			wp_log("tournament %lld: not moved on: %s", (long long)d.id, d.ctx.detail);
		d.after = d.id;
	}
}
