/* Blood Chess rules on plain structs: set-up (B1, B2), the Speed Chart
 * (B3), phase actions (B4), chess movement (B5), decoys (B6), HTH (B7),
 * the end (B10) and the referee's outcomes (B11). Combat is bc_combat.c.
 * Calls bc_combat.c, bc_board.c and bc_data.c; only the codec calls in.
 *
 * Hidden information (B12, G5): which Rook, Bishop and Knight are Mirrors.
 * Nothing another seat can see here depends on it: a Mirror shares its
 * character's condition (so it blocks and looks like the real piece), a
 * Mirror may do everything its character's piece may do, and legality for
 * a seat never reads the other side's decoy flags. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc_rules.h"

/* The Champions Speed Chart: phases[spd] bit s set = a phase in Segment s. */
int
bc_has_phase(int spd, int seg)
{
	static const char *const chart[13] = {
		"",
		"7",
		"6 12",
		"4 8 12",
		"3 6 9 12",
		"3 5 8 10 12",
		"2 4 6 8 10 12",
		"2 4 6 7 9 11 12",
		"2 3 5 6 8 9 11 12",
		"2 3 4 6 7 8 10 11 12",
		"2 3 4 5 6 8 9 10 11 12",
		"2 3 4 5 6 7 8 9 10 11 12",
		"1 2 3 4 5 6 7 8 9 10 11 12",
	};
	const char *p;

	if (spd < 1 || spd > 12)
		return 0;
	for (p = chart[spd]; *p;) {
		int v = (int)strtol(p, (char **)&p, 10);
		if (v == seg)
			return 1;
		while (*p == ' ')
			p++;
	}
	return 0;
}

static int
sq_file(int sq)
{
	return sq % 8;
}

static int
sq_rank(int sq)
{
	return sq / 8;
}

/* ------------------------------------------------------------- set-up */

void
bc_init(struct bc_state *st, int seats, int referee, int mirrors_random, int turn_limit,
        struct wr_rng *rng)
{
	int ncustom = st->ncustom;
	struct bc_sheet custom[BC_MAX_CUSTOM];

	memcpy(custom, st->custom, sizeof(custom));
	memset(st, 0, sizeof(*st));
	st->ncustom = ncustom;
	memcpy(st->custom, custom, sizeof(custom));
	st->seats = seats;
	st->referee = referee;
	st->mirrors_random = mirrors_random;
	st->turn_limit = turn_limit;
	st->stage = BC_SETUP;
	st->pend.attacker = -1;
	for (int i = 0; i < BC_PIECES; i++) {
		st->p[i].sq = bc_start_square(i);
		st->p[i].decoy = bc_piece_kind(i) == BC_PAWN;
		st->p[i].engaged = -1;
	}
	if (mirrors_random)
		for (int s = 0; s < BC_SEATS; s++)
			for (int k = 0; k < 3; k++) {
				/* B1: the server picks which of the pair is the Mirror */
				int which = (int)wr_die(rng, 2) - 1;
				st->p[s * BC_PER_SIDE + 2 + 2 * k + which].decoy = 1;
				st->mirror_set[s][k] = 1;
			}
}

const struct bc_sheet *
bc_sheet_of(const struct bc_state *st, int tmpl)
{
	if (tmpl >= 0 && tmpl < bc_ntemplates)
		return &bc_templates[tmpl].sheet;
	if (tmpl >= BC_CUSTOM_BASE && tmpl < BC_CUSTOM_BASE + st->ncustom)
		return &st->custom[tmpl - BC_CUSTOM_BASE];
	return NULL;
}

int
bc_sheet_valid(const struct bc_sheet *sh)
{
	int hth = 0;

	if (sh->dex < 1 || sh->dex > 60 || sh->spd < 1 || sh->spd > 12 || sh->ocv < 0 ||
	    sh->ocv > 30 || sh->dcv < 0 || sh->dcv > 30 || sh->con < 1 || sh->con > 99 ||
	    sh->body < 1 || sh->body > 99 || sh->stun < 1 || sh->stun > 199 || sh->rec < 1 ||
	    sh->rec > 99 || sh->pd < 0 || sh->pd > 99 || sh->ed < 0 || sh->ed > 99 ||
	    sh->rpd < 0 || sh->rpd > sh->pd || sh->red < 0 || sh->red > sh->ed ||
	    sh->nattacks < 1 || sh->nattacks > BC_MAX_ATTACKS)
		return 0;
	if (!sh->name[0] || memchr(sh->name, 0, BC_NAME) == NULL)
		return 0;
	for (int k = 0; k < sh->nattacks; k++) {
		const struct bc_attack *a = &sh->att[k];
		if (a->dice < 1 || a->dice > BC_MAX_DICE || (a->killing & ~1) || (a->ranged & ~1) ||
		    (a->vs_ed & ~1) || (a->area & ~1) || (a->area && !a->ranged) || !a->name[0] ||
		    memchr(a->name, 0, BC_NAME) == NULL)
			return 0;
		if (a->killing && a->dice > 6)
			return 0;
		hth |= !a->ranged;
	}
	return hth;   /* every character can fight in HTH (B7) */
}

static int
seat_ready(const struct bc_state *st, int s)
{
	for (int r = 0; r < BC_ROLES; r++)
		if (!st->ch[s][r].chosen)
			return 0;
	for (int k = 0; k < 3; k++)
		if (!st->mirror_set[s][k])
			return 0;
	return 1;
}

/* ------------------------------------------------------- speed chart */

int
bc_acting_char(const struct bc_state *st)
{
	if (st->stage != BC_PLAY || st->qpos >= st->nqueue)
		return -1;
	return st->queue[st->qpos];
}

unsigned
bc_to_act(const void *state)
{
	const struct bc_state *st = state;
	unsigned m = 0;
	int c;

	switch (st->stage) {
	case BC_SETUP:
		for (int s = 0; s < BC_SEATS; s++)
			if (!seat_ready(st, s))
				m |= 1u << s;
		return m;
	case BC_PLAY:
		c = bc_acting_char(st);
		return c < 0 ? 0 : 1u << (c / BC_ROLES);
	case BC_REFEREE:
		return 1u << BC_REF_SEAT;
	default:
		return 0;
	}
}

static int
dex_of(const struct bc_state *st, int k)
{
	int q = st->queue[k];
	return st->ch[q / BC_ROLES][q % BC_ROLES].sh.dex;
}

/* >0 when roll-off sequence a beats b */
static int
memcmp_desc(const int *a, const int *b)
{
	for (int i = 0; i < 16; i++)
		if (a[i] != b[i])
			return a[i] - b[i];
	return 0;
}

static void
build_queue(struct bc_state *st, struct wr_rng *rng, struct wr_list *ev)
{
	int key[BC_SEATS * BC_ROLES][16];
	int n = 0;
	struct bc_event *e;

	for (int s = 0; s < BC_SEATS; s++)
		for (int r = 0; r < BC_ROLES; r++) {
			const struct bc_char *c = &st->ch[s][r];
			if (!c->removed && bc_has_phase(c->sh.spd, st->segment))
				st->queue[n++] = s * BC_ROLES + r;
		}
	st->nqueue = n;
	st->qpos = 0;
	memset(key, 0, sizeof(key));
	e = bc_push(ev, BC_E_SEGMENT);
	e->turn = st->turn;
	e->segment = st->segment;
	/* B3: DEX order; a tie is rolled off on a d6, and those who roll the
	 * same roll again (G2), until every tie is broken (after 16 rounds,
	 * which never happens in practice, seat and role order decide) */
	for (int round = 0; round < 16; round++) {
		int tied[BC_SEATS * BC_ROLES] = {0}, any = 0;
		for (int a = 0; a < n; a++)
			for (int b = a + 1; b < n; b++)
				if (dex_of(st, a) == dex_of(st, b) &&
				    memcmp(key[a], key[b], sizeof(key[a])) == 0)
					tied[a] = tied[b] = any = 1;
		if (!any)
			break;
		for (int a = 0; a < n; a++) {
			if (!tied[a])
				continue;
			key[a][round] = (int)wr_die(rng, 6);
			e = bc_push(ev, BC_E_ROLLOFF);
			e->seat = st->queue[a] / BC_ROLES;
			e->role = st->queue[a] % BC_ROLES;
			e->value = key[a][round];
		}
	}
	/* insertion sort: DEX high first, then the roll-offs high first */
	for (int a = 1; a < n; a++) {
		int q = st->queue[a], k[16], b = a - 1, dq = dex_of(st, a);
		memcpy(k, key[a], sizeof(k));
		while (b >= 0) {
			int db = dex_of(st, b);
			if (db > dq || (db == dq && memcmp_desc(key[b], k) >= 0))
				break;
			st->queue[b + 1] = st->queue[b];
			memcpy(key[b + 1], key[b], sizeof(k));
			b--;
		}
		st->queue[b + 1] = q;
		memcpy(key[b + 1], k, sizeof(k));
	}
}

static void
end_match(struct bc_state *st, const char *reason, struct wr_list *ev)
{
	int k0 = bc_real_piece(st, 0, BC_KING) >= 0, k1 = bc_real_piece(st, 1, BC_KING) >= 0;

	st->stage = BC_OVER;
	st->nqueue = st->qpos = 0;
	if (k0 && !k1)
		st->winners = 1u;
	else if (k1 && !k0)
		st->winners = 2u;
	else   /* B10 (amended): both Kings removed at once; or the turn limit */
		st->winners = st->scores[0] > st->scores[1]   ? 1u
		              : st->scores[1] > st->scores[0] ? 2u
		                                              : 0;
	snprintf(st->reason, sizeof(st->reason), "%s", reason);
	bc_push(ev, BC_E_END);
}

static int
check_end(struct bc_state *st, struct wr_list *ev)
{
	if (st->stage == BC_OVER)
		return 1;
	if (bc_real_piece(st, 0, BC_KING) < 0 || bc_real_piece(st, 1, BC_KING) < 0) {
		end_match(st, "king removed", ev);
		return 1;
	}
	return 0;
}

static void
recover(struct bc_char *c, int *gained)
{
	int before = c->stun;
	c->stun += c->sh.rec;
	if (c->stun > c->sh.stun)
		c->stun = c->sh.stun;
	if (c->stun < before)
		c->stun = before;   /* above maximum already: keep */
	if (c->unconscious && c->stun > 0)
		c->unconscious = 0;
	*gained = c->stun - before;
}

/* Moves the Speed Chart on to the next character that acts, playing the
 * phases that play themselves: Stunned (lost), unconscious (recovers). */
static void
advance(struct bc_state *st, struct wr_rng *rng, struct wr_list *ev)
{
	for (int guard = 0; guard < 5000; guard++) {
		struct bc_char *c;
		struct bc_event *e;
		int q;

		if (check_end(st, ev))
			return;
		if (st->qpos >= st->nqueue) {
			if (st->segment == 12) {
				/* B3: after each Segment 12 every character recovers REC */
				bc_push(ev, BC_E_POST12);
				for (int s = 0; s < BC_SEATS; s++)
					for (int r = 0; r < BC_ROLES; r++) {
						int g;
						c = &st->ch[s][r];
						if (c->removed)
							continue;
						recover(c, &g);
					}
				if (st->turn_limit && st->turn >= st->turn_limit) {
					end_match(st, "turn limit", ev);
					return;
				}
				st->turn++;
				st->segment = 1;
			} else {
				st->segment++;
			}
			build_queue(st, rng, ev);
			continue;
		}
		q = st->queue[st->qpos];
		c = &st->ch[q / 5][q % 5];
		if (c->removed) {
			st->qpos++;
			continue;
		}
		c->dodging = 0;   /* Dodge lasts until the character's next phase */
		if (c->unconscious) {
			int g;
			recover(c, &g);
			e = bc_push(ev, BC_E_WAKE);
			e->seat = q / 5;
			e->role = q % 5;
			e->value = g;
			e->stun = c->stun;
			e->unconscious = c->unconscious;
			st->qpos++;
			continue;
		}
		if (c->stunned) {
			c->stunned = 0;
			e = bc_push(ev, BC_E_LOST_PHASE);
			e->seat = q / 5;
			e->role = q % 5;
			st->qpos++;
			continue;
		}
		e = bc_push(ev, BC_E_PHASE);
		e->seat = q / 5;
		e->role = q % 5;
		e->turn = st->turn;
		e->segment = st->segment;
		return;
	}
	end_match(st, "no character can act", ev);
}

static void
start_play(struct bc_state *st, struct wr_rng *rng, struct wr_list *ev)
{
	for (int s = 0; s < BC_SEATS; s++)
		for (int r = 0; r < BC_ROLES; r++) {
			struct bc_char *c = &st->ch[s][r];
			c->stun = c->sh.stun;
			c->body = c->sh.body;
		}
	st->stage = BC_PLAY;
	st->turn = 1;
	st->segment = 12;   /* B3: play starts in Segment 12 */
	bc_push(ev, BC_E_START);
	build_queue(st, rng, ev);
	advance(st, rng, ev);
}

/* ---------------------------------------------------------- movement */

static int
forward(int seat)
{
	return seat == 0 ? 1 : -1;
}

/* The squares piece i could reach as the end of a move or the target of
 * fire, by chess movement; whether the end square may be entered is the
 * caller's. Pawns only move (no fire) and list forward squares. */
static uint64_t
blockers(const struct bc_state *st, int fire)
{
	uint64_t m = 0;
	for (int i = 0; i < BC_PIECES; i++)
		if (st->p[i].sq >= 0 && (!fire || !bc_piece_looks_unconscious(st, i)))
			m |= 1ull << st->p[i].sq;
	return m;
}

static int
reach(const struct bc_state *st, int i, int fire, int *out)
{
	uint64_t occ = blockers(st, fire);
	static const int kdf[8] = {1, 2, 2, 1, -1, -2, -2, -1};
	static const int kdr[8] = {2, 1, -1, -2, -2, -1, 1, 2};
	int sq = st->p[i].sq, f = sq_file(sq), r = sq_rank(sq), kind = bc_piece_kind(i), n = 0;
	int dir_lo = 0, dir_hi = 8, step = 1, max = 8;

	switch (kind) {
	case BC_KNIGHT:
		for (int k = 0; k < 8; k++) {
			int nf = f + kdf[k], nr = r + kdr[k];
			if (nf >= 0 && nf < 8 && nr >= 0 && nr < 8)
				out[n++] = nr * 8 + nf;
		}
		return n;
	case BC_PAWN: {
		int fw = forward(bc_piece_seat(i)), nr = r + fw;
		if (fire || nr < 0 || nr > 7)
			return 0;
		out[n++] = nr * 8 + f;
		if (!st->p[i].moved && !(occ & (1ull << (nr * 8 + f))) && nr + fw >= 0 && nr + fw < 8)
			out[n++] = (nr + fw) * 8 + f;
		if (f > 0)
			out[n++] = nr * 8 + f - 1;
		if (f < 7)
			out[n++] = nr * 8 + f + 1;
		return n;
	}
	case BC_KING:
		max = 1;
		break;
	case BC_ROOK:
		step = 2;
		break;
	case BC_BISHOP:
		dir_lo = 1;
		step = 2;
		break;
	default:
		break;
	}
	for (int d = dir_lo; d < dir_hi; d += step) {
		int cf = f, cr = r;
		for (int k = 0; k < max; k++) {
			cf += wr_dir_df[d];
			cr += wr_dir_dr[d];
			if (cf < 0 || cf > 7 || cr < 0 || cr > 7)
				break;
			out[n++] = cr * 8 + cf;
			if (occ & (1ull << (cr * 8 + cf)))
				break;
		}
	}
	return n;
}

static int
in_reach(const struct bc_state *st, int i, int fire, int to)
{
	int sq[64], n = reach(st, i, fire, sq);
	for (int k = 0; k < n; k++)
		if (sq[k] == to)
			return 1;
	return 0;
}

/* The enemy piece of `seat` on sq, or -1 (an engaged pair holds one). */
static int
enemy_at(const struct bc_state *st, int seat, int sq)
{
	int here[2], n = bc_pieces_at(st, sq, here);
	for (int k = 0; k < n; k++)
		if (bc_piece_seat(here[k]) != seat)
			return here[k];
	return -1;
}

/* Does the acting character control piece i (its own piece, its Mirror,
 * or -- the King -- a Pawn)? */
static int
controls(const struct bc_state *st, int c, int i)
{
	int seat = c / BC_ROLES, role = c % BC_ROLES, kind = bc_piece_kind(i);
	if (i < 0 || bc_piece_seat(i) != seat || st->p[i].sq < 0)
		return 0;
	return kind == role || (role == BC_KING && kind == BC_PAWN);
}

/* The acting seat's piece on sq that the acting character controls. */
static int
own_piece_at(const struct bc_state *st, int c, int sq)
{
	int here[2], n = bc_pieces_at(st, sq, here);
	for (int k = 0; k < n; k++)
		if (controls(st, c, here[k]))
			return here[k];
	return -1;
}

/* ---------------------------------------------------------- candidates */

static void
push_act(struct wr_list *out, struct bc_action a)
{
	struct bc_action *slot = wr_list_push(out);
	if (slot)
		*slot = a;
}

void
bc_candidates(const void *state, int seat, struct wr_list *out)
{
	const struct bc_state *st = state;
	int c;

	if (seat < 0 || seat >= st->seats || !(bc_to_act(st) & (1u << seat)))
		return;
	if (st->stage == BC_SETUP) {
		for (int r = 0; r < BC_ROLES; r++) {
			if (st->ch[seat][r].chosen || (r > 0 && !st->ch[seat][r - 1].chosen))
				continue;   /* one role at a time, in order */
			for (int t = 0; t < bc_ntemplates; t++)
				push_act(out, (struct bc_action){.type = BC_A_SHEET, .role = r, .tmpl = t,
				                                 .attack = -1});
			for (int t = 0; t < st->ncustom; t++)
				push_act(out, (struct bc_action){.type = BC_A_SHEET, .role = r,
				                                 .tmpl = BC_CUSTOM_BASE + t, .attack = -1});
		}
		for (int j = 2; j < 8; j++)
			push_act(out, (struct bc_action){.type = BC_A_MIRROR,
			                                 .square = bc_start_square(seat * BC_PER_SIDE + j),
			                                 .attack = -1});
		return;
	}
	if (st->stage == BC_REFEREE) {
		if (st->pend.step == BC_REF_HIT) {
			push_act(out, (struct bc_action){.type = BC_A_REF_HIT, .hit = 1, .attack = -1});
			push_act(out, (struct bc_action){.type = BC_A_REF_HIT, .hit = 0, .attack = -1});
		} else {
			int stun = st->pend.step == BC_REF_STUN;
			int max = stun ? BC_MAX_OUT_STUN : BC_MAX_OUT_BODY;
			for (int v = 0; v <= max; v++)
				push_act(out, (struct bc_action){.type = stun ? BC_A_REF_STUN : BC_A_REF_BODY,
				                                 .value = v, .attack = -1});
		}
		return;
	}
	c = bc_acting_char(st);
	if (c < 0)
		return;
	/* a superset in a stable order, trimmed by what the square holds so
	 * that legal() refuses few of them */
	for (int i = seat * BC_PER_SIDE; i < (seat + 1) * BC_PER_SIDE; i++) {
		int sq[64], n;
		const struct bc_char *ch = &st->ch[seat][c % BC_ROLES];
		if (!controls(st, c, i))
			continue;
		/* B7 (amended): an engaged piece may not leave, but may fire */
		n = st->p[i].engaged >= 0 ? 0 : reach(st, i, 0, sq);
		for (int k = 0; k < n; k++) {
			int foe = enemy_at(st, seat, sq[k]);
			if (bc_piece_kind(i) == BC_PAWN || foe < 0) {
				push_act(out, (struct bc_action){.type = BC_A_MOVE, .from = st->p[i].sq,
				                                 .to = sq[k], .attack = -1});
				continue;
			}
			for (int a = 0; a < ch->sh.nattacks; a++)
				if (!ch->sh.att[a].ranged)
					push_act(out, (struct bc_action){.type = BC_A_MOVE, .from = st->p[i].sq,
					                                 .to = sq[k], .attack = a});
		}
		if (bc_piece_kind(i) == BC_PAWN)
			continue;
		n = reach(st, i, 1, sq);
		for (int k = 0; k < n; k++)
			for (int a = 0; a < ch->sh.nattacks; a++)
				if (ch->sh.att[a].ranged && enemy_at(st, seat, sq[k]) >= 0)
					push_act(out, (struct bc_action){.type = BC_A_SHOOT, .from = st->p[i].sq,
					                                 .to = sq[k], .attack = a});
	}
	if (bc_real_piece(st, seat, c % BC_ROLES) >= 0 &&
	    st->p[bc_real_piece(st, seat, c % BC_ROLES)].engaged >= 0)
		for (int a = 0; a < st->ch[seat][c % BC_ROLES].sh.nattacks; a++)
			push_act(out, (struct bc_action){.type = BC_A_HTH, .attack = a});
	push_act(out, (struct bc_action){.type = BC_A_DODGE, .attack = -1});
	push_act(out, (struct bc_action){.type = BC_A_RECOVER, .attack = -1});
}

/* --------------------------------------------------------------- legal */

static int
legal_move(const struct bc_state *st, int c, const struct bc_action *a, int shoot,
           struct wr_error *err)
{
	int seat = c / BC_ROLES, i = own_piece_at(st, c, a->from), here[2], n, foe;
	const struct bc_char *ch = &st->ch[seat][c % BC_ROLES];

	if (i < 0)
		return wr_fail(err, "no-piece", "from",
		               "No piece that your %s may move stands on that square",
		               bc_kind_names[c % BC_ROLES]);
	if (st->p[i].engaged >= 0 && !shoot)
		return wr_fail(err, "engaged", "from",
		               "That piece is engaged in hand-to-hand combat and cannot leave its "
		               "square until the fight is over");
	if (a->attack >= ch->sh.nattacks || (bc_piece_kind(i) == BC_PAWN && a->attack >= 0))
		return wr_fail(err, "no-such-attack", "attack", "That character has no such attack");
	n = bc_pieces_at(st, a->to, here);
	foe = enemy_at(st, seat, a->to);
	if (shoot) {
		if (bc_piece_kind(i) == BC_PAWN)
			return wr_fail(err, "illegal-action", "from", "Pawns do not fire");
		if (!ch->sh.att[a->attack].ranged)
			return wr_fail(err, "not-ranged", "attack",
			               "That is a hand-to-hand attack: move onto the square instead");
		if (foe < 0)
			return wr_fail(err, "no-target", "to", "There is no enemy on that square");
		if (!in_reach(st, i, 1, a->to))
			return wr_fail(err, "out-of-range", "to",
			               "You may fire only at a square the piece could move to, along a "
			               "clear path (Knights excepted)");
		return 0;
	}
	if (!in_reach(st, i, 0, a->to))
		return wr_fail(err, "illegal-move", "to",
		               "That piece cannot move there: chess movement, along a clear path "
		               "(Knights excepted)");
	if (n == 2)
		return wr_fail(err, "occupied", "to",
		               "Two pieces already fight on that square");
	if (n == 1 && foe < 0)
		return wr_fail(err, "own-piece", "to", "One of your own pieces stands there");
	if (bc_piece_kind(i) == BC_PAWN) {
		int straight = sq_file(a->to) == sq_file(a->from);
		if (straight && n)
			return wr_fail(err, "illegal-move", "to",
			               "A Pawn moves straight ahead only onto empty squares");
		if (!straight && !n)
			return wr_fail(err, "illegal-move", "to",
			               "A Pawn moves diagonally only onto an enemy piece");
		return 0;
	}
	if (n == 0 && a->attack >= 0)
		return wr_fail(err, "no-target", "attack", "There is no enemy on that square to attack");
	if (n == 1 && a->attack < 0)
		return wr_fail(err, "missing-field", "attack",
		               "Moving onto an enemy is a hand-to-hand attack: name the attack");
	if (n == 1 && ch->sh.att[a->attack].ranged)
		return wr_fail(err, "not-hth", "attack",
		               "Moving onto an enemy starts hand-to-hand combat: use a hand-to-hand "
		               "attack");
	return 0;
}

int
bc_legal(const void *state, int seat, const void *action, struct wr_error *err)
{
	const struct bc_state *st = state;
	const struct bc_action *a = action;
	int c;

	if (st->stage == BC_OVER)
		return wr_fail(err, "game-over", "", "The match is over");
	if (seat < 0 || seat >= st->seats)
		return wr_fail(err, "no-such-seat", "", "There is no such seat");
	if (!(bc_to_act(st) & (1u << seat)))
		return wr_fail(err, "not-awaited", "", "It is not your turn to act");
	if (a->type < 0 || a->type >= BC_A_MAX)
		return wr_fail(err, "unknown-action", "type", "Unknown action");
	switch (st->stage) {
	case BC_SETUP:
		if (a->type == BC_A_SHEET) {
			if (a->role < 0 || a->role >= BC_ROLES)
				return wr_fail(err, "illegal-action", "role", "No such character");
			if (st->ch[seat][a->role].chosen)
				return wr_fail(err, "already-chosen", "role",
				               "That character's sheet is chosen already");
			if (a->role > 0 && !st->ch[seat][a->role - 1].chosen)
				return wr_fail(err, "out-of-order", "role",
				               "Choose the sheets in order: King, Queen, Rook, Bishop, Knight");
			if (!bc_sheet_of(st, a->tmpl))
				return wr_fail(err, "no-such-template", "template", "No such template");
			return 0;
		}
		if (a->type == BC_A_MIRROR) {
			int i = bc_start_piece(a->square), k;
			if (i < 0 || bc_piece_seat(i) != seat || bc_piece_kind(i) < BC_ROOK ||
			    bc_piece_kind(i) > BC_KNIGHT)
				return wr_fail(err, "illegal-action", "square",
				               "A Mirror is one of your Rooks, Bishops or Knights, named by "
				               "its start square");
			k = bc_piece_kind(i) - BC_ROOK;
			if (st->mirror_set[seat][k])
				return wr_fail(err, "already-chosen", "square",
				               "You have chosen that Mirror already");
			return 0;
		}
		return wr_fail(err, "illegal-action", "type",
		               "Set-up first: choose your characters' sheets and your Mirrors");
	case BC_REFEREE:
		if (st->pend.step == BC_REF_HIT && a->type == BC_A_REF_HIT)
			return (a->hit & ~1) ? wr_fail(err, "illegal-action", "hit", "true or false") : 0;
		if (st->pend.step == BC_REF_STUN && a->type == BC_A_REF_STUN)
			return a->value < 0 || a->value > BC_MAX_OUT_STUN
			           ? wr_fail(err, "out-of-range", "value", "STUN from 0 to %d",
			                     BC_MAX_OUT_STUN)
			           : 0;
		if (st->pend.step == BC_REF_BODY && a->type == BC_A_REF_BODY)
			return a->value < 0 || a->value > BC_MAX_OUT_BODY
			           ? wr_fail(err, "out-of-range", "value", "BODY from 0 to %d",
			                     BC_MAX_OUT_BODY)
			           : 0;
		return wr_fail(err, "illegal-action", "type",
		               "The referee posts the outcome: %s",
		               st->pend.step == BC_REF_HIT    ? "ref_hit"
		               : st->pend.step == BC_REF_STUN ? "ref_stun"
		                                              : "ref_body");
	default:
		break;
	}
	c = bc_acting_char(st);
	switch (a->type) {
	case BC_A_MOVE:
		return legal_move(st, c, a, 0, err);
	case BC_A_SHOOT:
		return legal_move(st, c, a, 1, err);
	case BC_A_HTH: {
		int i = bc_real_piece(st, seat, c % BC_ROLES);
		if (i < 0 || st->p[i].engaged < 0)
			return wr_fail(err, "not-engaged", "",
			               "Your character is not engaged in hand-to-hand combat");
		if (a->attack < 0 || a->attack >= st->ch[seat][c % BC_ROLES].sh.nattacks)
			return wr_fail(err, "no-such-attack", "attack", "That character has no such attack");
		if (st->ch[seat][c % BC_ROLES].sh.att[a->attack].ranged)
			return wr_fail(err, "not-hth", "attack", "Use a hand-to-hand attack");
		return 0;
	}
	case BC_A_DODGE:
	case BC_A_RECOVER:
		return 0;
	default:
		return wr_fail(err, "illegal-action", "type", "Not an action of a phase");
	}
}

/* --------------------------------------------------------------- apply */

/* A move or a shot by piece i: the event is public for Kings, Queens and
 * Pawns; for a Rook, Bishop or Knight it is emitted twice, the full one
 * (Mirror or not) to the owner and the referee, the redacted one to all,
 * the same for a Mirror as for the real piece (B12). */
static void
emit_act(const struct bc_state *st, enum bc_ev type, int i, int from, int to, int attack,
         struct wr_list *ev)
{
	int kind = bc_piece_kind(i);
	struct bc_event *e = bc_push(ev, type);

	e->seat = bc_piece_seat(i);
	e->kind = kind;
	e->from = from;
	e->to = to;
	e->attack = attack;
	if (kind >= BC_ROOK && kind <= BC_KNIGHT) {
		struct bc_event copy = *e;
		e->vis = BC_V_REDACTED;
		e = bc_push(ev, type);
		*e = copy;
		e->vis = BC_V_OWNER;
		e->secret = st->p[i].decoy;
	}
}

static void
ask_referee(struct bc_state *st, int attacker, int att, int target, struct wr_list *ev)
{
	struct bc_event *e = bc_push(ev, BC_E_AWAIT_REF);

	st->pend = (struct bc_pending){.attacker = attacker, .attack = att, .target_sq = target,
	                               .step = BC_REF_HIT};
	st->stage = BC_REFEREE;
	e->seat = bc_piece_seat(attacker);
	e->role = bc_piece_kind(attacker);
	e->attack = att;
	e->from = st->p[attacker].sq;
	e->to = target;
}

/* An attack between characters: the referee's to judge (B11), else the
 * dice's. */
static void
attack(struct bc_state *st, int attacker, int att, int target, struct wr_rng *rng,
       struct wr_list *ev)
{
	if (st->referee)
		ask_referee(st, attacker, att, target, ev);
	else
		bc_resolve_attack(st, attacker, att, target, rng, ev);
}

int
bc_undo_barrier(const void *before, const void *after, int seat, const struct wr_events *ev)
{
	const struct bc_state *a = before, *b = after;

	(void)seat;
	(void)ev;
	for (int i = 0; i < BC_PIECES; i++)
		if (!a->p[i].revealed && b->p[i].revealed)
			return 1;
	return 0;
}

/* B6: "Is this a decoy I'm attacking?" Returns 1 when combat ensues. */
static int
decoy_question(struct bc_state *st, int att, int def, int hth_to, struct wr_list *ev)
{
	struct bc_event *e = bc_push(ev, BC_E_DECOY);

	e->seat = bc_piece_seat(att);
	e->from = st->p[att].sq;
	e->to = st->p[def].sq;
	e->decoy = st->p[def].decoy;
	st->p[def].revealed = 1;
	if (st->p[def].decoy) {
		/* the defender goes, whatever the attacker is; the attacker stays
		 * unrevealed */
		bc_remove_piece(st, def, ev);
		if (hth_to >= 0) {
			st->p[att].sq = hth_to;
			if (bc_piece_kind(att) == BC_PAWN)
				st->p[att].moved = 1;
		}
		return 0;
	}
	e->attacker_decoy = st->p[att].decoy;
	st->p[att].revealed = 1;
	if (st->p[att].decoy) {
		bc_remove_piece(st, att, ev);
		return 0;
	}
	return 1;
}

void
bc_apply(void *state, int seat, const void *action, struct wr_rng *rng, struct wr_list *ev)
{
	struct bc_state *st = state;
	const struct bc_action *a = action;
	int c = bc_acting_char(st), i, foe;
	struct bc_event *e;

	switch (a->type) {
	case BC_A_SHEET:
		st->ch[seat][a->role].chosen = 1;
		st->ch[seat][a->role].sh = *bc_sheet_of(st, a->tmpl);
		e = bc_push(ev, BC_E_SHEET);
		e->seat = seat;
		e->role = a->role;
		e->value = a->tmpl;
		break;
	case BC_A_MIRROR:
		i = bc_start_piece(a->square);
		st->p[i].decoy = 1;
		st->mirror_set[seat][bc_piece_kind(i) - BC_ROOK] = 1;
		e = bc_push(ev, BC_E_MIRROR);
		e->seat = seat;
		e->kind = bc_piece_kind(i);
		e->vis = BC_V_REDACTED;
		e = bc_push(ev, BC_E_MIRROR);
		e->seat = seat;
		e->kind = bc_piece_kind(i);
		e->vis = BC_V_OWNER;
		e->from = a->square;
		break;
	case BC_A_MOVE:
		i = own_piece_at(st, c, a->from);
		foe = enemy_at(st, seat, a->to);
		emit_act(st, BC_E_MOVE, i, a->from, a->to, a->attack, ev);
		if (foe < 0) {
			st->p[i].sq = a->to;
			if (bc_piece_kind(i) == BC_PAWN)
				st->p[i].moved = 1;
			break;
		}
		if (!decoy_question(st, i, foe, a->to, ev))
			break;
		/* B7: both real: the mover enters and they fight on the square */
		st->p[i].sq = a->to;
		st->p[i].engaged = foe;
		st->p[foe].engaged = i;
		e = bc_push(ev, BC_E_ENGAGE);
		e->seat = seat;
		e->to = a->to;
		attack(st, i, a->attack, a->to, rng, ev);
		break;
	case BC_A_SHOOT:
		i = own_piece_at(st, c, a->from);
		foe = enemy_at(st, seat, a->to);
		emit_act(st, BC_E_SHOOT, i, a->from, a->to, a->attack, ev);
		/* text rule 5: a ranged attack never takes the square */
		if (!decoy_question(st, i, foe, -1, ev))
			break;
		attack(st, i, a->attack, a->to, rng, ev);
		break;
	case BC_A_HTH:
		/* no secret here: both fighters are revealed */
		i = bc_real_piece(st, seat, c % BC_ROLES);
		if (st->referee)
			ask_referee(st, i, a->attack, st->p[i].sq, ev);
		else
			bc_resolve_attack(st, i, a->attack, st->p[i].sq, rng, ev);
		break;
	case BC_A_DODGE:
		st->ch[seat][c % BC_ROLES].dodging = 1;
		e = bc_push(ev, BC_E_DODGE);
		e->seat = seat;
		e->role = c % BC_ROLES;
		break;
	case BC_A_RECOVER: {
		int g;
		recover(&st->ch[seat][c % BC_ROLES], &g);
		e = bc_push(ev, BC_E_RECOVER);
		e->seat = seat;
		e->role = c % BC_ROLES;
		e->value = g;
		e->stun = st->ch[seat][c % BC_ROLES].stun;
		break;
	}
	case BC_A_REF_HIT:
		st->pend.hit = a->hit;
		st->pend.step = BC_REF_STUN;
		if (!a->hit && !st->ch[bc_piece_seat(st->pend.attacker)][bc_piece_kind(
		                          st->pend.attacker)]
		                     .sh.att[st->pend.attack]
		                     .area) {
			st->stage = BC_PLAY;
			bc_resolve_outcome(st, st->pend.attacker, st->pend.attack, st->pend.target_sq, 0,
			                   0, 0, ev);
			st->pend.attacker = -1;
			st->qpos++;
			advance(st, rng, ev);
		}
		return;
	case BC_A_REF_STUN:
		st->pend.stun = a->value;
		st->pend.step = BC_REF_BODY;
		return;
	case BC_A_REF_BODY:
		st->stage = BC_PLAY;
		bc_resolve_outcome(st, st->pend.attacker, st->pend.attack, st->pend.target_sq,
		                   st->pend.hit, st->pend.stun, a->value, ev);
		st->pend.attacker = -1;
		st->qpos++;
		advance(st, rng, ev);
		return;
	default:
		return;
	}
	if (st->stage == BC_SETUP) {
		if (seat_ready(st, 0) && seat_ready(st, 1))
			start_play(st, rng, ev);
		return;
	}
	if (st->stage == BC_REFEREE) {
		check_end(st, ev);
		return;
	}
	st->qpos++;
	advance(st, rng, ev);
}

int
bc_resign(void *state, int seat, struct wr_rng *rng, struct wr_list *ev)
{
	struct bc_state *st = state;

	if (seat < 0 || seat >= st->seats)
		return -1;
	if (st->stage == BC_OVER)
		return 0;
	if (seat == BC_REF_SEAT) {
		/* the referee leaves: the server's dice resolve from now on */
		st->referee = 0;
		if (st->stage == BC_REFEREE) {
			st->stage = BC_PLAY;
			st->pend.attacker = -1;
			/* the pending attack is void; play goes on */
			st->qpos++;
			advance(st, rng, ev);
		}
		return 0;
	}
	end_match(st, "resignation", ev);
	st->winners = 1u << (1 - seat);
	return 0;
}

void
bc_result(const void *state, struct wr_result *out)
{
	const struct bc_state *st = state;

	memset(out, 0, sizeof(*out));
	out->has_scores = 1;
	out->scores[0] = st->scores[0];
	out->scores[1] = st->scores[1];
	if (st->stage != BC_OVER)
		return;
	out->over = 1;
	out->winners = st->winners;
	snprintf(out->reason, sizeof(out->reason), "%s", st->reason);
}

/* ---------------------------------------------------------- coherence */

/* What load() needs to hold for the rules never to read out of bounds or
 * loop: everything else is plain numbers in range. */
int
bc_state_coherent(const struct bc_state *st)
{
	int count[64] = {0};
	/* A match can end in set-up (a resignation): then, as in set-up,
	 * choices may still be missing. */
	int set_up = st->stage == BC_PLAY || st->stage == BC_REFEREE ||
	             (st->stage == BC_OVER && st->turn >= 1);

	if (!((st->seats == 2 && !st->referee) || st->seats == 3))
		return 0;
	for (int i = 0; i < BC_PIECES; i++) {
		const struct bc_piece *p = &st->p[i];
		int kind = bc_piece_kind(i);
		if (p->sq < -1 || p->sq > 63 || p->engaged < -1 || p->engaged >= BC_PIECES)
			return 0;
		if (kind == BC_PAWN && !p->decoy)
			return 0;
		if ((kind == BC_KING || kind == BC_QUEEN) && p->decoy)
			return 0;
		if (p->sq >= 0)
			count[p->sq]++;
		if (p->engaged >= 0) {
			const struct bc_piece *q = &st->p[p->engaged];
			if (q->engaged != i || q->sq != p->sq || p->sq < 0 ||
			    bc_piece_seat(p->engaged) == bc_piece_seat(i) || p->decoy || q->decoy)
				return 0;
		}
	}
	for (int s = 0; s < 64; s++) {
		int here[2];
		if (count[s] > 2)
			return 0;
		if (count[s] == 2) {
			bc_pieces_at(st, s, here);
			if (st->p[here[0]].engaged != here[1])
				return 0;
		}
	}
	for (int s = 0; s < BC_SEATS; s++) {
		for (int k = 0; k < 3; k++) {
			int a = s * BC_PER_SIDE + 2 + 2 * k;
			int d = st->p[a].decoy + st->p[a + 1].decoy;
			if (st->mirror_set[s][k] ? d != 1 : d != 0)
				return 0;
			if (set_up && !st->mirror_set[s][k])
				return 0;
		}
		for (int r = 0; r < BC_ROLES; r++) {
			const struct bc_char *c = &st->ch[s][r];
			if (c->chosen && !bc_sheet_valid(&c->sh))
				return 0;
			if (set_up && !c->chosen)
				return 0;
			if (c->removed != (set_up && bc_real_piece(st, s, r) < 0))
				return 0;
			if (c->stun < -300 || c->stun > 199 || c->body < -300 || c->body > 99)
				return 0;
		}
	}
	if (st->stage == BC_SETUP && seat_ready(st, 0) && seat_ready(st, 1))
		return 0;
	if (st->nqueue < 0 || st->nqueue > BC_SEATS * BC_ROLES || st->qpos < 0 ||
	    st->qpos > st->nqueue)
		return 0;
	for (int k = 0; k < st->nqueue; k++)
		if (st->queue[k] < 0 || st->queue[k] >= BC_SEATS * BC_ROLES)
			return 0;
	if (st->stage == BC_PLAY || st->stage == BC_REFEREE) {
		int c;
		if (st->turn < 1 || st->turn > 100000 || st->segment < 1 || st->segment > 12 ||
		    st->qpos >= st->nqueue)
			return 0;
		c = st->queue[st->qpos];
		if (st->ch[c / 5][c % 5].removed)
			return 0;
		if (bc_real_piece(st, 0, BC_KING) < 0 || bc_real_piece(st, 1, BC_KING) < 0)
			return 0;
	}
	if (st->stage == BC_REFEREE) {
		const struct bc_pending *p = &st->pend;
		if (!st->referee || p->attacker < 0 || p->attacker >= BC_PIECES ||
		    st->p[p->attacker].sq < 0 || st->p[p->attacker].decoy ||
		    bc_piece_kind(p->attacker) == BC_PAWN || p->target_sq < 0 || p->target_sq > 63 ||
		    p->step < 0 || p->step >= BC_REF_STEP_MAX || (p->hit & ~1) || p->stun < 0 ||
		    p->stun > BC_MAX_OUT_STUN)
			return 0;
		if (p->attack < 0 ||
		    p->attack >= st->ch[bc_piece_seat(p->attacker)][bc_piece_kind(p->attacker)]
		                     .sh.nattacks)
			return 0;
	}
	return 1;
}
