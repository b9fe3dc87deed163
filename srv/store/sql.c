/* Every statement the service runs. The select lists come from the
 * column lists of store_priv.h, so a column's number is said once. */
#include "store_priv.h"

#define COLS(list) list(WP_COLUMN_SQL) WP_COLUMNS_END
#define GAME_GET "SELECT " COLS(WP_GAME_COLUMNS) " FROM games WHERE id = $1"

const struct wp_sql wp_sql[WP_STMT_MAX] = {
	[WP_STMT_PLAYER_INSERT] = {"player_insert",
		"INSERT INTO players (name, token_hash) VALUES ($1, $2) RETURNING id"},
	[WP_STMT_PLAYER_BY_TOKEN] = {"player_by_token",
		"SELECT " COLS(WP_PLAYER_COLUMNS) " FROM players WHERE token_hash = $1"},
	[WP_STMT_GAME_INSERT] = {"game_insert",
		"INSERT INTO games (ruleset, options, seats, seed, commitment, created_by)"
		" VALUES ($1, $2, $3, $4, $5, $6) RETURNING id"},
	[WP_STMT_SEAT_INSERT] = {"seat_insert",
		"INSERT INTO seats (game_id, seat, player_id, invite_hash, client_seed, joined_at)"
		" VALUES ($1, $2, $3, $4, $5, CASE WHEN $3::bigint IS NULL THEN NULL ELSE now() END)"},
	[WP_STMT_GAME_GET] = {"game_get", GAME_GET},
	[WP_STMT_GAME_LOCK] = {"game_lock", GAME_GET " FOR UPDATE"},
	[WP_STMT_GAME_HEAD] = {"game_head",
		"SELECT " COLS(WP_HEAD_COLUMNS)
		" FROM games g LEFT JOIN players p ON p.token_hash = $2 WHERE g.id = $1"},
	[WP_STMT_SEATS_GET] = {"seats_get",
		"SELECT " COLS(WP_SEAT_COLUMNS) " FROM seats s"
		" LEFT JOIN players p ON p.id = s.player_id WHERE s.game_id = $1 ORDER BY s.seat"},
	[WP_STMT_SEAT_BY_INVITE] = {"seat_by_invite",
		"SELECT seat FROM seats WHERE game_id = $1 AND invite_hash = $2"},
	[WP_STMT_SEAT_JOIN] = {"seat_join",
		"UPDATE seats SET player_id = $3, client_seed = $4, joined_at = now()"
		" WHERE game_id = $1 AND seat = $2 AND player_id IS NULL"},
	[WP_STMT_GAME_UPDATE] = {"game_update",
		"UPDATE games SET status = $2, seq = $3, version = version + 1, state = $4,"
		" draws = $5, awaiting = $6, draw_offers = $7, result = $8::jsonb,"
		" client_seeds = $9, updated_at = now() WHERE id = $1"},
	[WP_STMT_GAME_BUMP] = {"game_bump",
		"UPDATE games SET version = version + 1, updated_at = now() WHERE id = $1"},
	[WP_STMT_POST_INSERT] = {"post_insert",
		"INSERT INTO posts (game_id, seq, seat, kind, actions, comment, comment_hidden,"
		" events, draws_from, rolls) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"},
	[WP_STMT_POSTS_PAGE] = {"posts_page",
		"SELECT " COLS(WP_POST_COLUMNS)
		" FROM posts WHERE game_id = $1 AND seq > $2 ORDER BY seq LIMIT $3"},
	[WP_STMT_POSTS_ALL] = {"posts_all",
		"SELECT " COLS(WP_POST_COLUMNS) " FROM posts WHERE game_id = $1 ORDER BY seq"},
	[WP_STMT_IDEM_GET] = {"idem_get",
		"SELECT " COLS(WP_IDEM_COLUMNS) " FROM idempotency"
		" WHERE game_id = $1 AND player_id = $2 AND key = $3"},
	[WP_STMT_IDEM_PUT] = {"idem_put",
		"INSERT INTO idempotency (game_id, player_id, key, request_hash, status, body)"
		" VALUES ($1, $2, $3, $4, $5, $6)"},
	[WP_STMT_NOTIFY] = {"notify", "SELECT pg_notify('wp_game', $1)"},
	[WP_STMT_ME_GAMES] = {"me_games",
		"SELECT " COLS(WP_MY_GAME_COLUMNS)
		" FROM seats s JOIN games g ON g.id = s.game_id WHERE s.player_id = $1"
		" ORDER BY awaiting_me DESC, g.updated_at DESC, g.id DESC LIMIT $2 OFFSET $3"},
	/* Posts after a given one that could change what a seat sees of the
	 * board: anything but standing orders and draw offers or refusals. */
	[WP_STMT_POSTS_SINCE_MOVES] = {"posts_since_moves",
		"SELECT count(*) FROM posts WHERE game_id = $1 AND seq > $2"
		" AND kind NOT IN ('orders', 'draw_offer', 'draw_decline')"},
	[WP_STMT_ME_GAMES_COUNT] = {"me_games_count",
		"SELECT count(*) FROM seats WHERE player_id = $1"},
	[WP_STMT_HAS_TURN] = {"has_turn",
		"SELECT EXISTS (SELECT 1 FROM posts WHERE game_id = $1 AND kind = 'turn')"},
	/* Undo (issue 14): the posts taken back stay, marked. */
	[WP_STMT_POSTS_UNDO] = {"posts_undo",
		"WITH u AS (UPDATE posts SET undone_by = $3 WHERE game_id = $1"
		" AND seq = ANY ($2::integer[]) AND undone_by IS NULL RETURNING 1)"
		" SELECT count(*) FROM u"},
	/* The last posts, newest first, as much as GET actions' can_undo needs:
	 * taken back, dice drawn, an event told to another seat ($2) alone. */
	[WP_STMT_UNDO_TAIL] = {"undo_tail",
		"SELECT seq, coalesce(seat, -1), kind, undone_by IS NOT NULL,"
		" jsonb_array_length(rolls) > 0,"
		" EXISTS (SELECT 1 FROM jsonb_array_elements(events) e WHERE (e->>'to')::int <> 0"
		" AND ((e->>'to')::int & ~(1 << $2::int)) <> 0)"
		" FROM posts WHERE game_id = $1 ORDER BY seq DESC LIMIT $3"},
};
