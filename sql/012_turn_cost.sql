-- What a turn's UPDATE of games costs PostgreSQL (issue 17). PostgreSQL
-- reads and plans every CHECK constraint of a table, and a trigger's WHEN
-- condition, at each statement that writes a row of it: for games that was
-- a tenth of the database's time a turn. A turn sets none of the columns
-- below, so their checks move to a trigger that fires only on an INSERT or
-- on an UPDATE that sets one of them: the same rules, raised as the same
-- check_violation with the same constraint names, at no cost to a turn.
-- status stays a CHECK (a turn sets it).
ALTER TABLE games
    DROP CONSTRAINT games_seats_check,
    DROP CONSTRAINT games_seed_check,
    DROP CONSTRAINT games_commitment_check,
    DROP CONSTRAINT games_spectators_check,
    DROP CONSTRAINT games_spectator_delay_check;

CREATE FUNCTION wp_games_fixed_check() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NOT (NEW.seats BETWEEN 2 AND 4) THEN
        RAISE check_violation USING CONSTRAINT = 'games_seats_check',
            MESSAGE = 'new row for relation "games" violates check constraint "games_seats_check"';
    END IF;
    IF length(NEW.seed) <> 32 THEN
        RAISE check_violation USING CONSTRAINT = 'games_seed_check',
            MESSAGE = 'new row for relation "games" violates check constraint "games_seed_check"';
    END IF;
    IF length(NEW.commitment) <> 32 THEN
        RAISE check_violation USING CONSTRAINT = 'games_commitment_check',
            MESSAGE = 'new row for relation "games" violates check constraint "games_commitment_check"';
    END IF;
    IF NEW.spectators NOT IN ('open', 'unlisted', 'private') THEN
        RAISE check_violation USING CONSTRAINT = 'games_spectators_check',
            MESSAGE = 'new row for relation "games" violates check constraint "games_spectators_check"';
    END IF;
    IF NOT (NEW.spectator_delay BETWEEN 0 AND 1000) THEN
        RAISE check_violation USING CONSTRAINT = 'games_spectator_delay_check',
            MESSAGE = 'new row for relation "games" violates check constraint "games_spectator_delay_check"';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER games_fixed_check
    BEFORE INSERT OR UPDATE OF seats, seed, commitment, spectators, spectator_delay ON games
    FOR EACH ROW EXECUTE FUNCTION wp_games_fixed_check();

-- wp_games_notify() finds nothing to tell when none of status, awaiting
-- and draw_offers changed, so its WHEN keeps only what spares most calls.
DROP TRIGGER games_notify ON games;
CREATE TRIGGER games_notify
    AFTER UPDATE OF status, awaiting, draw_offers ON games
    FOR EACH ROW WHEN (NEW.notify) EXECUTE FUNCTION wp_games_notify();
