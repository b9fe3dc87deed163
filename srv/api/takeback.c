/* Takeback requests (issue 30, item 9): POST /api/games/{id}/takeback,
 * /takeback/accept and /takeback/decline. After its turn has passed, a
 * seat may ask the others to let it take back its last post, as lichess
 * correspondence offers. The request is a post of its own
 * (takeback_request, public); it stands while it is the match's last post,
 * so any other post refuses it automatically. Any other seat in play
 * answers: a decline is a post (takeback_decline); an accept is the
 * requester's undo post (api/undo.c wp_undo_last, the undo barrier
 * included: no die rolled, nothing hidden revealed), so the log, the
 * export and verify read it as any undo. Refusals are 409 undo-not-allowed
 * problems with a `code`. */
#include <string.h>

#include "api.h"

/* The tail of the log: newest first. */
static enum wp_err
tail_of(struct wp_ctx *ctx, struct wp_conn *c, struct wp_game *g, int seat,
        struct wp_undo_tail *tail, int *n)
{
	enum wp_err err = wp_must_be_in_play(ctx, g, seat);

	if (err)
		return err;
	if ((err = wp_db_undo_tail(c, g->id, seat, tail, 2, n)) != WP_OK)
		return wp_fail_store(ctx, err);
	return WP_OK;
}

static enum wp_err
refuse(struct wp_ctx *ctx, const char *code, const char *text)
{
	wp_fail_extra(ctx, "code", json_object_new_string(code));
	return wp_fail(ctx, WP_ERR_UNDO_NOT_ALLOWED, "%s", text);
}

/* A post changing no ruleset state, with one public event. */
static enum wp_err
side_post(struct wp_ctx *ctx, struct wp_conn *c, struct wp_game *g, int seat,
          enum wp_post_kind kind, int asker, int post_seq, json_object **out)
{
	json_object *event = json_object_new_object();
	struct wr_events ev = {0};

	json_object_object_add(event, "type", json_object_new_string(wp_post_kind_str(kind)));
	json_object_object_add(event, "seat", json_object_new_int(asker));
	json_object_object_add(event, "post", json_object_new_int(post_seq));
	wr_emit(&ev, WR_VIS_PUBLIC, event);
	struct wp_post p = {.seat = seat, .kind = kind, .draw_offers = g->draw_offers};
	enum wp_err err = wp_post_store(ctx, c, g, NULL, &p, NULL, &ev, out);
	wr_events_free(&ev);
	return err;
}

static enum wp_err
do_request(struct wp_ctx *ctx, struct wp_conn *c, struct wp_game *g, int seat, json_object **out)
{
	struct wp_undo_tail t[2];
	int n = 0;
	enum wp_err err = tail_of(ctx, c, g, seat, t, &n);

	if (err)
		return err;
	if (n > 0 && t[0].kind == WP_POST_TAKEBACK && t[0].seat == seat)
		return refuse(ctx, "already-asked", "you have asked to take back already");
	if (n == 0 || t[0].kind != WP_POST_TURN || t[0].seat != seat || t[0].undone)
		return refuse(ctx, "nothing-to-take-back",
		              "the match's last post is not yours: there is nothing to take back");
	if (g->awaiting & (1u << seat))
		return refuse(ctx, "your-turn", "it is still your turn: undo it yourself");
	if (t[0].rolled)
		return refuse(ctx, "dice-rolled", "a die was rolled: that post stands");
	if (wp_told_unknown(g, t[0].told))
		return refuse(ctx, "information-revealed",
		              "something hidden was revealed: that post stands");
	return side_post(ctx, c, g, seat, WP_POST_TAKEBACK, seat, t[0].seq, out);
}

/* The request an answer is for: the last post, another seat's. */
static enum wp_err
pending(struct wp_ctx *ctx, struct wp_conn *c, struct wp_game *g, int seat, int *asker,
        int *post_seq)
{
	struct wp_undo_tail t[2];
	int n = 0;
	enum wp_err err = tail_of(ctx, c, g, seat, t, &n);

	if (err)
		return err;
	if (n < 2 || t[0].kind != WP_POST_TAKEBACK || t[0].seat == seat)
		return refuse(ctx, "no-takeback-request", "no one asks you to take back a post");
	*asker = t[0].seat;
	*post_seq = t[1].seq;
	return WP_OK;
}

static enum wp_err
do_accept(struct wp_ctx *ctx, struct wp_conn *c, struct wp_game *g, int seat, json_object **out)
{
	int asker, post_seq;
	enum wp_err err = pending(ctx, c, g, seat, &asker, &post_seq);

	return err ? err : wp_undo_last(ctx, c, g, asker, 1, out);
}

static enum wp_err
do_decline(struct wp_ctx *ctx, struct wp_conn *c, struct wp_game *g, int seat, json_object **out)
{
	int asker, post_seq;
	enum wp_err err = pending(ctx, c, g, seat, &asker, &post_seq);

	return err ? err
	           : side_post(ctx, c, g, seat, WP_POST_TAKEBACK_DECLINE, asker, post_seq, out);
}

enum wp_err
wp_api_games_takeback(struct wp_ctx *ctx)
{
	return wp_mutate_no_fields(ctx, do_request);
}

enum wp_err
wp_api_games_takeback_accept(struct wp_ctx *ctx)
{
	return wp_mutate_no_fields(ctx, do_accept);
}

enum wp_err
wp_api_games_takeback_decline(struct wp_ctx *ctx)
{
	return wp_mutate_no_fields(ctx, do_decline);
}
