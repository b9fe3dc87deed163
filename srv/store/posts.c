/* The post log, and the answers kept for Idempotency-Key, in the store. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_priv.h"

/* The fold of the match's clocks after the post (w->at set), when its
 * clocks before it are known; NULL otherwise. */
static const char *
fold_after(struct wp_post_write *w)
{
	const struct wp_interval *vac[WR_MAX_SEATS];
	struct wp_clock_fold f;
	struct wp_clock_mark m = w->mark;

	if (!w->clock || !w->tc || !w->tc->on)
		return NULL;
	for (int s = 0; s < WR_MAX_SEATS; s++)
		vac[s] = w->clock->vac[s];
	wp_clock_input_fold(w->tc, w->clock, w->nseats, &f);
	m.at = w->at;
	wp_clock_fold_step(w->tc, vac, w->clock->nvac, w->nseats, &f, &m);
	return wp_clock_fold_text(&f, w->nseats, w->fold, sizeof(w->fold)) == 0 ? w->fold : NULL;
}

/* The match's parameters after the post (GAME_UPDATE; TURN_WRITE's
 * first ten; the clocks' fold is the statement's last, fold_after()). One
 * time for the post and the match: a view of the match as of this post
 * (?at=) shows the time the live view showed. */
static void
game_params(struct wp_post_write *w, struct wp_params *game)
{
	w->at = wp_clock_now();
	wp_p_int(game, w->game);
	wp_p_text(game, wp_status_str(w->status));
	wp_p_int(game, w->seq);
	wp_p_text(game, w->state);
	wp_p_int(game, w->draws);
	wp_p_int(game, w->awaiting);     /* the clocks derive from the posts' */
	wp_p_int(game, w->draw_offers);
	wp_p_text(game, w->result);
	wp_p_bytes(game, w->client, w->client_len);
	wp_p_int(game, w->at);
}

/* The post's own columns (POST_INSERT's $3 to $10; TURN_WRITE's $14 on). */
static void
post_own_params(const struct wp_post_write *w, struct wp_params *p)
{
	if (w->seat >= 0)
		wp_p_int(p, w->seat);
	else
		wp_p_text(p, NULL);
	wp_p_text(p, wp_post_kind_str(w->kind));
	wp_p_text(p, w->actions);
	wp_p_text(p, w->comment);
	wp_p_text(p, w->comment_hidden ? "true" : "false");
	wp_p_text(p, w->events);
	wp_p_int(p, w->draws_from);
	wp_p_text(p, w->rolls);
	/* POST_INSERT's $11, TURN_WRITE's $22: the clock's mark (clock.h). */
	wp_p_int(p, wp_clock_mark_stored(&w->mark));
}

/* POST_INSERT's parameters, once game_params set w->at. */
static void
post_params(const struct wp_post_write *w, struct wp_params *post)
{
	wp_p_int(post, w->game);
	wp_p_int(post, w->seq);
	post_own_params(w, post);
	wp_p_int(post, w->at);
}

enum wp_err
wp_db_post_write(struct wp_conn *c, struct wp_post_write *w)
{
	struct wp_params post = {0}, game = {0};
	PGresult *r;
	enum wp_err err;

	game_params(w, &game);
	wp_p_text(&game, fold_after(w));
	post_params(w, &post);
	if ((err = wp_sql_run(c, WP_STMT_POST_INSERT, &post, NULL)) != WP_OK ||
	    (err = wp_sql_run(c, WP_STMT_GAME_UPDATE, &game, &r)) != WP_OK)
		return err;
	if (PQntuples(r) != 1) {
		PQclear(r);
		return WP_ERR_INTERNAL;
	}
	w->version = (int)wp_col_int(r, 0, 0);
	wp_col_str(r, 0, 1, w->updated_at, sizeof(w->updated_at));
	PQclear(r);
	return wp_db_notify(c, w->game, w->version);
}

enum wp_err
wp_db_post_commit(struct wp_conn *c, struct wp_post_write *w, const struct wp_post_guard *g)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	game_params(w, &p);
	wp_p_int(&p, g->version);
	wp_p_int(&p, g->player);
	wp_p_bytes(&p, g->token_hash, 32);
	post_own_params(w, &p);
	if (g->key) {
		wp_p_text(&p, g->key);
		wp_p_bytes(&p, g->request_hash, 32);
		wp_p_int(&p, 200);
		wp_p_text(&p, g->answer);
	}
	wp_p_text(&p, fold_after(w));   /* $23, or $27 with a key */
	/* Nothing read of the match before this moment is kept after it. */
	wp_cache_forget(w->game);
	/* unique_violation: the key was used meanwhile; decide again. */
	err = wp_sql_try(c, g->key ? WP_STMT_TURN_WRITE_KEYED : WP_STMT_TURN_WRITE, &p, &r, "23505");
	if (err != WP_OK)
		return err;
	int written = r && PQntuples(r) == 1 && wp_col_int(r, 0, 0) == 1;
	if (written)
		wp_col_str(r, 0, 1, w->updated_at, sizeof(w->updated_at));
	PQclear(r);
	if (!written)
		return WP_ERR_NOT_FOUND;     /* the guard held it back */
	w->version = g->version + 1;
	wp_tell(c, &w->game, &w->version, 1);
	return WP_OK;
}

/* Row i's post, its columns from `col` on (0: a posts statement). */
static void
read_post(PGresult *r, int i, int col, struct wp_post_row *w)
{
	w->seq = (int)wp_col_int(r, i, col + PC_SEQ);
	w->seat = wp_col_null(r, i, col + PC_SEAT) ? -1 : (int)wp_col_int(r, i, col + PC_SEAT);
	w->kind = wp_post_kind_parse(PQgetvalue(r, i, col + PC_KIND));
	w->actions = wp_col_json(r, i, col + PC_ACTIONS);
	w->comment = wp_col_strdup(r, i, col + PC_COMMENT);
	w->comment_hidden = wp_col_bool(r, i, col + PC_HIDDEN);
	w->events = wp_col_json(r, i, col + PC_EVENTS);
	w->rolls = wp_col_json(r, i, col + PC_ROLLS);
	wp_col_str(r, i, col + PC_AT, w->at, sizeof(w->at));
	w->draws_from = wp_col_int(r, i, col + PC_DRAWS_FROM);
	w->undone_by = wp_col_null(r, i, col + PC_UNDONE_BY)
	                   ? 0
	                   : (int)wp_col_int(r, i, col + PC_UNDONE_BY);
}

enum wp_err
wp_db_posts(struct wp_conn *c, int64_t game, int64_t after, int64_t limit,
            struct wp_post_row **out, int *n)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	*out = NULL;
	*n = 0;
	wp_p_int(&p, game);
	if (limit > 0) {
		wp_p_int(&p, after);
		wp_p_int(&p, limit);
	}
	if ((err = wp_sql_run(c, limit > 0 ? WP_STMT_POSTS_PAGE : WP_STMT_POSTS_ALL, &p, &r)))
		return err;
	*out = calloc((size_t)PQntuples(r) + 1, sizeof(**out));
	for (int i = 0; *out && i < PQntuples(r); i++) {
		read_post(r, i, 0, &(*out)[i]);
		*n = i + 1;
	}
	PQclear(r);
	return *out ? WP_OK : WP_ERR_INTERNAL;
}

void
wp_post_rows_free(struct wp_post_row *rows, int n)
{
	for (int i = 0; rows && i < n; i++) {
		json_object_put(rows[i].actions);
		json_object_put(rows[i].events);
		json_object_put(rows[i].rolls);
		free(rows[i].comment);
	}
	free(rows);
}

/* Row 0's snapshot columns, when it has a snapshot (else *out stays
 * zero: replay from the start). */
static enum wp_err
read_snapshot(PGresult *r, struct wp_snapshot *out)
{
	if (wp_col_null(r, 0, NC_SEQ))
		return WP_OK;
	out->seq = (int)wp_col_int(r, 0, NC_SEQ);
	out->state = wp_col_strdup(r, 0, NC_STATE);
	out->result = wp_col_strdup(r, 0, NC_RESULT);
	out->status = wp_status_parse(PQgetvalue(r, 0, NC_STATUS));
	out->awaiting = (unsigned)wp_col_int(r, 0, NC_AWAITING);
	out->draw_offers = (unsigned)wp_col_int(r, 0, NC_OFFERS);
	wp_col_str(r, 0, NC_AT, out->at, sizeof(out->at));
	if ((!out->state && !wp_col_null(r, 0, NC_STATE)) ||
	    (!out->result && !wp_col_null(r, 0, NC_RESULT)))
		return WP_ERR_INTERNAL;
	return WP_OK;
}

enum wp_err
wp_db_snapshot(struct wp_conn *c, int64_t game, int upto, int horizon, struct wp_snapshot *out)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	memset(out, 0, sizeof(*out));
	wp_p_int(&p, game);
	wp_p_int(&p, upto);
	wp_p_int(&p, horizon);
	if ((err = wp_sql_run(c, WP_STMT_SNAPSHOT_AT, &p, &r)))
		return err;
	if (PQntuples(r) == 1)
		err = read_snapshot(r, out);
	PQclear(r);
	return err;
}

enum wp_err
wp_db_past_rows(struct wp_conn *c, int64_t game, int at, struct wp_snapshot *snap,
                struct wp_post_row **rows, int *n)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;
	int total;

	memset(snap, 0, sizeof(*snap));
	*rows = NULL;
	*n = 0;
	wp_p_int(&p, game);
	wp_p_int(&p, at);
	if ((err = wp_sql_run(c, WP_STMT_PAST_ROWS, &p, &r)))
		return err;
	total = PQntuples(r);
	if (total >= 1)
		err = read_snapshot(r, snap);
	*rows = calloc((size_t)total + 1, sizeof(**rows));
	for (int i = 0; *rows && err == WP_OK && i < total; i++) {
		/* the posts' columns follow the snapshot's (NC_AT the last) */
		if (wp_col_null(r, i, NC_AT + 1 + PC_SEQ))
			continue;
		read_post(r, i, NC_AT + 1, &(*rows)[*n]);
		(*n)++;
	}
	PQclear(r);
	if (err == WP_OK && !*rows)
		err = WP_ERR_INTERNAL;
	return err;
}

void
wp_snapshot_free(struct wp_snapshot *s)
{
	free(s->state);
	free(s->result);
	memset(s, 0, sizeof(*s));
}

enum wp_err
wp_db_moves_since(struct wp_conn *c, int64_t game, int64_t seq, int64_t *n)
{
	struct wp_params p = {0};

	wp_p_int(&p, game);
	wp_p_int(&p, seq);
	return wp_sql_one(c, WP_STMT_POSTS_SINCE_MOVES, &p, n);
}

enum wp_err
wp_db_has_turn(struct wp_conn *c, int64_t game, int *yes)
{
	struct wp_params p = {0};
	int64_t n = 0;
	enum wp_err err;

	wp_p_int(&p, game);
	err = wp_sql_one(c, WP_STMT_HAS_TURN, &p, &n);
	*yes = n > 0;
	return err;
}

static void
idem_key(struct wp_params *p, int64_t game, int64_t player, const char *key)
{
	wp_p_int(p, game);
	wp_p_int(p, player);
	wp_p_text(p, key);
}

enum wp_err
wp_idem_get_by(struct wp_conn *c, enum wp_stmt st, int64_t game, int64_t player, const char *key,
               struct wp_idem *out)
{
	struct wp_params p = {0};
	PGresult *r;
	enum wp_err err;

	memset(out, 0, sizeof(*out));
	idem_key(&p, game, player, key);
	if ((err = wp_sql_run(c, st, &p, &r)) != WP_OK)
		return err;
	if (PQntuples(r) == 0) {
		err = WP_ERR_NOT_FOUND;
	} else {
		if (wp_col_bytes(r, 0, IC_HASH, out->request_hash, 32) != 32)
			memset(out->request_hash, 0, 32);
		out->status = (int)wp_col_int(r, 0, IC_STATUS);
		out->body = wp_col_strdup(r, 0, IC_BODY);
	}
	PQclear(r);
	return err;
}

enum wp_err
wp_db_idem_get(struct wp_conn *c, int64_t game, int64_t player, const char *key,
               struct wp_idem *out)
{
	return wp_idem_get_by(c, WP_STMT_IDEM_GET, game, player, key, out);
}

enum wp_err
wp_idem_put_by(struct wp_conn *c, enum wp_stmt st, int64_t game, int64_t player, const char *key,
               const unsigned char request_hash[32], int status, const char *body)
{
	struct wp_params p = {0};

	idem_key(&p, game, player, key);
	wp_p_bytes(&p, request_hash, 32);
	wp_p_int(&p, status);
	wp_p_text(&p, body);
	return wp_sql_run(c, st, &p, NULL);
}

enum wp_err
wp_db_idem_put(struct wp_conn *c, int64_t game, int64_t player, const char *key,
               const unsigned char request_hash[32], int status, const char *body)
{
	return wp_idem_put_by(c, WP_STMT_IDEM_PUT, game, player, key, request_hash, status, body);
}
