/* Bearer tokens (RFC 6750): 256 random bits shown once, stored only as
 * their SHA-256, so a copy of the database cannot act for anyone. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "api.h"

static void
token_hash(const char *hex, unsigned char hash[32])
{
	crypto_hash_sha256(hash, (const unsigned char *)hex, strlen(hex));
}

/* "Bearer <64 hex>"; anything else is no token at all. */
static int
bearer_token(const char *header, char out[65])
{
	const char *p = header;
	size_t n = 0;

	if (!p || strncasecmp(p, "Bearer", 6) != 0 || (p[6] != ' ' && p[6] != '\t'))
		return -1;
	p += 6;
	while (*p == ' ' || *p == '\t')
		p++;
	while (isxdigit((unsigned char)p[n]) && n < 64) {
		out[n] = (char)tolower((unsigned char)p[n]);
		n++;
	}
	if (n != 64)
		return -1;
	for (const char *q = p + n; *q; q++)
		if (*q != ' ' && *q != '\t')
			return -1;
	out[64] = '\0';
	return 0;
}

enum wp_err
wp_auth_token(struct wp_ctx *ctx, unsigned char hash[32], int *present)
{
	const char *h;
	char token[65];

	if (ctx->token_known) {
		*present = ctx->token_known == 2;
		if (*present)
			memcpy(hash, ctx->token_hash, 32);
		return WP_OK;
	}
	h = wp_request_header(ctx->req, "Authorization");
	*present = 0;
	if (!h) {
		ctx->token_known = 1;
		return WP_OK;
	}
	if (bearer_token(h, token) != 0) {
		/* RFC 6750, 3.1: credentials that are not a bearer token. */
		wp_response_header(ctx->res, "WWW-Authenticate",
		                   "Bearer realm=\"warpost\", error=\"invalid_request\"");
		return wp_fail(ctx, WP_ERR_UNAUTHORIZED,
		               "the Authorization header is not a Warpost bearer token");
	}
	token_hash(token, hash);
	*present = 1;
	memcpy(ctx->token_hash, hash, 32);
	ctx->token_known = 2;
	return WP_OK;
}

enum wp_err
wp_auth_unknown(struct wp_ctx *ctx)
{
	wp_response_header(ctx->res, "WWW-Authenticate",
	                   "Bearer realm=\"warpost\", error=\"invalid_token\"");
	return wp_fail(ctx, WP_ERR_UNAUTHORIZED, "the token is not known");
}

int
wp_token_new(char hex[65], unsigned char hash[32])
{
	unsigned char raw[32];

	randombytes_buf(raw, sizeof(raw));
	sodium_bin2hex(hex, 65, raw, sizeof(raw));
	sodium_memzero(raw, sizeof(raw));
	token_hash(hex, hash);
	return 0;
}

/* The bot worker's thread acts for an engine player (bot/botplay.c): a
 * request it makes itself, never a client's, carries no token. */
static __thread const struct wp_player *acting;

void
wp_auth_act_as(const struct wp_player *who)
{
	acting = who;
}

enum wp_err
wp_auth_player(struct wp_ctx *ctx, struct wp_conn *c, struct wp_player *who)
{
	unsigned char hash[32];
	enum wp_err err;
	int present;

	if (acting && !wp_request_header(ctx->req, "Authorization")) {
		*who = *acting;
		return WP_OK;
	}
	if ((err = wp_auth_token(ctx, hash, &present)) != WP_OK)
		return err;
	if (!present) {
		/* RFC 6750, 3.1: no credentials at all. */
		wp_response_header(ctx->res, "WWW-Authenticate", "Bearer realm=\"warpost\"");
		return wp_fail(ctx, WP_ERR_UNAUTHORIZED, "this needs an Authorization: Bearer token");
	}
	err = wp_db_player_by_token(c, hash, who);
	if (err == WP_ERR_NOT_FOUND)
		return wp_auth_unknown(ctx);
	return err == WP_OK ? WP_OK : wp_fail_store(ctx, err);
}

enum wp_err
wp_auth_optional(struct wp_ctx *ctx, struct wp_conn *c, struct wp_player *who)
{
	memset(who, 0, sizeof(*who));
	if (!wp_request_header(ctx->req, "Authorization"))
		return WP_OK;
	return wp_auth_player(ctx, c, who);
}
