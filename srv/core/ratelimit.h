/* Rate limits (issue 16, item 4): in-process token buckets per class of
 * request (enum wp_rate_class in wp.h), keyed by the client's IP or the
 * bearer token's hash. Each class has a bounded table: when it is full
 * the key whose bucket is fullest is forgotten, which forgives it the
 * least. Limits are per process: instances behind a balancer each keep
 * their own. */
#ifndef WP_RATELIMIT_H
#define WP_RATELIMIT_H

#include <stddef.h>

#include "wp.h"

void wp_rate_init(const struct wp_config *cfg);
void wp_rate_fini(void);
/* Takes one request of the class for key: 0 when allowed, else the
 * whole seconds (at least 1) until it would be (Retry-After). */
unsigned wp_rate_take(enum wp_rate_class cls, const void *key, size_t len);
/* The same for n requests at once (a costly answer counts as several). */
unsigned wp_rate_take_n(enum wp_rate_class cls, const void *key, size_t len, unsigned n);
/* The address the per-IP limits count: the peer, or with
 * TRUST_X_FORWARDED_FOR the last address of X-Forwarded-For (the one the
 * proxy in front added), copied to buf if from the header (a thread's
 * buffer would be another request's after a wait in a coroutine). */
#define WP_CLIENT_IP_MAX 64
const char *wp_client_ip(const struct wp_request *req, char buf[WP_CLIENT_IP_MAX]);
/* wp_rate_take() as a handler's answer: WP_OK, or 429 rate-limited
 * with Retry-After. */
struct wp_ctx;
enum wp_err wp_rate_check(struct wp_ctx *ctx, enum wp_rate_class cls, const void *key,
                          size_t len);
enum wp_err wp_rate_check_n(struct wp_ctx *ctx, enum wp_rate_class cls, const void *key,
                            size_t len, unsigned n);
/* The same keyed by wp_client_ip(). */
enum wp_err wp_rate_check_ip(struct wp_ctx *ctx, enum wp_rate_class cls);
enum wp_err wp_rate_check_ip_n(struct wp_ctx *ctx, enum wp_rate_class cls, unsigned n);
/* MAX_OPEN_MATCHES (0: no cap). */
unsigned wp_rate_max_open_matches(void);

#endif
