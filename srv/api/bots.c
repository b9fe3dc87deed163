/* Computer players in the API (issue 27): the "bots" of POST /api/games
 * (seats held by the server's engine players, one per level, played by
 * the bot worker, bot/botplay.c) and PATCH /api/me {"bot": true}, by which
 * an outside program's account says it is one. */
#include <stdio.h>
#include <string.h>

#include "api.h"
#include "bots_store.h"
#include "engine.h"

/* "bots": [{"seat": s, "level": l}, ...]. The shape is checked here (400);
 * a seat or level that does not exist, or a seat taken twice or the
 * creator's own, is a 422 (invalid-option), before anything is stored. */
enum wp_err
wp_bots_parse(struct wp_ctx *ctx, int seats, int my_seat, struct wp_bot_seats *out)
{
	json_object *list;
	unsigned taken = 1u << my_seat;

	memset(out, 0, sizeof(*out));
	if (!json_object_object_get_ex(ctx->body, "bots", &list) ||
	    json_object_is_type(list, json_type_null))
		return WP_OK;
	if (!json_object_is_type(list, json_type_array) ||
	    json_object_array_length(list) > WR_MAX_SEATS)
		return wp_fail(ctx, WP_ERR_INVALID, "bots: an array of at most %d {seat, level}",
		               WR_MAX_SEATS);
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		json_object *b = json_object_array_get_idx(list, i), *seat, *level;
		if (!json_object_is_type(b, json_type_object) || json_object_object_length(b) != 2 ||
		    !json_object_object_get_ex(b, "seat", &seat) ||
		    !json_object_object_get_ex(b, "level", &level) ||
		    !json_object_is_type(seat, json_type_int) || !json_object_is_type(level, json_type_int))
			return wp_fail(ctx, WP_ERR_INVALID,
			               "bots[%zu]: an object of two whole numbers, seat and level", i);
		int64_t s = json_object_get_int64(seat), l = json_object_get_int64(level);
		wp_fail_extra(ctx, "field", json_object_new_string("bots"));
		wp_fail_extra(ctx, "index", json_object_new_int((int)i));
		if (l < 1 || l > WB_LEVELS)
			return wp_fail(ctx, WP_ERR_INVALID_OPTION,
			               "bots[%zu].level: there is no level %lld (levels 1 to %d)", i,
			               (long long)l, WB_LEVELS);
		if (s < 0 || s >= seats)
			return wp_fail(ctx, WP_ERR_INVALID_OPTION,
			               "bots[%zu].seat: there is no seat %lld (seats 0 to %d)", i,
			               (long long)s, seats - 1);
		if (taken & (1u << s))
			return wp_fail(ctx, WP_ERR_INVALID_OPTION, "bots[%zu].seat: seat %lld is %s", i,
			               (long long)s, s == my_seat ? "yours" : "a computer's already");
		json_object_put(ctx->extra);
		ctx->extra = NULL;
		taken |= 1u << s;
		out->seat[out->n] = (int)s;
		out->level[out->n++] = (int)l;
	}
	return WP_OK;
}

enum wp_err
wp_bots_resolve(struct wp_ctx *ctx, struct wp_conn *c, struct wp_bot_seats *b)
{
	for (int i = 0; i < b->n; i++) {
		enum wp_err err = wp_db_bot_engine(c, b->level[i], &b->who[i]);
		if (err == WP_ERR_NOT_FOUND)
			return wp_fail(ctx, WP_ERR_INVALID_OPTION,
			               "bots[%d].level: this server has no level %d", i, b->level[i]);
		if (err)
			return wp_fail_store(ctx, err);
	}
	return WP_OK;
}

json_object *
wp_me_json(const struct wp_player *who)
{
	json_object *out = json_object_new_object();

	json_object_object_add(out, "id", json_object_new_int64(who->id));
	json_object_object_add(out, "name", json_object_new_string(who->name));
	json_object_object_add(out, "bot", json_object_new_boolean(who->bot));
	return out;
}

struct becoming {
	struct wp_ctx *ctx;
	struct wp_player who;
	int want;
};

static enum wp_err
become_bot_tx(struct wp_conn *c, void *arg)
{
	struct becoming *b = arg;
	enum wp_err err;

	if (!b->want || b->who.bot)
		return WP_OK;
	err = wp_db_player_set_bot(c, b->who.id);
	if (err == WP_ERR_NOT_FOUND)
		return wp_fail(b->ctx, WP_ERR_GAME_UNDER_WAY,
		               "finish or leave your open and active matches first: their other"
		               " players chose to play a person");
	if (err)
		return wp_fail_store(b->ctx, err);
	b->who.bot = 1;
	return WP_OK;
}

/* PATCH /api/me {"bot": true}: for good (a bot account stays one, as on
 * lichess: its record and its ratings are a program's). {"bot": false}
 * changes nothing for a person and is refused for a bot. */
enum wp_err
wp_api_me_patch(struct wp_ctx *ctx)
{
	static const char *const fields[] = {"bot", NULL};
	struct becoming b = {.ctx = ctx};
	json_object *v;
	int bot;
	enum wp_err err;

	if ((err = wp_body_only(ctx, fields)) || (err = wp_body_bool(ctx, "bot", &bot)))
		return err;
	if (!json_object_object_get_ex(ctx->body, "bot", &v))
		return wp_fail(ctx, WP_ERR_INVALID, "bot: required, true");
	b.want = bot;
	if ((err = wp_player_tx(ctx, &b.who, become_bot_tx, &b)) == WP_OK && !bot && b.who.bot)
		err = wp_fail(ctx, WP_ERR_FORBIDDEN, "a bot account stays a bot");
	if (err)
		return err;
	/* The token's cached player says the old flag for a few seconds. */
	unsigned char hash[32];
	int present;
	if (wp_auth_token(ctx, hash, &present) == WP_OK && present)
		wp_cache_player_drop(hash);
	return wp_reply_json(ctx, 200, wp_me_json(&b.who));
}
