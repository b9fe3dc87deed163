/* The clock of time controls and vacations (srv/match/clock.c), by
 * tables: counted time with and without weekends and vacations, the
 * deadline as its inverse, banks with increment and maximum, flags, the
 * vacation balance, and the time control's validation (issue
 * "Correspondence play", Time controls). */
#include <stdlib.h>

#include "check.h"
#include "clock.h"
#include "match.h"

#define D WP_DAY
#define H 3600
#define MON 1893974400LL /* 2030-01-07T00:00:00Z, a Monday */

static const struct wp_tc plain = {1, 3 * D, 1 * D, 10 * D, 0};
static const struct wp_tc weekdays = {1, 3 * D, 1 * D, 10 * D, 1};

static void
counted_table(void)
{
	static const struct wp_interval vac[] = {{MON + 1 * D, MON + 2 * D}};
	static const struct {
		const struct wp_tc *tc;
		int nvac;
		int64_t a, b, want;
		const char *what;
	} rows[] = {
		{&plain, 0, MON, MON + 5 * D, 5 * D, "all of Monday to Saturday counts"},
		{&weekdays, 0, MON, MON + 5 * D, 5 * D, "Monday to Friday: five days"},
		{&weekdays, 0, MON, MON + 7 * D, 5 * D, "a whole week: five days"},
		{&weekdays, 0, MON + 5 * D, MON + 7 * D, 0, "a weekend counts nothing"},
		{&weekdays, 0, MON + 4 * D + 12 * H, MON + 7 * D + 6 * H, 18 * H,
		 "Friday noon to Monday 06:00: 18 hours"},
		{&plain, 1, MON, MON + 3 * D, 2 * D, "a vacation day does not count"},
		{&weekdays, 1, MON + 5 * D, MON + 8 * D, 1 * D, "vacation before, weekend inside"},
		{&plain, 1, MON + 1 * D + H, MON + 2 * D - H, 0, "inside a vacation: nothing"},
		{&plain, 0, MON, MON, 0, "an empty interval"},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int64_t got = wp_clock_counted(rows[i].tc, vac, rows[i].nvac, rows[i].a, rows[i].b);
		CHECK(got == rows[i].want, rows[i].what);
		/* The deadline is the inverse: the first time it is reached. */
		if (rows[i].want > 0) {
			int64_t t = wp_clock_deadline(rows[i].tc, vac, rows[i].nvac, rows[i].a,
			                              rows[i].want);
			CHECK(wp_clock_counted(rows[i].tc, vac, rows[i].nvac, rows[i].a, t) ==
			          rows[i].want, rows[i].what);
			CHECK(wp_clock_counted(rows[i].tc, vac, rows[i].nvac, rows[i].a, t - 1) <
			          rows[i].want, rows[i].what);
		}
	}
}

static void
deadline_table(void)
{
	static const struct wp_interval vac[] = {{MON + 2 * D, MON + 4 * D}};
	static const struct {
		const struct wp_tc *tc;
		int nvac;
		int64_t a, need, want;
		const char *what;
	} rows[] = {
		{&plain, 0, MON, 3 * D, MON + 3 * D, "three days from Monday: Thursday"},
		{&weekdays, 0, MON + 3 * D, 3 * D, MON + 8 * D, "Thursday + 3 weekdays: Tuesday"},
		{&weekdays, 0, MON + 4 * D, 1 * D, MON + 5 * D, "Friday + 1 day: Saturday 00:00"},
		{&weekdays, 0, MON + 5 * D + H, 1 * D, MON + 8 * D, "from Saturday: Monday counts first"},
		{&plain, 1, MON, 3 * D, MON + 5 * D, "a two-day vacation moves it two days"},
		{&plain, 0, MON, 0, MON, "nothing needed: at once"},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		CHECK(wp_clock_deadline(rows[i].tc, vac, rows[i].nvac, rows[i].a, rows[i].need) ==
		          rows[i].want, rows[i].what);
}

/* A two-seat match: posts at the given times with who is awaited after. */
static void
compute_table(void)
{
	static const struct wp_interval none[1];
	const struct wp_interval *vac[2] = {none, none};
	int nvac[2] = {0, 0};
	struct wp_seat_clock c[2];
	const struct wp_clock_mark m1[] = {{MON, 1, 0, 0, 0}};
	const struct wp_clock_mark m2[] = {{MON, 1, 0, 0, 0}, {MON + 1 * D, 2, 0, 0, 0}};
	const struct wp_clock_mark m3[] = {{MON, 1, 0, 0, 0}, {MON + H, 2, 0, 0, 0},
	                                   {MON + 2 * H, 1, 0, 0, 0}, {MON + 3 * H, 2, 0, 0, 0},
	                                   {MON + 4 * H, 1, 0, 0, 0}};
	const struct wp_clock_mark m4[] = {{MON, 1, 0, 0, 0}, {MON + 1 * D, 0, 0, 0, 0}};

	wp_clock_compute(&plain, m1, 1, vac, nvac, 2, MON + D, c);
	CHECK(c[0].awaited && !c[1].awaited, "seat 0 awaited after the start");
	CHECK(c[0].deadline == MON + 3 * D, "deadline: start + days per move");
	CHECK(c[0].left == 2 * D, "one day gone of three");
	CHECK(c[1].left == 3 * D && c[1].deadline == 0, "the other clock does not run");
	CHECK(!c[0].flagged, "not flagged before the deadline");
	wp_clock_compute(&plain, m1, 1, vac, nvac, 2, MON + 3 * D, c);
	CHECK(c[0].flagged && c[0].left == 0, "flagged at the deadline");

	wp_clock_compute(&plain, m2, 2, vac, nvac, 2, MON + D, c);
	CHECK(c[0].bank == 3 * D, "2 days left + 1 increment = 3 days");
	CHECK(c[1].since == MON + D && c[1].deadline == MON + 4 * D, "seat 1 runs from its turn");

	wp_clock_compute(&plain, m3, 5, vac, nvac, 2, MON + 4 * H, c);
	/* each turn took an hour and earned a day */
	CHECK(c[1].bank == 3 * D - H + D - H + D, "increments pile up");
	CHECK(c[0].bank == 3 * D - H + D - H + D, "seat 0's bank at its third turn");
	static const struct wp_tc capped = {1, 3 * D, 5 * D, 4 * D, 0};
	wp_clock_compute(&capped, m3, 5, vac, nvac, 2, MON + 4 * H, c);
	CHECK(c[1].bank == 4 * D, "the bank never exceeds max_bank");
	static const struct wp_tc slow = {1, 3 * D, 0, 3 * D, 0};
	const struct wp_clock_mark m5[] = {{MON, 1, 0, 0, 0}, {MON + 2 * D + 23 * H, 2, 0, 0, 0},
	                                   {MON + 3 * D, 1, 0, 0, 0}};
	wp_clock_compute(&slow, m5, 3, vac, nvac, 2, MON + 3 * D, c);
	CHECK(c[0].bank == 3 * D, "days per move is the floor of every turn");

	wp_clock_compute(&plain, m4, 2, vac, nvac, 2, MON + 30 * D, c);
	CHECK(!c[0].awaited && !c[0].flagged && !c[1].flagged, "an ended match: no clock runs");

	static const struct wp_interval v0[] = {{MON + 2 * D, MON + 5 * D}};
	vac[0] = v0;
	nvac[0] = 1;
	wp_clock_compute(&plain, m1, 1, vac, nvac, 2, MON + 4 * D, c);
	CHECK(c[0].deadline == MON + 6 * D && !c[0].flagged, "a vacation pauses the clock");
	CHECK(c[0].left == 1 * D, "two days counted before the vacation");
}

static unsigned
fixed_turn(const void *state)
{
	return *(const unsigned *)state;
}

/* RULINGS.md, G8 (amended): seat 0 (A) is in its turn; its post asks
 * seat 1 (B) a reaction (B awaited and reacting, A waiting); B answers
 * and A's turn goes on; A ends it. Marks as api/write.c makes them. */
static void
g8_table(void)
{
	static const struct wp_interval none[1];
	const struct wp_interval *vac[2] = {none, none};
	int nvac[2] = {0, 0};
	struct wp_seat_clock c[2];
	/* 2 days a move, 2 of increment, 10 at most; B answers after 12 h */
	static const struct wp_tc tc = {1, 2 * D, 2 * D, 10 * D, 0};
	const struct wp_clock_mark m[] = {
		{MON, 1, 0, 0, 0},                   /* A's turn */
		{MON + 1 * D, 2, 1, 2, 0},           /* A asks B: A waits, B reacts */
		{MON + 1 * D + 12 * H, 1, 0, 0, 0},  /* B answered: A's turn goes on */
		{MON + 1 * D + 14 * H, 2, 0, 0, 0},  /* A ends its turn: B's turn */
	};

	wp_clock_compute(&tc, m, 2, vac, nvac, 2, MON + 5 * D, c);
	CHECK(!c[0].awaited && c[0].bank == 1 * D && !c[0].flagged,
	      "RULINGS.md, G8 (amended): a turn waiting for a reaction keeps what it had, "
	      "no increment, and its clock stops");
	CHECK(c[1].awaited && c[1].since == MON + 1 * D && c[1].deadline == MON + 3 * D,
	      "RULINGS.md, G8 (amended): the reacting seat's clock runs");
	wp_clock_compute(&tc, m, 3, vac, nvac, 2, MON + 1 * D + 13 * H, c);
	CHECK(c[1].bank == 2 * D - 12 * H + 2 * D,
	      "RULINGS.md, G8 (amended): a reaction is a move of the seat that answers it: "
	      "charged, then the increment");
	CHECK(c[0].awaited && c[0].since == MON + 1 * D + 12 * H && c[0].left == 1 * D - H &&
	          c[0].deadline == MON + 2 * D + 12 * H,
	      "RULINGS.md, G8 (amended): the resumed turn runs on with what it had");
	wp_clock_compute(&tc, m, 4, vac, nvac, 2, MON + 2 * D, c);
	CHECK(c[0].bank == 1 * D - 2 * H + 2 * D,
	      "RULINGS.md, G8 (amended): the increment comes when the turn ends");
	CHECK(c[1].bank == 3 * D + 12 * H && c[1].since == MON + 1 * D + 14 * H,
	      "RULINGS.md, G8 (amended): the reactor's own turn starts with its bank");

	/* No floor while waiting: 2 days 23 hours spent of 3, no increment. */
	static const struct wp_tc slow = {1, 3 * D, 0, 3 * D, 0};
	const struct wp_clock_mark late[] = {
		{MON, 1, 0, 0, 0}, {MON + 2 * D + 23 * H, 2, 1, 2, 0}, {MON + 3 * D, 1, 0, 0, 0},
		{MON + 3 * D + 30 * 60, 2, 0, 0, 0},
	};
	wp_clock_compute(&slow, late, 3, vac, nvac, 2, MON + 3 * D, c);
	CHECK(c[0].bank == H && c[0].deadline == MON + 3 * D + H,
	      "RULINGS.md, G8 (amended): no floor while the turn waits");
	CHECK(c[1].bank == 3 * D, "RULINGS.md, G8 (amended): the reaction's move gets the floor");
	wp_clock_compute(&slow, late, 3, vac, nvac, 2, MON + 3 * D + H, c);
	CHECK(c[0].flagged, "RULINGS.md, G8 (amended): the resumed turn can run out");
	wp_clock_compute(&slow, late, 4, vac, nvac, 2, MON + 3 * D + H, c);
	CHECK(c[0].bank == 3 * D, "RULINGS.md, G8 (amended): the floor once the turn ends");

	/* B's answer ends A's turn and B's own begins at once: A's move
	 * ends waiting, B's reaction ends and its turn starts. */
	const struct wp_clock_mark handover[] = {
		{MON, 1, 0, 0, 0}, {MON + 1 * D, 2, 1, 2, 0}, {MON + 1 * D + 12 * H, 2, 0, 0, 0},
	};
	wp_clock_compute(&tc, handover, 3, vac, nvac, 2, MON + 2 * D, c);
	CHECK(c[0].bank == 3 * D, "RULINGS.md, G8 (amended): a turn that ends while waiting "
	                          "gets its increment then");
	CHECK(c[1].bank == 3 * D + 12 * H && c[1].since == MON + 1 * D + 12 * H,
	      "RULINGS.md, G8 (amended): the answer is a move even when the turn follows it");

	/* B answers a reaction and is asked another at once: each answer is
	 * a move (C9's Protection asked before each save of a volley). */
	const struct wp_clock_mark again[] = {
		{MON, 1, 0, 0, 0}, {MON + 1 * D, 2, 1, 2, 0}, {MON + 1 * D + 12 * H, 2, 1, 2, 2},
		{MON + 1 * D + 18 * H, 1, 0, 0, 0},
	};
	wp_clock_compute(&tc, again, 3, vac, nvac, 2, MON + 1 * D + 13 * H, c);
	CHECK(c[1].bank == 2 * D - 12 * H + 2 * D && c[1].since == MON + 1 * D + 12 * H,
	      "RULINGS.md, G8 (amended): an answer followed by another question: each a move");
	wp_clock_compute(&tc, again, 4, vac, nvac, 2, MON + 1 * D + 19 * H, c);
	CHECK(c[1].bank == 2 * D - 12 * H + 2 * D - 6 * H + 2 * D && c[0].bank == 1 * D &&
	          c[0].since == MON + 1 * D + 18 * H,
	      "RULINGS.md, G8 (amended): the second answer is a move too; the turn waited");

	/* The marks api/write.c makes (wp_turn_masks): seat 0's turn, seat 1
	 * awaited. */
	const struct wr_ruleset with = {.turn_of = fixed_turn}, without = {.id = "none"};
	unsigned turn = 1;
	struct wp_clock_mark k;
	wp_turn_masks(&with, &turn, 2, 0, &k);
	CHECK(k.awaiting == 2 && k.waiting == 1 && k.reacting == 2 && k.answered == 0,
	      "RULINGS.md, G8 (amended): A's post asks B: A waits, B reacts");
	wp_turn_masks(&with, &turn, 2, 1, &k);
	CHECK(k.answered == 2, "RULINGS.md, G8 (amended): B answered and is asked again");
	wp_turn_masks(&with, &turn, 1, 1, &k);
	CHECK(k.waiting == 0 && k.reacting == 0 && k.answered == 0, "A's turn goes on");
	wp_turn_masks(&with, &turn, 0, 1, &k);
	CHECK(k.waiting == 0 && k.reacting == 0, "an ended match: every move ended");
	wp_turn_masks(&without, &turn, 2, 1, &k);
	CHECK(k.awaiting == 2 && k.waiting == 0 && k.reacting == 0,
	      "no turn_of: every awaited seat is in its turn");

	/* The stored form (posts.awaiting) reads back; a row from before G8
	 * is awaiting alone. */
	struct wp_clock_mark r;
	const struct wp_clock_mark four = {MON, 2, 1, 2, 2};
	wp_clock_mark_read(&r, MON, wp_clock_mark_stored(&four));
	CHECK(r.at == MON && r.awaiting == 2 && r.waiting == 1 && r.reacting == 2 && r.answered == 2,
	      "posts.awaiting keeps the four masks");
	wp_clock_mark_read(&r, MON, 5);
	CHECK(r.awaiting == 5 && r.waiting == 0 && r.reacting == 0 && r.answered == 0,
	      "an old row: awaiting alone");
}

/* RULINGS.md, G8 (amended), of every product ruleset: it says whose turn
 * it is (turn_of), a match in play always has one, and a seat asked a
 * reaction answers on a turn that waits for it. Seeded random play, the
 * masks as api/write.c stores them after each post; how many reactions
 * random play met is printed (some need options or armies it rarely
 * builds). */
static void
every_ruleset_turns(void)
{
	for (size_t i = 0; i < wr_ruleset_count(); i++) {
		const struct wr_ruleset *rs = wr_ruleset_at(i);
		int posts = 0, bad = 0, reactions = 0;
		char what[160];
		for (int seats = rs->min_seats; rs->turn_of && seats <= rs->max_seats; seats++) {
			for (uint64_t seed = 1; seed <= 20; seed++) {
				struct wr_rng rng;
				struct wr_error err;
				uint64_t x;
				void *st = NULL;
				wr_rng_seeded(&rng, &x, seed * 977 + (uint64_t)seats);
				if (rs->create(NULL, seats, &rng, &st, &err) != 0)
					break;   /* a seat count that needs an option */
				for (int k = 0; k < 1500 && rs->to_act(st); k++, posts++) {
					struct wr_events ev = {0};
					unsigned a = rs->to_act(st);
					int seat = __builtin_ctz(a);
					struct wp_clock_mark mk;
					wp_turn_masks(rs, st, a, -1, &mk);
					bad += rs->turn_of(st) == 0 || (mk.reacting && !mk.waiting) ||
					       (mk.waiting & a) || (mk.reacting & ~a);
					reactions += mk.reacting != 0;
					json_object *acts = rs->actions(st, seat);
					size_t n = json_object_array_length(acts);
					if (n)
						rs->apply(st, seat, json_object_array_get_idx(
						                        acts, rng.next(&rng, (uint32_t)n)),
						          &rng, &ev, &err);
					json_object_put(acts);
					wr_events_free(&ev);
					if (!n)
						break;
				}
				rs->free(st);
			}
		}
		snprintf(what, sizeof(what), "RULINGS.md, G8 (amended): %s says whose turn it is "
		         "(%d posts, %d reactions asked)", rs->id, posts, reactions);
		CHECK(rs->turn_of && posts > 0 && bad == 0, what);
		printf("%s\n", what);
	}
}

static void
balance_table(void)
{
	static const struct wp_interval v[] = {{MON + 70 * D, MON + 72 * D}};
	static const struct {
		int64_t now;
		int nvac, cap, want;
		const char *what;
	} rows[] = {
		{MON + 29 * D, 0, 30, 0, "nothing in the first month"},
		{MON + 30 * D, 0, 30, 1, "one day a month"},
		{MON + 95 * D, 0, 30, 3, "three months"},
		{MON + 95 * D, 0, 2, 2, "capped"},
		{MON + 71 * D, 1, 30, 0, "two days spent of two"},
		{MON + 95 * D, 1, 30, 1, "three earned, two spent"},
		{MON + 95 * D, 1, 2, 1, "capped, spent, earned again"},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		CHECK(wp_vacation_balance(MON, rows[i].now, v, rows[i].nvac, 30 * D, rows[i].cap) ==
		          rows[i].want, rows[i].what);
	/* A starting allowance (issue 30 item 10, VACATION_START_DAYS). */
	CHECK(wp_vacation_balance_from(MON, MON, v, 0, 30 * D, 30, 7) == 7, "seven days at once");
	CHECK(wp_vacation_balance_from(MON, MON + 30 * D, v, 0, 30 * D, 30, 7) == 8,
	      "seven, and one earned a month on");
	CHECK(wp_vacation_balance_from(MON, MON + 71 * D, v, 1, 30 * D, 30, 7) == 7,
	      "seven and two earned, two spent");
	CHECK(wp_vacation_balance_from(MON, MON, v, 0, 30 * D, 3, 7) == 3, "never over the cap");
}

static void
parse_table(void)
{
	static const struct {
		const char *json;
		int ok, unprocessable, on;
		const char *what;
	} rows[] = {
		{"null", 1, 0, 0, "null: none"},
		{"{\"days_per_move\":3}", 1, 0, 1, "days per move alone"},
		{"{\"days_per_move\":3,\"increment_days\":1,\"max_bank_days\":10,"
		 "\"skip_weekends\":true}", 1, 0, 1, "everything"},
		{"{}", 0, 0, 0, "days_per_move is required"},
		{"{\"days_per_move\":\"3\"}", 0, 0, 0, "a string is the wrong type"},
		{"{\"days_per_move\":0}", 0, 1, 0, "zero days: out of range"},
		{"{\"days_per_move\":61}", 0, 1, 0, "61 days: out of range"},
		{"{\"days_per_move\":5,\"max_bank_days\":4}", 0, 1, 0, "bank below days per move"},
		{"{\"days_per_move\":3,\"colour\":1}", 0, 0, 0, "an unknown member"},
		{"{\"days_per_move\":3,\"skip_weekends\":1}", 0, 0, 0, "skip_weekends is boolean"},
		{"[3]", 0, 0, 0, "an array"},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		json_object *o = json_tokener_parse(rows[i].json);
		struct wp_tc tc;
		char why[128];
		int unp = -1, rc = wp_tc_parse(o, &tc, why, sizeof(why), &unp);
		CHECK((rc == 0) == rows[i].ok, rows[i].what);
		if (rc == 0)
			CHECK(tc.on == rows[i].on, rows[i].what);
		else
			CHECK(unp == rows[i].unprocessable, rows[i].what);
		json_object_put(o);
	}
	json_object *o = json_tokener_parse("{\"days_per_move\":2,\"increment_days\":1}"), *back;
	struct wp_tc tc;
	char why[128];
	int unp;
	CHECK(wp_tc_parse(o, &tc, why, sizeof(why), &unp) == 0, "parses");
	back = wp_tc_json(&tc);
	CHECK_STR(json_object_to_json_string_ext(back, JSON_C_TO_STRING_PLAIN),
	          "{\"days_per_move\":2,\"increment_days\":1,\"max_bank_days\":2,"
	          "\"skip_weekends\":false}", "canonical form, max_bank_days defaults to days_per_move");
	json_object_put(o);
	json_object_put(back);
	char iso[32];
	wp_clock_iso(MON, iso, sizeof(iso));
	CHECK_STR(iso, "2030-01-07T00:00:00Z", "ISO 8601 UTC");
}

static int64_t
fixed_now(void)
{
	return MON;
}

/* Issue 26, "The clock re-read on hot paths": the match row keeps the
 * fold of its posts' marks as text (games.clock) and the next post folds
 * one mark more into it. For random matches (2 to 4 seats, G8 masks,
 * weekends, vacations), the clocks from the fold written after every post
 * and read back are the clocks from all the marks at once. */
static void
fold_table(void)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	int same = 1, rounds = 0;

	for (int match = 0; match < 200; match++) {
		struct wp_clock_mark m[40];
		struct wp_interval v0[1] = {{MON + 5 * D, MON + 7 * D}};
		const struct wp_interval *vac[WR_MAX_SEATS] = {v0, NULL, NULL, NULL};
		int nvac[WR_MAX_SEATS] = {match % 2, 0, 0, 0};
		const struct wp_tc *tc = match % 3 ? &plain : &weekdays;
		int nseats = 2 + match % 3, n = 1 + match % 40;
		int64_t t = MON;
		struct wp_clock_fold f;
		char text[WP_CLOCK_FOLD_MAX];

		wp_clock_fold_start(tc, nseats, &f);
		for (int k = 0; k < n; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			t += (int64_t)(x % (2 * D));
			m[k] = (struct wp_clock_mark){t, (unsigned)(x >> 8) & ((1u << nseats) - 1),
			                              (unsigned)(x >> 16) & 1, (unsigned)(x >> 20) & 2,
			                              (unsigned)(x >> 24) & 1};
			CHECK(wp_clock_fold_text(&f, nseats, text, sizeof(text)) == 0, "fold fits");
			CHECK(wp_clock_fold_parse(text, nseats, &f) == 0, "fold reads back");
			wp_clock_fold_step(tc, vac, nvac, nseats, &f, &m[k]);
			struct wp_seat_clock whole[WR_MAX_SEATS], folded[WR_MAX_SEATS];
			int64_t now = t + (int64_t)(x % (4 * D));
			wp_clock_compute(tc, m, k + 1, vac, nvac, nseats, now, whole);
			wp_clock_fold_end(tc, &f, vac, nvac, nseats, now, folded);
			for (int q = 0; q < nseats; q++)
				same &= whole[q].awaited == folded[q].awaited &&
				        whole[q].bank == folded[q].bank && whole[q].since == folded[q].since &&
				        whole[q].deadline == folded[q].deadline &&
				        whole[q].left == folded[q].left &&
				        whole[q].flagged == folded[q].flagged && whole[q].move == folded[q].move;
			rounds++;
		}
	}
	CHECK(same && rounds > 1000, "the fold after each post gives the clocks of all the marks");
	struct wp_clock_fold f;
	CHECK(wp_clock_fold_parse("3;1:2;5:6:1", 2, &f) != 0, "a fold of the wrong seat count");
	CHECK(wp_clock_fold_parse("3;1:2;5:6:1;7:8:2x", 2, &f) != 0, "a fold with trailing bytes");
	CHECK(wp_clock_fold_parse("3;1:2;5:6:1;7:8:2", 2, &f) == 0 && f.marks == 3 &&
	          f.seat[1].since == 8 && f.seat[1].move == 2, "a fold's fields");
}

int
main(void)
{
	fold_table();
	counted_table();
	deadline_table();
	compute_table();
	g8_table();
	every_ruleset_turns();
	balance_table();
	parse_table();
	CHECK(wp_vacation_every() == 30 * D && wp_vacation_cap() == 30, "policy: 30 and 30 by default");
	wp_vacation_policy(15, 5);
	CHECK(wp_vacation_every() == 15 * D && wp_vacation_cap() == 5, "policy from the configuration");
	wp_clock_source(fixed_now);
	CHECK(wp_clock_now() == MON, "one source of now");
	wp_clock_source(NULL);
	CHECK(wp_clock_now() > MON - 10 * 365 * D, "the real clock again");
	return check_done("clock");
}
