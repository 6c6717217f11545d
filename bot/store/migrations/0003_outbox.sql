-- What the tables owe players, written in the same transaction as the change that owes
-- it and sent afterwards by the delivery worker (bot/service/delivery.py).
-- state: pending (to send at due_at), held (public news waiting for the end of its
-- round), sending (handed to the transport: after a crash it is "in doubt" and the
-- transport checks whether it went out before sending it again), sent, failed.

CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY,
    table_id   INTEGER NOT NULL REFERENCES tables (id),
    version    INTEGER NOT NULL,
    seat       INTEGER,
    payload    TEXT    NOT NULL,
    state      TEXT    NOT NULL DEFAULT 'pending'
               CHECK (state IN ('pending', 'held', 'sending', 'sent', 'failed')),
    attempts   INTEGER NOT NULL DEFAULT 0,
    due_at     REAL    NOT NULL,
    error      TEXT,
    created_at REAL    NOT NULL,
    done_at    REAL
);
CREATE INDEX outbox_due ON outbox (state, due_at);
CREATE INDEX outbox_by_table ON outbox (table_id, state, id);

-- The private messages that show a seat's menu, so that a menu is disabled (edited)
-- when its decision closes and only the current decision's menu stays live.
CREATE TABLE menus (
    table_id       INTEGER NOT NULL REFERENCES tables (id),
    seat           INTEGER NOT NULL,
    prompt_version INTEGER NOT NULL,
    channel_id     TEXT    NOT NULL,
    message_id     TEXT    NOT NULL,
    PRIMARY KEY (table_id, message_id)
);
CREATE INDEX menus_by_seat ON menus (table_id, seat);

-- rev: bumped by every write of the row; every write is conditional on the rev it
-- read, so a stale copy (another process, a stale cache) can never roll a table back.
-- bot_turn: a bot seat must play; resumed at boot and by a periodic sweep, so a crash
-- between a player's move and the bot's reply never leaves the table waiting forever.
ALTER TABLE tables ADD COLUMN rev INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN bot_turn INTEGER NOT NULL DEFAULT 0;
CREATE INDEX tables_bot_turn ON tables (bot_turn) WHERE bot_turn = 1;
