/* Fuzz target of one product ruleset (built once per folder of rules/ as
 * fuzz_<id>, with WR_FUZZ_RULESET its id), driven only through the
 * wr_ruleset interface: the action decoder, load(), standing orders,
 * resignation, views and action lists from arbitrary bytes.
 *
 * Input: the first byte picks the mode.
 *   'L'  the rest is a snapshot for load(); then each seat plays its
 *        first offered action.
 *   else seats = min + byte % (max - min + 1); the first line is the
 *        options (JSON, may be empty); each further line is one of
 *          "S{json}"   an action by seat S (a digit)
 *          "#n"        offered action n (mod the count) of an awaited seat
 *          "AS n"      offered action n of seat S
 *          "OS{json}"  seat S's standing orders
 *          "R S"       seat S resigns
 * Checked: never a crash, leak or sanitizer report; a refused action
 * changes nothing; an offered action is always accepted; save(load(save))
 * is save, and its text made without the tree is json-c's text of it. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"

#ifndef WR_FUZZ_RULESET
#error "WR_FUZZ_RULESET names the ruleset to fuzz"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct wr_ruleset *rs;
static int nseats;

static json_object *
parse(const char *p, size_t n)
{
	json_tokener *tok = json_tokener_new_ex(16);
	json_object *o;
	if (!tok)
		return NULL;
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	o = json_tokener_parse_ex(tok, p, (int)n);
	if (json_tokener_get_error(tok) != json_tokener_success) {
		json_object_put(o);
		o = NULL;
	}
	json_tokener_free(tok);
	return o;
}

static void
same_after_roundtrip(const void *st)
{
	json_object *a = rs->save(st), *b;
	void *copy = NULL;
	struct wr_error err;
	if (rs->load(a, &copy, &err) != 0)
		__builtin_trap();   /* a saved state always loads */
	b = rs->save(copy);
	if (!json_object_equal(a, b))
		__builtin_trap();
	/* The text a turn stores, made without the tree, is json-c's text
	 * of the tree (issue 32). */
	char *text = wr_save_text(rs, st);
	if (text && strcmp(text, json_object_to_json_string_ext(a, JSON_C_TO_STRING_PLAIN)) != 0)
		__builtin_trap();
	free(text);
	json_object_put(a);
	json_object_put(b);
	rs->free(copy);
}

static void
poke(const void *st)
{
	struct wr_result res;
	for (int v = WR_EVERYONE; v < nseats; v++)
		json_object_put(rs->view(st, v));
	for (int seat = -1; seat <= nseats; seat++)
		json_object_put(rs->actions(st, seat));
	rs->result(st, &res);
	(void)rs->to_act(st);
	if (rs->seats_in)
		(void)rs->seats_in(st);
}

static void
play_offered(void *st, int seat, size_t k, struct wr_rng *rng, struct wr_events *ev)
{
	struct wr_error err;
	json_object *acts = rs->actions(st, seat);
	size_t n = json_object_array_length(acts);
	if (n && rs->apply(st, seat, json_object_array_get_idx(acts, k % n), rng, ev, &err) != 0)
		__builtin_trap();   /* an offered action is always accepted */
	json_object_put(acts);
}

static void
refused_changes_nothing(void *st, int seat, json_object *action, struct wr_rng *rng,
                        struct wr_events *ev)
{
	struct wr_error err;
	json_object *before = rs->save(st), *after;
	int rc = rs->apply(st, seat, action, rng, ev, &err);
	after = rs->save(st);
	if (rc != 0 && !json_object_equal(before, after))
		__builtin_trap();
	json_object_put(before);
	json_object_put(after);
}

static int
awaited_seat(const void *st)
{
	unsigned m = rs->to_act(st);
	for (int s = 0; s < nseats; s++)
		if (m & (1u << s))
			return s;
	return 0;
}

static void
step(void *st, char *line, struct wr_rng *rng)
{
	struct wr_events ev = {0};
	struct wr_error err;
	int seat = line[1] - '0';

	if (line[0] == '#') {
		play_offered(st, awaited_seat(st), strtoul(line + 1, NULL, 10), rng, &ev);
	} else if (line[0] == 'A' && seat >= 0 && seat < nseats) {
		play_offered(st, seat, strtoul(line + 2, NULL, 10), rng, &ev);
	} else if (line[0] == 'R' && line[1] == ' ') {
		seat = atoi(line + 2);
		if (seat >= 0 && seat < nseats)
			rs->resign(st, seat, rng, &ev);
	} else if (line[0] == 'O' && line[1]) {
		json_object *o = parse(line + 2, strlen(line + 2));
		if (o && rs->set_orders)
			rs->set_orders(st, seat, o, &err);
		json_object_put(o);
	} else if (line[0]) {
		json_object *a = parse(line + 1, strlen(line + 1));
		if (a)
			refused_changes_nothing(st, line[0] - '0', a, rng, &ev);
		json_object_put(a);
	}
	wr_events_free(&ev);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wr_error err;
	struct wr_rng rng;
	uint64_t rs_state;
	void *st = NULL;
	char *buf, *line, *next;

	if (!rs && !(rs = wr_ruleset_find(WR_FUZZ_RULESET)))
		__builtin_trap();
	if (size < 1 || size > 65536)
		return 0;
	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	wr_rng_seeded(&rng, &rs_state, size);
	if (buf[0] == 'L') {
		json_object *j = parse(buf + 1, size - 1);
		if (j && rs->load(j, &st, &err) == 0) {
			json_object *v = rs->view(st, WR_EVERYONE);
			json_object *seats;
			nseats = json_object_object_get_ex(v, "seats", &seats) &&
			                 json_object_is_type(seats, json_type_array)
			         ? (int)json_object_array_length(seats) : rs->min_seats;
			if (nseats < rs->min_seats || nseats > rs->max_seats)
				nseats = rs->min_seats;
			json_object_put(v);
			poke(st);
			same_after_roundtrip(st);
			for (int seat = 0; seat < nseats; seat++) {
				struct wr_events ev = {0};
				play_offered(st, seat, 0, &rng, &ev);
				wr_events_free(&ev);
			}
			poke(st);
			rs->free(st);
		}
		json_object_put(j);
		free(buf);
		return 0;
	}
	nseats = rs->min_seats + (unsigned char)buf[0] % (rs->max_seats - rs->min_seats + 1);
	line = strchr(buf, '\n');
	json_object *opts = NULL;
	if (line) {
		opts = parse(buf + 1, (size_t)(line - buf - 1));
		line++;
	}
	if (rs->create(opts, nseats, &rng, &st, &err) != 0) {
		json_object_put(opts);
		free(buf);
		return 0;
	}
	json_object_put(opts);
	for (; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		step(st, line, &rng);
		poke(st);
		same_after_roundtrip(st);
	}
	rs->free(st);
	free(buf);
	return 0;
}
