-- An account on several devices (issue 28): a player has any number of
-- bearer tokens, one a device, each stored only as its SHA-256 like the
-- one token of before, with a name the player gives it, when it was made,
-- when it was last used (written at most every few minutes, never on
-- every request) and when it was revoked (a revoked token fails at once).
-- Every token check reads this table: GET/POST authentication, the turn
-- statement's guard, the token cache's lookups (srv/store/sql.c).
--
-- players.token_hash: kept, but nullable and emptied. Each existing token
-- moves here as the player's "First device"; a row inserted the old way
-- (a restored backup's tools, an older script) has its token moved here
-- by the trigger below, so the secret's hash lives in one place only.
--
-- device_codes: the one-time codes a signed-in device makes to sign in
-- another one (POST /api/me/device-codes), stored hashed, single use,
-- valid 15 minutes.
-- Idempotent: IF NOT EXISTS, OR REPLACE.
CREATE TABLE IF NOT EXISTS devices (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    player_id     bigint NOT NULL REFERENCES players (id),
    token_hash    bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    name          text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 40),
    created_at    timestamptz NOT NULL DEFAULT now(),
    last_used_at  timestamptz,
    revoked_at    timestamptz
);
CREATE INDEX IF NOT EXISTS devices_player ON devices (player_id);

INSERT INTO devices (player_id, token_hash, name, created_at)
SELECT id, token_hash, 'First device', created_at FROM players WHERE token_hash IS NOT NULL
ON CONFLICT (token_hash) DO NOTHING;
ALTER TABLE players ALTER COLUMN token_hash DROP NOT NULL;
UPDATE players SET token_hash = NULL WHERE token_hash IS NOT NULL;

CREATE OR REPLACE FUNCTION wp_player_token_to_device() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO devices (player_id, token_hash, name, created_at)
    VALUES (NEW.id, NEW.token_hash, 'First device', NEW.created_at);
    UPDATE players SET token_hash = NULL WHERE id = NEW.id;
    RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS players_token_to_device ON players;
CREATE TRIGGER players_token_to_device AFTER INSERT ON players
    FOR EACH ROW WHEN (NEW.token_hash IS NOT NULL) EXECUTE FUNCTION wp_player_token_to_device();

CREATE TABLE IF NOT EXISTS device_codes (
    code_hash   bytea PRIMARY KEY CHECK (length(code_hash) = 32),
    player_id   bigint NOT NULL REFERENCES players (id),
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz
);
CREATE INDEX IF NOT EXISTS device_codes_player ON device_codes (player_id);

-- E-mail for recovery (issue 28). An address is confirmed by a link sent
-- to it; until then it is not used for recovery (digests go to it as
-- before). A new address is unconfirmed again.
ALTER TABLE email_settings ADD COLUMN IF NOT EXISTS confirmed_at timestamptz;
CREATE INDEX IF NOT EXISTS email_settings_address ON email_settings (lower(address))
    WHERE confirmed_at IS NOT NULL;

-- Account mail to send (the notification worker's, like digests): a
-- confirmation link for player_id's address, or a recovery link for
-- whoever has `address` confirmed (player_id NULL: a recovery request
-- never looks the address up, so its answer cannot depend on it). The
-- link's token is made when the mail is sent and only its hash kept.
CREATE TABLE IF NOT EXISTS account_mail (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind             text NOT NULL CHECK (kind IN ('confirm', 'recover')),
    player_id        bigint REFERENCES players (id),
    address          text NOT NULL CHECK (char_length(address) BETWEEN 3 AND 254),
    created_at       timestamptz NOT NULL DEFAULT now(),
    attempts         integer NOT NULL DEFAULT 0,
    next_attempt_at  timestamptz NOT NULL DEFAULT now(),
    done_at          timestamptz
);
CREATE INDEX IF NOT EXISTS account_mail_due ON account_mail (next_attempt_at) WHERE done_at IS NULL;

-- The links sent: single use, until expires_at, stored hashed.
CREATE TABLE IF NOT EXISTS account_links (
    token_hash  bytea PRIMARY KEY CHECK (length(token_hash) = 32),
    kind        text NOT NULL CHECK (kind IN ('confirm', 'recover')),
    player_id   bigint NOT NULL REFERENCES players (id),
    address     text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz
);
CREATE INDEX IF NOT EXISTS account_links_player ON account_links (player_id);
