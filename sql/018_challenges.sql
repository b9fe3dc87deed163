-- Open challenges, the seek lobby (issue 28): a player posts the match it
-- wants (ruleset, options, time control, rated or casual, seats, a rating
-- range for accepters, who may watch) and others take its seats; when the
-- last seat is taken the match is created and started in the same
-- transaction (srv/api/challenges.c), and the challenge points at it.
--   status   open until cancelled by its poster or started; an open one
--            past expires_at is expired: every query says so by the time,
--            nothing has to run at the hour.
--   version  grows with every change (a seat taken or left), for ETags.
-- A challenge is not a match's data: it has no game_id until it starts,
-- and no transaction touches two matches (DESIGN.md, "Scaling").
-- Idempotent: IF NOT EXISTS.
CREATE TABLE IF NOT EXISTS challenges (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    poster_id       bigint NOT NULL REFERENCES players (id),
    ruleset         text NOT NULL,
    options         jsonb NOT NULL DEFAULT '{}',
    time_control    jsonb,
    rated           boolean NOT NULL DEFAULT false,
    seats           smallint NOT NULL CHECK (seats BETWEEN 2 AND 4),
    min_rating      integer,
    max_rating      integer,
    spectators      text NOT NULL DEFAULT 'unlisted'
                    CHECK (spectators IN ('open', 'unlisted', 'private')),
    spectator_delay integer NOT NULL DEFAULT 0,
    status          text NOT NULL DEFAULT 'open'
                    CHECK (status IN ('open', 'cancelled', 'started')),
    -- The match once started. No foreign key: the lobby is a reference
    -- table when the matches are distributed (Citus, DESIGN.md "Scaling"),
    -- and a reference table may not point into a distributed one; the
    -- match is created in the transaction that sets it.
    game_id         bigint,
    version         integer NOT NULL DEFAULT 0,
    created_at      timestamptz NOT NULL DEFAULT now(),
    expires_at      timestamptz NOT NULL,
    CHECK ((status = 'started') = (game_id IS NOT NULL))
);
CREATE INDEX IF NOT EXISTS challenges_open ON challenges (expires_at) WHERE status = 'open';
CREATE INDEX IF NOT EXISTS challenges_poster ON challenges (poster_id);

-- The seats taken: the poster's, and each accepter's. One seat a player.
CREATE TABLE IF NOT EXISTS challenge_seats (
    challenge_id bigint NOT NULL REFERENCES challenges (id) ON DELETE CASCADE,
    seat         smallint NOT NULL CHECK (seat BETWEEN 0 AND 3),
    player_id    bigint NOT NULL REFERENCES players (id),
    client_seed  text NOT NULL DEFAULT '',
    joined_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (challenge_id, seat),
    UNIQUE (challenge_id, player_id)
);
CREATE INDEX IF NOT EXISTS challenge_seats_player ON challenge_seats (player_id);

-- The first answer to an accept with an Idempotency-Key (as the table
-- idempotency is for a match's writes, which names a match).
CREATE TABLE IF NOT EXISTS challenge_idempotency (
    challenge_id bigint NOT NULL REFERENCES challenges (id) ON DELETE CASCADE,
    player_id    bigint NOT NULL,
    key          text NOT NULL,
    request_hash bytea NOT NULL,
    status       smallint NOT NULL,
    body         text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (challenge_id, player_id, key)
);
