/* Attack (Hitting Targets, Dealing Damage, Counter Attack and Follow Up,
 * The Weapon Triangle) and the numbers a forecast shows: one code path for
 * both (RULINGS.md O9-O12). Calls oc_board.c and the data only; the rules,
 * the candidates, legal and the codec call into it. */
#include <stdlib.h>
#include <string.h>

#include "oc_rules.h"

static int
clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* A rating with the equipped weapon's and accessory's Bonus and Cursed
 * tags and Barrier (Res +1), kept on the F..S scale (O2). */
int
oc_rating(const struct oc_state *st, const struct oc_unit *u, int stat)
{
	const struct oc_item *w = oc_weapon(u), *a = oc_accessory(u);
	int r = oc_classes[u->cls].rating[stat];

	if (w)
		r += w->bonus[stat];
	if (a)
		r += a->bonus[stat];
	if (stat == OC_RES && u->barrier >= st->round && u->barrier > 0)
		r += 1;
	return clamp(r, OC_F, OC_S);
}

static int
dexval(int r)
{
	return (r - 1) * 5;      /* F -5, E 0, D 5 ... S 25 (O2) */
}

enum { ACC_DEF, ACC_WT };

/* The Def or the Wt of every accessory the unit carries, summed: they
 * count "as long as the Unit carries them" (RULINGS.md O17). */
static int
carried(const struct oc_unit *u, int field)
{
	int sum = 0;

	for (int s = 0; s < 3; s++) {
		const struct oc_item *it = u->item[s] >= 0 ? &oc_items[u->item[s]] : NULL;
		if (it && it->kind == OC_ACCESSORY)
			sum += field == ACC_DEF ? it->defense : it->wt;
	}
	return sum;
}

/* Agility = Speed value + equipped weapon Wt (0, -5, -10) + Bonus(Agi) of
 * the equipped weapon and accessory (tags), less the Wt of every accessory
 * carried (O17). */
int
oc_agility(const struct oc_state *st, const struct oc_unit *u)
{
	const struct oc_item *w = oc_weapon(u), *a = oc_accessory(u);
	int v = dexval(oc_rating(st, u, OC_SPD)) - carried(u, ACC_WT);

	if (w)
		v += w->wt + w->agi;
	if (a)
		v += a->agi;
	return v;
}

int
oc_dist(const struct oc_state *st, int a, int b)
{
	return abs(a % st->files - b % st->files) + abs(a / st->files - b / st->files);
}

int
oc_in_range(const struct oc_item *w, int d)
{
	if (!w)
		return 0;
	if (w->rmax < 0)
		return d >= w->rmin;
	return d >= w->rmin && d <= w->rmax;
}

int
oc_triangle(const struct oc_item *a, const struct oc_item *d)
{
	static const unsigned beats[OC_WTYPE_MAX] = {
		[OC_SWORD] = 1u << OC_AXE, [OC_LANCE] = 1u << OC_SWORD, [OC_AXE] = 1u << OC_LANCE,
		[OC_ART] = 1u << OC_TOME | 1u << OC_DAGGER | 1u << OC_BOW,
	};
	int r = 0;

	if (!a || !d || a->wtype < 0 || d->wtype < 0)
		return 0;
	if (beats[a->wtype] & 1u << d->wtype)
		r = 1;
	else if (beats[d->wtype] & 1u << a->wtype)
		r = -1;
	if (a->inverted || d->inverted)
		r = -r;
	return r;
}

/* Terrain DR and Avo for unit t attacked by s: none for Flying, positive
 * bonuses doubled for Covert (O9, O10). A Mystical attacker ignores terrain
 * "bonuses" (Class Tags): the positive values only, so Water's -5 Avo still
 * counts against its target (README, decision 3). */
static void
terrain_bonus(const struct oc_state *st, const struct oc_unit *s, const struct oc_unit *t,
              int *dr, int *avo)
{
	const struct oc_tile *tl = &oc_tiles[st->terrain[t->sq]];
	unsigned tt = oc_classes[t->cls].tags;

	*dr = *avo = 0;
	if (tt & OC_T_FLYING)
		return;
	*dr = tl->dr;
	*avo = tl->avo;
	if (tt & OC_T_COVERT) {
		if (*dr > 0)
			*dr *= 2;
		if (*avo > 0)
			*avo *= 2;
	}
	if (s && oc_classes[s->cls].tags & OC_T_MYSTICAL) {
		if (*dr > 0)
			*dr = 0;
		if (*avo > 0)
			*avo = 0;
	}
}

int
oc_backup(const struct oc_state *st, int att, int def)
{
	for (int i = 0; i < st->nu; i++) {
		const struct oc_unit *b = &st->u[i];
		const struct oc_item *w = oc_weapon(b);
		if (i == att || b->seat != st->u[att].seat || b->where != OC_W_MAP)
			continue;
		if (!(oc_classes[b->cls].tags & OC_T_BACKUP) || !w || w->wtype == OC_STAFF)
			continue;
		if (oc_in_range(w, oc_dist(st, b->sq, st->u[def].sq)))
			return 1;
	}
	return 0;
}

void
oc_strike_numbers(const struct oc_state *st, int s, int t, int backup, int *hit, int *crit,
                  int *dmg, int *crit_dmg)
{
	const struct oc_unit *su = &st->u[s], *tu = &st->u[t];
	const struct oc_item *w = oc_weapon(su), *tw = oc_weapon(tu);
	const struct oc_item *sa = oc_accessory(su), *ta = oc_accessory(tu);   /* tags */
	int tdr, tavo, lucky = 0, nimble = 0, deadly = w ? w->deadly : 0;

	terrain_bonus(st, su, tu, &tdr, &tavo);
	*hit = 70 + dexval(oc_rating(st, su, OC_DEX)) + (w ? w->hit : 0)
	       - (oc_agility(st, tu) + tavo);
	*hit = clamp(*hit, 0, 100);
	lucky = (w ? w->lucky : 0) + (sa ? sa->lucky : 0);
	nimble = (tw ? tw->nimble : 0) + (ta ? ta->nimble : 0);
	/* Crit: roll <= 10 + Lucky, or roll < Deadly; Nimble lowers both. */
	int c = 10 + lucky;
	if (deadly > 0 && deadly - 1 > c)
		c = deadly - 1;
	c -= nimble;
	*crit = clamp(c, 0, *hit);
	if (w && w->homing) {
		*hit = 100;
		*crit = 0;
	}

	int magic = w ? w->magic : 0;
	int base = 3 + oc_rating(st, su, magic ? OC_MAG : OC_STR) + (w ? w->mt : 0);
	if (w && (oc_classes[tu->cls].tags & w->effective))
		base += 5;
	if (backup)
		base += 3;
	if (tu->poisoned)
		base += 1;
	int dr = (w && w->piercing) ? OC_E : oc_rating(st, tu, magic ? OC_RES : OC_DEF);
	dr += tdr;
	if (!magic)
		dr += carried(tu, ACC_DEF);     /* every accessory carried, martial only (O17) */
	*dmg = base - dr > 0 ? base - dr : 0;
	*crit_dmg = 2 * base - dr > 0 ? 2 * base - dr : 0;
}

int
oc_can_counter(const struct oc_state *st, int att, int def)
{
	const struct oc_unit *d = &st->u[def];
	const struct oc_item *w = oc_weapon(d);

	if (d->where != OC_W_MAP || d->broken || !w || w->wtype == OC_STAFF)
		return 0;
	if (d->silenced && w->wtype == OC_TOME)
		return 0;
	/* Under fog an attacker the defender's seat does not see cannot be
	 * targeted (O13), by a counter either: no counter, and nothing of it
	 * comes back to that seat (G5). */
	if (st->fog && !oc_seat_sees(st, d->seat, st->u[att].sq))
		return 0;
	return oc_in_range(w, oc_dist(st, st->u[att].sq, d->sq));
}

static int
follows_up(const struct oc_state *st, int s, int t)
{
	const struct oc_item *w = oc_weapon(&st->u[s]);

	if (!w || w->heavy || w->complex || w->wtype == OC_STAFF)
		return 0;
	return oc_agility(st, &st->u[s]) >= oc_agility(st, &st->u[t]) + 10;
}

/* The order of strikes: 1 the attacker, 0 the defender (O11). */
static int
strike_order(const struct oc_state *st, int att, int def, int *seq, struct oc_forecast *f)
{
	const struct oc_item *wa = oc_weapon(&st->u[att]), *wd = oc_weapon(&st->u[def]);
	int an = wa && wa->brave ? 2 : 1;
	int dn = oc_can_counter(st, att, def) ? (wd->brave ? 2 : 1) : 0;
	int n = 0, fa = follows_up(st, att, def), fd = dn && follows_up(st, def, att);

	f->heavy_first = wa && wa->heavy && dn && !wd->heavy;
	if (f->heavy_first) {
		for (int i = 0; i < dn; i++)
			seq[n++] = 0;
		for (int i = 0; i < an; i++)
			seq[n++] = 1;
	} else {
		for (int i = 0; i < an; i++)
			seq[n++] = 1;
		for (int i = 0; i < dn; i++)
			seq[n++] = 0;
	}
	if (fa)
		for (int i = 0; i < an; i++)
			seq[n++] = 1;
	else if (fd)
		for (int i = 0; i < dn; i++)
			seq[n++] = 0;
	f->att.strikes = an * (1 + fa);
	f->att.follow_up = fa;
	f->att.can_strike = 1;
	f->def.strikes = dn * (1 + fd);
	f->def.follow_up = fd;
	f->def.can_strike = dn > 0;
	return n;
}

void
oc_forecast(const struct oc_state *st, int att, int def, int slot, struct oc_forecast *f)
{
	struct oc_state *tmp = NULL;
	int seq[OC_MAX_STRIKES];

	memset(f, 0, sizeof(*f));
	if (slot >= 0 && slot != st->u[att].equip) {
		/* The forecast of the weapon the attack will equip. */
		tmp = malloc(sizeof(*tmp));
		if (!tmp)
			return;
		*tmp = *st;
		tmp->u[att].equip = slot;
		st = tmp;
	}
	strike_order(st, att, def, seq, f);
	f->backup = oc_backup(st, att, def);
	f->triangle = oc_triangle(oc_weapon(&st->u[att]), oc_weapon(&st->u[def]));
	oc_strike_numbers(st, att, def, 0, &f->att.hit, &f->att.crit, &f->att.dmg,
	                  &f->att.crit_dmg);
	if (f->def.can_strike)
		oc_strike_numbers(st, def, att, 0, &f->def.hit, &f->def.crit, &f->def.dmg,
		                  &f->def.crit_dmg);
	free(tmp);
}

static void
rout(struct oc_state *st, int i)
{
	st->u[i].where = OC_W_ROUTED;
	st->u[i].sq = -1;
	st->routed[st->u[i].seat]++;
}

/* Qi Adept: allies of the defender adjacent to it, at full health. */
int
oc_qi_candidates(const struct oc_state *st, int def, int *out)
{
	const struct oc_unit *d = &st->u[def];
	int n = 0;

	for (int i = 0; i < st->nu; i++) {
		const struct oc_unit *g = &st->u[i];
		if (i == def || g->seat != d->seat || g->where != OC_W_MAP)
			continue;
		if (!(oc_classes[g->cls].tags & OC_T_QI_ADEPT) || g->hp < oc_classes[g->cls].hp)
			continue;
		if (oc_dist(st, g->sq, d->sq) == 1)
			out[n++] = i;
	}
	return n;
}

/* The standing order decides: always takes the first candidate. */
static int
qi_guard(const struct oc_state *st, int def)
{
	int c[OC_MAX_ALL];

	if (st->qi[st->u[def].seat] == OC_QI_NEVER)
		return -1;
	return oc_qi_candidates(st, def, c) ? c[0] : -1;
}

static int
push_square(const struct oc_state *st, int from, int sq)
{
	int fx = from % st->files, fy = from / st->files, x = sq % st->files, y = sq / st->files;
	int dx = (x > fx) - (x < fx), dy = (y > fy) - (y < fy);

	if (dx && dy) {
		if (abs(x - fx) >= abs(y - fy))
			dy = 0;
		else
			dx = 0;
	}
	x += dx;
	y += dy;
	if (x < 0 || y < 0 || x >= st->files || y >= st->ranks)
		return -1;
	int to = y * st->files + x;
	if (oc_tiles[st->terrain[to]].move < 0 || oc_unit_at(st, to) >= 0)
		return -1;
	return to;
}

void
oc_combat(struct oc_state *st, int att, int def, int guard_choice, struct wr_rng *rng,
          struct oc_event *e)
{
	int seq[OC_MAX_STRIKES], n, started_broken[2], backup_left, guard_used = 0;
	int who[2] = {def, att};

	n = strike_order(st, att, def, seq, &e->fc);
	oc_forecast(st, att, def, -1, &e->fc);
	backup_left = e->fc.backup;
	started_broken[0] = st->u[def].broken;
	started_broken[1] = st->u[att].broken;
	e->unit = att;
	e->other = def;
	e->from = st->u[att].sq;
	e->to = st->u[def].sq;
	e->hp = st->u[att].hp;
	e->hp2 = st->u[def].hp;
	for (int k = 0; k < n; k++) {
		int s = who[seq[k]], t = who[!seq[k]];
		struct oc_unit *su = &st->u[s], *tu;
		const struct oc_item *w = oc_weapon(su);
		int hit, crit, dmg, cdmg, guard = -1;

		if (su->where != OC_W_MAP || st->u[t].where != OC_W_MAP)
			break;
		if (!seq[k] && su->broken)      /* Broken in this combat: no more counters */
			continue;
		if (!oc_in_range(w, oc_dist(st, su->sq, st->u[t].sq)))
			continue;                    /* pushed out of reach */
		if (seq[k] && !guard_used) {
			guard_used = 1;
			guard = guard_choice == -2 ? qi_guard(st, t) : guard_choice;
			if (guard >= 0)
				t = guard;
		}
		tu = &st->u[t];
		oc_strike_numbers(st, s, t, seq[k] && backup_left, &hit, &crit, &dmg, &cdmg);
		struct oc_strike *sk = &e->strikes[e->nstrikes++];
		sk->by_attacker = seq[k];
		sk->guard = guard;
		sk->pushed_to = -1;
		sk->need = hit;
		sk->crit_need = crit;
		sk->roll = (int)wr_die(rng, 100);
		if (w && w->homing)
			sk->roll = 0;
		sk->hit = sk->roll <= hit;
		sk->crit = sk->hit && sk->roll <= crit && sk->roll > 0;
		if (sk->hit) {
			int d = sk->crit ? cdmg : dmg;
			if (guard >= 0)
				d /= 2;
			if (seq[k] && backup_left)
				backup_left = 0;
			sk->dmg = d;
			tu->hp -= d;
			if (tu->hp < 0)
				tu->hp = 0;
			if (w && w->drain && d / 2 > 0) {
				int max = oc_classes[su->cls].hp;
				sk->drained = d / 2;
				su->hp = su->hp + d / 2 > max ? max : su->hp + d / 2;
			}
			int armor = oc_classes[tu->cls].tags & OC_T_ARMOR;
			if (d > 0 && !tu->broken && !armor && oc_triangle(w, oc_weapon(tu)) > 0) {
				tu->broken = 1;
				sk->broke = 1;
			}
			if (w && w->status == OC_ST_POISONED && !tu->poisoned) {
				tu->poisoned = 1;
				sk->status = OC_ST_POISONED;
			}
			if (tu->hp == 0) {
				rout(st, t);
			} else if (w && w->heavy) {
				int to = push_square(st, su->sq, tu->sq);
				if (to >= 0) {
					tu->sq = to;
					sk->pushed_to = to;
				}
			}
		}
		sk->hp = tu->hp;
	}
	/* Broken cures itself after a combat where the unit started broken. */
	if (started_broken[0])
		st->u[def].broken = 0;
	if (started_broken[1])
		st->u[att].broken = 0;
}
