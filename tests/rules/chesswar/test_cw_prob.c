/*
 * Exact probabilities by enumeration, checked against the engine's own
 * resolution with seeded dice (fixed seeds, a tolerance of 5 standard
 * deviations): melee outcomes for pairings of Melee values and saves with
 * brave and scary (002_0478434554df57bb.txt, Melee; RULINGS.md C7, C8),
 * bow hit-and-destroy chances per modifier set (Bows), and catapult
 * scatter landing squares for 2 and 3 rolls and both seats (Catapults).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../unit/check.h"
#include "chesswar.h"
#include "cw_rules.h"

#ifdef __SANITIZE_ADDRESS__
#define TRIALS 1500
#else
#define TRIALS 4000
#endif

static struct cw_state *
pos(int a0, int a1)
{
	struct cw_state *st = calloc(1, sizeof(*st));
	struct cw_opts o;
	memset(&o, 0, sizeof(o));
	o.files = o.ranks = 8;
	cw_init(st, &o);
	st->side[0].army = a0;
	st->side[1].army = a1;
	st->side[0].stage = st->side[1].stage = CW_STAGE_DONE;
	st->phase = CW_PH_MELEE;
	st->first_seat = 0;
	st->round = 1;
	st->u[0].type = 0;
	cw_put(st, 0, wr_square_parse(&st->board, "a1"));
	st->u[CW_UPS].type = 0;
	cw_put(st, CW_UPS, wr_square_parse(&st->board, "h8"));
	return st;
}

static int
put_unit(struct cw_state *st, int seat, int slot, const char *slug, const char *at)
{
	int id = seat * CW_UPS + slot;
	st->u[id].type = (int8_t)cw_type_lookup(st->side[seat].army, slug);
	cw_put(st, id, wr_square_parse(&st->board, at));
	return id;
}

/* P(a d6 save succeeds) for a need (2..6), C7 */
static double
p_save(int need)
{
	if (need < 2)
		need = 2;
	return need > 6 ? 0.0 : (7 - need) / 6.0;
}

static void
near(double got, double want, int n, const char *what)
{
	double sd = sqrt(want * (1 - want) / n);
	double tol = 5 * sd + 1e-9;
	CHECK(fabs(got - want) <= tol, what);
	if (fabs(got - want) > tol)
		fprintf(stderr, "  %s: got %.4f want %.4f (tol %.4f)\n", what, got, want, tol);
}

/* ---------------------------------------------------------- melee */

struct pairing {
	int aa, da;
	const char *att, *def;
};

static void
melee_exact(const struct cw_unit_def *ad, const struct cw_unit_def *dd, int att_brave,
            int att_scary, int def_brave, int def_scary, double *pd, double *pa)
{
	*pd = *pa = 0;
	for (int n = 1; n <= 6; n++) {
		int r = n == 6 ? 6 : n + ad->melee - dd->melee;
		double ps = p_save(dd->save), pas = p_save(ad->save);
		if (r >= 6)
			r = def_scary && !att_brave ? 5 : 6;
		if (r == 6)
			*pd += 1 / 6.0;
		else if (r == 5)
			*pd += (def_brave ? 1 - ps : 1 - ps * ps) / 6.0;
		else if (r == 4)
			*pd += (1 - ps) / 6.0;
		else if (r <= 1 && !(att_scary && !def_brave))
			*pa += (1 - pas) / 6.0;
	}
}

static void
melee_probs(void)
{
	static const struct pairing p[] = {
		{CW_ARMY_HUMANS, CW_ARMY_ORCS, "infantry", "orcs"},
		{CW_ARMY_DWARVES, CW_ARMY_RATMEN, "infantry", "clanrats"},
		{CW_ARMY_ELFS, CW_ARMY_CHAOS, "archers", "chaos_knights"},
		{CW_ARMY_HUMANS, CW_ARMY_UNDEAD, "infantry", "zombies"},      /* scary defender */
		{CW_ARMY_UNDEAD, CW_ARMY_HUMANS, "zombies", "infantry"},      /* scary attacker */
		{CW_ARMY_UNDEAD, CW_ARMY_HUMANS, "zombies", "general"},       /* vs brave */
		{CW_ARMY_CHAOS, CW_ARMY_UNDEAD, "chaos_knights", "undead_cavalry"}, /* brave vs scary */
		{CW_ARMY_ORCS, CW_ARMY_DWARVES, "wolf_riders", "infantry"},
		{CW_ARMY_CHAOS, CW_ARMY_HUMANS, "chaos_lord", "catapults"},
		{CW_ARMY_RATMEN, CW_ARMY_ELFS, "rat_ogres", "treemen"},
	};
	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++) {
		int dd_n = 0, ad_n = 0;
		double pd, pa;
		char what[160];
		uint64_t rs;
		struct wr_rng rng;
		struct cw_state *st0 = pos(p[i].aa, p[i].da);
		int a = strcmp(p[i].att, cw_armies[p[i].aa].units[0].slug) == 0
		                ? 0
		                : put_unit(st0, 0, 1, p[i].att, "d4");
		int d = strcmp(p[i].def, cw_armies[p[i].da].units[0].slug) == 0
		                ? CW_UPS
		                : put_unit(st0, 1, 1, p[i].def, "d5");
		if (a == 0)
			cw_put(st0, 0, wr_square_parse(&st0->board, "d4"));
		if (d == CW_UPS)
			cw_put(st0, CW_UPS, wr_square_parse(&st0->board, "d5"));
		cw_link(st0, a, d);
		melee_exact(cw_def(st0, a), cw_def(st0, d), cw_is_brave(st0, a), cw_is_scary(st0, a),
		            cw_is_brave(st0, d), cw_is_scary(st0, d), &pd, &pa);
		wr_rng_seeded(&rng, &rs, 1000 + i);
		for (int t = 0; t < TRIALS; t++) {
			struct cw_state st = *st0;
			struct cw_action act;
			struct wr_list ev;
			struct wr_error err;
			memset(&act, 0, sizeof(act));
			act.type = CW_A_ATTACK;
			act.unit = st.u[a].sq;
			act.to = st.u[d].sq;
			wr_list_init(&ev, sizeof(struct cw_event));
			if (wr_tpl_do(&cw_template, &st, 0, &act, &rng, &ev, &err) != 0) {
				CHECK(0, err.message);
				break;
			}
			dd_n += st.u[d].status == CW_U_DEAD;
			ad_n += st.u[a].status == CW_U_DEAD;
			wr_list_free(&ev);
		}
		snprintf(what, sizeof(what), "Melee: %s attacks %s, P(defender destroyed) = %.4f",
		         p[i].att, p[i].def, pd);
		near((double)dd_n / TRIALS, pd, TRIALS, what);
		snprintf(what, sizeof(what), "Melee: %s attacks %s, P(attacker destroyed) = %.4f",
		         p[i].att, p[i].def, pa);
		near((double)ad_n / TRIALS, pa, TRIALS, what);
		free(st0);
	}
}

/* ---------------------------------------------------------- bows */

static void
bow_probs(void)
{
	/* elf archers (Bows 3+) at the orcs (save 3+): moved, range, indirect */
	for (int mask = 0; mask < 8; mask++) {
		int moved = mask & 1, far = (mask >> 1) & 1, indirect = (mask >> 2) & 1;
		struct cw_state *st0 = pos(CW_ARMY_ELFS, CW_ARMY_ORCS);
		int f = put_unit(st0, 0, 1, "archers", "d2");
		int t = put_unit(st0, 1, 1, "orcs", far ? "d5" : "d4");
		int hits = 0, kills = 0, need = 3 + moved + far + 2 * indirect;
		double ph = need > 6 ? 0 : (7 - need) / 6.0, pk = ph * (1 - p_save(3));
		char what[160];
		uint64_t rs;
		struct wr_rng rng;
		if (indirect) {
			put_unit(st0, 0, 2, "archers", "d3");     /* blocks the firer's line */
			put_unit(st0, 0, 3, "archers", "c4");     /* sees the target */
		}
		st0->phase = CW_PH_SHOOT;
		st0->u[f].moved = (uint8_t)moved;
		{
			int m[4], n;
			CHECK(cw_shoot_need(st0, f, t, m, &n) == need, "the modifiers add up");
		}
		wr_rng_seeded(&rng, &rs, 2000 + mask);
		for (int k = 0; k < TRIALS; k++) {
			struct cw_state st = *st0;
			struct cw_action act;
			struct wr_list ev;
			struct wr_error err;
			memset(&act, 0, sizeof(act));
			act.type = CW_A_SHOOT;
			act.unit = st.u[f].sq;
			act.to = st.u[t].sq;
			wr_list_init(&ev, sizeof(struct cw_event));
			if (wr_tpl_do(&cw_template, &st, 0, &act, &rng, &ev, &err) != 0) {
				CHECK(0, err.message);
				fprintf(stderr, "  %s\n", err.code);
				break;
			}
			for (size_t e = 0; e < ev.len; e++) {
				const struct cw_event *x = wr_list_at(&ev, e);
				if (x->type == CW_E_SHOOT)
					hits += x->ok;
			}
			kills += st.u[t].status == CW_U_DEAD;
			wr_list_free(&ev);
		}
		snprintf(what, sizeof(what), "Bows: moved %d, range 3+ %d, indirect %d: P(hit) = %.4f",
		         moved, far, indirect, ph);
		near((double)hits / TRIALS, ph, TRIALS, what);
		snprintf(what, sizeof(what),
		         "Bows: moved %d, range 3+ %d, indirect %d: P(destroyed) = %.4f", moved, far,
		         indirect, pk);
		near((double)kills / TRIALS, pk, TRIALS, what);
		free(st0);
	}
}

/* ------------------------------------------------------- catapults */

static void
scatter_probs(void)
{
	/* seat 0 fires from d1 at d5 (direct, 2 rolls) and, with its line
	 * blocked, indirectly (3 rolls); seat 1 fires from e8 at e4 (2 rolls). */
	for (int c = 0; c < 3; c++) {
		struct cw_state *st0 = pos(CW_ARMY_HUMANS, CW_ARMY_DWARVES);
		int seat = c == 2 ? 1 : 0, n = c == 1 ? 3 : 2;
		int cat = seat == 0 ? put_unit(st0, 0, 1, "catapults", "d1")
		                    : put_unit(st0, 1, 1, "catapults", "e8");
		int aim = wr_square_parse(&st0->board, seat == 0 ? "d5" : "e4");
		double exact[64] = {0};
		int count[64] = {0}, miss = 0;
		uint64_t rs;
		struct wr_rng rng;
		int faces[3];
		if (c == 1) {
			put_unit(st0, 0, 2, "infantry", "d2");
			put_unit(st0, 0, 3, "infantry", "b5");
		}
		st0->phase = CW_PH_SHOOT;
		st0->turn_seat = seat;
		/* exact: every outcome of n dice */
		int total = 1;
		for (int i = 0; i < n; i++)
			total *= 6;
		for (int o = 0; o < total; o++) {
			int x = o, df = 0, dr = 0, fwd = seat == 0 ? 1 : -1;
			for (int i = 0; i < n; i++) {
				faces[i] = x % 6 + 1;
				x /= 6;
				/* 1 over, 2 right, 3 short, 4 left, 5-6 none, as the firer sits */
				if (faces[i] == 1)
					dr += fwd;
				else if (faces[i] == 2)
					df += fwd;
				else if (faces[i] == 3)
					dr -= fwd;
				else if (faces[i] == 4)
					df -= fwd;
			}
			int sq = wr_square(&st0->board, wr_file(&st0->board, aim) + df,
			                   wr_rank(&st0->board, aim) + dr);
			if (sq >= 0)
				exact[sq] += 1.0 / total;
		}
		wr_rng_seeded(&rng, &rs, 3000 + c);
		for (int k = 0; k < TRIALS; k++) {
			struct cw_state st = *st0;
			struct cw_action act;
			struct wr_list ev;
			struct wr_error err;
			memset(&act, 0, sizeof(act));
			act.type = CW_A_SHOOT;
			act.unit = st.u[cat].sq;
			act.to = aim;
			wr_list_init(&ev, sizeof(struct cw_event));
			if (wr_tpl_do(&cw_template, &st, seat, &act, &rng, &ev, &err) != 0) {
				CHECK(0, err.message);
				break;
			}
			for (size_t e = 0; e < ev.len; e++) {
				const struct cw_event *x = wr_list_at(&ev, e);
				if (x->type == CW_E_SCATTER) {
					CHECK(x->nfaces == n, "the number of scatter rolls");
					if (x->value >= 0)
						count[x->value]++;
					else
						miss++;
				}
			}
			wr_list_free(&ev);
		}
		for (int sq = 0; sq < 64; sq++) {
			char what[160], nm[8];
			snprintf(what, sizeof(what), "Catapults: seat %d, %d rolls: P(lands on %s) = %.4f",
			         seat, n, wr_square_name(&st0->board, sq, nm), exact[sq]);
			near((double)count[sq] / TRIALS, exact[sq], TRIALS, what);
		}
		free(st0);
		(void)miss;
	}
}

int
main(void)
{
	melee_probs();
	bow_probs();
	scatter_probs();
	return check_done("cw_prob");
}
