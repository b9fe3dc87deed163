/* Long-poll registry (see wait.h); the store's LISTEN thread feeds it. */
#define _GNU_SOURCE /* POLLRDHUP */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sys/epoll.h>
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

/* Hang-up watch (wait.h, watch_fd): one epoll set and thread for every
 * watched waiter, started with the first; by_fd maps a socket to its
 * waiter, both changed only under the lock. */
static int watch_ep = -1;
static struct wp_waiter **by_fd;
static size_t by_fd_cap;

static void *watch_main(void *arg);

/* A player's key (wp_wait_players), not a match's nor the challenges'. */
static int
player_key(int64_t key)
{
	return key < 0 && key != WP_WAIT_CHALLENGES && key != WP_WAIT_TOURNAMENTS;
}

/* Starts watching w->fd; the caller holds the lock. On any failure w is
 * simply not watched (it still ends at a change or its deadline). */
static void
watch_locked(struct wp_waiter *w)
{
	struct epoll_event ev = {.events = EPOLLRDHUP | EPOLLET};
	size_t fd = (size_t)w->fd;

	if (w->fd < 0)
		return;
	if (watch_ep < 0) {
		pthread_t t;
		watch_ep = epoll_create1(EPOLL_CLOEXEC);
		if (watch_ep < 0)
			return;
		if (pthread_create(&t, NULL, watch_main, NULL) != 0) {
			close(watch_ep);
			watch_ep = -1;
			return;
		}
		pthread_detach(t);
	}
	if (fd >= by_fd_cap) {
		size_t cap = fd < 1024 ? 1024 : fd * 2;
		struct wp_waiter **p = realloc(by_fd, cap * sizeof(*p));
		if (!p)
			return;
		memset(p + by_fd_cap, 0, (cap - by_fd_cap) * sizeof(*p));
		by_fd = p;
		by_fd_cap = cap;
	}
	ev.data.fd = w->fd;
	if (epoll_ctl(watch_ep, EPOLL_CTL_ADD, w->fd, &ev) == 0)
		by_fd[fd] = w;
}

static void
unwatch_locked(struct wp_waiter *w)
{
	if (w->fd < 0 || (size_t)w->fd >= by_fd_cap || by_fd[w->fd] != w)
		return;
	by_fd[w->fd] = NULL;
	epoll_ctl(watch_ep, EPOLL_CTL_DEL, w->fd, NULL);
}

int
wp_hung_up(int fd)
{
	struct pollfd p = {.fd = fd, .events = POLLRDHUP};

	return poll(&p, 1, 0) == 1 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR));
}

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
	if (player_key(w->game))
		player_waiters--;
	if (w->watch_fd)
		unwatch_locked(w);
}

static void *
watch_main(void *arg)
{
	struct epoll_event evs[64];

	for (;;) {
		int n = epoll_wait(watch_ep, evs, 64, -1);
		if (n < 0 && errno != EINTR)
			return NULL;
		for (int i = 0; i < n; i++) {
			struct wp_waiter *w = NULL;
			size_t fd = (size_t)evs[i].data.fd;
			pthread_mutex_lock(&lock);
			if (fd < by_fd_cap && by_fd[fd] && by_fd[fd]->registered &&
			    /* an event may be stale: its socket closed and
			     * the number reused since */
			    wp_hung_up(evs[i].data.fd)) {
				w = by_fd[fd];
				unlink_locked(w);
				w->gone = 1;
			}
			pthread_mutex_unlock(&lock);
			if (w)
				w->wake(w);
		}
	}
}

void
wp_wait_add(struct wp_waiter *w)
{
	unsigned s = slot(w->game);
	int now = 0;

	pthread_mutex_lock(&lock);
	w->gone = 0;
	/* stopping is set without the lock (wp_wait_stop): read it as the
	 * atomic it is. */
	if (wp_wait_stopping() || gen[s] != w->gen_seen) {
		now = 1;
	} else {
		w->next = bucket[s];
		bucket[s] = w;
		w->registered = 1;
		if (player_key(w->game))
			player_waiters++;
		if (w->watch_fd)
			watch_locked(w);
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

	/* One match's waiters are in its bucket: only that one is looked at
	 * (issue 32: the loop over every bucket was 1% of a turn's CPU). */
	unsigned own = game ? slot(game) : BUCKETS;
	unsigned first = !all && game ? own : 0, last = !all && game ? own + 1 : BUCKETS;

	pthread_mutex_lock(&lock);
	for (unsigned s = first; s < last; s++) {
		if (s == own)
			gen[s]++;
		struct wp_waiter **pp = &bucket[s];
		while (*pp) {
			struct wp_waiter *w = *pp;
			if (all || (game && w->game == game) || (now_ns && w->deadline_ns <= now_ns)) {
				*pp = w->next;
				w->registered = 0;
				if (player_key(w->game))
					player_waiters--;
				if (w->watch_fd)
					unwatch_locked(w);
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
