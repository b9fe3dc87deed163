/* Blood Chess for the computer player (issue 27, bot/): a state rebuilt
 * from one seat's view, and an evaluation.
 *
 * What the view hides (G5, B1, B12): which of an enemy Rook, Bishop or
 * Knight pair is the Mirror until a decoy question reveals it. The view
 * lists pieces by square, never by the index that knows Mirrors; each
 * unrevealed pair is drawn from rng (which of the two standing is real),
 * except when one of the pair has left the board: a character still in
 * play keeps its real piece, so the one standing is real; a removed
 * character's piece is gone, so the one standing is the Mirror. During
 * set-up the enemy's chosen Mirrors are as many as the view counts, of
 * kinds and squares drawn from rng. A Pawn has moved when it is off its
 * start rank. Calls the board and the codec's sheet reader; only the
 * ruleset table names it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc_rules.h"
#include "botview.h"

extern const struct wr_ruleset bc_ruleset;

#define B (&wr_board8)

/* A view's piece put in the first free layout slot of its seat and kind. */
static int
place(struct bc_state *st, int used[BC_PIECES], int seat, int kind, int sq)
{
	for (int i = seat * BC_PER_SIDE; i < (seat + 1) * BC_PER_SIDE; i++)
		if (!used[i] && bc_piece_kind(i) == kind) {
			used[i] = 1;
			st->p[i].sq = sq;
			return i;
		}
	return -1;
}

static void
read_chars(struct bc_state *st, json_object *view)
{
	size_t ns, nr;
	json_object *chs = wr_v_array(view, "characters", &ns);

	for (size_t s = 0; s < ns && s < BC_SEATS; s++) {
		json_object *side = json_object_array_get_idx(chs, s);
		nr = json_object_is_type(side, json_type_array) ? json_object_array_length(side) : 0;
		for (size_t k = 0; k < nr; k++) {
			json_object *x = json_object_array_get_idx(side, k);
			int r = wr_v_name(x, "role", bc_kind_names, BC_ROLES, -1);
			json_object *sh = wr_v_get(x, "sheet");
			struct wr_error e;
			if (r < 0)
				continue;
			struct bc_char *c = &st->ch[s][r];
			c->chosen = sh && bc_sheet_parse(sh, &c->sh, NULL, &e) == 0;
			c->stun = wr_v_int(x, "stun", 0);
			c->body = wr_v_int(x, "body", 0);
			c->stunned = wr_v_bool(x, "stunned", 0);
			c->unconscious = wr_v_bool(x, "unconscious", 0);
			c->dodging = wr_v_bool(x, "dodging", 0);
			c->removed = wr_v_bool(x, "removed", 0);
		}
	}
}

/* The real piece of a pair: known to its owner, once revealed, from the
 * character's square, or when one of the pair is gone; else drawn. */
static void
pair(struct bc_state *st, json_object *view, int seat, int kind, const int idn[BC_PIECES],
     struct wr_rng *rng)
{
	int a = -1, b = -1;
	for (int i = seat * BC_PER_SIDE; i < seat * BC_PER_SIDE + 8; i++)
		if (bc_piece_kind(i) == kind) {
			if (a < 0)
				a = i;
			else
				b = i;
		}
	/* idn: 1 real, 2 mirror, 0 unknown (or no piece) */
	int ina = st->p[a].sq >= 0, inb = st->p[b].sq >= 0, real;
	if (st->stage == BC_SETUP && !st->mirror_set[seat][kind - BC_ROOK])
		return;                 /* not chosen yet: neither is a Mirror */
	if (idn[a] == 1 || idn[b] == 2)
		real = a;
	else if (idn[b] == 1 || idn[a] == 2)
		real = b;
	else if (ina != inb)
		real = st->ch[seat][kind].removed ? (ina ? b : a) : (ina ? a : b);
	else
		real = rng->next(rng, 2) ? b : a;
	st->p[a].decoy = real != a;
	st->p[b].decoy = real != b;
	(void)view;
}

void *
bc_determinize(json_object *view, int seat, struct wr_rng *rng, struct wr_error *err)
{
	struct bc_state *st = calloc(1, sizeof(*st));
	int used[BC_PIECES] = {0}, idn[BC_PIECES] = {0};
	json_object *pcs, *order, *tm, *setup, *res = wr_v_get(view, "result");
	size_t n;

	if (!st)
		return wr_bot_finish(&bc_ruleset, NULL, err);
	st->referee = wr_v_bool(view, "referee", 0);
	st->seats = st->referee ? 3 : 2;
	{
		const char *m = wr_v_str(view, "mirrors");
		st->mirrors_random = m && strcmp(m, "random") == 0;
	}
	st->turn_limit = wr_v_int(view, "turn_limit", 0);
	st->stage = wr_v_name(view, "stage", bc_stage_names, BC_STAGE_MAX, BC_SETUP);
	st->turn = wr_v_int(view, "turn", 0);
	st->segment = wr_v_int(view, "segment", 0);
	tm = wr_v_array(view, "templates", &n);
	for (size_t t = (size_t)bc_ntemplates; t < n && st->ncustom < BC_MAX_CUSTOM; t++) {
		struct wr_error e;
		if (bc_sheet_parse(wr_v_get(json_object_array_get_idx(tm, t), "sheet"),
		                   &st->custom[st->ncustom], NULL, &e) == 0)
			st->ncustom++;
	}
	read_chars(st, view);
	for (int i = 0; i < BC_PIECES; i++)
		st->p[i] = (struct bc_piece){-1, bc_piece_kind(i) == BC_PAWN, 0, 0, -1};
	pcs = wr_v_array(view, "pieces", &n);
	for (size_t k = 0; k < n; k++) {
		json_object *x = json_object_array_get_idx(pcs, k);
		int s = wr_v_int(x, "seat", 0), kind = wr_v_name(x, "kind", bc_kind_names, BC_KIND_MAX, -1);
		int sq = wr_v_sq(x, "square", B), i;
		const char *id = wr_v_str(x, "identity");
		if (s < 0 || s >= BC_SEATS || kind < 0 || sq < 0 ||
		    (i = place(st, used, s, kind, sq)) < 0)
			continue;
		idn[i] = id && strcmp(id, "real") == 0 ? 1 : id && strcmp(id, "mirror") == 0 ? 2 : 0;
		/* an enemy piece shown as real or mirror was revealed (B6) */
		st->p[i].revealed = s != seat && idn[i] && kind >= BC_ROOK && kind <= BC_KNIGHT;
		st->p[i].decoy = kind == BC_PAWN;
		if (kind == BC_PAWN)
			st->p[i].moved = sq / 8 != (s == 0 ? 1 : 6);
		st->p[i].engaged = wr_v_bool(x, "engaged", 0) ? -2 : -1;
	}
	/* Engaged pieces fight the other piece on their square. */
	for (int i = 0; i < BC_PIECES; i++)
		if (st->p[i].engaged == -2) {
			st->p[i].engaged = -1;
			for (int j = 0; j < BC_PIECES; j++)
				if (j != i && st->p[j].sq == st->p[i].sq && bc_piece_seat(j) != bc_piece_seat(i))
					st->p[i].engaged = j;
		}
	setup = wr_v_array(view, "setup", &n);
	for (int s = 0; s < BC_SEATS; s++) {
		/* Own and revealed Mirrors are in the view; the enemy's
		 * chosen ones in set-up are only a count. */
		int count = wr_v_int(json_object_array_get_idx(setup, (size_t)s), "mirrors", 0);
		int kinds[3] = {0, 1, 2};
		if (st->stage != BC_SETUP) {
			for (int k = 0; k < 3; k++)
				st->mirror_set[s][k] = 1;
		} else if (s == seat || st->referee) {
			for (int i = s * BC_PER_SIDE; i < s * BC_PER_SIDE + 8; i++)
				if (idn[i] && bc_piece_kind(i) >= BC_ROOK)
					st->mirror_set[s][bc_piece_kind(i) - BC_ROOK] = 1;
		} else {
			wr_bot_shuffle(kinds, 3, rng);
			for (int k = 0; k < count && k < 3; k++)
				st->mirror_set[s][kinds[k]] = 1;
		}
		for (int kind = BC_ROOK; kind <= BC_KNIGHT; kind++)
			pair(st, view, s, kind, idn, rng);
	}
	order = wr_v_array(view, "order", &n);
	for (size_t k = 0; k < n && k < BC_SEATS * BC_ROLES; k++) {
		json_object *x = json_object_array_get_idx(order, k);
		int r = wr_v_name(x, "role", bc_kind_names, BC_ROLES, 0);
		st->queue[st->nqueue++] = wr_v_int(x, "seat", 0) * BC_ROLES + r;
		if (wr_v_bool(x, "done", 0))
			st->qpos = (int)k + 1;
	}
	st->pend = (struct bc_pending){-1, -1, -1, 0, 0, 0};
	{
		json_object *pd = wr_v_get(view, "pending");
		static const char *const steps[BC_REF_STEP_MAX] = {"hit", "stun", "body"};
		if (pd && json_object_is_type(pd, json_type_object)) {
			int s = wr_v_int(pd, "seat", 0), from = wr_v_sq(pd, "from", B);
			for (int i = 0; i < BC_PIECES; i++)
				if (st->p[i].sq == from && bc_piece_seat(i) == s && bc_piece_kind(i) != BC_PAWN &&
				    !st->p[i].decoy)
					st->pend.attacker = i;
			st->pend.attack = wr_v_int(pd, "attack", 0);
			st->pend.target_sq = wr_v_sq(pd, "to", B);
			st->pend.step = wr_v_name(pd, "step", steps, BC_REF_STEP_MAX, 0);
			st->pend.hit = wr_v_bool(pd, "hit", 0);
			st->pend.stun = wr_v_int(pd, "stun", 0);
		}
	}
	{
		size_t ns;
		json_object *sc = wr_v_array(view, "scores", &ns);
		for (size_t s = 0; s < ns && s < BC_SEATS; s++)
			st->scores[s] = json_object_get_int(json_object_array_get_idx(sc, s));
	}
	if (res && json_object_is_type(res, json_type_object)) {
		json_object *w = wr_v_array(res, "winners", &n);
		const char *r = wr_v_str(res, "reason");
		for (size_t i = 0; i < n; i++)
			st->winners |= 1u << (json_object_get_int(json_object_array_get_idx(w, i)) & 1);
		snprintf(st->reason, sizeof(st->reason), "%s", r ? r : "");
	}
	return wr_bot_finish(&bc_ruleset, st, err);
}

/* Each side's characters still in play, weighted by the BODY and STUN
 * they keep, halved while unconscious (the King counts six times: its fall ends the
 * match), and a little for the Pawns standing. */
double
bc_evaluate(const void *state, int seat)
{
	const struct bc_state *st = state;
	double v[BC_SEATS] = {0, 0};

	if (seat < 0 || seat >= BC_SEATS)
		return 0.5;
	for (int s = 0; s < BC_SEATS; s++) {
		for (int r = 0; r < BC_ROLES; r++) {
			const struct bc_char *c = &st->ch[s][r];
			if (!c->chosen || c->removed)
				continue;
			double hp = c->sh.body > 0 ? (double)(c->body > 0 ? c->body : 0) / c->sh.body : 1;
			double sn = c->sh.stun > 0 ? (double)(c->stun > 0 ? c->stun : 0) / c->sh.stun : 1;
			/* STUN knocks out and, far below 0, removes (B9); an
			 * unconscious character is an easy kill */
			v[s] += (r == BC_KING ? 6.0 : 1.0) * (0.3 + 0.35 * hp + 0.35 * sn) *
			        (c->unconscious ? 0.5 : 1.0);
		}
		for (int i = s * BC_PER_SIDE + 8; i < (s + 1) * BC_PER_SIDE; i++)
			v[s] += st->p[i].sq >= 0 ? 0.1 : 0;
	}
	return wr_bot_share(v[seat], v[!seat], 5);
}

int
bc_may_reveal(const void *state, int seat, json_object *action)
{
	(void)state;
	(void)seat;
	(void)action;
	return 1;
}
