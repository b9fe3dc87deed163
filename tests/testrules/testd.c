/* warpostd-test: warpostd linked with the test registry (registry.c built
 * with WR_TEST_RULESETS), so it also offers "skirmish-test". Only the
 * tests run it; the product binary never does.
 *
 * It also has a test clock: when WP_TEST_CLOCK_FILE names a file, "now"
 * (match/clock.h) is the number of seconds since the epoch written in
 * it, read at every use, so the tests move time by writing the file and
 * never by sleeping.
 *
 * WP_TEST_TOURNAMENT_PAIR_FILE: the transaction that starts a tournament
 * round, its matches written, writes "pairing" to that file and waits
 * there (for a kill -9, test_tournaments.py) until the file is removed. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "clock.h"
#include "fronts.h"

static int64_t
test_now(void)
{
	const char *path = getenv("WP_TEST_CLOCK_FILE");
	long long t;
	FILE *f;

	if (path && (f = fopen(path, "r")) != NULL) {
		int ok = fscanf(f, "%lld", &t) == 1;
		fclose(f);
		if (ok)
			return (int64_t)t;
	}
	return (int64_t)time(NULL);
}

extern void (*wp_tournament_pair_hook)(void);

static void
pairing_held(void)
{
	const char *path = getenv("WP_TEST_TOURNAMENT_PAIR_FILE");
	FILE *f = path ? fopen(path, "w") : NULL;
	struct timespec ms = {0, 50 * 1000 * 1000};

	if (!f)
		return;
	fputs("pairing\n", f);
	fclose(f);
	while ((f = fopen(path, "r")) != NULL) {
		fclose(f);
		nanosleep(&ms, NULL);
	}
}

int
main(int argc, char **argv)
{
	wp_clock_source(test_now);
	if (getenv("WP_TEST_TOURNAMENT_PAIR_FILE"))
		wp_tournament_pair_hook = pairing_held;
	return wp_main(argc, argv);
}
