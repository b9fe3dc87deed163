/* A fatal signal leaves a backtrace in the log (issue 24, item 1): the
 * crash of warpostd that no log line explained. The handler uses only
 * async-signal-safe calls (write, and glibc's backtrace, whose library is
 * loaded beforehand), then hands the signal to the action that was there
 * before it: the default one, which dumps core where that is allowed
 * (scripts/run.sh and the Compose file allow it; README "Crashes"), or a
 * sanitizer's, which then prints its own report. */
#define _GNU_SOURCE /* sigabbrev_np */
#include <execinfo.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "core.h"

static const int fatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGSYS};
#define NFATAL (sizeof(fatal) / sizeof(fatal[0]))
static struct sigaction before[NFATAL];

static void
put(const char *s)
{
	size_t n = strlen(s);
	while (n) {
		ssize_t k = write(STDERR_FILENO, s, n);
		if (k <= 0)
			return;
		s += k;
		n -= (size_t)k;
	}
}

/* n in base 10 or 16, without printf (not async-signal-safe). */
static void
put_num(unsigned long n, unsigned base)
{
	char buf[24];
	int i = (int)sizeof(buf) - 1;

	buf[i] = '\0';
	do {
		buf[--i] = "0123456789abcdef"[n % base];
		n /= base;
	} while (n && i > 0);
	put(buf + i);
}

static void
on_fatal(int sig, siginfo_t *si, void *uc)
{
	void *frames[64];
	int n;
	size_t k;

	(void)uc;
	/* this thread's held access-log lines (core/log.c) first: the
	 * requests before the crash */
	wp_log_flush();
	put("warpostd: fatal signal ");
	put_num((unsigned long)sig, 10);
	put(" (");
	put(sigabbrev_np(sig) ? sigabbrev_np(sig) : "?");
	put(") at address 0x");
	put_num((unsigned long)(si ? si->si_addr : 0), 16);
	put(" in pid ");
	put_num((unsigned long)getpid(), 10);
	put("; backtrace (addr2line -e warpostd -f OFFSET names a +0x frame):\n");
	n = backtrace(frames, 64);
	backtrace_symbols_fd(frames, n, STDERR_FILENO);
	put("warpostd: end of backtrace\n");
	for (k = 0; k < NFATAL && fatal[k] != sig; k++)
		;
	/* The action from before us: a fault returns to the instruction
	 * and faults again into it; a sent signal is sent again. */
	if (k < NFATAL)
		sigaction(sig, &before[k], NULL);
	else
		signal(sig, SIG_DFL);
	if (si && si->si_code <= 0)
		raise(sig);
}

void
wp_crash_handlers(void)
{
	static char altstack[64 * 1024];
	stack_t ss = {.ss_sp = altstack, .ss_size = sizeof(altstack)};
	struct sigaction sa;
	void *warm[1];

	/* The first backtrace() loads libgcc_s (dlopen, malloc): not in a
	 * handler. */
	backtrace(warm, 1);
	/* A stack overflow of the main thread still gets its report. */
	sigaltstack(&ss, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fatal;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	for (size_t k = 0; k < NFATAL; k++)
		sigaction(fatal[k], &sa, &before[k]);
}
