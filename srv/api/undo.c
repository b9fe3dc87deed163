/* Undo (issue 14, "Correspondence play"): POST /api/games/{id}/undo.
 * Within its own turn a seat may take back its last posts until a die is
 * rolled or something hidden is revealed to anyone (the undo barrier,
 * rules.h wr_undo_reveals). The undo is a post of its own, logged and
 * public; the posts it takes back stay in the log, marked (undone_by),
 * and the state is the replay of the log without them. */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "replay.h"

#define WP_UNDO_MAX 32           /* posts taken back at once, at most */

/* Why a post cannot be taken back; the refusal's `code`. */
enum undo_why {
	UNDO_OK,
	UNDO_NOTHING,            /* no post of the seat's turn left to take back */
	UNDO_DICE,               /* a die was rolled */
	UNDO_REVEALED,           /* something hidden was revealed to someone */
	UNDO_NOT_YOUR_TURN,      /* the turn has passed */
	UNDO_WHY_MAX
};

static const struct {
	const char *code, *text;
} whys[UNDO_WHY_MAX] = {
	[UNDO_OK] = {"", ""},
	[UNDO_NOTHING] = {"nothing-to-undo", "you have no post of this turn left to take back"},
	[UNDO_DICE] = {"dice-rolled", "a die was rolled: what came before it stands"},
	[UNDO_REVEALED] = {"information-revealed",
	                   "something hidden was revealed: what came before it stands"},
	[UNDO_NOT_YOUR_TURN] = {"not-your-turn", "only the seat whose turn it is may take back"},
};

/* The seat's own posts of its turn, as far back as the log allows: its
 * turns since another seat's post (or any other kind of post), leaving
 * out posts already taken back and its own undo posts. */
struct undo_plan {
	int n;
	int row[WP_UNDO_MAX];            /* index in the log, ascending */
	enum undo_why barrier[WP_UNDO_MAX];
	void *before[WP_UNDO_MAX];       /* the state before each, owned */
};

static void
plan_free(const struct wr_ruleset *rs, struct undo_plan *p)
{
	for (int i = 0; i < p->n; i++)
		if (p->before[i])
			rs->free(p->before[i]);
	p->n = 0;
}

/* 1 when the turn may reach back before the first row given. */
static int
candidates(const struct wp_post_row *rows, int n, int seat, struct undo_plan *p)
{
	int found = 0, i;

	for (i = n - 1; i >= 0 && found < WP_UNDO_MAX; i--) {
		if (rows[i].undone_by || ((rows[i].kind == WP_POST_UNDO ||
		                           rows[i].kind == WP_POST_TAKEBACK) && rows[i].seat == seat))
			continue;
		if (rows[i].kind != WP_POST_TURN || rows[i].seat != seat)
			break;
		found++;
	}
	int reaches = i < 0 && found < WP_UNDO_MAX;
	p->n = 0;
	for (int j = n - 1; j >= 0 && p->n < found; j--)
		if (!rows[j].undone_by && rows[j].kind == WP_POST_TURN && rows[j].seat == seat)
			p->row[p->n++] = j;
	for (int a = 0, b = p->n - 1; a < b; a++, b--) {
		int t = p->row[a];
		p->row[a] = p->row[b];
		p->row[b] = t;
	}
	return reaches;
}

/* The replay ends where the match is: both snapshots through save(). */
static int
same_as_stored(const struct wp_game *g, const void *state)
{
	void *stored = wp_game_state(g);
	json_object *a = g->rs->save(state), *b = stored ? g->rs->save(stored) : NULL;
	int same = b && strcmp(json_object_to_json_string_ext(a, JSON_C_TO_STRING_PLAIN),
	                       json_object_to_json_string_ext(b, JSON_C_TO_STRING_PLAIN)) == 0;

	json_object_put(a);
	json_object_put(b);
	if (stored)
		g->rs->free(stored);
	return same;
}

/* Replays the posts loaded (those after the snapshot `start`) to the
 * seat's candidates and through them, keeping the state before each and
 * its barrier. -1 when they do not replay to the stored state (then
 * nothing may be taken back). */
static int
plan_undo(struct wp_game *g, struct wp_past *start, const struct wp_post_row *rows, int n,
          int seat, struct undo_plan *p)
{
	struct wp_replay r;
	int rc = 0, k = 0;

	memset(p->before, 0, sizeof(p->before));
	if (p->n == 0)
		return 0;
	wp_replay_begin(&r, g->rs, g->options, g->nseats, g->seed, g->client, g->client_len);
	wp_replay_from(&r, start);
	for (int i = 0; i < n && rc == 0; i++) {
		if (rows[i].undone_by)
			continue;
		int cand = k < p->n && i == p->row[k];
		if (cand)
			p->before[k] = r.now.state ? wr_clone(g->rs, r.now.state) : NULL;
		rc = wp_replay_step(&r, &(struct wp_past_post){
			.seat = rows[i].seat, .kind = rows[i].kind, .actions = rows[i].actions,
			.draws_from = rows[i].draws_from});
		if (cand && rc == 0) {
			p->barrier[k] = !p->before[k] ? UNDO_NOTHING
			                : r.rng.log_len ? UNDO_DICE
			                : wr_undo_reveals(g->rs, p->before[k], r.now.state, seat, &r.ev)
			                    ? UNDO_REVEALED
			                    : UNDO_OK;
			k++;
		}
	}
	if (rc != 0 || !r.now.state || k != p->n || !same_as_stored(g, r.now.state)) {
		wp_log("game %lld: the log does not replay to its state; undo refused",
		       (long long)g->id);
		rc = -1;
	}
	wp_replay_free(&r);
	return rc;
}

/* The posts of the seat's turn and the state before them (issue 26): the
 * posts after the latest snapshot, or an earlier one while the turn may
 * reach back before it; never the whole log but in a match without one. */
static enum wp_err
load_turn(struct wp_conn *c, struct wp_game *g, int seat, struct wp_post_row **rows, int *n,
          struct wp_past *start, struct undo_plan *p)
{
	struct wp_snapshot snap = {0};
	int upto = g->seq;
	enum wp_err err;

	for (;;) {
		if ((err = wp_db_snapshot(c, g->id, upto, g->seq, &snap)) != WP_OK)
			return err;
		if (snap.seq < g->seq &&
		    (err = wp_db_posts(c, g->id, snap.seq, g->seq - snap.seq, rows, n)) != WP_OK)
			break;
		if (!candidates(*rows, *n, seat, p) || snap.seq == 0)
			break;
		upto = snap.seq - 1;
		wp_post_rows_free(*rows, *n);
		*rows = NULL;
		*n = 0;
		wp_snapshot_free(&snap);
	}
	struct wp_game then = *g;
	then.state = snap.state;
	memset(start, 0, sizeof(*start));
	start->draw_offers = snap.draw_offers;
	start->status = snap.seq ? snap.status : WP_STATUS_ACTIVE;
	if (err == WP_OK && snap.state && !(start->state = wp_game_state(&then)))
		err = WP_ERR_INTERNAL;
	wp_snapshot_free(&snap);
	return err;
}

/* Whether the last `count` candidates may be taken back: the reason of
 * the latest that may not. */
static enum undo_why
allowed(const struct undo_plan *p, int count)
{
	for (int j = p->n - 1; j >= p->n - count; j--) {
		if (j < 0)
			return UNDO_NOTHING;
		if (p->barrier[j] != UNDO_OK)
			return p->barrier[j];
	}
	return UNDO_OK;
}

static enum wp_err
refuse(struct wp_ctx *ctx, enum undo_why why)
{
	wp_fail_extra(ctx, "code", json_object_new_string(whys[why].code));
	return wp_fail(ctx, WP_ERR_UNDO_NOT_ALLOWED, "%s", whys[why].text);
}

/* Writes the undo post with the state before the first post taken back,
 * and marks those posts. */
static enum wp_err
write_undo(struct wp_ctx *ctx, struct wp_conn *c, struct wp_game *g, int seat,
           const struct wp_post_row *rows, const struct undo_plan *p, int count,
           json_object **out)
{
	json_object *seqs = json_object_new_array(), *event = json_object_new_object();
	int list[WP_UNDO_MAX], marked = 0;
	struct wr_events ev = {0};
	enum wp_err err;

	for (int j = p->n - count; j < p->n; j++) {
		list[j - (p->n - count)] = rows[p->row[j]].seq;
		json_object_array_add(seqs, json_object_new_int(rows[p->row[j]].seq));
	}
	/* Public: everyone reads that the seat took these posts back. */
	json_object_object_add(event, "type", json_object_new_string("undo"));
	json_object_object_add(event, "seat", json_object_new_int(seat));
	json_object_object_add(event, "posts", json_object_get(seqs));
	wr_emit(&ev, WR_VIS_PUBLIC, event);
	/* The post's content, as replays read it (wp_undo_seqs). */
	json_object *content = json_object_new_array(), *undo = json_object_new_object();
	json_object_object_add(undo, "type", json_object_new_string("undo"));
	json_object_object_add(undo, "posts", json_object_get(seqs));
	json_object_array_add(content, undo);
	/* Like a turn, it changes the position: a draw on offer lapses. */
	struct wp_post post = {.seat = seat, .kind = WP_POST_UNDO, .content = content};
	err = wp_post_store(ctx, c, g, p->before[p->n - count], &post, NULL, &ev, out);
	if (err == WP_OK &&
	    ((err = wp_db_posts_undo(c, g->id, list, count, g->seq + 1, &marked)) != WP_OK ||
	     marked != count)) {
		err = wp_fail_store(ctx, err ? err : WP_ERR_INTERNAL);
	}
	if (err == WP_OK)
		json_object_object_add(*out, "undone", json_object_get(seqs));
	wr_events_free(&ev);
	json_object_put(content);
	json_object_put(seqs);
	return err;
}

static enum wp_err
do_undo(struct wp_ctx *ctx, struct wp_conn *c, struct wp_game *g, int seat, json_object **out)
{
	int64_t seq, count;
	enum wp_err err;

	if ((err = wp_body_int(ctx, "seq", 0, INT32_MAX, 1, 0, &seq)) ||
	    (err = wp_body_int(ctx, "count", 1, WP_UNDO_MAX, 0, 1, &count)) ||
	    (err = wp_must_be_active(ctx, g)))
		return err;
	if (seq != g->seq) {
		wp_fail_extra(ctx, "seq", json_object_new_int(g->seq));
		return wp_fail(ctx, WP_ERR_STALE_SEQUENCE,
		               "the match is at post %d, not %lld: reload and try again", g->seq,
		               (long long)seq);
	}
	if (!(g->awaiting & (1u << seat)))
		return refuse(ctx, UNDO_NOT_YOUR_TURN);
	return wp_undo_last(ctx, c, g, seat, (int)count, out);
}

/* Takes back the seat's last `count` posts as an undo post of the seat's
 * (also when another seat accepts its takeback request, api/takeback.c). */
enum wp_err
wp_undo_last(struct wp_ctx *ctx, struct wp_conn *c, struct wp_game *g, int seat, int count,
             json_object **out)
{
	struct wp_post_row *rows = NULL;
	struct undo_plan plan = {0};
	struct wp_past start = {0};
	int n = 0;
	enum wp_err err;

	if ((err = load_turn(c, g, seat, &rows, &n, &start, &plan)) != WP_OK)
		err = wp_fail_store(ctx, err);
	else if (plan_undo(g, &start, rows, n, seat, &plan) != 0)
		err = wp_fail(ctx, WP_ERR_INTERNAL, "the match's log does not replay");
	else if (allowed(&plan, count) != UNDO_OK)
		err = refuse(ctx, allowed(&plan, count));
	else
		err = write_undo(ctx, c, g, seat, rows, &plan, count, out);
	plan_free(g->rs, &plan);
	if (start.state)
		g->rs->free(start.state);
	wp_post_rows_free(rows, n);
	return err;
}

enum wp_err
wp_api_games_undo(struct wp_ctx *ctx)
{
	static const char *const fields[] = {"seq", "count", NULL};
	enum wp_err err;

	if ((err = wp_body_only(ctx, fields)))
		return err;
	return wp_mutate(ctx, do_undo);
}

unsigned
wp_told_unknown(const struct wp_game *g, unsigned told)
{
	void *st;

	if (!told || !(st = wp_game_state_current(g)))
		return told;
	for (int s = 0; s < g->nseats; s++)
		if ((told & (1u << s)) && wr_sees_all(g->rs, st, s))
			told &= ~(1u << s);
	wp_game_state_done(g, st);
	return told;
}

/* From the last posts of the log alone, without a replay (GET actions
 * is asked at every turn): the seat's last post of its turn is among the
 * last 8, it drew no die, and none of its events told another seat
 * something it did not know (wp_told_unknown). A change of phase or the
 * ruleset's own barrier is found by the undo itself. */
int
wp_undo_possible(struct wp_conn *c, struct wp_game *g, int seat)
{
	struct wp_undo_tail tail[8];
	int n = 0;

	if (g->status != WP_STATUS_ACTIVE || !(g->awaiting & (1u << seat)) ||
	    wp_db_undo_tail(c, g->id, seat, tail, 8, &n) != WP_OK)
		return 0;
	for (int i = 0; i < n; i++) {
		if (tail[i].undone || (tail[i].kind == WP_POST_UNDO && tail[i].seat == seat))
			continue;
		return tail[i].kind == WP_POST_TURN && tail[i].seat == seat && !tail[i].rolled &&
		       !wp_told_unknown(g, tail[i].told);
	}
	return 0;
}
