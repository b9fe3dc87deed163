/* Router: matching, parameters, HEAD for GET, 404 and 405 with Allow. */
#include "check.h"
#include "core.h"

static enum wp_err h1(struct wp_ctx *c) { return WP_OK; }
static enum wp_err h2(struct wp_ctx *c) { return WP_OK; }
static enum wp_err h3(struct wp_ctx *c) { return WP_OK; }

static const struct wp_route table[] = {
	{WP_GET, "/api/games/{id}", h1, 0},
	{WP_POST, "/api/games/{id}/turns", h2, 1},
	{WP_GET, "/api/games/{id}/turns", h3, 0},
	{WP_POST | WP_DELETE, "/api/games", h1, 1},
};
#define N (sizeof(table) / sizeof(table[0]))

int
main(void)
{
	struct wp_route_match m;

	CHECK(wp_route_match(table, N, "GET", "/api/games/42", &m) == WP_OK, "exact match");
	CHECK(m.route == &table[0], "first route");
	CHECK(m.nparams == 1, "one parameter");
	CHECK_STR(m.params[0], "42", "parameter value");

	CHECK(wp_route_match(table, N, "POST", "/api/games/7/turns", &m) == WP_OK, "post turns");
	CHECK(m.route->handler == h2, "post handler");
	CHECK(wp_route_match(table, N, "GET", "/api/games/7/turns", &m) == WP_OK, "get turns");
	CHECK(m.route->handler == h3, "same path, other method, other handler");

	CHECK(wp_route_match(table, N, "HEAD", "/api/games/7", &m) == WP_OK,
	      "HEAD answers where GET does (RFC 9110, 9.3.2)");

	CHECK(wp_route_match(table, N, "PUT", "/api/games/7", &m) == WP_ERR_METHOD, "405");
	CHECK_STR(m.allow, "GET, HEAD", "Allow of a GET route");
	CHECK(wp_route_match(table, N, "DELETE", "/api/games/7/turns", &m) == WP_ERR_METHOD,
	      "405 on a path two routes share");
	CHECK_STR(m.allow, "GET, HEAD, POST", "Allow unites the routes of one path");
	CHECK(wp_route_match(table, N, "GET", "/api/games", &m) == WP_ERR_METHOD, "405 mask");
	CHECK_STR(m.allow, "POST, DELETE", "Allow of a POST|DELETE route");

	CHECK(wp_route_match(table, N, "GET", "/api/games/", &m) == WP_ERR_NOT_FOUND,
	      "an empty parameter does not match");
	CHECK(wp_route_match(table, N, "GET", "/api/games/1/2", &m) == WP_ERR_NOT_FOUND,
	      "a parameter is one segment");
	CHECK(wp_route_match(table, N, "GET", "/api/gamesx", &m) == WP_ERR_NOT_FOUND,
	      "prefix is no match");
	CHECK(wp_route_match(table, N, "BREW", "/api/games/1", &m) == WP_ERR_METHOD,
	      "an unknown method is 405 where the path exists");
	CHECK(wp_route_match(table, N, "GET", "/nope", &m) == WP_ERR_NOT_FOUND, "404");

	char longseg[300];
	memset(longseg, 'x', sizeof(longseg));
	memcpy(longseg, "/api/games/", 11);
	longseg[sizeof(longseg) - 1] = '\0';
	CHECK(wp_route_match(table, N, "GET", longseg, &m) == WP_ERR_NOT_FOUND,
	      "an over-long parameter does not match");

	CHECK(wp_method_bit("GET") == WP_GET, "method bit");
	CHECK(wp_method_bit("get") == 0, "methods are case-sensitive (RFC 9110, 9.1)");
	return check_done("router");
}
