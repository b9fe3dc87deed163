/* The event loops' coroutines (issue 32), see
 * http_loop.c. A loop is one thread's: every call but wp_loop_new() is
 * made on the thread that entered it. */
#ifndef WP_HTTP_LOOP_H
#define WP_HTTP_LOOP_H

#include "wp.h"

void *wp_loop_new(void);
void wp_loop_free(void *l);
int wp_loop_fd(void *l);
void wp_loop_enter(void *l);
/* Runs fn(arg) in a coroutine: NULL when it ended, else it waits. */
void *wp_co_start(void (*fn)(void *), void *arg);
/* The hook of store/health.c (wp_wait_fd_hook): fd < 0 sleeps. */
int wp_co_wait_fd(int fd, short events, int timeout_ms);
/* The hook of wp_blocking() (wp_offload_hook): fn runs on the blocking
 * pool while the coroutine waits. */
int wp_co_offload(void (*fn)(void *), void *arg);
int wp_loop_round(void *l, void *mark, void *mark2, int timeout_ms, void (*done)(void *));

#endif
