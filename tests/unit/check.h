/* A minimal test harness: each CHECK names what it checks; the program
 * ends with "N passed, N failed" and exits non-zero on any failure. */
#ifndef WP_CHECK_H
#define WP_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_passed, check_failed;

#define CHECK(cond, what)                                                       \
	do {                                                                    \
		if (cond) {                                                     \
			check_passed++;                                         \
		} else {                                                        \
			check_failed++;                                         \
			fprintf(stderr, "FAIL %s:%d: %s (%s)\n", __FILE__, __LINE__, \
			        what, #cond);                                   \
		}                                                               \
	} while (0)

#define CHECK_STR(got, want, what)                                              \
	do {                                                                    \
		const char *g_ = (got), *w_ = (want);                           \
		if (g_ && w_ && strcmp(g_, w_) == 0) {                          \
			check_passed++;                                         \
		} else {                                                        \
			check_failed++;                                         \
			fprintf(stderr, "FAIL %s:%d: %s: got \"%s\", want \"%s\"\n", \
			        __FILE__, __LINE__, what, g_ ? g_ : "(null)",   \
			        w_ ? w_ : "(null)");                            \
		}                                                               \
	} while (0)

static int
check_done(const char *suite)
{
	printf("%s: %d passed, %d failed\n", suite, check_passed, check_failed);
	return check_failed ? 1 : 0;
}

#endif
