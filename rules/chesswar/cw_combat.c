/*
 * ChessWar's resolution: saves (C7), charges and melee links (Charge move,
 * C5), shooting with bows and catapults (Shooting, Bows, Catapults, Rocks
 * and plaguebombs; C6), shots into melee, the melee table with brave and
 * scary (Melee, C8), plague, regenerate and follow-ups.
 */
#include <stdio.h>
#include <string.h>

#include "cw_rules.h"

void
cw_link(struct cw_state *st, int a, int b)
{
	st->u[a].link |= CW_BIT(b);
	st->u[b].link |= CW_BIT(a);
}

/* The units of one melee: everything linked to `id`, directly or not. */
int
cw_melee_group(const struct cw_state *st, int id, int *out)
{
	cw_links seen = CW_BIT(id);
	int n = 0, h = 0;
	out[n++] = id;
	while (h < n) {
		cw_links l = st->u[out[h++]].link;
		for (int j = 0; j < CW_UNITS; j++)
			if (((l >> j) & 1) && !((seen >> j) & 1)) {
				seen |= CW_BIT(j);
				out[n++] = j;
			}
	}
	return n;
}

static int
protected(const struct cw_state *st, int id)
{
	for (int i = 0; i < st->nfx; i++)
		if (st->fx[i].spell == CW_SPELL_PROTECTION && st->fx[i].target == id)
			return 1;
	return 0;
}

/* C7: a unit's "+N saves" added to its roll: Protection; Undead "+1 saves
 * vs. bows"; forest "+1 saves against ranged attacks" (C11). */
static int
save_bonus(const struct cw_state *st, int id, int ranged, int bows)
{
	int b = protected(st, id);
	if (bows && (cw_def(st, id)->special & CW_SP_UNDEAD))
		b++;
	if (ranged && st->o.terrain[st->u[id].sq] == CW_T_FOREST)
		b++;
	return b;
}

int
cw_save(struct cw_state *st, int id, int need, int bonus, struct wr_rng *rng, struct wr_list *ev)
{
	int eff = need - bonus, face = 0, ok;
	struct cw_event *e;
	if (eff < 2)
		eff = 2;          /* "roll 1 always fails" */
	if (eff <= 6)
		face = (int)wr_die(rng, 6);
	ok = eff <= 6 && face != 1 && face >= eff;
	e = cw_ev_push(ev, CW_E_SAVE, WR_VIS_PUBLIC);
	cw_ev_unit(st, e, id);
	if (e) {
		e->need = eff;
		e->nfaces = eff <= 6;
		e->faces[0] = face;
		e->ok = ok;
	}
	return ok;
}

void
cw_destroy(struct cw_state *st, int id, const char *why, struct wr_list *ev)
{
	struct cw_event *e = cw_ev_push(ev, CW_E_DESTROYED, WR_VIS_PUBLIC);
	struct cw_unit *u = &st->u[id];
	cw_ev_unit(st, e, id);
	if (e)
		snprintf(e->why, sizeof(e->why), "%s", why);
	cw_lift(st, id);
	u->status = CW_U_DEAD;
	u->regen = (cw_def(st, id)->special & CW_SP_REGENERATE) != 0;
	u->was_link = u->link;
	u->dying = st->phase >= CW_PH_MOVE && st->phase <= CW_PH_MELEE &&
	           cw_healer_for(st, id) != CW_NONE;
	for (int i = 0; i < CW_UNITS; i++)
		st->u[i].link &= ~(CW_BIT(id));
	u->link = 0;
	/* "If the wizard is killed, however, the effect immediately ends" */
	for (int i = st->nfx - 1; i >= 0; i--) {
		if (st->fx[i].caster != id && st->fx[i].target != id)
			continue;
		e = cw_ev_push(ev, CW_E_SPELL_END, WR_VIS_PUBLIC);
		if (e) {
			e->unit = st->fx[i].caster;
			e->utype = st->u[st->fx[i].caster].type;
			e->usq = st->u[st->fx[i].caster].sq;
			e->seat = cw_seat_of(st->fx[i].caster);
			e->spell = st->fx[i].spell;
		}
		memmove(&st->fx[i], &st->fx[i + 1], (size_t)(st->nfx - i - 1) * sizeof(st->fx[0]));
		st->nfx--;
	}
	if (st->last_moved == id)
		st->last_moved = CW_NONE;
}

/* Plague: "if destroyed in melee, opponents must make save at +1 or
 * destroyed" (C8, amended: every enemy linked to it in that melee, in the
 * order of their ids). `links` are its links as they were before it died. */
static void
plague(struct cw_state *st, int dead, cw_links links, struct wr_rng *rng, struct wr_list *ev)
{
	struct cw_event *e = cw_ev_push(ev, CW_E_PLAGUE, WR_VIS_PUBLIC);
	cw_ev_unit(st, e, dead);
	for (int v = 0; v < CW_UNITS; v++) {
		if (!((links >> v) & 1) || !cw_on(st, v) || cw_immune_plague(st, v))
			continue;
		if (!cw_save(st, v, cw_def(st, v)->save + 1, save_bonus(st, v, 0, 0), rng, ev))
			cw_destroy(st, v, "plague", ev);
	}
}

/* A unit destroyed by a melee attack, a shot or a spell: a Plague unit
 * destroyed while engaged spreads its plague (C8, amended: any cause; "in
 * melee" is the engaged state). */
void
cw_kill(struct cw_state *st, int id, const char *why, struct wr_rng *rng, struct wr_list *ev)
{
	cw_links links = st->u[id].link;
	int pl = links != 0 && cw_has_plague(st, id);
	cw_destroy(st, id, why, ev);
	if (pl)
		plague(st, id, links, rng, ev);
}

void
cw_cast_protection(struct cw_state *st, int w, int target, struct wr_list *ev)
{
	struct cw_event *e = cw_ev_push(ev, CW_E_CAST, WR_VIS_PUBLIC);
	cw_ev_unit(st, e, w);
	cw_ev_other(st, e, target);
	if (e) {
		e->spell = CW_SPELL_PROTECTION;
		e->sq = st->u[target].sq;
	}
	st->u[w].cast = 1;
	st->u[w].instant = 1;
}

/* One unit hit by a ranged attack (weapon CW_W_NONE: a spell, Zap!). */
static void
resolve_hit(struct cw_state *st, int id, int weapon, struct wr_rng *rng, struct wr_list *ev)
{
	const struct cw_weapon *w = &cw_weapons[weapon];
	const struct cw_unit_def *d = cw_def(st, id);
	int bonus = save_bonus(st, id, 1, w->kind == CW_WK_BOW);
	struct cw_event *e;
	if (!cw_on(st, id))
		return;
	switch (w->effect) {
	case CW_HE_TERROR:
		/* "auto-destroy non-brave, braves save +0" */
		if (!cw_is_brave(st, id)) {
			cw_kill(st, id, "terror", rng, ev);
			return;
		}
		break;
	case CW_HE_PLAGUE:
		if (cw_immune_plague(st, id)) {
			e = cw_ev_push(ev, CW_E_PLAGUE, WR_VIS_PUBLIC);
			cw_ev_unit(st, e, id);
			if (e) {
				e->ok = 1;
				snprintf(e->why, sizeof(e->why), "immune to plague");
			}
			return;
		}
		break;
	default:
		break;
	}
	if (!cw_save(st, id, d->save + w->save_mod, bonus, rng, ev))
		cw_kill(st, id, weapon == CW_W_NONE ? "spell" : w->slug, rng, ev);
}

/* The hit unit will roll a save (Protection would matter): not a non-brave
 * unit under terror, not a unit immune to plaguebombs. */
static int
saves_against(const struct cw_state *st, int id, int weapon)
{
	int effect = cw_weapons[weapon].effect;
	if (!cw_on(st, id))
		return 0;
	if (effect == CW_HE_TERROR && !cw_is_brave(st, id))
		return 0;
	return effect != CW_HE_PLAGUE || !cw_immune_plague(st, id);
}

int
cw_protect_target(const struct cw_state *st)
{
	return st->nhitq > 0 ? st->hitq[0] : cw_unit_at(st, st->held.to);
}

void
cw_hits_go(struct cw_state *st, int asked, struct wr_rng *rng, struct wr_list *ev)
{
	while (st->nhitq > 0) {
		int id = st->hitq[0], seat = cw_seat_of(id), w;
		if (!asked && seat != st->turn_seat && saves_against(st, id, st->hit_weapon) &&
		    (w = cw_protector_for(st, id)) != CW_NONE) {
			if (st->side[seat].protect_order == 0) {
				st->pending = CW_PEND_PROTECT;
				return;
			}
			if (st->side[seat].protect_order == 1) {
				/* as if asked and answered: it may be countered (C9),
				 * then this save and the queue go on (cw_rules.c) */
				cw_react(st,
				         &(struct cw_action){.type = CW_A_PROTECT, .unit = st->u[w].sq,
				                             .to = st->u[id].sq},
				         rng, ev);
				return;
			}
		}
		asked = 0;
		memmove(st->hitq, st->hitq + 1, (size_t)(st->nhitq - 1) * sizeof(st->hitq[0]));
		st->nhitq--;
		resolve_hit(st, id, st->hit_weapon, rng, ev);
	}
	st->hit_weapon = CW_W_NONE;
}

/* The units hit, each to save in turn (after its Protection). */
static void
hits(struct cw_state *st, const int *ids, int n, int weapon, struct wr_rng *rng,
     struct wr_list *ev)
{
	memcpy(st->hitq, ids, (size_t)n * sizeof(ids[0]));
	st->nhitq = n;
	st->hit_weapon = weapon;
	cw_hits_go(st, 0, rng, ev);
}

/* "whenever a ranged attack (bows, catapult, spell) hits an unit in melee
 * combat, roll a d6: 5-6 the original target is hit, 3-4 the original
 * target and one random opponent, 1-2 one random opponent" */
void
cw_ranged_hit(struct cw_state *st, int id, int weapon, struct wr_rng *rng, struct wr_list *ev)
{
	int hit[2], nh = 0;
	if (!cw_on(st, id))
		return;
	if (cw_in_melee(st, id)) {
		int opp[CW_UNITS], no = 0, pick = CW_NONE;
		int face = (int)wr_die(rng, 6);
		for (int j = 0; j < CW_UNITS; j++)
			if ((st->u[id].link >> j) & 1)
				opp[no++] = j;
		if (face <= 4)
			pick = opp[no > 1 ? (int)wr_die(rng, (unsigned)no) - 1 : 0];
		cw_ev_roll(st, ev, CW_E_MELEE_SHOT, id, pick, face);
		if (face >= 3)
			hit[nh++] = id;
		if (pick != CW_NONE)
			hit[nh++] = pick;
	} else {
		hit[nh++] = id;
	}
	hits(st, hit, nh, weapon, rng, ev);
}

/* Bows: "-1 the firer moved, -1 the range is 3 or more squares, -2 the
 * target is not visible to firer"; Storm -1 (C9). Returns the face needed;
 * a need of 7 cannot hit ("the roll 6 does not always hit"). */
int
cw_shoot_need(const struct cw_state *st, int firer, int target, int *mods, int *nmods)
{
	int need = cw_def(st, firer)->skill, n = 0;
	int from = st->u[firer].sq, to = st->u[target].sq;
	if (st->u[firer].moved) {
		need++;
		mods[n++] = 1;
	}
	if (cw_dist(st, from, to) >= 3) {
		need++;
		mods[n++] = 2;
	}
	if (!cw_sees(st, from, to)) {
		need += 2;
		mods[n++] = 3;
	}
	if (cw_storms(st)) {
		need++;
		mods[n++] = 4;
	}
	*nmods = n;
	return need;
}

void
cw_do_shoot(struct cw_state *st, int seat, const struct cw_action *a, struct wr_rng *rng,
            struct wr_list *ev)
{
	int id = cw_unit_at(st, a->unit);
	const struct cw_unit_def *d = cw_def(st, id);
	const struct cw_weapon *w = &cw_weapons[d->weapon];
	struct cw_event *e;

	st->u[id].shot = 1;
	st->shot_from = a->unit;
	st->shot_aim = st->shot_land = a->to;
	if (w->kind == CW_WK_BOW) {
		int t = cw_unit_at(st, a->to), mods[4], nmods, need, face;
		need = cw_shoot_need(st, id, t, mods, &nmods);
		face = (int)wr_die(rng, 6);
		e = cw_ev_roll(st, ev, CW_E_SHOOT, id, t, face);
		if (e) {
			e->need = need;
			e->ok = face >= need;
			memcpy(e->mods, mods, sizeof(mods));
			e->nmods = nmods;
			e->sq = a->to;
		}
		if (face >= need)
			cw_ranged_hit(st, t, d->weapon, rng, ev);
		return;
	}
	/* Catapults: 2 (direct) or 3 (indirect) scatter rolls; rocks and
	 * plaguebombs once; Storm once more (C9). */
	int direct = cw_sees(st, a->unit, a->to);
	int n = direct ? w->scatter_direct : w->scatter_indirect;
	int df = 0, dr = 0, land;
	if (cw_storms(st))
		n++;
	e = cw_ev_push(ev, CW_E_SCATTER, WR_VIS_PUBLIC);
	cw_ev_unit(st, e, id);
	for (int i = 0; i < n; i++) {
		int face = (int)wr_die(rng, 6), x, y;
		cw_dir_of_seat(seat, face, &x, &y);
		df += x;
		dr += y;
		if (e && i < 6)
			e->faces[e->nfaces++] = face;
	}
	land = wr_square(&st->board, wr_file(&st->board, a->to) + df,
	                 wr_rank(&st->board, a->to) + dr);
	st->shot_land = land;
	if (e) {
		e->sq = a->to;
		e->value = land;
		e->ok = direct;
		if (land < 0)
			snprintf(e->why, sizeof(e->why), "off the board: a complete miss");
		else if (land == a->unit)
			snprintf(e->why, sizeof(e->why), "on the catapult itself: a miss");
	}
	if (land < 0 || land == a->unit)
		return;
	int t = cw_unit_at(st, land);
	if (t == CW_NONE)
		return;
	if (w->whole_melee && cw_in_melee(st, t)) {
		int grp[CW_UNITS], ng = cw_melee_group(st, t, grp);
		hits(st, grp, ng, d->weapon, rng, ev);
		return;
	}
	cw_ranged_hit(st, t, d->weapon, rng, ev);
}

/* The melee result table: 6 destroyed, 5 two saves, 4 one save, 2 (2-3)
 * stand-off, 1 (1 or less) attacker destroyed unless saved. "a natural roll
 * 6 always causes this result regardless of any modifiers. However, if the
 * defender is scary and the attacker is not brave, refer to result 5." */
int
cw_melee_result(int natural, int total, int def_scary, int att_brave)
{
	int r = natural == 6 ? 6 : total;
	if (r >= 6)
		return def_scary && !att_brave ? 5 : 6;
	if (r == 5 || r == 4)
		return r;
	return r >= 2 ? 2 : 1;
}

void
cw_do_attack(struct cw_state *st, int seat, const struct cw_action *a, struct wr_rng *rng,
             struct wr_list *ev)
{
	int att = cw_unit_at(st, a->unit), def = cw_unit_at(st, a->to);
	const struct cw_unit_def *ad = cw_def(st, att), *dd = cw_def(st, def);
	int natural = (int)wr_die(rng, 6), total, result, from = st->u[def].sq;
	int assault = (ad->special & CW_SP_ASSAULT) && st->u[att].charged &&
	              st->o.terrain[st->u[def].sq] != CW_T_FOREST;
	struct cw_event *e;
	(void)seat;

	total = natural + ad->melee + assault + 2 * st->u[att].strike - dd->melee;
	result = cw_melee_result(natural, total, cw_is_scary(st, def), cw_is_brave(st, att));
	st->u[att].attacked = 1;
	st->u[att].strike = 0;
	e = cw_ev_roll(st, ev, CW_E_ATTACK, att, def, natural);
	if (e) {
		e->value = total;
		e->need = result;
		e->ok = assault;
	}
	switch (result) {
	case 6:
		cw_kill(st, def, "melee", rng, ev);
		break;
	case 5:
	case 4: {
		int saves = result == 4 || cw_is_brave(st, def) ? 1 : 2;
		for (int i = 0; i < saves; i++)
			if (!cw_save(st, def, dd->save, save_bonus(st, def, 0, 0), rng, ev)) {
				cw_kill(st, def, "melee", rng, ev);
				break;
			}
		break;
	}
	case 1:
		/* "Scary attacker must only save if the defender is brave" */
		if (cw_is_scary(st, att) && !cw_is_brave(st, def))
			break;
		if (!cw_save(st, att, ad->save, save_bonus(st, att, 0, 0), rng, ev))
			cw_kill(st, att, "melee", rng, ev);
		break;
	default:
		break;
	}
	/* follow-up: the defender destroyed, the attacker no longer in melee */
	if (!cw_on(st, def) && cw_on(st, att) && !cw_in_melee(st, att)) {
		st->pending = CW_PEND_FOLLOWUP;
		st->pend_unit = att;
		st->pend_from = from;
	}
}

void
cw_do_charge(struct cw_state *st, int id, int target, struct wr_rng *rng, struct wr_list *ev)
{
	struct cw_event *e;
	/* C8 (amended): a charge ends the unit's own move (or is a move of no
	 * squares): nothing of that move is left, not even a move spell */
	st->u[id].charged = 1;
	if (st->phase == CW_PH_MOVE)
		st->u[id].moved = 1;
	st->last_moved = CW_NONE;
	/* C5: a non-brave unit charging a Scary target must save first */
	if (cw_is_scary(st, target) && !cw_is_brave(st, id)) {
		if (!cw_save(st, id, cw_def(st, id)->save, save_bonus(st, id, 0, 0), rng, ev)) {
			e = cw_ev_push(ev, CW_E_CHARGE_FAILED, WR_VIS_PUBLIC);
			cw_ev_unit(st, e, id);
			cw_ev_other(st, e, target);
			return;
		}
	}
	cw_link(st, id, target);
	e = cw_ev_push(ev, CW_E_CHARGE, WR_VIS_PUBLIC);
	cw_ev_unit(st, e, id);
	cw_ev_other(st, e, target);
}
