/* The test ruleset itself: seeded playouts end, replay identically, and
 * its views hide the decoys from everyone but their owner. */
#include <stdlib.h>

#include "../rules/ruleset_test.h"
#include "../unit/check.h"
#include "tr.h"

static const struct wr_ruleset *R = &tr_ruleset;

static char *
play(int seats, uint64_t seed, json_object *take_log)
{
	struct wr_rng rng;
	uint64_t st;
	struct wr_error err;
	void *s;
	json_object *opts = json_tokener_parse("{\"turn_limit\":40}");

	wr_rng_seeded(&rng, &st, seed);
	if (R->create(opts, seats, &rng, &s, &err) != 0)
		return NULL;
	json_object_put(opts);
	for (int step = 0; step < 1000 && R->to_act(s); step++) {
		unsigned m = R->to_act(s);
		int seat = __builtin_ctz(m);
		json_object *list = R->actions(s, seat);
		size_t n = json_object_array_length(list);
		struct wr_events ev = {0};
		CHECK(n > 0, "an awaited seat has an action");
		if (!n) {
			json_object_put(list);
			break;
		}
		json_object *a = json_object_array_get_idx(list, (size_t)(rng.next(&rng, (uint32_t)n)));
		json_object_array_add(take_log, json_object_get(a));
		CHECK(R->apply(s, seat, a, &rng, &ev, &err) == 0, "offered actions are accepted");
		wr_events_free(&ev);
		json_object_put(list);
	}
	json_object *snap = R->save(s);
	char *out = strdup(json_object_to_json_string_ext(snap, JSON_C_TO_STRING_PLAIN));
	char *text = wr_save_text(R, s);
	CHECK(R->save_out && text && out && strcmp(text, out) == 0,
	      "the snapshot's text made without the tree is json-c's text of the tree (issue 32)");
	free(text);
	json_object_put(snap);
	R->free(s);
	return out;
}

/* Issue 14 (undo): attacking a Decoy reveals it to everyone, a barrier;
 * a plain move is not. Seat 0's d1 Scout is put next to seat 1's Decoy. */
static void
undo_barrier(void)
{
	struct wr_rng rng;
	uint64_t st;
	struct wr_error err;
	void *s = NULL, *before = NULL, *after = NULL;
	json_object *snap, *decoy = NULL;
	char act[96];

	wr_rng_seeded(&rng, &st, 7);
	if (R->create(NULL, 2, &rng, &s, &err) != 0)
		return;
	snap = R->save(s);
	json_object *pieces = json_object_object_get(snap, "pieces");
	for (int i = 4; i <= 5; i++)
		if (json_object_get_int(json_object_array_get_idx(json_object_array_get_idx(pieces, (size_t)i), 3)))
			decoy = json_object_array_get_idx(pieces, (size_t)i);
	int dsq = json_object_get_int(json_object_array_get_idx(decoy, 2));
	json_object_array_put_idx(json_object_array_get_idx(pieces, 1), 2, json_object_new_int(dsq - 8));
	CHECK(R->load(snap, &before, &err) == 0, "the position loads");
	after = wrt_clone(R, before);
	snprintf(act, sizeof(act), "{\"type\":\"attack\",\"from\":\"%c7\",\"to\":\"%c8\"}",
	         'a' + dsq % 8, 'a' + dsq % 8);
	for (int k = 0; k < 2; k++) {
		struct wr_events ev = {0};
		json_object *a = json_tokener_parse(k ? act : "{\"type\":\"move\",\"from\":\"e1\",\"to\":\"e2\"}");
		void *pre = wrt_clone(R, before);
		CHECK(R->apply(after, 0, a, &rng, &ev, &err) == 0 &&
		          wr_undo_reveals(R, pre, after, 0, &ev) == k,
		      k ? "an attacked Decoy is revealed: an undo barrier" : "a move reveals nothing");
		json_object_put(a);
		wr_events_free(&ev);
		R->free(pre);
		R->free(after);
		after = wrt_clone(R, before);
	}
	R->free(after);
	R->free(before);
	R->free(s);
	json_object_put(snap);
}

/* RULINGS.md, G8 (amended), what the clocks read: with two actions a
 * turn, seat 0's attack asks seat 1 to dodge while seat 0's turn goes on
 * (turn_of), and after the answer seat 0 is awaited again; with one, the
 * answer passes the turn. Seat 0's d1 Scout is put below seat 1's real
 * Scout. */
static void
turn_goes_on(int per_turn)
{
	struct wr_rng rng;
	uint64_t st;
	struct wr_error err;
	void *s = NULL, *p = NULL;
	json_object *snap, *scout = NULL;
	char act[96], opts[48];

	snprintf(opts, sizeof(opts), "{\"actions_per_turn\":%d}", per_turn);
	json_object *o = json_tokener_parse(opts);
	wr_rng_seeded(&rng, &st, 7);
	CHECK(R->create(o, 2, &rng, &s, &err) == 0, "actions_per_turn is an option");
	json_object_put(o);
	if (!s)
		return;
	snap = R->save(s);
	json_object *pieces = json_object_object_get(snap, "pieces");
	for (int i = 4; i <= 5; i++)
		if (!json_object_get_int(json_object_array_get_idx(json_object_array_get_idx(pieces, (size_t)i), 3)))
			scout = json_object_array_get_idx(pieces, (size_t)i);
	int sq = json_object_get_int(json_object_array_get_idx(scout, 2));
	json_object_array_put_idx(json_object_array_get_idx(pieces, 1), 2, json_object_new_int(sq - 8));
	CHECK(R->load(snap, &p, &err) == 0, "the position loads");
	snprintf(act, sizeof(act), "{\"type\":\"attack\",\"from\":\"%c7\",\"to\":\"%c8\"}",
	         'a' + sq % 8, 'a' + sq % 8);
	const char *posts[][2] = {{"0", act}, {"1", "{\"type\":\"dodge\",\"dodge\":false}"},
	                          {"0", "{\"type\":\"move\",\"from\":\"e1\",\"to\":\"e2\"}"}};
	/* after each post: awaited, turn holder */
	const unsigned two[][2] = {{2, 1}, {1, 1}, {2, 2}}, one[][2] = {{2, 1}, {2, 2}};
	for (int k = 0; p && k < (per_turn == 2 ? 3 : 2); k++) {
		struct wr_events ev = {0};
		json_object *a = json_tokener_parse(posts[k][1]);
		const unsigned *want = per_turn == 2 ? two[k] : one[k];
		CHECK(R->apply(p, posts[k][0][0] - '0', a, &rng, &ev, &err) == 0, "the post applies");
		CHECK(R->to_act(p) == want[0] && R->turn_of(p) == want[1],
		      per_turn == 2 ? "RULINGS.md, G8 (amended): the attacker's turn goes on while "
		                      "the defender answers, and after"
		                    : "one action a turn: the answer ends the attacker's turn");
		json_object_put(a);
		wr_events_free(&ev);
	}
	R->free(p);
	R->free(s);
	json_object_put(snap);
}

int
main(void)
{
	int ended = 0;
	for (uint64_t seed = 1; seed <= 200; seed++) {
		int seats = 2 + (int)(seed % 2);
		json_object *log1 = json_object_new_array(), *log2 = json_object_new_array();
		char *a = play(seats, seed, log1), *b = play(seats, seed, log2);
		CHECK(a && b && strcmp(a, b) == 0, "same seed, same match, byte for byte");
		ended += a && strstr(a, "\"over\":1") != NULL;
		free(a);
		free(b);
		json_object_put(log1);
		json_object_put(log2);
	}
	CHECK(ended == 200, "every playout ends (a winner or the turn limit)");

	struct wr_rng rng;
	uint64_t st;
	struct wr_error err;
	void *s;
	wr_rng_seeded(&rng, &st, 3);
	CHECK(R->create(NULL, 3, &rng, &s, &err) == 0, "3 seats");
	json_object *v0 = R->view(s, 0), *v1 = R->view(s, 1), *vs = R->view(s, WR_SPECTATOR);
	const char *t0 = json_object_to_json_string_ext(v0, JSON_C_TO_STRING_PLAIN);
	CHECK(strstr(t0, "\"decoy\":true") != NULL, "the owner sees its decoy");
	CHECK(strstr(json_object_to_json_string_ext(vs, JSON_C_TO_STRING_PLAIN), "\"decoy\":true") == NULL &&
	          strstr(json_object_to_json_string_ext(vs, JSON_C_TO_STRING_PLAIN), "\"decoy\":false") == NULL,
	      "a spectator sees no decoy flag");
	json_object_put(v0);
	json_object_put(v1);
	json_object_put(vs);
	json_object *bad = json_tokener_parse("{\"type\":\"move\",\"from\":\"e8\",\"to\":\"e7\"}");
	struct wr_events ev = {0};
	CHECK(R->apply(s, 1, bad, &rng, &ev, &err) != 0 && strcmp(err.code, "not-awaited") == 0,
	      "a seat that is not awaited cannot act");
	CHECK(R->apply(s, 0, bad, &rng, &ev, &err) != 0 && strcmp(err.code, "not-your-piece") == 0,
	      "a seat cannot move another seat's piece");
	json_object_put(bad);
	R->free(s);
	undo_barrier();
	turn_goes_on(2);
	turn_goes_on(1);
	return check_done("testrules");
}
