/* Players and me: POST /api/players, GET /api/me, GET /api/me/games. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "api.h"
#include "ratelimit.h"

#define WP_NAME_MAX_CHARS 40

/* The code point at p (valid UTF-8: the body's parser checked it) when it
 * is one a name may not hold, else 0; *step is its length in bytes. Refused:
 * C0 and C1 controls and DEL; the direction embeddings, overrides and
 * isolates (U+202A..202E, U+2066..2069), which reorder what is shown after
 * them and so let one name pass for another; the line and paragraph
 * separators; and the invisible ones a name would look empty or the same
 * with (U+200B zero width space, U+2060..2064, U+FEFF). The joiners
 * U+200C and U+200D stay: scripts and emoji need them. */
static unsigned
refused_in_name(const unsigned char *p, size_t *step)
{
	unsigned cp;

	if (p[0] < 0x80) {
		*step = 1;
		cp = p[0];
	} else if ((p[0] & 0xe0) == 0xc0) {
		*step = 2;
		cp = (p[0] & 0x1fu) << 6 | (p[1] & 0x3fu);
	} else if ((p[0] & 0xf0) == 0xe0) {
		*step = 3;
		cp = (p[0] & 0x0fu) << 12 | (p[1] & 0x3fu) << 6 | (p[2] & 0x3fu);
	} else {
		*step = 4;
		return 0;
	}
	if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x200b ||
	    (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2060 && cp <= 0x2064) ||
	    (cp >= 0x2066 && cp <= 0x2069) || cp == 0xfeff)
		return cp;
	return 0;
}

enum wp_err
wp_check_shown_text(struct wp_ctx *ctx, const char *field, const char *s)
{
	size_t step;

	for (const unsigned char *p = (const unsigned char *)s; *p; p += step)
		if (refused_in_name(p, &step))
			return wp_fail(ctx, WP_ERR_INVALID,
			               "%s: control, direction and invisible characters are not allowed",
			               field);
	return WP_OK;
}

enum wp_err
wp_check_name(struct wp_ctx *ctx, const char *field, const char *in, char *out, size_t cap)
{
	size_t len, chars = 0;
	const unsigned char *p;
	enum wp_err err;

	while (*in == ' ')
		in++;
	len = strlen(in);
	while (len && in[len - 1] == ' ')
		len--;
	if (len == 0)
		return wp_fail(ctx, WP_ERR_INVALID, "%s: must not be empty", field);
	if (len >= cap)
		return wp_fail(ctx, WP_ERR_INVALID, "%s: at most %d characters", field,
		               WP_NAME_MAX_CHARS);
	memcpy(out, in, len);
	out[len] = '\0';
	if ((err = wp_check_shown_text(ctx, field, out)))
		return err;
	for (p = (const unsigned char *)out; *p; p++)
		chars += (*p & 0xc0) != 0x80;
	if (chars > WP_NAME_MAX_CHARS)
		return wp_fail(ctx, WP_ERR_INVALID, "%s: at most %d characters", field,
		               WP_NAME_MAX_CHARS);
	return WP_OK;
}

enum wp_err
wp_api_players_create(struct wp_ctx *ctx)
{
	static const char *const fields[] = {"name", "device", NULL};
	char name[4 * WP_NAME_MAX_CHARS + 1], device[sizeof(name)], token[65];
	unsigned char hash[32];
	json_object *jname, *out;
	enum wp_err err;
	struct wp_conn *c;
	int64_t id;

	if ((err = wp_body_only(ctx, fields)) != WP_OK)
		return err;
	if (!json_object_object_get_ex(ctx->body, "name", &jname))
		return wp_fail(ctx, WP_ERR_INVALID, "name: required");
	if (!json_object_is_type(jname, json_type_string))
		return wp_fail(ctx, WP_ERR_INVALID, "name: must be a string");
	if ((size_t)json_object_get_string_len(jname) != strlen(json_object_get_string(jname)))
		return wp_fail(ctx, WP_ERR_INVALID, "name: control characters are not allowed");
	if ((err = wp_check_name(ctx, "name", json_object_get_string(jname), name,
	                         sizeof(name))) != WP_OK ||
	    (err = wp_device_name(ctx, "First device", device, sizeof(device))) != WP_OK ||
	    (err = wp_rate_check_ip(ctx, WP_RATE_PLAYERS)) != WP_OK)
		return err;

	if ((err = wp_conn_get(ctx, &c)) != WP_OK)
		return err;
	wp_token_new(token, hash);
	err = wp_db_player_insert(c, name, hash, device, &id);
	wp_store_put(ctx->store, c);
	if (err != WP_OK) {
		sodium_memzero(token, sizeof(token));
		return wp_fail(ctx, err == WP_ERR_DB_UNAVAILABLE ? err : WP_ERR_INTERNAL,
		               "the player could not be stored");
	}
	out = json_object_new_object();
	json_object_object_add(out, "id", json_object_new_int64(id));
	json_object_object_add(out, "name", json_object_new_string(name));
	json_object_object_add(out, "token", json_object_new_string(token));
	sodium_memzero(token, sizeof(token));
	return wp_reply_json(ctx, 201, out);
}

enum wp_err
wp_api_me(struct wp_ctx *ctx)
{
	struct wp_player who;
	struct wp_conn *c;
	enum wp_err err;

	if ((err = wp_conn_get(ctx, &c)) != WP_OK)
		return err;
	err = wp_auth_player(ctx, c, &who);
	wp_store_put(ctx->store, c);
	if (err != WP_OK)
		return err;
	return wp_reply_json(ctx, 200, wp_me_json(&who));
}

/* The match's state as the seat sees it (G5), as GET /api/games/{id}. */
static json_object *
my_game_state(const struct wp_my_game *m)
{
	struct wp_game g = {.id = m->id, .rs = wr_ruleset_find(m->ruleset), .state = m->state};
	int over = m->status == WP_STATUS_OVER || m->status == WP_STATUS_ABORTED;
	void *state = g.rs ? wp_game_state(&g) : NULL;
	json_object *v = state ? g.rs->view(state, wp_viewer(over, m->seat)) : NULL;

	if (state)
		g.rs->free(state);
	return v;
}

static json_object *
my_game_json(const struct wp_my_game *m, const struct wp_game_clock *gc, int with_state,
             int *awaiting)
{
	json_object *g = json_object_new_object();
	int aw = m->awaiting_me && m->status == WP_STATUS_ACTIVE;

	*awaiting += aw;
	json_object_object_add(g, "id", json_object_new_int64(m->id));
	json_object_object_add(g, "ruleset", json_object_new_string(m->ruleset));
	json_object_object_add(g, "status", json_object_new_string(wp_status_str(m->status)));
	json_object_object_add(g, "seq", json_object_new_int(m->seq));
	json_object_object_add(g, "seats", json_object_new_int(m->nseats));
	json_object_object_add(g, "seat", json_object_new_int(m->seat));
	json_object_object_add(g, "awaiting_you", json_object_new_boolean(aw));
	json_object_object_add(g, "updated_at", json_object_new_string(m->updated_at));
	wp_my_game_clock(g, &m->tc, gc, m->seat, m->nseats);
	json_object_object_add(g, "players", json_object_get(m->players));
	json_object_object_add(g, "result", json_object_get(m->result));
	json_object_object_add(g, "rated", json_object_new_boolean(m->rated));
	if (with_state)
		json_object_object_add(g, "state", my_game_state(m));
	return g;
}

/* Each timed match in play came with its clock input: no round trip a
 * match (issue 26). */
static enum wp_err
my_games_clocks(struct wp_ctx *ctx, const struct wp_my_game *games, int n,
                struct wp_game_clock **out)
{
	int64_t now = wp_clock_now();

	if (!(*out = calloc((size_t)n + 1, sizeof(**out))))
		return wp_fail(ctx, WP_ERR_INTERNAL, "out of memory");
	for (int i = 0; i < n; i++)
		if (games[i].clock)
			wp_clock_derive(&games[i].tc, games[i].clock, games[i].nseats, now, &(*out)[i]);
	return WP_OK;
}

static json_object *
my_games_json(const struct wp_my_game *games, const struct wp_game_clock *clocks, int n,
                 int count, int with_state)
{
	json_object *o = json_object_new_object(), *list = json_object_new_array();
	int awaiting = 0;

	for (int i = 0; i < n; i++)
		json_object_array_add(list, my_game_json(&games[i], &clocks[i], with_state, &awaiting));
	json_object_object_add(o, "count", json_object_new_int(count));
	json_object_object_add(o, "awaiting_you_on_page", json_object_new_int(awaiting));
	json_object_object_add(o, "games", list);
	return o;
}

enum wp_err
wp_my_games_doc(struct wp_ctx *ctx, struct wp_conn *c, int64_t player, int64_t limit,
                int64_t offset, int with_state, json_object **out)
{
	struct wp_my_game *games = NULL;
	struct wp_game_clock *clocks = NULL;
	int n = 0, count = 0;
	enum wp_err err;

	*out = NULL;
	if ((err = wp_db_my_games(c, player, limit, offset, with_state, &games, &n, &count)))
		err = wp_fail_store(ctx, err);
	else if ((err = my_games_clocks(ctx, games, n, &clocks)) == WP_OK)
		*out = my_games_json(games, clocks, n, count, with_state);
	wp_my_games_free(games, n);
	free(clocks);
	return err;
}

enum wp_err
wp_api_me_games(struct wp_ctx *ctx)
{
	struct wp_player who;
	json_object *o = NULL;
	int64_t limit, offset, with_state;
	enum wp_err err;
	struct wp_conn *c;

	if ((err = wp_query_int(ctx, "limit", 1, 200, 50, &limit)) ||
	    (err = wp_query_int(ctx, "offset", 0, INT32_MAX, 0, &offset)) ||
	    (err = wp_query_int(ctx, "boards", 0, 1, 0, &with_state)) ||
	    (err = wp_conn_get(ctx, &c)))
		return err;
	if ((err = wp_auth_player(ctx, c, &who)) == WP_OK)
		err = wp_my_games_doc(ctx, c, who.id, limit, offset, (int)with_state, &o);
	wp_store_put(ctx->store, c);
	return err ? err : wp_reply_json(ctx, 200, o);
}
