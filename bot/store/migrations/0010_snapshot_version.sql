-- The version a table's snapshot is of (issue 25): a snapshot is written every few
-- actions, not after each one; the state at ``version`` is the snapshot with the actions
-- after ``snapshot_version`` replayed on it (the engine is deterministic). Every row
-- written before had its snapshot written with its version.
ALTER TABLE tables ADD COLUMN snapshot_version INTEGER NOT NULL DEFAULT 0;
UPDATE tables SET snapshot_version = version;
