/* Wargame Chess rule-case table (000_fd193abe0e5c92ac.txt with RULINGS.md):
 * positions as data, actions, scripted dice, expected outcomes, error
 * codes and legal action counts; every row names its section or ruling.
 * Set-up (teams, Trees, deployment) is checked from create() after the
 * table.
 *
 * Row language. pos: see wc_pos() in wc_test.h. acts: "S:{json}" applied by
 * seat S in order, "O1:{json}" sets seat 1's standing orders; single
 * quotes stand for double quotes. dice: the faces the script returns, all
 * of which must be used. expect, space separated:
 *   P@e4=0K  piece at e4 is seat 0's King (P@e4=- empty)
 *   A@e4=n D@e4=n  Advantage / Disadvantage tokens of the piece at e4
 *   A#i=n D#i=n act#i=0|1 W#i=board|slain|removed  piece i (spec order)
 *   stage= phase= over= win=(mask) turn= active= toact=(mask)
 *   n=  legal actions of the awaited seat
 *   has={json} !has={json}  offered or not to the awaited seat
 *   ev=text !ev=text  in the events of the row (~ stands for a space)
 *   err=code  the last action is refused with that code (state unchanged)
 */
#include "wc_test.h"

#define ACT(s) "0:{'type':'activate','square':'" s "'};"
#define MV(s) "0:{'type':'move','to':'" s "'};"
#define AT(s) "0:{'type':'attack','to':'" s "'};"
#define ATA(s) "0:{'type':'attack','to':'" s "','advantage':true};"

struct row {
	const char *rule, *pos, *acts, *dice, *expect;
};

#define T "000_fd193abe0e5c92ac.txt, "
#define W "RULINGS.md, Wargame Chess "

#define FILL0 " 0Kh1"
#define FILL1 " 1Kh8 1Pa8:e"

static const struct row rows[] = {
	/* ---- Moves and Attacks: paths of every piece type ---- */
	{T "Pawn: Move 1 square vertically or horizontally", "0Pd4:e" FILL0 FILL1, ACT("d4"), "",
	 "stage=act n=4 has={'type':'move','to':'d5'} has={'type':'move','to':'c4'} "
	 "has={'type':'move','to':'d3'} !has={'type':'move','to':'e5'}"},
	{T "Pawn: Attack 1 square diagonally", "0Pd4:e 1Pe5:e 1Pc5:e" FILL0 FILL1, ACT("d4"), "",
	 "n=6 has={'type':'attack','to':'e5'} has={'type':'attack','to':'c5'}"},
	{T "Pawn: Attack 1 square diagonally, backwards too", "0Pd4:e 1Pc3:e 1Pe3:e" FILL0 FILL1,
	 ACT("d4"), "", "has={'type':'attack','to':'c3'} has={'type':'attack','to':'e3'}"},
	{T "Pawn: no orthogonal Attack", "0Pd4:e 1Pd5:e" FILL0 FILL1, ACT("d4"), "",
	 "n=3 !has={'type':'attack','to':'d5'}"},
	{T "Rook: Move 1 to 8 squares vertically or horizontally (+ Castle)", "0Ra1 0Kh1 1Kh8 1Pc8:e",
	 ACT("a1"), "", "n=14 has={'type':'move','to':'a8'} has={'type':'move','to':'g1','castle':'h1'}"},
	{T "Rook: Attack 1 to 8 squares, the first piece on the line", "0Ra1 1Pa5:e 1Pa7:e" FILL0 FILL1,
	 ACT("a1"), "", "has={'type':'attack','to':'a5'} !has={'type':'attack','to':'a7'} "
	 "!has={'type':'move','to':'a6'}"},
	{T "Move: cannot end in or pass through squares occupied by pieces",
	 "0Ra1 0Pa3:e 1Pa6:e" FILL0 FILL1, ACT("a1"), "",
	 "!has={'type':'attack','to':'a6'} !has={'type':'move','to':'a4'} has={'type':'move','to':'a2'}"},
	{T "Move: Trees block Moves", "0Ra1 T:a3 0Kh1 1Kh8 1Pc8:e", ACT("a1"), "",
	 "has={'type':'move','to':'a2'} !has={'type':'move','to':'a3'} !has={'type':'move','to':'a4'}"},
	{T "Attack path: Trees block Attacks (decision)", "0Ra1 T:a3 1Pa5:e" FILL0 FILL1, ACT("a1"), "",
	 "!has={'type':'attack','to':'a5'}"},
	{T "Knight: jumps over pieces and terrain, not into Trees",
	 "0Nb1 0Pa2:e 0Pb2:e 0Pc2:e T:c3" FILL0 FILL1, ACT("b1"), "",
	 "n=2 has={'type':'move','to':'a3'} has={'type':'move','to':'d2'} !has={'type':'move','to':'c3'}"},
	{T "Knight: Attacks this way as well", "0Nb1 1Pc3:e" FILL0 FILL1, ACT("b1"), "",
	 "has={'type':'attack','to':'c3'}"},
	{T "Bishop: Move 1 to 8 squares diagonally", "0Bc1" FILL0 FILL1, ACT("c1"), "",
	 "n=7 has={'type':'move','to':'h6'} has={'type':'move','to':'a3'}"},
	{T "Queen: vertically, horizontally or diagonally", "0Qd1" FILL0 FILL1, ACT("d1"), "",
	 "n=20 has={'type':'move','to':'d8'} has={'type':'move','to':'h5'}"},
	{T "King: Move 1 square in any direction", "0Kd4 0Pa1:e" FILL1, ACT("d4"), "",
	 "n=8 has={'type':'move','to':'e5'}"},
	{T "Joker: 1, 2 or 3 squares through unoccupied squares; W3 end square differs",
	 "0Ja1" FILL0 FILL1, ACT("a1"), "",
	 "n=15 has={'type':'move','to':'d4'} !has={'type':'move','to':'a1'} "
	 "!has={'type':'move','to':'e1'}"},
	{T "Joker: Jokers cannot Attack", "0Ja1 1Pb2:e" FILL0 FILL1, ACT("a1"), "",
	 "n=13 !has={'type':'attack','to':'b2'} !has={'type':'move','to':'d4'}"},
	{T "Move: at least 1 square if possible, else fewer (W3: stay, taken by the server, G3)",
	 "0Ja1 T:a2 T:b2 T:b1" FILL0 FILL1, ACT("a1"), "", "ev='type':'stay' active=1 stage=activate"},
	{"RULINGS.md, G3 (amended): each forced action after a post is the server's, in a row "
	 "(the boxed-in Joker's stay, then seat 1's only piece's activate)",
	 "0Ja1 T:a2 T:b2 T:b1 0Kh1 1Kh8", ACT("a1"), "",
	 "ev='type':'stay' ev='type':'activate','seat':1 active=1 stage=act n=3 toact=2"},
	{W "W3: a piece with a legal Move cannot stay", "0Kd4 0Pa1:e" FILL1,
	 ACT("d4") "0:{'type':'stay'}", "", "err=must-move"},
	{T "Move: not able to Move, fewer than 1 square though it could Attack (stay and "
	 "attack offered; nothing taken by the server, G3)",
	 "0Pa1:e 0Pa2:e 0Pb1:e 1Pb2:e" FILL0 FILL1, ACT("a1"), "",
	 "stage=act toact=1 n=2 has={'type':'stay'} has={'type':'attack','to':'b2'} "
	 "!ev='type':'attack' !ev='type':'stay'"},
	{T "Move: not able to Move, it stays though it could Attack",
	 "0Pa1:e 0Pa2:e 0Pb1:e 1Pb2:e" FILL0 FILL1, ACT("a1") "0:{'type':'stay'};", "",
	 "ev='type':'stay' P@a1=0P P@b2=1P active=1 stage=activate"},
	{W "W3: boxed-in Rook stays", "0Ra1 0Pa2:e 0Pb1:e" FILL0 FILL1, ACT("a1"), "",
	 "ev='type':'stay' active=1"},
	{T "Move: cannot end in a square occupied by other pieces", "0Kd4 0Pd5:e 0Pa1:e" FILL1,
	 ACT("d4") MV("d5"), "", "err=not-a-move"},

	{T "Attack: only into a square occupied by an enemy piece", "0Pd4:e" FILL0 FILL1,
	 ACT("d4") AT("e5"), "", "err=not-an-attack"},
	{T "Attack: not an ally", "0Pd4:e 0Pe5:e" FILL0 FILL1, ACT("d4") AT("e5"), "",
	 "err=not-an-attack"},

	/* ---- Attack resolution ---- */
	{T "Attack: greater total slays; W4 attacker stands in the target's square",
	 "0Pd4:e 1Pe5:e" FILL0 FILL1, ACT("d4") AT("e5"), "3 4 1 2",
	 "P@e5=0P P@d4=- W#1=slain ev='type':'slain' ev='faces':[3,4] active=1 stage=activate"},
	{T "Attack: equal total, the defender does Combat Movement (W5 pending)",
	 "0Pd4:e 1Pe5:e" FILL0 FILL1, ACT("d4") AT("e5"), "2 2 3 1",
	 "stage=combat_move toact=2 n=16 has={'type':'combat_move','option':'push','square':'d4'} "
	 "has={'type':'combat_move','option':'retreat','square':'f6'}"},
	{T "Combat Movement: place the Attacker aside with a Disadvantage token",
	 "0Pd4:e 1Pe5:e" FILL0 FILL1,
	 ACT("d4") AT("e5") "1:{'type':'combat_move','option':'push','square':'f6'}", "2 2 3 1",
	 "P@f6=0P D@f6=1 P@e5=1P active=1 stage=activate"},
	{T "Combat Movement: the defender steps aside and gains an Advantage token",
	 "0Pd4:e 1Pe5:e" FILL0 FILL1,
	 ACT("d4") AT("e5") "1:{'type':'combat_move','option':'retreat','square':'f6'}", "2 2 3 1",
	 "P@f6=1P A@f6=1 P@e5=0P"},
	{T "Combat Movement: only to an unoccupied adjacent square", "0Pd4:e 1Pe5:e" FILL0 FILL1,
	 ACT("d4") AT("e5") "1:{'type':'combat_move','option':'push','square':'a1'}", "2 2 3 1",
	 "err=not-adjacent-free"},
	{T "Attack: a greater Defence total also wins", "0Pd4:e 1Pe5:e" FILL0 FILL1,
	 ACT("d4") AT("e5"), "1 1 2 2", "stage=combat_move"},
	{W "W5: no unoccupied adjacent square: the attacker returns with a Disadvantage token",
	 "0Nc7 0Pd1:e 1Pa8 1Pa7:e 1Pb7:e 1Pb8:e" FILL0 " 1Kh8", "0:{'type':'activate','square':'c7'};"
	 AT("a8"), "1 1 4 4", "P@c7=0N D@c7=1 P@a8=1P ev='option':'return'"},
	{T "Tokens: an Advantage token may be spent (W4: part of the attack action)",
	 "0Pd4:e:A1 1Pe5:e" FILL0 FILL1, ACT("d4"), "",
	 "n=6 has={'type':'attack','to':'e5'} has={'type':'attack','to':'e5','advantage':true}"},
	{T "Advantage: double the higher die", "0Pd4:e:A1 1Pe5:e" FILL0 FILL1, ACT("d4") ATA("e5"),
	 "1 3 2 3", "P@e5=0P A@e5=0 ev='mode':'advantage' ev='total':6"},
	{T "Advantage token kept when not spent", "0Pd4:e:A1 1Pe5:e" FILL0 FILL1, ACT("d4") AT("e5"),
	 "1 3 2 3", "stage=combat_move A#0=1 ev='total':4"},
	{T "No Advantage token, no spending", "0Pd4:e 1Pe5:e" FILL0 FILL1, ACT("d4") ATA("e5"), "",
	 "err=no-advantage-token"},
	{T "Disadvantage token: must be spent; double the lower die", "0Pd4:e:D2 1Pe5:e" FILL0 FILL1,
	 ACT("d4") AT("e5"), "4 1 1 1", "stage=combat_move D#0=1 ev='mode':'disadvantage' ev='total':2"},
	{T "Disadvantage token of the defender spent without asking (W4)",
	 "0Pd4:e 1Pe5:e:D1" FILL0 FILL1, ACT("d4") AT("e5"), "1 2 4 1",
	 "P@e5=0P ev='type':'token_spent','piece':1,'kind':'disadvantage'"},
	{W "W4: the defender's Advantage token is a reaction; the server asks (G3)",
	 "0Pd4:e 1Pe5:e:A1" FILL0 FILL1, ACT("d4") AT("e5"), "",
	 "stage=defend toact=2 n=2 has={'type':'defend','advantage':true}"},
	{W "W4: the defender spends its Advantage token", "0Pd4:e 1Pe5:e:A1" FILL0 FILL1,
	 ACT("d4") AT("e5") "1:{'type':'defend','advantage':true}", "3 3 1 2",
	 "P@e5=0P ev='type':'token_spent','piece':1,'kind':'advantage','role':'defence'"},
	{W "W4/G3: standing order always", "0Pd4:e 1Pe5:e:A1" FILL0 FILL1,
	 "O1:{'defend_advantage':'always'};" ACT("d4") AT("e5"), "3 3 1 2",
	 "P@e5=0P ev='type':'token_spent','piece':1,'kind':'advantage','role':'defence'"},
	{W "W4/G3: standing order never", "0Pd4:e 1Pe5:e:A1" FILL0 FILL1,
	 "O1:{'defend_advantage':'never'};" ACT("d4") AT("e5"), "3 3 1 2",
	 "P@e5=0P !ev='type':'token_spent'"},
	{T "Knight Mounted Advantage: another enemy adjacent to the shared square",
	 "0Nc3 1Pd5:e 1Pe5:e" FILL0 " 1Kh8", ACT("c3") AT("d5"), "1 4 4 3",
	 "P@d5=0N ev='mode':'advantage'"},
	{T "Mounted Advantage: no other enemy, no Advantage", "0Nc3 1Pd5:e" FILL0 FILL1,
	 ACT("c3") AT("d5"), "1 4 4 3", "stage=combat_move ev='mode':'normal'"},
	{T "Mounted Advantage: not against a Knight", "0Nc3 1Nd5 1Pe5:e" FILL0 " 1Kh8",
	 ACT("c3") AT("d5"), "1 4 4 3", "stage=combat_move ev='mode':'normal'"},
	{T "Advantage and Disadvantage cancel (Mounted Advantage vs a Disadvantage token)",
	 "0Nc3:D1 1Pd5:e 1Pe5:e" FILL0 " 1Kh8", ACT("c3") AT("d5"), "1 4 1 1",
	 "P@d5=0N ev='mode':'normal' ev='total':5"},
	{T "Example interaction: Mounted Advantage and a spent token, still Advantage",
	 "0Nc3:A1 1Pd5:e 1Pe5:e" FILL0 " 1Kh8", ACT("c3") ATA("d5"), "1 4 4 3",
	 "P@d5=0N ev='mode':'advantage','advantages':2"},
	{T "Dis/Advantage and Jokers: 1d20, tokens not spent (W4)", "0Pd4:e 1Je5:A1" FILL0 FILL1,
	 ACT("d4") AT("e5"), "2 2 10", "stage=combat_move A#1=1 ev='dice':'1d20'"},
	{T "Dis/Advantage and Jokers: a Disadvantage token is not spent either",
	 "0Pd4:e 1Je5:D1" FILL0 FILL1, ACT("d4") AT("e5"), "2 2 3",
	 "P@e5=0P !ev='type':'token_spent'"},
	{T "Tokens cancel on receipt", "0Pd4:e:A1 1Pe5:e" FILL0 FILL1,
	 ACT("d4") AT("e5") "1:{'type':'combat_move','option':'push','square':'f6'}", "1 1 2 2",
	 "A@f6=0 D@f6=0 ev='cancelled':1"},
	{T "Dice: Kings 2D10", "0Kd4 1Pe5:e 0Pa1:e" FILL1, ACT("d4") AT("e5"), "10 9 1 1",
	 "ev='dice':'2d10' ev='total':19"},
	{T "Dice: Queens 2D8", "0Qd4 1Pe5:e" FILL0 FILL1, ACT("d4") AT("e5"), "8 7 1 1",
	 "ev='dice':'2d8' ev='total':15"},
	{T "Dice: Rooks 2D6", "0Rd4 1Pd5:e" FILL0 FILL1, ACT("d4") AT("d5"), "6 5 1 1",
	 "ev='dice':'2d6' ev='total':11"},
	{T "Dice: Bishops 2D6, Pawns 2D4", "0Bd4 1Pe5:e" FILL0 FILL1, ACT("d4") AT("e5"), "6 6 4 4",
	 "ev='dice':'2d6' ev='dice':'2d4' ev='total':12"},

	/* ---- Turn structure, Activations and Reactivation ---- */
	{T "Activations alternate", "0Kd4 0Pa1:e" FILL1, ACT("d4") MV("d5"), "",
	 "active=1 stage=activate turn=1"},
	{T "Reactivation: all own pieces Activated, the opponent has some left",
	 "0Kd4:x 0Pa1:x 1Kh8 1Ph7:e", "", "", "n=2 has={'type':'activate','square':'d4'}"},
	{T "Reactivation: give a Disadvantage token if it has none", "0Kd4:x 0Pa1:x 1Kh8 1Ph7:e",
	 ACT("d4"), "", "D#0=1 ev='reactivation':true"},
	{T "Reactivation: no second token when it has one", "0Kd4:x:D1 0Pa1:x 1Kh8 1Ph7:e", ACT("d4"),
	 "", "D#0=1"},
	{T "Reactivation: the token cancels an Advantage token", "0Kd4:x:A1 0Pa1:x 1Kh8 1Ph7:e",
	 ACT("d4"), "", "D#0=0 A#0=0"},
	{T "Reactivation: pieces already Reactivated this turn may Reactivate again",
	 "0Kd4:x:r:D1 0Pa1:x 1Kh8 1Ph7:e", ACT("d4"), "", "ev='reactivation':true stage=act D#0=1"},
	{T "Activation: a piece that has not Activated yet this turn", "0Kd4:x 0Pa1:e 1Kh8 1Ph7:e",
	 ACT("d4"), "", "err=already-activated"},
	{T "End of turn: no unactivated pieces; the seat without the last Activation starts",
	 "0Kd4 0Pa2:x 1Kh8:x 1Ph7:x", ACT("d4") MV("d5"), "", "turn=2 active=1 ev='type':'turn_end'"},
	{T "Fool's Endeavour: Joker tokens removed at the end of the turn",
	 "0Kd4 0Ja2:x:A2 1Kh8:x 1Ph7:x", ACT("d4") MV("d5"), "", "A#1=0 ev='type':'tokens_cleared'"},
	{T "Joker tokens stay during the turn", "0Kd4 0Ja2:x:A2 1Kh8 1Ph7:e", ACT("d4") MV("d5"), "",
	 "turn=1 A#1=2"},
	{T "Objective: no pieces left, the other player wins", "0Pd4:e 1Pe5:e 0Kh1",
	 ACT("d4") AT("e5"), "3 4 1 2", "over=1 win=1 ev=no~pieces~left~on~the~board toact=0 n=0"},
	{T "Faction Leader: King slain, its player loses immediately", "0Pd4:e 1Ke5 1Pa8:e 0Kh1",
	 ACT("d4") AT("e5"), "4 4 1 1", "over=1 win=1 ev=Faction~Leader~slain"},
	{T "Fool's Endeavour: only Jokers left, that player loses", "0Pd4:e 1Pe5:e 1Ja8 0Kh1",
	 ACT("d4") AT("e5"), "3 4 1 2", "over=1 win=1 ev=Endeavour"},
	{W "W7: after Turn 10, points on the board decide", "turn:10 0Qd4 0Pa2:x 1Kh8:x",
	 ACT("d4") MV("d5"), "", "over=1 win=1 ev='points':[4,2]"},
	{W "W7: equal points after Turn 10 is a draw", "turn:10 0Kd4 1Kh8:x", ACT("d4") MV("d5"), "",
	 "over=1 win=0 ev='winners':[]"},
	{T "Turn 9 ends, Turn 10 is played", "turn:9 0Kd4 1Kh8:x 1Pa8:x", ACT("d4") MV("d5"), "",
	 "over=0 turn=10"},

	/* ---- Pawn: En Passant and Promotion ---- */
	{T "En Passant: first Activation, the Pawn may Move twice", "0Pd2" FILL0 FILL1,
	 ACT("d2") MV("d3"), "", "stage=en_passant n=5 has={'type':'end'}"},
	{T "En Passant: the second Move", "0Pd2" FILL0 FILL1, ACT("d2") MV("d3") MV("d4"), "",
	 "P@d4=0P active=1"},
	{T "En Passant: the second Move is optional", "0Pd2" FILL0 FILL1,
	 ACT("d2") MV("d3") "0:{'type':'end'}", "", "P@d3=0P active=1"},
	{T "En Passant: Moves only, no Attack", "0Pd2 1Pe4:e" FILL0 FILL1, ACT("d2") MV("d3"), "",
	 "stage=en_passant !has={'type':'attack','to':'e4'}"},
	{T "En Passant: only the first Activation of the game", "0Pd2:e" FILL0 FILL1,
	 ACT("d2") MV("d3"), "", "active=1 stage=activate"},
	{T "Promotion: in the opponent's deployment zone, a slain positional", "0Pd7:e 0Qa1:S" FILL0
	 " 1Kh8 1Pa8:e", ACT("d7"), "", "n=5 has={'type':'promote','piece':1}"},
	{T "Promotion + W6: the Pawn's Activation ends; the positional may Activate",
	 "0Pd7:e 0Qa1:S" FILL0 " 1Kh8 1Pa8:e", ACT("d7") "0:{'type':'promote','piece':1}", "",
	 "P@d7=0Q W#0=removed act#1=0 active=1"},
	{T "Promotion: counts as Activated if it Activated earlier this turn",
	 "0Pd7:e 0Qa1:S:x" FILL0 " 1Kh8 1Pa8:e", ACT("d7") "0:{'type':'promote','piece':1}", "",
	 "P@d7=0Q act#1=1"},
	{T "Promotion: at the start of a Reactivation too",
	 "0Pd7:e:x 0Qa1:S 0Kh1:x 1Kh8 1Pa8:e", ACT("d7") "0:{'type':'promote','piece':1}", "",
	 "P@d7=0Q W#0=removed ev='reactivation':true"},
	{T "Promotion: a slain positional only (not one on the board)",
	 "0Pd7:e 0Qa1" FILL0 " 1Kh8 1Pa8:e", ACT("d7"), "", "!has={'type':'promote','piece':1}"},
	{T "Promotion: not outside the opponent's deployment zone", "0Pd6:e 0Qa1:S" FILL0 FILL1,
	 ACT("d6") "0:{'type':'promote','piece':1}", "", "err=cannot-promote"},
	{T "Promotion: a positional, not a Pawn", "0Pd7:e 0Pa2:S 0Ja3:S" FILL0
	 " 1Kh8 1Pa8:e", ACT("d7") "0:{'type':'promote','piece':1}", "", "err=cannot-promote"},
	{W "W6: a Pawn may promote into a slain Joker",
	 "0Pd7:e 0Pa2:S 0Ja3:S" FILL0 " 1Kh8 1Pa8:e", ACT("d7"), "",
	 "has={'type':'promote','piece':2} !has={'type':'promote','piece':1}"},
	{W "W6: the Joker is placed, the Pawn's Activation ends; "
	 "the Joker may still Activate this turn",
	 "0Pd7:e 0Ja3:S" FILL0 " 1Kh8 1Pa8:e", ACT("d7") "0:{'type':'promote','piece':1}", "",
	 "P@d7=0J W#0=removed W#1=board act#1=0 active=1 ev='type':'promote','pawn':0,'piece':1"},
	{W "W6: a Joker that Activated earlier this turn counts as Activated",
	 "0Pd7:e 0Ja3:S:x" FILL0 " 1Kh8 1Pa8:e", ACT("d7") "0:{'type':'promote','piece':1}", "",
	 "P@d7=0J act#1=1 ev='activated':true"},
	{W "W6: with a Joker on the board, "
	 "two slain Jokers are both offered", "0Pd7:e 0Ja3:S 0Jb3:S 0Ja4 " FILL0 " 1Kh8 1Pa8:e",
	 ACT("d7"), "", "has={'type':'promote','piece':1} has={'type':'promote','piece':2}"},

	/* ---- Rook: Castle ---- */
	{T "Castle: a lower-ranked ally gains an Advantage token", "0Ra1 0Pb3:e 0Kh1 1Kh8 1Pc8:e",
	 ACT("a1") "0:{'type':'move','to':'a3','castle':'b3'}", "", "P@b3=0R P@a3=0P A@a3=1"},
	{T "Castle: a higher-ranked ally loses a Disadvantage token", "0Ra1 0Kb3:D2 1Kh8 1Pc8:e",
	 ACT("a1") "0:{'type':'move','to':'a3','castle':'b3'}", "", "P@b3=0R P@a3=0K D@a3=1"},
	{T "Castle: only with a non-Rook ally", "0Ra1 0Rb3 0Kh1 1Kh8 1Pc8:e", ACT("a1"), "",
	 "!has={'type':'move','to':'a3','castle':'b3'}"},
	{T "Castle: only with an ally adjacent to where the Move ends", "0Ra1 0Pb3:e 0Kh1 1Kh8 1Pc8:e",
	 ACT("a1") "0:{'type':'move','to':'a6','castle':'b3'}", "", "err=not-a-castle"},

	/* ---- Blessed / Cursed through the rules ---- */
	{T "Blessed: an ally gains an Advantage token, Blessed allies gain one",
	 "0Pd4:e 1Pe5:e 1Pa7:B 1Kh8", ACT("d4") AT("e5")
	 "1:{'type':'combat_move','option':'retreat','square':'f6'}", "2 2 3 1", "A#2=1 A#1=1"},
	{T "Cursed: Reactivation's Disadvantage token reaches Cursed allies",
	 "0Kd4:x 0Pa1:x:C 1Kh8 1Ph7:e", ACT("d4"), "", "D#0=1 D#1=1"},

	/* ---- Refusals (G5: nothing hidden in them) ---- */
	{T "Turn order: not this seat's turn", "0Kd4 0Pa1:e" FILL1,
	 "1:{'type':'activate','square':'h8'}", "", "err=not-awaited"},
	{T "Activation: only your own pieces", "0Kd4 0Pa1:e" FILL1, ACT("h8"), "", "err=not-your-piece"},
	{T "Activation: a piece must be there", "0Kd4 0Pa1:e" FILL1, ACT("e4"), "", "err=no-piece"},
	{T "Actions by phase", "0Kd4 0Pa1:e" FILL1,
	 "0:{'type':'team','faction':'standard','pieces':{'king':1}};", "", "err=wrong-phase"},
	{T "Actions by step", "0Kd4 0Pa1:e" FILL1, AT("e5"), "", "err=wrong-step"},
	{T "Unknown action", "0Kd4 0Pa1:e" FILL1, "0:{'type':'fly'};", "", "err=unknown-action"},
	{T "Unknown field", "0Kd4 0Pa1:e" FILL1, "0:{'type':'activate','square':'d4','x':1};", "",
	 "err=unknown-field"},
	{T "Squares a1..h8 (G1)", "0Kd4 0Pa1:e" FILL1, "0:{'type':'activate','square':'z9'};", "",
	 "err=not-a-square"},
};

static char *
quotes(const char *s)
{
	char *d = strdup(s);
	for (char *p = d; *p; p++)
		if (*p == '\'')
			*p = '"';
		else if (*p == '~')
			*p = ' ';
	return d;
}

static int
awaited(const struct wc_state *st)
{
	unsigned m = wc_to_act(st);
	return m & 1 ? 0 : m & 2 ? 1 : 0;
}

static int
where_of(const char *s)
{
	return strcmp(s, "board") == 0 ? WC_ON : strcmp(s, "slain") == 0 ? WC_SLAIN
	       : strcmp(s, "removed") == 0 ? WC_REMOVED : WC_OFF;
}

static void
expect_one(const struct row *r, struct wc_state *st, const char *e, const char *lasterr)
{
	char what[512];
	int ok = 1;
	const char *v = strchr(e, '=') ? strchr(e, '=') + 1 : "";

	snprintf(what, sizeof(what), "%s: %s", r->rule, e);
	if (e[0] == 'P' && e[1] == '@') {
		char s[3] = {e[2], e[3], 0};
		int p = wc_piece_at(st, sq(s));
		if (v[0] == '-')
			ok = p < 0;
		else
			ok = p >= 0 && st->pieces[p].seat == v[0] - '0' &&
			     (int)st->pieces[p].type == type_of(v[1]);
	} else if ((e[0] == 'A' || e[0] == 'D') && e[1] == '@') {
		char s[3] = {e[2], e[3], 0};
		int p = wc_piece_at(st, sq(s));
		ok = p >= 0 && (e[0] == 'A' ? st->pieces[p].adv : st->pieces[p].dis) == atoi(v);
	} else if ((e[0] == 'A' || e[0] == 'D' || e[0] == 'W') && e[1] == '#') {
		int i = atoi(e + 2);
		const struct wc_piece *p = &st->pieces[i];
		ok = e[0] == 'A' ? p->adv == atoi(v) : e[0] == 'D' ? p->dis == atoi(v)
		                                                   : p->where == where_of(v);
	} else if (strncmp(e, "act#", 4) == 0) {
		ok = st->pieces[atoi(e + 4)].activated == atoi(v);
	} else if (strncmp(e, "stage=", 6) == 0) {
		static const char *const names[] = {"activate", "act", "en_passant", "defend",
		                                    "combat_move"};
		ok = st->phase == WC_PH_PLAY && strcmp(names[st->stage], v) == 0;
	} else if (strncmp(e, "over=", 5) == 0) {
		ok = st->over == atoi(v);
	} else if (strncmp(e, "win=", 4) == 0) {
		ok = st->over && (int)st->winners == atoi(v);
	} else if (strncmp(e, "turn=", 5) == 0) {
		ok = st->turn == atoi(v);
	} else if (strncmp(e, "active=", 7) == 0) {
		ok = st->active == atoi(v);
	} else if (strncmp(e, "toact=", 6) == 0) {
		ok = (int)wc_to_act(st) == atoi(v);
	} else if (strncmp(e, "n=", 2) == 0) {
		int n = wc_count(st, awaited(st), NULL, NULL);
		ok = n == atoi(v);
		if (!ok)
			fprintf(stderr, "  (%d actions)\n", n);
	} else if (strncmp(e, "has=", 4) == 0 || strncmp(e, "!has=", 5) == 0) {
		char *j = quotes(v);
		int found;
		wc_count(st, awaited(st), j, &found);
		ok = e[0] == '!' ? !found : found;
		free(j);
	} else if (strncmp(e, "ev=", 3) == 0 || strncmp(e, "!ev=", 4) == 0) {
		char *j = quotes(v);
		ok = e[0] == '!' ? !ev_has(j) : ev_has(j);
		free(j);
	} else if (strncmp(e, "err=", 4) == 0) {
		ok = lasterr && strcmp(lasterr, v) == 0;
		if (!ok)
			fprintf(stderr, "  (error %s)\n", lasterr ? lasterr : "none");
	} else {
		ok = 0;
	}
	CHECK(ok, what);
}

static void
run_row(const struct row *r)
{
	static struct wc_state st;
	unsigned faces[32];
	size_t nf = 0;
	struct wr_script script = {0};
	struct wr_rng rng;
	char *acts = quotes(r->acts), *save = NULL, *expect = strdup(r->expect);
	const char *lasterr = NULL;
	struct wr_error err;
	int want_err = strstr(r->expect, "err=") != NULL, rc = 0;

	wc_pos(&st, r->pos);
	for (const char *p = r->dice; *p;) {
		char *end;
		unsigned long f = strtoul(p, &end, 10);
		if (end == p)
			break;
		faces[nf++] = (unsigned)f;
		p = end;
	}
	script.faces = faces;
	script.n = nf;
	wr_rng_script(&rng, &script);
	wr_events_free(&test_ev);
	for (char *a = strtok_r(acts, ";", &save); a; a = strtok_r(NULL, ";", &save)) {
		static struct wc_state before;
		json_object *j;
		char what[1024];
		if (a[0] == 'O') {
			j = json_tokener_parse(a + 3);
			rc = wc_ruleset.set_orders(&st, a[1] - '0', j, &err);
			json_object_put(j);
			CHECK(rc == 0, "standing orders accepted");
			continue;
		}
		before = st;
		rc = wc_apply_str(&st, a[0] - '0', a + 2, &rng, &err);
		if (rc != 0) {
			lasterr = err.code;
			CHECK(memcmp(&before, &st, sizeof(st)) == 0, "refusal leaves the state unchanged");
			snprintf(what, sizeof(what), "%s: %s accepted (%s: %s)", r->rule, a + 2, err.code,
			         err.message);
			CHECK(want_err, what);
			break;
		}
	}
	{
		char what[300];
		snprintf(what, sizeof(what), "%s: every scripted die used", r->rule);
		CHECK(!script.exhausted && script.pos == script.n, what);
	}
	for (char *e = strtok_r(expect, " ", &save); e; e = strtok_r(NULL, " ", &save))
		expect_one(r, &st, e, rc ? lasterr : NULL);
	wr_events_free(&test_ev);
	free(acts);
	free(expect);
}

/* ------------------------------------------------ set-up from create() */

static void *
fresh(const char *first_trees, struct wr_rng *rng)
{
	void *st = NULL;
	struct wr_error err;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "first_trees", json_object_new_string(first_trees));
	CHECK(wc_ruleset.create(o, 2, rng, &st, &err) == 0, "create");
	json_object_put(o);
	return st;
}

#define TEAM_A "{'type':'team','faction':'standard','pieces':{'king':1,'queen':1,'rook':2,'pawn':5},'upgrades':[]}"
#define TEAM_B "{'type':'team','faction':'standard','pieces':{'king':1,'knight':2,'bishop':2,'joker':1,'pawn':2}}"

static int
apply_q(void *st, int seat, const char *s, struct wr_rng *rng, struct wr_error *err)
{
	char *j = quotes(s);
	int rc = wc_apply_str(st, seat, j, rng, err);
	free(j);
	return rc;
}

static char *
view_str(const void *st, int viewer)
{
	json_object *v = wc_ruleset.view(st, viewer);
	char *s = strdup(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
	json_object_put(v);
	return s;
}

static void
test_teams(void)
{
	static const unsigned none[1] = {0};
	struct wr_script sc = {none, 0, 0, 0};
	struct wr_rng rng;
	struct wr_error err;
	void *st, *st2;
	int legal = 0;

	wr_rng_script(&rng, &sc);
	st = fresh("seat0", &rng);
	/* Building a team: exactly 14 points, quantities (1), (0-n). */
	CHECK(wc_ruleset.to_act(st) == 3, T "Building a team: both seats build at once");
	CHECK(apply_q(st, 0, "{'type':'team','faction':'standard','pieces':{'king':1,'pawn':8}}",
	              &rng, &err) != 0 && strcmp(err.code, "not-14-points") == 0,
	      T "Building a team: exactly 14 points (10 refused)");
	CHECK(apply_q(st, 0, "{'type':'team','faction':'standard','pieces':{'queen':1,'rook':2,'bishop':2,'knight':1,'pawn':1}}",
	              &rng, &err) != 0 && strcmp(err.code, "quantity-out-of-range") == 0,
	      T "Quantity (1): the King must be taken");
	CHECK(apply_q(st, 0, "{'type':'team','faction':'standard','pieces':{'king':1,'rook':3,'pawn':6}}",
	              &rng, &err) != 0 && strcmp(err.code, "quantity-out-of-range") == 0,
	      T "Quantity (0-2): no third Rook");
	CHECK(apply_q(st, 0, "{'type':'team','faction':'standard','pieces':{'king':1,'pawn':9,'joker':1,'queen':1}}",
	              &rng, &err) != 0, T "Quantity (0-8): no ninth Pawn");
	CHECK(apply_q(st, 0, "{'type':'team','faction':'nobody','pieces':{}}", &rng, &err) != 0 &&
	          strcmp(err.code, "unknown-faction") == 0, W "W1: only shipped factions");
	/* Every legal Standard list, counted by brute force. */
	for (int q = 0; q <= 1; q++)
		for (int r = 0; r <= 2; r++)
			for (int b = 0; b <= 2; b++)
				for (int n = 0; n <= 2; n++)
					for (int j = 0; j <= 2; j++)
						for (int p = 0; p <= 8; p++)
							legal += 2 + 3 * q + 2 * (r + b + n + j) + p == 14;
	CHECK(wc_count(st, 0, NULL, NULL) == legal, T "Building a team: every legal list offered");
	{
		int found;
		char *j = quotes(TEAM_A);
		wc_count(st, 0, j, &found);
		CHECK(found, "a legal list is offered in its canonical form");
		free(j);
	}
	/* G5: a list built first is hidden until both are in. */
	st2 = wc_clone(st);
	CHECK(apply_q(st, 0, TEAM_A, &rng, &err) == 0, "team A accepted");
	CHECK(apply_q(st2, 0, TEAM_B, &rng, &err) == 0, "team B accepted");
	{
		char *a1 = view_str(st, 1), *b1 = view_str(st2, 1), *as = view_str(st, WR_SPECTATOR),
		     *bs = view_str(st2, WR_SPECTATOR), *a0 = view_str(st, 0), *b0 = view_str(st2, 0);
		CHECK(strcmp(a1, b1) == 0, "G5: the other seat's view does not depend on the hidden list");
		CHECK(strcmp(as, bs) == 0, "G5: nor does a spectator's");
		CHECK(strcmp(a0, b0) != 0, "the builder sees its own list");
		CHECK(wc_to_act(st) == 2, "the first builder is no longer awaited");
		CHECK(test_ev.len == 4 && test_ev.items[1].visible_to == 1u &&
		          test_ev.items[0].visible_to == WR_VIS_PUBLIC,
		      "team_list event only to its seat; team_submitted public");
		free(a1); free(b1); free(as); free(bs); free(a0); free(b0);
	}
	wr_events_free(&test_ev);
	CHECK(apply_q(st, 0, TEAM_A, &rng, &err) != 0 && strcmp(err.code, "not-awaited") == 0,
	      "a list is built once");
	wc_ruleset.free(st2);
	wc_ruleset.free(st);
}

static void
test_setup(void)
{
	/* Trees: seat 0 rolls D4 (rank) then D8 (file) three times; a
	 * repeated square is re-rolled (G2). Then seat 1 chooses (W2). */
	static const unsigned dice[] = {1, 1, 1, 1, 2, 3, 4, 8};
	struct wr_script sc = {dice, sizeof(dice) / sizeof(dice[0]), 0, 0};
	struct wr_rng rng;
	struct wr_error err;
	struct wc_state *st;

	wr_rng_script(&rng, &sc);
	st = fresh("seat0", &rng);
	CHECK(apply_q(st, 0, TEAM_A, &rng, &err) == 0, "team A");
	CHECK(apply_q(st, 1, TEAM_B, &rng, &err) == 0, "team B");
	CHECK(st->phase == WC_PH_TREES && st->ntrees == 3, T "Tree Setup: three Trees");
	CHECK(st->trees[0] == sq("a1") && st->trees[1] == sq("c2") && st->trees[2] == sq("h4"),
	      T "Tree Setup: D4 rank in the near half, D8 file; a taken square re-rolled");
	CHECK(ev_has("\"rerolled\":true"), "the re-roll is shown");
	CHECK(wc_to_act(st) == 2, W "W2: the second seat's Tree choice is pending");
	CHECK(wc_count(st, 1, NULL, NULL) == 3, T "Tree Setup: mirror, mirror_flip, random");
	{
		struct wc_state *m = wc_clone(st), *f = wc_clone(st);
		CHECK(apply_q(m, 1, "{'type':'trees','choice':'mirror'}", &rng, &err) == 0, "mirror");
		CHECK(m->trees[3] == sq("a8") && m->trees[4] == sq("c7") && m->trees[5] == sq("h5"),
		      W "W9: \"mirror\" keeps the file and reflects the rank across the middle line "
		        "(a1 a8, c2 c7, h4 h5)");
		CHECK(apply_q(f, 1, "{'type':'trees','choice':'mirror_flip'}", &rng, &err) == 0, "flip");
		CHECK(f->trees[3] == sq("h8") && f->trees[4] == sq("f7") && f->trees[5] == sq("a5"),
		      W "W9: \"mirror and horizontally flip\" also flips the file, a <-> h "
		        "(a1 h8, c2 f7, h4 a5)");
		wc_ruleset.free(m);
		wc_ruleset.free(f);
	}
	{
		static const unsigned d2[] = {1, 2, 2, 2, 4, 5};
		struct wr_script s2 = {d2, 6, 0, 0};
		struct wr_rng r2;
		wr_rng_script(&r2, &s2);
		CHECK(apply_q(st, 1, "{'type':'trees','choice':'random'}", &r2, &err) == 0, "random");
		CHECK(st->trees[3] == sq("b8") && st->trees[4] == sq("b7") && st->trees[5] == sq("e5"),
		      T "Tree Setup: random in the second seat's own half (D4 counted from its side)");
	}
	/* Piece Setup: the second Tree seat deploys its whole team first. */
	CHECK(st->phase == WC_PH_DEPLOY && wc_to_act(st) == 2, W "W2: seat 1 deploys first");
	CHECK(apply_q(st, 1, "{'type':'deploy','piece':'king','square':'e4'}", &rng, &err) != 0 &&
	          strcmp(err.code, "outside-zone") == 0, T "Piece Setup: the two nearest ranks");
	CHECK(apply_q(st, 1, "{'type':'deploy','piece':'king','square':'b8'}", &rng, &err) != 0 &&
	          strcmp(err.code, "square-taken") == 0, T "Piece Setup: not on a Tree");
	CHECK(apply_q(st, 1, "{'type':'deploy','piece':'queen','square':'e8'}", &rng, &err) != 0,
	      T "Piece Setup: only pieces of the team");
	{
		/* 16 squares of the zone minus the Tree at b8 and b7. */
		CHECK(wc_count(st, 1, NULL, NULL) == 5 * 14, "deploy: options x free squares");
		const char *order1[] = {"king:e8", "knight:b6", "knight:g8", "bishop:c8", "bishop:f8",
		                        "joker:d8", "pawn:d7", "pawn:e7"};
		const char *order0[] = {"king:e1", "queen:d1", "rook:a2", "rook:h1", "pawn:b2",
		                        "pawn:g2", "pawn:d2", "pawn:e2", "pawn:f2"};
		char buf[128];
		for (int i = 0; i < 8; i++) {
			char p[16], s[4];
			sscanf(order1[i], "%15[^:]:%3s", p, s);
			snprintf(buf, sizeof(buf), "{'type':'deploy','piece':'%s','square':'%s'}", p, s);
			int rc = apply_q(st, 1, buf, &rng, &err);
			CHECK((i == 1) == (rc != 0), "deploy seat 1 (b6 is outside the zone)");
		}
		CHECK(apply_q(st, 1, "{'type':'deploy','piece':'knight','square':'b8'}", &rng, &err) != 0,
		      "a Tree square");
		struct wc_state pre = *st;
		CHECK(apply_q(st, 1, "{'type':'deploy','piece':'knight','square':'a7'}", &rng, &err) == 0,
		      "deploy the second knight");
		CHECK(wc_undo_barrier(&pre, st, 1, NULL) == 1 && wc_undo_barrier(st, st, 1, NULL) == 0,
		      "issue 14 / W8: a piece deployed shows part of the hidden list: an undo barrier");
		CHECK(wc_to_act(st) == 1, "then the other seat deploys");
		for (int i = 0; i < 9; i++) {
			char p[16], s[4];
			sscanf(order0[i], "%15[^:]:%3s", p, s);
			snprintf(buf, sizeof(buf), "{'type':'deploy','piece':'%s','square':'%s'}", p, s);
			CHECK(apply_q(st, 0, buf, &rng, &err) == 0 || i == 0, "deploy seat 0");
		}
	}
	CHECK(st->phase == WC_PH_PLAY && st->turn == 1, "the game begins with Turn 1");
	CHECK(st->active == 1 && wc_to_act(st) == 2, W "W2: the first deployer Activates first");
	{
		struct wr_result res;
		wc_ruleset.result(st, &res);
		CHECK(!res.over && res.has_scores && res.scores[0] == 14 && res.scores[1] == 14,
		      "points on the board: 14 each");
	}
	CHECK(wc_ruleset.resign(st, 1, &rng, &test_ev) == 0 && st->over && st->winners == 1u &&
	          wc_to_act(st) == 0, "resignation: the other seat wins");
	wr_events_free(&test_ev);
	wc_ruleset.free(st);
	{
		static const unsigned one[] = {2};
		struct wr_script s3 = {one, 1, 0, 0};
		struct wr_rng r3;
		struct wc_state *x;
		wr_rng_script(&r3, &s3);
		x = fresh("random", &r3);
		CHECK(x->tree_first == 1 && x->first_deployer == 0,
		      "W2 option first_trees=random: a d2 picks the first Tree seat");
		wc_ruleset.free(x);
	}
	{
		void *x = NULL;
		json_object *o = json_tokener_parse("{\"first_trees\":\"seat1\"}");
		CHECK(wc_ruleset.create(o, 2, &rng, &x, &err) != 0, "bad option refused");
		CHECK(wc_ruleset.create(NULL, 3, &rng, &x, &err) != 0, "two seats only");
		json_object_put(o);
	}
}

/* ------------------------------------------- W7 and W8 (the rulings) */

static void
test_w7(void)
{
	static struct wc_state st;
	struct wr_events ev = {0};
	struct wr_rng rng;
	uint64_t seed;
	char *v;

	wr_rng_seeded(&rng, &seed, 7);
	CHECK(wc_ruleset.agreed_end != NULL,
	      "RULINGS.md, Wargame Chess W7: the ruleset decides an agreed end (agreed_end)");
	wc_pos(&st, "0Qd4 0Pa2:e 1Kh8 1Pa7:e");
	v = view_str(&st, 0);
	CHECK(strstr(v, "\"agreement\":{\"decided_on\":\"points\",\"prompt\":\"End the match on points\"}") != NULL,
	      "RULINGS.md, Wargame Chess W7: the view words the draw offer (\"end the match on points\")");
	free(v);
	wc_ruleset.agreed_end(&st, &ev);
	CHECK(st.over && st.winners == 1u && strcmp(st.reason, "inconclusive: points") == 0 &&
	          wc_to_act(&st) == 0,
	      "RULINGS.md, Wargame Chess W7: an agreed end is inconclusive, points decide (4 against 3)");
	CHECK(ev.len == 1 && strstr(json_object_to_json_string(ev.items[0].body), "\"points\": [ 4, 3 ]") &&
	          ev.items[0].visible_to == WR_VIS_PUBLIC,
	      "RULINGS.md, Wargame Chess W7: the game_over event gives the points");
	wr_events_free(&ev);
	wc_ruleset.agreed_end(&st, &ev);
	CHECK(ev.len == 0 && st.winners == 1u, "an agreed end after the end changes nothing");
	wc_pos(&st, "0Kd4 1Kh8");
	wc_ruleset.agreed_end(&st, &ev);
	CHECK(st.over && st.winners == 0u,
	      "RULINGS.md, Wargame Chess W7: equal points at an agreed end is a draw");
	wr_events_free(&ev);
	wc_pos(&st, "0Qd4 0Pa2:e 1Kh8 1Pa7:e");
	CHECK(wc_ruleset.resign(&st, 0, &rng, &ev) == 0 && st.over && st.winners == 2u &&
	          strcmp(st.reason, "resignation") == 0,
	      "RULINGS.md, Wargame Chess W7: a resignation is a loss, not inconclusive (even ahead on points)");
	wr_events_free(&ev);
}

/* What a viewer can read of a match: its view, its actions, and the
 * events it may see so far. */
static char *
seen(void *st, const struct wr_events *ev, int viewer)
{
	size_t cap = 1 << 16, len = 0;
	char *out = malloc(cap);
	json_object *parts[2] = {wc_ruleset.view(st, viewer),
	                         viewer >= 0 ? wc_ruleset.actions(st, viewer) : json_object_new_array()};
	out[0] = 0;
	for (size_t i = 0; i <= ev->len + 1; i++) {
		const char *s;
		if (i < ev->len && !wr_event_visible(&ev->items[i], viewer))
			continue;
		s = json_object_to_json_string_ext(i < ev->len ? ev->items[i].body : parts[i - ev->len],
		                                   JSON_C_TO_STRING_PLAIN);
		while (len + strlen(s) + 2 > cap)
			out = realloc(out, cap *= 2);
		len += (size_t)sprintf(out + len, "%s\n", s);
	}
	json_object_put(parts[0]);
	json_object_put(parts[1]);
	return out;
}

struct twin {
	void *st;
	struct wr_events ev;
	struct wr_rng rng;
	uint64_t seed;
};

/* Both matches take the same action; both must accept it. */
static void
both(struct twin *t, int seat, const char *action)
{
	char *j = quotes(action);
	json_object *a = json_tokener_parse(j);
	struct wr_error err;

	for (int k = 0; k < 2; k++) {
		int rc = wc_ruleset.apply(t[k].st, seat, a, &t[k].rng, &t[k].ev, &err);
		CHECK(rc == 0, action);
		if (rc)
			fprintf(stderr, "  %s: %s\n", err.code, err.message);
	}
	json_object_put(a);
	free(j);
}

/* Seat 1 and spectators read the same bytes in both matches; so do the
 * refusals seat 1 meets. */
static void
same_for_others(struct twin *t, const char *when)
{
	static const char *const tries[] = {
	    "{'type':'deploy','piece':'pawn','square':'a1'}", "{'type':'deploy','piece':'bishop','square':'h7'}",
	    "{'type':'trees','choice':'mirror'}", "{'type':'activate','square':'e1'}"};
	char what[256];

	for (int viewer = 1; viewer >= WR_SPECTATOR; viewer -= 2) {
		char *a = seen(t[0].st, &t[0].ev, viewer), *b = seen(t[1].st, &t[1].ev, viewer);
		snprintf(what, sizeof(what),
		         "RULINGS.md, Wargame Chess W8: %s: %s reads the same bytes whatever the other team is",
		         when, viewer == 1 ? "seat 1" : "a spectator");
		CHECK(strcmp(a, b) == 0, what);
		free(a);
		free(b);
	}
	for (size_t i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		struct wr_error e[2];
		for (int k = 0; k < 2; k++) {
			void *copy = wc_clone(t[k].st);
			memset(&e[k], 0, sizeof(e[k]));
			apply_q(copy, 1, tries[i], &t[k].rng, &e[k]);
			wc_ruleset.free(copy);
		}
		snprintf(what, sizeof(what), "RULINGS.md, Wargame Chess W8: %s: seat 1's refusals are the same",
		         when);
		CHECK(memcmp(&e[0], &e[1], sizeof(e[0])) == 0, what);
	}
	wr_events_free(&test_ev);
}

/* A deploy action of the piece on the seat's first free zone square. */
static const char *
deploy_free(const struct wc_state *st, int seat, const char *piece, char *buf)
{
	char name[8];
	int s = 0;

	while (s < 64 && !(wc_zone(seat, s) && wc_free(st, s)))
		s++;
	snprintf(buf, 128, "{'type':'deploy','piece':'%s','square':'%s'}", piece,
	         wr_square_name(&wr_board8, s, name));
	return buf;
}

static void
test_w8(void)
{
	static const char *const team0[2] = {
	    "{'type':'team','faction':'standard','pieces':{'king':1,'queen':1,'rook':2,'pawn':5}}",
	    "{'type':'team','faction':'standard','pieces':{'king':1,'queen':1,'rook':2,'bishop':1,'pawn':3}}"};
	static const char *const deploy1[] = {"king", "knight", "knight", "bishop",
	                                      "bishop", "joker", "pawn", "pawn"};
	static const char *const common0[] = {"king", "queen", "rook", "rook"};
	struct twin t[2];
	struct wr_error err;
	char buf[128];

	for (int k = 0; k < 2; k++) {
		memset(&t[k], 0, sizeof(t[k]));
		wr_rng_seeded(&t[k].rng, &t[k].seed, 88);
		t[k].st = fresh("seat0", &t[k].rng);
		CHECK(apply_q(t[k].st, 0, team0[k], &t[k].rng, &err) == 0, "seat 0's team");
	}
	same_for_others(t, "teams being built");
	both(t, 1, TEAM_B);
	CHECK(((struct wc_state *)t[0].st)->phase == WC_PH_TREES, "both lists in: Trees");
	same_for_others(t, "both lists in, Trees");
	both(t, 1, "{'type':'trees','choice':'mirror'}");
	same_for_others(t, "deployment begins");
	for (int i = 0; i < 8; i++)
		both(t, 1, deploy_free(t[0].st, 1, deploy1[i], buf));
	same_for_others(t, "seat 1 deployed");
	for (int i = 0; i < 4; i++) {
		both(t, 0, deploy_free(t[0].st, 0, common0[i], buf));
		same_for_others(t, "seat 0 deploying: the other seat sees only the pieces on the board");
	}
	{
		char *a = view_str(t[0].st, 0), *b = view_str(t[1].st, 0);
		CHECK(strcmp(a, b) != 0 && strstr(a, "\"pawn\":5") && strstr(b, "\"bishop\":1"),
		      "the builder sees its own list all along");
		free(a);
		free(b);
		a = view_str(t[0].st, 1);
		CHECK(strstr(a, "\"pawn\":5") == NULL && strstr(a, "\"faction\":null"),
		      "RULINGS.md, Wargame Chess W8: the other list stays hidden until both are deployed");
		free(a);
	}
	/* Step 5 of the Setup order: both deployed, both lists shown. */
	for (int i = 0; i < 5; i++)
		CHECK(apply_q(t[0].st, 0, deploy_free(t[0].st, 0, "pawn", buf), &t[0].rng, &err) == 0,
		      "seat 0 deploys its pawns");
	{
		struct wc_state *s0 = t[0].st;
		char *a = view_str(s0, 1);
		CHECK(s0->phase == WC_PH_PLAY && strstr(a, "\"pawn\":5") && strstr(a, "\"faction\":\"standard\""),
		      "RULINGS.md, Wargame Chess W8: both teams deployed, the lists are shown (Setup order, step 5)");
		free(a);
	}
	CHECK(ev_has("\"type\":\"teams_revealed\""),
	      "RULINGS.md, Wargame Chess W8: teams_revealed at the end of deployment");
	wr_events_free(&test_ev);
	for (int k = 0; k < 2; k++) {
		wr_events_free(&t[k].ev);
		wc_ruleset.free(t[k].st);
	}
}

int
main(void)
{
	size_t n = sizeof(rows) / sizeof(rows[0]);

	for (size_t i = 0; i < n; i++)
		run_row(&rows[i]);
	test_teams();
	test_setup();
	test_w7();
	test_w8();
	printf("%zu rule rows\n", n);
	return check_done("wargame-chess rule table");
}
