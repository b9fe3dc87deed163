/* The rate limits (issue 16, item 4): the settings as read from the
 * environment, the token buckets' arithmetic, and the client address. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core.h"
#include "ratelimit.h"

static int
load(struct wp_config *cfg, char *err, size_t errlen)
{
	setenv("DATABASE_URL", "dbname=none", 1);
	return wp_config_load(cfg, err, errlen);
}

static void
settings(void)
{
	struct wp_config cfg;
	char err[256];

	/* Defaults are what an environment without the settings gives (the
	 * sanitizer stages of scripts/test.sh set generous DB_* deadlines). */
	static const char *unset[] = {"DB_POOL_WAIT_MS", "DB_STATEMENT_TIMEOUT_MS",
	                              "DB_CONNECT_TIMEOUT_MS", "DB_CHECK_TIMEOUT_MS",
	                              "RATE_LIMIT_WRITES", "MAX_OPEN_MATCHES",
	                              "TRUST_X_FORWARDED_FOR"};
	for (size_t i = 0; i < sizeof(unset) / sizeof(unset[0]); i++)
		unsetenv(unset[i]);
	CHECK(load(&cfg, err, sizeof(err)) == 0, "defaults load");
	CHECK(cfg.rate[WP_RATE_WRITES].n == 120 && cfg.rate[WP_RATE_WRITES].per_s == 60,
	      "RATE_LIMIT_WRITES default 120/60 (README)");
	CHECK(cfg.max_open_matches == 100 && cfg.trust_forwarded_for == 0, "cap and trust defaults");
	CHECK(cfg.db.pool_wait_ms == 500 && cfg.db.statement_ms == 5000, "DB_* defaults");

	setenv("RATE_LIMIT_GAMES", "3/60", 1);
	CHECK(load(&cfg, err, sizeof(err)) == 0, "N/S loads");
	CHECK(cfg.rate[WP_RATE_GAMES].n == 3 && cfg.rate[WP_RATE_GAMES].per_s == 60, "3/60");
	setenv("RATE_LIMIT_GAMES", "off", 1);
	CHECK(load(&cfg, err, sizeof(err)) == 0 && cfg.rate[WP_RATE_GAMES].n == 0, "off: no limit");
	static const char *bad[] = {"3", "3/", "/60", "3/0", "0/60", "-3/60", "3/60x", "3/-1",
	                            "99999999999/1", "three"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		setenv("RATE_LIMIT_GAMES", bad[i], 1);
		err[0] = '\0';
		CHECK(load(&cfg, err, sizeof(err)) == -1 && strstr(err, "RATE_LIMIT_GAMES"),
		      "a malformed rate is refused, naming the variable");
	}
	unsetenv("RATE_LIMIT_GAMES");
	setenv("RATE_LIMITS", "off", 1);
	CHECK(load(&cfg, err, sizeof(err)) == 0, "RATE_LIMITS=off loads");
	for (int c = 0; c < WP_RATE_MAX; c++)
		CHECK(cfg.rate[c].n == 0, "RATE_LIMITS=off turns every class off");
	setenv("RATE_LIMITS", "sometimes", 1);
	CHECK(load(&cfg, err, sizeof(err)) == -1, "RATE_LIMITS is on or off");
	unsetenv("RATE_LIMITS");
	setenv("DB_POOL_WAIT_MS", "700000", 1);
	CHECK(load(&cfg, err, sizeof(err)) == -1, "DB_POOL_WAIT_MS at most ten minutes");
	unsetenv("DB_POOL_WAIT_MS");
}

static void
buckets(void)
{
	struct wp_config cfg = {0};

	cfg.rate[WP_RATE_GAMES] = (struct wp_rate){3, 60};
	cfg.trust_forwarded_for = 1;
	wp_rate_init(&cfg);
	for (int i = 0; i < 3; i++)
		CHECK(wp_rate_take(WP_RATE_GAMES, "a", 1) == 0, "a burst of n is allowed");
	unsigned wait = wp_rate_take(WP_RATE_GAMES, "a", 1);
	CHECK(wait > 10 && wait <= 20, "the next one is about per_s / n = 20 s away");
	CHECK(wp_rate_take(WP_RATE_GAMES, "b", 1) == 0, "another key has its own bucket");
	CHECK(wp_rate_take(WP_RATE_WRITES, "a", 1) == 0, "a class without a limit");
	/* far more keys than slots: the table stays bounded and keeps working */
	for (int i = 0; i < 20000; i++) {
		char k[16];
		snprintf(k, sizeof(k), "k%d", i);
		wp_rate_take(WP_RATE_GAMES, k, strlen(k));
	}
	CHECK(wp_rate_take(WP_RATE_GAMES, "fresh", 5) == 0, "a new key after many");

	struct wp_request req = {0};
	char buf[WP_CLIENT_IP_MAX];
	snprintf(req.peer, sizeof(req.peer), "127.0.0.1");
	CHECK_STR(wp_client_ip(&req, buf), "127.0.0.1", "no header: the peer");
	req.headers[0].name = "X-Forwarded-For";
	req.headers[0].value = "192.0.2.9, 203.0.113.1";
	req.nheaders = 1;
	CHECK_STR(wp_client_ip(&req, buf), "203.0.113.1", "the last address, the proxy's own");
	req.headers[0].value = "203.0.113.2";
	CHECK_STR(wp_client_ip(&req, buf), "203.0.113.2", "one address");
	req.headers[0].value = "192.0.2.9, ";
	CHECK_STR(wp_client_ip(&req, buf), "127.0.0.1", "an empty last entry: the peer");
	wp_rate_fini();

	cfg.trust_forwarded_for = 0;
	wp_rate_init(&cfg);
	req.headers[0].value = "203.0.113.2";
	CHECK_STR(wp_client_ip(&req, buf), "127.0.0.1", "not trusted unless configured");
	wp_rate_fini();
}

int
main(void)
{
	settings();
	buckets();
	return check_done("ratelimit");
}
