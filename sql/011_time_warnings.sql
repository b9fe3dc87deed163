-- "Time running out" (issue 14, Notifications): the notify worker of
-- every instance scans the active matches with a time control and warns
-- an awaited seat once its time left falls below the threshold (README
-- "Notifications"). One warning per (match, seat, turn): the key below,
-- taken with ON CONFLICT DO NOTHING in the same transaction as the outbox
-- rows, so two instances scanning at once send it once.
CREATE TABLE time_warnings (
    game_id   bigint NOT NULL REFERENCES games (id),
    seat      smallint NOT NULL,
    turn_seq  integer NOT NULL,     -- the post after which the seat became awaited
    deadline  timestamptz NOT NULL, -- when its time runs out, as the scan computed it
    sent_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seat, turn_seq)
);

-- The seat's own deadline, shown in its "time_running_out" body (its
-- clock is in every view of the match: public, RULINGS.md G5).
ALTER TABLE webhook_deliveries ADD COLUMN deadline timestamptz;

-- Queues the warning for `seat_no` of `game` if the match is still at the
-- version the scan read (`seen`: no post, vacation or end since) and the
-- seat was not warned for this turn yet. The row lock makes a turn posted
-- meanwhile wait for this short transaction, so a warning never goes out
-- for a turn already over. Returns the outbox rows queued, 0 when warned
-- already, -1 when the match changed (the next scan looks again).
CREATE FUNCTION wp_time_warning(game bigint, seat_no integer, turn integer, seen integer,
                                deadline_at bigint) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    n integer;
BEGIN
    PERFORM 1 FROM games WHERE id = game AND version = seen AND status = 'active'
        FOR SHARE;
    IF NOT FOUND THEN
        RETURN -1;
    END IF;
    INSERT INTO time_warnings (game_id, seat, turn_seq, deadline)
    VALUES (game, seat_no, turn, to_timestamp(deadline_at))
    ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
        RETURN 0;
    END IF;
    n := wp_notify_seats(game, 1 << seat_no, 'time_running_out');
    UPDATE webhook_deliveries SET deadline = to_timestamp(deadline_at)
     WHERE game_id = game AND event = 'time_running_out' AND seat = seat_no
       AND state = 'pending' AND attempts = 0 AND deadline IS NULL;
    RETURN n;
END $$;
