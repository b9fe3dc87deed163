/* Players: POST /api/players, GET /api/me. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "core_priv.h"

#define WP_NAME_MAX_CHARS 40

/* Trims spaces, then requires 1..40 characters of valid UTF-8 without
 * control characters. Writes the trimmed name to out. */
static enum wp_err
check_name(struct wp_ctx *ctx, const char *in, char *out, size_t cap)
{
	size_t len, chars = 0;
	const unsigned char *p;

	while (*in == ' ')
		in++;
	len = strlen(in);
	while (len && in[len - 1] == ' ')
		len--;
	if (len == 0)
		return wp_fail(ctx, WP_ERR_INVALID, "name: must not be empty");
	if (len >= cap)
		return wp_fail(ctx, WP_ERR_INVALID, "name: at most %d characters",
		               WP_NAME_MAX_CHARS);
	memcpy(out, in, len);
	out[len] = '\0';
	for (p = (const unsigned char *)out; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			return wp_fail(ctx, WP_ERR_INVALID, "name: control characters are not allowed");
		if ((*p & 0xc0) != 0x80)
			chars++;
	}
	if (chars > WP_NAME_MAX_CHARS)
		return wp_fail(ctx, WP_ERR_INVALID, "name: at most %d characters",
		               WP_NAME_MAX_CHARS);
	return WP_OK;
}

/* Every field of a body is known: a typo is an error, not a silent no-op. */
static enum wp_err
only_fields(struct wp_ctx *ctx, const char *const *known)
{
	json_object_object_foreach(ctx->body, key, val) {
		(void)val;
		int ok = 0;
		for (const char *const *k = known; *k; k++)
			if (strcmp(*k, key) == 0)
				ok = 1;
		if (!ok)
			return wp_fail(ctx, WP_ERR_INVALID, "%.64s: unknown field", key);
	}
	return WP_OK;
}

enum wp_err
wp_api_players_create(struct wp_ctx *ctx)
{
	static const char *const fields[] = {"name", NULL};
	char name[4 * WP_NAME_MAX_CHARS + 1], token[65];
	unsigned char hash[32];
	json_object *jname, *out;
	enum wp_err err;
	PGconn *conn;
	PGresult *r;

	if (!json_object_is_type(ctx->body, json_type_object))
		return wp_fail(ctx, WP_ERR_INVALID, "the body must be a JSON object");
	if ((err = only_fields(ctx, fields)) != WP_OK)
		return err;
	if (!json_object_object_get_ex(ctx->body, "name", &jname))
		return wp_fail(ctx, WP_ERR_INVALID, "name: required");
	if (!json_object_is_type(jname, json_type_string))
		return wp_fail(ctx, WP_ERR_INVALID, "name: must be a string");
	if ((size_t)json_object_get_string_len(jname) != strlen(json_object_get_string(jname)))
		return wp_fail(ctx, WP_ERR_INVALID, "name: control characters are not allowed");
	if ((err = check_name(ctx, json_object_get_string(jname), name, sizeof(name))) != WP_OK)
		return err;

	conn = wp_store_get(ctx->store);
	if (!conn)
		return wp_fail(ctx, WP_ERR_DB_UNAVAILABLE, "the database does not answer");
	wp_token_new(token, hash);
	const char *vals[2] = {name, (const char *)hash};
	const int lens[2] = {-1, sizeof(hash)};
	r = wp_store_exec(conn, WP_STMT_PLAYER_INSERT, 2, vals, lens);
	if (PQresultStatus(r) != PGRES_TUPLES_OK) {
		err = wp_store_lost(conn) ? WP_ERR_DB_UNAVAILABLE : WP_ERR_INTERNAL;
		wp_log("players: insert failed: %s", PQresultErrorMessage(r));
		PQclear(r);
		wp_store_put(ctx->store, conn);
		return wp_fail(ctx, err, "the player could not be stored");
	}
	out = json_object_new_object();
	json_object_object_add(out, "id", json_object_new_int64(strtoll(PQgetvalue(r, 0, 0), NULL, 10)));
	json_object_object_add(out, "name", json_object_new_string(name));
	json_object_object_add(out, "token", json_object_new_string(token));
	PQclear(r);
	wp_store_put(ctx->store, conn);
	sodium_memzero(token, sizeof(token));
	return wp_reply_json(ctx, 201, out);
}

enum wp_err
wp_api_me(struct wp_ctx *ctx)
{
	struct wp_player who;
	enum wp_err err;
	PGconn *conn = wp_store_get(ctx->store);

	if (!conn)
		return wp_fail(ctx, WP_ERR_DB_UNAVAILABLE, "the database does not answer");
	err = wp_auth_player(ctx, conn, &who);
	wp_store_put(ctx->store, conn);
	if (err != WP_OK)
		return err;
	json_object *out = json_object_new_object();
	json_object_object_add(out, "id", json_object_new_int64(who.id));
	json_object_object_add(out, "name", json_object_new_string(who.name));
	return wp_reply_json(ctx, 200, out);
}
