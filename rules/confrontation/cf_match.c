/*
 * What Confrontation's rule files share below the rules themselves: the
 * slots of the candidate list and of the event list, who is awaited and
 * what each awaited seat is asked (G3), a seat that is out (V, R10) and
 * the end of the match. Dependencies run one way: cf_setup.c, cf_turn.c,
 * cf_combat.c and cf_rules.c call into this file; it calls only cf_board.c
 * and cf_data.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cf_rules.h"

void
cf_emit(struct wr_list *ev, const struct cf_event *e)
{
	struct cf_event *slot = wr_list_push(ev);
	if (slot)
		*slot = *e;
}

void
cf_action_init(struct cf_action *a, int type)
{
	memset(a, 0, sizeof(*a));
	a->type = type;
	a->spell = a->from = a->to = a->target = a->revive = a->square = -1;
}

/* A new candidate of the type; a scratch slot when memory runs out (the
 * list is then short, never wrong). */
struct cf_action *
cf_cand(struct wr_list *out, int type)
{
	static _Thread_local struct cf_action scratch;
	struct cf_action *a = wr_list_push(out);
	if (!a)
		a = &scratch;
	cf_action_init(a, type);
	return a;
}

/* Whether one of the seat's candidates (listed part by part by `parts`)
 * of a type in `types` (a mask of 1u << enum cf_act) is legal. */
int
cf_any_legal(const struct cf_state *st, int seat, unsigned types,
             int (*parts)(const struct cf_state *, int, int, struct wr_list *),
             int (*legal)(const void *, int, const void *, struct wr_error *))
{
	struct wr_list cand;
	int found = 0;
	wr_list_init(&cand, sizeof(struct cf_action));
	for (int part = 0; !found && parts(st, seat, part, &cand); part++) {
		for (size_t i = 0; i < cand.len && !found; i++) {
			const struct cf_action *a = wr_list_at(&cand, i);
			if (types & (1u << a->type))
				found = legal(st, seat, a, NULL) == 0;
		}
		cand.len = 0;
	}
	wr_list_free(&cand);
	return found;
}

/* ------------------------------------------------------------ awaited */

unsigned
cf_to_act(const void *state)
{
	const struct cf_state *st = state;
	unsigned m = 0;
	switch (st->phase) {
	case CF_BUILD: {
		int all = 1;
		for (int s = 0; s < st->nseats; s++) {
			if (!st->s[s].out && !st->s[s].ready)
				m |= 1u << s;
			all &= st->s[s].out || st->s[s].ready;
		}
		if (all)  /* only a state settled without dice: someone calls the roll */
			for (int s = st->nseats - 1; s >= 0; s--)
				if (!st->s[s].out)
					m = 1u << s;
		return m;
	}
	case CF_ORDER:
		return st->chooser >= 0 ? 1u << st->chooser : 0;
	case CF_SETUP:
		return st->placer < st->norder ? 1u << st->order[st->placer] : 0;
	case CF_PLAY:
		if (st->r.kind != CF_RES_NONE) {
			const struct cf_battle *b = &st->r.b;
			if (st->r.in_battle) {
				switch (b->stage) {
				case CF_ST_HTL: return 1u << b->d_seat;
				case CF_ST_LUCK_A: return 1u << b->a_seat;
				case CF_ST_LUCK_D: return 1u << b->d_seat;
				case CF_ST_LIVE: return 1u << b->loser_seat;
				default: return 0;
				}
			}
			if (st->r.panic_seat >= 0)
				return 1u << st->r.panic_seat;
			return 0;
		}
		if (st->fury_seat >= 0)
			return 1u << st->fury_seat;
		return st->active >= 0 ? 1u << st->active : 0;
	default:
		return 0;
	}
}

const char *
cf_pending_kind(const struct cf_state *st, int seat)
{
	if (!(cf_to_act(st) & (1u << seat)))
		return NULL;
	switch (st->phase) {
	case CF_BUILD: return st->s[seat].ready ? "roll_off" : "build";
	case CF_ORDER: return "order";
	case CF_SETUP: return "place";
	default: break;
	}
	if (st->r.kind != CF_RES_NONE && st->r.in_battle) {
		int stg = st->r.b.stage;
		return stg == CF_ST_LUCK_A || stg == CF_ST_LUCK_D ? "luck" : cf_stage_name[stg];
	}
	if (st->r.kind != CF_RES_NONE)
		return "panic_square";
	if (st->fury_seat >= 0)
		return "battle_fury";
	return st->risen >= 0 ? "rise_move" : "turn";
}

/* ----------------------------------------------------------- the end */

void
cf_game_over(struct cf_state *st, unsigned winners, const char *reason, struct wr_list *ev)
{
	st->phase = CF_OVER;
	st->winners = winners;
	snprintf(st->reason, sizeof(st->reason), "%s", reason);
	cf_emit(ev, &(struct cf_event){.type = CF_E_GAME_OVER, .winners = winners, .reason = reason});
}

/* A seat leaves: R10. With two seats the other wins and the board stays;
 * with more, its pieces leave the board. */
void
cf_seat_out(struct cf_state *st, int seat, const char *reason, struct wr_list *ev)
{
	st->s[seat].out = 1;
	cf_emit(ev, &(struct cf_event){.type = CF_E_SEAT_OUT, .seat = seat, .reason = reason});
	if (st->nseats > 2 && st->phase != CF_BUILD)
		for (int i = 0; i < st->s[seat].n; i++)
			if (st->s[seat].p[i].status == CF_ON || st->s[seat].p[i].status == CF_UNPLACED)
				cf_take(st, seat, i, CF_GONE);
	if (cf_alive_count(st) == 1)
		for (int s = 0; s < st->nseats; s++)
			if (!st->s[s].out)
				cf_game_over(st, 1u << s, reason, ev);
}

/* V, R10: a seat whose King is gone, or whose King stands alone, is out. */
void
cf_check_out(struct cf_state *st, struct wr_list *ev)
{
	for (int s = 0; s < st->nseats && st->phase == CF_PLAY; s++) {
		const struct cf_seat *x = &st->s[s];
		int others = 0;
		if (x->out)
			continue;
		if (x->p[0].status != CF_ON) {
			cf_seat_out(st, s, "king defeated", ev);
			continue;
		}
		for (int i = 1; i < x->n; i++)
			others += x->p[i].status == CF_ON;
		if (!others)
			cf_seat_out(st, s, "only the king remains", ev);
	}
}
