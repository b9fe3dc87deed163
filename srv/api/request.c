/* What every handler checks of a request before any logic sees it
 * (STYLE.md, "Validate at the edge"), and the small answers they share. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "api.h"
#include "ratelimit.h"

enum wp_err
wp_body_only(struct wp_ctx *ctx, const char *const *known)
{
	if (!json_object_is_type(ctx->body, json_type_object))
		return wp_fail(ctx, WP_ERR_INVALID, "the body must be a JSON object");
	/* Every field is known: a typo is an error, not a silent no-op. */
	json_object_object_foreach(ctx->body, key, val) {
		(void)val;
		int ok = 0;
		for (const char *const *k = known; *k && !ok; k++)
			ok = strcmp(*k, key) == 0;
		if (!ok)
			return wp_fail(ctx, WP_ERR_INVALID, "%.64s: unknown field", key);
	}
	return WP_OK;
}

/* The member, or NULL when absent or null (an optional field sent as
 * null counts as absent). */
static json_object *
member(struct wp_ctx *ctx, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(ctx->body, key, &v) || json_object_is_type(v, json_type_null))
		return NULL;
	return v;
}

enum wp_err
wp_body_int(struct wp_ctx *ctx, const char *key, int64_t min, int64_t max, int required,
            int64_t def, int64_t *out)
{
	json_object *v = member(ctx, key);

	if (!v) {
		if (required)
			return wp_fail(ctx, WP_ERR_INVALID, "%s: required", key);
		*out = def;
		return WP_OK;
	}
	if (!json_object_is_type(v, json_type_int))
		return wp_fail(ctx, WP_ERR_INVALID, "%s: must be a whole number", key);
	*out = json_object_get_int64(v);
	if (*out < min || *out > max)
		return wp_fail(ctx, WP_ERR_INVALID, "%s: must be from %lld to %lld", key,
		               (long long)min, (long long)max);
	return WP_OK;
}

enum wp_err
wp_body_string(struct wp_ctx *ctx, const char *key, size_t max_chars, int allow_newlines,
               const char **out)
{
	json_object *v = member(ctx, key);
	size_t chars = 0;

	*out = NULL;
	if (!v)
		return WP_OK;
	if (!json_object_is_type(v, json_type_string))
		return wp_fail(ctx, WP_ERR_INVALID, "%s: must be a string", key);
	*out = json_object_get_string(v);
	if ((size_t)json_object_get_string_len(v) != strlen(*out))
		return wp_fail(ctx, WP_ERR_INVALID, "%s: control characters are not allowed", key);
	for (const unsigned char *p = (const unsigned char *)*out; *p; p++) {
		if ((*p < 0x20 && !(allow_newlines && (*p == '\n' || *p == '\t'))) || *p == 0x7f)
			return wp_fail(ctx, WP_ERR_INVALID, "%s: control characters are not allowed", key);
		chars += (*p & 0xc0) != 0x80;
	}
	if (chars > max_chars)
		return wp_fail(ctx, WP_ERR_INVALID, "%s: at most %zu characters", key, max_chars);
	return WP_OK;
}

enum wp_err
wp_body_bool(struct wp_ctx *ctx, const char *key, int *out)
{
	json_object *v = member(ctx, key);

	*out = 0;
	if (!v)
		return WP_OK;
	if (!json_object_is_type(v, json_type_boolean))
		return wp_fail(ctx, WP_ERR_INVALID, "%s: must be true or false", key);
	*out = json_object_get_boolean(v);
	return WP_OK;
}

enum wp_err
wp_body_required(struct wp_ctx *ctx, const char *key, json_type type, json_object **out)
{
	if (!json_object_object_get_ex(ctx->body, key, out) || !json_object_is_type(*out, type))
		return wp_fail(ctx, WP_ERR_INVALID, "%s: required, %s", key,
		               type == json_type_array ? "an array" : "an object");
	return WP_OK;
}

enum wp_err
wp_client_seed(struct wp_ctx *ctx, const char **seed)
{
	enum wp_err err = wp_body_string(ctx, "client_seed", WP_CLIENT_SEED_MAX, 0, seed);

	if (err == WP_OK && *seed && strlen(*seed) > WP_CLIENT_SEED_MAX)
		return wp_fail(ctx, WP_ERR_INVALID, "client_seed: at most %d bytes", WP_CLIENT_SEED_MAX);
	return err;
}

enum wp_err
wp_query_int(struct wp_ctx *ctx, const char *name, int64_t min, int64_t max, int64_t def,
             int64_t *out)
{
	char buf[24], *end;
	int q = wp_query_param(ctx->req->query, name, buf, sizeof(buf));

	*out = def;
	if (q == 0)
		return WP_OK;
	if (q > 0 && buf[0] >= '0' && buf[0] <= '9' && strlen(buf) <= 18) {
		*out = strtoll(buf, &end, 10);
		if (*end == '\0' && *out >= min && *out <= max)
			return WP_OK;
	}
	return wp_fail(ctx, WP_ERR_INVALID, "%s: a whole number from %lld to %lld", name,
	               (long long)min, (long long)max);
}

int
wp_parse_id(const char *s, int64_t *id)
{
	int64_t v = 0;

	if (!*s || strlen(s) > 18)
		return -1;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (*p - '0');
	}
	*id = v;
	return v > 0 ? 0 : -1;
}

enum wp_err
wp_game_id(struct wp_ctx *ctx, int64_t *id)
{
	if (wp_parse_id(ctx->match->params[0], id) != 0)
		return wp_fail(ctx, WP_ERR_GAME_NOT_FOUND, "there is no such match");
	return WP_OK;
}

enum wp_err
wp_conn_get(struct wp_ctx *ctx, struct wp_conn **c)
{
	*c = wp_store_get(ctx->store);
	if (!*c)
		return wp_fail(ctx, WP_ERR_DB_UNAVAILABLE, "the database does not answer");
	return WP_OK;
}

enum wp_err
wp_me(struct wp_ctx *ctx, struct wp_conn **c, struct wp_player *who)
{
	enum wp_err err = wp_conn_get(ctx, c);

	if (err == WP_OK && (err = wp_auth_player(ctx, *c, who)) != WP_OK) {
		wp_store_put(ctx->store, *c);
		*c = NULL;
	}
	return err;
}

enum wp_err
wp_mine_id(struct wp_ctx *ctx, const char *what, int64_t *id)
{
	if (wp_parse_id(ctx->match->params[0], id) != 0)
		return wp_fail(ctx, WP_ERR_NOT_FOUND, "you have no such %s", what);
	return WP_OK;
}

enum wp_err
wp_mine_fail(struct wp_ctx *ctx, enum wp_err err, const char *what)
{
	if (err == WP_ERR_NOT_FOUND)
		return wp_fail(ctx, err, "you have no such %s", what);
	return wp_fail_store(ctx, err);
}

enum wp_err
wp_list_mine(struct wp_ctx *ctx, const char *key, wp_mine_load load, size_t size,
             json_object *(*one)(const void *row, const struct wp_player *who))
{
	struct wp_player who;
	struct wp_conn *c;
	enum wp_err err;
	void *rows = NULL;
	int n = 0;

	if ((err = wp_me(ctx, &c, &who)))
		return err;
	err = load(c, who.id, &rows, &n);
	wp_store_put(ctx->store, c);
	if (err) {
		free(rows);
		return wp_fail_store(ctx, err);
	}
	json_object *o = json_object_new_object(), *list = json_object_new_array();
	for (int i = 0; i < n; i++)
		json_object_array_add(list, one((const char *)rows + (size_t)i * size, &who));
	free(rows);
	json_object_object_add(o, key, list);
	return wp_reply_json(ctx, 200, o);
}

enum wp_err
wp_player_tx(struct wp_ctx *ctx, struct wp_player *who, wp_tx_fn fn, void *arg)
{
	struct wp_conn *c;
	enum wp_err err;

	if ((err = wp_conn_get(ctx, &c)))
		return err;
	/* A failure inside fn has its detail already; a failed BEGIN or
	 * COMMIT has none. */
	if ((err = wp_auth_player(ctx, c, who)) == WP_OK &&
	    (err = wp_store_tx(c, fn, arg)) != WP_OK && !ctx->detail[0])
		err = wp_fail_store(ctx, err);
	wp_store_put(ctx->store, c);
	return err;
}

enum wp_err
wp_fail_store(struct wp_ctx *ctx, enum wp_err err)
{
	if (err != WP_ERR_DB_UNAVAILABLE)
		err = WP_ERR_INTERNAL;
	return wp_fail(ctx, err, "the database did not answer as expected");
}

enum wp_err
wp_game_get(struct wp_ctx *ctx, struct wp_conn *c, int64_t id, int lock, struct wp_game *g)
{
	enum wp_err err = wp_db_game_load(c, id, lock, g);

	if (err == WP_ERR_NOT_FOUND)
		return wp_fail(ctx, WP_ERR_GAME_NOT_FOUND, "there is no match %lld", (long long)id);
	if (err != WP_OK)
		return wp_fail_store(ctx, err);
	if (!g->rs) {
		wp_log("game %lld: ruleset %s is not offered by this server", (long long)id, g->ruleset);
		wp_game_free(g);
		return wp_fail(ctx, WP_ERR_INTERNAL, "this server does not offer the match's ruleset");
	}
	return WP_OK;
}

void *
wp_game_state(const struct wp_game *g)
{
	struct wr_error err;
	void *state = NULL;
	json_object *snap;

	if (!g->state)
		return NULL;
	snap = json_tokener_parse(g->state);
	wp_metric_add(WP_METRIC_RULES_LOADS, 1);
	if (!snap || g->rs->load(snap, &state, &err) != 0) {
		wp_log("game %lld: snapshot does not load: %s", (long long)g->id,
		       snap ? err.message : "not JSON");
		state = NULL;
	}
	json_object_put(snap);
	return state;
}

void *
wp_game_state_current(const struct wp_game *g)
{
	void *state = wp_cache_state_take(g);

	return state ? state : wp_game_state(g);
}

void
wp_game_state_done(const struct wp_game *g, void *state)
{
	if (state)
		wp_cache_state_give(g->id, g->version, g->rs, state);
}

enum wp_err
wp_fail_rules(struct wp_ctx *ctx, enum wp_err err, const struct wr_error *e, int index)
{
	if (index >= 0)
		wp_fail_extra(ctx, "index", json_object_new_int(index));
	wp_fail_extra(ctx, "code", json_object_new_string(e->code));
	if (e->field[0])
		wp_fail_extra(ctx, "field", json_object_new_string(e->field));
	return wp_fail(ctx, err, "%s", e->message);
}

json_object *
wp_json_hex(const unsigned char *b, size_t n)
{
	char hex[2 * 64 + 1];

	sodium_bin2hex(hex, sizeof(hex), b, n);
	return json_object_new_string(hex);
}

json_object *
wp_json_seats(unsigned mask, int n)
{
	json_object *a = json_object_new_array();

	for (int i = 0; i < n; i++)
		if (mask & (1u << i))
			json_object_array_add(a, json_object_new_int(i));
	return a;
}

/* ------------------------------------------------ limits (issue 16, item 4) */

enum wp_err
wp_limit_token(struct wp_ctx *ctx, enum wp_rate_class cls)
{
	unsigned char hash[32];
	int present;
	enum wp_err err = wp_auth_token(ctx, hash, &present);

	/* A malformed Authorization is the handler's 401 anyway; no token
	 * at all is the handler's to refuse or allow. */
	if (err != WP_OK || !present)
		return err;
	return wp_rate_check(ctx, cls, hash, sizeof(hash));
}

enum wp_err
wp_limit_open_matches(struct wp_ctx *ctx, struct wp_conn *c, int64_t player)
{
	unsigned cap = wp_rate_max_open_matches();
	int64_t n;
	enum wp_err err;

	if (!cap)
		return WP_OK;
	if ((err = wp_db_open_matches(c, player, &n)) != WP_OK)
		return wp_fail_store(ctx, err);
	if (n >= cap)
		return wp_fail(ctx, WP_ERR_TOO_MANY_OPEN_MATCHES,
		               "you hold a seat in %lld unfinished matches and open challenges, the "
		               "most this server allows (%u): finish, resign or abort one first",
		               (long long)n, cap);
	return WP_OK;
}
