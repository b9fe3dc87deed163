-- The computer players (issue 27).
--   bot_engines  the server's own engine players, one per level: an
--                ordinary player row (players.bot = true) whose token hash
--                is the SHA-256 of a text that is not a token (64 hex
--                digits), so that no bearer token can ever match it: only
--                the in-process bot worker acts for them (srv/bot/).
--   bot_claims   one row per bot decision: the match, the post it is made
--                against (seq) and the seat. A worker holds the row FOR
--                UPDATE (SKIP LOCKED by any other) while it thinks and
--                posts, so that one instance plays each bot turn; the
--                engine's seed is drawn by the server and kept here, never
--                taken from the match's dice. done_at is set in the same
--                transaction once the post is answered; attempts counts
--                the tries (a try killed mid-thought leaves the row
--                unlocked and not done, and the next scan plays it).
-- Idempotent: IF NOT EXISTS, and the engine players are made once.
CREATE TABLE IF NOT EXISTS bot_engines (
    level      smallint PRIMARY KEY CHECK (level BETWEEN 1 AND 16),
    player_id  bigint NOT NULL UNIQUE REFERENCES players (id)
);

DO $$
DECLARE
    l int;
    pid bigint;
BEGIN
    FOR l IN 1..4 LOOP
        IF NOT EXISTS (SELECT 1 FROM bot_engines WHERE level = l) THEN
            INSERT INTO players (name, token_hash, bot)
            VALUES ('Computer (level ' || l || ')',
                    sha256(convert_to('engine player ' || l || ' ' || random()::text
                                      || clock_timestamp()::text, 'UTF8')),
                    true)
            RETURNING id INTO pid;
            INSERT INTO bot_engines (level, player_id) VALUES (l, pid);
        END IF;
    END LOOP;
END $$;

CREATE TABLE IF NOT EXISTS bot_claims (
    game_id     bigint NOT NULL REFERENCES games (id),
    seq         integer NOT NULL,
    seat        smallint NOT NULL,
    seed        bigint NOT NULL,
    attempts    integer NOT NULL DEFAULT 0,
    outcome     text,
    created_at  timestamptz NOT NULL DEFAULT now(),
    done_at     timestamptz,
    PRIMARY KEY (game_id, seq, seat)
);
