/*
 * Seeded random playouts of ChessWar across every pairing of the seven
 * armies and the options (default; total_massacre; a 10x12 board with
 * forest and hills; standing orders): actions picked uniformly from the
 * legal list (the driver fixes each seat's army first so that all 49
 * pairings are played, then never offers "army" again). A match that has
 * not ended after POST_CAP actions is stopped and counted: nothing in the
 * text forces an end (a general may never be reached). After every action
 * on checked matches: the state's invariants, save/load round trip, the
 * awaited seats and only they have actions (G6), a refused action changes
 * nothing. Every match is replayed from its log through the JSON interface
 * and must give the same snapshot byte for byte. WR_PLAYOUTS sets the count.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../unit/check.h"
#include "chesswar.h"
#include "cw_rules.h"

#define POST_CAP 3000
#ifdef __SANITIZE_ADDRESS__
#define CHECK_EVERY 25
#else
#define CHECK_EVERY 50
#endif

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
snap(const void *st)
{
	json_object *j = cw_ruleset.save(st);
	char *s = strdup(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN));
	json_object_put(j);
	return s;
}

static json_object *
options_for(int variant)
{
	json_object *o = json_object_new_object(), *f, *h;
	switch (variant) {
	case 1:
		json_object_object_add(o, "total_massacre", json_object_new_boolean(1));
		break;
	case 2:
		json_object_object_add(o, "board_files", json_object_new_int(10));
		json_object_object_add(o, "board_ranks", json_object_new_int(12));
		f = json_object_new_array();
		h = json_object_new_array();
		json_object_array_add(f, json_object_new_string("d5"));
		json_object_array_add(f, json_object_new_string("e6"));
		json_object_array_add(h, json_object_new_string("g7"));
		json_object_array_add(h, json_object_new_string("b6"));
		json_object_object_add(o, "forest", f);
		json_object_object_add(o, "hills", h);
		break;
	default:
		break;
	}
	return o;
}

struct logent {
	int seat;
	char *json;          /* an action, or orders when seat < 0 (seat = -1 - s); NULL: the
	                        seat resigned (3-4 armies) */
};

static struct logent plog[POST_CAP + 64];
static int nlog;
static int ended, capped, posts_total;

static int
legal_list(const struct cw_state *st, int seat, struct wr_list *out)
{
	struct wr_list c;
	struct wr_error err;
	wr_list_init(&c, sizeof(struct cw_action));
	wr_list_init(out, sizeof(struct cw_action));
	cw_candidates(st, seat, &c);
	for (size_t i = 0; i < c.len; i++) {
		const struct cw_action *a = wr_list_at(&c, i);
		if (cw_legal(st, seat, a, &err) == 0)
			memcpy(wr_list_push(out), a, sizeof(*a));
	}
	wr_list_free(&c);
	return (int)out->len;
}

static void
play_one(int m, int variant, int nseats)
{
	struct wr_rng rng, rng2;
	uint64_t rs, rs2;
	void *vs;
	struct cw_state *st;
	struct wr_error err;
	json_object *opts = options_for(variant);
	int full = m % CHECK_EVERY == 0, posts = 0;
	int army[CW_SEATS] = {(m / 3) % CW_ARMY_MAX, (m / 21) % CW_ARMY_MAX, (m / 7) % CW_ARMY_MAX,
	                      (m / 5) % CW_ARMY_MAX};

	pick_state = 0x9e3779b97f4a7c15ull ^ (uint64_t)(m + 1) * 7919;
	wr_rng_seeded(&rng, &rs, (uint64_t)m * 31 + 7);
	if (cw_ruleset.create(opts, nseats, &rng, &vs, &err) != 0) {
		CHECK(0, err.message);
		json_object_put(opts);
		return;
	}
	st = vs;
	nlog = 0;
	if (variant == 0 && m % 2) {
		/* standing orders (G3) */
		for (int s = 0; s < 2; s++) {
			json_object *o = json_object_new_object();
			json_object_object_add(o, "counterspell",
			                       json_object_new_string(s ? "always" : "never"));
			json_object_object_add(o, "heal", json_object_new_string(s ? "never" : "always"));
			json_object_object_add(o, "protection",
			                       json_object_new_string(m % 4 == 1 ? "always" : "never"));
			CHECK(cw_ruleset.set_orders(st, s, o, &err) == 0, "orders accepted");
			plog[nlog].seat = -1 - s;
			plog[nlog++].json = strdup(json_object_to_json_string(o));
			json_object_put(o);
		}
	}
	while (st->phase != CW_PH_OVER && posts < POST_CAP) {
		unsigned mask = cw_to_act(st);
		int seats[CW_SEATS], ns = 0, seat, n, other;
		struct wr_list l;
		CHECK(mask != 0, "an ongoing match awaits a seat");
		if (!mask)
			break;
		for (int s = 0; s < nseats; s++)
			if (mask & (1u << s))
				seats[ns++] = s;
		seat = seats[pick((uint32_t)ns)];
		other = (seat + 1 + (int)pick((uint32_t)(nseats - 1))) % nseats;
		n = legal_list(st, seat, &l);
		CHECK(n > 0, "G6: an awaited seat has a legal action");
		if (n == 0) {
			wr_list_free(&l);
			break;
		}
		struct cw_action a = *(struct cw_action *)wr_list_at(&l, pick((uint32_t)n));
		if (st->phase == CW_PH_SETUP && st->side[seat].army == CW_NONE) {
			memset(&a, 0, sizeof(a));
			a.type = CW_A_ARMY;
			a.army = army[seat];
			a.unit = a.to = a.spell = a.effect = a.target2 = CW_NONE;
			a.count = 1;
		} else {
			int tries = 0;
			while (a.type == CW_A_ARMY && tries++ < 50)
				a = *(struct cw_action *)wr_list_at(&l, pick((uint32_t)n));
			if (a.type == CW_A_ARMY) {
				for (size_t i = 0; i < l.len; i++)
					if (((struct cw_action *)wr_list_at(&l, i))->type != CW_A_ARMY)
						a = *(struct cw_action *)wr_list_at(&l, i);
			}
		}
		wr_list_free(&l);
		if (full && posts % 4 == 0) {
			/* the other seat: actions only when awaited */
			json_object *oa = cw_ruleset.actions(st, other);
			CHECK(((mask >> other) & 1) || json_object_array_length(oa) == 0,
			      "a seat not awaited has no actions");
			json_object_put(oa);
			/* a refused action leaves the state as it was */
			char *before = snap(st);
			json_object *bad = json_object_new_object();
			json_object_object_add(bad, "type", json_object_new_string("attack"));
			json_object_object_add(bad, "unit", json_object_new_string("a1"));
			json_object_object_add(bad, "target", json_object_new_string("h8"));
			struct wr_events ev = {0};
			if (cw_ruleset.apply(st, seat, bad, &rng, &ev, &err) != 0) {
				char *after = snap(st);
				CHECK(strcmp(before, after) == 0, "a refused action changes nothing");
				free(after);
			}
			wr_events_free(&ev);
			json_object_put(bad);
			free(before);
		}
		if (nseats > 2 && posts == 40 + m % 200 && m % 3 == 0) {
			/* a seat leaves; play goes on without it (rules.h resign) */
			struct wr_events rev = {0};
			int who = (int)pick((uint32_t)nseats);
			CHECK(cw_ruleset.resign(st, who, &rng, &rev) == 0, "a seat resigns");
			CHECK(st->phase == CW_PH_OVER || (st->out & (1u << who)), "the seat is out");
			CHECK(!(cw_to_act(st) & (1u << who)), "a seat that left is never awaited");
			wr_events_free(&rev);
			plog[nlog].seat = who;
			plog[nlog++].json = NULL;
			posts++;
			continue;
		}
		json_object *aj = wr_tpl_action_json(&cw_template, st, &a);
		struct wr_events ev = {0};
		int rc = cw_ruleset.apply(st, seat, aj, &rng, &ev, &err);
		CHECK(rc == 0, "an offered action is accepted");
		if (rc != 0)
			fprintf(stderr, "refused %s: %s %s\n", json_object_to_json_string(aj), err.code,
			        err.message);
		wr_events_free(&ev);
		plog[nlog].seat = seat;
		plog[nlog++].json = strdup(json_object_to_json_string_ext(aj, JSON_C_TO_STRING_PLAIN));
		json_object_put(aj);
		posts++;
		if (full && posts % 4 == 0) {
			char *s1 = snap(st);
			json_object *j = cw_ruleset.save(st);
			void *copy;
			CHECK(cw_check_state(st, &err) == 0, "invariants hold");
			if (cw_ruleset.load(j, &copy, &err) == 0) {
				char *s2 = snap(copy);
				CHECK(strcmp(s1, s2) == 0, "save/load round trip");
				free(s2);
				/* play goes on from the loaded copy, as the server's does
				 * after a restart or a cache miss: the replay below, which
				 * never reloads, must still end in the same state */
				cw_ruleset.free(st);
				st = copy;
			} else {
				CHECK(0, "a saved state loads");
				fprintf(stderr, "load: %s %s\n", err.field, err.message);
			}
			json_object_put(j);
			for (int v = -2; v < nseats && posts % 16 == 0; v++) {
				json_object *vj = cw_ruleset.view(st, v);
				CHECK(vj != NULL, "a view");
				json_object_put(vj);
			}
			free(s1);
		}
	}
	posts_total += posts;
	/* every match's last state loads (an export's final state is loaded
	 * to verify it, GET /api/games/{id}/verify) */
	{
		json_object *j = cw_ruleset.save(st);
		void *copy = NULL;
		int loads = cw_ruleset.load(j, &copy, &err) == 0;
		CHECK(loads, "the final state loads");
		if (!loads)
			fprintf(stderr, "match %d: final state: %s %s\n", m, err.field, err.message);
		else
			cw_ruleset.free(copy);
		json_object_put(j);
	}
	if (st->phase == CW_PH_OVER)
		ended++;
	else
		capped++;
	/* replay */
	{
		void *v2;
		char *a1 = snap(st), *a2;
		wr_rng_seeded(&rng2, &rs2, (uint64_t)m * 31 + 7);
		CHECK(cw_ruleset.create(opts, nseats, &rng2, &v2, &err) == 0, "replay create");
		for (int i = 0; i < nlog; i++) {
			json_object *j = plog[i].json ? json_tokener_parse(plog[i].json) : NULL;
			struct wr_events ev = {0};
			if (!j)
				CHECK(cw_ruleset.resign(v2, plog[i].seat, &rng2, &ev) == 0, "replay resign");
			else if (plog[i].seat < 0)
				CHECK(cw_ruleset.set_orders(v2, -1 - plog[i].seat, j, &err) == 0,
				      "replay orders");
			else
				CHECK(cw_ruleset.apply(v2, plog[i].seat, j, &rng2, &ev, &err) == 0,
				      "replay action");
			wr_events_free(&ev);
			json_object_put(j);
			free(plog[i].json);
		}
		a2 = snap(v2);
		CHECK(strcmp(a1, a2) == 0, "the replay gives the same snapshot byte for byte");
		free(a1);
		free(a2);
		cw_ruleset.free(v2);
	}
	cw_ruleset.free(st);
	json_object_put(opts);
}

int
main(void)
{
	const char *env = getenv("WR_PLAYOUTS");
	int n = env ? atoi(env) : 1000, multi = 0;
	if (n < 1)
		n = 1;
	for (int m = 0; m < n; m++)
		play_one(m, m % 3, 2);
	/* the expansion's multiple armies: 3 and 4 on the default 12x12 board,
	 * total massacre; a tenth as many */
	for (int m = 0; m < (n + 9) / 10; m++) {
		play_one(n + m, 3, 3 + m % 2);
		multi++;
	}
	printf("cw_play: %d matches (%d of 3-4 armies), %d ended, %d stopped at the cap of %d "
	       "actions, %d actions\n",
	       n + multi, multi, ended, capped, POST_CAP, posts_total);
	CHECK(ended > 0, "random matches end");
	return check_done("cw_play");
}
