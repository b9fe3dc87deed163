/* Wargame Chess factions as data plus hooks (RULINGS.md, Wargame Chess W1):
 * a test-only faction, "Testers", compiled into this program alone, uses a
 * hook at every trigger point the text names; it proves a faction is one
 * file. Also the token rules tested directly: Blessed and Cursed (the
 * text's two example situations), cancelling, valid targets, "cannot be
 * slain", prevented Advantage, random set-up, Scatter, inconclusive games,
 * save/load and what view() hides. */
#include "wc_test.h"

/* ------------------------------------------------ the Testers faction */

static char trace[8192];
static int mode_prevent_adv, mode_prevent_dis, mode_bonus, mode_dis_effect, mode_jester_kept;

#define tr(...)                                                               \
	do {                                                                  \
		size_t n_ = strlen(trace);                                    \
		snprintf(trace + n_, sizeof(trace) - n_, __VA_ARGS__);        \
	} while (0)

static void
t_turn_start(struct wc_ctx *c, int seat, enum wc_step step)
{
	tr("ts%d%c ", seat, "FUP"[step]);
	/* Upgrade "drums": at the start of each turn the seat's first piece
	 * on the board gains an Advantage token. */
	if (step == WC_STEP_UPGRADE && (c->st->seat[seat].upgrades & 1u))
		for (int i = 0; i < c->st->npieces; i++)
			if (c->st->pieces[i].seat == seat && c->st->pieces[i].where == WC_ON) {
				wc_give_tokens(c, i, 0, 1, "drums");
				break;
			}
}

static void
t_turn_end(struct wc_ctx *c, int seat, enum wc_step step)
{
	(void)c;
	tr("te%d%c ", seat, "FUP"[step]);
}

static void
t_act_start(struct wc_ctx *c, int piece)
{
	tr("as%d/%d ", piece, c->st->pieces[piece].seat);
}

static void
t_act_end(struct wc_ctx *c, int piece)
{
	tr("ae%d/%d ", piece, c->st->pieces[piece].seat);
}

static void
t_before_roll(struct wc_ctx *c, int seat, struct wc_roll *att, struct wc_roll *def)
{
	struct wc_roll *mine = c->st->pieces[att->piece].seat == seat ? att : def;
	tr("br%d%c ", seat, mine == att ? 'a' : 'd');
	if (mine == att) {
		att->prevent_adv |= mode_prevent_adv;
		att->prevent_dis |= mode_prevent_dis;
		att->bonus += mode_bonus;
		att->dis += mode_dis_effect;
	}
}

static int
t_on_slain(struct wc_ctx *c, int piece, int by)
{
	tr("os%d/%d ", piece, by);
	/* Wardens cannot be slain (no instruction given: the text's default);
	 * Jesters neither when a test asks (a lifted Joker, W9). */
	return strcmp(wc_opt(c->st, piece)->id, "warden") == 0 ||
	       (mode_jester_kept && strcmp(wc_opt(c->st, piece)->id, "jester") == 0);
}

static void
t_between(struct wc_ctx *c, int seat, int last)
{
	(void)c;
	tr("ba%d/%d ", seat, last);
}

static const struct wc_option tester_opts[] = {
	{"king", "King", WC_KING, 1, 1, WC_R_LEADER},
	{"queen", "Queen", WC_QUEEN, 0, 1, 0},
	{"rook", "Rook", WC_ROOK, 0, 2, WC_R_CASTLE},
	{"warden", "Warden", WC_ROOK, 0, 2, WC_R_CASTLE | WC_R_LEGENDARY},
	{"knight", "Knight", WC_KNIGHT, 0, 2, WC_R_MOUNTED},
	{"joker", "Joker", WC_JOKER, 0, 1, WC_R_FOOL},
	{"jester", "Jester", WC_JOKER, 0, 1, WC_R_FOOL},
	{"militia", "Militia", WC_PAWN, 2, 9, WC_R_EN_PASSANT | WC_R_PROMOTION},
};
static const struct wc_upgrade tester_upgrades[] = {{"drums", "War Drums", 1}};

static const struct wc_faction testers = {
	.id = "testers",
	.name = "Testers",
	.opts = tester_opts,
	.nopts = 8,
	.upgrades = tester_upgrades,
	.nupgrades = 1,
	.hooks = {t_turn_start, t_turn_end, t_act_start, t_act_end, t_before_roll, t_on_slain,
	          t_between},
};

/* Pawns that lost Promotion ("a handful of factions' Pawns lose their
 * Promotion rule"). */
static const struct wc_option plain_opts[] = {
	{"king", "King", WC_KING, 1, 1, WC_R_LEADER},
	{"queen", "Queen", WC_QUEEN, 0, 1, 0},
	{"pawn", "Pawn", WC_PAWN, 0, 8, WC_R_EN_PASSANT},
};
static const struct wc_faction plain = {
	.id = "plain", .name = "Plain", .opts = plain_opts, .nopts = 3,
};

static int
applyq(void *st, int seat, const char *s, struct wr_rng *rng, struct wr_error *err)
{
	char buf[512];
	snprintf(buf, sizeof(buf), "%s", s);
	for (char *p = buf; *p; p++)
		if (*p == '\'')
			*p = '"';
	return wc_apply_str(st, seat, buf, rng, err);
}

static int
team_ok(const char *json, const char *want_code)
{
	struct wr_rng rng;
	uint64_t s;
	void *st = NULL;
	struct wr_error err;
	int rc, ok;

	wr_rng_seeded(&rng, &s, 1);
	wc_ruleset.create(NULL, 2, &rng, &st, &err);
	rc = applyq(st, 0, json, &rng, &err);
	ok = want_code ? rc != 0 && strcmp(err.code, want_code) == 0 : rc == 0;
	if (!ok)
		fprintf(stderr, "  team %s: %d %s\n", json, rc, err.code);
	wr_events_free(&test_ev);
	wc_ruleset.free(st);
	return ok;
}

static void
test_team_rules(void)
{
	CHECK(team_ok("{'type':'team','faction':'testers','pieces':{'king':1,'rook':1,'warden':1,'militia':8}}",
	              "one-option-per-type"),
	      "Multiple options for one piece type: only one of them");
	CHECK(team_ok("{'type':'team','faction':'testers','pieces':{'king':1,'joker':1,'jester':1,'militia':8}}",
	              NULL),
	      "RULINGS.md, Wargame Chess W9: Joker options: any/all of them (a Joker and a Jester)");
	CHECK(team_ok("{'type':'team','faction':'testers','pieces':{'king':1,'rook':1,'militia':9}}",
	              "set-limit"),
	      "Standard set limit: never more than 8 Pawns");
	CHECK(team_ok("{'type':'team','faction':'testers','pieces':{'king':1,'queen':1,'rook':2,'knight':2,'militia':1}}",
	              "quantity-out-of-range"),
	      "Quantity (2-8)-style minimum: at least 2 militia");
	CHECK(team_ok("{'type':'team','faction':'testers','pieces':{'king':1,'queen':1,'rook':2,'militia':4},'upgrades':['drums']}",
	              NULL),
	      "Upgrades count towards the 14 points");
	CHECK(team_ok("{'type':'team','faction':'testers','pieces':{'king':1,'queen':1,'rook':2,'militia':5},'upgrades':['drums']}",
	              "not-14-points"),
	      "Upgrades: 15 points refused");
	CHECK(team_ok("{'type':'team','faction':'testers','pieces':{'king':1,'queen':1,'rook':2,'militia':4},'upgrades':['drums','drums']}",
	              "duplicate-upgrade"),
	      "an upgrade is taken once");
	CHECK(team_ok("{'type':'team','faction':'testers','pieces':{'king':1,'bishop':1}}", "unknown-piece"),
	      "only the faction's roster");
}

/* ------------------------------------------------------ hook order */

static void
test_hooks(void)
{
	static struct wc_state st;
	static const unsigned dice[] = {4, 4, 1, 1};
	struct wr_script sc = {dice, 4, 0, 0};
	struct wr_rng rng;
	struct wr_error err;
	int ti = wc_faction_find("testers");

	wc_pos_faction = ti;
	/* Turn 1, seat 0 to Activate; seat 1 has nothing left to Activate. */
	wc_pos(&st, "0Kd4 0Pa2:x 1Ke5:x 1Pa7:x 1Ph7:x");
	st.seat[1].upgrades = 1;
	wr_rng_script(&rng, &sc);
	trace[0] = 0;
	CHECK(applyq(&st, 0, "{'type':'activate','square':'d4'}", &rng, &err) == 0, "activate");
	CHECK(strcmp(trace, "as0/0 ") == 0, "start of Activation hooks, owner first");
	trace[0] = 0;
	CHECK(applyq(&st, 0, "{'type':'attack','to':'e5'}", &rng, &err) == 0, "attack the King");
	CHECK(st.over && st.winners == 1u, "Faction Leader through the hooks too");
	CHECK(strstr(trace, "br0a br1d ") == trace, "before a roll: attacker's faction, then defender's");
	CHECK(strstr(trace, "os2/0 ") != NULL, "on slain: the slain piece and its slayer");
	wr_events_free(&test_ev);

	/* A full turn boundary: end of turn, start of the next. */
	wc_pos(&st, "0Kd4 0Pa2:x 1Kh8:x 1Ph7:x");
	st.seat[1].upgrades = 1;
	trace[0] = 0;
	CHECK(applyq(&st, 0, "{'type':'activate','square':'d4'}", &rng, &err) == 0 &&
	          applyq(&st, 0, "{'type':'move','to':'d5'}", &rng, &err) == 0, "activate and move");
	CHECK(strcmp(trace, "as0/0 ae0/0 ba0/0 ba1/0 te1F te0F te1U te0U "
	                    "ts1F ts0F ts1U ts0U ts1P ts0P ") == 0,
	      "end of Activation, between Activations (the seat that just Activated first), "
	      "end of turn from the seat without the last Activation, start of turn from the "
	      "first activator, each step alternating");
	if (strcmp(trace, "as0/0 ae0/0 ba0/0 ba1/0 te1F te0F te1U te0U ts1F ts0F ts1U ts0U ts1P ts0P "))
		fprintf(stderr, "  trace: %s\n", trace);
	CHECK(st.turn == 2 && st.active == 1, "Turn 2, seat 1 first");
	CHECK(st.pieces[2].adv == 1 && ev_has("\"cause\":\"drums\""),
	      "an upgrade's start-of-turn effect (only when taken)");
	CHECK(wc_points(&st, 1) == 2 + 1 + 1 && wc_points(&st, 0) == 3,
	      "W7: points on the board plus upgrades");
	wr_events_free(&test_ev);

	/* "...cannot be slain...": to an unoccupied adjacent square. */
	wc_pos(&st, "0Pd4:e 1Re5:o3 1Kh8 1Pa7:e 0Kh1");
	{
		static const unsigned d2[] = {4, 4, 1, 1};
		static struct wr_script s2 = {d2, 4, 0, 0};
		wr_rng_script(&rng, &s2);
	}
	CHECK(applyq(&st, 0, "{'type':'activate','square':'d4'}", &rng, &err) == 0 &&
	          applyq(&st, 0, "{'type':'attack','to':'e5'}", &rng, &err) == 0, "attack a Warden");
	CHECK(st.pieces[1].where == WC_ON && st.pieces[1].sq == sq("e6") &&
	          wc_piece_at(&st, sq("e5")) == 0,
	      "cannot be slain: placed in an unoccupied adjacent square; the attacker takes the square");
	CHECK(ev_has("\"type\":\"not_slain\""), "not_slain event");
	wr_events_free(&test_ev);

	/* ... and redeployed when no adjacent square is free. */
	wc_pos(&st, "0Nc7 0Pd1:e 1Ra8:o3 1Pa7:e 1Pb7:e 1Pb8:e 1Kh8 0Kh1");
	{
		static const unsigned d3[] = {6, 6, 1, 1};
		static struct wr_script s3 = {d3, 4, 0, 0};
		wr_rng_script(&rng, &s3);
	}
	CHECK(applyq(&st, 0, "{'type':'activate','square':'c7'}", &rng, &err) == 0 &&
	          applyq(&st, 0, "{'type':'attack','to':'a8'}", &rng, &err) == 0, "attack a boxed Warden");
	CHECK(st.pieces[2].where == WC_REDEPLOY && wc_piece_at(&st, sq("a8")) == 0 &&
	          wc_ruleset.to_act(&st) == 2u && ev_has("\"how\":\"redeploy\""),
	      "RULINGS.md, Wargame Chess W9: cannot be slain, no adjacent square: lifted off, its "
	      "owner is awaited to redeploy it (G3), not placed by the server");
	{
		int found = 0;
		CHECK(wc_count(&st, 1, "{\"type\":\"redeploy\",\"square\":\"e8\"}", &found) == 11 &&
		          found,
		      "RULINGS.md, Wargame Chess W9: any unoccupied square of the owner's zone is offered");
		CHECK(wc_count(&st, 0, NULL, NULL) == 0, "W9: the other seat waits");
	}
	CHECK(applyq(&st, 1, "{'type':'redeploy','square':'d4'}", &rng, &err) != 0 &&
	          strcmp(err.code, "outside-zone") == 0,
	      "RULINGS.md, Wargame Chess W9: set it up within your deployment zone");
	CHECK(applyq(&st, 1, "{'type':'redeploy','square':'e8'}", &rng, &err) == 0 &&
	          st.pieces[2].where == WC_ON && st.pieces[2].sq == sq("e8") &&
	          ev_has("\"type\":\"redeployed\",\"seat\":1,\"piece\":2,\"square\":\"e8\""),
	      "RULINGS.md, Wargame Chess W9: the owner chooses the square (e8, not the first free)");
	CHECK(wc_ruleset.to_act(&st) == 2u && st.stage == WC_ST_PICK && st.active == 1,
	      "W9: then play goes on where the resolution left it (seat 1 activates)");
	wr_events_free(&test_ev);

	/* The last Activation of Turn 10 lifts the Warden: the match ends on
	 * points before its owner redeploys it, and it counts (5 against 7;
	 * without it 5 each, a draw). */
	wc_pos(&st, "turn:10 0Nc7 0Pd1:x 1Ra8:o3:x 1Pa7:x 1Pb7:x 1Pb8:x 1Kh8:x 0Kh1:x");
	{
		static const unsigned d4[] = {6, 6, 1, 1};
		static struct wr_script s4 = {d4, 4, 0, 0};
		wr_rng_script(&rng, &s4);
	}
	CHECK(applyq(&st, 0, "{'type':'activate','square':'c7'}", &rng, &err) == 0 &&
	          applyq(&st, 0, "{'type':'attack','to':'a8'}", &rng, &err) == 0 &&
	          st.pieces[2].where == WC_REDEPLOY && st.over && st.winners == 2u &&
	          ev_has("\"points\":[5,7]"),
	      "RULINGS.md, Wargame Chess W9 and W7: a piece lifted at the end of Turn 10 counts "
	      "in the final points (in play, W9)");
	wr_events_free(&test_ev);

	/* A lifted Joker loses its tokens at the end of the turn too. */
	mode_jester_kept = 1;
	wc_pos(&st, "0Nc7 0Pd1:x 1Ja8:o6:x:D2 1Pa7:x 1Pb7:x 1Pb8:x 1Kh8:x 0Kh1:x");
	{
		static const unsigned d5[] = {6, 6, 1};
		static struct wr_script s5 = {d5, 3, 0, 0};
		wr_rng_script(&rng, &s5);
	}
	CHECK(applyq(&st, 0, "{'type':'activate','square':'c7'}", &rng, &err) == 0 &&
	          applyq(&st, 0, "{'type':'attack','to':'a8'}", &rng, &err) == 0 &&
	          st.pieces[2].where == WC_REDEPLOY && st.turn == 2 && st.pieces[2].dis == 0 &&
	          ev_has("\"type\":\"tokens_cleared\",\"piece\":2"),
	      "Fool's Endeavour: \"At the end of the turn, remove any/all Dis/Advantage tokens\" "
	      "from a Joker lifted for its owner to redeploy (RULINGS.md, Wargame Chess W9)");
	mode_jester_kept = 0;
	wr_events_free(&test_ev);

	/* A rule preventing Advantage: the token is still spent. */
	wc_pos(&st, "0Rd4:A1 1Pd5:e 1Kh8 1Pa7:e 0Kh1");
	{
		static const unsigned d4[] = {1, 6, 3, 3};
		static struct wr_script s4 = {d4, 4, 0, 0};
		wr_rng_script(&rng, &s4);
	}
	mode_prevent_adv = 1;
	CHECK(applyq(&st, 0, "{'type':'activate','square':'d4'}", &rng, &err) == 0 &&
	          applyq(&st, 0, "{'type':'attack','to':'d5','advantage':true}", &rng, &err) == 0,
	      "attack with a prevented Advantage");
	CHECK(st.pieces[0].adv == 0 && ev_has("\"mode\":\"normal\"") &&
	          ev_has("\"advantage_prevented\":true") && ev_has("\"total\":7"),
	      "Advantage token spent but no Advantage: 1+6, not 2x6");
	mode_prevent_adv = 0;
	wr_events_free(&test_ev);

	/* Preventing Disadvantage: the Disadvantage token is still spent. */
	wc_pos(&st, "0Rd4:D1 1Pd5:e 1Kh8 1Pa7:e 0Kh1");
	{
		static const unsigned d5[] = {1, 6, 4, 4};
		static struct wr_script s5 = {d5, 4, 0, 0};
		wr_rng_script(&rng, &s5);
	}
	mode_prevent_dis = 1;
	mode_bonus = 2;
	CHECK(applyq(&st, 0, "{'type':'activate','square':'d4'}", &rng, &err) == 0 &&
	          applyq(&st, 0, "{'type':'attack','to':'d5'}", &rng, &err) == 0,
	      "attack with prevented Disadvantage and a bonus");
	CHECK(st.pieces[0].dis == 0 && ev_has("\"total\":9") && st.pieces[1].where == WC_SLAIN,
	      "Disadvantage token spent, no Disadvantage; a bonus after the roll: 1+6+2 > 8");
	mode_prevent_dis = mode_bonus = 0;
	wr_events_free(&test_ev);

	/* The text's example interaction, first case: a Knight with an
	 * Advantage token Attacks an enemy adjacent to another enemy, and an
	 * effect prevents Advantage: Mounted Advantage is inhibited and the
	 * spent token has no effect. */
	wc_pos(&st, "0Nc3:A1 1Pd5:e 1Pe5:e 1Kh8 0Kh1");
	{
		static const unsigned d6[] = {1, 4, 2, 2};
		static struct wr_script s6 = {d6, 4, 0, 0};
		wr_rng_script(&rng, &s6);
	}
	mode_prevent_adv = 1;
	CHECK(applyq(&st, 0, "{'type':'activate','square':'c3'}", &rng, &err) == 0 &&
	          applyq(&st, 0, "{'type':'attack','to':'d5','advantage':true}", &rng, &err) == 0,
	      "example interaction 1 applies");
	CHECK(st.pieces[0].adv == 0 && ev_has("\"mode\":\"normal\"") && ev_has("\"total\":5") &&
	          ev_has("\"advantages\":2"),
	      "Example interaction 1: Mounted Advantage inhibited, the spent token has no effect");
	mode_prevent_adv = 0;
	wr_events_free(&test_ev);
	/* Second case: an effect making the Knight Attack at Disadvantage
	 * cancels Mounted Advantage; spending the token makes it Advantage. */
	wc_pos(&st, "0Nc3:A1 1Pd5:e 1Pe5:e 1Kh8 0Kh1");
	{
		static const unsigned d7[] = {1, 4, 4, 3, 1, 4, 4, 3};
		static struct wr_script s7 = {d7, 8, 0, 0};
		wr_rng_script(&rng, &s7);
	}
	mode_dis_effect = 1;
	{
		struct wc_state copy = st;
		CHECK(applyq(&copy, 0, "{'type':'activate','square':'c3'}", &rng, &err) == 0 &&
		          applyq(&copy, 0, "{'type':'attack','to':'d5'}", &rng, &err) == 0,
		      "example interaction 2 without the token");
		CHECK(ev_has("\"mode\":\"normal\"") && copy.stage == WC_ST_COMBAT,
		      "Example interaction 2: Mounted Advantage cancelled by the Disadvantage effect");
		wr_events_free(&test_ev);
	}
	CHECK(applyq(&st, 0, "{'type':'activate','square':'c3'}", &rng, &err) == 0 &&
	          applyq(&st, 0, "{'type':'attack','to':'d5','advantage':true}", &rng, &err) == 0,
	      "example interaction 2 with the token");
	CHECK(ev_has("\"mode\":\"advantage\"") && st.pieces[1].where == WC_SLAIN,
	      "Example interaction 2: spending the token, normal becomes Advantage (2x4 > 7)");
	mode_dis_effect = 0;
	wr_events_free(&test_ev);

	/* Legendary: never the positional a Pawn Promotes into. */
	wc_pos(&st, "0Pd7:e 0Ra1:o3:S 0Rb1:o2:S 0Kh1 1Kh8 1Pa8:e");
	{
		int found;
		wr_rng_script(&rng, &sc);
		applyq(&st, 0, "{'type':'activate','square':'d7'}", &rng, &err);
		wc_count(&st, 0, "{\"type\":\"promote\",\"piece\":1}", &found);
		CHECK(!found, "Legendary: not a Promotion choice");
		wc_count(&st, 0, "{\"type\":\"promote\",\"piece\":2}", &found);
		CHECK(found, "a non-Legendary slain Rook is");
	}
	wr_events_free(&test_ev);
	/* Options of one type cannot be on the board together. */
	wc_pos(&st, "0Pd7:e 0Ra1:o3 0Rb1:o2:S 0Kh1 1Kh8 1Pa8:e");
	{
		int found;
		applyq(&st, 0, "{'type':'activate','square':'d7'}", &rng, &err);
		wc_count(&st, 0, "{\"type\":\"promote\",\"piece\":2}", &found);
		CHECK(!found, "Multiple options: not while the other option is on the board");
	}
	wr_events_free(&test_ev);
	/* RULINGS.md W9: "Jokers may share the board with other Joker options"
	 * (W6): a Pawn promotes into a slain Jester while a Joker stands */
	wc_pos(&st, "0Pd7:e 0Ja1:o5 0Jb1:o6:S 0Kh1 1Kh8 1Pa8:e");
	{
		int found;
		applyq(&st, 0, "{'type':'activate','square':'d7'}", &rng, &err);
		wc_count(&st, 0, "{\"type\":\"promote\",\"piece\":2}", &found);
		CHECK(found && applyq(&st, 0, "{'type':'promote','piece':2}", &rng, &err) == 0 &&
		          st.pieces[2].where == WC_ON && st.pieces[1].where == WC_ON,
		      "RULINGS.md, Wargame Chess W9: Jokers share the board with other Joker options "
		      "(a Jester promoted beside a Joker)");
	}
	wr_events_free(&test_ev);

	wc_pos_faction = wc_faction_find("plain");
	wc_pos(&st, "0Pd7:e 0Qa1:S 0Kh1 1Kh8 1Pa8:e");
	{
		int found;
		applyq(&st, 0, "{'type':'activate','square':'d7'}", &rng, &err);
		wc_count(&st, 0, "{\"type\":\"promote\",\"piece\":1}", &found);
		CHECK(!found, "a Pawn that lost Promotion does not Promote");
	}
	wr_events_free(&test_ev);
	wc_pos_faction = 0;
}

/* ----------------------------------------------- tokens, directly */

static void
test_tokens(void)
{
	static struct wc_state st;
	struct wc_ctx c = {&st, NULL, &test_plain};

	/* The text's example: Piece A, Piece B (Blessed), Piece C (Blessed). */
	wc_pos(&st, "0Pa2:e 0Pb2:e:B 0Pc2:e:B 1Pa7:e:B 0Kh1 1Kh8");
	wc_give_tokens(&c, 0, 0, 3, "rule");
	CHECK(st.pieces[0].adv == 3 && st.pieces[1].adv == 1 && st.pieces[2].adv == 1,
	      "Blessed, Situation 1: A gains 3, B and C gain 1 each, no more");
	CHECK(st.pieces[3].adv == 0, "Blessed: allies only");
	wc_pos(&st, "0Pa2:e 0Pb2:e:B 0Pc2:e:B 0Kh1 1Kh8");
	wc_give_tokens(&c, 0, 0, 1, "A's rule");
	wc_give_tokens(&c, 0, 0, 1, "B's rule");
	CHECK(st.pieces[0].adv == 2 && st.pieces[1].adv == 2 && st.pieces[2].adv == 2,
	      "Blessed, Situation 2: two triggers, each Blessed ally gains 1 per trigger");
	wc_pos(&st, "0Pa2:e 0Pb2:e:B 0Pc2:e:B 0Kh1 1Kh8");
	wc_give_tokens(&c, 1, 0, 1, "rule");
	CHECK(st.pieces[1].adv == 1 && st.pieces[2].adv == 1 && st.pieces[0].adv == 0,
	      "Blessed: no feedback loop from a Blessed piece's own gain");
	wc_pos(&st, "0Pa2:e 0Pb2:e:C 0Pc2:e:C 0Kh1 1Kh8");
	wc_give_tokens(&c, 0, 1, 2, "rule");
	CHECK(st.pieces[0].dis == 2 && st.pieces[1].dis == 1 && st.pieces[2].dis == 1,
	      "Cursed: Cursed allies gain one Disadvantage token");
	wc_pos(&st, "pregame 0Pa2:e 0Pb2:e:B 0Kh1 1Kh8");
	wc_give_tokens(&c, 0, 0, 1, "pregame");
	CHECK(st.pieces[1].adv == 0, "Blessed: cannot trigger before the first Activation");
	wc_pos(&st, "0Pa2:e:D4 0Pb2:e:B 0Kh1 1Kh8");
	wc_give_tokens(&c, 0, 0, 3, "rule");
	CHECK(st.pieces[0].dis == 1 && st.pieces[0].adv == 0 && st.pieces[1].adv == 1,
	      "4 Disadvantage + 3 Advantage leave 1 Disadvantage; a would-be receipt still Blesses");
	wc_pos(&st, "0Pa2:e:B 0Pb2:e:C 0Pc2:e:B 0Kh1 1Kh8");
	CHECK(wc_give_faith(&c, 0, 0, "x") == -1 && st.pieces[0].blessing == 1,
	      "Blessed: cannot have another Blessing token placed on it");
	CHECK(wc_give_faith(&c, 1, 0, "x") == 0 && !st.pieces[1].blessing && !st.pieces[1].curse,
	      "Blessing on a Cursed piece: both removed");
	CHECK(wc_give_faith(&c, 2, 1, "x") == 0 && !st.pieces[2].blessing && !st.pieces[2].curse,
	      "Curse on a Blessed piece: both removed");
	CHECK(wc_give_faith(&c, 1, 1, "x") == 0 && st.pieces[1].curse == 1 &&
	          wc_give_faith(&c, 1, 1, "x") == -1, "Cursed: no second Curse token");
	/* Valid targets and Jokers. */
	wc_pos(&st, "0Ja2 0Pb2:e:B 1Jc7 1Pd7:e 0Kh1 1Kh8");
	CHECK(wc_token_targets(&st, 0, 0, 0x3) == 0x2,
	      "Jokers: not voluntarily given a token while another target is valid");
	CHECK(wc_token_targets(&st, 0, 0, 0x1) == 0x1, "Jokers: unless the only legal target");
	CHECK(wc_token_targets(&st, 0, 0, 0xC) == 0xC, "an opponent's Joker is always a valid target");
	CHECK(wc_token_targets(&st, 0, 2, 0x3) == 0x1,
	      "Choosing valid targets: a Blessed piece is no target for a Blessing");
	/* "Either type of token" is Advantage or Disadvantage, the two that
	 * section covers; Blessings and Curses limit only Blessed or Cursed
	 * targets (Blessings and Curses; Choosing valid targets). */
	wc_pos(&st, "0Ja2 0Pb2 0Kh1 1Kh8");
	CHECK(wc_token_targets(&st, 0, 2, 0x3) == 0x3 && wc_token_targets(&st, 0, 3, 0x3) == 0x3,
	      "000_fd193abe0e5c92ac.txt, Advantage and Disadvantage, Dis/Advantage and Jokers: "
	      "the own-Joker limit is for Dis/Advantage tokens; an own unblessed, uncursed Joker "
	      "is a valid target for a Blessing or a Curse beside other targets");
	CHECK(wc_token_targets(&st, 0, 0, 0x3) == 0x2 && wc_token_targets(&st, 0, 1, 0x3) == 0x2,
	      "000_fd193abe0e5c92ac.txt, Dis/Advantage and Jokers: an own Joker is still no "
	      "voluntary target for an Advantage or Disadvantage token beside other targets");
	flush_plain(&st);
	CHECK(ev_has("\"type\":\"faith\"") && ev_has("\"cause\":\"blessed\""),
	      "faith and token events through the codec");
	wr_events_free(&test_ev);
}

static void
test_random_placement(void)
{
	static struct wc_state st;
	struct wr_rng rng;
	struct wc_ctx c = {&st, &rng, NULL};
	static const unsigned d1[] = {1, 1, 2, 3};
	static const unsigned d2[] = {5, 2, 3};
	static const unsigned d3[] = {1, 1};
	struct wr_script s1 = {d1, 4, 0, 0}, s2 = {d2, 3, 0, 0}, s3 = {d3, 2, 0, 0};

	wc_pos(&st, "0Ka1 1Kh8 T:b2");
	wr_rng_script(&rng, &s1);
	CHECK(wc_random_square(&c) == sq("c2") && s1.pos == 4,
	      "Setting pieces up randomly: D8 rank then D8 file; an occupied square re-rolled");
	/* Scatter from a1: 1..8 = N NE E SE S SW W NW; off the board (5 = S)
	 * and a Tree (2 = NE, b2) re-rolled. */
	wr_rng_script(&rng, &s2);
	CHECK(wc_scatter(&c, sq("a1")) == sq("b1") && s2.pos == 3, "Scattering: re-rolled until free");
	wc_pos(&st, "0Ka1 0Pa2:e 0Pb1:e 1Kh8 T:b2");
	wr_rng_script(&rng, &s3);
	CHECK(wc_scatter(&c, sq("a1")) == -1 && s3.pos == 0, "Scattering: nowhere to go, no roll");
}

static void
test_state(void)
{
	static struct wc_state st;
	struct wr_list ev = {.size = sizeof(struct wc_event)};
	json_object *snap, *v;
	void *back = NULL;
	struct wr_error err;

	wc_pos_faction = wc_faction_find("testers");
	wc_pos(&st, "0Qd4 0Pa2:e 1Kh8 1Pa7:e");
	st.seat[1].upgrades = 1;
	snap = wc_ruleset.save(&st);
	CHECK(wc_ruleset.load(snap, &back, &err) == 0, "save/load with a test faction");
	{
		json_object *again = wc_ruleset.save(back);
		CHECK(json_object_equal(snap, again), "save(load(save)) is save");
		json_object_put(again);
	}
	wc_ruleset.free(back);
	json_object_object_add(snap, "act_piece", json_object_new_int(7));
	json_object_object_add(snap, "stage", json_object_new_int(WC_ST_COMBAT));
	CHECK(wc_ruleset.load(snap, &back, &err) != 0, "an incoherent snapshot is refused");
	json_object_put(snap);
	snap = json_tokener_parse("{\"phase\":9}");
	CHECK(wc_ruleset.load(snap, &back, &err) != 0, "a bad snapshot is refused");
	json_object_put(snap);

	/* Inconclusive games: points (pieces + upgrades) decide. */
	wc_inconclusive(&st, &ev);
	CHECK(st.over && st.winners == 0u, "Inconclusive games: 3+1 against 2+1 and a 1-point upgrade: a draw");
	wr_list_free(&ev);
	wc_pos(&st, "0Qd4 0Pa2:e 1Kh8 1Pa7:e");
	wc_inconclusive(&st, &ev);
	CHECK(st.over && st.winners == 1u, "Inconclusive games: the greater points total wins");
	wr_list_free(&ev);
	wc_pos(&st, "0Kd4 1Kh8");
	wc_inconclusive(&st, &ev);
	CHECK(st.over && st.winners == 0u, "Inconclusive games: equal points, a draw");
	wr_list_free(&ev);

	/* Standing orders are private to their seat (G5). */
	wc_pos(&st, "0Kd4 1Kh8");
	snap = json_tokener_parse("{\"defend_advantage\":\"never\"}");
	CHECK(wc_ruleset.set_orders(&st, 0, snap, &err) == 0, "standing order set");
	json_object_put(snap);
	snap = json_tokener_parse("{\"defend_advantage\":\"maybe\"}");
	CHECK(wc_ruleset.set_orders(&st, 0, snap, &err) != 0, "standing order values checked");
	json_object_put(snap);
	{
		json_object *v0 = wc_ruleset.view(&st, 0), *v1 = wc_ruleset.view(&st, 1),
		            *vs = wc_ruleset.view(&st, WR_SPECTATOR);
		const char *s0 = json_object_to_json_string(v0), *s1 = json_object_to_json_string(v1);
		CHECK(strstr(s0, "never") != NULL, "a seat sees its own standing orders");
		CHECK(strstr(s1, "never") == NULL &&
		          strstr(json_object_to_json_string(vs), "never") == NULL,
		      "nobody else does");
		CHECK(json_object_object_get_ex(v1, "pending", &v) && json_object_array_length(v) == 1,
		      "view: pending decisions listed");
		json_object_put(v0);
		json_object_put(v1);
		json_object_put(vs);
	}
	wc_pos_faction = 0;
}

int
main(void)
{
	int before = 0;
	{
		struct wr_rng rng;
		uint64_t s;
		void *st = NULL;
		struct wr_error err;
		wr_rng_seeded(&rng, &s, 1);
		wc_ruleset.create(NULL, 2, &rng, &st, &err);
		before = wc_count(st, 0, NULL, NULL);
		CHECK(wc_faction_add(&testers) == 0 && wc_faction_add(&plain) == 0,
		      "W1: a faction is added as one table (tests only)");
		CHECK(wc_faction_add(&testers) != 0, "a faction id is unique");
		CHECK(wc_count(st, 0, NULL, NULL) > before, "its team lists are offered");
		wc_ruleset.free(st);
	}
	test_team_rules();
	test_hooks();
	test_tokens();
	test_random_placement();
	test_state();
	return check_done("wargame-chess factions and tokens");
}
