/* Logs go to stderr, one line each, so that a supervisor (systemd,
 * docker) collects them. A line is written with one write() so lines of
 * concurrent requests do not interleave (an event loop's access lines a
 * round at a time: wp_log_hold, below). */
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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

/* An event loop's thread (front/http.c) holds its access-log lines and
 * writes those of one round of its loop with one write(), after the round
 * (wp_log_flush): a write() a request was a tenth of warpostd's CPU a turn
 * on the bench (issue 32). At most PIPE_BUF bytes go at once, which a pipe
 * (docker, systemd) takes whole, between other threads' lines. Other lines
 * (wp_log) are written at once, after what is held, in order. */
static _Thread_local char *held;
static _Thread_local size_t held_len;

void
wp_log_flush(void)
{
	if (held && held_len) {
		(void)!write(STDERR_FILENO, held, held_len);
		held_len = 0;
	}
}

void
wp_log_hold(int on)
{
	wp_log_flush();
	if (on && !held)
		held = malloc(PIPE_BUF);   /* none: lines are written at once */
	else if (!on) {
		free(held);
		held = NULL;
	}
}

static void
emit(char *line, size_t len, size_t cap, int may_hold)
{
	if (len >= cap - 1)
		len = cap - 2;
	line[len++] = '\n';
	if (may_hold && held && len <= PIPE_BUF) {
		if (held_len + len > PIPE_BUF)
			wp_log_flush();
		memcpy(held + held_len, line, len);
		held_len += len;
		return;
	}
	wp_log_flush();
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

/* Appends s (at most cap - 1 bytes in all), and a decimal number of at
 * least `digits` digits: the access line is made without printf, which
 * was half of the line's cost (issue 32). */
static size_t
put_str(char *line, size_t n, size_t cap, const char *s)
{
	while (*s && n + 1 < cap)
		line[n++] = *s++;
	return n;
}

static size_t
put_num(char *line, size_t n, size_t cap, uint64_t v, int digits)
{
	char d[24];
	int k = 0;

	do
		d[k++] = (char)('0' + v % 10);
	while ((v /= 10) != 0 || k < digits);
	while (k > 0 && n + 1 < cap)
		line[n++] = d[--k];
	return n;
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
	size_t n = stamp(line, sizeof(line)), cap = sizeof(line);
	n = put_str(line, n, cap, req->method ? req->method : "-");
	n = put_str(line, n, cap, " ");
	n = put_str(line, n, cap, path);
	n = put_str(line, n, cap, status < 0 ? " -" : " ");
	n = put_num(line, n, cap, (uint64_t)(status < 0 ? -(int64_t)status : status), 1);
	n = put_str(line, n, cap, " ");
	n = put_num(line, n, cap, cs / 100, 1);
	n = put_str(line, n, cap, ".");
	n = put_num(line, n, cap, cs % 100, 2);
	n = put_str(line, n, cap, "ms ");
	n = put_str(line, n, cap, req->peer[0] ? req->peer : "-");
	emit(line, n, cap, 1);
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
	emit(line, n < sizeof(line) ? n : sizeof(line) - 1, sizeof(line), 0);
}
