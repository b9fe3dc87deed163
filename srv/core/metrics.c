/* Counters for /metrics (Prometheus text format 0.0.4). Process-wide,
 * relaxed atomics: cheap on every request. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

static uint64_t counters[WP_METRIC_MAX];
static uint64_t by_status[6]; /* 1xx..5xx, [0] other */

static const struct {
	const char *name, *help, *type;
} info[WP_METRIC_MAX] = {
	[WP_METRIC_DB_QUERIES] = {"warpost_db_queries_total", "Prepared statements run", "counter"},
	[WP_METRIC_DB_ROWS] = {"warpost_db_rows_total", "Rows returned by them", "counter"},
	[WP_METRIC_CHANGES_TOLD] = {"warpost_changes_told_total",
	                            "Committed changes of matches told to every instance (NOTIFY)",
	                            "counter"},
	[WP_METRIC_TELL_STATEMENTS] = {"warpost_tell_statements_total",
	                               "Statements that told them, many at once", "counter"},
	[WP_METRIC_TOKEN_LOOKUPS] = {"warpost_token_lookups_total",
	                             "Players looked up by token in the database", "counter"},
	[WP_METRIC_RULES_LOADS] = {"warpost_rules_state_loads_total",
	                           "Match snapshots loaded into a ruleset", "counter"},
	[WP_METRIC_RULES_APPLIES] = {"warpost_rules_applies_total",
	                             "Actions applied by a ruleset", "counter"},
	[WP_METRIC_LONGPOLLS] = {"warpost_longpolls_total", "Requests that waited for a change",
	                         "counter"},
	[WP_METRIC_WEBHOOK_ATTEMPTS] = {"warpost_webhook_attempts_total",
	                                "Webhook calls made, retries included", "counter"},
	[WP_METRIC_WEBHOOK_DELIVERED] = {"warpost_webhook_delivered_total",
	                                 "Webhook calls answered with a 2xx", "counter"},
	[WP_METRIC_WEBHOOK_FAILED] = {"warpost_webhook_failed_total",
	                              "Webhook events given up after the last attempt", "counter"},
	[WP_METRIC_DIGESTS_SENT] = {"warpost_digests_sent_total",
	                            "E-mail digests the SMTP relay accepted", "counter"},
	[WP_METRIC_TIME_WARNING_SCANS] = {"warpost_time_warning_scans_total",
	                                  "Scans for seats whose time is running out", "counter"},
	[WP_METRIC_TIME_WARNINGS] = {"warpost_time_warnings_total",
	                             "\"Time running out\" warnings queued by this instance",
	                             "counter"},
	[WP_METRIC_TIME_WARNING_SCAN_CLOCK] = {"warpost_time_warning_scan_timestamp_seconds",
	                                       "The clock of the last completed \"time running"
	                                       " out\" scan", "gauge"},
	[WP_METRIC_PNG_RENDERS] = {"warpost_png_renders_total",
	                           "board.png images rendered by the renderer process", "counter"},
	[WP_METRIC_PNG_CACHE_HITS] = {"warpost_png_cache_hits_total",
	                              "board.png images answered from the kept renderings",
	                              "counter"},
	[WP_METRIC_RENDERER_FAILURES] = {"warpost_renderer_failures_total",
	                                 "Renderer processes that died or did not answer in time",
	                                 "counter"},
	[WP_METRIC_SWEEPS] = {"warpost_sweeps_total",
	                      "Retention sweeps completed (expired codes and links, old mail and"
	                      " bot claims)", "counter"},
	[WP_METRIC_ROWS_SWEPT] = {"warpost_rows_swept_total",
	                          "Rows the retention sweeps deleted", "counter"},
	[WP_METRIC_BOT_LOOKUPS] = {"warpost_bot_lookups_total",
	                           "Queries of one match the computer player's worker made on"
	                           " hearing of a change (none for a match known to have no engine"
	                           " seat)", "counter"},
	[WP_METRIC_DB_POOL_WAITS] = {"warpost_db_pool_waits_total",
	                             "Requests that found every pooled PostgreSQL connection taken"
	                             " and waited for one (DB_POOL_SIZE)", "counter"},
};

void
wp_metric_add(enum wp_metric m, uint64_t n)
{
	__atomic_add_fetch(&counters[m], n, __ATOMIC_RELAXED);
}

void
wp_metric_set(enum wp_metric m, uint64_t v)
{
	__atomic_store_n(&counters[m], v, __ATOMIC_RELAXED);
}

void
wp_metric_status(int status)
{
	int k = status >= 100 && status < 600 ? status / 100 : 0;
	__atomic_add_fetch(&by_status[k], 1, __ATOMIC_RELAXED);
}

size_t
wp_metrics_text(char *buf, size_t cap)
{
	size_t n = 0;

	n += (size_t)snprintf(buf + n, cap - n,
	                      "# HELP warpost_http_responses_total Responses by status class\n"
	                      "# TYPE warpost_http_responses_total counter\n");
	for (int k = 1; k < 6; k++)
		n += (size_t)snprintf(buf + n, cap - n,
		                      "warpost_http_responses_total{class=\"%dxx\"} %llu\n", k,
		                      (unsigned long long)__atomic_load_n(&by_status[k], __ATOMIC_RELAXED));
	for (int m = 0; m < WP_METRIC_MAX; m++)
		n += (size_t)snprintf(buf + n, cap - n, "# HELP %s %s\n# TYPE %s %s\n%s %llu\n",
		                      info[m].name, info[m].help, info[m].name, info[m].type,
		                      info[m].name,
		                      (unsigned long long)__atomic_load_n(&counters[m], __ATOMIC_RELAXED));
	return n;
}
