/* What the service needs of every product ruleset, whatever the phase: a
 * match ended by a resignation at any point (in set-up too) saves and loads
 * back to the same snapshot, since the service stores it and verify()
 * reloads it; an agreed end (the service's draw) saves and loads too; a
 * seat not awaited is offered nothing; the undo barrier (issue 14) finds
 * nothing revealed where nothing changed. Every ruleset of the registry, every
 * seat count it allows, seeded random play of 0..12 posts first; and long
 * random matches saved and loaded every 25 posts. */
#include <stdlib.h>

#include "../unit/check.h"
#include "rules.h"

/* Matches of each ruleset played to their end (random play runs long:
 * the sanitizer build, where each ruleset's own play test loads states
 * already, plays none; clang names its sanitizers by __has_feature). */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define WR_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define WR_SANITIZED 1
#endif
#ifdef WR_SANITIZED
#define ENDED_MATCHES 0
#else
#define ENDED_MATCHES 10
#endif

static int
awaited(const struct wr_ruleset *rs, const void *st)
{
	unsigned m = rs->to_act(st);
	for (int s = 0; s < WR_MAX_SEATS; s++)
		if (m & (1u << s))
			return s;
	return -1;
}

/* The snapshot's text made without the tree (wr_save_text, issue 32) is
 * json-c's text of the tree, byte for byte: the service stores the one
 * and verify() compares replays by it. */
static int text_differs;

static void
same_text(const struct wr_ruleset *rs, const void *st, json_object *tree)
{
	char *text = wr_save_text(rs, st);
	const char *want = json_object_to_json_string_ext(tree, JSON_C_TO_STRING_PLAIN);

	if (!text || strcmp(text, want) != 0) {
		if (!text_differs++)
			fprintf(stderr, "%s: text\n  %s\nagainst json-c's\n  %s\n", rs->id,
			        text ? text : "(null)", want);
	}
	free(text);
}

static int
roundtrips(const struct wr_ruleset *rs, const void *st)
{
	json_object *a = rs->save(st), *b = NULL;
	void *copy = NULL;
	struct wr_error err;
	int same = 0;
	same_text(rs, st, a);
	if (rs->load(a, &copy, &err) == 0) {
		b = rs->save(copy);
		same = json_object_equal(a, b);
		rs->free(copy);
	} else {
		fprintf(stderr, "%s: load refused: %s %s\n", rs->id, err.code, err.message);
	}
	json_object_put(a);
	json_object_put(b);
	return same;
}

/* The legal actions' text made without the tree (wr_actions_out, issue
 * 32: GET /actions sends it) is json-c's text of rs->actions' tree, byte
 * for byte, at every post played here. */
static int actions_differ;
static long actions_compared;

static void
same_actions(const struct wr_ruleset *rs, const void *st, int seat, json_object *tree)
{
	struct wr_out w = {.text = 1};
	wr_actions_out(rs, st, seat, &w, NULL);
	char *text = wr_out_finish(&w);
	const char *want = json_object_to_json_string_ext(tree, JSON_C_TO_STRING_PLAIN);

	actions_compared++;
	if (!text || strcmp(text, want) != 0) {
		if (!actions_differ++)
			fprintf(stderr, "%s: actions as text\n  %s\nagainst json-c's\n  %s\n", rs->id,
			        text ? text : "(null)", want);
	}
	free(text);
}

static void
play(const struct wr_ruleset *rs, void *st, int posts, struct wr_rng *rng)
{
	for (int j = 0; j < posts; j++) {
		struct wr_events ev = {0};
		struct wr_error err;
		int seat = awaited(rs, st);
		if (seat < 0)
			return;
		json_object *acts = rs->actions(st, seat);
		size_t n = json_object_array_length(acts);
		same_actions(rs, st, seat, acts);
		if (n)
			rs->apply(st, seat, json_object_array_get_idx(acts, rng->next(rng, (uint32_t)n)),
			          rng, &ev, &err);
		json_object_put(acts);
		wr_events_free(&ev);
		if (!n)
			return;
	}
}

int
main(void)
{
	for (size_t i = 0; i < wr_ruleset_count(); i++) {
		const struct wr_ruleset *rs = wr_ruleset_at(i);
		int resign_bad = 0, agreed_bad = 0, offered_bad = 0, undo_bad = 0, runs = 0;
		text_differs = 0;
		actions_differ = 0;
		actions_compared = 0;
		for (int seats = rs->min_seats; seats <= rs->max_seats; seats++)
			for (int seed = 1; seed <= 40; seed++)
				for (int posts = 0; posts <= 12; posts += 3) {
					struct wr_rng rng;
					struct wr_error err;
					struct wr_events ev = {0};
					uint64_t s;
					void *st = NULL, *st2;
					wr_rng_seeded(&rng, &s, (uint64_t)seed * 131 + (uint64_t)seats);
					if (rs->create(NULL, seats, &rng, &st, &err) != 0)
						break;   /* a seat count that needs an option */
					runs++;
					play(rs, st, posts, &rng);
					int seat = awaited(rs, st);
					for (int other = 0; other < seats; other++) {
						json_object *acts = rs->actions(st, other);
						if (seat >= 0 && !(rs->to_act(st) & (1u << other)) &&
						    json_object_array_length(acts))
							offered_bad++;
						json_object_put(acts);
					}
					st2 = wr_clone(rs, st);
					/* Issue 14: a post that changed nothing revealed nothing. */
					if (st2 && wr_undo_reveals(rs, st, st2, seat < 0 ? 0 : seat, &ev))
						undo_bad++;
					rs->resign(st, seats - 1, &rng, &ev);
					wr_events_free(&ev);
					resign_bad += !roundtrips(rs, st);
					if (st2 && rs->agreed_end) {
						rs->agreed_end(st2, &ev);
						wr_events_free(&ev);
						agreed_bad += !roundtrips(rs, st2);
					}
					if (st2)
						rs->free(st2);
					rs->free(st);
				}
		char what[160];
		snprintf(what, sizeof(what), "%s: a match ended by a resignation in any phase saves and loads back (%d matches)", rs->id, runs);
		CHECK(runs > 0 && resign_bad == 0, what);
		snprintf(what, sizeof(what), "%s: an agreed end saves and loads back", rs->id);
		CHECK(agreed_bad == 0, what);
		snprintf(what, sizeof(what), "%s: a seat not awaited is offered no action", rs->id);
		CHECK(offered_bad == 0, what);
		snprintf(what, sizeof(what), "%s: the undo barrier finds nothing where nothing changed", rs->id);
		CHECK(undo_bad == 0, what);

		/* A long match (random play runs far longer than a real one, and
		 * no ruleset has a post limit by default) saves and loads back
		 * at every point: a counter that outgrows what load() accepts
		 * leaves a match that can no longer be played (Officers Chess
		 * refused round 101, RULINGS.md O14 sets no round limit). */
		int long_bad = 0, longest = 0;
		for (int seed = 1; seed <= 3; seed++) {
			struct wr_rng rng;
			struct wr_error err;
			uint64_t s;
			void *st = NULL;
			int posts = 0;
			wr_rng_seeded(&rng, &s, (uint64_t)seed * 7919);
			if (rs->create(NULL, rs->min_seats, &rng, &st, &err) != 0)
				continue;
			while (posts < 6000 && awaited(rs, st) >= 0) {
				play(rs, st, 25, &rng);
				posts += 25;
				long_bad += !roundtrips(rs, st);
			}
			longest = posts > longest ? posts : longest;
			rs->free(st);
		}
		snprintf(what, sizeof(what), "%s: a long match saves and loads back every 25 posts"
		         " (up to %d posts)", rs->id, longest);
		CHECK(long_bad == 0, what);

		/* Matches played to their end: the last state saves and loads
		 * back, since verify loads an export's final state (ChessWar
		 * refused a match that ended with a Heal still open). */
		int end_bad = 0, ended = 0;
		for (int seed = 1; seed <= ENDED_MATCHES; seed++) {
			struct wr_rng rng;
			struct wr_error err;
			uint64_t s;
			void *st = NULL;
			wr_rng_seeded(&rng, &s, (uint64_t)seed * 104729);
			if (rs->create(NULL, rs->min_seats, &rng, &st, &err) != 0)
				continue;
			for (int posts = 0; posts < 3000 && awaited(rs, st) >= 0; posts++)
				play(rs, st, 1, &rng);
			if (awaited(rs, st) < 0) {
				ended++;
				end_bad += !roundtrips(rs, st);
			}
			rs->free(st);
		}
		snprintf(what, sizeof(what), "%s: the last state of a match played to its end saves "
		         "and loads back (%d of %d ended)", rs->id, ended, ENDED_MATCHES);
		if (ENDED_MATCHES > 0)
			CHECK(end_bad == 0, what);
		snprintf(what, sizeof(what), "%s: every snapshot saved above has json-c's text of its "
		         "tree, made %s", rs->id, rs->save_out ? "without the tree" : "from the tree");
		CHECK(text_differs == 0, what);
		snprintf(what, sizeof(what), "%s: the legal actions of every post played above (%ld) as"
		         " text are json-c's text of their tree, made %s", rs->id, actions_compared,
		         rs->actions_out ? "without the tree" : "from the tree");
		CHECK(actions_differ == 0, what);
	}
	return check_done("every ruleset");
}
