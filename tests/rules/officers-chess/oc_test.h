/* Shared helpers of the Officers Chess tests. */
#ifndef OC_TEST_H
#define OC_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oc_rules.h"
#include "officers_chess.h"

static int checks, failures;

#define CHECK(cond, ...) do { \
	checks++; \
	if (!(cond)) { \
		failures++; \
		fprintf(stderr, "%s:%d: FAIL: ", __FILE__, __LINE__); \
		fprintf(stderr, __VA_ARGS__); \
		fprintf(stderr, "\n"); \
	} \
} while (0)

static __attribute__((unused)) int
sq(const char *name)
{
	return wr_square_parse(&wr_board8, name);
}

/* A state from options given as JSON text (NULL: defaults). */
static __attribute__((unused)) struct oc_state *
make(const char *options)
{
	json_object *o = options ? json_tokener_parse(options) : NULL;
	struct wr_error err;
	struct wr_rng rng;
	uint64_t s;
	void *st = NULL;

	wr_rng_seeded(&rng, &s, 1);
	if (oc_ruleset.create(o, 2, &rng, &st, &err) != 0) {
		fprintf(stderr, "create failed: %s %s\n", err.code, err.message);
		exit(1);
	}
	json_object_put(o);
	return st;
}

static __attribute__((unused)) char *
save_str(const void *st)
{
	json_object *j = oc_ruleset.save(st);
	char *s = strdup(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN));
	json_object_put(j);
	return s;
}

/* The legal actions of a seat, typed (the candidates legal() accepts). */
static __attribute__((unused)) void
legal_list(const struct oc_state *st, int seat, struct wr_list *out)
{
	struct wr_list cand;
	struct wr_error err;

	wr_list_init(out, sizeof(struct oc_action));
	wr_list_init(&cand, sizeof(struct oc_action));
	oc_candidates(st, seat, &cand);
	for (size_t i = 0; i < cand.len; i++) {
		const struct oc_action *a = wr_list_at(&cand, i);
		if (oc_legal(st, seat, a, &err) == 0)
			*(struct oc_action *)wr_list_push(out) = *a;
	}
	wr_list_free(&cand);
}

static __attribute__((unused)) struct oc_action
act(enum oc_act type)
{
	struct oc_action a;
	memset(&a, 0, sizeof(a));
	a.type = type;
	a.at = a.to = a.target = a.slot = a.give = a.take = a.with = -1;
	return a;
}

/* Puts a unit on the map directly (positions built in C). */
static __attribute__((unused)) int
put_unit(struct oc_state *st, int seat, const char *cls, const char *at, const char *i0,
         const char *i1, const char *i2)
{
	struct oc_unit *u = &st->u[st->nu];
	const char *it[3] = {i0, i1, i2};

	memset(u, 0, sizeof(*u));
	snprintf(u->name, sizeof(u->name), "U%d", st->nu);
	u->seat = seat;
	u->cls = oc_class_find(cls);
	if (u->cls < 0) {
		fprintf(stderr, "no class %s\n", cls);
		exit(1);
	}
	u->hp = oc_classes[u->cls].hp;
	u->where = OC_W_MAP;
	u->sq = sq(at);
	u->equip = u->acc = -1;
	for (int k = 0; k < 3; k++) {
		u->item[k] = it[k] ? oc_item_find(it[k]) : -1;
		if (it[k] && u->item[k] < 0) {
			fprintf(stderr, "no item %s\n", it[k]);
			exit(1);
		}
		u->uses[k] = u->item[k] >= 0 ? oc_items[u->item[k]].uses : 0;
		if (u->item[k] >= 0 && u->equip < 0 && oc_items[u->item[k]].kind == OC_WEAPON &&
		    oc_items[u->item[k]].wtype != OC_STAFF)
			u->equip = k;
		if (u->item[k] >= 0 && u->acc < 0 && oc_items[u->item[k]].kind == OC_ACCESSORY)
			u->acc = k;
	}
	return st->nu++;
}

/* A battle position: phase battle, round 1, seat `seat` to act, nothing
 * active; armies are whatever put_unit placed (nunits set to fit). */
static __attribute__((unused)) void
battle(struct oc_state *st, int seat)
{
	int per[2] = {0, 0};
	for (int i = 0; i < st->nu; i++)
		per[st->u[i].seat]++;
	st->nunits = per[0] > per[1] ? per[0] : per[1];
	st->phase = OC_PH_BATTLE;
	st->round = 1;
	st->cur = seat;
	st->left = st->act[seat];
	st->active = -1;
}

static __attribute__((unused)) int
do_act(struct oc_state *st, int seat, struct oc_action a, struct wr_rng *rng,
       struct wr_list *ev, struct wr_error *err)
{
	return wr_tpl_do(&oc_template, st, seat, &a, rng, ev, err);
}

#endif
