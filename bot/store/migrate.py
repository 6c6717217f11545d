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
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from bot.store.factory import describe, open_store
from bot.store.health import require_existing
from bot.store.interface import Store
from bot.store.pg_faults import is_postgres_url
from bot.store.postgres import PostgresStore
from bot.store.records import Status
from bot.store.row_copy import (
    SCHEMA,
    Copied,
    MigrationError,
    Side,
    chunks,
    copy_rows,
    postgres_reading,
    postgres_writing,
    require_empty,
    sqlite_reading,
    sqlite_writing,
)
from bot.store.sqlite import SqliteStore

REPLAYED: Final[tuple[Status, ...]] = ("running", "paused", "finished")


@dataclass
class MigrationReport:
    rows: dict[str, int] = field(default_factory=dict)
    replayed: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


@asynccontextmanager
async def _reading(store: Store) -> AsyncIterator[Side]:
    """The source, read from one snapshot."""
    if isinstance(store, PostgresStore):
        async with store._connection() as conn, postgres_reading(conn) as side:
            yield side
    elif isinstance(store, SqliteStore):
        async with sqlite_reading(store) as side:
            yield side
    else:
        raise MigrationError(f"cannot read a {type(store).__name__}")


@asynccontextmanager
async def _writing(store: Store) -> AsyncIterator[Side]:
    """The target, written in one transaction: all of it, or nothing."""
    if isinstance(store, PostgresStore):
        async with store._connection() as conn, postgres_writing(conn) as side:
            yield side
    elif isinstance(store, SqliteStore):
        async with sqlite_writing(store) as side:
            yield side
    else:
        raise MigrationError(f"cannot write a {type(store).__name__}")


async def _digest(side: Side, table: Copied) -> tuple[int, str]:
    """How many rows, and a hash of them all in key order."""
    digest = hashlib.sha256()
    count = 0
    async for rows in chunks(side, table):
        count += len(rows)
        for row in rows:
            digest.update(repr(row).encode("utf-8"))
    return count, digest.hexdigest()


async def copy_store(source: Store, target: Store) -> dict[str, int]:
    """Copy every row of ``source`` into the empty ``target``; the rows copied by table."""
    await require_empty(target)
    async with _reading(source) as reader, _writing(target) as writer:
        return await copy_rows(reader, writer)


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
