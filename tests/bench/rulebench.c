/* Per ruleset: the time to list a seat's legal actions in a mid-game
 * position and to apply one post (issue "Performance": aim < 50 us to
 * list), the list both as the json-c tree the computer player reads
 * (list_us) and as the text GET /actions sends (list_text_us: without the
 * tree where the ruleset has actions_out, else the tree written). Every product ruleset from the registry, so a new one is measured
 * without a line here. A seeded random playout reaches the position: at
 * most POSTS posts or half of a whole playout, whichever comes first.
 * Then that position's snapshot as a turn keeps it, text: the ruleset's
 * save as a json-c tree (made and freed), json-c's writing of the tree,
 * and wr_save_text (issue 32: without the tree where the ruleset has
 * save_out), which must agree byte for byte; the first two together are
 * the baseline of its ratio.
 * Usage: rulebench [POSTS] [REPEATS] [RULESET]; prints one line per ruleset
 * (only RULESET's, by its id, when given, as for a profile of one):
 *   <id> posts <n> actions <count> list_us <mean> apply_us <mean>
 *     snapshot_bytes <n> save_us <mean> jsonc_us <mean> text_us <mean>
 *     list_text_us <mean>
 * Figures are reported, never asserted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rules.h"

static double
now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int
awaited(const struct wr_ruleset *rs, const void *st)
{
	unsigned m = rs->to_act(st);
	for (int s = 0; s < WR_MAX_SEATS; s++)
		if (m & (1u << s))
			return s;
	return -1;
}

/* Plays up to `posts` seeded random posts; returns how many were played. */
static int
advance(const struct wr_ruleset *rs, void *st, int posts, struct wr_rng *rng)
{
	struct wr_result res;
	int n = 0;
	for (; n < posts; n++) {
		struct wr_events ev = {0};
		struct wr_error err;
		int seat = awaited(rs, st);
		rs->result(st, &res);
		if (seat < 0 || res.over)
			break;
		json_object *acts = rs->actions(st, seat);
		size_t k = json_object_array_length(acts);
		if (!k || rs->apply(st, seat, json_object_array_get_idx(acts, rng->next(rng, (uint32_t)k)),
		                    rng, &ev, &err) != 0) {
			json_object_put(acts);
			wr_events_free(&ev);
			break;
		}
		json_object_put(acts);
		wr_events_free(&ev);
	}
	return n;
}

int
main(int argc, char **argv)
{
	int posts = argc > 1 ? atoi(argv[1]) : 60;
	int reps = argc > 2 ? atoi(argv[2]) : 2000;
	const char *only = argc > 3 ? argv[3] : NULL;

	for (size_t i = 0; i < wr_ruleset_count(); i++) {
		const struct wr_ruleset *rs = wr_ruleset_at(i);
		if (only && strcmp(only, rs->id) != 0)
			continue;
		struct wr_rng rng;
		struct wr_error err;
		uint64_t state;
		void *st = NULL, *probe;
		int whole, reached, seat;
		double t0, list_us, apply_us;
		size_t nacts;

		/* How long is a whole playout from this seed? Then stop halfway. */
		wr_rng_seeded(&rng, &state, 42);
		if (rs->create(NULL, rs->min_seats, &rng, &st, &err) != 0) {
			printf("%s create failed: %s\n", rs->id, err.message);
			continue;
		}
		whole = advance(rs, st, 100000, &rng);
		rs->free(st);
		wr_rng_seeded(&rng, &state, 42);
		rs->create(NULL, rs->min_seats, &rng, &st, &err);
		reached = advance(rs, st, whole / 2 < posts ? whole / 2 : posts, &rng);
		seat = awaited(rs, st);
		if (seat < 0) {
			printf("%s no seat awaited after %d posts\n", rs->id, reached);
			rs->free(st);
			continue;
		}
		json_object *acts = rs->actions(st, seat);
		nacts = json_object_array_length(acts);
		t0 = now_us();
		for (int r = 0; r < reps; r++)
			json_object_put(rs->actions(st, seat));
		list_us = (now_us() - t0) / reps;
		t0 = now_us();
		for (int r = 0; r < reps; r++) {
			struct wr_out w = {.text = 1, .noslash = 1};
			wr_actions_out(rs, st, seat, &w, NULL);
			free(wr_out_finish(&w));
		}
		double list_text_us = (now_us() - t0) / reps;
		/* Apply one post, each time on a fresh copy (the copy is not timed). */
		apply_us = 0;
		for (int r = 0; r < reps / 10 + 1; r++) {
			struct wr_events ev = {0};
			probe = wr_clone(rs, st);
			json_object *a = json_object_array_get_idx(acts, (size_t)r % nacts);
			t0 = now_us();
			rs->apply(probe, seat, a, &rng, &ev, &err);
			apply_us += now_us() - t0;
			wr_events_free(&ev);
			rs->free(probe);
		}
		apply_us /= reps / 10 + 1;
		t0 = now_us();
		for (int r = 0; r < reps; r++)
			json_object_put(rs->save(st));
		double save_us = (now_us() - t0) / reps;
		json_object *snap = rs->save(st);
		size_t bytes = strlen(json_object_to_json_string_ext(snap, JSON_C_TO_STRING_PLAIN));
		t0 = now_us();
		for (int r = 0; r < reps; r++)
			(void)json_object_to_json_string_ext(snap, JSON_C_TO_STRING_PLAIN);
		double jsonc_us = (now_us() - t0) / reps;
		t0 = now_us();
		for (int r = 0; r < reps; r++)
			free(wr_save_text(rs, st));
		double text_us = (now_us() - t0) / reps;
		char *ours = wr_save_text(rs, st);
		if (!ours || strcmp(ours, json_object_to_json_string_ext(snap, JSON_C_TO_STRING_PLAIN)) != 0) {
			printf("%s snapshot text differs from json-c's\n", rs->id);
			return 1;
		}
		free(ours);
		json_object_put(snap);
		printf("%s posts %d actions %zu list_us %.1f apply_us %.1f snapshot_bytes %zu save_us %.2f"
		       " jsonc_us %.2f text_us %.2f list_text_us %.1f\n", rs->id, reached, nacts, list_us,
		       apply_us, bytes, save_us, jsonc_us, text_us, list_text_us);
		json_object_put(acts);
		rs->free(st);
	}
	return 0;
}
