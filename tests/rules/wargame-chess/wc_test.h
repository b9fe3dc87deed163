/* Helpers shared by the Wargame Chess tests: positions written as data,
 * actions given as JSON text, scripted dice. */
#ifndef WC_TEST_H
#define WC_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../unit/check.h"
#include "wargame_chess.h"
#include "wc_rules.h"

static struct wr_events test_ev;
/* Plain events of direct calls into the rules (wc_ctx), turned into
 * test_ev by flush_plain(). */
static struct wr_list test_plain = {.size = sizeof(struct wc_event)};

static inline void
flush_plain(const struct wc_state *st)
{
	wr_tpl_events(&wc_template, st, &test_plain, &test_ev);
	wr_list_free(&test_plain);
}

/* WR_PLAYOUTS from the environment, else `def`. */
static inline int
wc_playouts(int def)
{
	const char *e = getenv("WR_PLAYOUTS");
	int n = e && *e ? atoi(e) : def;
	return n > 0 ? n : def;
}

/* A copy through save() and load() (wr_clone lives in the registry
 * library, which these tests do not link). */
static inline void *
wc_clone(const void *st)
{
	json_object *snap = wc_ruleset.save(st);
	void *copy = NULL;
	struct wr_error err;

	if (wc_ruleset.load(snap, &copy, &err) != 0)
		copy = NULL;
	json_object_put(snap);
	return copy;
}

static inline int
wc_apply_str(void *st, int seat, const char *json, struct wr_rng *rng, struct wr_error *err)
{
	json_object *j = json_tokener_parse(json);
	int rc;
	struct wr_error tmp;

	if (!err)
		err = &tmp;
	memset(err, 0, sizeof(*err));
	rc = wc_ruleset.apply(st, seat, j, rng, &test_ev, err);
	json_object_put(j);
	return rc;
}

/* Number of offered actions; with `want`, whether that exact JSON is one. */
static inline int
wc_count(const void *st, int seat, const char *want, int *found)
{
	json_object *a = wc_ruleset.actions(st, seat), *w = want ? json_tokener_parse(want) : NULL;
	int n = (int)json_object_array_length(a);

	if (found) {
		*found = 0;
		for (int i = 0; w && i < n; i++)
			*found |= json_object_equal(json_object_array_get_idx(a, (size_t)i), w);
	}
	json_object_put(a);
	json_object_put(w);
	return n;
}

static inline int
type_of(char c)
{
	const char *t = "PRNBQKJ";
	const char *p = strchr(t, c);
	return p ? (int)(p - t) : -1;
}

/* A Standard-faction position in play: "0Ke1 0Ra1:A2 1Ke8:x T:d4 ...".
 * Piece: seat digit, type letter (P R N B Q K J), square, then flags:
 * :A<n> Advantage tokens, :D<n> Disadvantage tokens, :B Blessing, :C Curse,
 * :x activated this turn, :e activated before in the game, :r already
 * Reactivated once this turn, :S slain
 * (the square is ignored), :o<i> roster option i of the faction
 * (wc_pos_faction, both seats; the first option of the type otherwise). T:<sq> is a Tree. The position is in Turn 1,
 * seat 0 to pick a piece, after the first Activation of the game. */
static int wc_pos_faction;   /* the faction of both seats in wc_pos */

static inline void
wc_pos(struct wc_state *st, const char *spec)
{
	char buf[1024], *save = NULL, *tok;
	const struct wc_faction *fa = wc_faction_at(wc_pos_faction);

	wc_init(st, 0, NULL);
	st->phase = WC_PH_PLAY;
	st->turn = 1;
	st->active = 0;
	st->first_deployer = 0;
	st->first_this_turn = 0;
	st->stage = WC_ST_PICK;
	st->any_activation = 1;
	st->tree_choice = WC_TREES_MIRROR;
	st->seat[0].submitted = st->seat[1].submitted = 1;
	st->seat[0].faction = st->seat[1].faction = wc_pos_faction;
	snprintf(buf, sizeof(buf), "%s", spec);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (strncmp(tok, "turn:", 5) == 0) {
			st->turn = atoi(tok + 5);
			continue;
		}
		if (strncmp(tok, "active:", 7) == 0) {
			st->active = st->first_this_turn = atoi(tok + 7);
			continue;
		}
		if (strcmp(tok, "pregame") == 0) {
			st->any_activation = 0;
			continue;
		}
		if (tok[0] == 'T') {
			st->trees[st->ntrees++] = wr_square_parse(&wr_board8, tok + 2);
			continue;
		}
		struct wc_piece *p = &st->pieces[st->npieces++];
		char sq[3] = {tok[2], tok[3], 0};
		memset(p, 0, sizeof(*p));
		p->seat = tok[0] - '0';
		p->type = (enum wc_type)type_of(tok[1]);
		for (int i = fa->nopts - 1; i >= 0; i--)
			if (fa->opts[i].type == p->type)
				p->opt = i;
		if (strstr(tok, ":o")) {
			p->opt = atoi(strstr(tok, ":o") + 2);
			p->type = fa->opts[p->opt].type;
		}
		st->seat[p->seat].counts[p->opt]++;
		p->where = WC_ON;
		p->sq = wr_square_parse(&wr_board8, sq);
		for (const char *f = strchr(tok, ':'); f; f = strchr(f + 1, ':')) {
			switch (f[1]) {
			case 'A': p->adv = atoi(f + 2); break;
			case 'D': p->dis = atoi(f + 2); break;
			case 'B': p->blessing = 1; break;
			case 'C': p->curse = 1; break;
			case 'x': p->activated = p->ever_activated = 1; break;
			case 'e': p->ever_activated = 1; break;
			case 'r': p->reactivations = 1; break;
			case 'S': p->where = WC_SLAIN; p->sq = -1; break;
			}
		}
	}
}

static inline int
sq(const char *name)
{
	return wr_square_parse(&wr_board8, name);
}

static inline int
at(const struct wc_state *st, const char *name)
{
	return wc_piece_at(st, sq(name));
}

/* Events of the last applies, as one string, for "contains" checks. */
static inline int
ev_has(const char *needle)
{
	for (size_t i = 0; i < test_ev.len; i++)
		if (strstr(json_object_to_json_string_ext(test_ev.items[i].body, JSON_C_TO_STRING_PLAIN), needle))
			return 1;
	return 0;
}

#endif
