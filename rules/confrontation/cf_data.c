/* Confrontation's data: pieces (004_13fa4739ee387ac7.txt, VI. The Pieces),
 * spells (VII. Spells), races (IX), terrain (X), and the names the JSON
 * codec prints. Tables indexed by the enums of cf_rules.h. Calls nothing
 * of the ruleset; every file may read it. */
#include <string.h>

#include "cf_rules.h"

const char *const cf_type_name[CF_TYPE_MAX] = {"king", "queen", "rook", "bishop", "knight",
                                                "pawn"};
/* VI: Move, Combat and Army point cost. The King is free and cannot be
 * bought; every army starts with it and three free Pawns (II, R1). */
const int cf_move[CF_TYPE_MAX] = {1, 6, 4, 4, 4, 2};
const int cf_combat[CF_TYPE_MAX] = {4, 3, 2, 2, 2, 1};
const int cf_cost[CF_TYPE_MAX] = {0, 6, 3, 4, 3, 1};

const char *const cf_spell_name[CF_SPELL_MAX] = {"fireball", "heal", "hurt", "judgement",
                                                  "panic"};
/* VII: Combat (0: not a combat spell) and Range (0: no range). */
const int cf_spell_combat[CF_SPELL_MAX] = {3, 0, 4, 2, 0};
const int cf_spell_range[CF_SPELL_MAX] = {6, 0, 3, 1, 4};

const char *const cf_race_name[CF_RACE_MAX] = {"none", "demons", "dwarves", "elves",
                                                "humans", "orcs", "undead"};
const char *const cf_terrain_name[CF_T_MAX] = {"none", "barrier", "counterspell",
                                                "enhancement", "rough"};
const char cf_terrain_letter[CF_T_MAX] = {'.', 'b', 'c', 'e', 'r'};
const char *const cf_status_name[CF_STATUS_MAX] = {"unplaced", "on", "removed", "gone"};
const char *const cf_phase_name[CF_PHASE_MAX] = {"build", "order", "setup", "play", "over"};
const char *const cf_yesno_name[CF_YESNO_MAX] = {"ask", "always", "never"};
const char *const cf_luck_name[CF_LUCK_MAX] = {"ask", "always", "never", "if_losing",
                                                "unless_winning"};
const char *const cf_fury_order_name[2] = {"ask", "never"};
const char *const cf_tm_name[CF_TM_MAX] = {"none", "random", "given"};
const char *const cf_choice_name[CF_CHOICE_MAX] = {"first", "second", "last"};
const char *const cf_act_name[CF_A_MAX] = {
	"buy", "add_spell", "race", "buy_racial", "king_spell", "reset", "ready", "order",
	"place", "move", "rise", "stay", "cast", "leadership", "swift", "fury", "end_turn",
	"hold_the_line", "luck", "live_again", "panic_square", "end_fury"};
const char *const cf_ev_name[CF_E_MAX] = {
	"bought", "spell_added", "race_chosen", "racial_bought", "king_spell", "army_reset",
	"army_ready", "armies_revealed", "setup_roll", "phase", "order_chosen", "placed", "no_room",
	"turn", "turn_end", "move", "swift_move", "fury_move", "swift_movement", "battle_fury",
	"rise_from_hell", "stay", "leadership", "cast", "healed", "battle", "hold_the_line", "dice",
	"luck", "battle_result", "treasure_roll", "live_again", "removed", "advance", "panic_moved",
	"resigned", "seat_out", "game_over"};
const char *const cf_stage_name[CF_ST_MAX] = {"none", "hold_the_line", "roll", "luck_attacker",
                                               "luck_defender", "resolve", "live_again"};
const char *const cf_src_name[CF_SRC_MAX] = {"action", "swift", "fury"};
const char *const cf_res_name[CF_RES_MAX] = {"none", "move", "spell"};

int
cf_lookup(const char *const *names, int n, const char *s)
{
	if (!s)
		return -1;
	for (int i = 0; i < n; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}
