/* Service errors to HTTP: status, RFC 9457 problem type and title. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "wp.h"

static const struct {
	int status;
	const char *slug;
	const char *title;
} problems[WP_ERR_MAX] = {
	[WP_OK] = {200, "ok", "OK"},
	[WP_ERR_NOT_FOUND] = {404, "not-found", "Not found"},
	[WP_ERR_METHOD] = {405, "method-not-allowed", "Method not allowed"},
	[WP_ERR_TOO_LARGE] = {413, "body-too-large", "Request body too large"},
	[WP_ERR_MALFORMED_JSON] = {400, "malformed-json", "Malformed JSON"},
	[WP_ERR_MEDIA_TYPE] = {415, "unsupported-media-type", "Unsupported media type"},
	[WP_ERR_INVALID] = {400, "invalid-request", "Invalid request"},
	[WP_ERR_BAD_PATH] = {400, "bad-path", "Bad request path"},
	[WP_ERR_UNAUTHORIZED] = {401, "unauthorized", "Unauthorized"},
	[WP_ERR_FORBIDDEN] = {403, "forbidden", "Forbidden"},
	[WP_ERR_CONFLICT] = {409, "conflict", "Conflict"},
	[WP_ERR_UNPROCESSABLE] = {422, "unprocessable", "Unprocessable request"},
	[WP_ERR_DB_UNAVAILABLE] = {503, "database-unavailable", "Database unavailable"},
	[WP_ERR_INTERNAL] = {500, "internal-error", "Internal server error"},
};

const char *
wp_strerror(enum wp_err err)
{
	if (err < 0 || err >= WP_ERR_MAX)
		err = WP_ERR_INTERNAL;
	return problems[err].title;
}

/* Builds the problem+json body (RFC 9457, 3.1). The detail is text for a
 * person; callers never put hidden information in it. */
void
wp_response_problem(struct wp_response *res, enum wp_err err, const char *detail)
{
	wp_response_problem_ex(res, err, NULL, detail, NULL);
}

void
wp_response_problem_ex(struct wp_response *res, enum wp_err err, const char *slug,
                       const char *detail, json_object *extra)
{
	char type[96];
	json_object *o;
	const char *text;

	if (err <= WP_OK || err >= WP_ERR_MAX)
		err = WP_ERR_INTERNAL;
	snprintf(type, sizeof(type), "urn:warpost:problem:%s", slug ? slug : problems[err].slug);
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
