-- Correspondence tournaments (issue 29): an organiser's event, its
-- players and each round's tables, every table one match (a bye: no
-- match). The pairing and the standings are srv/league (pure C); the API
-- is srv/api/tournaments*.c.
--   kind      round_robin: every round's matches are created and started
--             at once when the event starts; swiss: one round at a time,
--             the next started by a worker (srv/api/tournament_rounds.c)
--             once every match of the round ended, or at the round's
--             deadline (round_days after it started, 0: none), whichever
--             first: a match still running then goes on and counts when it
--             ends, and its players are paired in the next round all the
--             same (on the points they have); ladder: a standing
--             ladder (players' seeds are their places, 1 the top): a player
--             challenges one up to `reach` places above, the challenged
--             accepts within accept_days (or forfeits), a challenger's win
--             swaps the two places (ladder_challenges below).
--   status    open (players join), running, over.
--   round     the last round started (0: none).
--   version   grows with every change, a match of the event ended
--             included (the trigger below): the ETag of GET.
-- Starting a round is exactly-once: the worker and the organiser's start
-- lock the event row (the worker with SKIP LOCKED), and
-- tournament_rounds' key refuses a round written twice; the tables, the
-- matches and the round row are written in one transaction.
-- Every table here is a reference table for Citus (docs/operations.md,
-- "Scaling out"; tests/ops/test_distribution_keys.py): small, an event's
-- and not a match's; it names its matches by id, without a foreign key
-- into the distributed games (as challenges.game_id does).
-- Idempotent: IF NOT EXISTS, OR REPLACE.
CREATE TABLE IF NOT EXISTS tournaments (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    organiser_id bigint NOT NULL REFERENCES players (id),
    name         text NOT NULL,
    ruleset      text NOT NULL,
    options      jsonb NOT NULL DEFAULT '{}',
    time_control jsonb,
    rated        boolean NOT NULL DEFAULT false,
    seats        smallint NOT NULL DEFAULT 2 CHECK (seats BETWEEN 2 AND 4),
    kind         text NOT NULL CHECK (kind IN ('round_robin', 'swiss', 'ladder')),
    reach        smallint NOT NULL DEFAULT 3,
    accept_days  smallint NOT NULL DEFAULT 3,
    round_days   smallint NOT NULL DEFAULT 0,
    cycles       smallint NOT NULL DEFAULT 1 CHECK (cycles IN (1, 2)),
    rounds       smallint NOT NULL DEFAULT 0,
    min_players  smallint NOT NULL DEFAULT 2,
    max_players  smallint NOT NULL DEFAULT 16,
    code         text,
    starts_at    timestamptz,
    status       text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'running', 'over')),
    round        smallint NOT NULL DEFAULT 0,
    version      integer NOT NULL DEFAULT 0,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS tournaments_live ON tournaments (id) WHERE status <> 'over';

-- seed: the order of joining (1 first), the pairing's seeding.
CREATE TABLE IF NOT EXISTS tournament_players (
    tournament_id bigint NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    player_id     bigint NOT NULL REFERENCES players (id),
    seed          integer NOT NULL,
    withdrawn     boolean NOT NULL DEFAULT false,
    joined_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tournament_id, player_id)
);
CREATE INDEX IF NOT EXISTS tournament_players_player ON tournament_players (player_id);

CREATE TABLE IF NOT EXISTS tournament_rounds (
    tournament_id bigint NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         smallint NOT NULL,
    started_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tournament_id, round)
);

-- players: in seat order (a bye: one player, no game).
CREATE TABLE IF NOT EXISTS tournament_tables (
    tournament_id bigint NOT NULL,
    round         smallint NOT NULL,
    table_no      smallint NOT NULL,
    game_id       bigint UNIQUE,   -- no foreign key into the distributed matches
    players       bigint[] NOT NULL,
    PRIMARY KEY (tournament_id, round, table_no),
    FOREIGN KEY (tournament_id, round) REFERENCES tournament_rounds ON DELETE CASCADE
);

-- A ladder's challenges: pending until the challenged accepts (a match,
-- playing) or its deadline passes (forfeited: the places swap as if the
-- challenger won); done once the match ended and the places were settled
-- (the round worker, srv/api/tournament_ladder.c).
CREATE TABLE IF NOT EXISTS ladder_challenges (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tournament_id bigint NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    challenger_id bigint NOT NULL REFERENCES players (id),
    challenged_id bigint NOT NULL REFERENCES players (id),
    status        text NOT NULL DEFAULT 'pending'
                  CHECK (status IN ('pending', 'playing', 'done', 'forfeited')),
    game_id       bigint UNIQUE,   -- as tournament_tables.game_id
    swapped       boolean,
    created_at    timestamptz NOT NULL DEFAULT now(),
    deadline      timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS ladder_challenges_live ON ladder_challenges (tournament_id)
    WHERE status IN ('pending', 'playing');

-- A match of an event ended: the event's version moves (its ETag) and
-- its long-polls and the round worker hear of it at the commit.
CREATE OR REPLACE FUNCTION wp_tournament_game_over() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    t bigint;
BEGIN
    SELECT tournament_id INTO t FROM tournament_tables WHERE game_id = NEW.id;
    IF t IS NULL THEN
        SELECT tournament_id INTO t FROM ladder_challenges WHERE game_id = NEW.id;
    END IF;
    IF t IS NOT NULL THEN
        UPDATE tournaments SET version = version + 1 WHERE id = t;
        PERFORM pg_notify('wp_tournament', t::text);
    END IF;
    RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS games_tournament_over ON games;
CREATE TRIGGER games_tournament_over AFTER UPDATE OF status ON games FOR EACH ROW
    WHEN (NEW.status IN ('over', 'aborted') AND OLD.status NOT IN ('over', 'aborted'))
    EXECUTE FUNCTION wp_tournament_game_over();

-- Each seat's place in an ended match of an event, 1 the best (equal
-- places drew), from the ratings' reading of the result and the seats put
-- out (wp_rating_places, sql/017); an aborted match is a draw of all.
CREATE OR REPLACE FUNCTION wp_tournament_places(p_game bigint) RETURNS jsonb
LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN g.status = 'aborted' THEN
                    (SELECT jsonb_agg(1) FROM generate_series(1, g.seats))
                WHEN g.status = 'over' THEN
                    (SELECT jsonb_agg(x.rk ORDER BY x.seat) FROM
                        (SELECT p.seat, rank() OVER (ORDER BY p.place DESC) AS rk
                         FROM wp_rating_places(p_game) p) x)
           END
    FROM games g WHERE g.id = p_game
$$;

-- The event as the API shows it, but the standings (C, srv/league).
-- with_code: the invitation code too (the organiser's view).
CREATE OR REPLACE FUNCTION wp_tournament_json(p_id bigint, with_code boolean) RETURNS jsonb
LANGUAGE sql STABLE AS $$
    SELECT jsonb_build_object(
        'id', t.id, 'name', t.name,
        'organiser', jsonb_build_object('id', o.id, 'name', o.name),
        'ruleset', t.ruleset, 'options', t.options, 'time_control', t.time_control,
        'rated', t.rated, 'seats', t.seats, 'kind', t.kind, 'cycles', t.cycles,
        'reach', t.reach, 'accept_days', t.accept_days, 'round_days', t.round_days,
        'round_deadline', (SELECT to_char((r.started_at + make_interval(days => t.round_days))
                                          AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
                           FROM tournament_rounds r WHERE r.tournament_id = t.id
                           AND r.round = t.round AND t.round_days > 0 AND t.kind = 'swiss'),
        'round_deadline_passed', coalesce((SELECT r.started_at
                                  + make_interval(days => t.round_days) <= now()
                           FROM tournament_rounds r WHERE r.tournament_id = t.id
                           AND r.round = t.round AND t.round_days > 0 AND t.kind = 'swiss'), false),
        'rounds', t.rounds, 'min_players', t.min_players, 'max_players', t.max_players,
        'by_invitation', t.code IS NOT NULL,
        'code', CASE WHEN with_code THEN t.code END,
        'starts_at', to_char(t.starts_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
        'status', t.status, 'round', t.round, 'version', t.version,
        'created_at', to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
        'players', coalesce((SELECT jsonb_agg(jsonb_build_object(
                        'id', p.id, 'name', p.name, 'seed', tp.seed,
                        'withdrawn', tp.withdrawn) ORDER BY tp.seed)
                    FROM tournament_players tp JOIN players p ON p.id = tp.player_id
                    WHERE tp.tournament_id = t.id), '[]'),
        'tables', coalesce((SELECT jsonb_agg(jsonb_build_object(
                        'round', x.round, 'table', x.table_no, 'game', x.game_id,
                        'players', to_jsonb(x.players), 'status', g.status,
                        'places', wp_tournament_places(x.game_id))
                        ORDER BY x.round, x.table_no)
                    FROM tournament_tables x LEFT JOIN games g ON g.id = x.game_id
                    WHERE x.tournament_id = t.id), '[]'),
        'challenges', coalesce((SELECT jsonb_agg(jsonb_build_object(
                        'id', l.id, 'challenger', l.challenger_id, 'challenged', l.challenged_id,
                        'status', l.status, 'game', l.game_id, 'swapped', l.swapped,
                        'game_status', g.status,
                        'places', CASE WHEN l.game_id IS NOT NULL
                                       THEN wp_tournament_places(l.game_id) END,
                        'deadline', to_char(l.deadline AT TIME ZONE 'UTC',
                                            'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                        'expired', l.status = 'pending' AND l.deadline <= now())
                        ORDER BY l.id DESC)
                    FROM ladder_challenges l LEFT JOIN games g ON g.id = l.game_id
                    WHERE l.tournament_id = t.id), '[]'))
    FROM tournaments t JOIN players o ON o.id = t.organiser_id
    WHERE t.id = p_id
$$;
