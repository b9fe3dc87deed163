/* ChessWar for the computer player (issue 27, bot/): a state rebuilt from
 * one seat's view, and a material evaluation.
 *
 * What the view hides (G5, C1, C2): every other army while armies are
 * built and deployed, until all are in. Each hidden side is drawn whole
 * and left to ready and deploy (draw_build: an army drawn, its points
 * spent at random within Max and the set-up area). Everything else is public and read back;
 * what no view shows is a best guess: the spell of a pending Counterspell
 * has no target yet, a pending Protection guards the unit attacked from
 * the attacker named, with no hits queued (the save follows), a unit's
 * Regenerate, Strike and instant-cast marks are off, the links a dying
 * unit had are its current ones. Calls the rule files and the data; only
 * the ruleset table names it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "botview.h"
#include "cw_rules.h"

extern const struct wr_ruleset cw_ruleset;

/* The view's names (cw_codec.c prints them so). */
static const char *const phase_names[] = {"setup",    "first", "movement",
                                          "shooting", "melee", "over"};
static const char *const stage_names[] = {"army", "build", "deploy", "done"};
static const char *const ustate_names[] = {"empty", "reserve", "on", "dead"};
static const char *const order_names[] = {"ask", "always", "never"};

static int
sq_of(const struct cw_state *st, json_object *o, const char *key)
{
	return wr_v_sq(o, key, &st->board);
}

/* The unit on a square, or -1 (CW_NONE). */
static int
unit_at(const struct cw_state *st, int sq)
{
	if (sq < 0)
		return -1;
	for (int i = 0; i < CW_UNITS; i++)
		if (st->u[i].status == CW_U_ON && st->u[i].sq == sq)
			return i;
	return -1;
}

static int
army_of(const char *slug)
{
	for (int a = 0; slug && a < CW_ARMY_MAX; a++)
		if (!strcmp(cw_armies[a].slug, slug))
			return a;
	return -1;
}

static int
type_of(int army, const char *slug)
{
	for (int t = 0; army >= 0 && slug && t < cw_armies[army].ntypes; t++)
		if (!strcmp(cw_armies[army].units[t].slug, slug))
			return t;
	return -1;
}

static int
spell_of(const char *slug)
{
	for (int s = 0; slug && s < CW_SPELL_MAX; s++)
		if (!strcmp(cw_spells[s].slug, slug))
			return s;
	return -1;
}

/* A standing order for spells: a name, or a list of spells. */
static void
spell_order(json_object *v, int *order, unsigned *mask)
{
	*order = 0;
	*mask = 0;
	if (v && json_object_is_type(v, json_type_string)) {
		int i = wr_json_name_index(json_object_get_string(v), order_names, 3);
		*order = i >= 0 ? i : 0;
	} else if (v && json_object_is_type(v, json_type_array)) {
		*order = 3;
		for (size_t k = 0; k < json_object_array_length(v); k++) {
			int s = spell_of(json_object_get_string(json_object_array_get_idx(v, k)));
			if (s >= 0)
				*mask |= 1u << s;
		}
	}
}

static void
read_side(struct cw_state *st, int s, json_object *so)
{
	struct cw_side *sd = &st->side[s];
	json_object *c = wr_v_get(so, "counts"), *ord = wr_v_get(so, "orders");
	sd->stage = wr_v_name(so, "stage", stage_names, 4, CW_STAGE_ARMY);
	sd->army = army_of(wr_v_str(so, "army"));
	sd->spent = wr_v_int(so, "spent", 0);
	if (sd->army >= 0) {
		if (c && json_object_is_type(c, json_type_object)) {
			json_object_object_foreach(c, k, v) {
				int t = type_of(sd->army, k);
				if (t > 0)
					sd->counts[t] = json_object_get_int(v);
			}
		}
	}
	if (ord) {
		spell_order(wr_v_get(ord, "counterspell"), &sd->counter_order, &sd->counter_mask);
		spell_order(wr_v_get(ord, "dispel"), &sd->dispel_order, &sd->dispel_mask);
		sd->heal_order = wr_v_name(ord, "heal", order_names, 3, 0);
		sd->protect_order = wr_v_name(ord, "protection", order_names, 3, 0);
	}
}

static void
read_units(struct cw_state *st, json_object *view, const int *hidden)
{
	size_t n;
	json_object *us = wr_v_array(view, "units", &n);
	for (size_t k = 0; k < n; k++) {
		json_object *x = json_object_array_get_idx(us, k);
		int id = wr_v_int(x, "id", -1), s;
		if (id < 0 || id >= st->nseats * CW_UPS || hidden[s = cw_seat_of(id)])
			continue;
		struct cw_unit *u = &st->u[id];
		u->type = (int8_t)type_of(st->side[s].army, wr_v_str(x, "unit"));
		if (u->type < 0)
			continue;
		u->status = (int8_t)wr_v_name(x, "status", ustate_names, 4, CW_U_EMPTY);
		u->sq = (int16_t)(u->status == CW_U_RESERVE ? -1 : sq_of(st, x, "square"));
		u->moved = (uint8_t)wr_v_bool(x, "moved", 0);
		u->done_moving = (uint8_t)wr_v_bool(x, "done_moving", 0);
		u->charged = (uint8_t)wr_v_bool(x, "charged", 0);
		u->shot = (uint8_t)wr_v_bool(x, "shot", 0);
		u->attacked = (uint8_t)wr_v_bool(x, "attacked", 0);
		u->cast = (uint8_t)wr_v_bool(x, "cast", 0);
		u->dying = (uint8_t)wr_v_bool(x, "dying", 0);
	}
	/* Melee links name squares: a second pass, once all stand. */
	for (size_t k = 0; k < n; k++) {
		json_object *x = json_object_array_get_idx(us, k), *ml;
		int id = wr_v_int(x, "id", -1);
		size_t nm;
		if (id < 0 || id >= st->nseats * CW_UPS || hidden[cw_seat_of(id)])
			continue;
		ml = wr_v_array(x, "melee", &nm);
		for (size_t j = 0; j < nm; j++) {
			const char *q = json_object_get_string(json_object_array_get_idx(ml, j));
			int o = unit_at(st, q ? wr_square_parse(&st->board, q) : -1);
			if (o >= 0)
				st->u[id].link |= CW_BIT(o);
		}
		st->u[id].was_link = st->u[id].link;
	}
}

/* A hidden set-up, drawn whole: an army drawn, then units bought at
 * random within Max, the points and the set-up area until none fits, as
 * a player spends them (unspent points are lost), left to ready. The
 * search then sets the bot's army against a whole one. Drawn from
 * nothing instead (the seat back at its army's choice), the search's
 * own few moves for that seat built it: its army looked small once play
 * began, so the bot hurried into play with its points unspent (seed 7006:
 * ready with 3 Elf units of 18 points' worth, 10 points lost). */
static void
draw_build(struct cw_state *st, int s, struct wr_rng *rng)
{
	struct cw_side *sd = &st->side[s];
	int area = 0, size = 1;

	for (int q = 0; q < st->board.files * st->board.ranks; q++)
		area += cw_in_setup_area(st, s, q);
	sd->army = (int)rng->next(rng, CW_ARMY_MAX);
	sd->stage = CW_STAGE_BUILD;
	const struct cw_army *ar = &cw_armies[sd->army];
	for (;;) {
		int fit[CW_TYPES], n = 0;
		for (int t = 1; t < ar->ntypes; t++)
			if (sd->counts[t] < ar->units[t].max && sd->spent + ar->units[t].cost <= ar->points &&
			    size < area)
				fit[n++] = t;
		if (!n)
			return;
		int t = fit[rng->next(rng, (uint32_t)n)];
		sd->counts[t]++;
		sd->spent += ar->units[t].cost;
		size++;
	}
}

/* The spell awaiting a Counterspell, as cast: the view names the spell
 * and its caster, not its target, so one of the casts the caster could
 * have made is drawn (check_state requires it to have been legal). */
static void
pending_cast(struct cw_state *st, struct wr_rng *rng)
{
	struct cw_state *tmp = malloc(sizeof(*tmp));
	struct wr_list l;
	int c = unit_at(st, st->cast.unit), n = 0;

	if (!tmp || c < 0) {
		free(tmp);
		return;
	}
	*tmp = *st;
	tmp->pending = CW_PEND_NONE;
	tmp->u[c].cast = 0;
	if (st->cast.spell >= 0 && cw_spells[st->cast.spell].when == CW_WHEN_SHOOT)
		tmp->u[c].shot = 0;
	wr_list_init(&l, sizeof(struct cw_action));
	cw_candidates(tmp, st->turn_seat, &l);
	for (size_t i = 0; i < l.len; i++) {
		const struct cw_action *a = wr_list_at(&l, i);
		if (a->type == CW_A_CAST && a->unit == st->cast.unit && a->spell == st->cast.spell &&
		    cw_legal(tmp, st->turn_seat, a, NULL) == 0 && rng->next(rng, (uint32_t)++n) == 0)
			st->cast = *a;
	}
	wr_list_free(&l);
	free(tmp);
}

static void
read_one(struct cw_state *st, json_object *p, struct wr_rng *rng)
{
	const char *kind = wr_v_str(p, "kind");
	int seat = wr_v_int(p, "seat", 0);
	if (!kind)
		return;
	if (!strcmp(kind, "counter_reaction")) {
		/* the question the reaction answered, then its Counterspell */
		static const int types[] = {CW_A_PROTECT, CW_A_DISPEL, CW_A_HEAL};
		int sp = spell_of(wr_v_str(p, "spell"));
		read_one(st, wr_v_get(p, "under"), rng);
		memset(&st->rx, 0, sizeof(st->rx));
		for (int i = 0; i < 3; i++)
			if (cw_react_spell(types[i]) == sp)
				st->rx.type = types[i];
		st->rx.unit = sq_of(st, p, "caster");
		st->rx.to = sq_of(st, p, "target");
		st->rx.army = st->rx.spell = st->rx.effect = st->rx.target2 = CW_NONE;
		st->rx_seat = seat;
		st->pending = CW_PEND_RCOUNTER;
	} else if (!strcmp(kind, "follow_up")) {
		st->pending = CW_PEND_FOLLOWUP;
		st->pend_unit = unit_at(st, sq_of(st, p, "unit"));
		st->pend_from = sq_of(st, p, "emptied");
	} else if (!strcmp(kind, "counterspell")) {
		st->pending = CW_PEND_COUNTER;
		st->react_seat = seat;
		st->cast.type = CW_A_CAST;
		st->cast.spell = spell_of(wr_v_str(p, "spell"));
		st->cast.unit = sq_of(st, p, "caster");
		st->cast.to = -1;
		st->cast.target2 = -1;
		st->cast.effect = -1;
		pending_cast(st, rng);
	} else if (!strcmp(kind, "protection")) {
		int a = unit_at(st, sq_of(st, p, "attacker")), t = unit_at(st, sq_of(st, p, "target"));
		st->pending = CW_PEND_PROTECT;
		if (st->phase == CW_PH_SHOOT && a >= 0 && t >= 0) {
			/* a ranged hit awaiting its save (C9): the view names
			 * the shooter and the unit hit, not the rest of the
			 * queue (taken as empty) nor the weapon (the
			 * shooter's). Read as a melee attack, the state was
			 * refused ("bad held action") and the bot had no
			 * answer: level 1 drew 3 of 40 matches that way. */
			st->nhitq = 1;
			st->hitq[0] = t;
			st->hit_weapon = cw_def(st, a)->weapon;
			return;
		}
		st->held.type = CW_A_ATTACK;
		st->held.unit = sq_of(st, p, "attacker");
		st->held.to = sq_of(st, p, "target");
	} else if (!strcmp(kind, "dispel")) {
		int sp = spell_of(wr_v_str(p, "spell")), c = unit_at(st, sq_of(st, p, "caster"));
		/* a Protection cast in answer: the question it answered first */
		if (wr_v_get(p, "after")) {
			read_one(st, wr_v_get(p, "after"), rng);
			st->protect_after = 1;
		}
		st->pending = CW_PEND_DISPEL;
		st->react_seat = seat;
		for (int i = 0; i < st->nfx; i++)
			if (st->fx[i].spell == sp && st->fx[i].caster == c)
				st->dispel_fx = i;
	} else if (!strcmp(kind, "heal")) {
		st->pending = CW_PEND_HEAL;
		st->heal_seat = seat;
	} else if (!strcmp(kind, "sacrifice")) {
		st->pending = CW_PEND_SACRIFICE;
	}
}

static void
read_pending(struct cw_state *st, json_object *view, struct wr_rng *rng)
{
	size_t n;
	json_object *pd = wr_v_array(view, "pending", &n);
	for (size_t k = 0; k < n; k++)
		read_one(st, json_object_array_get_idx(pd, k), rng);
}

void *
cw_determinize(json_object *view, int seat, struct wr_rng *rng, struct wr_error *err)
{
	json_object *bd = wr_v_get(view, "board"), *co = json_object_new_object(), *sides;
	struct cw_state *st;
	void *fresh = NULL;
	int nseats = wr_v_int(view, "seats", 2), hidden[CW_SEATS] = {0};
	size_t n;

	if (nseats < 2 || nseats > CW_SEATS || seat < 0 || seat >= nseats) {
		json_object_put(co);
		wr_fail(err, "bad-view", "seats", "not a ChessWar view for seat %d", seat);
		return NULL;
	}
	json_object_object_add(co, "board_files", json_object_new_int(wr_v_int(bd, "files", 8)));
	json_object_object_add(co, "board_ranks", json_object_new_int(wr_v_int(bd, "ranks", 8)));
	json_object_object_add(co, "total_massacre",
	                       json_object_new_boolean(wr_v_bool(view, "total_massacre", 0)));
	json_object_object_add(co, "forest", json_object_get(wr_v_get(view, "forest")));
	json_object_object_add(co, "hills", json_object_get(wr_v_get(view, "hills")));
	if (cw_ruleset.create(co, nseats, NULL, &fresh, err) != 0) {
		json_object_put(co);
		return NULL;
	}
	json_object_put(co);
	st = fresh;
	st->phase = wr_v_name(view, "phase", phase_names, CW_PH_OVER + 1, CW_PH_SETUP);
	st->round = wr_v_int(view, "round", 0);
	st->turn_seat = wr_v_int(view, "turn_seat", 0);
	st->first_seat = wr_v_int(view, "first_seat", -1);
	st->rolloff_winner = wr_v_int(view, "rolloff_winner", -1);
	{
		json_object *o = wr_v_array(view, "order", &n);
		for (size_t k = 0; k < n && k < CW_SEATS; k++)
			st->order[k] = (int8_t)json_object_get_int(json_object_array_get_idx(o, k));
	}
	sides = wr_v_array(view, "sides", &n);
	for (size_t s = 0; s < n && (int)s < nseats; s++) {
		json_object *so = json_object_array_get_idx(sides, s);
		if (wr_v_bool(so, "out", 0))
			st->out |= 1u << s;
		if (wr_v_bool(so, "hidden", 0)) {
			hidden[s] = 1;  /* a hidden set-up: drawn below */
			continue;
		}
		read_side(st, (int)s, so);
	}
	for (int s = 0; s < nseats; s++)
		if (hidden[s] && !(st->out & (1u << s)))
			draw_build(st, s, rng);
	read_units(st, view, hidden);
	cw_rebuild_at(st);
	{
		json_object *fx = wr_v_array(view, "effects", &n);
		for (size_t k = 0; k < n && st->nfx < CW_MAX_FX; k++) {
			json_object *x = json_object_array_get_idx(fx, k);
			struct cw_effect *e = &st->fx[st->nfx];
			e->spell = spell_of(wr_v_str(x, "spell"));
			e->caster = unit_at(st, sq_of(st, x, "caster"));
			e->target = unit_at(st, sq_of(st, x, "target"));
			if (e->spell >= 0 && e->caster >= 0)
				st->nfx++;
		}
	}
	st->last_moved = unit_at(st, sq_of(st, view, "last_moved"));
	{
		json_object *sh = wr_v_get(view, "last_shot");
		st->shot_from = sq_of(st, sh, "from");
		st->shot_aim = sq_of(st, sh, "aim");
		st->shot_land = sq_of(st, sh, "lands");
	}
	read_pending(st, view, rng);
	st->winner = wr_v_int(view, "winner", -1);
	{
		const char *r = wr_v_str(view, "reason");
		snprintf(st->reason, sizeof(st->reason), "%s", r ? r : "");
	}
	return wr_bot_finish(&cw_ruleset, st, err);
}

/* The chance that one melee attack of unit a destroys unit d: each face of
 * the attack die's result (cw_melee_result), and the save or two it
 * leaves at d's plain need (C8/C9; a 1 always fails). */
static double
kill_chance(const struct cw_state *st, int a, int d)
{
	const struct cw_unit_def *ad = cw_def(st, a), *dd = cw_def(st, d);
	int need = dd->save < 2 ? 2 : dd->save;
	double save = need <= 6 ? (7.0 - need) / 6 : 0, p = 0;

	for (int n = 1; n <= 6; n++) {
		int r = cw_melee_result(n, n + ad->melee - dd->melee, cw_is_scary(st, d),
		                        cw_is_brave(st, a));
		p += r == 6   ? 1
		     : r == 4 ? 1 - save
		     : r == 5 ? (cw_is_brave(st, d) ? 1 - save : 1 - save * save)
		              : 0;
	}
	return p / 6;
}

/* How exposed seat s's general is: the chance that the enemies in melee
 * with it destroy it, were each to attack it once (C10: its death ends
 * the match). */
static double
general_danger(const struct cw_state *st, int s)
{
	int g = s * CW_UPS;
	double safe = 1;

	if (st->side[s].army < 0 || !cw_on(st, g))
		return 0;
	for (int e = 0; e < st->nseats * CW_UPS; e++)
		if (cw_seat_of(e) != s && cw_on(st, e) && (st->u[g].link & CW_BIT(e)))
			safe *= 1 - kill_chance(st, e, g);
	return 1 - safe;
}

/* The weight of a general's exposure, as Confrontation's King's
 * (cf_bot.c): how often an opponent is taken to find the attack. */
#define CW_DANGER_WEIGHT 0.5

/* Each army's units on the board (and in reserve during set-up), by cost,
 * the general counted heavily: its death ends the match (C10); a little
 * for each set-up stage reached. In play, each general in melee: the
 * seat's own as a chance of losing now, the opponents' as a chance of
 * winning now (seed 1005: level 4's general attacked a Liche in melee
 * turn after turn, its material share untouched until the Liche's reply
 * killed it). */
double
cw_evaluate(const void *state, int seat)
{
	const struct cw_state *st = state;
	double v[CW_SEATS] = {0}, all = 0, lose = 0, win = 0;

	if (seat < 0 || seat >= st->nseats)
		return 0;
	for (int i = 0; i < st->nseats * CW_UPS; i++) {
		const struct cw_unit *u = &st->u[i];
		int s = cw_seat_of(i);
		if ((u->status != CW_U_ON && u->status != CW_U_RESERVE) || st->side[s].army < 0)
			continue;
		const struct cw_unit_def *d = &cw_armies[st->side[s].army].units[u->type];
		/* a unit on the board a little over one in reserve, and each
		 * set-up stage reached, so that set-up moves forward: else
		 * deploy and undeploy score the same and a search may cycle */
		v[s] += (1 + d->cost + (d->cost == 0 ? 4 : 0)) * (u->status == CW_U_ON ? 1.0 : 0.9);
	}
	for (int s = 0; s < st->nseats; s++) {
		const struct cw_side *sd = &st->side[s];
		/* before `ready` an army is its purchases (no unit yet) */
		if (sd->army >= 0 && sd->stage <= CW_STAGE_BUILD) {
			const struct cw_army *ar = &cw_armies[sd->army];
			v[s] = 5 * 0.9;
			for (int t = 1; t < ar->ntypes; t++)
				v[s] += sd->counts[t] * (1 + ar->units[t].cost) * 0.9;
			/* points not yet spent, at the least a point buys (1 + cost
			 * per cost: a unit of cost 4 gives 1.25), since `ready`
			 * loses them (with cw_bot_skips: the search readied with
			 * points unspent) */
			v[s] += (ar->points - sd->spent) * 0.9;
		}
		v[s] += 0.5 * sd->stage;
	}
	for (int s = 0; s < st->nseats; s++)
		all += s == seat ? 0 : v[s];
	/* In set-up another army may be hidden (drawn whole, draw_build)
	 * and still to be deployed: scored against a typical army, its
	 * set-up is neither loss nor gain. */
	if (st->phase == CW_PH_SETUP)
		return wr_bot_share(v[seat], 30, 10);
	for (int s = 0; s < st->nseats; s++) {
		double d = CW_DANGER_WEIGHT * general_danger(st, s);
		if (s == seat)
			lose = d;
		else
			win = 1 - (1 - win) * (1 - d / (st->nseats - 1));
	}
	return win + (1 - win - lose) * wr_bot_share(v[seat], all / (st->nseats - 1), 10);
}

/* What the search leaves out (rules.h, bot_skips): a sale, and another
 * army once one is chosen (all purchases undone). Neither is ever
 * needed, and among a build's choices (7 armies, the buys, the sales,
 * `ready`) they were most of them: a build's branch averaged below a
 * deployment's, and the bot readied with points unspent. */
int
cw_bot_skips(const void *state, int seat, json_object *action)
{
	const struct cw_state *st = state;
	const char *t = wr_v_str(action, "type");

	if (!t || seat < 0 || seat >= st->nseats)
		return 0;
	return !strcmp(t, "sell") || (!strcmp(t, "army") && st->side[seat].stage == CW_STAGE_BUILD);
}
