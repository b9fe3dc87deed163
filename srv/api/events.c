/* GET /api/games/{id}/events: Server-Sent Events of a match's posts
 * (issue 14, "Live updates"): the posts after the caller's last event id
 * (Last-Event-ID, or ?after=), one event each (id: the post's seq; data:
 * the post as GET /api/games/{id}/turns gives it to the caller, RULINGS.md
 * G5). A spectator held behind (spectator_delay) gets the posts up to the
 * one it may see. Once the match is over and every post is sent, 204 ends
 * the stream (EventSource stops).
 *
 * Two ways of answering. An EventSource through a front that can stream
 * (HTTP: can_stream, Accept: text/event-stream) gets the events or a
 * heartbeat at once with res->stream set: the front keeps the answer open
 * and serves the request again from the last id whenever the match changes
 * or the heartbeat is due (front/http.c, sse_*). Otherwise each answer is
 * a finite text/event-stream: with nothing to send the request is held
 * like a long-poll (wait.c, woken by NOTIFY wp_game) up to ?wait= seconds,
 * then answered with a comment and the same id; EventSource reconnects
 * after `retry` with Last-Event-ID, so it resumes exactly where it stands.
 * GET /api/me/events, below, does the same for a player's matches. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "wait.h"

#define WP_EVENTS_WAIT_DEFAULT 25
#define WP_EVENTS_WAIT_MAX 60
#define WP_EVENTS_BATCH 100
#define WP_EVENTS_RETRY_MS "1000"
#define WP_EVENTS_BEAT_MIN 5

/* The last event id the client has: Last-Event-ID (a reconnecting
 * EventSource) first, else ?after=, else -1 (from now). */
static enum wp_err
last_event_id(struct wp_ctx *ctx, int64_t *after)
{
	const char *h = wp_request_header(ctx->req, "Last-Event-ID");

	if (h && *h) {
		if (strcmp(h, "0") == 0)
			*after = 0;
		else if (wp_parse_id(h, after) != 0 || *after > INT32_MAX)
			return wp_fail(ctx, WP_ERR_INVALID, "Last-Event-ID: must be a post's seq");
		return WP_OK;
	}
	return wp_query_int(ctx, "after", -1, INT32_MAX, -1, after);
}

/* An EventSource (it always sends Accept: text/event-stream) through a
 * front that can keep the answer open: the answer is a stream. */
static int
streaming(struct wp_ctx *ctx)
{
	const char *a = wp_request_header(ctx->req, "Accept");

	return ctx->req->can_stream && a && strstr(a, "text/event-stream");
}

/* Keeps the answer open: the front waits on key (a match, or -player)
 * up to `wait` seconds (from WP_EVENTS_BEAT_MIN to the default: a
 * heartbeat comment at least that often), then serves the request again
 * from event_id. */
static void
stream_on(struct wp_ctx *ctx, int64_t key, uint64_t gen, int64_t wait, int64_t event_id)
{
	if (wait < WP_EVENTS_BEAT_MIN)
		wait = WP_EVENTS_BEAT_MIN;
	if (wait > WP_EVENTS_WAIT_DEFAULT)
		wait = WP_EVENTS_WAIT_DEFAULT; /* below CONNECTION_TIMEOUT's default */
	ctx->res->stream = 1;
	ctx->res->wait_game = key;
	ctx->res->wait_gen = gen;
	ctx->res->wait_until_ns = wp_now_ns() + wait * 1000000000;
	ctx->res->event_id = event_id;
}

/* Appends text to a growing buffer; -1 when out of memory. */
static int
put(char **buf, size_t *len, size_t *cap, const char *s)
{
	size_t n = strlen(s);

	if (*len + n + 1 > *cap) {
		size_t want = (*len + n + 1) * 2;
		char *b = realloc(*buf, want);
		if (!b)
			return -1;
		*buf = b;
		*cap = want;
	}
	memcpy(*buf + *len, s, n + 1);
	*len += n;
	return 0;
}

static enum wp_err
reply_stream(struct wp_ctx *ctx, const struct wp_post_row *rows, int n, int viewer, int upto,
             int64_t last)
{
	char *buf = NULL, line[64];
	size_t len = 0, cap = 0;
	int bad = put(&buf, &len, &cap, "retry: " WP_EVENTS_RETRY_MS "\n");

	for (int i = 0; i < n && !bad; i++) {
		json_object *p = wp_post_json(&rows[i], viewer, upto);
		snprintf(line, sizeof(line), "id: %d\nevent: post\ndata: ", rows[i].seq);
		bad = put(&buf, &len, &cap, line) ||
		      put(&buf, &len, &cap, wp_json_text(
		              p, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)) ||
		      put(&buf, &len, &cap, "\n\n");
		json_object_put(p);
	}
	if (!bad && n == 0) {
		/* No event: the id alone keeps the client's place (an event
		 * without data sets the last event id and dispatches nothing). */
		snprintf(line, sizeof(line), ": ping\nid: %lld\n\n", (long long)(last < 0 ? 0 : last));
		bad = put(&buf, &len, &cap, line);
	}
	if (bad) {
		free(buf);
		return wp_fail(ctx, WP_ERR_INTERNAL, "out of memory");
	}
	return wp_reply_bytes(ctx, 200, "text/event-stream", buf, len);
}

enum wp_err
wp_api_games_events(struct wp_ctx *ctx)
{
	struct wp_player who = {0};
	struct wp_game g = {0};
	struct wp_post_row *rows = NULL;
	struct wp_sight sight;
	int64_t id, after, wait;
	int n = 0, shown = 0;
	enum wp_err err;
	struct wp_conn *c;

	if ((err = wp_game_id(ctx, &id)) || (err = last_event_id(ctx, &after)) ||
	    (err = wp_query_int(ctx, "wait", 0, WP_EVENTS_WAIT_MAX, WP_EVENTS_WAIT_DEFAULT, &wait)))
		return err;
	/* The generation before the database read (wait.h). */
	uint64_t gen = wp_wait_gen(id);
	if ((err = wp_conn_get(ctx, &c)))
		return err;
	if ((err = wp_auth_optional(ctx, c, &who)) == WP_OK &&
	    (err = wp_game_get(ctx, c, id, 0, &g)) == WP_OK &&
	    (err = wp_game_sight(ctx, &g, who.id, &sight)) == WP_OK) {
		if (after < 0)
			after = sight.upto;
		if (after < sight.upto &&
		    (err = wp_db_posts(c, id, after, WP_EVENTS_BATCH, &rows, &n)) != WP_OK)
			err = wp_fail_store(ctx, err);
	}
	wp_store_put(ctx->store, c);
	if (err == WP_OK) {
		while (shown < n && rows[shown].seq <= sight.upto)
			shown++;
		int64_t now = wp_now_ns();
		int64_t until = ctx->req->wait_until_ns ? ctx->req->wait_until_ns
		                                        : now + wait * 1000000000;
		int stream = streaming(ctx);
		wp_response_header(ctx->res, "Cache-Control", "no-store");
		wp_response_header(ctx->res, "X-Accel-Buffering", "no");
		if (shown == 0 && wp_game_over(&g)) {
			/* Nothing more will come: 204 tells EventSource to stop. */
			ctx->res->status = 204;
		} else if (!stream && shown == 0 && wait > 0 && ctx->req->can_wait && now < until) {
			wp_hold(ctx, id, gen, until);
		} else {
			err = reply_stream(ctx, rows, shown, sight.viewer, sight.upto, after);
			/* A full batch may have more behind it, and after the
			 * end the stream is to be closed: a generation already
			 * past makes the front come back at once. */
			int again = shown == WP_EVENTS_BATCH || wp_game_over(&g);
			if (err == WP_OK && stream)
				stream_on(ctx, id, again ? gen - 1 : gen, wait,
				          shown ? rows[shown - 1].seq : after);
		}
	}
	wp_post_rows_free(rows, n);
	wp_game_free(&g);
	return err;
}

/* GET /api/me/events: the caller's matches as GET /api/me/games gives
 * them (first page), as one `games` event whenever any of them changes.
 * The event id is the sum of version + 1 over the player's matches, which
 * every new match and every change raises: a client whose Last-Event-ID is
 * the current sum has missed nothing and waits (woken through the
 * player's key, wait.h); any other id gets the list at once. */
enum wp_err
wp_api_me_events(struct wp_ctx *ctx)
{
	struct wp_player who;
	json_object *doc = NULL;
	int64_t after, wait, changes = 0;
	uint64_t gen = 0;
	enum wp_err err;
	struct wp_conn *c;

	if ((err = last_event_id(ctx, &after)) ||
	    (err = wp_query_int(ctx, "wait", 0, WP_EVENTS_WAIT_MAX, WP_EVENTS_WAIT_DEFAULT, &wait)) ||
	    (err = wp_conn_get(ctx, &c)))
		return err;
	if ((err = wp_auth_player(ctx, c, &who)) == WP_OK) {
		/* The generation before the matches are read (wait.h). */
		gen = wp_wait_gen(-who.id);
		if ((err = wp_db_my_changes(c, who.id, &changes)))
			err = wp_fail_store(ctx, err);
		else if (after != changes)
			err = wp_my_games_doc(ctx, c, who.id, 50, 0, 0, &doc);
	}
	wp_store_put(ctx->store, c);
	if (err)
		return err;
	int64_t now = wp_now_ns();
	int64_t until = ctx->req->wait_until_ns ? ctx->req->wait_until_ns : now + wait * 1000000000;
	wp_response_header(ctx->res, "Cache-Control", "no-store");
	wp_response_header(ctx->res, "X-Accel-Buffering", "no");
	int stream = streaming(ctx);
	if (!stream && after == changes && wait > 0 && ctx->req->can_wait && now < until) {
		wp_hold(ctx, -who.id, gen, until);
		return WP_OK;
	}
	if (stream)
		stream_on(ctx, -who.id, gen, wait, changes);
	char head[96];
	if (after == changes) {
		snprintf(head, sizeof(head), "retry: " WP_EVENTS_RETRY_MS "\n: ping\nid: %lld\n\n",
		         (long long)changes);
		char *b = strdup(head);
		return b ? wp_reply_bytes(ctx, 200, "text/event-stream", b, strlen(b))
		         : wp_fail(ctx, WP_ERR_INTERNAL, "out of memory");
	}
	snprintf(head, sizeof(head), "retry: " WP_EVENTS_RETRY_MS "\nid: %lld\nevent: games\ndata: ",
	         (long long)changes);
	const char *data = wp_json_text(doc, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	size_t len = strlen(head) + strlen(data) + 2;
	char *body = malloc(len + 1);
	if (body)
		snprintf(body, len + 1, "%s%s\n\n", head, data);
	json_object_put(doc);
	if (!body)
		return wp_fail(ctx, WP_ERR_INTERNAL, "out of memory");
	return wp_reply_bytes(ctx, 200, "text/event-stream", body, len);
}
