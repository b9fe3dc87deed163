/*
 * Confrontation before play: the armies (II, VI, VII, IX, XII, R1), the
 * set-up roll-off and order (II, R2) and the placement (II, R3).
 *
 * Calls cf_match.c, cf_board.c and cf_data.c; only cf_rules.c and the
 * codec (create) call into it.
 */
#include <stdio.h>
#include <string.h>

#include "cf_rules.h"

void
cf_army_reset(struct cf_state *st, int seat)
{
	struct cf_seat *s = &st->s[seat];
	/* The standing orders stand until the seat changes them (G3). */
	int o_htl = s->o_htl, o_luck = s->o_luck, o_live = s->o_live, o_fury = s->o_fury;
	memset(s, 0, sizeof(*s));
	s->o_htl = o_htl;
	s->o_luck = o_luck;
	s->o_live = o_live;
	s->o_fury = o_fury;
	s->points = st->o.points;
	/* II, R1: one King and three Pawns, free. */
	s->n = 4;
	for (int i = 0; i < 4; i++) {
		s->p[i].type = i == 0 ? CF_KING : CF_PAWN;
		s->p[i].sq = -1;
		s->p[i].status = CF_UNPLACED;
	}
	s->race = CF_NORACE;
	s->racial = st->o.races ? 3 : 0;
}

void
cf_init(struct cf_state *st, const struct cf_opts *o, int nseats)
{
	memset(st, 0, sizeof(*st));
	st->o = *o;
	st->nseats = nseats;
	st->phase = CF_BUILD;
	st->chooser = -1;
	st->active = -1;
	st->risen = st->swift = st->fury_seat = -1;
	st->r.panic_seat = st->r.panic_id = -1;
	for (int s = 0; s < nseats; s++)
		cf_army_reset(st, s);
	cf_rebuild_board(st);
}

/* ------------------------------------------------------------- build */

static int
bishop_cost(const struct cf_piece *p)
{
	return cf_nspells(p) < 2 ? 0 : 1; /* VI: two spells come with the Bishop */
}

void
cf_build_candidates(const struct cf_state *st, int seat, struct wr_list *out)
{
	const struct cf_seat *s = &st->s[seat];
	if (s->ready) {
		cf_cand(out, CF_A_READY); /* the roll-off call */
		return;
	}
	for (int t = CF_QUEEN; t < CF_TYPE_MAX; t++)
		cf_cand(out, CF_A_BUY)->piece_type = t;
	for (int i = 0; i < s->n; i++)
		for (int k = 0; k < CF_SPELL_MAX; k++) {
			struct cf_action *a = cf_cand(out, CF_A_ADD_SPELL);
			a->piece = i;
			a->spell = k;
		}
	for (int r = 1; r < CF_RACE_MAX; r++)
		cf_cand(out, CF_A_RACE)->race = r;
	cf_cand(out, CF_A_BUY_RACIAL);
	for (int k = 0; k < CF_SPELL_MAX; k++)
		cf_cand(out, CF_A_KING_SPELL)->spell = k;
	cf_cand(out, CF_A_RESET);
	cf_cand(out, CF_A_READY);
}

static int
legal_ready(const struct cf_state *st, const struct cf_seat *me, struct wr_error *err)
{
	for (int i = 0; i < me->n; i++)
		if (me->p[i].type == CF_BISHOP && cf_nspells(&me->p[i]) < 2)
			return wr_fail(err, "bishop-needs-spells", "",
			               "Bishop %d has %d spell(s); each Bishop needs two", i,
			               cf_nspells(&me->p[i]));
	if (st->o.races && me->race == CF_NORACE)
		return wr_fail(err, "race-needed", "race", "choose a race first");
	return 0;
}

int
cf_legal_build(const struct cf_state *st, int seat, const struct cf_action *a,
               struct wr_error *err)
{
	const struct cf_seat *me = &st->s[seat];
	if (me->ready)
		return a->type == CF_A_READY
		               ? 0
		               : wr_fail(err, "army-ready", "", "the army is already final");
	switch (a->type) {
	case CF_A_BUY:
		if (a->piece_type == CF_KING)
			return wr_fail(err, "one-king", "piece",
			               "each army has exactly one King (VI. The Pieces, King)");
		if (me->n >= CF_MAX_PIECES)
			return wr_fail(err, "too-many-pieces", "piece",
			               "an army has at most %d pieces (RULINGS.md R1)", CF_MAX_PIECES);
		if (me->points < cf_cost[a->piece_type])
			return wr_fail(err, "over-budget", "piece", "a %s costs %d points, %d left: %d over",
			               cf_type_name[a->piece_type], cf_cost[a->piece_type], me->points,
			               cf_cost[a->piece_type] - me->points);
		return 0;
	case CF_A_ADD_SPELL:
		if (a->piece >= me->n || me->p[a->piece].type != CF_BISHOP)
			return wr_fail(err, "not-a-bishop", "piece", "piece %d is not a Bishop of this army",
			               a->piece);
		if (me->points < bishop_cost(&me->p[a->piece]))
			return wr_fail(err, "over-budget", "spell",
			               "an extra spell costs 1 point, 0 left: 1 over");
		return 0;
	case CF_A_RACE:
		if (!st->o.races)
			return wr_fail(err, "races-off", "race", "races are not enabled in this match");
		if (me->race != CF_NORACE)
			return wr_fail(err, "race-chosen", "race",
			               "the race is already chosen (reset to change it)");
		return 0;
	case CF_A_BUY_RACIAL:
		if (!st->o.races)
			return wr_fail(err, "races-off", "", "races are not enabled in this match");
		if (me->points < 1)
			return wr_fail(err, "over-budget", "",
			               "a racial use costs 1 point, 0 left: 1 over");
		return 0;
	case CF_A_KING_SPELL:
		if (!st->o.kings_magic)
			return wr_fail(err, "kings-magic-off", "spell",
			               "King's Magic is not enabled in this match");
		if (cf_nspells(&me->p[0]))
			return wr_fail(err, "king-has-spell", "spell",
			               "a King can only have one spell (XII. King's Magic)");
		if (me->points < 2)
			return wr_fail(err, "over-budget", "spell",
			               "King's Magic costs 2 points, %d left: %d over", me->points,
			               2 - me->points);
		return 0;
	case CF_A_RESET:
		return 0;
	case CF_A_READY:
		return legal_ready(st, me, err);
	default:
		return wr_fail(err, "illegal-action", "type", "not an action of the build");
	}
}

/* ------------------------------------------------- order, placement */

void
cf_setup_candidates(const struct cf_state *st, int seat, struct wr_list *out)
{
	if (st->phase == CF_ORDER) {
		for (int c = 0; c < CF_CHOICE_MAX; c++)
			cf_cand(out, CF_A_ORDER)->choice = c;
		return;
	}
	for (int i = 0; i < st->s[seat].n; i++)
		for (int sq = 0; sq < CF_NSQ; sq++) {
			if (st->s[seat].p[i].status != CF_UNPLACED || !cf_in_area(st, seat, sq))
				continue;
			struct cf_action *a = cf_cand(out, CF_A_PLACE);
			a->piece = i;
			a->square = sq;
		}
}

/* Free squares of the seat's area, counted up to two. */
static int
setup_free(const struct cf_state *st, int seat)
{
	int n = 0;
	for (int sq = 0; sq < CF_NSQ && n < 2; sq++)
		n += st->board[sq] < 0 && cf_in_area(st, seat, sq);
	return n;
}

int
cf_legal_setup(const struct cf_state *st, int seat, const struct cf_action *a,
               struct wr_error *err)
{
	char b[8];
	const struct cf_seat *me = &st->s[seat];
	if (a->type == CF_A_ORDER) {
		/* R2: first or second with two seats, first or last with more. */
		if (a->choice == CF_FIRST || a->choice == (st->nseats == 2 ? CF_SECOND : CF_LAST))
			return 0;
		return wr_fail(err, "wrong-choice", "choice", "%s: with %d seats, first or %s",
		               cf_choice_name[a->choice], st->nseats,
		               st->nseats == 2 ? "second" : "last");
	}
	if (a->piece >= me->n || me->p[a->piece].status != CF_UNPLACED)
		return wr_fail(err, "not-unplaced", "piece", "piece %d is not waiting to be placed",
		               a->piece);
	if (!cf_in_area(st, seat, a->square))
		return wr_fail(err, "not-in-area", "square", "%s is not in this seat's two nearest ranks",
		               wr_square_name(CF_B8, a->square, b));
	if (st->board[a->square] >= 0)
		return wr_fail(err, "occupied", "square", "%s is occupied",
		               wr_square_name(CF_B8, a->square, b));
	/* Our ruling: with one square left, the King must have it. */
	if (a->piece != 0 && me->p[0].status == CF_UNPLACED && setup_free(st, seat) <= 1)
		return wr_fail(err, "king-first", "piece",
		               "the last free square of the area is the King's");
	return 0;
}

/* R2: the high roller is first or last; the others follow in descending
 * roll; resigned seats are skipped. */
static void
choose_order(struct cf_state *st, int seat, int choice, struct wr_list *ev)
{
	int rk[WR_MAX_SEATS], nr = cf_rank_seats(st, rk), k = 0;
	struct cf_event e = {.type = CF_E_ORDER_CHOSEN, .seat = seat, .choice = choice};
	if (choice == CF_FIRST)
		st->order[k++] = seat;
	for (int i = 0; i < nr; i++)
		if (rk[i] != seat)
			st->order[k++] = rk[i];
	if (choice != CF_FIRST)
		st->order[k++] = seat;
	for (int t = 0; t < st->nseats; t++)
		if (st->s[t].out)
			st->order[k++] = t;
	st->norder = k;
	st->placer = 0;
	st->phase = CF_SETUP;
	memcpy(e.order, st->order, sizeof(e.order));
	e.norder = k;
	cf_emit(ev, &e);
}

void
cf_apply_setup(struct cf_state *st, int seat, const struct cf_action *a, struct wr_list *ev)
{
	struct cf_seat *me = &st->s[seat];
	unsigned mine = 1u << seat;
	switch (a->type) {
	case CF_A_BUY:
		me->points -= cf_cost[a->piece_type];
		me->p[me->n] = (struct cf_piece){.type = a->piece_type, .sq = -1,
		                                  .status = CF_UNPLACED,
		                                  .strength = a->piece_type == CF_ROOK};
		cf_emit(ev, &(struct cf_event){.type = CF_E_BOUGHT, .visible_to = mine, .seat = seat,
		                               .id = me->n, .piece_type = a->piece_type,
		                               .points_left = me->points});
		me->n++;
		break;
	case CF_A_ADD_SPELL:
		me->points -= bishop_cost(&me->p[a->piece]);
		me->p[a->piece].spells[a->spell]++;
		cf_emit(ev, &(struct cf_event){.type = CF_E_SPELL_ADDED, .visible_to = mine,
		                               .seat = seat, .id = a->piece, .spell = a->spell,
		                               .points_left = me->points});
		break;
	case CF_A_RACE:
		me->race = a->race;
		cf_emit(ev, &(struct cf_event){.type = CF_E_RACE_CHOSEN, .visible_to = mine,
		                               .seat = seat, .race = a->race});
		break;
	case CF_A_BUY_RACIAL:
		me->points--;
		me->racial++;
		me->racial_bought++;
		cf_emit(ev, &(struct cf_event){.type = CF_E_RACIAL_BOUGHT, .visible_to = mine,
		                               .seat = seat, .tokens = me->racial,
		                               .points_left = me->points});
		break;
	case CF_A_KING_SPELL:
		me->points -= 2;
		me->p[0].spells[a->spell] = 1;
		cf_emit(ev, &(struct cf_event){.type = CF_E_KING_SPELL, .visible_to = mine,
		                               .seat = seat, .spell = a->spell,
		                               .points_left = me->points});
		break;
	case CF_A_RESET:
		cf_army_reset(st, seat);
		cf_emit(ev, &(struct cf_event){.type = CF_E_ARMY_RESET, .visible_to = mine,
		                               .seat = seat, .points_left = me->points});
		break;
	case CF_A_READY:
		if (!me->ready) {
			me->ready = 1;
			cf_emit(ev, &(struct cf_event){.type = CF_E_ARMY_READY, .seat = seat});
		}
		break;
	case CF_A_ORDER:
		choose_order(st, seat, a->choice, ev);
		break;
	case CF_A_PLACE:
		cf_put(st, seat, a->piece, a->square);
		cf_emit(ev, &(struct cf_event){.type = CF_E_PLACED, .seat = seat, .id = a->piece,
		                               .square = a->square});
		break;
	default:
		break;
	}
}

/* ---------------------------------------------------------- roll-off */

static int
same_rolls(const struct cf_seat *x, const struct cf_seat *y)
{
	return !x->out && !y->out && x->nrolls == y->nrolls &&
	       memcmp(x->rolls, y->rolls, sizeof(int) * (size_t)x->nrolls) == 0;
}

/* II "Re-roll ties", R2: every seat rolls; seats with the same rolls so
 * far roll again until every seat's sequence differs. Every roll is an
 * event; a seat keeps its first eight, and after them a re-roll only when
 * it splits its tied group: a round where the whole group rolled alike
 * orders nothing, so the ranking is the same and the rolls kept stay few.
 * Only after CF_ROLL_ROUNDS tied rounds (no honest dice get there) does
 * the lower seat number rank first. */
void
cf_roll_off(struct cf_state *st, struct wr_rng *rng, struct wr_list *ev)
{
	int tie = 1, round = 0;
	for (int s = 0; s < st->nseats; s++)
		st->s[s].nrolls = 0;
	while (tie && round < CF_ROLL_ROUNDS) {
		int roll_now[WR_MAX_SEATS] = {0}, d[WR_MAX_SEATS] = {0}, keep[WR_MAX_SEATS] = {0};
		for (int s = 0; s < st->nseats; s++) {
			if (st->s[s].out)
				continue;
			roll_now[s] = round == 0;
			for (int t = 0; t < st->nseats && round; t++)
				if (t != s && same_rolls(&st->s[t], &st->s[s]))
					roll_now[s] = 1;
		}
		for (int s = 0; s < st->nseats; s++)
			if (roll_now[s]) {
				d[s] = (int)wr_die(rng, 6);
				cf_emit(ev, &(struct cf_event){.type = CF_E_SETUP_ROLL, .seat = s,
				                               .round = round + 1, .die = d[s]});
			}
		/* The groups are read before any roll is kept. */
		for (int s = 0; s < st->nseats; s++) {
			keep[s] = roll_now[s] && st->s[s].nrolls < CF_ROLLS_KEPT;
			for (int t = 0; t < st->nseats && roll_now[s] && !keep[s]; t++)
				keep[s] = t != s && roll_now[t] && d[t] != d[s] &&
				          same_rolls(&st->s[t], &st->s[s]);
		}
		for (int s = 0; s < st->nseats; s++)
			if (keep[s])
				st->s[s].rolls[st->s[s].nrolls++] = d[s];
		round++;
		/* Stop once no two sequences are equal. */
		tie = 0;
		for (int s = 0; s < st->nseats; s++)
			for (int t = 0; t < s; t++)
				tie |= same_rolls(&st->s[t], &st->s[s]);
	}
}

/* Seats ordered by their set-up rolls, highest first. */
int
cf_rank_seats(const struct cf_state *st, int *out)
{
	int n = 0;
	for (int s = 0; s < st->nseats; s++)
		if (!st->s[s].out)
			out[n++] = s;
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0; j--) {
			const struct cf_seat *x = &st->s[out[j]], *y = &st->s[out[j - 1]];
			int k = 0, cmp = 0;
			while (!cmp && k < x->nrolls && k < y->nrolls) {
				cmp = x->rolls[k] - y->rolls[k];
				k++;
			}
			if (!cmp)
				cmp = x->nrolls - y->nrolls;
			if (cmp > 0) {
				int t = out[j];
				out[j] = out[j - 1];
				out[j - 1] = t;
			}
		}
	return n;
}
