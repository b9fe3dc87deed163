/* Events and their visibility (rules/events.c), RULINGS.md G5. */
#include "../unit/check.h"
#include "rules.h"

int
main(void)
{
	struct wr_events ev = {0};

	wr_emit(&ev, WR_VIS_PUBLIC, json_object_new_string("all"));
	wr_emit(&ev, 1u << 2, json_object_new_string("seat 2"));
	wr_emit(&ev, (1u << 0) | (1u << 1), json_object_new_string("seats 0 and 1"));
	CHECK(ev.len == 3, "three events");
	CHECK(wr_event_visible(&ev.items[0], WR_SPECTATOR), "public: spectators see it");
	CHECK(wr_event_visible(&ev.items[1], 2), "private: its seat sees it");
	CHECK(!wr_event_visible(&ev.items[1], 0), "G5: another seat does not");
	CHECK(!wr_event_visible(&ev.items[1], WR_SPECTATOR), "G5: nor a spectator");
	CHECK(wr_event_visible(&ev.items[1], WR_EVERYONE), "G5: at the end everyone does");
	CHECK(wr_event_visible(&ev.items[2], 1) && !wr_event_visible(&ev.items[2], 3),
	      "a set of seats");
	CHECK(!wr_event_visible(&ev.items[2], 7), "no such seat");
	wr_events_free(&ev);
	CHECK(ev.len == 0, "freed");
	return check_done("events");
}
