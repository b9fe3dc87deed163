/* Exact hit, crit and damage by enumeration of the d100 (Hitting Targets,
 * Dealing Damage; RULINGS.md O9, O10), checked against the forecast and
 * against seeded resolution of the same attack (the forecast is computed by
 * the code that resolves it). Tolerance: 5 standard deviations, fixed seeds. */
#include <math.h>

#include "oc_test.h"

#define ROLLS 4000

struct matchup {
	const char *why;
	const char *acls, *aweapon, *dcls, *dweapon;
	const char *dtile;           /* terrain glyph under the defender */
	int hit, crit, dmg, crit_dmg;   /* hand-computed from the text */
};

static const struct matchup cases[] = {
	{"Hitting Targets / Dealing Damage: Sword Fighter Steel Sword vs Axe Fighter",
	 "Sword Fighter", "Steel Sword", "Axe Fighter", "Steel Axe", ".", 75, 10, 8, 19},
	{"Terrain Table: Woods +5 Avo; Fort +2 DR +5 Avo", "Sword Fighter", "Steel Sword",
	 "Axe Fighter", "Steel Axe", "F", 70, 10, 6, 17},
	{"Class Tags, Covert: double terrain bonuses (Archer in Woods)", "Sword Fighter",
	 "Steel Sword", "Archer", "Steel Bow", "W", 60, 10, 9, 20},
	{"Weapon Tags, Deadly(20): crit below 20", "Sword Fighter", "Killing Edge",
	 "Lance Fighter", "Steel Lance", ".", 70, 19, 10, 23},
	{"Dealing Damage, Magic: Mag vs Res; Class Tags, Mystical ignores terrain", "Mage",
	 "Elfire", "Axe Fighter", "Steel Axe", "F", 80, 10, 12, 26},
	{"Weapon Tags, Effective(Armor) +5", "Sword Fighter", "Armorslayer", "Lance Armor",
	 "Steel Lance", ".", 75, 10, 11, 27},
	{"Class Tags, Flying ignores terrain (Water -5 Avo not applied)", "Lance Fighter",
	 "Steel Lance", "Sword Flier", "Steel Sword", "~", 65, 10, 11, 24},
	{"Terrain Table: Water -5 Avo", "Lance Fighter", "Steel Lance", "Sword Fighter",
	 "Steel Sword", "~", 75, 10, 10, 23},
	{"Weapon Tags, Effective(Flying) with a Bow", "Archer", "Steel Bow", "Axe Flier",
	 "Hand Axe", ".", 80, 10, 16, 34},
};

static struct oc_state *
position(const struct matchup *m, int *att, int *def)
{
	struct oc_state *st = make(NULL);
	const struct oc_item *aw = &oc_items[oc_item_find(m->aweapon)];
	int d = aw->rmin ? aw->rmin : 1;
	char dsq[3] = {'d', (char)('4' + d), 0};

	*att = put_unit(st, 0, m->acls, "d4", m->aweapon, NULL, NULL);
	*def = put_unit(st, 1, m->dcls, dsq, m->dweapon, NULL, NULL);
	for (int t = 0; t < OC_TR_MAX; t++)
		if (oc_tiles[t].glyph == m->dtile[0])
			st->terrain[sq(dsq)] = st->base[sq(dsq)] = (unsigned char)t;
	battle(st, 0);
	return st;
}

int
main(void)
{
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const struct matchup *m = &cases[c];
		int att, def, hit, crit, dmg, cdmg;
		struct oc_state *st = position(m, &att, &def);
		struct oc_forecast f;

		oc_strike_numbers(st, att, def, 0, &hit, &crit, &dmg, &cdmg);
		CHECK(hit == m->hit && crit == m->crit && dmg == m->dmg && cdmg == m->crit_dmg,
		      "%s: hit %d crit %d dmg %d/%d, expected %d %d %d/%d", m->why, hit, crit, dmg,
		      cdmg, m->hit, m->crit, m->dmg, m->crit_dmg);
		oc_forecast(st, att, def, -1, &f);
		CHECK(f.att.hit == hit && f.att.crit == crit && f.att.dmg == dmg &&
		      f.att.crit_dmg == cdmg, "%s: the forecast shows the same numbers", m->why);

		/* Exact by enumeration of the d100 faces. */
		int n_hit = 0, n_crit = 0;
		double mean = 0;
		for (int roll = 1; roll <= 100; roll++) {
			int h = roll <= hit, k = h && roll <= crit;
			n_hit += h;
			n_crit += k;
			mean += k ? cdmg : h ? dmg : 0;
		}
		mean /= 100.0;
		CHECK(n_hit == hit && n_crit == crit, "%s: P(hit)=%d/100, P(crit)=%d/100", m->why,
		      n_hit, n_crit);

		/* Seeded resolution: the first strike of ROLLS combats. */
		struct wr_rng rng;
		uint64_t rs;
		int got_hit = 0, got_crit = 0;
		double got_dmg = 0;
		wr_rng_seeded(&rng, &rs, 77 + c);
		for (int r = 0; r < ROLLS; r++) {
			struct oc_state copy = *st;
			struct oc_event e;
			memset(&e, 0, sizeof(e));
			copy.u[def].hp = copy.u[att].hp = 100;  /* nobody routs: all strikes happen */
			oc_combat(&copy, att, def, -2, &rng, &e);
			const struct oc_strike *s = &e.strikes[0];
			CHECK(s->need == hit && s->crit_need == crit, "resolution uses the forecast numbers");
			got_hit += s->hit;
			got_crit += s->crit;
			got_dmg += s->dmg;
			int broke = 0;
			for (int k = 0; k < e.nstrikes; k++)
				broke |= e.strikes[k].broke;
			if (!broke)   /* Weapon Triangle: Broken loses the counter at once */
				CHECK(e.nstrikes == f.att.strikes + f.def.strikes,
				      "%s: %d strikes as forecast (%d + %d)", m->why, e.nstrikes,
				      f.att.strikes, f.def.strikes);
		}
		double p = hit / 100.0, sd = sqrt(p * (1 - p) / ROLLS) + 1e-9;
		CHECK(fabs(got_hit / (double)ROLLS - p) <= 5 * sd + 1e-9,
		      "%s: hit rate %.3f vs %.3f", m->why, got_hit / (double)ROLLS, p);
		p = crit / 100.0;
		sd = sqrt(p * (1 - p) / ROLLS) + 1e-9;
		CHECK(fabs(got_crit / (double)ROLLS - p) <= 5 * sd + 1e-9,
		      "%s: crit rate %.3f vs %.3f", m->why, got_crit / (double)ROLLS, p);
		double var = 0;
		for (int roll = 1; roll <= 100; roll++) {
			int h = roll <= hit, k = h && roll <= crit;
			double x = k ? cdmg : h ? dmg : 0;
			var += (x - mean) * (x - mean) / 100.0;
		}
		CHECK(fabs(got_dmg / ROLLS - mean) <= 5 * sqrt(var / ROLLS) + 1e-9,
		      "%s: mean damage %.3f vs exact %.3f", m->why, got_dmg / ROLLS, mean);
		oc_ruleset.free(st);
	}
	printf("officers-chess probabilities: %zu matchups x %d rolls; %d checks, %d failures\n",
	       sizeof(cases) / sizeof(cases[0]), ROLLS, checks, failures);
	return failures ? 1 : 0;
}
