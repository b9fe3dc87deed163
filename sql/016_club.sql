-- The club around the match (issues 27 and 28): the two flags that the
-- ratings, the open challenges and the computer players all read, added
-- in one migration so that each of them can rely on the other's column.
--   games.rated   the match changes its players' Glicko-2 ratings when it
--                 ends (issue 28); set at creation (POST /api/games, an
--                 accepted challenge), never changed afterwards.
--   players.bot   the player is a program: the server's own engine (a bot
--                 seat, issue 27) or an outside program whose owner marked
--                 the account a bot. Shown as such everywhere; rated in a
--                 pool of its own (issue 28).
-- Idempotent: IF NOT EXISTS.
ALTER TABLE games ADD COLUMN IF NOT EXISTS rated boolean NOT NULL DEFAULT false;
ALTER TABLE players ADD COLUMN IF NOT EXISTS bot boolean NOT NULL DEFAULT false;
