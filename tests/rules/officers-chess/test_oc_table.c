/* The rule-case table of Officers Chess: positions built in C, each row
 * naming the section of 001_acae27716807a788.txt or the ruling it tests,
 * legal and illegal cases, scripted dice (wr_rng_script) for outcomes. */
#include "oc_table.h"

/* ------------------------------------------------------------- rows */

static void
army_rows(void)
{
	struct oc_state *st;

	ROW("RULINGS.md, Officers Chess O1 (HP = table HP - 7; Movement); " TEXT "Units (HP, Movement); "
	    "Class Tags, Cavalry, Slow(X)");
	for (int k = 0; k < oc_nclasses; k++)
		OK(oc_classes[k].hp == oc_classes[k].table_hp - 7 && oc_classes[k].hp >= 14 &&
		   oc_classes[k].hp <= 22, "%s HP %d", oc_classes[k].id, oc_classes[k].hp);
	st = make(NULL);
	int a = put_unit(st, 0, "Sword Fighter", "a1", NULL, NULL, NULL);
	{
	int b = put_unit(st, 0, "Sword Cavalier", "b1", NULL, NULL, NULL);
	int c = put_unit(st, 0, "General (Sword)", "c1", NULL, NULL, NULL);
	int d = put_unit(st, 0, "Paladin (Sword)", "d1", NULL, NULL, NULL);
	int e = put_unit(st, 0, "Sword Fighter", "e1", NULL, NULL, "March Ring");
	OK(oc_movement(st, &st->u[a]) == 4 && oc_movement(st, &st->u[b]) == 5 &&
	   oc_movement(st, &st->u[c]) == 4 && oc_movement(st, &st->u[d]) == 6 &&
	   oc_movement(st, &st->u[e]) == 5, "4 base, +1 promoted, +1 Cavalry, -1 Slow(1), +1 Fast(1)");
	}
	oc_ruleset.free(st);

	ROW("RULINGS.md, Officers Chess O3 (Proficiencies up to the bracket level); " TEXT
	    "Units, Proficiencies; Weapons, Level");
	st = make(NULL);
	OK(run(st, 0, recruit("Ana", "Archer", "Steel Bow", "Killer Bow", NULL)) == 0,
	   "Archer Bow[B] takes a level B bow");
	OK(refused(st, 0, recruit("Bo", "Archer", "Silver Bow", NULL, NULL), "not-proficient"),
	   "level A bow refused");
	OK(refused(st, 0, recruit("Bo", "Archer", "Steel Sword", NULL, NULL), "not-proficient"),
	   "a sword refused");
	OK(run(st, 0, recruit("Cy", "Thief", "Cinquedea", NULL, NULL)) == 0,
	   "Thief Knife[S] uses Daggers up to S");
	OK(run(st, 0, recruit("Di", "Martial Monk", "Mend", "Steel-Hand Art", "Vulnerary")) == 0,
	   "Staff[B] Arts[C]: three items, one a consumable");
	oc_ruleset.free(st);

	ROW("RULINGS.md, Officers Chess O4 (army: names, classes, items, promoted option)");
	st = make("{\"units\":2}");
	OK(refused(st, 0, recruit("", "Archer", NULL, NULL, NULL), "bad-name"), "a name is needed");
	OK(refused(st, 0, recruit("Ber", "Berserker", "Steel Axe", NULL, NULL),
	           "promoted-not-allowed"), "promoted classes only with the option");
	OK(refused(st, 0, recruit("Ae", "Sword Armor", "Aegis Shield", NULL, NULL),
	           "item-not-offered"), "O1: an item with undefined tags is not offered");
	OK(refused(st, 0, recruit("No", "Sage", "Nodus", NULL, NULL), NULL),
	   "Nodus (no Special Action) is not offered");
	OK(run(st, 0, recruit("Ana", "Archer", NULL, NULL, NULL)) == 0, "a unit without items");
	OK(refused(st, 0, recruit("Ana", "Mage", "Elfire", NULL, NULL), "duplicate-name"),
	   "names are unique in an army");
	OK(run(st, 0, recruit("Bea", "Mage", "Elfire", NULL, NULL)) == 0 && st->ready[0],
	   "the army is ready at `units` units");
	OK(refused(st, 0, recruit("Cid", "Mage", "Elfire", NULL, NULL), "not-awaited"),
	   "a ready seat is not awaited");
	struct oc_action army = act(OC_A_ARMY);
	army.nrec = 1;
	army.rec[0] = recruit("X", "Thief", "Steel Dagger", NULL, NULL).rec[0];
	OK(refused(st, 1, army, "wrong-size"), "army: exactly `units` units");
	army.nrec = 2;
	army.rec[1] = recruit("Y", "Dancer", "Steel-Hand Art", NULL, NULL).rec[0];
	OK(run(st, 1, army) == 0 && st->phase == OC_PH_DEPLOY, "army in one post; both in: deploy");
	oc_ruleset.free(st);
	st = make("{\"promoted\":true}");
	OK(run(st, 0, recruit("Ber", "Berserker", "Silver Axe", NULL, NULL)) == 0,
	   "promoted classes with the option");
	oc_ruleset.free(st);

	ROW("Issue 11: the legal list offers at least one recruit per class");
	for (int p = 0; p < 2; p++) {
		st = make(p ? "{\"promoted\":true}" : NULL);
		struct wr_list l;
		legal_list(st, 0, &l);
		for (int c = 0; c < oc_nclasses; c++) {
			int found = 0;
			for (size_t i = 0; i < l.len; i++) {
				const struct oc_action *x = wr_list_at(&l, i);
				found |= x->type == OC_A_RECRUIT && x->rec[0].cls == c;
			}
			OK(found == (p || !oc_classes[c].promoted), "%s listed", oc_classes[c].id);
		}
		wr_list_free(&l);
		oc_ruleset.free(st);
	}
}

static void
deploy_rows(void)
{
	ROW("RULINGS.md G4, Officers Chess O5, O6, O14 (options at creation: maps, grids, "
	    "activations, marks)");
	static const char *const bad_opts[] = {
		"{\"map\":\"moon\"}",
		"{\"map\":\"custom\"}",
		"{\"map\":\"custom\",\"grid\":\"........\"}",
		"{\"map\":\"custom\",\"grid\":\"......../......../......../......../......../......../......../.......Q\"}",
		"{\"map\":\"custom\",\"grid\":\"DDDDDDDD/DDDDDDDD/......../......../......../......../......../........\"}",
		"{\"activations\":\"0\"}",
		"{\"activations\":\"1,5\"}",
		"{\"activations\":\"1,2,3\"}",
		"{\"marks\":\"d8\"}",
		"{\"scenario\":\"seize\",\"marks\":\"z9\"}",
		"{\"scenario\":\"conquest\"}",
		"{\"units\":13}",
		"{\"grid\":\"......../......../......../......../......../......../......../........\"}",
		"{\"colour\":1}",
	};
	for (size_t k = 0; k < sizeof(bad_opts) / sizeof(bad_opts[0]); k++) {
		json_object *o = json_tokener_parse(bad_opts[k]);
		struct wr_rng r2;
		uint64_t s2;
		void *x = NULL;
		wr_rng_seeded(&r2, &s2, 1);
		OK(oc_ruleset.create(o, 2, &r2, &x, &err) != 0, "refused: %s", bad_opts[k]);
		json_object_put(o);
	}
	{
		struct oc_state *m = make("{\"scenario\":\"raze\",\"scenario_seat\":1,\"map\":\"keep\","
		                          "\"activations\":\"1,3\"}");
		OK(m->mark[sq("c3")] && m->mark[sq("f3")] && m->act[0] == 1 && m->act[1] == 3 &&
		   m->terrain[sq("d6")] == OC_TR_GATE && m->terrain[sq("d4")] == OC_TR_ICE,
		   "Raze marks mirrored for seat 1; the keep map's gates and ice");
		oc_ruleset.free(m);
		struct wr_rng r2;
		uint64_t s2;
		void *x = NULL;
		wr_rng_seeded(&r2, &s2, 1);
		OK(oc_ruleset.create(NULL, 3, &r2, &x, &err) != 0, "two seats only");
	}

	ROW("RULINGS.md G1, Officers Chess O5 (seat 0 deploys on ranks 1-2, seat 1 on 7-8; secret)");
	struct oc_state *st = make("{\"units\":1,\"map\":\"custom\",\"grid\":"
	                           "\"......../......../......../......../......../"
	                           "......../......../D.......\"}");
	run(st, 0, recruit("A", "Archer", "Steel Bow", NULL, NULL));
	run(st, 1, recruit("B", "Mage", "Elfire", NULL, NULL));
	struct oc_action d = act(OC_A_DEPLOY);
	snprintf(d.unit, sizeof(d.unit), "A");
	d.to = sq("c3");
	OK(refused(st, 0, d, "outside-zone"), "rank 3 is outside seat 0's zone");
	d.to = sq("a1");
	OK(refused(st, 0, d, "impassable"), "not on a Gate/Door");
	d.to = sq("c2");
	OK(run(st, 0, d) == 0, "c2 is in the zone");
	json_object *v = oc_ruleset.view(st, 1);
	OK(json_object_array_length(json_object_object_get(v, "units")) == 1,
	   "seat 1 sees only its own unit while deploying");
	json_object_put(v);
	OK(event(OC_E_DEPLOYED)->vis == 1u, "the deployed event is seat 0's only");
	snprintf(d.unit, sizeof(d.unit), "B");
	d.to = sq("c2");
	OK(refused(st, 1, d, "outside-zone"), "seat 1 deploys on ranks 7-8");
	d.to = sq("c7");
	OK(run(st, 1, d) == 0 && st->phase == OC_PH_BATTLE && st->round == 1,
	   "simultaneous: the battle starts when both are in");
	oc_ruleset.free(st);
}

static void
round_rows(void)
{
	ROW("RULINGS.md, Officers Chess O6 (alternation, activations 1,3, skipping); " TEXT "Rounds");
	struct oc_state *st = make("{\"activations\":\"1,3\"}");
	put_unit(st, 0, "Archer", "a1", "Steel Bow", NULL, NULL);
	put_unit(st, 0, "Archer", "b1", "Steel Bow", NULL, NULL);
	for (int k = 0; k < 4; k++) {
		char s[3] = {(char)('a' + k), '8', 0};
		put_unit(st, 1, "Mage", s, "Elfire", NULL, NULL);
	}
	battle(st, 0);
	OK(refused(st, 1, activate("a8"), "not-awaited"), "seat 0 first");
	OK(refused(st, 0, move("a1", "a2"), "no-active-unit"), "activate first");
	OK(run(st, 0, activate("a1")) == 0, "seat 0 activates one unit");
	OK(refused(st, 0, activate("b1"), "unit-active"), "one unit at a time");
	run(st, 0, unit_act(OC_A_END, "a1"));
	OK(oc_to_act(st) == 2u, "then seat 1");
	for (int k = 0; k < 3; k++) {
		char s[3] = {(char)('a' + k), '8', 0};
		OK(run(st, 1, activate(s)) == 0, "seat 1 activates %d of 3", k + 1);
		run(st, 1, unit_act(OC_A_END, s));
	}
	OK(oc_to_act(st) == 1u, "after three, seat 0 again");
	OK(refused(st, 0, activate("a1"), "already-activated"), "a unit moves once a round");
	run(st, 0, activate("b1"));
	run(st, 0, unit_act(OC_A_END, "b1"));
	OK(oc_to_act(st) == 2u, "seat 1's last unit");
	run(st, 1, activate("d8"));
	run(st, 1, unit_act(OC_A_END, "d8"));
	OK(st->round == 2 && has_event(OC_E_ROUND) && oc_to_act(st) == 1u,
	   "every unit activated: round 2, seat 0 first");
	oc_ruleset.free(st);
}

static void
move_rows(void)
{
	struct oc_state *st;

	ROW(TEXT "Combat Turns, Move; RULINGS.md O7 (tile costs, through allies, not enemies)");
	st = make(NULL);
	put_unit(st, 0, "Sword Fighter", "a1", "Steel Sword", NULL, NULL);
	put_unit(st, 0, "Archer", "a2", "Steel Bow", NULL, NULL);
	put_unit(st, 1, "Mage", "c1", "Elfire", NULL, NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
	set_tile(st, "a3", OC_TR_WOODS);
	battle(st, 0);
	run(st, 0, activate("a1"));
	OK(refused(st, 0, move("a1", "a2"), "occupied"), "never ending on an ally");
	OK(refused(st, 0, move("a1", "a5"), "unreachable"), "through an ally but Woods cost 2: a5 costs 5");
	OK(refused(st, 0, move("a1", "d1"), "unreachable"), "not through an enemy (c1), around costs 5");
	OK(refused(st, 0, move("a1", "c1"), "occupied"), "not onto an enemy");
	OK(run(st, 0, move("a1", "a4")) == 0 && st->u[0].sq == sq("a4"), "a2 ally 1, a3 Woods 2, a4 1: 4");
	OK(refused(st, 0, move("a4", "a5"), "already-moved"), "one Move per turn");
	oc_ruleset.free(st);

	ROW("Class Tags, Flying: ignores terrain (Mountain costs 1)");
	st = make(NULL);
	put_unit(st, 0, "Sword Flier", "a1", "Steel Sword", NULL, NULL);
	put_unit(st, 0, "Sword Fighter", "h1", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
	for (int r = 2; r <= 5; r++) {
		char s[3] = {'a', (char)('0' + r), 0};
		set_tile(st, s, OC_TR_MOUNTAIN);
	}
	battle(st, 0);
	run(st, 0, activate("a1"));
	OK(run(st, 0, move("a1", "a5")) == 0, "four Mountains for 4");
	run(st, 0, unit_act(OC_A_END, "a5"));
	run(st, 1, activate("h8"));
	run(st, 1, unit_act(OC_A_END, "h8"));
	run(st, 0, activate("h1"));
	set_tile(st, "h2", OC_TR_MOUNTAIN);
	set_tile(st, "h3", OC_TR_MOUNTAIN);
	set_tile(st, "g1", OC_TR_MOUNTAIN);
	OK(refused(st, 0, move("h1", "h4"), "unreachable"), "a walker pays 2 for a Mountain");
	oc_ruleset.free(st);

	ROW("Terrain Table, Gate/Door and Ice: block until destroyed (O7)");
	st = make(NULL);
	put_unit(st, 0, "Sword Flier", "a1", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
	set_tile(st, "a2", OC_TR_GATE);
	set_tile(st, "b1", OC_TR_ICE);
	battle(st, 0);
	run(st, 0, activate("a1"));
	OK(refused(st, 0, move("a1", "a2"), "unreachable"), "Gate/Door blocks even a flier");
	OK(refused(st, 0, move("a1", "c1"), "unreachable"), "Ice blocks; b2 is behind both");
	oc_ruleset.free(st);

	ROW("Class Tags, Canto: 2 tiles after the Action; no Move after it otherwise");
	st = make(NULL);
	put_unit(st, 0, "Sword Fighter", "d4", "Steel Sword", NULL, "Fetters of Dromi");
	put_unit(st, 0, "Sword Fighter", "a1", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Axe Armor", "d5", "Steel Axe", NULL, NULL);
	put_unit(st, 1, "Axe Armor", "a3", "Steel Axe", NULL, NULL);
	battle(st, 0);
	run(st, 0, activate("d4"));
	dice(4, 100, 100, 100, 100);
	OK(run(st, 0, attack("d4", "d5", 0)) == 0 && st->canto == 2, "attack, then Canto 2");
	OK(refused(st, 0, move("d4", "d1"), "unreachable"), "Canto is 2 tiles");
	OK(run(st, 0, move("d4", "d2")) == 0, "2 tiles after the Action");
	OK(refused(st, 0, move("d2", "d1"), "already-acted"), "Canto once");
	run(st, 0, unit_act(OC_A_END, "d2"));
	run(st, 1, activate("a3"));
	run(st, 1, unit_act(OC_A_END, "a3"));
	run(st, 0, activate("a1"));
	dice(4, 100, 100, 100, 100);
	run(st, 0, move("a1", "a2"));
	OK(run(st, 0, attack("a2", "a3", 0)) == 0 && refused(st, 0, move("a2", "b2"), "already-acted"),
	   "no Move after the Action without Canto");
	oc_ruleset.free(st);
}

static void
combat_rows(void)
{
	struct oc_state *st;
	const struct oc_event *e;

	ROW(TEXT "Counter Attack: in range only (a Bow at 2 vs a Sword)");
	st = duel("Archer", "Steel Bow", "d3", "Sword Fighter", "Steel Sword", "d5");
	dice(2, 1, 1);
	OK(run(st, 0, attack("d3", "d5", 0)) == 0, "the bow reaches 2");
	e = event(OC_E_COMBAT);
	OK(e && e->nstrikes == 1 && e->strikes[0].crit, "one strike, no counter; roll 1 crits");
	OK(refused(st, 0, attack("d3", "d5", 0), "already-acted"), "one Action per turn");
	oc_ruleset.free(st);

	ROW(TEXT "Follow Up: Agility 10 (two Ratings) above; RULINGS.md O11");
	st = duel("Thief", "Steel Dagger", "d4", "Axe Armor", "Steel Axe", "d5");
	struct oc_forecast f;
	oc_forecast(st, 0, 1, -1, &f);
	OK(f.att.strikes == 2 && f.att.follow_up && f.def.strikes == 1, "Thief B(15) vs Armor E(0)");
	dice(3, 100, 100, 100);
	run(st, 0, attack("d4", "d5", 0));
	e = event(OC_E_COMBAT);
	OK(e && e->nstrikes == 3 && e->strikes[0].by_attacker && !e->strikes[1].by_attacker &&
	   e->strikes[2].by_attacker, "attack, counter, follow-up");
	oc_ruleset.free(st);

	ROW("Weapon Tags, Brave: twice each time (attack and follow-up)");
	st = duel("Martial Monk", "Steel-Hand Art", "d4", "Axe Armor", "Steel Axe", "d5");
	oc_forecast(st, 0, 1, -1, &f);
	OK(f.att.strikes == 2 && f.def.strikes == 1, "Monk D(5) vs Armor E(0): 5 apart, no follow-up");
	oc_ruleset.free(st);
	st = duel("Martial Monk", "Steel-Hand Art", "d4", "Lance Armor", "Steel Lance", "d5");
	dice(3, 100, 100, 100);
	run(st, 0, attack("d4", "d5", 0));
	e = event(OC_E_COMBAT);
	OK(e && e->nstrikes == 3 && e->strikes[1].by_attacker, "Brave: two strikes then the counter");
	oc_ruleset.free(st);

	ROW("Weapon Tags, Heavy: strikes second, never follows up, pushes back");
	st = duel("Sword Fighter", "Steel Blade", "d4", "Lance Fighter", "Steel Lance", "d5");
	oc_forecast(st, 0, 1, -1, &f);
	OK(f.heavy_first && f.att.strikes == 1, "the defender strikes first");
	dice(2, 100, 50);
	run(st, 0, attack("d4", "d5", 0));
	e = event(OC_E_COMBAT);
	OK(e && e->nstrikes == 2 && !e->strikes[0].by_attacker && e->strikes[1].hit &&
	   e->strikes[1].pushed_to == sq("d6") && st->u[1].sq == sq("d6"), "hit: pushed to d6");
	oc_ruleset.free(st);

	ROW("Weapon Tags, Complex: no follow-up even when faster");
	st = duel("Mage", "Elthunder", "d4", "Axe Armor", "Steel Axe", "d6");
	oc_forecast(st, 0, 1, -1, &f);
	OK(f.att.strikes == 1 && !f.att.follow_up, "Elthunder never follows up");
	oc_ruleset.free(st);

	ROW(TEXT "The Weapon Triangle: Broken on damage, loses the counter; RULINGS.md O12");
	st = duel("Lance Fighter", "Steel Lance", "d4", "Sword Fighter", "Steel Sword", "d5");
	dice(2, 50, 50);
	run(st, 0, attack("d4", "d5", 0));
	e = event(OC_E_COMBAT);
	OK(e && e->nstrikes == 1 && e->strikes[0].broke && st->u[1].broken,
	   "Lance beats Sword: Broken, no counter");
	run(st, 0, unit_act(OC_A_END, "d4"));
	OK(run(st, 1, activate("d5")) == 0 && !st->u[1].broken, "activating clears Broken");
	oc_ruleset.free(st);
	st = duel("Lance Fighter", "Steel Lance", "d4", "Sword Armor", "Steel Sword", "d5");
	dice(2, 50, 100);
	run(st, 0, attack("d4", "d5", 0));
	e = event(OC_E_COMBAT);
	OK(e && e->nstrikes == 2 && !st->u[1].broken, "Class Tags, Armor: cannot be Broken");
	oc_ruleset.free(st);
	st = duel("Lance Fighter", "Steel Lance", "d4", "Sword Fighter", "Steel Sword", "d5");
	dice(2, 100, 100);
	run(st, 0, attack("d4", "d5", 0));
	OK(!st->u[1].broken, "a miss deals no damage: not Broken");
	oc_ruleset.free(st);

	ROW("Status Effects, Broken: no counter in its next combat, then cured");
	st = duel("Sword Fighter", "Steel Sword", "d4", "Sword Fighter", "Steel Sword", "d5");
	st->u[1].broken = 1;
	dice(2, 100, 100);
	run(st, 0, attack("d4", "d5", 0));
	e = event(OC_E_COMBAT);
	OK(e && e->nstrikes == 1 && !st->u[1].broken, "no counter, cured after the combat");
	oc_ruleset.free(st);

	ROW("Class Tags, Backup: +3 once per combat when an ally could attack the target");
	st = duel("Sword Fighter", "Steel Sword", "d4", "Sword Fighter", "Steel Sword", "d5");
	put_unit(st, 0, "Axe Fighter", "e4", "Hand Axe", NULL, NULL);   /* e4-d5: 2, Hand Axe 1~2 */
	oc_forecast(st, 0, 1, -1, &f);
	OK(f.backup, "Axe Fighter (Backup) reaches d5 with a Hand Axe at 2");
	oc_ruleset.free(st);
	st = duel("Sword Fighter", "Steel Sword", "d4", "Lance Armor", "Steel Lance", "d5");
	put_unit(st, 0, "Axe Fighter", "e5", "Steel Axe", NULL, NULL);
	oc_forecast(st, 0, 1, -1, &f);
	OK(f.backup, "Axe Fighter next to the target");
	dice(2, 50, 100);
	run(st, 0, attack("d4", "d5", 0));
	e = event(OC_E_COMBAT);
	int hit, crit, dmg, cdmg;
	oc_strike_numbers(st, 0, 1, 0, &hit, &crit, &dmg, &cdmg);
	OK(e && e->strikes[0].dmg == dmg + 3, "+3 damage (%d vs %d)", e ? e->strikes[0].dmg : -1,
	   dmg);
	oc_ruleset.free(st);

	ROW("Status Effects, Poisoned: +1 damage; Weapon Tags, Status(Poisoned)");
	st = duel("Thief", "Steel Dagger", "d4", "Sword Fighter", "Steel Sword", "d5");
	oc_strike_numbers(st, 0, 1, 0, &hit, &crit, &dmg, &cdmg);
	dice(3, 50, 100, 100);
	run(st, 0, attack("d4", "d5", 0));
	e = event(OC_E_COMBAT);
	OK(st->u[1].poisoned && e->strikes[0].status == OC_ST_POISONED, "a hit poisons");
	int hit2, crit2, dmg2, cdmg2;
	oc_strike_numbers(st, 0, 1, 0, &hit2, &crit2, &dmg2, &cdmg2);
	OK(dmg2 == dmg + 1, "attacks against it deal 1 more");
	oc_ruleset.free(st);

	ROW(TEXT "Dealing Damage, Routed: HP 0 leaves the map; RULINGS.md O14 rout");
	st = make(NULL);
	put_unit(st, 0, "Sword Fighter", "d4", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "d5", "Elfire", NULL, NULL);
	battle(st, 0);
	st->u[1].hp = 1;
	run(st, 0, activate("d4"));
	dice(1, 50);
	OK(run(st, 0, attack("d4", "d5", 0)) == 0 && st->u[1].where == OC_W_ROUTED &&
	   st->phase == OC_PH_OVER && st->winners == 1 && st->reason == OC_R_ROUT,
	   "the last enemy routed: seat 0 wins");
	OK(has_event(OC_E_ROUTED) && has_event(OC_E_OVER), "routed and game_over events");
	oc_ruleset.free(st);

	ROW("Special note: staves never counter; a unit with no weapon does not counter");
	st = duel("Sword Fighter", "Steel Sword", "d4", "Martial Monk", "Heal", "d5");
	oc_forecast(st, 0, 1, -1, &f);
	OK(!f.def.can_strike, "a Heal staff cannot counter");
	oc_ruleset.free(st);
}

static void
terrain_rows(void)
{
	struct oc_state *st;

	ROW(TEXT "Terrain Table: every row (Move, DR, Avo, Vein, Special)");
	static const struct { int t, move, dr, avo, vein, heal, burn; } tt[] = {
		{OC_TR_MOUNTAIN, 2, 1, 0, 0, 0, 0}, {OC_TR_WOODS, 2, 0, 5, 0, 0, 0},
		{OC_TR_PILLAR, 2, 0, 5, 0, 0, 0}, {OC_TR_THICKET, 2, 0, 5, 0, 0, 0},
		{OC_TR_FOG, 2, 0, 5, 1, 0, 0}, {OC_TR_FORT, 2, 2, 5, 0, 10, 0},
		{OC_TR_PROTECT, 1, 2, 5, 0, 10, 0}, {OC_TR_HEAL, 1, 0, 0, 1, 10, 0},
		{OC_TR_GATE, -1, 0, 0, 0, 0, 0}, {OC_TR_WATER, 1, 0, -5, 1, 0, 0},
		{OC_TR_STONE, 2, 2, 0, 1, 0, 0}, {OC_TR_VINES, 2, 0, 0, 1, 0, 0},
		{OC_TR_FLAMES, 1, 0, 0, 1, 0, 5}, {OC_TR_ICE, -1, 0, 0, 1, 0, 0},
		{OC_TR_PLAINS, 1, 0, 0, 0, 0, 0},
	};
	for (size_t i = 0; i < sizeof(tt) / sizeof(tt[0]); i++) {
		const struct oc_tile *t = &oc_tiles[tt[i].t];
		OK(t->move == tt[i].move && t->dr == tt[i].dr && t->avo == tt[i].avo &&
		   t->vein == tt[i].vein && t->heal == tt[i].heal && t->burn == tt[i].burn, "%s",
		   t->name);
	}
	/* Each tile's DR and Avo in a strike. */
	for (size_t i = 0; i < sizeof(tt) / sizeof(tt[0]); i++) {
		if (tt[i].move < 0)
			continue;
		st = make(NULL);
		put_unit(st, 0, "Sword Fighter", "d4", "Steel Sword", NULL, NULL);
		put_unit(st, 1, "Lance Fighter", "d5", "Steel Lance", NULL, NULL);
		battle(st, 0);
		int h0, c0, d0, x0, h1, c1, d1, x1;
		oc_strike_numbers(st, 0, 1, 0, &h0, &c0, &d0, &x0);
		set_tile(st, "d5", tt[i].t);
		oc_strike_numbers(st, 0, 1, 0, &h1, &c1, &d1, &x1);
		OK(h0 - h1 == tt[i].avo && d0 - d1 == tt[i].dr, "%s: Avo %d DR %d in combat",
		   oc_tiles[tt[i].t].name, h0 - h1, d0 - d1);
		oc_ruleset.free(st);
	}

	ROW("Terrain Table: Fort, Protection Tile, Heal Tile heal 10 at the start of turn; "
	    "Flames 5 Piercing; RULINGS.md O15");
	int heal_tiles[] = {OC_TR_FORT, OC_TR_PROTECT, OC_TR_HEAL};
	for (int k = 0; k < 3; k++) {
		st = make(NULL);
		put_unit(st, 0, "Sword Fighter", "d4", "Steel Sword", NULL, NULL);
		put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
		battle(st, 0);
		set_tile(st, "d4", heal_tiles[k]);
		st->u[0].hp = 5;
		run(st, 0, activate("d4"));
		OK(st->u[0].hp == 15 && has_event(OC_E_TILE), "%s heals 10",
		   oc_tiles[heal_tiles[k]].name);
		oc_ruleset.free(st);
	}
	st = make(NULL);
	put_unit(st, 0, "Sword Fighter", "d4", "Steel Sword", NULL, NULL);
	put_unit(st, 0, "Sword Fighter", "a1", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
	battle(st, 0);
	set_tile(st, "d4", OC_TR_FLAMES);
	run(st, 0, activate("d4"));
	OK(st->u[0].hp == 20 - 4, "Flames: 5 less DR as E (1) = 4");
	st->active = -1;
	st->u[0].hp = 2;
	st->u[0].activated = 0;
	st->left = 1;
	run(st, 0, activate("d4"));
	OK(st->u[0].where == OC_W_ROUTED && st->active == -1 && has_event(OC_E_ROUTED),
	   "Flames can rout; the turn passes");
	oc_ruleset.free(st);

	ROW("Terrain Table, Gate/Door: 15 Damage destroys it (Floor), or Pick");
	st = make(NULL);
	put_unit(st, 0, "Axe Armor", "d4", "Steel Axe", NULL, NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
	battle(st, 0);
	set_tile(st, "d5", OC_TR_GATE);
	run(st, 0, activate("d4"));
	OK(run(st, 0, attack("d4", "d5", 0)) == 0 && event(OC_E_TILE_HIT)->amount == 16 &&
	   st->terrain[sq("d5")] == OC_TR_FLOOR, "Axe Armor: 3+4+9 = 16 >= 15: Floor");
	oc_ruleset.free(st);
	st = make(NULL);
	put_unit(st, 0, "Thief", "d4", "Steel Dagger", NULL, NULL);
	put_unit(st, 0, "Sword Fighter", "a4", "Steel Sword", "Master Key", NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
	battle(st, 0);
	set_tile(st, "d5", OC_TR_GATE);
	set_tile(st, "a5", OC_TR_GATE);
	set_tile(st, "b4", OC_TR_ICE);
	run(st, 0, activate("d4"));
	struct oc_action p = unit_act(OC_A_PICK, "d4");
	p.target = sq("c4");
	OK(refused(st, 0, p, "no-target"), "Pick opens a Gate/Door");
	p.target = sq("d5");
	OK(run(st, 0, p) == 0 && st->terrain[sq("d5")] == OC_TR_FLOOR, "Thief picks the door");
	run(st, 0, unit_act(OC_A_END, "d4"));
	run(st, 1, activate("h8"));
	run(st, 1, unit_act(OC_A_END, "h8"));
	run(st, 0, activate("a4"));
	p = unit_act(OC_A_PICK, "a4");
	p.target = sq("a5");
	OK(run(st, 0, p) == 0 && st->u[1].item[1] == -1, "Master Key: Pick, Consumable(1)");
	oc_ruleset.free(st);

	ROW("Terrain Table, Ice: 15 Damage destroys; Vein(Ice) lasts the round (O15)");
	st = make(NULL);
	put_unit(st, 0, "Sage", "d4", "Obstruct", "Elfire", NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
	st->promoted = 1;
	battle(st, 0);
	run(st, 0, activate("d4"));
	OK(refused(st, 0, staff("d4", 0, "h8", NULL), "bad-target"), "Vein: an unoccupied tile");
	OK(run(st, 0, staff("d4", 0, "d6", NULL)) == 0 && st->terrain[sq("d6")] == OC_TR_ICE &&
	   st->u[0].uses[0] == 4, "Vein(Ice) on d6; Consumable(5) -> 4");
	run(st, 0, unit_act(OC_A_END, "d4"));
	run(st, 1, activate("h8"));
	run(st, 1, unit_act(OC_A_END, "h8"));
	OK(st->round == 2 && st->terrain[sq("d6")] == OC_TR_PLAINS && has_event(OC_E_VEIN_END),
	   "the end of the round restores the tile");
	oc_ruleset.free(st);
}

static void
staff_rows(void)
{
	struct oc_state *st;

	ROW("Special Action Tags, Heal(X): X + Mag Base Damage, up to full (O15)");
	st = make(NULL);
	put_unit(st, 0, "Martial Monk", "d4", "Mend", NULL, NULL);
	put_unit(st, 0, "Sword Fighter", "d5", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
	battle(st, 0);
	st->u[1].hp = 2;
	run(st, 0, activate("d4"));
	OK(refused(st, 0, staff("d4", 0, "h8", NULL), "out-of-range"), "Mend reaches 1");
	OK(run(st, 0, staff("d4", 0, "d5", NULL)) == 0 && st->u[1].hp == 2 + 10 + 7,
	   "Mend: 10 + Mag B (7)");
	oc_ruleset.free(st);

	ROW("Weapon Tags, AoE: Fortify heals every ally in range");
	st = make("{\"promoted\":true}");
	put_unit(st, 0, "High Priest", "d4", "Fortify", "Elfire", NULL);
	put_unit(st, 0, "Sword Fighter", "d6", "Steel Sword", NULL, NULL);
	put_unit(st, 0, "Sword Fighter", "b3", "Steel Sword", NULL, NULL);
	put_unit(st, 0, "Sword Fighter", "a1", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
	battle(st, 0);
	st->u[1].hp = st->u[2].hp = st->u[3].hp = 1;
	run(st, 0, activate("d4"));
	OK(run(st, 0, staff("d4", 0, NULL, NULL)) == 0 && st->u[1].hp == 19 && st->u[2].hp == 19 &&
	   st->u[3].hp == 1, "both within 5 healed 10 + Mag A (8); a1 (6 away) not");
	oc_ruleset.free(st);

	ROW("Use a Staff: enemy targets roll to hit; Freeze; Silence (Effect); never countered");
	st = make(NULL);
	put_unit(st, 0, "Martial Monk", "d4", "Freeze", "Silence", NULL);
	put_unit(st, 1, "Mage", "d7", "Elfire", "Heal", NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
	battle(st, 0);
	run(st, 0, activate("d4"));
	dice(1, 1);
	OK(run(st, 0, staff("d4", 0, "d7", NULL)) == 0 && st->u[1].frozen, "Freeze hits on 1");
	run(st, 0, unit_act(OC_A_END, "d4"));
	run(st, 1, activate("d7"));
	OK(refused(st, 1, move("d7", "d8"), "frozen"), "Frozen: cannot move on its next turn");
	run(st, 1, unit_act(OC_A_END, "d7"));
	OK(!st->u[1].frozen, "cured after that turn");
	oc_ruleset.free(st);
	st = make(NULL);
	put_unit(st, 0, "Martial Monk", "d4", "Silence", NULL, NULL);
	put_unit(st, 1, "Mage", "d7", "Elfire", NULL, NULL);
	battle(st, 0);
	run(st, 0, activate("d4"));
	dice(1, 100);
	OK(run(st, 0, staff("d4", 0, "d7", NULL)) == 0 && !st->u[1].silenced, "a miss: no effect");
	st->active = -1;
	st->u[0].activated = 0;
	st->cur = 0;
	st->left = 1;
	run(st, 0, activate("d4"));
	dice(1, 1);
	run(st, 0, staff("d4", 0, "d7", NULL));
	OK(st->u[1].silenced, "Silenced");
	run(st, 0, unit_act(OC_A_END, "d4"));
	run(st, 1, activate("d7"));
	OK(refused(st, 1, attack("d7", "d4", 0), "silenced"), "Silenced: no Tomes");
	oc_ruleset.free(st);

	ROW("Special Action Tags, Rescue, Warp, Rewarp, Entrap");
	st = make("{\"promoted\":true}");
	put_unit(st, 0, "Sage", "d4", "Rescue", "Warp", "Rewarp");
	put_unit(st, 0, "Sword Fighter", "d8", "Steel Sword", NULL, NULL);
	put_unit(st, 0, "Sword Fighter", "e4", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
	battle(st, 0);
	run(st, 0, activate("d4"));
	OK(refused(st, 0, staff("d4", 0, "d8", "d6"), "bad-destination"), "Rescue: next to the user");
	OK(run(st, 0, staff("d4", 0, "d8", "d5")) == 0 && st->u[1].sq == sq("d5"), "Rescue d8 -> d5");
	st->acted = 0;
	OK(run(st, 0, staff("d4", 1, "e4", "g4")) == 0 && st->u[2].sq == sq("g4"), "Warp the adjacent ally");
	st->acted = 0;
	OK(run(st, 0, staff("d4", 2, NULL, "b2")) == 0 && st->u[0].sq == sq("b2"), "Rewarp the user");
	oc_ruleset.free(st);
	st = make("{\"promoted\":true}");
	put_unit(st, 0, "High Priest", "d4", "Entrap", "Elfire", NULL);
	put_unit(st, 1, "Mage", "d7", "Elfire", NULL, NULL);
	battle(st, 0);
	run(st, 0, activate("d4"));
	dice(1, 1);
	OK(run(st, 0, staff("d4", 0, "d7", "c4")) == 0 && st->u[1].sq == sq("c4"),
	   "Entrap: moved next to the user on a hit");
	oc_ruleset.free(st);

	ROW("Special Action Tags, Torch(X): Illume; Consumables: Vulnerary, Antitoxin (Restore), "
	    "Pure Water (Status Effects, Barrier)");
	st = make("{\"fog\":true}");
	put_unit(st, 0, "Martial Monk", "a1", "Illume", "Vulnerary", "Antitoxin");
	put_unit(st, 1, "Mage", "a7", "Elfire", "Pure Water", NULL);
	battle(st, 0);
	OK(!oc_visible(st, 0, 1), "a7 is 6 away: unseen");
	run(st, 0, activate("a1"));
	OK(run(st, 0, staff("a1", 0, NULL, NULL)) == 0 && oc_visible(st, 0, 1), "Torch(7) reveals it");
	st->acted = 0;
	OK(refused(st, 0, unit_act(OC_A_USE, "a1"), NULL), "use needs a slot");
	struct oc_action use = unit_act(OC_A_USE, "a1");
	use.slot = 1;
	OK(refused(st, 0, use, "full-health"), "no Vulnerary at full health");
	st->u[0].hp = 1;
	OK(run(st, 0, use) == 0 && st->u[0].hp == 1 + 5 + 7 && st->u[0].item[1] == -1,
	   "Vulnerary: Heal(5) + Mag, used up");
	st->acted = 0;
	st->u[0].poisoned = 1;
	use.slot = 2;
	OK(run(st, 0, use) == 0 && !st->u[0].poisoned, "Antitoxin: Restore");
	run(st, 0, unit_act(OC_A_END, "a1"));
	run(st, 1, activate("a7"));
	use = unit_act(OC_A_USE, "a7");
	use.slot = 1;
	int r0 = oc_rating(st, &st->u[1], OC_RES);
	OK(run(st, 1, use) == 0 && oc_rating(st, &st->u[1], OC_RES) == r0 + 1,
	   "Pure Water: Barrier, Res +1");
	st->round = 2;
	OK(oc_rating(st, &st->u[1], OC_RES) == r0 + 1, "until the end of next round");
	st->round = 3;
	OK(oc_rating(st, &st->u[1], OC_RES) == r0, "then gone");
	oc_ruleset.free(st);

	ROW(TEXT "Special Action Tags, Restore: Antitoxin removes any Status Effect tag "
	    "(Status Effects: Barrier, Broken, Poisoned, Silenced)");
	st = make(NULL);
	put_unit(st, 0, "Mage", "a1", "Elfire", "Pure Water", "Antitoxin");
	put_unit(st, 0, "Mage", "c1", "Elfire", "Antitoxin", NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", "Antitoxin", NULL);
	battle(st, 0);
	run(st, 0, activate("a1"));
	use = unit_act(OC_A_USE, "a1");
	use.slot = 1;
	r0 = oc_rating(st, &st->u[0], OC_RES);
	OK(run(st, 0, use) == 0 && oc_rating(st, &st->u[0], OC_RES) == r0 + 1, "Pure Water: Barrier");
	st->acted = 0;
	st->u[0].poisoned = 1;
	use.slot = 2;
	OK(run(st, 0, use) == 0 && !st->u[0].poisoned && oc_rating(st, &st->u[0], OC_RES) == r0,
	   "Barrier and Poisoned: Antitoxin removes both");
	json_object *uv = oc_ruleset.view(st, 0);
	json_object *u0 = json_object_array_get_idx(json_object_object_get(uv, "units"), 0);
	OK(json_object_array_length(json_object_object_get(u0, "status")) == 0,
	   "the view lists no status");
	json_object_put(uv);
	run(st, 0, unit_act(OC_A_END, "a1"));
	run(st, 1, activate("h8"));
	run(st, 1, unit_act(OC_A_END, "h8"));
	run(st, 0, activate("c1"));
	st->u[1].barrier = st->round + 1;
	use = unit_act(OC_A_USE, "c1");
	use.slot = 1;
	OK(run(st, 0, use) == 0 && st->u[1].barrier == 0, "Barrier alone: Antitoxin is accepted");
	st->acted = 0;
	st->u[1].item[1] = oc_item_find("Antitoxin");
	st->u[1].uses[1] = 1;
	st->u[1].broken = 1;      /* as if struck with advantage during this turn */
	OK(run(st, 0, use) == 0 && !st->u[1].broken, "Broken alone: Antitoxin is accepted");
	st->acted = 0;
	st->u[1].item[1] = oc_item_find("Antitoxin");
	st->u[1].uses[1] = 1;
	st->round = 3;
	st->u[1].barrier = 2;     /* it held through round 2: gone */
	OK(refused(st, 0, use, "no-status"), "an expired Barrier is no status");
	oc_ruleset.free(st);

	ROW("Special Action Tags, Dance: an adjacent activated ally acts again (O15); " TEXT
	    "Use a Special Action");
	st = make(NULL);
	put_unit(st, 0, "Dancer", "d4", "Steel-Hand Art", NULL, NULL);
	put_unit(st, 0, "Sword Fighter", "d5", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
	battle(st, 0);
	st->act[0] = 2;
	st->left = 2;
	run(st, 0, activate("d5"));
	run(st, 0, unit_act(OC_A_END, "d5"));
	run(st, 0, activate("d4"));
	struct oc_action dance = unit_act(OC_A_DANCE, "d4");
	dance.target = sq("d5");
	OK(run(st, 0, dance) == 0 && !st->u[1].activated && st->u[1].danced, "danced");
	run(st, 0, unit_act(OC_A_END, "d4"));
	run(st, 1, activate("h8"));
	run(st, 1, unit_act(OC_A_END, "h8"));
	OK(run(st, 0, activate("d5")) == 0, "the danced unit activates again");
	oc_ruleset.free(st);

	ROW(TEXT "Free Actions: Equip, Discard, Trade (one partner per turn)");
	st = make(NULL);
	put_unit(st, 0, "Sword Fighter", "d4", "Steel Sword", "Armorslayer", "Iron Shield");
	put_unit(st, 0, "Sword Fighter", "d5", "Steel Sword", NULL, NULL);
	put_unit(st, 0, "Sword Fighter", "c4", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
	battle(st, 0);
	run(st, 0, activate("d4"));
	struct oc_action eq = unit_act(OC_A_EQUIP, "d4");
	eq.slot = 1;
	OK(run(st, 0, eq) == 0 && st->u[0].equip == 1, "Equip Armorslayer");
	OK(st->u[0].acc == 2 && oc_agility(st, &st->u[0]) == 5 - 5 - 2,
	   "Iron Shield: Agility - Wt 2 (with Armorslayer -5)");
	struct oc_action tr = unit_act(OC_A_TRADE, "d4");
	tr.with = sq("d5");
	tr.give = 2;
	OK(run(st, 0, tr) == 0 && st->u[1].item[1] >= 0 && st->u[0].item[2] == -1, "give the shield");
	tr.with = sq("c4");
	OK(refused(st, 0, tr, "already-traded"), "one partner per turn");
	struct oc_action dc = unit_act(OC_A_DISCARD, "d4");
	dc.slot = 0;
	OK(run(st, 0, dc) == 0 && st->u[0].item[0] == -1, "Discard");
	oc_ruleset.free(st);
}

static void
fog_rows(void)
{
	struct oc_state *st;

	ROW("RULINGS.md, Officers Chess O13 (fog: hidden, not targetable, same errors)");
	st = make("{\"fog\":true,\"promoted\":true}");
	put_unit(st, 0, "Sage", "a1", "Meteor", NULL, NULL);
	put_unit(st, 1, "Mage", "a6", "Elfire", NULL, NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
	battle(st, 0);
	OK(!oc_visible(st, 0, 1) && !oc_visible(st, WR_SPECTATOR, 1) && oc_visible(st, 1, 1),
	   "a6 is 5 away: hidden from seat 0 and spectators");
	run(st, 0, activate("a1"));
	OK(refused(st, 0, attack("a1", "a6", 0), "no-target"), "unseen: cannot be targeted (Meteor 3~7)");
	char m1[256];
	snprintf(m1, sizeof(m1), "%s", err.message);
	OK(refused(st, 0, attack("a1", "b6", 0), "no-target") && strcmp(m1, err.message) == 0,
	   "the same refusal as an empty tile");
	oc_ruleset.free(st);

	ROW("RULINGS.md, Officers Chess O13 (a move into an unseen enemy stops short)");
	st = make("{\"fog\":true}");
	put_unit(st, 0, "Sword Cavalier", "a1", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "a5", "Elfire", NULL, NULL);
	battle(st, 0);
	run(st, 0, activate("a1"));
	OK(run(st, 0, move("a1", "a6")) == 0 && st->u[0].sq == sq("a4") && has_event(OC_E_AMBUSH),
	   "the path ran into a5: stopped on a4");
	oc_ruleset.free(st);

	ROW("RULINGS.md G5 (fog: events of unseen units carry nothing of them)");
	st = make("{\"fog\":true}");
	put_unit(st, 0, "Sword Fighter", "a1", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
	battle(st, 1);
	run(st, 1, activate("h8"));
	run(st, 1, move("h8", "h6"));
	int seen0 = 0;
	for (size_t i = 0; i < ev.len; i++) {
		const struct oc_event *x = wr_list_at(&ev, i);
		if (x->vis == WR_VIS_PUBLIC || (x->vis & 1u))
			seen0++;
	}
	OK(seen0 == 0, "seat 0 gets no event of a move it cannot see");
	oc_ruleset.free(st);

	ROW("RULINGS.md G5 / O13 (fog: a Warp seen leaving tells no seat where it went unseen)");
	st = make("{\"fog\":true,\"promoted\":true}");
	put_unit(st, 0, "Sage", "d4", "Rescue", "Warp", "Rewarp");
	put_unit(st, 0, "Sword Fighter", "d5", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "d8", "Elfire", NULL, NULL);
	battle(st, 0);
	OK(oc_seat_sees(st, 1, sq("d5")) && !oc_seat_sees(st, 1, sq("d1")),
	   "seat 1 sees d5, not d1");
	run(st, 0, activate("d4"));
	OK(run(st, 0, staff("d4", 1, "d5", "d1")) == 0 && st->u[1].sq == sq("d1"), "Warp d5 -> d1");
	int told_seat1 = 0, told_seat0 = 0;
	for (size_t i = 0; i < ev.len; i++) {
		const struct oc_event *x = wr_list_at(&ev, i);
		if (x->type != OC_E_STAFF || x->special != OC_SP_WARP)
			continue;
		if ((x->vis & 2u) && x->amount >= 0)
			told_seat1++;
		if ((x->vis & 1u) && x->amount == sq("d1"))
			told_seat0++;
	}
	OK(told_seat1 == 0, "seat 1's event has no moved_to of the unit it cannot see any more");
	OK(told_seat0 == 1, "seat 0's event says where its unit went");
	oc_ruleset.free(st);

	ROW("RULINGS.md G5 / O13 (fog: a Fortify, Illume or Vein by an unseen unit tells a seat "
	    "only the HP of the units it sees and the public terrain)");
	st = make("{\"fog\":true,\"promoted\":true}");
	put_unit(st, 0, "High Priest", "a1", "Fortify", "Illume", "Obstruct");
	put_unit(st, 0, "Sword Fighter", "a5", "Steel Sword", NULL, NULL);
	put_unit(st, 0, "Sword Fighter", "b2", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "a8", "Elfire", NULL, NULL);
	battle(st, 0);
	st->u[1].hp = st->u[2].hp = 1;
	OK(oc_seat_sees(st, 1, sq("a5")) && !oc_seat_sees(st, 1, sq("a1")) &&
	   !oc_seat_sees(st, 1, sq("b2")), "seat 1 sees a5, not a1 or b2");
	run(st, 0, activate("a1"));
	OK(run(st, 0, staff("a1", 0, NULL, NULL)) == 0 && st->u[1].hp == 19 && st->u[2].hp == 19,
	   "Fortify heals a5 and b2 by 18 each");
	int mine = 0, theirs = 0, spect = 0;
	for (size_t i = 0; i < ev.len; i++) {
		const struct oc_event *x = wr_list_at(&ev, i);
		if (x->type != OC_E_STAFF)
			continue;
		spect += x->vis == WR_VIS_PUBLIC;
		mine += x->vis == 1u && x->unit == 0 && x->item >= 0 && x->amount == 36;
		theirs += x->vis == 2u && x->unit == -1 && x->from == -1 && x->item == -1 &&
		          x->amount == 18;
	}
	OK(mine == 1 && theirs == 1 && spect == 0, "seat 0 told all (36 healed); seat 1 only a5's "
	   "18, not the user nor its staff; spectators nothing (%d %d %d)", mine, theirs, spect);
	st->u[2].sq = sq("a2");   /* now nothing of seat 0 healed is in seat 1's sight */
	st->u[1].sq = sq("b1");
	st->u[1].hp = 1;
	st->acted = 0;
	st->u[0].item[0] = oc_item_find("Fortify");
	st->u[0].uses[0] = 3;
	OK(run(st, 0, staff("a1", 0, NULL, NULL)) == 0 && st->u[1].hp == 19, "Fortify heals b1");
	int told = 0;
	for (size_t i = 0; i < ev.len; i++)
		told += (((const struct oc_event *)wr_list_at(&ev, i))->vis & 2u) != 0;
	OK(told == 0, "seat 1 sees nothing of it: no event");
	st->acted = 0;
	OK(run(st, 0, staff("a1", 1, NULL, NULL)) == 0 && st->ntorch == 1, "Illume");
	told = 0;
	for (size_t i = 0; i < ev.len; i++)
		told += (((const struct oc_event *)wr_list_at(&ev, i))->vis & 2u) != 0;
	OK(told == 0, "seat 1 gets no event of an Illume it does not see");
	st->acted = 0;
	OK(run(st, 0, staff("a1", 2, "c3", NULL)) == 0 && st->terrain[sq("c3")] == OC_TR_ICE,
	   "Obstruct: Vein(Ice) on c3");
	int tile = 0;
	told = 0;
	for (size_t i = 0; i < ev.len; i++) {
		const struct oc_event *x = wr_list_at(&ev, i);
		if (!(x->vis & 2u))
			continue;
		told++;
		tile += x->type == OC_E_STAFF && x->special == OC_SP_VEIN && x->to == sq("c3") &&
		        x->kind == OC_TR_ICE && x->unit == -1 && x->from == -1 && x->item == -1;
	}
	OK(told == 1 && tile == 1, "seat 1 learns the public terrain (c3 is Ice), not who or which "
	   "staff (%d %d)", told, tile);
	oc_ruleset.free(st);

	ROW("RULINGS.md G5 / O13 (fog: an Escape a seat does not see is not told to it; "
	    "Scenario Tags, Fleeing)");
	for (int k = 0; k < 2; k++) {
		st = make("{\"fog\":true,\"scenario\":\"escape\",\"units\":3}");
		put_unit(st, 0, "Sword Fighter", "a8", "Steel Sword", NULL, NULL);
		put_unit(st, 0, "Sword Fighter", "b1", "Steel Sword", NULL, NULL);
		put_unit(st, 0, "Sword Fighter", "c1", "Steel Sword", NULL, NULL);
		put_unit(st, 1, "Mage", k ? "a5" : "h4", "Elfire", NULL, NULL);
		st->u[0].scen = st->u[1].scen = st->u[2].scen = 1;
		battle(st, 0);
		run(st, 0, activate("a8"));
		OK(run(st, 0, unit_act(OC_A_ESCAPE, "a8")) == 0 && st->u[0].where == OC_W_ESCAPED &&
		   st->phase == OC_PH_BATTLE, "a8 escapes (1 of 2 needed)");
		int esc0 = 0, esc1 = 0, named1 = 0, esc_sp = 0;
		for (size_t i = 0; i < ev.len; i++) {
			const struct oc_event *x = wr_list_at(&ev, i);
			if (x->type != OC_E_ESCAPED)
				continue;
			esc_sp += x->vis == WR_VIS_PUBLIC;
			esc0 += (x->vis & 1u) != 0;
			esc1 += (x->vis & 2u) != 0;
			named1 += (x->vis & 2u) && x->unit == 0;
		}
		OK(esc0 == 1 && esc1 == k && named1 == k && esc_sp == 0, "%s (%d %d %d %d)",
		   k ? "seat 1 sees a8 (from a5): told" : "seat 1 sees nothing of a8: not told",
		   esc0, esc1, named1, esc_sp);
		oc_ruleset.free(st);
	}

	ROW("Issue 14 (undo) / O13: a move that brings an enemy into sight stands");
	struct wr_events none = {0};
	st = make("{\"fog\":true}");
	put_unit(st, 0, "Sword Fighter", "d1", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "d8", "Elfire", NULL, NULL);
	battle(st, 0);
	run(st, 0, activate("d1"));
	struct oc_state before = *st;
	OK(run(st, 0, move("d1", "d5")) == 0 && oc_visible(st, 0, 1) &&
	   wr_undo_reveals(&oc_ruleset, &before, st, 0, &none) == 1,
	   "d5 is 3 from d8: the Mage is seen, an undo barrier");
	oc_ruleset.free(st);

	ROW("RULINGS.md, G7 (amended: a fog reveal is an undo barrier, empty tiles too; "
	    "a move that shows no new tile is taken back)");
	for (int k = 0; k < 2; k++) {
		st = make("{\"fog\":true}");
		put_unit(st, 0, "Sword Fighter", "d1", "Steel Sword", NULL, NULL);
		put_unit(st, 0, "Sword Fighter", "c2", "Steel Sword", NULL, NULL);
		put_unit(st, 1, "Mage", "d8", "Elfire", NULL, NULL);
		battle(st, 0);
		run(st, 0, activate("d1"));
		before = *st;
		OK(run(st, 0, move("d1", k ? "d2" : "c1")) == 0 && !oc_visible(st, 0, 2) &&
		   wr_undo_reveals(&oc_ruleset, &before, st, 0, &none) == k,
		   "%s", k ? "d2 lights d5 (no unit there): the seat scouted it, a barrier"
		           : "c1: c2 and d1 saw all it sees, nothing new: undoable");
		oc_ruleset.free(st);
	}
	st = make(NULL);
	put_unit(st, 0, "Sword Fighter", "d1", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "d8", "Elfire", NULL, NULL);
	battle(st, 0);
	run(st, 0, activate("d1"));
	before = *st;
	OK(run(st, 0, move("d1", "d2")) == 0 &&
	   wr_undo_reveals(&oc_ruleset, &before, st, 0, &none) == 0,
	   "without fog nothing is hidden: undoable");
	oc_ruleset.free(st);

	ROW("RULINGS.md, Officers Chess O13 (an unseen attacker cannot be targeted: "
	    "no counter against it); " TEXT "Counter Attack and Follow Up");
	for (int k = 0; k < 3; k++) {
		/* k 0: fog, seat 1 does not see a1; 1: fog, c2 sees a1; 2: no fog */
		st = make(k < 2 ? "{\"fog\":true,\"promoted\":true}" : "{\"promoted\":true}");
		put_unit(st, 0, "Sage", "a1", "Meteor", NULL, NULL);
		put_unit(st, 0, "Sword Fighter", "d6", "Steel Sword", NULL, NULL);
		put_unit(st, 1, "Sage", "a6", "Meteor", NULL, NULL);
		put_unit(st, 1, "Mage", k == 1 ? "c2" : "h8", "Elfire", NULL, NULL);
		battle(st, 0);
		run(st, 0, activate("a1"));
		struct oc_forecast f;
		oc_forecast(st, 0, 2, -1, &f);
		OK(f.def.can_strike == (k > 0), "%s: the forecast says counter %d",
		   k == 0 ? "a1 unseen by seat 1" : k == 1 ? "a1 seen from c2" : "no fog",
		   f.def.can_strike);
		dice(4, 50, 50, 50, 50);
		int counters = 0, copies = 0;
		OK(run(st, 0, attack("a1", "a6", 0)) == 0, "Meteor (3~7) on a6, 5 away");
		for (size_t i = 0; i < ev.len; i++) {
			const struct oc_event *x = wr_list_at(&ev, i);
			if (x->type != OC_E_COMBAT)
				continue;
			copies++;
			for (int j = 0; j < x->nstrikes; j++)
				counters += !x->strikes[j].by_attacker;
		}
		OK(copies > 0 && (k ? counters == copies : counters == 0),
		   "%s (%d counters in %d copies)", k ? "the Sage on a6 counters (Meteor reaches 5)"
		                                     : "the Sage on a6 does not counter what it cannot see",
		   counters, copies);
		oc_ruleset.free(st);
	}

	ROW("RULINGS.md G5 / O13 (the copy of a seat that does not see the attacker tells "
	    "nothing of it: no HP, damage or Hit of a strike on it, no need of its strikes)");
	for (int k = 0; k < 2; k++) {
		/* k 0: struck from the fog (no counter); 1: countered, then the
		 * defender is routed and its seat sees the attacker no more */
		st = make("{\"fog\":true,\"promoted\":true}");
		if (k == 0) {
			put_unit(st, 0, "Sage", "a1", "Meteor", NULL, NULL);
			put_unit(st, 0, "Sword Fighter", "d6", "Steel Sword", NULL, NULL);
			put_unit(st, 1, "Sage", "a6", "Meteor", NULL, NULL);
		} else {
			put_unit(st, 0, "Swordmaster", "d4", "Silver Blade", NULL, NULL);
			put_unit(st, 0, "Sword Fighter", "a1", "Steel Sword", NULL, NULL);
			put_unit(st, 1, "Sword Fighter", "d5", "Steel Sword", NULL, NULL);
		}
		put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
		battle(st, 0);
		if (k)
			st->u[2].hp = 1;
		run(st, 0, activate(k ? "d4" : "a1"));
		dice(4, 50, 50, 50, 50);   /* hits, no crit */
		OK(run(st, 0, attack(k ? "d4" : "a1", k ? "d5" : "a6", 0)) == 0 &&
		   (k == 0 || (st->u[2].where == OC_W_ROUTED && st->u[0].hp < oc_max_hp(&st->u[0]))),
		   "%s", k ? "the counter hits first (Heavy), then d5 is routed" : "a6 struck from a1");
		int copies = 0, leaks = 0, hidden = 0;
		for (size_t i = 0; i < ev.len; i++) {
			const struct oc_event *x = wr_list_at(&ev, i);
			if (x->type != OC_E_COMBAT || !(x->vis & 2u))
				continue;
			copies++;
			unsigned vis;
			json_object *j = oc_template.event_json(st, x, &vis);
			const char *txt = json_object_to_json_string(j);
			leaks += x->unit >= 0 || strstr(txt, "\"need\"") || strstr(txt, "crit_need") ||
			         strstr(txt, "\"forecast\"");
			for (int n = 0; n < x->nstrikes; n++) {
				const struct oc_strike *sk = &x->strikes[n];
				if (sk->by_attacker)
					continue;
				hidden++;
				leaks += sk->hp >= 0 || sk->dmg >= 0 || sk->hit >= 0;
			}
			json_object_put(j);
		}
		OK(copies == 1 && leaks == 0 && hidden == k, "seat 1's copy: nothing of the attacker "
		   "(%d copies, %d leaks, %d counters hidden)", copies, leaks, hidden);
		oc_ruleset.free(st);
	}
}

static void
victory_rows(void)
{
	struct oc_state *st;

	ROW("Scenario Tags, Leader: Seize ends the battle (O14)");
	st = make("{\"scenario\":\"seize\",\"units\":1}");
	run(st, 0, recruit("L", "Sword Fighter", "Steel Sword", NULL, NULL));
	run(st, 1, recruit("D", "Mage", "Elfire", NULL, NULL));
	OK(st->u[0].scen == 1 && st->u[1].scen == 0, "seat 0's first unit is the Leader");
	st->u[0].where = st->u[1].where = OC_W_MAP;
	st->u[0].sq = sq("d7");
	st->u[1].sq = sq("a8");
	battle(st, 0);
	run(st, 0, activate("d7"));
	OK(refused(st, 0, unit_act(OC_A_SEIZE, "d7"), "not-here"), "only on a marked tile");
	run(st, 0, move("d7", "d8"));
	OK(run(st, 0, unit_act(OC_A_SEIZE, "d8")) == 0 && st->phase == OC_PH_OVER &&
	   st->winners == 1 && st->reason == OC_R_SEIZE, "Seize on d8 wins");
	oc_ruleset.free(st);

	ROW("Scenario Tags, Fleeing: Escape removes the unit, not Routed (O14)");
	st = make("{\"scenario\":\"escape\",\"units\":2}");
	put_unit(st, 0, "Sword Fighter", "a8", "Steel Sword", NULL, NULL);
	put_unit(st, 0, "Sword Fighter", "b1", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "e5", "Elfire", NULL, NULL);
	st->u[0].scen = st->u[1].scen = 1;
	battle(st, 0);
	run(st, 0, activate("a8"));
	OK(run(st, 0, unit_act(OC_A_ESCAPE, "a8")) == 0 && st->u[0].where == OC_W_ESCAPED &&
	   st->routed[0] == 0 && st->phase == OC_PH_OVER && st->winners == 1,
	   "half the army (1 of 2) escaped: seat 0 wins");
	oc_ruleset.free(st);

	ROW("Scenario Tags, Raider: Raze turns the tile to Ruins; all razed wins (O14)");
	st = make("{\"scenario\":\"raze\",\"units\":1,\"marks\":\"c6\"}");
	put_unit(st, 0, "Sword Fighter", "c6", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
	st->u[0].scen = 1;
	battle(st, 0);
	run(st, 0, activate("c6"));
	OK(run(st, 0, unit_act(OC_A_RAZE, "c6")) == 0 && st->terrain[sq("c6")] == OC_TR_RUINS &&
	   st->phase == OC_PH_OVER && st->reason == OC_R_RAZE, "razed: seat 0 wins");
	oc_ruleset.free(st);

	ROW("RULINGS.md, Officers Chess O14 (round limit: more routed wins)");
	st = make("{\"round_limit\":1}");
	put_unit(st, 0, "Sword Fighter", "a1", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
	battle(st, 0);
	st->routed[1] = 1;
	run(st, 0, activate("a1"));
	run(st, 0, unit_act(OC_A_END, "a1"));
	run(st, 1, activate("h8"));
	run(st, 1, unit_act(OC_A_END, "h8"));
	OK(st->phase == OC_PH_OVER && st->winners == 1 && st->reason == OC_R_ROUNDS,
	   "seat 0 routed more");
	oc_ruleset.free(st);
}

static void
more_rows(void)
{
	struct oc_state *st;
	struct oc_forecast f;
	const struct oc_event *e;

	ROW("Class Tags, Qi Adept: may take the first attack on an adjacent ally, halved; "
	    "RULINGS.md G3 (the server asks without a standing order)");
	st = duel("Sword Fighter", "Steel Sword", "d4", "Lance Fighter", "Steel Lance", "d5");
	int adept = put_unit(st, 1, "Martial Monk", "e5", "Steel-Hand Art", NULL, NULL);
	OK(run(st, 0, attack("d4", "d5", 0)) == 0 && st->pend && oc_to_act(st) == 2u &&
	   has_event(OC_E_GUARD_ASKED) && !has_event(OC_E_COMBAT), "seat 1 is asked before any roll");
	OK(refused(st, 0, unit_act(OC_A_END, "d4"), "not-awaited"), "the attacker waits");
	OK(refused(st, 1, activate("h8"), "decision-owed"), "the decision comes first");
	struct oc_action g = act(OC_A_GUARD);
	g.at = sq("h8");
	OK(refused(st, 1, g, "not-a-guard"), "only an adjacent Qi Adept at full health");
	g.at = sq("e5");
	dice(3, 1, 100, 100);
	OK(run(st, 1, g) == 0 && !st->pend && oc_to_act(st) == 1u, "guard: the attacker's turn goes on");
	e = event(OC_E_COMBAT);
	int hit, crit, dmg, cdmg;
	oc_strike_numbers(st, 0, adept, 0, &hit, &crit, &dmg, &cdmg);
	OK(e && e->strikes[0].guard == adept && st->u[1].hp == oc_classes[st->u[1].cls].hp &&
	   e->strikes[0].dmg == cdmg / 2, "the Monk took the crit, halved (%d)", e ? e->strikes[0].dmg : -1);
	oc_ruleset.free(st);
	st = duel("Sword Fighter", "Steel Sword", "d4", "Lance Fighter", "Steel Lance", "d5");
	put_unit(st, 1, "Martial Monk", "e5", "Steel-Hand Art", NULL, NULL);
	json_object *o = json_tokener_parse("{\"qi_adept\":\"never\"}");
	OK(oc_ruleset.set_orders(st, 1, o, &err) == 0 && st->qi[1] == OC_QI_NEVER, "standing order: never");
	json_object_put(o);
	o = json_tokener_parse("{\"qi_adept\":true}");
	OK(oc_ruleset.set_orders(st, 1, o, &err) != 0, "orders are checked");
	json_object_put(o);
	dice(3, 1, 100, 100);
	run(st, 0, attack("d4", "d5", 0));
	e = event(OC_E_COMBAT);
	OK(e && !st->pend && e->strikes[0].guard == -1, "never: no question, no guard");
	oc_ruleset.free(st);
	st = duel("Sword Fighter", "Steel Sword", "d4", "Lance Fighter", "Steel Lance", "d5");
	put_unit(st, 1, "Martial Monk", "e5", "Steel-Hand Art", NULL, NULL);
	st->qi[1] = OC_QI_ALWAYS;
	dice(3, 100, 100, 100);
	run(st, 0, attack("d4", "d5", 0));
	e = event(OC_E_COMBAT);
	OK(e && !st->pend && e->strikes[0].guard == 3, "always: guards without a question");
	oc_ruleset.free(st);

	ROW("Weapon Tags, Effective(Dragon); Class Tags, Dragon (Wyvern Knight)");
	st = make("{\"promoted\":true}");
	put_unit(st, 0, "Sword Fighter", "d4", "Wyrmslayer", NULL, NULL);
	put_unit(st, 1, "Wyvern Knight (Lance/Axe)", "d5", "Steel Lance", NULL, NULL);
	battle(st, 0);
	oc_forecast(st, 0, 1, -1, &f);
	int plain = 3 + oc_rating(st, &st->u[0], OC_STR) + 5 - oc_rating(st, &st->u[1], OC_DEF);
	OK(f.att.dmg == plain + 5, "+5 against Dragon (%d vs %d)", f.att.dmg, plain + 5);
	oc_ruleset.free(st);

	ROW("RULINGS.md, Officers Chess O4 (the decoder: shape, names, items); " TEXT
	    "Units, Inventory (up to 3 Items)");
	st = make(NULL);
	struct oc_action a;
	static const char *const bad[][2] = {
		{"{\"type\":\"recruit\",\"name\":\"A\",\"class\":\"Myrmidon\",\"items\":[]}", "no-such-class"},
		{"{\"type\":\"recruit\",\"name\":\"A\",\"class\":\"Archer\",\"items\":[\"Iron Sword\"]}", "no-such-item"},
		{"{\"type\":\"recruit\",\"name\":\"A\",\"class\":\"Archer\",\"items\":[\"Steel Bow\",\"Steel Bow\",\"Steel Bow\",\"Steel Bow\"]}", "too-many-items"},
		{"{\"type\":\"recruit\",\"name\":\"A\",\"class\":\"Archer\",\"extra\":1}", NULL},
		{"{\"type\":\"fly\"}", "unknown-action"},
		{"{\"type\":\"move\",\"from\":\"a1\",\"to\":\"i9\"}", NULL},
		{"{\"type\":\"attack\",\"from\":\"a1\",\"target\":\"a2\",\"slot\":3}", "out-of-range"},
	};
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		json_object *j = json_tokener_parse(bad[k][0]);
		memset(&err, 0, sizeof(err));
		int rc = oc_template.parse(st, j, &a, &err);
		OK(rc != 0 && (!bad[k][1] || strcmp(err.code, bad[k][1]) == 0), "%s -> %s (%s)", bad[k][0],
		   err.code, err.message);
		json_object_put(j);
	}
	json_object *j = json_tokener_parse("{\"type\":\"recruit\",\"name\":\"Ana\",\"class\":"
	                                    "\"Bow Knight (Sword)\",\"items\":[\"Silver Bow\",\"Steel Sword\"]}");
	OK(oc_template.parse(st, j, &a, &err) == 0 && a.rec[0].nitems == 2, "a variant class by its id");
	json_object_put(j);
	oc_ruleset.free(st);

	ROW("RULINGS.md G5 / O13 (struck from the fog: the defender's seat learns the damage, "
	    "not the attacker)");
	st = make("{\"fog\":true,\"promoted\":true}");
	put_unit(st, 0, "Sage", "a1", "Meteor", NULL, NULL);
	put_unit(st, 0, "Sword Fighter", "d6", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "a6", "Elfire", NULL, NULL);
	battle(st, 0);
	run(st, 0, activate("a1"));
	dice(2, 50, 50);
	OK(run(st, 0, attack("a1", "a6", 0)) == 0, "the Sword Fighter on d6 sees a6 for the Sage");
	int full = 0, redacted = 0, spect = 0;
	for (size_t i = 0; i < ev.len; i++) {
		const struct oc_event *x = wr_list_at(&ev, i);
		if (x->type != OC_E_COMBAT)
			continue;
		if (x->vis == WR_VIS_PUBLIC)
			spect++;
		if (x->vis == 1u && x->unit == 0 && x->from == sq("a1"))
			full++;
		if (x->vis == 2u && x->unit == -1 && x->from == -1 && x->other == 2 &&
		    x->fc.att.hit == 0 && x->nstrikes == 1)
			redacted++;
	}
	OK(full == 1 && redacted == 1 && spect == 0, "seat 0 full, seat 1 without the attacker, "
	   "spectators nothing (%d %d %d)", full, redacted, spect);
	oc_ruleset.free(st);

	ROW("RULINGS.md G5 / O13 (spectators see no unit under fog; everyone at the end)");
	st = make("{\"fog\":true}");
	put_unit(st, 0, "Sword Fighter", "a1", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "a3", "Elfire", NULL, NULL);
	battle(st, 0);
	json_object *v = oc_ruleset.view(st, WR_SPECTATOR);
	OK(json_object_array_length(json_object_object_get(v, "units")) == 0, "spectator: no unit");
	json_object_put(v);
	v = oc_ruleset.view(st, 0);
	OK(json_object_array_length(json_object_object_get(v, "units")) == 2, "seat 0 sees a3 (2 away)");
	json_object_put(v);
	v = oc_ruleset.view(st, WR_EVERYONE);
	OK(json_object_array_length(json_object_object_get(v, "units")) == 2, "everyone: all");
	json_object_put(v);
	oc_ruleset.free(st);
}

/* Rows added by the rules audit: every ruling and text rule named once. */
static void
ruling_rows(void)
{
	struct oc_state *st;
	struct oc_forecast f;
	const struct oc_event *e;

	ROW("RULINGS.md, Officers Chess O2 (ratings F<E<D<C<B<A<S: Dex/Speed -5..25, the "
	    "text's B and C columns swapped; Base Damage 3..9; DR 0..6); " TEXT "Core Stats, "
	    "Combat Stats (Agility, Avoid, Hit)");
	st = make(NULL);
	{
	static const struct { const char *cls, *acc; int agi; } spd[] = {
		{"Axe Armor", NULL, 0}, {"Sword Fighter", NULL, 5}, {"Archer", NULL, 10},
		{"Thief", NULL, 15}, {"Dancer", NULL, 20}, {"Dancer", "Speed Ring", 25},
	};
	for (size_t k = 0; k < sizeof(spd) / sizeof(spd[0]); k++) {
		int u = put_unit(st, 0, spd[k].cls, "a1", NULL, NULL, spd[k].acc);
		OK(oc_agility(st, &st->u[u]) == spd[k].agi, "%s%s Speed value %d", spd[k].cls,
		   spd[k].acc ? " + Speed Ring (A+1 = S)" : "", spd[k].agi);
	}
	}
	oc_ruleset.free(st);
	st = duel("Sword Fighter", "Steel Sword", "d4", "Lance Fighter", "Steel Lance", "d5");
	oc_forecast(st, 0, 1, -1, &f);
	OK(f.att.hit == 70 + 10 - 5 && f.att.dmg == 6 + 5 - 3 && f.att.crit_dmg == 2 * 11 - 3,
	   "Dex C 10 vs Speed D 5: hit 75; Str C 6 + Mt 5 - Def C 3 = 8, crit 19 (%d %d %d)",
	   f.att.hit, f.att.dmg, f.att.crit_dmg);
	oc_ruleset.free(st);
	st = duel("Mage", "Elfire", "d4", "Axe Armor", "Steel Axe", "d5");
	oc_forecast(st, 0, 1, -1, &f);
	OK(f.att.hit == 70 + 15 - 0 && f.att.dmg == 7 + 7 - 1 && f.def.dmg == 7 + 9 - 1 &&
	   f.def.hit == 70 + 5 - 15 - 10, "Mage Dex B 15, Mag B 7 vs Res E 1: 85, 13; Axe Armor "
	   "Str B 7 vs Def E 1: 15, Dex D 5: 50 (%d %d %d %d)", f.att.hit, f.att.dmg, f.def.dmg,
	   f.def.hit);
	oc_ruleset.free(st);
	st = duel("Martial Monk", "Steel-Hand Art", "d4", "Axe Armor", "Steel Axe", "d5");
	oc_forecast(st, 0, 1, -1, &f);
	OK(f.att.dmg == 5 + 1 - 5 && f.att.hit == 70 + 10 - 10 - 0,
	   "Str D 5 + Mt 1 - Def A 5 = 1 (the text's D/E columns swapped); Dex C 10 (%d %d)",
	   f.att.dmg, f.att.hit);
	oc_ruleset.free(st);
	st = duel("Sword Fighter", "Steel Sword", "d4", "Dancer", "Flashing Fist Art", "d5");
	oc_forecast(st, 0, 1, -1, &f);
	OK(oc_rating(st, &st->u[1], OC_DEF) == OC_F && f.att.dmg == 11 - 0,
	   "Weapon Tags, Cursed(Def-2): Def D -> F, DR 0 (%d)", f.att.dmg);
	OK(oc_rating(st, &st->u[1], OC_RES) == OC_E, "Cursed(Res-2): Res C -> E");
	OK(oc_agility(st, &st->u[1]) == 20 - 5 + 5, "Bonus(Agi+5) on a Wt -5 weapon: Agility 20");
	oc_ruleset.free(st);

	ROW("RULINGS.md, Officers Chess O8 (ranges are Manhattan distance; Inf is any distance); " TEXT
	    "Attack (the Target within the Range of the equipped weapon)");
	st = make(NULL);
	put_unit(st, 0, "Archer", "c3", "Steel Bow", NULL, NULL);
	put_unit(st, 1, "Sword Fighter", "d4", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Lance Fighter", "a5", "Steel Lance", NULL, NULL);
	battle(st, 0);
	run(st, 0, activate("c3"));
	OK(refused(st, 0, attack("c3", "a5", 0), "out-of-range"),
	   "a5 is 2 king steps but 4 tiles away: out of the Steel Bow's 2");
	dice(1, 100);
	OK(run(st, 0, attack("c3", "d4", 0)) == 0, "d4 diagonal is 1 + 1 = 2 tiles: in range");
	e = event(OC_E_COMBAT);
	OK(e && e->nstrikes == 1 && e->strikes[0].by_attacker,
	   "the Steel Sword (range 1) cannot counter from 2 tiles");
	oc_ruleset.free(st);
	st = make(NULL);
	put_unit(st, 0, "Sword Fighter", "d4", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Lance Fighter", "e5", "Steel Lance", NULL, NULL);
	battle(st, 0);
	run(st, 0, activate("d4"));
	OK(refused(st, 0, attack("d4", "e5", 0), "out-of-range"), "a diagonal neighbour is 2 tiles");
	const struct oc_item *nodus = &oc_items[oc_item_find("Nodus")];
	OK(oc_in_range(nodus, 14) && oc_in_range(nodus, 1), "Nodus, range Inf: any distance");
	oc_ruleset.free(st);

	ROW("RULINGS.md, Officers Chess O9 (d100 <= Hit hits; crit on <= 10); " TEXT "Hitting Targets");
	st = duel("Sword Fighter", "Steel Sword", "d4", "Sword Fighter", "Steel Sword", "d5");
	dice(2, 75, 76);
	run(st, 0, attack("d4", "d5", 0));
	e = event(OC_E_COMBAT);
	OK(e && e->nstrikes == 2 && e->strikes[0].need == 75 && e->strikes[0].hit &&
	   !e->strikes[0].crit && !e->strikes[1].hit, "need 75: 75 hits, 76 misses");
	oc_ruleset.free(st);
	st = duel("Sword Fighter", "Steel Sword", "d4", "Sword Fighter", "Steel Sword", "d5");
	dice(2, 10, 11);
	run(st, 0, attack("d4", "d5", 0));
	e = event(OC_E_COMBAT);
	OK(e && e->strikes[0].crit && e->strikes[1].hit && !e->strikes[1].crit,
	   "10 is a critical hit, 11 a plain hit");
	ROW("RULINGS.md, Officers Chess O10 (damage doubled on a crit last, then reduced); " TEXT
	    "Dealing Damage");
	OK(e && e->strikes[0].dmg == 2 * (6 + 5) - 3 && st->u[1].hp == 20 - 19 &&
	   e->strikes[1].dmg == 11 - 3 && st->u[0].hp == 20 - 8,
	   "crit: (6 + 5) x 2 - 3 = 19, not (11 - 3) x 2; plain 8");
	oc_ruleset.free(st);
	st = duel("Sword Fighter", "Levin Sword", "d4", "Sword Fighter", "Steel Sword", "d5");
	oc_forecast(st, 0, 1, -1, &f);
	OK(f.att.dmg == 4 + 7 - 2, "Weapon Tags, Enchanted: Mag E 4 + Mt 7 - Res D 2 = 9 (%d)",
	   f.att.dmg);
	set_tile(st, "d5", OC_TR_FORT);
	oc_forecast(st, 0, 1, -1, &f);
	OK(f.att.dmg == 9 - 2, "terrain DR adds to the reduction (Fort +2): 7 (%d)", f.att.dmg);
	oc_ruleset.free(st);

	ROW("RULINGS.md, Officers Chess O9 (Avoid: terrain Avo, doubled for Covert, ignored by "
	    "a Mystical attacker, none for Flying)");
	static const struct { const char *acls, *aw, *dcls, *dw; int need; const char *why; } avo[] = {
		{"Sword Fighter", "Steel Sword", "Sword Fighter", "Steel Sword", 80 - 5 - 5,
		 "Woods +5: 70"},
		{"Sword Fighter", "Steel Sword", "Archer", "Steel Bow", 80 - 10 - 10,
		 "Class Tags, Covert: Woods +10 for an Archer (Speed C): 60"},
		{"Mage", "Elfire", "Sword Fighter", "Steel Sword", 85 - 5,
		 "Class Tags, Mystical: the Mage ignores the Woods: 80"},
		{"Sword Fighter", "Steel Sword", "Sword Flier", "Steel Sword", 80 - 10,
		 "Class Tags, Flying: no terrain bonus: 70"},
	};
	for (size_t k = 0; k < sizeof(avo) / sizeof(avo[0]); k++) {
		st = duel(avo[k].acls, avo[k].aw, "d4", avo[k].dcls, avo[k].dw, "d5");
		set_tile(st, "d5", OC_TR_WOODS);
		oc_forecast(st, 0, 1, -1, &f);
		OK(f.att.hit == avo[k].need, "%s (%d)", avo[k].why, f.att.hit);
		oc_ruleset.free(st);
	}

	ROW(TEXT "Class Tags, Mystical (\"ignore terrain bonuses\": a penalty still counts, "
	    "Water's -5 Avo); RULINGS.md, Officers Chess O9");
	static const struct { const char *dcls, *dw; int tile, need; const char *why; } myst[] = {
		{"Sword Fighter", "Steel Sword", OC_TR_WATER, 80 + 5, "Sword Fighter on Water: 85"},
		{"Archer", "Steel Bow", OC_TR_WATER, 75 + 5,
		 "Archer (Covert) on Water: -5 not doubled, counted: 80"},
		{"Archer", "Steel Bow", OC_TR_WOODS, 75, "Archer (Covert) in Woods: +10 ignored: 75"},
	};
	for (size_t k = 0; k < sizeof(myst) / sizeof(myst[0]); k++) {
		st = duel("Mage", "Elfire", "d4", myst[k].dcls, myst[k].dw, "d5");
		set_tile(st, "d5", myst[k].tile);
		oc_forecast(st, 0, 1, -1, &f);
		OK(f.att.hit == myst[k].need, "Mage (Elfire, magic) attacks: %s (%d)", myst[k].why,
		   f.att.hit);
		oc_ruleset.free(st);
	}

	ROW("RULINGS.md, Officers Chess O9 (Lucky(X): crit on <= 10 + X; Deadly(X): below X)");
	st = make(NULL);
	put_unit(st, 0, "Sword Fighter", "d4", "Steel Sword", NULL, "Critical Ring");
	put_unit(st, 1, "Sword Fighter", "d5", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
	battle(st, 0);
	run(st, 0, activate("d4"));
	dice(2, 11, 100);
	run(st, 0, attack("d4", "d5", 0));
	e = event(OC_E_COMBAT);
	OK(e && e->strikes[0].crit_need == 11 && e->strikes[0].crit,
	   "Critical Ring, Lucky(1): 11 crits");
	oc_ruleset.free(st);
	static const int deadly_roll[2] = {19, 20};
	for (int k = 0; k < 2; k++) {
		st = duel("Sword Fighter", "Killing Edge", "d4", "Sword Fighter", "Steel Sword", "d5");
		dice(2, deadly_roll[k], 100);
		run(st, 0, attack("d4", "d5", 0));
		e = event(OC_E_COMBAT);
		OK(e && e->strikes[0].hit && e->strikes[0].crit == !k,
		   "Weapon Tags, Deadly(20): %d is %s", deadly_roll[k], k ? "not less than 20" : "a crit");
		oc_ruleset.free(st);
	}

	ROW("RULINGS.md, Officers Chess O11 (Heavy never follows up; a counter uses the "
	    "equipped weapon); " TEXT "Counter Attack and Follow Up");
	st = duel("Swordmaster", "Silver Blade", "d4", "Axe Armor", "Steel Axe", "d5");
	oc_forecast(st, 0, 1, -1, &f);
	OK(f.heavy_first && !f.att.follow_up && f.att.strikes == 1,
	   "Agility 15 vs 0, but Heavy: no follow-up, strikes second");
	oc_ruleset.free(st);
	st = make(NULL);
	put_unit(st, 0, "Sword Fighter", "d4", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Bow Knight (Sword)", "d5", "Steel Bow", "Steel Sword", NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
	battle(st, 0);
	run(st, 0, activate("d4"));
	oc_forecast(st, 0, 1, -1, &f);
	OK(!f.def.can_strike, "the Bow it last used cannot reach 1; it may not switch to its sword");
	dice(1, 100);
	run(st, 0, attack("d4", "d5", 0));
	e = event(OC_E_COMBAT);
	OK(e && e->nstrikes == 1, "no counter");
	oc_ruleset.free(st);
	static const struct { const char *a, *aw, *d, *dw; int fu; const char *why; } fu[] = {
		{"Dancer", "Steel-Hand Art", "Archer", "Steel Bow", 1, "A follows up on C"},
		{"Dancer", "Steel-Hand Art", "Thief", "Steel Dagger", 0, "A does not on B"},
		{"Thief", "Steel Dagger", "Sword Fighter", "Steel Sword", 1, "B follows up on D"},
		{"Thief", "Steel Dagger", "Archer", "Steel Bow", 0, "B does not on C"},
		{"Archer", "Mini Bow", "Axe Armor", "Steel Axe", 1, "C follows up on E"},
		{"Sword Fighter", "Steel Sword", "Axe Armor", "Steel Axe", 0, "D does not on E"},
		{"Thief", "Peshkatz", "Sword Fighter", "Steel Sword", 0,
		 "Weight: Peshkatz Wt -5 makes the Thief 10, only 5 above D"},
	};
	for (size_t k = 0; k < sizeof(fu) / sizeof(fu[0]); k++) {
		st = duel(fu[k].a, fu[k].aw, "d4", fu[k].d, fu[k].dw, "d5");
		oc_forecast(st, 0, 1, -1, &f);
		OK(f.att.follow_up == fu[k].fu, "Follows Up on: %s", fu[k].why);
		oc_ruleset.free(st);
	}
	st = duel("Thief", "Steel Dagger", "d4", "Sword Fighter", "Steel Sword", "d5");
	set_tile(st, "d5", OC_TR_WOODS);
	oc_forecast(st, 0, 1, -1, &f);
	OK(f.att.follow_up, "Terrain Table, Avo: does NOT apply when determining follow up");
	oc_ruleset.free(st);

	ROW(TEXT "The Weapon Triangle: Swords > Axes, Axes > Lances, Arts > Tomes, Daggers, Bows");
	static const struct { const char *a, *aw, *d, *dw; } tri[] = {
		{"Sword Fighter", "Steel Sword", "Axe Fighter", "Steel Axe"},
		{"Axe Fighter", "Steel Axe", "Lance Fighter", "Steel Lance"},
		{"Martial Monk", "Steel-Hand Art", "Thief", "Steel Dagger"},
		{"Martial Monk", "Steel-Hand Art", "Mage", "Elfire"},
		{"Martial Monk", "Steel-Hand Art", "Archer", "Mini Bow"},
	};
	for (size_t k = 0; k < sizeof(tri) / sizeof(tri[0]); k++) {
		st = duel(tri[k].a, tri[k].aw, "d4", tri[k].d, tri[k].dw, "d5");
		dice(3, 50, 100, 100);
		run(st, 0, attack("d4", "d5", 0));
		e = event(OC_E_COMBAT);
		OK(e && e->strikes[0].broke && st->u[1].broken && st->u[1].where == OC_W_MAP &&
		   e->strikes[e->nstrikes - 1].by_attacker, "%s beats %s: Broken, no counter",
		   tri[k].aw, tri[k].dw);
		oc_ruleset.free(st);
	}
}

static void
tag_rows(void)
{
	struct oc_state *st;

	ROW("Tags: tags on a Weapon or Accessory only apply while it is equipped; "
	    "Weapon Tags, Bonus(Rating+X)");
	st = make(NULL);
	put_unit(st, 0, "Dancer", "d4", "Steel-Hand Art", "Leather Shield", "Speed Ring");
	put_unit(st, 0, "Martial Monk", "a1", "Steel-Hand Art", "Shielding Art", NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
	battle(st, 0);
	OK(oc_agility(st, &st->u[0]) == 20 - 1, "Leather Shield equipped: Speed A 20 - Wt 1");
	run(st, 0, activate("d4"));
	struct oc_action eq = unit_act(OC_A_EQUIP, "d4");
	eq.slot = 2;
	OK(run(st, 0, eq) == 0 && oc_agility(st, &st->u[0]) == 25 - 1,
	   "Speed Ring equipped: Bonus(Spd+1), A -> S 25; the shield carried still weighs 1 "
	   "(RULINGS.md, Officers Chess O17)");
	OK(oc_rating(st, &st->u[1], OC_DEF) == OC_D, "Shielding Art carried, not equipped: Def D");
	st->u[1].equip = 1;
	OK(oc_rating(st, &st->u[1], OC_DEF) == OC_C, "Shielding Art equipped: Bonus(Def+1), C");
	oc_ruleset.free(st);

	ROW(TEXT "Use a Staff: allies need no roll; Consumable(X) removes it at 0; enemies "
	    "never counter a staff action");
	st = make(NULL);
	put_unit(st, 0, "Martial Monk", "d4", "Heal", "Freeze", NULL);
	put_unit(st, 0, "Sword Fighter", "d3", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "d5", "Elfire", NULL, NULL);
	battle(st, 0);
	st->u[1].hp = 5;
	st->u[0].uses[0] = 1;
	run(st, 0, activate("d4"));
	dice(0);
	OK(run(st, 0, staff("d4", 0, "d3", NULL)) == 0 && script.pos == 0 && !script.exhausted &&
	   st->u[1].hp == 5 + 5 + 7, "Heal on an ally: no die rolled; 5 + Mag B 7");
	OK(st->u[0].item[0] == -1, "its last use: the staff leaves the inventory");
	st->acted = 0;
	int hp = st->u[0].hp;
	dice(1, 1);
	OK(run(st, 0, staff("d4", 1, "d5", NULL)) == 0 && st->u[2].frozen && script.pos == 1 &&
	   st->u[0].hp == hp, "Freeze on the adjacent Mage (Elfire reaches 1): one roll, no counter");
	run(st, 0, unit_act(OC_A_END, "d4"));
	run(st, 1, activate("d5"));
	dice(3, 100, 100, 100);
	OK(run(st, 1, attack("d5", "d4", 0)) == 0,
	   "Special Action Tags, Freeze: it may take any other actions (an attack)");
	oc_ruleset.free(st);

	ROW("Class Tags, Canto: the 2 tiles after the Action pay terrain (Terrain still applies)");
	st = duel("Sword Fighter", "Steel Sword", "d4", "Axe Armor", "Steel Axe", "d5");
	st->u[0].item[2] = oc_item_find("Fetters of Dromi");
	st->u[0].acc = 2;
	set_tile(st, "d3", OC_TR_WOODS);
	set_tile(st, "c4", OC_TR_WOODS);
	dice(2, 100, 100);
	run(st, 0, attack("d4", "d5", 0));
	OK(refused(st, 0, move("d4", "d2"), "unreachable"), "Woods d3 (2) + d2 (1) = 3 > 2");
	OK(run(st, 0, move("d4", "c4")) == 0, "one Woods tile costs the 2");
	oc_ruleset.free(st);

	ROW("Class Tags, Covert: double terrain bonuses (DR too: Fort +2 counts 4)");
	st = duel("Sword Fighter", "Steel Sword", "d4", "Archer", "Steel Bow", "d5");
	struct oc_forecast f;
	oc_forecast(st, 0, 1, -1, &f);
	int plain = f.att.dmg;
	set_tile(st, "d5", OC_TR_FORT);
	oc_forecast(st, 0, 1, -1, &f);
	OK(plain == 11 - 2 && f.att.dmg == plain - 4 && f.att.hit == 80 - 10 - 10,
	   "Archer (Def D 2) on a Fort: 9 -> 5, Avo +10 (%d %d)", f.att.dmg, f.att.hit);
	oc_ruleset.free(st);

	ROW(TEXT "Move: tile types not listed cost 1 (Floor, Ruins), no DR, no Avo");
	st = make(NULL);
	put_unit(st, 0, "Sword Fighter", "a1", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
	for (int r = 2; r <= 5; r++) {
		char t[3] = {'a', (char)('0' + r), 0};
		set_tile(st, t, r % 2 ? OC_TR_FLOOR : OC_TR_RUINS);
	}
	battle(st, 0);
	run(st, 0, activate("a1"));
	OK(run(st, 0, move("a1", "a5")) == 0, "four unlisted tiles for Movement 4");
	OK(oc_tiles[OC_TR_FLOOR].move == 1 && oc_tiles[OC_TR_RUINS].move == 1 &&
	   !oc_tiles[OC_TR_FLOOR].dr && !oc_tiles[OC_TR_RUINS].avo, "Floor and Ruins: 1, no bonus");
	oc_ruleset.free(st);

	ROW(TEXT "Free Actions, Trade: any number of items with the one partner");
	st = make(NULL);
	put_unit(st, 0, "Sword Fighter", "d4", "Steel Sword", "Vulnerary", "Iron Shield");
	put_unit(st, 0, "Sword Fighter", "d5", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
	battle(st, 0);
	run(st, 0, activate("d4"));
	struct oc_action tr = unit_act(OC_A_TRADE, "d4");
	tr.with = sq("d5");
	tr.give = 1;
	OK(run(st, 0, tr) == 0, "the Vulnerary");
	tr.give = 2;
	OK(run(st, 0, tr) == 0 && st->u[0].item[1] == -1 && st->u[0].item[2] == -1 &&
	   st->u[1].item[1] >= 0 && st->u[1].item[2] >= 0, "then the shield, same partner");
	OK(st->u[1].acc == -1, "the shield is carried, not equipped: only Equip equips");
	oc_ruleset.free(st);

	ROW(TEXT "Free Actions, Equip and Trade: a trade equips nothing, on either unit; "
	    "Counter Attack: \"it must use the one it last used\"");
	st = make(NULL);
	int tu = put_unit(st, 0, "Sword Fighter", "d4", "Steel Sword", "Armorslayer", "Vulnerary");
	int tp = put_unit(st, 0, "Sword Fighter", "d5", "Steel Sword", "Armorslayer", NULL);
	int tf = put_unit(st, 1, "Sword Fighter", "c4", "Steel Sword", NULL, NULL);
	battle(st, 0);
	st->u[tp].equip = -1;     /* its weapon was discarded or its staff used up */
	run(st, 0, activate("d4"));
	struct oc_action dc = unit_act(OC_A_DISCARD, "d4");
	dc.slot = 0;
	OK(run(st, 0, dc) == 0 && st->u[tu].equip == -1, "the equipped Steel Sword discarded");
	tr = unit_act(OC_A_TRADE, "d4");
	tr.with = sq("d5");
	tr.give = 2;
	OK(run(st, 0, tr) == 0 && st->u[tp].item[2] >= 0, "the Vulnerary given");
	OK(st->u[tu].equip == -1 && st->u[tp].equip == -1,
	   "neither unit has a weapon equipped after it (%d %d)", st->u[tu].equip, st->u[tp].equip);
	OK(!oc_can_counter(st, tf, tu) && !oc_can_counter(st, tf, tp), "so neither counters");
	oc_ruleset.free(st);
	st = make(NULL);
	tu = put_unit(st, 0, "Sword Fighter", "d4", "Steel Sword", "Armorslayer", NULL);
	tp = put_unit(st, 0, "Sword Fighter", "d5", "Armorslayer", NULL, NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
	battle(st, 0);
	st->u[tp].equip = -1;
	run(st, 0, activate("d4"));
	tr = unit_act(OC_A_TRADE, "d4");
	tr.with = sq("d5");
	tr.give = 0;
	tr.take = 0;
	OK(run(st, 0, tr) == 0 && st->u[tu].equip == -1 && st->u[tp].equip == -1,
	   "the equipped Steel Sword swapped for an Armorslayer: the giver has none equipped, "
	   "the taker does not equip it (%d %d)", st->u[tu].equip, st->u[tp].equip);
	eq = unit_act(OC_A_EQUIP, "d4");
	eq.slot = 1;
	OK(run(st, 0, eq) == 0 && st->u[tu].equip == 1, "Equip takes up its own Armorslayer");
	oc_ruleset.free(st);

	ROW("RULINGS.md, Officers Chess O13 (a unit sees tiles within 3, Manhattan)");
	st = make("{\"fog\":true}");
	put_unit(st, 0, "Sword Fighter", "d4", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "e6", "Elfire", NULL, NULL);
	put_unit(st, 1, "Mage", "f6", "Elfire", NULL, NULL);
	put_unit(st, 1, "Mage", "d7", "Elfire", NULL, NULL);
	battle(st, 0);
	OK(oc_visible(st, 0, 1) && !oc_visible(st, 0, 2) && oc_visible(st, 0, 3),
	   "e6 (1 + 2 = 3) and d7 (3) seen; f6 (2 + 2 = 4) not, though 2 king steps away");
	oc_ruleset.free(st);

	ROW("Status Effects, Silenced: cannot use Tomes or Staves");
	st = make(NULL);
	put_unit(st, 0, "Martial Monk", "d4", "Heal", "Steel-Hand Art", NULL);
	put_unit(st, 0, "Sword Fighter", "d3", "Steel Sword", NULL, NULL);
	put_unit(st, 1, "Mage", "h8", "Elfire", NULL, NULL);
	battle(st, 0);
	st->u[1].hp = 5;
	st->u[0].silenced = 1;
	run(st, 0, activate("d4"));
	OK(refused(st, 0, staff("d4", 0, "d3", NULL), "silenced"), "no staff while Silenced");
	oc_ruleset.free(st);

	ROW("RULINGS.md G2, Officers Chess O6 (first: random: the server rolls who goes first)");
	{
	int firsts[2] = {0, 0};
	json_object *o = json_tokener_parse("{\"first\":\"random\"}");
	for (unsigned k = 1; k <= 2; k++) {
		struct wr_rng r2;
		struct wr_script s2 = {.faces = (const unsigned[]){k}, .n = 1};
		void *x = NULL;
		wr_rng_script(&r2, &s2);
		if (oc_ruleset.create(o, 2, &r2, &x, &err) == 0) {
			firsts[((struct oc_state *)x)->first]++;
			OK(s2.pos == 1, "one die drawn");
			oc_ruleset.free(x);
		}
	}
	json_object_put(o);
	OK(firsts[0] == 1 && firsts[1] == 1, "a d2 of 1: seat 0 first; 2: seat 1");
	}

	ROW("RULINGS.md G6 (end is always legal during a turn; no pass otherwise)");
	st = duel("Sword Fighter", "Steel Sword", "d4", "Lance Fighter", "Steel Lance", "d5");
	struct wr_list l;
	int ends = 0;
	legal_list(st, 0, &l);
	for (size_t i = 0; i < l.len; i++)
		ends += ((struct oc_action *)wr_list_at(&l, i))->type == OC_A_END;
	OK(ends == 1 && l.len > 1, "end is listed with the unit's other actions");
	wr_list_free(&l);
	legal_list(st, 1, &l);
	OK(l.len == 0, "the seat not awaited has no action");
	wr_list_free(&l);
	oc_ruleset.free(st);
}

int
main(void)
{
	uint64_t s;
	wr_rng_seeded(&rng, &s, 5);
	wr_list_init(&ev, sizeof(struct oc_event));
	army_rows();
	deploy_rows();
	round_rows();
	move_rows();
	combat_rows();
	terrain_rows();
	staff_rows();
	fog_rows();
	victory_rows();
	more_rows();
	ruling_rows();
	tag_rows();
	wr_list_free(&ev);
	printf("officers-chess rule table: %d rows, %d checks, %d failures\n", rows, checks,
	       failures);
	return failures ? 1 : 0;
}
