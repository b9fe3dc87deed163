/* The text's own tables (Terrain Table, the rating scale) and the string
 * tables of the enums; the published class and item tables are in
 * oc_data_gen.c, generated from data/. Calls nothing else of the ruleset. */
#include <string.h>

#include "oc_rules.h"

const char *const oc_rating_names[OC_RATING_MAX] = {"F", "E", "D", "C", "B", "A", "S"};
const char *const oc_stat_names[OC_STAT_MAX] = {"Str", "Mag", "Dex", "Spd", "Def", "Res"};
const char *const oc_wtype_names[OC_WTYPE_MAX] = {"Sword", "Axe", "Lance", "Bow", "Dagger",
	"Art", "Tome", "Staff"};
const char *const oc_tag_names[OC_NTAGS] = {"Armor", "Backup", "Canto", "Cavalry", "Covert",
	"Dragon", "Flying", "Mystical", "Qi Adept", "Dance", "Pick"};
const char *const oc_special_names[OC_SP_MAX] = {"none", "heal", "entrap", "freeze", "rescue",
	"restore", "rewarp", "torch", "vein", "warp", "status", "pick"};
const char *const oc_status_names[OC_ST_MAX] = {"none", "barrier", "broken", "poisoned",
	"silenced", "frozen"};
const char *const oc_qi_names[OC_QI_MAX] = {"never", "always", "ask"};
const char *const oc_phase_names[OC_PH_MAX] = {"recruit", "deploy", "battle", "over"};
const char *const oc_where_names[OC_W_MAX] = {"reserve", "map", "routed", "escaped"};
const char *const oc_scenario_names[OC_SC_MAX] = {"rout", "seize", "escape", "raze"};
const char *const oc_reason_names[OC_R_MAX] = {"", "rout", "seize", "escape", "raze",
	"round limit", "resignation"};
const char *const oc_act_names[OC_A_MAX] = {"recruit", "army", "deploy", "activate", "move",
	"attack", "staff", "dance", "pick", "use", "equip", "discard", "trade", "seize", "escape",
	"raze", "end", "guard", "no_guard"};
const char *const oc_ev_names[OC_E_MAX] = {"recruited", "army_ready", "deployed",
	"deployment_done", "round", "activated", "tile_effect", "moved", "ambushed", "combat",
	"tile_attacked", "special", "item_used", "equipped", "discarded", "traded", "routed",
	"escaped", "seized", "razed", "turn_end", "vein_end", "game_over", "guard_asked"};

/* Terrain Table (Move, DR, Avo, Vein, Special). Woods is printed twice
 * with the same values. Floor and Ruins are unlisted tiles (cost 1) that
 * destroyed doors and Raze leave. */
const struct oc_tile oc_tiles[OC_TR_MAX] = {
	[OC_TR_PLAINS] = {"Plains", '.', 1, 0, 0, 0, 0, 0, 0},
	[OC_TR_MOUNTAIN] = {"Mountain", 'M', 2, 1, 0, 0, 0, 0, 0},
	[OC_TR_WOODS] = {"Woods", 'W', 2, 0, 5, 0, 0, 0, 0},
	[OC_TR_PILLAR] = {"Pillar", 'P', 2, 0, 5, 0, 0, 0, 0},
	[OC_TR_THICKET] = {"Thicket", 'T', 2, 0, 5, 0, 0, 0, 0},
	[OC_TR_FOG] = {"Fog", 'Z', 2, 0, 5, 1, 0, 0, 0},
	[OC_TR_FORT] = {"Fort", 'F', 2, 2, 5, 0, 10, 0, 0},
	[OC_TR_PROTECT] = {"Protection Tile", 'R', 1, 2, 5, 0, 10, 0, 0},
	[OC_TR_HEAL] = {"Heal Tile", 'H', 1, 0, 0, 1, 10, 0, 0},
	[OC_TR_GATE] = {"Gate/Door", 'D', -1, 0, 0, 0, 0, 0, 15},
	[OC_TR_WATER] = {"Water", '~', 1, 0, -5, 1, 0, 0, 0},
	[OC_TR_STONE] = {"Stone Pillars", 'S', 2, 2, 0, 1, 0, 0, 0},
	[OC_TR_VINES] = {"Vines", 'V', 2, 0, 0, 1, 0, 0, 0},
	[OC_TR_FLAMES] = {"Flames", 'X', 1, 0, 0, 1, 0, 5, 0},
	[OC_TR_ICE] = {"Ice", 'I', -1, 0, 0, 1, 0, 0, 15},
	[OC_TR_FLOOR] = {"Floor", '_', 1, 0, 0, 0, 0, 0, 0},
	[OC_TR_RUINS] = {"Ruins", 'r', 1, 0, 0, 0, 0, 0, 0},
};

int
oc_class_find(const char *id)
{
	for (int i = 0; i < oc_nclasses; i++)
		if (strcmp(oc_classes[i].id, id) == 0)
			return i;
	return -1;
}

int
oc_item_find(const char *name)
{
	for (int i = 0; i < oc_nitems; i++)
		if (strcmp(oc_items[i].name, name) == 0)
			return i;
	return -1;
}
