/* The ratings statements (issue 28), kept beside the others of
 * store_priv.h: their enum names (WP_RATINGS_STMTS, inside enum wp_stmt)
 * and their SQL (WP_RATINGS_SQL, inside sql.c's table). The tables, the
 * Glicko-2 functions and the trigger that rates a match as it ends are
 * sql/017_ratings.sql. A profile and a leaderboard are built as one JSON
 * text by PostgreSQL, each in one statement. */
#ifndef WP_RATINGS_SQL_H
#define WP_RATINGS_SQL_H

#define WP_RATINGS_STMTS WP_STMT_GAME_RATED_SET, WP_STMT_PROFILE, WP_STMT_LEADERBOARD,

/* Whether player $2 (0: nobody) may see match g in a list: an "open"
 * match, or one it holds a seat in; what GET /api/games lists, so a
 * profile confirms no private or unlisted match to a stranger. */
#define WP_SQL_LISTED(g)                                                                         \
	"(" g ".spectators = 'open' OR EXISTS (SELECT 1 FROM seats v WHERE v.game_id = " g ".id" \
	" AND v.player_id = $2))"

/* A seat's outcome: as rated (a seat put out before a draw lost), else
 * won when among the winners, drawn in a draw, else lost. */
#define WP_SQL_OUTCOME(g, s)                                                                     \
	"coalesce((SELECT o.outcome FROM rating_history o WHERE o.game_id = " g ".id"            \
	" AND o.player_id = " s ".player_id),"                                                   \
	" CASE WHEN " g ".result -> 'winners' @> to_jsonb(" s ".seat::integer) THEN 'win'"       \
	" WHEN (" g ".result ->> 'draw')::boolean THEN 'draw' ELSE 'loss' END)"

#define WP_RATINGS_SQL                                                                           \
	[WP_STMT_GAME_RATED_SET] = {"game_rated_set", "UPDATE games SET rated = true WHERE id = $1"}, \
	/* $1 the player, $2 who asks (0: nobody). Its ratings, the points of \
	 * its rating history (the match named only when listed to $2), its \
	 * last 20 finished matches that are listed to $2. */                 \
	[WP_STMT_PROFILE] = {"profile",                                                          \
		"SELECT json_build_object('id', p.id, 'name', p.name, 'bot', p.bot,"             \
		" 'ratings', coalesce((SELECT json_agg(json_build_object('ruleset', r.ruleset,"   \
		" 'pool', r.pool, 'rating', r.rating, 'rd', r.rd, 'volatility', r.volatility,"    \
		" 'provisional', r.rd > 110, 'games', r.games, 'wins', r.wins, 'draws', r.draws," \
		" 'losses', r.losses, 'last_at', " WP_SQL_TIME("r.last_at") ")"                    \
		" ORDER BY r.ruleset, r.pool) FROM ratings r WHERE r.player_id = p.id), '[]'),"    \
		" 'history', coalesce((SELECT json_agg(json_build_object('ruleset', h.ruleset,"   \
		" 'pool', h.pool, 'at', " WP_SQL_TIME("h.at") ", 'before', h.before, 'rating',"       \
		" h.rating, 'rd', h.rd,"                                                           \
		" 'outcome', h.outcome, 'game', CASE WHEN " WP_SQL_LISTED("g") " THEN g.id END)"  \
		" ORDER BY h.at, h.game_id) FROM (SELECT * FROM rating_history WHERE"             \
		" player_id = p.id ORDER BY at DESC, game_id DESC LIMIT 500) h"                    \
		" JOIN games g ON g.id = h.game_id), '[]'),"                                      \
		" 'recent', coalesce((SELECT json_agg(x.j ORDER BY x.at DESC, x.id DESC) FROM"       \
		" (SELECT g.id, g.updated_at AS at, json_build_object('id', g.id, 'ruleset',"     \
		" g.ruleset, 'rated', g.rated, 'at', " WP_SQL_TIME("g.updated_at") ", 'seat',"     \
		" s.seat, 'outcome', " WP_SQL_OUTCOME("g", "s") ", 'opponents', (SELECT"           \
		" json_agg(json_build_object('seat', o.seat, 'id', q.id, 'name', q.name, 'bot',"  \
		" q.bot) ORDER BY o.seat) FROM seats o JOIN players q ON q.id = o.player_id"       \
		" WHERE o.game_id = g.id AND o.seat <> s.seat)) AS j FROM seats s"                 \
		" JOIN games g ON g.id = s.game_id WHERE s.player_id = p.id AND g.status = 'over'" \
		" AND " WP_SQL_LISTED("g") " ORDER BY g.updated_at DESC, g.id DESC LIMIT 20) x),"  \
		" '[]'))::text"                                                                    \
		" FROM players p WHERE p.id = $1"},                                               \
	/* $1 the ruleset, $2 the pool, $3 who asks (0: nobody): the players \
	 * whose deviation is at most 110, best first, the first 100, and the \
	 * caller's own line (its rank among them; null when provisional). */ \
	[WP_STMT_LEADERBOARD] = {"leaderboard",                                                  \
		"WITH b AS (SELECT r.*, p.name, p.bot, row_number() OVER (ORDER BY r.rating DESC," \
		" r.player_id) AS rank FROM ratings r JOIN players p ON p.id = r.player_id"        \
		" WHERE r.ruleset = $1 AND r.pool = $2 AND r.rd <= 110)"                          \
		" SELECT json_build_object('ruleset', $1::text, 'pool', $2::text,"               \
		" 'players', coalesce((SELECT json_agg(json_build_object('rank', b.rank, 'id',"   \
		" b.player_id, 'name', b.name, 'bot', b.bot, 'rating', b.rating, 'rd', b.rd,"     \
		" 'games', b.games, 'wins', b.wins, 'draws', b.draws, 'losses', b.losses)"        \
		" ORDER BY b.rank) FROM b WHERE b.rank <= 100), '[]'),"                           \
		" 'you', (SELECT json_build_object('id', r.player_id, 'rank', b.rank, 'rating',"  \
		" r.rating, 'rd', r.rd, 'provisional', r.rd > 110, 'games', r.games)"             \
		" FROM ratings r LEFT JOIN b ON b.player_id = r.player_id WHERE r.player_id = $3" \
		" AND r.ruleset = $1 AND r.pool = $2))::text"},

#endif
