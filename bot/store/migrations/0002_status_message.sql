-- Where a front end shows a table's status (Discord: the one message it edits in place),
-- so that after a restart it edits that message again instead of searching the channel.
-- Tables from before this migration have none; the front end finds theirs as it used to.

ALTER TABLE tables ADD COLUMN status_channel_id TEXT;
ALTER TABLE tables ADD COLUMN status_message_id TEXT;
