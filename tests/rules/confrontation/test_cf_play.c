/*
 * Random playouts of Confrontation: WR_PLAYOUTS (default 1,000) seeded
 * matches each of 2, 3 and 4 seats, the four option sets in turn, played
 * to the end by picking among the legal actions (the candidates cf_legal()
 * accepts, each applied as its JSON through the ruleset). On every
 * CHECK_EVERY-th match, after every action: the invariant checker
 * (cf_check plus the checks here), exactly the awaited seats have
 * actions(), one offered action is accepted on a clone, a sample of
 * actions not offered is refused and leaves the state unchanged. Every
 * match is replayed from create() with the same seed and actions and must
 * give the same save().
 *
 * The pick is uniform except that, in play, an action that starts a
 * battle is taken with probability 1/2 when one exists (random play with
 * Move 6 Queens and free Leadership swaps otherwise wanders for a long
 * time); README.md says so too.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../unit/check.h"
#include "../ruleset_test.h"
#include "cf_rules.h"

#define TURN_CAP 3000
/* Full checks on every CHECK_EVERY-th match; the others play and replay.
 * Fewer under AddressSanitizer, which is ~8 times slower; the option
 * sets take turns among the checked matches. */
#ifdef __SANITIZE_ADDRESS__
#define CHECK_EVERY 16
#else
#define CHECK_EVERY 20
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

static struct wrt_log plog;

static json_object *
options_for(int variant, int m)
{
	json_object *o = json_object_new_object();
	switch (variant) {
	case 0:
		break;
	case 1:
		json_object_object_add(o, "races", json_object_new_boolean(1));
		json_object_object_add(o, "treasure", json_object_new_boolean(1));
		json_object_object_add(o, "kings_magic", json_object_new_boolean(1));
		break;
	case 2:
		json_object_object_add(o, "races", json_object_new_boolean(1));
		json_object_object_add(o, "terrain", json_object_new_string("random"));
		json_object_object_add(o, "random_areas", json_object_new_int(1 + m % 4));
		break;
	default:
		json_object_object_add(o, "races", json_object_new_boolean(1));
		json_object_object_add(o, "treasure", json_object_new_boolean(1));
		json_object_object_add(o, "kings_magic", json_object_new_boolean(1));
		json_object_object_add(o, "terrain", json_object_new_string("random"));
		json_object_object_add(o, "army_points", json_object_new_int(5 + m % 26));
		break;
	}
	return o;
}

/* A battle starts: a spell, or a move onto a piece. */
static int
is_battle(const struct cf_state *st, const struct cf_action *a)
{
	if (a->type == CF_A_CAST)
		return 1;
	if (a->type != CF_A_MOVE && a->type != CF_A_FURY && a->type != CF_A_SWIFT)
		return 0;
	return st->board[a->to] >= 0;
}

/* The seat's legal actions, typed: the candidates cf_legal() accepts. */
static void
legal_list(const struct cf_state *st, int seat, struct wr_list *out)
{
	struct wr_list cand;
	struct wr_error err;
	wr_list_init(&cand, sizeof(struct cf_action));
	wr_list_init(out, sizeof(struct cf_action));
	cf_candidates(st, seat, &cand);
	for (size_t i = 0; i < cand.len; i++)
		if (cf_legal(st, seat, wr_list_at(&cand, i), &err) == 0) {
			struct cf_action *a = wr_list_push(out);
			if (a)
				*a = *(const struct cf_action *)wr_list_at(&cand, i);
		}
	wr_list_free(&cand);
}

static int invariant_fail;

/* Checks beyond cf_check: counts, awaited seats and their lists. */
static void
invariants(const struct cf_state *st, const char *where)
{
	struct wr_error err;
	unsigned m = cf_ruleset.to_act(st);
	int seen[64] = {0};
	if (cf_check(st, &err) != 0) {
		invariant_fail++;
		fprintf(stderr, "%s: %s\n", where, err.message);
	}
	for (int s = 0; s < st->nseats; s++) {
		json_object *acts = cf_ruleset.actions(st, s);
		int n = (int)json_object_array_length(acts);
		json_object_put(acts);
		if (((m >> s) & 1) != (n > 0)) {
			invariant_fail++;
			fprintf(stderr, "%s: seat %d awaited=%u actions=%d\n", where, s, (m >> s) & 1, n);
		}
		/* RULINGS.md G3 (amended): a single legal action was taken. */
		if (((m >> s) & 1) && n == 1) {
			invariant_fail++;
			fprintf(stderr, "%s: seat %d awaited with one legal action\n", where, s);
		}
		if (st->s[s].racial < 0 || st->s[s].points < 0)
			invariant_fail++;
		for (int i = 0; i < st->s[s].n; i++) {
			const struct cf_piece *p = &st->s[s].p[i];
			if (p->status == CF_ON) {
				if (seen[p->sq]++ || st->board[p->sq] != s * 16 + i)
					invariant_fail++;
			}
		}
		if (st->phase == CF_PLAY && !st->s[s].out && st->s[s].p[0].status != CF_ON) {
			invariant_fail++;
			fprintf(stderr, "%s: seat %d plays without its King\n", where, s);
		}
	}
	if (st->phase == CF_OVER && m) {
		invariant_fail++;
		fprintf(stderr, "%s: over but awaited %u\n", where, m);
	}
	if (st->phase != CF_OVER && !m) {
		invariant_fail++;
		fprintf(stderr, "%s: nobody awaited in %s\n", where, cf_phase_name[st->phase]);
	}
}

static int refuse_fail, accept_fail, apply_fail, list_fail;

/* How often each event type and each pending decision came up: the
 * playouts must reach every part of the rules. */
#define NTYPES 64
static char *ev_names[NTYPES];
static long ev_counts[NTYPES];

static void
count_event(const char *name)
{
	for (int i = 0; i < NTYPES; i++) {
		if (!ev_names[i]) {
			ev_names[i] = strdup(name);
			ev_counts[i] = 1;
			return;
		}
		if (!strcmp(ev_names[i], name)) {
			ev_counts[i]++;
			return;
		}
	}
}

static long
event_count(const char *name)
{
	for (int i = 0; i < NTYPES && ev_names[i]; i++)
		if (!strcmp(ev_names[i], name))
			return ev_counts[i];
	return 0;
}
static long n_accept, n_refuse, n_actions;

static void
check_refusals(struct cf_state *st, int seat, json_object *acts, struct wr_rng *rng)
{
	/* Not offered: random straight-line moves, a seat not awaited. */
	char *before = wrt_save_str(&cf_ruleset, st);
	unsigned m = cf_ruleset.to_act(st);
	for (int k = 0; k < 4; k++) {
		char buf[96], f[8], t[8];
		int from = (int)pick(64), to = (int)pick(64), offered = 0;
		static const char *kinds[] = {"move", "rise", "swift", "fury"};
		snprintf(buf, sizeof(buf), "{\"type\":\"%s\",\"from\":\"%s\",\"to\":\"%s\"}",
		         kinds[pick(4)], wr_square_name(&wr_board8, from, f),
		         wr_square_name(&wr_board8, to, t));
		json_object *a = json_tokener_parse(buf);
		for (size_t i = 0; i < json_object_array_length(acts) && !offered; i++)
			offered = json_object_equal(a, json_object_array_get_idx(acts, i));
		int s2 = k == 3 ? (int)pick((uint32_t)st->nseats) : seat;
		if (!((m >> s2) & 1))
			offered = 0;
		else if (s2 != seat) {
			json_object_put(a);
			continue;
		}
		if (!offered) {
			struct wr_events ev = {0};
			struct wr_error err;
			n_refuse++;
			if (cf_ruleset.apply(st, s2, a, rng, &ev, &err) == 0) {
				refuse_fail++;
				fprintf(stderr, "accepted a non-offered action %s by seat %d\n", buf, s2);
			} else if (!err.code[0] || !err.message[0]) {
				refuse_fail++;
			}
			wr_events_free(&ev);
		}
		json_object_put(a);
	}
	/* Every square on three of the lines from one of the seat's pieces
	 * (or from an enemy piece: wrong piece) that is not offered is refused. */
	if (st->phase == CF_PLAY) {
		int owner = pick(3) ? seat : (int)pick((uint32_t)st->nseats);
		const struct cf_seat *x = &st->s[owner];
		int id = (int)pick((uint32_t)x->n);
		/* Three of the eight lines, one after the other from a random one. */
		int d0 = (int)pick(WR_DIRS);
		if (x->p[id].status == CF_ON)
			for (int d = d0; d < d0 + 3; d++) {
				int ray[8], n = wr_ray(&wr_board8, x->p[id].sq, d % WR_DIRS, 8, ray);
				for (int k = 0; k < n; k++) {
					char buf[96], f[8], t[8];
					int offered = 0;
					snprintf(buf, sizeof(buf), "{\"type\":\"move\",\"from\":\"%s\",\"to\":\"%s\"}",
					         wr_square_name(&wr_board8, x->p[id].sq, f),
					         wr_square_name(&wr_board8, ray[k], t));
					json_object *a = json_tokener_parse(buf);
					for (size_t i = 0; i < json_object_array_length(acts) && !offered; i++)
						offered = json_object_equal(a, json_object_array_get_idx(acts, i));
					if (!offered) {
						struct wr_events ev = {0};
						struct wr_error err;
						n_refuse++;
						if (cf_ruleset.apply(st, seat, a, rng, &ev, &err) == 0) {
							refuse_fail++;
							fprintf(stderr, "accepted a non-offered move %s\n", buf);
						}
						wr_events_free(&ev);
					}
					json_object_put(a);
				}
			}
	}
	char *after = wrt_save_str(&cf_ruleset, st);
	if (strcmp(before, after) != 0) {
		refuse_fail++;
		fprintf(stderr, "a refused action changed the state\n");
	}
	free(before);
	free(after);
}

static const char *const luck_orders[] = {"ask", "always", "never", "if_losing", "unless_winning"};
static const char *const yn_orders[] = {"ask", "always", "never"};

static void
count_events(const struct wr_events *ev)
{
	for (size_t i = 0; i < ev->len; i++) {
		json_object *t;
		if (!ev->items[i].body || !json_object_object_get_ex(ev->items[i].body, "type", &t)) {
			apply_fail++;
			continue;
		}
		count_event(json_object_get_string(t));
		if (json_object_object_get_ex(ev->items[i].body, "strength", &t))
			count_event("strength");
		if (json_object_object_get_ex(ev->items[i].body, "intimidation", &t))
			count_event("intimidation");
	}
}

/* The pick: uniform, except that in play an action that starts a battle
 * is taken half the time when one exists, and in the build "ready" a
 * third of the time (random armies would otherwise grow for long). */
static const struct cf_action *
choose(const struct cf_state *st, const struct wr_list *legal)
{
	uint32_t n = (uint32_t)legal->len;
	if (st->phase == CF_PLAY && pick(2)) {
		uint32_t nb = 0, k;
		for (size_t i = 0; i < legal->len; i++)
			nb += (uint32_t)is_battle(st, wr_list_at(legal, i));
		if (nb) {
			k = pick(nb);
			for (size_t i = 0; i < legal->len; i++)
				if (is_battle(st, wr_list_at(legal, i)) && k-- == 0)
					return wr_list_at(legal, i);
		}
	}
	if (st->phase == CF_BUILD && pick(3) == 0) {
		const struct cf_action *last = wr_list_at(legal, legal->len - 1);
		if (last->type == CF_A_READY)
			return last;
	}
	return wr_list_at(legal, pick(n));
}

/* The checks of a checked match before the seat acts: actions() is the
 * typed list, another offered action is accepted on a clone, actions not
 * offered are refused. */
static void
check_step(struct cf_state *st, int seat, const struct wr_list *legal, struct wr_rng *rng,
           uint64_t rs)
{
	json_object *acts = cf_ruleset.actions(st, seat);
	size_t n = json_object_array_length(acts);
	struct wr_error err;
	int same = n == legal->len;
	for (size_t i = 0; i < n && same; i++) {
		json_object *j = wr_tpl_action_json(&cf_template, st, wr_list_at(legal, i));
		same = json_object_equal(j, json_object_array_get_idx(acts, i));
		json_object_put(j);
	}
	if (!same) {
		list_fail++;
		fprintf(stderr, "actions() differs from the legal candidates\n");
	}
	void *cl = wrt_clone(&cf_ruleset, st);
	json_object *other = json_object_array_get_idx(acts, pick((uint32_t)n));
	struct wr_events ev = {0};
	uint64_t rs2 = rs ^ 0x5555;
	struct wr_rng r2;
	wr_rng_seeded(&r2, &rs2, rs2);
	n_accept++;
	if (!cl || cf_ruleset.apply(cl, seat, other, &r2, &ev, &err) != 0) {
		accept_fail++;
		fprintf(stderr, "offered action refused: %s: %s\n", json_object_to_json_string(other),
		        cl ? err.message : "clone");
	}
	wr_events_free(&ev);
	if (cl)
		cf_ruleset.free(cl);
	check_refusals(st, seat, acts, rng);
	json_object_put(acts);
}

/* One match; returns 1 when it ended, 0 at the cap, -1 on error. */
static int
playout(int seats, int variant, int m, uint64_t seed, int checks, int *turns)
{
	struct wr_rng rng;
	uint64_t rs;
	struct wr_error err;
	void *vst;
	json_object *opts = options_for(variant, m);
	int rc = -1;
	wr_rng_seeded(&rng, &rs, seed);
	pick_state = seed * 0x9E3779B97F4A7C15ull + 1;
	wrt_log_clear(&plog);
	if (cf_ruleset.create(opts, seats, &rng, &vst, &err) != 0) {
		fprintf(stderr, "create: %s\n", err.message);
		json_object_put(opts);
		return -1;
	}
	struct cf_state *st = vst;
	/* Standing orders for some seats; the others are asked. */
	for (int s = 0; s < seats; s++)
		if (pick(2)) {
			char buf[128];
			snprintf(buf, sizeof(buf),
			         "{\"hold_the_line\":\"%s\",\"luck\":\"%s\",\"live_again\":\"%s\"}",
			         yn_orders[pick(3)], luck_orders[pick(5)], yn_orders[pick(3)]);
			json_object *o = json_tokener_parse(buf);
			if (cf_ruleset.set_orders(st, s, o, &err) != 0)
				apply_fail++;
			json_object_put(o);
			wrt_log_add(&plog, WRT_ORDERS, s, buf);
		}
	while (st->phase != CF_OVER && st->turn < TURN_CAP) {
		unsigned mask = cf_ruleset.to_act(st);
		int cand[4], nc = 0;
		for (int s = 0; s < seats; s++)
			if (mask & (1u << s))
				cand[nc++] = s;
		if (!nc) {
			fprintf(stderr, "nobody to act (seed %llu)\n", (unsigned long long)seed);
			goto out;
		}
		/* Rarely, in 3-4 seat games, a seat resigns. */
		if (seats > 2 && pick(1500) == 0) {
			int s = (int)pick((uint32_t)seats);
			struct wr_events ev = {0};
			cf_ruleset.resign(st, s, &rng, &ev);
			count_events(&ev);
			wr_events_free(&ev);
			wrt_log_add(&plog, WRT_RESIGN, s, NULL);
			if (checks)
				invariants(st, "after resign");
			continue;
		}
		int seat = cand[pick((uint32_t)nc)];
		struct wr_list legal;
		legal_list(st, seat, &legal);
		if (!legal.len) {
			fprintf(stderr, "awaited seat %d has no action\n", seat);
			wr_list_free(&legal);
			goto out;
		}
		const struct cf_action *choice = choose(st, &legal);
		if (checks)
			check_step(st, seat, &legal, &rng, rs);
		{
			char k[64];
			const char *pk = cf_pending_kind(st, seat);
			snprintf(k, sizeof(k), "asked:%s", pk ? pk : "-");
			if (pk && strcmp(pk, "turn") && strcmp(pk, "place") && strcmp(pk, "build"))
				count_event(k);
			/* R8 (amended): a Fury asked on another seat's turn. */
			if (pk && !strcmp(pk, "battle_fury") && seat != st->active)
				count_event("asked:battle_fury_off_turn");
		}
		json_object *cj = wr_tpl_action_json(&cf_template, st, choice);
		const char *cs = json_object_to_json_string_ext(cj, JSON_C_TO_STRING_PLAIN);
		struct wr_events ev = {0};
		wrt_log_add(&plog, WRT_ACTION, seat, cs);
		n_actions++;
		wr_list_free(&legal);
		if (cf_ruleset.apply(st, seat, cj, &rng, &ev, &err) != 0) {
			apply_fail++;
			fprintf(stderr, "apply refused an offered action %s: %s %s\n", cs, err.code,
			        err.message);
			wr_events_free(&ev);
			json_object_put(cj);
			goto out;
		}
		json_object_put(cj);
		count_events(&ev);
		wr_events_free(&ev);
		if (checks)
			invariants(st, "after apply");
	}
	rc = st->phase == CF_OVER;
	*turns = st->turn;
	if (!rc && getenv("CF_DEBUG")) {
		json_object *v = cf_ruleset.view(st, WR_EVERYONE);
		fprintf(stderr, "capped: %s\n", json_object_to_json_string(v));
		json_object_put(v);
	}
	{
		struct wr_result res;
		cf_ruleset.result(st, &res);
		if (rc == 1 && (!res.over || !res.reason[0]))
			apply_fail++;
		if (rc == 1 && cf_ruleset.to_act(st) != 0)
			apply_fail++;
	}
	/* Replay: same options, seed and actions, same save(). */
	{
		char *final = wrt_save_str(&cf_ruleset, st), *again;
		uint64_t rs3;
		struct wr_rng r3;
		json_object *o2 = options_for(variant, m);
		wr_rng_seeded(&r3, &rs3, seed);
		apply_fail += wrt_replay(&cf_ruleset, o2, seats, &r3, &plog, &again);
		CHECK(again && strcmp(final, again) == 0, "replay gives the same save() byte for byte");
		free(again);
		json_object_put(o2);
		free(final);
	}
out:
	cf_ruleset.free(st);
	json_object_put(opts);
	return rc;
}

int
main(void)
{
	clock_t t0 = clock();
	int per = wrt_playouts(1000);
	for (int seats = 2; seats <= 4; seats++) {
		int ended = 0, capped = 0, errors = 0;
		long turns_sum = 0;
		for (int m = 0; m < per; m++) {
			int turns = 0;
			uint64_t seed = (uint64_t)seats * 1000003u + (uint64_t)m * 7919u + 17u;
			int rc = playout(seats, m % 4, m, seed, m % CHECK_EVERY == (m / CHECK_EVERY) % 4,
			                 &turns);
			if (rc == 1) {
				ended++;
				turns_sum += turns;
			} else if (rc == 0) {
				capped++;
			} else {
				errors++;
			}
		}
		printf("%d seats: %d ended (mean %ld turns), %d hit the %d-turn cap, %d errors\n",
		       seats, ended, ended ? turns_sum / ended : 0, capped, TURN_CAP, errors);
		CHECK(errors == 0, "no playout errors");
		CHECK(capped * 100 <= per, "at most 1% of matches hit the turn cap");
	}
	printf("actions %ld, offered-accepted checks %ld, refusal checks %ld, %.1f s\n", n_actions,
	       n_accept, n_refuse, (double)(clock() - t0) / CLOCKS_PER_SEC);
	for (int i = 0; i < NTYPES && ev_names[i]; i++)
		printf("  %-22s %ld\n", ev_names[i], ev_counts[i]);
	static const char *const must[] = {
		"battle", "battle_result", "removed", "advance", "strength", "intimidation", "treasure_roll",
		"live_again", "luck", "hold_the_line", "rise_from_hell", "stay", "swift_movement",
		"battle_fury", "fury_move", "cast", "healed", "panic_moved", "leadership",
		"seat_out", "resigned", "game_over", "turn_end", "asked:hold_the_line",
		"asked:luck", "asked:live_again", "asked:panic_square", "asked:order",
		"asked:rise_move", "asked:battle_fury", "asked:battle_fury_off_turn", NULL};
	for (int i = 0; must[i]; i++) {
		char what[96];
		snprintf(what, sizeof(what), "the playouts reach %s", must[i]);
		CHECK(event_count(must[i]) > 0, what);
	}
	CHECK(invariant_fail == 0, "invariants hold after every action");
	CHECK(accept_fail == 0, "every offered action is accepted");
	CHECK(list_fail == 0, "actions() lists exactly the candidates cf_legal() accepts");
	CHECK(refuse_fail == 0, "actions not offered are refused, state unchanged");
	CHECK(apply_fail == 0, "apply accepts what it offered");
	wrt_log_free(&plog);
	return check_done("confrontation playouts");
}
