/* Configuration from the environment, each variable with its default
 * (README.md, "Configuration"). Read once at start. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static const char *
env_str(const char *name, const char *def)
{
	const char *v = getenv(name);
	return v && *v ? v : def;
}

int
wp_config_load(struct wp_config *cfg, char *err, size_t errlen)
{
	unsigned long port, body, conns, timeout, threads, mem, pool;
	unsigned long per_ip, req_timeout, queue_timeout;

	memset(cfg, 0, sizeof(*cfg));
	cfg->database_url = env_str("DATABASE_URL", NULL);
	cfg->direct_url = env_str("DATABASE_DIRECT_URL", cfg->database_url);
	cfg->bind_addr = env_str("BIND_ADDR", "0.0.0.0");
	cfg->web_root = env_str("WEB_ROOT", "./web");
	cfg->migrations_dir = env_str("MIGRATIONS_DIR", "./sql");
	cfg->fcgi_socket = env_str("FCGI_SOCKET", NULL);
	cfg->metrics_token = env_str("METRICS_TOKEN", NULL);
	if (env_uint("PORT", 8080, 1, 65535, &port, err, errlen) ||
	    env_uint("MAX_BODY_BYTES", 65536, 1024, 16 * 1024 * 1024, &body, err, errlen) ||
	    env_uint("MAX_CONNECTIONS", 1024, 4, 100000, &conns, err, errlen) ||
	    env_uint("CONNECTION_TIMEOUT", 30, 1, 3600, &timeout, err, errlen) ||
	    env_uint("THREADS", 4, 1, 256, &threads, err, errlen) ||
	    env_uint("CONNECTION_MEMORY", 65536, 8192, 16 * 1024 * 1024, &mem, err, errlen) ||
	    env_uint("DB_POOL_SIZE", 4, 1, 256, &pool, err, errlen) ||
	    env_uint("PER_IP_CONNECTIONS", 32, 0, 100000, &per_ip, err, errlen) ||
	    env_uint("REQUEST_TIMEOUT", 15, 1, 3600, &req_timeout, err, errlen) ||
	    env_uint("FCGI_QUEUE_TIMEOUT", 20, 1, 3600, &queue_timeout, err, errlen))
		return -1;
	cfg->per_ip_connections = (unsigned)per_ip;
	cfg->request_timeout = (unsigned)req_timeout;
	cfg->fcgi_queue_timeout = (unsigned)queue_timeout;
	cfg->port = (unsigned)port;
	cfg->max_body = body;
	cfg->max_connections = (unsigned)conns;
	cfg->connection_timeout = (unsigned)timeout;
	cfg->threads = (unsigned)threads;
	cfg->connection_memory = mem;
	cfg->db_pool_size = (unsigned)pool;
	if (!cfg->database_url) {
		snprintf(err, errlen,
		         "DATABASE_URL is not set (scripts/run.sh starts a private PostgreSQL "
		         "and sets it)");
		return -1;
	}
	return 0;
}
