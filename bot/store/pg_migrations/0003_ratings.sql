-- A server's history (bot/history): one row per competitor of every finished table,
-- written in the transaction that finishes it, and the ratings they led to. Both are
-- derived from the tables and their logs: `urbanist ratings --rebuild` recomputes them.
-- guild_id is '' for a table played outside any server; player is a Discord id, or
-- 'bot:<kind>' for a bot seat or a solitaire automaton (is_bot true).
-- slot: the seat, or -1, -2 ... for an automaton. unrated: why the table was not rated
-- (NULL when it was; the rating columns are then set).

CREATE TABLE results (
    table_id     BIGINT NOT NULL REFERENCES tables (id),
    slot         INTEGER NOT NULL,
    guild_id     TEXT    NOT NULL,
    game         TEXT    NOT NULL,
    player       TEXT    NOT NULL,
    name         TEXT    NOT NULL,
    is_bot       BOOLEAN NOT NULL,
    rank         INTEGER NOT NULL,
    score        INTEGER NOT NULL,
    finished_at  DOUBLE PRECISION    NOT NULL,
    started_at   DOUBLE PRECISION    NOT NULL,
    versions     INTEGER NOT NULL,
    unrated      TEXT,
    mu_before    DOUBLE PRECISION,
    sigma_before DOUBLE PRECISION,
    mu           DOUBLE PRECISION,
    sigma        DOUBLE PRECISION,
    PRIMARY KEY (table_id, slot)
);
CREATE INDEX results_by_player ON results (guild_id, player, finished_at);
CREATE INDEX results_by_game ON results (guild_id, game, finished_at);

CREATE TABLE ratings (
    guild_id   TEXT    NOT NULL,
    game       TEXT    NOT NULL,
    player     TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    is_bot     BOOLEAN NOT NULL,
    mu         DOUBLE PRECISION    NOT NULL,
    sigma      DOUBLE PRECISION    NOT NULL,
    games      INTEGER NOT NULL,
    updated_at DOUBLE PRECISION    NOT NULL,
    PRIMARY KEY (guild_id, game, player)
);
