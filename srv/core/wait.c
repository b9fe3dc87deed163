/* Long-poll registry (see wait.h); the store's LISTEN thread feeds it. */
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wait.h"
#include "wp.h"

#define BUCKETS 1024

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct wp_waiter *bucket[BUCKETS];
static uint64_t gen[BUCKETS];
static int stopping;
/* Registered waiters on a player's key (game < 0, wp_wait_players). */
static int player_waiters;

static unsigned
slot(int64_t game)
{
	return (unsigned)((uint64_t)game * 0x9e3779b97f4a7c15ull >> 54) % BUCKETS;
}

uint64_t
wp_wait_gen(int64_t game)
{
	uint64_t g;

	pthread_mutex_lock(&lock);
	g = gen[slot(game)];
	pthread_mutex_unlock(&lock);
	return g;
}

/* Takes w out of its bucket; the caller holds the lock. */
static void
unlink_locked(struct wp_waiter *w)
{
	struct wp_waiter **pp = &bucket[slot(w->game)];

	while (*pp && *pp != w)
		pp = &(*pp)->next;
	if (*pp)
		*pp = w->next;
	w->next = NULL;
	w->registered = 0;
	if (w->game < 0)
		player_waiters--;
}

void
wp_wait_add(struct wp_waiter *w)
{
	unsigned s = slot(w->game);
	int now = 0;

	pthread_mutex_lock(&lock);
	if (stopping || gen[s] != w->gen_seen) {
		now = 1;
	} else {
		w->next = bucket[s];
		bucket[s] = w;
		w->registered = 1;
		if (w->game < 0)
			player_waiters++;
	}
	pthread_mutex_unlock(&lock);
	if (now)
		w->wake(w);
}

void
wp_wait_remove(struct wp_waiter *w)
{
	pthread_mutex_lock(&lock);
	if (w->registered)
		unlink_locked(w);
	pthread_mutex_unlock(&lock);
}

/* Collects the waiters to wake under the lock and wakes them after it,
 * so a wake callback may take other locks. */
static void
wake_where(int64_t game, int all, int64_t now_ns)
{
	struct wp_waiter *list = NULL;

	pthread_mutex_lock(&lock);
	for (unsigned s = 0; s < BUCKETS; s++) {
		if (!all && game && s != slot(game))
			continue;
		if (game && s == slot(game))
			gen[s]++;
		struct wp_waiter **pp = &bucket[s];
		while (*pp) {
			struct wp_waiter *w = *pp;
			if (all || (game && w->game == game) || (now_ns && w->deadline_ns <= now_ns)) {
				*pp = w->next;
				w->registered = 0;
				if (w->game < 0)
					player_waiters--;
				w->next = list;
				list = w;
			} else {
				pp = &w->next;
			}
		}
	}
	pthread_mutex_unlock(&lock);
	while (list) {
		struct wp_waiter *w = list;
		list = w->next;
		w->next = NULL;
		w->wake(w);
	}
}

int
wp_wait_players(void)
{
	int n;

	pthread_mutex_lock(&lock);
	n = player_waiters;
	pthread_mutex_unlock(&lock);
	return n;
}

void
wp_wait_notify(int64_t game)
{
	wake_where(game, 0, 0);
}

void
wp_wait_sweep(int64_t now_ns)
{
	wake_where(0, 0, now_ns);
}

void
wp_wait_all(void)
{
	wake_where(0, 1, 0);
}

void
wp_wait_begin(void)
{
	__atomic_store_n(&stopping, 0, __ATOMIC_RELEASE);
}

int
wp_wait_stopping(void)
{
	return __atomic_load_n(&stopping, __ATOMIC_ACQUIRE);
}

void
wp_wait_stop(void)
{
	__atomic_store_n(&stopping, 1, __ATOMIC_RELEASE);
	wake_where(0, 1, 0);
}
