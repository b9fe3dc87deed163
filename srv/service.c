/* The Warpost service's main: HTTP by default, FastCGI with --fcgi PATH
 * (or FCGI_SOCKET), one CGI request when started by a web server with a
 * CGI environment. A library function, so that the test server
 * (tests/testrules) is the same program with a test ruleset added. */
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libpq-fe.h>
#include <sodium.h>

#include "bot.h"
#include "clock.h"
#include "notify.h"
#include "png_render.h"
#include "ratings.h"
#include "store.h"
#include "fronts.h"
#include "wait.h"

/* jemalloc's own entry point: set when the program was linked against
 * it (WP_JEMALLOC, CMakeLists.txt), so the start's log line can say which
 * malloc serves. */
extern int mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen)
	__attribute__((weak));

/* How long a stopping server lets requests in flight finish. */
#define WP_DRAIN_SEC 10

static void
usage(FILE *f)
{
	fprintf(f,
	        "usage: warpostd [--fcgi SOCKET]\n"
	        "       warpostd --version\n"
	        "Serves the Warpost API and board. Configuration is read from the\n"
	        "environment (DATABASE_URL, PORT, BIND_ADDR, WEB_ROOT, MIGRATIONS_DIR,\n"
	        "FCGI_SOCKET, MAX_BODY_BYTES, MAX_CONNECTIONS, CONNECTION_TIMEOUT,\n"
	        "THREADS, CONNECTION_MEMORY, DB_POOL_SIZE, METRICS_TOKEN, VACATION_EVERY_DAYS,\n"
	        "VACATION_MAX_DAYS, VACATION_START_DAYS, DB_*_MS, RATE_LIMIT*, MAX_OPEN_MATCHES,\n"
	        "TRUST_X_FORWARDED_FOR, PUBLIC_URL, WEBHOOK_*, NOTIFY_POLL_MS, SMTP_URL,\n"
	        "SMTP_FROM, DIGEST_PERIOD_SECONDS, BOT_*); see README.md.\n"
	        "Started with CGI variables (GATEWAY_INTERFACE) it answers one request.\n");
}

/* A database that is still starting (docker compose, a reboot) is waited
 * for, not treated as fatal. */
static int
migrate_with_retry(const struct wp_config *cfg, unsigned tries, PGconn **keep)
{
	char err[1024];

	for (unsigned i = 0; i < tries; i++) {
		if (wp_migrate(cfg->direct_url, cfg->migrations_dir, keep, err, sizeof(err)) == 0 &&
		    wp_ratings_configure(cfg->direct_url, cfg, err, sizeof(err)) == 0)
			return 0;
		if (keep && *keep) {
			PQfinish(*keep);
			*keep = NULL;
		}
		if (strncmp(err, "cannot connect", 14) != 0)
			break;
		if (i + 1 < tries) {
			wp_log("database not ready, retrying: %s", err);
			sleep(1);
		}
	}
	err[strcspn(err, "\n")] = '\0';
	wp_log("migrations failed: %s", err);
	return -1;
}

int
wp_main(int argc, char **argv)
{
	struct wp_config cfg;
	struct wp_bot_cfg bots;
	struct wp_store *store = NULL;
	struct wp_http *http = NULL;
	struct wp_fcgi *fcgi = NULL;
	PGconn *listen_conn = NULL;
	char err[512];
	int cgi = 0, rc = 1, sig;
	sigset_t set;

	/* No fast bins: libpq's results are "large" requests (over 1 KiB),
	 * and each made glibc consolidate every small chunk freed since the
	 * last (malloc_consolidate was 2.4% of a turn's CPU, issue 17);
	 * small chunks are still served from the per-thread cache. With
	 * jemalloc linked in (CMakeLists.txt), which serves instead, this
	 * changes nothing. */
#ifdef M_MXFAST
	mallopt(M_MXFAST, 0);
#endif
	wp_crash_handlers();
	/* board.png's renderer: this binary started again by png_render.c. */
	if (argc == 2 && strcmp(argv[1], WP_RENDER_WORKER_ARG) == 0)
		return wp_render_worker_main();
	if (argc > 1 && strcmp(argv[1], "--version") == 0) {
		printf("warpostd %s\n", WP_VERSION);
		return 0;
	}
	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		usage(stdout);
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "--fcgi") == 0)
		setenv("FCGI_SOCKET", argv[2], 1);
	else if (argc != 1) {
		usage(stderr);
		return 2;
	}
	if (wp_config_load(&cfg, err, sizeof(err)) != 0 ||
	    wp_bot_config(&bots, err, sizeof(err)) != 0) {
		fprintf(stderr, "warpostd: %s\n", err);
		return 2;
	}
	cgi = !cfg.fcgi_socket && getenv("GATEWAY_INTERFACE") != NULL;
	wp_vacation_policy(cfg.vacation_every_days, cfg.vacation_max_days);
	wp_vacation_start_policy(cfg.vacation_start_days);
	if (sodium_init() < 0) {
		wp_log("libsodium cannot start");
		return 1;
	}
	/* Signals are taken by sigwait() below; every thread started from
	 * here on inherits the mask. */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);

	/* The migrations' connection becomes the LISTEN thread's: one
	 * PostgreSQL session fewer at each start. */
	if (migrate_with_retry(&cfg, cgi ? 1 : 30, cgi ? NULL : &listen_conn) != 0) {
		if (cgi)
			wp_cgi_unavailable("the database or its migrations are not available");
		return 1;
	}
	store = wp_store_open(cfg.database_url, cgi ? 1 : cfg.db_pool_size);
	if (!store) {
		if (cgi)
			wp_cgi_unavailable("the database does not answer");
		PQfinish(listen_conn);
		return 1;
	}
	wp_store_limits(store, &cfg.db);
	if (!cgi && wp_store_monitor(store) != 0)
		wp_log("database: the health monitor cannot start");
	wp_core_init(&cfg, store);
	wp_notify_init(&cfg);
	/* Before any request: a board.png renders in a process of its own,
	 * which sets up fontconfig and Pango before its first image. CGI
	 * starts one only when a request asks for an image. */
	if (wp_render_start(&cfg, !cgi) != 0)
		wp_log("board.png: the renderer did not start; the first image tries again");

	if (cgi) {
		rc = wp_cgi_serve(&cfg) == 0 ? 0 : 1;
		goto out;
	}
	if (wp_listen_start(cfg.direct_url, listen_conn) != 0)
		goto out;
	if (cfg.fcgi_socket)
		fcgi = wp_fcgi_start(&cfg);
	else
		http = wp_http_start(&cfg);
	if (!fcgi && !http) {
		wp_listen_stop();
		goto out;
	}
	/* Webhooks and digests (issue 14); without it only delivery waits. */
	if (wp_notify_start(store) != 0)
		wp_log("notify: the worker did not start; notifications wait for another instance");
	/* The computer players' turns (issue 27); without it they wait for
	 * another instance. */
	if (wp_bot_start(store, cfg.database_url, &bots) != 0)
		wp_log("bot: the worker did not start; bot turns wait for another instance");
	wp_log("warpostd %s ready (malloc: %s)", WP_VERSION, mallctl ? "jemalloc" : "the C library's");
	sigwait(&set, &sig);
	wp_log("signal %d: stopping", sig);
	/* Long-polls are answered first (their connections resumed), so that
	 * the fronts can drain. */
	wp_listen_stop();
	if (http)
		wp_http_stop(http, WP_DRAIN_SEC);
	if (fcgi)
		wp_fcgi_stop(fcgi);
	wp_notify_stop();
	wp_bot_stop();
	rc = 0;
	wp_log("stopped");
out:
	wp_render_stop();
	wp_core_fini();
	wp_store_close(store);
	return rc;
}
