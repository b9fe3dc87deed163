/* Configuration from the environment, each variable with its default
 * (README.md, "Configuration"). Read once at start. */
#define _GNU_SOURCE /* sched_getaffinity */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wp.h"

static int
env_uint(const char *name, unsigned long def, unsigned long min, unsigned long max,
         unsigned long *out, char *err, size_t errlen)
{
	const char *v = getenv(name);
	char *end;
	unsigned long n;

	if (!v || !*v) {
		*out = def;
		return 0;
	}
	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno || *end || v[0] == '-' || n < min || n > max) {
		snprintf(err, errlen, "%s=%s: expected a whole number from %lu to %lu", name, v,
		         min, max);
		return -1;
	}
	*out = n;
	return 0;
}

/* env_uint() into an unsigned (max fits one); the bot service's settings
 * too (srv/bot/botplay.c). */
int
wp_env_u(const char *name, unsigned def, unsigned min, unsigned max, unsigned *out, char *err,
      size_t errlen)
{
	unsigned long v;

	if (env_uint(name, def, min, max, &v, err, errlen))
		return -1;
	*out = (unsigned)v;
	return 0;
}

/* Milliseconds, up to ten minutes. */
static int
env_ms(const char *name, unsigned def, unsigned min, unsigned *out, char *err, size_t errlen)
{
	return wp_env_u(name, def, min, 600000, out, err, errlen);
}

/* "N/S": N requests per S seconds; "0" or "off": no limit. */
static int
env_rate(const char *name, unsigned n, unsigned per_s, struct wp_rate *out, char *err,
         size_t errlen)
{
	const char *v = getenv(name);
	unsigned long a, b;
	char *end;

	*out = (struct wp_rate){n, per_s};
	if (!v || !*v)
		return 0;
	if (strcmp(v, "0") == 0 || strcmp(v, "off") == 0) {
		*out = (struct wp_rate){0, 0};
		return 0;
	}
	errno = 0;
	a = strtoul(v, &end, 10);
	if (v[0] >= '0' && v[0] <= '9' && *end == '/' && end[1] >= '0' && end[1] <= '9') {
		b = strtoul(end + 1, &end, 10);
		if (!errno && !*end && a >= 1 && a <= 1000000 && b >= 1 && b <= 86400) {
			*out = (struct wp_rate){(unsigned)a, (unsigned)b};
			return 0;
		}
	}
	snprintf(err, errlen, "%s=%s: expected N/S (N requests per S seconds, 1 to 1000000 "
	         "per 1 to 86400) or off", name, v);
	return -1;
}

/* The rate limits (README "Rate limits"); RATE_LIMITS=off turns them all
 * off, for tests and benchmarks that make thousands of requests. */
/* board.png (issue 24): the renderer process's deadline, whether it
 * starts with the server, the cache of rendered images, and what one
 * render counts in RATE_LIMIT_REQUESTS. */
static int
load_images(struct wp_config *cfg, char *err, size_t errlen)
{
	unsigned long cache, prestart;

	if (env_ms("RENDER_TIMEOUT_MS", 10000, 100, &cfg->render_timeout_ms, err, errlen) ||
	    env_uint("RENDER_PRESTART", 1, 0, 1, &prestart, err, errlen) ||
	    env_uint("PNG_CACHE_BYTES", 8 << 20, 0, 1UL << 30, &cache, err, errlen) ||
	    wp_env_u("PNG_RENDER_COST", 8, 1, 1000, &cfg->png_render_cost, err, errlen))
		return -1;
	cfg->render_prestart = (int)prestart;
	cfg->png_cache_bytes = (size_t)cache;
	return 0;
}

static int
load_rates(struct wp_config *cfg, char *err, size_t errlen)
{
	const char *all = getenv("RATE_LIMITS");
	unsigned long trust;

	if (env_rate("RATE_LIMIT_REQUESTS", 300, 15, &cfg->rate[WP_RATE_REQUESTS], err, errlen) ||
	    env_rate("RATE_LIMIT_PLAYERS", 20, 600, &cfg->rate[WP_RATE_PLAYERS], err, errlen) ||
	    env_rate("RATE_LIMIT_GAMES", 20, 600, &cfg->rate[WP_RATE_GAMES], err, errlen) ||
	    env_rate("RATE_LIMIT_WRITES", 120, 60, &cfg->rate[WP_RATE_WRITES], err, errlen) ||
	    env_rate("RATE_LIMIT_ACCOUNT", 10, 600, &cfg->rate[WP_RATE_ACCOUNT], err, errlen) ||
	    wp_env_u("MAX_OPEN_MATCHES", 100, 0, 1000000, &cfg->max_open_matches, err, errlen) ||
	    env_uint("TRUST_X_FORWARDED_FOR", 0, 0, 1, &trust, err, errlen))
		return -1;
	if (all && *all && strcmp(all, "on") != 0) {
		if (strcmp(all, "off") != 0) {
			snprintf(err, errlen, "RATE_LIMITS=%s: expected on or off", all);
			return -1;
		}
		memset(cfg->rate, 0, sizeof(cfg->rate));
	}
	cfg->trust_forwarded_for = (int)trust;
	return 0;
}

static const char *
env_str(const char *name, const char *def)
{
	const char *v = getenv(name);
	return v && *v ? v : def;
}

/* Notifications (issue 14): webhooks, their retries, e-mail digests. */
static int
notify_config(struct wp_config *cfg, char *err, size_t errlen)
{
	static char public_url[64];
	unsigned long priv;

	snprintf(public_url, sizeof(public_url), "http://localhost:%u", cfg->port);
	cfg->public_url = env_str("PUBLIC_URL", public_url);
	cfg->smtp_url = env_str("SMTP_URL", NULL);
	cfg->smtp_from = env_str("SMTP_FROM", "warpost@localhost");
	if (env_uint("WEBHOOK_ALLOW_PRIVATE", 0, 0, 1, &priv, err, errlen) ||
	    wp_env_u("WEBHOOK_RETRY_BASE_MS", 10000, 10, 86400000, &cfg->webhook_retry_base_ms, err, errlen) ||
	    wp_env_u("WEBHOOK_RETRY_MAX_MS", 3600000, 10, 86400000, &cfg->webhook_retry_max_ms, err, errlen) ||
	    wp_env_u("WEBHOOK_MAX_ATTEMPTS", 8, 1, 100, &cfg->webhook_max_attempts, err, errlen) ||
	    wp_env_u("WEBHOOK_TIMEOUT", 10, 1, 300, &cfg->webhook_timeout, err, errlen) ||
	    wp_env_u("NOTIFY_POLL_MS", 1000, 10, 600000, &cfg->notify_poll_ms, err, errlen) ||
	    wp_env_u("DIGEST_PERIOD_SECONDS", 86400, 1, 31 * 86400, &cfg->digest_period, err, errlen))
		return -1;
	if (strlen(cfg->public_url) > 200 || (strncmp(cfg->public_url, "http://", 7) != 0 &&
	                                      strncmp(cfg->public_url, "https://", 8) != 0)) {
		snprintf(err, errlen, "PUBLIC_URL: an http:// or https:// URL of at most 200 bytes");
		return -1;
	}
	cfg->webhook_allow_private = (int)priv;
	return 0;
}

static int
is_set(const char *name)
{
	const char *v = getenv(name);

	return v && *v;
}

/* Ratings (issue 28): written to the database at start (store/ratings.c),
 * where the rating function reads them; only those set. */
static int
load_ratings(struct wp_config *cfg, char *err, size_t errlen)
{
	const char *tau = getenv("RATING_TAU");
	unsigned long mix;
	char *end;

	cfg->rating_tau = 0.5;
	cfg->rating_set = (unsigned)is_set("RATING_TAU") | (unsigned)is_set("RATING_PERIOD_SECONDS") << 1 |
	                  (unsigned)is_set("RATING_MIX_BOTS") << 2;
	if (tau && *tau) {
		errno = 0;
		cfg->rating_tau = strtod(tau, &end);
		if (errno || *end || !(cfg->rating_tau >= 0.05 && cfg->rating_tau <= 10)) {
			snprintf(err, errlen, "RATING_TAU=%s: expected a number from 0.05 to 10", tau);
			return -1;
		}
	}
	if (wp_env_u("RATING_PERIOD_SECONDS", 86400, 1, 366 * 86400, &cfg->rating_period, err, errlen) ||
	    env_uint("RATING_MIX_BOTS", 0, 0, 1, &mix, err, errlen))
		return -1;
	cfg->rating_mix_bots = (int)mix;
	return 0;
}

/* EVENT_LOOPS by default: a loop a core the process may run on (its
 * affinity, as nproc counts; a container's CPU quota is not seen). */
static unsigned
cores(void)
{
	cpu_set_t set;
	long n = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set)
	                                                     : sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 64 ? 64 : (unsigned)n;
}

int
wp_config_load(struct wp_config *cfg, char *err, size_t errlen)
{
	unsigned long body, mem;

	memset(cfg, 0, sizeof(*cfg));
	cfg->database_url = env_str("DATABASE_URL", NULL);
	cfg->direct_url = env_str("DATABASE_DIRECT_URL", cfg->database_url);
	cfg->bind_addr = env_str("BIND_ADDR", "0.0.0.0");
	cfg->web_root = env_str("WEB_ROOT", "./web");
	cfg->migrations_dir = env_str("MIGRATIONS_DIR", "./sql");
	cfg->fcgi_socket = env_str("FCGI_SOCKET", NULL);
	cfg->metrics_token = env_str("METRICS_TOKEN", NULL);
	if (wp_env_u("PORT", 8080, 1, 65535, &cfg->port, err, errlen) ||
	    env_uint("MAX_BODY_BYTES", 65536, 1024, 16 * 1024 * 1024, &body, err, errlen) ||
	    wp_env_u("MAX_CONNECTIONS", 1024, 4, 100000, &cfg->max_connections, err, errlen) ||
	    wp_env_u("CONNECTION_TIMEOUT", 30, 1, 3600, &cfg->connection_timeout, err, errlen) ||
	    wp_env_u("THREADS", 32, 1, 256, &cfg->threads, err, errlen) ||
	    wp_env_u("EVENT_LOOPS", cores(), 0, 64, &cfg->event_loops, err, errlen) ||
	    env_uint("CONNECTION_MEMORY", 3072, 3072, 16 * 1024 * 1024, &mem, err, errlen) ||
	    wp_env_u("DB_POOL_SIZE", 32, 1, 256, &cfg->db_pool_size, err, errlen) ||
	    wp_env_u("VACATION_EVERY_DAYS", 30, 1, 365, &cfg->vacation_every_days, err, errlen) ||
	    wp_env_u("VACATION_MAX_DAYS", 30, 0, 365, &cfg->vacation_max_days, err, errlen) ||
	    wp_env_u("VACATION_START_DAYS", 7, 0, 365, &cfg->vacation_start_days, err, errlen) ||
	    env_ms("DB_STATEMENT_TIMEOUT_MS", 5000, 0, &cfg->db.statement_ms, err, errlen) ||
	    env_ms("DB_LOCK_TIMEOUT_MS", 2000, 0, &cfg->db.lock_ms, err, errlen) ||
	    env_ms("DB_CONNECT_TIMEOUT_MS", 2000, 10, &cfg->db.connect_ms, err, errlen) ||
	    env_ms("DB_POOL_WAIT_MS", 500, 0, &cfg->db.pool_wait_ms, err, errlen) ||
	    env_ms("DB_CHECK_TIMEOUT_MS", 2000, 10, &cfg->db.check_ms, err, errlen) ||
	    load_rates(cfg, err, errlen) ||
	    load_images(cfg, err, errlen) ||
	    wp_env_u("PER_IP_CONNECTIONS", 32, 0, 100000, &cfg->per_ip_connections, err, errlen) ||
	    wp_env_u("REQUEST_TIMEOUT", 15, 1, 3600, &cfg->request_timeout, err, errlen) ||
	    wp_env_u("FCGI_QUEUE_TIMEOUT", 20, 1, 3600, &cfg->fcgi_queue_timeout, err, errlen))
		return -1;
	/* never more than a player may hold */
	if (cfg->vacation_start_days > cfg->vacation_max_days)
		cfg->vacation_start_days = cfg->vacation_max_days;
	cfg->max_body = body;
	cfg->connection_memory = mem;
	if (notify_config(cfg, err, errlen) != 0 || load_ratings(cfg, err, errlen) != 0)
		return -1;
	if (!cfg->database_url) {
		snprintf(err, errlen,
		         "DATABASE_URL is not set (scripts/run.sh starts a private PostgreSQL "
		         "and sets it)");
		return -1;
	}
	return 0;
}
