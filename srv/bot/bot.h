/* The bot worker (issue 27): the server's engine players play their
 * turns on threads of their own, never a request's (botplay.c). */
#ifndef WP_BOT_H
#define WP_BOT_H

#include <stddef.h>

#include "engine.h"

/* The operator's settings (README "Configuration", docs/operations.md). */
struct wp_bot_cfg {
	unsigned threads;            /* BOT_THREADS: worker threads; 0: no bot plays here */
	unsigned queue;              /* BOT_QUEUE: matches waiting for a worker */
	unsigned scan_ms;            /* BOT_SCAN_MS: the look for pending bot turns */
	unsigned max_attempts;       /* BOT_MAX_ATTEMPTS: tries of one decision */
	unsigned max_run;            /* BOT_MAX_RUN: posts in a row, then it resigns */
	long iterations[WB_LEVELS];  /* BOT_ITERATIONS: per level; 0: the engine's default */
};
/* From the environment; 0, or -1 and why. */
int wp_bot_config(struct wp_bot_cfg *cfg, char *err, size_t errlen);

struct wp_store;
/* Starts the worker threads; conninfo is for their own connections
 * (scans and claims), the pool `st` for reading matches and posting. */
int wp_bot_start(struct wp_store *st, const char *conninfo, const struct wp_bot_cfg *cfg);
void wp_bot_stop(void);

#endif
