/* The glue of the ruleset template (template.h): parse -> legal -> apply
 * -> codec, and the legal-action list as the candidates legal() accepts. */
#include <stdlib.h>
#include <string.h>

#include "template.h"

/* The candidates of a listing start on the stack: Confrontation's (48
 * bytes each) and Officers Chess's (640) fit in most positions. */
#define WR_TPL_STACK 32768

void
wr_list_init(struct wr_list *l, size_t size)
{
	*l = (struct wr_list){.size = size};
}

void
wr_list_init_in(struct wr_list *l, size_t size, void *buf, size_t bytes)
{
	*l = (struct wr_list){.items = buf, .cap = bytes / size, .size = size, .first = buf};
}

void *
wr_list_push(struct wr_list *l)
{
	if (l->len == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		int moving = l->first && l->items == l->first;
		unsigned char *p = moving ? malloc(cap * l->size) : realloc(l->items, cap * l->size);
		if (!p)
			return NULL;
		if (moving)
			memcpy(p, l->items, l->len * l->size);
		l->items = p;
		l->cap = cap;
	}
	void *slot = l->items + l->len++ * l->size;
	memset(slot, 0, l->size);
	return slot;
}

void *
wr_list_at(const struct wr_list *l, size_t i)
{
	return i < l->len ? l->items + i * l->size : NULL;
}

void
wr_list_free(struct wr_list *l)
{
	if (l->items != l->first)
		free(l->items);
	wr_list_init(l, l->size);
}

void
wr_tpl_actions_out(const struct wr_template *t, const void *state, int seat, struct wr_out *w,
                   const char *key)
{
	_Alignas(max_align_t) unsigned char buf[WR_TPL_STACK];
	struct wr_list cand;
	size_t n = 0;

	wr_list_init_in(&cand, t->action_size, buf, sizeof(buf));
	t->candidates(state, seat, &cand);
	/* The legal ones move to the front, in order, and a tree's array is
	 * made at its size. No error: a refused candidate's reason is never
	 * shown, and formatting it cost more than the check (issue 17). */
	for (size_t i = 0; i < cand.len; i++) {
		const void *a = wr_list_at(&cand, i);
		if (t->legal(state, seat, a, NULL) == 0) {
			if (n != i)
				memcpy(wr_list_at(&cand, n), a, t->action_size);
			n++;
		}
	}
	wr_out_arr_of(w, key, n);
	for (size_t i = 0; i < n; i++)
		t->action_out(state, wr_list_at(&cand, i), w);
	wr_out_end(w);
	wr_list_free(&cand);
}

json_object *
wr_tpl_actions(const struct wr_template *t, const void *state, int seat)
{
	struct wr_out w = {0};

	wr_tpl_actions_out(t, state, seat, &w, NULL);
	json_object *arr = wr_out_root(&w);
	return arr ? arr : json_object_new_array();
}

json_object *
wr_tpl_action_json(const struct wr_template *t, const void *state, const void *action)
{
	struct wr_out w = {0};

	t->action_out(state, action, &w);
	return wr_out_root(&w);
}

int
wr_tpl_do(const struct wr_template *t, void *state, int seat, const void *action,
          struct wr_rng *rng, struct wr_list *ev, struct wr_error *err)
{
	if (t->legal(state, seat, action, err) != 0)
		return -1;
	t->apply(state, seat, action, rng, ev);
	return 0;
}

void
wr_tpl_events(const struct wr_template *t, const void *state, const struct wr_list *ev,
              struct wr_events *out)
{
	for (size_t i = 0; i < ev->len; i++) {
		unsigned vis = WR_VIS_PUBLIC;
		json_object *body = t->event_json(state, wr_list_at(ev, i), &vis);
		wr_emit(out, vis, body);
	}
}

int
wr_tpl_apply(const struct wr_template *t, void *state, int seat, json_object *action,
             struct wr_rng *rng, struct wr_events *ev, struct wr_error *err)
{
	void *act = calloc(1, t->action_size);
	struct wr_list plain;
	int rc = -1;

	wr_list_init(&plain, t->event_size);
	if (t->refuse && t->refuse(state, seat, err) != 0)
		goto out;
	if (!act) {
		wr_fail(err, "internal", "", "out of memory");
		goto out;
	}
	if (t->parse(state, action, act, err) != 0)
		goto out;
	if (wr_tpl_do(t, state, seat, act, rng, &plain, err) != 0)
		goto out;
	wr_tpl_events(t, state, &plain, ev);
	wr_tpl_settle(t, state, rng, ev);
	rc = 0;
out:
	wr_list_free(&plain);
	free(act);
	return rc;
}

/* The one legal action of the seat copied to `only`, when it has exactly
 * one: 1; else 0. Stops listing at the second legal candidate. */
static int
only_action(const struct wr_template *t, const void *state, int seat, void *only)
{
	_Alignas(max_align_t) unsigned char buf[WR_TPL_STACK];
	struct wr_list cand;
	size_t n = 0;

	wr_list_init_in(&cand, t->action_size, buf, sizeof(buf));
	t->candidates(state, seat, &cand);
	for (size_t i = 0; i < cand.len && n < 2; i++) {
		const void *a = wr_list_at(&cand, i);
		if (t->legal(state, seat, a, NULL) == 0) {
			if (n == 0)
				memcpy(only, a, t->action_size);
			n++;
		}
	}
	wr_list_free(&cand);
	return n == 1;
}

int
wr_tpl_settle(const struct wr_template *t, void *state, struct wr_rng *rng,
              struct wr_events *out)
{
	if (!t->to_act)
		return 0;
	void *act = calloc(1, t->action_size);
	struct wr_list plain;
	int taken = 0, progress = 1;

	if (!act)
		return 0;
	wr_list_init(&plain, t->event_size);
	while (progress && taken < WR_TPL_FORCED_MAX) {
		unsigned mask = t->to_act(state);
		progress = 0;
		/* Seats in order, so that a replay takes the same steps. */
		for (int seat = 0; seat < WR_MAX_SEATS && !progress; seat++) {
			if (!(mask & (1u << seat)) || !only_action(t, state, seat, act))
				continue;
			t->apply(state, seat, act, rng, &plain);
			wr_tpl_events(t, state, &plain, out);
			wr_list_free(&plain);
			taken++;
			progress = 1;
		}
	}
	free(act);
	return taken;
}

int
wr_tpl_resign(const struct wr_template *t, void *state, int seat, struct wr_rng *rng,
              struct wr_events *out)
{
	struct wr_list plain;

	wr_list_init(&plain, t->event_size);
	if (t->resign(state, seat, rng, &plain) != 0)
		return -1;
	if (out) {
		wr_tpl_events(t, state, &plain, out);
		wr_tpl_settle(t, state, rng, out);
	}
	wr_list_free(&plain);
	return 0;
}
