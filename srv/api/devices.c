/* An account on several devices (issue 28): the player's devices (one
 * bearer token each: GET/PATCH/DELETE /api/me/devices), and the one-time
 * code a signed-in device makes so that another one can sign in
 * (POST /api/me/device-codes, POST /api/device-codes/redeem). A code is 8
 * characters of an alphabet without look-alikes (no 0/O, 1/I), shown as
 * XXXX-XXXX, stored only as its SHA-256, used once, valid 15 minutes; an
 * unknown, used or expired code gets the same answer, and the tries are
 * rate limited per address (RATE_LIMIT_ACCOUNT). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "api.h"
#include "ratelimit.h"

#define CODE_ALPHABET "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
#define CODE_CHARS 8
#define CODE_TTL_S 900
#define CODE_INVALID "this code is not valid (any more)"

enum wp_err
wp_device_name(struct wp_ctx *ctx, const char *def, char *out, size_t cap)
{
	const char *s;
	enum wp_err err = wp_body_string(ctx, "device", 40, 0, &s);

	if (err != WP_OK)
		return err;
	if (!s) {
		snprintf(out, cap, "%s", def);
		return WP_OK;
	}
	return wp_check_name(ctx, "device", s, out, cap);
}

static json_object *
device_json(const struct wp_device *d, int64_t mine)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "id", json_object_new_int64(d->id));
	json_object_object_add(o, "name", json_object_new_string(d->name));
	json_object_object_add(o, "created_at", json_object_new_string(d->created_at));
	json_object_object_add(o, "last_used_at", d->last_used_at[0]
	                       ? json_object_new_string(d->last_used_at) : NULL);
	json_object_object_add(o, "this_device", json_object_new_boolean(d->id == mine));
	return o;
}

static json_object *
device_row(const void *row, const struct wp_player *who)
{
	return device_json(row, who->device);
}

static enum wp_err
devices_of(struct wp_conn *c, int64_t player, void **rows, int *n)
{
	struct wp_device *d = NULL;
	enum wp_err err = wp_db_devices(c, player, &d, n);

	*rows = d;
	return err;
}

enum wp_err
wp_api_devices_list(struct wp_ctx *ctx)
{
	return wp_list_mine(ctx, "devices", devices_of, sizeof(struct wp_device), device_row);
}

enum wp_err
wp_api_devices_rename(struct wp_ctx *ctx)
{
	static const char *const fields[] = {"name", NULL};
	char name[4 * 40 + 1];
	const char *s;
	struct wp_device d;
	struct wp_player who;
	struct wp_conn *c;
	enum wp_err err;
	int64_t id;

	if ((err = wp_mine_id(ctx, "device", &id)) || (err = wp_body_only(ctx, fields)) ||
	    (err = wp_body_string(ctx, "name", 40, 0, &s)))
		return err;
	if (!s)
		return wp_fail(ctx, WP_ERR_INVALID, "name: required");
	if ((err = wp_check_name(ctx, "name", s, name, sizeof(name))) ||
	    (err = wp_me(ctx, &c, &who)))
		return err;
	err = wp_db_device_rename(c, who.id, id, name, &d);
	wp_store_put(ctx->store, c);
	if (err)
		return wp_mine_fail(ctx, err, "device");
	return wp_reply_json(ctx, 200, device_json(&d, who.device));
}

/* DELETE /api/me/devices/{id}: that device's token fails from now on, on
 * every instance; DELETE /api/me/devices: every device but this one
 * ("sign out other devices"). */
static enum wp_err
revoke(struct wp_ctx *ctx, int others)
{
	struct wp_player who;
	struct wp_conn *c;
	enum wp_err err;
	int64_t id = 0;
	int n;

	if ((!others && (err = wp_mine_id(ctx, "device", &id))) || (err = wp_me(ctx, &c, &who)))
		return err;
	err = wp_db_device_revoke(c, who.id, others ? who.device : id, others, &n);
	wp_store_put(ctx->store, c);
	if (err)
		return wp_mine_fail(ctx, err, "device");
	if (!others) {
		ctx->res->status = 204;
		return WP_OK;
	}
	json_object *o = json_object_new_object();
	json_object_object_add(o, "revoked", json_object_new_int(n));
	return wp_reply_json(ctx, 200, o);
}

enum wp_err
wp_api_devices_revoke(struct wp_ctx *ctx)
{
	return revoke(ctx, 0);
}

enum wp_err
wp_api_devices_revoke_others(struct wp_ctx *ctx)
{
	return revoke(ctx, 1);
}

/* ------------------------------------------------------ sign-in codes */

static void
code_hash(const char code[CODE_CHARS + 1], unsigned char hash[32])
{
	crypto_hash_sha256(hash, (const unsigned char *)code, CODE_CHARS);
}

/* A code as typed: its letters in either case, with or without the dash
 * and spaces; 0 and code[] when it has the shape of one. */
static int
code_parse(const char *in, char code[CODE_CHARS + 1])
{
	size_t n = 0;

	for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
		if (*p == '-' || *p == ' ')
			continue;
		if (n == CODE_CHARS || !strchr(CODE_ALPHABET, toupper(*p)))
			return -1;
		code[n++] = (char)toupper(*p);
	}
	code[n] = '\0';
	return n == CODE_CHARS ? 0 : -1;
}

enum wp_err
wp_api_device_codes_create(struct wp_ctx *ctx)
{
	char code[CODE_CHARS + 1], shown[CODE_CHARS + 2];
	unsigned char hash[32];
	struct wp_player who;
	struct wp_conn *c;
	enum wp_err err;

	if ((err = wp_limit_token(ctx, WP_RATE_ACCOUNT)) || (err = wp_me(ctx, &c, &who)))
		return err;
	for (int i = 0; i < CODE_CHARS; i++)
		code[i] = CODE_ALPHABET[randombytes_uniform(sizeof(CODE_ALPHABET) - 1)];
	code[CODE_CHARS] = '\0';
	code_hash(code, hash);
	err = wp_db_code_insert(c, who.id, hash, CODE_TTL_S);
	wp_store_put(ctx->store, c);
	if (err)
		return wp_fail_store(ctx, err);
	snprintf(shown, sizeof(shown), "%.4s-%.4s", code, code + 4);
	sodium_memzero(code, sizeof(code));
	json_object *o = json_object_new_object();
	json_object_object_add(o, "code", json_object_new_string(shown));
	json_object_object_add(o, "expires_in", json_object_new_int(CODE_TTL_S));
	sodium_memzero(shown, sizeof(shown));
	return wp_reply_json(ctx, 201, o);
}

enum wp_err
wp_new_device(struct wp_ctx *ctx, struct wp_conn *c, enum wp_redeem how,
              const unsigned char hash[32], const char *device, const char *invalid)
{
	struct wp_player who = {0};
	unsigned char thash[32];
	char token[65];
	enum wp_err err;

	wp_token_new(token, thash);
	err = wp_db_redeem(c, how, hash, thash, device, &who);
	wp_store_put(ctx->store, c);
	if (err) {
		sodium_memzero(token, sizeof(token));
		if (err == WP_ERR_NOT_FOUND)
			return wp_fail(ctx, WP_ERR_INVALID_CODE, "%s", invalid);
		return wp_fail_store(ctx, err);
	}
	/* The new device's player and its token, shown this once. */
	json_object *o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_int64(who.id));
	json_object_object_add(o, "name", json_object_new_string(who.name));
	json_object_object_add(o, "device", json_object_new_int64(who.device));
	json_object_object_add(o, "token", json_object_new_string(token));
	sodium_memzero(token, sizeof(token));
	return wp_reply_json(ctx, 201, o);
}

enum wp_err
wp_api_device_codes_redeem(struct wp_ctx *ctx)
{
	static const char *const fields[] = {"code", "device", NULL};
	char code[CODE_CHARS + 1], device[4 * 40 + 1];
	unsigned char hash[32];
	const char *s;
	struct wp_conn *c;
	enum wp_err err;

	if ((err = wp_body_only(ctx, fields)) || (err = wp_body_string(ctx, "code", 40, 0, &s)) ||
	    (err = wp_device_name(ctx, "New device", device, sizeof(device))))
		return err;
	if (!s)
		return wp_fail(ctx, WP_ERR_INVALID, "code: required, the XXXX-XXXX the other "
		                                    "device shows");
	/* Every try counts, whatever it turns out to be. */
	if ((err = wp_rate_check_ip(ctx, WP_RATE_ACCOUNT)))
		return err;
	if (code_parse(s, code) != 0)
		return wp_fail(ctx, WP_ERR_INVALID_CODE, CODE_INVALID);
	code_hash(code, hash);
	if ((err = wp_conn_get(ctx, &c)))
		return err;
	return wp_new_device(ctx, c, WP_REDEEM_CODE, hash, device, CODE_INVALID);
}
