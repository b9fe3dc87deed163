-- Matches, seats, the post log and idempotency records. Every table that
-- grows with play carries game_id and every query of a match's data names
-- it, so game_id can become a distribution column (DESIGN.md, "Scaling").
CREATE TABLE games (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    ruleset      text NOT NULL,
    options      jsonb NOT NULL DEFAULT '{}',
    seats        smallint NOT NULL CHECK (seats BETWEEN 2 AND 4),
    status       text NOT NULL DEFAULT 'open'
                 CHECK (status IN ('open', 'active', 'over', 'aborted')),
    seq          integer NOT NULL DEFAULT 0,      -- posts in the log
    version      integer NOT NULL DEFAULT 0,      -- any change a viewer may see
    state        json,                            -- the ruleset's snapshot, secrets included
    seed         bytea NOT NULL CHECK (length(seed) = 32),  -- secret until the end
    commitment   bytea NOT NULL CHECK (length(commitment) = 32),
    client_seeds bytea NOT NULL DEFAULT '',       -- fixed when the match starts
    draws        bigint NOT NULL DEFAULT 0,       -- dice drawn so far
    awaiting     integer NOT NULL DEFAULT 0,      -- seat mask
    draw_offers  integer NOT NULL DEFAULT 0,      -- seat mask
    result       jsonb,
    created_by   bigint NOT NULL REFERENCES players (id),
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE seats (
    game_id      bigint NOT NULL REFERENCES games (id),
    seat         smallint NOT NULL,
    player_id    bigint REFERENCES players (id),
    invite_hash  bytea NOT NULL,
    client_seed  text NOT NULL DEFAULT '',
    joined_at    timestamptz,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, player_id)
);
CREATE INDEX seats_by_player ON seats (player_id, game_id);

CREATE TABLE posts (
    game_id        bigint NOT NULL REFERENCES games (id),
    seq            integer NOT NULL,
    seat           smallint,                      -- NULL: the server (start)
    kind           text NOT NULL,
    actions        jsonb NOT NULL DEFAULT '[]',
    comment        text,
    comment_hidden boolean NOT NULL DEFAULT false,
    events         jsonb NOT NULL DEFAULT '[]',   -- [{"to": seat mask, "e": {...}}]
    draws_from     bigint NOT NULL,
    rolls          jsonb NOT NULL DEFAULT '[]',   -- [[bound, value], ...]
    created_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE idempotency (
    game_id      bigint NOT NULL REFERENCES games (id),
    player_id    bigint NOT NULL,
    key          text NOT NULL,
    request_hash bytea NOT NULL,
    status       smallint NOT NULL,
    body         text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, player_id, key)
);
