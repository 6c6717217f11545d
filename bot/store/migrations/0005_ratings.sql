-- A server's history (bot/history): one row per competitor of every finished table,
-- written in the transaction that finishes it, and the ratings they led to. Both are
-- derived from the tables and their logs: `urbanist ratings --rebuild` recomputes them.
-- guild_id is '' for a table played outside any server; player is a Discord id, or
-- 'bot:<kind>' for a bot seat or a solitaire automaton (is_bot = 1).
-- slot: the seat, or -1, -2 ... for an automaton. unrated: why the table was not rated
-- (NULL when it was; the rating columns are then set).

CREATE TABLE results (
    table_id     INTEGER NOT NULL REFERENCES tables (id),
    slot         INTEGER NOT NULL,
    guild_id     TEXT    NOT NULL,
    game         TEXT    NOT NULL,
    player       TEXT    NOT NULL,
    name         TEXT    NOT NULL,
    is_bot       INTEGER NOT NULL,
    rank         INTEGER NOT NULL,
    score        INTEGER NOT NULL,
    finished_at  REAL    NOT NULL,
    started_at   REAL    NOT NULL,
    versions     INTEGER NOT NULL,
    unrated      TEXT,
    mu_before    REAL,
    sigma_before REAL,
    mu           REAL,
    sigma        REAL,
    PRIMARY KEY (table_id, slot)
);
CREATE INDEX results_by_player ON results (guild_id, player, finished_at);
CREATE INDEX results_by_game ON results (guild_id, game, finished_at);

CREATE TABLE ratings (
    guild_id   TEXT    NOT NULL,
    game       TEXT    NOT NULL,
    player     TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    is_bot     INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    games      INTEGER NOT NULL,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, game, player)
);
