-- "Time running out" without patching rows (issue 26): the seat's deadline
-- goes into its outbox rows as wp_notify_seats queues them, instead of an
-- UPDATE of the pending rows afterwards (sql/011_time_warnings.sql). Every
-- other event queues no deadline (NULL). Written to be run again harmlessly.
--
-- time_warnings.turn_seq is now the post after which the seat's move began
-- (RULINGS.md G8, amended: a turn that waited for another seat's reaction
-- goes on when it is awaited again, so one warning per move, not per time
-- the seat became awaited); wp_clock_compute says which post that is.
DROP FUNCTION IF EXISTS wp_notify_seats(bigint, integer, text);

CREATE OR REPLACE FUNCTION wp_notify_seats(game bigint, mask integer, ev text,
                                           deadline_at timestamptz DEFAULT NULL)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    n integer;
BEGIN
    INSERT INTO webhook_deliveries (game_id, webhook_id, event, seat, seq, status,
                                    awaiting, seats, ruleset, deadline)
    SELECT g.id, w.id, ev, s.seat, g.seq, g.status, g.awaiting, g.seats, g.ruleset, deadline_at
      FROM games g
      JOIN seats s ON s.game_id = g.id
      JOIN webhooks w ON w.player_id = s.player_id
     WHERE g.id = game AND ((mask >> s.seat) & 1) = 1
       FOR KEY SHARE OF w SKIP LOCKED;   -- a webhook removed meanwhile: 015
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n > 0 THEN
        PERFORM pg_notify('wp_outbox', '');
    END IF;
    RETURN n;
END $$;

-- As in 011, with the deadline passed to wp_notify_seats.
CREATE OR REPLACE FUNCTION wp_time_warning(game bigint, seat_no integer, turn integer,
                                           seen integer, deadline_at bigint) RETURNS integer
LANGUAGE plpgsql AS $$
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
    RETURN wp_notify_seats(game, 1 << seat_no, 'time_running_out', to_timestamp(deadline_at));
END $$;
