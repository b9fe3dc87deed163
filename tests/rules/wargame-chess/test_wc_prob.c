/* Wargame Chess exact probabilities (000_fd193abe0e5c92ac.txt, Advantage and
 * Disadvantage; Piece types, dice): distributions of each roll computed by
 * enumeration as whole-number counts over s^2 outcomes; then every dice
 * outcome of an Attack played through the real rules with scripted dice
 * (the engine's slaying count must equal the exact count), and 20,000
 * seeded Attacks per pairing within 5 standard errors: means and the
 * attacker's chance to slay. */
#include <math.h>

#include "wc_test.h"

/* Distribution of a roll: count[t] of `den` equally likely outcomes. */
struct dist {
	long count[64];
	long den;
};

static struct dist
exact(int sides, int dice, int mode)
{
	struct dist d;
	memset(&d, 0, sizeof(d));
	if (dice == 1) {
		for (int a = 1; a <= sides; a++)
			d.count[a]++;
		d.den = sides;
		return d;
	}
	for (int a = 1; a <= sides; a++)
		for (int b = 1; b <= sides; b++) {
			int t = mode > 0 ? 2 * (a > b ? a : b) : mode < 0 ? 2 * (a < b ? a : b) : a + b;
			d.count[t]++;
		}
	d.den = (long)sides * sides;
	return d;
}

static double
mean(const struct dist *d, double *var)
{
	double m = 0, m2 = 0;
	for (int t = 0; t < 64; t++) {
		m += (double)t * (double)d->count[t] / (double)d->den;
		m2 += (double)t * t * (double)d->count[t] / (double)d->den;
	}
	*var = m2 - m * m;
	return m;
}

/* P(attack > defence) exactly, as numerator over a->den * d->den. */
static long
wins(const struct dist *a, const struct dist *d)
{
	long w = 0;
	for (int x = 0; x < 64; x++)
		for (int y = 0; y < x; y++)
			w += a->count[x] * d->count[y];
	return w;
}

struct pairing {
	const char *what, *pos, *activate, *attack;
	int asides, adice, amode, dsides, ddice, dmode;
	int samples;
};

static const struct pairing pairs[] = {
	{"Rook 2D6 at Advantage (token) vs Pawn 2D4", "0Rd4:A1 1Pd5:e 0Kh1 1Kh8 1Pa8:e",
	 "{\"type\":\"activate\",\"square\":\"d4\"}",
	 "{\"type\":\"attack\",\"to\":\"d5\",\"advantage\":true}", 6, 2, 1, 4, 2, 0, 20000},
	{"Pawn 2D4 vs Pawn 2D4", "0Pd4:e 1Pe5:e 0Kh1 1Kh8 1Pa8:e",
	 "{\"type\":\"activate\",\"square\":\"d4\"}", "{\"type\":\"attack\",\"to\":\"e5\"}", 4, 2, 0,
	 4, 2, 0, 20000},
	{"Knight 2D6 with Mounted Advantage vs Queen 2D8", "0Nc3 1Qd5 1Pe5:e 0Kh1 1Kh8",
	 "{\"type\":\"activate\",\"square\":\"c3\"}", "{\"type\":\"attack\",\"to\":\"d5\"}", 6, 2, 1,
	 8, 2, 0, 20000},
	{"Queen 2D8 vs Joker 1d20", "0Qd4 1Je5 0Kh1 1Kh8 1Pa8:e",
	 "{\"type\":\"activate\",\"square\":\"d4\"}", "{\"type\":\"attack\",\"to\":\"e5\"}", 8, 2, 0,
	 20, 1, 0, 20000},
	{"King 2D10 at Disadvantage (token) vs King 2D10", "0Kd4:D1 1Ke5 0Pa1:e 1Pa8:e",
	 "{\"type\":\"activate\",\"square\":\"d4\"}", "{\"type\":\"attack\",\"to\":\"e5\"}", 10, 2, -1,
	 10, 2, 0, 20000},
};

/* Every outcome of the attacker's and defender's dice, scripted, through
 * apply(): the number of slaying outcomes is exact. */
static long
engine_wins(const struct pairing *pr, long *outcomes)
{
	static struct wc_state base, st;
	json_object *act = json_tokener_parse(pr->activate), *atk = json_tokener_parse(pr->attack);
	int n = pr->adice + pr->ddice, sides[4];
	long total = 1, w = 0;
	struct wr_error err;

	for (int i = 0; i < n; i++) {
		sides[i] = i < pr->adice ? pr->asides : pr->dsides;
		total *= sides[i];
	}
	wc_pos(&base, pr->pos);
	for (long k = 0; k < total; k++) {
		unsigned faces[4];
		long r = k;
		struct wr_script sc;
		struct wr_rng rng;
		for (int i = n - 1; i >= 0; i--) {
			faces[i] = (unsigned)(r % sides[i]) + 1;
			r /= sides[i];
		}
		sc = (struct wr_script){faces, (size_t)n, 0, 0};
		wr_rng_script(&rng, &sc);
		st = base;
		if (wc_ruleset.apply(&st, 0, act, &rng, &test_ev, &err) != 0 ||
		    wc_ruleset.apply(&st, 0, atk, &rng, &test_ev, &err) != 0 || sc.pos != (size_t)n) {
			CHECK(0, "an enumerated attack applies and uses every die");
			break;
		}
		w += ev_has("\"success\":true");
		wr_events_free(&test_ev);
	}
	json_object_put(act);
	json_object_put(atk);
	*outcomes = total;
	return w;
}

/* The samples of a pairing: its own count, times WR_STAT_SCALE when set
 * (the sanitizer stage: 0.1, as its builds run these dice ten times
 * slower), never under 2,000. The 5 SE bounds follow the count; the
 * enumeration of every outcome is never scaled. */
static int
sample_count(const struct pairing *pr)
{
	const char *e = getenv("WR_STAT_SCALE");
	double scale = e && *e ? atof(e) : 1.0;
	int n = scale > 0 && scale < 1 ? (int)(pr->samples * scale) : pr->samples;

	return n < 2000 ? 2000 : n;
}

static void
sample(const struct pairing *pr, struct wr_rng *rng)
{
	static struct wc_state base, st;
	struct dist a = exact(pr->asides, pr->adice, pr->amode),
	            d = exact(pr->dsides, pr->ddice, pr->dmode);
	json_object *act = json_tokener_parse(pr->activate), *atk = json_tokener_parse(pr->attack);
	double va, ma = mean(&a, &va), sum = 0;
	long w = wins(&a, &d), hits = 0;
	double p = (double)w / ((double)a.den * (double)d.den);
	struct wr_error err;
	char what[256];
	int samples = sample_count(pr);

	{
		long outcomes, ew = engine_wins(pr, &outcomes);
		snprintf(what, sizeof(what), "%s: every dice outcome through the rules, exactly %ld/%ld",
		         pr->what, w, a.den * d.den);
		CHECK(outcomes == a.den * d.den && ew == w, what);
	}
	wc_pos(&base, pr->pos);
	for (int i = 0; i < samples; i++) {
		int total = -1, success = -1;
		st = base;
		if (wc_ruleset.apply(&st, 0, act, rng, &test_ev, &err) != 0 ||
		    wc_ruleset.apply(&st, 0, atk, rng, &test_ev, &err) != 0) {
			CHECK(0, "sample attack applies");
			break;
		}
		for (size_t k = 0; k < test_ev.len; k++) {
			json_object *b = test_ev.items[k].body, *v;
			const char *type = json_object_get_string(json_object_object_get(b, "type"));
			if (strcmp(type, "roll") == 0 &&
			    strcmp(json_object_get_string(json_object_object_get(b, "role")), "attack") == 0 &&
			    json_object_object_get_ex(b, "total", &v))
				total = json_object_get_int(v);
			if (strcmp(type, "attack_result") == 0)
				success = json_object_get_boolean(json_object_object_get(b, "success"));
		}
		wr_events_free(&test_ev);
		sum += total;
		hits += success == 1;
	}
	double m = sum / samples, se_m = sqrt(va / samples);
	double ph = (double)hits / samples, se_p = sqrt(p * (1 - p) / samples);
	printf("%-50s %d samples: mean %.4f (exact %.4f)  P(slay) %.4f (exact %ld/%ld = %.4f)\n",
	       pr->what, samples, m, ma, ph, w, a.den * d.den, p);
	snprintf(what, sizeof(what), "%s: sampled mean within 5 SE of the exact mean", pr->what);
	CHECK(fabs(m - ma) < 5 * se_m, what);
	snprintf(what, sizeof(what), "%s: sampled P(slay) within 5 SE of the exact value", pr->what);
	CHECK(fabs(ph - p) < 5 * se_p, what);
	json_object_put(act);
	json_object_put(atk);
}

int
main(void)
{
	struct wr_rng rng;
	uint64_t s;
	double v;
	struct dist d;

	/* Exact values stated by the brief and the text's rules. */
	d = exact(6, 2, 1);
	{
		long num = 0;
		for (int t = 0; t < 64; t++)
			num += t * d.count[t];
		CHECK(num == 2 * 161 && d.den == 36, "2D6 at Advantage: mean exactly 2*161/36");
	}
	CHECK(fabs(mean(&d, &v) - 322.0 / 36) < 1e-12, "2D6 at Advantage: mean ~ 8.94");
	d = exact(6, 2, -1);
	{
		long num = 0;
		for (int t = 0; t < 64; t++)
			num += t * d.count[t];
		CHECK(num == 2 * 91, "2D6 at Disadvantage: mean exactly 2*91/36");
	}
	d = exact(6, 2, 0);
	CHECK(fabs(mean(&d, &v) - 7.0) < 1e-12 && fabs(v - 35.0 / 6) < 1e-12, "2D6: mean 7, var 35/6");
	d = exact(4, 2, 1);
	CHECK(d.count[2] == 1 && d.count[8] == 7 && d.count[3] == 0,
	      "2D4 at Advantage: only even totals, 8 in 7 of 16");
	d = exact(20, 1, 0);
	CHECK(fabs(mean(&d, &v) - 10.5) < 1e-12, "1d20: mean 10.5");

	wr_rng_seeded(&rng, &s, 20261121);
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		sample(&pairs[i], &rng);
	return check_done("wargame-chess probabilities");
}
