/* The baseline for the GET benchmarks (issue "Performance"): the leanest
 * libmicrohttpd server doing the same work as a 304 or a static file --
 * one fixed answer from memory, with the same daemon shape as warpostd
 * (epoll thread pool, THREADS workers, the response queued on the second
 * call of the handler, see STYLE.md, warpostd's default connection pool:
 * libmicrohttpd zeroes the whole pool between keep-alive requests, so its
 * default 32 KiB made this baseline spend 10 to 30% more CPU a request). Usage: baremhd PORT [THREADS] [FILE]
 * answers every GET with FILE's bytes (default: a ~200-byte JSON body),
 * and with 304 when If-None-Match matches its ETag. Runs until SIGTERM. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <microhttpd.h>

static const char *etag = "\"bare-1\"";
static struct MHD_Response *body_resp, *not_modified;
static volatile sig_atomic_t stop;

static void
on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static enum MHD_Result
on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
           const char *version, const char *upload, size_t *upload_size, void **ctx)
{
	static int first;
	const char *inm;

	if (!*ctx) {          /* answer on the second call, as warpostd does */
		*ctx = &first;
		return MHD_YES;
	}
	inm = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH);
	if (inm && strcmp(inm, etag) == 0)
		return MHD_queue_response(c, MHD_HTTP_NOT_MODIFIED, not_modified);
	return MHD_queue_response(c, MHD_HTTP_OK, body_resp);
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, f) == (size_t)n)
		*len = (size_t)n;
	else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

int
main(int argc, char **argv)
{
	static const char json[] =
		"{\"id\":1,\"ruleset\":\"skirmish-test\",\"status\":\"active\",\"seq\":12,"
		"\"awaiting\":[0],\"seats\":[{\"seat\":0,\"name\":\"Bench A\"},{\"seat\":1,"
		"\"name\":\"Bench B\"}],\"view\":{\"turn\":6,\"pieces\":[\"d2\",\"e7\"]},"
		"\"result\":null,\"draw_offer\":null}";
	unsigned port = argc > 1 ? (unsigned)atoi(argv[1]) : 8099;
	unsigned threads = argc > 2 ? (unsigned)atoi(argv[2]) : 4;
	size_t len = sizeof(json) - 1;
	char *file = argc > 3 ? slurp(argv[3], &len) : NULL;
	struct MHD_Daemon *d;

	if (argc > 3 && !file) {
		perror(argv[3]);
		return 1;
	}
	body_resp = file ? MHD_create_response_from_buffer(len, file, MHD_RESPMEM_MUST_FREE)
	                 : MHD_create_response_from_buffer(len, (void *)json, MHD_RESPMEM_PERSISTENT);
	not_modified = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
	MHD_add_response_header(body_resp, MHD_HTTP_HEADER_CONTENT_TYPE,
	                        file ? "text/javascript" : "application/json");
	MHD_add_response_header(body_resp, MHD_HTTP_HEADER_ETAG, etag);
	MHD_add_response_header(not_modified, MHD_HTTP_HEADER_ETAG, etag);
	d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL, (uint16_t)port, NULL,
	                     NULL, on_request, NULL, MHD_OPTION_THREAD_POOL_SIZE, threads,
	                     MHD_OPTION_CONNECTION_LIMIT, 1024u, MHD_OPTION_CONNECTION_TIMEOUT, 30u,
	                     MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)3072,
	                     MHD_OPTION_END);
	if (!d) {
		fprintf(stderr, "baremhd: cannot listen on port %u\n", port);
		return 1;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	while (!stop)
		pause();
	MHD_stop_daemon(d);
	MHD_destroy_response(body_resp);
	MHD_destroy_response(not_modified);
	return 0;
}
