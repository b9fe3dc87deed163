/* The open challenges' statements (issue 28), kept beside the others of
 * store_priv.h as notify_sql.h keeps the notifications': their enum names
 * (WP_CHALLENGE_STMTS, inside enum wp_stmt), their SQL (WP_CHALLENGE_SQL,
 * inside sql.c's table) and their columns. The tables are
 * sql/018_challenges.sql. */
#ifndef WP_CHALLENGE_SQL_H
#define WP_CHALLENGE_SQL_H

/* NOTIFY wp_challenge '<id>': a challenge was posted, taken, left,
 * cancelled or started (store/listen.c wakes the lists' long-polls). */
#define WP_CHALLENGE_CHANNEL "wp_challenge"

#define WP_CHALLENGE_STMTS                                                                       \
	WP_STMT_CHALLENGE_INSERT, WP_STMT_CHALLENGE_SEAT_INSERT, WP_STMT_CHALLENGE_GET,          \
	WP_STMT_CHALLENGE_LOCK, WP_STMT_CHALLENGE_SEATS, WP_STMT_CHALLENGES_LIST,                \
	WP_STMT_CHALLENGE_STATUS, WP_STMT_CHALLENGE_LEAVE, WP_STMT_CHALLENGE_NOTIFY,             \
	WP_STMT_CHALLENGE_IDEM_GET, WP_STMT_CHALLENGE_IDEM_PUT, WP_STMT_RATING_OF,               \
	WP_STMT_CHALLENGES_SWEEP,

/* An open challenge past its expiry reads as expired: nothing runs at the
 * hour, every reader asks the time. */
#define WP_SQL_CHALLENGE_STATUS                                                                  \
	"CASE WHEN c.status = 'open' AND c.expires_at <= now() THEN 'expired' ELSE c.status END"

#define WP_CHALLENGE_COLUMNS(X)                                                                  \
	X(CH_ID, "c.id") X(CH_POSTER, "c.poster_id")                                             \
	X(CH_POSTER_NAME, "(SELECT name FROM players WHERE id = c.poster_id)")                   \
	X(CH_RULESET, "c.ruleset") X(CH_OPTIONS, "c.options::text")                              \
	X(CH_TIME_CONTROL, "c.time_control::text") X(CH_RATED, "c.rated") X(CH_SEATS, "c.seats") \
	X(CH_MIN_RATING, "c.min_rating") X(CH_MAX_RATING, "c.max_rating")                        \
	X(CH_SPECTATORS, "c.spectators") X(CH_DELAY, "c.spectator_delay")                        \
	X(CH_STATUS, WP_SQL_CHALLENGE_STATUS) X(CH_GAME, "c.game_id") X(CH_VERSION, "c.version") \
	X(CH_CREATED_AT, WP_SQL_TIME("c.created_at")) X(CH_EXPIRES_AT, WP_SQL_TIME("c.expires_at")) \
	X(CH_EXPIRES, "extract(epoch FROM c.expires_at)::bigint")                                \
	X(CH_PLAYERS, "(SELECT json_agg(json_build_object('seat', s.seat, 'player',"            \
	              " json_build_object('id', p.id, 'name', p.name)) ORDER BY s.seat)"         \
	              " FROM challenge_seats s JOIN players p ON p.id = s.player_id"             \
	              " WHERE s.challenge_id = c.id)::text")

#define WP_CHALLENGE_SEAT_COLUMNS(X)                                                             \
	X(CS_SEAT, "seat") X(CS_PLAYER, "player_id") X(CS_CLIENT_SEED, "client_seed")

#define WP_CHALLENGE_SQL                                                                         \
	[WP_STMT_CHALLENGE_INSERT] = {"challenge_insert",                                        \
		"INSERT INTO challenges (poster_id, ruleset, options, time_control, rated, seats,"  \
		" min_rating, max_rating, spectators, spectator_delay, expires_at)"                \
		" VALUES ($1, $2, $3::jsonb, $4::jsonb, $5::boolean, $6, $7::integer, $8::integer," \
		" $9, $10, now() + make_interval(secs => $11)) RETURNING id"},                    \
	[WP_STMT_CHALLENGE_SEAT_INSERT] = {"challenge_seat_insert",                              \
		"INSERT INTO challenge_seats (challenge_id, seat, player_id, client_seed)"         \
		" VALUES ($1, $2, $3, $4)"},                                                        \
	[WP_STMT_CHALLENGE_GET] = {"challenge_get",                                              \
		"SELECT " COLS(WP_CHALLENGE_COLUMNS) " FROM challenges c WHERE c.id = $1"},       \
	/* Every accept, leave and cancel of one challenge queue here: one \
	 * at a time decides on what the one before committed. */                               \
	[WP_STMT_CHALLENGE_LOCK] = {"challenge_lock",                                            \
		"SELECT " COLS(WP_CHALLENGE_COLUMNS) " FROM challenges c WHERE c.id = $1"         \
		" FOR UPDATE OF c"},                                                                \
	[WP_STMT_CHALLENGE_SEATS] = {"challenge_seats",                                          \
		"SELECT " COLS(WP_CHALLENGE_SEAT_COLUMNS) " FROM challenge_seats"                  \
		" WHERE challenge_id = $1 ORDER BY seat"},                                          \
	/* The open ones, newest first; $1 a ruleset or NULL; $2 'untimed', \
	 * 'timed', a number of days a move, or NULL. */                                          \
	[WP_STMT_CHALLENGES_LIST] = {"challenges_list",                                          \
		"SELECT " COLS(WP_CHALLENGE_COLUMNS) " FROM challenges c"                          \
		" WHERE c.status = 'open' AND c.expires_at > now()"                                \
		" AND ($1::text IS NULL OR c.ruleset = $1)"                                        \
		" AND ($2::text IS NULL OR ($2 = 'untimed' AND c.time_control IS NULL)"            \
		" OR ($2 = 'timed' AND c.time_control IS NOT NULL)"                                \
		" OR c.time_control->>'days_per_move' = $2)"                                       \
		" ORDER BY c.created_at DESC, c.id DESC LIMIT $3"},                                \
	[WP_STMT_CHALLENGE_STATUS] = {"challenge_status",                                        \
		"UPDATE challenges SET status = $2, game_id = $3::bigint, version = version + 1"    \
		" WHERE id = $1"},                                                                  \
	/* A seat left; the challenge's version grows with it. */                                \
	[WP_STMT_CHALLENGE_LEAVE] = {"challenge_leave",                                          \
		"WITH d AS (DELETE FROM challenge_seats WHERE challenge_id = $1 AND player_id = $2" \
		" RETURNING seat) UPDATE challenges SET version = version + 1"                     \
		" WHERE id = $1 AND EXISTS (SELECT 1 FROM d) RETURNING id"},                       \
	/* Sent at the commit of the change, or never: the challenge lists of \
	 * every instance wake (store/listen.c). Challenges change at human \
	 * pace, so the lock a NOTIFY holds at commit costs nothing here. */                      \
	[WP_STMT_CHALLENGE_NOTIFY] = {"challenge_notify",                                        \
		"SELECT pg_notify('" WP_CHALLENGE_CHANNEL "', $1::text)"},                          \
	[WP_STMT_CHALLENGE_IDEM_GET] = {"challenge_idem_get",                                    \
		"SELECT " COLS(WP_IDEM_COLUMNS) " FROM challenge_idempotency"                      \
		" WHERE challenge_id = $1 AND player_id = $2 AND key = $3"},                       \
	[WP_STMT_CHALLENGE_IDEM_PUT] = {"challenge_idem_put",                                    \
		"INSERT INTO challenge_idempotency (challenge_id, player_id, key, request_hash,"    \
		" status, body) VALUES ($1, $2, $3, $4, $5, $6)"},                                  \
	/* The player's Glicko-2 rating in ruleset $2, in its pool (sql/017: \
	 * 'bot' for a bot unless mix_bots, else 'human'), rounded; no row yet: \
	 * 1500, a new player's. */                                                                             \
	[WP_STMT_RATING_OF] = {"rating_of",                                                      \
		"SELECT coalesce((SELECT round(r.rating)::integer FROM ratings r"                  \
		" WHERE r.player_id = p.id AND r.ruleset = $2::text"                                \
		" AND r.pool = CASE WHEN p.bot AND NOT (SELECT mix_bots FROM rating_settings)"     \
		" THEN 'bot' ELSE 'human' END), 1500) FROM players p WHERE p.id = $1"},           \
	/* Challenges cancelled or not taken, $1 days after their expiry, are \
	 * forgotten; a started one stays, it names its match. */                                \
	[WP_STMT_CHALLENGES_SWEEP] = {"challenges_sweep",                                        \
		"DELETE FROM challenges WHERE status <> 'started'"                                 \
		" AND expires_at < now() - make_interval(days => $1)"},

#endif
