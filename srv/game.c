/* Applying posts to a ruleset state, and the JSON forms of results,
 * events and dice that the log stores. No SQL here. */
#include <stdlib.h>
#include <string.h>

#include "game.h"

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
	return strcmp(g->status, "over") == 0 || strcmp(g->status, "aborted") == 0;
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
wp_apply_post(const struct wr_ruleset *rs, void *state, int seat, const char *kind,
              json_object *content, struct wr_rng *rng, struct wr_events *ev,
              struct wr_error *err, int *bad_index)
{
	*bad_index = -1;
	if (strcmp(kind, "orders") == 0) {
		if (!rs->set_orders)
			return wr_fail(err, "no-orders", "orders", "this ruleset has no standing orders");
		return rs->set_orders(state, seat, content, err);
	}
	if (strcmp(kind, "resign") == 0)
		return rs->resign(state, seat, rng, ev);
	if (strcmp(kind, "turn") != 0)
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
