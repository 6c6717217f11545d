-- The mail front end (bot/mail, issue 22). mail_secret: the server secret the seats'
-- reply tokens are derived from (one row, made at first use; hex). mail_handled: every
-- incoming mail handled, by Message-ID and by IMAP UIDVALIDITY+UID, written in the same
-- transaction as the action it carried, so a mailbox read twice applies nothing twice.
-- mail_sent: the Message-IDs sent, so an in-doubt retry does not send twice. mail_people:
-- a mail player's time zone and language, and when an unknown sender was last answered
-- (at most one answer an hour). mail_followers: spectators of a table by mail.
CREATE TABLE mail_secret (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    secret TEXT    NOT NULL
);
CREATE TABLE mail_handled (
    message_id  TEXT    PRIMARY KEY,
    uidvalidity BIGINT,
    uid         BIGINT,
    table_id    BIGINT,
    at          DOUBLE PRECISION NOT NULL
);
CREATE INDEX mail_handled_by_uid ON mail_handled (uidvalidity, uid);
CREATE TABLE mail_sent (
    message_id TEXT PRIMARY KEY,
    at         DOUBLE PRECISION NOT NULL
);
CREATE INDEX mail_sent_by_time ON mail_sent (at);
CREATE TABLE mail_people (
    address     TEXT PRIMARY KEY,
    timezone    TEXT,
    locale      TEXT,
    answered_at DOUBLE PRECISION
);
CREATE TABLE mail_followers (
    table_id BIGINT  NOT NULL,
    address  TEXT    NOT NULL,
    PRIMARY KEY (table_id, address)
);
