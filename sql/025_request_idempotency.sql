-- The first answer to a keyed request that makes something outside a
-- match (srv/api/keyed.c): a match created, a seat taken, a challenge or
-- a tournament posted, joined, left or started, a webhook, a vacation. A
-- match's own writes keep theirs in `idempotency` (002) and a
-- challenge's accept in `challenge_idempotency` (018), inside their
-- transactions.
--
-- The row is claimed before the request is served (status NULL) and
-- filled with the answer once it succeeded, or deleted when it failed, so
-- a retry of a failure is evaluated again. Two requests with one key
-- cannot both run: the second finds the claim. A claim left unfilled (the
-- instance died, or the database went away between the change and the
-- answer's write) answers every retry 409 for good: its outcome is not
-- known, and running it again could make the thing twice.
--
-- scope is the SHA-256 of the bearer token that sent it (the requests
-- that take a key need one), so a key is one device's and nobody else can
-- read its answer. Kept 7 days (notify/sweep.c).
CREATE TABLE IF NOT EXISTS request_idempotency (
    scope        bytea NOT NULL,
    key          text NOT NULL,
    request_hash bytea NOT NULL,
    status       smallint,
    headers      text,                        -- "Name: value" lines
    body         text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (scope, key)
);
CREATE INDEX IF NOT EXISTS request_idempotency_created ON request_idempotency (created_at);
