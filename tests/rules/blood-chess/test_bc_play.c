/*
 * Random playouts of Blood Chess: WR_PLAYOUTS seeded matches (default
 * 1000), set-up included, played to the end by picking uniformly among
 * actions() of an awaited seat, in four variants: chosen Mirrors, random
 * Mirrors, the referee seat, custom sheets. The turn limit (option
 * turn_limit) bounds a match: random play rarely brings a King down in
 * a few turns of the Speed Chart. After every action: only awaited seats
 * have actions; on every CHECK_EVERY-th match every offered action is
 * accepted on a clone and random unlisted actions are refused without a
 * change; save/load round-trips. At the end the match is replayed from
 * create() with the same seed and actions and gives the same save().
 */
#include <stdio.h>
#include <time.h>

#include "bc_test.h"

#ifdef __SANITIZE_ADDRESS__
#define CHECK_EVERY 200
#else
#define CHECK_EVERY 200
#endif
#define STEP_CAP 20000

static uint64_t pick_state;

static uint32_t
pick(uint32_t n)
{
	pick_state ^= pick_state << 13;
	pick_state ^= pick_state >> 7;
	pick_state ^= pick_state << 17;
	return n ? (uint32_t)(pick_state % n) : 0;
}

static const char *
options_for(int variant)
{
	if (getenv("BC_NOLIMIT"))
		return variant == 2 ? "{\"referee\":true}" : "{}";   /* the default limit */
	switch (variant) {
	case 0:
		return "{\"turn_limit\":8}";
	case 1:
		return "{\"turn_limit\":8,\"mirrors\":\"random\"}";
	case 2:
		return "{\"turn_limit\":4,\"referee\":true}";
	default:
		return "{\"turn_limit\":6,\"sheets\":{\"Glass Cannon\":{\"dex\":30,\"spd\":8,\"ocv\":12,"
		       "\"dcv\":3,\"con\":10,\"body\":5,\"stun\":12,\"rec\":3,\"pd\":2,\"ed\":2,\"rpd\":0,"
		       "\"red\":0,\"attacks\":[{\"name\":\"Nova\",\"dice\":14,\"ranged\":true,\"area\":true,"
		       "\"vs\":\"ED\"},{\"name\":\"Knife\",\"dice\":2,\"killing\":true}]}}}";
	}
}

struct step {
	int seat;
	char *json;             /* JSON path, or NULL: the typed action */
	struct bc_action act;
};

static struct step steps[STEP_CAP];

static int
in_list(json_object *list, const char *s)
{
	for (size_t k = 0; k < json_object_array_length(list); k++)
		if (strcmp(json_object_to_json_string_ext(json_object_array_get_idx(list, k),
		                                          JSON_C_TO_STRING_PLAIN),
		           s) == 0)
			return 1;
	return 0;
}

static void
probe_unlisted(void *st, int seat, json_object *list, struct wr_rng *rng)
{
	static const char *const types[] = {"move", "shoot", "hth", "dodge", "recover",
	                                    "sheet", "mirror", "ref_hit", "ref_stun"};
	char buf[200], sq1[8], sq2[8];
	char *before = bc_save_str(st);

	for (int k = 0; k < 6; k++) {
		int t = (int)pick(9);
		struct wr_error err;
		wr_square_name(&wr_board8, (int)pick(64), sq1);
		wr_square_name(&wr_board8, (int)pick(64), sq2);
		switch (t) {
		case 0:
		case 1:
			snprintf(buf, sizeof(buf), "{\"type\":\"%s\",\"from\":\"%s\",\"to\":\"%s\",\"attack\":%u}",
			         types[t], sq1, sq2, pick(3));
			break;
		case 2:
			snprintf(buf, sizeof(buf), "{\"type\":\"hth\",\"attack\":%u}", pick(3));
			break;
		case 5:
			snprintf(buf, sizeof(buf), "{\"type\":\"sheet\",\"role\":\"rook\",\"template\":\"brick\"}");
			break;
		case 6:
			snprintf(buf, sizeof(buf), "{\"type\":\"mirror\",\"square\":\"%s\"}", sq1);
			break;
		case 7:
			snprintf(buf, sizeof(buf), "{\"type\":\"ref_hit\",\"hit\":true}");
			break;
		case 8:
			snprintf(buf, sizeof(buf), "{\"type\":\"ref_stun\",\"value\":%u}", pick(90));
			break;
		default:
			snprintf(buf, sizeof(buf), "{\"type\":\"%s\"}", types[t]);
		}
		if (in_list(list, buf))
			continue;
		{
			json_object *canon = bc_j(buf);
			const char *c = json_object_to_json_string_ext(canon, JSON_C_TO_STRING_PLAIN);
			int listed = in_list(list, c);
			json_object_put(canon);
			if (listed)
				continue;
		}
		CHECK(bc_do(st, seat, buf, rng, NULL, &err) != 0, "an unlisted action is refused");
		{
			char *after = bc_save_str(st);
			CHECK(strcmp(before, after) == 0, "a refused action changes nothing");
			free(after);
		}
	}
	free(before);
}

static int
playout(int variant, uint64_t seed, int full, int *nsteps, int *ended)
{
	uint64_t rs;
	struct wr_rng rng;
	json_object *o = bc_j(options_for(variant));
	void *st = NULL;
	struct wr_error err;
	int n = 0, seats = variant == 2 ? 3 : 2;
	char *final;
	struct wr_result res;

	pick_state = seed * 2654435761u + 1;
	wr_rng_seeded(&rng, &rs, seed);
	if (bc_ruleset.create(o, seats, &rng, &st, &err) != 0) {
		fprintf(stderr, "create: %s\n", err.message);
		json_object_put(o);
		return -1;
	}
	for (; n < STEP_CAP; n++) {
		unsigned mask = bc_ruleset.to_act(st);
		int cand[3], nc = 0, seat;
		json_object *list;
		size_t len;
		const char *js;
		struct wr_events ev = {0};

		bc_ruleset.result(st, &res);
		if (res.over) {
			CHECK(mask == 0, "nobody is awaited at the end");
			break;
		}
		for (int s = 0; s < seats; s++)
			if (mask & (1u << s))
				cand[nc++] = s;
			else if (full) {
				json_object *l = bc_ruleset.actions(st, s);
				CHECK(json_object_array_length(l) == 0, "a seat not awaited has no actions");
				json_object_put(l);
			}
		CHECK(nc > 0, "someone is awaited while the match goes on");
		if (!nc)
			break;
		seat = cand[pick((uint32_t)nc)];
		if (!full) {
			/* the typed path (template glue): candidates that legal() takes */
			struct wr_list cl, legal_l, evl;
			struct bc_action *chosen;
			wr_list_init(&cl, sizeof(struct bc_action));
			wr_list_init(&legal_l, sizeof(struct bc_action));
			wr_list_init(&evl, sizeof(struct bc_event));
			bc_template.candidates(st, seat, &cl);
			for (size_t k = 0; k < cl.len; k++)
				if (bc_template.legal(st, seat, wr_list_at(&cl, k), &err) == 0)
					*(struct bc_action *)wr_list_push(&legal_l) =
						*(struct bc_action *)wr_list_at(&cl, k);
			CHECK(legal_l.len > 0, "an awaited seat has an action (G6)");
			CHECK(legal_l.len != 1, "RULINGS.md, G3 (amended): no awaited seat is left with "
			                        "one forced action");
			if (!legal_l.len) {
				wr_list_free(&cl);
				wr_list_free(&legal_l);
				break;
			}
			chosen = wr_list_at(&legal_l, pick((uint32_t)legal_l.len));
			steps[n].seat = seat;
			steps[n].act = *chosen;
			steps[n].json = NULL;
			CHECK(wr_tpl_do(&bc_template, st, seat, chosen, &rng, &evl, &err) == 0,
			      "the picked action applies");
			wr_list_free(&cl);
			wr_list_free(&legal_l);
			wr_list_free(&evl);
			continue;
		}
		list = bc_ruleset.actions(st, seat);
		len = json_object_array_length(list);
		CHECK(len > 0, "an awaited seat has an action (G6)");
		CHECK(len != 1, "RULINGS.md, G3 (amended): no awaited seat is left with one forced "
		                "action");
		if (!len) {
			json_object_put(list);
			break;
		}
		{
			uint64_t ps;
			struct wr_rng prng;
			wr_rng_seeded(&prng, &ps, seed ^ (uint64_t)n);
			for (size_t k = 0; k < len && n % 4 == 0; k++) {
				void *copy = bc_clone(st);
				struct wr_events e2 = {0};
				int rc = bc_ruleset.apply(copy, seat, json_object_array_get_idx(list, k), &prng,
				                          &e2, &err);
				CHECK(rc == 0, "every offered action applies");
				if (rc)
					fprintf(stderr, "  %s: %s\n",
					        json_object_to_json_string(json_object_array_get_idx(list, k)),
					        err.message);
				wr_events_free(&e2);
				bc_ruleset.free(copy);
			}
			probe_unlisted(st, seat, list, &prng);
			for (int v = WR_EVERYONE; v < seats; v++)
				json_object_put(bc_ruleset.view(st, v));
			{
				void *copy = bc_clone(st);
				char *a = bc_save_str(st), *b = copy ? bc_save_str(copy) : strdup("");
				CHECK(copy && strcmp(a, b) == 0, "save/load round-trips");
				free(a);
				free(b);
				if (copy)
					bc_ruleset.free(copy);
			}
		}
		js = json_object_to_json_string_ext(json_object_array_get_idx(list, pick((uint32_t)len)),
		                                    JSON_C_TO_STRING_PLAIN);
		steps[n].seat = seat;
		steps[n].json = strdup(js);
		json_object_put(list);
		if (bc_do(st, seat, steps[n].json, &rng, &ev, &err) != 0) {
			CHECK(0, "the picked action applies");
			fprintf(stderr, "  %s: %s\n", steps[n].json, err.message);
			wr_events_free(&ev);
			n++;
			break;
		}
		wr_events_free(&ev);
	}
	bc_ruleset.result(st, &res);
	*ended = res.over;
	if (getenv("BC_VERBOSE"))
		printf("variant %d seed %llu: %d actions, %s, %d-%d\n", variant,
		       (unsigned long long)seed, n, res.reason, res.scores[0], res.scores[1]);
	*nsteps = n;
	CHECK(res.over, "the playout ends");
	final = bc_save_str(st);
	bc_ruleset.free(st);
	/* replay */
	wr_rng_seeded(&rng, &rs, seed);
	st = NULL;
	bc_ruleset.create(o, seats, &rng, &st, &err);
	json_object_put(o);
	for (int k = 0; k < n; k++) {
		int rc;
		if (steps[k].json) {
			rc = bc_do(st, steps[k].seat, steps[k].json, &rng, NULL, &err);
		} else {
			struct wr_list evl;
			wr_list_init(&evl, sizeof(struct bc_event));
			rc = wr_tpl_do(&bc_template, st, steps[k].seat, &steps[k].act, &rng, &evl, &err);
			wr_list_free(&evl);
		}
		CHECK(rc == 0, "the replayed action applies");
		free(steps[k].json);
	}
	{
		char *again = bc_save_str(st);
		CHECK(strcmp(final, again) == 0, "the replay gives the same snapshot byte for byte");
		free(again);
	}
	free(final);
	bc_ruleset.free(st);
	return 0;
}

int
main(void)
{
	const char *env = getenv("WR_PLAYOUTS");
	int count = env ? atoi(env) : 1000, ended = 0, kings = 0, total_steps = 0;
	clock_t t0 = clock();

	for (int m = 0; m < count; m++) {
		int n, e;
		struct wr_result res;
		(void)res;
		playout(m % 4, 1000 + (uint64_t)m, getenv("BC_NOFULL") ? 0 : m % CHECK_EVERY == 0, &n, &e);
		ended += e;
		total_steps += n;
	}
	(void)kings;
	printf("%d playouts, %d ended, %d actions, %.2f s\n", count, ended, total_steps,
	       (double)(clock() - t0) / CLOCKS_PER_SEC);
	return check_done("bc_play");
}
