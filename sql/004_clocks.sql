-- Time controls and vacations (issue "Correspondence play"). Clocks are
-- not stored: they are derived from the posts' times, the awaiting mask
-- after each post and the players' vacations, so a restart or a second
-- instance loses nothing.
ALTER TABLE games ADD COLUMN time_control jsonb;   -- NULL: none
-- Who is awaited after the post; NULL for posts written before 004.
ALTER TABLE posts ADD COLUMN awaiting integer;

-- A vacation pauses the clocks of all the player's matches in
-- [starts_at, ends_at). A reference table like players (small, per
-- player, read with a match's seats).
CREATE TABLE vacations (
    player_id  bigint NOT NULL REFERENCES players (id),
    starts_at  timestamptz NOT NULL,
    ends_at    timestamptz NOT NULL CHECK (ends_at > starts_at),
    PRIMARY KEY (player_id, starts_at)
);
