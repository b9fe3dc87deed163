/* Token buckets per (class, key) in fixed tables: no allocation per
 * request, bounded memory, one lock per class (ratelimit.h). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>

#include "core.h"
#include "ratelimit.h"

/* Keys up to this many bytes (an IPv6 address, a SHA-256). */
#define WP_RATE_KEY 48
/* Entries per class, and how many slots a key may be placed in. */
#define WP_RATE_SLOTS 4096
#define WP_RATE_PROBE 8

struct bucket {
	unsigned char key[WP_RATE_KEY];
	unsigned char len;       /* 0: free */
	double tokens;
	int64_t at_ns;           /* when tokens was last brought up to date */
};

static struct {
	pthread_mutex_t lock;
	struct wp_rate rate;
	struct bucket *slots;
} classes[WP_RATE_MAX];

static uint64_t seed;
static int trust_forwarded_for;
static unsigned max_open_matches;

void
wp_rate_init(const struct wp_config *cfg)
{
	if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		seed = (uint64_t)wp_now_ns();
	trust_forwarded_for = cfg->trust_forwarded_for;
	max_open_matches = cfg->max_open_matches;
	for (int c = 0; c < WP_RATE_MAX; c++) {
		pthread_mutex_init(&classes[c].lock, NULL);
		classes[c].rate = cfg->rate[c];
		classes[c].slots = NULL;
		if (cfg->rate[c].n && cfg->rate[c].per_s)
			classes[c].slots = calloc(WP_RATE_SLOTS, sizeof(struct bucket));
		if (cfg->rate[c].n && !classes[c].slots)
			wp_log("rate limits: no memory for class %d; it is not limited", c);
	}
}

void
wp_rate_fini(void)
{
	for (int c = 0; c < WP_RATE_MAX; c++) {
		free(classes[c].slots);
		classes[c].slots = NULL;
		pthread_mutex_destroy(&classes[c].lock);
	}
}

unsigned
wp_rate_max_open_matches(void)
{
	return max_open_matches;
}

/* FNV-1a over a random seed: keys are chosen by clients, so where they
 * land must not be predictable. */
static uint64_t
hash_key(const unsigned char *k, size_t n)
{
	uint64_t h = 1469598103934665603ull ^ seed;

	for (size_t i = 0; i < n; i++)
		h = (h ^ k[i]) * 1099511628211ull;
	return h ^ (h >> 29);
}

static void
refill(struct bucket *b, const struct wp_rate *r, int64_t now)
{
	b->tokens += (double)(now - b->at_ns) / 1e9 * r->n / r->per_s;
	if (b->tokens > r->n)
		b->tokens = r->n;
	b->at_ns = now;
}

unsigned
wp_rate_take(enum wp_rate_class cls, const void *key, size_t len)
{
	return wp_rate_take_n(cls, key, len, 1);
}

unsigned
wp_rate_take_n(enum wp_rate_class cls, const void *key, size_t len, unsigned n)
{
	struct bucket *found = NULL, *victim = NULL;
	const struct wp_rate *r = &classes[cls].rate;
	int64_t now = wp_now_ns();
	unsigned wait = 0;

	if (!classes[cls].slots || !len)
		return 0;
	/* More than a full bucket could never be granted. */
	if (n > r->n)
		n = r->n;
	if (len > WP_RATE_KEY)
		len = WP_RATE_KEY;
	uint64_t h = hash_key(key, len);
	pthread_mutex_lock(&classes[cls].lock);
	for (unsigned i = 0; i < WP_RATE_PROBE && !found; i++) {
		struct bucket *b = &classes[cls].slots[(h + i) % WP_RATE_SLOTS];
		if (b->len == len && memcmp(b->key, key, len) == 0) {
			found = b;
			break;
		}
		/* The slot to reuse: a free one, else the fullest bucket. */
		if (b->len)
			refill(b, r, now);
		if (!victim || (victim->len && (!b->len || b->tokens > victim->tokens)))
			victim = b;
	}
	if (!found) {
		found = victim;
		memcpy(found->key, key, len);
		found->len = (unsigned char)len;
		found->tokens = r->n;
		found->at_ns = now;
	}
	refill(found, r, now);
	if (found->tokens >= n) {
		found->tokens -= n;
	} else {
		double s = (n - found->tokens) * r->per_s / r->n;
		wait = (unsigned)s;
		wait += wait < s || wait == 0; /* rounded up, at least 1 */
	}
	pthread_mutex_unlock(&classes[cls].lock);
	return wait;
}

enum wp_err
wp_rate_check(struct wp_ctx *ctx, enum wp_rate_class cls, const void *key, size_t len)
{
	return wp_rate_check_n(ctx, cls, key, len, 1);
}

enum wp_err
wp_rate_check_n(struct wp_ctx *ctx, enum wp_rate_class cls, const void *key, size_t len,
                unsigned n)
{
	static const char *const what[WP_RATE_MAX] = {
		[WP_RATE_REQUESTS] = "requests from this address",
		[WP_RATE_PLAYERS] = "players created from this address",
		[WP_RATE_GAMES] = "matches created with this token",
		[WP_RATE_WRITES] = "writes with this token",
		[WP_RATE_ACCOUNT] = "sign-in codes made or tried from here",
	};
	unsigned wait = wp_rate_take_n(cls, key, len, n);
	char v[16];

	if (!wait)
		return WP_OK;
	snprintf(v, sizeof(v), "%u", wait);
	wp_response_header(ctx->res, "Retry-After", v);
	return wp_fail(ctx, WP_ERR_RATE_LIMITED, "too many %s (at most %u per %u s); retry in %u s",
	               what[cls], classes[cls].rate.n, classes[cls].rate.per_s, wait);
}

enum wp_err
wp_rate_check_ip(struct wp_ctx *ctx, enum wp_rate_class cls)
{
	return wp_rate_check_ip_n(ctx, cls, 1);
}

enum wp_err
wp_rate_check_ip_n(struct wp_ctx *ctx, enum wp_rate_class cls, unsigned n)
{
	char buf[WP_CLIENT_IP_MAX];
	const char *ip = wp_client_ip(ctx->req, buf);
	return wp_rate_check_n(ctx, cls, ip, strlen(ip), n);
}

const char *
wp_client_ip(const struct wp_request *req, char last[WP_CLIENT_IP_MAX])
{
	const char *xff = trust_forwarded_for ? wp_request_header(req, "X-Forwarded-For") : NULL;

	if (!xff)
		return req->peer;
	const char *p = strrchr(xff, ',');
	p = p ? p + 1 : xff;
	while (*p == ' ' || *p == '\t')
		p++;
	size_t n = strcspn(p, " \t");
	if (n == 0 || n >= WP_CLIENT_IP_MAX)
		return req->peer;
	memcpy(last, p, n);
	last[n] = '\0';
	return last;
}
