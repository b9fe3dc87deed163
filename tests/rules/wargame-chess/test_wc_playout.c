/* Seeded random playouts of Wargame Chess to the end (a victory or the end
 * of Turn 10), WR_PLAYOUTS of them (default 1,000): invariants after every
 * apply, offered actions accepted on a clone, non-offered ones refused with
 * the state unchanged, and every match replayed from create() with the same
 * seed and actions to the identical final save(). One game in JSON_EVERY
 * goes through the JSON interface (actions() and apply() on save/load
 * clones); the others through the template's typed path (candidates
 * filtered by wc_legal, wr_tpl_do on struct copies), which is the same
 * rule code without the JSON cost. */
#include <time.h>

#include "wc_test.h"

#define FULL_CHECK_GAMES 6     /* every offered action tried on a clone */
#define JSON_EVERY 10
#define MAX_STEPS 4000

static uint64_t chooser;

static uint32_t
pick(uint32_t n)
{
	chooser ^= chooser << 13;
	chooser ^= chooser >> 7;
	chooser ^= chooser << 17;
	return (uint32_t)(chooser % n);
}

static char *
save_str(const void *st)
{
	json_object *j = wc_ruleset.save(st);
	char *s = strdup(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN));
	json_object_put(j);
	return s;
}

static int bad_invariant;

static void
invariants(const struct wc_state *st)
{
	int seen[64] = {0}, ok = 1;
	unsigned m = wc_to_act(st);

	for (int i = 0; i < st->npieces; i++) {
		const struct wc_piece *p = &st->pieces[i];
		if (p->adv && p->dis)
			ok = 0;                       /* tokens cancel on receipt */
		if (p->adv < 0 || p->dis < 0)
			ok = 0;
		if (p->where != WC_ON)
			continue;
		if (p->sq < 0 || p->sq > 63 || wc_is_tree(st, p->sq))
			ok = 0;
		seen[p->sq]++;
	}
	for (int s = 0; s < 64; s++) {
		int shared = st->phase == WC_PH_PLAY &&
		             (st->stage == WC_ST_DEFEND || st->stage == WC_ST_COMBAT) && s == st->atk.sq;
		if (seen[s] > (shared ? 2 : 1))
			ok = 0;
	}
	if (st->over != (m == 0))
		ok = 0;
	if (st->phase == WC_PH_PLAY && (st->turn < 1 || st->turn > WC_LAST_TURN))
		ok = 0;
	if (st->phase == WC_PH_PLAY && !st->over)
		for (int s = 0; s < WC_SEATS; s++) {
			int on = 0;
			for (int i = 0; i < st->npieces; i++)
				on += st->pieces[i].seat == s && st->pieces[i].where == WC_ON;
			if (!on)
				ok = 0;
		}
	if (!ok && !bad_invariant++) {
		char *s = save_str(st);
		fprintf(stderr, "invariant broken: %s\n", s);
		free(s);
	}
	CHECK(ok, "invariants hold after every apply");
}

/* Candidate actions in canonical form, legal or not. */
static char *
random_candidate(const struct wc_state *st)
{
	char buf[128], s1[8];
	static const char *const kinds[] = {"move", "activate", "attack", "stay", "end", "deploy",
	                                    "combat_move", "defend", "promote"};
	int k = (int)pick(9), sqr = (int)pick(64);

	wr_square_name(&wr_board8, sqr, s1);
	switch (k) {
	case 0: snprintf(buf, sizeof(buf), "{\"type\":\"move\",\"to\":\"%s\"}", s1); break;
	case 1: snprintf(buf, sizeof(buf), "{\"type\":\"activate\",\"square\":\"%s\"}", s1); break;
	case 2: snprintf(buf, sizeof(buf), "{\"type\":\"attack\",\"to\":\"%s\"}", s1); break;
	case 5: snprintf(buf, sizeof(buf), "{\"type\":\"deploy\",\"piece\":\"pawn\",\"square\":\"%s\"}", s1); break;
	case 6: snprintf(buf, sizeof(buf), "{\"type\":\"combat_move\",\"option\":\"push\",\"square\":\"%s\"}", s1); break;
	case 7: snprintf(buf, sizeof(buf), "{\"type\":\"defend\",\"advantage\":%s}", pick(2) ? "true" : "false"); break;
	case 8: snprintf(buf, sizeof(buf), "{\"type\":\"promote\",\"piece\":%d}", (int)pick(30)); break;
	default: snprintf(buf, sizeof(buf), "{\"type\":\"%s\"}", kinds[k]); break;
	}
	(void)st;
	return strdup(buf);
}

struct step {
	int seat;
	char *json;
};

static int finished, by_points, draws, refused_ok, accepted_ok;

/* A match created with game g's seed (again for its replay). */
static void *
start(json_object *opt, int g, struct wr_rng *rng, uint64_t *rs)
{
	void *st = NULL;
	struct wr_error err;

	wr_rng_seeded(rng, rs, (uint64_t)g + 1);
	CHECK(wc_ruleset.create(opt, 2, rng, &st, &err) == 0, "create");
	return st;
}

/* A played match: it ended, nobody is awaited; its save(), then it is freed. */
static char *
ended(void *st)
{
	struct wr_result res;
	char *final;

	wc_ruleset.result(st, &res);
	CHECK(res.over, "the match ends (victory or Turn 10)");
	finished += res.over;
	by_points += strstr(res.reason, "Turn 10") != NULL;
	draws += res.over && res.winners == 0;
	CHECK(wc_ruleset.to_act(st) == 0, "nobody is awaited at the end");
	final = save_str(st);
	wc_ruleset.free(st);
	return final;
}

static void
json_game(int g)
{
	static struct step steps[MAX_STEPS];
	{
		uint64_t rs;
		struct wr_rng rng;
		void *st = NULL;
		struct wr_error err;
		json_object *opt = json_object_new_object();
		int nsteps = 0;
		char *final;

		json_object_object_add(opt, "first_trees",
		                       json_object_new_string(g % 2 ? "random" : "seat0"));
		chooser = 0x2545F4914F6CDD1Dull ^ (uint64_t)(g + 1) * 0x9E3779B97F4A7C15ull;
		st = start(opt, g, &rng, &rs);
		while (!((struct wc_state *)st)->over && nsteps < MAX_STEPS) {
			unsigned m = wc_ruleset.to_act(st);
			int seat = m == 3 ? (int)pick(2) : m == 2 ? 1 : 0;
			json_object *acts = wc_ruleset.actions(st, seat), *other;
			int n = (int)json_object_array_length(acts);
			CHECK(n > 0, "an awaited seat has an action");
			other = wc_ruleset.actions(st, 1 - seat);
			CHECK(((m >> (1 - seat)) & 1) || json_object_array_length(other) == 0,
			      "a seat not awaited has no action");
			json_object_put(other);
			if (n == 0) {
				json_object_put(acts);
				break;
			}
			/* Offered actions are accepted (on a clone). */
			int full = g < FULL_CHECK_GAMES * JSON_EVERY;
			for (int i = 0; i < (full ? n : 1); i++) {
				int k = full ? i : (int)pick((uint32_t)n);
				void *cl = wc_clone(st);
				uint64_t cs;
				struct wr_rng crng;
				wr_rng_seeded(&crng, &cs, (uint64_t)g * 7919 + (uint64_t)i + 3);
				CHECK(cl != NULL, "save/load clone");
				if (cl) {
					int rc = wc_ruleset.apply(cl, seat, json_object_array_get_idx(acts, (size_t)k),
					                          &crng, &test_ev, &err);
					CHECK(rc == 0, "an offered action is accepted");
					if (rc)
						fprintf(stderr, "refused %s: %s %s\n",
						        json_object_to_json_string(json_object_array_get_idx(acts, (size_t)k)),
						        err.code, err.message);
					else
						accepted_ok++;
					invariants(cl);
					wc_ruleset.free(cl);
				}
				wr_events_free(&test_ev);
			}
			/* A non-offered candidate is refused, state unchanged. */
			for (int t = 0; t < 1; t++) {
				char *cand = random_candidate(st);
				json_object *cj = json_tokener_parse(cand);
				int offered = 0;
				for (int i = 0; i < n; i++)
					offered |= json_object_equal(cj, json_object_array_get_idx(acts, (size_t)i));
				if (!offered) {
					static struct wc_state before;
					uint64_t cs;
					struct wr_rng crng;
					wr_rng_seeded(&crng, &cs, 99);
					before = *(struct wc_state *)st;
					int rc = wc_ruleset.apply(st, seat, cj, &crng, &test_ev, &err);
					CHECK(rc != 0 && err.code[0], "a non-offered action is refused");
					CHECK(memcmp(&before, st, sizeof(before)) == 0,
					      "a refusal leaves the state unchanged");
					CHECK(crng.count == 0, "a refusal draws no dice");
					refused_ok += rc != 0;
					if (rc == 0)
						fprintf(stderr, "accepted non-offered %s\n", cand);
					wr_events_free(&test_ev);
				}
				json_object_put(cj);
				free(cand);
			}
			/* Play one offered action. */
			int k = (int)pick((uint32_t)n);
			const char *js = json_object_to_json_string_ext(json_object_array_get_idx(acts, (size_t)k),
			                                                JSON_C_TO_STRING_PLAIN);
			steps[nsteps].seat = seat;
			steps[nsteps].json = strdup(js);
			nsteps++;
			CHECK(wc_ruleset.apply(st, seat, json_object_array_get_idx(acts, (size_t)k), &rng,
			                       &test_ev, &err) == 0,
			      "the chosen action applies");
			wr_events_free(&test_ev);
			json_object_put(acts);
			invariants(st);
		}
		final = ended(st);

		/* Replay: same seed, same actions, same final save. */
		st = start(opt, g, &rng, &rs);
		for (int i = 0; i < nsteps; i++) {
			CHECK(wc_apply_str(st, steps[i].seat, steps[i].json, &rng, &err) == 0, "replay step");
			wr_events_free(&test_ev);
			free(steps[i].json);
		}
		char *again = save_str(st);
		CHECK(strcmp(final, again) == 0, "the replay ends in the identical save()");
		free(again);
		free(final);
		wc_ruleset.free(st);
		json_object_put(opt);
	}
}

/* The legal actions of the seat: the candidates wc_legal accepts. */
static int
legal_list(const struct wc_state *st, int seat, struct wr_list *out)
{
	struct wr_list cand;

	wr_list_init(&cand, sizeof(struct wc_action));
	wr_list_init(out, sizeof(struct wc_action));
	wc_candidates(st, seat, &cand);
	for (size_t i = 0; i < cand.len; i++)
		if (wc_legal(st, seat, wr_list_at(&cand, i), NULL) == 0)
			*(struct wc_action *)wr_list_push(out) = *(struct wc_action *)wr_list_at(&cand, i);
	wr_list_free(&cand);
	return (int)out->len;
}

static void
random_typed(struct wc_action *a)
{
	static const int kinds[] = {WC_A_MOVE, WC_A_ACTIVATE, WC_A_ATTACK, WC_A_STAY, WC_A_END,
	                            WC_A_DEPLOY, WC_A_COMBAT, WC_A_DEFEND, WC_A_PROMOTE};
	int k = kinds[pick(9)];

	/* Only the fields of its kind, as candidates have them. */
	wc_action_init(a, k);
	if (k != WC_A_STAY && k != WC_A_END && k != WC_A_DEFEND && k != WC_A_PROMOTE)
		a->sq = (int)pick(64);
	if (k == WC_A_ATTACK || k == WC_A_DEFEND)
		a->advantage = (int)pick(2);
	if (k == WC_A_PROMOTE)
		a->piece = (int)pick(30);
	if (k == WC_A_COMBAT)
		a->combat = (int)pick(2);
	if (k == WC_A_DEPLOY)
		snprintf(a->option, sizeof(a->option), "%s", pick(2) ? "pawn" : "king");
}

struct typed_step {
	int seat;
	struct wc_action a;
};

static void
typed_game(int g)
{
	static struct typed_step steps[MAX_STEPS];
	static struct wc_state copy, before;
	struct wr_list ev = {.size = sizeof(struct wc_event)};
	uint64_t rs, cs;
	struct wr_rng rng, crng;
	void *st = NULL;
	struct wr_error err;
	json_object *opt = json_object_new_object();
	int nsteps = 0;
	char *final, *again;

	json_object_object_add(opt, "first_trees", json_object_new_string(g % 2 ? "random" : "seat0"));
	chooser = 0x2545F4914F6CDD1Dull ^ (uint64_t)(g + 1) * 0x9E3779B97F4A7C15ull;
	st = start(opt, g, &rng, &rs);
	while (!((struct wc_state *)st)->over && nsteps < MAX_STEPS) {
		unsigned m = wc_to_act(st);
		int seat = m == 3 ? (int)pick(2) : m == 2 ? 1 : 0, n, k;
		struct wr_list acts, other;
		struct wc_action cand;
		n = legal_list(st, seat, &acts);
		CHECK(n > 0, "an awaited seat has an action");
		legal_list(st, 1 - seat, &other);
		CHECK(((m >> (1 - seat)) & 1) || other.len == 0, "a seat not awaited has no action");
		wr_list_free(&other);
		if (n == 0) {
			wr_list_free(&acts);
			break;
		}
		/* An offered action is accepted (on a copy). */
		copy = *(struct wc_state *)st;
		wr_rng_seeded(&crng, &cs, (uint64_t)g * 7919 + 3);
		k = (int)pick((uint32_t)n);
		CHECK(wr_tpl_do(&wc_template, &copy, seat, wr_list_at(&acts, (size_t)k), &crng, &ev,
		                &err) == 0, "an offered action is accepted");
		accepted_ok++;
		invariants(&copy);
		wr_list_free(&ev);
		/* A non-offered candidate is refused, state unchanged. */
		random_typed(&cand);
		{
			int offered = 0;
			for (int i = 0; i < n && !offered; i++)
				offered = memcmp(&cand, wr_list_at(&acts, (size_t)i), sizeof(cand)) == 0;
			if (!offered) {
				before = *(struct wc_state *)st;
				wr_rng_seeded(&crng, &cs, 99);
				CHECK(wr_tpl_do(&wc_template, st, seat, &cand, &crng, &ev, &err) != 0 &&
				          err.code[0], "a non-offered action is refused");
				CHECK(memcmp(&before, st, sizeof(before)) == 0 && crng.count == 0 && ev.len == 0,
				      "a refusal changes nothing and draws no dice");
				refused_ok++;
			}
		}
		k = (int)pick((uint32_t)n);
		steps[nsteps].seat = seat;
		steps[nsteps].a = *(struct wc_action *)wr_list_at(&acts, (size_t)k);
		CHECK(wr_tpl_do(&wc_template, st, seat, &steps[nsteps].a, &rng, &ev, &err) == 0,
		      "the chosen action applies");
		nsteps++;
		wr_list_free(&ev);
		wr_list_free(&acts);
		invariants(st);
	}
	final = ended(st);
	st = start(opt, g, &rng, &rs);
	for (int i = 0; i < nsteps; i++) {
		CHECK(wr_tpl_do(&wc_template, st, steps[i].seat, &steps[i].a, &rng, &ev, &err) == 0,
		      "replay step");
		wr_list_free(&ev);
	}
	again = save_str(st);
	CHECK(strcmp(final, again) == 0, "the replay ends in the identical save()");
	free(again);
	free(final);
	wc_ruleset.free(st);
	json_object_put(opt);
}

int
main(void)
{
	clock_t t0 = clock();
	int games = wc_playouts(1000);

	for (int g = 0; g < games; g++) {
		if (g % JSON_EVERY == 0)
			json_game(g);
		else
			typed_game(g);
	}
	printf("%d/%d finished, %d at Turn 10, %d draws; %d offered accepted, %d refused; %.1fs\n",
	       finished, games, by_points, draws, accepted_ok, refused_ok,
	       (double)(clock() - t0) / CLOCKS_PER_SEC);
	return check_done("wargame-chess playouts");
}
