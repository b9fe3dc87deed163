/*
 * Exact probabilities of Blood Chess combat (RULINGS.md B8), by
 * enumerating every dice outcome, checked against the engine's own
 * resolution (bc_resolve_attack) with seeded dice: the to-hit chance for
 * OCV - DCV from -10 to +10 (3 always hits, 18 always misses), and the
 * distributions of STUN and BODY taken after defenses for a normal attack
 * against PD and a killing attack against resistant PD. Each observed
 * frequency must lie within 5 standard deviations (plus 1/N) of the exact
 * value; the seeds are fixed, so the test is never flaky.
 */
#include <math.h>
#include <stdio.h>

#include "bc_test.h"

#define N 20000

static int
within(double freq, double p, int n)
{
	return fabs(freq - p) <= 5.0 * sqrt(p * (1 - p) / n) + 1.0 / n;
}

/* exact P(hit) as count / 216 */
static int
hit_count(int need)
{
	int c = 0;
	for (int a = 1; a <= 6; a++)
		for (int b = 1; b <= 6; b++)
			for (int d = 1; d <= 6; d++)
				c += bc_hits(a + b + d, need);
	return c;
}

/* A duel on the board: seat 0's Queen on d1 shoots seat 1's King on d6. */
static struct bc_state *
duel(const struct bc_sheet *att, const struct bc_sheet *def)
{
	uint64_t s;
	struct wr_rng rng;
	struct bc_state *st;

	wr_rng_seeded(&rng, &s, 1);
	st = bc_match(NULL, NULL, NULL, &rng, NULL);
	for (int i = 0; i < BC_PIECES; i++)
		if (i != 0 && i != 1 && i != BC_PER_SIDE)
			st->p[i].sq = -1;
	for (int s2 = 0; s2 < 2; s2++)
		for (int r = 0; r < BC_ROLES; r++)
			st->ch[s2][r].removed = bc_real_piece(st, s2, r) < 0;
	st->p[1].sq = 3;            /* d1 */
	st->p[BC_PER_SIDE].sq = 43; /* d6 */
	st->ch[0][BC_QUEEN].sh = *att;
	st->ch[1][BC_KING].sh = *def;
	st->ch[1][BC_KING].stun = def->stun;
	st->ch[1][BC_KING].body = def->body;
	return st;
}

static void
to_hit(void)
{
	struct bc_sheet att = {"A", 20, 5, 0, 5, 20, 10, 30, 5, 5, 5, 0, 0, 1,
	                       {{"Blast", 1, 0, 1, 0, 0}}};
	struct bc_sheet def = {"D", 20, 5, 5, 0, 20, 99, 199, 5, 99, 99, 0, 0, 1,
	                       {{"Punch", 1, 0, 0, 0, 0}}};
	int all_ok = 1;

	for (int diff = -10; diff <= 10; diff++) {
		struct bc_state *st, base;
		uint64_t s;
		struct wr_rng rng;
		int hits = 0, exact;
		double p;

		att.ocv = 15 + diff;
		def.dcv = 15;
		st = duel(&att, &def);
		base = *st;
		exact = hit_count(bc_to_hit_need(att.ocv, def.dcv));
		p = exact / 216.0;
		wr_rng_seeded(&rng, &s, 100 + (uint64_t)(diff + 10));
		for (int k = 0; k < N; k++) {
			struct wr_list ev;
			wr_list_init(&ev, sizeof(struct bc_event));
			*st = base;
			bc_resolve_attack(st, 1, 0, 43, &rng, &ev);
			for (size_t x = 0; x < ev.len; x++) {
				struct bc_event *e = wr_list_at(&ev, x);
				if (e->type == BC_E_ATTACK)
					hits += e->hit;
			}
			wr_list_free(&ev);
		}
		if (!within((double)hits / N, p, N)) {
			all_ok = 0;
			fprintf(stderr, "  OCV-DCV %d: exact %d/216, observed %d/%d\n", diff, exact, hits, N);
		}
		/* exact values at a glance: 11 or less is 135/216 (62.5%) */
		if (diff == 0)
			CHECK(exact == 135, "RULINGS.md, Blood Chess B8 (OCV = DCV: 11 or less, 135/216)");
		if (diff == -10)
			CHECK(exact == 1, "RULINGS.md, Blood Chess B8 (3 always hits: 1/216)");
		if (diff == 10)
			CHECK(exact == 215, "RULINGS.md, Blood Chess B8 (18 always misses: 215/216)");
		bc_ruleset.free(st);
	}
	CHECK(all_ok, "RULINGS.md, Blood Chess B8 (to-hit on 3d6 against seeded resolution)");
}

/* Exact distribution of (STUN taken, BODY taken) of one attack, by
 * enumeration; dist[stun][body] counts, out of 6^dice (x6 for killing). */
#define MAXS 200
#define MAXB 40
static double dist[MAXS][MAXB], seen[MAXS][MAXB];

static void
enumerate(const struct bc_attack *a, const struct bc_sheet *def)
{
	int n = a->dice, faces[BC_MAX_DICE], total = 1;
	memset(dist, 0, sizeof(dist));
	for (int k = 0; k < n; k++)
		total *= 6;
	for (int code = 0; code < total; code++) {
		int c = code, sum = 0, body = 0;
		for (int k = 0; k < n; k++) {
			faces[k] = c % 6 + 1;
			c /= 6;
			sum += faces[k];
			body += faces[k] == 1 ? 0 : faces[k] == 6 ? 2 : 1;
		}
		for (int m = 1; m <= (a->killing ? 6 : 1); m++) {
			struct bc_damage d;
			int mult = m - 1 < 1 ? 1 : m - 1;
			if (a->killing)
				bc_damage_taken(a, def, sum * mult, sum, &d);
			else
				bc_damage_taken(a, def, sum, body, &d);
			dist[d.stun_taken][d.body_taken] += 1.0 / (total * (a->killing ? 6 : 1));
		}
	}
}

static void
damage_case(const char *what, const struct bc_attack *a, const struct bc_sheet *def, uint64_t seed)
{
	struct bc_sheet att = {"A", 20, 5, 30, 5, 20, 10, 30, 5, 5, 5, 0, 0, 1, {*a}};
	struct bc_state *st = duel(&att, def), base = *st;
	uint64_t s;
	struct wr_rng rng;
	int hits = 0, ok = 1;
	double mean_exact = 0, mean_seen = 0;

	enumerate(a, def);
	memset(seen, 0, sizeof(seen));
	wr_rng_seeded(&rng, &s, seed);
	for (int k = 0; k < N; k++) {
		struct wr_list ev;
		wr_list_init(&ev, sizeof(struct bc_event));
		*st = base;
		bc_resolve_attack(st, 1, 0, 43, &rng, &ev);
		for (size_t x = 0; x < ev.len; x++) {
			struct bc_event *e = wr_list_at(&ev, x);
			if (e->type == BC_E_DAMAGE) {
				seen[e->stun_taken][e->body_taken] += 1;
				hits++;
			}
		}
		wr_list_free(&ev);
	}
	for (int x = 0; x < MAXS; x++)
		for (int y = 0; y < MAXB; y++) {
			mean_exact += dist[x][y] * x;
			if (hits)
				mean_seen += seen[x][y] / hits * x;
			if ((dist[x][y] > 0 || seen[x][y] > 0) &&
			    !within(seen[x][y] / hits, dist[x][y], hits)) {
				ok = 0;
				fprintf(stderr, "  %s: STUN %d BODY %d exact %.5f observed %.5f\n", what, x, y,
				        dist[x][y], seen[x][y] / hits);
			}
		}
	CHECK(hits > N * 0.99, "almost every attack hits with OCV 30");
	CHECK(ok, what);
	printf("%s: mean STUN taken %.3f exact, %.3f seen over %d hits\n", what, mean_exact,
	       mean_seen, hits);
	bc_ruleset.free(st);
}

int
main(void)
{
	struct bc_sheet def = {"D", 20, 5, 5, 5, 99, 99, 199, 99, 5, 7, 2, 3, 1,
	                       {{"Punch", 1, 0, 0, 0, 0}}};
	struct bc_attack normal = {"Blast", 4, 0, 1, 0, 0};
	struct bc_attack normal_ed = {"Ray", 3, 0, 1, 1, 0};
	struct bc_attack killing = {"Rifle", 2, 1, 1, 0, 0};

	to_hit();
	damage_case("RULINGS.md, Blood Chess B8 (normal 4d6 less PD 5)", &normal, &def, 11);
	damage_case("RULINGS.md, Blood Chess B8 (normal 3d6 less ED 7)", &normal_ed, &def, 12);
	damage_case("RULINGS.md, Blood Chess B8 (killing 2d6: BODY less rPD 2, STUN less PD 5)",
	            &killing, &def, 13);
	damage_case("RULINGS.md, Blood Chess B8 (killing 2d6, second seed)", &killing, &def, 14);
	return check_done("bc_prob");
}
