/* Dice: uniform draws from an auditable HMAC stream, a seeded stream, or a
 * script; dice notation; advantage and disadvantage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "rules.h"

static uint32_t
draw(struct wr_rng *rng, uint32_t bound)
{
	uint32_t v = bound <= 1 ? 0 : rng->next(rng, bound);

	if (rng->log_cap) {
		if (rng->log_len == rng->log_cap) {
			size_t cap = rng->log_cap * 2;
			struct wr_draw *p = realloc(rng->log, cap * sizeof(*p));
			if (p) {
				rng->log = p;
				rng->log_cap = cap;
			}
		}
		if (rng->log_len < rng->log_cap)
			rng->log[rng->log_len++] = (struct wr_draw){bound, v};
	}
	rng->count++;
	return v;
}

void
wr_rng_record(struct wr_rng *rng)
{
	rng->log_len = 0;
	if (!rng->log_cap) {
		rng->log = malloc(16 * sizeof(*rng->log));
		rng->log_cap = rng->log ? 16 : 0;
	}
}

void
wr_rng_record_free(struct wr_rng *rng)
{
	free(rng->log);
	rng->log = NULL;
	rng->log_len = rng->log_cap = 0;
}

unsigned
wr_die(struct wr_rng *rng, unsigned sides)
{
	return draw(rng, sides) + 1;
}

unsigned
wr_die_adv(struct wr_rng *rng, unsigned sides, enum wr_adv adv)
{
	unsigned a = wr_die(rng, sides), b;

	if (adv == WR_ADV_NONE)
		return a;
	b = wr_die(rng, sides);
	if (adv == WR_ADV_ADVANTAGE)
		return a > b ? a : b;
	return a < b ? a : b;
}

int
wr_parse_dice(const char *notation, unsigned *n, unsigned *sides)
{
	char *end;
	unsigned long count = 1, x;
	const char *p = notation;

	if (!p || !*p)
		return -1;
	if (*p != 'd' && *p != 'D') {
		count = strtoul(p, &end, 10);
		if (end == p || (*end != 'd' && *end != 'D'))
			return -1;
		p = end;
	}
	p++;
	if (*p < '0' || *p > '9')
		return -1;
	x = strtoul(p, &end, 10);
	if (*end || count < 1 || count > 100 || x < 2 || x > 1000)
		return -1;
	*n = (unsigned)count;
	*sides = (unsigned)x;
	return 0;
}

int
wr_roll(struct wr_rng *rng, const char *notation, enum wr_adv adv, unsigned *faces,
        size_t max_faces, unsigned *total)
{
	unsigned n, sides, sum = 0;

	if (wr_parse_dice(notation, &n, &sides) != 0)
		return -1;
	for (unsigned i = 0; i < n; i++) {
		unsigned f = wr_die_adv(rng, sides, adv);
		if (faces && i < max_faces)
			faces[i] = f;
		sum += f;
	}
	*total = sum;
	return (int)n;
}

/* ---- the auditable stream ---- */

static uint32_t
hmac_next(struct wr_rng *rng, uint32_t bound)
{
	struct wr_hmac_stream *s = rng->impl;
	/* Largest multiple of bound that fits in 32 bits: values at or above
	 * it are rejected, so every residue is equally likely. */
	uint64_t limit = (UINT64_C(1) << 32) - ((UINT64_C(1) << 32) % bound);
	unsigned char msg[9], mac[crypto_auth_hmacsha256_BYTES];
	uint64_t k = rng->count;

	for (int i = 0; i < 8; i++)
		msg[i] = (unsigned char)(k >> (56 - 8 * i));
	for (unsigned extra = 0;; extra++) {
		crypto_auth_hmacsha256_state st;
		crypto_auth_hmacsha256_init(&st, s->seed, sizeof(s->seed));
		if (s->client_len)
			crypto_auth_hmacsha256_update(&st, s->client, s->client_len);
		msg[8] = (unsigned char)extra;
		crypto_auth_hmacsha256_update(&st, msg, extra ? 9 : 8);
		crypto_auth_hmacsha256_final(&st, mac);
		for (int w = 0; w < 8; w++) {
			uint32_t x = (uint32_t)mac[4 * w] << 24 | (uint32_t)mac[4 * w + 1] << 16 |
			             (uint32_t)mac[4 * w + 2] << 8 | mac[4 * w + 3];
			if (x < limit)
				return (uint32_t)(x % bound);
		}
	}
}

void
wr_rng_hmac(struct wr_rng *rng, struct wr_hmac_stream *s, uint64_t first_draw)
{
	memset(rng, 0, sizeof(*rng));
	rng->next = hmac_next;
	rng->impl = s;
	rng->count = first_draw;
}

/* ---- seeded (playouts) ---- */

static uint32_t
seeded_next(struct wr_rng *rng, uint32_t bound)
{
	uint64_t *x = rng->impl;
	uint64_t limit = (UINT64_C(1) << 32) - ((UINT64_C(1) << 32) % bound);

	for (;;) {
		/* xorshift64* */
		*x ^= *x >> 12;
		*x ^= *x << 25;
		*x ^= *x >> 27;
		uint32_t v = (uint32_t)((*x * UINT64_C(2685821657736338717)) >> 32);
		if (v < limit)
			return v % bound;
	}
}

void
wr_rng_seeded(struct wr_rng *rng, uint64_t *state, uint64_t seed)
{
	memset(rng, 0, sizeof(*rng));
	*state = seed ? seed : 0x9e3779b97f4a7c15ull;
	rng->next = seeded_next;
	rng->impl = state;
}

/* ---- scripted (rule tables) ---- */

static uint32_t
script_next(struct wr_rng *rng, uint32_t bound)
{
	struct wr_script *s = rng->impl;

	if (s->pos >= s->n || s->faces[s->pos] < 1 || s->faces[s->pos] > bound) {
		s->exhausted = 1;
		return 0;
	}
	return s->faces[s->pos++] - 1;
}

void
wr_rng_script(struct wr_rng *rng, struct wr_script *s)
{
	memset(rng, 0, sizeof(*rng));
	s->pos = 0;
	s->exhausted = 0;
	rng->next = script_next;
	rng->impl = s;
}
