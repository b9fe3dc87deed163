/* Matches: create, join, view (ETag, long-poll), legal actions, turns,
 * the post log, resign, draw, abort, standing orders, my matches, and
 * the ruleset list. Every write is one transaction on the locked game
 * row; acknowledged means committed (DESIGN.md, "Store"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "game.h"
#include "replay.h"
#include "wait.h"

#define WP_MAX_ACTIONS 64
#define WP_COMMENT_MAX 2000
#define WP_WAIT_MAX 60

/* ---------------------------------------------------------------- helpers */

static json_object *
jhex(const unsigned char *b, size_t n)
{
	char hex[2 * 64 + 1];
	sodium_bin2hex(hex, sizeof(hex), b, n);
	return json_object_new_string(hex);
}

static json_object *
seat_list(unsigned mask, int n)
{
	json_object *a = json_object_new_array();
	for (int i = 0; i < n; i++)
		if (mask & (1u << i))
			json_object_array_add(a, json_object_new_int(i));
	return a;
}

static enum wp_err
game_id(struct wp_ctx *ctx, int64_t *id)
{
	if (wp_parse_id(ctx->match->params[0], id) != 0)
		return wp_fail_as(ctx, WP_ERR_NOT_FOUND, "game-not-found", "there is no such match");
	return WP_OK;
}

/* A token is optional for reading; a wrong one is still an error. */
static enum wp_err
optional_player(struct wp_ctx *ctx, PGconn *c, struct wp_player *who)
{
	memset(who, 0, sizeof(*who));
	if (!wp_request_header(ctx->req, "Authorization"))
		return WP_OK;
	return wp_auth_player(ctx, c, who);
}

static enum wp_err
db_fail(struct wp_ctx *ctx, PGconn *c, PGresult *r, const char *what)
{
	enum wp_err err = wp_store_lost(c) ? WP_ERR_DB_UNAVAILABLE : WP_ERR_INTERNAL;
	wp_log("database: %s: %s", what, r ? PQresultErrorMessage(r) : PQerrorMessage(c));
	PQclear(r);
	return wp_fail(ctx, err, "the database did not answer as expected");
}

static enum wp_err
exec_ok(struct wp_ctx *ctx, PGconn *c, enum wp_stmt st, int n, const char *const *v,
        const int *lens, const char *what)
{
	PGresult *r = wp_store_exec(c, st, n, v, lens);
	ExecStatusType s = PQresultStatus(r);
	if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK)
		return db_fail(ctx, c, r, what);
	PQclear(r);
	return WP_OK;
}

static int
viewer_of(const struct wp_game *g, int seat)
{
	if (wp_game_over(g))
		return WR_EVERYONE;
	return seat >= 0 ? seat : WR_SPECTATOR;
}

static void
etag_for(char *out, size_t cap, int64_t id, int version, int viewer)
{
	if (viewer == WR_EVERYONE)
		snprintf(out, cap, "\"g%lld-v%d-e\"", (long long)id, version);
	else if (viewer == WR_SPECTATOR)
		snprintf(out, cap, "\"g%lld-v%d-x\"", (long long)id, version);
	else
		snprintf(out, cap, "\"g%lld-v%d-s%d\"", (long long)id, version, viewer);
}

static int
etag_matches(const char *inm, const char *etag)
{
	return inm && (strstr(inm, etag) != NULL || strcmp(inm, "*") == 0);
}

static void *
load_state(const struct wp_game *g)
{
	struct wr_error err;
	void *state = NULL;
	json_object *snap;

	if (!g->state)
		return NULL;
	snap = json_tokener_parse(g->state);
	wp_metric_add(WP_METRIC_RULES_LOADS, 1);
	if (!snap || g->rs->load(snap, &state, &err) != 0) {
		wp_log("game %lld: snapshot does not load: %s", (long long)g->id,
		       snap ? err.message : "not JSON");
		state = NULL;
	}
	json_object_put(snap);
	return state;
}

static json_object *
game_json(const struct wp_game *g, const void *state, int viewer, int you)
{
	json_object *o = json_object_new_object(), *seats = json_object_new_array(), *dice;

	json_object_object_add(o, "id", json_object_new_int64(g->id));
	json_object_object_add(o, "ruleset", json_object_new_string(g->ruleset));
	json_object_object_add(o, "title", json_object_new_string(g->rs->title));
	json_object_object_add(o, "options", json_object_get(g->options));
	json_object_object_add(o, "status", json_object_new_string(g->status));
	json_object_object_add(o, "seq", json_object_new_int(g->seq));
	json_object_object_add(o, "version", json_object_new_int(g->version));
	for (int i = 0; i < g->nseats; i++) {
		json_object *s = json_object_new_object(), *p = NULL;
		json_object_object_add(s, "seat", json_object_new_int(i));
		if (g->seats[i].player_id) {
			p = json_object_new_object();
			json_object_object_add(p, "id", json_object_new_int64(g->seats[i].player_id));
			json_object_object_add(p, "name", json_object_new_string(g->seats[i].name));
		}
		json_object_object_add(s, "player", p);
		json_object_array_add(seats, s);
	}
	json_object_object_add(o, "seats", seats);
	json_object_object_add(o, "you", you >= 0 ? json_object_new_int(you) : NULL);
	json_object_object_add(o, "awaiting", seat_list(g->awaiting, g->nseats));
	json_object_object_add(o, "draw_offers", seat_list(g->draw_offers, g->nseats));
	json_object_object_add(o, "state", state ? g->rs->view(state, viewer) : NULL);
	json_object_object_add(o, "result", json_object_get(g->result));
	dice = json_object_new_object();
	json_object_object_add(dice, "commitment", jhex(g->commitment, 32));
	json_object_object_add(dice, "seed", wp_game_over(g) ? jhex(g->seed, 32) : NULL);
	json_object_object_add(o, "dice", dice);
	json_object_object_add(o, "created_at", json_object_new_string(g->created_at));
	json_object_object_add(o, "updated_at", json_object_new_string(g->updated_at));
	return o;
}

/* Body field checks at the edge (STYLE.md, "Validate at the edge"). */
static enum wp_err
body_only(struct wp_ctx *ctx, const char *const *known)
{
	if (!json_object_is_type(ctx->body, json_type_object))
		return wp_fail(ctx, WP_ERR_INVALID, "the body must be a JSON object");
	json_object_object_foreach(ctx->body, key, val) {
		(void)val;
		int ok = 0;
		for (const char *const *k = known; *k && !ok; k++)
			ok = strcmp(*k, key) == 0;
		if (!ok)
			return wp_fail(ctx, WP_ERR_INVALID, "%.64s: unknown field", key);
	}
	return WP_OK;
}

static enum wp_err
body_int(struct wp_ctx *ctx, const char *key, int64_t min, int64_t max, int required,
         int64_t def, int64_t *out)
{
	json_object *v;
	if (!json_object_object_get_ex(ctx->body, key, &v) || json_object_is_type(v, json_type_null)) {
		if (required)
			return wp_fail(ctx, WP_ERR_INVALID, "%s: required", key);
		*out = def;
		return WP_OK;
	}
	if (!json_object_is_type(v, json_type_int))
		return wp_fail(ctx, WP_ERR_INVALID, "%s: must be a whole number", key);
	*out = json_object_get_int64(v);
	if (*out < min || *out > max)
		return wp_fail(ctx, WP_ERR_INVALID, "%s: must be from %lld to %lld", key,
		               (long long)min, (long long)max);
	return WP_OK;
}

static enum wp_err
body_string(struct wp_ctx *ctx, const char *key, size_t max_chars, int allow_newlines,
            const char **out)
{
	json_object *v;
	size_t chars = 0;

	*out = NULL;
	if (!json_object_object_get_ex(ctx->body, key, &v) || json_object_is_type(v, json_type_null))
		return WP_OK;
	if (!json_object_is_type(v, json_type_string))
		return wp_fail(ctx, WP_ERR_INVALID, "%s: must be a string", key);
	*out = json_object_get_string(v);
	if ((size_t)json_object_get_string_len(v) != strlen(*out))
		return wp_fail(ctx, WP_ERR_INVALID, "%s: control characters are not allowed", key);
	for (const unsigned char *p = (const unsigned char *)*out; *p; p++) {
		if ((*p < 0x20 && !(allow_newlines && (*p == '\n' || *p == '\t'))) || *p == 0x7f)
			return wp_fail(ctx, WP_ERR_INVALID, "%s: control characters are not allowed", key);
		chars += (*p & 0xc0) != 0x80;
	}
	if (chars > max_chars)
		return wp_fail(ctx, WP_ERR_INVALID, "%s: at most %zu characters", key, max_chars);
	return WP_OK;
}

static enum wp_err
body_bool(struct wp_ctx *ctx, const char *key, int *out)
{
	json_object *v;
	*out = 0;
	if (!json_object_object_get_ex(ctx->body, key, &v) || json_object_is_type(v, json_type_null))
		return WP_OK;
	if (!json_object_is_type(v, json_type_boolean))
		return wp_fail(ctx, WP_ERR_INVALID, "%s: must be true or false", key);
	*out = json_object_get_boolean(v);
	return WP_OK;
}

/* A whole number from the query string within [min, max]; def when absent. */
static enum wp_err
query_int(struct wp_ctx *ctx, const char *name, int64_t min, int64_t max, int64_t def,
          int64_t *out)
{
	char buf[24], *end;
	int q = wp_query_param(ctx->req->query, name, buf, sizeof(buf));

	*out = def;
	if (q == 0)
		return WP_OK;
	if (q > 0 && buf[0] >= '0' && buf[0] <= '9' && strlen(buf) <= 18) {
		*out = strtoll(buf, &end, 10);
		if (*end == '\0' && *out >= min && *out <= max)
			return WP_OK;
	}
	return wp_fail(ctx, WP_ERR_INVALID, "%s: a whole number from %lld to %lld", name,
	               (long long)min, (long long)max);
}

static enum wp_err
check_client_seed(struct wp_ctx *ctx, const char **seed)
{
	enum wp_err err = body_string(ctx, "client_seed", WP_CLIENT_SEED_MAX, 0, seed);
	if (err == WP_OK && *seed && strlen(*seed) > WP_CLIENT_SEED_MAX)
		return wp_fail(ctx, WP_ERR_INVALID, "client_seed: at most %d bytes", WP_CLIENT_SEED_MAX);
	return err;
}

/* Ruleset errors become 422 with the ruleset's own code (RFC 9457 extra
 * members). Their texts never carry hidden information (RULINGS.md G5). */
static enum wp_err
rules_fail(struct wp_ctx *ctx, const char *slug, const struct wr_error *e, int index)
{
	if (index >= 0)
		wp_fail_extra(ctx, "index", json_object_new_int(index));
	wp_fail_extra(ctx, "code", json_object_new_string(e->code));
	if (e->field[0])
		wp_fail_extra(ctx, "field", json_object_new_string(e->field));
	return wp_fail_as(ctx, WP_ERR_UNPROCESSABLE, slug, "%s", e->message);
}

/* ------------------------------------------------------------- rulesets */

enum wp_err
wp_api_rulesets(struct wp_ctx *ctx)
{
	json_object *o = json_object_new_object(), *list = json_object_new_array();

	for (size_t i = 0; i < wr_ruleset_count(); i++) {
		const struct wr_ruleset *rs = wr_ruleset_at(i);
		json_object *r = json_object_new_object();
		json_object_object_add(r, "id", json_object_new_string(rs->id));
		json_object_object_add(r, "title", json_object_new_string(rs->title));
		json_object_object_add(r, "source", json_object_new_string(rs->source));
		json_object_object_add(r, "min_seats", json_object_new_int(rs->min_seats));
		json_object_object_add(r, "max_seats", json_object_new_int(rs->max_seats));
		json_object_object_add(r, "options", rs->options());
		json_object_array_add(list, r);
	}
	json_object_object_add(o, "rulesets", list);
	return wp_reply_json(ctx, 200, o);
}

/* --------------------------------------------------------------- create */

enum wp_err
wp_api_games_create(struct wp_ctx *ctx)
{
	static const char *const fields[] = {"ruleset", "options", "seats", "seat", "client_seed",
	                                     NULL};
	const char *ruleset, *client_seed;
	const struct wr_ruleset *rs;
	json_object *options = NULL, *v, *out = NULL;
	int64_t seats, seat;
	enum wp_err err;
	struct wp_player who;
	PGconn *c = NULL;
	PGresult *r;

	if ((err = body_only(ctx, fields)) || (err = body_string(ctx, "ruleset", 64, 0, &ruleset)))
		return err;
	if (!ruleset)
		return wp_fail(ctx, WP_ERR_INVALID, "ruleset: required");
	if ((err = body_int(ctx, "seats", 1, WR_MAX_SEATS, 0, 0, &seats)) ||
	    (err = body_int(ctx, "seat", 0, WR_MAX_SEATS - 1, 0, 0, &seat)) ||
	    (err = check_client_seed(ctx, &client_seed)))
		return err;
	if (json_object_object_get_ex(ctx->body, "options", &v) &&
	    !json_object_is_type(v, json_type_null)) {
		if (!json_object_is_type(v, json_type_object))
			return wp_fail(ctx, WP_ERR_INVALID, "options: must be an object");
		options = v;
	}
	rs = wr_ruleset_find(ruleset);
	if (!rs)
		return wp_fail_as(ctx, WP_ERR_UNPROCESSABLE, "unknown-ruleset",
		                  "this server has no ruleset \"%.64s\" (GET /api/rulesets lists them)",
		                  ruleset);
	if (seats == 0)
		seats = rs->min_seats;
	if (seats < rs->min_seats || seats > rs->max_seats)
		return wp_fail_as(ctx, WP_ERR_UNPROCESSABLE, "invalid-option",
		                  "seats: %s is for %d to %d seats", rs->id, rs->min_seats,
		                  rs->max_seats);
	if (seat >= seats)
		return wp_fail(ctx, WP_ERR_INVALID, "seat: must be below seats (%lld)", (long long)seats);

	/* The options are checked by building a start state with a throwaway
	 * dice stream; the real one is built when the last seat is taken. */
	{
		struct wr_rng rng;
		uint64_t st;
		struct wr_error e;
		void *state = NULL;
		json_object *opts = options ? json_object_get(options) : json_object_new_object();
		wr_rng_seeded(&rng, &st, 1);
		int rc = rs->create(opts, (int)seats, &rng, &state, &e);
		json_object_put(opts);
		if (rc != 0)
			return rules_fail(ctx, "invalid-option", &e, -1);
		rs->free(state);
	}

	c = wp_store_get(ctx->store);
	if (!c)
		return wp_fail(ctx, WP_ERR_DB_UNAVAILABLE, "the database does not answer");
	if ((err = wp_auth_player(ctx, c, &who)) != WP_OK)
		goto out;

	unsigned char seed[32], commitment[32];
	char idbuf[24], seatsbuf[16], pidbuf[24], seatbuf[16];
	randombytes_buf(seed, sizeof(seed));
	crypto_hash_sha256(commitment, seed, sizeof(seed));
	snprintf(seatsbuf, sizeof(seatsbuf), "%lld", (long long)seats);
	snprintf(pidbuf, sizeof(pidbuf), "%lld", (long long)who.id);
	const char *opt_text = options ? json_object_to_json_string_ext(options, JSON_C_TO_STRING_PLAIN)
	                               : "{}";
	if (wp_store_cmd(c, "BEGIN") != 0) {
		err = db_fail(ctx, c, NULL, "begin");
		goto out;
	}
	{
		const char *vals[6] = {ruleset, opt_text, seatsbuf, (const char *)seed,
		                       (const char *)commitment, pidbuf};
		const int lens[6] = {-1, -1, -1, 32, 32, -1};
		r = wp_store_exec(c, WP_STMT_GAME_INSERT, 6, vals, lens);
		if (PQresultStatus(r) != PGRES_TUPLES_OK) {
			err = db_fail(ctx, c, r, "game insert");
			goto rollback;
		}
		snprintf(idbuf, sizeof(idbuf), "%s", PQgetvalue(r, 0, 0));
		PQclear(r);
	}
	out = json_object_new_object();
	json_object *inv = json_object_new_array();
	for (int i = 0; i < seats; i++) {
		char code[33];
		unsigned char raw[16], hash[32];
		randombytes_buf(raw, sizeof(raw));
		sodium_bin2hex(code, sizeof(code), raw, sizeof(raw));
		crypto_hash_sha256(hash, (const unsigned char *)code, 32);
		snprintf(seatbuf, sizeof(seatbuf), "%d", i);
		int mine = i == seat;
		const char *vals[5] = {idbuf, seatbuf, mine ? pidbuf : NULL, (const char *)hash,
		                       mine && client_seed ? client_seed : ""};
		const int lens[5] = {-1, -1, -1, 32, -1};
		if ((err = exec_ok(ctx, c, WP_STMT_SEAT_INSERT, 5, vals, lens, "seat insert")) != WP_OK) {
			json_object_put(inv);
			goto rollback;
		}
		if (!mine) {
			json_object *one = json_object_new_object();
			json_object_object_add(one, "seat", json_object_new_int(i));
			json_object_object_add(one, "code", json_object_new_string(code));
			json_object_array_add(inv, one);
		}
	}
	if (wp_store_cmd(c, "COMMIT") != 0) {
		json_object_put(inv);
		err = db_fail(ctx, c, NULL, "commit");
		goto out;
	}
	json_object_object_add(out, "id", json_object_new_int64(strtoll(idbuf, NULL, 10)));
	json_object_object_add(out, "ruleset", json_object_new_string(rs->id));
	json_object_object_add(out, "seats", json_object_new_int((int)seats));
	json_object_object_add(out, "seat", json_object_new_int((int)seat));
	json_object_object_add(out, "status", json_object_new_string("open"));
	json_object_object_add(out, "commitment", jhex(commitment, 32));
	json_object_object_add(out, "invitations", inv);
	{
		char loc[48];
		snprintf(loc, sizeof(loc), "/api/games/%s", idbuf);
		wp_response_header(ctx->res, "Location", loc);
	}
	wp_store_put(ctx->store, c);
	return wp_reply_json(ctx, 201, out);
rollback:
	wp_store_cmd(c, "ROLLBACK");
out:
	json_object_put(out);
	wp_store_put(ctx->store, c);
	return err;
}

/* ------------------------------------------------------- writing a post */

struct post {
	int seat;                /* -1: the server (start) */
	const char *kind;
	json_object *content;    /* borrowed: actions, orders or NULL */
	const char *comment;
	int comment_hidden;
	unsigned draw_offers;
	const char *status;      /* new status, or NULL: from the ruleset result */
	json_object *result;     /* owned override (agreement, abort), or NULL */
};

/* Stores a post and the state after it, in the caller's transaction, and
 * NOTIFYs. `state` may be NULL (no ruleset state change). Fills *out with
 * the answer for the posting seat. */
static enum wp_err
store_post(struct wp_ctx *ctx, PGconn *c, struct wp_game *g, const void *state,
           struct post *p, struct wr_rng *rng, struct wr_events *ev, json_object **out)
{
	char idbuf[24], seqbuf[16], seatbuf[16], drawsbuf[24], fromdraws[24], awaitbuf[16],
		offersbuf[16];
	const char *status = p->status;
	json_object *result = p->result, *events, *rolls, *mine;
	char *state_text = NULL;
	unsigned awaiting = 0;
	enum wp_err err;

	if (state) {
		json_object *snap = g->rs->save(state);
		state_text = strdup(json_object_to_json_string_ext(snap, JSON_C_TO_STRING_PLAIN));
		json_object_put(snap);
		if (!result) {
			struct wr_result res;
			g->rs->result(state, &res);
			result = wp_result_json(&res, g->nseats);
		}
		awaiting = result ? 0 : g->rs->to_act(state);
	} else {
		state_text = g->state ? strdup(g->state) : NULL;
		awaiting = result ? 0 : g->awaiting;
	}
	if (!status)
		status = result ? "over" : "active";
	events = wp_events_store(ev);
	rolls = rng ? wp_rolls_json(rng) : json_object_new_array();
	mine = json_object_new_array();
	for (size_t i = 0; i < json_object_array_length(events); i++) {
		json_object *e = json_object_array_get_idx(events, i), *to, *body;
		json_object_object_get_ex(e, "to", &to);
		json_object_object_get_ex(e, "e", &body);
		int viewer = strcmp(status, "active") ? WR_EVERYONE : p->seat >= 0 ? p->seat : WR_SPECTATOR;
		if (wr_visible((unsigned)json_object_get_int(to), viewer))
			json_object_array_add(mine, json_object_get(body));
	}

	snprintf(idbuf, sizeof(idbuf), "%lld", (long long)g->id);
	snprintf(seqbuf, sizeof(seqbuf), "%d", g->seq + 1);
	snprintf(seatbuf, sizeof(seatbuf), "%d", p->seat);
	snprintf(fromdraws, sizeof(fromdraws), "%lld", (long long)g->draws);
	snprintf(drawsbuf, sizeof(drawsbuf), "%lld",
	         (long long)(rng ? (int64_t)rng->count : g->draws));
	snprintf(awaitbuf, sizeof(awaitbuf), "%u", awaiting);
	snprintf(offersbuf, sizeof(offersbuf), "%u", p->draw_offers);
	{
		const char *vals[10] = {
			idbuf, seqbuf, p->seat >= 0 ? seatbuf : NULL, p->kind,
			p->content ? json_object_to_json_string_ext(p->content, JSON_C_TO_STRING_PLAIN) : "[]",
			p->comment, p->comment_hidden ? "true" : "false",
			json_object_to_json_string_ext(events, JSON_C_TO_STRING_PLAIN), fromdraws,
			json_object_to_json_string_ext(rolls, JSON_C_TO_STRING_PLAIN)};
		if ((err = exec_ok(ctx, c, WP_STMT_POST_INSERT, 10, vals, NULL, "post insert")))
			goto out;
	}
	{
		const char *vals[9] = {
			idbuf, status, seqbuf, state_text, drawsbuf, awaitbuf, offersbuf,
			result ? json_object_to_json_string_ext(result, JSON_C_TO_STRING_PLAIN) : NULL,
			(const char *)g->client};
		const int lens[9] = {-1, -1, -1, -1, -1, -1, -1, -1, (int)g->client_len};
		if ((err = exec_ok(ctx, c, WP_STMT_GAME_UPDATE, 9, vals, lens, "game update")))
			goto out;
	}
	{
		const char *vals[1] = {idbuf};
		if ((err = exec_ok(ctx, c, WP_STMT_NOTIFY, 1, vals, NULL, "notify")))
			goto out;
	}
	*out = json_object_new_object();
	json_object_object_add(*out, "game", json_object_new_int64(g->id));
	json_object_object_add(*out, "seq", json_object_new_int(g->seq + 1));
	json_object_object_add(*out, "version", json_object_new_int(g->version + 1));
	json_object_object_add(*out, "status", json_object_new_string(status));
	json_object_object_add(*out, "awaiting", seat_list(awaiting, g->nseats));
	json_object_object_add(*out, "events", mine);
	mine = NULL;
	json_object_object_add(*out, "result", json_object_get(result));
out:
	json_object_put(mine);
	json_object_put(events);
	json_object_put(rolls);
	if (result != p->result)
		json_object_put(result);
	free(state_text);
	return err;
}

static void
hmac_stream(struct wp_game *g, struct wr_hmac_stream *hs, struct wr_rng *rng)
{
	memcpy(hs->seed, g->seed, 32);
	hs->client = g->client;
	hs->client_len = g->client_len;
	wr_rng_hmac(rng, hs, (uint64_t)g->draws);
	wr_rng_record(rng);
}

/* ----------------------------------------------------------------- join */

/* The last seat taken starts the match: the client seeds are fixed and the
 * ruleset builds the start state with the match's own dice (post 1). */
static enum wp_err
start_match(struct wp_ctx *ctx, PGconn *c, struct wp_game *g)
{
	struct wr_hmac_stream hs;
	struct wr_rng rng;
	struct wr_events ev = {0};
	struct wr_error e;
	void *state = NULL;
	json_object *res = NULL;
	enum wp_err err;

	g->client_len = wp_client_material(g->seats, g->nseats, g->client, sizeof(g->client));
	hmac_stream(g, &hs, &rng);
	if (g->rs->create(g->options, g->nseats, &rng, &state, &e) != 0) {
		wr_rng_record_free(&rng);
		wp_log("game %lld: create failed at start: %s", (long long)g->id, e.message);
		return rules_fail(ctx, "invalid-option", &e, -1);
	}
	struct post p = {.seat = -1, .kind = "start"};
	err = store_post(ctx, c, g, state, &p, &rng, &ev, &res);
	json_object_put(res);
	g->rs->free(state);
	wr_events_free(&ev);
	wr_rng_record_free(&rng);
	return err;
}

enum wp_err
wp_api_games_join(struct wp_ctx *ctx)
{
	static const char *const fields[] = {"code", "client_seed", NULL};
	const char *code, *client_seed;
	struct wp_player who;
	struct wp_game g = {0};
	int64_t id;
	enum wp_err err;
	PGconn *c;
	PGresult *r;
	int seat = -1;

	if ((err = game_id(ctx, &id)) || (err = body_only(ctx, fields)) ||
	    (err = body_string(ctx, "code", 64, 0, &code)) || (err = check_client_seed(ctx, &client_seed)))
		return err;
	if (!code)
		return wp_fail(ctx, WP_ERR_INVALID, "code: required");
	c = wp_store_get(ctx->store);
	if (!c)
		return wp_fail(ctx, WP_ERR_DB_UNAVAILABLE, "the database does not answer");
	if ((err = wp_auth_player(ctx, c, &who)))
		goto out;
	if (wp_store_cmd(c, "BEGIN") != 0) {
		err = db_fail(ctx, c, NULL, "begin");
		goto out;
	}
	if ((err = wp_game_load(ctx, c, id, 1, &g)))
		goto rollback;
	{
		unsigned char hash[32];
		char idbuf[24];
		crypto_hash_sha256(hash, (const unsigned char *)code, strlen(code));
		snprintf(idbuf, sizeof(idbuf), "%lld", (long long)id);
		const char *vals[2] = {idbuf, (const char *)hash};
		const int lens[2] = {-1, 32};
		r = wp_store_exec(c, WP_STMT_SEAT_BY_INVITE, 2, vals, lens);
		if (PQresultStatus(r) != PGRES_TUPLES_OK) {
			err = db_fail(ctx, c, r, "invite");
			goto rollback;
		}
		if (PQntuples(r) == 0) {
			PQclear(r);
			err = wp_fail_as(ctx, WP_ERR_FORBIDDEN, "invalid-invitation",
			                 "this invitation code is not valid for match %lld", (long long)id);
			goto rollback;
		}
		seat = atoi(PQgetvalue(r, 0, 0));
		PQclear(r);
	}
	if (g.seats[seat].player_id == who.id) {
		/* A retried join answers as the first did. */
		wp_store_cmd(c, "ROLLBACK");
		goto answer;
	}
	if (g.seats[seat].player_id) {
		err = wp_fail_as(ctx, WP_ERR_CONFLICT, "invitation-used",
		                 "this invitation has been used by another player");
		goto rollback;
	}
	if (wp_game_seat_of(&g, who.id) >= 0) {
		err = wp_fail_as(ctx, WP_ERR_CONFLICT, "already-seated",
		                 "you already hold a seat in this match");
		goto rollback;
	}
	if (strcmp(g.status, "open") != 0) {
		err = wp_fail_as(ctx, WP_ERR_CONFLICT, "game-not-open", "the match is %s", g.status);
		goto rollback;
	}
	{
		char idbuf[24], seatbuf[16], pidbuf[24];
		snprintf(idbuf, sizeof(idbuf), "%lld", (long long)id);
		snprintf(seatbuf, sizeof(seatbuf), "%d", seat);
		snprintf(pidbuf, sizeof(pidbuf), "%lld", (long long)who.id);
		const char *vals[4] = {idbuf, seatbuf, pidbuf, client_seed ? client_seed : ""};
		if ((err = exec_ok(ctx, c, WP_STMT_SEAT_JOIN, 4, vals, NULL, "join")))
			goto rollback;
		g.seats[seat].player_id = who.id;
		snprintf(g.seats[seat].name, sizeof(g.seats[seat].name), "%s", who.name);
		snprintf(g.seats[seat].client_seed, sizeof(g.seats[seat].client_seed), "%s",
		         client_seed ? client_seed : "");
		int full = 1;
		for (int i = 0; i < g.nseats; i++)
			full &= g.seats[i].player_id != 0;
		if (full) {
			if ((err = start_match(ctx, c, &g)))
				goto rollback;
		} else {
			const char *v1[1] = {idbuf};
			if ((err = exec_ok(ctx, c, WP_STMT_GAME_BUMP, 1, v1, NULL, "bump")) ||
			    (err = exec_ok(ctx, c, WP_STMT_NOTIFY, 1, v1, NULL, "notify")))
				goto rollback;
		}
	}
	if (wp_store_cmd(c, "COMMIT") != 0) {
		err = db_fail(ctx, c, NULL, "commit");
		goto out;
	}
answer:;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "game", json_object_new_int64(id));
	json_object_object_add(o, "seat", json_object_new_int(seat));
	wp_game_free(&g);
	wp_store_put(ctx->store, c);
	return wp_reply_json(ctx, 200, o);
rollback:
	wp_store_cmd(c, "ROLLBACK");
out:
	wp_game_free(&g);
	wp_store_put(ctx->store, c);
	return err;
}

/* ----------------------------------------------------------------- view */

enum wp_err
wp_api_games_get(struct wp_ctx *ctx)
{
	struct wp_player who;
	struct wp_game g = {0};
	int64_t id, wait = 0;
	enum wp_err err;
	char etag[64];
	void *state = NULL;
	PGconn *c;

	if ((err = game_id(ctx, &id)) || (err = query_int(ctx, "wait", 0, WP_WAIT_MAX, 0, &wait)))
		return err;
	/* Read the generation before the database, so that a change committed
	 * after our read still wakes us (wait.h). */
	uint64_t gen = wp_wait_gen(id);
	c = wp_store_get(ctx->store);
	if (!c)
		return wp_fail(ctx, WP_ERR_DB_UNAVAILABLE, "the database does not answer");
	memset(&who, 0, sizeof(who));
	{
		/* The ETag comes from the game row alone: a 304 loads no snapshot,
		 * and costs one round trip with the token checked in it. */
		unsigned char hash[32];
		int token;
		char idbuf[24];
		if ((err = wp_auth_token(ctx, hash, &token)))
			goto out;
		snprintf(idbuf, sizeof(idbuf), "%lld", (long long)id);
		const char *vals[2] = {idbuf, token ? (const char *)hash : NULL};
		const int lens[2] = {-1, 32};
		PGresult *r = wp_store_exec(c, WP_STMT_GAME_HEAD, 2, vals, lens);
		if (PQresultStatus(r) != PGRES_TUPLES_OK) {
			err = db_fail(ctx, c, r, "head");
			goto out;
		}
		if (PQntuples(r) == 0) {
			PQclear(r);
			err = wp_fail_as(ctx, WP_ERR_NOT_FOUND, "game-not-found", "there is no match %lld",
			                 (long long)id);
			goto out;
		}
		if (token && PQgetisnull(r, 0, 3)) {
			PQclear(r);
			err = wp_auth_unknown(ctx);
			goto out;
		}
		if (token) {
			who.id = strtoll(PQgetvalue(r, 0, 3), NULL, 10);
			snprintf(who.name, sizeof(who.name), "%s", PQgetvalue(r, 0, 4));
		}
		int version = atoi(PQgetvalue(r, 0, 0));
		const char *status = PQgetvalue(r, 0, 1);
		int over = strcmp(status, "over") == 0 || strcmp(status, "aborted") == 0;
		int seat = PQgetisnull(r, 0, 2) ? -1 : atoi(PQgetvalue(r, 0, 2));
		etag_for(etag, sizeof(etag), id, version, over ? WR_EVERYONE : seat >= 0 ? seat : WR_SPECTATOR);
		PQclear(r);
		if (etag_matches(wp_request_header(ctx->req, "If-None-Match"), etag)) {
			int64_t now = wp_now_ns();
			int64_t until = ctx->req->wait_until_ns ? ctx->req->wait_until_ns
			                                        : now + wait * 1000000000;
			wp_response_header(ctx->res, "ETag", etag);
			wp_response_header(ctx->res, "Cache-Control", "private, no-cache");
			if (wait > 0 && ctx->req->can_wait && now < until) {
				ctx->res->wait_game = id;
				ctx->res->wait_gen = gen;
				ctx->res->wait_until_ns = until;
				ctx->res->status = 0;
				if (!ctx->req->wait_until_ns)
					wp_metric_add(WP_METRIC_LONGPOLLS, 1);
			} else {
				ctx->res->status = 304;
			}
			goto out;
		}
	}
	if ((err = wp_game_load(ctx, c, id, 0, &g)))
		goto out;
	wp_store_put(ctx->store, c);
	c = NULL;
	int seat = wp_game_seat_of(&g, who.id);
	int viewer = viewer_of(&g, seat);
	etag_for(etag, sizeof(etag), id, g.version, viewer);
	state = load_state(&g);
	if (g.state && !state) {
		err = wp_fail(ctx, WP_ERR_INTERNAL, "the match's state could not be read");
		goto out;
	}
	json_object *o = game_json(&g, state, viewer, seat);
	wp_response_header(ctx->res, "ETag", etag);
	wp_response_header(ctx->res, "Cache-Control", "private, no-cache");
	wp_response_header(ctx->res, "Vary", "Authorization");
	err = wp_reply_json(ctx, 200, o);
out:
	if (state)
		g.rs->free(state);
	wp_game_free(&g);
	wp_store_put(ctx->store, c);
	return err;
}

/* -------------------------------------------------------------- actions */

enum wp_err
wp_api_games_actions(struct wp_ctx *ctx)
{
	struct wp_player who;
	struct wp_game g = {0};
	int64_t id;
	enum wp_err err;
	void *state = NULL;
	PGconn *c;

	if ((err = game_id(ctx, &id)))
		return err;
	c = wp_store_get(ctx->store);
	if (!c)
		return wp_fail(ctx, WP_ERR_DB_UNAVAILABLE, "the database does not answer");
	if ((err = wp_auth_player(ctx, c, &who)) || (err = wp_game_load(ctx, c, id, 0, &g)))
		goto out;
	wp_store_put(ctx->store, c);
	c = NULL;
	int seat = wp_game_seat_of(&g, who.id);
	if (seat < 0) {
		err = wp_fail_as(ctx, WP_ERR_FORBIDDEN, "not-a-player", "you hold no seat in this match");
		goto out;
	}
	json_object *o = json_object_new_object();
	json_object_object_add(o, "game", json_object_new_int64(id));
	json_object_object_add(o, "seq", json_object_new_int(g.seq));
	json_object_object_add(o, "seat", json_object_new_int(seat));
	int awaited = strcmp(g.status, "active") == 0 && (g.awaiting & (1u << seat));
	json_object_object_add(o, "awaited", json_object_new_boolean(awaited));
	state = awaited ? load_state(&g) : NULL;
	json_object_object_add(o, "actions", state ? g.rs->actions(state, seat) : json_object_new_array());
	err = wp_reply_json(ctx, 200, o);
out:
	if (state)
		g.rs->free(state);
	wp_game_free(&g);
	wp_store_put(ctx->store, c);
	return err;
}

/* ------------------------------------------------- mutations of a match */

/* One write to a match: lock the row, answer a retried Idempotency-Key
 * with the first answer byte for byte, check the seat, change, store the
 * answer with the key, commit. */
typedef enum wp_err (*mutate_fn)(struct wp_ctx *ctx, PGconn *c, struct wp_game *g, int seat,
                                 json_object **out);

static int
idem_key_ok(const char *k)
{
	size_t n = strlen(k);
	if (n == 0 || n > 255)
		return 0;
	for (const char *p = k; *p; p++)
		if (*p < 0x21 || *p > 0x7e)
			return 0;
	return 1;
}

static enum wp_err
mutate(struct wp_ctx *ctx, mutate_fn fn)
{
	struct wp_player who;
	struct wp_game g = {0};
	int64_t id;
	enum wp_err err;
	const char *key = wp_request_header(ctx->req, "Idempotency-Key");
	unsigned char reqhash[32];
	char idbuf[24], pidbuf[24];
	json_object *out = NULL;
	PGconn *c;
	PGresult *r;

	if ((err = game_id(ctx, &id)))
		return err;
	if (key && !idem_key_ok(key))
		return wp_fail(ctx, WP_ERR_INVALID,
		               "Idempotency-Key: 1 to 255 visible ASCII characters");
	{
		crypto_hash_sha256_state hs;
		crypto_hash_sha256_init(&hs);
		crypto_hash_sha256_update(&hs, (const unsigned char *)ctx->req->path, strlen(ctx->req->path));
		crypto_hash_sha256_update(&hs, (const unsigned char *)"\n", 1);
		if (ctx->req->body_len)
			crypto_hash_sha256_update(&hs, (const unsigned char *)ctx->req->body, ctx->req->body_len);
		crypto_hash_sha256_final(&hs, reqhash);
	}
	c = wp_store_get(ctx->store);
	if (!c)
		return wp_fail(ctx, WP_ERR_DB_UNAVAILABLE, "the database does not answer");
	if ((err = wp_auth_player(ctx, c, &who)))
		goto out;
	snprintf(idbuf, sizeof(idbuf), "%lld", (long long)id);
	snprintf(pidbuf, sizeof(pidbuf), "%lld", (long long)who.id);
	if (wp_store_cmd(c, "BEGIN") != 0) {
		err = db_fail(ctx, c, NULL, "begin");
		goto out;
	}
	if ((err = wp_game_load(ctx, c, id, 1, &g)))
		goto rollback;
	if (key) {
		const char *vals[3] = {idbuf, pidbuf, key};
		r = wp_store_exec(c, WP_STMT_IDEM_GET, 3, vals, NULL);
		if (PQresultStatus(r) != PGRES_TUPLES_OK) {
			err = db_fail(ctx, c, r, "idempotency");
			goto rollback;
		}
		if (PQntuples(r) == 1) {
			unsigned char stored[32];
			int same = wp_bytea_decode(PQgetvalue(r, 0, 0), stored, 32) == 32 &&
			           memcmp(stored, reqhash, 32) == 0;
			if (same) {
				int status = atoi(PQgetvalue(r, 0, 1));
				wp_response_json(ctx->res, status, PQgetvalue(r, 0, 2));
				wp_response_header(ctx->res, "Idempotent-Replayed", "true");
			}
			PQclear(r);
			wp_store_cmd(c, "ROLLBACK");
			if (!same)
				err = wp_fail_as(ctx, WP_ERR_UNPROCESSABLE, "idempotency-key-reused",
				                 "this Idempotency-Key was used with another request");
			goto out;
		}
		PQclear(r);
	}
	int seat = wp_game_seat_of(&g, who.id);
	if (seat < 0) {
		err = wp_fail_as(ctx, WP_ERR_FORBIDDEN, "not-a-player", "you hold no seat in this match");
		goto rollback;
	}
	if ((err = fn(ctx, c, &g, seat, &out)))
		goto rollback;
	const char *text = json_object_to_json_string_ext(out, JSON_C_TO_STRING_PLAIN |
	                                                           JSON_C_TO_STRING_NOSLASHESCAPE);
	if (key) {
		const char *vals[6] = {idbuf, pidbuf, key, (const char *)reqhash, "200", text};
		const int lens[6] = {-1, -1, -1, 32, -1, -1};
		if ((err = exec_ok(ctx, c, WP_STMT_IDEM_PUT, 6, vals, lens, "idempotency put")))
			goto rollback;
	}
	if (wp_store_cmd(c, "COMMIT") != 0) {
		err = db_fail(ctx, c, NULL, "commit");
		goto out;
	}
	wp_response_json(ctx->res, 200, text);
	goto out;
rollback:
	wp_store_cmd(c, "ROLLBACK");
out:
	json_object_put(out);
	wp_game_free(&g);
	wp_store_put(ctx->store, c);
	return err;
}

static enum wp_err
must_be_active(struct wp_ctx *ctx, const struct wp_game *g)
{
	if (strcmp(g->status, "active") == 0)
		return WP_OK;
	if (strcmp(g->status, "open") == 0)
		return wp_fail_as(ctx, WP_ERR_CONFLICT, "game-not-started",
		                  "the match starts when every seat is taken");
	return wp_fail_as(ctx, WP_ERR_CONFLICT, "game-over", "the match is %s", g->status);
}

/* Loads the state, applies one post, stores it. */
static enum wp_err
apply_and_store(struct wp_ctx *ctx, PGconn *c, struct wp_game *g, struct post *p,
                json_object **out)
{
	struct wr_hmac_stream hs;
	struct wr_rng rng;
	struct wr_events ev = {0};
	struct wr_error e;
	int bad = -1;
	enum wp_err err;
	void *state = load_state(g);

	if (!state)
		return wp_fail(ctx, WP_ERR_INTERNAL, "the match's state could not be read");
	hmac_stream(g, &hs, &rng);
	if (wp_apply_post(g->rs, state, p->seat, p->kind, p->content, &rng, &ev, &e, &bad) != 0)
		err = strcmp(e.code, "not-awaited") == 0 && bad == 0
		      ? wp_fail_as(ctx, WP_ERR_CONFLICT, "not-awaited", "%s", "you are not awaited now")
		      : rules_fail(ctx, strcmp(p->kind, "orders") == 0 ? "invalid-orders" : "illegal-action",
		                   &e, bad);
	else
		err = store_post(ctx, c, g, state, p, &rng, &ev, out);
	g->rs->free(state);
	wr_events_free(&ev);
	wr_rng_record_free(&rng);
	return err;
}

/* A post made against an older seq still stands when everything posted
 * since is a side post — standing orders (private, and the poster could
 * not have seen them anyway) or a draw offered or declined — since none
 * changes the position the poster chose from. */
static int
only_side_posts_since(struct wp_ctx *ctx, PGconn *c, const struct wp_game *g, int64_t seq)
{
	char idbuf[24], seqbuf[24];
	int ok;

	if (seq > g->seq || seq < 1)
		return 0;
	snprintf(idbuf, sizeof(idbuf), "%lld", (long long)g->id);
	snprintf(seqbuf, sizeof(seqbuf), "%lld", (long long)seq);
	const char *vals[2] = {idbuf, seqbuf};
	PGresult *r = wp_store_exec(c, WP_STMT_POSTS_SINCE_MOVES, 2, vals, NULL);
	ok = PQresultStatus(r) == PGRES_TUPLES_OK && strcmp(PQgetvalue(r, 0, 0), "0") == 0;
	PQclear(r);
	(void)ctx;
	return ok;
}

static enum wp_err
do_turn(struct wp_ctx *ctx, PGconn *c, struct wp_game *g, int seat, json_object **out)
{
	json_object *actions;
	const char *comment;
	int hidden;
	int64_t seq;
	enum wp_err err;

	if ((err = body_int(ctx, "seq", 0, INT32_MAX, 1, 0, &seq)) ||
	    (err = body_string(ctx, "comment", WP_COMMENT_MAX, 1, &comment)) ||
	    (err = body_bool(ctx, "comment_hidden", &hidden)))
		return err;
	json_object_object_get_ex(ctx->body, "actions", &actions);
	if ((err = must_be_active(ctx, g)))
		return err;
	if (seq != g->seq && !only_side_posts_since(ctx, c, g, seq)) {
		wp_fail_extra(ctx, "seq", json_object_new_int(g->seq));
		return wp_fail_as(ctx, WP_ERR_CONFLICT, "stale-sequence",
		                  "the match is at post %d, not %lld: reload and try again", g->seq,
		                  (long long)seq);
	}
	if (!(g->awaiting & (1u << seat)))
		return wp_fail_as(ctx, WP_ERR_CONFLICT, "not-awaited", "the match is not waiting for you");
	struct post p = {.seat = seat, .kind = "turn", .content = actions, .comment = comment,
	                 .comment_hidden = hidden};
	return apply_and_store(ctx, c, g, &p, out);
}

/* Shape checks before any lock is taken. */
enum wp_err
wp_api_games_turn(struct wp_ctx *ctx)
{
	static const char *const fields[] = {"seq", "actions", "comment", "comment_hidden", NULL};
	json_object *actions;
	enum wp_err err;

	if ((err = body_only(ctx, fields)))
		return err;
	if (!json_object_object_get_ex(ctx->body, "actions", &actions) ||
	    !json_object_is_type(actions, json_type_array))
		return wp_fail(ctx, WP_ERR_INVALID, "actions: required, an array");
	size_t n = json_object_array_length(actions);
	if (n < 1 || n > WP_MAX_ACTIONS)
		return wp_fail(ctx, WP_ERR_INVALID, "actions: 1 to %d actions", WP_MAX_ACTIONS);
	for (size_t i = 0; i < n; i++)
		if (!json_object_is_type(json_object_array_get_idx(actions, i), json_type_object))
			return wp_fail(ctx, WP_ERR_INVALID, "actions[%zu]: must be an object", i);
	return mutate(ctx, do_turn);
}

static enum wp_err
do_orders(struct wp_ctx *ctx, PGconn *c, struct wp_game *g, int seat, json_object **out)
{
	json_object *orders;
	enum wp_err err;

	if ((err = must_be_active(ctx, g)))
		return err;
	json_object_object_get_ex(ctx->body, "orders", &orders);
	struct post p = {.seat = seat, .kind = "orders", .content = orders,
	                 .draw_offers = g->draw_offers};
	return apply_and_store(ctx, c, g, &p, out);
}

enum wp_err
wp_api_games_orders(struct wp_ctx *ctx)
{
	static const char *const fields[] = {"orders", NULL};
	json_object *orders;
	enum wp_err err;

	if ((err = body_only(ctx, fields)))
		return err;
	if (!json_object_object_get_ex(ctx->body, "orders", &orders) ||
	    !json_object_is_type(orders, json_type_object))
		return wp_fail(ctx, WP_ERR_INVALID, "orders: required, an object");
	return mutate(ctx, do_orders);
}

static enum wp_err
do_resign(struct wp_ctx *ctx, PGconn *c, struct wp_game *g, int seat, json_object **out)
{
	enum wp_err err;

	if ((err = must_be_active(ctx, g)))
		return err;
	struct post p = {.seat = seat, .kind = "resign", .draw_offers = 0};
	return apply_and_store(ctx, c, g, &p, out);
}

enum wp_err
wp_api_games_resign(struct wp_ctx *ctx)
{
	enum wp_err err;
	static const char *const fields[] = {NULL};

	if (ctx->body && (err = body_only(ctx, fields)))
		return err;
	return mutate(ctx, do_resign);
}

static unsigned
seats_in(const struct wp_game *g)
{
	unsigned all = (1u << g->nseats) - 1, in = all;
	void *state;

	if (g->rs->seats_in && (state = load_state(g)) != NULL) {
		in = g->rs->seats_in(state) & all;
		g->rs->free(state);
	}
	return in;
}

static enum wp_err
do_draw(struct wp_ctx *ctx, PGconn *c, struct wp_game *g, int seat, json_object **out)
{
	const char *what;
	enum wp_err err;
	unsigned in, offers = g->draw_offers;

	if ((err = body_string(ctx, "action", 16, 0, &what)) || (err = must_be_active(ctx, g)))
		return err;
	in = seats_in(g);
	if (!what || (strcmp(what, "offer") && strcmp(what, "accept") && strcmp(what, "decline")))
		return wp_fail(ctx, WP_ERR_INVALID, "action: offer, accept or decline");
	if (!(in & (1u << seat)))
		return wp_fail_as(ctx, WP_ERR_CONFLICT, "not-in-play", "your seat is out of the match");
	struct post p = {.seat = seat};
	if (strcmp(what, "offer") == 0) {
		if (offers & (1u << seat))
			return wp_fail_as(ctx, WP_ERR_CONFLICT, "draw-already-offered",
			                  "you have offered a draw already");
		p.kind = "draw_offer";
		offers |= 1u << seat;
	} else if (strcmp(what, "accept") == 0) {
		if (!(offers & ~(1u << seat)))
			return wp_fail_as(ctx, WP_ERR_CONFLICT, "no-draw-offer", "no draw is on offer");
		p.kind = "draw_accept";
		offers |= 1u << seat;
	} else {
		if (!(offers & ~(1u << seat)))
			return wp_fail_as(ctx, WP_ERR_CONFLICT, "no-draw-offer", "no draw is on offer");
		p.kind = "draw_decline";
		offers = 0;
	}
	p.draw_offers = offers;
	if ((offers & in) == in) {
		p.result = json_object_new_object();
		json_object_object_add(p.result, "winners", json_object_new_array());
		json_object_object_add(p.result, "draw", json_object_new_boolean(1));
		json_object_object_add(p.result, "reason", json_object_new_string("agreement"));
		p.status = "over";
		p.draw_offers = 0;
	}
	struct wr_events ev = {0};
	err = store_post(ctx, c, g, NULL, &p, NULL, &ev, out);
	json_object_put(p.result);
	return err;
}

enum wp_err
wp_api_games_draw(struct wp_ctx *ctx)
{
	static const char *const fields[] = {"action", NULL};
	enum wp_err err;

	if ((err = body_only(ctx, fields)))
		return err;
	return mutate(ctx, do_draw);
}

/* Abort: before the first turn, by any seated player. */
static enum wp_err
do_abort(struct wp_ctx *ctx, PGconn *c, struct wp_game *g, int seat, json_object **out)
{
	char idbuf[24];
	snprintf(idbuf, sizeof(idbuf), "%lld", (long long)g->id);
	const char *vals[1] = {idbuf};
	PGresult *r = wp_store_exec(c, WP_STMT_HAS_TURN, 1, vals, NULL);
	if (PQresultStatus(r) != PGRES_TUPLES_OK)
		return db_fail(ctx, c, r, "has turn");
	int first_turn_done = strcmp(PQgetvalue(r, 0, 0), "t") == 0;
	PQclear(r);

	if (wp_game_over(g))
		return wp_fail_as(ctx, WP_ERR_CONFLICT, "game-over", "the match is %s", g->status);
	if (first_turn_done)
		return wp_fail_as(ctx, WP_ERR_CONFLICT, "game-under-way",
		                  "a match can be aborted only before its first turn; resign instead");
	struct post p = {.seat = seat, .kind = "abort", .status = "aborted"};
	p.result = json_object_new_object();
	json_object_object_add(p.result, "winners", json_object_new_array());
	json_object_object_add(p.result, "draw", json_object_new_boolean(0));
	json_object_object_add(p.result, "reason", json_object_new_string("aborted"));
	struct wr_events ev = {0};
	enum wp_err err = store_post(ctx, c, g, NULL, &p, NULL, &ev, out);
	json_object_put(p.result);
	return err;
}

enum wp_err
wp_api_games_abort(struct wp_ctx *ctx)
{
	enum wp_err err;
	static const char *const fields[] = {NULL};

	if (ctx->body && (err = body_only(ctx, fields)))
		return err;
	return mutate(ctx, do_abort);
}

/* ------------------------------------------------------------- the log */

/* One post as a viewer may see it: its actions and standing orders only
 * for the poster (everyone once the match is over), events filtered by
 * their visibility, a hidden comment only for its writer until the end. */
static json_object *
post_json(PGresult *r, int i, int viewer, int over)
{
	json_object *o = json_object_new_object(), *ev, *vis = json_object_new_array();
	int seat = PQgetisnull(r, i, 1) ? -1 : atoi(PQgetvalue(r, i, 1));
	int mine = over || (seat >= 0 && seat == viewer);
	int hidden = strcmp(PQgetvalue(r, i, 5), "t") == 0;

	json_object_object_add(o, "seq", json_object_new_int(atoi(PQgetvalue(r, i, 0))));
	json_object_object_add(o, "seat", seat >= 0 ? json_object_new_int(seat) : NULL);
	json_object_object_add(o, "kind", json_object_new_string(PQgetvalue(r, i, 2)));
	json_object_object_add(o, "at", json_object_new_string(PQgetvalue(r, i, 8)));
	json_object_object_add(o, "actions", mine ? json_tokener_parse(PQgetvalue(r, i, 3)) : NULL);
	json_object_object_add(o, "comment_hidden", json_object_new_boolean(hidden));
	json_object_object_add(o, "comment",
	                       !PQgetisnull(r, i, 4) && (!hidden || mine)
	                           ? json_object_new_string(PQgetvalue(r, i, 4))
	                           : NULL);
	ev = json_tokener_parse(PQgetvalue(r, i, 6));
	for (size_t k = 0; ev && k < json_object_array_length(ev); k++) {
		json_object *e = json_object_array_get_idx(ev, k), *to, *body;
		json_object_object_get_ex(e, "to", &to);
		json_object_object_get_ex(e, "e", &body);
		if (wr_visible((unsigned)json_object_get_int(to), viewer))
			json_object_array_add(vis, json_object_get(body));
	}
	json_object_put(ev);
	json_object_object_add(o, "events", vis);
	if (over)
		json_object_object_add(o, "rolls", json_tokener_parse(PQgetvalue(r, i, 7)));
	return o;
}

enum wp_err
wp_api_games_posts(struct wp_ctx *ctx)
{
	struct wp_player who;
	struct wp_game g = {0};
	int64_t id, after, limit;
	char idbuf[24], afterbuf[24], limitbuf[24];
	enum wp_err err;
	PGconn *c;
	PGresult *r;

	if ((err = game_id(ctx, &id)) || (err = query_int(ctx, "after", 0, INT32_MAX, 0, &after)) ||
	    (err = query_int(ctx, "limit", 1, 500, 100, &limit)))
		return err;
	c = wp_store_get(ctx->store);
	if (!c)
		return wp_fail(ctx, WP_ERR_DB_UNAVAILABLE, "the database does not answer");
	if ((err = optional_player(ctx, c, &who)) || (err = wp_game_load(ctx, c, id, 0, &g)))
		goto out;
	snprintf(idbuf, sizeof(idbuf), "%lld", (long long)id);
	snprintf(afterbuf, sizeof(afterbuf), "%lld", (long long)after);
	snprintf(limitbuf, sizeof(limitbuf), "%lld", (long long)limit);
	const char *vals[3] = {idbuf, afterbuf, limitbuf};
	r = wp_store_exec(c, WP_STMT_POSTS_PAGE, 3, vals, NULL);
	if (PQresultStatus(r) != PGRES_TUPLES_OK) {
		err = db_fail(ctx, c, r, "posts");
		goto out;
	}
	int viewer = viewer_of(&g, wp_game_seat_of(&g, who.id));
	int over = wp_game_over(&g);
	json_object *o = json_object_new_object(), *list = json_object_new_array();
	int last = -1;
	for (int i = 0; i < PQntuples(r); i++) {
		json_object_array_add(list, post_json(r, i, viewer, over));
		last = atoi(PQgetvalue(r, i, 0));
	}
	PQclear(r);
	json_object_object_add(o, "game", json_object_new_int64(id));
	json_object_object_add(o, "seq", json_object_new_int(g.seq));
	json_object_object_add(o, "posts", list);
	json_object_object_add(o, "next_after",
	                       last >= 0 && last < g.seq ? json_object_new_int(last) : NULL);
	err = wp_reply_json(ctx, 200, o);
out:
	wp_game_free(&g);
	wp_store_put(ctx->store, c);
	return err;
}

/* ----------------------------------------------------------- my matches */

enum wp_err
wp_api_me_games(struct wp_ctx *ctx)
{
	struct wp_player who;
	int64_t limit, offset;
	char pidbuf[24], limitbuf[24], offbuf[24];
	enum wp_err err;
	PGconn *c;
	PGresult *r;

	if ((err = query_int(ctx, "limit", 1, 200, 50, &limit)) ||
	    (err = query_int(ctx, "offset", 0, INT32_MAX, 0, &offset)))
		return err;
	c = wp_store_get(ctx->store);
	if (!c)
		return wp_fail(ctx, WP_ERR_DB_UNAVAILABLE, "the database does not answer");
	if ((err = wp_auth_player(ctx, c, &who)))
		goto out;
	snprintf(pidbuf, sizeof(pidbuf), "%lld", (long long)who.id);
	snprintf(limitbuf, sizeof(limitbuf), "%lld", (long long)limit);
	snprintf(offbuf, sizeof(offbuf), "%lld", (long long)offset);
	const char *vals[3] = {pidbuf, limitbuf, offbuf};
	r = wp_store_exec(c, WP_STMT_ME_GAMES, 3, vals, NULL);
	if (PQresultStatus(r) != PGRES_TUPLES_OK) {
		err = db_fail(ctx, c, r, "my games");
		goto out;
	}
	json_object *o = json_object_new_object(), *list = json_object_new_array();
	int awaiting = 0;
	for (int i = 0; i < PQntuples(r); i++) {
		json_object *g = json_object_new_object();
		int aw = strcmp(PQgetvalue(r, i, 6), "t") == 0 && strcmp(PQgetvalue(r, i, 2), "active") == 0;
		awaiting += aw;
		json_object_object_add(g, "id", json_object_new_int64(strtoll(PQgetvalue(r, i, 0), NULL, 10)));
		json_object_object_add(g, "ruleset", json_object_new_string(PQgetvalue(r, i, 1)));
		json_object_object_add(g, "status", json_object_new_string(PQgetvalue(r, i, 2)));
		json_object_object_add(g, "seq", json_object_new_int(atoi(PQgetvalue(r, i, 3))));
		json_object_object_add(g, "seats", json_object_new_int(atoi(PQgetvalue(r, i, 4))));
		json_object_object_add(g, "seat", json_object_new_int(atoi(PQgetvalue(r, i, 5))));
		json_object_object_add(g, "awaiting_you", json_object_new_boolean(aw));
		json_object_object_add(g, "updated_at", json_object_new_string(PQgetvalue(r, i, 7)));
		json_object_array_add(list, g);
	}
	int count = PQntuples(r) ? atoi(PQgetvalue(r, 0, 8)) : 0;
	if (!PQntuples(r) && offset > 0) {
		/* A page past the end has no row to carry the count. */
		PGresult *n = wp_store_exec(c, WP_STMT_ME_GAMES_COUNT, 1, vals, NULL);
		if (PQresultStatus(n) == PGRES_TUPLES_OK)
			count = atoi(PQgetvalue(n, 0, 0));
		PQclear(n);
	}
	json_object_object_add(o, "count", json_object_new_int(count));
	json_object_object_add(o, "awaiting_you_on_page", json_object_new_int(awaiting));
	json_object_object_add(o, "games", list);
	PQclear(r);
	err = wp_reply_json(ctx, 200, o);
out:
	wp_store_put(ctx->store, c);
	return err;
}

/* ---------------------------------------------------- export and verify */

static enum wp_err
build_export(struct wp_ctx *ctx, int64_t id, json_object **doc)
{
	struct wp_game g = {0};
	enum wp_err err;
	char idbuf[24];
	PGconn *c = wp_store_get(ctx->store);
	PGresult *r;

	*doc = NULL;
	if (!c)
		return wp_fail(ctx, WP_ERR_DB_UNAVAILABLE, "the database does not answer");
	if ((err = wp_game_load(ctx, c, id, 0, &g)))
		goto out;
	if (!wp_game_over(&g)) {
		err = wp_fail_as(ctx, WP_ERR_CONFLICT, "game-not-over",
		                 "the seed is revealed, and the match can be audited, when it ends");
		goto out;
	}
	snprintf(idbuf, sizeof(idbuf), "%lld", (long long)id);
	const char *vals[1] = {idbuf};
	r = wp_store_exec(c, WP_STMT_POSTS_ALL, 1, vals, NULL);
	if (PQresultStatus(r) != PGRES_TUPLES_OK) {
		err = db_fail(ctx, c, r, "export");
		goto out;
	}
	json_object *o = json_object_new_object(), *posts = json_object_new_array(),
		    *seeds = json_object_new_array();
	json_object_object_add(o, "format", json_object_new_string(WP_EXPORT_FORMAT));
	json_object_object_add(o, "game", json_object_new_int64(id));
	json_object_object_add(o, "ruleset", json_object_new_string(g.ruleset));
	json_object_object_add(o, "options", json_object_get(g.options));
	json_object_object_add(o, "seats", json_object_new_int(g.nseats));
	for (int i = 0; i < g.nseats; i++)
		json_object_array_add(seeds, json_object_new_string(g.seats[i].client_seed));
	json_object_object_add(o, "client_seeds", seeds);
	json_object_object_add(o, "commitment", jhex(g.commitment, 32));
	json_object_object_add(o, "seed", jhex(g.seed, 32));
	json_object_object_add(o, "status", json_object_new_string(g.status));
	json_object_object_add(o, "result", json_object_get(g.result));
	for (int i = 0; i < PQntuples(r); i++) {
		json_object *p = post_json(r, i, WR_EVERYONE, 1);
		json_object_object_add(p, "draws_from",
		                       json_object_new_int64(strtoll(PQgetvalue(r, i, 9), NULL, 10)));
		json_object_array_add(posts, p);
	}
	PQclear(r);
	json_object_object_add(o, "posts", posts);
	json_object_object_add(o, "final_state", g.state ? json_tokener_parse(g.state) : NULL);
	*doc = o;
out:
	wp_game_free(&g);
	wp_store_put(ctx->store, c);
	return err;
}

enum wp_err
wp_api_games_export(struct wp_ctx *ctx)
{
	json_object *doc;
	int64_t id;
	enum wp_err err;

	if ((err = game_id(ctx, &id)) || (err = build_export(ctx, id, &doc)))
		return err;
	wp_response_header(ctx->res, "Content-Disposition", "attachment; filename=\"match.json\"");
	return wp_reply_json(ctx, 200, doc);
}

enum wp_err
wp_api_games_verify(struct wp_ctx *ctx)
{
	json_object *doc, *report;
	int64_t id;
	enum wp_err err;

	if ((err = game_id(ctx, &id)) || (err = build_export(ctx, id, &doc)))
		return err;
	report = wp_verify(doc);
	json_object_object_add(report, "game", json_object_new_int64(id));
	json_object_object_add(report, "seed", json_object_get(json_object_object_get(doc, "seed")));
	json_object_object_add(report, "commitment",
	                       json_object_get(json_object_object_get(doc, "commitment")));
	json_object_put(doc);
	return wp_reply_json(ctx, 200, report);
}
