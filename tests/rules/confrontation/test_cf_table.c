/*
 * The rule-case table of Confrontation: positions written as data, the
 * actions, scripted dice, and what must follow; each row names the
 * sentence of 004_13fa4739ee387ac7.txt or the ruling of RULINGS.md it
 * checks. README.md lists the sentences judged not to be rules.
 *
 * setup: either "new {options} seats=N" (a match from create()) or a
 *   position in play, tokens separated by spaces:
 *     0K@e1            seat 0's King on e1 (K Q R B N P); a seat's King
 *                      comes first, so it is piece 0
 *     0B@c1/fireball/hurt   a Bishop with its spells (King's Magic too)
 *     1R@d6/s0         a Rook whose Strength token is spent
 *     0N@e4/t1         a piece with one treasure
 *     0P@x             a piece removed from the game
 *     %d4r             terrain on d4: b(arrier) c(ounterspell)
 *                      e(nhancement) r(ough)
 *     seats=3 active=1 nacts=1 used=0x2 treasure
 *     race0=dwarves tok0=1 htl0=always luck0=never live0=always
 * acts: "S {json}" separated by ';', or "orders S {json}", "resign S".
 * dice: the faces the server rolls, in order; every one must be used.
 * expect: space-separated: ok | err=CODE (the last action is refused,
 *   the state unchanged) | e4=0N (seat 0 Knight on e4) | e4=. (empty) |
 *   n0=12 (legal actions of seat 0) | await=MASK | tok0=2 | pts0=12 |
 *   pieces0=5 | rm0=1 (removed) | win=MASK | over=0 | str:e4=0 |
 *   tr:e4=1 | spells:c1=1 | active=1 | nacts=1 | phase=play |
 *   chooser=0 | placer=1 (the seat placing) | out2=1 | lead=1
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../unit/check.h"
#include "../ruleset_test.h"
#include "cf_rules.h"

struct row {
	const char *rule, *setup, *acts, *dice, *expect;
};

#define R(rule, setup, acts, dice, expect) {rule, setup, acts, dice, expect}
#define T "004_13fa4739ee387ac7.txt, "
#define RU "RULINGS.md, "

static const struct row rows[] = {
	/* ---------------------------------------------------- II. Setting Up */
	R(T "II. Setting Up: one King and three Pawns, then 15 Army points",
	  "new {} seats=2", "", "", "pieces0=4 pts0=15 pieces1=4 phase=build await=3"),
	R(T "II. Setting Up: players can raise or lower the Army point total (R1: 5-100)",
	  "new {\"army_points\":30} seats=2", "", "", "pts1=30"),
	R(T "II. Setting Up: each piece costs points as in VI (Rook 3)",
	  "new {} seats=2", "0 {\"type\":\"buy\",\"piece\":\"rook\"}", "", "ok pts0=12 pieces0=5"),
	R(T "VI. The Pieces: Pawn cost 1, Knight 3, Bishop 4, Queen 6",
	  "new {} seats=2",
	  "0 {\"type\":\"buy\",\"piece\":\"pawn\"};0 {\"type\":\"buy\",\"piece\":\"knight\"};"
	  "0 {\"type\":\"buy\",\"piece\":\"bishop\"};0 {\"type\":\"buy\",\"piece\":\"queen\"}",
	  "", "ok pts0=1 pieces0=8"),
	R(T "II. Setting Up: an army can have any number and type of pieces",
	  "new {} seats=2",
	  "0 {\"type\":\"buy\",\"piece\":\"queen\"};0 {\"type\":\"buy\",\"piece\":\"knight\"};"
	  "0 {\"type\":\"buy\",\"piece\":\"knight\"}", "", "ok pts0=3 pieces0=7"),
	R(T "VI. The Pieces: over budget is refused, by how many points",
	  "new {} seats=2",
	  "0 {\"type\":\"buy\",\"piece\":\"queen\"};0 {\"type\":\"buy\",\"piece\":\"queen\"};"
	  "0 {\"type\":\"buy\",\"piece\":\"queen\"}", "", "err=over-budget pts0=3"),
	R(RU "Confrontation R1: at most 16 pieces in all",
	  "new {\"army_points\":100} seats=2",
	  "0 {\"type\":\"buy\",\"piece\":\"pawn\"};0 {\"type\":\"buy\",\"piece\":\"pawn\"};"
	  "0 {\"type\":\"buy\",\"piece\":\"pawn\"};0 {\"type\":\"buy\",\"piece\":\"pawn\"};"
	  "0 {\"type\":\"buy\",\"piece\":\"pawn\"};0 {\"type\":\"buy\",\"piece\":\"pawn\"};"
	  "0 {\"type\":\"buy\",\"piece\":\"pawn\"};0 {\"type\":\"buy\",\"piece\":\"pawn\"};"
	  "0 {\"type\":\"buy\",\"piece\":\"pawn\"};0 {\"type\":\"buy\",\"piece\":\"pawn\"};"
	  "0 {\"type\":\"buy\",\"piece\":\"pawn\"};0 {\"type\":\"buy\",\"piece\":\"pawn\"};"
	  "0 {\"type\":\"buy\",\"piece\":\"pawn\"}", "", "err=too-many-pieces pieces0=16"),
	R(T "VI. The Pieces, King: each army is limited to one King",
	  "new {} seats=2", "0 {\"type\":\"buy\",\"piece\":\"king\"}", "", "err=one-king"),
	R(T "II. Setting Up: a Bishop must have two (or more) spells before the game",
	  "new {} seats=2", "0 {\"type\":\"buy\",\"piece\":\"bishop\"};0 {\"type\":\"ready\"}", "",
	  "err=bishop-needs-spells"),
	R(T "VI. The Pieces, Bishop: two spells come with it, the same spell twice allowed",
	  "new {} seats=2",
	  "0 {\"type\":\"buy\",\"piece\":\"bishop\"};"
	  "0 {\"type\":\"add_spell\",\"piece\":4,\"spell\":\"fireball\"};"
	  "0 {\"type\":\"add_spell\",\"piece\":4,\"spell\":\"fireball\"};0 {\"type\":\"ready\"}",
	  "", "ok pts0=11"),
	R(T "VII. Spells: an additional spell costs 1 Army point",
	  "new {} seats=2",
	  "0 {\"type\":\"buy\",\"piece\":\"bishop\"};"
	  "0 {\"type\":\"add_spell\",\"piece\":4,\"spell\":\"hurt\"};"
	  "0 {\"type\":\"add_spell\",\"piece\":4,\"spell\":\"heal\"};"
	  "0 {\"type\":\"add_spell\",\"piece\":4,\"spell\":\"panic\"}", "", "ok pts0=10"),
	R(T "VII. Spells: an unknown spell is refused",
	  "new {} seats=2",
	  "0 {\"type\":\"buy\",\"piece\":\"bishop\"};"
	  "0 {\"type\":\"add_spell\",\"piece\":4,\"spell\":\"lightning\"}", "",
	  "err=unknown-name"),
	R(T "VII. Spells: spells go to Bishops only",
	  "new {} seats=2", "0 {\"type\":\"add_spell\",\"piece\":1,\"spell\":\"hurt\"}", "",
	  "err=not-a-bishop"),
	R(T "II. Setting Up: take one token for each Rook",
	  "new {} seats=2", "0 {\"type\":\"buy\",\"piece\":\"rook\"}", "", "ok str0.4=1"),
	R(T "II. Setting Up: any Army points not spent are lost (ready with points left)",
	  "new {} seats=2", "0 {\"type\":\"ready\"}", "", "ok pts0=15 await=2"),
	R(RU "G5: an army is hidden from the others until all are in (view)",
	  "new {} seats=2", "0 {\"type\":\"buy\",\"piece\":\"rook\"}", "", "ok hidden0from1=1"),
	R(T "II. Setting Up: both roll, the higher chooses (R2: ties re-rolled at once)",
	  "new {} seats=2", "0 {\"type\":\"ready\"};1 {\"type\":\"ready\"}", "4 4 2 5",
	  "ok phase=order chooser=1 await=2 n1=2"),
	R(T "II. Setting Up: the high roller chooses to set up second; the other places first",
	  "new {} seats=2",
	  "0 {\"type\":\"ready\"};1 {\"type\":\"ready\"};1 {\"type\":\"order\",\"choice\":\"second\"}",
	  "2 6", "ok phase=setup placer=0"),
	R(RU "Confrontation R2: in a two-seat game the choice is first or second, not last",
	  "new {} seats=2",
	  "0 {\"type\":\"ready\"};1 {\"type\":\"ready\"};1 {\"type\":\"order\",\"choice\":\"last\"}",
	  "2 6", "err=wrong-choice"),
	R(RU "Confrontation R2: 3-4 seats, the high roller chooses last, the others by roll",
	  "new {} seats=3",
	  "0 {\"type\":\"ready\"};1 {\"type\":\"ready\"};2 {\"type\":\"ready\"};"
	  "1 {\"type\":\"order\",\"choice\":\"last\"}",
	  "3 6 5", "ok phase=setup placer=2 order=2,0,1"),
	R(RU "Confrontation R2: three-way tie, only the tied seats re-roll",
	  "new {} seats=3",
	  "0 {\"type\":\"ready\"};1 {\"type\":\"ready\"};2 {\"type\":\"ready\"}",
	  "4 4 1 2 6", "ok chooser=1"),
	R(T "II. Setting Up: re-roll ties (R2: ties re-rolled), however many: eight tied rounds, the ninth decides",
	  "new {} seats=2", "0 {\"type\":\"ready\"};1 {\"type\":\"ready\"}",
	  "3 3 1 1 6 6 2 2 4 4 5 5 3 3 1 1 2 5", "ok phase=order chooser=1 await=2 rolls0=9 rolls1=9"),
	R(RU "Confrontation R2: three seats, two tied for nine rounds, the tenth decides; only they re-roll",
	  "new {} seats=3",
	  "0 {\"type\":\"ready\"};1 {\"type\":\"ready\"};2 {\"type\":\"ready\"};"
	  "1 {\"type\":\"order\",\"choice\":\"last\"}",
	  "4 4 1 2 2 3 3 5 5 6 6 1 1 2 2 3 3 1 1 2 6", "ok chooser=1 order=0,2,1 rolls2=1 rolls0=9"),
	R(T "II. Setting Up: pieces go on the two ranks nearest the player",
	  "new {} seats=2",
	  "0 {\"type\":\"ready\"};1 {\"type\":\"ready\"};0 {\"type\":\"order\",\"choice\":\"first\"};"
	  "0 {\"type\":\"place\",\"piece\":0,\"square\":\"e3\"}",
	  "6 1", "err=not-in-area"),
	R(T "II. Setting Up: pawns in the back rank, other pieces in the front rank",
	  "new {} seats=2",
	  "0 {\"type\":\"ready\"};1 {\"type\":\"ready\"};0 {\"type\":\"order\",\"choice\":\"first\"};"
	  "0 {\"type\":\"place\",\"piece\":1,\"square\":\"a1\"};"
	  "0 {\"type\":\"place\",\"piece\":0,\"square\":\"e2\"}",
	  "6 1", "ok a1=0P e2=0K n0=28"),
	R(RU "Confrontation R2: the first seat places its whole army, then the next",
	  "new {} seats=2",
	  "0 {\"type\":\"ready\"};1 {\"type\":\"ready\"};0 {\"type\":\"order\",\"choice\":\"first\"};"
	  "0 {\"type\":\"place\",\"piece\":1,\"square\":\"a1\"};"
	  "0 {\"type\":\"place\",\"piece\":0,\"square\":\"e2\"};"
	  "0 {\"type\":\"place\",\"piece\":2,\"square\":\"b1\"};"
	  "0 {\"type\":\"place\",\"piece\":3,\"square\":\"c1\"}",
	  "6 1", "ok placer=1 await=2 n1=64"),
	R(RU "Confrontation R2: play order is set-up order",
	  "new {} seats=2",
	  "0 {\"type\":\"ready\"};1 {\"type\":\"ready\"};0 {\"type\":\"order\",\"choice\":\"second\"};"
	  "1 {\"type\":\"place\",\"piece\":0,\"square\":\"e8\"};"
	  "1 {\"type\":\"place\",\"piece\":1,\"square\":\"a8\"};"
	  "1 {\"type\":\"place\",\"piece\":2,\"square\":\"b8\"};"
	  "1 {\"type\":\"place\",\"piece\":3,\"square\":\"c8\"};"
	  "0 {\"type\":\"place\",\"piece\":0,\"square\":\"e1\"};"
	  "0 {\"type\":\"place\",\"piece\":1,\"square\":\"a1\"};"
	  "0 {\"type\":\"place\",\"piece\":2,\"square\":\"b1\"};"
	  "0 {\"type\":\"place\",\"piece\":3,\"square\":\"c1\"}",
	  "6 1", "ok phase=play active=1"),
	R(RU "Confrontation R3 with VIII: a corner square is taken by the first placer",
	  "new {} seats=3",
	  "0 {\"type\":\"ready\"};1 {\"type\":\"ready\"};2 {\"type\":\"ready\"};"
	  "0 {\"type\":\"order\",\"choice\":\"first\"};"
	  "0 {\"type\":\"place\",\"piece\":0,\"square\":\"a1\"};"
	  "0 {\"type\":\"place\",\"piece\":1,\"square\":\"b2\"};"
	  "0 {\"type\":\"place\",\"piece\":2,\"square\":\"c1\"};"
	  "0 {\"type\":\"place\",\"piece\":3,\"square\":\"d1\"};"
	  "2 {\"type\":\"place\",\"piece\":0,\"square\":\"a1\"}",
	  "6 1 2", "err=occupied"),
	R(RU "G1 with VIII: seat 2 sets up on files a and b",
	  "new {} seats=3",
	  "0 {\"type\":\"ready\"};1 {\"type\":\"ready\"};2 {\"type\":\"ready\"};"
	  "2 {\"type\":\"order\",\"choice\":\"first\"};"
	  "2 {\"type\":\"place\",\"piece\":0,\"square\":\"b5\"};"
	  "2 {\"type\":\"place\",\"piece\":1,\"square\":\"c5\"}",
	  "1 2 6", "err=not-in-area b5=2K"),
	R(T "VI. The Pieces, Bishop: spells are selected before the game begins",
	  "0K@e1 0B@c1/hurt/hurt 1K@e8 1P@a8", "0 {\"type\":\"add_spell\",\"piece\":1,\"spell\":\"fireball\"}",
	  "", "err=wrong-phase"),
	/* ---------------------------------------------------- III. To Play */
	R(T "III. To Play: a move is a straight line in any direction up to Move (Queen 6)",
	  "0K@a1 0Q@d4 1K@h8 1P@h7", "", "", "n0=31"),
	R(T "III. To Play: it cannot change direction (a Knight's jump is not a move)",
	  "0K@a1 0N@d4 1K@h8 1P@h7", "0 {\"type\":\"move\",\"from\":\"d4\",\"to\":\"e6\"}", "",
	  "err=not-a-line"),
	R(T "III. To Play / VI: the Move rating is the maximum (Pawn 2)",
	  "0K@a1 0P@d2 1K@h8 1P@h7", "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d5\"}", "",
	  "err=too-far"),
	R(T "VI. The Pieces: Pawn Move 2", "0K@a1 0P@d2 1K@h8 1P@h7",
	  "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}", "", "ok d4=0P d2=."),
	R(T "VI. The Pieces: Rook Move 4", "0K@a1 0R@d1 1K@h8 1P@h7",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d6\"}", "", "err=too-far"),
	R(T "VI. The Pieces: Bishop Move 4", "0K@a1 0B@c1/hurt/hurt 1K@h8 1P@h7",
	  "0 {\"type\":\"move\",\"from\":\"c1\",\"to\":\"g5\"}", "", "ok g5=0B"),
	R(T "VI. The Pieces: Queen Move 6", "0K@a1 0Q@a2 1K@h8 1P@h7",
	  "0 {\"type\":\"move\",\"from\":\"a2\",\"to\":\"h2\"}", "", "err=too-far"),
	R(T "VI. The Pieces: King Move 1", "0K@e1 0P@a1 1K@h8 1P@h7",
	  "0 {\"type\":\"move\",\"from\":\"e1\",\"to\":\"e3\"}", "", "err=too-far"),
	R(T "III. To Play: a piece cannot move off the board", "0K@e1 0P@a1 1K@h8 1P@h7",
	  "0 {\"type\":\"move\",\"from\":\"a1\",\"to\":\"a0\"}", "", "err=not-a-square"),
	R(T "III. To Play: only Knights can move over another piece", "0K@e1 0R@a1 0P@a2 1K@h8 1P@h7",
	  "0 {\"type\":\"move\",\"from\":\"a1\",\"to\":\"a4\"}", "", "err=blocked"),
	R(T "VI. The Pieces, Knight: Leap passes through any piece, own or enemy",
	  "0K@e1 0N@a1 0P@a2 1K@h8 1P@a3", "0 {\"type\":\"move\",\"from\":\"a1\",\"to\":\"a5\"}", "",
	  "ok a5=0N a3=1P"),
	R(T "VI. The Pieces, Knight: Leap cannot end on a piece of the same army",
	  "0K@e1 0N@a1 0P@a3 1K@h8 1P@h7", "0 {\"type\":\"move\",\"from\":\"a1\",\"to\":\"a3\"}", "",
	  "err=own-piece"),
	R(T "III. To Play: no piece can end on the same space as a piece of its army",
	  "0K@e1 0Q@d1 1K@h8 1P@h7", "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"e1\"}", "",
	  "err=own-piece"),
	R(T "III. To Play: two actions, each with a different piece",
	  "0K@e1 0P@a2 0P@b2 1K@h8 1P@h7",
	  "0 {\"type\":\"move\",\"from\":\"a2\",\"to\":\"a3\"};0 {\"type\":\"move\",\"from\":\"a3\",\"to\":\"a4\"}",
	  "", "err=piece-used nacts=1"),
	R(T "III. To Play: a piece may not be moved again after it is released; turn passes after two",
	  "0K@e1 0P@a2 0P@b2 1K@h8 1P@h7",
	  "0 {\"type\":\"move\",\"from\":\"a2\",\"to\":\"a3\"};0 {\"type\":\"move\",\"from\":\"b2\",\"to\":\"b3\"}",
	  "", "ok active=1 nacts=0"),
	R(RU "Confrontation R4: one action when only one is legal, then the turn ends",
	  "0K@a1 0P@h2 1K@h8 1P@e7 %a2r %b1r %b2r",
	  "0 {\"type\":\"move\",\"from\":\"h2\",\"to\":\"h3\"}", "", "ok active=1 h3=0P"),
	R(RU "G3 (amended): the King's only move is the seat's only legal action: the server takes it",
	  "0K@a1 0P@h2 1K@h8 1P@a7 %a2r %b2r",
	  "0 {\"type\":\"move\",\"from\":\"h2\",\"to\":\"h3\"}", "", "ok b1=0K a1=. active=1"),
	R(RU "G3 (amended): a forced move the server took is not posted again",
	  "0K@a1 0P@h2 1K@h8 1P@a7 %a2r %b2r",
	  "0 {\"type\":\"move\",\"from\":\"h2\",\"to\":\"h3\"};"
	  "0 {\"type\":\"move\",\"from\":\"a1\",\"to\":\"b1\"}", "", "err=not-awaited b1=0K"),
	R(RU "G6: with no legal action left the turn ends by itself (a King hemmed in by Rough)",
	  "0K@a1 0P@h2 1K@h8 1P@h7 %a2r %b1r %b2r",
	  "0 {\"type\":\"move\",\"from\":\"h2\",\"to\":\"h4\"}", "", "ok active=1 nacts=0 over=0"),
	R(T "III. To Play: no pawn promotion", "0K@e1 0P@a6 1K@h1 1P@h2",
	  "0 {\"type\":\"move\",\"from\":\"a6\",\"to\":\"a8\"}", "", "ok a8=0P"),
	R(T "III. To Play: Kings are never in check (a King may stand next to an enemy)",
	  "0K@e1 0P@a2 1K@e3 1P@h7", "0 {\"type\":\"move\",\"from\":\"e1\",\"to\":\"e2\"}", "",
	  "ok e2=0K"),
	R(T "III. To Play: special abilities can be used before or after movement (Leadership after)",
	  "0K@e1 0Q@d1 0P@a2 1K@h8 1P@h7",
	  "0 {\"type\":\"move\",\"from\":\"a2\",\"to\":\"a3\"};0 {\"type\":\"leadership\",\"a\":\"e1\",\"b\":\"a3\"}",
	  "", "ok a3=0K e1=0P nacts=1 lead=1"),
	R(RU "Confrontation R4: Leadership at most once per turn",
	  "0K@e1 0Q@d1 0P@a2 1K@h8 1P@h7",
	  "0 {\"type\":\"leadership\",\"a\":\"e1\",\"b\":\"a2\"};0 {\"type\":\"leadership\",\"a\":\"e1\",\"b\":\"a2\"}",
	  "", "err=leadership-used"),
	R(RU "Confrontation R4: Leadership only while the Queen is on the board",
	  "0K@e1 0Q@x 0P@a2 1K@h8 1P@h7", "0 {\"type\":\"leadership\",\"a\":\"e1\",\"b\":\"a2\"}", "",
	  "err=no-queen"),
	R(RU "Confrontation R4: Leadership is not an action; after two actions it ends the turn's options",
	  "0K@e1 0Q@d1 0P@a2 1K@h8 1P@h7",
	  "0 {\"type\":\"move\",\"from\":\"a2\",\"to\":\"a3\"};0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d2\"}",
	  "", "ok active=0 nacts=2 n0=7"),
	R(RU "G6: ending the turn is offered only when no action remains",
	  "0K@e1 0Q@d1 0P@a2 1K@h8 1P@h7", "0 {\"type\":\"end_turn\"}", "", "err=actions-left"),
	/* ------------------------------------------------------ IV. Combat */
	R(T "IV. Combat: d6 + Combat, higher wins, the loser is removed, the winner takes the space",
	  "0K@e1 0P@d2 1K@h8 1P@d4 1P@h7", "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}", "5 2",
	  "ok d4=0P d2=. rm1=1"),
	R(T "IV. Combat: the winning defender keeps its place",
	  "0K@e1 0P@d2 1K@h8 1P@d4 1P@h7", "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}", "2 5",
	  "ok d4=1P d2=. rm0=1"),
	R(T "IV. Combat: equal totals, a draw: the mover returns to the space it moved from",
	  "0K@e1 0P@d2 1K@h8 1P@d4 1P@h7", "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}", "3 3",
	  "ok d4=1P d2=0P rm0=0 rm1=0"),
	R(T "VI. The Pieces: Combat ratings Queen 3 vs Rook 2 (a Rook moving in)",
	  "0K@e1 0R@d1 1K@h8 1Q@d4 1P@h7", "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}", "5 4",
	  "ok d4=1Q d1=0R"),
	R(T "VI. The Pieces: King Combat 4", "0K@e1 0P@h2 1K@h8 1Q@e2 1P@h7",
	  "0 {\"type\":\"move\",\"from\":\"e1\",\"to\":\"e2\"}", "4 4", "ok e2=0K rm1=1"),
	/* ------------------------------------------------ V. Winning The Game */
	R(T "V. Winning The Game: defeat the opponent's King in combat",
	  "0K@e1 0Q@d1 1K@d3 1P@h7", "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d3\"}", "6 1",
	  "ok over=1 win=1"),
	R(T "V. Winning The Game: or defeat every piece except the King",
	  "0K@e1 0Q@d1 1K@h8 1P@d3", "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d3\"}", "6 1",
	  "ok over=1 win=1"),
	R(T "VI. The Pieces, King: a King that attacks and is defeated loses the game",
	  "0K@e1 0P@a2 1K@h8 1Q@e2", "0 {\"type\":\"move\",\"from\":\"e1\",\"to\":\"e2\"}", "1 6",
	  "ok over=1 win=2"),
	/* ------------------------------------------------ VI. Rook: Strength */
	R(T "VI. The Pieces, Rook: Strength, the first defeat becomes a draw, the token is discarded",
	  "0K@e1 0Q@d1 1K@h8 1R@d4 1P@h7", "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}", "6 1",
	  "ok d4=1R d1=0Q str:d4=0"),
	R(T "VI. The Pieces, Rook: the second defeat removes the Rook",
	  "0K@e1 0Q@d1 1K@h8 1R@d4/s0 1P@h7", "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}", "6 1",
	  "ok d4=0Q rm1=1"),
	R(T "VI. The Pieces, Rook: Strength also saves a Rook that moved in and lost",
	  "0K@e1 0R@d1 1K@h8 1Q@d4 1P@h7", "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}", "1 6",
	  "ok d1=0R d4=1Q str:d1=0"),
	/* ----------------------------------------- VI. Knight: Weapon Mastery */
	R(T "VI. The Pieces, Knight: Weapon Mastery, +2 moving in (2+2+1 = 1+4)",
	  "0K@e1 0N@d1 1K@h8 1P@d4 1P@h7", "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}", "1 4",
	  "ok d4=1P d1=0N"),
	R(T "VI. The Pieces, Knight: no Weapon Mastery when already in the space",
	  "0K@e1 0P@d2 1K@h8 1N@d4 1P@h7", "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}", "5 3",
	  "ok d4=0P rm1=1"),
	/* --------------------------------------------- VI. Queen: Leadership */
	R(T "VI. The Pieces, Queen: Leadership swaps any two pieces of the army, not only the Queen",
	  "0K@e1 0Q@d1 0P@a2 1K@h8 1P@h7", "0 {\"type\":\"leadership\",\"a\":\"a2\",\"b\":\"e1\"}", "",
	  "ok a2=0K e1=0P d1=0Q nacts=0"),
	R(T "VI. The Pieces, Queen: Intimidation, a Queen moving in turns a draw into a win",
	  "0K@e1 0Q@d1 1K@h8 1P@d4 1P@h7", "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}", "1 3",
	  "ok d4=0Q rm1=1"),
	R(T "VI. The Pieces, Queen: a Queen already in the space keeps a draw a draw",
	  "0K@e1 0P@d2 1K@h8 1Q@d4 1P@h7", "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}", "5 3",
	  "ok d4=1Q d2=0P"),
	R(T "VI. The Pieces, Queen: two Queens, the Queen that moved in wins",
	  "0K@e1 0Q@d1 1K@h8 1Q@d4 1P@h7", "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}", "1 6",
	  "ok d4=0Q rm1=1"),
	R(RU "Confrontation R6: Intimidation before Strength: a Queen's draw on a Rook stays a draw",
	  "0K@e1 0Q@d1 1K@h8 1R@d4 1P@h7", "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}", "2 3",
	  "ok d4=1R d1=0Q str:d4=0"),
	/* -------------------------------------------------------- VII. Spells */
	R(T "VII. Spells: Fireball, Combat 3 Range 6; a win removes the target, the Bishop stays",
	  "0K@e1 0B@c1/fireball/hurt 1K@h8 1P@c7 1P@h7",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"fireball\",\"target\":\"c7\"}", "3 4",
	  "ok c1=0B c7=. rm1=1 spells:c1=1 nacts=1"),
	R(T "VII. Spells: a target outside the Range cannot be chosen (Fireball 6)",
	  "0K@e1 0B@c1/fireball/hurt 1K@h8 1P@c8 1P@h7",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"fireball\",\"target\":\"c8\"}", "",
	  "err=out-of-range"),
	R(T "VII. Spells: Range counts the target's space, not the Bishop's (Hurt 3, king steps R7)",
	  "0K@e1 0B@c1/hurt/hurt 1K@h8 1P@f4 1P@h7",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"hurt\",\"target\":\"f4\"}", "1 6",
	  "ok f4=1P spells:c1=1"),
	R(T "VII. Spells: Hurt, Combat 4: a spell that does not win has no effect (R7)",
	  "0K@e1 0B@c1/hurt/hurt 1K@h8 1P@c3 1P@h7",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"hurt\",\"target\":\"c3\"}", "1 4",
	  "ok c3=1P c1=0B"),
	R(RU "Confrontation R7: blocking pieces do not matter to a spell",
	  "0K@e1 0B@c1/hurt/hurt 0P@c2 1K@h8 1P@c4 1P@h7",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"hurt\",\"target\":\"c4\"}", "1 1",
	  "ok c4=. c2=0P"),
	R(T "VII. Spells: once cast, the magic is lost",
	  "0K@e1 0B@c1/hurt/fireball 0P@a2 1K@h8 1P@c4 1P@h7",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"hurt\",\"target\":\"c4\"};"
	  "0 {\"type\":\"move\",\"from\":\"a2\",\"to\":\"a3\"};"
	  "1 {\"type\":\"move\",\"from\":\"h7\",\"to\":\"h6\"};1 {\"type\":\"move\",\"from\":\"h8\",\"to\":\"g8\"};"
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"hurt\",\"target\":\"c4\"}",
	  "1 6", "err=no-spell"),
	R(T "VII. Spells: casting a spell is an action (the Bishop cannot then move)",
	  "0K@e1 0B@c1/hurt/fireball 1K@h8 1P@c4 1P@h7",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"hurt\",\"target\":\"c4\"};"
	  "0 {\"type\":\"move\",\"from\":\"c1\",\"to\":\"c2\"}",
	  "1 6", "err=piece-used"),
	R(T "VII. Spells: a Bishop defeated in combat loses its spells",
	  "0K@e1 0Q@d1 1K@h8 1B@d4/hurt/heal 1P@h7", "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}",
	  "6 1", "ok d4=0Q spells1.1=0"),
	R(T "VII. Spells: Judgement, Combat 2 Range 1, each adjacent enemy a separate battle",
	  "0K@e1 0B@d4/judgement/hurt 1K@h8 1P@d5 1P@e5 1P@a1 1P@h7",
	  "0 {\"type\":\"cast\",\"from\":\"d4\",\"spell\":\"judgement\"}", "6 1 1 6",
	  "ok d5=. e5=1P a1=1P rm1=1"),
	R(T "VII. Spells: Judgement cannot be cast with no enemy in range",
	  "0K@e1 0B@d4/judgement/hurt 1K@h8 1P@h7",
	  "0 {\"type\":\"cast\",\"from\":\"d4\",\"spell\":\"judgement\"}", "", "err=no-target"),
	R(T "VII. Spells: Heal returns a removed Pawn, Rook or Knight to the first two ranks",
	  "0K@e1 0B@c1/heal/heal 0R@x 1K@h8 1P@h7",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"heal\",\"revive\":\"rook\",\"square\":\"h2\"}",
	  "", "ok h2=0R str:h2=1 rm0=0"),
	R(T "VII. Spells: Heal, not on a space outside the first two ranks",
	  "0K@e1 0B@c1/heal/heal 0R@x 1K@h8 1P@h7",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"heal\",\"revive\":\"rook\",\"square\":\"h3\"}",
	  "", "err=not-in-area"),
	R(T "VII. Spells: Heal brings back Pawns, Rooks and Knights only",
	  "0K@e1 0B@c1/heal/heal 0Q@x 0P@a2 1K@h8 1P@h7",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"heal\",\"revive\":\"queen\",\"square\":\"h2\"}",
	  "", "err=not-healable"),
	R(T "VII. Spells: Heal with no empty space on that side cannot be used",
	  "0K@a1 0B@b1/heal/heal 0P@c1 0P@d1 0P@e1 0P@f1 0P@g1 0P@h1 0P@a2 0P@b2 0P@c2 0P@d2 0P@e2 0P@f2 0P@x 1K@h8 1P@g2 1P@h2",
	  "0 {\"type\":\"cast\",\"from\":\"b1\",\"spell\":\"heal\",\"revive\":\"pawn\",\"square\":\"g2\"}",
	  "", "err=cannot-stand"),
	R(T "VII. Spells: Panic, Range 4, the enemy player chooses the empty space (G3)",
	  "0K@e1 0B@c1/panic/hurt 1K@h8 1P@c5 1P@h7",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"panic\",\"target\":\"c5\"}", "",
	  "ok await=2 n1=7 c5=1P"),
	R(T "VII. Spells: Panic, the piece rushes to the chosen space on its nearest rank",
	  "0K@e1 0B@c1/panic/hurt 1K@h8 1P@c5 1P@h7",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"panic\",\"target\":\"c5\"};"
	  "1 {\"type\":\"panic_square\",\"square\":\"a8\"}", "",
	  "ok a8=1P c5=. await=1 nacts=1"),
	R(RU "G3: Panic with one empty square: the server takes it",
	  "0K@e1 0B@c1/panic/hurt 1K@h8 1P@c5 1P@a8 1P@b8 1P@c8 1P@d8 1P@e8 1P@f8",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"panic\",\"target\":\"c5\"}", "",
	  "ok g8=1P await=1"),
	R(T "VII. Spells: Panic, Range 4",
	  "0K@e1 0B@c1/panic/hurt 1K@h8 1P@c6 1P@h7",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"panic\",\"target\":\"c6\"}", "",
	  "err=out-of-range"),
	R(RU "G3: the Panic choice is the target owner's, not the caster's",
	  "0K@e1 0B@c1/panic/hurt 1K@h8 1P@c5 1P@h7",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"panic\",\"target\":\"c5\"};"
	  "0 {\"type\":\"panic_square\",\"square\":\"a8\"}", "", "err=not-awaited"),
	R(RU "Confrontation R7: Strength applies against a spell",
	  "0K@e1 0B@c1/fireball/hurt 1K@h8 1R@c5 1P@h7",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"fireball\",\"target\":\"c5\"}", "6 1",
	  "ok c5=1R str:c5=0"),
	/* ------------------------------------------------------ X. Terrain */
	R(T "X. Terrain, Barrier: pieces cannot move through", "0K@e1 0R@a1 1K@h8 1P@h7 %a3b",
	  "0 {\"type\":\"move\",\"from\":\"a1\",\"to\":\"a4\"}", "", "err=barrier"),
	R(T "X. Terrain, Barrier: not even a Knight", "0K@e1 0N@a1 1K@h8 1P@h7 %a3b",
	  "0 {\"type\":\"move\",\"from\":\"a1\",\"to\":\"a4\"}", "", "err=barrier"),
	R(T "X. Terrain, Barrier: spells cannot pass through (R7: on a straight line)",
	  "0K@e1 0B@c1/hurt/hurt 1K@h8 1P@c4 1P@h7 %c2b",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"hurt\",\"target\":\"c4\"}", "",
	  "err=barrier"),
	R(RU "Confrontation R7: a target off any straight line ignores Barrier",
	  "0K@e1 0B@c1/hurt/hurt 1K@h8 1P@d4 1P@h7 %c2b %d2b %c3b %d3b",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"hurt\",\"target\":\"d4\"}", "6 1",
	  "ok d4=."),
	R(RU "Confrontation R9 (amended): a move may end on a Barrier square",
	  "0K@e1 0R@a1 1K@h8 1P@h7 %a3b",
	  "0 {\"type\":\"move\",\"from\":\"a1\",\"to\":\"a3\"}", "", "ok a3=0R a1=."),
	R(RU "Confrontation R9 (amended): a piece may leave a Barrier square",
	  "0K@e1 0R@a3 1K@h8 1P@h7 %a3b",
	  "0 {\"type\":\"move\",\"from\":\"a3\",\"to\":\"a6\"}", "", "ok a6=0R a3=."),
	R(RU "Confrontation R9 (amended): an attack onto a piece on a Barrier square",
	  "0K@e1 0R@a1 1K@h8 1P@a3 1P@h7 %a3b",
	  "0 {\"type\":\"move\",\"from\":\"a1\",\"to\":\"a3\"}", "6 1", "ok a3=0R rm1=1"),
	R(RU "Confrontation R9 (amended): a spell reaches a piece standing on a Barrier (it does not cross it)",
	  "0K@e1 0B@c1/hurt/hurt 1K@h8 1P@c3 1P@h7 %c3b",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"hurt\",\"target\":\"c3\"}", "6 1",
	  "ok c3=. rm1=1"),
	R(RU "Confrontation R9 (amended): a piece may be set up on a Barrier square",
	  "new {\"terrain\":\"given\",\"terrain_areas\":[{\"type\":\"barrier\",\"squares\":[\"a2\",\"b2\",\"c2\",\"d2\"]}]} seats=2",
	  "0 {\"type\":\"ready\"};1 {\"type\":\"ready\"};0 {\"type\":\"order\",\"choice\":\"first\"};"
	  "0 {\"type\":\"place\",\"piece\":1,\"square\":\"b2\"}",
	  "6 1", "ok b2=0P"),
	R(RU "Confrontation R9 (amended): no move crosses a Barrier square (the Pawn stops on it)",
	  "0K@a1 0P@a2 1K@h8 1P@h7 %a3b",
	  "0 {\"type\":\"move\",\"from\":\"a2\",\"to\":\"a4\"}", "", "err=barrier"),
	R(RU "Confrontation R9 (amended): a Swift move may still attack a piece on Counterspell",
	  "0K@e1 0R@a1 1K@h8 1P@a8 1P@h7 race0=elves %a8c",
	  "0 {\"type\":\"move\",\"from\":\"a1\",\"to\":\"a4\"};0 {\"type\":\"swift\",\"from\":\"a4\",\"to\":\"a8\"}",
	  "6 1", "ok a8=0R rm1=1 tok0=2"),
	R(RU "Confrontation R9 (amended): a piece on Counterspell cannot use a racial power (no Swift from it)",
	  "0K@e1 0R@a1 1K@h8 1P@a8 1P@h7 race0=elves %a4c",
	  "0 {\"type\":\"move\",\"from\":\"a1\",\"to\":\"a4\"};0 {\"type\":\"swift\",\"from\":\"a4\",\"to\":\"a8\"}",
	  "", "err=no-swift tok0=3"),
	R(RU "Confrontation R9 (amended): a piece on Counterspell cannot be moved by a racial power (Live Again)",
	  "0K@e1 0Q@d1 1K@h8 1P@d4 1P@h7 race1=undead live1=always %d4c",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}", "6 1", "ok d4=0Q rm1=1 tok1=3"),
	R(T "X. Terrain, Counterspell: a piece on it cannot be affected by spells",
	  "0K@e1 0B@c1/hurt/hurt 1K@h8 1P@c4 1P@h7 %c4c",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"hurt\",\"target\":\"c4\"}", "",
	  "err=counterspell"),
	R(T "X. Terrain, Counterspell: nor by racial abilities (Rise From Hell)",
	  "0K@e1 0P@c1 1K@h8 1P@h7 %c1c race0=demons",
	  "0 {\"type\":\"rise\",\"from\":\"c1\",\"to\":\"c6\"}", "", "err=counterspell"),
	R(T "X. Terrain, Enhancement: +1 for a piece on it when another moves in",
	  "0K@e1 0P@d2 1K@h8 1P@d4 1P@h7 %d4e", "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}",
	  "4 3", "ok d4=1P d2=0P"),
	R(T "X. Terrain, Enhancement: +1 for a piece leaving it to begin combat",
	  "0K@e1 0P@d2 1K@h8 1P@d4 1P@h7 %d2e", "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}",
	  "3 4", "ok d2=0P d4=1P"),
	R(T "X. Terrain: not for pieces moving into those spaces to begin combat",
	  "0K@e1 0P@d2 0P@a2 1K@h8 1P@d4 1P@h7 %d4e",
	  "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}", "6 5", "ok d4=1P d2=0P"),
	R(T "X. Terrain, Rough: two spaces of movement to move into",
	  "0K@e1 0P@d2 1K@h8 1P@h7 %d3r", "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}", "",
	  "err=too-far"),
	R(T "X. Terrain, Rough: a Pawn (Move 2) can still enter it",
	  "0K@e1 0P@d2 1K@h8 1P@h7 %d3r", "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d3\"}", "",
	  "ok d3=0P"),
	R(T "X. Terrain, Rough: Kings cannot move into rough terrain",
	  "0K@e1 0P@a2 1K@h8 1P@h7 %e2r", "0 {\"type\":\"move\",\"from\":\"e1\",\"to\":\"e2\"}", "",
	  "err=rough-king"),
	R(T "X. Terrain, Rough: attacking into it costs one (terrain spares pieces moving in to fight)",
	  "0K@e1 0P@d2 1K@h8 1P@d4 1P@h7 %d4r %d3r", "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}",
	  "", "err=too-far"),
	R(T "X. Terrain, Rough: attacking into it costs one",
	  "0K@e1 0P@d2 1K@h8 1P@d3 1P@h7 %d3r", "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d3\"}",
	  "6 1", "ok d3=0P"),
	R(RU "Confrontation R9: a King may attack onto Rough and takes the square when it wins",
	  "0K@e1 0P@a2 1K@h8 1P@e2 1P@h7 %e2r", "0 {\"type\":\"move\",\"from\":\"e1\",\"to\":\"e2\"}",
	  "6 1", "ok e2=0K e1=. rm1=1"),
	R(RU "Confrontation R9: a King attacking onto Rough is listed among its moves",
	  "0K@e1 0P@a1 1K@h8 1P@e2 1P@h7 %e2r %d1r %d2r %f1r %f2r", "", "",
	  "n0=7"),
	R(RU "Confrontation R9: an attack onto Rough costs one square like any other (Rook 4)",
	  "0K@e1 0R@d1 1K@h8 1P@d5 1P@h7 %d5r", "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d5\"}",
	  "6 1", "ok d5=0R"),
	R(RU "Confrontation R9: the square's effects then apply to the piece standing there (Enhancement)",
	  "0K@e1 0P@d2 0P@a2 1K@h8 1P@d4 1P@d6 1P@h7 %d4e",
	  "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"};"
	  "0 {\"type\":\"move\",\"from\":\"a2\",\"to\":\"a3\"};"
	  "1 {\"type\":\"move\",\"from\":\"d6\",\"to\":\"d4\"}",
	  "6 1 3 3", "ok d4=0P d6=. rm1=2"),
	R(T "X. Terrain: areas of 4 or 8 squares",
	  "new {\"terrain\":\"given\",\"terrain_areas\":[{\"type\":\"rough\",\"squares\":[\"d4\",\"d5\",\"e4\",\"e5\",\"f5\"]}]} seats=2",
	  "", "", "create-err=terrain-size"),
	R(T "X. Terrain: squares connected by a side, not a diagonal line",
	  "new {\"terrain\":\"given\",\"terrain_areas\":[{\"type\":\"rough\",\"squares\":[\"a1\",\"b2\",\"c3\",\"d4\"]}]} seats=2",
	  "", "", "create-err=terrain-not-connected"),
	R(T "X. Terrain: a straight line of four is an area",
	  "new {\"terrain\":\"given\",\"terrain_areas\":[{\"type\":\"barrier\",\"squares\":[\"a4\",\"b4\",\"c4\",\"d4\"]}]} seats=2",
	  "", "", "terrain=4"),
	R(T "X. Terrain: one of the four effects",
	  "new {\"terrain\":\"given\",\"terrain_areas\":[{\"type\":\"lava\",\"squares\":[\"a4\",\"b4\",\"c4\",\"d4\"]}]} seats=2",
	  "", "", "create-err=unknown-terrain"),
	R(RU "Confrontation R9: random terrain drawn by the server at creation",
	  "new {\"terrain\":\"random\",\"random_areas\":3} seats=2", "", "seeded:7", "terrain>=12"),
	/* -------------------------------------------------------- IX. Races */
	R(T "IX. Races: races cost no points; three tokens",
	  "new {\"races\":true} seats=2", "0 {\"type\":\"race\",\"race\":\"orcs\"}", "",
	  "ok pts0=15 tok0=3"),
	R(T "IX. Races: an additional use costs 1 Army point",
	  "new {\"races\":true} seats=2", "0 {\"type\":\"buy_racial\"}", "", "ok pts0=14 tok0=4"),
	R(T "IX. Races: an optional rule (race not enabled)",
	  "new {} seats=2", "0 {\"type\":\"race\",\"race\":\"orcs\"}", "", "err=races-off"),
	R(T "IX. Races: each player chooses one race",
	  "new {\"races\":true} seats=2",
	  "0 {\"type\":\"race\",\"race\":\"orcs\"};0 {\"type\":\"race\",\"race\":\"elves\"}", "",
	  "err=race-chosen"),
	R(T "IX. Races: a race must be chosen when races are on",
	  "new {\"races\":true} seats=2", "0 {\"type\":\"ready\"}", "", "err=race-needed"),
	R(T "IX. Races: an army only has its own race's ability",
	  "0K@e1 0P@c1 1K@h8 1P@h7 race0=elves", "0 {\"type\":\"rise\",\"from\":\"c1\",\"to\":\"c6\"}",
	  "", "err=wrong-race"),
	R(T "IX. Races: when all the tokens are gone the ability cannot be used",
	  "0K@e1 0P@c1 1K@h8 1P@h7 race0=demons tok0=0",
	  "0 {\"type\":\"rise\",\"from\":\"c1\",\"to\":\"c6\"}", "", "err=no-tokens"),
	R(T "IX. Races, Demons: Rise From Hell to any empty space, then the normal move and combat",
	  "0K@e1 0P@c1 1K@h8 1P@c7 1P@h7 race0=demons",
	  "0 {\"type\":\"rise\",\"from\":\"c1\",\"to\":\"c5\"};0 {\"type\":\"move\",\"from\":\"c5\",\"to\":\"c7\"}",
	  "6 1", "ok c7=0P tok0=2 nacts=1"),
	R(RU "Confrontation R8: the rise and the move are one action of that piece",
	  "0K@e1 0P@c1 0P@a2 1K@h8 1P@h7 race0=demons",
	  "0 {\"type\":\"rise\",\"from\":\"c1\",\"to\":\"c5\"};0 {\"type\":\"move\",\"from\":\"a2\",\"to\":\"a3\"}",
	  "", "err=finish-rise"),
	R(T "IX. Races, Demons: the move after rising is optional (if the player wishes)",
	  "0K@e1 0P@c1 0P@a2 1K@h8 1P@h7 race0=demons",
	  "0 {\"type\":\"rise\",\"from\":\"c1\",\"to\":\"c5\"};0 {\"type\":\"stay\"}", "",
	  "ok c5=0P nacts=0 active=0"),
	R(RU "Confrontation R8 (amended): a risen piece that stays is done for the turn",
	  "0K@e1 0P@c1 0P@a2 1K@h8 1P@h7 race0=demons",
	  "0 {\"type\":\"rise\",\"from\":\"c1\",\"to\":\"c5\"};0 {\"type\":\"stay\"};"
	  "0 {\"type\":\"move\",\"from\":\"c5\",\"to\":\"c6\"}", "",
	  "err=piece-used c5=0P nacts=0 active=0 tok0=2"),
	R(RU "Confrontation R8 (amended): only a piece that has not acted this turn may rise",
	  "0K@e1 0P@c1 0P@a2 1K@h8 1P@h7 race0=demons",
	  "0 {\"type\":\"move\",\"from\":\"a2\",\"to\":\"a3\"};"
	  "0 {\"type\":\"rise\",\"from\":\"a3\",\"to\":\"c5\"}", "",
	  "err=piece-used a3=0P tok0=3"),
	R(RU "Confrontation R8 (amended): at most one rise a turn",
	  "0K@e1 0P@c1 0P@a2 1K@h8 1P@h7 race0=demons",
	  "0 {\"type\":\"rise\",\"from\":\"c1\",\"to\":\"c5\"};0 {\"type\":\"stay\"};"
	  "0 {\"type\":\"rise\",\"from\":\"a2\",\"to\":\"d5\"}", "",
	  "err=rise-used a2=0P tok0=2"),
	R(RU "Confrontation R8 (amended): the risen piece's move is one of the turn's two actions",
	  "0K@e1 0P@c1 0P@a2 0P@b2 1K@h8 1P@h7 race0=demons",
	  "0 {\"type\":\"rise\",\"from\":\"c1\",\"to\":\"c5\"};"
	  "0 {\"type\":\"move\",\"from\":\"c5\",\"to\":\"c6\"};"
	  "0 {\"type\":\"move\",\"from\":\"a2\",\"to\":\"a3\"};"
	  "0 {\"type\":\"move\",\"from\":\"b2\",\"to\":\"b3\"}", "",
	  "err=not-awaited c6=0P a3=0P b2=0P active=1"),
	R(RU "Confrontation R8: a rise never counts as one of the turn's two actions",
	  "0K@e1 0P@c1 0P@a2 0P@b2 1K@h8 1P@h7 race0=demons",
	  "0 {\"type\":\"rise\",\"from\":\"c1\",\"to\":\"c5\"};0 {\"type\":\"stay\"};"
	  "0 {\"type\":\"move\",\"from\":\"a2\",\"to\":\"a3\"};"
	  "0 {\"type\":\"move\",\"from\":\"b2\",\"to\":\"b3\"}", "",
	  "ok c5=0P a3=0P b3=0P active=1"),
	R(RU "G3 (amended), with Confrontation R8: after the two actions the risen piece's only action is to stay: the server takes it",
	  "0K@e1 0P@c1 0P@a2 0P@b2 1K@h8 1P@h7 race0=demons",
	  "0 {\"type\":\"move\",\"from\":\"a2\",\"to\":\"a3\"};"
	  "0 {\"type\":\"move\",\"from\":\"b2\",\"to\":\"b3\"};"
	  "0 {\"type\":\"rise\",\"from\":\"c1\",\"to\":\"c5\"}", "",
	  "ok c5=0P active=1 tok0=2 risen=-1"),
	R(RU "Confrontation R8 (amended): after the two actions the risen piece stays (no action is left) and the turn is over",
	  "0K@e1 0P@c1 0P@a2 0P@b2 1K@h8 1P@h7 race0=demons",
	  "0 {\"type\":\"move\",\"from\":\"a2\",\"to\":\"a3\"};"
	  "0 {\"type\":\"move\",\"from\":\"b2\",\"to\":\"b3\"};"
	  "0 {\"type\":\"rise\",\"from\":\"c1\",\"to\":\"c5\"};"
	  "0 {\"type\":\"move\",\"from\":\"c5\",\"to\":\"c6\"}", "",
	  "err=not-awaited c5=0P active=1"),
	R(RU "Confrontation R8: with only racial powers left the seat may end its turn",
	  "0K@e1 0P@c1 0P@a2 0P@b2 1K@h8 1P@h7 race0=demons",
	  "0 {\"type\":\"move\",\"from\":\"a2\",\"to\":\"a3\"};"
	  "0 {\"type\":\"move\",\"from\":\"b2\",\"to\":\"b3\"};"
	  "0 {\"type\":\"end_turn\"}", "", "ok active=1 tok0=3"),
	R(T "IX. Races, Dwarves: Hold The Line, +2 when an opposing piece moves in (standing order)",
	  "0K@e1 0P@d2 1K@h8 1P@d4 1P@h7 race1=dwarves htl1=always",
	  "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}", "4 2", "ok d4=1P d2=0P tok1=2"),
	R(RU "Confrontation R8: without a standing order the server asks the Dwarves",
	  "0K@e1 0P@d2 1K@h8 1P@d4 1P@h7 race1=dwarves",
	  "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}", "", "ok await=2 n1=2"),
	R(RU "Confrontation R8: the Dwarves decline Hold the Line",
	  "0K@e1 0P@d2 1K@h8 1P@d4 1P@h7 race1=dwarves",
	  "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"};1 {\"type\":\"hold_the_line\",\"use\":false}",
	  "4 2", "ok d4=0P tok1=3"),
	R(T "IX. Races, Dwarves: no bonus for a dwarf that moves in",
	  "0K@e1 0P@d2 1K@h8 1P@d4 1P@h7 race0=dwarves htl0=always",
	  "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}", "2 4", "ok d4=1P rm0=1 tok0=3"),
	R(T "IX. Races, Elves: Swift Movement, the piece moves a second time, even into combat",
	  "0K@e1 0R@a1 1K@h8 1P@a8 1P@h7 race0=elves",
	  "0 {\"type\":\"move\",\"from\":\"a1\",\"to\":\"a4\"};0 {\"type\":\"swift\",\"from\":\"a4\",\"to\":\"a8\"}",
	  "6 1", "ok a8=0R tok0=2 nacts=1"),
	R(RU "Confrontation R8: Swift Movement is taken at once or not at all",
	  "0K@e1 0R@a1 0P@h2 1K@h8 1P@a8 1P@h7 race0=elves",
	  "0 {\"type\":\"move\",\"from\":\"a1\",\"to\":\"a4\"};0 {\"type\":\"move\",\"from\":\"h2\",\"to\":\"h3\"};"
	  "0 {\"type\":\"swift\",\"from\":\"a4\",\"to\":\"a8\"}",
	  "", "err=no-swift"),
	R(T "IX. Races, Humans: Luck re-rolls the die and keeps the better (standing order)",
	  "0K@e1 0P@d2 1K@h8 1P@d4 1P@h7 race0=humans luck0=if_losing",
	  "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}", "1 4 6", "ok d4=0P tok0=2"),
	R(T "IX. Races, Humans: the better of the two results (a worse re-roll keeps the first)",
	  "0K@e1 0P@d2 1K@h8 1P@d4 1P@h7 race0=humans luck0=if_losing",
	  "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}", "2 4 1", "ok d4=1P rm0=1 tok0=2"),
	R(RU "Confrontation R8: Luck without a standing order: the server asks",
	  "0K@e1 0P@d2 1K@h8 1P@d4 1P@h7 race1=humans",
	  "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}", "5 2", "ok await=2 n1=2"),
	R(RU "G3: no question whose answer cannot matter (Luck when even a 6 cannot change it)",
	  "0K@e1 0Q@d1 1K@h8 1P@d4 1P@h7 race1=humans",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}", "6 1", "ok d4=0Q tok1=3"),
	R(T "IX. Races, Humans: two Human seats: a winning mover's re-roll counts, the defender's Luck comes next (G3)",
	  "0K@e1 0P@d2 1K@h8 1P@d4 1P@h7 race0=humans race1=humans luck0=always luck1=always",
	  "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}", "3 2 5 4", "ok d4=0P d2=. rm1=1 tok0=2 tok1=2"),
	R(T "IX. Races, Humans: two Human seats: a winning mover is asked, the defender may still re-roll (RULINGS.md, G3)",
	  "0K@e1 0P@d2 1K@h8 1P@d4 1P@h7 race0=humans race1=humans luck1=always",
	  "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}", "3 2", "ok await=1 n0=2"),
	R(T "IX. Races, Humans: two Human seats: a mover that wins against a defender's 6 is not asked (RULINGS.md, G3)",
	  "0K@e1 0Q@d1 1K@h8 1P@d4 1P@h7 race0=humans race1=humans",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}", "6 1", "ok d4=0Q tok0=3 tok1=3"),
	R(T "IX. Races, Humans: two Human seats: a defender ordered never cannot catch up, the mover's order spends nothing (RULINGS.md, G3)",
	  "0K@e1 0P@d2 1K@h8 1P@d4 1P@h7 race0=humans race1=humans luck0=always luck1=never",
	  "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}", "3 2", "ok d4=0P rm1=1 tok0=3 tok1=3"),
	R(T "IX. Races, Orcs: Battle Fury, after a win two other Orc pieces move into enemies",
	  "0K@e1 0Q@d1 0R@a1 0N@h1 1K@h8 1P@d4 1P@a5 1P@h4 1P@g7 race0=orcs",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"};"
	  "0 {\"type\":\"fury\",\"from\":\"a1\",\"to\":\"a5\"};0 {\"type\":\"fury\",\"from\":\"h1\",\"to\":\"h4\"}",
	  "6 1 6 1 6 1", "ok d4=0Q a5=0R h4=0N tok0=2 nacts=1"),
	R(RU "Confrontation R8: Battle Fury moves must end on an enemy piece",
	  "0K@e1 0Q@d1 0R@a1 1K@h8 1P@d4 1P@a5 1P@h7 race0=orcs",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"};0 {\"type\":\"fury\",\"from\":\"a1\",\"to\":\"a3\"}",
	  "6 1", "err=fury-must-fight"),
	R(RU "Confrontation R8: Battle Fury, not by the piece that just fought",
	  "0K@e1 0Q@d1 0R@a1 1K@h8 1P@d4 1P@d6 1P@a5 race0=orcs",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"};0 {\"type\":\"fury\",\"from\":\"d4\",\"to\":\"d6\"}",
	  "6 1", "err=fury-piece"),
	R(RU "Confrontation R8: Battle Fury, not by the Orc defender that just won",
	  "0K@e1 0P@d2 0P@a2 0P@b2 1K@h8 1P@d4 1R@a6 1P@h7 race1=orcs",
	  "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"};1 {\"type\":\"fury\",\"from\":\"d4\",\"to\":\"b2\"}",
	  "1 6", "err=fury-piece await=2 d4=1P tok1=3"),
	R(RU "Confrontation R8 (\"a different Orc piece that did not just fight\"): Judgement fights two Orc pieces, one wins, the one that drew makes no Fury move",
	  "0K@e1 0B@d4/judgement/hurt 0P@a2 0P@e2 1K@h8 1P@d5 1N@e5 1R@a6 race1=orcs",
	  "0 {\"type\":\"cast\",\"from\":\"d4\",\"spell\":\"judgement\"};"
	  "1 {\"type\":\"fury\",\"from\":\"e5\",\"to\":\"e2\"}",
	  "1 6 4 4", "err=fury-piece await=2 d5=1P e5=1N e2=0P tok1=3"),
	R(RU "Confrontation R8 (\"a different Orc piece that did not just fight\"): a Rook that fought and lost, saved by Strength, makes no Fury move",
	  "0K@e1 0B@d4/judgement/hurt 0P@a2 0P@e2 1K@h8 1P@d5 1R@e5 1R@a6 race1=orcs",
	  "0 {\"type\":\"cast\",\"from\":\"d4\",\"spell\":\"judgement\"};"
	  "1 {\"type\":\"fury\",\"from\":\"e5\",\"to\":\"e2\"}",
	  "1 6 6 1", "err=fury-piece await=2 e5=1R str:e5=0 tok1=3"),
	R(RU "Confrontation R8: after that Judgement, an Orc piece that did not fight makes the Fury move",
	  "0K@e1 0B@d4/judgement/hurt 0P@a2 0P@e2 1K@h8 1P@d5 1N@e5 1R@a6 race1=orcs",
	  "0 {\"type\":\"cast\",\"from\":\"d4\",\"spell\":\"judgement\"};"
	  "1 {\"type\":\"fury\",\"from\":\"a6\",\"to\":\"a2\"}",
	  "1 6 4 4 6 1", "ok a2=1R a6=. tok1=2 active=0"),
	R(RU "Confrontation R8 (amended): an Orc defender that wins: its seat is asked for Battle Fury at once, on the other seat's turn",
	  "0K@e1 0P@d2 0P@a2 0P@h2 1K@h8 1P@d4 1R@a6 1P@h7 race1=orcs",
	  "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}", "1 6",
	  "ok await=2 n1=2 d4=1P rm0=1 active=0"),
	R(RU "Confrontation R8 (amended): the Fury move on the other seat's turn, then that turn goes on",
	  "0K@e1 0P@d2 0P@a2 0P@h2 1K@h8 1P@d4 1R@a6 1P@h7 race1=orcs",
	  "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"};"
	  "1 {\"type\":\"fury\",\"from\":\"a6\",\"to\":\"a2\"}", "1 6 6 1",
	  "ok a2=1R a6=. tok1=2 active=0 nacts=1 await=1"),
	R(RU "Confrontation R8 (amended): the Orc seat may decline the Fury (end_fury); the turn goes on",
	  "0K@e1 0P@d2 0P@a2 0P@h2 1K@h8 1P@d4 1R@a6 1P@h7 race1=orcs",
	  "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"};1 {\"type\":\"end_fury\"}",
	  "1 6", "ok a6=1R a2=0P tok1=3 active=0 await=1"),
	R(RU "Confrontation R8 (amended): a standing order may say never: nobody is asked",
	  "0K@e1 0P@d2 0P@a2 0P@h2 1K@h8 1P@d4 1R@a6 1P@h7 race1=orcs",
	  "orders 1 {\"battle_fury\":\"never\"};0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}",
	  "1 6", "ok await=1 tok1=3 a6=1R"),
	R(RU "Confrontation R8 (amended): a spell battle an Orc target wins brings Battle Fury too",
	  "0K@e1 0B@c1/hurt/hurt 0P@a2 1K@h8 1P@c3 1R@a6 1P@h7 race1=orcs",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"hurt\",\"target\":\"c3\"}", "1 6",
	  "ok await=2 c3=1P n1=2"),
	R(RU "Confrontation R8 (amended): a battle won by a Fury move brings another Battle Fury (another token)",
	  "0K@e1 0Q@d1 0R@a1 0N@h1 1K@h8 1P@d4 1P@a5 1P@h4 1P@g7 race0=orcs",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"};"
	  "0 {\"type\":\"fury\",\"from\":\"a1\",\"to\":\"a5\"};0 {\"type\":\"fury\",\"from\":\"h1\",\"to\":\"h4\"};"
	  "0 {\"type\":\"fury\",\"from\":\"d4\",\"to\":\"g7\"}",
	  "6 1 6 1 6 1 6 1", "ok g7=0Q d4=. tok0=1 nacts=1"),
	R(RU "Confrontation R9 (amended): a Fury move may still attack a piece on Counterspell",
	  "0K@e1 0Q@d1 0R@a1 1K@h8 1P@d4 1P@a5 1P@h7 race0=orcs %a5c",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"};0 {\"type\":\"fury\",\"from\":\"a1\",\"to\":\"a5\"}",
	  "6 1 6 1", "ok a5=0R tok0=2"),
	R(RU "Confrontation R9 (amended): a piece on Counterspell makes no Fury move",
	  "0K@e1 0Q@d1 0R@a1 0N@h1 1K@h8 1P@d4 1P@a5 1P@h4 1P@h7 race0=orcs %a1c",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"};0 {\"type\":\"fury\",\"from\":\"a1\",\"to\":\"a5\"}",
	  "6 1", "err=counterspell a1=0R tok0=3"),
	R(T "IX. Races, Undead: Live Again, a losing Pawn goes to the nearest rank (owner's choice)",
	  "0K@e1 0Q@d1 1K@h8 1P@d4 1P@h7 race1=undead",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"};1 {\"type\":\"live_again\",\"use\":true,\"square\":\"a8\"}",
	  "6 1", "ok a8=1P d4=0Q tok1=2 rm1=0"),
	R(RU "Confrontation R8: the Undead player is asked where (G3)",
	  "0K@e1 0Q@d1 1K@h8 1P@d4 1P@h7 race1=undead",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}", "6 1", "ok await=2 n1=8 d4=1P"),
	R(T "IX. Races, Undead: not a Queen", "0K@e1 0Q@d1 1K@h8 1Q@d4 1P@h7 race1=undead",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}", "6 1", "ok d4=0Q rm1=1 tok1=3"),
	R(RU "Confrontation R8: Live Again with no empty square on the rank: removed",
	  "0K@e1 0Q@d1 1K@h8 1P@d4 1P@a8 1P@b8 1P@c8 1P@d8 1P@e8 1P@f8 1P@g8 race1=undead",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}", "6 1", "ok d4=0Q rm1=1 await=1"),
	R(RU "Confrontation R7: Live Again applies against a spell",
	  "0K@e1 0B@c1/hurt/hurt 1K@h8 1N@c3 1P@h7 race1=undead live1=always 1P@a8 1P@b8 1P@c8 1P@d8 1P@e8 1P@f8",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"hurt\",\"target\":\"c3\"}", "6 1",
	  "ok g8=1N c3=. tok1=2"),
	/* ----------------------------------------------------- XI. Treasure */
	R(T "XI. Treasure: defeating a Knight, Bishop or Queen, a 6 claims a treasure",
	  "0K@e1 0Q@d1 1K@h8 1N@d4 1P@h7 treasure", "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}",
	  "6 1 6", "ok d4=0Q tr:d4=1"),
	R(T "XI. Treasure: on a 5 or less, no treasure",
	  "0K@e1 0Q@d1 1K@h8 1N@d4 1P@h7 treasure", "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}",
	  "6 1 5", "ok d4=0Q tr:d4=0"),
	R(T "XI. Treasure: no roll for defeating a Pawn",
	  "0K@e1 0Q@d1 1K@h8 1P@d4 1P@h7 treasure", "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}",
	  "6 1", "ok d4=0Q tr:d4=0"),
	R(T "XI. Treasure: +1 to Combat in every battle for the rest of the game",
	  "0K@e1 0P@d2/t1 1K@h8 1P@d4 1P@h7 treasure", "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}",
	  "4 4", "ok d4=0P"),
	R(T "XI. Treasure: removed with the piece",
	  "0K@e1 0P@d2/t1 1K@h8 1Q@d4 1P@h7 treasure", "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}",
	  "1 6", "ok tr0.1=0 rm0=1"),
	/* ------------------------------------------------ XII. King's Magic */
	R(T "XII. King's Magic: 2 Army points for one spell",
	  "new {\"kings_magic\":true} seats=2", "0 {\"type\":\"king_spell\",\"spell\":\"hurt\"}", "",
	  "ok pts0=13 spells0.0=1"),
	R(T "XII. King's Magic: a King can only have one spell",
	  "new {\"kings_magic\":true} seats=2",
	  "0 {\"type\":\"king_spell\",\"spell\":\"hurt\"};0 {\"type\":\"king_spell\",\"spell\":\"panic\"}",
	  "", "err=king-has-spell"),
	R(T "XII. King's Magic: an optional rule",
	  "new {} seats=2", "0 {\"type\":\"king_spell\",\"spell\":\"hurt\"}", "", "err=kings-magic-off"),
	R(T "XII. King's Magic: the King casts exactly as a Bishop does",
	  "0K@e1/hurt 0P@a2 1K@h8 1P@e3 1P@h7",
	  "0 {\"type\":\"cast\",\"from\":\"e1\",\"spell\":\"hurt\",\"target\":\"e3\"}", "6 1",
	  "ok e3=. e1=0K spells:e1=0"),
	/* ------------------------------------- VIII. Multi-Player, R10 End */
	R(T "VIII. Multi-Player Game: a player must defeat all the others (one out, play goes on)",
	  "seats=3 0K@e1 0Q@d1 1K@h8 1P@h7 2K@a5 2P@d4 2P@a4",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}", "6 1",
	  "ok over=0 d4=0Q"),
	R(RU "Confrontation R10: in 3-4 seat games the seat is out and its pieces leave",
	  "seats=3 0K@e1 0Q@d1 1K@h8 1P@h7 2K@a5 2P@d4",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}", "6 1",
	  "ok over=0 out2=1 a5=. d4=0Q nacts=1"),
	R(RU "Confrontation R10: the last seat standing wins",
	  "seats=3 0K@e1 0Q@d1 1K@h8 1P@h7 2K@d4 2P@a4 out1",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}", "6 1", "ok over=1 win=1"),
	R(RU "Confrontation R10: resigning with two seats, the other wins",
	  "0K@e1 0P@a2 1K@h8 1P@h7", "resign 0", "", "ok over=1 win=2"),
	R(RU "Confrontation R10: resigning with four seats, the seat is out and its pieces leave",
	  "seats=4 0K@e1 0P@a2 1K@h8 1P@h7 2K@a5 2P@a4 3K@h4 3P@h3",
	  "resign 2", "", "ok over=0 out2=1 a5=. a4=. active=0"),
	R(RU "G5: a seat's standing orders are private",
	  "0K@e1 0P@a2 1K@h8 1P@h7 race1=dwarves",
	  "orders 1 {\"hold_the_line\":\"always\"}", "", "ok orders1hidden=1"),
	R(RU "G3: standing orders: an unknown value is refused",
	  "0K@e1 0P@a2 1K@h8 1P@h7",
	  "orders 1 {\"luck\":\"sometimes\"}", "", "err=unknown-order"),
	R(RU "G5: a Bishop's spells are hidden from the others until cast",
	  "0K@e1 0B@c1/hurt/panic 1K@h8 1P@h7", "", "", "spellshidden=1"),

	/* ------------------------------------------------ more decisions */
	R(RU "Confrontation R8: the Dwarves are asked and hold the line (+2)",
	  "0K@e1 0P@d2 1K@h8 1P@d4 1P@h7 race1=dwarves",
	  "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"};1 {\"type\":\"hold_the_line\",\"use\":true}",
	  "4 2", "ok d4=1P d2=0P tok1=2"),
	R(RU "Confrontation R8: the defending Human is asked and re-rolls (G3)",
	  "0K@e1 0P@d2 1K@h8 1P@d4 1P@h7 race1=humans",
	  "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"};1 {\"type\":\"luck\",\"use\":true}",
	  "5 2 6", "ok d4=1P rm0=1 tok1=2"),
	R(RU "Confrontation R8: Live Again with the standing order never: removed, nobody asked",
	  "0K@e1 0Q@d1 1K@h8 1P@d4 1P@h7 race1=undead live1=never",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}", "6 1", "ok d4=0Q rm1=1 await=1 tok1=3"),
	R(T "IX. Races, Undead: Live Again is a choice (can be moved): declined",
	  "0K@e1 0Q@d1 1K@h8 1P@d4 1P@h7 race1=undead",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"};1 {\"type\":\"live_again\",\"use\":false}",
	  "6 1", "ok d4=0Q rm1=1 tok1=3"),
	R(RU "G3 (amended): an order changed while its question is open applies from the next question on "
	  "(README: \"a question already asked is answered by the action\"): Live Again asked under ask, declined",
	  "0K@e1 0Q@d1 1K@h8 1P@a8 1P@b8 1P@c8 1P@d8 1P@e8 1P@f8 1P@d4 1P@h7 race1=undead",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"};orders 1 {\"live_again\":\"always\"};"
	  "1 {\"type\":\"live_again\",\"use\":false}",
	  "6 1", "ok d4=0Q g8=. rm1=1 tok1=3"),
	R(RU "G3 (amended): an order changed to always while Live Again is open leaves both answers (one square)",
	  "0K@e1 0Q@d1 1K@h8 1P@a8 1P@b8 1P@c8 1P@d8 1P@e8 1P@f8 1P@d4 1P@h7 race1=undead",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"};orders 1 {\"live_again\":\"always\"}",
	  "6 1", "ok await=2 n1=2"),
	R(RU "G3 (amended): an order changed to never while Live Again is open: the question still takes the square",
	  "0K@e1 0Q@d1 1K@h8 1P@d4 1P@h7 race1=undead",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"};orders 1 {\"live_again\":\"never\"};"
	  "1 {\"type\":\"live_again\",\"use\":true,\"square\":\"a8\"}",
	  "6 1", "ok d4=0Q a8=1P tok1=2"),
	R(RU "Confrontation R8: Live Again asked under always (several squares): use:false stays refused",
	  "0K@e1 0Q@d1 1K@h8 1P@d4 1P@h7 race1=undead live1=always",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"};orders 1 {\"live_again\":\"ask\"};"
	  "1 {\"type\":\"live_again\",\"use\":false}",
	  "6 1", "err=live-again-ordered await=2"),
	R(T "IX. Races, Undead: an Undead mover that loses lives again too",
	  "0K@e1 0P@d2 1K@h8 1Q@d4 1P@h7 race0=undead live0=always 0P@b1 0P@c1 0P@d1 0P@f1 0P@g1 0P@h1",
	  "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}", "1 6", "ok a1=0P d2=. d4=1Q tok0=2"),
	R(T "X. Terrain, Rough: Leadership never puts a King on Rough (R9)",
	  "0K@e1 0Q@d1 0P@a2 1K@h8 1P@h7 %a2r", "0 {\"type\":\"leadership\",\"a\":\"e1\",\"b\":\"a2\"}",
	  "", "err=rough-king"),
	R(T "IX. Races, Elves: the piece moves a second time, not a third",
	  "0K@e1 0R@a1 1K@h8 1P@h7 race0=elves",
	  "0 {\"type\":\"move\",\"from\":\"a1\",\"to\":\"a4\"};0 {\"type\":\"swift\",\"from\":\"a4\",\"to\":\"a6\"};"
	  "0 {\"type\":\"swift\",\"from\":\"a6\",\"to\":\"a7\"}", "", "err=no-swift tok0=2"),
	R(T "IX. Races, Elves: a Bishop that just cast may move a second time (RULINGS.md, Confrontation R8: \"the piece that just acted\")",
	  "0K@e1 0B@c1/hurt/hurt 1K@h8 1P@c3 1P@h7 race0=elves",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"hurt\",\"target\":\"c3\"};"
	  "0 {\"type\":\"swift\",\"from\":\"c1\",\"to\":\"c2\"}", "6 1", "ok c1=. c2=0B c3=. tok0=2"),
	R(T "IX. Races, Elves: Swift follows a cast the spell lost too (R8, R7: the caster never moves)",
	  "0K@e1 0B@c1/hurt/hurt 1K@h8 1P@c3 1P@h7 race0=elves",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"hurt\",\"target\":\"c3\"};"
	  "0 {\"type\":\"swift\",\"from\":\"c1\",\"to\":\"c2\"}", "1 6", "ok c1=. c2=0B c3=1P tok0=2"),
	R(T "IX. Races, Elves: after a cast only the caster may make the Swift move (R8)",
	  "0K@e1 0B@c1/hurt/hurt 0R@a1 1K@h8 1P@c3 1P@h7 race0=elves",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"hurt\",\"target\":\"c3\"};"
	  "0 {\"type\":\"swift\",\"from\":\"a1\",\"to\":\"a4\"}", "6 1", "err=no-swift c1=0B c3=. tok0=3"),
	R(T "IX. Races, Elves: after a draw the piece is back and may still move again",
	  "0K@e1 0R@a1 1K@h8 1P@a5 1P@h7 race0=elves",
	  "0 {\"type\":\"move\",\"from\":\"a1\",\"to\":\"a5\"};0 {\"type\":\"swift\",\"from\":\"a1\",\"to\":\"b2\"}",
	  "1 3", "ok b2=0R a5=1P"),
	R(T "X. Terrain, Counterspell: Judgement passes over a piece on it",
	  "0K@e1 0B@d4/judgement/hurt 1K@h8 1P@d5 1P@e5 1P@h7 %e5c",
	  "0 {\"type\":\"cast\",\"from\":\"d4\",\"spell\":\"judgement\"}", "6 1", "ok d5=. e5=1P"),
	R(T "X. Terrain, Counterspell: no Hold the Line for a Dwarf standing on it",
	  "0K@e1 0P@d2 1K@h8 1P@d4 1P@h7 race1=dwarves htl1=always %d4c",
	  "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}", "4 2", "ok d4=0P tok1=3"),
	R(T "XI. Treasure: each treasure adds 1 (two treasures, +2)",
	  "0K@e1 0P@d2/t2 1K@h8 1P@d4 1P@h7 treasure",
	  "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}", "2 4", "ok d2=0P d4=1P"),
	R(T "XI. Treasure: in every battle, a Bishop's spell battle too (our ruling)",
	  "0K@e1 0B@c1/hurt/hurt/t1 1K@h8 1P@c3 1P@h7 treasure",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"hurt\",\"target\":\"c3\"}", "3 6", "ok c3=."),
	R(T "X. Terrain, Enhancement: not in a spell battle (nobody moves in; our ruling)",
	  "0K@e1 0B@c1/hurt/hurt 1K@h8 1P@c3 1P@h7 %c3e",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"hurt\",\"target\":\"c3\"}", "2 4", "ok c3=."),
	R(T "VII. Spells: Heal onto the caster's own first two ranks (seat 1: ranks 7-8)",
	  "active=1 0K@e1 0P@a2 1K@h8 1B@c8/heal/heal 1P@x",
	  "1 {\"type\":\"cast\",\"from\":\"c8\",\"spell\":\"heal\",\"revive\":\"pawn\",\"square\":\"a7\"}",
	  "", "ok a7=1P active=1 nacts=1"),
	R(RU "Confrontation R9 (amended): a demon piece may rise onto a Barrier square",
	  "0K@e1 0P@c1 1K@h8 1P@h7 race0=demons %c6b",
	  "0 {\"type\":\"rise\",\"from\":\"c1\",\"to\":\"c6\"}", "", "ok c6=0P"),
	R(T "IX. Races, Demons: a demon piece may rise onto any empty space (count: 60 squares each for King and Pawn, Barrier squares too (R9, amended); King 2 moves, Pawn 4, none across a Barrier)",
	  "0K@a1 0P@a2 1K@h8 1P@h7 race0=demons %b1b %b2b %a3b %b3b", "", "",
	  "n0=126"),
	R(RU "Confrontation R1: army_points from 5 to 100",
	  "new {\"army_points\":4} seats=2", "", "", "create-err=out-of-range"),
	R(RU "G4: options are the match's, unknown ones refused",
	  "new {\"castling\":true} seats=2", "", "", "create-err=unknown-field"),
	R(T "VIII. Multi-Player Game: three or four players, not five",
	  "new {} seats=5", "", "", "create-err=seats"),
	R(RU "Confrontation R1 (our ruling): reset returns to King, three Pawns and all points",
	  "new {\"races\":true} seats=2",
	  "0 {\"type\":\"buy\",\"piece\":\"rook\"};0 {\"type\":\"race\",\"race\":\"orcs\"};0 {\"type\":\"reset\"}",
	  "", "ok pts0=15 pieces0=4 n0=13"),
	R(RU "G3 (amended), with Confrontation R3 (our ruling): the last free square of an area is the King's, and the server places it there; what finds no square is set aside as removed",
	  "new {\"army_points\":100} seats=3",
	  "2 {\"type\":\"buy\",\"piece\":\"pawn\"};""2 {\"type\":\"buy\",\"piece\":\"pawn\"};""2 {\"type\":\"buy\",\"piece\":\"pawn\"};""2 {\"type\":\"buy\",\"piece\":\"pawn\"};""2 {\"type\":\"buy\",\"piece\":\"pawn\"};""2 {\"type\":\"buy\",\"piece\":\"pawn\"};""2 {\"type\":\"buy\",\"piece\":\"pawn\"};""2 {\"type\":\"buy\",\"piece\":\"pawn\"};""2 {\"type\":\"buy\",\"piece\":\"pawn\"};""2 {\"type\":\"buy\",\"piece\":\"pawn\"};""2 {\"type\":\"buy\",\"piece\":\"pawn\"};""2 {\"type\":\"buy\",\"piece\":\"pawn\"};"
	  "0 {\"type\":\"ready\"};1 {\"type\":\"ready\"};2 {\"type\":\"ready\"};""0 {\"type\":\"order\",\"choice\":\"first\"};"
	  "0 {\"type\":\"place\",\"piece\":0,\"square\":\"a1\"};""0 {\"type\":\"place\",\"piece\":1,\"square\":\"a2\"};""0 {\"type\":\"place\",\"piece\":2,\"square\":\"b1\"};""0 {\"type\":\"place\",\"piece\":3,\"square\":\"b2\"};"
	  "1 {\"type\":\"place\",\"piece\":0,\"square\":\"a8\"};""1 {\"type\":\"place\",\"piece\":1,\"square\":\"a7\"};""1 {\"type\":\"place\",\"piece\":2,\"square\":\"b8\"};""1 {\"type\":\"place\",\"piece\":3,\"square\":\"b7\"};"
	  "2 {\"type\":\"place\",\"piece\":1,\"square\":\"a3\"};""2 {\"type\":\"place\",\"piece\":2,\"square\":\"a4\"};""2 {\"type\":\"place\",\"piece\":3,\"square\":\"a5\"};""2 {\"type\":\"place\",\"piece\":4,\"square\":\"a6\"};""2 {\"type\":\"place\",\"piece\":5,\"square\":\"b3\"};""2 {\"type\":\"place\",\"piece\":6,\"square\":\"b4\"};""2 {\"type\":\"place\",\"piece\":7,\"square\":\"b5\"}", "6 2 1", "ok phase=play b6=2K rm2=8 active=0"),

	R(T "II. Setting Up: with more than one Bishop, each has its own spells",
	  "new {} seats=2",
	  "0 {\"type\":\"buy\",\"piece\":\"bishop\"};0 {\"type\":\"buy\",\"piece\":\"bishop\"};"
	  "0 {\"type\":\"add_spell\",\"piece\":5,\"spell\":\"heal\"};"
	  "0 {\"type\":\"add_spell\",\"piece\":5,\"spell\":\"panic\"}", "",
	  "ok spells0.4=0 spells0.5=2 pts0=7"),
	R(T "X. Terrain: a square of four is an area; terrain costs no Army points",
	  "new {\"terrain\":\"given\",\"terrain_areas\":[{\"type\":\"rough\",\"squares\":[\"d4\",\"d5\",\"e4\",\"e5\"]},{\"type\":\"enhancement\",\"squares\":[\"a4\",\"a5\",\"b5\",\"c5\",\"c6\",\"c7\",\"d7\",\"e7\"]}]} seats=2",
	  "", "", "terrain=12 pts0=15 pts1=15"),
	R(RU "G1 with VIII: seat 3 sets up on files g and h",
	  "new {} seats=4",
	  "0 {\"type\":\"ready\"};1 {\"type\":\"ready\"};2 {\"type\":\"ready\"};3 {\"type\":\"ready\"};"
	  "3 {\"type\":\"order\",\"choice\":\"first\"};"
	  "3 {\"type\":\"place\",\"piece\":0,\"square\":\"h5\"};"
	  "3 {\"type\":\"place\",\"piece\":1,\"square\":\"f5\"}",
	  "1 2 3 6", "err=not-in-area h5=3K placer=3"),
	R(T "III. To Play: special abilities before movement (Leadership, then the swapped piece acts)",
	  "0K@e1 0Q@d1 0P@a2 1K@h8 1P@h7",
	  "0 {\"type\":\"leadership\",\"a\":\"a2\",\"b\":\"d1\"};0 {\"type\":\"move\",\"from\":\"a2\",\"to\":\"a6\"}",
	  "", "ok a6=0Q d1=0P nacts=1"),

	R(RU "Confrontation R2 with R10: a resignation that leaves all others ready starts the set-up roll-off at once (the server rolls, G2)",
	  "new {} seats=3", "0 {\"type\":\"ready\"};1 {\"type\":\"ready\"};resign 2",
	  "2 5", "ok phase=order chooser=1 out2=1"),
	R(RU "Confrontation R10 (our ruling): the seat asked for its Panic square resigns; the turn goes on",
	  "seats=3 0K@e1 0B@c1/panic/hurt 0P@a2 1K@h8 1P@h7 2K@a5 2P@c5",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"panic\",\"target\":\"c5\"};resign 2", "",
	  "ok await=1 nacts=1 c5=. a5=. out2=1 over=0"),
	R(RU "Confrontation R10 (our ruling): the defender's seat resigns while asked for Luck",
	  "seats=3 0K@e1 0P@d2 0P@a2 1K@h8 1P@h7 2K@a5 2P@d4 race2=humans",
	  "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"};resign 2", "5 2",
	  "ok await=1 nacts=1 d2=0P d4=. out2=1"),
	/* ------------------------------- text sentences checked once more */
	R(T "VI. The Pieces, Rook: a draw is no defeat, the Strength token is kept",
	  "0K@e1 0P@d2 1K@h8 1R@d4 1P@h7", "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}", "4 3",
	  "ok d2=0P d4=1R str:d4=1"),
	R(T "XI. Treasure: no roll for defeating a Rook",
	  "0K@e1 0Q@d1 1K@h8 1R@d4/s0 1P@h7 treasure", "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}",
	  "6 1", "ok d4=0Q rm1=1 tr:d4=0"),
	R(T "XI. Treasure: defeating a Bishop, a 6 claims a treasure",
	  "0K@e1 0Q@d1 1K@h8 1B@d4/hurt/hurt 1P@h7 treasure",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}", "6 1 6", "ok d4=0Q tr:d4=1"),
	R(T "IX. Races, Dwarves: Hold The Line only when a piece moves in, not against a spell",
	  "0K@e1 0B@c1/hurt/hurt 1K@h8 1P@c4 1P@h7 race1=dwarves htl1=always",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"hurt\",\"target\":\"c4\"}", "3 5",
	  "ok c4=. rm1=1 tok1=3"),
	R(T "VI. The Pieces, Knight: Weapon Mastery whenever it moves in, a Swift Movement too",
	  "0K@e1 0N@d1 1K@h8 1P@d6 1P@h7 race0=elves",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d3\"};0 {\"type\":\"swift\",\"from\":\"d3\",\"to\":\"d6\"}",
	  "2 4", "ok d6=0N d3=. rm1=1 tok0=2"),
	R(T "IV. Combat: a draw after a Swift Movement returns the piece to the space it moved from",
	  "0K@e1 0P@d2 1K@h8 1P@d6 1P@h7 race0=elves",
	  "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"};0 {\"type\":\"swift\",\"from\":\"d4\",\"to\":\"d6\"}",
	  "3 3", "ok d4=0P d6=1P d2=."),
	R(T "VI. The Pieces, Queen: Intimidation whenever she moves in, a Swift Movement too",
	  "0K@e1 0Q@d1 1K@h8 1P@d8 1P@h7 race0=elves",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d3\"};0 {\"type\":\"swift\",\"from\":\"d3\",\"to\":\"d8\"}",
	  "1 3", "ok d8=0Q rm1=1"),
	R(T "IX. Races, Orcs: Battle Fury only after an orc piece succeeds (not after a draw)",
	  "0K@e1 0P@d2 0N@a1 1K@h8 1P@d4 1P@a4 1P@h7 race0=orcs",
	  "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"};0 {\"type\":\"fury\",\"from\":\"a1\",\"to\":\"a4\"}",
	  "3 3", "err=no-fury d2=0P tok0=3"),
	R(T "IX. Races, Undead: not a Bishop (Pawn, Rook or Knight only)",
	  "0K@e1 0Q@d1 1K@h8 1B@d4/hurt/hurt 1P@h7 race1=undead live1=always",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}", "6 1", "ok d4=0Q rm1=1 tok1=3"),
	R(T "IX. Races, Undead: a Rook lives again on the rank closest to its player",
	  "0K@e1 0Q@d1 1K@h8 1R@d4/s0 1P@a8 1P@b8 1P@c8 1P@d8 1P@e8 1P@f8 1P@h7 race1=undead live1=always",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}", "6 1", "ok d4=0Q g8=1R tok1=2 rm1=0"),
	R(T "VII. Spells, Panic with VIII: the rank closest to seat 2 is file a",
	  "seats=3 0K@e1 0B@c1/panic/hurt 0P@a2 1K@h8 1P@h7 2K@a5 2P@c5",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"panic\",\"target\":\"c5\"}", "",
	  "ok await=4 n2=6 c5=2P"),
	R(T "IX. Races, Undead with VIII: the rank closest to seat 2 is file a",
	  "seats=3 0K@e1 0Q@d1 1K@h8 1P@h7 2K@a5 2P@d4 2P@a1 race2=undead live2=always",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}", "6 1", "ok await=4 n2=6"),
	R(T "VII. Spells: Fireball, Combat 3 exactly (3+2 against a Pawn's 1+4 is a draw: no effect)",
	  "0K@e1 0B@c1/fireball/hurt 1K@h8 1P@c7 1P@h7",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"fireball\",\"target\":\"c7\"}", "2 4",
	  "ok c7=1P c1=0B spells:c1=1"),
	R(T "VII. Spells: Judgement, Combat 2 exactly (2+1 against 1+2: no effect)",
	  "0K@e1 0B@d4/judgement/hurt 1K@h8 1P@d5 1P@h7",
	  "0 {\"type\":\"cast\",\"from\":\"d4\",\"spell\":\"judgement\"}", "1 2", "ok d5=1P d4=0B"),
	R(T "VII. Spells: Judgement, Combat 2 exactly (2+2 against 1+2: removed)",
	  "0K@e1 0B@d4/judgement/hurt 1K@h8 1P@d5 1P@h7",
	  "0 {\"type\":\"cast\",\"from\":\"d4\",\"spell\":\"judgement\"}", "2 2", "ok d5=. d4=0B"),
	R(T "VII. Spells: Hurt, Combat 4 exactly (4+1 against a Pawn's 1+4: no effect; 4+2: removed)",
	  "0K@e1 0B@c1/hurt/hurt 1K@h8 1P@c3 1P@h7",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"hurt\",\"target\":\"c3\"};"
	  "0 {\"type\":\"move\",\"from\":\"e1\",\"to\":\"e2\"};"
	  "1 {\"type\":\"move\",\"from\":\"h7\",\"to\":\"h6\"};1 {\"type\":\"move\",\"from\":\"h8\",\"to\":\"g8\"};"
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"hurt\",\"target\":\"c3\"}",
	  "1 4 2 4", "ok c3=. spells:c1=0"),
	R(T "IX. Races, Dwarves: Hold The Line against a piece that rose from Hell and moved in; IV: a draw returns it to the space it moved from",
	  "0K@e1 0P@c1 1K@h8 1P@d4 1P@h7 race0=demons race1=dwarves htl1=always",
	  "0 {\"type\":\"rise\",\"from\":\"c1\",\"to\":\"d2\"};0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}",
	  "4 2", "ok d2=0P d4=1P c1=. tok0=2 tok1=2"),
	R(T "IX. Races, Dwarves: Hold The Line against Battle Fury moves too",
	  "0K@e1 0Q@d1 0R@a1 1K@h8 1P@d4 1P@a4 1P@h7 race0=orcs race1=dwarves htl1=always",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"};0 {\"type\":\"fury\",\"from\":\"a1\",\"to\":\"a4\"}",
	  "6 1 2 1", "ok d4=0Q a1=0R a4=1P tok0=2 tok1=1"),
	R(T "VI. The Pieces: Rook Move 4 (four squares allowed)", "0K@a1 0R@d1 1K@h8 1P@h7",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d5\"}", "", "ok d5=0R"),
	R(T "VI. The Pieces: Knight Move 4 (four squares allowed)", "0K@a1 0N@d1 1K@h8 1P@h7",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"h5\"}", "", "ok h5=0N"),
	R(T "VI. The Pieces: Knight Move 4 (not five)", "0K@a1 0N@d1 1K@h8 1P@h7",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d6\"}", "", "err=too-far"),
	R(T "VI. The Pieces: Queen Move 6 (six squares allowed)", "0K@a1 0Q@a2 1K@h8 1P@h7",
	  "0 {\"type\":\"move\",\"from\":\"a2\",\"to\":\"g2\"}", "", "ok g2=0Q"),
	R(T "VII. Spells: Hurt, Range 3 (not four)", "0K@e1 0B@c1/hurt/hurt 1K@h8 1P@g5 1P@h7",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"hurt\",\"target\":\"g5\"}", "",
	  "err=out-of-range"),
	R(T "VI. The Pieces: Bishop Combat 2 (a Pawn's 1+4 against 2+3 is a draw)",
	  "0K@e1 0P@d2 1K@h8 1B@d4/hurt/hurt 1P@h7", "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}",
	  "4 3", "ok d2=0P d4=1B"),
	R(T "VI. The Pieces: King Combat 4 (a Pawn's 1+4 against 4+1 is a draw)",
	  "0K@e1 0P@d2 1K@d4 1P@h7", "0 {\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}",
	  "4 1", "ok d2=0P d4=1K over=0"),
	R(T "VI. The Pieces: Pawn Army point cost 1",
	  "new {} seats=2", "0 {\"type\":\"buy\",\"piece\":\"pawn\"}", "", "ok pts0=14 pieces0=5"),
	R(T "VI. The Pieces: Knight Army point cost 3",
	  "new {} seats=2", "0 {\"type\":\"buy\",\"piece\":\"knight\"}", "", "ok pts0=12 pieces0=5"),
	R(T "VI. The Pieces: Bishop Army point cost 4",
	  "new {} seats=2", "0 {\"type\":\"buy\",\"piece\":\"bishop\"}", "", "ok pts0=11 pieces0=5"),
	R(T "VI. The Pieces: Queen Army point cost 6",
	  "new {} seats=2", "0 {\"type\":\"buy\",\"piece\":\"queen\"}", "", "ok pts0=9 pieces0=5"),
	R(T "VI. The Pieces: Bishop Move 4 (not five)", "0K@a1 0B@c1/hurt/hurt 1K@h8 1P@h7",
	  "0 {\"type\":\"move\",\"from\":\"c1\",\"to\":\"h6\"}", "", "err=too-far"),
	R(T "VII. Spells: a spell is cast on an enemy piece only",
	  "0K@e1 0B@c1/hurt/hurt 0P@c3 1K@h8 1P@h7",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"hurt\",\"target\":\"c3\"}", "",
	  "err=not-an-enemy"),
	R(T "V. Winning The Game: a King defeated by a spell loses the game",
	  "0K@e1 0B@c1/hurt/hurt 1K@c3 1P@h7",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"hurt\",\"target\":\"c3\"}", "6 1",
	  "ok over=1 win=1"),
	R(RU "Confrontation R6: Luck before Intimidation: a defending Human's re-roll beats a Queen's draw",
	  "0K@e1 0Q@d1 1K@h8 1P@d4 1P@h7 race1=humans luck1=always",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}", "1 3 5", "ok d4=1P rm0=1 tok1=2"),
	R(RU "Confrontation R6 with G3: a moving Human Queen's draw is already a win: Luck is not asked",
	  "0K@e1 0Q@d1 1K@h8 1P@d4 1P@h7 race0=humans",
	  "0 {\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}", "1 3", "ok d4=0Q rm1=1 tok0=3 await=1"),
	R(T "VII. Spells, Heal: a healed Rook begins with one token for its Strength (one spent before)",
	  "0K@e1 0B@c1/heal/heal 0R@x/s0 1K@h8 1P@h7",
	  "0 {\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"heal\",\"revive\":\"rook\",\"square\":\"d2\"}",
	  "", "ok d2=0R str:d2=1"),
	R(T "XII. King's Magic: the King's spell keeps its Range (Fireball 6)",
	  "0K@a1/fireball 1K@h8 1P@h2",
	  "0 {\"type\":\"cast\",\"from\":\"a1\",\"spell\":\"fireball\",\"target\":\"h2\"}", "",
	  "err=out-of-range"),
};

/* ------------------------------------------------------------ the harness */

static int
type_of(char c)
{
	const char *t = "KQRBNP", *p = strchr(t, c);
	return p && c ? (int)(p - t) : -1;
}

static struct cf_state *
position(const char *text, char *why)
{
	struct cf_state *st = calloc(1, sizeof(*st));
	struct cf_opts o = {.points = 15, .random_areas = 1};
	char buf[1024], *save = NULL;
	int seats = 2;
	snprintf(buf, sizeof(buf), "%s", text);
	if (strstr(text, "seats=3"))
		seats = 3;
	if (strstr(text, "seats=4"))
		seats = 4;
	o.races = strstr(text, "race") != NULL;
	o.treasure = strstr(text, "treasure") != NULL;
	cf_init(st, &o, seats);
	for (int s = 0; s < seats; s++) {
		st->s[s].n = 0;
		st->s[s].ready = 1;
		st->order[s] = s;
		st->s[s].racial = o.races ? 3 : 0;
	}
	st->norder = seats;
	st->placer = seats;
	st->phase = CF_PLAY;
	st->active = 0;
	st->turn = 1;
	for (char *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		int s, v;
		char name[32];
		if (isdigit((unsigned char)tok[0]) && tok[2] == '@') {
			s = tok[0] - '0';
			struct cf_seat *x = &st->s[s];
			struct cf_piece *p = &x->p[x->n++];
			char *slash = strchr(tok, '/');
			p->type = type_of(tok[1]);
			p->strength = p->type == CF_ROOK;
			if (tok[3] == 'x') {
				p->status = CF_REMOVED;
				p->sq = -1;
			} else {
				char sqn[4] = {tok[3], tok[4], 0};
				p->status = CF_ON;
				p->sq = wr_square_parse(&wr_board8, sqn);
			}
			while (slash) {
				char *next = strchr(slash + 1, '/');
				char part[24];
				snprintf(part, sizeof(part), "%.*s",
				         (int)(next ? next - slash - 1 : (long)strlen(slash + 1)), slash + 1);
				if (part[0] == 's' && isdigit((unsigned char)part[1]))
					p->strength = part[1] - '0';
				else if (part[0] == 't' && isdigit((unsigned char)part[1]))
					p->treasure = part[1] - '0';
				else if ((v = cf_lookup(cf_spell_name, CF_SPELL_MAX, part)) >= 0)
					p->spells[v]++;
				else
					sprintf(why, "bad piece suffix %s", part);
				slash = next;
			}
		} else if (tok[0] == '%') {
			char sqn[4] = {tok[1], tok[2], 0};
			/* Not NUL-terminated: a table of CF_T_MAX letters. */
			const char *p = memchr(cf_terrain_letter, tok[3], CF_T_MAX);
			st->terrain[wr_square_parse(&wr_board8, sqn)] = (int)(p - cf_terrain_letter);
		} else if (sscanf(tok, "race%d=%31s", &s, name) == 2) {
			st->s[s].race = cf_lookup(cf_race_name, CF_RACE_MAX, name);
		} else if (sscanf(tok, "tok%d=%d", &s, &v) == 2) {
			st->s[s].racial = v;
		} else if (sscanf(tok, "htl%d=%31s", &s, name) == 2) {
			st->s[s].o_htl = cf_lookup(cf_yesno_name, CF_YESNO_MAX, name);
		} else if (sscanf(tok, "luck%d=%31s", &s, name) == 2) {
			st->s[s].o_luck = cf_lookup(cf_luck_name, CF_LUCK_MAX, name);
		} else if (sscanf(tok, "live%d=%31s", &s, name) == 2) {
			st->s[s].o_live = cf_lookup(cf_yesno_name, CF_YESNO_MAX, name);
		} else if (sscanf(tok, "active=%d", &v) == 1) {
			st->active = v;
		} else if (sscanf(tok, "nacts=%d", &v) == 1) {
			st->nacts = v;
		} else if (sscanf(tok, "out%d", &v) == 1) {
			st->s[v].out = 1;
			for (int i = 0; i < st->s[v].n; i++)
				st->s[v].p[i].status = CF_GONE, st->s[v].p[i].sq = -1;
		} else if (strncmp(tok, "seats=", 6) && strcmp(tok, "treasure")) {
			sprintf(why, "bad token %s", tok);
		}
	}
	cf_rebuild_board(st);
	return st;
}

static const struct cf_piece *
at(const struct cf_state *st, const char *sqname, int *seat)
{
	int s, id, sq = wr_square_parse(&wr_board8, sqname);
	if (!cf_piece_on(st, sq, &s, &id))
		return NULL;
	if (seat)
		*seat = s;
	return &st->s[s].p[id];
}

static int
removed(const struct cf_state *st, int s)
{
	int n = 0;
	for (int i = 0; i < st->s[s].n; i++)
		n += st->s[s].p[i].status == CF_REMOVED;
	return n;
}

/* One expectation; returns 1 when it holds. */
static int
expect1(const struct cf_state *st, const char *e, const char *last_err, int all_ok,
        const char *create_err, char *detail)
{
	char a[32], b[32];
	int s, v, i;
	detail[0] = 0;
	if (!strcmp(e, "ok"))
		return all_ok;
	if (sscanf(e, "err=%31s", a) == 1) {
		sprintf(detail, "error was %s", last_err);
		return !strcmp(a, last_err);
	}
	if (sscanf(e, "create-err=%31s", a) == 1) {
		sprintf(detail, "create error was %s", create_err);
		return !strcmp(a, create_err);
	}
	if (!st)
		return 0;
	if (sscanf(e, "%2[a-h1-8]=%31s", a, b) == 2 && strlen(a) == 2) {
		const struct cf_piece *p = at(st, a, &s);
		if (!strcmp(b, "."))
			return !p;
		sprintf(detail, "%s holds %s", a, p ? cf_type_name[p->type] : "nothing");
		return p && s == b[0] - '0' && p->type == type_of(b[1]);
	}
	if (sscanf(e, "n%d=%d", &s, &v) == 2) {
		sprintf(detail, "%d legal actions", wrt_nactions(&cf_ruleset, st, s));
		return wrt_nactions(&cf_ruleset, st, s) == v;
	}
	if (sscanf(e, "await=%d", &v) == 1) {
		sprintf(detail, "awaited %u", cf_ruleset.to_act(st));
		return (int)cf_ruleset.to_act(st) == v;
	}
	if (sscanf(e, "tok%d=%d", &s, &v) == 2) {
		sprintf(detail, "tokens %d", st->s[s].racial);
		return st->s[s].racial == v;
	}
	if (sscanf(e, "pts%d=%d", &s, &v) == 2) {
		sprintf(detail, "points %d", st->s[s].points);
		return st->s[s].points == v;
	}
	if (sscanf(e, "pieces%d=%d", &s, &v) == 2)
		return st->s[s].n == v;
	if (sscanf(e, "rm%d=%d", &s, &v) == 2) {
		sprintf(detail, "removed %d", removed(st, s));
		return removed(st, s) == v;
	}
	if (sscanf(e, "win=%d", &v) == 1) {
		sprintf(detail, "phase %s winners %u", cf_phase_name[st->phase], st->winners);
		return st->phase == CF_OVER && (int)st->winners == v;
	}
	if (sscanf(e, "reason=%31s", a) == 1) {
		for (char *c = a; *c; c++)
			*c = *c == '-' ? ' ' : *c;
		sprintf(detail, "reason %s", st->reason);
		return st->phase == CF_OVER && !strcmp(st->reason, a);
	}
	if (sscanf(e, "over=%d", &v) == 1)
		return (st->phase == CF_OVER) == v;
	if (sscanf(e, "str:%2s=%d", a, &v) == 2) {
		const struct cf_piece *p = at(st, a, NULL);
		return p && p->strength == v;
	}
	if (sscanf(e, "tr:%2s=%d", a, &v) == 2) {
		const struct cf_piece *p = at(st, a, NULL);
		return p && p->treasure == v;
	}
	if (sscanf(e, "spells:%2s=%d", a, &v) == 2) {
		const struct cf_piece *p = at(st, a, NULL);
		return p && cf_nspells(p) == v;
	}
	if (sscanf(e, "str%d.%d=%d", &s, &i, &v) == 3)
		return st->s[s].p[i].strength == v;
	if (sscanf(e, "tr%d.%d=%d", &s, &i, &v) == 3)
		return st->s[s].p[i].treasure == v;
	if (sscanf(e, "spells%d.%d=%d", &s, &i, &v) == 3)
		return cf_nspells(&st->s[s].p[i]) == v;
	if (sscanf(e, "active=%d", &v) == 1) {
		sprintf(detail, "active %d", st->active);
		return st->active == v;
	}
	if (sscanf(e, "nacts=%d", &v) == 1) {
		sprintf(detail, "nacts %d", st->nacts);
		return st->nacts == v;
	}
	if (sscanf(e, "risen=%d", &v) == 1)
		return st->risen == v;
	if (sscanf(e, "lead=%d", &v) == 1)
		return st->leadership_used == v;
	if (sscanf(e, "phase=%31s", a) == 1) {
		sprintf(detail, "phase %s", cf_phase_name[st->phase]);
		return !strcmp(cf_phase_name[st->phase], a);
	}
	if (sscanf(e, "chooser=%d", &v) == 1) {
		sprintf(detail, "chooser %d", st->chooser);
		return st->chooser == v;
	}
	if (sscanf(e, "rolls%d=%d", &s, &v) == 2) {
		sprintf(detail, "%d set-up rolls kept", st->s[s].nrolls);
		return st->s[s].nrolls == v;
	}
	if (sscanf(e, "placer=%d", &v) == 1) {
		sprintf(detail, "placer %d", st->placer < st->norder ? st->order[st->placer] : -1);
		return st->placer < st->norder && st->order[st->placer] == v;
	}
	if (sscanf(e, "order=%31s", a) == 1) {
		char got[32] = "";
		for (int k = 0; k < st->norder; k++)
			sprintf(got + strlen(got), "%s%d", k ? "," : "", st->order[k]);
		sprintf(detail, "order %s", got);
		return !strcmp(got, a);
	}
	if (sscanf(e, "out%d=%d", &s, &v) == 2)
		return st->s[s].out == v;
	if (sscanf(e, "terrain=%d", &v) == 1 || sscanf(e, "terrain>=%d", &v) == 1) {
		int n = 0;
		for (int k = 0; k < 64; k++)
			n += st->terrain[k] != CF_T_NONE;
		sprintf(detail, "%d terrain squares", n);
		return strchr(e, '>') ? n >= v : n == v;
	}
	if (sscanf(e, "hidden%dfrom%d=%d", &s, &i, &v) == 3) {
		/* G5: the other seat and spectators see no pieces, no points. */
		json_object *w = cf_ruleset.view(st, i), *sp = cf_ruleset.view(st, WR_SPECTATOR);
		json_object *own = cf_ruleset.view(st, s);
		json_object *x, *y, *pz;
		x = json_object_array_get_idx(json_object_object_get(w, "seats"), (size_t)s);
		y = json_object_array_get_idx(json_object_object_get(sp, "seats"), (size_t)s);
		pz = json_object_array_get_idx(json_object_object_get(own, "seats"), (size_t)s);
		int ok = json_object_object_get(x, "pieces") == NULL &&
		         json_object_object_get(y, "pieces") == NULL &&
		         json_object_object_get(x, "points_left") == NULL &&
		         json_object_object_get(pz, "pieces") != NULL;
		json_object_put(w);
		json_object_put(sp);
		json_object_put(own);
		return ok == v;
	}
	if (sscanf(e, "orders%dhidden=%d", &s, &v) == 2) {
		json_object *w = cf_ruleset.view(st, 1 - s), *own = cf_ruleset.view(st, s);
		json_object *x = json_object_array_get_idx(json_object_object_get(w, "seats"), (size_t)s);
		json_object *y = json_object_array_get_idx(json_object_object_get(own, "seats"), (size_t)s);
		json_object *o = json_object_object_get(y, "standing_orders");
		int ok = json_object_object_get(x, "standing_orders") == NULL && o &&
		         !strcmp(json_object_get_string(json_object_object_get(o, "hold_the_line")),
		                 "always");
		json_object_put(w);
		json_object_put(own);
		return ok == v;
	}
	if (!strcmp(e, "spellshidden=1")) {
		json_object *w = cf_ruleset.view(st, 1), *own = cf_ruleset.view(st, 0);
		json_object *all = cf_ruleset.view(st, WR_EVERYONE);
		const char *ws = json_object_to_json_string(w), *os = json_object_to_json_string(own);
		int ok = !strstr(ws, "hurt") && strstr(os, "hurt") &&
		         strstr(json_object_to_json_string(all), "hurt");
		json_object *acts = cf_ruleset.actions(st, 1);
		ok = ok && !strstr(json_object_to_json_string(acts), "hurt");
		json_object_put(acts);
		json_object_put(w);
		json_object_put(own);
		json_object_put(all);
		return ok;
	}
	sprintf(detail, "unknown expectation");
	return 0;
}

static void
run_row(const struct row *r)
{
	unsigned faces[32];
	struct wr_script sc = {faces, 0, 0, 0};
	struct wr_rng rng;
	struct wr_error err;
	struct cf_state *st = NULL;
	char why[128] = "", last_err[48] = "", create_err[48] = "";
	int all_ok = 1;
	void *v = NULL;
	{
		char buf[256], *save = NULL;
		snprintf(buf, sizeof(buf), "%s", r->dice);
		for (char *t = strtok_r(buf, " ", &save); t && sc.n < 32 && strncmp(buf, "seeded", 6); t = strtok_r(NULL, " ", &save))
			faces[sc.n++] = (unsigned)atoi(t);
	}
	uint64_t seeded_state;
	if (!strncmp(r->dice, "seeded:", 7))
		wr_rng_seeded(&rng, &seeded_state, (uint64_t)atoi(r->dice + 7)), sc.n = 0;
	else
		wr_rng_script(&rng, &sc);
	if (!strncmp(r->setup, "new ", 4)) {
		const char *brace = strchr(r->setup, '{'), *end = strrchr(r->setup, '}');
		char js[1024];
		int seats = 2;
		snprintf(js, sizeof(js), "%.*s", (int)(end - brace + 1), brace);
		sscanf(end + 1, " seats=%d", &seats);
		json_object *o = json_tokener_parse(js);
		if (cf_ruleset.create(o, seats, &rng, &v, &err) == 0)
			st = v;
		else
			snprintf(create_err, sizeof(create_err), "%s", err.code);
		json_object_put(o);
	} else {
		st = position(r->setup, why);
		struct wr_list ev;
		/* Settle the position as a turn start would: a seat with nothing
		 * to do passes (G6). */
		wr_list_init(&ev, sizeof(struct cf_event));
		cf_settle(st, &rng, &ev);
		wr_list_free(&ev);
		/* G3 (amended): and takes an awaited seat's only action. */
		struct wr_events forced = {0};
		wr_tpl_settle(&cf_template, st, &rng, &forced);
		wr_events_free(&forced);
	}
	if (why[0]) {
		CHECK(0, why);
		free(st);
		return;
	}
	char acts[4096], *save = NULL;
	snprintf(acts, sizeof(acts), "%s", r->acts);
	for (char *a = strtok_r(acts, ";", &save); a && st; a = strtok_r(NULL, ";", &save)) {
		struct wr_events ev = {0};
		int seat, rc;
		json_object *j;
		char *before = wrt_save_str(&cf_ruleset, st);
		last_err[0] = 0;
		if (!strncmp(a, "resign ", 7)) {
			rc = cf_ruleset.resign(st, atoi(a + 7), &rng, &ev);
		} else if (!strncmp(a, "orders ", 7)) {
			seat = atoi(a + 7);
			j = json_tokener_parse(strchr(a, '{'));
			rc = cf_ruleset.set_orders(st, seat, j, &err);
			if (rc)
				snprintf(last_err, sizeof(last_err), "%s", err.code);
			json_object_put(j);
		} else {
			seat = atoi(a);
			j = json_tokener_parse(strchr(a, '{'));
			rc = cf_ruleset.apply(st, seat, j, &rng, &ev, &err);
			if (rc) {
				snprintf(last_err, sizeof(last_err), "%s", err.code);
				char *after = wrt_save_str(&cf_ruleset, st);
				CHECK(!strcmp(before, after), "a refused action leaves the state unchanged");
				free(after);
				if (!err.message[0])
					CHECK(0, "an error has a message");
			}
			json_object_put(j);
		}
		free(before);
		wr_events_free(&ev);
		if (rc)
			all_ok = 0;
	}
	{
		char exp[512], *s2 = NULL;
		snprintf(exp, sizeof(exp), "%s", r->expect);
		for (char *e = strtok_r(exp, " ", &s2); e; e = strtok_r(NULL, " ", &s2)) {
			char detail[128], what[512];
			int ok = expect1(st, e, last_err, all_ok, create_err, detail);
			snprintf(what, sizeof(what), "%s: %s%s%s%s%s", r->rule, e, detail[0] ? " (" : "",
			         detail, detail[0] ? ")" : "", last_err[0] && ok ? "" : "");
			CHECK(ok, what);
			if (!ok && last_err[0] && strncmp(e, "err=", 4))
				fprintf(stderr, "   last error: %s %s\n", last_err, err.message);
		}
	}
	{
		char what[300];
		snprintf(what, sizeof(what), "%s: every scripted die is used, no more", r->rule);
		CHECK(!sc.exhausted && sc.pos == sc.n, what);
	}
	if (st) {
		struct wr_error e2;
		char what[300];
		int rc = cf_check(st, &e2);
		snprintf(what, sizeof(what), "%s: the state is consistent (%s)", r->rule,
		         rc ? e2.message : "");
		CHECK(rc == 0, what);
	}
	free(st);
}

static json_object *
find_event(const struct wr_events *ev, const char *type, size_t *idx)
{
	for (size_t i = 0; i < ev->len; i++) {
		json_object *t;
		if (json_object_object_get_ex(ev->items[i].body, "type", &t) &&
		    !strcmp(json_object_get_string(t), type)) {
			if (idx)
				*idx = i;
			return ev->items[i].body;
		}
	}
	return NULL;
}

static int
do_json(void *st, int seat, const char *js, struct wr_rng *rng, struct wr_events *ev,
        struct wr_error *err)
{
	json_object *a = json_tokener_parse(js);
	int rc = cf_ruleset.apply(st, seat, a, rng, ev, err);
	json_object_put(a);
	return rc;
}

/* RULINGS.md G5 through events and errors; R6's modifier order in the
 * battle_result event; every die is in an event. */
static void
event_checks(void)
{
	unsigned faces[] = {5, 2, 3, 4};
	struct wr_script sc = {faces, 4, 0, 0};
	struct wr_rng rng;
	struct wr_events ev = {0};
	struct wr_error err;
	void *v;
	size_t i;
	wr_rng_script(&rng, &sc);
	cf_ruleset.create(NULL, 2, &rng, &v, &err);
	do_json(v, 0, "{\"type\":\"buy\",\"piece\":\"bishop\"}", &rng, &ev, &err);
	do_json(v, 0, "{\"type\":\"add_spell\",\"piece\":4,\"spell\":\"fireball\"}", &rng, &ev,
	        &err);
	do_json(v, 0, "{\"type\":\"add_spell\",\"piece\":4,\"spell\":\"fireball\"}", &rng, &ev,
	        &err);
	CHECK(find_event(&ev, "bought", &i) && ev.items[i].visible_to == 1u &&
	              !wr_event_visible(&ev.items[i], 1) &&
	              !wr_event_visible(&ev.items[i], WR_SPECTATOR),
	      "RULINGS.md, G5: a purchase is visible to its seat only");
	CHECK(find_event(&ev, "spell_added", &i) && !wr_event_visible(&ev.items[i], 1),
	      "RULINGS.md, G5: a chosen spell is visible to its seat only");
	wr_events_free(&ev);
	do_json(v, 0, "{\"type\":\"ready\"}", &rng, &ev, &err);
	do_json(v, 1, "{\"type\":\"ready\"}", &rng, &ev, &err);
	json_object *rev = find_event(&ev, "armies_revealed", NULL);
	CHECK(rev && !strstr(json_object_to_json_string(rev), "fireball") &&
	              strstr(json_object_to_json_string(rev), "\"spell_count\": 2"),
	      "RULINGS.md, G5: the revealed armies show how many spells, not which");
	CHECK(find_event(&ev, "setup_roll", NULL) != NULL, "RULINGS.md, G2: the set-up dice are events");
	for (size_t k = 0; k < ev.len; k++)
		CHECK(!strstr(json_object_to_json_string(ev.items[k].body), "fireball") ||
		              ev.items[k].visible_to == 1u,
		      "RULINGS.md, G5: no public event names a secret spell");
	wr_events_free(&ev);
	cf_ruleset.free(v);

	/* Errors never leak the other seat's spells. */
	{
		char why[64] = "";
		struct cf_state *st = position("0K@e1 0B@c1/fireball/fireball 1K@h8 1P@h7 active=1", why);
		CHECK(do_json(st, 1, "{\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"hurt\",\"target\":\"h7\"}",
		              &rng, &ev, &err) != 0 &&
		              !strcmp(err.code, "not-your-piece") && !strstr(err.message, "fireball"),
		      "RULINGS.md, G5: casting from an enemy Bishop is refused without naming its spells");
		json_object *w = cf_ruleset.view(st, WR_SPECTATOR);
		CHECK(!strstr(json_object_to_json_string(w), "fireball"),
		      "RULINGS.md, G5: spectators do not see the spells");
		json_object_put(w);
		wr_events_free(&ev);
		free(st);
	}
	/* R7: a spell that does not win its battle has no effect, and says so. */
	for (int lose = 0; lose < 2; lose++) {
		char why[64] = "";
		unsigned f2[] = {1, lose ? 6 : 1};   /* 1+4 against 6+1, or 1+4 against 1+1 */
		struct wr_script s2 = {f2, 2, 0, 0};
		struct cf_state *st = position("0K@e1 0B@c1/hurt/hurt 1K@h8 1P@c3 1P@h7", why);
		wr_rng_script(&rng, &s2);
		int rc = do_json(st, 0, "{\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"hurt\","
		                 "\"target\":\"c3\"}", &rng, &ev, &err);
		json_object *br = find_event(&ev, "battle_result", NULL), *x;
		const char *want = lose ? "defender wins" : "attacker wins";
		int ok = rc == 0 && br && json_object_object_get_ex(br, "outcome", &x) &&
		         !strcmp(json_object_get_string(x), want);
		if (lose)
			ok = ok && json_object_object_get_ex(br, "effect", &x) &&
			     !strcmp(json_object_get_string(x), "none") && st->s[1].p[1].status == CF_ON;
		else
			ok = ok && !json_object_object_get_ex(br, "effect", &x);
		CHECK(ok, lose ? "RULINGS.md, Confrontation R7: a spell that loses its battle is reported "
		                 "as having no effect (effect: none)"
		               : "RULINGS.md, Confrontation R7: a spell that wins has its effect");
		wr_events_free(&ev);
		free(st);
	}
	/* R6: the modifiers in order, every die an event. */
	{
		char why[64] = "";
		unsigned f2[] = {1, 1};
		struct wr_script s2 = {f2, 2, 0, 0};
		struct cf_state *st =
		        position("0K@e1 0N@d1/t1 1K@h8 1P@d4/t1 1P@h7 race1=dwarves htl1=always %d1e %d4e "
		                 "treasure", why);
		wr_rng_script(&rng, &s2);
		CHECK(do_json(st, 0, "{\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}", &rng, &ev,
		              &err) == 0, "R6 position: the move is legal");
		json_object *br = find_event(&ev, "battle_result", NULL), *x, *m;
		const char *want_a[] = {"weapon_mastery", "enhancement", "treasure"};
		const char *want_d[] = {"hold_the_line", "enhancement", "treasure"};
		int ok = br != NULL;
		for (int side = 0; side < 2 && ok; side++) {
			ok = json_object_object_get_ex(br, side ? "defender" : "attacker", &x) &&
			     json_object_object_get_ex(x, "modifiers", &m) &&
			     json_object_array_length(m) == 3;
			for (size_t k = 0; ok && k < 3; k++) {
				json_object *nm = json_object_object_get(json_object_array_get_idx(m, k), "name");
				ok = !strcmp(json_object_get_string(nm), side ? want_d[k] : want_a[k]);
			}
		}
		CHECK(ok, "RULINGS.md, Confrontation R6: Weapon Mastery, Hold the Line, Enhancement, "
		          "Treasure, in that order");
		json_object *dice = find_event(&ev, "dice", NULL);
		CHECK(dice && json_object_get_int(json_object_object_get(dice, "attacker")) == 1 &&
		              json_object_get_int(json_object_object_get(dice, "defender")) == 1,
		      "004_13fa4739ee387ac7.txt, IV. Combat: each player's die is shown");
		/* 1+2+2+1+1 = 7 against 1+1+2+1+1 = 6: the Knight wins */
		CHECK(json_object_get_int(json_object_object_get(
		              json_object_object_get(br, "attacker"), "total")) == 7 &&
		              json_object_get_int(json_object_object_get(
		                      json_object_object_get(br, "defender"), "total")) == 6,
		      "RULINGS.md, Confrontation R6: totals with every modifier");
		wr_events_free(&ev);
		free(st);
	}
}

/* Issue 14 (undo): a cast shows a spell held in secret (17), a move
 * shows nothing hidden. */
static void
undo_barrier(void)
{
	static const char *const acts[2] = {
		"{\"type\":\"move\",\"from\":\"c1\",\"to\":\"c2\"}",
		"{\"type\":\"cast\",\"from\":\"c1\",\"spell\":\"hurt\",\"target\":\"c3\"}"};
	static unsigned faces[2] = {1, 4};

	for (int k = 0; k < 2; k++) {
		struct wr_script sc = {faces, 2, 0, 0};
		struct wr_rng rng;
		struct wr_events ev = {0};
		struct wr_error err;
		char why[128] = "";
		struct cf_state *st = position("0K@e1 0B@c1/hurt/hurt 1K@h8 1P@c3 1P@h7", why), *before;
		json_object *j = json_tokener_parse(acts[k]);
		wr_rng_script(&rng, &sc);
		before = wrt_clone(&cf_ruleset, st);
		CHECK(!why[0] && before && cf_ruleset.apply(st, 0, j, &rng, &ev, &err) == 0 &&
		          cf_undo_barrier(before, st, 0, &ev) == k,
		      k ? "issue 14 / 17: a cast reveals a secret spell: an undo barrier"
		        : "issue 14: a move reveals nothing: undoable");
		json_object_put(j);
		wr_events_free(&ev);
		cf_ruleset.free(before);
		free(st);
	}
}

/* R10's draw when no seat can act: under R9 (amended) a seat with a piece
 * besides its King always has a move (a Barrier square may be entered),
 * so no position reaches it; the counter of turns that did nothing is
 * checked directly. */
static void
deadlock_counter(void)
{
	for (int idle = 0; idle < 2; idle++) {
		char why[64] = "";
		struct cf_state *st = position("0K@a1 0P@h2 1K@h8 1P@h7", why);
		struct wr_list ev;
		wr_list_init(&ev, sizeof(struct cf_event));
		st->idle = idle;
		cf_end_turn(st, &ev);
		CHECK(!why[0] && (st->phase == CF_OVER) == (idle == 1) &&
		          (idle == 0 || (st->winners == 0 && !strcmp(st->reason, "no seat can act"))),
		      idle ? "RULINGS.md, Confrontation R10: every seat in turn did nothing: drawn, "
		             "no seat can act"
		           : "RULINGS.md, Confrontation R10: one idle turn is no deadlock");
		wr_list_free(&ev);
		free(st);
	}
}

/* The open Battle Fury survives save/load; a snapshot from before the
 * amended R8 (no "fury" key) still loads, its Fury the active seat's. */
static void
fury_snapshot(void)
{
	unsigned faces[] = {1, 6};
	struct wr_script sc = {faces, 2, 0, 0};
	struct wr_rng rng;
	struct wr_events ev = {0};
	struct wr_error err;
	char why[64] = "";
	struct cf_state *st = position("0K@e1 0P@d2 0P@a2 0P@h2 1K@h8 1P@d4 1R@a6 1P@h7 race1=orcs",
	                               why);
	void *back = NULL;
	wr_rng_script(&rng, &sc);
	do_json(st, 0, "{\"type\":\"move\",\"from\":\"d2\",\"to\":\"d4\"}", &rng, &ev, &err);
	json_object *snap = cf_ruleset.save(st);
	CHECK(!why[0] && st->fury_seat == 1 && cf_ruleset.load(snap, &back, &err) == 0 &&
	          ((struct cf_state *)back)->fury_seat == 1 && cf_ruleset.to_act(back) == 2u,
	      "RULINGS.md, Confrontation R8 (amended): a Fury asked on another seat's turn is kept "
	      "by save and load");
	if (back)
		cf_ruleset.free(back);
	back = NULL;
	json_object_object_del(snap, "fury");
	CHECK(cf_ruleset.load(snap, &back, &err) == 0 && ((struct cf_state *)back)->fury_seat == 0,
	      "a snapshot without the Fury key loads (the Fury, if any, the active seat's)");
	if (back)
		cf_ruleset.free(back);
	json_object_put(snap);
	wr_events_free(&ev);
	free(st);
}

/* G3 (amended), README "a question already asked is answered by the
 * action": the order a Live Again question was asked under is kept by
 * save and load; a snapshot without it takes the current order. */
static void
live_snapshot(void)
{
	unsigned faces[] = {6, 1};
	struct wr_script sc = {faces, 2, 0, 0};
	struct wr_rng rng;
	struct wr_events ev = {0};
	struct wr_error err;
	char why[64] = "";
	struct cf_state *st = position("0K@e1 0Q@d1 1K@h8 1P@d4 1P@h7 race1=undead live1=always",
	                               why);
	void *back = NULL;
	wr_rng_script(&rng, &sc);
	do_json(st, 0, "{\"type\":\"move\",\"from\":\"d1\",\"to\":\"d4\"}", &rng, &ev, &err);
	st->s[1].o_live = CF_ASK;
	json_object *snap = cf_ruleset.save(st);
	json_object *no = json_tokener_parse("{\"type\":\"live_again\",\"use\":false}");
	CHECK(!why[0] && cf_ruleset.load(snap, &back, &err) == 0 &&
	          cf_ruleset.apply(back, 1, no, &rng, &ev, &err) != 0 && !strcmp(err.code, "live-again-ordered"),
	      "RULINGS.md, G3 (amended): a Live Again asked under always is kept by save and load "
	      "(use:false refused though the order is now ask)");
	if (back)
		cf_ruleset.free(back);
	back = NULL;
	json_object_object_del(snap, "live_asked");
	CHECK(cf_ruleset.load(snap, &back, &err) == 0 && cf_ruleset.apply(back, 1, no, &rng, &ev, &err) == 0,
	      "a snapshot without the live_asked key loads (the question answered under the "
	      "current order)");
	if (back)
		cf_ruleset.free(back);
	json_object_put(no);
	json_object_put(snap);
	wr_events_free(&ev);
	free(st);
}

/* G3: standing orders are set at any time and stand until changed: an
 * army's reset during the build keeps all four (Battle Fury's with them). */
static void
orders_survive_reset(void)
{
	unsigned faces[] = {1};
	struct wr_script sc = {faces, 1, 0, 0};
	struct wr_rng rng;
	struct wr_events ev = {0};
	struct wr_error err;
	void *v = NULL;
	wr_rng_script(&rng, &sc);
	cf_ruleset.create(NULL, 2, &rng, &v, &err);
	struct cf_state *st = v;
	cf_set_orders(st, 0, 1, 1, 1, 1);
	do_json(v, 0, "{\"type\":\"buy\",\"piece\":\"rook\"}", &rng, &ev, &err);
	do_json(v, 0, "{\"type\":\"reset\"}", &rng, &ev, &err);
	CHECK(st->s[0].o_fury == 1 && st->s[0].o_htl == 1 && st->s[0].o_luck == 1 &&
	          st->s[0].o_live == 1 && st->s[0].n == 4,
	      "RULINGS.md, G3 (standing orders stand until changed): a reset keeps Battle Fury's "
	      "order with the others");
	wr_events_free(&ev);
	cf_ruleset.free(v);
}

/* II "Re-roll ties", R2: ties are re-rolled until broken, but no dice
 * source may hold the server: a script run dry rolls 1s for ever, and the
 * roll-off still ends (after CF_ROLL_ROUNDS rounds, the lower seat first,
 * README decision 16), every roll an event, the rolls kept bounded. */
static void
roll_off_ends(void)
{
	unsigned faces[] = {1};
	struct wr_script sc = {faces, 0, 0, 0};
	struct wr_rng rng;
	struct wr_events ev = {0};
	struct wr_error err;
	void *v = NULL;
	size_t rolls = 0;
	wr_rng_script(&rng, &sc);
	cf_ruleset.create(NULL, 2, &rng, &v, &err);
	struct cf_state *st = v;
	do_json(v, 0, "{\"type\":\"ready\"}", &rng, &ev, &err);
	do_json(v, 1, "{\"type\":\"ready\"}", &rng, &ev, &err);
	for (size_t i = 0; i < ev.len; i++) {
		json_object *t;
		if (json_object_object_get_ex(ev.items[i].body, "type", &t) &&
		    !strcmp(json_object_get_string(t), "setup_roll"))
			rolls++;
	}
	CHECK(st->phase == CF_ORDER && st->chooser == 0 && rolls == 2 * CF_ROLL_ROUNDS &&
	          st->s[0].nrolls == CF_ROLLS_KEPT && cf_check(st, &err) == 0,
	      "004_13fa4739ee387ac7.txt, II. Setting Up (re-roll ties) with RULINGS.md G2: a tie "
	      "that never breaks (dice run dry) still ends the roll-off, after 1000 rounds");
	wr_events_free(&ev);
	cf_ruleset.free(v);
}

int
main(void)
{
	size_t n = sizeof(rows) / sizeof(rows[0]);
	for (size_t i = 0; i < n; i++)
		run_row(&rows[i]);
	event_checks();
	undo_barrier();
	deadlock_counter();
	fury_snapshot();
	live_snapshot();
	orders_survive_reset();
	roll_off_ends();
	printf("%zu rule cases\n", n);
	return check_done("confrontation rule table");
}
