/* The undo barrier every ruleset shares (rules/undo.c, issue 14
 * "Correspondence play", item Undo): an event told to another seat but
 * not to everyone, or a change of phase, reveals; an event only to the
 * poster does not; a ruleset's own undo_barrier adds to that. */
#include "../unit/check.h"
#include "rules.h"

/* A state is its phase number and whether its own barrier says yes. */
struct fake {
	int phase, hook;
};

static json_object *
fake_view(const void *state, int viewer)
{
	json_object *o = json_object_new_object();
	(void)viewer;
	json_object_object_add(o, "phase", json_object_new_int(((const struct fake *)state)->phase));
	return o;
}

static int
fake_barrier(const void *before, const void *after, int seat, const struct wr_events *ev)
{
	(void)before;
	(void)seat;
	(void)ev;
	return ((const struct fake *)after)->hook;
}

int
main(void)
{
	struct wr_ruleset rs = {.id = "fake", .view = fake_view};
	struct fake a = {1, 0}, b = {1, 0}, c = {2, 0}, d = {1, 1};
	struct wr_events ev = {0};

	CHECK(wr_undo_reveals(&rs, &a, &b, 0, &ev) == 0, "no event, same phase: undoable");
	wr_emit(&ev, WR_VIS_PUBLIC, json_object_new_string("moved"));
	wr_emit(&ev, 1u << 0, json_object_new_string("my own hidden piece moved"));
	CHECK(wr_undo_reveals(&rs, &a, &b, 0, &ev) == 0,
	      "public events and events only to the poster: undoable");
	CHECK(wr_undo_reveals(&rs, &a, &b, 1, &ev) == 1,
	      "the same event told to seat 0 by a post of seat 1 reveals");
	wr_events_free(&ev);
	wr_emit(&ev, (1u << 0) | (1u << 1), json_object_new_string("told to both of three"));
	CHECK(wr_undo_reveals(&rs, &a, &b, 0, &ev) == 1, "an event to another seat, not all, reveals");
	wr_events_free(&ev);
	CHECK(wr_undo_reveals(&rs, &a, &c, 0, &ev) == 1, "a change of phase reveals (set-up secrets)");
	CHECK(wr_undo_reveals(&rs, &a, &d, 0, &ev) == 0, "without its own barrier, d is undoable");
	rs.undo_barrier = fake_barrier;
	CHECK(wr_undo_reveals(&rs, &a, &d, 0, &ev) == 1, "the ruleset's own barrier adds to it");
	CHECK(wr_undo_reveals(&rs, &a, &b, 0, &ev) == 0, "and says no where it says no");
	return check_done("undo");
}
