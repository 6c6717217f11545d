-- Leases: which process owns what (the deadlines and reminders of a table, or of a
-- bucket of tables) until expires_at. See bot/store/leases.py. One SQLite file has one
-- bot process, so here they matter only to keep the store's interface whole.
CREATE TABLE leases (
    name       TEXT    PRIMARY KEY,
    owner      TEXT    NOT NULL,
    expires_at REAL    NOT NULL,
    generation INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX leases_by_owner ON leases (owner);
CREATE INDEX leases_by_expiry ON leases (expires_at);
