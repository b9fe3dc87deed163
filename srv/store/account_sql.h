/* The account statements (issue 28: devices, device codes), kept beside
 * the others of store_priv.h as notify_sql.h is: their enum names
 * (WP_ACCOUNT_STMTS, inside enum wp_stmt), their SQL (WP_ACCOUNT_SQL,
 * inside sql.c's table) and their columns. The tables are
 * sql/019_devices.sql. */
#ifndef WP_ACCOUNT_SQL_H
#define WP_ACCOUNT_SQL_H

#define WP_ACCOUNT_STMTS                                                                         \
	WP_STMT_DEVICES_LIST, WP_STMT_DEVICE_RENAME, WP_STMT_DEVICE_REVOKE,                      \
	WP_STMT_DEVICES_REVOKE_OTHERS, WP_STMT_CODE_INSERT, WP_STMT_CODE_REDEEM,

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
	[WP_STMT_CODE_REDEEM] = {"code_redeem",                                                  \
		"WITH c AS (UPDATE device_codes SET used_at = now() WHERE code_hash = $1"          \
		" AND used_at IS NULL AND expires_at > now() RETURNING player_id),"               \
		" d AS (INSERT INTO devices (player_id, token_hash, name)"                       \
		" SELECT player_id, $2, $3 FROM c RETURNING id, player_id)"                       \
		" SELECT p.id, p.name, d.id FROM d JOIN players p ON p.id = d.player_id"},

#endif
