-- A webhook removed while a post is written (issue 24's stress test): the
-- outbox rows were selected from the post's snapshot, which still held the
-- webhook, and their foreign key then found it deleted, so the post failed
-- (500, 'webhook_deliveries_webhook_id_fkey'). The webhooks are now read
-- FOR KEY SHARE SKIP LOCKED: one being removed is passed over (it would
-- have lost the row anyway, ON DELETE CASCADE), one removed and committed
-- since the snapshot is not returned at all, and the rest cannot go before
-- the post commits. SKIP LOCKED, not a wait: the removal's own trigger
-- updates the match's row, which the post holds, so waiting could deadlock.
-- wp_notify_seats (013, not yet released when this was found) reads them
-- the same way.
CREATE OR REPLACE FUNCTION wp_games_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    everyone integer := (1 << NEW.seats) - 1;
    turn integer := 0;
    offer integer := 0;
    over integer := 0;
BEGIN
    IF NEW.status = 'active' THEN
        turn := NEW.awaiting & ~CASE WHEN OLD.status = 'active' THEN OLD.awaiting ELSE 0 END;
        IF NEW.draw_offers & ~OLD.draw_offers <> 0 THEN
            offer := everyone & ~NEW.draw_offers;
        END IF;
    ELSIF NEW.status IN ('over', 'aborted') AND OLD.status = 'active' THEN
        over := everyone;
    END IF;
    IF turn | offer | over = 0 THEN
        RETURN NULL;
    END IF;
    INSERT INTO webhook_deliveries (game_id, webhook_id, event, seat, seq, status,
                                    awaiting, seats, ruleset)
    SELECT NEW.id, w.id, e.ev, s.seat, NEW.seq, NEW.status, NEW.awaiting, NEW.seats,
           NEW.ruleset
      FROM (VALUES ('your_turn', turn), ('draw_offered', offer), ('match_over', over))
           AS e (ev, mask)
      JOIN seats s ON s.game_id = NEW.id AND ((e.mask >> s.seat) & 1) = 1
      JOIN webhooks w ON w.player_id = s.player_id
       FOR KEY SHARE OF w SKIP LOCKED;
    IF FOUND THEN
        PERFORM pg_notify('wp_outbox', '');
    END IF;
    RETURN NULL;
END $$;
