/* Every statement the service runs. The select lists come from the
 * column lists of store_priv.h, so a column's number is said once. */
#include "store_priv.h"

#define COLS(list) list(WP_COLUMN_SQL) WP_COLUMNS_END
#define GAME_GET "SELECT " COLS(WP_GAME_COLUMNS) " FROM games WHERE id = $1"
#define GAME_LOCK                                                                           \
	"SELECT " WP_GAME_ROW_COLUMNS(WP_COLUMN_SQL) "NULL, NULL, NULL, " WP_COLUMNS_END      \
	" FROM games WHERE id = $1 FOR UPDATE"
/* The match after a post (posts.c, post_params); `fold`: the parameter
 * of its clocks' fold (NULL: none known, the posts tell). */
#define GAME_AFTER_POST(fold)                                                               \
	"UPDATE games SET status = $2, seq = $3, version = version + 1, state = $4,"         \
	" draws = $5, awaiting = $6, draw_offers = $7, result = $8::jsonb, client_seeds = $9," \
	" updated_at = to_timestamp($10), clock = " fold "::text WHERE id = $1"

#define TURN_WRITE(fold, tail)                                                              \
	"WITH u AS (" GAME_AFTER_POST(fold) " AND version = $11 AND EXISTS"                   \
	" (SELECT 1 FROM devices WHERE player_id = $12 AND token_hash = $13"                \
	" AND revoked_at IS NULL) RETURNING updated_at),"                                     \
	" p AS (INSERT INTO posts (game_id, seq, seat, kind, actions, comment, comment_hidden,"  \
	" events, draws_from, rolls, awaiting, created_at) SELECT $1, $3, $14::smallint,"       \
	" $15::text, $16::jsonb, $17::text, $18::boolean, $19::jsonb, $20::bigint, $21::jsonb," \
	" $22::integer, to_timestamp($10) FROM u)" tail
#define TURN_SELECT " SELECT count(*), min(" WP_SQL_TIME("updated_at") ") FROM u"

const struct wp_sql wp_sql[WP_STMT_MAX] = {
	[WP_STMT_PLAYER_INSERT] = {"player_insert",
		"WITH p AS (INSERT INTO players (name, created_at) VALUES ($1, to_timestamp($3))"
		" RETURNING id), d AS (INSERT INTO devices (player_id, token_hash, name, created_at)"
		" SELECT id, $2, $4, to_timestamp($3) FROM p) SELECT id FROM p"},
	/* The player and device of a token not revoked (sql/019_devices.sql);
	 * the device's last use is written only when it is older than
	 * WP_SQL_LAST_USED_LAG seconds, so not on every lookup. */
	[WP_STMT_PLAYER_BY_TOKEN] = {"player_by_token",
		"WITH d AS (SELECT id, player_id FROM devices WHERE token_hash = $1"
		" AND revoked_at IS NULL), u AS (UPDATE devices SET last_used_at = now()"
		" WHERE id = (SELECT id FROM d) AND (last_used_at IS NULL OR last_used_at < now()"
		" - make_interval(secs => " WP_SQL_LAST_USED_LAG ")))"
		" SELECT " COLS(WP_PLAYER_COLUMNS) " FROM d JOIN players p ON p.id = d.player_id"},
	/* MAX_OPEN_MATCHES: the player's row is locked first, in a statement
	 * of its own, so that the count (a new snapshot) sees what a creation
	 * or a join that held the lock before committed. */
	[WP_STMT_PLAYER_LOCK] = {"player_lock", "SELECT id FROM players WHERE id = $1 FOR UPDATE"},
	[WP_STMT_PLAYER_OPEN_MATCHES] = {"player_open_matches",
		"SELECT (SELECT count(*) FROM seats s JOIN games g ON g.id = s.game_id"
		" WHERE s.player_id = $1 AND g.status IN ('open', 'active'))"
		/* and the open challenges the player posted or took a seat in
		 * (issue 28): each is a match to come */
		" + (SELECT count(*) FROM challenge_seats s JOIN challenges c"
		" ON c.id = s.challenge_id WHERE s.player_id = $1 AND c.status = 'open'"
		" AND c.expires_at > now())"},
	[WP_STMT_GAME_INSERT] = {"game_insert",
		"INSERT INTO games (ruleset, options, seats, seed, commitment, created_by, time_control)"
		" VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb) RETURNING id"},
	[WP_STMT_SEAT_INSERT] = {"seat_insert",
		"INSERT INTO seats (game_id, seat, player_id, invite_hash, client_seed, joined_at)"
		" VALUES ($1, $2, $3, $4, $5, CASE WHEN $3::bigint IS NULL THEN NULL ELSE now() END)"},
	[WP_STMT_GAME_GET] = {"game_get", GAME_GET},
	[WP_STMT_GAME_LOCK] = {"game_lock", GAME_LOCK},
	[WP_STMT_SEATS_GET] = {"seats_get",
		"SELECT " COLS(WP_SEAT_COLUMNS) " FROM seats s"
		" LEFT JOIN players p ON p.id = s.player_id WHERE s.game_id = $1 ORDER BY s.seat"},
	[WP_STMT_SEAT_BY_INVITE] = {"seat_by_invite",
		"SELECT seat FROM seats WHERE game_id = $1 AND invite_hash = $2"},
	[WP_STMT_SEAT_JOIN] = {"seat_join",
		"UPDATE seats SET player_id = $3, client_seed = $4, joined_at = now()"
		" WHERE game_id = $1 AND seat = $2 AND player_id IS NULL"},
	[WP_STMT_GAME_UPDATE] = {"game_update",
		GAME_AFTER_POST("$11") " RETURNING version, " WP_SQL_TIME("updated_at")},
	/* A turn in one statement (posts.c, wp_db_post_commit): the match's
	 * update, only if it is still at version $11 and token $13 still
	 * belongs to player $12, and the post ($14 on: seat, kind, actions,
	 * comment, comment_hidden, events, draws_from, rolls, and its clock
	 * mark, match/clock.h) with it.
	 * Answers count 0 when the guard held nothing back: nothing written,
	 * decide again. */
	[WP_STMT_TURN_WRITE] = {"turn_write", TURN_WRITE("$23", TURN_SELECT)},
	/* The same with the Idempotency-Key's answer ($23 key, $24 request
	 * hash, $25 status, $26 body): a key used already fails it (23505). */
	[WP_STMT_TURN_WRITE_KEYED] = {"turn_write_keyed",
		TURN_WRITE("$27", ", k AS (INSERT INTO idempotency (game_id, player_id, key, request_hash,"
		           " status, body) SELECT $1, $12, $23::text, $24::bytea, $25::smallint,"
		           " $26::text FROM u)" TURN_SELECT)},
	/* Whether a refusal decided from the cache stands (api/write.c): the
	 * match still at version $2, token $4 still player $3's, Idempotency-Key
	 * $5 (or none) not used yet. */
	[WP_STMT_GAME_CURRENT] = {"game_current",
		"SELECT count(*) FROM games WHERE id = $1 AND version = $2"
		" AND EXISTS (SELECT 1 FROM devices WHERE player_id = $3 AND token_hash = $4"
		" AND revoked_at IS NULL)"
		" AND NOT EXISTS (SELECT 1 FROM idempotency WHERE game_id = $1 AND player_id = $3"
		" AND key = $5::text)"},
	[WP_STMT_GAME_BUMP] = {"game_bump",
		"UPDATE games SET version = version + 1, updated_at = now() WHERE id = $1"
		" RETURNING version"},
	[WP_STMT_POST_INSERT] = {"post_insert",
		"INSERT INTO posts (game_id, seq, seat, kind, actions, comment, comment_hidden,"
		" events, draws_from, rolls, awaiting, created_at)"
		" VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, to_timestamp($12))"},
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
	/* A keyed request outside a match (sql/025, store/keyed.c): claimed
	 * before it runs, its answer written once it succeeded, the claim
	 * dropped when it failed. */
	[WP_STMT_KEYED_CLAIM] = {"keyed_claim",
		"INSERT INTO request_idempotency (scope, key, request_hash) VALUES ($1, $2, $3)"
		" ON CONFLICT DO NOTHING RETURNING 1"},
	[WP_STMT_KEYED_GET] = {"keyed_get",
		"SELECT request_hash, status, headers, body FROM request_idempotency"
		" WHERE scope = $1 AND key = $2"},
	[WP_STMT_KEYED_DONE] = {"keyed_done",
		"UPDATE request_idempotency SET status = $3, headers = $4, body = $5"
		" WHERE scope = $1 AND key = $2 AND status IS NULL"},
	[WP_STMT_KEYED_DROP] = {"keyed_drop",
		"DELETE FROM request_idempotency WHERE scope = $1 AND key = $2 AND status IS NULL"},
	/* NOTIFY of matches whose changes committed ($1: a text array of
	 * 'id:version'), sent by a writer itself where the LISTEN thread does
	 * not send them (tell.c; the LISTEN thread runs WP_TELL_SQL), in a
	 * transaction of their own after the ones they tell of: PostgreSQL orders notifying commits by a lock held until
	 * each has reached the disk, so a NOTIFY inside a turn would make
	 * every turn wait for the flushes of all others. This one commits
	 * without waiting for the disk: a notification lives no longer than
	 * the server anyway, and a restart empties every cache that listens
	 * (listen.c). */
	[WP_STMT_NOTIFY_MANY] = {"notify_many", WP_TELL_SQL},
	[WP_STMT_COMMIT] = {"commit", "COMMIT"},
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
	/* Clocks and vacations (match/clock.h): times as epoch seconds. */
	/* A match's clock input in one statement (clock.c, wp_db_clock_load). */
	[WP_STMT_CLOCK_INPUT] = {"clock_input",
		"SELECT CASE WHEN g.seq = $2 THEN g.clock END,"
		" CASE WHEN g.seq = $2 AND g.clock IS NOT NULL THEN ''"
		" ELSE coalesce(" WP_SQL_MARKS_OF("$1", "$2") ", '') END,"
		" coalesce(" WP_SQL_VACATIONS_OF("$1") ", '') FROM games g WHERE g.id = $1"},
	[WP_STMT_VACATIONS_OF] = {"vacations_of",
		"SELECT extract(epoch FROM v.starts_at)::bigint, extract(epoch FROM v.ends_at)::bigint,"
		" extract(epoch FROM p.created_at)::bigint FROM players p"
		" LEFT JOIN vacations v ON v.player_id = p.id WHERE p.id = $1 ORDER BY v.starts_at"
		" FOR UPDATE OF p"},   /* two vacations started at once spend the balance once */
	/* A vacation changes the clocks of the player's matches in play: each
	 * gets a new version (ETags, long-polls), answered for its NOTIFY
	 * (clock.c, wp_db_vacation_insert). */
	[WP_STMT_VACATION_INSERT] = {"vacation_insert",
		"WITH v AS (INSERT INTO vacations (player_id, starts_at, ends_at)"
		" VALUES ($1, to_timestamp($2), to_timestamp($3)))"
		" UPDATE games SET version = version + 1 WHERE status = 'active'"
		" AND id IN (SELECT game_id FROM seats WHERE player_id = $1) RETURNING id, version"},
	/* Every change of a player's matches raises it (versions only grow, a
	 * new match adds one, seats are never given up): GET /api/me/events
	 * resumes from it. */
	[WP_STMT_ME_CHANGES] = {"me_changes",
		"SELECT coalesce(sum(g.version + 1), 0) FROM seats s JOIN games g ON g.id = s.game_id"
		" WHERE s.player_id = $1"},
	[WP_STMT_GAME_WATCH_SET] = {"game_watch_set",
		"UPDATE games SET spectators = $2, spectator_delay = $3 WHERE id = $1"},
	[WP_STMT_GAMES_WATCHABLE] = {"games_watchable",
		"SELECT " COLS(WP_WATCH_COLUMNS) " FROM games WHERE spectators = 'open'"
		" AND status IN ('active', 'over') ORDER BY id DESC LIMIT $1 OFFSET $2"},
	/* Undo (issue 14): the posts taken back stay, marked. */
	[WP_STMT_POSTS_UNDO] = {"posts_undo",
		"WITH u AS (UPDATE posts SET undone_by = $3 WHERE game_id = $1"
		" AND seq = ANY ($2::integer[]) AND undone_by IS NULL RETURNING 1)"
		" SELECT count(*) FROM u"},
	/* The last posts, newest first, as much as GET actions' can_undo needs:
	 * taken back, dice drawn, the seats but $2 its private events went to
	 * (0: public; a bit a seat). */
	[WP_STMT_UNDO_TAIL] = {"undo_tail",
		"SELECT seq, coalesce(seat, -1), kind, undone_by IS NOT NULL,"
		" jsonb_array_length(rolls) > 0,"
		" coalesce((SELECT bit_or((e->>'to')::int) FROM jsonb_array_elements(events) e),"
		" 0) & ~(1 << $2::int)"
		" FROM posts WHERE game_id = $1 ORDER BY seq DESC LIMIT $3"},
	/* The nearest snapshot at or before post $2 (sql/014_snapshots.sql)
	 * from which a replay to post $3 meets no undo of a post before it. */
	[WP_STMT_SNAPSHOT_AT] = {"snapshot_at",
		"SELECT " COLS(WP_SNAPSHOT_COLUMNS) " FROM snapshots s WHERE s.game_id = $1"
		" AND s.seq <= $2 AND NOT EXISTS (SELECT 1 FROM posts p WHERE p.game_id = $1"
		" AND p.undone_by > s.seq AND p.undone_by <= $3 AND p.seq <= s.seq)"
		" ORDER BY s.seq DESC LIMIT 1"},
	/* The same snapshot (horizon: post $2) and the posts after it up to
	 * $2, in one statement: the snapshot's columns, then the post's, one
	 * row a post; one row of NULL post columns when there is none. */
	[WP_STMT_PAST_ROWS] = {"past_rows",
		"WITH s AS (SELECT * FROM snapshots s WHERE s.game_id = $1 AND s.seq <= $2"
		" AND NOT EXISTS (SELECT 1 FROM posts p WHERE p.game_id = $1"
		" AND p.undone_by > s.seq AND p.undone_by <= $2 AND p.seq <= s.seq)"
		" ORDER BY s.seq DESC LIMIT 1),"
		" q AS (SELECT " COLS(WP_POST_COLUMNS) " FROM posts WHERE game_id = $1"
		" AND seq > coalesce((SELECT seq FROM s), 0) AND seq <= $2)"
		" SELECT " WP_SNAPSHOT_COLUMNS(WP_COLUMN_SQL) "q.* FROM (SELECT 1) one"
		" LEFT JOIN s ON true LEFT JOIN q ON true ORDER BY q.seq"},
	WP_NOTIFY_SQL
	WP_BOT_SQL
	WP_CHALLENGE_SQL
	WP_RATINGS_SQL
	WP_ACCOUNT_SQL
	WP_TOURNAMENT_SQL
};
