-- Snapshots (issue 26, "The house kept small as it grows"): the match as
-- it was after every 64th post, so that a replay (GET ?at=, a delayed
-- spectator, board.svg?at=, undo) starts from the nearest one at or before
-- the post it wants and applies at most 63 posts, whatever the match's
-- length. A snapshot is games' row after the post: its state holds every
-- secret, like games.state, and is never sent to a client.
-- Idempotent: IF NOT EXISTS, OR REPLACE, DROP ... IF EXISTS.
CREATE TABLE IF NOT EXISTS snapshots (
    game_id      bigint NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq          integer NOT NULL,
    state        json,
    status       text NOT NULL,
    awaiting     integer NOT NULL,
    draw_offers  integer NOT NULL,
    result       jsonb,
    draws        bigint NOT NULL,
    at           timestamptz NOT NULL,   -- the post's time (games.updated_at)
    PRIMARY KEY (game_id, seq)
);

-- Written by the statement that writes the post's match row (a turn is
-- one statement, store/sql.c TURN_WRITE): no round trip more. The WHEN is
-- a remainder, read only when seq changes; the function runs once every
-- 64 posts. The interval is this 64 alone; the readers take any seq.
CREATE OR REPLACE FUNCTION wp_snapshot_take() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO snapshots (game_id, seq, state, status, awaiting, draw_offers, result,
                           draws, at)
    VALUES (NEW.id, NEW.seq, NEW.state, NEW.status, NEW.awaiting, NEW.draw_offers,
            NEW.result, NEW.draws, NEW.updated_at)
    ON CONFLICT (game_id, seq) DO UPDATE SET state = EXCLUDED.state,
        status = EXCLUDED.status, awaiting = EXCLUDED.awaiting,
        draw_offers = EXCLUDED.draw_offers, result = EXCLUDED.result,
        draws = EXCLUDED.draws, at = EXCLUDED.at;
    RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS snapshot_take ON games;
CREATE TRIGGER snapshot_take
    AFTER UPDATE OF seq ON games
    FOR EACH ROW WHEN (NEW.seq % 64 = 0 AND NEW.seq <> OLD.seq)
    EXECUTE FUNCTION wp_snapshot_take();

-- A replay skips the posts undone by the posts it applies; one that
-- starts from a snapshot must not meet an undo of a post before it
-- (store/sql.c SNAPSHOT_AT): this index finds those undos.
CREATE INDEX IF NOT EXISTS posts_undone ON posts (game_id, undone_by)
    WHERE undone_by IS NOT NULL;

-- Matches under way when the server is upgraded: their present row is
-- their snapshot, so posts from now on replay from there; the posts
-- before it replay from the start, as they did.
INSERT INTO snapshots (game_id, seq, state, status, awaiting, draw_offers, result, draws, at)
SELECT g.id, g.seq, g.state, g.status, g.awaiting, g.draw_offers, g.result, g.draws,
       p.created_at
FROM games g JOIN posts p ON p.game_id = g.id AND p.seq = g.seq
WHERE g.state IS NOT NULL
ON CONFLICT (game_id, seq) DO NOTHING;
