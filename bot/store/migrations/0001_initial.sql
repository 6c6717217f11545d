-- Tables, their seats, the append-only action log and the timers (deadlines, reminders).
-- Every time is a Unix timestamp in seconds (REAL); every JSON value is canonical text.

CREATE TABLE tables (
    id               INTEGER PRIMARY KEY,
    game             TEXT    NOT NULL,
    options          TEXT    NOT NULL,
    seed             INTEGER NOT NULL,
    status           TEXT    NOT NULL
                     CHECK (status IN ('lobby', 'running', 'paused', 'finished', 'aborted')),
    version          INTEGER NOT NULL DEFAULT 0,
    snapshot         TEXT,
    outcome          TEXT,
    guild_id         TEXT,
    channel_id       TEXT,
    thread_id        TEXT,
    locale           TEXT    NOT NULL DEFAULT 'en',
    host_id          TEXT    NOT NULL,
    deadline_seconds INTEGER NOT NULL,
    reminders        TEXT    NOT NULL,
    timeout_policy   TEXT    NOT NULL,
    seat_order       TEXT    NOT NULL,
    max_seats        INTEGER NOT NULL,
    paused_at        REAL,
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL
);
CREATE INDEX tables_by_channel ON tables (channel_id, status);
CREATE INDEX tables_by_thread ON tables (thread_id);
CREATE INDEX tables_by_status ON tables (status);

CREATE TABLE seats (
    table_id       INTEGER NOT NULL REFERENCES tables (id),
    seat           INTEGER NOT NULL,
    user_id        TEXT,
    name           TEXT    NOT NULL,
    is_bot         INTEGER NOT NULL,
    ai_kind        TEXT,
    dm_ok          INTEGER NOT NULL DEFAULT 1,
    prompt_version INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat)
);
CREATE UNIQUE INDEX seats_by_user ON seats (table_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX seats_user ON seats (user_id);

CREATE TABLE actions (
    table_id    INTEGER NOT NULL REFERENCES tables (id),
    version     INTEGER NOT NULL,
    seat        INTEGER NOT NULL,
    action      TEXT    NOT NULL,
    public_text TEXT,
    events      TEXT    NOT NULL,
    source      TEXT    NOT NULL CHECK (source IN ('player', 'timeout', 'bot', 'admin')),
    actor_id    TEXT,
    at          REAL    NOT NULL,
    PRIMARY KEY (table_id, version)
);

-- The log is append-only: a bug that rewrites history must fail loudly.
CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only');
END;
CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only');
END;

CREATE TABLE timers (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    seat     INTEGER NOT NULL,
    kind     TEXT    NOT NULL CHECK (kind IN ('deadline', 'reminder')),
    due_at   REAL    NOT NULL,
    PRIMARY KEY (table_id, seat, kind, due_at)
);
CREATE INDEX timers_by_due ON timers (due_at);
