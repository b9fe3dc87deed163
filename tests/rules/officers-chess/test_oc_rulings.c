/* The amended rulings of Officers Chess (RULINGS.md G3, O11, O14-O19):
 * positions built in C, each row naming its ruling; scripted d100 faces.
 * G3 goes through the ruleset's JSON apply, where forced actions are
 * taken (wr_tpl_settle); the other rows through wr_tpl_do. */
#include "oc_table.h"

#define OC "RULINGS.md, Officers Chess "

/* Posts a JSON action as the server does; the encoded events in *out. */
static int
post(struct oc_state *st, int seat, const char *json, struct wr_events *out)
{
	json_object *a = json_tokener_parse(json);
	int rc;

	wr_events_free(out);
	memset(&err, 0, sizeof(err));
	rc = oc_ruleset.apply(st, seat, a, &rng, out, &err);
	json_object_put(a);
	return rc;
}

static int
count_type(const struct wr_events *e, const char *type)
{
	int n = 0;
	for (size_t i = 0; i < e->len; i++) {
		json_object *t;
		if (json_object_object_get_ex(e->items[i].body, "type", &t) &&
		    strcmp(json_object_get_string(t), type) == 0)
			n++;
	}
	return n;
}

static void
g3_rows(void)
{
	struct oc_state *st;
	struct wr_events out = {0};
	struct wr_list l;

	ROW("RULINGS.md, G3 (amended): a seat whose whole legal list is one action has it "
	    "taken at once (the last unit to activate; a turn whose only action is end)");
	st = make(NULL);
	put_unit(st, 0, "Sword Fighter", "a1", "Steel Sword", NULL, NULL);
	put_unit(st, 0, "Sword Fighter", "b1", "Steel Sword", NULL, NULL);
	int c = put_unit(st, 1, "Sword Fighter", "h8", NULL, NULL, NULL);
	battle(st, 0);
	st->u[c].frozen = 1;       /* no Move, no item, no ally: end is all it has */
	OK(post(st, 0, "{\"type\":\"activate\",\"at\":\"a1\"}", &out) == 0 && st->active == 0,
	   "two units to choose from: nothing forced");
	OK(post(st, 0, "{\"type\":\"end\",\"from\":\"a1\"}", &out) == 0, "seat 0 ends a1");
	OK(st->u[c].activated && !st->u[c].frozen && count_type(&out, "activated") == 2 &&
	   count_type(&out, "turn_end") == 2,
	   "seat 1's one unit was activated and its turn ended for it, in the same post "
	   "(activated %d, turn_end %d)", count_type(&out, "activated"), count_type(&out, "turn_end"));
	OK(st->active == 1 && st->u[1].activated && oc_to_act(st) == 1u,
	   "then seat 0's last unit (b1) was activated: its turn awaits seat 0 (active %d)",
	   st->active);
	legal_list(st, 0, &l);
	OK(l.len > 1, "b1's turn has a choice (%zu actions): it waits", l.len);
	wr_list_free(&l);
	OK(post(st, 1, "{\"type\":\"activate\",\"at\":\"h8\"}", &out) != 0 &&
	   strcmp(err.code, "not-awaited") == 0, "posting the forced action again is refused");
	wr_events_free(&out);
	oc_ruleset.free(st);
}

static void
combat_rulings(void)
{
	struct oc_state *st;
	struct oc_forecast f;
	const struct oc_event *e;
	int hit, crit, dmg, cdmg;

	ROW(OC "O11 (amended): when both weapons are Heavy, the attacker strikes first");
	st = duel("Sword Fighter", "Steel Blade", "d4", "Axe Fighter", "Steel Greataxe", "d5");
	oc_forecast(st, 0, 1, 0, &f);
	OK(!f.heavy_first && f.def.can_strike, "the forecast: attacker first, a counter");
	dice(4, 100, 100, 100, 100);
	OK(run(st, 0, attack("d4", "d5", 0)) == 0 && (e = event(OC_E_COMBAT)) &&
	   e->nstrikes >= 2 && e->strikes[0].by_attacker && !e->strikes[1].by_attacker,
	   "the attacker's Heavy strike comes first");
	oc_ruleset.free(st);
	st = duel("Sword Fighter", "Steel Blade", "d4", "Axe Fighter", "Steel Axe", "d5");
	oc_forecast(st, 0, 1, 0, &f);
	OK(f.heavy_first, "against a weapon that is not Heavy the defender still strikes first");
	oc_ruleset.free(st);

	ROW(OC "O19: Brave strikes twice on counters too");
	st = make("{\"promoted\":true}");
	put_unit(st, 0, "Sword Fighter", "d4", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Hero (Lance)", "d5", "Brave Sword", NULL, NULL);
	battle(st, 0);
	run(st, 0, activate("d4"));
	oc_forecast(st, 0, 1, 0, &f);
	dice(8, 100, 100, 100, 100, 100, 100, 100, 100);
	run(st, 0, attack("d4", "d5", 0));
	e = event(OC_E_COMBAT);
	int counters = 0;
	for (int k = 0; e && k < e->nstrikes; k++)
		counters += !e->strikes[k].by_attacker;
	OK(f.def.strikes == 2 * (1 + f.def.follow_up) && counters == f.def.strikes &&
	   e && !e->strikes[1].by_attacker && !e->strikes[2].by_attacker,
	   "the Brave counter strikes twice (%d)", counters);
	oc_ruleset.free(st);

	ROW(OC "O19: Backup adds 3 to the attacker's first hit only (not a miss, not a counter)");
	st = make("{\"promoted\":true}");
	put_unit(st, 0, "Swordmaster", "d4", "Brave Sword", NULL, NULL);
	put_unit(st, 0, "Axe Fighter", "c5", "Steel Axe", NULL, NULL);
	put_unit(st, 1, "Sword Fighter", "d5", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
	battle(st, 0);
	run(st, 0, activate("d4"));
	oc_strike_numbers(st, 0, 2, 0, &hit, &crit, &dmg, &cdmg);
	int dhit, dcrit, ddmg, dcdmg;
	oc_strike_numbers(st, 2, 0, 0, &dhit, &dcrit, &ddmg, &dcdmg);
	OK(oc_backup(st, 0, 2) && hit > crit + 1 && dhit > dcrit + 1, "the Axe Fighter backs up");
	/* miss, hit (+3), counter hit, then hits without Backup */
	dice(8, 100, crit + 1, dcrit + 1, crit + 1, crit + 1, 100, 100, 100);
	run(st, 0, attack("d4", "d5", 0));
	e = event(OC_E_COMBAT);
	OK(e && e->nstrikes >= 4 && !e->strikes[0].hit && e->strikes[1].dmg == dmg + 3 &&
	   !e->strikes[2].by_attacker && e->strikes[2].dmg == ddmg && e->strikes[3].by_attacker &&
	   e->strikes[3].dmg == dmg, "+3 on the first hit (%d), none on the counter or later",
	   e ? e->strikes[1].dmg : -1);
	oc_ruleset.free(st);
}

static void
option_rulings(void)
{
	struct oc_state *st;

	ROW(OC "O14 (amended): no round limit by default; a match may set one at creation");
	st = make(NULL);
	OK(st->round_limit == 0, "the default is no limit (%d)", st->round_limit);
	put_unit(st, 0, "Sword Fighter", "a1", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Sword Fighter", "h8", "Steel Sword", NULL, NULL);
	battle(st, 0);
	st->round = 40;
	run(st, 0, activate("a1"));
	run(st, 0, unit_act(OC_A_END, "a1"));
	run(st, 1, activate("h8"));
	run(st, 1, unit_act(OC_A_END, "h8"));
	OK(st->phase == OC_PH_BATTLE && st->round == 41, "round 40 ends, round 41 begins");
	/* With no limit a battle may run past any round: its snapshot must
	 * still load, else the match could not be played on (it refused
	 * round 101 before, found by tests/bench/rulebench). */
	st->round = 250;
	run(st, 0, activate("a1"));
	run(st, 0, unit_act(OC_A_END, "a1"));
	run(st, 1, activate("h8"));
	run(st, 1, unit_act(OC_A_END, "h8"));
	json_object *snap = oc_ruleset.save(st);
	void *again = NULL;
	struct wr_error e;
	OK(oc_ruleset.load(snap, &again, &e) == 0 && ((struct oc_state *)again)->round == 251,
	   "a snapshot at round 251 loads (%s)", again ? "ok" : e.message);
	json_object_put(snap);
	if (again)
		oc_ruleset.free(again);
	json_object *opts = oc_ruleset.options(), *x, *d;
	OK(json_object_object_get_ex(opts, "round_limit", &x) &&
	   json_object_object_get_ex(x, "default", &d) && json_object_get_int(d) == 0,
	   "the option's default says 0 (no limit)");
	json_object_put(opts);
	oc_ruleset.free(st);
	st = make("{\"round_limit\":3}");
	OK(st->round_limit == 3, "a limit set at creation");
	oc_ruleset.free(st);
}

static void
tile_rulings(void)
{
	struct oc_state *st;

	ROW(OC "O15 (amended): Flames deal 5 less DR of E (4); a tile's Heal(10) is a flat 10; "
	    "a Flying unit ignores both");
	st = make(NULL);
	int mage = put_unit(st, 0, "Mage", "d4", "Elfire", NULL, NULL);
	int fighter = put_unit(st, 0, "Sword Fighter", "c4", "Steel Sword", NULL, NULL);
	int flier = put_unit(st, 0, "Sword Flier", "b4", "Steel Sword", NULL, NULL);
	int flier2 = put_unit(st, 0, "Sword Flier", "a4", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
	battle(st, 0);
	st->act[0] = st->left = 4;
	set_tile(st, "d4", OC_TR_HEAL);
	set_tile(st, "c4", OC_TR_FLAMES);
	set_tile(st, "b4", OC_TR_FLAMES);
	set_tile(st, "a4", OC_TR_FORT);
	st->u[mage].hp = 1;
	st->u[flier2].hp = 3;
	run(st, 0, activate("d4"));
	OK(st->u[mage].hp == 11, "Heal Tile: 1 + 10 = 11, not + Mag B (%d)", st->u[mage].hp);
	run(st, 0, unit_act(OC_A_END, "d4"));
	run(st, 0, activate("c4"));
	OK(st->u[fighter].hp == oc_max_hp(&st->u[fighter]) - 4, "Flames: 5 - 1 = 4");
	run(st, 0, unit_act(OC_A_END, "c4"));
	run(st, 0, activate("b4"));
	OK(st->u[flier].hp == oc_max_hp(&st->u[flier]) && !has_event(OC_E_TILE),
	   "a Flying unit does not burn");
	run(st, 0, unit_act(OC_A_END, "b4"));
	run(st, 0, activate("a4"));
	OK(st->u[flier2].hp == 3 && !has_event(OC_E_TILE), "nor is it healed by a Fort");
	oc_ruleset.free(st);
}

static void
data_rulings(void)
{
	struct oc_state *st;
	struct wr_list l;

	ROW(OC "O16: Dancer = Dance and Qi Adept; Knife = Dagger, Arts = Art; variants' ids "
	    "name their proficiencies");
	const struct oc_class *dancer = &oc_classes[oc_class_find("Dancer")];
	OK((dancer->tags & OC_T_DANCE) && (dancer->tags & OC_T_QI_ADEPT), "Dancer's tags");
	OK(dancer->prof[OC_ART] == OC_B && oc_classes[oc_class_find("Thief")].prof[OC_DAGGER] == OC_S,
	   "Arts[B] is Art, Knife[S] is Dagger");
	for (int i = 0; i < oc_nclasses; i++) {
		int twins = 0;
		for (int j = 0; j < oc_nclasses; j++) {
			twins += j != i && strcmp(oc_classes[i].name, oc_classes[j].name) == 0;
			OK(j == i || strcmp(oc_classes[i].id, oc_classes[j].id) != 0, "unique id %s",
			   oc_classes[i].id);
		}
		if (!twins)
			continue;
		const char *p = strchr(oc_classes[i].id, '(');
		int named = 0;
		for (int w = 0; p && w < OC_WTYPE_MAX; w++)
			if (strstr(p, oc_wtype_names[w]))
				named += oc_classes[i].prof[w] >= 0 ? 1 : -100;
		OK(named > 0, "%s names its proficiencies", oc_classes[i].id);
	}

	ROW(OC "O16: Warp and Rewarp reach 5 tiles");
	st = make("{\"promoted\":true}");
	put_unit(st, 0, "Sage", "a1", "Warp", "Rewarp", NULL);
	put_unit(st, 0, "Sword Fighter", "a2", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
	battle(st, 0);
	run(st, 0, activate("a1"));
	struct oc_action w5 = staff("a1", 0, "a2", "f1"), w6 = staff("a1", 0, "a2", "g1");
	struct oc_action r5 = staff("a1", 1, NULL, "a6"), r6 = staff("a1", 1, NULL, "a7");
	OK(oc_legal(st, 0, &w5, &err) == 0, "Warp to 5 tiles");
	OK(oc_legal(st, 0, &w6, &err) != 0 && strcmp(err.code, "out-of-range") == 0, "not 6");
	OK(oc_legal(st, 0, &r5, &err) == 0, "Rewarp to 5 tiles");
	OK(oc_legal(st, 0, &r6, &err) != 0 && strcmp(err.code, "out-of-range") == 0, "not 6");
	legal_list(st, 0, &l);
	int listed = 0;
	for (size_t k = 0; k < l.len; k++) {
		const struct oc_action *a = wr_list_at(&l, k);
		listed += a->type == OC_A_STAFF && a->slot == 1 && oc_dist(st, sq("a1"), a->to) == 5;
	}
	OK(listed > 0, "the legal list offers Rewarp at 5");
	wr_list_free(&l);
	oc_ruleset.free(st);
}

static void
item_rulings(void)
{
	struct oc_state *st;
	struct oc_forecast f;
	int hit, crit, cdmg, bare[4], carried[4];

	ROW(OC "O17: an accessory's Def and Wt count while carried (equipped or not); Def only "
	    "against martial damage");
	st = make(NULL);
	int att = put_unit(st, 0, "Sword Fighter", "d4", "Steel Sword", NULL, NULL);
	int mage = put_unit(st, 0, "Mage", "c5", "Elfire", NULL, NULL);
	int def = put_unit(st, 1, "Sword Fighter", "d5", "Steel Sword", NULL, NULL);
	battle(st, 0);
	oc_strike_numbers(st, att, def, 0, &hit, &crit, &bare[0], &cdmg);
	oc_strike_numbers(st, mage, def, 0, &hit, &crit, &bare[1], &cdmg);
	bare[2] = oc_agility(st, &st->u[def]);
	st->u[def].item[1] = oc_item_find("Iron Shield");      /* Def 2, Wt 2: equipped */
	st->u[def].item[2] = oc_item_find("Steel Shield");     /* Def 3, Wt 3: carried */
	st->u[def].acc = 1;
	oc_strike_numbers(st, att, def, 0, &hit, &crit, &carried[0], &cdmg);
	oc_strike_numbers(st, mage, def, 0, &hit, &crit, &carried[1], &cdmg);
	carried[2] = oc_agility(st, &st->u[def]);
	OK(carried[0] == bare[0] - 5, "martial damage less 2 + 3 (%d -> %d)", bare[0], carried[0]);
	OK(carried[1] == bare[1], "magic damage unchanged (%d -> %d)", bare[1], carried[1]);
	OK(carried[2] == bare[2] - 5, "Agility less 2 + 3 (%d -> %d)", bare[2], carried[2]);

	ROW(OC "O17: an accessory's tags apply only while it is the one equipped");
	st->u[def].item[2] = oc_item_find("Talisman Shield");  /* Def 1, Wt 4, Bonus(Res+1) */
	int res = oc_rating(st, &st->u[def], OC_RES);
	st->u[def].acc = 2;
	OK(oc_rating(st, &st->u[def], OC_RES) == res + 1, "Bonus(Res+1) only once equipped");
	OK(oc_agility(st, &st->u[def]) == bare[2] - 2 - 4, "both Wt count either way");
	oc_ruleset.free(st);

	ROW(OC "O18: a staff used is the weapon last used: no counter until another weapon is "
	    "equipped");
	st = make(NULL);
	int monk = put_unit(st, 0, "Martial Monk", "d4", "Heal", "Steel-Hand Art", NULL);
	int ally = put_unit(st, 0, "Sword Fighter", "d3", "Steel Sword", NULL, NULL);
	int foe = put_unit(st, 1, "Sword Fighter", "d5", "Steel Sword", NULL, NULL);
	battle(st, 0);
	st->u[ally].hp = 5;
	run(st, 0, activate("d4"));
	OK(run(st, 0, staff("d4", 0, "d3", NULL)) == 0 && oc_weapon(&st->u[monk]) &&
	   oc_weapon(&st->u[monk])->wtype == OC_STAFF, "Heal: the staff is in hand");
	run(st, 0, unit_act(OC_A_END, "d4"));
	run(st, 1, activate("d5"));
	oc_forecast(st, foe, monk, 0, &f);
	OK(!f.def.can_strike && !oc_can_counter(st, foe, monk),
	   "attacked next, the Monk cannot counter with the staff");
	dice(4, 100, 100, 100, 100);
	run(st, 1, attack("d5", "d4", 0));
	const struct oc_event *e = event(OC_E_COMBAT);
	int counters = 0;
	for (int k = 0; e && k < e->nstrikes; k++)
		counters += !e->strikes[k].by_attacker;
	OK(e && counters == 0, "no counter strike (%d)", counters);
	run(st, 1, unit_act(OC_A_END, "d5"));
	run(st, 0, activate("d3"));
	run(st, 0, unit_act(OC_A_END, "d3"));
	OK(st->round == 2 && !oc_can_counter(st, foe, monk), "round 2: still the staff in hand");
	run(st, 0, activate("d4"));
	struct oc_action eq = unit_act(OC_A_EQUIP, "d4");
	eq.slot = 1;
	OK(run(st, 0, eq) == 0 && oc_can_counter(st, foe, monk), "the Art equipped: it counters again");
	oc_ruleset.free(st);
}

static void
qi_rulings(void)
{
	struct oc_state *st;
	const struct oc_event *e;

	ROW(OC "O19: under fog the seat is asked when the attacking seat sees the Qi Adept");
	st = make("{\"fog\":true}");
	put_unit(st, 0, "Sword Fighter", "d4", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Lance Fighter", "d5", "Steel Lance", NULL, NULL);
	int adept = put_unit(st, 1, "Martial Monk", "e5", "Steel-Hand Art", NULL, NULL);
	battle(st, 0);
	run(st, 0, activate("d4"));
	OK(oc_seat_sees(st, 0, sq("e5")), "seat 0 sees the Monk");
	OK(run(st, 0, attack("d4", "d5", 0)) == 0 && st->pend && oc_to_act(st) == 2u &&
	   has_event(OC_E_GUARD_ASKED) && !has_event(OC_E_COMBAT), "seat 1 is asked");
	int public_ask = 0;
	for (size_t i = 0; i < ev.len; i++) {
		const struct oc_event *x = wr_list_at(&ev, i);
		public_ask += x->type == OC_E_GUARD_ASKED && x->vis == WR_VIS_PUBLIC;
	}
	json_object *v = oc_ruleset.view(st, WR_SPECTATOR);
	OK(!public_ask && strstr(json_object_to_json_string(v), "a unit is attacked by an unseen unit"),
	   "G5: a spectator gets no copy of the question and no name in the prompt");
	json_object_put(v);
	struct oc_action g = act(OC_A_GUARD);
	g.at = sq("e5");
	dice(3, 100, 100, 100);
	OK(run(st, 1, g) == 0 && (e = event(OC_E_COMBAT)) && e->strikes[0].guard == adept,
	   "the Monk takes the strike");
	oc_ruleset.free(st);

	static const struct {
		int order, guards;
		const char *why;
	} unseen[] = {
		{OC_QI_ASK, 1, "no standing order: it takes the attack"},
		{OC_QI_ALWAYS, 1, "always: it takes the attack"},
		{OC_QI_NEVER, 0, "never: it does not"},
	};
	ROW(OC "O19: under fog, a Qi Adept the attacking seat does not see: the standing order "
	    "decides, without one it takes the attack; the attacker's copy does not name it");
	for (size_t k = 0; k < sizeof(unseen) / sizeof(unseen[0]); k++) {
		st = make("{\"fog\":true}");
		put_unit(st, 0, "Archer", "d2", "Longbow", NULL, NULL);
		put_unit(st, 1, "Lance Fighter", "d5", "Steel Lance", NULL, NULL);
		adept = put_unit(st, 1, "Martial Monk", "d6", "Steel-Hand Art", NULL, NULL);
		battle(st, 0);
		st->qi[1] = unseen[k].order;
		run(st, 0, activate("d2"));
		dice(3, 100, 100, 100);
		OK(!oc_seat_sees(st, 0, sq("d6")) && run(st, 0, attack("d2", "d5", 0)) == 0 &&
		   !st->pend, "%s: no question", unseen[k].why);
		const struct oc_event *mine = NULL, *theirs = NULL;
		for (size_t i = 0; i < ev.len; i++) {
			const struct oc_event *x = wr_list_at(&ev, i);
			if (x->type == OC_E_COMBAT && x->vis == 1u)
				mine = x;
			if (x->type == OC_E_COMBAT && x->vis == 2u)
				theirs = x;
		}
		OK(theirs && (theirs->strikes[0].guard == adept) == unseen[k].guards, "%s",
		   unseen[k].why);
		OK(mine && mine->strikes[0].guard != adept && (!unseen[k].guards ||
		   (mine->strikes[0].guard == OC_GUARD_HIDDEN && mine->strikes[0].hp < 0)),
		   "%s: seat 0's copy hides the unseen Monk and its HP", unseen[k].why);
		oc_ruleset.free(st);
	}
}

int
main(void)
{
	uint64_t s;
	wr_rng_seeded(&rng, &s, 7);
	wr_list_init(&ev, sizeof(struct oc_event));
	g3_rows();
	combat_rulings();
	option_rulings();
	tile_rulings();
	data_rulings();
	item_rulings();
	qi_rulings();
	wr_list_free(&ev);
	printf("officers-chess amended rulings: %d rows, %d checks, %d failures\n", rows, checks,
	       failures);
	return failures ? 1 : 0;
}
