/* Dice (rules/dice.c): notation, the auditable HMAC stream, uniformity,
 * advantage and disadvantage against exact expectations. */
#include <math.h>
#include <stdlib.h>

#include <sodium.h>

#include "../unit/check.h"
#include "rules.h"

/* Chi-square statistic of counts against a uniform expectation. */
static double
chi2(const unsigned *counts, unsigned k, unsigned n)
{
	double e = (double)n / k, x = 0;
	for (unsigned i = 0; i < k; i++)
		x += (counts[i] - e) * (counts[i] - e) / e;
	return x;
}

int
main(void)
{
	unsigned n, sides, faces[8], total;
	struct wr_rng rng;
	uint64_t st;

	if (sodium_init() < 0)
		return 1;
	CHECK(wr_parse_dice("2d6", &n, &sides) == 0 && n == 2 && sides == 6, "2d6");
	CHECK(wr_parse_dice("d20", &n, &sides) == 0 && n == 1 && sides == 20, "d20");
	CHECK(wr_parse_dice("1D100", &n, &sides) == 0 && sides == 100, "D100");
	CHECK(wr_parse_dice("0d6", &n, &sides) != 0, "zero dice");
	CHECK(wr_parse_dice("2d1", &n, &sides) != 0, "one-sided");
	CHECK(wr_parse_dice("2d", &n, &sides) != 0, "no sides");
	CHECK(wr_parse_dice("2x6", &n, &sides) != 0, "not dice");
	CHECK(wr_parse_dice("3d6+1", &n, &sides) != 0, "modifiers are the ruleset's");

	/* The HMAC stream is a pure function of seed, client seeds and k. */
	struct wr_hmac_stream hs = {.client = (unsigned char *)"alice|bob", .client_len = 9};
	for (int i = 0; i < 32; i++)
		hs.seed[i] = (unsigned char)i;
	unsigned first[64], again[64];
	wr_rng_hmac(&rng, &hs, 0);
	for (int i = 0; i < 64; i++)
		first[i] = wr_die(&rng, 6);
	CHECK(rng.count == 64, "every die is one draw");
	wr_rng_hmac(&rng, &hs, 0);
	for (int i = 0; i < 64; i++)
		again[i] = wr_die(&rng, 6);
	CHECK(memcmp(first, again, sizeof(first)) == 0, "same seed, same rolls");
	wr_rng_hmac(&rng, &hs, 10);
	CHECK(wr_die(&rng, 6) == first[10], "draw k depends only on k: resuming at 10");
	/* Draw 0 by hand: HMAC-SHA256(seed, "alice|bob" || 0^8), first word
	 * mod 6 unless rejected. */
	unsigned char msg[17], mac[32];
	memcpy(msg, "alice|bob", 9);
	memset(msg + 9, 0, 8);
	crypto_auth_hmacsha256_state hst;
	crypto_auth_hmacsha256_init(&hst, hs.seed, 32);
	crypto_auth_hmacsha256_update(&hst, msg, 17);
	crypto_auth_hmacsha256_final(&hst, mac);
	uint32_t w = (uint32_t)mac[0] << 24 | (uint32_t)mac[1] << 16 | (uint32_t)mac[2] << 8 | mac[3];
	CHECK(w >= 4294967292u || first[0] == w % 6 + 1,
	      "DESIGN.md: roll k = HMAC-SHA256(seed, client seeds || k), unbiased");
	hs.client_len = 5;
	wr_rng_hmac(&rng, &hs, 0);
	int differs = 0;
	for (int i = 0; i < 64; i++)
		differs += wr_die(&rng, 6) != first[i];
	CHECK(differs > 20, "a client seed changes the stream");

	/* Uniformity of the HMAC stream: chi-square, d6 and d100, with the
	 * 99.9% critical values (5 and 99 degrees of freedom). */
	unsigned c6[6] = {0}, c100[100] = {0};
	wr_rng_hmac(&rng, &hs, 0);
	for (int i = 0; i < 60000; i++)
		c6[wr_die(&rng, 6) - 1]++;
	for (int i = 0; i < 100000; i++)
		c100[wr_die(&rng, 100) - 1]++;
	CHECK(chi2(c6, 6, 60000) < 20.52, "d6 uniform (chi-square, 5 df, p=0.001)");
	CHECK(chi2(c100, 100, 100000) < 148.23, "d100 uniform (chi-square, 99 df, p=0.001)");

	/* Advantage: one d6 at advantage has mean 161/36, at disadvantage
	 * 91/36 (P(max <= k) = k^2/36). The seeded stream, 200,000 rolls:
	 * standard error ~0.003, so 0.02 is over six of them. */
	double sum_a = 0, sum_d = 0;
	wr_rng_seeded(&rng, &st, 42);
	for (int i = 0; i < 200000; i++) {
		sum_a += wr_die_adv(&rng, 6, WR_ADV_ADVANTAGE);
		sum_d += wr_die_adv(&rng, 6, WR_ADV_DISADVANTAGE);
	}
	CHECK(fabs(sum_a / 200000 - 161.0 / 36) < 0.02, "d6 at advantage: mean 161/36");
	CHECK(fabs(sum_d / 200000 - 91.0 / 36) < 0.02, "d6 at disadvantage: mean 91/36");

	wr_rng_seeded(&rng, &st, 7);
	wr_rng_record(&rng);
	CHECK(wr_roll(&rng, "3d8", WR_ADV_NONE, faces, 8, &total) == 3, "3d8 rolls 3");
	CHECK(total == faces[0] + faces[1] + faces[2], "total of faces");
	CHECK(rng.log_len == 3 && rng.log[0].bound == 8 && rng.log[0].value + 1 == faces[0],
	      "draws are recorded for the log");
	wr_roll(&rng, "2d6", WR_ADV_ADVANTAGE, faces, 8, &total);
	CHECK(rng.log_len == 7, "advantage draws two per die");
	wr_rng_record_free(&rng);

	const unsigned script[] = {6, 1, 4};
	struct wr_script sc = {script, 3, 0, 0};
	wr_rng_script(&rng, &sc);
	CHECK(wr_die(&rng, 6) == 6 && wr_die(&rng, 6) == 1 && wr_die(&rng, 6) == 4,
	      "a script gives its faces");
	CHECK(!sc.exhausted, "script not exhausted");
	wr_die(&rng, 6);
	CHECK(sc.exhausted, "running out of script is noticed");
	return check_done("dice");
}
