#define _GNU_SOURCE
/* turnload: posts turns of the test ruleset (Skirmish) from N client
 * threads over many matches, on keep-alive HTTP/1.1 connections, for a
 * fixed time, and prints turns/s and latency percentiles. Matches come
 * from a file, one per line: "GAME SEQ TOKEN0 TOKEN1". Each seat moves a
 * Scout back and forth (d1<->d2, d8<->d7), always legal.
 * Usage: turnload HOST PORT FILE THREADS SECONDS */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct match {
	long id;
	int seq, turns;
	char tok[2][65];
};

static struct match *matches;
static int nmatches, nthreads;
static double seconds;
static const char *host;
static int port;
static double *lat;
static long *nlat;
static long errors;
static pthread_mutex_t err_lock = PTHREAD_MUTEX_INITIALIZER;
#define MAX_SAMPLES 2000000

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int
dial(void)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;

	inet_pton(AF_INET, host, &a.sin_addr);
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
		close(fd);
		return -1;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

/* Sends one request and reads the whole response; returns the status. */
static int
roundtrip(int *fd, const char *req, size_t len)
{
	char buf[16384];
	size_t have = 0;
	long body = -1;
	char *hdr_end = NULL;

	for (int attempt = 0; attempt < 2; attempt++) {
		if (*fd < 0 && (*fd = dial()) < 0)
			return -1;
		if (write(*fd, req, len) == (ssize_t)len)
			break;
		close(*fd);
		*fd = -1;
	}
	for (;;) {
		ssize_t n = read(*fd, buf + have, sizeof(buf) - 1 - have);
		if (n <= 0) {
			close(*fd);
			*fd = -1;
			return -1;
		}
		have += (size_t)n;
		buf[have] = '\0';
		if (!hdr_end && (hdr_end = strstr(buf, "\r\n\r\n")) != NULL) {
			char *cl = strcasestr(buf, "Content-Length:");
			body = cl ? atol(cl + 15) : 0;
		}
		if (hdr_end && (long)(have - (size_t)(hdr_end + 4 - buf)) >= body)
			break;
	}
	if (strcasestr(buf, "Connection: close")) {
		close(*fd);
		*fd = -1;
	}
	return atoi(buf + 9);
}

static void *
client(void *arg)
{
	long t = (long)arg;
	int fd = -1;
	char req[1024], body[256];
	double end = now() + seconds;
	double *mylat = lat + (size_t)t * (MAX_SAMPLES / nthreads);
	long *mycount = &nlat[t];

	while (now() < end) {
		for (int i = (int)t; i < nmatches && now() < end; i += nthreads) {
			struct match *m = &matches[i];
			int seat = m->turns % 2, there = (m->turns / 2) % 2;
			const char *from = seat ? (there ? "d7" : "d8") : (there ? "d2" : "d1");
			const char *to = seat ? (there ? "d8" : "d7") : (there ? "d1" : "d2");
			int blen = snprintf(body, sizeof(body),
			                    "{\"seq\":%d,\"actions\":[{\"type\":\"move\",\"from\":\"%s\","
			                    "\"to\":\"%s\"}]}", m->seq, from, to);
			int len = snprintf(req, sizeof(req),
			                   "POST /api/games/%ld/turns HTTP/1.1\r\nHost: bench\r\n"
			                   "Authorization: Bearer %s\r\nContent-Type: application/json\r\n"
			                   "Content-Length: %d\r\n\r\n%s", m->id, m->tok[seat], blen, body);
			double t0 = now();
			int status = roundtrip(&fd, req, (size_t)len);
			double dt = now() - t0;
			if (status == 200) {
				m->seq++;
				m->turns++;
				if (*mycount < MAX_SAMPLES / nthreads)
					mylat[(*mycount)++] = dt;
			} else {
				pthread_mutex_lock(&err_lock);
				errors++;
				pthread_mutex_unlock(&err_lock);
			}
		}
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int
main(int argc, char **argv)
{
	FILE *f;
	pthread_t th[256];

	if (argc != 6)
		return fprintf(stderr, "usage: turnload HOST PORT FILE THREADS SECONDS\n"), 2;
	host = argv[1];
	port = atoi(argv[2]);
	nthreads = atoi(argv[4]);
	seconds = atof(argv[5]);
	if (nthreads < 1 || nthreads > 256 || !(f = fopen(argv[3], "r")))
		return 2;
	matches = calloc(100000, sizeof(*matches));
	while (nmatches < 100000 &&
	       fscanf(f, "%ld %d %64s %64s", &matches[nmatches].id, &matches[nmatches].seq,
	              matches[nmatches].tok[0], matches[nmatches].tok[1]) == 4) {
		/* The first turn is seq 1: a match played before goes on from where it is. */
		matches[nmatches].turns = matches[nmatches].seq - 1;
		nmatches++;
	}
	fclose(f);
	lat = calloc(MAX_SAMPLES, sizeof(*lat));
	nlat = calloc((size_t)nthreads, sizeof(*nlat));
	double t0 = now();
	for (long i = 0; i < nthreads; i++)
		pthread_create(&th[i], NULL, client, (void *)i);
	for (int i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	double elapsed = now() - t0;
	long total = 0;
	for (int i = 0; i < nthreads; i++) {
		memmove(lat + total, lat + (size_t)i * (MAX_SAMPLES / nthreads), (size_t)nlat[i] * sizeof(double));
		total += nlat[i];
	}
	qsort(lat, (size_t)total, sizeof(double), cmp);
	if (!total)
		return printf("turns 0 errors %ld\n", errors), 1;
	printf("turns %ld errors %ld seconds %.2f turns_per_s %.1f p50_ms %.2f p90_ms %.2f p99_ms %.2f max_ms %.2f\n",
	       total, errors, elapsed, total / elapsed, lat[total / 2] * 1e3,
	       lat[total * 9 / 10] * 1e3, lat[total * 99 / 100] * 1e3, lat[total - 1] * 1e3);
	return errors ? 1 : 0;
}
