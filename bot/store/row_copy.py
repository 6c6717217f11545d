"""The schema's tables as ``urbanist migrate`` and PostgreSQL's ``backup`` copy them, and
the copy itself, between two sides (an SQLite store or a PostgreSQL connection) each
already inside its transaction.

The sides take a store or a connection rather than a backend's store class, so that a
backend can copy its own rows (PostgreSQL's backup is a copy into a new SQLite file)
without importing ``bot.store.migrate``, which opens both backends.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Protocol

from bot.store import pg_faults
from bot.store.health import StorageError
from bot.store.interface import Store
from bot.store.pg_schema import Connection

if TYPE_CHECKING:
    from bot.store.sqlite import SqliteStore

CHUNK: Final = 2000


@dataclass(frozen=True)
class Copied:
    """One table of the schema: its columns, its key (the copy's order) and its
    booleans (stored as 0/1 by SQLite)."""

    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]
    booleans: tuple[str, ...] = ()


SCHEMA: Final = (
    Copied("tables", ("id", "game", "options", "seed", "status", "version", "snapshot",
                      "outcome", "guild_id", "channel_id", "thread_id", "locale", "host_id",
                      "deadline_seconds", "reminders", "timeout_policy", "seat_order",
                      "max_seats", "paused_at", "created_at", "updated_at",
                      "status_channel_id", "status_message_id", "rev", "bot_turn", "ai_level",
                      "snapshot_version"),
           ("id",), ("bot_turn",)),
    Copied("seats", ("table_id", "seat", "user_id", "name", "is_bot", "ai_kind", "dm_ok",
                     "prompt_version"), ("table_id", "seat"), ("is_bot", "dm_ok")),
    Copied("actions", ("table_id", "version", "seat", "action", "public_text", "events",
                       "source", "actor_id", "at"), ("table_id", "version")),
    Copied("timers", ("table_id", "seat", "kind", "due_at"),
           ("table_id", "seat", "kind", "due_at")),
    Copied("outbox", ("id", "table_id", "version", "seat", "payload", "state", "attempts",
                      "due_at", "error", "created_at", "done_at", "sent"), ("id",)),
    Copied("menus", ("table_id", "seat", "prompt_version", "channel_id", "message_id"),
           ("table_id", "message_id")),
    # The history (bot/history): derived from the tables, but copied as it is, so that
    # ratings settled in their finishing order need no rebuild on the target.
    Copied("results", ("table_id", "slot", "guild_id", "game", "player", "name", "is_bot",
                       "rank", "score", "finished_at", "started_at", "versions", "unrated",
                       "mu_before", "sigma_before", "mu", "sigma"),
           ("table_id", "slot"), ("is_bot",)),
    Copied("ratings", ("guild_id", "game", "player", "name", "is_bot", "mu", "sigma", "games",
                       "updated_at"), ("guild_id", "game", "player"), ("is_bot",)),
    # The tables' web pages (bot/store/pages.py): a private table's token stays valid.
    Copied("table_pages", ("table_id", "public", "token"), ("table_id",), ("public",)),
    Copied("guild_pages", ("guild_id", "listed"), ("guild_id",), ("listed",)),
    # The mail front end (bot/mail/store.py): its secret (the seats' reply addresses stay
    # valid on the target), the mail handled and sent, its people and followers.
    Copied("mail_secret", ("id", "secret"), ("id",)),
    Copied("mail_handled", ("message_id", "uidvalidity", "uid", "table_id", "at"),
           ("message_id",)),
    Copied("mail_sent", ("message_id", "at"), ("message_id",)),
    Copied("mail_people", ("address", "timezone", "locale", "answered_at"), ("address",)),
    Copied("mail_followers", ("table_id", "address"), ("table_id", "address")),
)


class MigrationError(Exception):
    """The copy cannot be made or did not come out equal; nothing was committed when it
    could not be made."""


Row = tuple[Any, ...]


class Side(Protocol):
    async def fetch(self, sql: str, params: Sequence[Any]) -> list[Row]: ...
    async def insert(self, table: Copied, rows: list[Row]) -> None: ...


class SqliteSide:
    def __init__(self, store: SqliteStore) -> None:
        self.store = store

    async def fetch(self, sql: str, params: Sequence[Any]) -> list[Row]:
        return await self.store._run(lambda c: [tuple(r) for r in c.execute(sql, params)])

    async def insert(self, table: Copied, rows: list[Row]) -> None:
        sql = (f"INSERT INTO {table.name} ({', '.join(table.columns)}) "
               f"VALUES ({', '.join('?' * len(table.columns))})")
        await self.store._run(lambda c: c.executemany(sql, rows))

    async def execute(self, sql: str) -> None:
        await self.store._run(lambda c: c.execute(sql))


class PostgresSide:
    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    async def fetch(self, sql: str, params: Sequence[Any]) -> list[Row]:
        return [tuple(r) for r in await self.conn.fetch(_numbered(sql), *params)]

    async def insert(self, table: Copied, rows: list[Row]) -> None:
        await self.conn.copy_records_to_table(table.name, records=rows,
                                              columns=list(table.columns))


def _numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2 ...`` (no literal here holds a ``?``)."""
    parts = sql.split("?")
    return "".join(p + (f"${i}" if i < len(parts) else "") for i, p in enumerate(parts, 1))


@asynccontextmanager
async def sqlite_reading(store: SqliteStore) -> AsyncIterator[Side]:
    """An SQLite source, read from one snapshot."""
    side = SqliteSide(store)
    await side.execute("BEGIN")
    try:
        yield side
    finally:
        await side.execute("COMMIT")


@asynccontextmanager
async def sqlite_writing(store: SqliteStore) -> AsyncIterator[Side]:
    """An SQLite target, written in one transaction: all of it, or nothing."""
    side = SqliteSide(store)
    await side.execute("BEGIN IMMEDIATE")
    try:
        yield side
    except BaseException:
        await side.execute("ROLLBACK")
        raise
    await side.execute("COMMIT")


@asynccontextmanager
async def postgres_reading(conn: Connection) -> AsyncIterator[Side]:
    """A PostgreSQL source, read from one snapshot."""
    async with conn.transaction(isolation="repeatable_read", readonly=True):
        yield PostgresSide(conn)


@asynccontextmanager
async def postgres_writing(conn: Connection) -> AsyncIterator[Side]:
    """A PostgreSQL target, written in one transaction: all of it, or nothing."""
    async with conn.transaction():
        yield PostgresSide(conn)
        # The copied ids were given explicitly: new rows must be numbered after them.
        for name in ("tables", "outbox"):
            await conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                f"coalesce((SELECT max(id) FROM {name}), 0) + 1, false)")


async def chunks(side: Side, table: Copied) -> AsyncIterator[list[Row]]:
    """The rows of ``table`` in key order, normalised (booleans as bool), by chunks."""
    columns = ", ".join(table.columns)
    key = ", ".join(table.key)
    positions = [table.columns.index(k) for k in table.key]
    booleans = [table.columns.index(b) for b in table.booleans]
    last: Row | None = None
    while True:
        after = "" if last is None else (
            f" WHERE ({key}) > ({', '.join('?' * len(table.key))})")
        rows = await side.fetch(f"SELECT {columns} FROM {table.name}{after} "
                                f"ORDER BY {key} LIMIT {CHUNK}",
                                () if last is None else last)
        if not rows:
            return
        if booleans:
            rows = [tuple(bool(v) if i in booleans else v for i, v in enumerate(r))
                    for r in rows]
        yield rows
        last = tuple(rows[-1][p] for p in positions)


async def require_empty(target: Store) -> None:
    """Refuse a target that holds tables: a copy only ever goes into a new database."""
    if await target.find_tables():
        raise MigrationError("the target already has tables: migrate only into a new, "
                             "empty database")


async def copy_rows(reader: Side, writer: Side) -> dict[str, int]:
    """Copy every row of the schema from ``reader`` to ``writer``; the rows by table."""
    counts: dict[str, int] = {}
    for table in SCHEMA:
        counts[table.name] = 0
        async for rows in chunks(reader, table):
            try:
                await writer.insert(table, rows)
            except StorageError:
                raise
            except Exception as exc:
                if pg_faults.explain(exc, "") is not None:
                    raise  # the storage's trouble: a StorageError once out of here
                # A row the target refuses (text PostgreSQL cannot hold, a broken
                # reference): said in one line; the target's transaction is undone.
                raise MigrationError(
                    f"the target refused a row of {table.name} after "
                    f"{counts[table.name]} rows ({type(exc).__name__}: {exc}); nothing "
                    "was written") from exc
            counts[table.name] += len(rows)
    return counts
