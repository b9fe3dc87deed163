/* The account statements (issue 28: devices, device codes), kept beside
 * the others of store_priv.h as notify_sql.h is: their enum names
 * (WP_ACCOUNT_STMTS, inside enum wp_stmt), their SQL (WP_ACCOUNT_SQL,
 * inside sql.c's table) and their columns. The tables are
 * sql/019_devices.sql. */
#ifndef WP_ACCOUNT_SQL_H
#define WP_ACCOUNT_SQL_H

#define WP_ACCOUNT_STMTS                                                                         \
	WP_STMT_DEVICES_LIST, WP_STMT_DEVICE_RENAME, WP_STMT_DEVICE_REVOKE,                      \
	WP_STMT_DEVICES_REVOKE_OTHERS, WP_STMT_CODE_INSERT, WP_STMT_CODE_REDEEM,                 \
	WP_STMT_MAIL_QUEUE, WP_STMT_MAIL_CONFIRM_AGAIN, WP_STMT_MAIL_CLAIM, WP_STMT_MAIL_TARGETS, \
	WP_STMT_MAIL_DONE, WP_STMT_LINK_INSERT, WP_STMT_EMAIL_CONFIRM, WP_STMT_RECOVERY_REDEEM,  \
	WP_STMT_SWEEP,

/* A device as GET /api/me/devices shows it. */
#define WP_DEVICE_COLUMNS(X)                                                                     \
	X(DVC_ID, "id") X(DVC_NAME, "name") X(DVC_CREATED_AT, WP_SQL_TIME("created_at"))         \
	X(DVC_LAST_USED_AT, "coalesce(" WP_SQL_TIME("last_used_at") ", '')")

/* The one place a revoked token's notification is made: NOTIFY wp_token
 * '<64 hex digits of its hash>', sent at the revoke's commit; every
 * instance's LISTEN thread hands it to wp_cache_token_heard(). */
#define WP_SQL_TOKEN_NOTIFY(hash) "pg_notify('wp_token', encode(" hash ", 'hex'))"

/* How long a device's last use may lag behind (seconds): the lookup that
 * finds a token writes its time only when it is older than that. */
#define WP_SQL_LAST_USED_LAG "300"

/* A new device for the player that the statement `used` answers (it
 * RETURNING player_id; its $1 the code's or link's hash): $2 the token's
 * hash, $3 its name. Answers the player's id and name and the device's
 * id, or no row. */
#define WP_SQL_NEW_DEVICE(used)                                                                  \
	"WITH c AS (" used "), d AS (INSERT INTO devices (player_id, token_hash, name)"          \
	" SELECT player_id, $2, $3 FROM c RETURNING id, player_id)"                               \
	" SELECT p.id, p.name, d.id FROM d JOIN players p ON p.id = d.player_id"

#define WP_ACCOUNT_SQL                                                                           \
	[WP_STMT_DEVICES_LIST] = {"devices_list",                                                \
		"SELECT " COLS(WP_DEVICE_COLUMNS) " FROM devices WHERE player_id = $1"            \
		" AND revoked_at IS NULL ORDER BY id"},                                          \
	[WP_STMT_DEVICE_RENAME] = {"device_rename",                                              \
		"UPDATE devices SET name = $3 WHERE player_id = $1 AND id = $2"                   \
		" AND revoked_at IS NULL RETURNING " COLS(WP_DEVICE_COLUMNS)},                   \
	/* Each token revoked is told of to every instance (the token cache). */                  \
	[WP_STMT_DEVICE_REVOKE] = {"device_revoke",                                              \
		"WITH u AS (UPDATE devices SET revoked_at = now() WHERE player_id = $1 AND id = $2" \
		" AND revoked_at IS NULL RETURNING token_hash)"                                  \
		" SELECT token_hash, " WP_SQL_TOKEN_NOTIFY("token_hash") " FROM u"},             \
	[WP_STMT_DEVICES_REVOKE_OTHERS] = {"devices_revoke_others",                              \
		"WITH u AS (UPDATE devices SET revoked_at = now() WHERE player_id = $1 AND id <> $2" \
		" AND revoked_at IS NULL RETURNING token_hash)"                                  \
		" SELECT token_hash, " WP_SQL_TOKEN_NOTIFY("token_hash") " FROM u"},             \
	[WP_STMT_CODE_INSERT] = {"code_insert",                                                  \
		"INSERT INTO device_codes (code_hash, player_id, expires_at)"                    \
		" VALUES ($1, $2, now() + make_interval(secs => $3)) RETURNING player_id"},      \
	/* A code is used once, before it expires: the new device's token is \
	 * written in the same statement, or nothing is. */                                  \
	[WP_STMT_CODE_REDEEM] = {"code_redeem", WP_SQL_NEW_DEVICE(                               \
		"UPDATE device_codes SET used_at = now() WHERE code_hash = $1"                    \
		" AND used_at IS NULL AND expires_at > now() RETURNING player_id")},              \
	/* The same with a recovery link, for an address still confirmed. */                     \
	[WP_STMT_RECOVERY_REDEEM] = {"recovery_redeem", WP_SQL_NEW_DEVICE(                       \
		"UPDATE account_links l SET used_at = now() WHERE token_hash = $1"                \
		" AND kind = 'recover' AND used_at IS NULL AND expires_at > now() AND EXISTS"     \
		" (SELECT 1 FROM email_settings e WHERE e.player_id = l.player_id"                \
		" AND e.address = l.address AND e.confirmed_at IS NOT NULL) RETURNING player_id")}, \
	/* A recovery asked for ($2 NULL, $3 any address) or an address to \
	 * confirm: queued the same way whatever the address, nothing looked \
	 * up; the worker is woken. */                                                            \
	[WP_STMT_MAIL_QUEUE] = {"mail_queue",                                                    \
		"WITH m AS (INSERT INTO account_mail (kind, player_id, address)"                  \
		" VALUES ($1, $2, $3) RETURNING id) SELECT id, pg_notify('wp_outbox', '') FROM m"}, \
	[WP_STMT_MAIL_CONFIRM_AGAIN] = {"mail_confirm_again",                                    \
		"WITH m AS (INSERT INTO account_mail (kind, player_id, address)"                  \
		" SELECT 'confirm', player_id, address FROM email_settings WHERE player_id = $1"  \
		" AND confirmed_at IS NULL RETURNING id) SELECT id, pg_notify('wp_outbox', '') FROM m"}, \
	/* Due rows, each leased for $2 s (as the webhook outbox's). */                          \
	[WP_STMT_MAIL_CLAIM] = {"mail_claim",                                                    \
		"UPDATE account_mail SET attempts = attempts + 1, next_attempt_at = now()"        \
		" + make_interval(secs => $2) WHERE id IN (SELECT id FROM account_mail"           \
		" WHERE done_at IS NULL AND next_attempt_at <= now() ORDER BY next_attempt_at"     \
		" LIMIT $1 FOR UPDATE SKIP LOCKED) RETURNING id, kind, coalesce(player_id, 0),"   \
		" address, attempts"},                                                           \
	/* Whom a row's mail is for: the player whose address is still the \
	 * one to confirm, or every player with the address confirmed. */                      \
	[WP_STMT_MAIL_TARGETS] = {"mail_targets",                                                \
		"SELECT e.player_id, p.name, e.address FROM email_settings e"                     \
		" JOIN players p ON p.id = e.player_id"                                           \
		" WHERE CASE WHEN $1 = 'confirm' THEN e.player_id = $2 AND e.address = $3"       \
		" AND e.confirmed_at IS NULL ELSE lower(e.address) = lower($3)"                   \
		" AND e.confirmed_at IS NOT NULL END ORDER BY e.player_id LIMIT $4"},              \
	/* Sent (or nothing to send, or tried $3 times): done; else due in $4 s. */                \
	[WP_STMT_MAIL_DONE] = {"mail_done",                                                      \
		"UPDATE account_mail SET done_at = CASE WHEN $2 OR attempts >= $3 THEN now() END," \
		" next_attempt_at = now() + make_interval(secs => $4) WHERE id = $1"},           \
	/* Retention (notify/sweep.c): rows that can no longer matter, at most \
	 * $1 of each kind at once. A device code or link a day past its      \
	 * expiry (used or not: neither is good any more), account mail sent  \
	 * or given up 30 days ago, and a bot's claim done 7 days ago on a    \
	 * match that has moved past it (a claim of the post the match is at  \
	 * keeps a second instance from playing it; sql/020_bots.sql), and a  \
	 * keyed request's answer 7 days old (sql/025). */                    \
	[WP_STMT_SWEEP] = {"sweep",                                                             \
		"WITH dc AS (DELETE FROM device_codes WHERE code_hash IN (SELECT code_hash"         \
		" FROM device_codes WHERE expires_at < now() - interval '1 day' LIMIT $1)"        \
		" RETURNING 1), al AS (DELETE FROM account_links WHERE token_hash IN"             \
		" (SELECT token_hash FROM account_links WHERE expires_at < now()"                  \
		" - interval '1 day' LIMIT $1) RETURNING 1), am AS (DELETE FROM account_mail"     \
		" WHERE id IN (SELECT id FROM account_mail WHERE done_at < now()"                  \
		" - interval '30 days' LIMIT $1) RETURNING 1), bc AS (DELETE FROM bot_claims"      \
		" WHERE (game_id, seq, seat) IN (SELECT c.game_id, c.seq, c.seat FROM bot_claims c" \
		" JOIN games g ON g.id = c.game_id WHERE c.done_at < now() - interval '7 days'"    \
		" AND g.seq > c.seq LIMIT $1) RETURNING 1), ri AS (DELETE FROM request_idempotency" \
		" WHERE (scope, key) IN (SELECT scope, key FROM request_idempotency"               \
		" WHERE created_at < now() - interval '7 days' LIMIT $1) RETURNING 1)"              \
		" SELECT (SELECT count(*) FROM dc)"                                                 \
		" + (SELECT count(*) FROM al) + (SELECT count(*) FROM am)"                         \
		" + (SELECT count(*) FROM bc) + (SELECT count(*) FROM ri)"},                        \
	[WP_STMT_LINK_INSERT] = {"link_insert",                                                  \
		"INSERT INTO account_links (token_hash, kind, player_id, address, expires_at)"    \
		" VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5)) RETURNING player_id"}, \
	/* A confirmation link: once, in time, for the address it was sent to. */                  \
	[WP_STMT_EMAIL_CONFIRM] = {"email_confirm",                                              \
		"WITH l AS (UPDATE account_links SET used_at = now() WHERE token_hash = $1"       \
		" AND kind = 'confirm' AND used_at IS NULL AND expires_at > now()"                \
		" RETURNING player_id, address) UPDATE email_settings e"                          \
		" SET confirmed_at = coalesce(e.confirmed_at, now()) FROM l"                       \
		" WHERE e.player_id = l.player_id AND e.address = l.address RETURNING e.player_id"},

#endif
