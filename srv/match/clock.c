/* Time controls and vacations: every clock is derived from stored
 * timestamps and "now", so a restart or a second instance loses nothing
 * (issue "Correspondence play"). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "clock.h"

#define WEEK (7 * (int64_t)WP_DAY)

static int64_t
real_now(void)
{
	return (int64_t)time(NULL);
}

static int64_t (*now_source)(void) = real_now;

int64_t
wp_clock_now(void)
{
	return now_source();
}

void
wp_clock_source(int64_t (*now)(void))
{
	now_source = now ? now : real_now;
}

/* ------------------------------------------------------- time control */

static int
get_days(json_object *o, const char *key, int64_t min, int64_t max, int64_t def, int64_t *out,
         char *why, size_t whylen, int *unprocessable)
{
	json_object *v;

	*out = def;
	if (!json_object_object_get_ex(o, key, &v) || json_object_is_type(v, json_type_null))
		return 0;
	if (!json_object_is_type(v, json_type_int)) {
		snprintf(why, whylen, "time_control.%s: must be a whole number of days", key);
		return -1;
	}
	*out = json_object_get_int64(v);
	if (*out < min || *out > max) {
		snprintf(why, whylen, "time_control.%s: %lld to %lld days", key, (long long)min,
		         (long long)max);
		*unprocessable = 1;
		return -1;
	}
	return 0;
}

int
wp_tc_parse(json_object *o, struct wp_tc *tc, char *why, size_t whylen, int *unprocessable)
{
	static const char *const known[] = {"days_per_move", "increment_days", "max_bank_days",
	                                    "skip_weekends", NULL};
	int64_t per, inc, bank;
	json_object *v;

	memset(tc, 0, sizeof(*tc));
	*unprocessable = 0;
	if (!o || json_object_is_type(o, json_type_null))
		return 0;
	if (!json_object_is_type(o, json_type_object)) {
		snprintf(why, whylen, "time_control: must be an object or null");
		return -1;
	}
	json_object_object_foreach(o, key, val) {
		int ok = 0;
		(void)val;
		for (int i = 0; known[i]; i++)
			ok |= strcmp(key, known[i]) == 0;
		if (!ok) {
			snprintf(why, whylen, "time_control.%.64s: unknown member", key);
			return -1;
		}
	}
	if (!json_object_object_get_ex(o, "days_per_move", &v)) {
		snprintf(why, whylen, "time_control.days_per_move: required");
		return -1;
	}
	if (get_days(o, "days_per_move", 1, WP_TC_PER_MOVE_MAX, 0, &per, why, whylen,
	             unprocessable) ||
	    get_days(o, "increment_days", 0, WP_TC_INCREMENT_MAX, 0, &inc, why, whylen,
	             unprocessable) ||
	    get_days(o, "max_bank_days", 1, WP_TC_BANK_MAX, per, &bank, why, whylen,
	             unprocessable))
		return -1;
	if (per == 0) {
		snprintf(why, whylen, "time_control.days_per_move: required");
		return -1;
	}
	if (bank < per) {
		snprintf(why, whylen, "time_control.max_bank_days: at least days_per_move (%lld)",
		         (long long)per);
		*unprocessable = 1;
		return -1;
	}
	if (json_object_object_get_ex(o, "skip_weekends", &v) &&
	    !json_object_is_type(v, json_type_null)) {
		if (!json_object_is_type(v, json_type_boolean)) {
			snprintf(why, whylen, "time_control.skip_weekends: must be true or false");
			return -1;
		}
		tc->skip_weekends = json_object_get_boolean(v);
	}
	tc->on = 1;
	tc->per_move = per * WP_DAY;
	tc->increment = inc * WP_DAY;
	tc->max_bank = bank * WP_DAY;
	return 0;
}

json_object *
wp_tc_json(const struct wp_tc *tc)
{
	json_object *o;

	if (!tc->on)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "days_per_move", json_object_new_int64(tc->per_move / WP_DAY));
	json_object_object_add(o, "increment_days", json_object_new_int64(tc->increment / WP_DAY));
	json_object_object_add(o, "max_bank_days", json_object_new_int64(tc->max_bank / WP_DAY));
	json_object_object_add(o, "skip_weekends", json_object_new_boolean(tc->skip_weekends));
	return o;
}

/* -------------------------------------------------------------- time */

static int64_t
floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;
	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* Counted seconds from the epoch (a Thursday) to t: all of them, or
 * only weekdays' when weekends are skipped. */
static int64_t
counted_to(const struct wp_tc *tc, int64_t t)
{
	if (!tc->skip_weekends)
		return t;
	int64_t w = floor_div(t, WEEK), r = t - w * WEEK;
	/* r: Thursday and Friday [0, 2 days), the weekend [2, 4), Monday to
	 * Wednesday [4, 7). */
	int64_t in = (r < 2 * WP_DAY ? r : 2 * WP_DAY) + (r > 4 * WP_DAY ? r - 4 * WP_DAY : 0);
	return w * 5 * WP_DAY + in;
}

/* The first t with counted_to(t) == v. */
static int64_t
counted_inverse(const struct wp_tc *tc, int64_t v)
{
	if (!tc->skip_weekends)
		return v;
	int64_t w = floor_div(v, 5 * WP_DAY), r = v - w * 5 * WP_DAY;
	return w * WEEK + (r <= 2 * WP_DAY ? r : r + 2 * WP_DAY);
}

int64_t
wp_clock_counted(const struct wp_tc *tc, const struct wp_interval *vac, int nvac, int64_t a,
                 int64_t b)
{
	int64_t t = a, total = 0;

	for (int i = 0; i < nvac && t < b; i++) {
		if (vac[i].to <= t)
			continue;
		if (vac[i].from >= b)
			break;
		if (vac[i].from > t)
			total += counted_to(tc, vac[i].from) - counted_to(tc, t);
		t = vac[i].to;
	}
	if (t < b)
		total += counted_to(tc, b) - counted_to(tc, t);
	return total;
}

int64_t
wp_clock_deadline(const struct wp_tc *tc, const struct wp_interval *vac, int nvac, int64_t a,
                  int64_t need)
{
	int64_t t = a;

	if (need <= 0)
		return a;
	for (int i = 0; i < nvac; i++) {
		if (vac[i].to <= t)
			continue;
		if (vac[i].from > t) {
			int64_t avail = counted_to(tc, vac[i].from) - counted_to(tc, t);
			if (avail >= need)
				return counted_inverse(tc, counted_to(tc, t) + need);
			need -= avail;
		}
		t = vac[i].to;
	}
	return counted_inverse(tc, counted_to(tc, t) + need);
}

int64_t
wp_clock_mark_stored(const struct wp_clock_mark *m)
{
	return (int64_t)((m->awaiting & WP_MARK_SEATS) | (m->waiting & WP_MARK_SEATS) << WP_MARK_BITS |
	                 (m->reacting & WP_MARK_SEATS) << 2 * WP_MARK_BITS |
	                 (m->answered & WP_MARK_SEATS) << 3 * WP_MARK_BITS);
}

void
wp_clock_mark_read(struct wp_clock_mark *m, int64_t at, int64_t stored)
{
	unsigned v = (unsigned)stored;

	m->at = at;
	m->awaiting = v & WP_MARK_SEATS;
	m->waiting = v >> WP_MARK_BITS & WP_MARK_SEATS;
	m->reacting = v >> 2 * WP_MARK_BITS & WP_MARK_SEATS;
	m->answered = v >> 3 * WP_MARK_BITS & WP_MARK_SEATS;
}

/* What a seat is doing after a mark (G8): its turn (awaited or waiting
 * for a reaction), an answer to a reaction on another seat's turn, or
 * nothing. */
enum move { MOVE_NONE, MOVE_TURN, MOVE_REACTION };

static enum move
move_of(unsigned awaiting, unsigned waiting, unsigned reacting, int s)
{
	if ((reacting & awaiting) >> s & 1)
		return MOVE_REACTION;
	return ((awaiting | waiting) >> s & 1) ? MOVE_TURN : MOVE_NONE;
}

/* One seat from one mark to the next. Its clock runs while it is awaited;
 * when it stops, or a new move begins (another kind, or another reaction
 * after the answer to one), the counted time comes off the bank. When a
 * move ends, and only then, come the increment and the floor: a turn that
 * waits for a reaction has not ended. */
static void
clock_step(const struct wp_tc *tc, const struct wp_interval *vac, int nvac,
           struct wp_seat_clock *c, int64_t at, int was_run, enum move was, int run,
           enum move now, int answered)
{
	int ended = was != MOVE_NONE && (now != was || answered);

	if (was_run && (!run || ended)) {
		int64_t left = c->bank - wp_clock_counted(tc, vac, nvac, c->since, at);
		c->bank = left > 0 ? left : 0;
		c->since = 0;
	}
	if (ended) {
		int64_t bank = c->bank + tc->increment;
		if (bank < tc->per_move)
			bank = tc->per_move;
		if (bank > tc->max_bank)
			bank = tc->max_bank;
		c->bank = bank;
	}
	if (run && (!was_run || ended))
		c->since = at;
}

void
wp_clock_fold_start(const struct wp_tc *tc, int nseats, struct wp_clock_fold *f)
{
	memset(f, 0, sizeof(*f));
	for (int s = 0; s < nseats && s < WR_MAX_SEATS; s++)
		f->seat[s].bank = tc->per_move;
}

void
wp_clock_fold_step(const struct wp_tc *tc, const struct wp_interval *const *vac,
                   const int *nvac, int nseats, struct wp_clock_fold *f,
                   const struct wp_clock_mark *m)
{
	const struct wp_clock_mark *prev = &f->prev;

	for (int s = 0; s < nseats; s++) {
		enum move was = move_of(prev->awaiting, prev->waiting, prev->reacting, s),
		          is = move_of(m->awaiting, m->waiting, m->reacting, s);
		int answered = (m->answered >> s) & 1;
		clock_step(tc, vac[s], nvac[s], &f->seat[s], m->at, (prev->awaiting >> s) & 1, was,
		           (m->awaiting >> s) & 1, is, answered);
		if (is != MOVE_NONE && (is != was || answered))
			f->seat[s].move = f->marks + 1;   /* posts are numbered from 1 */
	}
	f->prev = *m;
	f->marks++;
}

void
wp_clock_fold_end(const struct wp_tc *tc, const struct wp_clock_fold *f,
                  const struct wp_interval *const *vac, const int *nvac, int nseats,
                  int64_t now, struct wp_seat_clock *out)
{
	for (int s = 0; s < nseats; s++) {
		struct wp_seat_clock *c = &out[s];
		*c = f->seat[s];
		c->awaited = (f->prev.awaiting >> s) & 1;
		c->left = c->bank;
		c->deadline = 0;
		c->flagged = 0;
		if (!c->awaited)
			continue;
		c->deadline = wp_clock_deadline(tc, vac[s], nvac[s], c->since, c->bank);
		if (now > c->since)
			c->left -= wp_clock_counted(tc, vac[s], nvac[s], c->since, now);
		if (c->left < 0)
			c->left = 0;
		c->flagged = now >= c->deadline;
	}
}

void
wp_clock_compute(const struct wp_tc *tc, const struct wp_clock_mark *marks, int nmarks,
                 const struct wp_interval *const *vac, const int *nvac, int nseats, int64_t now,
                 struct wp_seat_clock *out)
{
	struct wp_clock_fold f;

	wp_clock_fold_start(tc, nseats, &f);
	for (int k = 0; k < nmarks; k++)
		wp_clock_fold_step(tc, vac, nvac, nseats, &f, &marks[k]);
	wp_clock_fold_end(tc, &f, vac, nvac, nseats, now, out);
}

int
wp_clock_fold_text(const struct wp_clock_fold *f, int nseats, char *buf, size_t cap)
{
	size_t n;
	int k = snprintf(buf, cap, "%d;%lld:%lld", f->marks, (long long)f->prev.at,
	                 (long long)wp_clock_mark_stored(&f->prev));

	for (int s = 0; k > 0 && (size_t)k < cap && s < nseats; s++) {
		n = (size_t)k;
		k += snprintf(buf + n, cap - n, ";%lld:%lld:%d", (long long)f->seat[s].bank,
		              (long long)f->seat[s].since, f->seat[s].move);
	}
	return k > 0 && (size_t)k < cap ? 0 : -1;
}

int
wp_clock_fold_parse(const char *s, int nseats, struct wp_clock_fold *f)
{
	long long at, stored, bank, since;
	int marks, move, used;

	memset(f, 0, sizeof(*f));
	if (nseats < 0 || nseats > WR_MAX_SEATS)
		return -1;
	if (sscanf(s, "%d;%lld:%lld%n", &marks, &at, &stored, &used) != 3 || marks < 0 ||
	    stored < 0)
		return -1;
	f->marks = marks;
	wp_clock_mark_read(&f->prev, at, stored);
	for (int k = 0; k < nseats; k++) {
		s += used;
		if (sscanf(s, ";%lld:%lld:%d%n", &bank, &since, &move, &used) != 3)
			return -1;
		f->seat[k].bank = bank;
		f->seat[k].since = since;
		f->seat[k].move = move;
	}
	return s[used] == '\0' ? 0 : -1;
}

/* --------------------------------------------------------- vacations */

static unsigned vacation_every = 30, vacation_cap = 30;

void
wp_vacation_policy(unsigned every_days, unsigned max_days)
{
	vacation_every = every_days ? every_days : 1;
	vacation_cap = max_days;
}

int64_t
wp_vacation_every(void)
{
	return (int64_t)vacation_every * WP_DAY;
}

int
wp_vacation_cap(void)
{
	return (int)vacation_cap;
}

static unsigned vacation_start;

void
wp_vacation_start_policy(unsigned days)
{
	vacation_start = days;
}

int
wp_vacation_start(void)
{
	return (int)vacation_start;
}

int
wp_vacation_balance(int64_t created, int64_t now, const struct wp_interval *vac, int nvac,
                    int64_t every, int cap)
{
	return wp_vacation_balance_from(created, now, vac, nvac, every, cap, 0);
}

int
wp_vacation_balance_from(int64_t created, int64_t now, const struct wp_interval *vac, int nvac,
                         int64_t every, int cap, int start)
{
	int64_t tick = created + every;
	int balance = start < cap ? start : cap, i = 0;

	if (every <= 0)
		return 0;
	for (;;) {
		int spend = i < nvac && vac[i].from <= now && (tick > now || vac[i].from < tick);
		if (spend) {
			int64_t days = (vac[i].to - vac[i].from + WP_DAY - 1) / WP_DAY;
			balance -= (int)days;
			if (balance < 0)
				balance = 0;
			i++;
		} else if (tick <= now) {
			if (balance >= cap && (i >= nvac || vac[i].from > now)) {
				break; /* full, and nothing left to spend */
			}
			if (balance < cap)
				balance++;
			tick += every;
		} else {
			break;
		}
	}
	return balance;
}

void
wp_clock_iso(int64_t t, char *out, size_t cap)
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(out, cap, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
