-- Notifications (issue 14): per-player webhooks, their outbox and delivery
-- log, and e-mail digest settings. The outbox rows are written by triggers
-- in the transaction that changes a match, so every write path (turns,
-- resign, draw, abort, start) notifies and a turn stays one round trip;
-- the worker (srv/notify/) delivers them after the commit.

-- Player-scoped, small: reference tables under Citus.
CREATE TABLE webhooks (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    player_id   bigint NOT NULL REFERENCES players (id),
    url         text NOT NULL CHECK (char_length(url) BETWEEN 8 AND 2000),
    secret      text NOT NULL CHECK (char_length(secret) BETWEEN 16 AND 256),
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_by_player ON webhooks (player_id);

CREATE TABLE email_settings (
    player_id          bigint PRIMARY KEY REFERENCES players (id),
    address            text NOT NULL CHECK (char_length(address) BETWEEN 3 AND 254),
    digest             boolean NOT NULL DEFAULT false,
    unsubscribe_token  text NOT NULL UNIQUE,     -- random, in the digest's link
    next_digest_at     timestamptz NOT NULL DEFAULT now(),
    last_digest_at     timestamptz
);
CREATE INDEX email_settings_due ON email_settings (next_digest_at) WHERE digest;

-- The outbox: one row per event and webhook. Match-scoped (game_id leads
-- the key). The worker claims due rows with FOR UPDATE SKIP LOCKED and a
-- lease (next_attempt_at moved ahead), so instances never deliver one row
-- at the same time; a crashed instance's lease runs out and another retries.
CREATE TABLE webhook_deliveries (
    game_id          bigint NOT NULL REFERENCES games (id),
    id               bigint GENERATED ALWAYS AS IDENTITY,
    webhook_id       bigint NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event            text NOT NULL
                     CHECK (event IN ('your_turn', 'match_over', 'draw_offered',
                                      'time_running_out')),
    seat             smallint NOT NULL,          -- the receiving player's seat
    seq              integer NOT NULL,
    status           text NOT NULL,              -- the match's, at the event
    awaiting         integer NOT NULL,           -- seat mask, public (view "awaiting")
    seats            smallint NOT NULL,
    ruleset          text NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now(),
    state            text NOT NULL DEFAULT 'pending'
                     CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts         integer NOT NULL DEFAULT 0,
    next_attempt_at  timestamptz NOT NULL DEFAULT now(),
    last_status      smallint,                   -- HTTP status of the last answer
    last_error       text,
    delivered_at     timestamptz,
    PRIMARY KEY (game_id, id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
    WHERE state = 'pending';
CREATE INDEX webhook_deliveries_by_hook ON webhook_deliveries (webhook_id, id);

-- Every attempt, for the delivery log the player reads.
CREATE TABLE webhook_attempts (
    game_id      bigint NOT NULL,
    delivery_id  bigint NOT NULL,
    attempt      integer NOT NULL,
    at           timestamptz NOT NULL DEFAULT now(),
    http_status  smallint,                       -- NULL: no answer (refused, timeout)
    error        text,
    PRIMARY KEY (game_id, delivery_id, attempt),
    FOREIGN KEY (game_id, delivery_id) REFERENCES webhook_deliveries (game_id, id)
        ON DELETE CASCADE
);

-- The one way an event is queued: for the players at the seats of `mask`
-- in the match, one row per webhook they registered. Only what a seat may
-- see goes in (RULINGS.md G5): the match's public status, post number and
-- awaited seats. Wakes the workers when it queued anything. Also the hook
-- a clock calls for 'time_running_out'.
CREATE FUNCTION wp_notify_seats(game bigint, mask integer, ev text) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    n integer;
BEGIN
    INSERT INTO webhook_deliveries (game_id, webhook_id, event, seat, seq, status,
                                    awaiting, seats, ruleset)
    SELECT g.id, w.id, ev, s.seat, g.seq, g.status, g.awaiting, g.seats, g.ruleset
      FROM games g
      JOIN seats s ON s.game_id = g.id
      JOIN webhooks w ON w.player_id = s.player_id
     WHERE g.id = game AND ((mask >> s.seat) & 1) = 1;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n > 0 THEN
        PERFORM pg_notify('wp_outbox', '');
    END IF;
    RETURN n;
END $$;

-- Whether a seated player has a webhook: only then does a change of the
-- match run the outbox trigger (its WHEN clause reads this), so matches
-- nobody listens to pay nothing on their turns. Kept by the triggers on
-- webhooks and seats below.
ALTER TABLE games ADD COLUMN notify boolean NOT NULL DEFAULT false;

CREATE FUNCTION wp_games_notify_flag(player bigint) RETURNS void
LANGUAGE sql AS $$
    UPDATE games g SET notify = NOT g.notify
     WHERE g.id IN (SELECT game_id FROM seats WHERE player_id = player)
       AND g.status IN ('open', 'active')
       AND g.notify <> EXISTS (SELECT 1 FROM seats s JOIN webhooks w ON w.player_id = s.player_id
                                WHERE s.game_id = g.id);
$$;

CREATE FUNCTION wp_webhooks_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM wp_games_notify_flag(CASE WHEN TG_OP = 'DELETE' THEN OLD.player_id
                                      ELSE NEW.player_id END);
    RETURN NULL;
END $$;

CREATE TRIGGER webhooks_changed
    AFTER INSERT OR DELETE ON webhooks
    FOR EACH ROW EXECUTE FUNCTION wp_webhooks_changed();

CREATE FUNCTION wp_seat_taken() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE games SET notify = true
     WHERE id = NEW.game_id AND NOT notify
       AND EXISTS (SELECT 1 FROM webhooks WHERE player_id = NEW.player_id);
    RETURN NULL;
END $$;

CREATE TRIGGER seat_taken
    AFTER INSERT OR UPDATE OF player_id ON seats
    FOR EACH ROW WHEN (NEW.player_id IS NOT NULL)
    EXECUTE FUNCTION wp_seat_taken();

-- "Your turn" to the seats newly awaited, "draw offered" to the seats that
-- have not offered when a new offer appears, "match over" to every seat
-- when an active match ends; one statement for all three.
CREATE FUNCTION wp_games_notify() RETURNS trigger
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
      JOIN webhooks w ON w.player_id = s.player_id;
    IF FOUND THEN
        PERFORM pg_notify('wp_outbox', '');
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER games_notify
    AFTER UPDATE OF status, awaiting, draw_offers ON games
    FOR EACH ROW
    WHEN (NEW.notify AND (OLD.status IS DISTINCT FROM NEW.status
                          OR OLD.awaiting IS DISTINCT FROM NEW.awaiting
                          OR OLD.draw_offers IS DISTINCT FROM NEW.draw_offers))
    EXECUTE FUNCTION wp_games_notify();
