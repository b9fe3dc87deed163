/* Telling every instance of committed changes: NOTIFY wp_game 'id:version'
 * after each commit, many at once from the LISTEN connection (issue 17,
 * "Performance").
 *
 * A notifying transaction is expensive in PostgreSQL: it takes an id, its
 * commit takes a lock that orders every notifying commit of the database,
 * and each signals the listening sessions, which wake the LISTEN threads.
 * One such transaction a turn cost as much as the turn itself (pgbench,
 * 32 clients: the one-statement turn with a NOTIFY of its own 4,473
 * turns/s; with one NOTIFY for every two turns, 7,770). So a writer queues
 * what it committed and answers; the LISTEN thread (listen.c) sends what is
 * queued in one statement once the oldest has waited TELL_LINGER_NS, or at
 * once when the queue is half full (4 ms against 1: 2,714 against 2,608
 * turns/s median over four alternated rounds, fewer statements of the
 * LISTEN thread's). Where no LISTEN thread runs (plain CGI, the
 * command-line tool), while its connection is down, or when the queue is
 * full, the writer sends on its own connection.
 *
 * What it changes: another instance hears of a change up to a few
 * milliseconds later, after the writer's client may have had its answer (a
 * 304 from another instance's memory may lag a commit by that, README
 * "Known limitations"); writes never trust the cache, so none is wrong. A
 * notification lost (the process killed with some queued, the LISTEN
 * connection lost) is made up for by the LISTEN thread's check of the
 * versions held (listen.c). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "store_priv.h"

#define TELL_PAYLOAD 24           /* "id:version" */
#define TELL_LINGER_NS 4000000LL  /* 4 ms: the notifications of that time go together */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char queue[WP_TELL_QUEUE][TELL_PAYLOAD];
static unsigned nqueue;
static int64_t oldest_ns;         /* when the first of the queue came */
static int wake_fd = -1;          /* the LISTEN thread's; -1: none runs */

/* The queue as one array literal ('{"1:2","3:4"}', into text), emptied.
 * With the lock held. */
static void
take(char *text, size_t cap)
{
	size_t len = 0;

	text[len++] = '{';
	for (unsigned i = 0; i < nqueue && len + TELL_PAYLOAD + 4 < cap; i++)
		len += (size_t)snprintf(text + len, cap - len, "%s\"%s\"", i ? "," : "", queue[i]);
	text[len++] = '}';
	text[len] = '\0';
	wp_metric_add(WP_METRIC_CHANGES_TOLD, nqueue);
	wp_metric_add(WP_METRIC_TELL_STATEMENTS, 1);
	nqueue = 0;
}

/* Sends what is queued on c, by the writer itself. With the lock held;
 * returns with it held, not holding it while the statement runs. */
static void
send_here(struct wp_conn *c)
{
	struct wp_params p = {0};
	char *text = malloc(WP_TELL_TEXT);

	if (!text) {
		nqueue = 0;    /* lost: the LISTEN threads' checks make up for it */
		return;
	}
	take(text, WP_TELL_TEXT);
	pthread_mutex_unlock(&lock);
	wp_p_text(&p, text);
	wp_sql_run(c, WP_STMT_NOTIFY_MANY, &p, NULL);
	free(text);
	pthread_mutex_lock(&lock);
}

void
wp_tell(struct wp_conn *c, const int64_t *games, const int *versions, int n)
{
	int wake = 0;

	pthread_mutex_lock(&lock);
	for (int i = 0; i < n; i++) {
		/* send_here lets go of the lock while it sends: others may
		 * have filled the queue again meanwhile. */
		while (nqueue == WP_TELL_QUEUE)
			send_here(c);
		snprintf(queue[nqueue++], TELL_PAYLOAD, "%lld:%d", (long long)games[i], versions[i]);
		if (nqueue == 1)
			oldest_ns = wp_now_ns();
		wake |= nqueue == 1 || nqueue == WP_TELL_QUEUE / 2;
	}
	if (wake_fd < 0 && nqueue > 0)
		send_here(c);     /* nobody else would */
	else if (wake)
		eventfd_write(wake_fd, 1);
	pthread_mutex_unlock(&lock);
}

int
wp_tell_listener(int on)
{
	pthread_mutex_lock(&lock);
	if (on && wake_fd < 0)
		wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	else if (!on && wake_fd >= 0) {
		close(wake_fd);
		wake_fd = -1;
	}
	int fd = wake_fd;
	pthread_mutex_unlock(&lock);
	return fd;
}

int64_t
wp_tell_due(int64_t now, char *text, size_t cap)
{
	int64_t wait = -1;
	eventfd_t ignored;

	pthread_mutex_lock(&lock);
	if (wake_fd >= 0)
		eventfd_read(wake_fd, &ignored);
	if (nqueue > 0) {
		wait = oldest_ns + TELL_LINGER_NS - now;
		if (wait <= 0 || nqueue >= WP_TELL_QUEUE / 2) {
			take(text, cap);
			wait = 0;
		}
	}
	pthread_mutex_unlock(&lock);
	return wait;
}
