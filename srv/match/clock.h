/* Time controls and vacations (issue "Correspondence play"): a match's
 * time control, each seat's clock derived from stored timestamps (the
 * posts' times and the awaiting mask after each, the players' vacations)
 * and "now", and a player's vacation balance. Pure: no I/O but the one
 * source of "now". */
#ifndef WP_CLOCK_H
#define WP_CLOCK_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "rules.h"

#define WP_DAY 86400

/* "Now" in seconds since the epoch, from one function: the real clock,
 * unless a program sets another source (only the test server does). */
int64_t wp_clock_now(void);
void wp_clock_source(int64_t (*now)(void));

/* A match's time control, in seconds; on == 0: none. */
struct wp_tc {
	int on;
	int64_t per_move, increment, max_bank;
	int skip_weekends;
};

/* Limits of the time control's members, in days. */
#define WP_TC_PER_MOVE_MAX 60
#define WP_TC_INCREMENT_MAX 30
#define WP_TC_BANK_MAX 365

/* Reads a time control as the API takes it (NULL or JSON null: none).
 * 0, or -1 with why and *unprocessable (1: well-typed values out of
 * range, 422; 0: a wrong shape, 400). */
int wp_tc_parse(json_object *o, struct wp_tc *tc, char *why, size_t whylen,
                int *unprocessable);
/* Its canonical JSON (NULL when off). */
json_object *wp_tc_json(const struct wp_tc *tc);

/* One post as the clock sees it: when, who was awaited after it, and
 * where that differs from whose turn it is (RULINGS.md G8, amended;
 * wp_turn_masks() in match.h): the seats whose turn, not awaited, waits
 * for another seat's reaction, the awaited seats that answer a reaction
 * on another seat's turn, and the seat that answered one with this post
 * and was asked another (a new move). All 0: every awaited seat is in its
 * turn. */
struct wp_clock_mark {
	int64_t at;
	unsigned awaiting;
	unsigned waiting, reacting, answered;
};
/* posts.awaiting keeps the four masks, WP_MARK_BITS bits each, in that
 * order from the lowest (rows written before G8 have awaiting alone). */
#define WP_MARK_BITS 4
#define WP_MARK_SEATS ((1u << WP_MARK_BITS) - 1)
int64_t wp_clock_mark_stored(const struct wp_clock_mark *m);
void wp_clock_mark_read(struct wp_clock_mark *m, int64_t at, int64_t stored);
/* [from, to): a vacation. */
struct wp_interval {
	int64_t from, to;
};

/* Seconds of [a, b) that count: not in a weekend (Saturday and Sunday
 * UTC) when skip_weekends, not in any of the vacations. */
int64_t wp_clock_counted(const struct wp_tc *tc, const struct wp_interval *vac, int nvac,
                         int64_t a, int64_t b);
/* The first time t >= a at which wp_clock_counted(a, t) reaches need. */
int64_t wp_clock_deadline(const struct wp_tc *tc, const struct wp_interval *vac, int nvac,
                          int64_t a, int64_t need);

struct wp_seat_clock {
	int awaited;             /* awaited after the last post */
	int64_t bank;            /* seconds when its clock started (awaited) or that it has */
	int64_t since;           /* awaited: when its clock started (G8) */
	int64_t deadline;        /* awaited: when the bank runs out */
	int64_t left;            /* seconds left at now (bank when not awaited) */
	int flagged;             /* awaited and now >= deadline */
	int move;                /* the post after which its last move (G8) began; 0: none */
};

/* Each seat's clock after the marks (in post order), at now. A seat
 * starts with per_move; its clock runs while it is awaited. A move is a
 * seat's turn (awaited or waiting) or its answer to a reaction (G8):
 * when one ends it keeps what it had left plus the increment, at least
 * per_move and at most max_bank. While its turn waits for another seat's
 * reaction its clock stops and keeps what it had, no increment, no floor.
 * vac[s] are the vacations of seat s's player, sorted by from. */
void wp_clock_compute(const struct wp_tc *tc, const struct wp_clock_mark *marks, int nmarks,
                      const struct wp_interval *const *vac, const int *nvac, int nseats,
                      int64_t now, struct wp_seat_clock *out);

/* The clocks after some marks, before `now`: what wp_clock_compute()
 * keeps from one mark to the next. The match row keeps the fold after its
 * last post (games.clock), so that a clock is its fold and the vacations,
 * whatever the match's length. */
struct wp_clock_fold {
	int marks;                          /* marks folded in: the post number */
	struct wp_clock_mark prev;          /* the last of them */
	struct wp_seat_clock seat[WR_MAX_SEATS];   /* bank, since, move */
};
void wp_clock_fold_start(const struct wp_tc *tc, int nseats, struct wp_clock_fold *f);
void wp_clock_fold_step(const struct wp_tc *tc, const struct wp_interval *const *vac,
                        const int *nvac, int nseats, struct wp_clock_fold *f,
                        const struct wp_clock_mark *m);
/* Each seat's clock at now after the fold. */
void wp_clock_fold_end(const struct wp_tc *tc, const struct wp_clock_fold *f,
                       const struct wp_interval *const *vac, const int *nvac, int nseats,
                       int64_t now, struct wp_seat_clock *out);
/* As text ("marks;at:mark;bank:since:move;..." a seat each) and back;
 * -1 when it does not fit or does not read. */
#define WP_CLOCK_FOLD_MAX (32 + 24 + WR_MAX_SEATS * 48)
int wp_clock_fold_text(const struct wp_clock_fold *f, int nseats, char *buf, size_t cap);
int wp_clock_fold_parse(const char *s, int nseats, struct wp_clock_fold *f);

/* Vacation days: one earned every `every` seconds since the account was
 * created, the balance capped at `cap`; each vacation spends its whole
 * days when it starts. The balance at now. */
int wp_vacation_balance(int64_t created, int64_t now, const struct wp_interval *vac, int nvac,
                        int64_t every, int cap);
/* The same with `start` days in hand when the account was created (the
 * starting allowance, issue 30 item 10), capped at `cap` too. */
int wp_vacation_balance_from(int64_t created, int64_t now, const struct wp_interval *vac, int nvac,
                             int64_t every, int cap, int start);

/* The service's vacation policy (VACATION_EVERY_DAYS, VACATION_MAX_DAYS):
 * set once at start; 30 and 30 until then. */
void wp_vacation_policy(unsigned every_days, unsigned max_days);
int64_t wp_vacation_every(void);   /* seconds */
int wp_vacation_cap(void);
/* VACATION_START_DAYS: days a new account holds (set once at start; 0 until then). */
void wp_vacation_start_policy(unsigned days);
int wp_vacation_start(void);

/* "YYYY-MM-DDTHH:MM:SSZ" (out holds at least 21 bytes). */
void wp_clock_iso(int64_t t, char *out, size_t cap);

#endif
