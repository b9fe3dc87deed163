/*
 * Exact battle probabilities of Confrontation against the engine.
 *
 * The test computes each outcome's probability exactly by enumerating the
 * dice (36 pairs, or 216 triples with Humans' Luck) in integer arithmetic,
 * with its own small model of 004_13fa4739ee387ac7.txt, IV. Combat and VI
 * (Weapon Mastery, Intimidation, Strength) in the order of RULINGS.md,
 * Confrontation R6. Then it plays the battle through the ruleset once for
 * EVERY dice outcome (scripted faces) and requires the engine's outcome
 * to be the model's each time, so the engine's counts are the exact
 * fractions. Last, a small seeded sample (SAMPLE battles with the seeded
 * stream, fixed seed) must lie within 5 standard errors of the exact
 * values (exactly 0 or all where the probability is 0 or 1).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../unit/check.h"
#include "cf_rules.h"

#define SAMPLE 3000

/* The independent model: attacker total a + am, defender d + dm. */
struct model {
	int am, dm;
	int queen_att;        /* Intimidation: a moving Queen's draw is a win */
	int two_queens;       /* the moving Queen wins */
	int rook_def_str;     /* the defending Rook's first defeat is a draw */
	int rook_att_str;
	int luck_att;         /* Humans' Luck for the attacker, order if_losing */
	int spell;            /* a spell battle: anything but a win has no effect */
};

static int
outcome(const struct model *m, int a, int d)
{
	int o = (a + m->am > d + m->dm) - (a + m->am < d + m->dm);
	if (m->queen_att && o == 0)
		o = 1;
	if (m->two_queens)
		o = 1;
	if (o == 1 && m->rook_def_str)
		o = 0;
	if (o == -1 && m->rook_att_str)
		o = 0;
	if (m->spell && o == -1)
		o = 0;
	return o;
}

/* The outcome of faces a (attacker), d (defender) and r (the Luck
 * re-roll, used only with luck_att): the engine re-rolls only when a
 * re-roll can matter and the order says if_losing, and keeps the better. */
static int
model_outcome(const struct model *m, int a, int d, int r)
{
	int o = outcome(m, a, d), can = 0;
	if (!m->luck_att || o != -1)
		return o;
	for (int f = 1; f <= 6; f++)
		can |= outcome(m, f > a ? f : a, d) != o;
	return can ? outcome(m, r > a ? r : a, d) : o;
}

/* Exact counts of win/draw/loss (for the attacker) over `den` cases. */
static void
exact(const struct model *m, long cnt[3], long *den)
{
	cnt[0] = cnt[1] = cnt[2] = 0;
	*den = m->luck_att ? 216 : 36;
	for (int i = 0; i < *den; i++)
		cnt[1 - model_outcome(m, 1 + i % 6, 1 + i / 6 % 6, 1 + i / 36)]++;
}

static struct cf_state *
position(int att_type, int def_type, int def_strength, int humans)
{
	struct cf_state *st = calloc(1, sizeof(*st));
	struct cf_opts o = {.points = 15, .random_areas = 1, .races = humans};
	cf_init(st, &o, 2);
	for (int s = 0; s < 2; s++) {
		st->s[s].n = 3;
		st->order[s] = s;
		st->s[s].ready = 1;
		st->s[s].p[0] = (struct cf_piece){.type = CF_KING, .sq = s ? 63 : 4, .status = CF_ON};
		st->s[s].p[2] = (struct cf_piece){.type = CF_PAWN, .sq = s ? 55 : 0, .status = CF_ON};
	}
	/* the attacker on d1 (a Pawn on d2), the defender on d4 */
	st->s[0].p[1] = (struct cf_piece){.type = att_type, .sq = att_type == CF_PAWN ? 11 : 3,
	                                   .status = CF_ON,
	                                   .strength = att_type == CF_ROOK};
	st->s[1].p[1] = (struct cf_piece){.type = def_type, .sq = 27, .status = CF_ON,
	                                   .strength = def_strength};
	if (att_type == CF_BISHOP)
		st->s[0].p[1].spells[CF_HURT] = 1;
	if (humans) {
		st->s[0].race = CF_HUMANS;
		st->s[0].racial = 100;
		st->s[0].o_luck = CF_LUCK_IF_LOSING;
		st->s[1].race = CF_ORCS;
		st->s[1].racial = 0;
	}
	st->norder = 2;
	st->placer = 2;
	st->phase = CF_PLAY;
	st->active = 0;
	st->turn = 1;
	cf_rebuild_board(st);
	return st;
}

struct scase {
	const char *name;
	int att, def, def_strength, humans, cast;
	struct model m;
};

/* One battle from the position with the dice of `rng`: 1 the attacker
 * won, 0 a draw, -1 the attacker lost (a spell: 1 the target removed). */
static int
battle(const struct cf_state *tmpl, const struct scase *k, json_object *act, struct wr_rng *rng)
{
	struct cf_state st;
	struct wr_events ev = {0};
	struct wr_error err;
	int o = 2;
	memcpy(&st, tmpl, sizeof(st));
	if (cf_ruleset.apply(&st, 0, act, rng, &ev, &err) != 0) {
		CHECK(0, err.message);
		return 0;
	}
	wr_events_free(&ev);
	const struct cf_piece *a = &st.s[0].p[1], *d = &st.s[1].p[1];
	if (k->cast)
		o = d->status == CF_ON ? 0 : 1;
	else if (a->status == CF_ON && a->sq == 27)
		o = 1;
	else if (a->status == CF_ON && a->sq == tmpl->s[0].p[1].sq && d->status == CF_ON)
		o = 0;
	else if (a->status != CF_ON && d->status == CF_ON)
		o = -1;
	if (o == 2)
		CHECK(0, "an outcome the rules have");
	return o == 2 ? 0 : o;
}

int
main(void)
{
	static const struct scase cases[] = {
		{"VI. Knight (Weapon Mastery) moves onto a Rook without its Strength token",
		 CF_KNIGHT, CF_ROOK, 0, 0, 0, {.am = 4, .dm = 2}},
		{"VI. Knight moves onto a Rook with Strength (first defeat is a draw)",
		 CF_KNIGHT, CF_ROOK, 1, 0, 0, {.am = 4, .dm = 2, .rook_def_str = 1}},
		{"VI. Queen (Intimidation) moves onto a Knight", CF_QUEEN, CF_KNIGHT, 0, 0, 0,
		 {.am = 3, .dm = 2, .queen_att = 1}},
		{"VI. Pawn moves onto a Queen (no Intimidation for a Queen in place)", CF_PAWN,
		 CF_QUEEN, 0, 0, 0, {.am = 1, .dm = 3}},
		{"VI. Queen moves onto a Queen (the mover wins)", CF_QUEEN, CF_QUEEN, 0, 0, 0,
		 {.am = 3, .dm = 3, .two_queens = 1}},
		{"VI. Rook moves onto a King (the Rook's Strength saves it once)", CF_ROOK, CF_KING, 0,
		 0, 0, {.am = 2, .dm = 4, .rook_att_str = 1}},
		{"IX. Humans: a Pawn with Luck (if losing) moves onto a Knight", CF_PAWN, CF_KNIGHT, 0,
		 1, 0, {.am = 1, .dm = 2, .luck_att = 1}},
		{"VII. Hurt (Combat 4) on a Knight: a win removes it, else no effect", CF_BISHOP,
		 CF_KNIGHT, 0, 0, 1, {.am = 4, .dm = 2, .spell = 1}},
	};
	const char *res_name[3] = {"win", "draw", "loss"};
	uint64_t seed_state;
	struct wr_rng rng;

	wr_rng_seeded(&rng, &seed_state, 20261121);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const struct scase *k = &cases[c];
		long cnt[3], den, engine[3] = {0, 0, 0}, got[3] = {0, 0, 0};
		int agree = 1;
		struct cf_state *tmpl = position(k->att, k->def, k->def_strength, k->humans);
		json_object *act = json_tokener_parse(
		        k->cast ? "{\"type\":\"cast\",\"from\":\"d1\",\"spell\":\"hurt\",\"target\":\"d4\"}"
		        : k->att == CF_PAWN ? "{\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}"
		                            : "{\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}");
		exact(&k->m, cnt, &den);
		/* Every dice outcome through the engine, scripted. */
		for (long i = 0; i < den; i++) {
			unsigned faces[3] = {1 + i % 6, 1 + i / 6 % 6, 1 + i / 36};
			struct wr_script sc = {faces, k->m.luck_att ? 3 : 2, 0, 0};
			struct wr_rng script;
			int o;
			wr_rng_script(&script, &sc);
			o = battle(tmpl, k, act, &script);
			agree &= !sc.exhausted && o == model_outcome(&k->m, (int)faces[0], (int)faces[1],
			                                              (int)faces[2]);
			engine[1 - o]++;
		}
		/* A small seeded sample against the exact fractions. */
		for (int t = 0; t < SAMPLE; t++)
			got[1 - battle(tmpl, k, act, &rng)]++;
		printf("%s\n", k->name);
		{
			char what[256];
			snprintf(what, sizeof(what), "%s: the engine gives the model's outcome for each of "
			         "the %ld dice outcomes", k->name, den);
			CHECK(agree, what);
		}
		for (int i = 0; i < 3; i++) {
			double p = (double)cnt[i] / (double)den, f = (double)got[i] / SAMPLE;
			double se = sqrt(p * (1 - p) / SAMPLE);
			char what[256];
			printf("  %-4s exact %3ld/%ld = %.5f  engine %3ld/%ld  sampled %.5f  (%.1f SE)\n",
			       res_name[i], cnt[i], den, p, engine[i], den, f,
			       se > 0 ? fabs(f - p) / se : 0.0);
			snprintf(what, sizeof(what), "%s: P(%s) = %ld/%ld by enumeration", k->name,
			         res_name[i], cnt[i], den);
			CHECK(engine[i] == cnt[i], what);
			snprintf(what, sizeof(what), "%s: P(%s) = %ld/%ld, seeded sample within 5 SE",
			         k->name, res_name[i], cnt[i], den);
			if (cnt[i] == 0 || cnt[i] == den)
				CHECK(got[i] == (cnt[i] ? SAMPLE : 0), what);
			else
				CHECK(fabs(f - p) <= 5 * se, what);
		}
		json_object_put(act);
		free(tmpl);
	}
	/* The Knight onto a Rook without Strength, written out: the Knight
	 * wins when d6 + 4 > d6 + 2, 26 of 36; draws 4 of 36; loses 6 of 36. */
	{
		long cnt[3], den;
		exact(&cases[0].m, cnt, &den);
		CHECK(cnt[0] == 26 && cnt[1] == 4 && cnt[2] == 6 && den == 36,
		      "Knight onto Rook: 26/36, 4/36, 6/36");
		exact(&cases[1].m, cnt, &den);
		CHECK(cnt[0] == 0 && cnt[1] == 30 && cnt[2] == 6, "with Strength: 0, 30/36, 6/36");
	}
	return check_done("confrontation probabilities");
}
