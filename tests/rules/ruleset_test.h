/*
 * Helpers shared by the ruleset tests (header only): a state's snapshot as
 * a string, a clone through save/load, the playout count from the
 * environment, and a log of what was done to a match that replays it
 * through struct wr_ruleset from create() and compares save() byte for
 * byte. Everything goes through the interface, so any ruleset may use it.
 */
#ifndef WR_RULESET_TEST_H
#define WR_RULESET_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"

/* WR_PLAYOUTS (the sanitizer stage sets it lower), else `def`. */
static inline int
wrt_playouts(int def)
{
	const char *s = getenv("WR_PLAYOUTS");
	int n = s ? atoi(s) : 0;
	return n > 0 ? n : def;
}

/* save() as a compact string; the caller frees it. */
static inline char *
wrt_save_str(const struct wr_ruleset *rs, const void *st)
{
	json_object *j = rs->save(st);
	char *s = strdup(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN));
	json_object_put(j);
	return s;
}

/* A copy through save() and load() (wr_clone() lives in the registry,
 * which a ruleset's tests do not link); NULL when load() refuses. */
static inline void *
wrt_clone(const struct wr_ruleset *rs, const void *st)
{
	json_object *j = rs->save(st);
	void *c = NULL;
	struct wr_error err;
	if (rs->load(j, &c, &err) != 0) {
		fprintf(stderr, "load(save()) failed: %s %s\n", err.code, err.message);
		c = NULL;
	}
	json_object_put(j);
	return c;
}

/* What was done to a match, in order. */
enum wrt_kind { WRT_ACTION, WRT_ORDERS, WRT_RESIGN };

struct wrt_entry {
	int kind;                /* enum wrt_kind */
	int seat;
	char *json;              /* the action or the orders; NULL for a resignation */
};

struct wrt_log {
	struct wrt_entry *v;
	size_t len, cap;
};

static inline void
wrt_log_add(struct wrt_log *log, int kind, int seat, const char *json)
{
	if (log->len == log->cap) {
		size_t cap = log->cap ? log->cap * 2 : 256;
		struct wrt_entry *v = realloc(log->v, cap * sizeof(*v));
		if (!v)
			return;
		log->v = v;
		log->cap = cap;
	}
	log->v[log->len++] = (struct wrt_entry){kind, seat, json ? strdup(json) : NULL};
}

static inline void
wrt_log_clear(struct wrt_log *log)
{
	for (size_t i = 0; i < log->len; i++)
		free(log->v[i].json);
	log->len = 0;
}

static inline void
wrt_log_free(struct wrt_log *log)
{
	wrt_log_clear(log);
	free(log->v);
	*log = (struct wrt_log){0};
}

/* How many actions the seat's list holds. */
static inline int
wrt_nactions(const struct wr_ruleset *rs, const void *st, int seat)
{
	json_object *l = rs->actions(st, seat);
	int n = (int)json_object_array_length(l);

	json_object_put(l);
	return n;
}

/* Plays the log again from create(options, seats) with `rng` (seeded as
 * the first time) and returns how many entries failed; *final gets the
 * state's save() string (the caller frees it), NULL when create fails. */
static inline int
wrt_replay(const struct wr_ruleset *rs, json_object *options, int seats, struct wr_rng *rng,
           const struct wrt_log *log, char **final)
{
	struct wr_error err;
	void *st = NULL;
	int failed = 0;
	*final = NULL;
	if (rs->create(options, seats, rng, &st, &err) != 0)
		return 1;
	for (size_t i = 0; i < log->len; i++) {
		const struct wrt_entry *e = &log->v[i];
		struct wr_events ev = {0};
		json_object *j = e->json ? json_tokener_parse(e->json) : NULL;
		if (e->kind == WRT_RESIGN)
			rs->resign(st, e->seat, rng, &ev);
		else if (e->kind == WRT_ORDERS)
			failed += rs->set_orders(st, e->seat, j, &err) != 0;
		else
			failed += rs->apply(st, e->seat, j, rng, &ev, &err) != 0;
		wr_events_free(&ev);
		json_object_put(j);
	}
	*final = wrt_save_str(rs, st);
	rs->free(st);
	return failed;
}

#endif
