/*
 * The rule-case table of Blood Chess: positions written as data, each row
 * naming the section of 003_3d0ab55e00bc1e43.txt or the ruling it tests,
 * with the action tried and the answer the text demands ("ok" or the
 * error code). Then outcome rows with scripted dice (wr_rng_script):
 * decoys, HTH, damage, Stunned, unconscious, removal, Dodge, Area Effect,
 * the Speed Chart, scoring and the end, the referee.
 *
 * Position: tokens "<seat><K|Q|R|B|N|P><square>[m][u]": m = the Mirror
 * of that kind, u = its character is unconscious. Unlisted pieces are off
 * the board. Sheets (both sides): King brick, Queen blaster, Rook
 * martial-artist, Bishop slasher, Knight speedster.
 */
#include <ctype.h>
#include <stdio.h>

#include "../ruleset_test.h"
#include "bc_test.h"

#define T "003_3d0ab55e00bc1e43.txt, "
#define R "RULINGS.md, Blood Chess "

static struct wr_rng scripted;
static struct wr_script script;

static void
dice(const unsigned *faces, size_t n)
{
	script = (struct wr_script){.faces = faces, .n = n};
	wr_rng_script(&scripted, &script);
}

static int
kind_of(char c)
{
	switch (c) {
	case 'K': return BC_KING;
	case 'Q': return BC_QUEEN;
	case 'R': return BC_ROOK;
	case 'B': return BC_BISHOP;
	case 'N': return BC_KNIGHT;
	default: return BC_PAWN;
	}
}

/* Builds the position; `acting` is "<seat><K|Q|R|B|N>"; `sheets` as
 * bc_match's (NULL: the defaults above). */
static struct bc_state *
position_with(const char *pos, const char *acting, const char *const *sheets)
{
	uint64_t s;
	struct wr_rng rng;
	struct bc_state *st;
	char buf[512], *tok, *save = NULL;
	int used[BC_PIECES] = {0};

	wr_rng_seeded(&rng, &s, 1);
	st = bc_match(NULL, NULL, NULL, &rng, sheets);
	for (int i = 0; i < BC_PIECES; i++) {
		st->p[i].sq = -1;
		st->p[i].engaged = -1;
		st->p[i].moved = 0;
	}
	snprintf(buf, sizeof(buf), "%s", pos);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		int seat = tok[0] - '0', kind = kind_of(tok[1]);
		int sq = wr_square_parse(&wr_board8, (char[3]){tok[2], tok[3], 0});
		int mirror = strchr(tok + 4, 'm') != NULL, unc = strchr(tok + 4, 'u') != NULL;
		for (int i = seat * BC_PER_SIDE; i < (seat + 1) * BC_PER_SIDE; i++) {
			if (used[i] || bc_piece_kind(i) != kind ||
			    (kind >= BC_ROOK && kind <= BC_KNIGHT && st->p[i].decoy != mirror))
				continue;
			used[i] = 1;
			st->p[i].sq = sq;
			/* a Pawn off its start rank has moved */
			if (kind == BC_PAWN && sq / 8 != (seat == 0 ? 1 : 6))
				st->p[i].moved = 1;
			break;
		}
		if (unc && kind != BC_PAWN) {
			st->ch[seat][kind].unconscious = 1;
			st->ch[seat][kind].stun = -1;
		}
	}
	for (int s2 = 0; s2 < 2; s2++)
		for (int r = 0; r < BC_ROLES; r++)
			st->ch[s2][r].removed = bc_real_piece(st, s2, r) < 0;
	st->stage = BC_PLAY;
	st->turn = 1;
	st->segment = 1;
	st->nqueue = 1;
	st->qpos = 0;
	st->queue[0] = (acting[0] - '0') * BC_ROLES + kind_of(acting[1]);
	return st;
}

static struct bc_state *
position(const char *pos, const char *acting)
{
	return position_with(pos, acting, NULL);
}

struct row {
	const char *rule;
	const char *pos;
	const char *acting;
	const char *action;
	const char *want;   /* "ok" or an error code */
};

static const struct row rows[] = {
	/* movement: chess movement (THE BOARD AND THE PIECES; B5) */
	{T "THE BOARD AND THE PIECES, ROOK", "0Ke1 1Ke8 0Ra1", "0R", "{\"type\":\"move\",\"from\":\"a1\",\"to\":\"a7\"}", "ok"},
	{T "THE BOARD AND THE PIECES, ROOK", "0Ke1 1Ke8 0Ra1", "0R", "{\"type\":\"move\",\"from\":\"a1\",\"to\":\"b2\"}", "illegal-move"},
	{T "THE BOARD AND THE PIECES, BISHOP", "0Ke1 1Ke8 0Bc1", "0B", "{\"type\":\"move\",\"from\":\"c1\",\"to\":\"h6\"}", "ok"},
	{T "THE BOARD AND THE PIECES, BISHOP", "0Ke1 1Ke8 0Bc1", "0B", "{\"type\":\"move\",\"from\":\"c1\",\"to\":\"c5\"}", "illegal-move"},
	{T "THE BOARD AND THE PIECES, KNIGHT", "0Ke1 1Ke8 0Nb1 0Pb2 0Pc2 0Pa2", "0N", "{\"type\":\"move\",\"from\":\"b1\",\"to\":\"c3\"}", "ok"},
	{T "THE BOARD AND THE PIECES, KNIGHT", "0Ke1 1Ke8 0Nb1", "0N", "{\"type\":\"move\",\"from\":\"b1\",\"to\":\"b3\"}", "illegal-move"},
	{T "THE BOARD AND THE PIECES, KING", "0Ke1 1Ke8", "0K", "{\"type\":\"move\",\"from\":\"e1\",\"to\":\"f2\"}", "ok"},
	{T "THE BOARD AND THE PIECES, KING", "0Ke1 1Ke8", "0K", "{\"type\":\"move\",\"from\":\"e1\",\"to\":\"e3\"}", "illegal-move"},
	{T "COMBAT 3 (no castling)", "0Ke1 1Ke8 0Rh1m 0Rh2", "0K", "{\"type\":\"move\",\"from\":\"e1\",\"to\":\"g1\"}", "illegal-move"},
	{T "THE BOARD AND THE PIECES, QUEEN", "0Ke1 1Ke8 0Qd1", "0Q", "{\"type\":\"move\",\"from\":\"d1\",\"to\":\"h5\"}", "ok"},
	{T "COMBAT 3 (Queens cannot turn)", "0Ke1 1Ke8 0Qd1", "0Q", "{\"type\":\"move\",\"from\":\"d1\",\"to\":\"g5\"}", "illegal-move"},
	{T "COMBAT 1 (clear path)", "0Ke1 1Ke8 0Qd1 0Pd3", "0Q", "{\"type\":\"move\",\"from\":\"d1\",\"to\":\"d5\"}", "illegal-move"},
	{T "COMBAT 1 (clear path, enemy in the way)", "0Ke1 1Ke8 0Qd1 1Pd3", "0Q", "{\"type\":\"move\",\"from\":\"d1\",\"to\":\"d5\"}", "illegal-move"},
	{T "THE BOARD AND THE PIECES, PAWN (two first)", "0Ke1 1Ke8 0Pe2", "0K", "{\"type\":\"move\",\"from\":\"e2\",\"to\":\"e4\"}", "ok"},
	{T "THE BOARD AND THE PIECES, PAWN (one after)", "0Ke1 1Ke8 0Pe3", "0K", "{\"type\":\"move\",\"from\":\"e3\",\"to\":\"e5\"}", "illegal-move"},
	{T "THE BOARD AND THE PIECES, PAWN (forward only)", "0Ke1 1Ke8 0Pe3", "0K", "{\"type\":\"move\",\"from\":\"e3\",\"to\":\"e2\"}", "illegal-move"},
	{R "B5 (Pawns never move straight onto a piece)", "0Ke1 1Ke8 0Pe3 1Pe4", "0K", "{\"type\":\"move\",\"from\":\"e3\",\"to\":\"e4\"}", "illegal-move"},
	{R "B5 (Pawns engage diagonally forward)", "0Ke1 1Ke8 0Pe3 1Pd4", "0K", "{\"type\":\"move\",\"from\":\"e3\",\"to\":\"d4\"}", "ok"},
	{R "B5 (no diagonal move onto an empty square)", "0Ke1 1Ke8 0Pe3", "0K", "{\"type\":\"move\",\"from\":\"e3\",\"to\":\"d4\"}", "illegal-move"},
	{R "B5 (seat 1 moves down the board, G1)", "0Ke1 1Ke8 1Pe7", "1K", "{\"type\":\"move\",\"from\":\"e7\",\"to\":\"e5\"}", "ok"},
	{T "THE BOARD AND THE PIECES (the King moves Pawns)", "0Ke1 1Ke8 0Qd1 0Pa2", "0Q", "{\"type\":\"move\",\"from\":\"a2\",\"to\":\"a3\"}", "no-piece"},
	{T "THE BOARD AND THE PIECES (the Mirror moves on its character's phase)", "0Ke1 1Ke8 0Ra1m 0Rh1", "0R", "{\"type\":\"move\",\"from\":\"a1\",\"to\":\"a4\"}", "ok"},
	{T "THE BOARD AND THE PIECES (a Bishop moves no Rook)", "0Ke1 1Ke8 0Ra1 0Bc1", "0B", "{\"type\":\"move\",\"from\":\"a1\",\"to\":\"a4\"}", "no-piece"},
	{T "COMBAT 8 (no two of a team on a square)", "0Ke1 1Ke8 0Ra1 0Pa4", "0R", "{\"type\":\"move\",\"from\":\"a1\",\"to\":\"a4\"}", "own-piece"},
	{T "COMBAT 8 (own piece on the square)", "0Ke1 1Ke8 0Nb1 0Pc3", "0N", "{\"type\":\"move\",\"from\":\"b1\",\"to\":\"c3\",\"attack\":0}", "own-piece"},
	{R "B5 (unconscious pieces block movement)", "0Ke1 1Ke8 0Ra1 1Qa4u", "0R", "{\"type\":\"move\",\"from\":\"a1\",\"to\":\"a6\"}", "illegal-move"},
	{T "KING RULES (Kings freely move into check)", "0Ke1 1Ke8 1Qd3", "0K", "{\"type\":\"move\",\"from\":\"e1\",\"to\":\"e2\"}", "ok"},
	{T "KING RULES (a King may attack into check)", "0Ke1 1Ke8 1Qd3 1Pe2", "0K", "{\"type\":\"move\",\"from\":\"e1\",\"to\":\"e2\",\"attack\":0}", "ok"},
	{T "THE BOARD AND THE PIECES, PAWN (two first, not over a piece)", "0Ke1 1Ke8 0Pe2 1Pe3", "0K", "{\"type\":\"move\",\"from\":\"e2\",\"to\":\"e4\"}", "illegal-move"},
	{T "THE BOARD AND THE PIECES, PAWN (two first, not onto a piece)", "0Ke1 1Ke8 0Pe2 1Pe4", "0K", "{\"type\":\"move\",\"from\":\"e2\",\"to\":\"e4\"}", "illegal-move"},
	{R "B5 (no en passant)", "0Ke1 1Ke8 0Pe5 1Pd5", "0K", "{\"type\":\"move\",\"from\":\"e5\",\"to\":\"d6\"}", "illegal-move"},
	{R "B5 (Pawns engage diagonally forward, never back)", "0Ke1 1Ke8 0Pe3 1Pd2", "0K", "{\"type\":\"move\",\"from\":\"e3\",\"to\":\"d2\"}", "illegal-move"},
	{R "B5 (seat 1 engages diagonally down the board, G1)", "0Ke1 1Ke8 1Pe6 0Pd5", "1K", "{\"type\":\"move\",\"from\":\"e6\",\"to\":\"d5\"}", "ok"},
	{R "B5 (no promotion: a Pawn on the last rank has no move)", "0Ke1 1Ke8 0Pa8", "0K", "{\"type\":\"move\",\"from\":\"a8\",\"to\":\"a7\"}", "illegal-move"},
	{T "COMBAT 3 (attack at the end of a move, whatever the distance)", "0Ke1 1Ke8 0Qa1 1Bh8", "0Q", "{\"type\":\"move\",\"from\":\"a1\",\"to\":\"h8\",\"attack\":1}", "ok"},
	{T "COMBAT 3 (no half moves: a move onto an empty square is no attack)", "0Ke1 1Ke8 0Qa1", "0Q", "{\"type\":\"move\",\"from\":\"a1\",\"to\":\"a5\",\"attack\":1}", "no-target"},
	{T "COMBAT 5 (a Rook fires along its lines)", "0Ke1 1Ke8 0Ra1 1Qa7", "0R", "{\"type\":\"shoot\",\"from\":\"a1\",\"to\":\"a7\",\"attack\":1}", "ok"},
	{T "COMBAT 5 (a Rook fires not diagonally)", "0Ke1 1Ke8 0Ra1 1Qc3", "0R", "{\"type\":\"shoot\",\"from\":\"a1\",\"to\":\"c3\",\"attack\":1}", "out-of-range"},
	{T "COMBAT 5 (a Mirror fires as its character)", "0Ke1 1Ke8 0Ra1m 0Rh1 1Qa7", "0R", "{\"type\":\"shoot\",\"from\":\"a1\",\"to\":\"a7\",\"attack\":1}", "ok"},
	/* HTH and fire */
	{T "COMBAT 3 (moving onto an opponent is HTH)", "0Ke1 1Ke8 0Ra1 1Ba5", "0R", "{\"type\":\"move\",\"from\":\"a1\",\"to\":\"a5\",\"attack\":0}", "ok"},
	{T "COMBAT 3 (HTH needs a hand-to-hand attack)", "0Ke1 1Ke8 0Ra1 1Ba5", "0R", "{\"type\":\"move\",\"from\":\"a1\",\"to\":\"a5\",\"attack\":1}", "not-hth"},
	{T "COMBAT 3 (moving onto an opponent names the attack)", "0Ke1 1Ke8 0Ra1 1Ba5", "0R", "{\"type\":\"move\",\"from\":\"a1\",\"to\":\"a5\"}", "missing-field"},
	{T "COMBAT 5 (fire at a square the piece could move to)", "0Ke1 1Ke8 0Qd1 1Bd6", "0Q", "{\"type\":\"shoot\",\"from\":\"d1\",\"to\":\"d6\",\"attack\":0}", "ok"},
	{T "COMBAT 5 (not at a square it could not move to)", "0Ke1 1Ke8 0Qd1 1Be6", "0Q", "{\"type\":\"shoot\",\"from\":\"d1\",\"to\":\"e6\",\"attack\":0}", "out-of-range"},
	{T "COMBAT 5 (not through pieces)", "0Ke1 1Ke8 0Qd1 0Pd3 1Bd6", "0Q", "{\"type\":\"shoot\",\"from\":\"d1\",\"to\":\"d6\",\"attack\":0}", "out-of-range"},
	{T "COMBAT 5 (only Knights fire over pieces: a Rook cannot)", "0Ke1 1Ke8 0Rb1 0Pb2 1Qb8", "0R", "{\"type\":\"shoot\",\"from\":\"b1\",\"to\":\"b8\",\"attack\":1}", "out-of-range"},
	{T "COMBAT 5 (fire needs an enemy on the square)", "0Ke1 1Ke8 0Rb1 1Qa3", "0R", "{\"type\":\"shoot\",\"from\":\"b1\",\"to\":\"b8\",\"attack\":1}", "no-target"},
	{T "COMBAT 6 (fire over unconscious players)", "0Ke1 1Ke8 0Qd1 1Rd3u 1Bd6", "0Q", "{\"type\":\"shoot\",\"from\":\"d1\",\"to\":\"d6\",\"attack\":0}", "ok"},
	{R "B12 (a Mirror of an unconscious character looks unconscious)", "0Ke1 1Ke8 0Qd1 1Rd3mu 1Rh8 1Bd6", "0Q", "{\"type\":\"shoot\",\"from\":\"d1\",\"to\":\"d6\",\"attack\":0}", "ok"},
	{T "COMBAT 5 (a hand-to-hand attack is no shot)", "0Ke1 1Ke8 0Qd1 1Bd6", "0Q", "{\"type\":\"shoot\",\"from\":\"d1\",\"to\":\"d6\",\"attack\":1}", "not-ranged"},
	{T "COMBAT 5 (nothing to fire at)", "0Ke1 1Ke8 0Qd1", "0Q", "{\"type\":\"shoot\",\"from\":\"d1\",\"to\":\"d6\",\"attack\":0}", "no-target"},
	{R "B4 (Pawns do not fire)", "0Ke1 1Ke8 0Pe2 1Pd3", "0K", "{\"type\":\"shoot\",\"from\":\"e2\",\"to\":\"d3\",\"attack\":0}", "no-such-attack"},
	{R "B4 (continue HTH only when engaged)", "0Ke1 1Ke8 0Ra1", "0R", "{\"type\":\"hth\",\"attack\":0}", "not-engaged"},
	{R "B4 (Dodge)", "0Ke1 1Ke8 0Ra1", "0R", "{\"type\":\"dodge\"}", "ok"},
	{R "B4 (Recovery)", "0Ke1 1Ke8 0Ra1", "0R", "{\"type\":\"recover\"}", "ok"},
	{R "B3 (only the acting character's seat)", "0Ke1 1Ke8 0Ra1", "0R", "{\"type\":\"dodge\"}@1", "not-awaited"},
	{R "B1 (set-up actions only at set-up)", "0Ke1 1Ke8 0Ra1", "0R", "{\"type\":\"mirror\",\"square\":\"a1\"}", "illegal-action"},
};

static void
table(void)
{
	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		const struct row *r = &rows[k];
		struct bc_state *st = position(r->pos, r->acting);
		struct wr_error err;
		char act[256];
		const char *at = strchr(r->action, '@');
		int seat = at ? at[1] - '0' : r->acting[0] - '0', rc;
		char *before = bc_save_str(st), *after;

		snprintf(act, sizeof(act), "%.*s", at ? (int)(at - r->action) : (int)strlen(r->action),
		         r->action);
		memset(&err, 0, sizeof(err));
		{
			uint64_t s;
			struct wr_rng rng;
			wr_rng_seeded(&rng, &s, k);
			rc = bc_do(st, seat, act, &rng, NULL, &err);
		}
		if (strcmp(r->want, "ok") == 0) {
			CHECK(rc == 0, r->rule);
			if (rc)
				fprintf(stderr, "  row %zu %s: %s %s\n", k, act, err.code, err.message);
		} else {
			CHECK(rc != 0 && strcmp(err.code, r->want) == 0, r->rule);
			if (rc == 0 || strcmp(err.code, r->want) != 0)
				fprintf(stderr, "  row %zu %s: got %s, want %s\n", k, act,
				        rc ? err.code : "ok", r->want);
			after = bc_save_str(st);
			CHECK(strcmp(before, after) == 0, "a refused action changes nothing");
			free(after);
		}
		/* the listed actions agree with the answer */
		{
			json_object *list = bc_ruleset.actions(st, seat);
			json_object *a = bc_j(act);
			const char *canon = json_object_to_json_string_ext(a, JSON_C_TO_STRING_PLAIN);
			int listed = 0;
			if (rc == 0) {
				/* st has changed: rebuild to ask the list */
				struct bc_state *fresh = position(r->pos, r->acting);
				json_object_put(list);
				list = bc_ruleset.actions(fresh, seat);
				bc_ruleset.free(fresh);
			}
			for (size_t x = 0; x < json_object_array_length(list); x++)
				listed |= strcmp(canon, json_object_to_json_string_ext(
				                            json_object_array_get_idx(list, x),
				                            JSON_C_TO_STRING_PLAIN)) == 0;
			CHECK(listed == (strcmp(r->want, "ok") == 0), "listed exactly when legal");
			json_object_put(a);
			json_object_put(list);
		}
		free(before);
		bc_ruleset.free(st);
	}
}

/* ------------------------------------------------------ outcome rows */

static int
piece_at(const struct bc_state *st, int seat, int sq)
{
	for (int i = seat * BC_PER_SIDE; i < (seat + 1) * BC_PER_SIDE; i++)
		if (st->p[i].sq == sq)
			return i;
	return -1;
}

#define SQ(s) wr_square_parse(&wr_board8, s)

static int
do_s(struct bc_state *st, int seat, const char *json, const unsigned *f, size_t n,
     struct wr_events *ev)
{
	struct wr_error err;
	int rc;
	dice(f, n);
	rc = bc_do(st, seat, json, &scripted, ev, &err);
	if (rc)
		fprintf(stderr, "  %s: %s %s\n", json, err.code, err.message);
	return rc;
}

static int
count_events(const struct wr_events *ev, const char *type, int viewer)
{
	int n = 0;
	for (size_t k = 0; k < ev->len; k++) {
		json_object *t;
		if (!wr_event_visible(&ev->items[k], viewer))
			continue;
		json_object_object_get_ex(ev->items[k].body, "type", &t);
		n += strcmp(json_object_get_string(t), type) == 0;
	}
	return n;
}

static const char *
event_text(const struct wr_events *ev, const char *type)
{
	for (size_t k = 0; k < ev->len; k++) {
		json_object *t, *x;
		json_object_object_get_ex(ev->items[k].body, "type", &t);
		if (strcmp(json_object_get_string(t), type) == 0 &&
		    json_object_object_get_ex(ev->items[k].body, "text", &x))
			return json_object_get_string(x);
	}
	return "";
}

static void
decoys(void)
{
	struct bc_state *st;
	struct wr_events ev = {0};
	static const unsigned none[1] = {1};
	int r;

	/* B6: a move onto a decoy removes it and takes the square; the
	 * attacker stays unrevealed */
	st = position("0Ke1 1Ke8 0Ra1m 0Rh1 1Pa5", "0R");
	void *before = bc_clone(st);
	CHECK(do_s(st, 0, "{\"type\":\"move\",\"from\":\"a1\",\"to\":\"a5\",\"attack\":0}", none, 0, &ev) == 0,
	      R "B6 (the attack applies)");
	CHECK(wr_undo_reveals(&bc_ruleset, before, st, 0, &ev) == 1,
	      R "B6 (the answer reveals the decoy: an undo barrier, issue 14)");
	bc_ruleset.free(before);
	r = piece_at(st, 0, SQ("a5"));
	CHECK(r >= 0 && st->p[r].decoy && !st->p[r].revealed, R "B6 (a move onto a decoy takes the square; the attacker is not revealed)");
	CHECK(piece_at(st, 1, SQ("a5")) < 0 && st->scores[0] == 1, R "B10 (a decoy is worth 1)");
	CHECK(count_events(&ev, "decoy", WR_SPECTATOR) == 1, R "B6 (the answer is public)");
	wr_events_free(&ev);
	bc_ruleset.free(st);

	/* B12: a Rook's move is told twice: the owner's copy says Mirror, the
	 * copy for everyone says "hidden" */
	st = position("0Ke1 1Ke8 0Ra1m 0Rh1", "0R");
	before = bc_clone(st);
	CHECK(do_s(st, 0, "{\"type\":\"move\",\"from\":\"a1\",\"to\":\"a4\"}", none, 0, &ev) == 0, R "B12");
	CHECK(wr_undo_reveals(&bc_ruleset, before, st, 0, &ev) == 0,
	      R "B12 (the owner's own copy reveals nothing: undoable, issue 14)");
	bc_ruleset.free(before);
	CHECK(count_events(&ev, "move", WR_SPECTATOR) == 1 && count_events(&ev, "move", 1) == 1 &&
	      count_events(&ev, "move", 0) == 2, R "B12 (one move event for the others, two for the owner)");
	{
		int hidden = 0, told = 0;
		for (size_t k = 0; k < ev.len; k++) {
			const char *j = json_object_to_json_string(ev.items[k].body);
			if (!strstr(j, "\"move\""))
				continue;
			if (wr_event_visible(&ev.items[k], WR_SPECTATOR))
				hidden += strstr(j, "\"hidden\"") != NULL && strstr(j, "mirror") == NULL;
			else
				told += ev.items[k].visible_to == 1u && strstr(j, "\"mirror\"") != NULL;
		}
		CHECK(hidden == 1 && told == 1, R "B12 (the redacted copy never says Mirror)");
	}
	wr_events_free(&ev);
	bc_ruleset.free(st);

	/* text DECOYS: no, and the attacker is a decoy: the attacker goes */
	st = position("0Ke1 1Ke8 0Ra1m 0Rh1 1Qa5", "0R");
	CHECK(do_s(st, 0, "{\"type\":\"move\",\"from\":\"a1\",\"to\":\"a5\",\"attack\":0}", none, 0, &ev) == 0,
	      T "DECOYS");
	CHECK(piece_at(st, 0, SQ("a1")) < 0 && piece_at(st, 0, SQ("a5")) < 0 &&
	      piece_at(st, 1, SQ("a5")) >= 0 && st->scores[1] == 1,
	      T "DECOYS (a decoy attacking a real piece is removed)");
	wr_events_free(&ev);
	bc_ruleset.free(st);

	/* text COMBAT 5: a ranged attack never takes the square */
	st = position("0Ke1 1Ke8 0Qd1 1Pd6", "0Q");
	CHECK(do_s(st, 0, "{\"type\":\"shoot\",\"from\":\"d1\",\"to\":\"d6\",\"attack\":0}", none, 0, &ev) == 0,
	      T "COMBAT 5");
	CHECK(piece_at(st, 0, SQ("d1")) >= 0 && piece_at(st, 0, SQ("d6")) < 0 &&
	      piece_at(st, 1, SQ("d6")) < 0,
	      T "COMBAT 5 (the shooter does not take the square)");
	wr_events_free(&ev);
	bc_ruleset.free(st);

	/* a Pawn onto a real piece: the Pawn goes */
	st = position("0Ke1 1Ke8 0Pe3 1Qd4", "0K");
	CHECK(do_s(st, 0, "{\"type\":\"move\",\"from\":\"e3\",\"to\":\"d4\"}", none, 0, &ev) == 0, T "DECOYS");
	CHECK(piece_at(st, 0, SQ("e3")) < 0 && piece_at(st, 1, SQ("d4")) >= 0, T "DECOYS (a Pawn attacking a real piece is removed)");
	wr_events_free(&ev);
	bc_ruleset.free(st);
}

static void
hth(void)
{
	struct bc_state *st;
	struct wr_events ev = {0};
	/* Rook (martial artist, OCV 9) onto the enemy Queen (blaster, DCV 7):
	 * need 13; roll 4+4+4 = 12 hits; 8d6 Martial Strike all 3s = 24 STUN,
	 * 8 BODY; the blaster's PD 10: 14 STUN, 0 BODY taken */
	static const unsigned f1[] = {4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 3};
	struct wr_error err;
	int a, d;

	st = position("0Ke1 1Ke8 0Ra1 1Qa5", "0R");
	CHECK(do_s(st, 0, "{\"type\":\"move\",\"from\":\"a1\",\"to\":\"a5\",\"attack\":0}", f1, 11, &ev) == 0, T "COMBAT 2");
	a = piece_at(st, 0, SQ("a5"));
	d = piece_at(st, 1, SQ("a5"));
	CHECK(a >= 0 && d >= 0 && st->p[a].engaged == d && st->p[d].engaged == a, R "B7 (engaged pieces share the square)");
	CHECK(st->ch[1][BC_QUEEN].stun == 40 - 14 && st->ch[1][BC_QUEEN].body == 10, R "B8 (normal damage less PD)");
	CHECK_STR(event_text(&ev, "attack"), "to-hit roll 12 needed 13 or less: hit", "the attack in words");
	CHECK_STR(event_text(&ev, "damage"), "14 STUN, 0 BODY after defenses", "the damage in words");
	CHECK(st->p[a].revealed && st->p[d].revealed, R "B6 (combat reveals both as real)");
	wr_events_free(&ev);
	/* the engaged Rook cannot leave (text COMBAT 2) */
	st->queue[0] = 0 * BC_ROLES + BC_ROOK;
	{
		uint64_t s;
		struct wr_rng rng;
		wr_rng_seeded(&rng, &s, 1);
		CHECK(bc_do(st, 0, "{\"type\":\"move\",\"from\":\"a5\",\"to\":\"a3\"}", &rng, NULL, &err) != 0 &&
		      strcmp(err.code, "engaged") == 0, T "COMBAT 2 (no leaving an HTH combat)");
	}
	/* nobody else may enter the square (COMBAT 8) */
	st->queue[0] = 0 * BC_ROLES + BC_KING;
	st->p[0].sq = SQ("b4");
	{
		uint64_t s;
		struct wr_rng rng;
		wr_rng_seeded(&rng, &s, 1);
		CHECK(bc_do(st, 0, "{\"type\":\"move\",\"from\":\"b4\",\"to\":\"a5\",\"attack\":0}", &rng, NULL, &err) != 0 &&
		      strcmp(err.code, "occupied") == 0, T "COMBAT 8 (only two on a square)");
	}
	/* the Queen continues the HTH on her phase (B4) */
	st->queue[0] = 1 * BC_ROLES + BC_QUEEN;
	{
		static const unsigned f2[] = {6, 6, 6};   /* 18 always misses */
		CHECK(do_s(st, 1, "{\"type\":\"hth\",\"attack\":1}", f2, 3, &ev) == 0, R "B4 (continue HTH)");
		CHECK(st->ch[0][BC_ROOK].stun == 35, R "B8 (18 always misses)");
		wr_events_free(&ev);
	}
	/* the Rook knocks the Queen out and removes her: the survivor keeps
	 * the square (text COMBAT 2, B7) */
	st->queue[0] = 0 * BC_ROLES + BC_ROOK;
	st->ch[1][BC_QUEEN].stun = 5;
	st->ch[1][BC_QUEEN].body = 1;
	{
		static const unsigned f3[] = {1, 1, 1, 6, 6, 6, 6, 6, 6, 6, 6};   /* 3 always hits */
		st->ch[1][BC_QUEEN].sh.dcv = 30;
		CHECK(do_s(st, 0, "{\"type\":\"hth\",\"attack\":0}", f3, 11, &ev) == 0, R "B8 (3 always hits)");
		CHECK(piece_at(st, 1, SQ("a5")) < 0 && st->p[a].sq == SQ("a5") && st->p[a].engaged < 0,
		      R "B7 (the survivor holds the square)");
		CHECK(st->ch[1][BC_QUEEN].removed && st->scores[0] == 5, R "B10 (a character is worth 5)");
		wr_events_free(&ev);
	}
	bc_ruleset.free(st);
}

static void
damage(void)
{
	/* B8 by hand: normal 4d6 = 1,2,6,6 -> STUN 15, BODY 0+1+2+2 = 5 */
	struct bc_attack normal = {"x", 4, 0, 0, 0, 0}, killing = {"k", 2, 1, 0, 0, 0};
	struct bc_sheet def = {"d", 10, 3, 5, 5, 20, 10, 30, 5, 3, 8, 0, 0, 1, {{"p", 1, 0, 0, 0, 0}}};
	struct bc_damage d;
	static const unsigned f[] = {1, 2, 6, 6};
	static const unsigned fk[] = {4, 5, 1};
	int dd[20], stun, body, mult;

	dice(f, 4);
	bc_roll_damage(&normal, &scripted, dd, &stun, &body, &mult);
	CHECK(stun == 15 && body == 5, R "B8 (normal damage: STUN total, BODY 0/1/2 per die)");
	bc_damage_taken(&normal, &def, stun, body, &d);
	CHECK(d.stun_taken == 12 && d.body_taken == 2, R "B8 (normal attacks lose PD from STUN and BODY)");
	dice(fk, 3);
	bc_roll_damage(&killing, &scripted, dd, &stun, &body, &mult);
	CHECK(body == 9 && mult == 1 && stun == 9, R "B8 (killing: BODY total, multiplier max(1, d6-1))");
	def.rpd = 2;
	bc_damage_taken(&killing, &def, stun, body, &d);
	CHECK(d.body_taken == 7 && d.stun_taken == 6, R "B8 (killing attacks lose resistant PD from BODY, PD from STUN)");
	killing.vs_ed = 1;
	def.red = 4;
	bc_damage_taken(&killing, &def, 30, 10, &d);
	CHECK(d.body_taken == 6 && d.stun_taken == 22, R "B8 (against ED)");
	CHECK(bc_to_hit_need(7, 5) == 13 && bc_hits(13, 13) && !bc_hits(14, 13) && bc_hits(3, -5) &&
	      !bc_hits(18, 30), R "B8 (11 + OCV - DCV on 3d6; 3 hits, 18 misses)");
}

static void
conditions(void)
{
	struct bc_state *st = position("0Ke1 1Ke8 0Qd1 1Rd6 1Ra8m", "0Q");
	struct wr_list ev;
	int unused[2];
	(void)unused;
	wr_list_init(&ev, sizeof(struct bc_event));
	/* Stunned: STUN taken above CON (martial artist CON 20) */
	bc_take(st, 1, BC_ROOK, 21, 0, &ev);
	CHECK(st->ch[1][BC_ROOK].stunned && !st->ch[1][BC_ROOK].unconscious, R "B8 (Stunned above CON)");
	bc_take(st, 1, BC_ROOK, 14, 0, &ev);
	CHECK(st->ch[1][BC_ROOK].unconscious && st->ch[1][BC_ROOK].stun == 0, R "B8 (unconscious at STUN 0)");
	CHECK(bc_piece_looks_unconscious(st, piece_at(st, 1, SQ("a8"))), R "B12 (the Mirror looks unconscious too)");
	CHECK(bc_dcv(st, 1, BC_ROOK, NULL) == 0, R "B8 (unconscious: DCV 0)");
	/* removed below -REC: REC 8, so -8 stays, -9 goes (text COMBAT 4) */
	bc_take(st, 1, BC_ROOK, 8, 0, &ev);
	CHECK(!st->ch[1][BC_ROOK].removed, T "COMBAT 4 (unconscious by REC: still on the board)");
	bc_take(st, 1, BC_ROOK, 1, 0, &ev);
	CHECK(st->ch[1][BC_ROOK].removed && piece_at(st, 1, SQ("d6")) < 0 && piece_at(st, 1, SQ("a8")) >= 0,
	      T "COMBAT 4 (unconscious by more than REC: removed; the Mirror stays)");
	/* BODY to 0 */
	bc_take(st, 0, BC_QUEEN, 0, 10, &ev);
	CHECK(st->ch[0][BC_QUEEN].removed, T "COMBAT 4 (BODY at 0: removed)");
	wr_list_free(&ev);
	bc_ruleset.free(st);
}

static void
dodge_and_area(void)
{
	/* the brick King (SPD 3) dodges in Segment 1; his next phase is in
	 * Segment 4, after the Queen's in 3 */
	struct bc_state *st = position("0Ke1 1Ke8 0Qd1", "1K");
	struct wr_events ev = {0};
	static const unsigned none[1] = {1};

	CHECK(do_s(st, 1, "{\"type\":\"dodge\"}", none, 0, &ev) == 0, R "B4 (Dodge)");
	CHECK(st->segment == 3 && bc_dcv(st, 1, BC_KING, NULL) == 8, R "B4 (Dodge: +3 DCV until the next phase)");
	wr_events_free(&ev);
	bc_ruleset.free(st);

	/* Area Effect: a miss detonates on the attacker's square (text 10) */
	{
		static const unsigned f[] = {6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6};
		const char *sheets[] = {"brick", "grenadier", "martial-artist", "slasher", "speedster",
		                        "brick", "blaster", "martial-artist", "slasher", "speedster"};
		uint64_t s;
		struct wr_rng rng;
		struct bc_state *g;
		wr_rng_seeded(&rng, &s, 3);
		g = bc_match(NULL, NULL, NULL, &rng, sheets);
		for (int i = 0; i < BC_PIECES; i++)
			if (bc_piece_kind(i) != BC_KING && !(i == 1))
				g->p[i].sq = -1;
		for (int s2 = 0; s2 < 2; s2++)
			for (int r = 0; r < BC_ROLES; r++)
				g->ch[s2][r].removed = bc_real_piece(g, s2, r) < 0;
		g->p[1].sq = SQ("d1");
		g->p[BC_PER_SIDE].sq = SQ("d6");   /* the enemy King */
		g->stage = BC_PLAY;
		g->nqueue = 1;
		g->qpos = 0;
		g->segment = 1;
		g->turn = 1;
		g->queue[0] = BC_QUEEN;
		/* 18 misses; 8d6 of 6s = 48 STUN on the grenadier's PD 12 */
		CHECK(do_s(g, 0, "{\"type\":\"shoot\",\"from\":\"d1\",\"to\":\"d6\",\"attack\":0}", f, 11, &ev) == 0,
		      T "COMBAT 10");
		CHECK_STR(event_text(&ev, "damage"), "36 STUN, 4 BODY after defenses: knocked out",
		          T "COMBAT 10 (a missed Area Effect hits the attacker's square)");
		CHECK(g->ch[1][BC_KING].stun == 50, T "COMBAT 10 (and not the target)");
		wr_events_free(&ev);
		bc_ruleset.free(g);
	}
}

static void
speed_chart(void)
{
	/* B3: the Champions Speed Chart */
	static const int want[13][12] = {
		{0}, {7}, {6, 12}, {4, 8, 12}, {3, 6, 9, 12}, {3, 5, 8, 10, 12}, {2, 4, 6, 8, 10, 12},
		{2, 4, 6, 7, 9, 11, 12}, {2, 3, 5, 6, 8, 9, 11, 12}, {2, 3, 4, 6, 7, 8, 10, 11, 12},
		{2, 3, 4, 5, 6, 8, 9, 10, 11, 12}, {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
		{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}};
	int ok = 1;
	for (int spd = 1; spd <= 12; spd++)
		for (int seg = 1; seg <= 12; seg++) {
			int in = 0;
			for (int k = 0; k < 12 && want[spd][k]; k++)
				in |= want[spd][k] == seg;
			ok &= in == bc_has_phase(spd, seg);
		}
	CHECK(ok, R "B3 (phases by SPD)");

	/* play starts in Segment 12, everyone acts, highest DEX first; ties
	 * rolled off; then Turn 2 Segment 1 after the post-12 recovery */
	{
		uint64_t s;
		struct wr_rng rng;
		struct bc_state *st;
		int last = 99, ok2 = 1;
		wr_rng_seeded(&rng, &s, 5);
		st = bc_match(NULL, NULL, NULL, &rng, NULL);
		CHECK(st->stage == BC_PLAY && st->turn == 1 && st->segment == 12 && st->nqueue == 10,
		      R "B3 (play starts in Segment 12)");
		for (int k = 0; k < st->nqueue; k++) {
			int q = st->queue[k], dex = st->ch[q / 5][q % 5].sh.dex;
			ok2 &= dex <= last;
			last = dex;
		}
		CHECK(ok2, R "B3 (DEX order)");
		st->ch[0][BC_KING].stun = 10;
		for (int k = 0; k < 10; k++) {
			struct wr_events ev = {0};
			int c = bc_acting_char(st);
			bc_do(st, c / 5, "{\"type\":\"dodge\"}", &rng, &ev, NULL);
			wr_events_free(&ev);
		}
		CHECK(st->turn == 2 && st->segment >= 1 && st->ch[0][BC_KING].stun == 22,
		      R "B3 (after Segment 12: REC STUN back; Turn 2)");
		bc_ruleset.free(st);
	}
}

static void
end_and_setup(void)
{
	struct bc_state *st = position("0Ke1 1Ke8 0Qd8", "0Q");
	struct wr_events ev = {0};
	struct wr_result res;
	static const unsigned f[] = {1, 1, 1, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6};
	struct wr_error err;

	/* blast the King (brick, ED 20, STUN 50, BODY 15): 12d6 of 6s = 72
	 * STUN 24 BODY: 52 STUN and 4 BODY taken: -2 STUN, unconscious, not
	 * removed (REC 12); a second time removes him */
	st->ch[1][BC_KING].stun = 5;
	st->ch[1][BC_KING].body = 4;
	CHECK(do_s(st, 0, "{\"type\":\"shoot\",\"from\":\"d8\",\"to\":\"e8\",\"attack\":0}", f, 15, &ev) == 0,
	      T "THE OBJECT OF THE GAME");
	bc_ruleset.result(st, &res);
	CHECK(res.over && res.winners == 1u && res.scores[0] == 20,
	      R "B10 (a King removed ends the match; 20 points)");
	CHECK(bc_to_act(st) == 0, R "B10 (nobody acts after the end)");
	CHECK(bc_do(st, 0, "{\"type\":\"dodge\"}", &scripted, NULL, &err) != 0 &&
	      strcmp(err.code, "game-over") == 0, R "B10 (game-over)");
	wr_events_free(&ev);
	bc_ruleset.free(st);

	/* set-up rows (B1) */
	{
		uint64_t s;
		struct wr_rng rng;
		void *m = NULL;
		json_object *o = bc_j("{}");
		wr_rng_seeded(&rng, &s, 8);
		bc_ruleset.create(o, 2, &rng, &m, &err);
		CHECK(bc_to_act(m) == 3u, R "B1 (both sides set up at once)");
		CHECK(bc_do(m, 0, "{\"type\":\"mirror\",\"square\":\"d1\"}", &rng, NULL, &err) != 0 &&
		      strcmp(err.code, "illegal-action") == 0, R "B1 (a Queen is never a Mirror)");
		CHECK(bc_do(m, 0, "{\"type\":\"mirror\",\"square\":\"a8\"}", &rng, NULL, &err) != 0,
		      R "B1 (only one's own pieces)");
		CHECK(bc_do(m, 0, "{\"type\":\"mirror\",\"square\":\"h1\"}", &rng, NULL, &err) == 0,
		      R "B1 (the Mirror Rook)");
		CHECK(bc_do(m, 0, "{\"type\":\"mirror\",\"square\":\"a1\"}", &rng, NULL, &err) != 0 &&
		      strcmp(err.code, "already-chosen") == 0, R "B1 (one Mirror Rook)");
		CHECK(bc_do(m, 0, "{\"type\":\"sheet\",\"role\":\"king\",\"template\":\"nobody\"}", &rng, NULL, &err) != 0 &&
		      strcmp(err.code, "no-such-template") == 0, R "B2 (templates by name)");
		{
			json_object *no = bc_j("{\"referee\":false}");
			void *m3 = NULL;
			CHECK(bc_ruleset.create(no, 3, &rng, &m3, &err) != 0, R "B11 (3 seats only with the referee)");
			json_object_put(no);
			no = bc_j("{\"referee\":true}");
			CHECK(bc_ruleset.create(no, 2, &rng, &m3, &err) != 0, R "B11 (the referee needs a third seat)");
			json_object_put(no);
		}
		json_object_put(o);
		o = bc_j("{\"mirrors\":\"random\"}");
		bc_ruleset.free(m);
		m = NULL;
		bc_ruleset.create(o, 2, &rng, &m, &err);
		{
			json_object *l = bc_ruleset.actions(m, 0);
			int mirrors = 0;
			for (size_t k = 0; k < json_object_array_length(l); k++)
				mirrors += strstr(json_object_to_json_string(json_object_array_get_idx(l, k)),
				                  "mirror") != NULL;
			CHECK(mirrors == 0 && json_object_array_length(l) > 0, R "B1 (random Mirrors: only sheets to pick)");
			json_object_put(l);
		}
		json_object_put(o);
		bc_ruleset.free(m);
	}
}

static void
referee(void)
{
	uint64_t s;
	struct wr_rng rng;
	struct bc_state *st;
	struct wr_events ev = {0};
	int a;

	wr_rng_seeded(&rng, &s, 4);
	st = bc_match("{\"referee\":true}", NULL, NULL, &rng, NULL);
	CHECK(st->seats == 3, R "B11 (a third seat)");
	for (int i = 0; i < BC_PIECES; i++)
		if (bc_piece_kind(i) != BC_KING && bc_piece_kind(i) != BC_QUEEN)
			st->p[i].sq = -1;
	for (int s2 = 0; s2 < 2; s2++)
		for (int r = 0; r < BC_ROLES; r++)
			st->ch[s2][r].removed = bc_real_piece(st, s2, r) < 0;
	st->p[1].sq = SQ("d4");
	st->p[BC_PER_SIDE + 1].sq = SQ("d5");
	st->nqueue = 1;
	st->qpos = 0;
	st->segment = 1;
	st->queue[0] = BC_QUEEN;
	bc_do(st, 0, "{\"type\":\"move\",\"from\":\"d4\",\"to\":\"d5\",\"attack\":1}", &rng, &ev, NULL);
	CHECK(st->stage == BC_REFEREE && bc_to_act(st) == 4u, R "B11 (the referee is awaited)");
	a = wrt_nactions(&bc_ruleset, st, 2);
	CHECK(a == 2, R "B11 (hit or miss)");
	wr_events_free(&ev);
	bc_do(st, 2, "{\"type\":\"ref_hit\",\"hit\":true}", &rng, &ev, NULL);
	/* as much as the server's own dice may deal: a 6d6 killing attack
	 * (B2's most) at x5 (B8), STUN 180; a 20d6 normal one, BODY 40 */
	a = wrt_nactions(&bc_ruleset, st, 2);
	CHECK(a == 181, R "B11 (the referee may post STUN 0 to 180)");
	bc_do(st, 2, "{\"type\":\"ref_stun\",\"value\":11}", &rng, &ev, NULL);
	a = wrt_nactions(&bc_ruleset, st, 2);
	CHECK(a == 41, R "B11 (the referee may post BODY 0 to 40)");
	bc_do(st, 2, "{\"type\":\"ref_body\",\"value\":3}", &rng, &ev, NULL);
	CHECK(st->ch[1][BC_QUEEN].stun == 29 && st->ch[1][BC_QUEEN].body == 7,
	      R "B11 (the posted outcome is taken)");
	CHECK(st->stage == BC_PLAY, R "B11 (play goes on)");
	wr_events_free(&ev);
	bc_ruleset.free(st);
}

/* Plays one action of the acting seat with the seeded dice of `seed`. */
static int
do_seeded(struct bc_state *st, int seat, const char *json, uint64_t seed, struct wr_events *ev)
{
	uint64_t s;
	struct wr_rng rng;
	struct wr_error err;
	int rc;
	wr_rng_seeded(&rng, &s, seed);
	rc = bc_do(st, seat, json, &rng, ev, &err);
	if (rc)
		fprintf(stderr, "  %s: %s %s\n", json, err.code, err.message);
	return rc;
}

/* Two pieces engaged on one square (B7). */
static void
engage(struct bc_state *st, int a, int d)
{
	st->p[a].sq = st->p[d].sq;
	st->p[a].engaged = d;
	st->p[d].engaged = a;
}

static void
decoy_cases(void)
{
	struct bc_state *st;
	struct wr_events ev = {0};
	static const unsigned none[1] = {1};
	int r;

	/* text DECOYS: a real attacker moving onto a Mirror: the Mirror goes,
	 * no combat, the attacker takes the square */
	st = position("0Ke1 1Ke8 0Rh5 1Bc5m 1Bf8", "0R");
	CHECK(do_s(st, 0, "{\"type\":\"move\",\"from\":\"h5\",\"to\":\"c5\",\"attack\":0}", none, 0, &ev) == 0 &&
	      script.pos == 0, T "DECOYS (yes: no combat, no dice)");
	r = piece_at(st, 0, SQ("c5"));
	CHECK(r >= 0 && !st->p[r].decoy && st->p[r].engaged < 0 && piece_at(st, 1, SQ("c5")) < 0 &&
	      st->scores[0] == 1 && !st->ch[1][BC_BISHOP].removed,
	      T "DECOYS (a real attacker removes a Mirror and takes its square; 1 point)");
	CHECK(count_events(&ev, "attack", WR_SPECTATOR) == 0, T "DECOYS (no attack is rolled on a decoy)");
	wr_events_free(&ev);
	bc_ruleset.free(st);

	/* a decoy attacking a decoy: "whether the attacker is a decoy or not" */
	st = position("0Ke1 1Ke8 0Pe3 1Bd4m 1Bf8", "0K");
	CHECK(do_s(st, 0, "{\"type\":\"move\",\"from\":\"e3\",\"to\":\"d4\"}", none, 0, &ev) == 0, T "DECOYS");
	CHECK(piece_at(st, 0, SQ("d4")) >= 0 && piece_at(st, 1, SQ("d4")) < 0 && st->scores[0] == 1,
	      T "DECOYS (a Pawn removes a Mirror: the defender goes whether the attacker is a decoy or not)");
	wr_events_free(&ev);
	bc_ruleset.free(st);

	/* a shot at a Mirror removes it; the shooter stays (COMBAT 5) */
	st = position("0Ke1 1Ke8 0Qd1 1Rd6m 1Rh8", "0Q");
	CHECK(do_s(st, 0, "{\"type\":\"shoot\",\"from\":\"d1\",\"to\":\"d6\",\"attack\":0}", none, 0, &ev) == 0,
	      T "DECOYS");
	CHECK(piece_at(st, 1, SQ("d6")) < 0 && piece_at(st, 0, SQ("d1")) >= 0 &&
	      piece_at(st, 0, SQ("d6")) < 0 && st->scores[0] == 1 && !st->ch[1][BC_ROOK].removed,
	      T "DECOYS (a shot at a Mirror removes it; COMBAT 5: the shooter does not take the square)");
	wr_events_free(&ev);
	bc_ruleset.free(st);

	/* a Mirror firing at a real piece is removed (DECOYS, "no and the
	 * attacker is a decoy"); the target is untouched */
	st = position("0Ke1 1Ke8 0Ra1m 0Rh1 1Qa7", "0R");
	CHECK(do_s(st, 0, "{\"type\":\"shoot\",\"from\":\"a1\",\"to\":\"a7\",\"attack\":1}", none, 0, &ev) == 0,
	      T "DECOYS");
	CHECK(piece_at(st, 0, SQ("a1")) < 0 && st->ch[1][BC_QUEEN].stun == 40 && st->scores[1] == 1 &&
	      !st->ch[0][BC_ROOK].removed,
	      T "DECOYS (a Mirror firing at a real piece is removed, the target unhurt)");
	wr_events_free(&ev);
	bc_ruleset.free(st);
}

static void
help_and_area(void)
{
	struct bc_state *st;
	struct wr_events ev = {0};
	/* 3+3+3 = 9 hits; 12d6 of 3s: 36 STUN, 12 BODY against the
	 * slasher's ED 12: 24 STUN, 0 BODY */
	static const unsigned f[] = {3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3};
	/* text COMBAT 9: firing at a teammate's HTH combat hits the enemy
	 * there, not the teammate */
	st = position("0Ke1 1Ke8 0Qd1 0Rh1 1Bd5", "0Q");
	engage(st, bc_real_piece(st, 0, BC_ROOK), bc_real_piece(st, 1, BC_BISHOP));
	CHECK(do_s(st, 0, "{\"type\":\"shoot\",\"from\":\"d1\",\"to\":\"d5\",\"attack\":0}", f, 15, &ev) == 0,
	      T "COMBAT 9 (fire to help a teammate in HTH combat)");
	CHECK(st->ch[1][BC_BISHOP].stun == 40 - 24 && st->ch[0][BC_ROOK].stun == 35,
	      T "COMBAT 9 (the enemy in the fight is hit, the teammate is not)");
	wr_events_free(&ev);
	bc_ruleset.free(st);

	/* text COMBAT 7: no attacks do knockback: a hit target stays on its
	 * square (12d6 of 2s: 24 STUN, 12 BODY; ED 12: 12 STUN taken) */
	{
		static const unsigned twos[] = {3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2};
		st = position("0Ke1 1Ke8 0Qd1 1Bd6", "0Q");
		CHECK(do_s(st, 0, "{\"type\":\"shoot\",\"from\":\"d1\",\"to\":\"d6\",\"attack\":0}", twos, 15,
		           &ev) == 0,
		      T "COMBAT 7");
		CHECK(st->ch[1][BC_BISHOP].stun == 40 - 12 && piece_at(st, 1, SQ("d6")) >= 0,
		      T "COMBAT 7 (no knockback: the target stays on its square)");
		wr_events_free(&ev);
		bc_ruleset.free(st);
	}

	/* text COMBAT 10, B9: an Area Effect that hits affects everyone on the
	 * target square, the teammate too, each with its own defenses. The
	 * grenadier (OCV 6) against DCV 3 needs 14; 3+3+3 hits; 8d6 of 3s:
	 * 24 STUN, 8 BODY against PD: martial artist PD 12 -> 12 STUN,
	 * slasher PD 15 -> 9 STUN */
	{
		static const char *const sheets[] = {"brick", "grenadier", "martial-artist", "slasher", "speedster",
		                                     "brick", "blaster", "martial-artist", "slasher", "speedster"};
		st = position_with("0Ke1 1Ke8 0Qd1 0Rh1 1Bd5", "0Q", sheets);
		engage(st, bc_real_piece(st, 0, BC_ROOK), bc_real_piece(st, 1, BC_BISHOP));
		CHECK(do_s(st, 0, "{\"type\":\"shoot\",\"from\":\"d1\",\"to\":\"d5\",\"attack\":0}", f, 11, &ev) == 0,
		      T "COMBAT 10");
		CHECK(st->ch[0][BC_ROOK].stun == 35 - 12 && st->ch[1][BC_BISHOP].stun == 40 - 9 &&
		      st->ch[0][BC_QUEEN].stun == 30,
		      T "COMBAT 10 (an Area Effect affects the whole target square, B9: the teammate too)");
		wr_events_free(&ev);
		bc_ruleset.free(st);

		/* text COMBAT 5: Knights fire over intervening pieces (the
		 * marksman's Rifle as the Knight's ranged attack) */
		static const char *const rifle[] = {"brick", "blaster", "martial-artist", "slasher", "marksman",
		                                    "brick", "blaster", "martial-artist", "slasher", "speedster"};
		st = position_with("0Ke1 1Ke8 0Ng1 0Pf2 0Pg2 0Ph2 0Pf1 1Qf3", "0N", rifle);
		CHECK(do_seeded(st, 0, "{\"type\":\"shoot\",\"from\":\"g1\",\"to\":\"f3\",\"attack\":0}", 2,
		                NULL) == 0,
		      T "COMBAT 5 (Knights fire over intervening pieces)");
		bc_ruleset.free(st);
	}
}

static void
phases(void)
{
	struct bc_state *st;
	struct wr_events ev = {0};

	/* B8: STUN taken above CON: Stunned, the next phase is lost (only
	 * that one: the martial artist, SPD 6, acts again in Segment 2) */
	st = position("0Ke1 1Ke8 0Qd1 1Rd6", "0Q");
	st->nqueue = 2;
	st->queue[1] = 1 * BC_ROLES + BC_ROOK;
	st->ch[1][BC_ROOK].stunned = 1;
	CHECK(do_seeded(st, 0, "{\"type\":\"dodge\"}", 1, &ev) == 0, R "B8");
	CHECK(count_events(&ev, "lost_phase", WR_SPECTATOR) == 1 && !st->ch[1][BC_ROOK].stunned &&
	      st->segment == 2 && bc_acting_char(st) == 1 * BC_ROLES + BC_ROOK,
	      R "B8 (Stunned: the next phase is lost, then the character acts again)");
	wr_events_free(&ev);
	bc_ruleset.free(st);

	/* B8: unconscious, the character recovers REC on its phase instead of
	 * acting (martial artist REC 8: -1 -> 7, awake) */
	st = position("0Ke1 1Ke8 0Qd1 1Rd6u", "0Q");
	st->nqueue = 2;
	st->queue[1] = 1 * BC_ROLES + BC_ROOK;
	CHECK(do_seeded(st, 0, "{\"type\":\"dodge\"}", 1, &ev) == 0, R "B8");
	CHECK(count_events(&ev, "wake", WR_SPECTATOR) == 1 && st->ch[1][BC_ROOK].stun == 7 &&
	      !st->ch[1][BC_ROOK].unconscious && count_events(&ev, "phase", WR_SPECTATOR) == 1 &&
	      st->segment == 2 && bc_acting_char(st) == 1 * BC_ROLES + BC_ROOK,
	      R "B8 (unconscious: REC STUN on the phase instead of acting)");
	wr_events_free(&ev);
	bc_ruleset.free(st);

	/* B4: a Recovery regains REC STUN, never above the sheet's STUN */
	st = position("0Ke1 1Ke8 0Rd4", "0R");
	st->ch[0][BC_ROOK].stun = 10;
	CHECK(do_seeded(st, 0, "{\"type\":\"recover\"}", 1, NULL) == 0 && st->ch[0][BC_ROOK].stun == 18,
	      R "B4 (Recovery: REC STUN back)");
	bc_ruleset.free(st);
	st = position("0Ke1 1Ke8 0Rd4", "0R");
	st->ch[0][BC_ROOK].stun = 30;
	CHECK(do_seeded(st, 0, "{\"type\":\"recover\"}", 1, NULL) == 0 && st->ch[0][BC_ROOK].stun == 35,
	      R "B4 (Recovery: up to the sheet's STUN)");
	bc_ruleset.free(st);

	/* B8: no range modifier: the martial artist (OCV 9) throws at the
	 * blaster (DCV 7) seven squares away and needs 11 + 9 - 7 = 13 */
	{
		static const unsigned miss[] = {6, 6, 6};
		st = position("0Ke1 1Ke8 0Ra1 1Qa8", "0R");
		CHECK(do_s(st, 0, "{\"type\":\"shoot\",\"from\":\"a1\",\"to\":\"a8\",\"attack\":1}", miss, 3,
		           &ev) == 0,
		      R "B8");
		CHECK_STR(event_text(&ev, "attack"), "to-hit roll 18 needed 13 or less: miss",
		          R "B8 (no range modifier: 11 + OCV - DCV at seven squares)");
		wr_events_free(&ev);
		bc_ruleset.free(st);
	}

	/* THE OBJECT OF THE GAME: "A perfect score, then, would be 51 to 0"
	 * (King 20, four characters 5 each, eleven decoys 1 each) */
	{
		struct wr_list l;
		uint64_t s;
		struct wr_rng rng;
		wr_list_init(&l, sizeof(struct bc_event));
		wr_rng_seeded(&rng, &s, 1);
		st = bc_match(NULL, NULL, NULL, &rng, NULL);
		for (int i = BC_PER_SIDE; i < 2 * BC_PER_SIDE; i++)
			bc_remove_piece(st, i, &l);
		CHECK(st->scores[0] == 51 && st->scores[1] == 0, T "THE OBJECT OF THE GAME (a perfect score is 51 to 0)");
		wr_list_free(&l);
		bc_ruleset.free(st);
	}

	/* B8: killing STUN = BODY x max(1, d6 - 1): a 6 multiplies by 5 */
	{
		struct bc_attack killing = {"k", 2, 1, 0, 0, 0};
		static const unsigned fk[] = {4, 5, 6};
		int dd[20], stun, body, mult;
		dice(fk, 3);
		bc_roll_damage(&killing, &scripted, dd, &stun, &body, &mult);
		CHECK(body == 9 && mult == 5 && stun == 45, R "B8 (killing: STUN multiplier d6 - 1)");
	}

	/* B3: DEX ties rolled off on a d6, high first; equal rolls re-roll.
	 * Both sides have the same sheets, so each role ties: round one
	 * (queue order seat 0 K Q R B N, seat 1 K Q R B N) has seat 1 win
	 * every pair but the Rooks (3 and 3), who roll again (6 against 2). */
	{
		static const unsigned f[] = {1, 1, 3, 1, 1, 6, 6, 3, 6, 6, 6, 2};
		static const int want[10] = {0 * 5 + BC_ROOK, 1 * 5 + BC_ROOK,   1 * 5 + BC_KNIGHT,
		                             0 * 5 + BC_KNIGHT, 1 * 5 + BC_BISHOP, 0 * 5 + BC_BISHOP,
		                             1 * 5 + BC_QUEEN, 0 * 5 + BC_QUEEN, 1 * 5 + BC_KING,
		                             0 * 5 + BC_KING};
		int ok = 1;
		dice(f, 12);
		st = bc_match(NULL, NULL, NULL, &scripted, NULL);
		for (int k = 0; k < 10; k++)
			ok &= st->queue[k] == want[k];
		CHECK(ok && st->nqueue == 10 && script.pos == 12 && !script.exhausted,
		      R "B3 (ties by a d6 roll-off, high first; equal rolls re-rolled, G2)");
		CHECK(st->turn_limit == 0,
		      T "THE OBJECT OF THE GAME (it ends when a King is eliminated: no turn limit by default)");
		bc_ruleset.free(st);
	}
}

/* B2: sheets given at creation are offered by name next to the templates
 * and are public; a sheet outside the stated shape is refused. */
static void
sheets_given(void)
{
	static const char glass[] =
		"{\"sheets\":{\"Glass Cannon\":{\"dex\":30,\"spd\":8,\"ocv\":12,\"dcv\":3,\"con\":10,"
		"\"body\":5,\"stun\":12,\"rec\":3,\"pd\":2,\"ed\":2,\"rpd\":%d,\"red\":0,\"attacks\":"
		"[{\"name\":\"Knife\",\"dice\":2,\"killing\":true}]}}}";
	char opts[512];
	uint64_t s;
	struct wr_rng rng;
	struct wr_error err;
	void *m = NULL;
	json_object *o;

	wr_rng_seeded(&rng, &s, 9);
	snprintf(opts, sizeof(opts), glass, 0);
	o = bc_j(opts);
	CHECK(bc_ruleset.create(o, 2, &rng, &m, &err) == 0, R "B2 (sheets given at creation)");
	json_object_put(o);
	CHECK(bc_do(m, 0, "{\"type\":\"sheet\",\"role\":\"king\",\"template\":\"Glass Cannon\"}", &rng,
	            NULL, &err) == 0,
	      R "B2 (a given sheet is picked by name)");
	{
		json_object *v = bc_ruleset.view(m, 1);
		CHECK(strstr(json_object_to_json_string(v), "Glass Cannon") != NULL,
		      R "B2 (the sheet is public: the other side sees it)");
		json_object_put(v);
	}
	bc_ruleset.free(m);
	m = NULL;
	snprintf(opts, sizeof(opts), glass, 3);
	o = bc_j(opts);
	CHECK(bc_ruleset.create(o, 2, &rng, &m, &err) != 0 && strcmp(err.code, "bad-sheet") == 0,
	      R "B2 (resistant PD at most PD)");
	json_object_put(o);
	if (m)
		bc_ruleset.free(m);
}

/* The JSON of the first event of a type, "" when none. */
static const char *
event_json(const struct wr_events *ev, const char *type)
{
	for (size_t k = 0; k < ev->len; k++) {
		json_object *t;
		json_object_object_get_ex(ev->items[k].body, "type", &t);
		if (strcmp(json_object_get_string(t), type) == 0)
			return json_object_to_json_string_ext(ev->items[k].body, JSON_C_TO_STRING_PLAIN);
	}
	return "";
}

/* The rulings amended since the first version (RULINGS.md). */
static void
amended(void)
{
	static const char *const grenadier[] = {"brick", "grenadier", "martial-artist", "slasher",
	                                        "speedster", "brick", "blaster", "martial-artist",
	                                        "slasher", "speedster"};
	/* the grenadier (OCV 6) against DCV 3 needs 14: 1+1+1 hits; 8d6 of 6s:
	 * 48 STUN, 16 BODY less the brick's PD 25: 23 STUN, 0 BODY */
	static const unsigned blast[] = {1, 1, 1, 6, 6, 6, 6, 6, 6, 6, 6};
	struct wr_events ev = {0};
	struct wr_result res;
	struct wr_error err;
	struct bc_state *st;

	/* B7 (amended): an engaged character fires at range from its square,
	 * and still may not leave it */
	st = position("0Ke1 1Ke8 0Ra1 1Qa5 1Bh5", "0R");
	engage(st, bc_real_piece(st, 0, BC_ROOK), bc_real_piece(st, 1, BC_QUEEN));
	{
		json_object *l = bc_ruleset.actions(st, 0);
		const char *shot = "{\"type\":\"shoot\",\"from\":\"a5\",\"to\":\"h5\",\"attack\":1}";
		char *ls = bc_str(l);
		CHECK(strstr(ls, shot) && strstr(ls, "\"type\":\"hth\"") && !strstr(ls, "\"move\""),
		      R "B7 (amended): an engaged character is offered fire from its square and HTH, "
		        "no move");
		free(ls);
		CHECK(do_seeded(st, 0, shot, 3, NULL) == 0,
		      R "B7 (amended): an engaged character fires at range from the square");
	}
	st->stage = BC_PLAY;
	st->qpos = 0;
	st->nqueue = 1;
	st->queue[0] = 0 * BC_ROLES + BC_ROOK;
	CHECK(bc_do(st, 0, "{\"type\":\"move\",\"from\":\"a5\",\"to\":\"a3\"}", &scripted, NULL,
	            &err) != 0 && strcmp(err.code, "engaged") == 0,
	      R "B7 (amended): an engaged character may not leave the square");
	bc_ruleset.free(st);

	/* B10 (amended): both Kings removed at once (an Area Effect on the
	 * square where they fight): the higher score wins, equal scores draw */
	for (int lead = 0; lead < 2; lead++) {
		st = position_with("0Ke5 1Ke8 0Qe2", "0Q", grenadier);
		engage(st, bc_real_piece(st, 1, BC_KING), bc_real_piece(st, 0, BC_KING));
		st->ch[0][BC_KING].stun = st->ch[1][BC_KING].stun = 1;
		st->scores[0] = lead ? 5 : 0;
		CHECK(do_s(st, 0, "{\"type\":\"shoot\",\"from\":\"e2\",\"to\":\"e5\",\"attack\":0}",
		           blast, 11, &ev) == 0, R "B10 (amended): the blast applies");
		bc_ruleset.result(st, &res);
		CHECK(res.over && st->ch[0][BC_KING].removed && st->ch[1][BC_KING].removed,
		      R "B10 (amended): both Kings removed at once end the match");
		CHECK(lead ? res.winners == 1u && res.scores[0] == 25 && res.scores[1] == 20
		           : res.winners == 0 && res.scores[0] == 20 && res.scores[1] == 20,
		      lead ? R "B10 (amended): both Kings removed, the higher score wins"
		           : R "B10 (amended): both Kings removed, equal scores draw");
		wr_events_free(&ev);
		bc_ruleset.free(st);
	}

	/* B8, the damage event: `stunned` says whether this hit's STUN after
	 * defenses exceeded CON; `is_stunned` is the character's state. The
	 * blaster's 12d6 Energy Blast against the slasher (ED 12, CON 25). */
	{
		static const unsigned ones[] = {3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
		static const unsigned fours[] = {3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4};
		st = position("0Ke1 1Ke8 0Qd1 1Bd6", "0Q");
		st->ch[1][BC_BISHOP].stunned = 1;
		CHECK(do_s(st, 0, "{\"type\":\"shoot\",\"from\":\"d1\",\"to\":\"d6\",\"attack\":0}", ones,
		           15, &ev) == 0, R "B8 (a hit of 12 STUN against ED 12)");
		CHECK(strstr(event_json(&ev, "damage"), "\"stun_taken\":0") &&
		      strstr(event_json(&ev, "damage"), "\"stunned\":false") &&
		      strstr(event_json(&ev, "damage"), "\"is_stunned\":true"),
		      R "B8 (\"STUN taken above CON: Stunned\"): 0 STUN against CON 25 is no Stun; the "
		        "character stays Stunned (is_stunned)");
		wr_events_free(&ev);
		bc_ruleset.free(st);
		st = position("0Ke1 1Ke8 0Qd1 1Bd6", "0Q");
		CHECK(do_s(st, 0, "{\"type\":\"shoot\",\"from\":\"d1\",\"to\":\"d6\",\"attack\":0}", fours,
		           15, &ev) == 0, R "B8 (a hit of 48 STUN against ED 12)");
		CHECK(strstr(event_json(&ev, "damage"), "\"stun_taken\":36") &&
		      strstr(event_json(&ev, "damage"), "\"stunned\":true") &&
		      strstr(event_json(&ev, "damage"), "\"is_stunned\":true"),
		      R "B8 (\"STUN taken above CON: Stunned\"): 36 STUN against CON 25 Stuns");
		wr_events_free(&ev);
		bc_ruleset.free(st);
	}

	/* G3 (amended): Blood Chess names its awaited seats to the template,
	 * so any forced action is taken by the server after a post */
	st = position("0Ke1 1Ke8 0Ra1", "0R");
	CHECK(bc_template.to_act && bc_template.to_act(st) == bc_to_act(st),
	      "RULINGS.md, G3 (amended): Blood Chess opts in (wr_template.to_act)");
	bc_ruleset.free(st);
}

/* RULINGS.md G7 (amended): the referee (B11) sees everything, so the copy
 * of a Rook's move told to the owner and the referee is no undo barrier;
 * the decoy question's answer (B6) still is. */
static void
undo_with_referee(void)
{
	uint64_t s;
	struct wr_rng rng;
	struct bc_state *st;
	struct wr_events ev = {0};
	void *before;

	wr_rng_seeded(&rng, &s, 5);
	st = bc_match("{\"referee\":true}", NULL, NULL, &rng, NULL);
	for (int i = 0; i < BC_PIECES; i++)
		if (bc_piece_kind(i) > BC_ROOK)
			st->p[i].sq = -1;
	for (int s2 = 0; s2 < 2; s2++)
		for (int r = 0; r < BC_ROLES; r++)
			st->ch[s2][r].removed = bc_real_piece(st, s2, r) < 0;
	st->nqueue = 1;
	st->qpos = 0;
	st->segment = 1;
	st->queue[0] = BC_ROOK;
	st->p[BC_PER_SIDE + 8].sq = SQ("a5");   /* an enemy Pawn */
	st->p[BC_PER_SIDE + 8].moved = 1;
	before = bc_clone(st);
	CHECK(bc_do(st, 0, "{\"type\":\"move\",\"from\":\"a1\",\"to\":\"a4\"}", &rng, &ev, NULL) == 0,
	      "the Mirror Rook moves");
	CHECK(count_events(&ev, "move", BC_REF_SEAT) == 2 && count_events(&ev, "move", 1) == 1,
	      R "B11 (the referee gets the owner's copy)");
	CHECK(wr_undo_reveals(&bc_ruleset, before, st, 0, &ev) == 0,
	      "RULINGS.md, G7 (amended): the copy told to the referee, who sees everything, is no "
	      "undo barrier");
	wr_events_free(&ev);
	bc_ruleset.free(before);
	st->qpos = 0;
	st->nqueue = 1;
	st->queue[0] = BC_ROOK;
	before = bc_clone(st);
	CHECK(bc_do(st, 0, "{\"type\":\"move\",\"from\":\"a4\",\"to\":\"a5\",\"attack\":0}", &rng, &ev,
	            NULL) == 0, "the Mirror Rook attacks the Pawn");
	CHECK(wr_undo_reveals(&bc_ruleset, before, st, 0, &ev) == 1,
	      "RULINGS.md, G7 (amended): the decoy answer (B6) is still an undo barrier");
	wr_events_free(&ev);
	bc_ruleset.free(before);
	bc_ruleset.free(st);
}

int
main(void)
{
	table();
	decoys();
	hth();
	damage();
	conditions();
	dodge_and_area();
	speed_chart();
	end_and_setup();
	referee();
	decoy_cases();
	help_and_area();
	phases();
	sheets_given();
	amended();
	undo_with_referee();
	printf("%zu table rows\n", sizeof(rows) / sizeof(rows[0]));
	return check_done("bc_table");
}
