/* The one way a match changes: a post, written with the state after it
 * in the transaction of a seated player's request, which locks the match,
 * answers a retried Idempotency-Key with the first answer byte for byte,
 * and commits before it answers (DESIGN.md, "Store"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "api.h"

static const char *
text_of(json_object *o)
{
	return wp_json_text(o, JSON_C_TO_STRING_PLAIN);
}

#define ANSWER_FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

/* How mutate() has wp_post_store write a post (ctx->write; NULL: in the
 * caller's transaction, nothing kept).
 *
 * A turn made from the cache (issue 17, fast set): written in one round
 * trip guarded by the version it was made from (wp_db_post_commit) instead
 * of inside a transaction.
 *
 * The transaction path (want_after): the match after its post, kept in
 * the cache once the transaction committed, so the next turn is one round
 * trip. */
struct wp_write {
	int fast;
	struct wp_post_guard guard;
	json_object *answered;   /* the answer whose text guard.answer is */
	int tried;               /* a write was sent */
	int committed;           /* written: the answer stands */
	int unavailable;         /* the database went away: outcome unknown */
	int want_after, posts_written;
	struct wp_game *after;
	struct wp_clock_input after_clock;
	int have_after_clock;
};

/* The match after a post; borrows from g, w and result. */
static void
after_of(struct wp_game *a, const struct wp_game *g, const struct wp_post_write *w,
         json_object *result)
{
	*a = *g;
	a->status = w->status;
	a->seq = w->seq;
	a->version = w->version;
	a->state = (char *)w->state;
	a->draws = w->draws;
	a->awaiting = w->awaiting;
	a->draw_offers = w->draw_offers;
	a->result = result;
	snprintf(a->updated_at, sizeof(a->updated_at), "%s", w->updated_at);
}

/* Once written: at once when the post committed alone, at the commit of
 * its transaction otherwise (cache.c refuses it when something newer was
 * heard of meanwhile). A timed match's clock input goes with it: the
 * cache's before the post and the post's mark (issue 17: a timed turn
 * reads its clocks from memory and stays one round trip). */
static void
keep_after(struct wp_write *wr, const struct wp_game *g, const struct wp_post_write *w,
           json_object *result, struct wp_clock_input *clk, int have_clk)
{
	struct wp_game a;

	if (!wr)
		return;
	after_of(&a, g, w, result);
	if (have_clk) {
		clk->marks[clk->nmarks] = w->mark;
		clk->marks[clk->nmarks++].at = w->at;
	}
	if (wr->fast) {
		wp_cache_game_written(&a);
		if (have_clk)
			wp_cache_clock_put(a.id, a.version, clk);
		return;
	}
	if (!wr->want_after || wr->posts_written++ || !(wr->after = malloc(sizeof(*wr->after))))
		return;
	if (have_clk) {
		wr->after_clock = *clk;
		wr->have_after_clock = 1;
		memset(clk, 0, sizeof(*clk));
	}
	*wr->after = a;
	wr->after->state = w->state ? strdup(w->state) : NULL;
	wr->after->options = json_object_get(g->options);
	wr->after->result = json_object_get(result);
}

static void
kept_after_commit(struct wp_write *wr, int committed)
{
	/* One post, one new version: otherwise nothing is kept. */
	if (wr->after && committed && wr->posts_written == 1) {
		wp_cache_game_written(wr->after);
		if (wr->have_after_clock)
			wp_cache_clock_put(wr->after->id, wr->after->version, &wr->after_clock);
	}
	if (wr->have_after_clock)
		wp_clock_input_free(&wr->after_clock);
	if (wr->after) {
		wp_game_free(wr->after);
		free(wr->after);
	}
}

enum wp_err
wp_post_store(struct wp_ctx *ctx, struct wp_conn *c, struct wp_game *g, const void *state,
              const struct wp_post *p, struct wr_rng *rng, struct wr_events *ev,
              json_object **out)
{
	json_object *result = p->result, *events, *rolls;
	char *state_text = NULL;
	unsigned awaiting = 0;
	enum wp_err err;

	if (state) {
		state_text = wr_save_text(g->rs, state);
		if (!result) {
			struct wr_result res;
			g->rs->result(state, &res);
			result = wp_result_json(&res, g->nseats);
		}
		awaiting = result ? 0 : g->rs->to_act(state);
	} else {
		state_text = g->state ? strdup(g->state) : NULL;
		awaiting = result ? 0 : g->awaiting;
	}
	enum wp_status status = p->aborted ? WP_STATUS_ABORTED
	                        : result   ? WP_STATUS_OVER
	                                   : WP_STATUS_ACTIVE;
	events = wp_events_store(ev);
	rolls = rng ? wp_rolls_json(rng) : json_object_new_array();
	struct wp_post_write w = {
		.game = g->id, .seq = g->seq + 1, .seat = p->seat, .kind = p->kind,
		.actions = p->content ? text_of(p->content) : "[]",
		.comment = p->comment, .comment_hidden = p->comment_hidden,
		.events = text_of(events), .draws_from = g->draws, .rolls = text_of(rolls),
		.status = status, .state = state_text,
		.draws = rng ? (int64_t)rng->count : g->draws,
		.awaiting = awaiting, .draw_offers = p->draw_offers,
		.result = result ? text_of(result) : NULL,
		.client = g->client, .client_len = g->client_len,
	};
	wp_clock_turns(g, state, p, awaiting, &w.mark);
	/* Before the write, which forgets the match's cached clock input. */
	struct wp_clock_input clk;
	int have_clk = g->tc.on && wp_cache_clock(g->id, g->version, &clk);
	w.clock = have_clk ? &clk : NULL;
	w.tc = &g->tc;
	w.nseats = g->nseats;
	/* The poster's answer shows what the poster may see (G5). */
	int viewer = wp_viewer(status != WP_STATUS_ACTIVE, p->seat);
	*out = json_object_new_object();
	json_object_object_add(*out, "game", json_object_new_int64(g->id));
	json_object_object_add(*out, "seq", json_object_new_int(g->seq + 1));
	json_object_object_add(*out, "version", json_object_new_int(g->version + 1));
	json_object_object_add(*out, "status", json_object_new_string(wp_status_str(status)));
	json_object_object_add(*out, "awaiting", wp_json_seats(awaiting, g->nseats));
	json_object_object_add(*out, "events", wp_events_visible(events, viewer));
	json_object_object_add(*out, "result", json_object_get(result));
	struct wp_write *wr = ctx->write;
	if (wr && wr->fast) {
		/* The answer kept for the key is written with the post. */
		wr->guard.answer = wp_json_text(*out, ANSWER_FLAGS);
		wr->answered = *out;
		wr->tried = 1;
		err = wp_db_post_commit(c, &w, &wr->guard);
		wr->committed = err == WP_OK;
		wr->unavailable = err == WP_ERR_DB_UNAVAILABLE;
	} else {
		err = wp_db_post_write(c, &w);
	}
	if (err == WP_OK) {
		keep_after(wr, g, &w, result, &clk, have_clk);
	} else {
		err = wp_fail_store(ctx, err);
		json_object_put(*out);
		*out = NULL;
	}
	if (have_clk)
		wp_clock_input_free(&clk);
	json_object_put(events);
	json_object_put(rolls);
	if (result != p->result)
		json_object_put(result);
	free(state_text);
	return err;
}

void
wp_game_dice(struct wp_game *g, struct wr_hmac_stream *hs, struct wr_rng *rng)
{
	memcpy(hs->seed, g->seed, 32);
	hs->client = g->client;
	hs->client_len = g->client_len;
	wr_rng_hmac(rng, hs, (uint64_t)g->draws);
	wr_rng_record(rng);
}

enum wp_err
wp_post_apply(struct wp_ctx *ctx, struct wp_conn *c, struct wp_game *g, const struct wp_post *p,
              json_object **out)
{
	struct wr_hmac_stream hs;
	struct wr_rng rng;
	struct wr_events ev = {0};
	struct wr_error e;
	int bad = -1;
	enum wp_err err;
	void *state = wp_game_state_current(g);

	if (!state)
		return wp_fail(ctx, WP_ERR_INTERNAL, "the match's state could not be read");
	wp_game_dice(g, &hs, &rng);
	if (wp_apply_post(g->rs, state, p->seat, p->kind, p->content, &rng, &ev, &e, &bad) != 0)
		err = strcmp(e.code, "not-awaited") == 0 && bad == 0
		      ? wp_fail(ctx, WP_ERR_NOT_AWAITED, "%s", "you are not awaited now")
		      : wp_fail_rules(ctx, p->kind == WP_POST_ORDERS ? WP_ERR_INVALID_ORDERS
		                                                     : WP_ERR_ILLEGAL_ACTION, &e, bad);
	else
		err = wp_post_store(ctx, c, g, state, p, &rng, &ev, out);
	/* Committed in one statement, the match is held at its next version
	 * (keep_after): the state its snapshot was saved from stays beside
	 * it. A refused action may have changed the state part way: freed. */
	if (err == WP_OK && ctx->write && ctx->write->fast && ctx->write->committed)
		wp_cache_state_give(g->id, g->version + 1, g->rs, state);
	else
		g->rs->free(state);
	wr_events_free(&ev);
	wr_rng_record_free(&rng);
	return err;
}

enum wp_err
wp_must_be_active(struct wp_ctx *ctx, const struct wp_game *g)
{
	if (g->status == WP_STATUS_ACTIVE)
		return WP_OK;
	if (g->status == WP_STATUS_OPEN)
		return wp_fail(ctx, WP_ERR_GAME_NOT_STARTED, "the match starts when every seat is taken");
	return wp_fail(ctx, WP_ERR_GAME_OVER, "the match is %s", wp_status_str(g->status));
}

/* ------------------------------------------------------------- mutate */

struct mutation {
	struct wp_ctx *ctx;
	wp_mutate_fn fn;
	int64_t id;
	struct wp_player who;
	const char *key;         /* Idempotency-Key, or NULL */
	unsigned char reqhash[32];
	json_object *out;
	const char *text;        /* the answer, from out */
	int replayed;
};

static int
idem_key_ok(const char *k)
{
	size_t n = strlen(k);
	if (n == 0 || n > 255)
		return 0;
	for (const char *p = k; *p; p++)
		if (*p < 0x21 || *p > 0x7e)
			return 0;
	return 1;
}

/* A retry with the same key gets the first answer (the transaction then
 * writes nothing); the same key with another request is refused. */
enum wp_err
wp_idem_replay(struct wp_ctx *ctx, enum wp_err found, struct wp_idem *first,
               const unsigned char reqhash[32], int *replayed)
{
	enum wp_err err = WP_OK;

	*replayed = 0;
	if (found == WP_ERR_NOT_FOUND)
		return WP_OK;
	if (found != WP_OK)
		return wp_fail_store(ctx, found);
	if (memcmp(first->request_hash, reqhash, 32) == 0) {
		wp_response_json(ctx->res, first->status, first->body ? first->body : "");
		wp_response_header(ctx->res, "Idempotent-Replayed", "true");
		*replayed = 1;
	} else {
		err = wp_fail(ctx, WP_ERR_IDEMPOTENCY_KEY_REUSED,
		              "this Idempotency-Key was used with another request");
	}
	free(first->body);
	first->body = NULL;
	return err;
}

static enum wp_err
replay(struct mutation *m, struct wp_conn *c)
{
	struct wp_idem first;
	enum wp_err found = wp_db_idem_get(c, m->id, m->who.id, m->key, &first);

	return wp_idem_replay(m->ctx, found, &first, m->reqhash, &m->replayed);
}

static enum wp_err
mutate_tx(struct wp_conn *c, void *arg)
{
	struct mutation *m = arg;
	struct wp_game g;
	enum wp_err err;

	if ((err = wp_game_get(m->ctx, c, m->id, 1, &g)))
		return err;
	if (m->key && ((err = replay(m, c)) || m->replayed))
		goto out;
	/* A private match is game-not-found to anyone without a seat. */
	struct wp_sight sight;
	if ((err = wp_game_sight(m->ctx, &g, m->who.id, &sight)))
		goto out;
	int seat = sight.seat;
	if (seat < 0) {
		err = wp_fail(m->ctx, WP_ERR_NOT_A_PLAYER, "you hold no seat in this match");
		goto out;
	}
	if ((err = m->fn(m->ctx, c, &g, seat, &m->out)))
		goto out;
	m->text = wp_json_text(m->out, ANSWER_FLAGS);
	if (m->key && (err = wp_db_idem_put(c, m->id, m->who.id, m->key, m->reqhash, 200, m->text)))
		err = wp_fail_store(m->ctx, err);
out:
	wp_game_free(&g);
	return err;
}

/* Whether a refusal decided from the cached match stands: a client's
 * error (4xx) with nothing written, and the database still at that version
 * with that token and key (wp_db_game_current), so the transaction would
 * refuse the same from the same match: the ruleset runs once (issue 26). */
static int
refusal_stands(struct mutation *m, struct wp_conn *c, const struct wp_write *f, enum wp_err err)
{
	int status = wp_err_status(err), current = 0;

	if (err == WP_OK || status < 400 || status >= 500 || f->tried)
		return 0;
	return wp_db_game_current(c, &f->guard, m->id, &current) == WP_OK && current;
}

/* The common case in one round trip: the player known by the token
 * cache, the match by the match cache, the post written guarded by the
 * version and the token (wp_db_post_commit). 1: answered (m->text, or
 * *err when the database went away with the outcome unknown, as a failed
 * COMMIT is, or a refusal that stands); 0: anything else is decided again
 * by the transaction, from the database. */
static int
mutate_fast(struct mutation *m, const unsigned char token_hash[32], enum wp_err *err)
{
	struct wp_write f = {.fast = 1};
	struct wp_game g;
	struct wp_conn *c;

	if (!wp_cache_game(m->id, &g))
		return 0;
	int seat = wp_game_seat_of(&g, m->who.id);
	if (seat < 0 || !(c = wp_store_get(m->ctx->store))) {
		wp_game_free(&g);
		return 0;
	}
	f.guard = (struct wp_post_guard){.version = g.version, .player = m->who.id,
	                                 .token_hash = token_hash, .key = m->key,
	                                 .request_hash = m->reqhash};
	m->ctx->write = &f;
	*err = m->fn(m->ctx, c, &g, seat, &m->out);
	m->ctx->write = NULL;
	int stands = refusal_stands(m, c, &f, *err);
	wp_store_put(m->ctx->store, c);
	wp_game_free(&g);
	if (stands)
		return 1;
	/* Written (or perhaps written): never written again. The answer is
	 * the text kept for the key, made once (json-c keeps it with the
	 * object). */
	if (f.committed || f.unavailable) {
		if (*err == WP_OK)
			m->text = f.answered == m->out ? f.guard.answer
			                               : wp_json_text(m->out, ANSWER_FLAGS);
		return 1;
	}
	json_object_put(m->out);
	m->out = NULL;
	m->ctx->detail[0] = '\0';
	json_object_put(m->ctx->extra);
	m->ctx->extra = NULL;
	return 0;
}

enum wp_err
wp_player_tx_keeping(struct wp_ctx *ctx, struct wp_player *who, wp_tx_fn fn, void *arg)
{
	struct wp_write wr = {.want_after = 1};
	enum wp_err err;

	ctx->write = &wr;
	err = wp_player_tx(ctx, who, fn, arg);
	ctx->write = NULL;
	kept_after_commit(&wr, err == WP_OK);
	return err;
}

enum wp_err
wp_idem_request(struct wp_ctx *ctx, const char **key, unsigned char hash[32])
{
	const struct wp_request *req = ctx->req;
	crypto_hash_sha256_state hs;

	*key = wp_request_header(req, "Idempotency-Key");
	if (*key && !idem_key_ok(*key))
		return wp_fail(ctx, WP_ERR_INVALID, "Idempotency-Key: 1 to 255 visible ASCII characters");
	crypto_hash_sha256_init(&hs);
	crypto_hash_sha256_update(&hs, (const unsigned char *)req->path, strlen(req->path));
	crypto_hash_sha256_update(&hs, (const unsigned char *)"\n", 1);
	if (req->body_len)
		crypto_hash_sha256_update(&hs, (const unsigned char *)req->body, req->body_len);
	crypto_hash_sha256_final(&hs, hash);
	return WP_OK;
}

static enum wp_err
mutate(struct wp_ctx *ctx, wp_mutate_fn fn, int one_trip)
{
	struct mutation m = {.ctx = ctx, .fn = fn};
	enum wp_err err;

	if ((err = wp_game_id(ctx, &m.id)) || (err = wp_limit_token(ctx, WP_RATE_WRITES)) ||
	    (err = wp_idem_request(ctx, &m.key, m.reqhash)))
		return err;
	unsigned char token[32];
	int present = 0;
	if (one_trip && (err = wp_auth_token(ctx, token, &present)))
		return err;
	if (!present || !wp_cache_player(token, &m.who) || !mutate_fast(&m, token, &err)) {
		err = wp_player_tx_keeping(ctx, &m.who, mutate_tx, &m);
	}
	if (err == WP_OK && !m.replayed)
		wp_response_json(ctx->res, 200, m.text);
	json_object_put(m.out);
	return err;
}

enum wp_err
wp_mutate(struct wp_ctx *ctx, wp_mutate_fn fn)
{
	return mutate(ctx, fn, 0);
}

enum wp_err
wp_mutate_one_trip(struct wp_ctx *ctx, wp_mutate_fn fn)
{
	return mutate(ctx, fn, 1);
}
