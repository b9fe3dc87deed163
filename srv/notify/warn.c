/* "Time running out" (issue 14, Notifications): the notify worker scans
 * the active matches with a time control that a seated player listens to
 * (a webhook) once a minute of "now" (match/clock.h, so the tests' clock
 * moves it too), derives each awaited seat's clock as views do
 * (wp_clock_load: from the cache when it holds the match, weekends not
 * counted, vacations), and queues one warning per (match, seat, move) for
 * a seat whose time left has fallen to the threshold: a turn that waited
 * for another seat's reaction and runs on is the same move (RULINGS.md G8,
 * amended), so it is not warned twice. sql/011_time_warnings.sql and
 * sql/013_time_warning_deadline.sql make it once across instances: the
 * warning's key is taken with ON CONFLICT DO NOTHING in the same
 * transaction as the outbox rows, and only while the match is at the
 * version the scan read. A seat whose player is on vacation now is not
 * warned (its clock does not run); nor is one whose time ran out already
 * (the opponents may claim: the warning would come too late to help).
 * A scan borrows one connection from the pool for all it reads and
 * writes. */
#include <stdlib.h>

#include "api.h"
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

/* A vacation begins when it is taken and a player has one at a time, so
 * only the last can be under way. */
static int
on_vacation(const struct wp_game_clock *gc, int s, int64_t now)
{
	return gc->has_vac[s] && gc->last_vac[s].from <= now && now < gc->last_vac[s].to;
}

static void
warn_game(struct wp_conn *c, const struct wp_timed_game *g, int64_t now)
{
	struct wp_game_clock gc;
	int nseats = g->seats < WR_MAX_SEATS ? g->seats : WR_MAX_SEATS;

	if (wp_clock_load(c, g->id, g->seq, g->version, &g->tc, WP_STATUS_ACTIVE, nseats, now,
	                  &gc) != WP_OK)
		return;
	int64_t limit = wp_time_warning_threshold(&g->tc);
	for (int s = 0; s < nseats; s++) {
		const struct wp_seat_clock *sc = &gc.seat[s];
		int64_t queued = 0;
		if (!sc->awaited || sc->flagged || sc->left > limit || sc->move == 0 ||
		    on_vacation(&gc, s, now))
			continue;
		if (wp_db_time_warning(c, g->id, s, sc->move, g->version, sc->deadline, &queued) !=
		    WP_OK)
			wp_log("notify: time warning for seat %d of match %lld not queued", s,
			       (long long)g->id);
		else if (queued > 0)
			wp_metric_add(WP_METRIC_TIME_WARNINGS, 1);
	}
}

void
wp_time_warn_round(struct wp_store *st)
{
	int64_t now = wp_clock_now(), after = 0;
	int n;

	/* Once a minute of "now"; at once when it went back (a test clock). */
	if (scanned && now >= last_scan && now - last_scan < WP_WARN_EVERY)
		return;
	struct wp_conn *c = wp_store_get(st);
	if (!c)
		return;   /* the next round tries again */
	do {
		struct wp_timed_game *games = NULL;
		if (wp_db_timed_games(c, after, WP_WARN_PAGE, &games, &n) != WP_OK)
			n = -1;
		for (int i = 0; i < n && !wp_notify_stopping(); i++) {
			after = games[i].id;
			warn_game(c, &games[i], now);
		}
		free(games);
	} while (n == WP_WARN_PAGE && !wp_notify_stopping());
	wp_store_put(st, c);
	if (n < 0)
		return;
	scanned = 1;
	last_scan = now;
	wp_metric_add(WP_METRIC_TIME_WARNING_SCANS, 1);
	wp_metric_set(WP_METRIC_TIME_WARNING_SCAN_CLOCK, now > 0 ? (uint64_t)now : 0);
}
