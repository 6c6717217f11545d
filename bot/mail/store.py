"""What the mail front end keeps in the bot's database, beside the tables (migration
``0009_mail``): the secret of the reply tokens, the mail handled and sent, the people
writing (time zone, language, when an unknown sender was last answered) and the
followers of a table.

Works over either store: on SQLite each operation is one hop on the store's connection
thread (``SqliteStore._run``), on PostgreSQL one pooled connection. The statements are
written once with ``?`` placeholders and numbered for PostgreSQL.
"""

from __future__ import annotations

import re
import secrets
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.store.riders import Rider
from bot.store.sqlite_tx import Transaction

# How long the Message-IDs sent are kept: a retry or an in-doubt resend comes within the
# outbox's own life (12 attempts, at most 10 minutes apart), a week covers it well.
SENT_KEEP_SECONDS = 7 * 24 * 3600
ANSWER_EVERY = 3600.0  # one answer per unknown sender per hour
# ``answered_at`` of an address that asked for no more answers (its stop line): never
# old enough for ``may_answer`` again. A plain number, the same in SQLite and PostgreSQL.
SILENCED = 1.0e15


@dataclass(frozen=True)
class Person:
    address: str
    timezone: str | None = None
    locale: str | None = None
    silenced: bool = False  # asked for no more answers (see ``silence``)


def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2 ...``."""
    counter = iter(range(1, 1000))
    return re.sub(r"\?", lambda _: f"${next(counter)}", sql)


_HANDLED = ("INSERT INTO mail_handled (message_id, uidvalidity, uid, table_id, at) "
            "VALUES (?, ?, ?, ?, ?)")


class MailStore:
    def __init__(self, store: Any) -> None:
        self.store = store
        self.postgres = not hasattr(store, "_run")

    # ---------------------------------------------------------------- plumbing

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        if self.postgres:
            async with self.store._connection() as conn:
                rows = await conn.fetch(numbered(sql), *params)
            return [tuple(r) for r in rows]

        def run(conn: sqlite3.Connection) -> list[tuple[Any, ...]]:
            return [tuple(r) for r in conn.execute(sql, tuple(params)).fetchall()]
        result: list[tuple[Any, ...]] = await self.store._run(run)
        return result

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement in its own transaction; the rows it changed."""
        if self.postgres:
            async with self.store._connection() as conn:
                status = await conn.execute(numbered(sql), *params)
            tail = str(status).rsplit(" ", 1)[-1]
            return int(tail) if tail.isdigit() else 0

        def run(conn: sqlite3.Connection) -> int:
            with Transaction(conn):
                return int(conn.execute(sql, tuple(params)).rowcount)
        count: int = await self.store._run(run)
        return count

    # ---------------------------------------------------------------- the secret

    async def secret(self) -> bytes:
        """The server secret of the reply tokens: made once (32 random bytes), kept."""
        await self._write("INSERT INTO mail_secret (id, secret) VALUES (1, ?) "
                          "ON CONFLICT (id) DO NOTHING", (secrets.token_hex(32),))
        rows = await self._fetch("SELECT secret FROM mail_secret WHERE id = 1")
        return bytes.fromhex(str(rows[0][0]))

    # ---------------------------------------------------------------- incoming

    async def handled(self, message_id: str) -> bool:
        rows = await self._fetch("SELECT 1 FROM mail_handled WHERE message_id = ?",
                                 (message_id,))
        return bool(rows)

    async def seen(self, uidvalidity: int, uid: int) -> bool:
        """Whether the mailbox's message ``uid`` was handled (a mailbox read twice)."""
        rows = await self._fetch("SELECT 1 FROM mail_handled WHERE uidvalidity = ? AND "
                                 "uid = ?", (uidvalidity, uid))
        return bool(rows)

    async def mark_handled(self, message_id: str, at: float, *, uidvalidity: int | None = None,
                           uid: int | None = None, table_id: int | None = None) -> bool:
        """Record a mail handled that changed no table (a command, a refusal); False when
        it was recorded already."""
        return await self._write(_HANDLED + " ON CONFLICT (message_id) DO NOTHING",
                                 (message_id, uidvalidity, uid, table_id, at)) == 1

    def rider(self, message_id: str, at: float, *, table_id: int | None,
              actor_id: str | None, uidvalidity: int | None = None,
              uid: int | None = None) -> Rider:
        """The mail's handled row, to ride on the save of the action it carries (a
        duplicate Message-ID rolls that save back); ``table_id`` None: on the creation
        of the next table (a ``new`` command), recorded with the new table's id."""

        def params() -> tuple[Any, ...]:
            return (message_id, uidvalidity, uid, made.table_id, at)

        def on_sqlite(conn: sqlite3.Connection) -> None:
            conn.execute(_HANDLED, params())

        async def on_postgres(conn: Any) -> None:
            await conn.execute(numbered(_HANDLED), *params())

        made = Rider(table_id, on_sqlite, on_postgres, actor_id=actor_id)
        return made

    # ---------------------------------------------------------------- outgoing

    async def was_sent(self, message_id: str) -> bool:
        rows = await self._fetch("SELECT 1 FROM mail_sent WHERE message_id = ?",
                                 (message_id,))
        return bool(rows)

    async def record_sent(self, message_id: str, at: float) -> None:
        await self._write("INSERT INTO mail_sent (message_id, at) VALUES (?, ?) "
                          "ON CONFLICT (message_id) DO NOTHING", (message_id, at))

    async def seated_addresses(self) -> list[str]:
        """The addresses playing by mail at a table not over (who a bounce may be about
        when it names only the Message-ID that bounced)."""
        rows = await self._fetch(
            "SELECT DISTINCT s.user_id FROM seats s JOIN tables t ON t.id = s.table_id "
            "WHERE s.user_id LIKE 'mail:%' AND t.status IN ('lobby', 'running', 'paused')")
        return [str(r[0])[len("mail:"):] for r in rows]

    async def prune(self, now: float) -> int:
        return await self._write("DELETE FROM mail_sent WHERE at < ?",
                                 (now - SENT_KEEP_SECONDS,))

    # ---------------------------------------------------------------- people

    async def person(self, address: str) -> Person:
        rows = await self._fetch("SELECT timezone, locale, answered_at FROM mail_people "
                                 "WHERE address = ?", (address,))
        if not rows:
            return Person(address)
        answered = rows[0][2]
        return Person(address, rows[0][0], rows[0][1],
                      answered is not None and float(answered) >= SILENCED)

    async def silence(self, address: str) -> None:
        """No more answers to mail from ``address`` at the bot's plain address (what it
        asks is still done for a player), nor invitations; mail to an address bound to
        it (its own address, a seat's) is still answered."""
        await self._write("INSERT INTO mail_people (address, answered_at) VALUES (?, ?) "
                          "ON CONFLICT (address) DO UPDATE SET answered_at = "
                          "excluded.answered_at", (address, SILENCED))

    async def set_timezone(self, address: str, timezone: str) -> None:
        await self._write("INSERT INTO mail_people (address, timezone) VALUES (?, ?) "
                          "ON CONFLICT (address) DO UPDATE SET timezone = excluded.timezone",
                          (address, timezone))

    async def set_locale(self, address: str, locale: str) -> None:
        await self._write("INSERT INTO mail_people (address, locale) VALUES (?, ?) "
                          "ON CONFLICT (address) DO UPDATE SET locale = excluded.locale",
                          (address, locale))

    async def may_answer(self, address: str, now: float, every: float = ANSWER_EVERY) -> bool:
        """Whether an unknown sender may be answered now (at most once per ``every``
        seconds); a True answer counts as the answer given."""
        await self._write("INSERT INTO mail_people (address) VALUES (?) "
                          "ON CONFLICT (address) DO NOTHING", (address,))
        return await self._write(
            "UPDATE mail_people SET answered_at = ? WHERE address = ? AND "
            "(answered_at IS NULL OR answered_at <= ?)", (now, address, now - every)) == 1

    # ---------------------------------------------------------------- followers

    async def follow(self, table_id: int, address: str) -> bool:
        return await self._write("INSERT INTO mail_followers (table_id, address) VALUES (?, ?) "
                                 "ON CONFLICT (table_id, address) DO NOTHING",
                                 (table_id, address)) == 1

    async def unfollow(self, table_id: int, address: str) -> bool:
        return await self._write("DELETE FROM mail_followers WHERE table_id = ? AND "
                                 "address = ?", (table_id, address)) == 1

    async def followers(self, table_id: int) -> list[str]:
        rows = await self._fetch("SELECT address FROM mail_followers WHERE table_id = ? "
                                 "ORDER BY address", (table_id,))
        return [str(r[0]) for r in rows]
