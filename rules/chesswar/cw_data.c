/*
 * ChessWar's tables, exactly as the army lists of 002_0478434554df57bb.txt
 * print them (RULINGS.md C1): one row per unit type with Max, Cost, Move,
 * Save, Melee and every Special; the weapons ("Bows: basic bows (range 4,
 * save +0)", ...) and the spells (RULINGS.md C9, each row marked text or
 * provisional). Correct a rule here, in one place.
 */
#include <string.h>

#include "cw_rules.h"

const char *const cw_special_name[CW_SP_COUNT] = {
	"brave", "scary", "assault", "plague", "regenerate", "teleport", "undead",
};

const char *const cw_terrain_name[CW_T_MAX] = {"open", "forest", "hill"};

/*                 slug            name            kind            range min scatter d/i
 *                 move_fire indirect save effect whole_melee text */
const struct cw_weapon cw_weapons[CW_W_MAX] = {
	[CW_W_NONE] = {"none", "none", CW_WK_NONE, 0, 0, 0, 0, 0, 0, 0, CW_HE_SAVE, 0, 1},
	/* "Bows: basic bows (range 4, save +0)" */
	[CW_W_BOWS] = {"bows", "Bows", CW_WK_BOW, 4, 0, 0, 0, 1, 1, 0, CW_HE_SAVE, 0, 1},
	/* "Crossbows: special bows (range 4, no move and fire, no indirect, save +0)" */
	[CW_W_CROSSBOWS] = {"crossbows", "Crossbows", CW_WK_BOW, 4, 0, 0, 0, 0, 0, 0, CW_HE_SAVE, 0,
	                    1},
	/* "Long Bows: special bows (range 5, save +0)" */
	[CW_W_LONGBOWS] = {"long_bows", "Long Bows", CW_WK_BOW, 5, 0, 0, 0, 1, 1, 0, CW_HE_SAVE, 0,
	                   1},
	/* "Catapults: basic catapult (ul range, 2/3 scatter, save +0)"; minimum
	 * range 2 (Catapults) */
	[CW_W_CATAPULT] = {"catapults", "Catapults", CW_WK_CATAPULT, 0, 2, 2, 3, 1, 1, 0, CW_HE_SAVE,
	                   0, 1},
	/* "Rocks: special catapult (range 2, 1 scatter, save +0)"; no minimum
	 * range, moving does not affect the accuracy (Catapult, Rocks and
	 * plaguebombs) */
	[CW_W_ROCKS] = {"rocks", "Rocks", CW_WK_CATAPULT, 2, 0, 1, 1, 1, 1, 0, CW_HE_SAVE, 0, 1},
	/* "Plaguebombs: special catapult (range 2, 1 scatter, plague save +1,
	 * hit all in same melee)" */
	[CW_W_PLAGUEBOMBS] = {"plaguebombs", "Plaguebombs", CW_WK_CATAPULT, 2, 0, 1, 1, 1, 1, 1,
	                      CW_HE_PLAGUE, 1, 1},
	/* "Terrorpults: special catapult (ul range, 2/3 scatter, auto-destroy
	 * non-brave, braves save +0)" */
	[CW_W_TERRORPULTS] = {"terrorpults", "Terrorpults", CW_WK_CATAPULT, 0, 2, 2, 3, 1, 1, 0,
	                      CW_HE_TERROR, 0, 1},
};

/* RULINGS.md C9: one row per spell; text = 1 where the text gives it. */
const struct cw_spell cw_spells[CW_SPELL_MAX] = {
	[CW_SPELL_CONTAGION] = {"contagion", "Contagion", CW_WHEN_MOVE, 1, CW_ST_NONE, 0, 1,
	                        "all own units have Plague until the wizard's next turn"},
	[CW_SPELL_COUNTERSPELL] = {"counterspell", "Counterspell", CW_WHEN_INSTANT, 0,
	                           CW_ST_REACTION, 0, 1, "counters a spell just cast on 4+"},
	[CW_SPELL_DISPEL] = {"dispel", "Dispel", CW_WHEN_INSTANT, 0, CW_ST_EFFECT, 0, 0,
	                     "ends one temporal spell in effect"},
	[CW_SPELL_FEAR] = {"fear", "Fear", CW_WHEN_MOVE, 1, CW_ST_NONE, 4, 0,
	                   "own units within 4 squares of the wizard are Scary"},
	[CW_SPELL_STORM] = {"storm", "Storm", CW_WHEN_MOVE, 1, CW_ST_NONE, 0, 0,
	                    "bows and crossbows -1 to hit; catapults scatter once more"},
	[CW_SPELL_ZAP] = {"zap", "Zap!", CW_WHEN_SHOOT, 0, CW_ST_ENEMY_SEEN, 4, 0,
	                  "one enemy within 4 squares in the wizard's sight must save or is "
	                  "destroyed"},
	[CW_SPELL_HEAL] = {"heal", "Heal", CW_WHEN_INSTANT, 0, CW_ST_REACTION, 4, 0,
	                   "an own unit within 4 squares that is destroyed survives on 4+ "
	                   "(a reaction after the action that destroyed it)"},
	[CW_SPELL_PROTECTION] = {"protection", "Protection", CW_WHEN_INSTANT, 1, CW_ST_OWN, 4, 0,
	                         "one own unit within 4 squares has +1 saves"},
	[CW_SPELL_FLIGHT] = {"flight", "Flight", CW_WHEN_MOVE, 0, CW_ST_FLIGHT, 4, 0,
	                     "one own unit within 4 squares, or the wizard even in melee, moves up "
	                     "to 6 squares ignoring units, leaving any melee, and may charge"},
	[CW_SPELL_STRIKE] = {"strike", "Strike", CW_WHEN_MELEE, 0, CW_ST_OWN_MELEE, 4, 0,
	                     "one own unit in melee within 4 squares has +2 melee for its attack "
	                     "this phase"},
	[CW_SPELL_RAISE_DEAD] = {"raise_dead", "Raise Dead", CW_WHEN_MOVE, 0, CW_ST_RAISE, 1, 0,
	                         "one destroyed own unit, not a general nor a Regenerate unit, "
	                         "returns to an empty square next to the wizard"},
};

#define SP(x) (1u << CW_SPELL_##x)
#define BR CW_SP_BRAVE
#define SC CW_SP_SCARY
#define AS CW_SP_ASSAULT
#define PL CW_SP_PLAGUE
#define RG CW_SP_REGENERATE
#define TP CW_SP_TELEPORT
#define UD CW_SP_UNDEAD
#define W(x) CW_W_##x

/* unit: slug, name, piece, Max, Cost (general: free), Move, Save, Melee,
 * specials, weapon, to-hit, spells */
const struct cw_army cw_armies[CW_ARMY_MAX] = {
	[CW_ARMY_CHAOS] = {"chaos", "Chaos", 4, 12, 6, {
		{"chaos_lord", "Chaos Lord", 'K', 1, 0, 2, 2, 2, BR | SC, W(NONE), 0, 0},
		{"sorcerer", "Sorcerer", 'Q', 2, 2, 2, 3, -1, 0, W(NONE), 0,
		 SP(CONTAGION) | SP(COUNTERSPELL) | SP(DISPEL) | SP(FEAR) | SP(STORM) | SP(ZAP)},
		{"giants", "Giants", 'R', 2, 2, 2, 2, 1, 0, W(ROCKS), 0, 0},
		{"chaos_bowmen", "Chaos Bowmen", 'B', 4, 1, 2, 5, 0, 0, W(BOWS), 3, 0},
		{"chaos_knights", "Chaos Knights", 'N', 4, 2, 3, 3, 1, AS | BR, W(NONE), 0, 0},
		{"beastmen", "Beastmen", 'P', 12, 1, 1, 4, 0, PL, W(NONE), 0, 0},
	}},
	[CW_ARMY_DWARVES] = {"dwarves", "Dwarves", 3, 12, 5, {
		{"warlord", "Warlord", 'K', 1, 0, 1, 2, 2, BR, W(CROSSBOWS), 3, 0},
		{"rune_lord", "Rune Lord", 'Q', 1, 3, 1, 2, 2, BR, W(CROSSBOWS), 3,
		 SP(COUNTERSPELL) | SP(DISPEL) | SP(PROTECTION) | SP(STORM)},
		{"catapults", "Catapults", 'R', 4, 1, 0, 3, 0, 0, W(CATAPULT), 0, 0},
		{"crossbowers", "Crossbowers", 'B', 4, 1, 1, 3, 0, 0, W(CROSSBOWS), 3, 0},
		{"infantry", "Infantry", 'P', 12, 1, 1, 3, 1, 0, W(NONE), 0, 0},
	}},
	[CW_ARMY_ELFS] = {"elfs", "Elfs", 1, 18, 6, {
		{"general", "General", 'K', 1, 0, 3, 2, 1, BR | AS, W(NONE), 0, 0},
		{"wizard", "Wizard", 'Q', 2, 4, 3, 3, -1, AS, W(NONE), 0,
		 SP(COUNTERSPELL) | SP(DISPEL) | SP(FEAR) | SP(HEAL) | SP(PROTECTION) | SP(ZAP)},
		{"treemen", "Treemen", 'R', 2, 2, 1, 2, 1, 0, W(NONE), 0, 0},
		{"elite_archers", "Elite Archers", 'B', 4, 2, 2, 4, 0, 0, W(LONGBOWS), 2, 0},
		{"cavalry", "Cavalry", 'N', 2, 2, 3, 3, 0, AS, W(NONE), 0, 0},
		{"archers", "Archers", 'P', 16, 1, 2, 5, -1, 0, W(BOWS), 3, 0},
	}},
	[CW_ARMY_HUMANS] = {"humans", "Humans", 2, 19, 6, {
		{"general", "General", 'K', 1, 0, 2, 2, 1, BR, W(NONE), 0, 0},
		{"wizard", "Wizard", 'Q', 2, 3, 2, 3, -1, 0, W(NONE), 0,
		 SP(COUNTERSPELL) | SP(DISPEL) | SP(HEAL) | SP(PROTECTION) | SP(STORM) | SP(ZAP)},
		{"catapults", "Catapults", 'R', 4, 1, 0, 4, -1, 0, W(CATAPULT), 0, 0},
		{"archers", "Archers", 'B', 4, 1, 2, 5, -1, 0, W(BOWS), 3, 0},
		{"knights", "Knights", 'N', 4, 2, 3, 3, 0, AS, W(NONE), 0, 0},
		{"infantry", "Infantry", 'P', 16, 1, 1, 4, 0, 0, W(NONE), 0, 0},
	}},
	[CW_ARMY_ORCS] = {"orcs", "Orcs", 5, 16, 6, {
		{"warlord", "Warlord", 'K', 1, 0, 2, 2, 1, BR, W(NONE), 0, 0},
		{"shaman", "Shaman", 'Q', 2, 3, 2, 3, 0, 0, W(NONE), 0,
		 SP(COUNTERSPELL) | SP(DISPEL) | SP(FLIGHT) | SP(PROTECTION) | SP(STRIKE) | SP(ZAP)},
		{"trolls", "Trolls", 'R', 4, 2, 1, 3, 1, PL | RG, W(ROCKS), 0, 0},
		{"archers", "Archers", 'B', 4, 1, 1, 4, 0, 0, W(BOWS), 3, 0},
		{"wolf_riders", "Wolf Riders", 'N', 4, 1, 4, 4, -1, AS, W(NONE), 0, 0},
		{"orcs", "Orcs", 'P', 16, 1, 1, 3, 0, 0, W(NONE), 0, 0},
	}},
	[CW_ARMY_RATMEN] = {"ratmen", "Ratmen", 6, 20, 5, {
		{"rat_lord", "Rat Lord", 'K', 1, 0, 2, 2, 1, BR, W(NONE), 0, 0},
		{"seer", "Seer", 'Q', 2, 3, 2, 3, -1, 0, W(NONE), 0,
		 SP(CONTAGION) | SP(COUNTERSPELL) | SP(DISPEL) | SP(PROTECTION) | SP(STORM) |
		 SP(ZAP)},
		{"rat_ogres", "Rat Ogres", 'R', 4, 2, 2, 3, 1, 0, W(NONE), 0, 0},
		{"plague_monks", "Plague Monks", 'B', 4, 2, 2, 4, 0, BR | PL, W(PLAGUEBOMBS), 0, 0},
		{"clanrats", "Clanrats", 'P', 16, 1, 2, 5, 0, 0, W(NONE), 0, 0},
	}},
	[CW_ARMY_UNDEAD] = {"undead", "Undead", 7, 16, 6, {
		{"liche", "Liche", 'K', 1, 0, 2, 2, 1, UD | TP, W(NONE), 0,
		 SP(COUNTERSPELL) | SP(DISPEL) | SP(HEAL) | SP(RAISE_DEAD) | SP(STORM) |
		 SP(STRIKE)},
		{"necromancer", "Necromancer", 'Q', 2, 3, 2, 3, -1, BR, W(NONE), 0,
		 SP(COUNTERSPELL) | SP(DISPEL) | SP(HEAL) | SP(RAISE_DEAD) | SP(STORM) |
		 SP(STRIKE)},
		{"undead_catapults", "Undead Catapults", 'R', 4, 2, 0, 4, -1, UD, W(TERRORPULTS), 0,
		 0},
		{"undead_archers", "Undead Archers", 'B', 4, 1, 1, 5, -1, UD, W(BOWS), 4, 0},
		{"undead_cavalry", "Undead Cavalry", 'N', 4, 2, 3, 3, -1, UD | AS, W(NONE), 0, 0},
		{"zombies", "Zombies", 'P', 16, 1, 1, 4, -1, UD, W(NONE), 0, 0},
	}},
};

int
cw_army_lookup(const char *slug)
{
	for (int i = 0; i < CW_ARMY_MAX; i++)
		if (slug && strcmp(cw_armies[i].slug, slug) == 0)
			return i;
	return CW_NONE;
}

int
cw_type_lookup(int army, const char *slug)
{
	if (army < 0 || army >= CW_ARMY_MAX || !slug)
		return CW_NONE;
	for (int i = 0; i < cw_armies[army].ntypes; i++)
		if (strcmp(cw_armies[army].units[i].slug, slug) == 0)
			return i;
	return CW_NONE;
}

int
cw_spell_lookup(const char *slug)
{
	for (int i = 0; i < CW_SPELL_MAX; i++)
		if (slug && strcmp(cw_spells[i].slug, slug) == 0)
			return i;
	return CW_NONE;
}
