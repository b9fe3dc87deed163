/* The tournaments' statements (issue 29), kept beside the others of
 * store_priv.h as challenge_sql.h keeps the challenges': their enum names
 * (WP_TOURNAMENT_STMTS) and their SQL (WP_TOURNAMENT_SQL). The tables and
 * the JSON of an event are sql/024_tournaments.sql. */
#ifndef WP_TOURNAMENT_SQL_H
#define WP_TOURNAMENT_SQL_H

/* NOTIFY wp_tournament '<id>': an event changed (store/listen.c wakes the
 * long-polls of GET /api/tournaments/{id} and the round worker). */
#define WP_TOURNAMENT_CHANNEL "wp_tournament"

#define WP_TOURNAMENT_STMTS                                                                      \
	WP_STMT_T_INSERT, WP_STMT_T_JSON, WP_STMT_T_LOCK, WP_STMT_T_LIST, WP_STMT_T_JOIN,        \
	WP_STMT_T_DROP, WP_STMT_T_WITHDRAW, WP_STMT_T_SET, WP_STMT_T_ROUND, WP_STMT_T_TABLE,     \
	WP_STMT_T_DUE, WP_STMT_T_NOTIFY, WP_STMT_L_INSERT, WP_STMT_L_SET, WP_STMT_T_SEED,

#define WP_TOURNAMENT_SQL                                                                        \
	[WP_STMT_T_INSERT] = {"t_insert",                                                        \
		"INSERT INTO tournaments (organiser_id, name, ruleset, options, time_control,"      \
		" rated, seats, kind, cycles, rounds, min_players, max_players, code, starts_at,"  \
		" reach, accept_days, round_days)"                                                  \
		" VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6::boolean, $7, $8, $9, $10, $11,"    \
		" $12, $13, $14::timestamptz, $15, $16, $17) RETURNING id"},                                       \
	[WP_STMT_T_JSON] = {"t_json", "SELECT wp_tournament_json($1, $2::boolean)::text"},     \
	/* Every change of one event queues here: joins, starts, rounds. */                     \
	[WP_STMT_T_LOCK] = {"t_lock",                                                            \
		"SELECT wp_tournament_json(id, $2::boolean)::text FROM tournaments"               \
		" WHERE id = $1 FOR UPDATE"},                                                       \
	[WP_STMT_T_LIST] = {"t_list",                                                            \
		"SELECT coalesce(jsonb_agg(jsonb_build_object('id', t.id, 'name', t.name,"         \
		" 'ruleset', t.ruleset, 'kind', t.kind, 'status', t.status, 'round', t.round,"      \
		" 'rounds', t.rounds, 'seats', t.seats, 'rated', t.rated,"                         \
		" 'by_invitation', t.code IS NOT NULL, 'max_players', t.max_players,"              \
		" 'organiser', (SELECT name FROM players WHERE id = t.organiser_id),"              \
		" 'players', (SELECT count(*) FROM tournament_players p"                           \
		" WHERE p.tournament_id = t.id), 'version', t.version) ORDER BY t.id DESC), '[]')::text" \
		" FROM (SELECT * FROM tournaments ORDER BY status = 'over', id DESC LIMIT $1) t"},   \
	[WP_STMT_T_JOIN] = {"t_join",                                                            \
		"INSERT INTO tournament_players (tournament_id, player_id, seed)"                   \
		" SELECT $1, $2, coalesce(max(seed), 0) + 1 FROM tournament_players"               \
		" WHERE tournament_id = $1"},                                                       \
	[WP_STMT_T_DROP] = {"t_drop",                                                            \
		"WITH d AS (DELETE FROM tournament_players WHERE tournament_id = $1"               \
		" AND player_id = $2 RETURNING seed), u AS (UPDATE tournament_players"            \
		" SET seed = seed - 1 WHERE tournament_id = $1 AND seed > (SELECT seed FROM d))"   \
		" SELECT count(*) FROM d"},                                    \
	[WP_STMT_T_WITHDRAW] = {"t_withdraw",                                                    \
		"UPDATE tournament_players SET withdrawn = true WHERE tournament_id = $1"           \
		" AND player_id = $2"},                                                             \
	[WP_STMT_T_SET] = {"t_set",                                                              \
		"UPDATE tournaments SET status = $2, round = $3, rounds = $4,"                     \
		" version = version + 1 WHERE id = $1"},                                            \
	[WP_STMT_T_ROUND] = {"t_round",                                                          \
		"INSERT INTO tournament_rounds (tournament_id, round) VALUES ($1, $2)"},           \
	[WP_STMT_T_TABLE] = {"t_table",                                                          \
		"INSERT INTO tournament_tables (tournament_id, round, table_no, game_id, players)"  \
		" VALUES ($1, $2, $3, $4::bigint, $5::bigint[])"},                                  \
	/* An event with work for the worker: one to start (its date passed,   \
	 * enough players), a Swiss round all ended, or the last round ended.  \
	 * Claimed: another instance skips it while this one works. */                           \
	[WP_STMT_T_DUE] = {"t_due",                                                              \
		"SELECT t.id FROM tournaments t WHERE t.status <> 'over' AND ("                     \
		" (t.status = 'open' AND t.starts_at <= now() AND (SELECT count(*)"                \
		" FROM tournament_players p WHERE p.tournament_id = t.id)"                         \
		" >= greatest(t.min_players, t.seats)) OR (t.status = 'running'"                   \
		" AND t.kind = 'ladder' AND EXISTS (SELECT 1 FROM ladder_challenges l"             \
		" LEFT JOIN games g ON g.id = l.game_id WHERE l.tournament_id = t.id"              \
		" AND ((l.status = 'pending' AND l.deadline <= now()) OR (l.status = 'playing'"    \
		" AND g.status IN ('over', 'aborted'))))) OR (t.status = 'running'"                \
		" AND t.kind = 'swiss' AND t.round < t.rounds AND t.round_days > 0 AND EXISTS"     \
		" (SELECT 1 FROM tournament_rounds r WHERE r.tournament_id = t.id"                 \
		" AND r.round = t.round AND r.started_at + make_interval(days => t.round_days)"    \
		" <= now())) OR (t.status = 'running'"                                              \
		" AND t.kind <> 'ladder' AND NOT EXISTS (SELECT 1 FROM tournament_tables x JOIN games g"                  \
		" ON g.id = x.game_id WHERE x.tournament_id = t.id"                               \
		" AND g.status NOT IN ('over', 'aborted'))))"                                       \
		" AND t.id > $1 ORDER BY t.id LIMIT 1 FOR UPDATE SKIP LOCKED"},                     \
	[WP_STMT_T_NOTIFY] = {"t_notify", "SELECT pg_notify('" WP_TOURNAMENT_CHANNEL "', $1::text)"},  \
	[WP_STMT_L_INSERT] = {"l_insert",                                                        \
		"INSERT INTO ladder_challenges (tournament_id, challenger_id, challenged_id,"       \
		" deadline) VALUES ($1, $2, $3, now() + make_interval(days => $4)) RETURNING id"},  \
	[WP_STMT_L_SET] = {"l_set",                                                              \
		"UPDATE ladder_challenges SET status = $2, game_id = coalesce($3::bigint, game_id),"\
		" swapped = $4::boolean WHERE id = $1"},                                            \
	[WP_STMT_T_SEED] = {"t_seed",                                                            \
		"UPDATE tournament_players SET seed = $3 WHERE tournament_id = $1"                  \
		" AND player_id = $2"},

#endif
