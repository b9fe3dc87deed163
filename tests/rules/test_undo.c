/* The undo barrier every ruleset shares (rules/undo.c, issue 14
 * "Correspondence play", item Undo): an event told to another seat but
 * not to everyone, or a change of phase, reveals; an event only to the
 * poster does not; a ruleset's own undo_barrier adds to that. */
#include "../unit/check.h"
#include "rules.h"

/* A state is its phase number, whether its own barrier says yes, and
 * the seats that see all of it (a secret the others do not see). */
struct fake {
	int phase, hook;
	unsigned all;
};

static json_object *
fake_view(const void *state, int viewer)
{
	const struct fake *f = state;
	json_object *o = json_object_new_object();
	int sees = viewer == WR_EVERYONE || (viewer >= 0 && (f->all & (1u << viewer)));

	json_object_object_add(o, "phase", json_object_new_int(f->phase));
	json_object_object_add(o, "secret", sees ? json_object_new_int(42) : NULL);
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
	struct fake a = {1, 0, 0}, b = {1, 0, 0}, c = {2, 0, 0}, d = {1, 1, 0};
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
	/* RULINGS.md, G7 (amended): a seat that sees everything (Blood Chess's
	 * referee, B11) learns nothing from its copy; another seat still does */
	{
		struct fake ra = {1, 0, 1u << 2}, rb = {1, 0, 1u << 2};
		wr_emit(&ev, (1u << 0) | (1u << 2), json_object_new_string("a move's copy"));
		CHECK(wr_undo_reveals(&rs, &ra, &rb, 0, &ev) == 0,
		      "RULINGS.md, G7 (amended): a copy to the poster and a seat that sees all: "
		      "undoable");
		CHECK(wr_undo_reveals(&rs, &ra, &rb, 1, &ev) == 1,
		      "RULINGS.md, G7 (amended): the same copy told to seat 0, which does not see "
		      "all, reveals");
		rb.all = 0;
		CHECK(wr_undo_reveals(&rs, &ra, &rb, 0, &ev) == 1,
		      "RULINGS.md, G7 (amended): a seat that no longer sees all after the post counts");
		wr_events_free(&ev);
	}
	CHECK(wr_undo_reveals(&rs, &a, &c, 0, &ev) == 1, "a change of phase reveals (set-up secrets)");
	CHECK(wr_undo_reveals(&rs, &a, &d, 0, &ev) == 0, "without its own barrier, d is undoable");
	rs.undo_barrier = fake_barrier;
	CHECK(wr_undo_reveals(&rs, &a, &d, 0, &ev) == 1, "the ruleset's own barrier adds to it");
	CHECK(wr_undo_reveals(&rs, &a, &b, 0, &ev) == 0, "and says no where it says no");
	return check_done("undo");
}
