-- The bot level of a table (bot/service/levels.py): easy (random), normal (greedy) or
-- hard (search). It plays for a late seat and is a new bot's level. Tables made before
-- it keep playing as they did: normal (the greedy AI). New tables get hard (the service
-- sets it; the column's default is only for the rows already there).
ALTER TABLE tables ADD COLUMN ai_level TEXT NOT NULL DEFAULT 'normal';
