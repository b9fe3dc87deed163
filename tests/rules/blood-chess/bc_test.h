/* Shared helpers of the Blood Chess tests. */
#ifndef BC_TEST_H
#define BC_TEST_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../unit/check.h"
#include "bc_rules.h"
#include "blood_chess.h"

static inline char *
bc_str(json_object *take)
{
	char *s = strdup(json_object_to_json_string_ext(take, JSON_C_TO_STRING_PLAIN));
	json_object_put(take);
	return s;
}

static inline char *
bc_save_str(const void *st)
{
	return bc_str(bc_ruleset.save(st));
}

static inline void *
bc_clone(const void *st)
{
	json_object *snap = bc_ruleset.save(st);
	void *copy = NULL;
	struct wr_error err;
	if (bc_ruleset.load(snap, &copy, &err) != 0) {
		fprintf(stderr, "load: %s\n", err.message);
		copy = NULL;
	}
	json_object_put(snap);
	return copy;
}

static inline json_object *
bc_j(const char *s)
{
	return json_tokener_parse(s);
}

/* Applies a JSON action; returns 0 or -1 with err. */
static inline int
bc_do(void *st, int seat, const char *json, struct wr_rng *rng, struct wr_events *ev,
      struct wr_error *err)
{
	json_object *a = bc_j(json);
	struct wr_events local = {0};
	int rc = bc_ruleset.apply(st, seat, a, rng, ev ? ev : &local, err);
	json_object_put(a);
	wr_events_free(&local);
	return rc;
}

/* A match in play with templates picked and Mirrors on the given squares
 * (NULL: the a/c/b-file pieces). */
static inline void *
bc_match(const char *opts, const char *const *m0, const char *const *m1, struct wr_rng *rng,
         const char *const *sheets)
{
	static const char *const def0[] = {"a1", "c1", "b1"}, *const def1[] = {"a8", "c8", "b8"};
	static const char *const roles[] = {"king", "queen", "rook", "bishop", "knight"};
	static const char *const defsheets[] = {"brick", "blaster", "martial-artist", "slasher",
	                                        "speedster"};
	json_object *o = bc_j(opts ? opts : "{}");
	void *st = NULL;
	struct wr_error err;
	char buf[160];
	int seats = strstr(opts ? opts : "", "\"referee\":true") ? 3 : 2;

	if (bc_ruleset.create(o, seats, rng, &st, &err) != 0) {
		fprintf(stderr, "create: %s\n", err.message);
		exit(2);
	}
	json_object_put(o);
	for (int s = 0; s < 2; s++) {
		const char *const *m = s == 0 ? (m0 ? m0 : def0) : (m1 ? m1 : def1);
		for (int r = 0; r < 5; r++) {
			snprintf(buf, sizeof(buf), "{\"type\":\"sheet\",\"role\":\"%s\",\"template\":\"%s\"}",
			         roles[r], sheets ? sheets[s * 5 + r] : defsheets[r]);
			if (bc_do(st, s, buf, rng, NULL, &err) != 0) {
				fprintf(stderr, "sheet: %s\n", err.message);
				exit(2);
			}
		}
		if (strstr(opts ? opts : "", "random"))
			continue;
		for (int k = 0; k < 3; k++) {
			snprintf(buf, sizeof(buf), "{\"type\":\"mirror\",\"square\":\"%s\"}", m[k]);
			if (bc_do(st, s, buf, rng, NULL, &err) != 0) {
				fprintf(stderr, "mirror: %s\n", err.message);
				exit(2);
			}
		}
	}
	return st;
}

#endif
