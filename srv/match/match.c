/* Applying posts to a ruleset state, the string tables of a match's
 * enums, and the JSON forms of results, events and dice that the log
 * stores. No SQL here. */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "match.h"

static const char *const statuses[WP_STATUS_MAX] = {
	[WP_STATUS_OPEN] = "open",
	[WP_STATUS_ACTIVE] = "active",
	[WP_STATUS_OVER] = "over",
	[WP_STATUS_ABORTED] = "aborted",
};

static const char *const kinds[WP_POST_KIND_MAX] = {
	[WP_POST_START] = "start",
	[WP_POST_TURN] = "turn",
	[WP_POST_ORDERS] = "orders",
	[WP_POST_RESIGN] = "resign",
	[WP_POST_DRAW_OFFER] = "draw_offer",
	[WP_POST_DRAW_ACCEPT] = "draw_accept",
	[WP_POST_DRAW_DECLINE] = "draw_decline",
	[WP_POST_ABORT] = "abort",
	[WP_POST_CLAIM] = "claim",
	[WP_POST_UNDO] = "undo",
	[WP_POST_ADJUDICATION] = "adjudication",
	[WP_POST_TAKEBACK] = "takeback_request",
	[WP_POST_TAKEBACK_DECLINE] = "takeback_decline",
};

static const char *const watches[WP_WATCH_MAX] = {
	[WP_WATCH_OPEN] = "open",
	[WP_WATCH_UNLISTED] = "unlisted",
	[WP_WATCH_PRIVATE] = "private",
};

static int
lookup(const char *const *table, int n, const char *s)
{
	int i = 0;

	while (i < n && strcmp(table[i], s) != 0)
		i++;
	return i;
}

/* The string and the parse of an enum with a string table. */
#define ENUM_STRINGS(type, str, parse, table, max)                         \
	const char *str(enum type v)                                       \
	{                                                                  \
		return v < max ? table[v] : "unknown";                     \
	}                                                                  \
	enum type parse(const char *s)                                     \
	{                                                                  \
		return (enum type)lookup(table, max, s);                   \
	}

ENUM_STRINGS(wp_status, wp_status_str, wp_status_parse, statuses, WP_STATUS_MAX)
ENUM_STRINGS(wp_post_kind, wp_post_kind_str, wp_post_kind_parse, kinds, WP_POST_KIND_MAX)
ENUM_STRINGS(wp_watch, wp_watch_str, wp_watch_parse, watches, WP_WATCH_MAX)

void
wp_game_free(struct wp_game *g)
{
	json_object_put(g->options);
	json_object_put(g->result);
	free(g->state);
	memset(g, 0, sizeof(*g));
}

int
wp_game_over(const struct wp_game *g)
{
	return g->status == WP_STATUS_OVER || g->status == WP_STATUS_ABORTED;
}

int
wp_game_seat_of(const struct wp_game *g, int64_t player_id)
{
	for (int i = 0; i < g->nseats; i++)
		if (player_id && g->seats[i].player_id == player_id)
			return i;
	return -1;
}

int
wp_viewer(int over, int seat)
{
	if (over)
		return WR_EVERYONE;
	return seat >= 0 ? seat : WR_SPECTATOR;
}

unsigned
wp_private_to(int seat)
{
	/* A bit past every seat: no seat's, so only WR_EVERYONE sees it. */
	return seat >= 0 ? 1u << seat : 1u << WR_MAX_SEATS;
}

size_t
wp_client_material(const struct wp_seat *seats, int n, unsigned char *out, size_t cap)
{
	size_t len = 0;

	for (int i = 0; i < n; i++) {
		size_t l = strlen(seats[i].client_seed);
		if (len + 1 + l > cap)
			break;
		out[len++] = (unsigned char)l;
		memcpy(out + len, seats[i].client_seed, l);
		len += l;
	}
	return len;
}

int
wp_apply_post(const struct wr_ruleset *rs, void *state, int seat, enum wp_post_kind kind,
              json_object *content, struct wr_rng *rng, struct wr_events *ev,
              struct wr_error *err, int *bad_index)
{
	*bad_index = -1;
	if (kind == WP_POST_ORDERS) {
		if (!rs->set_orders)
			return wr_fail(err, "no-orders", "orders", "this ruleset has no standing orders");
		return rs->set_orders(state, seat, content, err);
	}
	if (kind == WP_POST_RESIGN)
		return rs->resign(state, seat, rng, ev);
	if (kind == WP_POST_CLAIM)
		return wp_apply_claim(rs, state, content, rng, ev, err);
	if (kind != WP_POST_TURN)
		return 0;
	size_t n = json_object_array_length(content);
	for (size_t i = 0; i < n; i++) {
		json_object *a = json_object_array_get_idx(content, i);
		*bad_index = (int)i;
		if (!(rs->to_act(state) & (1u << seat)))
			return wr_fail(err, "not-awaited", "", "the seat is no longer awaited after action %zu",
			               i ? i - 1 : 0);
		wp_metric_add(WP_METRIC_RULES_APPLIES, 1);
		if (rs->apply(state, seat, a, rng, ev, err) != 0)
			return -1;
	}
	*bad_index = -1;
	return 0;
}

/* A claim on time: each flagged seat ({"type": "flag", "seat": n}) leaves the
 * match as the ruleset has a resigning seat leave. */
int
wp_apply_claim(const struct wr_ruleset *rs, void *state, json_object *content,
               struct wr_rng *rng, struct wr_events *ev, struct wr_error *err)
{
	for (size_t i = 0; i < json_object_array_length(content); i++) {
		json_object *f;
		if (!json_object_object_get_ex(json_object_array_get_idx(content, i), "seat", &f) ||
		    rs->resign(state, json_object_get_int(f), rng, ev) != 0)
			return wr_fail(err, "bad-claim", "seat", "the claim names no seat that can leave");
	}
	return 0;
}

void
wp_agreed_end(const struct wr_ruleset *rs, void *state, struct wr_events *ev)
{
	struct wr_result res;

	rs->result(state, &res);
	if (rs->agreed_end && !res.over)
		rs->agreed_end(state, ev);
}

_Static_assert(WP_MARK_BITS >= WR_MAX_SEATS, "posts.awaiting keeps three seat masks");

void
wp_turn_masks(const struct wr_ruleset *rs, const void *state, unsigned awaiting, int poster,
              struct wp_clock_mark *m)
{
	unsigned turn;

	m->awaiting = awaiting;
	m->waiting = m->reacting = m->answered = 0;
	if (!rs->turn_of || !state || !awaiting)
		return;             /* an ended match: every move has ended */
	turn = rs->turn_of(state) & WP_MARK_SEATS;
	m->waiting = turn & ~awaiting;
	m->reacting = awaiting & ~turn;
	/* A reacting seat's actions are answers: each one a move. */
	if (poster >= 0 && poster < WR_MAX_SEATS && (m->reacting >> poster & 1))
		m->answered = 1u << poster;
}

json_object *
wp_result_json(const struct wr_result *r, int nseats)
{
	json_object *o, *w;

	if (!r->over)
		return NULL;
	o = json_object_new_object();
	w = json_object_new_array();
	for (int i = 0; i < nseats; i++)
		if (r->winners & (1u << i))
			json_object_array_add(w, json_object_new_int(i));
	json_object_object_add(o, "winners", w);
	json_object_object_add(o, "draw", json_object_new_boolean(r->winners == 0));
	json_object_object_add(o, "reason", json_object_new_string(r->reason));
	if (r->has_scores) {
		json_object *s = json_object_new_array();
		for (int i = 0; i < nseats; i++)
			json_object_array_add(s, json_object_new_int(r->scores[i]));
		json_object_object_add(o, "scores", s);
	}
	return o;
}

json_object *
wp_events_store(struct wr_events *ev)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < ev->len; i++) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "to", json_object_new_int((int)ev->items[i].visible_to));
		json_object_object_add(o, "e", ev->items[i].body);
		ev->items[i].body = NULL;
		json_object_array_add(a, o);
	}
	return a;
}

json_object *
wp_events_visible(json_object *stored, int viewer)
{
	json_object *vis = json_object_new_array();

	for (size_t k = 0; stored && k < json_object_array_length(stored); k++) {
		json_object *e = json_object_array_get_idx(stored, k), *to, *body;
		json_object_object_get_ex(e, "to", &to);
		json_object_object_get_ex(e, "e", &body);
		if (wr_visible((unsigned)json_object_get_int(to), viewer))
			json_object_array_add(vis, json_object_get(body));
	}
	return vis;
}

json_object *
wp_rolls_json(const struct wr_rng *rng)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < rng->log_len; i++) {
		json_object *d = json_object_new_array();
		json_object_array_add(d, json_object_new_int64(rng->log[i].bound));
		json_object_array_add(d, json_object_new_int64(rng->log[i].value));
		json_object_array_add(a, d);
	}
	return a;
}
