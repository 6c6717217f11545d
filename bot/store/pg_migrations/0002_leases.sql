-- Leases: which process owns what (the deadlines and reminders of a table, or of a
-- bucket of tables) until expires_at. A process renews its leases well before they
-- expire; when it dies, another takes them over once they have expired. generation
-- goes up each time a lease is granted anew (not on a renewal): a fencing token.
CREATE TABLE leases (
    name       TEXT             PRIMARY KEY,
    owner      TEXT             NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL,
    generation BIGINT           NOT NULL DEFAULT 1
);
CREATE INDEX leases_by_owner ON leases (owner);
CREATE INDEX leases_by_expiry ON leases (expires_at);
