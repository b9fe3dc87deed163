/*
 * Hidden information (RULINGS.md B12, G5): two matches identical except
 * for one side's secret choice of Mirrors (the a/c/b-file pieces against
 * the h/f/g-file ones) give byte-identical answers to the other side and
 * to a spectator -- views, action lists, events with their masks, errors,
 * to_act and result -- after every action, until a resolution answers
 * "decoy" or "real". Both directions (the secret side 0 or 1), with and
 * without the referee seat, over many seeded random matches that favour
 * moves so that they run long before the first resolution. Also: the
 * owner and the referee do see the Mirrors, and at the end everyone does.
 */
#include <stdio.h>

#include "bc_test.h"

static uint64_t pick_state;

static uint32_t
pick(uint32_t n)
{
	pick_state ^= pick_state << 13;
	pick_state ^= pick_state >> 7;
	pick_state ^= pick_state << 17;
	return n ? (uint32_t)(pick_state % n) : 0;
}

static char *
events_for(const struct wr_events *ev, int viewer)
{
	json_object *a = json_object_new_array();
	for (size_t k = 0; k < ev->len; k++)
		if (wr_event_visible(&ev->items[k], viewer)) {
			json_object *x = json_object_new_object();
			json_object_object_add(x, "to", json_object_new_int((int)ev->items[k].visible_to));
			json_object_object_add(x, "body", json_object_get(ev->items[k].body));
			json_object_array_add(a, x);
		}
	return bc_str(a);
}

static int
has_decoy(const struct wr_events *ev)
{
	for (size_t k = 0; k < ev->len; k++) {
		json_object *t;
		if (json_object_object_get_ex(ev->items[k].body, "type", &t) &&
		    strcmp(json_object_get_string(t), "decoy") == 0)
			return 1;
	}
	return 0;
}

static int compared;

static void
same(char *a, char *b, const char *what)
{
	CHECK(strcmp(a, b) == 0, what);
	if (strcmp(a, b) != 0)
		fprintf(stderr, "  A: %.600s\n  B: %.600s\n", a, b);
	compared++;
	free(a);
	free(b);
}

/* Everything `viewer` may learn from the two states. */
static void
compare(void *A, void *B, int viewer, const struct wr_events *ea, const struct wr_events *eb)
{
	struct wr_result ra, rb;

	same(bc_str(bc_ruleset.view(A, viewer)), bc_str(bc_ruleset.view(B, viewer)), "views");
	same(bc_str(bc_ruleset.actions(A, viewer)), bc_str(bc_ruleset.actions(B, viewer)),
	     "action lists");
	if (ea)
		same(events_for(ea, viewer), events_for(eb, viewer), "events and their masks");
	CHECK(bc_ruleset.to_act(A) == bc_ruleset.to_act(B), "to_act");
	bc_ruleset.result(A, &ra);
	bc_ruleset.result(B, &rb);
	CHECK(memcmp(&ra, &rb, sizeof(ra)) == 0, "result");
}

/* The same illegal or not-awaited probes by `seat` give the same errors. */
static void
probe_errors(void *A, void *B, int seat)
{
	static const char *const targets[] = {"a1", "h1", "c1", "f1", "b1", "g1",
	                                      "a8", "h8", "c8", "f8", "b8", "g8"};
	char buf[160], *sa, *sb;

	for (int k = 0; k < 4; k++) {
		struct wr_error e1, e2;
		char from[8];
		void *ca = bc_clone(A), *cb = bc_clone(B);
		uint64_t s1, s2;
		struct wr_rng r1, r2;
		int rc1, rc2;
		wr_rng_seeded(&r1, &s1, 7);
		wr_rng_seeded(&r2, &s2, 7);
		memset(&e1, 0, sizeof(e1));
		memset(&e2, 0, sizeof(e2));
		wr_square_name(&wr_board8, (int)pick(64), from);
		switch (pick(4)) {
		case 0:
			snprintf(buf, sizeof(buf), "{\"type\":\"move\",\"from\":\"%s\",\"to\":\"%s\",\"attack\":0}",
			         from, targets[pick(12)]);
			break;
		case 1:
			snprintf(buf, sizeof(buf), "{\"type\":\"shoot\",\"from\":\"%s\",\"to\":\"%s\",\"attack\":%u}",
			         from, targets[pick(12)], pick(2));
			break;
		case 2:
			snprintf(buf, sizeof(buf), "{\"type\":\"mirror\",\"square\":\"%s\"}", targets[pick(12)]);
			break;
		default:
			snprintf(buf, sizeof(buf), "{\"type\":\"hth\",\"attack\":0}");
		}
		rc1 = bc_do(ca, seat, buf, &r1, NULL, &e1);
		rc2 = bc_do(cb, seat, buf, &r2, NULL, &e2);
		CHECK(rc1 == rc2, "the same probe is refused or accepted in both");
		if (rc1 && rc2) {
			CHECK_STR(e1.code, e2.code, "error codes");
			CHECK_STR(e1.message, e2.message, "error messages");
			CHECK_STR(e1.field, e2.field, "error fields");
		} else if (!rc1 && !rc2) {
			sa = bc_str(bc_ruleset.view(ca, seat));
			sb = bc_str(bc_ruleset.view(cb, seat));
			same(sa, sb, "views after the same accepted probe");
		}
		bc_ruleset.free(ca);
		bc_ruleset.free(cb);
	}
}

static int steps_total, reveals;

static void
run(int secret, int referee, uint64_t seed)
{
	static const char *const hide_a[] = {"a1", "c1", "b1"}, *const hide_b[] = {"h1", "f1", "g1"};
	static const char *const hide_a8[] = {"a8", "c8", "b8"}, *const hide_b8[] = {"h8", "f8", "g8"};
	static const char *const roles[] = {"king", "queen", "rook", "bishop", "knight"};
	static const char *const tmpl[] = {"brick", "blaster", "martial-artist", "grenadier",
	                                   "marksman", "slasher", "speedster"};
	int seats = referee ? 3 : 2, other = 1 - secret;
	json_object *o = bc_j(referee ? "{\"referee\":true}" : "{}");
	void *A = NULL, *B = NULL;
	uint64_t sa, sb;
	struct wr_rng ra, rb;
	struct wr_error err;
	char buf[200];
	int viewers[2] = {other, WR_SPECTATOR};

	pick_state = seed * 0x9E3779B97F4A7C15ull + 3;
	wr_rng_seeded(&ra, &sa, seed);
	wr_rng_seeded(&rb, &sb, seed);
	bc_ruleset.create(o, seats, &ra, &A, &err);
	bc_ruleset.create(o, seats, &rb, &B, &err);
	json_object_put(o);
	/* set-up, interleaved, Mirrors early so that everything after them is
	 * compared */
	for (int k = 0; k < 8; k++)
		for (int s = 0; s < 2; s++) {
			struct wr_events ea = {0}, eb = {0};
			const char *const *ma = s == 0 ? hide_a : hide_a8, *const *mb = s == 0 ? hide_b : hide_b8;
			if (k < 3)
				snprintf(buf, sizeof(buf), "{\"type\":\"mirror\",\"square\":\"%s\"}", ma[k]);
			else
				snprintf(buf, sizeof(buf),
				         "{\"type\":\"sheet\",\"role\":\"%s\",\"template\":\"%s\"}",
				         roles[k - 3], tmpl[pick(7)]);
			CHECK(bc_do(A, s, buf, &ra, &ea, &err) == 0, "set-up applies in A");
			if (k < 3 && s == secret)
				snprintf(buf, sizeof(buf), "{\"type\":\"mirror\",\"square\":\"%s\"}", mb[k]);
			CHECK(bc_do(B, s, buf, &rb, &eb, &err) == 0, "set-up applies in B");
			for (int v = 0; v < 2; v++)
				compare(A, B, viewers[v], &ea, &eb);
			probe_errors(A, B, other);
			wr_events_free(&ea);
			wr_events_free(&eb);
		}
	/* the owner sees its Mirrors: its own view differs */
	{
		char *va = bc_str(bc_ruleset.view(A, secret)), *vb = bc_str(bc_ruleset.view(B, secret));
		CHECK(strcmp(va, vb) != 0, "the owner sees which pieces are its Mirrors");
		free(va);
		free(vb);
		if (referee) {
			va = bc_str(bc_ruleset.view(A, 2));
			vb = bc_str(bc_ruleset.view(B, 2));
			CHECK(strcmp(va, vb) != 0, "the referee sees the Mirrors");
			free(va);
			free(vb);
		}
	}
	for (int step = 0; step < 400; step++) {
		unsigned mask = bc_ruleset.to_act(A);
		int seat = -1;
		json_object *la, *lb;
		const char *js;
		struct wr_events ea = {0}, eb = {0};
		size_t n, choice;
		int found = 0;

		for (int s = 0; s < seats; s++)
			if (mask & (1u << s))
				seat = s;
		if (seat < 0)
			break;
		la = bc_ruleset.actions(A, seat);
		lb = bc_ruleset.actions(B, seat);
		n = json_object_array_length(la);
		/* favour plain moves, Dodges and Recoveries: attacks end the test */
		choice = pick((uint32_t)n);
		for (int tries = 0; tries < 12; tries++) {
			json_object *x = json_object_array_get_idx(la, choice), *t;
			json_object_object_get_ex(x, "type", &t);
			if (!json_object_object_get_ex(x, "attack", &t) || pick(40) == 0)
				break;
			choice = pick((uint32_t)n);
		}
		js = json_object_to_json_string_ext(json_object_array_get_idx(la, choice),
		                                    JSON_C_TO_STRING_PLAIN);
		for (size_t k = 0; k < json_object_array_length(lb); k++)
			found |= strcmp(js, json_object_to_json_string_ext(json_object_array_get_idx(lb, k),
			                                                   JSON_C_TO_STRING_PLAIN)) == 0;
		CHECK(found, "the acting seat has the same action in both matches");
		{
			int rc1 = bc_do(A, seat, js, &ra, &ea, &err);
			int rc2 = bc_do(B, seat, js, &rb, &eb, &err);
			CHECK(rc1 == 0 && rc2 == 0, "the action applies in both");
		}
		json_object_put(la);
		json_object_put(lb);
		steps_total++;
		if (has_decoy(&ea) || has_decoy(&eb)) {
			/* a resolution: from here the answers may differ */
			reveals++;
			wr_events_free(&ea);
			wr_events_free(&eb);
			break;
		}
		for (int v = 0; v < 2; v++)
			compare(A, B, viewers[v], &ea, &eb);
		if (step % 4 == 0)
			probe_errors(A, B, other);
		wr_events_free(&ea);
		wr_events_free(&eb);
	}
	bc_ruleset.free(A);
	bc_ruleset.free(B);
}

/* At the end every Mirror is revealed to everyone (G5). */
static void
end_reveals(void)
{
	uint64_t s;
	struct wr_rng rng;
	void *st;
	struct wr_events ev = {0};
	char *v;

	wr_rng_seeded(&rng, &s, 99);
	st = bc_match(NULL, NULL, NULL, &rng, NULL);
	CHECK(bc_ruleset.resign(st, 1, &rng, &ev) == 0, "resignation");
	v = bc_str(bc_ruleset.view(st, WR_SPECTATOR));
	CHECK(strstr(v, "\"identity\":\"mirror\"") != NULL, "a spectator sees the Mirrors at the end");
	CHECK(strstr(v, "\"identity\":\"unknown\"") == NULL, "nothing is unknown at the end");
	free(v);
	{
		int endev = 0;
		for (size_t k = 0; k < ev.len; k++)
			if (ev.items[k].visible_to == WR_VIS_PUBLIC &&
			    strstr(json_object_to_json_string(ev.items[k].body), "\"mirrors\""))
				endev = 1;
		CHECK(endev, "a public end event lists every Mirror");
	}
	wr_events_free(&ev);
	bc_ruleset.free(st);
}

int
main(void)
{
	/* 40 pairs; the sanitizer stage (WR_PLAYOUTS=100 of the usual 1,000)
	 * plays a tenth of them, at least 8, still both seat counts and both
	 * Mirror modes. */
	const char *env = getenv("WR_PLAYOUTS");
	int playouts = env ? atoi(env) : 0;
	int n = playouts > 0 && playouts < 1000 ? 40 * playouts / 1000 : 40;

	if (n < 8)
		n = 8;

	for (int m = 0; m < n; m++)
		run(m % 2, m % 3 == 0, 500 + (uint64_t)m);
	end_reveals();
	printf("%d matches, %d actions before a resolution, %d reached one, %d comparisons\n", n,
	       steps_total, reveals, compared);
	return check_done("bc_leak");
}
