/* board.png rendered in a worker process, and the rendered images kept
 * (issue 24, items 1 and 5).
 *
 * librsvg lays out text through Pango and fontconfig. Pango (1.48 and
 * later) runs FcInit() on a thread of its own, which raced warpostd's
 * first rendering and corrupted fontconfig's global state: warpostd once
 * died by a call through a NULL function pointer (Pango issues 784 and
 * 872). So the image libraries never run inside warpostd: a child,
 * warpostd itself started again as `warpostd --render-worker` with a
 * socket on fd 3, initialises fontconfig and the font map before its
 * first request (wp_png_fonts_init) and then renders one SVG at a time.
 * A crash there costs one image: the request is answered 503, the child
 * is reaped and the next image starts another.
 *
 * The protocol, both ways a 4-byte length (host order; parent and child
 * are one binary) then that many bytes: the SVG; the answer's status
 * (0 rendered, 1 refused) and the PNG or the reason.
 *
 * Rendered images are kept by their ETag (match, post, the viewer's
 * sight), least recently used first out, within PNG_CACHE_BYTES. */
#define _GNU_SOURCE /* posix_spawn_file_actions_addclosefrom_np */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "board_png.h"
#include "png_render.h"
#include "core.h"

/* The worker's end of the socket. */
#define RENDER_FD 3
/* The largest SVG sent (board_svg.c draws a few KiB) and PNG read back. */
#define RENDER_MAX_SVG (4u << 20)
#define RENDER_MAX_PNG (64u << 20)

extern char **environ;

static struct {
	pthread_mutex_t lock;   /* one rendering at a time; guards pid, fd */
	pid_t pid;              /* 0: none running */
	int fd;
	unsigned timeout_ms;
	unsigned cost;          /* PNG_RENDER_COST; atomic, read without the lock */
} rw = {PTHREAD_MUTEX_INITIALIZER, 0, -1, 10000, 8};

/* ------------------------------------------------------------ I/O */

static int64_t
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits until fd is ready for `events` or the deadline passes: 0, or -1. */
static int
wait_fd(int fd, short events, int64_t deadline)
{
	for (;;) {
		int64_t left = deadline < 0 ? -1 : deadline - now_ms();
		if (deadline >= 0 && left <= 0)
			return -1;
		struct pollfd p = {.fd = fd, .events = events};
		int n = poll(&p, 1, left > INT32_MAX ? INT32_MAX : (int)left);
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -1;
	}
}

/* A whole buffer sent (`out`) or received, or -1: EOF, an error, the
 * deadline passed (-1: none). */
static int
move_all(int fd, void *buf, size_t len, int out, int64_t deadline)
{
	char *p = buf;
	while (len) {
		if (wait_fd(fd, out ? POLLOUT : POLLIN, deadline) != 0)
			return -1;
		ssize_t n = out ? send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT)
		                : recv(fd, p, len, MSG_DONTWAIT);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int
write_all(int fd, const void *buf, size_t len, int64_t deadline)
{
	return move_all(fd, (void *)buf, len, 1, deadline);
}

static int
read_all(int fd, void *buf, size_t len, int64_t deadline)
{
	return move_all(fd, buf, len, 0, deadline);
}

/* --------------------------------------------------------- worker */

int
wp_render_worker_main(void)
{
	int fd = RENDER_FD;

	wp_png_fonts_init();
	for (;;) {
		uint32_t len, head[2];
		char why[160];
		unsigned char *png = NULL;
		size_t pnglen = 0;

		if (read_all(fd, &len, sizeof(len), -1) != 0)
			break;   /* warpostd closed its end: it stopped */
		char *svg = len <= RENDER_MAX_SVG ? malloc(len ? len : 1) : NULL;
		if (!svg || read_all(fd, svg, len, -1) != 0) {
			free(svg);
			break;
		}
		int rc = wp_svg_png(svg, len, &png, &pnglen, why, sizeof(why));
		free(svg);
		head[0] = rc == 0 ? 0 : 1;
		head[1] = rc == 0 ? (uint32_t)pnglen : (uint32_t)strlen(why);
		int bad = write_all(fd, head, sizeof(head), -1) != 0 ||
		          write_all(fd, rc == 0 ? (const void *)png : why, head[1], -1) != 0;
		free(png);
		if (bad)
			break;
	}
	/* No exit handlers: fontconfig's and GLib's caches live as long as
	 * the process, and LeakSanitizer would report them. */
	_exit(0);
}

/* ---------------------------------------------------------- parent */

/* Starts a worker; with rw.lock held. 0, or -1 (logged). */
static int
spawn_locked(void)
{
	int sv[2], child = -1, rc = -1;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none;
	char *argv[] = {"warpostd", WP_RENDER_WORKER_ARG, NULL};

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
		wp_log("board.png: no socket for the renderer: %s", strerror(errno));
		return -1;
	}
	/* dup2 onto RENDER_FD clears close-on-exec only when the numbers
	 * differ: keep the child's end above it. */
	child = fcntl(sv[1], F_DUPFD_CLOEXEC, RENDER_FD + 1);
	close(sv[1]);
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&attr);
	sigemptyset(&none);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
	posix_spawn_file_actions_adddup2(&fa, child, RENDER_FD);
	/* Nothing else of warpostd's: no listening socket, no database. */
	posix_spawn_file_actions_addclosefrom_np(&fa, RENDER_FD + 1);
	/* /proc/self/exe in the child is warpostd's own binary, even when
	 * the file was replaced on disk since it started. */
	if (child >= 0 &&
	    (errno = posix_spawn(&rw.pid, "/proc/self/exe", &fa, &attr, argv, environ)) == 0) {
		rw.fd = sv[0];
		rc = 0;
	} else {
		wp_log("board.png: the renderer cannot start: %s", strerror(errno));
		rw.pid = 0;
		close(sv[0]);
	}
	if (child >= 0)
		close(child);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	return rc;
}

/* Ends the worker (it died, or did not answer in time); with rw.lock. */
static void
reap_locked(int late)
{
	int status = 0;
	char how[64];

	kill(rw.pid, SIGKILL);
	while (waitpid(rw.pid, &status, 0) < 0 && errno == EINTR)
		;
	if (late)
		snprintf(how, sizeof(how), "did not answer in %u ms", rw.timeout_ms);
	else if (WIFSIGNALED(status))
		snprintf(how, sizeof(how), "died of signal %d while rendering", WTERMSIG(status));
	else
		snprintf(how, sizeof(how), "exited with status %d while rendering",
		         WEXITSTATUS(status));
	wp_log("board.png: the renderer (pid %ld) %s; another starts with the next image",
	       (long)rw.pid, how);
	close(rw.fd);
	rw.fd = -1;
	rw.pid = 0;
	wp_metric_add(WP_METRIC_RENDERER_FAILURES, 1);
}

int
wp_render_start(const struct wp_config *cfg, int now)
{
	int rc = 0;

	wp_png_cache_limit(now ? cfg->png_cache_bytes : 0);
	pthread_mutex_lock(&rw.lock);
	rw.timeout_ms = cfg->render_timeout_ms;
	__atomic_store_n(&rw.cost, cfg->png_render_cost, __ATOMIC_RELAXED);
	if (now && cfg->render_prestart && !rw.pid && wp_png_available())
		rc = spawn_locked();
	pthread_mutex_unlock(&rw.lock);
	return rc;
}

/* Read without rw.lock, which a rendering holds. */
unsigned
wp_render_cost(void)
{
	return __atomic_load_n(&rw.cost, __ATOMIC_RELAXED);
}

static void cache_clear(void);

void
wp_render_stop(void)
{
	pthread_mutex_lock(&rw.lock);
	if (rw.pid) {
		/* EOF ends it; it renders nothing after. */
		close(rw.fd);
		rw.fd = -1;
		while (waitpid(rw.pid, NULL, 0) < 0 && errno == EINTR)
			;
		rw.pid = 0;
	}
	pthread_mutex_unlock(&rw.lock);
	cache_clear();
}

struct render_call {
	const char *svg;
	size_t len;
	unsigned char **png;
	size_t *pnglen;
	char *why;
	size_t cap;
	int rc;
};

/* One exchange with the worker, waiting up to RENDER_TIMEOUT_MS: run by
 * wp_blocking(), so an event loop serves others meanwhile. */
static void
render_blocking(void *arg)
{
	struct render_call *c = arg;
	const char *svg = c->svg;
	size_t len = c->len, cap = c->cap;
	unsigned char **png = c->png;
	size_t *pnglen = c->pnglen;
	char *why = c->why;
	uint32_t n32 = (uint32_t)len, head[2];
	unsigned char *body = NULL;
	int rc = WP_RENDER_DOWN;

	pthread_mutex_lock(&rw.lock);
	if (!rw.pid && spawn_locked() != 0) {
		snprintf(why, cap, "the renderer cannot start");
		goto out;
	}
	int64_t deadline = now_ms() + rw.timeout_ms;
	if (write_all(rw.fd, &n32, sizeof(n32), deadline) != 0 ||
	    write_all(rw.fd, svg, len, deadline) != 0 ||
	    read_all(rw.fd, head, sizeof(head), deadline) != 0 || head[1] > RENDER_MAX_PNG ||
	    !(body = malloc(head[1] ? head[1] : 1)) ||
	    read_all(rw.fd, body, head[1], deadline) != 0) {
		int late = now_ms() >= deadline;
		snprintf(why, cap, "the renderer %s", late ? "did not answer in time" : "died");
		reap_locked(late);
		goto out;
	}
	if (head[0] == 0) {
		wp_metric_add(WP_METRIC_PNG_RENDERS, 1);
		*png = body;
		*pnglen = head[1];
		body = NULL;
		rc = WP_RENDER_OK;
	} else {
		snprintf(why, cap, "%.*s", (int)head[1], (const char *)body);
		rc = WP_RENDER_REFUSED;
	}
out:
	pthread_mutex_unlock(&rw.lock);
	free(body);
	c->rc = rc;
}

int
wp_render_png(const char *svg, size_t len, unsigned char **png, size_t *pnglen, char *why,
              size_t cap)
{
	struct render_call call = {svg, len, png, pnglen, why, cap, WP_RENDER_DOWN};

	*png = NULL;
	*pnglen = 0;
	if (len > RENDER_MAX_SVG) {
		snprintf(why, cap, "the SVG is over %u bytes", RENDER_MAX_SVG);
		return WP_RENDER_REFUSED;
	}
	wp_blocking(render_blocking, &call);
	return call.rc;
}

/* ----------------------------------------------------------- cache */

struct png_entry {
	struct png_entry *prev, *next;   /* most recently used first */
	char key[96];
	unsigned char *png;
	size_t len;
};

static struct {
	pthread_mutex_t lock;
	struct png_entry *head, *tail;
	size_t bytes, cap;
} pc = {PTHREAD_MUTEX_INITIALIZER, NULL, NULL, 0, 8u << 20};

void
wp_png_cache_limit(size_t bytes)
{
	pthread_mutex_lock(&pc.lock);
	pc.cap = bytes;
	pthread_mutex_unlock(&pc.lock);
}

static void
unlink_entry(struct png_entry *e)
{
	if (e->prev)
		e->prev->next = e->next;
	else
		pc.head = e->next;
	if (e->next)
		e->next->prev = e->prev;
	else
		pc.tail = e->prev;
	e->prev = e->next = NULL;
}

static void
push_front(struct png_entry *e)
{
	e->next = pc.head;
	if (pc.head)
		pc.head->prev = e;
	pc.head = e;
	if (!pc.tail)
		pc.tail = e;
}

int
wp_png_cache_get(const char *key, unsigned char **png, size_t *len)
{
	struct png_entry *e;
	int found = 0;

	pthread_mutex_lock(&pc.lock);
	for (e = pc.head; e; e = e->next)
		if (strcmp(e->key, key) == 0)
			break;
	if (e && (*png = malloc(e->len))) {
		memcpy(*png, e->png, e->len);
		*len = e->len;
		unlink_entry(e);
		push_front(e);
		found = 1;
	}
	pthread_mutex_unlock(&pc.lock);
	if (found)
		wp_metric_add(WP_METRIC_PNG_CACHE_HITS, 1);
	return found;
}

void
wp_png_cache_put(const char *key, const unsigned char *png, size_t len)
{
	struct png_entry *e;

	if (strlen(key) >= sizeof(e->key))
		return;
	pthread_mutex_lock(&pc.lock);
	if (len > pc.cap)
		goto out;
	for (e = pc.head; e; e = e->next)
		if (strcmp(e->key, key) == 0)
			goto out;   /* another request rendered it meanwhile */
	e = calloc(1, sizeof(*e));
	if (!e || !(e->png = malloc(len ? len : 1))) {
		free(e);
		goto out;
	}
	memcpy(e->png, png, len);
	e->len = len;
	snprintf(e->key, sizeof(e->key), "%s", key);
	push_front(e);
	pc.bytes += len;
	while (pc.bytes > pc.cap && pc.tail) {
		struct png_entry *old = pc.tail;
		unlink_entry(old);
		pc.bytes -= old->len;
		free(old->png);
		free(old);
	}
out:
	pthread_mutex_unlock(&pc.lock);
}

static void
cache_clear(void)
{
	pthread_mutex_lock(&pc.lock);
	while (pc.head) {
		struct png_entry *e = pc.head;
		unlink_entry(e);
		free(e->png);
		free(e);
	}
	pc.bytes = 0;
	pthread_mutex_unlock(&pc.lock);
}
