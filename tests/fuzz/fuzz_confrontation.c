/* Fuzz target: the Confrontation ruleset (rules/confrontation/) fed
 * arbitrary bytes. First byte: 'L' loads the rest as a snapshot; anything
 * else creates a match (seats 2 + byte % 3, options from the next line)
 * and applies each further line as "S{action json}" (S a seat digit),
 * "R S" (resign) or "O S{orders}". After each step the view of every
 * viewer, every seat's actions and save() are produced. It must never
 * crash, leak or trip a sanitizer. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cf_priv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
exercise(void *st)
{
	const struct cf_state *s = st;
	for (int v = WR_EVERYONE; v < s->nseats; v++) {
		json_object *j = cf_ruleset.view(st, v);
		(void)json_object_to_json_string(j);
		json_object_put(j);
	}
	for (int seat = 0; seat < s->nseats; seat++)
		json_object_put(cf_ruleset.actions(st, seat));
	json_object *j = cf_ruleset.save(st);
	void *again = NULL;
	struct wr_error err;
	if (cf_ruleset.load(j, &again, &err) == 0)
		cf_ruleset.free(again);
	json_object_put(j);
	(void)cf_ruleset.to_act(st);
}

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

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wr_error err;
	struct wr_rng rng;
	uint64_t rs;
	void *st = NULL;
	char *buf;

	if (size < 1 || size > 65536)
		return 0;
	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	wr_rng_seeded(&rng, &rs, size);
	if (buf[0] == 'L') {
		json_object *j = parse(buf + 1, size - 1);
		if (j && cf_ruleset.load(j, &st, &err) == 0) {
			exercise(st);
			/* and play on from it: every seat's first action */
			for (int seat = 0; seat < ((struct cf_state *)st)->nseats; seat++) {
				json_object *acts = cf_ruleset.actions(st, seat);
				struct wr_events ev = {0};
				if (json_object_array_length(acts))
					cf_ruleset.apply(st, seat, json_object_array_get_idx(acts, 0), &rng,
					                 &ev, &err);
				wr_events_free(&ev);
				json_object_put(acts);
			}
			exercise(st);
			cf_ruleset.free(st);
		}
		json_object_put(j);
		free(buf);
		return 0;
	}
	int seats = 2 + (unsigned char)buf[0] % 3;
	char *line = strchr(buf, '\n'), *next;
	json_object *opts = NULL;
	if (line) {
		opts = parse(buf + 1, (size_t)(line - buf - 1));
		line++;
	}
	if (cf_ruleset.create(opts, seats, &rng, &st, &err) != 0) {
		json_object_put(opts);
		free(buf);
		return 0;
	}
	json_object_put(opts);
	for (; line && *line; line = next) {
		struct wr_events ev = {0};
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (line[0] == 'R' && line[1] == ' ') {
			cf_ruleset.resign(st, atoi(line + 2), &rng, &ev);
		} else if (line[0] == 'O' && line[1] == ' ' && line[2]) {
			json_object *o = parse(line + 3, strlen(line + 3));
			if (o)
				cf_ruleset.set_orders(st, line[2] - '0', o, &err);
			json_object_put(o);
		} else if (line[0] == 'A' && line[1] >= '0' && line[1] <= '3') {
			/* the k-th offered action of a seat: reaches deep states */
			json_object *acts = cf_ruleset.actions(st, line[1] - '0');
			size_t n = json_object_array_length(acts);
			if (n)
				cf_ruleset.apply(st, line[1] - '0',
				                 json_object_array_get_idx(acts, (size_t)atoi(line + 2) % n),
				                 &rng, &ev, &err);
			json_object_put(acts);
		} else if (line[0]) {
			json_object *a = parse(line + 1, strlen(line + 1));
			if (a)
				cf_ruleset.apply(st, line[0] - '0', a, &rng, &ev, &err);
			json_object_put(a);
		}
		wr_events_free(&ev);
		exercise(st);
	}
	cf_ruleset.free(st);
	free(buf);
	return 0;
}
