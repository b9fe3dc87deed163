/* The glue of the ruleset template (template.h): parse -> legal -> apply
 * -> codec, and the legal-action list as the candidates legal() accepts. */
#include <stdlib.h>
#include <string.h>

#include "template.h"

void
wr_list_init(struct wr_list *l, size_t size)
{
	*l = (struct wr_list){.size = size};
}

void *
wr_list_push(struct wr_list *l)
{
	if (l->len == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		unsigned char *p = realloc(l->items, cap * l->size);
		if (!p)
			return NULL;
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
	free(l->items);
	wr_list_init(l, l->size);
}

json_object *
wr_tpl_actions(const struct wr_template *t, const void *state, int seat)
{
	json_object *arr = json_object_new_array();
	struct wr_list cand;

	wr_list_init(&cand, t->action_size);
	t->candidates(state, seat, &cand);
	for (size_t i = 0; i < cand.len; i++) {
		const void *a = wr_list_at(&cand, i);
		/* No error: a refused candidate's reason is never shown, and
		 * formatting it cost more than the check (issue 17). */
		if (t->legal(state, seat, a, NULL) == 0)
			json_object_array_add(arr, t->action_json(state, a));
	}
	wr_list_free(&cand);
	return arr;
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
	if (!act) {
		wr_fail(err, "internal", "", "out of memory");
		goto out;
	}
	if (t->parse(state, action, act, err) != 0)
		goto out;
	if (wr_tpl_do(t, state, seat, act, rng, &plain, err) != 0)
		goto out;
	wr_tpl_events(t, state, &plain, ev);
	rc = 0;
out:
	wr_list_free(&plain);
	free(act);
	return rc;
}
