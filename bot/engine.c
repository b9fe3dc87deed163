/* The computer player (issue 27): single-observer information-set Monte
 * Carlo tree search (SO-ISMCTS; Cowling, Powley and Whitehouse 2012) over
 * the ruleset template. It sees only a seat's view: every iteration asks
 * the ruleset's determinize hook for a full state consistent with that
 * view, drawn with the engine's own seeded generator, then descends one
 * tree shared by all determinizations, where a node's children are keyed
 * by the canonical JSON of the action that leads to them and a child is
 * counted as available only in the determinizations that allow it.
 * Dice in simulations come from the same generator, never from a match's
 * stream. No globals: each call owns its tree and its generator. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

/* Iterations by level: level 1 is a handful of playouts (close to random,
 * but it still prefers a move that wins at once), level 4 about 2 s of
 * CPU a decision on the reference machine (bot/README.md), every ruleset
 * alike. Confrontation's level 4 once searched 10,000: on seeds
 * 9001-9040 it won 36 where 5,000 won 38, at a p99 of 2.6 s a decision
 * against 1.2 s. Iterations, not a clock: a decision stays the same for
 * the same view and seed. */
static const long level_budget[WB_LEVELS] = {50, 300, 1500, 5000};

/* UCB1 exploration constant with rewards in [0, 1]. */
#define WB_UCB_C 0.7

long
wb_level_iterations(int level)
{
	if (level < 1)
		level = 1;
	if (level > WB_LEVELS)
		level = WB_LEVELS;
	return level_budget[level - 1];
}

struct node {
	char *key;               /* the action's canonical JSON; NULL at the root */
	uint64_t hash;
	int seat;                /* the seat that chose this action */
	int parent, child, next; /* indices; -1 none */
	double reward;           /* sum, from `seat`'s point of view */
	long visits, avail;
};

struct tree {
	struct node *n;
	int len, cap;
};

static uint64_t
fnv(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static int
tree_add(struct tree *t, int parent, const char *key, int seat)
{
	if (t->len == t->cap) {
		int cap = t->cap ? t->cap * 2 : 1024;
		struct node *p = realloc(t->n, (size_t)cap * sizeof(*p));
		if (!p)
			return -1;
		t->n = p;
		t->cap = cap;
	}
	struct node *x = &t->n[t->len];
	memset(x, 0, sizeof(*x));
	x->key = key ? strdup(key) : NULL;
	if (key && !x->key)
		return -1;
	x->hash = key ? fnv(key) : 0;
	x->seat = seat;
	x->parent = parent;
	x->child = -1;
	x->next = -1;
	if (parent >= 0) {
		x->next = t->n[parent].child;
		t->n[parent].child = t->len;
	}
	return t->len++;
}

static void
tree_free(struct tree *t)
{
	for (int i = 0; i < t->len; i++)
		free(t->n[i].key);
	free(t->n);
}

/* The seat to act in a simulation: when several are awaited at once
 * (simultaneous set-up), one of them drawn. Taking the lowest first would
 * let a seat put off the others' set-up by never finishing its own (a
 * hidden army is rebuilt from nothing, so the others' set-up only ever
 * costs it): the search then stalls in set-up (ChessWar's deploy and
 * undeploy, measured). */
static int
awaited(const struct wr_ruleset *rs, const void *st, struct wr_rng *rng)
{
	unsigned m = rs->to_act(st);
	int seats[WR_MAX_SEATS], n = 0;
	for (int s = 0; s < WR_MAX_SEATS; s++)
		if (m & (1u << s))
			seats[n++] = s;
	return n ? seats[n > 1 ? rng->next(rng, (uint32_t)n) : 0] : -1;
}

static const char *
canon(json_object *a)
{
	return json_object_to_json_string_ext(a, JSON_C_TO_STRING_PLAIN);
}

static int
apply(const struct wr_ruleset *rs, void *st, int seat, json_object *a, struct wr_rng *rng)
{
	struct wr_events ev = {0};
	struct wr_error err;
	int rc = rs->apply(st, seat, a, rng, &ev, &err);
	wr_events_free(&ev);
	return rc;
}

/* Each seat's reward in [0, 1]: 1 a win (shared by the winners), 0 a
 * loss, 0.5 each in a draw; a position not ended is scored by the
 * ruleset's evaluate hook, else 0.5. */
static void
score(const struct wr_ruleset *rs, const void *st, unsigned seats, double *out)
{
	struct wr_result res;
	rs->result(st, &res);
	for (int s = 0; s < WR_MAX_SEATS; s++) {
		if (!(seats & (1u << s)))
			continue;
		if (res.over)
			out[s] = res.winners ? ((res.winners >> s) & 1u ? 1.0 : 0.0) : 0.5;
		else
			out[s] = rs->evaluate ? rs->evaluate(st, s) : 0.5;
	}
}

/* The seat's legal actions the search considers: all but those the
 * ruleset's bot_skips leaves out, unless it would leave out every one. */
static json_object *
bot_actions(const struct wr_ruleset *rs, const void *st, int who)
{
	json_object *acts = rs->actions(st, who), *kept;
	size_t k = json_object_array_length(acts);

	if (!rs->bot_skips || !(kept = json_object_new_array_ext((int)k)))
		return acts;
	for (size_t i = 0; i < k; i++) {
		json_object *a = json_object_array_get_idx(acts, i);
		if (!rs->bot_skips(st, who, a))
			json_object_array_add(kept, json_object_get(a));
	}
	if (json_object_array_length(kept) == 0 || json_object_array_length(kept) == k) {
		json_object_put(kept);
		return acts;
	}
	json_object_put(acts);
	return kept;
}

/* A random playout of at most `depth` posts. */
static void
playout(const struct wr_ruleset *rs, void *st, int depth, struct wr_rng *rng)
{
	for (int d = 0; d < depth; d++) {
		struct wr_result res;
		rs->result(st, &res);
		int who = awaited(rs, st, rng);
		if (res.over || who < 0)
			return;
		json_object *acts = bot_actions(rs, st, who);
		size_t k = json_object_array_length(acts);
		int rc = k ? apply(rs, st, who, json_object_array_get_idx(acts, rng->next(rng, (uint32_t)k)),
		                   rng) : -1;
		json_object_put(acts);
		if (rc != 0)
			return;
	}
}

static double
ucb(const struct node *c)
{
	if (!c->visits)
		return 1e9;
	return c->reward / (double)c->visits +
	       WB_UCB_C * sqrt(log((double)(c->avail > 1 ? c->avail : 1)) / (double)c->visits);
}

/* One iteration on the determinization `st` (consumed). The root's
 * actions are the bot seat's; deeper, the seat awaited in that state. */
static int
iterate(const struct wr_ruleset *rs, struct tree *t, void *st, int seat, int cap,
        struct wr_rng *rng)
{
	int cur = 0, depth = 0;
	int path[512], np = 0;
	double r[WR_MAX_SEATS];

	path[np++] = 0;
	for (;;) {
		struct wr_result res;
		rs->result(st, &res);
		int who = depth == 0 ? seat : awaited(rs, st, rng);
		if (res.over || who < 0 || np >= (int)(sizeof(path) / sizeof(path[0])))
			break;
		json_object *acts = bot_actions(rs, st, who);
		size_t k = json_object_array_length(acts);
		if (!k) {
			json_object_put(acts);
			break;
		}
		/* Availability: every child this determinization allows; the
		 * first action without a child is expanded. */
		int best = -1, fresh = -1, nfresh = 0;
		double bv = -1;
		json_object *fresh_a = NULL, *best_a = NULL;
		for (size_t i = 0; i < k; i++) {
			json_object *a = json_object_array_get_idx(acts, i);
			const char *key = canon(a);
			uint64_t h = fnv(key);
			int c = t->n[cur].child;
			while (c >= 0 && (t->n[c].hash != h || strcmp(t->n[c].key, key) != 0))
				c = t->n[c].next;
			if (c < 0) {
				if (rng->next(rng, (uint32_t)++nfresh) == 0) {
					fresh = (int)i;
					fresh_a = a;
				}
				continue;
			}
			t->n[c].avail++;
			double v = ucb(&t->n[c]);
			if (v > bv) {
				bv = v;
				best = c;
				best_a = a;
			}
		}
		if (fresh >= 0) {
			int c = tree_add(t, cur, canon(fresh_a), who);
			if (c < 0) {
				json_object_put(acts);
				return -1;
			}
			t->n[c].avail++;
			int rc = apply(rs, st, who, fresh_a, rng);
			json_object_put(acts);
			if (rc != 0)
				return -1;
			path[np++] = c;
			playout(rs, st, cap, rng);
			break;
		}
		int rc = apply(rs, st, who, best_a, rng);
		json_object_put(acts);
		if (rc != 0)
			return -1;
		cur = best;
		path[np++] = cur;
		depth++;
	}
	unsigned seats = 0;
	for (int i = 1; i < np; i++)
		seats |= 1u << t->n[path[i]].seat;
	score(rs, st, seats, r);
	for (int i = 0; i < np; i++) {
		struct node *x = &t->n[path[i]];
		x->visits++;
		if (x->seat >= 0)
			x->reward += r[x->seat];
	}
	return 0;
}

json_object *
wb_decide(const struct wr_ruleset *rs, json_object *view, int seat, const struct wb_params *p,
          struct wr_error *err)
{
	return wb_decide_depth(rs, view, seat, p, WB_PLAYOUT_DEPTH, err);
}

json_object *
wb_decide_depth(const struct wr_ruleset *rs, json_object *view, int seat,
                const struct wb_params *p, int depth, struct wr_error *err)
{
	struct wr_rng rng;
	uint64_t rs_state;
	struct tree t = {0};
	json_object *acts = NULL, *out = NULL;
	void *st;
	long budget;

	if (!rs || !view || !p) {
		wr_fail(err, "bad_request", "", "no ruleset, view or parameters");
		return NULL;
	}
	if (!rs->determinize) {
		wr_fail(err, "no_determinize", "", "%s has no determinize hook", rs->id);
		return NULL;
	}
	if (seat < 0 || seat >= WR_MAX_SEATS) {
		wr_fail(err, "bad_seat", "seat", "no seat %d", seat);
		return NULL;
	}
	wr_rng_seeded(&rng, &rs_state, p->seed);
	budget = p->iterations > 0 ? p->iterations : wb_level_iterations(p->level);

	st = rs->determinize(view, seat, &rng, err);
	if (!st)
		return NULL;
	acts = bot_actions(rs, st, seat);
	size_t k = json_object_array_length(acts);
	if (!k) {
		wr_fail(err, "no_action", "", "seat %d has nothing to do", seat);
		goto out;
	}
	if (k == 1) {
		out = json_object_get(json_object_array_get_idx(acts, 0));
		goto out;
	}
	/* A level's budget looks at every action at least twice: below
	 * that, level 1 would be a random choice among those it happened to
	 * try rather than a short look at each. */
	if (p->iterations <= 0 && budget < 2 * (long)k)
		budget = 2 * (long)k;
	if (tree_add(&t, -1, NULL, -1) < 0)
		goto oom;
	for (long i = 0; i < budget; i++) {
		void *d = i == 0 ? st : rs->determinize(view, seat, &rng, err);
		if (i == 0)
			st = NULL;
		if (!d)
			goto out;
		int rc = iterate(rs, &t, d, seat, depth, &rng);
		rs->free(d);
		if (rc != 0)
			goto oom;
	}
	/* The most visited action at the root; ties (small budgets): the
	 * better mean, then the lower key, so the choice never depends on the
	 * order children were made in. */
	long most = -1;
	double mean = -1;
	const char *key = NULL;
	for (int c = t.n[0].child; c >= 0; c = t.n[c].next) {
		const struct node *x = &t.n[c];
		double m = x->visits ? x->reward / (double)x->visits : 0;
		if (x->visits > most ||
		    (x->visits == most && (m > mean || (m == mean && strcmp(x->key, key) < 0)))) {
			most = x->visits;
			mean = m;
			key = x->key;
		}
	}
	if (key)
		out = json_tokener_parse(key);
	if (!out)
		goto oom;
	goto out;
oom:
	json_object_put(out);
	out = NULL;
	wr_fail(err, "engine_failed", "", "the search could not run");
out:
	if (st)
		rs->free(st);
	json_object_put(acts);
	tree_free(&t);
	return out;
}

/* The mean of the evaluate hook over a few determinizations (or the
 * result, when the match has ended); 0.5 without the hooks. */
double
wb_evaluate(const struct wr_ruleset *rs, json_object *view, int seat)
{
	struct wr_rng rng;
	uint64_t s;
	struct wr_error err;
	double sum = 0, r[WR_MAX_SEATS];
	int n = 0;

	if (!rs || !view || !rs->determinize || seat < 0 || seat >= WR_MAX_SEATS)
		return 0.5;
	wr_rng_seeded(&rng, &s, 0x5eed);
	for (int i = 0; i < 8; i++) {
		void *st = rs->determinize(view, seat, &rng, &err);
		if (!st)
			break;
		score(rs, st, 1u << seat, r);
		sum += r[seat];
		n++;
		rs->free(st);
	}
	return n ? sum / n : 0.5;
}
