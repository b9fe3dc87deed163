/* The database breaker's states (srv/store/health.c, README
 * "Configuration", DB_* and docs/operations.md "What happens on a
 * failover"), driven without a database: a pool opened on a conninfo
 * nobody connects to, and the breaker's calls as pool.c and the monitor
 * make them, with the pool's lock held. */
#include <pthread.h>

#include "check.h"
#include "pool_priv.h"

static void
states(void)
{
	struct wp_store *st = wp_store_open("dbname=none", 2);
	int probe = 0;

	CHECK(st != NULL, "a pool opens without connecting");
	pthread_mutex_lock(&st->lock);

	/* Up: every request is let in, none is a probe. */
	CHECK(wp_breaker_admit(st, &probe) == 1 && probe == 0, "up: let in, not a probe");
	unsigned e0 = st->epoch;
	/* A request that could not connect while up calls the database down. */
	wp_breaker_tried(st, 0, 0);
	CHECK(st->down && st->epoch == e0 + 1, "a failed connect while up: down, a new epoch");

	/* Down: one probe at a time, the others refused at once. */
	probe = 0;
	CHECK(wp_breaker_admit(st, &probe) == 1 && probe == 1, "down: the first is the probe");
	int other = 0;
	CHECK(wp_breaker_admit(st, &other) == 0, "down: a second is refused while one probes");
	/* A probe that fails while still down changes nothing. */
	wp_breaker_tried(st, 1, 0);
	CHECK(st->down && !st->probing && st->epoch == e0 + 1, "a failed probe: still down, same epoch");

	/* A probe that connects closes the breaker. */
	probe = 0;
	CHECK(wp_breaker_admit(st, &probe) == 1 && probe == 1, "down: the next probe");
	wp_breaker_tried(st, 1, 1);
	CHECK(!st->down && !st->probing, "a probe that connected: up");

	/* The case api_health's DatabaseRestartTest met: a probe let in while
	 * down, the monitor finds the database back while it still tries,
	 * and then the probe misses its deadline. It is stale news: the
	 * breaker stays closed and the epoch unchanged, so the requests begun
	 * since are not failed. */
	wp_breaker_down(st, "test");
	unsigned e1 = st->epoch;
	probe = 0;
	CHECK(wp_breaker_admit(st, &probe) == 1 && probe == 1, "down again: a probe");
	wp_breaker_up(st);                 /* the monitor's check answered */
	int after = 0;
	CHECK(wp_breaker_admit(st, &after) == 1 && after == 0, "up again: a request is let in");
	wp_breaker_tried(st, 1, 0);        /* the old probe gives up */
	CHECK(!st->down && st->epoch == e1, "a probe that failed after the recovery: still up");
	CHECK(!st->probing, "and no probe is left marked");

	/* A probe that got no slot in time changes nothing either. */
	wp_breaker_down(st, "test");
	probe = 0;
	CHECK(wp_breaker_admit(st, &probe) == 1 && probe == 1, "a probe");
	wp_breaker_tried(st, 1, -1);
	CHECK(st->down && !st->probing, "no slot: still down, the next may probe");

	pthread_mutex_unlock(&st->lock);
	wp_store_close(st);
}

int
main(void)
{
	states();
	return check_done("breaker");
}
