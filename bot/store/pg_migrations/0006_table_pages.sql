-- A table's web page (bot/web): whether the host lets anyone read it by its number
-- (public, the default for a table without a row), and the unguessable token of its
-- private address, made the first time the host marks it private and kept after, so
-- a link shared once keeps working.
CREATE TABLE table_pages (
    table_id BIGINT  PRIMARY KEY REFERENCES tables (id),
    public   BOOLEAN NOT NULL,
    token    TEXT    NOT NULL UNIQUE
);

-- A server that does not let the web index (`/`) and player pages list its tables
-- (listed false); a server without a row is listed. Its tables' own pages still answer.
CREATE TABLE guild_pages (
    guild_id TEXT    PRIMARY KEY,
    listed   BOOLEAN NOT NULL
);
