-- The parts of a row's message already sent, as the transport marks them (a JSON list;
-- NULL: none): a message that goes out in several parts and fails half-way is retried
-- from the first part missing, so no part is posted twice.
ALTER TABLE outbox ADD COLUMN sent TEXT;
