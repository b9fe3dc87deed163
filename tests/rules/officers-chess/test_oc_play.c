/* Seeded random playouts of Officers Chess (WR_PLAYOUTS, default 1000):
 * every awaited seat has a legal action (G6), every match ends (round
 * limit), and replays byte for byte from the same seed. The first games go
 * through the JSON interface (actions() -> apply()) with save/load checked
 * at every step; fog games check at random steps that moving or hurting a
 * hidden enemy changes nothing a seat or a spectator gets (O13, G5). */
#include <time.h>

#include "oc_test.h"

#define MAX_STEPS 6000
#define JSON_GAMES 6

static uint64_t chooser;
static long seen_ev[OC_E_MAX];

static uint32_t
pick(uint32_t n)
{
	chooser ^= chooser << 13;
	chooser ^= chooser >> 7;
	chooser ^= chooser << 17;
	return (uint32_t)(chooser % n);
}

static const char *
options_for(int g, char *buf, size_t n)
{
	static const char *const maps[] = {"plains", "crossing", "keep"};
	static const char *const scen[] = {"rout", "seize", "escape", "raze"};
	snprintf(buf, n,
	         "{\"units\":%d,\"fog\":%s,\"map\":\"%s\",\"scenario\":\"%s\",\"scenario_seat\":%d,"
	         "\"activations\":\"%s\",\"promoted\":%s,\"round_limit\":%d,\"first\":\"%s\"}",
	         1 + g % 4, g % 2 ? "true" : "false", maps[g % 3], scen[(g / 3) % 4], (g / 7) % 2,
	         g % 5 == 0 ? "1,3" : "1", g % 3 == 0 ? "true" : "false", 2 + g % 4,
	         g % 4 == 1 ? "random" : "seat0");
	return buf;
}

static char *
stream(const struct wr_ruleset *rs, const void *st, int viewer)
{
	json_object *v = rs->view(st, viewer);
	json_object *a = viewer >= 0 ? rs->actions(st, viewer) : json_object_new_array();
	json_object *both = json_object_new_array();
	json_object_array_add(both, v);
	json_object_array_add(both, a);
	char *s = strdup(json_object_to_json_string_ext(both, JSON_C_TO_STRING_PLAIN));
	json_object_put(both);
	return s;
}

/* Moves a hidden enemy of `seat` to another tile hidden from it and hurts
 * it; what `seat` and a spectator get must not change. */
static void
leak_check(struct oc_state *st, int seat)
{
	unsigned char seen[OC_MAX_TILES];
	int h = -1;

	if (!st->fog || st->phase != OC_PH_BATTLE)
		return;
	oc_sight(st, seat, seen);
	for (int i = 0; i < st->nu; i++)
		if (st->u[i].seat != seat && st->u[i].where == OC_W_MAP && !seen[st->u[i].sq] &&
		    i != st->active)
			h = i;
	if (h < 0)
		return;
	char *a0 = stream(&oc_ruleset, st, seat), *s0 = stream(&oc_ruleset, st, WR_SPECTATOR);
	struct oc_unit keep = st->u[h];
	for (int t = 0; t < 64; t++)
		if (!seen[t] && oc_unit_at(st, t) < 0 && oc_tiles[st->terrain[t]].move >= 0) {
			st->u[h].sq = t;
			break;
		}
	if (st->u[h].hp > 1)
		st->u[h].hp--;
	st->u[h].poisoned = !st->u[h].poisoned;
	char *a1 = stream(&oc_ruleset, st, seat), *s1 = stream(&oc_ruleset, st, WR_SPECTATOR);
	CHECK(strcmp(a0, a1) == 0, "O13: a hidden enemy moved or hurt changes nothing seat %d gets",
	      seat);
	CHECK(strcmp(s0, s1) == 0, "O13: nor what a spectator gets");
	st->u[h] = keep;
	free(a0);
	free(a1);
	free(s0);
	free(s1);
}

static int
awaited(const struct oc_state *st)
{
	unsigned m = oc_to_act(st);
	int s[2], n = 0;
	for (int k = 0; k < 2; k++)
		if (m & 1u << k)
			s[n++] = k;
	return n ? s[pick((uint32_t)n)] : -1;
}

/* One match; returns its final save() (owned) and the number of steps. */
static char *
play(int g, uint64_t seed, int json_path, int *steps, unsigned *digest)
{
	char ob[512];
	json_object *opts = json_tokener_parse(options_for(g, ob, sizeof(ob)));
	struct wr_rng rng;
	uint64_t rs;
	void *vst = NULL;
	struct wr_error err;
	unsigned h = 2166136261u;

	wr_rng_seeded(&rng, &rs, seed);
	chooser = seed * 2654435761u + 1;
	if (oc_ruleset.create(opts, 2, &rng, &vst, &err) != 0) {
		fprintf(stderr, "create: %s %s (%s)\n", err.code, err.message, ob);
		exit(1);
	}
	json_object_put(opts);
	struct oc_state *st = vst;
	int n = 0;
	for (; n < MAX_STEPS && st->phase != OC_PH_OVER; n++) {
		int seat = awaited(st);
		CHECK(seat >= 0, "a match not over awaits a seat");
		if (seat < 0)
			break;
		if (json_path) {
			json_object *acts = oc_ruleset.actions(st, seat);
			size_t k = json_object_array_length(acts);
			CHECK(k > 0, "G6: an awaited seat has a legal action (game %d)", g);
			if (!k) {
				json_object_put(acts);
				break;
			}
			json_object *a = json_object_array_get_idx(acts, pick((uint32_t)k));
			struct wr_events ev = {0};
			int rc = oc_ruleset.apply(st, seat, a, &rng, &ev, &err);
			CHECK(rc == 0, "an offered action applies: %s (%s %s)",
			      json_object_to_json_string(a), err.code, err.message);
			for (size_t e = 0; e < ev.len; e++) {
				const char *s = json_object_to_json_string(ev.items[e].body);
				for (; *s; s++)
					h = (h ^ (unsigned char)*s) * 16777619u;
			}
			wr_events_free(&ev);
			json_object_put(acts);
			void *copy = NULL;
			json_object *snap = oc_ruleset.save(st);
			if (oc_ruleset.load(snap, &copy, &err) != 0)
				fprintf(stderr, "load: %s %s\n", err.code, err.message);
			json_object_put(snap);
			CHECK(copy != NULL, "a saved state loads");
			if (copy) {
				char *x = save_str(st), *y = save_str(copy);
				CHECK(strcmp(x, y) == 0, "save(load(save)) is save");
				free(x);
				free(y);
				oc_ruleset.free(copy);
			}
			for (int v = WR_EVERYONE; v < 2; v++)
				json_object_put(oc_ruleset.view(st, v));
		} else {
			struct wr_list legal, ev;
			legal_list(st, seat, &legal);
			CHECK(legal.len > 0, "G6: an awaited seat has a legal action (game %d)", g);
			if (!legal.len) {
				wr_list_free(&legal);
				break;
			}
			const struct oc_action *a = wr_list_at(&legal, pick((uint32_t)legal.len));
			wr_list_init(&ev, sizeof(struct oc_event));
			int rc = wr_tpl_do(&oc_template, st, seat, a, &rng, &ev, &err);
			CHECK(rc == 0, "a legal action applies");
			for (size_t e = 0; e < ev.len; e++) {
				const struct oc_event *x = wr_list_at(&ev, e);
				seen_ev[x->type]++;
				h = (h ^ (unsigned)x->type) * 16777619u;
				h = (h ^ (unsigned)(x->to + 7 * x->from)) * 16777619u;
			}
			wr_list_free(&ev);
			wr_list_free(&legal);
		}
		if (st->fog && pick(8) == 0)
			leak_check(st, (int)pick(2));
	}
	CHECK(st->phase == OC_PH_OVER, "game %d ends (round limit %d)", g, st->round_limit);
	*steps = n;
	*digest = h;
	char *s = save_str(st);
	oc_ruleset.free(st);
	return s;
}

int
main(void)
{
	const char *env = getenv("WR_PLAYOUTS");
	int games = env ? atoi(env) : 1000;
	long total = 0;
	int ends[OC_R_MAX] = {0};
	clock_t t0 = clock();

	if (games < 1)
		games = 1;
	for (int g = 0; g < games; g++) {
		int steps, steps2;
		unsigned d1, d2;
		int json_path = g < JSON_GAMES;
		char *a = play(g, 1000 + (uint64_t)g, json_path, &steps, &d1);
		char *b = play(g, 1000 + (uint64_t)g, json_path, &steps2, &d2);
		CHECK(strcmp(a, b) == 0 && steps == steps2 && d1 == d2,
		      "game %d replays byte for byte from its seed", g);
		json_object *j = json_tokener_parse(a), *p;
		if (json_object_object_get_ex(j, "play", &p))
			ends[json_object_get_int(json_object_array_get_idx(p, 20)) % OC_R_MAX]++;
		json_object_put(j);
		total += steps;
		free(a);
		free(b);
		if (failures > 20)
			break;
	}
	printf("officers-chess playouts: %d games x2 (replay), %ld steps, ends:", games, total);
	for (int r = 1; r < OC_R_MAX; r++)
		printf(" %s %d,", oc_reason_names[r], ends[r]);
	printf(" events: combat %ld, special %ld, item %ld, trade %ld, routed %ld, guard asked %ld, tile %ld;",
	       seen_ev[OC_E_COMBAT], seen_ev[OC_E_STAFF], seen_ev[OC_E_USE], seen_ev[OC_E_TRADE],
	       seen_ev[OC_E_ROUTED], seen_ev[OC_E_GUARD_ASKED], seen_ev[OC_E_TILE_HIT]);
	if (games >= 100)
		CHECK(seen_ev[OC_E_COMBAT] > 0 && seen_ev[OC_E_ROUTED] > 0,
		      "playouts fight and rout (not only wander)");
	printf(" %.2f s; %d checks, %d failures\n", (double)(clock() - t0) / CLOCKS_PER_SEC, checks,
	       failures);
	return failures ? 1 : 0;
}
