/* Blood Chess data: names and the built-in character templates (RULINGS.md
 * B2), written so that a player who has never read the Champions rules can
 * pick one from its description. Numbers follow Champions 4th edition
 * superheroes of about 250 points. */
#include "bc_rules.h"

const char *const bc_kind_names[BC_KIND_MAX] = {"king", "queen", "rook", "bishop", "knight",
                                                "pawn"};
const char *const bc_stage_names[BC_STAGE_MAX] = {"setup", "play", "referee", "over"};
const char *const bc_act_names[BC_A_MAX] = {"sheet", "mirror", "move",    "shoot",   "hth",
                                            "dodge", "recover", "ref_hit", "ref_stun", "ref_body"};
const char *const bc_ev_names[BC_E_MAX] = {
	"sheet",  "mirror",  "start",  "segment", "rolloff", "phase",  "lost_phase",
	"wake",   "move",    "shoot",  "decoy",   "engage",  "attack", "damage",
	"removed", "dodge",  "recover", "post12", "await_referee", "end"};

/*                       name                dice K  R  ED AE */
#define PUNCH(n)       {"Punch", n, 0, 0, 0, 0}

const struct bc_template bc_templates[] = {
	{"brick",
	 "Brick: slow, enormously tough brawler. Walks in and punches very hard (12d6 in hand-to-hand); "
	 "shrugs off most hits.",
	 {"Brick", 14, 3, 5, 5, 28, 15, 50, 12, 25, 20, 15, 15, 1, {PUNCH(12)}}},
	{"blaster",
	 "Blaster: fires an Energy Blast (12d6 at range, against energy defense) at any square the "
	 "piece could move to; weak up close.",
	 {"Blaster", 20, 5, 7, 7, 23, 10, 40, 9, 10, 20, 10, 10, 2,
	  {{"Energy Blast", 12, 0, 1, 1, 0}, PUNCH(3)}}},
	{"martial-artist",
	 "Martial Artist: quick and hard to hit (high DCV); strong kicks in hand-to-hand and thrown "
	 "blades (a killing attack) at range.",
	 {"Martial Artist", 26, 6, 9, 9, 20, 12, 35, 8, 12, 10, 4, 2, 2,
	  {{"Martial Strike", 8, 0, 0, 0, 0}, {"Throwing Blades", 2, 1, 1, 0, 0}}}},
	{"speedster",
	 "Speedster: acts most often of all (SPD 7), with many light punches; fragile.",
	 {"Speedster", 23, 7, 8, 8, 20, 10, 32, 7, 12, 10, 5, 5, 1, {PUNCH(7)}}},
	{"slasher",
	 "Slasher: claws that cut (a 3d6 killing attack in hand-to-hand): BODY damage that only "
	 "armor stops.",
	 {"Slasher", 21, 5, 7, 7, 25, 13, 40, 10, 15, 12, 8, 5, 2,
	  {{"Claws", 3, 1, 0, 0, 0}, PUNCH(5)}}},
	{"grenadier",
	 "Grenadier: throws grenades that hit everything on the target square (Area Effect); a miss "
	 "blows up on the thrower's own square.",
	 {"Grenadier", 18, 4, 6, 6, 20, 10, 30, 8, 12, 12, 10, 10, 2,
	  {{"Grenade", 8, 0, 1, 0, 1}, PUNCH(4)}}},
	{"marksman",
	 "Marksman: a rifle (a 3d6 killing attack at range) that ignores most defenses but armor; "
	 "average otherwise.",
	 {"Marksman", 20, 4, 8, 6, 20, 11, 32, 8, 12, 10, 6, 6, 2,
	  {{"Rifle", 3, 1, 1, 0, 0}, PUNCH(4)}}},
};
const int bc_ntemplates = (int)(sizeof(bc_templates) / sizeof(bc_templates[0]));
