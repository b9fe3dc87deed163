/* Blood Chess combat: Champions 4th edition as RULINGS.md B8 and B9 give
 * it. To-hit on 3d6, normal and killing damage, defenses, Stunned,
 * unconscious, removal (text rule 4), Area Effect (text rule 10).
 * Calls bc_board.c only; bc_rules.c and the codec call into it, never the
 * other way. */
#include <string.h>

#include "bc_rules.h"

struct bc_event *
bc_push(struct wr_list *ev, enum bc_ev type)
{
	struct bc_event *e = wr_list_push(ev);
	static struct bc_event sink;

	if (!e) {
		memset(&sink, 0, sizeof(sink));
		e = &sink;   /* out of memory: the event is lost, the rules go on */
	}
	e->type = type;
	e->vis = BC_V_PUBLIC;
	e->from = e->to = -1;
	e->attack = -1;
	e->attacker_decoy = -1;
	return e;
}

int
bc_to_hit_need(int ocv, int dcv)
{
	return 11 + ocv - dcv;
}

int
bc_hits(int roll, int need)
{
	if (roll <= 3)
		return 1;
	if (roll >= 18)
		return 0;
	return roll <= need;
}

void
bc_roll_damage(const struct bc_attack *a, struct wr_rng *rng, int *dice, int *stun, int *body,
               int *mult)
{
	int total = 0, b = 0;

	for (int i = 0; i < a->dice; i++) {
		int d = (int)wr_die(rng, 6);
		dice[i] = d;
		total += d;
		b += d == 1 ? 0 : d == 6 ? 2 : 1;
	}
	if (a->killing) {
		/* B8: BODY = total, STUN = BODY x max(1, d6 - 1) */
		int m = (int)wr_die(rng, 6) - 1;
		*mult = m < 1 ? 1 : m;
		*body = total;
		*stun = total * *mult;
	} else {
		*mult = 0;
		*stun = total;
		*body = b;
	}
}

void
bc_damage_taken(const struct bc_attack *a, const struct bc_sheet *def, int stun, int body,
                struct bc_damage *out)
{
	int pd = a->vs_ed ? def->ed : def->pd, rpd = a->vs_ed ? def->red : def->rpd;

	out->stun = stun;
	out->body = body;
	/* B8: normal attacks lose PD (ED) from STUN and BODY; killing attacks
	 * lose resistant PD (ED) from BODY and PD (ED) from STUN. */
	out->def_stun = pd;
	out->def_body = a->killing ? rpd : pd;
	out->stun_taken = stun > out->def_stun ? stun - out->def_stun : 0;
	out->body_taken = body > out->def_body ? body - out->def_body : 0;
}

static int
points_of(int i, const struct bc_piece *p)
{
	if (bc_piece_kind(i) == BC_KING)
		return 20;
	return p->decoy ? 1 : 5;   /* B10 */
}

void
bc_remove_piece(struct bc_state *st, int i, struct wr_list *ev)
{
	struct bc_piece *p = &st->p[i];
	int seat = bc_piece_seat(i), kind = bc_piece_kind(i);
	struct bc_event *e = bc_push(ev, BC_E_REMOVED);

	e->seat = seat;
	e->kind = kind;
	e->from = p->sq;
	e->decoy = p->decoy;
	e->points = points_of(i, p);
	st->scores[1 - seat] += e->points;
	if (p->engaged >= 0)
		st->p[p->engaged].engaged = -1;   /* the survivor holds the square (B7) */
	p->engaged = -1;
	p->sq = -1;
	p->revealed = 1;
	if (!p->decoy && kind != BC_PAWN) {
		struct bc_char *c = &st->ch[seat][kind];
		c->removed = 1;
		c->dodging = 0;
	}
}

void
bc_take(struct bc_state *st, int seat, int role, int stun_taken, int body_taken,
        struct wr_list *ev)
{
	struct bc_char *c = &st->ch[seat][role];
	int real = bc_real_piece(st, seat, role);
	struct bc_event *e = bc_push(ev, BC_E_DAMAGE);

	c->stun -= stun_taken;
	c->body -= body_taken;
	if (stun_taken > c->sh.con && !c->unconscious)
		c->stunned = 1;
	if (c->stun <= 0) {
		c->unconscious = 1;
		c->stunned = 0;
		c->dodging = 0;
	}
	e->seat = seat;
	e->role = role;
	e->from = real >= 0 ? st->p[real].sq : -1;
	e->stun_taken = stun_taken;
	e->body_taken = body_taken;
	e->stun = c->stun;
	e->body = c->body;
	/* B8: what this hit did ("STUN taken above CON"), and the state */
	e->stunned = stun_taken > c->sh.con;
	e->is_stunned = c->stunned;
	e->unconscious = c->unconscious;
	/* text rule 4: unconscious by more than REC, or BODY at 0 */
	e->removed = c->stun < -c->sh.rec || c->body <= 0;
	if (e->removed && real >= 0)
		bc_remove_piece(st, real, ev);
}

/* The real characters standing on a square, as pieces; the attacker's
 * enemy first. */
static int
victims(const struct bc_state *st, int sq, int area, int attacker_seat, int *out)
{
	int here[2], n = bc_pieces_at(st, sq, here), k = 0;

	for (int pass = 0; pass < 2; pass++)
		for (int j = 0; j < n; j++) {
			int i = here[j], enemy = bc_piece_seat(i) != attacker_seat;
			if (st->p[i].decoy || enemy != (pass == 0))
				continue;
			if (!area && !enemy)
				continue;
			out[k++] = i;
		}
	return k;
}

static void
hurt(struct bc_state *st, const int *who, int n, const struct bc_attack *a, int stun, int body,
     int given, int stun_given, int body_given, struct wr_list *ev)
{
	/* the square's characters all take the same roll, each with its own
	 * defenses (B9); a referee's outcome is taken as posted */
	int seats[2], roles[2];

	for (int k = 0; k < n; k++) {
		seats[k] = bc_piece_seat(who[k]);
		roles[k] = bc_piece_kind(who[k]);
	}
	for (int k = 0; k < n; k++) {
		struct bc_char *c = &st->ch[seats[k]][roles[k]];
		struct bc_damage d;
		if (c->removed)
			continue;
		if (given) {
			d.stun_taken = stun_given;
			d.body_taken = body_given;
		} else {
			bc_damage_taken(a, &c->sh, stun, body, &d);
		}
		bc_take(st, seats[k], roles[k], d.stun_taken, d.body_taken, ev);
		if (!given) {
			struct bc_event *e = wr_list_at(ev, ev->len - 1);
			/* the damage event is the last unless a removal followed */
			for (size_t x = ev->len; x-- > 0;) {
				e = wr_list_at(ev, x);
				if (e->type == BC_E_DAMAGE)
					break;
			}
			e->defense_stun = d.def_stun;
			e->defense_body = d.def_body;
		}
	}
}

int
bc_dcv(const struct bc_state *st, int seat, int role, const struct bc_attack *a)
{
	const struct bc_char *c = &st->ch[seat][role];

	if (a && a->area)
		return 3;   /* an Area Effect aims at the square (Champions: DCV 3) */
	if (c->unconscious)
		return 0;
	return c->sh.dcv + (c->dodging ? 3 : 0);
}

/* The attack event both resolutions start with (dice or the referee's). */
static struct bc_event *
attack_event(struct wr_list *ev, int attacker, int att, const struct bc_attack *a, int from,
             int to, int hit)
{
	struct bc_event *e = bc_push(ev, BC_E_ATTACK);

	e->seat = bc_piece_seat(attacker);
	e->role = bc_piece_kind(attacker);
	e->attack = att;
	e->from = from;
	e->to = to;
	e->hit = hit;
	e->area = a->area;
	e->killing = a->killing;
	return e;
}

void
bc_resolve_attack(struct bc_state *st, int attacker, int att, int target_sq,
                  struct wr_rng *rng, struct wr_list *ev)
{
	int seat = bc_piece_seat(attacker), role = bc_piece_kind(attacker);
	const struct bc_char *c = &st->ch[seat][role];
	const struct bc_attack *a = &c->sh.att[att];
	int who[2], n = victims(st, target_sq, a->area, seat, who);
	int dcv, roll, need, hit, self_sq = st->p[attacker].sq;
	struct bc_event *e;
	int dice[BC_MAX_DICE], stun = 0, body = 0, mult = 0;

	if (n == 0)
		return;
	dcv = a->area ? 3 : bc_dcv(st, bc_piece_seat(who[0]), bc_piece_kind(who[0]), a);
	need = bc_to_hit_need(c->sh.ocv, dcv);
	roll = (int)wr_die(rng, 6) + (int)wr_die(rng, 6) + (int)wr_die(rng, 6);
	hit = bc_hits(roll, need);
	if (hit || a->area)
		bc_roll_damage(a, rng, dice, &stun, &body, &mult);
	e = attack_event(ev, attacker, att, a, self_sq, target_sq, hit);
	e->roll = roll;
	e->need = need;
	if (hit || a->area) {
		e->ndice = a->dice;
		memcpy(e->dice, dice, sizeof(int) * (size_t)a->dice);
		e->stun = stun;
		e->body = body;
		e->mult = mult;
	}
	if (!hit && a->area) {
		/* text rule 10: a missed Area Effect detonates on the attacker */
		n = victims(st, self_sq, 1, seat, who);
	} else if (!hit) {
		return;
	}
	hurt(st, who, n, a, stun, body, 0, 0, 0, ev);
}

void
bc_resolve_outcome(struct bc_state *st, int attacker, int att, int target_sq, int hit,
                   int stun_taken, int body_taken, struct wr_list *ev)
{
	int seat = bc_piece_seat(attacker), role = bc_piece_kind(attacker);
	const struct bc_attack *a = &st->ch[seat][role].sh.att[att];
	int who[2], n, self_sq = st->p[attacker].sq;
	struct bc_event *e = attack_event(ev, attacker, att, a, self_sq, target_sq, hit);

	e->by_referee = 1;
	if (hit)
		n = victims(st, target_sq, a->area, seat, who);
	else if (a->area)
		n = victims(st, self_sq, 1, seat, who);
	else
		return;
	hurt(st, who, n, a, 0, 0, 1, stun_taken, body_taken, ev);
}
