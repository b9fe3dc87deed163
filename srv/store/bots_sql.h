/* The computer players' statements on the request pool (issue 27), kept
 * beside the others of store_priv.h as notify_sql.h's are: their enum
 * names (WP_BOT_STMTS, inside enum wp_stmt) and their SQL (WP_BOT_SQL,
 * inside sql.c's table). The tables are sql/020_bots.sql. */
#ifndef WP_BOTS_SQL_H
#define WP_BOTS_SQL_H

#define WP_BOT_STMTS WP_STMT_BOT_ENGINE, WP_STMT_PLAYER_SET_BOT,

#define WP_BOT_SQL                                                                               \
	[WP_STMT_BOT_ENGINE] = {"bot_engine",                                                    \
		"SELECT b.player_id, p.name FROM bot_engines b JOIN players p ON p.id = b.player_id" \
		" WHERE b.level = $1"},                                                          \
	[WP_STMT_PLAYER_SET_BOT] = {"player_set_bot",                                            \
		"UPDATE players SET bot = true WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM seats s" \
		" JOIN games g ON g.id = s.game_id WHERE s.player_id = $1"                       \
		" AND g.status IN ('open', 'active')) RETURNING id"},

#endif
