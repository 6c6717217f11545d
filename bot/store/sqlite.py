"""The SQLite store, through aiosqlite: WAL journal, synchronous=FULL, one transaction per save.

aiosqlite runs the connection on its own thread; each store operation is one function
run there in one hop (see ``SqliteStore._run``), so operations never interleave.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.store.migrations import migrate
from bot.store.records import (
    ActionRecord,
    ScheduledTimer,
    SeatRecord,
    Status,
    TableRecord,
    TimerRecord,
    VersionConflict,
    canonical,
)

DEFAULT_DB = "urbanist.sqlite3"
T = TypeVar("T")

# aiosqlite's debug log prints every statement's parameters: secret picks, hands in
# snapshots. Private information must never reach a log line, whatever the log level.
logging.getLogger("aiosqlite").setLevel(logging.INFO)

_TABLE_COLUMNS = (
    "game, options, seed, status, version, snapshot, outcome, guild_id, channel_id, thread_id, "
    "locale, host_id, deadline_seconds, reminders, timeout_policy, seat_order, max_seats, "
    "paused_at, status_channel_id, status_message_id, created_at, updated_at"
)
_TABLE_PLACEHOLDERS = ", ".join("?" * len(_TABLE_COLUMNS.split(",")))


def default_db_path() -> Path:
    return Path(os.environ.get("URBANIST_DB") or DEFAULT_DB)


def _table_values(t: TableRecord) -> tuple[Any, ...]:
    return (
        t.game,
        canonical(t.options),
        t.seed,
        t.status,
        t.version,
        t.snapshot,
        None if t.outcome is None else canonical(t.outcome),
        t.guild_id,
        t.channel_id,
        t.thread_id,
        t.locale,
        t.host_id,
        t.deadline_seconds,
        canonical(list(t.reminders)),
        t.timeout_policy,
        t.seat_order,
        t.max_seats,
        t.paused_at,
        t.status_channel_id,
        t.status_message_id,
        t.created_at,
        t.updated_at,
    )


def _table_from_row(row: sqlite3.Row) -> TableRecord:
    return TableRecord(
        id=row["id"],
        game=row["game"],
        options=json.loads(row["options"]),
        seed=row["seed"],
        status=row["status"],
        version=row["version"],
        snapshot=row["snapshot"],
        outcome=None if row["outcome"] is None else json.loads(row["outcome"]),
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        thread_id=row["thread_id"],
        locale=row["locale"],
        host_id=row["host_id"],
        deadline_seconds=row["deadline_seconds"],
        reminders=tuple(json.loads(row["reminders"])),
        timeout_policy=row["timeout_policy"],
        seat_order=row["seat_order"],
        max_seats=row["max_seats"],
        paused_at=row["paused_at"],
        status_channel_id=row["status_channel_id"],
        status_message_id=row["status_message_id"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def _seat_values(table_id: int, s: SeatRecord) -> tuple[Any, ...]:
    return (table_id, s.seat, s.user_id, s.name, int(s.is_bot), s.ai_kind, int(s.dm_ok),
            s.prompt_version)


class SqliteStore:
    """Open with ``await SqliteStore.open(path)``; ``":memory:"`` works for quick tests."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn = conn
        self.path = path

    @classmethod
    async def open(cls, path: str | Path | None = None) -> SqliteStore:
        target = str(default_db_path() if path is None else path)
        # isolation_level=None: we issue BEGIN/COMMIT ourselves, so a transaction is
        # exactly what the code says it is.
        conn = await aiosqlite.connect(target, isolation_level=None)
        conn.row_factory = sqlite3.Row
        # FULL: the WAL is fsynced at every commit, so an acknowledged action survives
        # a power cut, not only a process crash. Each cursor is closed at once: a cursor
        # left to the garbage collector keeps a statement "in progress" and can make the
        # migration's COMMIT fail.
        for pragma in (
            "PRAGMA journal_mode=WAL",
            "PRAGMA synchronous=FULL",
            "PRAGMA foreign_keys=ON",
            "PRAGMA busy_timeout=5000",
        ):
            async with conn.execute(pragma):
                pass
        await migrate(conn)
        return cls(conn, target)

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(sqlite3_connection, *args)`` on aiosqlite's thread in ONE hop.

        aiosqlite's public calls each cost a thread round trip (0.1 to 0.5 ms here), and a
        save is eight statements; its own ``_execute`` runs a whole function instead. Being
        one call on the connection's only thread, an operation is also atomic with respect
        to every other: no transaction can interleave with another coroutine's.
        """
        result: T = await self._conn._execute(fn, self._conn._conn, *args)  # type: ignore[no-untyped-call]
        return result

    async def close(self) -> None:
        await self._conn.close()

    async def integrity_check(self) -> list[str]:
        return await self._run(_integrity_check)

    async def create_table(self, table: TableRecord, seats: Sequence[SeatRecord]) -> int:
        table_id = await self._run(_create_table, table, list(seats))
        table.id = table_id
        return table_id

    async def load_table(self, table_id: int) -> TableRecord | None:
        return await self._run(_load_table, table_id)

    async def load_seats(self, table_id: int) -> list[SeatRecord]:
        return await self._run(_load_seats, table_id)

    async def load_timers(self, table_id: int) -> list[TimerRecord]:
        return await self._run(_load_timers, table_id)

    async def load_actions(self, table_id: int, after_version: int = 0) -> list[ActionRecord]:
        return await self._run(_load_actions, table_id, after_version)

    async def save(
        self,
        table: TableRecord,
        *,
        expected_version: int | None = None,
        seats: Sequence[SeatRecord] | None = None,
        timers: Sequence[TimerRecord] | None = None,
        action: ActionRecord | None = None,
    ) -> None:
        await self._run(_save, table, expected_version,
                        None if seats is None else list(seats),
                        None if timers is None else list(timers), action)

    async def find_tables(
        self,
        *,
        channel_id: str | None = None,
        user_id: str | None = None,
        statuses: Sequence[Status] | None = None,
    ) -> list[TableRecord]:
        where: list[str] = []
        params: list[Any] = []
        if channel_id is not None:
            where.append("(channel_id = ? OR thread_id = ?)")
            params += [channel_id, channel_id]
        if user_id is not None:
            where.append("id IN (SELECT table_id FROM seats WHERE user_id = ?)")
            params.append(user_id)
        if statuses is not None:
            where.append(f"status IN ({', '.join('?' * len(statuses))})")
            params += list(statuses)
        sql = "SELECT * FROM tables"
        if where:
            sql += " WHERE " + " AND ".join(where)
        rows = await self._run(_fetchall, sql + " ORDER BY id", params)
        return [_table_from_row(r) for r in rows]

    async def scheduled_timers(self) -> list[ScheduledTimer]:
        rows = await self._run(
            _fetchall,
            "SELECT t.id, t.version, m.kind, MIN(m.due_at) AS due "
            "FROM timers m JOIN tables t ON t.id = m.table_id "
            "WHERE t.status = 'running' GROUP BY t.id, m.kind",
            (),
        )
        return [ScheduledTimer(r[0], r[1], r[2], r[3]) for r in rows]

    async def backup(self, path: Path) -> None:
        """Copy the live database with SQLite's online backup API."""
        target = sqlite3.connect(str(path), check_same_thread=False)
        try:
            await self._conn.backup(target, pages=1024, sleep=0)
        finally:
            target.close()


# The operations themselves: plain functions of a sqlite3 connection, run on its thread.


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self._conn.execute("BEGIN IMMEDIATE")
        return self._conn

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self._conn.execute("COMMIT" if exc_type is None else "ROLLBACK")


def _fetchall(conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> list[sqlite3.Row]:
    return conn.execute(sql, params).fetchall()


def _integrity_check(conn: sqlite3.Connection) -> list[str]:
    problems = [str(r[0]) for r in conn.execute("PRAGMA integrity_check") if str(r[0]) != "ok"]
    problems += [f"foreign key: {tuple(r)}" for r in conn.execute("PRAGMA foreign_key_check")]
    return problems


def _create_table(conn: sqlite3.Connection, table: TableRecord, seats: list[SeatRecord]) -> int:
    with _Transaction(conn):
        cursor = conn.execute(
            f"INSERT INTO tables ({_TABLE_COLUMNS}) VALUES ({_TABLE_PLACEHOLDERS})",
            _table_values(table),
        )
        table_id = cursor.lastrowid
        assert table_id is not None
        conn.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                         [_seat_values(table_id, s) for s in seats])
    return table_id


def _load_table(conn: sqlite3.Connection, table_id: int) -> TableRecord | None:
    row = conn.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
    return None if row is None else _table_from_row(row)


def _load_seats(conn: sqlite3.Connection, table_id: int) -> list[SeatRecord]:
    rows = conn.execute("SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))
    return [
        SeatRecord(seat=r["seat"], name=r["name"], user_id=r["user_id"], is_bot=bool(r["is_bot"]),
                   ai_kind=r["ai_kind"], dm_ok=bool(r["dm_ok"]),
                   prompt_version=r["prompt_version"])
        for r in rows
    ]


def _load_timers(conn: sqlite3.Connection, table_id: int) -> list[TimerRecord]:
    rows = conn.execute(
        "SELECT due_at, seat, kind FROM timers WHERE table_id = ? ORDER BY due_at, seat",
        (table_id,))
    return [TimerRecord(r["due_at"], r["seat"], r["kind"]) for r in rows]


def _load_actions(conn: sqlite3.Connection, table_id: int,
                  after_version: int) -> list[ActionRecord]:
    rows = conn.execute(
        "SELECT * FROM actions WHERE table_id = ? AND version > ? ORDER BY version",
        (table_id, after_version))
    return [
        ActionRecord(table_id=r["table_id"], version=r["version"], seat=r["seat"],
                     action=json.loads(r["action"]), source=r["source"], at=r["at"],
                     actor_id=r["actor_id"], public_text=r["public_text"],
                     events=json.loads(r["events"]))
        for r in rows
    ]


def _save(conn: sqlite3.Connection, table: TableRecord, expected_version: int | None,
          seats: list[SeatRecord] | None, timers: list[TimerRecord] | None,
          action: ActionRecord | None) -> None:
    with _Transaction(conn):
        sql = f"UPDATE tables SET ({_TABLE_COLUMNS}) = ({_TABLE_PLACEHOLDERS}) WHERE id = ?"
        params: tuple[Any, ...] = (*_table_values(table), table.id)
        if expected_version is not None:
            sql += " AND version = ?"
            params += (expected_version,)
        if conn.execute(sql, params).rowcount != 1:
            raise VersionConflict(f"table {table.id} is not at version {expected_version}")
        if seats is not None:
            conn.execute("DELETE FROM seats WHERE table_id = ?", (table.id,))
            conn.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                             [_seat_values(table.id, s) for s in seats])
        if timers is not None:
            conn.execute("DELETE FROM timers WHERE table_id = ?", (table.id,))
            conn.executemany("INSERT OR IGNORE INTO timers VALUES (?, ?, ?, ?)",
                             [(table.id, t.seat, t.kind, t.due_at) for t in timers])
        if action is not None:
            conn.execute(
                "INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (action.table_id, action.version, action.seat, canonical(action.action),
                 action.public_text, canonical(action.events), action.source,
                 action.actor_id, action.at),
            )
