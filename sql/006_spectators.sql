-- Who may watch a match and how far behind (issue 14, "Spectators"):
-- 'open' matches are listed in GET /api/games, 'unlisted' ones are seen by
-- anyone with the link, 'private' ones only by their seated players.
-- Spectators see the match as it was spectator_delay posts ago.
ALTER TABLE games
    ADD COLUMN spectators text NOT NULL DEFAULT 'unlisted'
        CHECK (spectators IN ('open', 'unlisted', 'private')),
    ADD COLUMN spectator_delay integer NOT NULL DEFAULT 0
        CHECK (spectator_delay BETWEEN 0 AND 1000);
CREATE INDEX games_open_to_watch ON games (id DESC)
    WHERE spectators = 'open';
