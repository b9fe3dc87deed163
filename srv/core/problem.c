/* Service errors to HTTP: status, RFC 9457 problem type and title. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "wp.h"

/* The problem types (RFC 9457, 3.1): the one table of slugs. README
 * "Errors", srv/openapi.json and web/api.js list the same slugs. */
static const struct {
	const char *slug;
	int status;
	const char *title;
} problems[WP_ERR_MAX] = {
	[WP_OK] = {"ok", 200, "OK"},
	[WP_ERR_NOT_FOUND] = {"not-found", 404, "Not found"},
	[WP_ERR_GAME_NOT_FOUND] = {"game-not-found", 404, "Not found"},
	[WP_ERR_METHOD] = {"method-not-allowed", 405, "Method not allowed"},
	[WP_ERR_TOO_LARGE] = {"body-too-large", 413, "Request body too large"},
	[WP_ERR_MALFORMED_JSON] = {"malformed-json", 400, "Malformed JSON"},
	[WP_ERR_MEDIA_TYPE] = {"unsupported-media-type", 415, "Unsupported media type"},
	[WP_ERR_INVALID] = {"invalid-request", 400, "Invalid request"},
	[WP_ERR_BAD_FRAMING] = {"bad-framing", 400, "Invalid request"},
	[WP_ERR_BAD_PATH] = {"bad-path", 400, "Bad request path"},
	[WP_ERR_UNAUTHORIZED] = {"unauthorized", 401, "Unauthorized"},
	[WP_ERR_FORBIDDEN] = {"forbidden", 403, "Forbidden"},
	[WP_ERR_NOT_A_PLAYER] = {"not-a-player", 403, "Forbidden"},
	[WP_ERR_INVALID_INVITATION] = {"invalid-invitation", 403, "Forbidden"},
	[WP_ERR_INVITATION_USED] = {"invitation-used", 409, "Conflict"},
	[WP_ERR_ALREADY_SEATED] = {"already-seated", 409, "Conflict"},
	[WP_ERR_GAME_NOT_OPEN] = {"game-not-open", 409, "Conflict"},
	[WP_ERR_GAME_NOT_STARTED] = {"game-not-started", 409, "Conflict"},
	[WP_ERR_GAME_OVER] = {"game-over", 409, "Conflict"},
	[WP_ERR_GAME_UNDER_WAY] = {"game-under-way", 409, "Conflict"},
	[WP_ERR_GAME_NOT_OVER] = {"game-not-over", 409, "Conflict"},
	[WP_ERR_STALE_SEQUENCE] = {"stale-sequence", 409, "Conflict"},
	[WP_ERR_NOT_AWAITED] = {"not-awaited", 409, "Conflict"},
	[WP_ERR_NOT_IN_PLAY] = {"not-in-play", 409, "Conflict"},
	[WP_ERR_DRAW_ALREADY_OFFERED] = {"draw-already-offered", 409, "Conflict"},
	[WP_ERR_NO_DRAW_OFFER] = {"no-draw-offer", 409, "Conflict"},
	[WP_ERR_UNDO_NOT_ALLOWED] = {"undo-not-allowed", 409, "Conflict"},
	[WP_ERR_UNKNOWN_RULESET] = {"unknown-ruleset", 422, "Unprocessable request"},
	[WP_ERR_INVALID_OPTION] = {"invalid-option", 422, "Unprocessable request"},
	[WP_ERR_ILLEGAL_ACTION] = {"illegal-action", 422, "Unprocessable request"},
	[WP_ERR_INVALID_ORDERS] = {"invalid-orders", 422, "Unprocessable request"},
	[WP_ERR_IDEMPOTENCY_KEY_REUSED] = {"idempotency-key-reused", 422, "Unprocessable request"},
	[WP_ERR_IDEMPOTENCY_KEY_IN_USE] = {"idempotency-key-in-use", 409, "Conflict"},
	[WP_ERR_RATE_LIMITED] = {"rate-limited", 429, "Too many requests"},
	[WP_ERR_TOO_MANY_OPEN_MATCHES] = {"too-many-open-matches", 409, "Conflict"},
	[WP_ERR_DB_UNAVAILABLE] = {"database-unavailable", 503, "Database unavailable"},
	[WP_ERR_OVERLOADED] = {"overloaded", 503, "Service overloaded"},
	[WP_ERR_INTERNAL] = {"internal-error", 500, "Internal server error"},
	[WP_ERR_PRECONDITION_FAILED] = {"precondition-failed", 412, "Precondition failed"},
	[WP_ERR_URI_TOO_LONG] = {"uri-too-long", 414, "URI too long"},
	[WP_ERR_HEADER_TOO_LARGE] = {"header-too-large", 431, "Request header fields too large"},
	[WP_ERR_BAD_GATEWAY] = {"bad-gateway", 502, "Bad gateway"},
	[WP_ERR_GATEWAY_TIMEOUT] = {"gateway-timeout", 504, "Gateway timeout"},
	[WP_ERR_TIME_EXPIRED] = {"time-expired", 409, "Conflict"},
	[WP_ERR_TIME_NOT_EXPIRED] = {"time-not-expired", 409, "Conflict"},
	[WP_ERR_VACATION_UNAVAILABLE] = {"vacation-unavailable", 409, "Conflict"},
	[WP_ERR_NOT_IMPLEMENTED] = {"not-implemented", 501, "Not implemented"},
	[WP_ERR_TARGET_REFUSED] = {"webhook-target-refused", 422, "Unprocessable request"},
	[WP_ERR_CHALLENGE_NOT_FOUND] = {"challenge-not-found", 404, "Not found"},
	[WP_ERR_CHALLENGE_CLOSED] = {"challenge-closed", 409, "Conflict"},
	[WP_ERR_RATING_OUT_OF_RANGE] = {"rating-out-of-range", 403, "Forbidden"},
	[WP_ERR_INVALID_CODE] = {"invalid-code", 403, "Forbidden"},
	[WP_ERR_TOURNAMENT_NOT_FOUND] = {"tournament-not-found", 404, "Not Found"},
	[WP_ERR_TOURNAMENT_CLOSED] = {"tournament-closed", 409, "Conflict"},
};

static enum wp_err
known(enum wp_err err)
{
	return err > WP_OK && err < WP_ERR_MAX ? err : WP_ERR_INTERNAL;
}

const char *
wp_strerror(enum wp_err err)
{
	return err == WP_OK ? problems[WP_OK].title : problems[known(err)].title;
}

const char *
wp_err_slug(enum wp_err err)
{
	return err == WP_OK ? problems[WP_OK].slug : problems[known(err)].slug;
}

int
wp_err_status(enum wp_err err)
{
	return err == WP_OK ? 200 : problems[known(err)].status;
}

/* Builds the problem+json body (RFC 9457, 3.1). The detail is text for a
 * person; callers never put hidden information in it. */
void
wp_response_problem(struct wp_response *res, enum wp_err err, const char *detail)
{
	wp_response_problem_ex(res, err, detail, NULL);
}

void
wp_response_problem_ex(struct wp_response *res, enum wp_err err, const char *detail,
                       json_object *extra)
{
	char type[96];
	json_object *o;
	const char *text;

	err = known(err);
	snprintf(type, sizeof(type), "urn:warpost:problem:%s", problems[err].slug);
	o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string(type));
	json_object_object_add(o, "title", json_object_new_string(problems[err].title));
	json_object_object_add(o, "status", json_object_new_int(problems[err].status));
	json_object_object_add(o, "detail",
	                       json_object_new_string(detail && *detail ? detail
	                                                                : problems[err].title));
	if (extra) {
		json_object_object_foreach(extra, k, v)
			if (!json_object_object_get_ex(o, k, NULL))
				json_object_object_add(o, k, json_object_get(v));
	}
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
	                                             JSON_C_TO_STRING_NOSLASHESCAPE);
	free(res->body);
	res->body = strdup(text);
	res->body_len = res->body ? strlen(res->body) : 0;
	res->status = problems[err].status;
	wp_response_header(res, "Content-Type", "application/problem+json");
	wp_response_header(res, "Cache-Control", "no-store");
	json_object_put(o);
}
