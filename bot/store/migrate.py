"""``urbanist migrate SOURCE TARGET``: copy every row from one store to another (SQLite to
PostgreSQL or back), then prove the copy: each table's rows hash the same on both sides,
and every game's log replays to its stored snapshot on the target.

The two schemas have the same tables and columns (PostgreSQL's booleans are SQLite's 0
and 1), so rows are copied as they are, ids, revs and outbox states included: a bot
started on the target carries on where the source stopped. The copy is one transaction
on the target (all or nothing) read from one snapshot of the source, and the target must
be empty. Leases are not copied: they belong to the processes of the source.
"""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Protocol

from bot.store import pg_faults
from bot.store.health import StorageError
from bot.store.interface import Store
from bot.store.pg_schema import Connection
from bot.store.postgres import PostgresStore
from bot.store.records import Status
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
                      "status_channel_id", "status_message_id", "rev", "bot_turn", "ai_level"),
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
)
REPLAYED: Final[tuple[Status, ...]] = ("running", "paused", "finished")


class MigrationError(Exception):
    """The copy cannot be made or did not come out equal; nothing was committed when it
    could not be made."""


@dataclass
class MigrationReport:
    rows: dict[str, int] = field(default_factory=dict)
    replayed: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


Row = tuple[Any, ...]


class _Side(Protocol):
    async def fetch(self, sql: str, params: Sequence[Any]) -> list[Row]: ...
    async def insert(self, table: Copied, rows: list[Row]) -> None: ...


class _SqliteSide:
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


class _PostgresSide:
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
async def _reading(store: Store) -> AsyncIterator[_Side]:
    """The source, read from one snapshot."""
    if isinstance(store, PostgresStore):
        async with store._connection() as conn, conn.transaction(
                isolation="repeatable_read", readonly=True):
            yield _PostgresSide(conn)
    elif isinstance(store, SqliteStore):
        side = _SqliteSide(store)
        await side.execute("BEGIN")
        try:
            yield side
        finally:
            await side.execute("COMMIT")
    else:
        raise MigrationError(f"cannot read a {type(store).__name__}")


@asynccontextmanager
async def _writing(store: Store) -> AsyncIterator[_Side]:
    """The target, written in one transaction: all of it, or nothing."""
    if isinstance(store, PostgresStore):
        async with store._connection() as conn, conn.transaction():
            yield _PostgresSide(conn)
            # The copied ids were given explicitly: new rows must be numbered after them.
            for name in ("tables", "outbox"):
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                    f"coalesce((SELECT max(id) FROM {name}), 0) + 1, false)")
    elif isinstance(store, SqliteStore):
        side = _SqliteSide(store)
        await side.execute("BEGIN IMMEDIATE")
        try:
            yield side
        except BaseException:
            await side.execute("ROLLBACK")
            raise
        await side.execute("COMMIT")
    else:
        raise MigrationError(f"cannot write a {type(store).__name__}")


async def _chunks(side: _Side, table: Copied) -> AsyncIterator[list[Row]]:
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


async def _digest(side: _Side, table: Copied) -> tuple[int, str]:
    """How many rows, and a hash of them all in key order."""
    digest = hashlib.sha256()
    count = 0
    async for rows in _chunks(side, table):
        count += len(rows)
        for row in rows:
            digest.update(repr(row).encode("utf-8"))
    return count, digest.hexdigest()


async def copy_store(source: Store, target: Store) -> dict[str, int]:
    """Copy every row of ``source`` into the empty ``target``; the rows copied by table."""
    if await target.find_tables():
        raise MigrationError("the target already has tables: migrate only into a new, "
                             "empty database")
    counts: dict[str, int] = {}
    async with AsyncExitStack() as stack:
        reader = await stack.enter_async_context(_reading(source))
        writer = await stack.enter_async_context(_writing(target))
        for table in SCHEMA:
            counts[table.name] = 0
            async for rows in _chunks(reader, table):
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



async def compare_stores(source: Store, target: Store) -> list[str]:
    """Tables of the schema whose rows differ between the two stores."""
    problems = []
    for table in SCHEMA:
        async with _reading(source) as a:
            left = await _digest(a, table)
        async with _reading(target) as b:
            right = await _digest(b, table)
        if left != right:
            problems.append(f"{table.name}: {left[0]} rows in the source, {right[0]} in the "
                            "target" if left[0] != right[0] else
                            f"{table.name}: the rows differ")
    return problems


async def replay_all(store: Store) -> tuple[int, list[str]]:
    """Replay every game's log on ``store``; how many, and the tables that fail."""
    from bot.service.replay import verify_replay
    from engine.core import get_game

    problems = []
    ids = await store.table_ids(REPLAYED)
    for table_id in ids:
        table = await store.load_table(table_id)
        assert table is not None
        try:
            report = verify_replay(get_game(table.game), table,
                                   len(await store.load_seats(table_id)),
                                   await store.load_actions(table_id))
        except Exception as exc:  # an unknown game, a corrupted row: say which, go on
            problems.append(f"table {table_id}: cannot be replayed: {type(exc).__name__}: {exc}")
            continue
        if not report.ok:
            problems.append(f"table {table_id}: {report.problem}")
    return len(ids), problems


async def migrate_stores(source: Store, target: Store) -> MigrationReport:
    report = MigrationReport(rows=await copy_store(source, target))
    report.problems += await compare_stores(source, target)
    report.replayed, replay_problems = await replay_all(target)
    report.problems += replay_problems
    return report


async def migrate(source: str | Path, target: str | Path) -> MigrationReport:
    """Open both stores (the source must exist), copy, verify, close."""
    from bot.store.factory import open_store
    from bot.store.health import require_existing
    from bot.store.pg_faults import is_postgres_url

    if str(source) == str(target):
        raise MigrationError("the source and the target are the same database")
    if not is_postgres_url(str(source)):
        require_existing(str(source))  # never create an empty source
    async with AsyncExitStack() as stack:
        source_store = await open_store(source)
        stack.push_async_callback(source_store.close)
        target_store = await open_store(target)
        stack.push_async_callback(target_store.close)
        return await migrate_stores(source_store, target_store)


def run_migrate_command(args: Any) -> int:
    """``urbanist migrate SOURCE TARGET`` (bot/cli.py builds its parser)."""
    import asyncio
    import sys

    from bot.store.factory import describe

    try:
        report = asyncio.run(migrate(args.source, args.target))
    except MigrationError as exc:
        print(f"urbanist: {exc}", file=sys.stderr)
        return 1
    copied = ", ".join(f"{count} {name}" for name, count in report.rows.items())
    print(f"copied {describe(args.source)} to {describe(args.target)}: {copied}")
    print(f"replayed {report.replayed} tables")
    for problem in report.problems:
        print(problem)
    print("ok" if report.ok else f"{len(report.problems)} problems")
    return 0 if report.ok else 1
