/* The FastCGI and CGI fronts (RFC 3875 variables), one translation for
 * both: a request arrives as an environment array plus a body stream,
 * whether libfcgi hands them over from a socket or the web server starts
 * us as a CGI program. libfcgi is the Debian build with the
 * CVE-2025-23016 fix (2.4.2-2+deb12u1). */
#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <fcgiapp.h>

#include "fronts.h"
#include "wait.h"

extern char **environ;

typedef int (*read_fn)(void *io, char *buf, int n);
typedef void (*write_fn)(void *io, const char *buf, size_t n);

static const char *
env_get(char **envp, const char *name)
{
	size_t n = strlen(name);
	for (char **e = envp; e && *e; e++)
		if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

/* HTTP_ACCEPT_LANGUAGE -> Accept-Language */
static char *
header_name(const char *var, size_t len)
{
	char *out = malloc(len + 1);
	int up = 1;

	if (!out)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		char c = var[i];
		if (c == '_') {
			out[i] = '-';
			up = 1;
			continue;
		}
		out[i] = up ? (char)toupper((unsigned char)c) : (char)tolower((unsigned char)c);
		up = 0;
	}
	out[len] = '\0';
	return out;
}

static void
add_header(struct wp_request *req, char *name, const char *value)
{
	if (!name)
		return;
	if (req->nheaders == WP_MAX_HEADERS) {
		free(name);
		return;
	}
	req->headers[req->nheaders].name = name;
	req->headers[req->nheaders].value = strdup(value);
	req->nheaders++;
}

/* Copies everything out of envp: libfcgi reuses its memory for the next
 * request. */
static void
build_request(char **envp, size_t max_body, struct wp_request *req, read_fn rd, void *io)
{
	const char *uri = env_get(envp, "REQUEST_URI");
	const char *cl = env_get(envp, "CONTENT_LENGTH");
	const char *ct = env_get(envp, "CONTENT_TYPE");
	const char *peer = env_get(envp, "REMOTE_ADDR");
	const char *method = env_get(envp, "REQUEST_METHOD");
	unsigned long long want = 0;

	req->start_ns = wp_now_ns();
	/* RFC 3875, 4.1.12: REQUEST_METHOD is required; without one there is
	 * no request to guess (the answer is written as for a GET). */
	if (!method || !*method)
		req->bad_framing = "the request has no REQUEST_METHOD";
	req->method = strdup(method && *method ? method : "GET");
	if (uri) {
		size_t plen = strcspn(uri, "?");
		req->path = strndup(uri, plen);
		req->query = strdup(uri[plen] ? uri + plen + 1 : "");
	} else {
		/* Without REQUEST_URI the server gave only decoded parts. */
		const char *sn = env_get(envp, "SCRIPT_NAME");
		const char *pi = env_get(envp, "PATH_INFO");
		const char *qs = env_get(envp, "QUERY_STRING");
		size_t n = strlen(sn ? sn : "") + strlen(pi ? pi : "") + 2;
		req->path = malloc(n);
		if (req->path)
			snprintf(req->path, n, "%s%s", sn ? sn : "", pi ? pi : "");
		req->query = strdup(qs ? qs : "");
	}
	snprintf(req->peer, sizeof(req->peer), "%s", peer ? peer : "");
	for (char **e = envp; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		if (eq && strncmp(*e, "HTTP_", 5) == 0 && eq - *e > 5)
			add_header(req, header_name(*e + 5, (size_t)(eq - *e - 5)), eq + 1);
	}
	if (ct && *ct)
		add_header(req, strdup("Content-Type"), ct);
	if (cl && *cl) {
		/* RFC 9110, 8.6: Content-Length = 1*DIGIT, nothing else (no sign,
		 * no space); too many digits is only too large. */
		size_t nd = strspn(cl, "0123456789");
		if (cl[nd] != '\0') {
			if (!req->bad_framing)
				req->bad_framing = "CONTENT_LENGTH is not a decimal number";
			return;
		}
		for (size_t i = 0; i < nd && want <= max_body; i++)
			want = want * 10 + (unsigned long long)(cl[i] - '0');
		add_header(req, strdup("Content-Length"), cl);
	}
	if (req->bad_framing)
		return;
	if (want > max_body) {
		/* Refused unread (RFC 9110, 15.5.14). */
		req->body_too_large = 1;
		return;
	}
	if (want == 0)
		return;
	req->body = malloc((size_t)want);
	if (!req->body) {
		req->body_too_large = 1;
		return;
	}
	while (req->body_len < want) {
		int got = rd(io, req->body + req->body_len, (int)(want - req->body_len));
		if (got <= 0)
			break;
		req->body_len += (size_t)got;
	}
	if (req->body_len < want)
		req->bad_framing = "the body is shorter than its Content-Length, or came too slowly";
}

static void
write_response(const struct wp_request *req, const struct wp_response *res, write_fn wr,
               void *io)
{
	char line[2048];
	int n;

	n = snprintf(line, sizeof(line), "Status: %d %s\r\n", res->status,
	             wp_status_text(res->status));
	wr(io, line, (size_t)n);
	for (size_t i = 0; i < res->nheaders; i++) {
		n = snprintf(line, sizeof(line), "%s: %s\r\n", res->headers[i].name,
		             res->headers[i].value);
		if (n > 0 && (size_t)n < sizeof(line))
			wr(io, line, (size_t)n);
	}
	if (res->status != 304) {
		n = snprintf(line, sizeof(line), "Content-Length: %zu\r\n", res->body_len);
		wr(io, line, (size_t)n);
	}
	wr(io, "\r\n", 2);
	/* A lent body (a static file) is written from where it is, and
	 * wp_response_free gives it back, never frees it. */
	if (strcmp(req->method, "HEAD") != 0 && res->body_len)
		wr(io, res->body, res->body_len);
}

/* Builds, serves and writes one request that never waits (plain CGI). */
static void
serve_env(char **envp, size_t max_body, read_fn rd, write_fn wr, void *io)
{
	struct wp_request req = {0};
	struct wp_response res = {0};

	build_request(envp, max_body, &req, rd, io);
	if (!req.method || !req.path || !req.query) {
		req.body_too_large = 0;
		wp_response_problem(&res, WP_ERR_INTERNAL, "out of memory");
	} else {
		wp_serve(&req, &res);
	}
	write_response(&req, &res, wr, io);
	wp_response_free(&res);
	wp_request_free(&req);
}

/* --- FastCGI ---
 * Accept workers (THREADS) read requests and serve them. A long-poll does
 * not keep its worker (issue 16, item 6): the request is parked in the
 * wait registry with its FastCGI connection, no thread; when it is woken
 * (a change, its deadline, nginx hanging up because its client left) an
 * answer thread (THREADS of them too) serves it again and writes the
 * answer, or drops it when nginx is gone. Before working on a request a
 * worker checks that nginx still wants it: one whose connection nginx has
 * closed is dropped, and one that waited in the socket's queue longer than
 * FCGI_QUEUE_TIMEOUT (nginx's WARPOST_QUEUED_AT says when it was sent) is
 * answered 503 overloaded, unworked. */

struct fcgi_job {
	FCGX_Request r;
	struct wp_request req;
	struct wp_waiter w;      /* while parked */
	struct wp_fcgi *f;
	struct fcgi_job *next;   /* in the woken queue */
};

struct wp_fcgi {
	int sock;
	char *path;
	size_t max_body;
	int64_t queue_timeout_ms;
	unsigned nthreads;
	pthread_t *threads;      /* nthreads accept workers, then nthreads answer threads */
	pthread_mutex_t accept_lock;
	pthread_mutex_t lock;    /* guards what follows */
	pthread_cond_t cv;
	struct fcgi_job *woken, *woken_tail;
	unsigned parked;
	int draining;            /* answer threads end once nothing is parked or woken */
};

static int
fcgi_read(void *io, char *buf, int n)
{
	return FCGX_GetStr(buf, n, ((FCGX_Request *)io)->in);
}

static void
fcgi_write(void *io, const char *buf, size_t n)
{
	FCGX_PutStr(buf, (int)n, ((FCGX_Request *)io)->out);
}

static void
job_end(struct fcgi_job *job)
{
	FCGX_Finish_r(&job->r);
	wp_request_free(&job->req);
	free(job);
}

/* nginx closed the connection: its client left. Nothing is answered;
 * the log says 499, nginx's own code for a client that closed first. */
static void
job_drop(struct fcgi_job *job)
{
	wp_log_request(&job->req, WP_STATUS_CLIENT_LEFT);
	job_end(job);
}

static void
job_answer(struct fcgi_job *job, struct wp_response *res)
{
	write_response(&job->req, res, fcgi_write, &job->r);
	wp_response_free(res);
	job_end(job);
}

/* Called once by the wait registry (any thread): queue the job for an
 * answer thread. */
static void
job_woken(struct wp_waiter *w)
{
	struct fcgi_job *job = w->arg;
	struct wp_fcgi *f = job->f;

	pthread_mutex_lock(&f->lock);
	job->next = NULL;
	if (f->woken_tail)
		f->woken_tail->next = job;
	else
		f->woken = job;
	f->woken_tail = job;
	f->parked--;
	pthread_cond_signal(&f->cv);
	pthread_mutex_unlock(&f->lock);
}

/* Serves the job: answers it, or parks it when it waits. */
static void
job_serve(struct wp_fcgi *f, struct fcgi_job *job)
{
	struct wp_response res = {0};

	job->req.can_wait = !wp_wait_stopping();
	wp_serve(&job->req, &res);
	if (res.status != 0 || !res.wait_game) {
		job_answer(job, &res);
		return;
	}
	job->req.wait_until_ns = res.wait_until_ns;
	job->req.again = 1;
	job->w = (struct wp_waiter){.game = res.wait_game, .gen_seen = res.wait_gen,
	                            .deadline_ns = res.wait_until_ns, .wake = job_woken,
	                            .arg = job, .fd = job->r.ipcFd, .watch_fd = 1};
	wp_response_free(&res);
	pthread_mutex_lock(&f->lock);
	f->parked++;
	pthread_mutex_unlock(&f->lock);
	wp_wait_add(&job->w);
}

/* How long ago, in ms, nginx sent the request (its $msec), or -1. */
static int64_t
queued_ms(char **envp)
{
	const char *at = env_get(envp, "WARPOST_QUEUED_AT");
	struct timespec now;
	char *end;
	double sent;

	if (!at || !*at)
		return -1;
	sent = strtod(at, &end);
	if (*end || sent <= 0)
		return -1;
	clock_gettime(CLOCK_REALTIME, &now);
	return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000 - (int64_t)(sent * 1000.0);
}

/* A newly accepted job: dropped, refused or served. */
static void
job_start(struct wp_fcgi *f, struct fcgi_job *job)
{
	struct wp_response res = {0};

	build_request(job->r.envp, f->max_body, &job->req, fcgi_read, &job->r);
	if (!job->req.method || !job->req.path || !job->req.query) {
		job->req.body_too_large = 0;
		wp_response_problem(&res, WP_ERR_INTERNAL, "out of memory");
		job_answer(job, &res);
		return;
	}
	if (wp_hung_up(job->r.ipcFd)) {    /* nginx closed it: its client left */
		job_drop(job);
		return;
	}
	if (queued_ms(job->r.envp) > f->queue_timeout_ms) {
		wp_response_problem(&res, WP_ERR_OVERLOADED,
		                    "the request waited too long to be served; try again later");
		wp_response_header(&res, "Retry-After", WP_OVERLOAD_RETRY_AFTER);
		wp_response_header(&res, "Cache-Control", "no-store");
		wp_response_header(&res, "X-Content-Type-Options", "nosniff");
		wp_log_request(&job->req, res.status);
		job_answer(job, &res);
		return;
	}
	job_serve(f, job);
}

static void *
fcgi_worker(void *arg)
{
	struct wp_fcgi *f = arg;

	for (;;) {
		struct fcgi_job *job = calloc(1, sizeof(*job));
		int rc;
		if (!job || FCGX_InitRequest(&job->r, f->sock, 0) != 0) {
			free(job);
			break;
		}
		job->f = f;
		pthread_mutex_lock(&f->accept_lock);
		rc = FCGX_Accept_r(&job->r);
		pthread_mutex_unlock(&f->accept_lock);
		if (rc < 0) {
			FCGX_Free(&job->r, 1);
			free(job);
			break;
		}
		job_start(f, job);
	}
	return NULL;
}

static void *
fcgi_answerer(void *arg)
{
	struct wp_fcgi *f = arg;

	pthread_mutex_lock(&f->lock);
	for (;;) {
		while (!f->woken && !(f->draining && f->parked == 0))
			pthread_cond_wait(&f->cv, &f->lock);
		struct fcgi_job *job = f->woken;
		if (!job)
			break;
		f->woken = job->next;
		if (!f->woken)
			f->woken_tail = NULL;
		pthread_mutex_unlock(&f->lock);
		if (job->w.gone)
			job_drop(job);
		else
			job_serve(f, job);
		pthread_mutex_lock(&f->lock);
	}
	pthread_cond_broadcast(&f->cv);
	pthread_mutex_unlock(&f->lock);
	return NULL;
}

struct wp_fcgi *
wp_fcgi_start(const struct wp_config *cfg)
{
	struct wp_fcgi *f = calloc(1, sizeof(*f));

	if (!f || FCGX_Init() != 0) {
		free(f);
		return NULL;
	}
	unlink(cfg->fcgi_socket);
	f->sock = FCGX_OpenSocket(cfg->fcgi_socket, 128);
	if (f->sock < 0) {
		wp_log("fcgi: cannot listen on %s", cfg->fcgi_socket);
		free(f);
		return NULL;
	}
	/* nginx runs as another user; the socket's folder guards access. */
	chmod(cfg->fcgi_socket, 0666);
	f->path = strdup(cfg->fcgi_socket);
	f->max_body = cfg->max_body;
	f->queue_timeout_ms = (int64_t)cfg->fcgi_queue_timeout * 1000;
	f->nthreads = cfg->threads;
	f->threads = calloc(2 * (size_t)f->nthreads, sizeof(*f->threads));
	pthread_mutex_init(&f->accept_lock, NULL);
	pthread_mutex_init(&f->lock, NULL);
	pthread_cond_init(&f->cv, NULL);
	for (unsigned i = 0; i < f->nthreads; i++) {
		pthread_create(&f->threads[i], NULL, fcgi_worker, f);
		pthread_create(&f->threads[f->nthreads + i], NULL, fcgi_answerer, f);
	}
	wp_log("fcgi: listening on %s (%u threads)", cfg->fcgi_socket, f->nthreads);
	return f;
}

void
wp_fcgi_stop(struct wp_fcgi *f)
{
	if (!f)
		return;
	/* Wakes the thread blocked in accept(); the others find the socket
	 * shut when they get the accept lock. Requests in flight finish;
	 * parked ones were woken when waiting stopped (wp_wait_stop) and are
	 * answered before the answer threads end. */
	FCGX_ShutdownPending();
	shutdown(f->sock, SHUT_RDWR);
	for (unsigned i = 0; i < f->nthreads; i++)
		pthread_join(f->threads[i], NULL);
	pthread_mutex_lock(&f->lock);
	f->draining = 1;
	pthread_cond_broadcast(&f->cv);
	pthread_mutex_unlock(&f->lock);
	for (unsigned i = 0; i < f->nthreads; i++)
		pthread_join(f->threads[f->nthreads + i], NULL);
	close(f->sock);
	unlink(f->path);
	pthread_cond_destroy(&f->cv);
	pthread_mutex_destroy(&f->lock);
	pthread_mutex_destroy(&f->accept_lock);
	free(f->threads);
	free(f->path);
	free(f);
}

/* --- CGI --- */

/* The body within CONNECTION_TIMEOUT: a web server that leaves stdin
 * open with less than CONTENT_LENGTH must not hold the process forever. */
static int
stdin_read(void *io, char *buf, int n)
{
	const int64_t *deadline_ns = io;
	struct pollfd pfd = {.fd = STDIN_FILENO, .events = POLLIN};

	for (;;) {
		int64_t left = (*deadline_ns - wp_now_ns()) / 1000000;
		if (left <= 0)
			return -1;
		int r = poll(&pfd, 1, left > 60000 ? 60000 : (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			continue; /* the deadline is checked above */
		ssize_t got = read(STDIN_FILENO, buf, (size_t)n);
		if (got < 0 && errno == EINTR)
			continue;
		return (int)got;
	}
}

static void
stdout_write(void *io, const char *buf, size_t n)
{
	fwrite(buf, 1, n, stdout);
}

int
wp_cgi_serve(const struct wp_config *cfg)
{
	int64_t deadline_ns = wp_now_ns() + (int64_t)cfg->connection_timeout * 1000000000;

	serve_env(environ, cfg->max_body, stdin_read, stdout_write, &deadline_ns);
	return fflush(stdout) == 0 ? 0 : -1;
}

/* The service could not start (no database, no migrations): the web
 * server still gets an answer, a 503 to retry, not an empty output. */
int
wp_cgi_unavailable(const char *detail)
{
	const char *method = getenv("REQUEST_METHOD");
	struct wp_request req = {.method = (char *)(method && *method ? method : "GET")};
	struct wp_response res = {0};

	wp_response_problem(&res, WP_ERR_DB_UNAVAILABLE, detail);
	wp_response_header(&res, "Retry-After", WP_RETRY_AFTER);
	wp_response_header(&res, "X-Content-Type-Options", "nosniff");
	write_response(&req, &res, stdout_write, NULL);
	wp_response_free(&res);
	return fflush(stdout) == 0 ? 0 : -1;
}
