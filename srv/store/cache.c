/* What a conditional GET and a long-poll need, kept in memory (issue 17,
 * "Performance"): each match's head (version, seq, status, who may watch
 * and how far behind, the seated players) by match id, and players by
 * token hash. Both are fixed tables of direct-mapped slots, so the cache
 * is bounded by construction (WP_CACHE_GAMES heads of a few hundred bytes,
 * WP_CACHE_TOKENS players kept WP_CACHE_TOKEN_TTL seconds).
 *
 * Freshness. Every commit that changes a match sends NOTIFY wp_game
 * 'id:version' (or 'id'); the LISTEN thread hands it to wp_cache_notify()
 * before it wakes the long-polls, so a head is never older than the last
 * notification heard, whichever instance wrote. A load races with the
 * notifications: it takes a ticket before it reads the database and what
 * it read is kept only if nothing was heard of that slot since. This
 * instance's own writes forget the match when the NOTIFY is queued and
 * again when the connection's transaction ends (pool.c), so that no
 * answer given after a commit is acknowledged is older than the commit.
 * Nothing is served without a live LISTEN connection (lost, or its thread
 * not seen for WP_CACHE_STALE_NS), and each reconnection starts from
 * empty, since notifications may have been missed.
 *
 * Tokens change only by an operator's hand (no API revokes one): a player
 * is kept for a few seconds after the database last said the token was
 * theirs, and only reads use it; every write asks the database. */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "store_priv.h"

#define WP_CACHE_GAMES 8192
#define WP_CACHE_TOKENS 8192
#define WP_CACHE_TOKEN_TTL_NS (5 * 1000000000LL)
#define WP_CACHE_STALE_NS (2 * 1000000000LL)
#define WP_CACHE_STRIPES 64

struct head_slot {
	int64_t id;              /* 0: empty */
	uint32_t gen;            /* moves whenever something is heard of the slot */
	int version, seq, delay, nseats;
	enum wp_status status;
	enum wp_watch watch;
	int64_t players[WR_MAX_SEATS];
};

struct token_slot {
	unsigned char hash[32];
	struct wp_player who;
	int64_t until_ns;        /* 0: empty */
};

static struct head_slot heads[WP_CACHE_GAMES];
static struct token_slot tokens[WP_CACHE_TOKENS];
static pthread_mutex_t stripes[WP_CACHE_STRIPES];
static pthread_once_t once = PTHREAD_ONCE_INIT;
static atomic_uint epoch;        /* moves at each change of the LISTEN connection */
static atomic_int online;
static atomic_llong alive_ns;    /* the LISTEN thread was last seen then */

static void
init(void)
{
	for (int i = 0; i < WP_CACHE_STRIPES; i++)
		pthread_mutex_init(&stripes[i], NULL);
}

static struct head_slot *
head_lock(int64_t id)
{
	size_t i = (size_t)((uint64_t)id % WP_CACHE_GAMES);

	pthread_once(&once, init);
	pthread_mutex_lock(&stripes[i % WP_CACHE_STRIPES]);
	return &heads[i];
}

static void
head_unlock(const struct head_slot *s)
{
	pthread_mutex_unlock(&stripes[(size_t)(s - heads) % WP_CACHE_STRIPES]);
}

static int
serving(void)
{
	return atomic_load(&online) && wp_now_ns() - atomic_load(&alive_ns) < WP_CACHE_STALE_NS;
}

void
wp_cache_online(int on)
{
	atomic_store(&online, 0);
	atomic_fetch_add(&epoch, 1);
	wp_cache_forget_all();
	atomic_store(&alive_ns, wp_now_ns());
	atomic_store(&online, on);
}

void
wp_cache_alive(void)
{
	atomic_store(&alive_ns, wp_now_ns());
}

void
wp_cache_forget_all(void)
{
	for (int64_t i = 0; i < WP_CACHE_GAMES; i++) {
		struct head_slot *s = head_lock(i);
		s->id = 0;
		s->gen++;
		head_unlock(s);
	}
}

void
wp_cache_notify(int64_t id, int version)
{
	struct head_slot *s = head_lock(id);

	/* A version already held (loaded after the commit) stays. */
	if (s->id == id && (version < 0 || s->version < version))
		s->id = 0;
	s->gen++;
	head_unlock(s);
}

void
wp_cache_forget(int64_t id)
{
	wp_cache_notify(id, -1);
}

uint64_t
wp_cache_ticket(int64_t id)
{
	struct head_slot *s = head_lock(id);
	uint64_t t = (uint64_t)atomic_load(&epoch) << 32 | s->gen;

	head_unlock(s);
	return t;
}

void
wp_cache_head_put(const struct wp_game *g, uint64_t ticket)
{
	struct head_slot *s;

	if (!serving() || ticket >> 32 != atomic_load(&epoch))
		return;
	s = head_lock(g->id);
	if ((uint32_t)ticket == s->gen) {
		s->id = g->id;
		s->version = g->version;
		s->seq = g->seq;
		s->status = g->status;
		s->watch = g->watch;
		s->delay = g->delay;
		s->nseats = g->nseats;
		for (int i = 0; i < g->nseats && i < WR_MAX_SEATS; i++)
			s->players[i] = g->seats[i].player_id;
	}
	head_unlock(s);
}

int
wp_cache_head(int64_t id, int64_t player, struct wp_game_head *h)
{
	struct head_slot *s;
	int hit;

	if (!serving())
		return 0;
	s = head_lock(id);
	hit = s->id == id;
	if (hit) {
		memset(h, 0, sizeof(*h));
		h->version = s->version;
		h->seq = s->seq;
		h->status = s->status;
		h->watch = s->watch;
		h->delay = s->delay;
		h->seat = -1;
		for (int i = 0; player && i < s->nseats; i++)
			if (s->players[i] == player)
				h->seat = i;
	}
	head_unlock(s);
	return hit;
}

/* ------------------------------------------------------------- tokens */

static struct token_slot *
token_lock(const unsigned char hash[32])
{
	size_t i = ((size_t)hash[0] | (size_t)hash[1] << 8 | (size_t)hash[2] << 16) %
	           WP_CACHE_TOKENS;

	pthread_once(&once, init);
	pthread_mutex_lock(&stripes[i % WP_CACHE_STRIPES]);
	return &tokens[i];
}

static void
token_unlock(const struct token_slot *s)
{
	pthread_mutex_unlock(&stripes[(size_t)(s - tokens) % WP_CACHE_STRIPES]);
}

int
wp_cache_player(const unsigned char hash[32], struct wp_player *who)
{
	struct token_slot *s = token_lock(hash);
	int hit = s->until_ns > wp_now_ns() && memcmp(s->hash, hash, 32) == 0;

	if (hit)
		*who = s->who;
	token_unlock(s);
	return hit;
}

void
wp_cache_player_put(const unsigned char hash[32], const struct wp_player *who)
{
	struct token_slot *s = token_lock(hash);

	memcpy(s->hash, hash, 32);
	s->who = *who;
	s->until_ns = wp_now_ns() + WP_CACHE_TOKEN_TTL_NS;
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
