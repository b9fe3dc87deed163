/* The computer player's strength (issue 27, bot/README.md): per ruleset,
 * N seeded matches of a level against uniform random play, the bot's seat
 * alternating (seat 0 in even matches, seat 1 in odd); a match that hits
 * the ruleset's post cap counts as a draw. Reports wins, draws and losses,
 * the win rate's 95% Wilson interval, and the CPU time of a decision
 * (this thread's, median and 99th percentile). Figures are reported, never
 * asserted: this is a bench, not a test.
 *
 * Usage: botbench [-n N] [-l LEVEL]... [-r RULESET]... [-i ITERATIONS]
 *                 [-d PLAYOUT_DEPTH] [-s SEED] [-v 1]
 *   defaults: N 20, levels 4 and 1, every product ruleset, the level's
 *   iterations, the engine's playout cap. -v 1 prints every post and its
 *   events to stderr. The bot's seat is the match's index in the run
 *   (seed - SEED) mod 2: to replay a lost match, -n 1 -s ITS_SEED -v 1 if
 *   the bot had seat 0, -n 2 -s ITS_SEED-1 -v 1 (the second) if seat 1. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "botview.h"
#include "engine.h"

/* Posts after which a match is a draw: several times a real match's length
 * against random play (measured: bot/README.md). */
static int
post_cap(const char *id)
{
	if (!strcmp(id, "officers-chess"))
		return 3000;
	if (!strcmp(id, "chesswar"))
		return 2000;
	return 1500;
}

/* -v 1: every post and its events to stderr. */
static int verbose;

static double
cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

struct tally {
	int w, d, l, refused, failed;
	double *cpu;
	size_t ncpu, cap;
};

static void
add_cpu(struct tally *t, double s)
{
	if (t->ncpu == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1024;
		double *p = realloc(t->cpu, cap * sizeof(*p));
		if (!p)
			return;
		t->cpu = p;
		t->cap = cap;
	}
	t->cpu[t->ncpu++] = s;
}

/* One match; returns 1 win, 0 draw, -1 loss for the bot. */
static int
match(const struct wr_ruleset *rs, int level, long iters, int depth, uint64_t seed, int bot,
      struct tally *t)
{
	struct wr_rng rng, pol;
	uint64_t s1, s2;
	struct wr_error err;
	struct wr_result res;
	void *st = NULL;
	int cap = post_cap(rs->id);

	wr_rng_seeded(&rng, &s1, seed * 2 + 1);
	wr_rng_seeded(&pol, &s2, seed * 2 + 2);
	if (rs->create(NULL, rs->min_seats, &rng, &st, &err) != 0) {
		t->failed++;
		return 0;
	}
	for (int n = 0; n < cap; n++) {
		int seat = wr_bot_awaited(rs, st);
		json_object *a = NULL;
		rs->result(st, &res);
		if (res.over || seat < 0)
			break;
		if (seat == bot) {
			json_object *v = rs->view(st, seat);
			struct wb_params p = {.level = level, .seed = seed * 7919 + (uint64_t)n, .iterations = iters};
			double c0 = cpu_now();
			a = wb_decide_depth(rs, v, seat, &p, depth, &err);
			add_cpu(t, cpu_now() - c0);
			json_object_put(v);
			if (!a) {
				fprintf(stderr, "post %d seat %d (bot): no decision: %s %s\n", n, seat, err.code,
				        err.message);
				t->failed++;
				break;
			}
		} else {
			json_object *acts = rs->actions(st, seat);
			size_t k = json_object_array_length(acts);
			if (k)
				a = json_object_get(json_object_array_get_idx(acts, pol.next(&pol, (uint32_t)k)));
			json_object_put(acts);
			if (!a)
				break;
		}
		struct wr_events ev = {0};
		if (verbose)
			fprintf(stderr, "post %d seat %d%s: %s\n", n, seat, seat == bot ? " (bot)" : "",
			        json_object_to_json_string_ext(a, JSON_C_TO_STRING_PLAIN));
		int rc = rs->apply(st, seat, a, &rng, &ev, &err);
		if (verbose && rc == 0)
			for (size_t e = 0; e < ev.len; e++)
				fprintf(stderr, "    %s\n", json_object_to_json_string_ext(ev.items[e].body,
				                                                       JSON_C_TO_STRING_PLAIN));
		wr_events_free(&ev);
		json_object_put(a);
		if (rc != 0) {
			t->refused += seat == bot;
			break;
		}
	}
	rs->result(st, &res);
	rs->free(st);
	if (!res.over || !res.winners)
		return 0;
	return (res.winners >> bot) & 1u ? 1 : -1;
}

/* The 95% Wilson score interval of k successes in n. */
static void
wilson(int k, int n, double *lo, double *hi)
{
	const double z = 1.959964;
	if (n == 0) {
		*lo = 0;
		*hi = 1;
		return;
	}
	double p = (double)k / n, d = 1 + z * z / n, c = p + z * z / (2.0 * n);
	double r = z * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n));
	*lo = (c - r) / d;
	*hi = (c + r) / d;
}

int
main(int argc, char **argv)
{
	int n = 20, levels[WB_LEVELS], nlevels = 0, depth = WB_PLAYOUT_DEPTH;
	const char *only[16];
	int nonly = 0;
	long iters = 0;
	uint64_t seed0 = 1;

	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "-n"))
			n = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "-l") && nlevels < WB_LEVELS)
			levels[nlevels++] = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "-r") && nonly < 16)
			only[nonly++] = argv[i + 1];
		else if (!strcmp(argv[i], "-i"))
			iters = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "-d"))
			depth = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "-s"))
			seed0 = strtoull(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "-v"))
			verbose = atoi(argv[i + 1]);
	}
	if (!nlevels) {
		levels[nlevels++] = WB_LEVELS;
		levels[nlevels++] = 1;
	}
	printf("| ruleset | level | iterations | matches | wins | draws | losses | win rate (95%% Wilson) "
	       "| CPU/decision median | p99 | decisions |\n");
	printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
	fflush(stdout);
	for (size_t r = 0; r < wr_ruleset_count(); r++) {
		const struct wr_ruleset *rs = wr_ruleset_at(r);
		int want = !nonly;
		for (int k = 0; k < nonly; k++)
			want |= !strcmp(only[k], rs->id);
		if (!want)
			continue;
		for (int li = 0; li < nlevels; li++) {
			struct tally t = {0};
			double lo, hi, med = 0, p99 = 0;
			for (int m = 0; m < n; m++) {
				int o = match(rs, levels[li], iters, depth, seed0 + (uint64_t)m, m % 2, &t);
				/* progress, for runs stopped early */
				fprintf(stderr, "%s level %d match %d (bot seat %d): %s, %zu decisions so far\n",
				        rs->id, levels[li], m + 1, m % 2, o > 0 ? "win" : o < 0 ? "loss" : "draw",
				        t.ncpu);
				t.w += o > 0;
				t.d += o == 0;
				t.l += o < 0;
			}
			wilson(t.w, n, &lo, &hi);
			if (t.ncpu) {
				qsort(t.cpu, t.ncpu, sizeof(double), cmp_d);
				med = t.cpu[t.ncpu / 2];
				p99 = t.cpu[(size_t)((double)(t.ncpu - 1) * 0.99)];
			}
			printf("| %s | %d | %ld | %d | %d | %d | %d | %.0f%% (%.0f-%.0f%%) | %.3f s | %.3f s | %zu |",
			       rs->id, levels[li], iters ? iters : wb_level_iterations(levels[li]), n, t.w, t.d,
			       t.l, 100.0 * t.w / (n ? n : 1), 100 * lo, 100 * hi, med, p99, t.ncpu);
			if (t.refused || t.failed)
				printf(" refused %d, failed %d", t.refused, t.failed);
			printf("\n");
			fflush(stdout);
			free(t.cpu);
		}
	}
	return 0;
}
