/* The ruleset template's glue (rules/template.c): the legal list is the
 * candidates legal() accepts, apply is parse -> legal -> do -> codec and a
 * refusal changes nothing, events keep their visibility. A toy ruleset:
 * a counter that seat 0 raises by 1..3 (never past 5), with a die roll
 * event seen only by seat 0. */
#include <string.h>

#include "../unit/check.h"
#include "template.h"

struct toy_state { int n; };
struct toy_action { int by; };
struct toy_event { int by, roll; unsigned vis; };

static int
toy_parse(const void *st, json_object *j, void *out, struct wr_error *err)
{
	static const char *const known[] = {"type", "by", NULL};
	struct toy_action *a = out;
	if (wr_json_only(j, known, err) != 0)
		return -1;
	return wr_json_int(j, "by", -100, 100, 1, 0, &a->by, err);
}

static void
toy_action_out(const void *st, const void *act, struct wr_out *w)
{
	wr_out_obj(w, NULL);
	wr_out_str(w, "type", "raise");
	wr_out_int(w, "by", ((const struct toy_action *)act)->by);
	wr_out_end(w);
}

static void
toy_candidates(const void *st, int seat, struct wr_list *out)
{
	for (int by = 0; by <= 4; by++) {
		struct toy_action *a = wr_list_push(out);
		if (!a)
			return;
		a->by = by;
	}
}

/* More candidates than the listing's stack buffer holds (issue 17):
 * by = i % 7 for 20000 of them. */
static void
toy_many_candidates(const void *st, int seat, struct wr_list *out)
{
	for (int i = 0; i < 20000; i++) {
		struct toy_action *a = wr_list_push(out);
		if (!a)
			return;
		a->by = i % 7;
	}
}

static int
toy_legal(const void *vst, int seat, const void *vact, struct wr_error *err)
{
	const struct toy_state *st = vst;
	const struct toy_action *a = vact;
	if (seat != 0)
		return wr_fail(err, "not-awaited", "", "only seat 0 plays");
	if (a->by < 1 || a->by > 3)
		return wr_fail(err, "out-of-range", "by", "raise by 1 to 3");
	if (st->n + a->by > 5)
		return wr_fail(err, "too-high", "by", "the counter stops at 5");
	return 0;
}

static void
toy_apply(void *vst, int seat, const void *vact, struct wr_rng *rng, struct wr_list *ev)
{
	struct toy_state *st = vst;
	const struct toy_action *a = vact;
	struct toy_event *e = wr_list_push(ev);
	st->n += a->by;
	if (e)
		*e = (struct toy_event){a->by, (int)wr_die(rng, 6), 1u << 0};
}

static json_object *
toy_event_json(const void *st, const void *vev, unsigned *vis)
{
	const struct toy_event *e = vev;
	json_object *j = json_object_new_object();
	json_object_object_add(j, "by", json_object_new_int(e->by));
	json_object_object_add(j, "roll", json_object_new_int(e->roll));
	*vis = e->vis;
	return j;
}

static const struct wr_template toy = {
	.action_size = sizeof(struct toy_action),
	.event_size = sizeof(struct toy_event),
	.parse = toy_parse,
	.action_out = toy_action_out,
	.candidates = toy_candidates,
	.legal = toy_legal,
	.apply = toy_apply,
	.event_json = toy_event_json,
};

int
main(void)
{
	struct toy_state st = {3};
	struct wr_events ev = {0};
	struct wr_error err;
	struct wr_rng rng;
	uint64_t rs;
	json_object *list, *bad;

	wr_rng_seeded(&rng, &rs, 7);
	list = wr_tpl_actions(&toy, &st, 0);
	CHECK(json_object_array_length(list) == 2, "legal list: by 1 and by 2 (3 would pass 5)");
	CHECK(strcmp(json_object_to_json_string_ext(list, JSON_C_TO_STRING_PLAIN),
	             "[{\"type\":\"raise\",\"by\":1},{\"type\":\"raise\",\"by\":2}]") == 0,
	      "listed in the candidates' order, as action_out writes them");
	json_object_put(list);
	struct wr_out w = {.text = 1};
	wr_tpl_actions_out(&toy, &st, 0, &w, NULL);
	char *text = wr_out_finish(&w);
	CHECK(text && strcmp(text, "[{\"type\":\"raise\",\"by\":1},{\"type\":\"raise\",\"by\":2}]") == 0,
	      "the same list as text, without a tree (issue 32)");
	free(text);
	list = wr_tpl_actions(&toy, &st, 1);
	CHECK(json_object_array_length(list) == 0, "a seat not awaited gets an empty list");
	json_object_put(list);

	/* A list that starts in the caller's buffer keeps its items when it
	 * moves to the heap, and never frees the buffer (ASan would say). */
	int buf[4], kept = 1;
	struct wr_list l;
	wr_list_init_in(&l, sizeof(int), buf, sizeof(buf));
	for (int i = 0; i < 100; i++)
		*(int *)wr_list_push(&l) = i;
	for (int i = 0; i < 100; i++)
		kept &= *(int *)wr_list_at(&l, (size_t)i) == i;
	CHECK(kept && l.items != (unsigned char *)buf, "a list outgrows its buffer, items kept");
	wr_list_free(&l);
	wr_list_init_in(&l, sizeof(int), buf, sizeof(buf));
	*(int *)wr_list_push(&l) = 7;
	CHECK(l.items == (unsigned char *)buf && buf[0] == 7, "within the buffer: nothing allocated");
	wr_list_free(&l);

	struct wr_template many = toy;
	many.candidates = toy_many_candidates;
	list = wr_tpl_actions(&many, &st, 0);
	int in_order = json_object_array_length(list) == 20000 / 7 * 2 + (20000 % 7 > 2 ? 2 : 0);
	for (size_t i = 0; in_order && i < json_object_array_length(list); i++) {
		json_object *by;
		json_object_object_get_ex(json_object_array_get_idx(list, i), "by", &by);
		in_order = json_object_get_int(by) == (int)(i % 2) + 1;
	}
	CHECK(in_order, "20000 candidates (past the stack buffer): the legal ones, in order");
	json_object_put(list);

	bad = json_tokener_parse("{\"type\":\"raise\",\"by\":3}");
	CHECK(wr_tpl_apply(&toy, &st, 0, bad, &rng, &ev, &err) == -1 && strcmp(err.code, "too-high") == 0,
	      "the one legality check refuses, with its reason");
	CHECK(st.n == 3 && ev.len == 0 && rng.count == 0, "a refusal changes nothing, rolls nothing");
	json_object_put(bad);
	bad = json_tokener_parse("{\"type\":\"raise\",\"by\":1,\"extra\":1}");
	CHECK(wr_tpl_apply(&toy, &st, 0, bad, &rng, &ev, &err) == -1 && strcmp(err.field, "extra") == 0,
	      "parse refuses an unknown field and names it");
	json_object_put(bad);

	bad = json_tokener_parse("{\"type\":\"raise\",\"by\":2}");
	CHECK(wr_tpl_apply(&toy, &st, 0, bad, &rng, &ev, &err) == 0 && st.n == 5, "a legal action applies");
	CHECK(ev.len == 1 && ev.items[0].visible_to == 1u && rng.count == 1,
	      "its plain event is encoded with its visibility (G5)");
	CHECK(wr_event_visible(&ev.items[0], 0) && !wr_event_visible(&ev.items[0], 1),
	      "seat 0 sees the roll, seat 1 does not");
	json_object_put(bad);
	wr_events_free(&ev);
	return check_done("template");
}
