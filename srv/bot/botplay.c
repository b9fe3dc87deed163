/* The bot worker (issue 27): plays the seats of the server's engine
 * players on threads of their own, so that a thinking bot never holds a
 * request's thread or delays an answer.
 *
 * Work is found three ways, all ending in the same claim: the NOTIFY of
 * every changed match (the LISTEN thread puts its id on a bounded queue,
 * which also hears this instance's own commits, and a bot's own post puts
 * its match back at once); a scan at start and every BOT_SCAN_MS (a turn
 * left pending by a restart, by a full queue or by another instance that
 * died); nothing else. A full queue drops the id: the scan finds it.
 *
 * One decision is one claim (store/bots.c): the row of (match, seq, seat)
 * is held FOR UPDATE, SKIP LOCKED by every other worker of every
 * instance, while the engine thinks and the post is made. The post is an
 * ordinary request served by wp_serve() on this thread (the same turn
 * path as a client's: seq, an Idempotency-Key made of the match, seq and
 * seat, the lock of the match, the ruleset's checks), acting for the
 * engine player (api/auth.c, wp_auth_act_as). So a decision tried twice
 * (a worker killed after its post committed but before its claim did) is
 * refused as stale or answered from the key, never applied twice.
 *
 * The engine sees only rs->view(state, seat), and its seed is the claim's,
 * drawn by the server (randombytes) and kept with the claim; never the
 * match's dice, whose seed the engine never reads. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "api.h"
#include "bot.h"
#include "bots_store.h"

#define BOT_TASKS 16             /* pending tasks read at once */

static struct wp_bot_cfg cfg;
static struct wp_store *store;
static char *conninfo;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int64_t *queue;           /* ring of match ids, no id twice */
static unsigned qhead, qlen;
static int stopping, scan_due;
static pthread_t *threads;
static unsigned nthreads;

/* ------------------------------------------------------------ settings */

int
wp_bot_config(struct wp_bot_cfg *c, char *err, size_t errlen)
{
	const char *it = getenv("BOT_ITERATIONS");

	memset(c, 0, sizeof(*c));
	if (wp_env_u("BOT_THREADS", 1, 0, 64, &c->threads, err, errlen) ||
	    wp_env_u("BOT_QUEUE", 256, 1, 65536, &c->queue, err, errlen) ||
	    wp_env_u("BOT_SCAN_MS", 5000, 10, 3600000, &c->scan_ms, err, errlen) ||
	    wp_env_u("BOT_MAX_ATTEMPTS", 5, 1, 100, &c->max_attempts, err, errlen) ||
	    wp_env_u("BOT_MAX_RUN", 1000, 10, 1000000, &c->max_run, err, errlen))
		return -1;
	/* "l1,l2,l3,l4": each level's iterations, 0 for the engine's default. */
	for (int i = 0; it && *it && i < WB_LEVELS; i++) {
		char *end;
		long n = strtol(it, &end, 10);
		if (end == it || n < 0 || (*end && *end != ',') || (i + 1 < WB_LEVELS && *end != ',')) {
			snprintf(err, errlen, "BOT_ITERATIONS: %d whole numbers, comma-separated"
			                      " (0: the engine's default)", WB_LEVELS);
			return -1;
		}
		c->iterations[i] = n;
		it = *end ? end + 1 : end;
	}
	return 0;
}

/* --------------------------------------------------------------- queue */

/* 1 when queued (or queued already); 0 when the queue is full. */
static int
push(int64_t game)
{
	int ok = 1;

	pthread_mutex_lock(&mu);
	for (unsigned i = 0; i < qlen; i++)
		if (queue[(qhead + i) % cfg.queue] == game)
			goto out;
	if (qlen == cfg.queue) {
		ok = 0;
		goto out;
	}
	queue[(qhead + qlen++) % cfg.queue] = game;
	pthread_cond_signal(&cv);
out:
	pthread_mutex_unlock(&mu);
	return ok;
}

/* What the workers know of a match's seats: whether one is an engine's.
 * Seats are given at a match's creation and engine seats never come
 * later (srv/api/bots.c), so a match asked once is never asked again, and
 * what is heard of one without an engine seat is dropped here: a server
 * busy with human matches spends no query a turn on them (issue 32: the
 * pending query was the database's work of every turn). The table is
 * emptied when three quarters full; a scan (every BOT_SCAN_MS) still
 * looks at every match. Under `mu`. */
#define KNOWN_SLOTS 8192
enum { KNOWN_NOT = 0, KNOWN_NONE, KNOWN_ENGINE };
static struct known {
	int64_t game;
	int what;
} known[KNOWN_SLOTS];
static unsigned nknown;

static struct known *
known_slot(int64_t game)
{
	unsigned i = (unsigned)((uint64_t)game * 0x9e3779b97f4a7c15ull >> 51) % KNOWN_SLOTS;
	while (known[i].what != KNOWN_NOT && known[i].game != game)
		i = (i + 1) % KNOWN_SLOTS;
	return &known[i];
}

static void
know(int64_t game, int what)
{
	pthread_mutex_lock(&mu);
	struct known *k = known_slot(game);
	if (k->what == KNOWN_NOT) {
		if (nknown >= KNOWN_SLOTS / 4 * 3) {
			memset(known, 0, sizeof(known));
			nknown = 0;
			k = known_slot(game);
		}
		nknown++;
	}
	k->game = game;
	k->what = what;
	pthread_mutex_unlock(&mu);
}

static int
known_as(int64_t game)
{
	pthread_mutex_lock(&mu);
	int what = known_slot(game)->what;
	pthread_mutex_unlock(&mu);
	return what;
}

/* The LISTEN thread: a match changed somewhere; 0: its connection was
 * (re)made, and what changed while it was not listening was not heard,
 * so a scan (a turn posted just after the server started, before LISTEN
 * was in place, waited for the next scan: an hour with BOT_SCAN_MS at
 * its most). */
static void
heard(int64_t game)
{
	if (game == 0) {
		pthread_mutex_lock(&mu);
		scan_due = 1;
		pthread_cond_signal(&cv);
		pthread_mutex_unlock(&mu);
	} else if (known_as(game) != KNOWN_NONE) {
		push(game);
	}
}

/* The next match to look at (0: a scan is due); -1 when stopping. */
static int64_t
pop(void)
{
	int64_t game = -1;
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += cfg.scan_ms / 1000;
	until.tv_nsec += (long)(cfg.scan_ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&mu);
	while (!stopping && !qlen && !scan_due)
		if (pthread_cond_timedwait(&cv, &mu, &until) != 0)
			scan_due = 1;
	if (!stopping && qlen) {
		game = queue[qhead];
		qhead = (qhead + 1) % cfg.queue;
		qlen--;
	} else if (!stopping) {
		scan_due = 0;
		game = 0;
	}
	pthread_mutex_unlock(&mu);
	return game;
}

static int
is_stopping(void)
{
	pthread_mutex_lock(&mu);
	int s = stopping;
	pthread_mutex_unlock(&mu);
	return s;
}

/* ---------------------------------------------------------- a decision */

/* The post, served as a client's would be, acting for the engine player:
 * its HTTP status. */
static int
post(const struct wp_bot_task *t, const char *what, json_object *body)
{
	char path[96], key[96];
	const char *text = json_object_to_json_string_ext(body, JSON_C_TO_STRING_PLAIN);
	struct wp_request req = {0};
	struct wp_response res = {0};
	struct wp_player who = {.id = t->player, .bot = 1};

	snprintf(path, sizeof(path), "/api/games/%" PRId64 "/%s", t->game, what);
	snprintf(key, sizeof(key), "bot-%" PRId64 "-%d-%d", t->game, t->seq, t->seat);
	req.method = (char *)"POST";
	req.path = path;
	req.query = (char *)"";
	req.headers[0] = (struct wp_header){(char *)"Content-Type", (char *)"application/json"};
	req.headers[1] = (struct wp_header){(char *)"Idempotency-Key", key};
	req.nheaders = 2;
	req.body = (char *)text;
	req.body_len = strlen(text);
	snprintf(req.peer, sizeof(req.peer), "bot");
	req.start_ns = wp_now_ns();
	/* Not a client's request: the per-address limit does not count it
	 * (as a woken long-poll is not counted again). */
	req.again = 1;
	wp_auth_act_as(&who);
	wp_serve(&req, &res);
	wp_auth_act_as(NULL);
	int status = res.status;
	if (status != 200)
		wp_log("bot: match %" PRId64 " post %d seat %d: %s answered %d: %.*s", t->game, t->seq,
		       t->seat, what, status, (int)(res.body_len < 300 ? res.body_len : 300),
		       res.body ? res.body : "");
	wp_response_free(&res);
	return status;
}

/* Other seats offered a draw: accepted only when the engine judges the
 * seat's position lost (wb_evaluate < 0.2), else declined. */
static int
answer_draw(const struct wp_game *g, void *state, const struct wp_bot_task *t)
{
	json_object *view = g->rs->view(state, t->seat), *body = json_object_new_object();
	double v = wb_evaluate(g->rs, view, t->seat);

	json_object_object_add(body, "action", json_object_new_string(v < 0.2 ? "accept" : "decline"));
	int status = post(t, "draw", body);
	json_object_put(body);
	json_object_put(view);
	return status;
}

/* The engine had no answer, or its answer was refused: one of the seat's
 * legal actions as GET /api/games/{id}/actions lists them to the seat's
 * player (nothing hidden), drawn with the claim's seed, so that a match
 * never waits on an engine's fault. NULL when there is none. */
static json_object *
fallback(const struct wp_game *g, void *state, const struct wp_bot_task *t, uint64_t seed)
{
	json_object *list = g->rs->actions(state, t->seat), *a = NULL;
	size_t n = list && json_object_is_type(list, json_type_array) ? json_object_array_length(list)
	                                                             : 0;

	if (n)
		a = json_object_get(json_object_array_get_idx(list, (size_t)(seed % n)));
	json_object_put(list);
	wp_log("bot: match %" PRId64 " post %d seat %d: %s", t->game, t->seq, t->seat,
	       a ? "a random legal action instead" : "no legal action either");
	return a;
}

static int
post_action(const struct wp_bot_task *t, json_object *take_action)
{
	json_object *body = json_object_new_object(), *list = json_object_new_array();

	json_object_array_add(list, take_action);
	json_object_object_add(body, "seq", json_object_new_int(t->seq));
	json_object_object_add(body, "actions", list);
	int status = post(t, "turns", body);
	json_object_put(body);
	return status;
}

/* The seat is awaited (its turn, a reaction, a set-up choice): one action,
 * chosen from the seat's view alone. */
static int
play_turn(const struct wp_game *g, void *state, const struct wp_bot_task *t, uint64_t seed)
{
	struct wb_params p = {.level = t->level, .seed = seed,
	                      .iterations = cfg.iterations[t->level - 1]};
	struct wr_error e = {0};
	json_object *view = g->rs->view(state, t->seat);
	json_object *action = wb_decide(g->rs, view, t->seat, &p, &e);
	int status = 0;

	json_object_put(view);
	if (!action)
		wp_log("bot: match %" PRId64 " post %d seat %d: the engine found no action: %s",
		       t->game, t->seq, t->seat, e.message);
	if (is_stopping()) {
		json_object_put(action);
		return 0;   /* thought through a stop: the next start plays it */
	}
	if (action && (status = post_action(t, action)) != 422)
		return status;
	/* A refused post stored nothing under its key: the same key serves. */
	if (!(action = fallback(g, state, t, seed)))
		return 0;
	return post_action(t, action);
}

/* Another seat asks to take back its last post (api/takeback.c): the
 * match's last post is its takeback request. */
static int
asked_takeback(const struct wp_game *g, int seat)
{
	struct wp_conn *c = wp_store_get(store);
	struct wp_undo_tail tail[1];
	int n = 0;

	if (!c)
		return 0;
	enum wp_err err = wp_db_undo_tail(c, g->id, seat, tail, 1, &n);
	wp_store_put(store, c);
	return err == WP_OK && n == 1 && tail[0].kind == WP_POST_TAKEBACK && tail[0].seat != seat;
}

/* What the seat owes at post t->seq, from the match as stored; the
 * outcome recorded with the claim, and whether it is settled. */
static const char *
decide(const struct wp_bot_task *t, uint64_t seed, int run_len, int *done)
{
	struct wp_conn *c = wp_store_get(store);
	struct wp_game g;
	enum wp_err err;
	const char *outcome = "nothing";
	unsigned me = 1u << t->seat;

	*done = 0;
	if (!c)
		return "database-unavailable";
	err = wp_db_game_load(c, t->game, 0, &g);
	wp_store_put(store, c);
	if (err)
		return "unreadable";
	*done = 1;
	void *state = NULL;
	if (g.status != WP_STATUS_ACTIVE || g.seq != t->seq || t->seat >= g.nseats ||
	    g.seats[t->seat].player_id != t->player || t->level < 1 || t->level > WB_LEVELS)
		outcome = "moved-on";
	else if (!(state = wp_game_state(&g)))
		outcome = "unreadable";
	else {
		unsigned in = g.rs->seats_in ? g.rs->seats_in(state) : ~0u;
		int status = -1;   /* -1: nothing owed; 0: no post made */
		if ((g.awaiting & me) && run_len >= (int)cfg.max_run) {
			/* An engine that never ends its turn (a set-up it keeps
			 * redoing) would fill the log for ever: the bot resigns. */
			wp_log("bot: match %" PRId64 " seat %d: %d posts in a row; it resigns", t->game,
			       t->seat, run_len);
			json_object *body = json_object_new_object();
			status = post(t, "resign", body);
			json_object_put(body);
			outcome = "resigned-runaway";
		} else if ((g.draw_offers & ~me) && !(g.draw_offers & me) && (in & me)) {
			status = answer_draw(&g, state, t);
			outcome = "draw-answered";
		} else if (asked_takeback(&g, t->seat)) {
			/* Issue 30: a bot lets no one take a move back. */
			json_object *body = json_object_new_object();
			status = post(t, "takeback/decline", body);
			json_object_put(body);
			outcome = "takeback-declined";
		} else if (g.awaiting & me) {
			status = play_turn(&g, state, t, seed);
			outcome = "posted";
		}
		if (status == 200)
			push(t->game);   /* what it owes next, at once */
		else if (status == 409)
			outcome = "refused-stale";   /* the match moved on meanwhile */
		else if (status != -1) {
			outcome = status == 0 ? "no-decision" : "refused";
			*done = 0;                   /* tried again, up to BOT_MAX_ATTEMPTS */
		}
		g.rs->free(state);
	}
	wp_game_free(&g);
	return outcome;
}

static void
play(struct wp_bot_conn **bc, const struct wp_bot_task *t)
{
	uint64_t fresh, seed = 0;
	int done, rc, run_len = 0;

	randombytes_buf(&fresh, sizeof(fresh));
	if ((rc = wp_bot_claim(*bc, t, (int)cfg.max_attempts, fresh, &seed, &run_len)) <= 0) {
		if (rc < 0) {
			wp_bot_conn_close(*bc);
			*bc = NULL;
		}
		return;
	}
	const char *outcome = decide(t, seed, run_len, &done);
	if (!done && is_stopping())
		outcome = "stopped";
	if (wp_bot_finish(*bc, t, outcome, done) < 0) {
		wp_bot_conn_close(*bc);
		*bc = NULL;
	}
}

static void *
worker_main(void *arg)
{
	struct wp_bot_conn *bc = NULL;
	struct wp_bot_task tasks[BOT_TASKS];
	int64_t game;

	wp_json_thread_init();   /* the parses below: core/json.c */
	(void)arg;
	while ((game = pop()) >= 0) {
		if (!bc && !(bc = wp_bot_conn_open(conninfo))) {
			if (game)
				push(game);
			struct timespec s = {1, 0};
			nanosleep(&s, NULL);
			continue;
		}
		if (game)
			wp_metric_add(WP_METRIC_BOT_LOOKUPS, 1);
		int n = wp_bot_pending(bc, game ? &game : NULL, game ? 1 : 0, (int)cfg.max_attempts,
		                       tasks, game ? BOT_TASKS : (int)(cfg.queue < BOT_TASKS ? cfg.queue
		                                                                                : BOT_TASKS));
		if (n < 0) {
			wp_bot_conn_close(bc);
			bc = NULL;
			continue;
		}
		if (!game) {
			/* A scan: the matches go on the queue, for every worker. */
			for (int i = 0; i < n; i++)
				push(tasks[i].game);
			continue;
		}
		if (n > 0)
			know(game, KNOWN_ENGINE);
		else if (known_as(game) == KNOWN_NOT) {
			int e = wp_bot_engine_seats(bc, game);
			if (e < 0) {
				wp_bot_conn_close(bc);
				bc = NULL;
				continue;
			}
			know(game, e ? KNOWN_ENGINE : KNOWN_NONE);
		}
		for (int i = 0; i < n && bc && !is_stopping(); i++)
			play(&bc, &tasks[i]);
	}
	wp_bot_conn_close(bc);
	return NULL;
}

int
wp_bot_start(struct wp_store *st, const char *info, const struct wp_bot_cfg *c)
{
	cfg = *c;
	if (!cfg.threads)
		return 0;
	store = st;
	if (!(conninfo = strdup(info)) || !(queue = calloc(cfg.queue, sizeof(*queue))) ||
	    !(threads = calloc(cfg.threads, sizeof(*threads))))
		return -1;
	stopping = 0;
	scan_due = 1;    /* a turn left pending before this start */
	memset(known, 0, sizeof(known));   /* perhaps another database's */
	nknown = 0;
	/* Heard from now on: what changes between the scan at start and the
	 * first worker is on the queue. */
	wp_listen_game_hook(heard);
	for (nthreads = 0; nthreads < cfg.threads; nthreads++)
		if (pthread_create(&threads[nthreads], NULL, worker_main, NULL) != 0)
			break;
	if (!nthreads)
		wp_listen_game_hook(NULL);
	return nthreads ? 0 : -1;
}

void
wp_bot_stop(void)
{
	wp_listen_game_hook(NULL);
	pthread_mutex_lock(&mu);
	stopping = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	/* A decision in progress is finished (the engine cannot be
	 * interrupted; its post is skipped: the next start plays it). */
	for (unsigned i = 0; i < nthreads; i++)
		pthread_join(threads[i], NULL);
	nthreads = 0;
	free(threads);
	free(queue);
	free(conninfo);
	threads = NULL;
	queue = NULL;
	conninfo = NULL;
	qlen = qhead = 0;
}
