/* Retention: the rows that stop mattering once their time is past are
 * deleted, so that the tables of codes, links, account mail and bot claims
 * do not grow for the life of a server (the statement and what each keeps:
 * WP_STMT_SWEEP, store/account_sql.h). The notification worker runs it at
 * its start and then once an hour, in batches, each its own statement;
 * every instance does, which deletes nothing twice. */
#include "api.h"
#include "notify_priv.h"

#define WP_SWEEP_EVERY_NS (3600 * (int64_t)1000000000)
#define WP_SWEEP_BATCH 1000   /* rows of each kind in one statement */
#define WP_SWEEP_MAX_BATCHES 100

static int64_t last_sweep;
static int swept;

void
wp_sweep_round(struct wp_store *st)
{
	int64_t now = wp_now_ns(), removed, total = 0;
	int batches = 0;

	if (swept && now - last_sweep < WP_SWEEP_EVERY_NS)
		return;
	struct wp_conn *c = wp_store_get(st);
	if (!c)
		return;   /* the next round tries again */
	enum wp_err err;
	do {
		err = wp_db_sweep(c, WP_SWEEP_BATCH, &removed);
		if (err == WP_OK)
			total += removed;
	} while (err == WP_OK && removed > 0 && ++batches < WP_SWEEP_MAX_BATCHES &&
	         !wp_notify_stopping());
	wp_store_put(st, c);
	if (err != WP_OK)
		return;
	swept = 1;
	last_sweep = now;
	wp_metric_add(WP_METRIC_ROWS_SWEPT, (uint64_t)total);
	wp_metric_add(WP_METRIC_SWEEPS, 1);
	if (total)
		wp_log("sweep: %lld rows no longer needed deleted", (long long)total);
}
