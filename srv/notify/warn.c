/* "Time running out" (issue 14, Notifications): the notify worker scans
 * the active matches with a time control that a seated player listens to
 * (a webhook) once a minute of "now" (match/clock.h, so the tests' clock
 * moves it too), derives each awaited seat's clock as views do
 * (wp_clock_compute: weekends not counted, vacations), and queues one
 * warning per (match, seat, turn) for a seat whose time left has fallen to
 * the threshold. sql/011_time_warnings.sql makes it once across instances:
 * the warning's key is taken with ON CONFLICT DO NOTHING in the same
 * transaction as the outbox rows, and only while the match is at the
 * version the scan read. A seat whose player is on vacation now is not
 * warned (its clock does not run); nor is one whose time ran out already
 * (the opponents may claim: the warning would come too late to help). */
#include <stdlib.h>

#include "core.h"
#include "notify_priv.h"

#define WP_WARN_EVERY 60     /* seconds of "now" between scans */
#define WP_WARN_PAGE 200     /* matches read at once */

static int64_t last_scan;
static int scanned;

int64_t
wp_time_warning_threshold(const struct wp_tc *tc)
{
	int64_t quarter = tc->per_move / 4;

	return quarter < WP_DAY ? quarter : WP_DAY;
}

/* The post after which seat s became awaited the last time (posts are
 * numbered from 1, one clock mark each); 0 when it never was. */
static int
turn_began(const struct wp_clock_mark *marks, int n, int s)
{
	int turn = 0;
	unsigned prev = 0;

	for (int k = 0; k < n; k++) {
		if ((marks[k].awaiting >> s & 1u) && !(prev >> s & 1u))
			turn = k + 1;
		prev = marks[k].awaiting;
	}
	return turn;
}

static int
on_vacation(const struct wp_interval *vac, int n, int64_t now)
{
	for (int i = 0; i < n; i++)
		if (vac[i].from <= now && now < vac[i].to)
			return 1;
	return 0;
}

static void
warn_game(struct wp_store *st, const struct wp_timed_game *g, int64_t now)
{
	struct wp_clock_input in;
	struct wp_seat_clock sc[WR_MAX_SEATS];
	const struct wp_interval *vac[WR_MAX_SEATS];
	struct wp_conn *c;
	enum wp_err err = WP_OK;
	int nseats = g->seats < WR_MAX_SEATS ? g->seats : WR_MAX_SEATS;

	/* The clocks' input from memory when the cache holds the match at
	 * this version (store/cache.c), else from the database. */
	if (!wp_cache_clock(g->id, g->version, &in)) {
		if (!(c = wp_store_get(st)))
			return;
		err = wp_db_clock_load(c, g->id, g->seq, &in);
		wp_store_put(st, c);
	}
	if (err != WP_OK)
		return;
	for (int s = 0; s < WR_MAX_SEATS; s++)
		vac[s] = in.vac[s];
	wp_clock_compute(&g->tc, in.marks, in.nmarks, vac, in.nvac, nseats, now, sc);
	int64_t limit = wp_time_warning_threshold(&g->tc);
	for (int s = 0; s < nseats; s++) {
		int64_t queued = 0;
		int turn = turn_began(in.marks, in.nmarks, s);
		if (!sc[s].awaited || sc[s].flagged || sc[s].left > limit || turn == 0 ||
		    on_vacation(in.vac[s], in.nvac[s], now))
			continue;
		if (!(c = wp_store_get(st)))
			break;
		err = wp_db_time_warning(c, g->id, s, turn, g->version, sc[s].deadline, &queued);
		wp_store_put(st, c);
		if (err != WP_OK)
			wp_log("notify: time warning for seat %d of match %lld not queued", s,
			       (long long)g->id);
		else if (queued > 0)
			wp_metric_add(WP_METRIC_TIME_WARNINGS, 1);
	}
	wp_clock_input_free(&in);
}

void
wp_time_warn_round(struct wp_store *st)
{
	int64_t now = wp_clock_now(), after = 0;
	int n;

	/* Once a minute of "now"; at once when it went back (a test clock). */
	if (scanned && now >= last_scan && now - last_scan < WP_WARN_EVERY)
		return;
	do {
		struct wp_timed_game *games = NULL;
		struct wp_conn *c = wp_store_get(st);
		if (!c)
			return;   /* the next round tries again */
		if (wp_db_timed_games(c, after, WP_WARN_PAGE, &games, &n) != WP_OK)
			n = -1;
		wp_store_put(st, c);
		for (int i = 0; i < n && !wp_notify_stopping(); i++) {
			after = games[i].id;
			warn_game(st, &games[i], now);
		}
		free(games);
		if (n < 0)
			return;
	} while (n == WP_WARN_PAGE && !wp_notify_stopping());
	scanned = 1;
	last_scan = now;
	wp_metric_add(WP_METRIC_TIME_WARNING_SCANS, 1);
	wp_metric_set(WP_METRIC_TIME_WARNING_SCAN_CLOCK, now > 0 ? (uint64_t)now : 0);
}
