/* The event loops of the libmicrohttpd front (issue 32), its default
 * (EVENT_LOOPS=0: the thread pool). EVENT_LOOPS=N runs N threads, each with a
 * libmicrohttpd daemon in external epoll mode on one shared listening
 * socket (http.c, start_loops), and runs each API request's wp_serve() in
 * a coroutine of its loop: a wait on a database socket (store/health.c,
 * wait_socket) or for a free pooled connection (store/pool.c) yields to
 * the loop instead of blocking a thread, so a loop a core serves what the
 * thread pool needed 32 threads for.
 *
 * What may block on anything else, or compute for long, runs on the
 * blocking pool below (wp_blocking(): the PNG renderer's pipe, the health
 * monitor's answer, verify's replay). Any other handler holds its loop
 * while it computes, as it held a pool thread. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "core.h"
#include "http_loop.h"

/* AddressSanitizer and ThreadSanitizer are told of each switch of
 * stacks (their fiber interfaces), so the sanitizer builds run the event
 * loops too. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WP_CO_ASAN 1
#endif
#if __has_feature(thread_sanitizer)
#define WP_CO_TSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(WP_CO_ASAN)
#define WP_CO_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__) && !defined(WP_CO_TSAN)
#define WP_CO_TSAN 1
#endif
#ifdef WP_CO_ASAN
#include <sanitizer/common_interface_defs.h>
#endif
#ifdef WP_CO_TSAN
#include <sanitizer/tsan_interface.h>
#endif

/* A coroutine's stack: reserved, not committed (MAP_NORESERVE), with a
 * guard page below it. The handlers run on the thread pool's 8 MiB
 * stacks; none is known to need more than a few pages. */
#define CO_STACK (1024u * 1024u)
#define CO_GUARD 4096u

struct co {
#if defined(__x86_64__)
	void *sp, *back_sp;       /* saved stack pointers (co_switch) */
#else
	ucontext_t ctx, *back;
#endif
	void *stack;
	void (*fn)(void *);
	void *arg;
	int done, ready, waiting;
	int64_t deadline;
#ifdef WP_CO_ASAN
	void *asan_fake;          /* its fake stack while it is switched out */
#endif
#ifdef WP_CO_TSAN
	void *tsan_fiber, *tsan_back;
#endif
	struct co *next;          /* free list, or the loop's waiting list */
	struct loop *loop;
};

struct loop {
	int ep;
	struct co *free;
	struct co *waiting;
	unsigned char *armed;     /* fd -> in ep */
	int narmed;
};

static __thread struct loop *me;
static __thread struct co *cur;
#ifdef WP_CO_ASAN
static __thread const void *loop_bottom;   /* the loop thread's stack */
static __thread size_t loop_size;
#endif

static void co_back(struct co *co);
static void co_entered(void);

/* --- Switching stacks ---
 * co_to() runs co from where it last stopped (or from its start); co_back()
 * returns from co to whoever ran it. On x86-64 a switch saves the
 * callee-saved registers on the stack it leaves and swaps the stack
 * pointer (System V ABI: everything else is the caller's to save), no
 * system call; elsewhere ucontext, which changes the signal mask at each
 * switch (a system call). */
#if defined(__x86_64__)
void wp_co_switch(void **save_sp, void *to_sp);
__asm__(".text\n"
        ".globl wp_co_switch\n"
        ".type wp_co_switch, @function\n"
        "wp_co_switch:\n"
        "\tpushq %rbp\n\tpushq %rbx\n\tpushq %r12\n\tpushq %r13\n\tpushq %r14\n\tpushq %r15\n"
        "\tmovq %rsp, (%rdi)\n"
        "\tmovq %rsi, %rsp\n"
        "\tpopq %r15\n\tpopq %r14\n\tpopq %r13\n\tpopq %r12\n\tpopq %rbx\n\tpopq %rbp\n"
        "\tret\n"
        ".size wp_co_switch, .-wp_co_switch\n");

static void
co_entry(void)
{
	struct co *co = cur;
	co_entered();
	co->fn(co->arg);
	co->done = 1;
	co_back(co);
	__builtin_unreachable();
}

/* The new stack as wp_co_switch leaves one: six saved registers, then
 * the address `ret` goes to, co_entry, entered as if called (its return
 * address slot below a 16-byte aligned top). */
static void
co_prepare(struct co *co)
{
	uintptr_t top = ((uintptr_t)co->stack + CO_STACK) & ~(uintptr_t)15;
	void **sp = (void **)top;

	*--sp = NULL;                   /* co_entry's return address: none */
	*--sp = (void *)(uintptr_t)co_entry;
	for (int i = 0; i < 6; i++)
		*--sp = NULL;
	co->sp = sp;
}

static void
raw_to(struct co *co)
{
	wp_co_switch(&co->back_sp, co->sp);
}

static void
raw_back(struct co *co)
{
	wp_co_switch(&co->sp, co->back_sp);
}
#else
static void
trampoline(unsigned hi, unsigned lo)
{
	struct co *co = (struct co *)(((uintptr_t)hi << 32) | (uintptr_t)lo);
	co_entered();
	co->fn(co->arg);
	co->done = 1;
	co_back(co);
}

static __attribute__((noinline)) void
co_prepare(struct co *co)
{
	getcontext(&co->ctx);
	co->ctx.uc_stack.ss_sp = co->stack;
	co->ctx.uc_stack.ss_size = CO_STACK;
	co->ctx.uc_link = NULL;
	makecontext(&co->ctx, (void (*)(void))trampoline, 2, (unsigned)((uintptr_t)co >> 32),
	            (unsigned)(uintptr_t)co);
}

static void
raw_to(struct co *co)
{
	ucontext_t back;
	co->back = &back;
	swapcontext(&back, &co->ctx);
}

static void
raw_back(struct co *co)
{
	swapcontext(&co->ctx, co->back);
}
#endif

/* From the loop into co, and back when it yields or ends. */
static void
co_to(struct co *co)
{
#ifdef WP_CO_ASAN
	void *fake = NULL;
	__sanitizer_start_switch_fiber(&fake, co->stack, CO_STACK);
#endif
#ifdef WP_CO_TSAN
	co->tsan_back = __tsan_get_current_fiber();
	__tsan_switch_to_fiber(co->tsan_fiber, 0);
#endif
	raw_to(co);
#ifdef WP_CO_ASAN
	__sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
}

/* From co back to its loop: co yields, or has ended (then for good). */
static void
co_back(struct co *co)
{
#ifdef WP_CO_ASAN
	__sanitizer_start_switch_fiber(co->done ? NULL : &co->asan_fake, loop_bottom, loop_size);
#endif
#ifdef WP_CO_TSAN
	__tsan_switch_to_fiber(co->tsan_back, 0);
#endif
	raw_back(co);
#ifdef WP_CO_ASAN
	__sanitizer_finish_switch_fiber(co->asan_fake, &loop_bottom, &loop_size);
#endif
}

/* First thing on a coroutine's stack. */
static void
co_entered(void)
{
#ifdef WP_CO_ASAN
	__sanitizer_finish_switch_fiber(NULL, &loop_bottom, &loop_size);
#endif
}

void *
wp_loop_new(void)
{
	struct loop *l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	l->ep = epoll_create1(EPOLL_CLOEXEC);
	if (l->ep < 0) {
		free(l);
		return NULL;
	}
	/* which descriptors are in ep already (beyond: added each time) */
	l->armed = calloc(65536, 1);
	l->narmed = l->armed ? 65536 : 0;
	return l;
}

/* After its thread ended: its coroutines' stacks (any still waiting, cut
 * off by the stop, with them), its epoll set. */
void
wp_loop_free(void *lv)
{
	struct loop *l = lv;

	if (!l)
		return;
	for (int pass = 0; pass < 2; pass++)
		for (struct co *co = pass ? l->waiting : l->free, *nx; co; co = nx) {
			nx = co->next;
			munmap((char *)co->stack - CO_GUARD, CO_STACK + CO_GUARD);
#ifdef WP_CO_TSAN
			__tsan_destroy_fiber(co->tsan_fiber);
#endif
			free(co);
		}
	close(l->ep);
	free(l->armed);
	free(l);
}

int
wp_loop_fd(void *l)
{
	return ((struct loop *)l)->ep;
}

void
wp_loop_enter(void *l)
{
	me = l;
}

/* Runs co until it ends or yields again; 1 when it ended (its stack is
 * then free for the next). */
static int
co_resume(struct co *co)
{
	cur = co;
	co_to(co);
	cur = NULL;
	if (co->done) {
		co->next = me->free;
		me->free = co;
		return 1;
	}
	return 0;
}

/* Runs fn(arg) in a coroutine until it ends or yields; returns it, or
 * NULL when it ended. */
void *
wp_co_start(void (*fn)(void *), void *arg)
{
	struct co *co = me->free;

	if (co)
		me->free = co->next;
	else {
		void *m = mmap(NULL, CO_STACK + CO_GUARD, PROT_READ | PROT_WRITE,
		               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
		if (m == MAP_FAILED || !(co = calloc(1, sizeof(*co)))) {
			/* no memory for one: the request runs here, and may block */
			if (m != MAP_FAILED)
				munmap(m, CO_STACK + CO_GUARD);
			fn(arg);
			return NULL;
		}
		mprotect(m, CO_GUARD, PROT_NONE);
		co->stack = (char *)m + CO_GUARD;
		co->loop = me;
#ifdef WP_CO_TSAN
		co->tsan_fiber = __tsan_create_fiber(0);
#endif
	}
	co->fn = fn;
	co->arg = arg;
	co->done = 0;
	co_prepare(co);
	return co_resume(co) ? NULL : co;
}

/* The hook of health.c's wait_socket: -2 outside a coroutine. */
int
wp_co_wait_fd(int fd, short events, int timeout_ms)
{
	struct co *co = cur;
	struct epoll_event ev = {.events = EPOLLONESHOT, .data.ptr = co};

	if (!co)
		return -2;
	if (fd < 0)
		goto wait;
	if (events & POLLIN)
		ev.events |= EPOLLIN;
	if (events & POLLOUT)
		ev.events |= EPOLLOUT;
	if (fd < me->narmed && me->armed[fd]) {
		if (epoll_ctl(me->ep, EPOLL_CTL_MOD, fd, &ev) != 0) {
			if (errno != ENOENT || epoll_ctl(me->ep, EPOLL_CTL_ADD, fd, &ev) != 0)
				return -2;   /* the caller polls, blocking the loop */
		}
	} else {
		if (epoll_ctl(me->ep, EPOLL_CTL_ADD, fd, &ev) != 0) {
			if (errno != EEXIST || epoll_ctl(me->ep, EPOLL_CTL_MOD, fd, &ev) != 0)
				return -2;
		}
		if (fd < me->narmed)
			me->armed[fd] = 1;
	}
wait:
	co->ready = 0;
	co->waiting = 1;
	co->deadline = wp_now_ns() + (int64_t)timeout_ms * 1000000;
	co->next = me->waiting;
	me->waiting = co;
	co_back(co);
	return co->ready;
}

static void
unwait(struct loop *l, struct co *co)
{
	for (struct co **p = &l->waiting; *p; p = &(*p)->next)
		if (*p == co) {
			*p = co->next;
			break;
		}
	co->waiting = 0;
}

/* One round of the loop: waits up to timeout_ms (less when a waiting
 * coroutine's deadline is nearer), resumes the coroutines whose socket is
 * ready or whose deadline passed, and calls done(arg) for each that
 * ended; returns bit 1 when mark (libmicrohttpd's epoll set) was ready,
 * bit 2 when mark2 (the loop's eventfd) was. */
int
wp_loop_round(void *lv, void *mark, void *mark2, int timeout_ms, void (*done)(void *))
{
	struct loop *l = lv;
	struct epoll_event evs[64];
	int n, hit = 0;
	int64_t now;

	now = wp_now_ns();
	for (struct co *co = l->waiting; co; co = co->next) {
		int64_t ms = (co->deadline - now + 999999) / 1000000;
		if (ms < timeout_ms)
			timeout_ms = ms < 0 ? 0 : (int)ms;
	}
	n = epoll_wait(l->ep, evs, 64, timeout_ms);
	for (int i = 0; i < n; i++) {
		if (evs[i].data.ptr == mark) {
			hit |= 1;
			continue;
		}
		if (evs[i].data.ptr == mark2) {
			hit |= 2;
			continue;
		}
		struct co *co = evs[i].data.ptr;
		if (!co->waiting)
			continue;
		unwait(l, co);
		co->ready = 1;
		void *arg = co->arg;
		if (co_resume(co))
			done(arg);
	}
	now = wp_now_ns();
	for (struct co *co = l->waiting, *nx; co; co = nx) {
		nx = co->next;
		if (co->deadline <= now) {
			unwait(l, co);
			co->ready = 0;
			void *arg = co->arg;
			if (co_resume(co))
				done(arg);
		}
	}
	return hit;
}

/* --- The blocking pool ---
 * Work that may block on something other than the database (the PNG
 * renderer's pipe, the health monitor's answer; wp_blocking()) runs on
 * a thread of this pool while its coroutine waits on an eventfd the
 * thread writes when done, and the loop serves the others meanwhile.
 * Threads start as needed, up to BLOCKING_MAX, and then stay. */
#define BLOCKING_MAX 8

struct job {
	void (*fn)(void *);
	void *arg;
	int efd;
	struct job *next;
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t cv;
	struct job *head, **tail;
	unsigned threads, idle, queued;
} bp = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, &bp.head, 0, 0, 0};

static void *
blocking_main(void *unused)
{
	(void)unused;
	wp_json_thread_init();   /* what runs here may parse: core/json.c */
	pthread_mutex_lock(&bp.lock);
	for (;;) {
		while (!bp.head) {
			bp.idle++;
			pthread_cond_wait(&bp.cv, &bp.lock);
			bp.idle--;
		}
		struct job *j = bp.head;
		if (!(bp.head = j->next))
			bp.tail = &bp.head;
		bp.queued--;
		pthread_mutex_unlock(&bp.lock);
		int efd = j->efd;  /* j is the coroutine's: gone once told */
		uint64_t one = 1;
		j->fn(j->arg);
		/* write() and read(), not eventfd_write() and eventfd_read():
		 * ThreadSanitizer sees these as the hand-over they are */
		if (write(efd, &one, sizeof(one)) != sizeof(one))
			abort();   /* an eventfd's counter cannot overflow here */
		pthread_mutex_lock(&bp.lock);
	}
	return NULL;
}

/* wp_offload_hook: 0 when fn ran on the pool, -1 when the caller runs it
 * (outside a coroutine, or no eventfd or thread to be had). */
int
wp_co_offload(void (*fn)(void *), void *arg)
{
	struct job j = {fn, arg, -1, NULL};
	uint64_t v;

	if (!cur || (j.efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0)
		return -1;
	pthread_mutex_lock(&bp.lock);
	/* a thread more unless one is idle for this job (not for one queued
	 * before it, not yet taken) */
	if (bp.idle <= bp.queued && bp.threads < BLOCKING_MAX) {
		pthread_t t;
		pthread_attr_t a;
		pthread_attr_init(&a);
		pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
		if (pthread_create(&t, &a, blocking_main, NULL) == 0)
			bp.threads++;
		pthread_attr_destroy(&a);
	}
	if (bp.threads == 0) {
		pthread_mutex_unlock(&bp.lock);
		close(j.efd);
		return -1;
	}
	*bp.tail = &j;
	bp.tail = &j.next;
	bp.queued++;
	pthread_cond_signal(&bp.cv);
	pthread_mutex_unlock(&bp.lock);
	while (read(j.efd, &v, sizeof(v)) != sizeof(v)) {
		if (wp_co_wait_fd(j.efd, POLLIN, 1000) == -2) {
			struct pollfd p = {.fd = j.efd, .events = POLLIN};
			poll(&p, 1, 1000);
		}
	}
	close(j.efd);
	return 0;
}
