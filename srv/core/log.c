/* Logs go to stderr, one line each, so that a supervisor (systemd,
 * docker) collects them. A line is written with one write() so lines of
 * concurrent requests do not interleave. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "wp.h"

/* The stamp is made once a second on each thread: gmtime_r and strftime
 * for every access-log line were a third of the line's cost (issue 32). */
static size_t
stamp(char *buf, size_t cap)
{
	static _Thread_local time_t sec = -1;
	static _Thread_local char text[32];
	static _Thread_local size_t len;
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (ts.tv_sec != sec) {
		gmtime_r(&ts.tv_sec, &tm);
		len = strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ ", &tm);
		sec = ts.tv_sec;
	}
	if (len >= cap)
		return 0;
	memcpy(buf, text, len);
	return len;
}

static void
emit(char *line, size_t len, size_t cap)
{
	if (len >= cap - 1)
		len = cap - 2;
	line[len++] = '\n';
	(void)!write(STDERR_FILENO, line, len);
}

/* Paths are logged without the query: queries may carry codes. Control
 * characters are escaped so a client cannot forge log lines. */
static int quiet;

void
wp_log_quiet(int on)
{
	quiet = on;
}

void
wp_log_request(const struct wp_request *req, int status)
{
	char line[1024], path[256];
	size_t o = 0;
	/* Hundredths of a millisecond, rounded, printed as "%.2f" would. */
	uint64_t cs = req->start_ns ? ((uint64_t)(wp_now_ns() - req->start_ns) + 5000) / 10000 : 0;

	for (const char *p = req->path ? req->path : "-"; *p && o + 5 < sizeof(path); p++) {
		unsigned char c = (unsigned char)*p;
		if (c < 0x20 || c == 0x7f || c == ' ')
			o += (size_t)snprintf(path + o, sizeof(path) - o, "\\x%02x", c);
		else
			path[o++] = (char)c;
	}
	path[o] = '\0';
	if (quiet)
		return;
	size_t n = stamp(line, sizeof(line));
	n += (size_t)snprintf(line + n, sizeof(line) - n, "%s %s %d %" PRIu64 ".%02ums %s",
	                      req->method ? req->method : "-", path, status, cs / 100,
	                      (unsigned)(cs % 100), req->peer[0] ? req->peer : "-");
	emit(line, n, sizeof(line));
}

void
wp_log(const char *fmt, ...)
{
	char line[2048];
	va_list ap;
	if (quiet)
		return;
	size_t n = stamp(line, sizeof(line));

	va_start(ap, fmt);
	int r = vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	va_end(ap);
	n += r < 0 ? 0 : (size_t)r;
	emit(line, n < sizeof(line) ? n : sizeof(line) - 1, sizeof(line));
}
