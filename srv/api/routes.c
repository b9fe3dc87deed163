/* The API's routes: method and path pattern to handler. */
#include "api.h"

static const struct wp_route routes[] = {
	{WP_GET, "/api/health", wp_api_health, WP_BODY_NONE},
	{WP_POST, "/api/players", wp_api_players_create, WP_BODY_JSON},
	{WP_GET, "/api/me", wp_api_me, WP_BODY_NONE},
	{WP_GET, "/api/me/games", wp_api_me_games, WP_BODY_NONE},
	{WP_GET, "/api/rulesets", wp_api_rulesets, WP_BODY_NONE},
	{WP_GET, "/api/openapi.json", wp_api_openapi, WP_BODY_NONE},
	{WP_POST, "/api/games", wp_api_games_create, WP_BODY_JSON},
	{WP_GET, "/api/games/{id}", wp_api_games_get, WP_BODY_NONE},
	{WP_POST, "/api/games/{id}/join", wp_api_games_join, WP_BODY_JSON},
	{WP_GET, "/api/games/{id}/actions", wp_api_games_actions, WP_BODY_NONE},
	{WP_POST, "/api/games/{id}/turns", wp_api_games_turn, WP_BODY_JSON},
	{WP_GET, "/api/games/{id}/turns", wp_api_games_posts, WP_BODY_NONE},
	{WP_POST, "/api/games/{id}/orders", wp_api_games_orders, WP_BODY_JSON},
	{WP_POST, "/api/games/{id}/resign", wp_api_games_resign, WP_BODY_OPTIONAL},
	{WP_POST, "/api/games/{id}/draw", wp_api_games_draw, WP_BODY_JSON},
	{WP_POST, "/api/games/{id}/abort", wp_api_games_abort, WP_BODY_OPTIONAL},
	{WP_POST, "/api/games/{id}/undo", wp_api_games_undo, WP_BODY_JSON},
	{WP_GET, "/api/games/{id}/export", wp_api_games_export, WP_BODY_NONE},
	{WP_GET, "/api/games/{id}/verify", wp_api_games_verify, WP_BODY_NONE},
};

const struct wp_route *
wp_api_routes(size_t *n)
{
	*n = sizeof(routes) / sizeof(routes[0]);
	return routes;
}
