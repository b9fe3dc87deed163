/* Players by token hash, kept in memory beside the matches (cache.c,
 * issue 17 "Performance"): a fixed table of direct-mapped slots,
 * WP_CACHE_TOKENS players kept WP_CACHE_TOKEN_TTL_NS.
 *
 * A player is kept for a few seconds after the database last said
 * the token was theirs (one reader asks again before they end); a write
 * whose token the database no longer knows drops it. A device's token
 * revoked (DELETE /api/me/devices/{id}, issue 28) is told to every instance
 * by NOTIFY wp_token '<hash hex>' at the revoke's commit: the LISTEN thread
 * drops it and moves the token epoch, so that a lookup that read the
 * database before the revoke does not keep what it read; the revoking
 * instance does the same before it answers. Like matches, no token is
 * answered from memory without a live LISTEN connection, and a
 * reconnection forgets them all. */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include <sodium.h>

#include "store_priv.h"

#define WP_CACHE_TOKENS 8192
#define WP_CACHE_TOKEN_TTL_NS (5 * 1000000000LL)
/* In a token's last 2 s one reader asks the database again (and another
 * may 250 ms later if that one got no answer); the others are answered
 * from memory meanwhile, so the pollers of one token do not all go to the
 * database when it ends, nor all wait on it if it is slow just then. */
#define WP_CACHE_TOKEN_RENEW_NS (2 * 1000000000LL)
#define WP_CACHE_TOKEN_RETRY_NS (250 * 1000000LL)
#define WP_CACHE_TOKEN_STRIPES 64

struct token_slot {
	unsigned char hash[32];
	struct wp_player who;
	int64_t until_ns;        /* 0: empty */
	int64_t renew_ns;        /* from then, one reader asks the database */
};

static struct token_slot tokens[WP_CACHE_TOKENS];
static pthread_mutex_t stripes[WP_CACHE_TOKEN_STRIPES];
static pthread_once_t once = PTHREAD_ONCE_INIT;
static atomic_uint token_epoch;  /* moves at each token revoked or forgotten */

static void
init(void)
{
	for (int i = 0; i < WP_CACHE_TOKEN_STRIPES; i++)
		pthread_mutex_init(&stripes[i], NULL);
}

static struct token_slot *
token_lock(const unsigned char hash[32])
{
	size_t i = ((size_t)hash[0] | (size_t)hash[1] << 8 | (size_t)hash[2] << 16) %
	           WP_CACHE_TOKENS;

	pthread_once(&once, init);
	pthread_mutex_lock(&stripes[i % WP_CACHE_TOKEN_STRIPES]);
	return &tokens[i];
}

static void
token_unlock(const struct token_slot *s)
{
	pthread_mutex_unlock(&stripes[(size_t)(s - tokens) % WP_CACHE_TOKEN_STRIPES]);
}

int
wp_cache_player(const unsigned char hash[32], struct wp_player *who)
{
	struct token_slot *s = token_lock(hash);
	int64_t now = wp_now_ns();
	int hit = s->until_ns > now && memcmp(s->hash, hash, 32) == 0 && wp_cache_serving();

	if (hit && now >= s->renew_ns) {
		s->renew_ns = now + WP_CACHE_TOKEN_RETRY_NS;
		hit = 0;    /* this reader renews it (wp_db_player_by_token) */
	}
	if (hit)
		*who = s->who;
	token_unlock(s);
	return hit;
}

unsigned
wp_cache_token_ticket(void)
{
	return atomic_load(&token_epoch);
}

void
wp_cache_player_put(const unsigned char hash[32], const struct wp_player *who,
                    unsigned ticket)
{
	struct token_slot *s = token_lock(hash);

	/* Under the slot's lock: a revoke that moves the epoch after this
	 * test drops the slot after this put. */
	if (ticket == atomic_load(&token_epoch)) {
		memcpy(s->hash, hash, 32);
		s->who = *who;
		s->until_ns = wp_now_ns() + WP_CACHE_TOKEN_TTL_NS;
		s->renew_ns = s->until_ns - WP_CACHE_TOKEN_RENEW_NS;
	}
	token_unlock(s);
}

void
wp_cache_player_drop(const unsigned char hash[32])
{
	struct token_slot *s = token_lock(hash);

	if (memcmp(s->hash, hash, 32) == 0)
		s->until_ns = 0;
	token_unlock(s);
}

void
wp_cache_token_revoked(const unsigned char hash[32])
{
	struct token_slot *s = token_lock(hash);

	atomic_fetch_add(&token_epoch, 1);
	if (memcmp(s->hash, hash, 32) == 0)
		s->until_ns = 0;
	token_unlock(s);
}

void
wp_cache_token_heard(const char *hex)
{
	unsigned char hash[32];
	size_t n = 0;

	if (sodium_hex2bin(hash, sizeof(hash), hex, strlen(hex), NULL, &n, NULL) == 0 && n == 32)
		wp_cache_token_revoked(hash);
	else
		wp_cache_forget_tokens();   /* not ours to read: forget them all rather than keep one */
}

void
wp_cache_forget_tokens(void)
{
	atomic_fetch_add(&token_epoch, 1);
	for (size_t i = 0; i < WP_CACHE_TOKENS; i++) {
		pthread_once(&once, init);
		pthread_mutex_lock(&stripes[i % WP_CACHE_TOKEN_STRIPES]);
		tokens[i].until_ns = 0;
		pthread_mutex_unlock(&stripes[i % WP_CACHE_TOKEN_STRIPES]);
	}
}
