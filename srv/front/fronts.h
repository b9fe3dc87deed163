/* The three fronts over the core. Each translates, enforces the body cap,
 * and writes the answer; none sees a rule or a table. */
#ifndef WP_FRONTS_H
#define WP_FRONTS_H

#include "wp.h"

struct wp_http;
struct wp_http *wp_http_start(const struct wp_config *cfg);
/* Stops accepting, lets requests in flight finish (up to drain_sec), stops. */
void wp_http_stop(struct wp_http *h, unsigned drain_sec);

struct wp_fcgi;
struct wp_fcgi *wp_fcgi_start(const struct wp_config *cfg);
void wp_fcgi_stop(struct wp_fcgi *f);

/* Answers the one request described by the CGI environment (RFC 3875)
 * from stdin to stdout. */
int wp_cgi_serve(const struct wp_config *cfg);
/* One 503 problem (with Retry-After) as the CGI answer, when the service
 * cannot start. */
int wp_cgi_unavailable(const char *detail);

/* warpostd's main (service.c). */
int wp_main(int argc, char **argv);

#endif
