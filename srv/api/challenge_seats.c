/* Taking and giving back the seats of an open challenge (issue 28; the
 * lobby's reading side and posting are challenges.c). Every accept, leave
 * and cancel of a challenge locks its row first, so of many accepters of
 * the last seat exactly one starts the match and the others find it
 * started (409 challenge-closed): a challenge never starts twice or with
 * a seat empty. The last seat taken creates and starts the match in the
 * same transaction, with the code POST /api/games and a join use
 * (wp_match_insert, wp_match_start). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "challenges.h"


struct accepting {
	struct wp_ctx *ctx;
	int64_t id, game;
	struct wp_player who;
	const char *client_seed, *key;
	unsigned char reqhash[32];
	int seat, replayed;
	json_object *out;
};

/* Every seat taken: the match, with the challenge's settings and its
 * players in their seats, created and started; the challenge points at it. */
static enum wp_err
start_from(struct accepting *a, struct wp_conn *c, const struct wp_challenge *ch,
           const struct wp_challenge_seats *s)
{
	struct wp_match_new n = {.rs = wr_ruleset_find(ch->ruleset), .options = ch->options,
	                         .seats = ch->nseats, .rated = ch->rated, .watch = ch->watch,
	                         .delay = ch->delay, .created_by = ch->poster};
	json_object *tc = wp_tc_json(&ch->tc);
	struct wp_game g;
	enum wp_err err;

	if (!n.rs) {
		json_object_put(tc);
		return wp_fail(a->ctx, WP_ERR_INTERNAL, "this server does not offer the ruleset");
	}
	n.time_control = tc ? json_object_to_json_string_ext(tc, JSON_C_TO_STRING_PLAIN) : NULL;
	for (int i = 0; i < ch->nseats; i++) {
		n.player[i] = s->player[i];
		n.client_seed[i] = s->client_seed[i];
	}
	err = wp_match_insert(a->ctx, c, &n);
	json_object_put(tc);
	if (err || (err = wp_game_get(a->ctx, c, n.id, 1, &g)))
		return err;
	err = wp_match_start(a->ctx, c, &g);
	wp_game_free(&g);
	if (err)
		return err;
	a->game = n.id;
	if ((err = wp_db_challenge_status(c, a->id, "started", n.id)))
		return wp_fail_store(a->ctx, err);
	return WP_OK;
}

static enum wp_err
take_seat(struct accepting *a, struct wp_conn *c, const struct wp_challenge *ch)
{
	struct wp_challenge_seats s;
	int in_range, full = 1;
	enum wp_err err;

	if ((err = wp_challenge_open(a->ctx, ch)))
		return err;
	if (wp_challenge_seat_of(ch, a->who.id) >= 0)
		return wp_fail(a->ctx, WP_ERR_ALREADY_SEATED, a->who.id == ch->poster
		               ? "this is your own challenge" : "you already hold a seat in it");
	if ((err = wp_challenge_rating(a->ctx, c, ch, a->who.id, &in_range)))
		return err;
	if (!in_range)
		return wp_fail(a->ctx, WP_ERR_RATING_OUT_OF_RANGE,
		               "your %s rating is outside this challenge's range", ch->ruleset);
	if ((err = wp_limit_open_matches(a->ctx, c, a->who.id)))
		return err;
	if ((err = wp_db_challenge_seats(c, a->id, &s)))
		return wp_fail_store(a->ctx, err);
	a->seat = -1;
	for (int i = 0; i < ch->nseats && a->seat < 0; i++)
		if (!s.player[i])
			a->seat = i;
	if (a->seat < 0)   /* the lock makes this impossible: said, not assumed */
		return wp_fail(a->ctx, WP_ERR_CHALLENGE_CLOSED, "every seat is taken");
	if ((err = wp_db_challenge_seat_insert(c, a->id, a->seat, a->who.id, a->client_seed)))
		return wp_fail_store(a->ctx, err);
	s.player[a->seat] = a->who.id;
	snprintf(s.client_seed[a->seat], sizeof(s.client_seed[a->seat]), "%s",
	         a->client_seed ? a->client_seed : "");
	for (int i = 0; i < ch->nseats; i++)
		full &= s.player[i] != 0;
	if (full)
		return start_from(a, c, ch, &s);
	if ((err = wp_db_challenge_status(c, a->id, "open", 0)))
		return wp_fail_store(a->ctx, err);
	return WP_OK;
}

static enum wp_err
accept_tx(struct wp_conn *c, void *arg)
{
	struct accepting *a = arg;
	struct wp_challenge ch;
	struct wp_idem first;
	enum wp_err err;

	if ((err = wp_db_challenge_get(c, a->id, 1, &ch)))
		return wp_challenge_not_found(a->ctx, err, a->id);
	if (a->key && ((err = wp_idem_replay(a->ctx, wp_db_challenge_idem_get(c, a->id, a->who.id,
	                                                                      a->key, &first),
	                                     &first, a->reqhash, &a->replayed)) ||
	               a->replayed))
		goto out;
	if ((err = take_seat(a, c, &ch)) || (err = wp_db_challenge_notify(c, a->id)))
		goto out;
	wp_challenge_free(&ch);
	if ((err = wp_db_challenge_get(c, a->id, 0, &ch)))
		return wp_fail_store(a->ctx, err);
	a->out = json_object_new_object();
	json_object_object_add(a->out, "challenge", wp_challenge_json(&ch, a->who.id));
	json_object_object_add(a->out, "seat", json_object_new_int(a->seat));
	json_object_object_add(a->out, "game", a->game ? json_object_new_int64(a->game) : NULL);
	if (a->key && (err = wp_db_challenge_idem_put(c, a->id, a->who.id, a->key, a->reqhash, 200,
	                                              json_object_to_json_string_ext(
	                                                  a->out, JSON_C_TO_STRING_PLAIN))))
		err = wp_fail_store(a->ctx, err);
out:
	wp_challenge_free(&ch);
	return err;
}

enum wp_err
wp_api_challenges_accept(struct wp_ctx *ctx)
{
	static const char *const fields[] = {"client_seed", NULL};
	struct accepting a = {.ctx = ctx, .seat = -1};
	enum wp_err err;

	if ((err = wp_challenge_id(ctx, &a.id)) || (ctx->body && (err = wp_body_only(ctx, fields))) ||
	    (err = wp_client_seed(ctx, &a.client_seed)) ||
	    (err = wp_idem_request(ctx, &a.key, a.reqhash)) ||
	    (err = wp_limit_token(ctx, WP_RATE_WRITES)))
		return err;
	/* A start post leaves the match kept: its first turn is one round
	 * trip, as after a join (issue 17). */
	err = wp_player_tx_keeping(ctx, &a.who, accept_tx, &a);
	if (err == WP_OK && !a.replayed)
		err = wp_reply_json(ctx, 200, a.out);
	else
		json_object_put(a.out);
	return err;
}

/* ------------------------------------------------------------- cancel */

struct cancelling {
	struct wp_ctx *ctx;
	int64_t id;
	struct wp_player who;
	json_object *out;
};

/* The poster cancels; a player seated since leaves its seat. Both until
 * the match starts; a cancel repeated answers as the first did. */
static enum wp_err
cancel_tx(struct wp_conn *c, void *arg)
{
	struct cancelling *k = arg;
	struct wp_challenge ch;
	enum wp_err err;

	if ((err = wp_db_challenge_get(c, k->id, 1, &ch)))
		return wp_challenge_not_found(k->ctx, err, k->id);
	int poster = ch.poster == k->who.id, seated = wp_challenge_seat_of(&ch, k->who.id) >= 0;
	if (poster && strcmp(ch.status, "cancelled") == 0)
		;
	else if (!poster && !seated)
		err = wp_fail(k->ctx, WP_ERR_FORBIDDEN,
		              "only the challenge's poster cancels it, and a player seated leaves it");
	else if ((err = wp_challenge_open(k->ctx, &ch)))
		;
	else if ((err = poster ? wp_db_challenge_status(c, k->id, "cancelled", 0)
	                       : wp_db_challenge_leave(c, k->id, k->who.id)) ||
	         (err = wp_db_challenge_notify(c, k->id)))
		err = wp_fail_store(k->ctx, err);
	wp_challenge_free(&ch);
	if (err)
		return err;
	if ((err = wp_db_challenge_get(c, k->id, 0, &ch)))
		return wp_fail_store(k->ctx, err);
	k->out = wp_challenge_json(&ch, k->who.id);
	wp_challenge_free(&ch);
	return WP_OK;
}

enum wp_err
wp_api_challenges_cancel(struct wp_ctx *ctx)
{
	struct cancelling k = {.ctx = ctx};
	enum wp_err err;

	if ((err = wp_challenge_id(ctx, &k.id)) || (err = wp_limit_token(ctx, WP_RATE_WRITES)))
		return err;
	if ((err = wp_player_tx(ctx, &k.who, cancel_tx, &k)))
		return err;
	return wp_reply_json(ctx, 200, k.out);
}
