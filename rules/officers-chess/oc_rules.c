/* Officers Chess rules on plain structs: apply (army building, deployment,
 * rounds, the combat turn, staves and special actions, items, victory) and
 * the events it tells each seat (fog of war). oc_legal() (oc_legal.c) has
 * checked every action first; the board helpers are in oc_board.c.
 * Calls oc_board.c, oc_combat.c and the data; only the codec calls in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oc_rules.h"

/* ------------------------------------------------------------ events */

static struct oc_event *
push(struct wr_list *ev, enum oc_ev type, unsigned vis)
{
	struct oc_event *e = wr_list_push(ev);
	if (!e)
		return NULL;
	e->type = type;
	e->vis = vis;
	e->seat = e->unit = e->other = e->from = e->to = e->item = e->item2 = -1;
	return e;
}

/* The seat's army is all built or deployed: ready, and everyone told. */
static void
army_ready(struct oc_state *st, int seat, struct wr_list *ev)
{
	struct oc_event *e = push(ev, OC_E_ARMY_READY, WR_VIS_PUBLIC);
	st->ready[seat] = 1;
	if (e)
		e->seat = seat;
}

/* An event about units: public without fog; under fog one copy per seat,
 * with what that seat does not see (unit at `from`, other at `to`) taken
 * out, and none for a seat that sees nothing of it (G5, O13). */
static void
emit_units(const struct oc_state *st, struct wr_list *ev, const struct oc_event *e)
{
	if (!st->fog) {
		struct oc_event *c = wr_list_push(ev);
		if (c) {
			*c = *e;
			c->vis = WR_VIS_PUBLIC;
		}
		return;
	}
	for (int s = 0; s < st->seats; s++) {
		int su = e->unit >= 0 && (st->u[e->unit].seat == s ||
		                          (e->from >= 0 && oc_seat_sees(st, s, e->from)));
		int so = e->other >= 0 && (st->u[e->other].seat == s ||
		                           (e->to >= 0 && oc_seat_sees(st, s, e->to)));
		int sto = e->to >= 0 && oc_seat_sees(st, s, e->to);
		if (e->unit >= 0 && st->u[e->unit].seat == s)
			su = so = sto = 1;
		if (!su && !so && !(e->unit < 0 && e->other < 0))
			continue;
		struct oc_event *c = wr_list_push(ev);
		if (!c)
			return;
		*c = *e;
		c->vis = 1u << s;
		if (!su) {
			c->unit = -1;
			c->from = -1;
			memset(&c->fc, 0, sizeof(c->fc));
		}
		if (!so && !sto) {
			c->other = -1;
			c->to = -1;
		} else if (!so) {
			c->other = -1;
		}
		/* Rescue, Warp and Entrap say where the unit they moved now
		 * stands (amount): only to a seat that owns it or sees that
		 * square (G5, O13). */
		if (e->type == OC_E_STAFF && e->amount >= 0 &&
		    (e->special == OC_SP_RESCUE || e->special == OC_SP_WARP ||
		     e->special == OC_SP_ENTRAP) &&
		    !(e->other >= 0 && st->u[e->other].seat == s) &&
		    !(e->unit >= 0 && st->u[e->unit].seat == s) && !oc_seat_sees(st, s, e->amount))
			c->amount = -1;
	}
}

/* An event about a tile that everyone sees (terrain is public), made by a
 * unit: without fog public; under fog one copy per seat, the unit and the
 * item it used taken out for a seat that does not see it; spectators get
 * none (O13). */
static void
emit_tile(const struct oc_state *st, struct wr_list *ev, const struct oc_event *e, int seat)
{
	for (int s = 0; s < (st->fog ? st->seats : 1); s++) {
		struct oc_event *c = wr_list_push(ev);
		if (!c)
			return;
		*c = *e;
		c->vis = st->fog ? 1u << s : WR_VIS_PUBLIC;
		if (st->fog && s != seat && !(e->from >= 0 && oc_seat_sees(st, s, e->from))) {
			c->unit = -1;
			c->from = -1;
			c->item = -1;
		}
	}
}

/* An AoE Heal (Fortify), healed[i] the HP unit i got back: without fog
 * public; under fog a seat that owns the user or sees it is told the user
 * and its staff, a seat is told the HP got back by the units it sees (a
 * view shows their HP), and a seat that sees none of it gets nothing;
 * spectators get none (G5, O13). */
static void
emit_aoe_heal(const struct oc_state *st, struct wr_list *ev, const struct oc_event *e,
              const int *healed)
{
	if (!st->fog) {
		emit_units(st, ev, e);
		return;
	}
	for (int s = 0; s < st->seats; s++) {
		int su = st->u[e->unit].seat == s || oc_seat_sees(st, s, e->from);
		int seen = 0, amount = 0;
		for (int i = 0; i < st->nu; i++)
			if (healed[i] > 0 && (st->u[i].seat == s || oc_seat_sees(st, s, st->u[i].sq))) {
				seen = 1;
				amount += healed[i];
			}
		if (!su && !seen)
			continue;
		struct oc_event *c = wr_list_push(ev);
		if (!c)
			return;
		*c = *e;
		c->vis = 1u << s;
		c->amount = amount;
		if (!su) {
			c->unit = -1;
			c->from = -1;
			c->item = -1;
		}
	}
}

/* ------------------------------------------------------- round flow */

static int
unactivated(const struct oc_state *st, int seat)
{
	for (int i = 0; i < st->nu; i++)
		if (st->u[i].seat == seat && st->u[i].where == OC_W_MAP && !st->u[i].activated)
			return 1;
	return 0;
}

static void check_victory(struct oc_state *st, struct wr_list *ev);

static void
end_game(struct oc_state *st, unsigned winners, int reason, struct wr_list *ev)
{
	struct oc_event *e;

	st->phase = OC_PH_OVER;
	st->winners = (int)winners;
	st->reason = reason;
	st->active = -1;
	e = push(ev, OC_E_OVER, WR_VIS_PUBLIC);
	if (e) {
		e->amount = (int)winners;
		e->kind = reason;
	}
}

static void
start_round(struct oc_state *st, struct wr_list *ev)
{
	struct oc_event *e;

	st->round++;
	for (int i = 0; i < st->nu; i++)
		st->u[i].activated = st->u[i].danced = 0;
	st->cur = st->first;
	if (!unactivated(st, st->cur))
		st->cur = !st->first;
	st->left = st->act[st->cur];
	e = push(ev, OC_E_ROUND, WR_VIS_PUBLIC);
	if (e) {
		e->amount = st->round;
		e->seat = st->cur;
	}
}

static void
end_round(struct oc_state *st, struct wr_list *ev)
{
	/* Vein and Torch last to the end of the round (O13, O15). */
	for (int t = 0; t < oc_ntiles(st); t++)
		if (st->vein[t]) {
			st->terrain[t] = st->base[t];
			st->vein[t] = 0;
			st->tile_dmg[t] = 0;
			struct oc_event *e = push(ev, OC_E_VEIN_END, WR_VIS_PUBLIC);
			if (e) {
				e->to = t;
				e->kind = st->terrain[t];
			}
		}
	st->ntorch = 0;
	if (st->round_limit > 0 && st->round >= st->round_limit) {
		unsigned w = 0;
		if (st->scenario != OC_SC_ROUT)
			w = 1u << !st->scen_seat;       /* the defender held out */
		else if (st->routed[1] > st->routed[0])
			w = 1u;
		else if (st->routed[0] > st->routed[1])
			w = 2u;
		end_game(st, w, OC_R_ROUNDS, ev);
		return;
	}
	start_round(st, ev);
}

/* After an activation ends: the seat's alternation goes on or passes
 * (O6); a seat with no unit left to activate is skipped. */
static void
next_activation(struct oc_state *st, struct wr_list *ev)
{
	int other = !st->cur;

	if (st->phase != OC_PH_BATTLE)
		return;
	st->left--;
	if (st->left > 0 && unactivated(st, st->cur))
		return;
	if (unactivated(st, other)) {
		st->cur = other;
		st->left = st->act[other];
	} else if (unactivated(st, st->cur)) {
		st->left = st->act[st->cur];
	} else {
		end_round(st, ev);
	}
}

static void
end_turn(struct oc_state *st, struct wr_list *ev)
{
	int i = st->active;
	struct oc_event *e;

	if (i < 0)
		return;
	st->u[i].frozen = 0;      /* Freeze: its next turn; Silenced: one activation */
	st->u[i].silenced = 0;
	st->active = -1;
	e = push(ev, OC_E_TURN_END, WR_VIS_PUBLIC);
	if (e)
		e->seat = st->u[i].seat;
	next_activation(st, ev);
}

static void
routed_event(struct oc_state *st, int i, int sq, struct wr_list *ev)
{
	struct oc_event e = {.type = OC_E_ROUTED, .unit = i, .from = sq, .other = -1, .to = -1,
	                     .seat = st->u[i].seat, .item = -1, .item2 = -1};
	emit_units(st, ev, &e);
}

static void
check_victory(struct oc_state *st, struct wr_list *ev)
{
	int on[2];

	if (st->phase != OC_PH_BATTLE)
		return;
	for (int s = 0; s < 2; s++)
		on[s] = oc_count_units(st, s, OC_W_MAP);
	if (st->scenario == OC_SC_ESCAPE) {
		int fs = st->scen_seat, need = (st->nunits + 1) / 2;
		if (st->escaped[fs] >= need) {
			end_game(st, 1u << fs, OC_R_ESCAPE, ev);
			return;
		}
		if (st->escaped[fs] + on[fs] < need) {
			end_game(st, 1u << !fs, OC_R_ROUT, ev);
			return;
		}
	}
	if (st->scenario == OC_SC_SEIZE) {
		for (int i = 0; i < st->nu; i++)
			if (st->u[i].seat == st->scen_seat && st->u[i].scen &&
			    st->u[i].where == OC_W_ROUTED) {
				end_game(st, 1u << !st->scen_seat, OC_R_ROUT, ev);
				return;
			}
	}
	if (on[0] == 0 && on[1] == 0)
		end_game(st, 0, OC_R_ROUT, ev);
	else if (on[0] == 0)
		end_game(st, 2u, OC_R_ROUT, ev);
	else if (on[1] == 0)
		end_game(st, 1u, OC_R_ROUT, ev);
}

/* A unit recruited takes up its first usable weapon (not a staff) and its
 * first accessory (README, decision 1). */
static void
equip_first(struct oc_unit *u)
{
	for (int s = 0; s < 3; s++) {
		if (u->item[s] < 0)
			continue;
		const struct oc_item *it = &oc_items[u->item[s]];
		if (u->equip < 0 && it->kind == OC_WEAPON && !oc_is_staff(it) && oc_usable_weapon(u, it))
			u->equip = s;
		if (u->acc < 0 && it->kind == OC_ACCESSORY)
			u->acc = s;
	}
}

/* --------------------------------------------------------- apply parts */

static void
add_unit(struct oc_state *st, int seat, const struct oc_recruit *r)
{
	struct oc_unit *u = &st->u[st->nu++];

	memset(u, 0, sizeof(*u));
	snprintf(u->name, sizeof(u->name), "%s", r->name);
	u->seat = seat;
	u->cls = r->cls;
	u->hp = oc_classes[r->cls].hp;
	u->where = OC_W_RESERVE;
	u->sq = -1;
	u->equip = u->acc = -1;
	for (int s = 0; s < 3; s++) {
		u->item[s] = s < r->nitems ? r->items[s] : -1;
		u->uses[s] = u->item[s] >= 0 ? oc_items[u->item[s]].uses : 0;
	}
	equip_first(u);
	/* Scenario Tags (O14): the first unit of the scenario's seat is its
	 * Leader; every unit of it is Fleeing or a Raider. */
	if (st->scenario != OC_SC_ROUT && seat == st->scen_seat)
		u->scen = st->scenario != OC_SC_SEIZE || oc_count_units(st, seat, -1) == 1;
}

/* The slot left empty: nothing in it, equipped or worn. */
static void
empty_slot(struct oc_unit *u, int slot)
{
	u->item[slot] = -1;
	u->uses[slot] = 0;
	if (u->equip == slot)
		u->equip = -1;
	if (u->acc == slot)
		u->acc = -1;
}

static void
use_up(struct oc_unit *u, int slot)
{
	if (u->uses[slot] <= 0)
		return;            /* unlimited */
	if (--u->uses[slot] == 0)
		empty_slot(u, slot);
}

static int
heal(struct oc_unit *u, int amount)
{
	int before = u->hp, max = oc_max_hp(u);
	u->hp = u->hp + amount > max ? max : u->hp + amount;
	return u->hp - before;
}

static void
tile_start(struct oc_state *st, int i, struct wr_list *ev)
{
	struct oc_unit *u = &st->u[i];
	const struct oc_tile *tl = &oc_tiles[st->terrain[u->sq]];
	struct oc_event e = {.type = OC_E_TILE, .unit = i, .from = u->sq, .other = -1, .to = -1,
	                     .item = -1, .item2 = -1, .seat = u->seat};
	int sq = u->sq;

	/* Flying ignores every terrain effect, these included (O15). */
	if (oc_classes[u->cls].tags & OC_T_FLYING)
		return;
	if (tl->heal && u->hp < oc_max_hp(u)) {
		e.amount = heal(u, tl->heal);
		e.kind = st->terrain[sq];
		e.hp = u->hp;
		emit_units(st, ev, &e);
	}
	if (tl->burn) {
		/* Flames: 5 Damage, Piercing (Defense or Resistance as E). */
		int d = tl->burn - OC_E;
		e.amount = -d;
		u->hp = u->hp > d ? u->hp - d : 0;
		e.kind = st->terrain[sq];
		e.hp = u->hp;
		emit_units(st, ev, &e);
		if (u->hp == 0) {
			u->where = OC_W_ROUTED;
			u->sq = -1;
			st->routed[u->seat]++;
			routed_event(st, i, sq, ev);
		}
	}
}

static void
do_move(struct oc_state *st, int seat, int to, struct wr_list *ev)
{
	int cost[OC_MAX_TILES], prev[OC_MAX_TILES], path[OC_MAX_TILES], n = 0;
	struct oc_unit *u = &st->u[st->active];
	int from = u->sq, stop = to, ambush = -1;

	oc_reach(st, st->active, oc_budget(st), cost, prev);
	for (int t = to; t != from && t >= 0; t = prev[t])
		path[n++] = t;
	/* Walk from the start; an unseen enemy on the path stops the unit on
	 * the last tile before it that it may end on (fog of war). */
	int last_free = from;
	for (int k = n - 1; k >= 0; k--) {
		int o = oc_unit_at(st, path[k]);
		if (o >= 0 && st->u[o].seat != seat) {
			ambush = o;
			stop = last_free;
			break;
		}
		if (o < 0)
			last_free = path[k];
	}
	if (ambush >= 0)
		stop = last_free;
	if (st->acted)
		st->canto = 0;
	else
		st->moved = 1;
	u->sq = stop;
	struct oc_event e = {.type = OC_E_MOVED, .unit = st->active, .from = from, .to = stop,
	                     .other = -1, .item = -1, .item2 = -1, .seat = seat};
	/* Under fog, other seats see the move's ends they see. */
	if (st->fog) {
		for (int s = 0; s < st->seats; s++) {
			int sf = s == seat || oc_seat_sees(st, s, from), stt = s == seat || oc_seat_sees(st, s, stop);
			if (!sf && !stt)
				continue;
			struct oc_event *c = wr_list_push(ev);
			if (!c)
				break;
			*c = e;
			c->vis = 1u << s;
			if (!sf)
				c->from = -1;
			if (!stt)
				c->to = -1;
		}
	} else {
		struct oc_event *c = wr_list_push(ev);
		if (c) {
			*c = e;
			c->vis = WR_VIS_PUBLIC;
		}
	}
	if (ambush >= 0) {
		struct oc_event *a = push(ev, OC_E_AMBUSH, 1u << seat);
		if (a) {
			a->unit = st->active;
			a->to = stop;
			a->seat = seat;
		}
	}
}

static void
after_action(struct oc_state *st)
{
	const struct oc_unit *u = &st->u[st->active];
	const struct oc_item *a = oc_accessory(u);

	st->acted = 1;
	st->canto = ((oc_classes[u->cls].tags & OC_T_CANTO) || (a && a->canto)) ? 2 : 0;
}

static void
destroy_tile(struct oc_state *st, int sq)
{
	if (st->terrain[sq] == OC_TR_GATE) {
		st->terrain[sq] = OC_TR_FLOOR;
		if (!st->vein[sq])
			st->base[sq] = OC_TR_FLOOR;
	} else if (st->vein[sq]) {
		st->terrain[sq] = st->base[sq];
		st->vein[sq] = 0;
	} else {
		st->terrain[sq] = st->base[sq] = OC_TR_PLAINS;
	}
	st->tile_dmg[sq] = 0;
}

/* A strike in the copy of a seat that does not see the attacker (G5, O13):
 * what befell the seat's own or seen unit stays; nothing tells of the
 * attacker: not its Hit and crit targets (its Dex, weapon, Lucky), nor what
 * it drained, nor, for a counter it took (seen when the combat began, out
 * of sight after), whether it was hit, its damage, HP, status or square. */
static void
hide_attacker(struct oc_strike *sk)
{
	sk->need = sk->crit_need = -1;
	sk->drained = 0;
	if (sk->by_attacker)
		return;
	sk->hit = sk->crit = sk->dmg = sk->hp = -1;
	sk->broke = sk->status = 0;
	sk->pushed_to = -1;
}

/* The combat of the active unit against t, its events and routs. */
static void
resolve_attack(struct oc_state *st, int t, int guard, struct wr_rng *rng, struct wr_list *ev)
{
	struct oc_unit *u = &st->u[st->active];
	struct oc_event e = {.type = OC_E_COMBAT, .seat = u->seat, .item = u->item[u->equip],
	                     .item2 = -1};
	int before[OC_MAX_ALL];
	const struct oc_item *dw = oc_weapon(&st->u[t]);

	size_t first = ev->len;

	for (int i = 0; i < st->nu; i++)
		before[i] = st->u[i].where == OC_W_MAP ? st->u[i].sq : -1;
	e.item2 = dw ? st->u[t].item[st->u[t].equip] : -1;
	oc_combat(st, st->active, t, guard, rng, &e);
	emit_units(st, ev, &e);
	/* A seat's copy does not name a Qi Adept it does not see, nor its HP
	 * (O19: under fog an unseen adept may take the strike; G5), and
	 * tells nothing of an attacker it does not see (emit_units took
	 * out its name and square). */
	for (size_t k = first; st->fog && k < ev->len; k++) {
		struct oc_event *c = wr_list_at(ev, k);
		for (int j = 0; j < c->nstrikes; j++) {
			struct oc_strike *sk = &c->strikes[j];
			if (c->unit < 0)
				hide_attacker(sk);
			if (sk->guard >= 0 && c->vis != 1u << st->u[sk->guard].seat &&
			    !(c->vis & oc_seen_mask(st, before[sk->guard]))) {
				sk->guard = OC_GUARD_HIDDEN;
				sk->hp = -1;
			}
		}
	}
	for (int i = 0; i < st->nu; i++)
		if (before[i] >= 0 && st->u[i].where == OC_W_ROUTED)
			routed_event(st, i, before[i], ev);
}

/* Whether the defender's seat is asked if a Qi Adept takes the attack on t
 * (O19): it has no standing order and an adept may; under fog only when
 * the attacking seat sees one (else the question would reveal it: the
 * order decides, and without one the adept takes it, oc_combat). */
static int
qi_asked(const struct oc_state *st, int seat, int t)
{
	int c[OC_MAX_ALL], n = oc_qi_candidates(st, t, c);

	if (st->qi[st->u[t].seat] != OC_QI_ASK)
		return 0;
	for (int k = 0; k < n; k++)
		if (oc_seat_sees(st, seat, st->u[c[k]].sq))
			return 1;
	return 0;
}

static void
do_attack(struct oc_state *st, int seat, const struct oc_action *a, struct wr_rng *rng,
          struct wr_list *ev)
{
	struct oc_unit *u = &st->u[st->active];
	int t = oc_unit_at(st, a->target);

	u->equip = a->slot;
	if (t < 0) {
		/* Gate/Door and Ice: deal 15 Damage to destroy (always hits). */
		const struct oc_item *w = oc_weapon(u);
		int base = 3 + oc_rating(st, u, w->magic ? OC_MAG : OC_STR) + w->mt;
		struct oc_event e = {.type = OC_E_TILE_HIT, .unit = st->active, .from = u->sq,
		                     .to = a->target, .other = -1, .item = -1, .item2 = -1,
		                     .seat = seat, .amount = base * (w->brave ? 2 : 1),
		                     .kind = st->terrain[a->target]};
		st->tile_dmg[a->target] += e.amount;
		if (st->tile_dmg[a->target] >= oc_tiles[st->terrain[a->target]].hp) {
			destroy_tile(st, a->target);
			e.hp = 1;
		}
		emit_tile(st, ev, &e, seat);
	} else if (qi_asked(st, seat, t)) {
		/* A Qi Adept may take the first strike: the defender's seat is
		 * asked (G3, O19) before any die is rolled. */
		st->pend = 1;
		st->pend_att = st->active;
		st->pend_def = t;
		struct oc_event q = {.type = OC_E_GUARD_ASKED, .seat = st->u[t].seat,
		                     .unit = st->active, .from = u->sq, .other = t,
		                     .to = st->u[t].sq, .item = -1, .item2 = -1};
		emit_units(st, ev, &q);
	} else {
		resolve_attack(st, t, -2, rng, ev);
	}
	after_action(st);
}

/* Enemy targets of a staff: roll as an attack with the staff (O9), no
 * crit; the forecast of a staff action shows the same number. */
int
oc_staff_hit(const struct oc_state *st, int user, int slot, int t)
{
	struct oc_state *tmp = malloc(sizeof(*tmp));
	int hit = 0, crit, dmg, cdmg;

	if (!tmp)
		return 0;
	*tmp = *st;
	tmp->u[user].equip = slot;
	oc_strike_numbers(tmp, user, t, 0, &hit, &crit, &dmg, &cdmg);
	free(tmp);
	return hit;
}

static int
staff_roll(const struct oc_state *st, int user, int slot, int t, struct wr_rng *rng,
           struct oc_event *e)
{
	int hit = oc_staff_hit(st, user, slot, t);

	e->need = hit;
	e->roll = (int)wr_die(rng, 100);
	e->hit = e->roll <= hit;
	return e->hit;
}

static void
apply_status(struct oc_unit *t, int status)
{
	switch (status) {
	case OC_ST_POISONED:
		t->poisoned = 1;
		break;
	case OC_ST_SILENCED:
		t->silenced = 1;
		break;
	case OC_ST_BROKEN:
		if (!(oc_classes[t->cls].tags & OC_T_ARMOR))
			t->broken = 1;
		break;
	default:
		break;
	}
}

static void
add_torch(struct oc_state *st, int seat, int sq, int radius)
{
	if (st->ntorch < OC_MAX_TORCH)
		st->torch[st->ntorch++] = (struct oc_torch){seat, sq, radius};
}

static void
do_staff(struct oc_state *st, int seat, const struct oc_action *a, struct wr_rng *rng,
         struct wr_list *ev)
{
	struct oc_unit *u = &st->u[st->active];
	int item = u->item[a->slot];
	const struct oc_item *it = &oc_items[item];
	int t = oc_unit_at(st, a->target);
	int mag = 3 + oc_rating(st, u, OC_MAG);
	struct oc_event e = {.type = OC_E_STAFF, .seat = seat, .unit = st->active, .from = u->sq,
	                     .other = t, .to = t >= 0 ? st->u[t].sq : a->target, .item = item,
	                     .item2 = -1, .special = it->special, .hit = 1};
	int healed[OC_MAX_ALL] = {0};

	switch (it->special) {
	case OC_SP_HEAL:
		if (it->aoe) {
			e.other = -1;
			e.to = -1;
			for (int i = 0; i < st->nu; i++)
				if (st->u[i].seat == seat && st->u[i].where == OC_W_MAP &&
				    oc_in_range(it, oc_dist(st, u->sq, st->u[i].sq))) {
					healed[i] = heal(&st->u[i], it->sp_arg + mag);
					e.amount += healed[i];
				}
		} else {
			e.amount = heal(&st->u[t], it->sp_arg + mag);
			e.hp = st->u[t].hp;
		}
		break;
	case OC_SP_TORCH:
		add_torch(st, seat, u->sq, it->sp_arg);
		e.amount = it->sp_arg;
		e.other = -1;
		e.to = -1;
		break;
	case OC_SP_REWARP:
		e.other = -1;
		e.to = a->to;
		u->sq = a->to;
		break;
	case OC_SP_VEIN:
		e.other = -1;
		st->base[a->target] = st->terrain[a->target];
		st->terrain[a->target] = (unsigned char)it->sp_arg;
		st->vein[a->target] = 1;
		st->tile_dmg[a->target] = 0;
		e.kind = it->sp_arg;
		break;
	case OC_SP_RESCUE:
	case OC_SP_WARP:
		st->u[t].sq = a->to;
		e.amount = a->to;
		break;
	case OC_SP_RESTORE:      /* "any Status Effect tags": Barrier too */
		st->u[t].poisoned = st->u[t].silenced = st->u[t].broken = st->u[t].frozen = 0;
		st->u[t].barrier = 0;
		break;
	case OC_SP_ENTRAP:
		if (staff_roll(st, st->active, a->slot, t, rng, &e)) {
			st->u[t].sq = a->to;
			e.amount = a->to;
		}
		break;
	case OC_SP_FREEZE:
		if (staff_roll(st, st->active, a->slot, t, rng, &e))
			st->u[t].frozen = 1;
		break;
	case OC_SP_STATUS:
		if (staff_roll(st, st->active, a->slot, t, rng, &e))
			apply_status(&st->u[t], it->status);
		e.status = it->status;
		break;
	default:
		break;
	}
	/* The staff is the weapon last used: no counter until the unit equips
	 * another (O18); used up, it leaves the unit with none in hand. */
	u->equip = a->slot;
	use_up(u, a->slot);
	/* Vein changes public terrain; Torch lights only its own seat's sight,
	 * so only a seat that sees the user learns of it (G5, O13). */
	if (it->special == OC_SP_VEIN)
		emit_tile(st, ev, &e, seat);
	else if (it->aoe)
		emit_aoe_heal(st, ev, &e, healed);
	else
		emit_units(st, ev, &e);
	after_action(st);
}

static void
do_use(struct oc_state *st, int seat, const struct oc_action *a, struct wr_list *ev)
{
	struct oc_unit *u = &st->u[st->active];
	int item = u->item[a->slot];
	const struct oc_item *it = &oc_items[item];
	struct oc_event e = {.type = OC_E_USE, .seat = seat, .unit = st->active, .from = u->sq,
	                     .other = -1, .to = -1, .item = item, .item2 = -1,
	                     .special = it->special};

	switch (it->special) {
	case OC_SP_HEAL:
		e.amount = heal(u, it->sp_arg + 3 + oc_rating(st, u, OC_MAG));
		break;
	case OC_SP_TORCH:
		add_torch(st, seat, u->sq, it->sp_arg);
		e.amount = it->sp_arg;
		break;
	case OC_SP_RESTORE:      /* "any Status Effect tags": Barrier, Broken too */
		u->poisoned = u->silenced = u->broken = u->frozen = 0;
		u->barrier = 0;
		break;
	case OC_SP_STATUS:
		if (it->status == OC_ST_BARRIER)
			u->barrier = st->round + 1;     /* until the end of next round */
		else
			apply_status(u, it->status);
		e.status = it->status;
		break;
	default:
		break;
	}
	e.hp = u->hp;
	use_up(u, a->slot);
	emit_units(st, ev, &e);
	after_action(st);
}

static void
do_trade(struct oc_state *st, int seat, const struct oc_action *a, struct wr_list *ev)
{
	struct oc_unit *u = &st->u[st->active];
	int t = oc_unit_at(st, a->with);
	struct oc_unit *p = &st->u[t];
	struct oc_event e = {.type = OC_E_TRADE, .seat = seat, .unit = st->active, .from = u->sq,
	                     .other = t, .to = p->sq, .item = -1, .item2 = -1};

	int gs = a->give, ts = a->take;
	int gi = gs >= 0 ? u->item[gs] : -1, gu = gs >= 0 ? u->uses[gs] : 0;
	int ti = ts >= 0 ? p->item[ts] : -1, tu = ts >= 0 ? p->uses[ts] : 0;
	if (gs >= 0)
		empty_slot(u, gs);
	if (ts >= 0)
		empty_slot(p, ts);
	if (gi >= 0) {
		int s = ts >= 0 ? ts : oc_free_slot(p);
		p->item[s] = gi;
		p->uses[s] = gu;
	}
	if (ti >= 0) {
		int s = gs >= 0 ? gs : oc_free_slot(u);
		u->item[s] = ti;
		u->uses[s] = tu;
	}
	/* Only Equip changes what a unit has equipped (Free Actions): an item
	 * given away leaves its slot kind empty, one received is carried. */
	e.item = gi;
	e.item2 = ti;
	st->traded = t;
	emit_units(st, ev, &e);
}

/* --------------------------------------------------------------- apply */

void
oc_apply(void *state, int seat, const void *action, struct wr_rng *rng, struct wr_list *ev)
{
	struct oc_state *st = state;
	const struct oc_action *a = action;
	struct oc_unit *u = st->active >= 0 ? &st->u[st->active] : NULL;
	struct oc_event *e;

	switch (a->type) {
	case OC_A_RECRUIT:
	case OC_A_ARMY:
		for (int k = 0; k < a->nrec; k++) {
			add_unit(st, seat, &a->rec[k]);
			e = push(ev, OC_E_RECRUITED, 1u << seat);
			if (e) {
				e->unit = st->nu - 1;
				e->seat = seat;
			}
		}
		if (oc_count_units(st, seat, -1) == st->nunits) {
			army_ready(st, seat, ev);
			if (st->ready[0] && st->ready[1]) {
				st->phase = OC_PH_DEPLOY;
				st->ready[0] = st->ready[1] = 0;
			}
		}
		return;
	case OC_A_DEPLOY: {
		int i = -1;
		for (int k = 0; k < st->nu; k++)
			if (st->u[k].seat == seat && strcmp(st->u[k].name, a->unit) == 0)
				i = k;
		st->u[i].where = OC_W_MAP;
		st->u[i].sq = a->to;
		e = push(ev, OC_E_DEPLOYED, 1u << seat);
		if (e) {
			e->unit = i;
			e->to = a->to;
			e->seat = seat;
		}
		if (oc_count_units(st, seat, OC_W_RESERVE) == 0)
			army_ready(st, seat, ev);
		if (st->ready[0] && st->ready[1]) {
			st->phase = OC_PH_BATTLE;
			push(ev, OC_E_DEPLOY_DONE, WR_VIS_PUBLIC);
			start_round(st, ev);
		}
		return;
	}
	case OC_A_ACTIVATE: {
		int i = oc_unit_at(st, a->at);
		st->active = i;
		st->moved = st->acted = 0;
		st->canto = 0;
		st->traded = -1;
		st->u[i].activated = 1;
		st->u[i].broken = 0;     /* activating the unit clears Broken */
		struct oc_event ae = {.type = OC_E_ACTIVATED, .seat = seat, .unit = i, .from = a->at,
		                      .other = -1, .to = -1, .item = -1, .item2 = -1};
		emit_units(st, ev, &ae);
		tile_start(st, i, ev);
		if (st->u[i].where != OC_W_MAP) {
			st->active = -1;
			check_victory(st, ev);
			next_activation(st, ev);
		}
		return;
	}
	case OC_A_MOVE:
		do_move(st, seat, a->to, ev);
		return;
	case OC_A_ATTACK:
		do_attack(st, seat, a, rng, ev);
		break;
	case OC_A_STAFF:
		do_staff(st, seat, a, rng, ev);
		break;
	case OC_A_DANCE: {
		int t = oc_unit_at(st, a->target);
		st->u[t].activated = 0;
		st->u[t].danced = 1;
		struct oc_event de = {.type = OC_E_STAFF, .seat = seat, .unit = st->active,
		                      .from = u->sq, .other = t, .to = a->target, .item = -1,
		                      .item2 = -1, .special = -1, .hit = 1};
		emit_units(st, ev, &de);
		after_action(st);
		break;
	}
	case OC_A_PICK: {
		int used = -1;
		if (!(oc_classes[u->cls].tags & OC_T_PICK))
			for (int s = 0; s < 3 && used < 0; s++)
				if (u->item[s] >= 0 && oc_items[u->item[s]].special == OC_SP_PICK &&
				    oc_items[u->item[s]].kind == OC_CONSUMABLE)
					used = s;
		struct oc_event pe = {.type = OC_E_STAFF, .seat = seat, .unit = st->active,
		                      .from = u->sq, .other = -1, .to = a->target,
		                      .item = used >= 0 ? u->item[used] : -1, .item2 = -1,
		                      .special = OC_SP_PICK, .hit = 1};
		if (used >= 0)
			use_up(u, used);
		st->terrain[a->target] = OC_TR_FLOOR;
		st->base[a->target] = OC_TR_FLOOR;
		st->tile_dmg[a->target] = 0;
		emit_tile(st, ev, &pe, seat);
		after_action(st);
		break;
	}
	case OC_A_USE:
		do_use(st, seat, a, ev);
		break;
	case OC_A_EQUIP: {
		const struct oc_item *it = &oc_items[u->item[a->slot]];
		if (it->kind == OC_ACCESSORY)
			u->acc = a->slot;
		else
			u->equip = a->slot;
		struct oc_event qe = {.type = OC_E_EQUIP, .seat = seat, .unit = st->active,
		                      .from = u->sq, .other = -1, .to = -1,
		                      .item = u->item[a->slot], .item2 = -1};
		emit_units(st, ev, &qe);
		return;
	}
	case OC_A_DISCARD: {
		struct oc_event de = {.type = OC_E_DISCARD, .seat = seat, .unit = st->active,
		                      .from = u->sq, .other = -1, .to = -1,
		                      .item = u->item[a->slot], .item2 = -1};
		empty_slot(u, a->slot);
		emit_units(st, ev, &de);
		return;
	}
	case OC_A_TRADE:
		do_trade(st, seat, a, ev);
		return;
	case OC_A_SEIZE:
	case OC_A_ESCAPE:
	case OC_A_RAZE: {
		struct oc_event se = {.type = a->type == OC_A_SEIZE ? OC_E_SEIZED
		                            : a->type == OC_A_ESCAPE ? OC_E_ESCAPED : OC_E_RAZED,
		                      .seat = seat, .unit = st->active, .from = u->sq, .other = -1,
		                      .to = -1, .item = -1, .item2 = -1};
		/* Raze changes public terrain and Seize ends the battle; under fog
		 * an Escape is told only to a seat that sees the unit (the views
		 * hide the escaped counts too: G5, O13). */
		if (a->type == OC_A_ESCAPE)
			emit_units(st, ev, &se);
		else
			emit_tile(st, ev, &se, seat);
		if (a->type == OC_A_SEIZE) {
			end_game(st, 1u << seat, OC_R_SEIZE, ev);
			return;
		}
		if (a->type == OC_A_ESCAPE) {
			u->where = OC_W_ESCAPED;   /* the turn ends below */
			u->sq = -1;
			st->escaped[seat]++;
		} else {
			st->mark[u->sq] = 0;
			st->terrain[u->sq] = st->base[u->sq] = OC_TR_RUINS;
			st->vein[u->sq] = 0;
			st->razed++;
			int left = 0;
			for (int t = 0; t < oc_ntiles(st); t++)
				left += st->mark[t];
			if (left == 0) {
				end_game(st, 1u << seat, OC_R_RAZE, ev);
				return;
			}
		}
		after_action(st);
		break;
	}
	case OC_A_END:
		end_turn(st, ev);
		check_victory(st, ev);
		return;
	case OC_A_GUARD:
	case OC_A_NO_GUARD:
		st->pend = 0;
		resolve_attack(st, st->pend_def, a->type == OC_A_GUARD ? oc_unit_at(st, a->at) : -1,
		               rng, ev);
		break;
	default:
		return;
	}
	/* After an Action: routs decide the match; a unit no longer on the
	 * map ends its turn. */
	check_victory(st, ev);
	if (st->phase == OC_PH_BATTLE && st->active >= 0 && st->u[st->active].where != OC_W_MAP)
		end_turn(st, ev);
}

int
oc_resign(void *state, int seat, struct wr_rng *rng, struct wr_list *ev)
{
	struct oc_state *st = state;

	(void)rng;
	if (seat < 0 || seat >= st->seats)
		return -1;
	if (st->phase != OC_PH_OVER)
		end_game(st, 1u << !seat, OC_R_RESIGN, ev);
	return 0;
}

/* ------------------------------------------------------------- start */

void
oc_start(struct oc_state *st, struct wr_rng *rng)
{
	st->phase = OC_PH_RECRUIT;
	st->active = -1;
	st->traded = -1;
	st->first = st->first_random ? (int)wr_die(rng, 2) - 1 : 0;
	st->cur = st->first;
	st->qi[0] = st->qi[1] = OC_QI_ASK;
}
