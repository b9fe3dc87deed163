/* GET /api/games/{id}/board.svg (issue 14, "Board image"): the position
 * after a post (?at=seq, default the last the caller may see) drawn from
 * the ruleset's view for the caller, the same view GET /api/games/{id}
 * gives, so hidden information is exactly as there (RULINGS.md G5) and a
 * spectator held behind (spectator_delay) sees no later post. The drawing
 * is generic, as web/renderers/generic.js reads a view: every object with
 * a `square` and an owner (`seat`, `owner`, `player` or `side`, on it or
 * on an enclosing object) is a piece, drawn as a letter of its type
 * (`type`, `kind`, `piece`, `unit` or `name`; "?" when hidden) on a disc
 * of its seat's colour; objects with a square but no owner and lists of
 * squares are terrain or markers (two letters of their key); a rank-8-first
 * `grid` string of tile letters (Officers Chess) is terrain. The last move
 * is highlighted: the `from` and `to` squares of the events of the post
 * shown that the caller may see (as the post log gives them), and squares
 * under a top-level `last...` member of the view (last move, last shot).
 * A caption names the ruleset, the match and the post.
 *
 * GET /api/games/{id}/board.png is the same document rendered by librsvg
 * (board_png.c): the same sight, the same errors, the SVG's ETag with
 * "-png" before its closing quote; 501 in a build without librsvg. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api.h"
#include "board_png.h"
#include "png_render.h"
#include "ratelimit.h"

#define FILES 8
#define RANKS 8
#define CELL 48
#define MARGIN 20
#define CAPTION 28

static const char *const owner_keys[] = {"seat", "owner", "player", "side", NULL};
static const char *const type_keys[] = {"type", "kind", "piece", "unit", "name", NULL};
static const char *const general_keys[] = {"squares", "list", "cells", "items", "state", NULL};
static const char *const seat_fill[] = {"#f4f1e8", "#2b2b2b", "#b03a2e", "#1f618d"};
static const char *const seat_ink[] = {"#111111", "#ffffff", "#ffffff", "#ffffff"};

struct cell {
	char glyph[4];
	int owner;               /* -1: no piece */
	char mark[3];            /* terrain or marker letters, "" when none */
	int last;                /* part of the last move */
};

struct board {
	struct cell c[FILES * RANKS];
};

/* The index of a square "a1".."h8", or -1. */
static int
square_at(json_object *v)
{
	const char *s;

	if (!v || !json_object_is_type(v, json_type_string))
		return -1;
	s = json_object_get_string(v);
	if (strlen(s) != 2 || s[0] < 'a' || s[0] >= 'a' + FILES || s[1] < '1' || s[1] >= '1' + RANKS)
		return -1;
	return (s[1] - '1') * FILES + (s[0] - 'a');
}

static int
in_list(const char *const *list, const char *k)
{
	for (; *list; list++)
		if (strcmp(*list, k) == 0)
			return 1;
	return 0;
}

static int
owner_of(json_object *o)
{
	for (const char *const *k = owner_keys; *k; k++) {
		json_object *v;
		if (json_object_object_get_ex(o, *k, &v) && json_object_is_type(v, json_type_int)) {
			int64_t s = json_object_get_int64(v);
			return s >= 0 && s < WR_MAX_SEATS ? (int)s : -1;
		}
	}
	return -1;
}

/* The glyph of a piece: K Q R B N P for the chess names, else the first
 * letter of its type; "?" when its type is hidden. */
static void
glyph_of(json_object *o, char out[4])
{
	static const char *const chess[][2] = {{"king", "K"}, {"queen", "Q"}, {"rook", "R"},
	                                       {"bishop", "B"}, {"knight", "N"}, {"pawn", "P"}};
	for (const char *const *k = type_keys; *k; k++) {
		json_object *v;
		if (!json_object_object_get_ex(o, *k, &v) || !json_object_is_type(v, json_type_string))
			continue;
		const char *t = json_object_get_string(v);
		for (size_t i = 0; i < sizeof(chess) / sizeof(chess[0]); i++)
			if (strcasecmp(t, chess[i][0]) == 0) {
				snprintf(out, 4, "%s", chess[i][1]);
				return;
			}
		char c = t[0] >= 'a' && t[0] <= 'z' ? (char)(t[0] - 32) : t[0];
		out[0] = (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ? c : '?';
		out[1] = 0;
		return;
	}
	snprintf(out, 4, "?");
}

static void
mark(struct board *b, int sq, const char *key)
{
	struct cell *c = &b->c[sq];

	if (c->mark[0] || !key)
		return;
	for (int i = 0, j = 0; key[i] && j < 2; i++)
		if ((key[i] >= 'a' && key[i] <= 'z') || (key[i] >= 'A' && key[i] <= 'Z'))
			c->mark[j++] = key[i];
}

static void
walk(struct board *b, json_object *node, const char *key, int depth, int owner)
{
	if (depth > 6 || !node)
		return;
	if (json_object_is_type(node, json_type_array)) {
		size_t n = json_object_array_length(node), squares = 0;
		for (size_t i = 0; i < n; i++)
			squares += square_at(json_object_array_get_idx(node, i)) >= 0;
		for (size_t i = 0; i < n; i++) {
			json_object *x = json_object_array_get_idx(node, i);
			if (n && squares == n)
				mark(b, square_at(x), key);
			else
				walk(b, x, key, depth + 1, owner);
		}
		return;
	}
	if (!json_object_is_type(node, json_type_object))
		return;
	int own = owner_of(node), who = own >= 0 ? own : owner;
	json_object *sqv;
	int sq = json_object_object_get_ex(node, "square", &sqv) ? square_at(sqv) : -1;
	if (sq >= 0 && who >= 0 && b->c[sq].owner < 0) {
		b->c[sq].owner = who;
		glyph_of(node, b->c[sq].glyph);
	} else if (sq >= 0 && who < 0) {
		json_object *t;
		const char *k = json_object_object_get_ex(node, "type", &t) &&
		                json_object_is_type(t, json_type_string) ? json_object_get_string(t) : key;
		mark(b, sq, k);
	}
	json_object_object_foreach(node, k, v) {
		if (depth == 0 && (strcmp(k, "pending") == 0 || strcmp(k, "options") == 0 ||
		                   strncmp(k, "last", 4) == 0))
			continue;
		if (json_object_is_type(v, json_type_object) || json_object_is_type(v, json_type_array))
			walk(b, v, in_list(general_keys, k) ? key : k, depth + 1, who);
	}
}

/* Squares anywhere under a top-level "last..." member: the last move. */
static void
last_squares(struct board *b, json_object *node, int depth)
{
	int sq = square_at(node);

	if (sq >= 0) {
		b->c[sq].last = 1;
	} else if (depth < 3 && json_object_is_type(node, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(node); i++)
			last_squares(b, json_object_array_get_idx(node, i), depth + 1);
	} else if (depth < 3 && json_object_is_type(node, json_type_object)) {
		json_object_object_foreach(node, k, v) {
			(void)k;
			last_squares(b, v, depth + 1);
		}
	}
}

/* The from and to squares of the post's events the viewer may see. */
static void
event_squares(struct board *b, json_object *events)
{
	for (size_t i = 0; events && i < json_object_array_length(events); i++) {
		json_object *e = json_object_array_get_idx(events, i), *v;
		if (json_object_object_get_ex(e, "from", &v) && square_at(v) >= 0)
			b->c[square_at(v)].last = 1;
		if (json_object_object_get_ex(e, "to", &v) && square_at(v) >= 0)
			b->c[square_at(v)].last = 1;
	}
}

/* The events of post `at` as the viewer may see them (a new array), or
 * NULL when there is none. */
static json_object *
post_events(struct wp_conn *c, int64_t id, int at, int viewer)
{
	struct wp_post_row *rows = NULL;
	json_object *out = NULL;
	int n = 0;

	if (at > 0 && wp_db_posts(c, id, at - 1, 1, &rows, &n) == WP_OK && n == 1)
		out = wp_events_visible(rows[0].events, viewer);
	wp_post_rows_free(rows, n);
	return out;
}

/* A grid string of tile letters, rank 8 first, '.' for plain ground. */
static void
grid_terrain(struct board *b, json_object *grid)
{
	const char *g = json_object_get_string(grid);
	int rank = RANKS - 1, file = 0;

	for (; *g && rank >= 0; g++) {
		if (*g == '/') {
			rank--;
			file = 0;
		} else if (file < FILES) {
			if (*g != '.' && ((*g >= 'a' && *g <= 'z') || (*g >= 'A' && *g <= 'Z')))
				b->c[rank * FILES + file].mark[0] = *g;
			file++;
		}
	}
}

static void
read_view(struct board *b, json_object *state)
{
	json_object *grid;

	for (int i = 0; i < FILES * RANKS; i++)
		b->c[i] = (struct cell){.owner = -1};
	if (!state || !json_object_is_type(state, json_type_object))
		return;
	if (json_object_object_get_ex(state, "grid", &grid) &&
	    json_object_is_type(grid, json_type_string))
		grid_terrain(b, grid);
	walk(b, state, "state", 0, -1);
	json_object_object_foreach(state, k, v) {
		if (strncmp(k, "last", 4) == 0)
			last_squares(b, v, 0);
	}
}

/* Text for SVG: &, <, >, quotes escaped; control characters dropped. */
static void
escape(char *out, size_t cap, const char *s)
{
	size_t n = 0;

	for (; *s && n + 7 < cap; s++) {
		const char *e = NULL;
		switch (*s) {
		case '&': e = "&amp;"; break;
		case '<': e = "&lt;"; break;
		case '>': e = "&gt;"; break;
		case '"': e = "&quot;"; break;
		case '\'': e = "&#39;"; break;
		default: break;
		}
		if (e) {
			n += (size_t)snprintf(out + n, cap - n, "%s", e);
		} else if ((unsigned char)*s >= 0x20) {
			out[n++] = *s;
		}
	}
	out[n] = 0;
}

/* Appends formatted text to a growing buffer; -1 when out of memory. */
static int __attribute__((format(printf, 4, 5)))
add(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
	va_list ap;
	char tmp[512];

	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	if ((size_t)n >= sizeof(tmp))
		n = sizeof(tmp) - 1;
	if (*len + (size_t)n + 1 > *cap) {
		size_t want = (*len + (size_t)n + 1) * 2;
		char *nb = realloc(*buf, want);
		if (!nb)
			return -1;
		*buf = nb;
		*cap = want;
	}
	memcpy(*buf + *len, tmp, (size_t)n + 1);
	*len += (size_t)n;
	return 0;
}

/* The SVG document of a board; NULL when out of memory. */
static char *
board_svg(const struct board *b, const char *caption, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0;
	int w = 2 * MARGIN + FILES * CELL, h = 2 * MARGIN + RANKS * CELL + CAPTION, bad;

	*len = 0;
	bad = add(&buf, len, &cap,
	          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
	          " viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, sans-serif\">\n"
	          "<title>%s</title>\n<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
	          w, h, w, h, caption, w, h);
	for (int r = RANKS - 1; r >= 0 && !bad; r--) {
		for (int f = 0; f < FILES && !bad; f++) {
			const struct cell *c = &b->c[r * FILES + f];
			int x = MARGIN + f * CELL, y = MARGIN + (RANKS - 1 - r) * CELL;
			bad = add(&buf, len, &cap,
			          "<rect class=\"sq\" id=\"%c%d\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\""
			          " fill=\"%s\"/>\n", 'a' + f, r + 1, x, y, CELL, CELL,
			          (r + f) % 2 ? "#eeeed2" : "#769656");
			if (!bad && c->mark[0])
				bad = add(&buf, len, &cap,
				          "<rect class=\"terrain\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\""
				          " fill=\"#8d6e63\" fill-opacity=\"0.45\"/><text x=\"%d\" y=\"%d\""
				          " font-size=\"10\" fill=\"#3e2723\">%s</text>\n",
				          x, y, CELL, CELL, x + 3, y + 11, c->mark);
			if (!bad && c->last)
				bad = add(&buf, len, &cap,
				          "<rect class=\"last\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\""
				          " fill=\"#f7ec59\" fill-opacity=\"0.55\"/>\n", x, y, CELL, CELL);
			if (!bad && c->owner >= 0)
				bad = add(&buf, len, &cap,
				          "<g class=\"piece\" data-seat=\"%d\"><circle cx=\"%d\" cy=\"%d\""
				          " r=\"%d\" fill=\"%s\" stroke=\"#000000\"/><text x=\"%d\" y=\"%d\""
				          " font-size=\"22\" font-weight=\"bold\" text-anchor=\"middle\""
				          " fill=\"%s\">%s</text></g>\n",
				          c->owner, x + CELL / 2, y + CELL / 2, CELL / 2 - 5,
				          seat_fill[c->owner % 4], x + CELL / 2, y + CELL / 2 + 8,
				          seat_ink[c->owner % 4], c->glyph);
		}
	}
	for (int f = 0; f < FILES && !bad; f++)
		bad = add(&buf, len, &cap,
		          "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%c</text>\n",
		          MARGIN + f * CELL + CELL / 2, MARGIN + RANKS * CELL + 13, 'a' + f);
	for (int r = 0; r < RANKS && !bad; r++)
		bad = add(&buf, len, &cap,
		          "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%d</text>\n",
		          MARGIN / 2, MARGIN + (RANKS - 1 - r) * CELL + CELL / 2 + 4, r + 1);
	if (!bad)
		bad = add(&buf, len, &cap,
		          "<text class=\"caption\" x=\"%d\" y=\"%d\" font-size=\"13\">%s</text>\n</svg>\n",
		          MARGIN, h - 8, caption);
	if (bad) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The SVG document as a PNG (a new buffer in *body; the SVG is freed):
 * the kept rendering of this ETag, else one from the renderer process
 * (png_render.c), which counts PNG_RENDER_COST requests against the
 * address's RATE_LIMIT_REQUESTS (the request itself counted one). */
static enum wp_err
to_png(struct wp_ctx *ctx, const char *etag, char *svg, size_t *len, char **body)
{
	unsigned char *png = NULL;
	size_t n = 0;
	char why[160];
	enum wp_err err = WP_OK;
	int rc = WP_RENDER_OK;
	unsigned cost = wp_render_cost();

	if (!wp_png_cache_get(etag, &png, &n)) {
		if (cost > 1)
			err = wp_rate_check_ip_n(ctx, WP_RATE_REQUESTS, cost - 1);
		if (err == WP_OK && (rc = wp_render_png(svg, *len, &png, &n, why, sizeof(why))) ==
		                        WP_RENDER_OK)
			wp_png_cache_put(etag, png, n);
	}
	free(svg);
	*body = (char *)png;
	*len = n;
	if (err != WP_OK || rc == WP_RENDER_OK)
		return err;
	wp_log("board.png: %s", why);
	if (rc == WP_RENDER_DOWN)
		return wp_fail(ctx, WP_ERR_OVERLOADED, "the image could not be rendered now; try again");
	return wp_fail(ctx, WP_ERR_INTERNAL, "the image could not be rendered");
}

static enum wp_err
board(struct wp_ctx *ctx, int png)
{
	struct wp_player who = {0};
	struct wp_game g = {0};
	struct wp_sight sight;
	struct board b;
	int64_t id, at;
	struct wp_past past = {0};
	json_object *events = NULL;
	enum wp_err err;
	struct wp_conn *c;
	char etag[64], caption[256], title[128];

	if (png && !wp_png_available())
		return wp_fail(ctx, WP_ERR_NOT_IMPLEMENTED,
		               "this server was built without librsvg: board.png is not available; "
		               "board.svg is");
	if ((err = wp_game_id(ctx, &id)) ||
	    (err = wp_query_int(ctx, "at", 1, INT32_MAX, 0, &at)) || (err = wp_conn_get(ctx, &c)))
		return err;
	if ((err = wp_auth_optional(ctx, c, &who)) == WP_OK &&
	    (err = wp_game_get(ctx, c, id, 0, &g)) == WP_OK &&
	    (err = wp_game_sight(ctx, &g, who.id, &sight)) == WP_OK) {
		if (at == 0)
			at = sight.upto;
		/* Beyond the log and beyond the delay answer alike (G5). */
		if (at > sight.upto)
			err = wp_fail(ctx, WP_ERR_NOT_FOUND, "the match has no post %lld to show you",
			              (long long)at);
	}
	int fresh = 0;
	if (err == WP_OK) {
		wp_etag_viewer(etag, sizeof(etag), 'b', id, 'p', (int)at, sight.viewer);
		size_t n = strlen(etag);
		if (png && n >= 2 && n + 4 < sizeof(etag))
			memcpy(etag + n - 1, "-png\"", 6);
		const char *inm = wp_request_header(ctx->req, "If-None-Match");
		fresh = inm && (strstr(inm, etag) || strcmp(inm, "*") == 0);
		if (!fresh && at > 0 && (err = wp_past_at(ctx, c, &g, (int)at, &past, NULL)) == WP_OK)
			events = post_events(c, id, (int)at, sight.viewer);
	}
	wp_store_put(ctx->store, c);
	if (err == WP_OK) {
		wp_response_header(ctx->res, "ETag", etag);
		wp_response_header(ctx->res, "Cache-Control", "private, no-cache");
		wp_response_header(ctx->res, "Vary", "Authorization");
	}
	if (err == WP_OK && fresh) {
		ctx->res->status = 304;
	} else if (err == WP_OK) {
		json_object *view = past.state ? g.rs->view(past.state, sight.viewer) : NULL;
		read_view(&b, view);
		event_squares(&b, events);
		json_object_put(view);
		escape(title, sizeof(title), g.rs->title);
		if (at)
			snprintf(caption, sizeof(caption), "%s \xc2\xb7 match %lld \xc2\xb7 after post %lld",
			         title, (long long)id, (long long)at);
		else
			snprintf(caption, sizeof(caption), "%s \xc2\xb7 match %lld \xc2\xb7 not started",
			         title, (long long)id);
		size_t len;
		char *svg = board_svg(&b, caption, &len);
		if (!svg)
			err = wp_fail(ctx, WP_ERR_INTERNAL, "out of memory");
		else if (!png)
			err = wp_reply_bytes(ctx, 200, "image/svg+xml", svg, len);
		else if ((err = to_png(ctx, etag, svg, &len, &svg)) == WP_OK)
			err = wp_reply_bytes(ctx, 200, "image/png", svg, len);
	}
	if (g.rs)
		wp_past_free(&g, &past);
	json_object_put(events);
	wp_game_free(&g);
	return err;
}

enum wp_err
wp_api_games_board(struct wp_ctx *ctx)
{
	return board(ctx, 0);
}

enum wp_err
wp_api_games_board_png(struct wp_ctx *ctx)
{
	return board(ctx, 1);
}
