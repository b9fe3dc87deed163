/* The notification statements (issue 14), kept beside the others of
 * store_priv.h: their enum names (WP_NOTIFY_STMTS, inside enum wp_stmt),
 * their SQL (WP_NOTIFY_SQL, inside sql.c's table) and their columns. The
 * tables and the triggers that fill the outbox are sql/005_notifications.sql. */
#ifndef WP_NOTIFY_SQL_H
#define WP_NOTIFY_SQL_H

#define WP_NOTIFY_STMTS                                                                          \
	WP_STMT_WEBHOOK_INSERT, WP_STMT_WEBHOOKS_LIST, WP_STMT_WEBHOOK_DELETE,                   \
	WP_STMT_WEBHOOK_OWNED, WP_STMT_DELIVERIES_PAGE, WP_STMT_OUTBOX_CLAIM, WP_STMT_OUTBOX_DONE, \
	WP_STMT_EMAIL_GET, WP_STMT_EMAIL_PUT, WP_STMT_UNSUBSCRIBE,                                \
	WP_STMT_DIGEST_CLAIM, WP_STMT_DIGEST_GAMES, WP_STMT_DIGEST_DONE, WP_STMT_TIMED_GAMES,     \
	WP_STMT_TIME_WARNING,

#define WP_HOOK_COLUMNS(X)                                                                       \
	X(WC_ID, "id") X(WC_URL, "url") X(WC_CREATED_AT, WP_SQL_TIME("created_at"))

#define WP_DELIVERY_COLUMNS(X)                                                                   \
	X(DC_ID, "d.id") X(DC_GAME, "d.game_id") X(DC_EVENT, "d.event") X(DC_SEQ, "d.seq")       \
	X(DC_SEAT, "d.seat") X(DC_STATE, "d.state") X(DC_ATTEMPTS, "d.attempts")                 \
	X(DC_LAST_STATUS, "d.last_status") X(DC_LAST_ERROR, "d.last_error")                      \
	X(DC_CREATED_AT, WP_SQL_TIME("d.created_at"))                                            \
	X(DC_NEXT_AT, "CASE WHEN d.state = 'pending' THEN " WP_SQL_TIME("d.next_attempt_at") " END") \
	X(DC_DELIVERED_AT, WP_SQL_TIME("d.delivered_at"))                                        \
	X(DC_LOG, "(SELECT json_agg(json_build_object('attempt', a.attempt, 'at', "                \
	          WP_SQL_TIME("a.at") ", 'status', a.http_status, 'error', a.error)"               \
	          " ORDER BY a.attempt) FROM webhook_attempts a"                                   \
	          " WHERE a.game_id = d.game_id AND a.delivery_id = d.id)::text")

/* A claimed outbox row: what the worker needs to send it. */
#define WP_OUTBOX_COLUMNS(X)                                                                     \
	X(OC_GAME, "d.game_id") X(OC_ID, "d.id") X(OC_ATTEMPT, "d.attempts")                     \
	X(OC_EVENT, "d.event") X(OC_SEAT, "d.seat") X(OC_SEQ, "d.seq") X(OC_STATUS, "d.status")  \
	X(OC_AWAITING, "d.awaiting") X(OC_SEATS, "d.seats") X(OC_RULESET, "d.ruleset")           \
	X(OC_CREATED_AT, WP_SQL_TIME("d.created_at")) X(OC_URL, "w.url") X(OC_SECRET, "w.secret") \
	X(OC_DEADLINE, WP_SQL_TIME("d.deadline"))

/* An active match with a time control that someone listens to, as the
 * "time running out" scan reads it (sql/011_time_warnings.sql). */
#define WP_TIMED_GAME_COLUMNS(X)                                                                 \
	X(TG_ID, "id") X(TG_VERSION, "version") X(TG_SEQ, "seq") X(TG_SEATS, "seats")            \
	X(TG_TC, "time_control::text")

#define WP_EMAIL_COLUMNS(X)                                                                      \
	X(EC_ADDRESS, "address") X(EC_DIGEST, "digest")                                          \
	X(EC_LAST_AT, WP_SQL_TIME("last_digest_at")) X(EC_CONFIRMED, "confirmed_at IS NOT NULL")

#define WP_DIGEST_COLUMNS(X)                                                                     \
	X(GC2_PLAYER, "e.player_id") X(GC2_ADDRESS, "e.address")                                 \
	X(GC2_TOKEN, "e.unsubscribe_token") X(GC2_NAME, "p.name")

#define WP_DIGEST_GAME_COLUMNS(X)                                                                \
	X(DG_ID, "g.id") X(DG_RULESET, "g.ruleset") X(DG_SEQ, "g.seq") X(DG_SEAT, "s.seat")

#define WP_NOTIFY_SQL                                                                            \
	[WP_STMT_WEBHOOK_INSERT] = {"webhook_insert",                                            \
		"INSERT INTO webhooks (player_id, url, secret) SELECT $1, $2, $3"                \
		" WHERE (SELECT count(*) FROM webhooks WHERE player_id = $1) < $4"                \
		" RETURNING " COLS(WP_HOOK_COLUMNS)},                                            \
	[WP_STMT_WEBHOOKS_LIST] = {"webhooks_list",                                              \
		"SELECT " COLS(WP_HOOK_COLUMNS) " FROM webhooks WHERE player_id = $1 ORDER BY id"}, \
	[WP_STMT_WEBHOOK_DELETE] = {"webhook_delete",                                            \
		"DELETE FROM webhooks WHERE player_id = $1 AND id = $2 RETURNING id"},           \
	[WP_STMT_WEBHOOK_OWNED] = {"webhook_owned",                                              \
		"SELECT id FROM webhooks WHERE player_id = $1 AND id = $2"},                     \
	[WP_STMT_DELIVERIES_PAGE] = {"deliveries_page",                                          \
		"SELECT " COLS(WP_DELIVERY_COLUMNS) " FROM webhook_deliveries d"                 \
		" WHERE d.webhook_id = $1 ORDER BY d.id DESC LIMIT $2"},                         \
	/* Claims due rows for one attempt each: the lease ($2 s) keeps other \
	 * instances off them while this one sends. */                                          \
	[WP_STMT_OUTBOX_CLAIM] = {"outbox_claim",                                                \
		"WITH due AS MATERIALIZED (SELECT game_id, id FROM webhook_deliveries"           \
		" WHERE state = 'pending' AND next_attempt_at <= now()"                          \
		" ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)"                     \
		" UPDATE webhook_deliveries d SET attempts = d.attempts + 1,"                     \
		" next_attempt_at = now() + make_interval(secs => $2) FROM webhooks w, due"      \
		" WHERE w.id = d.webhook_id AND d.game_id = due.game_id AND d.id = due.id"        \
		" RETURNING " COLS(WP_OUTBOX_COLUMNS)},                                          \
	/* One attempt's outcome: logged, and the row delivered, failed for \
	 * good after $6 attempts, or due again in $7 s. A row claimed again \
	 * since (its lease ran out) keeps the newer attempt's state. */                          \
	[WP_STMT_OUTBOX_DONE] = {"outbox_done",                                                  \
		"WITH log AS (INSERT INTO webhook_attempts (game_id, delivery_id, attempt,"      \
		" http_status, error) SELECT game_id, id, $3, $4, $5 FROM webhook_deliveries"     \
		" WHERE game_id = $1 AND id = $2)"                                               \
		" UPDATE webhook_deliveries SET last_status = $4, last_error = $5,"              \
		" state = CASE WHEN $4::int BETWEEN 200 AND 299 THEN 'delivered'"                 \
		" WHEN attempts >= $6 THEN 'failed' ELSE 'pending' END,"                          \
		" delivered_at = CASE WHEN $4::int BETWEEN 200 AND 299 THEN now() END,"           \
		" next_attempt_at = now() + make_interval(secs => $7)"                           \
		" WHERE game_id = $1 AND id = $2 AND attempts = $3"},                            \
	[WP_STMT_EMAIL_GET] = {"email_get",                                                      \
		"SELECT " COLS(WP_EMAIL_COLUMNS) " FROM email_settings WHERE player_id = $1"},    \
	/* A new address gets a new unsubscribe token; the next digest time \
	 * stays, so switching digests off and on sends no extra one. A new \
	 * address is unconfirmed and its confirmation link queued (issue 28). */                \
	[WP_STMT_EMAIL_PUT] = {"email_put",                                                      \
		"WITH old AS (SELECT address FROM email_settings WHERE player_id = $1),"          \
		" up AS (INSERT INTO email_settings AS e (player_id, address, digest,"            \
		" unsubscribe_token) VALUES ($1, $2, $3, $4) ON CONFLICT (player_id) DO UPDATE SET" \
		" address = EXCLUDED.address, digest = EXCLUDED.digest,"                         \
		" unsubscribe_token = CASE WHEN e.address = EXCLUDED.address"                    \
		" THEN e.unsubscribe_token ELSE EXCLUDED.unsubscribe_token END,"                 \
		" confirmed_at = CASE WHEN e.address = EXCLUDED.address THEN e.confirmed_at END" \
		" RETURNING *), m AS (INSERT INTO account_mail (kind, player_id, address)"        \
		" SELECT 'confirm', $1, address FROM up WHERE confirmed_at IS NULL"               \
		" AND address IS DISTINCT FROM (SELECT address FROM old)"                         \
		" RETURNING pg_notify('wp_outbox', ''))"                                          \
		" SELECT " COLS(WP_EMAIL_COLUMNS) " FROM up"},                                   \
	[WP_STMT_UNSUBSCRIBE] = {"unsubscribe",                                                  \
		"UPDATE email_settings SET digest = false WHERE unsubscribe_token = $1"          \
		" RETURNING player_id"},                                                         \
	/* Players whose digest is due, each moved a period ahead at once: \
	 * at most one digest per player per period, on any instance. */                        \
	[WP_STMT_DIGEST_CLAIM] = {"digest_claim",                                                \
		"UPDATE email_settings e SET next_digest_at = now() + make_interval(secs => $1)"  \
		" FROM players p WHERE p.id = e.player_id AND e.player_id IN (SELECT player_id"  \
		" FROM email_settings WHERE digest AND next_digest_at <= now()"                 \
		" ORDER BY next_digest_at LIMIT $2 FOR UPDATE SKIP LOCKED)"                      \
		" RETURNING " COLS(WP_DIGEST_COLUMNS)},                                          \
	[WP_STMT_DIGEST_GAMES] = {"digest_games",                                                \
		"SELECT " COLS(WP_DIGEST_GAME_COLUMNS) " FROM seats s JOIN games g ON g.id = s.game_id" \
		" WHERE s.player_id = $1 AND g.status = 'active' AND ((g.awaiting >> s.seat) & 1) = 1" \
		" ORDER BY g.updated_at, g.id LIMIT $2"},                                        \
	/* Sent: recorded. Not sent: due again in $3 s (nothing was sent in \
	 * this period, so trying again breaks no promise). */                                 \
	[WP_STMT_DIGEST_DONE] = {"digest_done",                                                  \
		"UPDATE email_settings SET"                                                      \
		" last_digest_at = CASE WHEN $2 THEN now() ELSE last_digest_at END,"             \
		" next_digest_at = CASE WHEN $2 THEN next_digest_at"                             \
		" ELSE now() + make_interval(secs => $3) END WHERE player_id = $1"},            \
	/* The "time running out" scan, a page at a time in id order. */                        \
	[WP_STMT_TIMED_GAMES] = {"timed_games",                                                  \
		"SELECT " COLS(WP_TIMED_GAME_COLUMNS) " FROM games WHERE status = 'active'"       \
		" AND notify AND time_control IS NOT NULL AND id > $1 ORDER BY id LIMIT $2"},     \
	[WP_STMT_TIME_WARNING] = {"time_warning", "SELECT wp_time_warning($1, $2, $3, $4, $5)"},

#endif
