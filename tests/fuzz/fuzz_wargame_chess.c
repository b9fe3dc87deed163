/* Fuzz target: Wargame Chess actions, standing orders and snapshots from
 * arbitrary bytes. Never crashes, never leaks; a refused action leaves the
 * state unchanged; save(load(save)) is save.
 *
 * Input: the first byte picks the mode. 'L': the rest is a snapshot for
 * load(). Otherwise the rest is lines, played on a new match (seeded dice):
 *   "0{json}" / "1{json}"   an action by seat 0 / 1
 *   "O0{json}"              seat 0's standing orders
 *   "#n"                    play offered action n (mod the count) of the
 *                           awaited seat, to reach deep states quickly
 *   "R1"                    seat 1 resigns */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wargame_chess.h"
#include "wc_faction.h"

static void
same_after_roundtrip(const void *st)
{
	json_object *a = wc_ruleset.save(st), *b;
	void *copy = NULL;
	struct wr_error err;

	if (wc_ruleset.load(a, &copy, &err) != 0)
		__builtin_trap();
	b = wc_ruleset.save(copy);
	if (!json_object_equal(a, b))
		__builtin_trap();
	json_object_put(a);
	json_object_put(b);
	wc_ruleset.free(copy);
}

static void
poke(const void *st, int all)
{
	int viewers[] = {0, 1, WR_SPECTATOR, WR_EVERYONE};
	struct wr_result res;

	for (int i = 0; i < 4; i++)
		json_object_put(wc_ruleset.view(st, viewers[i]));
	/* Team lists are many; list them once per input, not per line. */
	for (int s = -1; s < 3; s++)
		if (all || ((const struct wc_state *)st)->phase != WC_PH_TEAMS)
			json_object_put(wc_ruleset.actions(st, s));
	wc_ruleset.result(st, &res);
	(void)wc_ruleset.to_act(st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;
	struct wr_error err;
	struct wr_events ev = {0};
	struct wr_rng rng;
	uint64_t rs;
	void *st = NULL;

	if (size == 0 || size > 65536)
		return 0;
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = 0;
	wr_rng_seeded(&rng, &rs, data[0]);
	if (data[0] == 'L') {
		json_object *j = json_tokener_parse(text);
		if (j && wc_ruleset.load(j, &st, &err) == 0) {
			poke(st, 1);
			same_after_roundtrip(st);
			wc_ruleset.free(st);
		}
		json_object_put(j);
		free(text);
		return 0;
	}
	if (wc_ruleset.create(NULL, 2, &rng, &st, &err) != 0) {
		free(text);
		return 0;
	}
	for (char *line = text, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (!line[0])
			continue;
		if (line[0] == '#') {
			unsigned m = wc_ruleset.to_act(st);
			int seat = m & 1 ? 0 : 1;
			json_object *acts = wc_ruleset.actions(st, seat);
			size_t n = json_object_array_length(acts);
			if (n) {
				size_t k = (size_t)strtoul(line + 1, NULL, 10) % n;
				if (wc_ruleset.apply(st, seat, json_object_array_get_idx(acts, k), &rng, &ev,
				                     &err) != 0)
					__builtin_trap();   /* an offered action is always accepted */
			}
			json_object_put(acts);
		} else if (line[0] == 'R') {
			wc_ruleset.resign(st, line[1] == '1', &rng, &ev);
		} else if (line[0] == 'O' && line[1]) {
			json_object *j = json_tokener_parse(line + 2);
			wc_ruleset.set_orders(st, line[1] == '1', j, &err);
			json_object_put(j);
		} else {
			json_object *j = json_tokener_parse(line + 1), *before = wc_ruleset.save(st), *after;
			int rc = wc_ruleset.apply(st, line[0] == '1', j, &rng, &ev, &err);
			after = wc_ruleset.save(st);
			if (rc != 0 && !json_object_equal(before, after))
				__builtin_trap();   /* a refusal changes nothing */
			json_object_put(before);
			json_object_put(after);
			json_object_put(j);
		}
		wr_events_free(&ev);
		poke(st, 0);
		same_after_roundtrip(st);
	}
	poke(st, 1);
	wc_ruleset.free(st);
	free(text);
	return 0;
}
