/* Events of an apply, each marked public or visible to some seats. */
#include <stdlib.h>

#include "rules.h"

void
wr_emit(struct wr_events *ev, unsigned visible_to, json_object *take_body)
{
	if (!take_body)
		return;
	if (ev->len == ev->cap) {
		size_t cap = ev->cap ? ev->cap * 2 : 8;
		struct wr_event *p = realloc(ev->items, cap * sizeof(*p));
		if (!p) {
			json_object_put(take_body);
			return;
		}
		ev->items = p;
		ev->cap = cap;
	}
	ev->items[ev->len++] = (struct wr_event){take_body, visible_to};
}

void
wr_events_free(struct wr_events *ev)
{
	for (size_t i = 0; i < ev->len; i++)
		json_object_put(ev->items[i].body);
	free(ev->items);
	ev->items = NULL;
	ev->len = ev->cap = 0;
}

int
wr_visible(unsigned visible_to, int viewer)
{
	if (visible_to == WR_VIS_PUBLIC || viewer == WR_EVERYONE)
		return 1;
	return viewer >= 0 && viewer < WR_MAX_SEATS && (visible_to & (1u << viewer));
}

int
wr_event_visible(const struct wr_event *e, int viewer)
{
	return wr_visible(e->visible_to, viewer);
}
