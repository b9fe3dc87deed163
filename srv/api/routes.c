/* The API's routes: method and path pattern to handler. */
#include "api.h"

/* The writes outside a match that take an Idempotency-Key (keyed.c). */
#define KEYED(fn)                                                                                \
	static enum wp_err fn##_keyed(struct wp_ctx *ctx)                                            \
	{                                                                                            \
		return wp_keyed(ctx, fn);                                                                \
	}
KEYED(wp_api_games_create)
KEYED(wp_api_games_join)
KEYED(wp_api_me_vacation_start)
KEYED(wp_api_webhooks_create)
KEYED(wp_api_challenges_create)
KEYED(wp_api_device_codes_create)
KEYED(wp_api_email_confirmation)
KEYED(wp_api_tournaments_create)
KEYED(wp_api_tournaments_join)
KEYED(wp_api_tournaments_leave)
KEYED(wp_api_tournaments_start)
KEYED(wp_api_tournaments_adjudicate)
KEYED(wp_api_tournaments_challenge)
KEYED(wp_api_tournaments_challenge_accept)

static const struct wp_route routes[] = {
	{WP_GET, "/api/health", wp_api_health, WP_BODY_NONE},
	{WP_POST, "/api/players", wp_api_players_create, WP_BODY_JSON},
	{WP_GET, "/api/me", wp_api_me, WP_BODY_NONE},
	{WP_GET, "/api/me/games", wp_api_me_games, WP_BODY_NONE},
	{WP_GET, "/api/me/events", wp_api_me_events, WP_BODY_NONE},
	{WP_GET, "/api/rulesets", wp_api_rulesets, WP_BODY_NONE},
	{WP_GET, "/api/openapi.json", wp_api_openapi, WP_BODY_NONE},
	{WP_POST, "/api/games", wp_api_games_create_keyed, WP_BODY_JSON},
	{WP_GET, "/api/games", wp_api_games_watchable, WP_BODY_NONE},
	{WP_GET, "/api/games/{id}", wp_api_games_get, WP_BODY_NONE},
	{WP_GET, "/api/games/{id}/events", wp_api_games_events, WP_BODY_NONE},
	{WP_GET, "/api/games/{id}/board.svg", wp_api_games_board, WP_BODY_NONE},
	{WP_GET, "/api/games/{id}/board.png", wp_api_games_board_png, WP_BODY_NONE},
	{WP_POST, "/api/games/{id}/join", wp_api_games_join_keyed, WP_BODY_JSON},
	{WP_GET, "/api/games/{id}/actions", wp_api_games_actions, WP_BODY_NONE},
	{WP_POST, "/api/games/{id}/turns", wp_api_games_turn, WP_BODY_JSON},
	{WP_GET, "/api/games/{id}/turns", wp_api_games_posts, WP_BODY_NONE},
	{WP_POST, "/api/games/{id}/orders", wp_api_games_orders, WP_BODY_JSON},
	{WP_POST, "/api/games/{id}/resign", wp_api_games_resign, WP_BODY_OPTIONAL},
	{WP_POST, "/api/games/{id}/draw", wp_api_games_draw, WP_BODY_JSON},
	{WP_POST, "/api/games/{id}/abort", wp_api_games_abort, WP_BODY_OPTIONAL},
	{WP_POST, "/api/games/{id}/undo", wp_api_games_undo, WP_BODY_JSON},
	{WP_POST, "/api/games/{id}/takeback", wp_api_games_takeback, WP_BODY_OPTIONAL},
	{WP_POST, "/api/games/{id}/takeback/accept", wp_api_games_takeback_accept, WP_BODY_OPTIONAL},
	{WP_POST, "/api/games/{id}/takeback/decline", wp_api_games_takeback_decline, WP_BODY_OPTIONAL},
	/* issue 30: a draft tried before it is posted */
	{WP_POST, "/api/games/{id}/preview", wp_api_games_preview, WP_BODY_JSON},
	{WP_GET, "/api/games/{id}/export", wp_api_games_export, WP_BODY_NONE},
	{WP_GET, "/api/games/{id}/verify", wp_api_games_verify, WP_BODY_NONE},
	{WP_POST, "/api/games/{id}/claim", wp_api_games_claim, WP_BODY_OPTIONAL},
	{WP_GET, "/api/me/vacation", wp_api_me_vacation, WP_BODY_NONE},
	{WP_POST, "/api/me/vacation", wp_api_me_vacation_start_keyed, WP_BODY_JSON},
	{WP_POST, "/api/me/webhooks", wp_api_webhooks_create_keyed, WP_BODY_JSON},
	{WP_GET, "/api/me/webhooks", wp_api_webhooks_list, WP_BODY_NONE},
	{WP_DELETE, "/api/me/webhooks/{id}", wp_api_webhooks_delete, WP_BODY_NONE},
	{WP_GET, "/api/me/webhooks/{id}/deliveries", wp_api_webhooks_deliveries, WP_BODY_NONE},
	{WP_GET, "/api/me/email", wp_api_email_get, WP_BODY_NONE},
	{WP_PUT, "/api/me/email", wp_api_email_put, WP_BODY_JSON},
	{WP_GET, "/api/unsubscribe", wp_api_unsubscribe_page, WP_BODY_NONE},
	{WP_POST, "/api/unsubscribe", wp_api_unsubscribe, WP_BODY_ANY},
	{WP_PATCH, "/api/me", wp_api_me_patch, WP_BODY_JSON},
	{WP_POST, "/api/challenges", wp_api_challenges_create_keyed, WP_BODY_JSON},
	{WP_GET, "/api/challenges", wp_api_challenges_list, WP_BODY_NONE},
	{WP_GET, "/api/challenges/{id}", wp_api_challenges_get, WP_BODY_NONE},
	{WP_DELETE, "/api/challenges/{id}", wp_api_challenges_cancel, WP_BODY_NONE},
	{WP_POST, "/api/challenges/{id}/accept", wp_api_challenges_accept, WP_BODY_OPTIONAL},
	{WP_GET, "/api/players/{id}", wp_api_players_get, WP_BODY_NONE},
	{WP_GET, "/api/leaderboards/{ruleset}", wp_api_leaderboard, WP_BODY_NONE},
	{WP_GET, "/api/me/devices", wp_api_devices_list, WP_BODY_NONE},
	{WP_DELETE, "/api/me/devices", wp_api_devices_revoke_others, WP_BODY_NONE},
	{WP_PATCH, "/api/me/devices/{id}", wp_api_devices_rename, WP_BODY_JSON},
	{WP_DELETE, "/api/me/devices/{id}", wp_api_devices_revoke, WP_BODY_NONE},
	{WP_POST, "/api/me/device-codes", wp_api_device_codes_create_keyed, WP_BODY_NONE},
	{WP_POST, "/api/device-codes/redeem", wp_api_device_codes_redeem, WP_BODY_JSON},
	{WP_POST, "/api/me/email/confirmation", wp_api_email_confirmation_keyed, WP_BODY_NONE},
	{WP_POST, "/api/email/confirm", wp_api_email_confirm, WP_BODY_JSON},
	{WP_POST, "/api/recovery", wp_api_recovery_create, WP_BODY_JSON},
	{WP_POST, "/api/recovery/redeem", wp_api_recovery_redeem, WP_BODY_JSON},
	{WP_POST, "/api/tournaments", wp_api_tournaments_create_keyed, WP_BODY_JSON},
	{WP_GET, "/api/tournaments", wp_api_tournaments_list, WP_BODY_NONE},
	{WP_GET, "/api/tournaments/{id}", wp_api_tournaments_get, WP_BODY_NONE},
	{WP_GET, "/api/tournaments/{id}/export", wp_api_tournaments_export, WP_BODY_NONE},
	{WP_POST, "/api/tournaments/{id}/join", wp_api_tournaments_join_keyed, WP_BODY_OPTIONAL},
	{WP_POST, "/api/tournaments/{id}/leave", wp_api_tournaments_leave_keyed, WP_BODY_NONE},
	{WP_POST, "/api/tournaments/{id}/start", wp_api_tournaments_start_keyed, WP_BODY_NONE},
	{WP_DELETE, "/api/tournaments/{id}/players/{player}", wp_api_tournaments_remove,
	 WP_BODY_NONE},
	{WP_POST, "/api/tournaments/{id}/adjudicate", wp_api_tournaments_adjudicate_keyed,
	 WP_BODY_JSON},
	{WP_POST, "/api/tournaments/{id}/challenges", wp_api_tournaments_challenge_keyed, WP_BODY_JSON},
	{WP_POST, "/api/tournaments/{id}/challenges/{challenge}/accept",
	 wp_api_tournaments_challenge_accept_keyed, WP_BODY_NONE},
};

const struct wp_route *
wp_api_routes(size_t *n)
{
	*n = sizeof(routes) / sizeof(routes[0]);
	return routes;
}
