-- Glicko-2 ratings per ruleset (issue 28, "Ratings"). Every rated match
-- that ends (games.status becomes 'over' with a result, whatever path
-- ends it: a turn, a resignation, a draw agreed, a claim on time) changes
-- its players' ratings in the statement that records the result: the
-- AFTER UPDATE trigger below calls wp_ratings_game(), so no result is
-- stored without its rating change, nor the reverse. `warpost ratings
-- --recompute` replays every rated result through the same function
-- (wp_ratings_recompute) and compares.
--
-- The maths is Glickman's "Example of the Glicko-2 system" (2013): one
-- match is one rating period for each of its players (as lichess and OGS
-- rate per game); a 3-4 seat match is its pairwise results, all in that
-- one period. Before the match a player's deviation grows with the whole
-- rating periods (rating_settings.period_seconds) since its last rated
-- match: phi* = sqrt(phi^2 + sigma^2 * periods), at most 350.
-- Idempotent: IF NOT EXISTS, OR REPLACE.

-- The system's settings, one row, written by the server at start from its
-- configuration (RATING_TAU, RATING_PERIOD_SECONDS, RATING_MIX_BOTS); the
-- SQL functions read them from here.
CREATE TABLE IF NOT EXISTS rating_settings (
    id              smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    tau             float8 NOT NULL DEFAULT 0.5 CHECK (tau > 0 AND tau <= 10),
    period_seconds  integer NOT NULL DEFAULT 86400 CHECK (period_seconds > 0),
    mix_bots        boolean NOT NULL DEFAULT false
);
INSERT INTO rating_settings (id) VALUES (1) ON CONFLICT DO NOTHING;

-- A player's rating in a ruleset and a pool: 'human', or 'bot' for
-- players.bot (never mixed unless rating_settings.mix_bots).
CREATE TABLE IF NOT EXISTS ratings (
    player_id   bigint NOT NULL REFERENCES players (id),
    ruleset     text NOT NULL,
    pool        text NOT NULL CHECK (pool IN ('human', 'bot')),
    rating      float8 NOT NULL,
    rd          float8 NOT NULL,
    volatility  float8 NOT NULL,
    games       integer NOT NULL DEFAULT 0,
    wins        integer NOT NULL DEFAULT 0,
    draws       integer NOT NULL DEFAULT 0,
    losses      integer NOT NULL DEFAULT 0,
    last_at     timestamptz,
    PRIMARY KEY (player_id, ruleset, pool)
);
CREATE INDEX IF NOT EXISTS ratings_board ON ratings (ruleset, pool, rating DESC);

-- Every rated match that ended, in the order its ratings were applied:
-- ended_at is taken once the players' rating rows are locked, so two
-- results that share a player are ordered as they were applied.
CREATE TABLE IF NOT EXISTS rating_games (
    game_id   bigint PRIMARY KEY REFERENCES games (id),
    ended_at  timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS rating_games_order ON rating_games (ended_at, game_id);

-- One point per player and rated match: the rating after it.
CREATE TABLE IF NOT EXISTS rating_history (
    game_id     bigint NOT NULL REFERENCES games (id),
    player_id   bigint NOT NULL REFERENCES players (id),
    ruleset     text NOT NULL,
    pool        text NOT NULL,
    at          timestamptz NOT NULL,
    before      float8 NOT NULL,
    rating      float8 NOT NULL,
    rd          float8 NOT NULL,
    volatility  float8 NOT NULL,
    outcome     text NOT NULL CHECK (outcome IN ('win', 'draw', 'loss')),
    PRIMARY KEY (game_id, player_id)
);
CREATE INDEX IF NOT EXISTS rating_history_by_player ON rating_history (player_id, at);

-- Step 5's f(x) (Glickman, p. 3).
CREATE OR REPLACE FUNCTION wp_glicko2_f(x float8, delta float8, phi float8, v float8,
                                        a float8, tau float8) RETURNS float8
LANGUAGE sql IMMUTABLE STRICT AS $$
    SELECT exp(x) * (delta * delta - phi * phi - v - exp(x))
           / (2 * (phi * phi + v + exp(x)) ^ 2) - (x - a) / (tau * tau)
$$;

-- One Glicko-2 rating period (Glickman, steps 2-8) on the Glicko scale:
-- a player at r / rd / vol against opponents opp_r / opp_rd with scores
-- (1, 0.5, 0). No opponents: only the deviation grows (step 6).
CREATE OR REPLACE FUNCTION wp_glicko2_step(r float8, rd float8, vol float8,
                                           opp_r float8[], opp_rd float8[], score float8[],
                                           tau float8, OUT rating float8,
                                           OUT deviation float8, OUT volatility float8)
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
    q constant float8 := 173.7178;
    eps constant float8 := 0.000001;
    mu float8 := (r - 1500) / q;
    phi float8 := rd / q;
    v_inv float8 := 0;
    sum float8 := 0;
    g float8; e float8; phi_j float8;
    v float8; delta float8; a float8;
    xa float8; xb float8; xc float8; fa float8; fb float8; fc float8;
    k integer;
    phi_star float8; phi_new float8;
    n integer := coalesce(array_length(opp_r, 1), 0);
BEGIN
    IF n = 0 THEN
        rating := r;
        deviation := least(sqrt(phi * phi + vol * vol) * q, 350);
        volatility := vol;
        RETURN;
    END IF;
    FOR j IN 1 .. n LOOP                                 -- steps 3 and 4
        phi_j := opp_rd[j] / q;
        g := 1 / sqrt(1 + 3 * phi_j * phi_j / (pi() * pi()));
        e := 1 / (1 + exp(-g * (mu - (opp_r[j] - 1500) / q)));
        v_inv := v_inv + g * g * e * (1 - e);
        sum := sum + g * (score[j] - e);
    END LOOP;
    v := 1 / v_inv;
    delta := v * sum;
    a := ln(vol * vol);                                 -- step 5: the Illinois method
    xa := a;
    IF delta * delta > phi * phi + v THEN
        xb := ln(delta * delta - phi * phi - v);
    ELSE
        k := 1;
        WHILE wp_glicko2_f(a - k * tau, delta, phi, v, a, tau) < 0 LOOP
            k := k + 1;
        END LOOP;
        xb := a - k * tau;
    END IF;
    fa := wp_glicko2_f(xa, delta, phi, v, a, tau);
    fb := wp_glicko2_f(xb, delta, phi, v, a, tau);
    WHILE abs(xb - xa) > eps LOOP
        xc := xa + (xa - xb) * fa / (fb - fa);
        fc := wp_glicko2_f(xc, delta, phi, v, a, tau);
        IF fc * fb <= 0 THEN
            xa := xb;
            fa := fb;
        ELSE
            fa := fa / 2;
        END IF;
        xb := xc;
        fb := fc;
    END LOOP;
    volatility := exp(xa / 2);
    phi_star := sqrt(phi * phi + volatility * volatility);           -- step 6
    phi_new := 1 / sqrt(1 / (phi_star * phi_star) + 1 / v);          -- step 7
    rating := q * (mu + phi_new * phi_new * sum) + 1500;             -- step 8
    deviation := least(q * phi_new, 350);
END
$$;

-- The deviation after `periods` rating periods without a rated match.
CREATE OR REPLACE FUNCTION wp_glicko2_idle(rd float8, vol float8, periods float8)
RETURNS float8 LANGUAGE sql IMMUTABLE STRICT AS $$
    SELECT least(sqrt((rd / 173.7178) ^ 2 + vol * vol * periods) * 173.7178, 350)
$$;

-- Each seat's place in a match: the higher finished later. A winner is
-- above all; a seat put out (Confrontation's and the test ruleset's
-- seat_out event, ChessWar's out, in a post not taken back) is placed at
-- that post; every other seat at the last
-- post. Seats out in the same post share a place: they drew.
CREATE OR REPLACE FUNCTION wp_rating_places(p_game bigint)
RETURNS TABLE (seat integer, player_id bigint, bot boolean, place bigint, winner boolean)
LANGUAGE sql STABLE AS $$
    SELECT s.seat::integer, s.player_id, p.bot,
           CASE WHEN w.winner THEN 2147483647
                ELSE coalesce((SELECT min(o.seq) FROM posts o,
                                      jsonb_array_elements(o.events) e
                               WHERE o.game_id = g.id AND o.undone_by IS NULL
                                 AND e -> 'e' ->> 'type' IN ('seat_out', 'out')
                                 AND (e -> 'e' ->> 'seat')::integer = s.seat), g.seq) END,
           w.winner
    FROM games g JOIN seats s ON s.game_id = g.id JOIN players p ON p.id = s.player_id,
         LATERAL (SELECT coalesce(g.result -> 'winners' @> to_jsonb(s.seat::integer), false)
                  AS winner) w
    WHERE g.id = p_game
    ORDER BY s.seat
$$;

-- The rating step of one ended rated match, at p_at (NULL: now, recorded
-- in rating_games; the trigger's case). Pairs of seats in different pools
-- are not rated unless rating_settings.mix_bots (then everyone is in the
-- 'human' pool). Every player's opponents are taken at their ratings
-- before this match, with their deviations grown by their own idle time.
CREATE OR REPLACE FUNCTION wp_ratings_game(p_game bigint, p_at timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    cfg rating_settings;
    rs text;
    pl record;
    n integer := 0;
    ids bigint[] := '{}';
    pools text[] := '{}';
    places bigint[] := '{}';
    winners boolean[] := '{}';
    rated boolean[] := '{}';
    r float8[] := '{}';
    rd float8[] := '{}';
    vol float8[] := '{}';
    top bigint;
    cur ratings;
    opp_r float8[]; opp_rd float8[]; sc float8[];
    res record;
    outcome text;
BEGIN
    SELECT * INTO cfg FROM rating_settings WHERE id = 1;
    SELECT ruleset INTO rs FROM games WHERE id = p_game;
    FOR pl IN SELECT * FROM wp_rating_places(p_game) LOOP
        n := n + 1;
        ids := ids || pl.player_id;
        pools := pools || CASE WHEN pl.bot AND NOT cfg.mix_bots THEN 'bot' ELSE 'human' END;
        places := places || pl.place;
        winners := winners || pl.winner;
    END LOOP;
    -- Only players with an opponent in their pool are rated (have a row).
    FOR i IN 1 .. n LOOP
        rated := rated || EXISTS (SELECT 1 FROM unnest(pools) WITH ORDINALITY o (pool, j)
                                  WHERE o.j <> i AND o.pool = pools[i]);
    END LOOP;
    INSERT INTO ratings (player_id, ruleset, pool, rating, rd, volatility)
    SELECT x.id, rs, x.pool, 1500, 350, 0.06 FROM unnest(ids, pools, rated) x (id, pool, r)
    WHERE x.r ORDER BY x.id, x.pool ON CONFLICT DO NOTHING;
    -- Locked in one order, so that two results never wait on each other.
    PERFORM 1 FROM ratings WHERE ruleset = rs AND (player_id, pool) IN
        (SELECT x.id, x.pool FROM unnest(ids, pools, rated) x (id, pool, r) WHERE x.r)
        ORDER BY player_id, pool FOR UPDATE;
    IF p_at IS NULL THEN
        p_at := clock_timestamp();
        INSERT INTO rating_games (game_id, ended_at) VALUES (p_game, p_at);
    END IF;
    FOR i IN 1 .. n LOOP
        cur := NULL;
        SELECT * INTO cur FROM ratings
        WHERE player_id = ids[i] AND ruleset = rs AND pool = pools[i];
        r := r || cur.rating;
        vol := vol || cur.volatility;
        rd := rd || CASE WHEN cur.last_at IS NULL THEN cur.rd
                         ELSE wp_glicko2_idle(cur.rd, cur.volatility,
                              floor(extract(epoch FROM p_at - cur.last_at)
                                    / cfg.period_seconds)) END;
    END LOOP;
    SELECT max(x) INTO top FROM unnest(places) x;
    FOR i IN 1 .. n LOOP
        opp_r := '{}'; opp_rd := '{}'; sc := '{}';
        FOR j IN 1 .. n LOOP
            IF j <> i AND pools[j] = pools[i] THEN
                opp_r := opp_r || r[j];
                opp_rd := opp_rd || rd[j];
                sc := sc || CASE WHEN places[i] > places[j] THEN 1.0::float8
                                 WHEN places[i] = places[j] THEN 0.5::float8
                                 ELSE 0.0::float8 END;
            END IF;
        END LOOP;
        CONTINUE WHEN NOT rated[i];
        res := wp_glicko2_step(r[i], rd[i], vol[i], opp_r, opp_rd, sc, cfg.tau);
        outcome := CASE WHEN winners[i] THEN 'win' WHEN places[i] = top THEN 'draw'
                        ELSE 'loss' END;
        UPDATE ratings SET rating = res.rating, rd = res.deviation,
               volatility = res.volatility, games = games + 1,
               wins = wins + (outcome = 'win')::integer,
               draws = draws + (outcome = 'draw')::integer,
               losses = losses + (outcome = 'loss')::integer, last_at = p_at
        WHERE player_id = ids[i] AND ruleset = rs AND pool = pools[i];
        INSERT INTO rating_history (game_id, player_id, ruleset, pool, at, before, rating,
                                    rd, volatility, outcome)
        VALUES (p_game, ids[i], rs, pools[i], p_at, r[i], res.rating, res.deviation,
                res.volatility, outcome);
    END LOOP;
END
$$;

CREATE OR REPLACE FUNCTION wp_ratings_on_over() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM wp_ratings_game(NEW.id, NULL);
    RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS games_rated_over ON games;
CREATE TRIGGER games_rated_over AFTER UPDATE OF status ON games FOR EACH ROW
    WHEN (NEW.status = 'over' AND OLD.status <> 'over' AND NEW.rated
          AND NEW.result IS NOT NULL)
    EXECUTE FUNCTION wp_ratings_on_over();

-- Replays every rated result in the order applied (ended_at, then id)
-- through wp_ratings_game into emptied tables, in the caller's
-- transaction (commit: the replay replaces; roll back: only compared),
-- and counts the rows of ratings and rating_history that differ from
-- what was stored, bit for bit (float8 equality). New results wait.
CREATE OR REPLACE FUNCTION wp_ratings_recompute(OUT replayed integer, OUT differences bigint)
LANGUAGE plpgsql AS $$
DECLARE
    g record;
BEGIN
    LOCK TABLE ratings, rating_history, rating_games IN EXCLUSIVE MODE;
    CREATE TEMP TABLE wp_ratings_was ON COMMIT DROP AS SELECT * FROM ratings;
    CREATE TEMP TABLE wp_history_was ON COMMIT DROP AS SELECT * FROM rating_history;
    DELETE FROM rating_history;
    DELETE FROM ratings;
    replayed := 0;
    FOR g IN SELECT game_id, ended_at FROM rating_games ORDER BY ended_at, game_id LOOP
        PERFORM wp_ratings_game(g.game_id, g.ended_at);
        replayed := replayed + 1;
    END LOOP;
    SELECT (SELECT count(*) FROM ((TABLE ratings EXCEPT ALL TABLE wp_ratings_was)
                                  UNION ALL (TABLE wp_ratings_was EXCEPT ALL TABLE ratings)) a)
         + (SELECT count(*) FROM ((TABLE rating_history EXCEPT ALL TABLE wp_history_was)
                                  UNION ALL (TABLE wp_history_was EXCEPT ALL TABLE rating_history)) b)
    INTO differences;
END
$$;
