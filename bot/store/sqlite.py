"""The SQLite store, through aiosqlite: WAL journal, synchronous=FULL, one transaction per save.

aiosqlite runs the connection on its own thread; each store operation is one function
run there in one hop (see ``SqliteStore._run``), so operations never interleave.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.history.ratings import RatedGame, Rating, Result
from bot.store import health, leases, riders
from bot.store.leases import Lease
from bot.store.migrations import migrate
from bot.store.records import (
    ActionRecord,
    MenuRecord,
    OutboxResult,
    OutboxRow,
    ScheduledTimer,
    SeatRecord,
    Status,
    TableRecord,
    TimerRecord,
)
from bot.store.sqlite_outbox import (
    claim_outbox,
    drop_menu,
    insert_outbox,
    mark_outbox,
    outbox_from_row,
    prune_outbox,
    record_menu,
    take_menus,
)
from bot.store.sqlite_rows import (
    TABLE_COLUMNS,
    TABLE_PLACEHOLDERS,
    rating_from_row,
    seat_values,
    table_from_row,
    table_values,
)
from bot.store.sqlite_save import GroupCommit, settle_game, write_save
from bot.store.sqlite_tx import Transaction as _Transaction

DEFAULT_DB = "urbanist.sqlite3"
MAX_ID = 2**63  # SQLite's integers are signed 64-bit
T = TypeVar("T")

# aiosqlite's debug log prints every statement's parameters: secret picks, hands in
# snapshots. Private information must never reach a log line, whatever the log level.
logging.getLogger("aiosqlite").setLevel(logging.INFO)




def default_db_path() -> Path:
    return Path(os.environ.get("URBANIST_DB") or DEFAULT_DB)


class SqliteStore:
    """Open with ``await SqliteStore.open(path)``; ``":memory:"`` works for quick tests."""

    def __init__(self, conn: aiosqlite.Connection, path: str,
                 problems: Sequence[str] = ()) -> None:
        self._conn = conn
        self.path = path
        # What the quick check found at open: when any, the store only reads (``check``
        # and ``backup`` still may), and every write is refused with health.damaged.
        self.problems = list(problems)
        # The last storage fault an operation met, for a front end that says it itself
        # rather than through the service's refusal (the console: one line, exit 3).
        self.fault: health.StorageError | None = None
        # Saves arriving together commit together (one sync of the journal for many).
        self._group = GroupCommit(self._run)

    @classmethod
    async def open(cls, path: str | Path | None = None) -> SqliteStore:
        """Raises ``health.StorageError`` (one line naming the file) for a storage fault,
        with the connection closed: aiosqlite's thread would keep the process alive."""
        target = str(default_db_path() if path is None else path)
        conn = await health.connect(target)
        try:
            conn.row_factory = sqlite3.Row
            # FULL: the WAL is fsynced at every commit, so an acknowledged action survives
            # a power cut, not only a process crash. Each cursor is closed at once: a cursor
            # left to the garbage collector keeps a statement "in progress" and can make the
            # migration's COMMIT fail. journal_size_limit: the WAL shrinks back after a burst.
            for pragma in (
                "PRAGMA journal_mode=WAL",
                "PRAGMA synchronous=FULL",
                "PRAGMA foreign_keys=ON",
                "PRAGMA busy_timeout=5000",
                f"PRAGMA journal_size_limit={health.JOURNAL_SIZE_LIMIT}",
            ):
                async with conn.execute(pragma):
                    pass
            # A damaged file is never written: a write can spread the damage, and a move
            # "saved" in it may be lost. query_only makes SQLite itself refuse every
            # write (even a migration's), so no path of the store can slip past.
            problems = await conn._execute(health.quick_problems, conn._conn)  # type: ignore[no-untyped-call]
            if problems:
                async with conn.execute("PRAGMA query_only=ON"):
                    pass
            else:
                await migrate(conn)
        except BaseException as exc:
            await health.close_quietly(conn)
            fault = health.explain(exc, target)
            if fault is None:
                raise
            raise fault from exc
        return cls(conn, target, problems)

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(sqlite3_connection, *args)`` on aiosqlite's thread in ONE hop.

        aiosqlite's public calls each cost a thread round trip (0.1 to 0.5 ms here), and a
        save is eight statements; its own ``_execute`` runs a whole function instead. Being
        one call on the connection's only thread, an operation is also atomic with respect
        to every other: no transaction can interleave with another coroutine's.
        """
        try:
            result: T = await self._conn._execute(fn, self._conn._conn, *args)  # type: ignore[no-untyped-call]
        except (sqlite3.IntegrityError, sqlite3.ProgrammingError, sqlite3.InterfaceError):
            raise  # a bug, not the storage: it must show as what it is
        except (sqlite3.Error, OSError) as exc:
            # A full disk, an I/O error...: a typed fault the service can refuse politely
            # (the transaction was rolled back, so nothing is half done).
            fault = health.explain(exc, self.path)
            if fault is None:
                raise
            if self.problems and fault.code == "read_only":
                fault = health.damaged(self.path, self.problems)
            self.fault = fault
            raise fault from exc
        return result

    async def close(self) -> None:
        await self._conn.close()

    async def integrity_check(self) -> list[str]:
        """Every problem found (see ``health.integrity_problems``); [] when healthy. On a
        connection of its own (a reader beside the writer, in WAL mode): the check reads
        every row, and the store's connection stays free for the tables meanwhile."""
        if self.path == health.MEMORY or self.path.startswith("file:"):
            return await self._run(health.integrity_problems)
        return await asyncio.to_thread(_check_apart, self.path)

    async def create_table(self, table: TableRecord, seats: Sequence[SeatRecord],
                           outbox: Sequence[OutboxRow] = ()) -> int:
        rider = riders.for_create()  # a front end's rows, in the same transaction
        try:
            table_id = await self._run(_create_table, table, list(seats), list(outbox), rider)
        except BaseException:
            riders.stillborn(rider)
            raise
        riders.landed(rider)
        table.id = table_id
        return table_id

    async def load_bundle(
        self, table_id: int
    ) -> tuple[TableRecord, list[SeatRecord], list[TimerRecord]] | None:
        if not 0 < table_id < MAX_ID:
            return None  # a forged id beyond SQLite's integers is simply unknown
        return await self._run(_load_bundle, table_id)

    async def load_table(self, table_id: int) -> TableRecord | None:
        if not 0 < table_id < MAX_ID:
            return None
        return await self._run(_load_table, table_id)

    async def load_seats(self, table_id: int) -> list[SeatRecord]:
        return await self._run(_load_seats, table_id)

    async def table_rev(self, table_id: int) -> int | None:
        if not 0 < table_id < MAX_ID:
            return None
        rows = await self._run(_fetchall, "SELECT rev FROM tables WHERE id = ?", (table_id,))
        return int(rows[0][0]) if rows else None

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
        outbox: Sequence[OutboxRow] = (),
        ratings: RatedGame | None = None,
        claim_at: float | None = None,
    ) -> list[OutboxRow]:
        rider = riders.for_save(table.id, None if action is None else action.actor_id)
        claimed = await self._group.write(
            write_save, table, expected_version, None if seats is None else list(seats),
            None if timers is None else list(timers), action, list(outbox), ratings,
            None if rider is None else rider.sqlite, claim_at)
        riders.landed(rider)
        table.rev += 1
        return claimed

    # -- the outbox and the menus ------------------------------------------------------

    async def outbox_tables(self, now: float) -> list[int]:
        rows = await self._run(
            _fetchall,
            "SELECT DISTINCT table_id FROM outbox WHERE state IN ('pending', 'sending') "
            "AND due_at <= ? ORDER BY table_id", (now,))
        return [int(r[0]) for r in rows]

    async def next_outbox_due(self) -> float | None:
        rows = await self._run(
            _fetchall, "SELECT MIN(due_at) FROM outbox WHERE state = 'pending'", ())
        return None if not rows or rows[0][0] is None else float(rows[0][0])

    async def claim_outbox(self, table_id: int, now: float) -> list[OutboxRow]:
        return await self._group.write(claim_outbox, table_id, now)

    async def mark_outbox(self, results: Sequence[OutboxResult], now: float) -> None:
        # Unsynced: a mark lost to a power cut leaves its row in doubt, never a message
        # lost (see ``GroupCommit``).
        await self._group.write(mark_outbox, list(results), now, synced=False)

    async def load_outbox(self, table_id: int | None = None,
                          states: Sequence[str] | None = None) -> list[OutboxRow]:
        where: list[str] = []
        params: list[Any] = []
        if table_id is not None:
            where.append("table_id = ?")
            params.append(table_id)
        if states is not None:
            where.append(f"state IN ({', '.join('?' * len(states))})")
            params += list(states)
        sql = "SELECT * FROM outbox" + (" WHERE " + " AND ".join(where) if where else "")
        rows = await self._run(_fetchall, sql + " ORDER BY id", params)
        return [outbox_from_row(r) for r in rows]

    async def prune_outbox(self, before: float, *, failed_before: float | None = None) -> int:
        return await self._run(prune_outbox, before, failed_before)

    async def record_menu(self, menu: MenuRecord) -> None:
        await self._run(record_menu, menu)

    async def drop_menu(self, table_id: int, message_id: str) -> None:
        await self._run(drop_menu, table_id, message_id)

    async def take_menus(self, table_id: int, seat: int | None,
                         before_version: int | None) -> list[MenuRecord]:
        """Remove and return the menus of ``seat`` (None: every seat) opened before
        ``before_version`` (None: all): the ones to disable."""
        return await self._run(take_menus, table_id, seat, before_version)

    async def bot_turn_tables(self) -> list[int]:
        rows = await self._run(
            _fetchall, "SELECT id FROM tables WHERE bot_turn = 1 AND status = 'running' "
            "ORDER BY id", ())
        return [int(r[0]) for r in rows]

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
        return [table_from_row(r) for r in rows]

    async def scheduled_timers(self, before: float | None = None) -> list[ScheduledTimer]:
        # With ``before``, only the timers due by then (read through timers_by_due): the
        # earliest of a kind is among them whenever it is due by then.
        where = "" if before is None else " AND m.due_at <= ?"
        rows = await self._run(
            _fetchall,
            "SELECT t.id, t.version, m.kind, MIN(m.due_at) AS due "
            "FROM timers m JOIN tables t ON t.id = m.table_id "
            f"WHERE t.status = 'running'{where} GROUP BY t.id, m.kind",
            () if before is None else (before,),
        )
        return [ScheduledTimer(r[0], r[1], r[2], r[3]) for r in rows]

    async def table_ids(self, statuses: Sequence[Status]) -> list[int]:
        """The ids of the tables in ``statuses``, without decoding their rows."""
        rows = await self._run(
            _fetchall, f"SELECT id FROM tables WHERE status IN ({', '.join('?' * len(statuses))}) "
            "ORDER BY id", list(statuses))
        return [int(r[0]) for r in rows]

    # -- leases (see bot.store.leases; one process per SQLite file, but the same contract)

    async def acquire_lease(self, name: str, owner: str, now: float,
                            ttl: float) -> Lease | None:
        return await self._run(leases.acquire, name, owner, now, ttl)

    async def renew_leases(self, owner: str, now: float, ttl: float) -> list[str]:
        return await self._run(leases.renew, owner, now, ttl)

    async def steal_expired_leases(self, owner: str, now: float, ttl: float,
                                   limit: int | None = None) -> list[Lease]:
        return await self._run(leases.steal, owner, now, ttl, limit)

    async def release_leases(self, owner: str, now: float,
                             names: Sequence[str] | None = None) -> int:
        return await self._run(leases.release, owner, now, names)

    async def load_leases(self) -> list[Lease]:
        return await self._run(leases.load)

    async def backup(self, path: Path) -> None:
        """Copy the live database with SQLite's online backup API, then checkpoint the
        WAL; a corrupted source is refused (``health.StorageError``)."""
        await self._run(health.backup_to, Path(path))

    # -- history: results and ratings (bot/history; rows written by save and rebuild) --

    async def rebuild_history(self, games: Sequence[RatedGame]) -> None:
        await self._run(_rebuild_history, list(games))

    async def load_results(self, guild_id: str, *, game: str | None = None,
                           player: str | None = None, table_ids: Sequence[int] | None = None,
                           limit: int | None = None) -> list[Result]:
        where: list[str] = ["guild_id = ?"]
        params: list[Any] = [guild_id]
        if game is not None:
            where.append("game = ?")
            params.append(game)
        if player is not None:
            where.append("table_id IN (SELECT table_id FROM results WHERE guild_id = ? "
                         "AND player = ?)")
            params += [guild_id, player]
        if table_ids is not None:
            where.append(f"table_id IN ({', '.join('?' * len(table_ids))})")
            params += list(table_ids)
        sql = ("SELECT * FROM results WHERE " + " AND ".join(where)
               + " ORDER BY finished_at DESC, table_id DESC, slot")
        rows = await self._run(_fetchall, sql, params)
        results = [_result_from_row(r) for r in rows]
        return _first_tables(results, limit)

    async def load_ratings(self, guild_id: str, game: str) -> list[Rating]:
        rows = await self._run(_fetchall, "SELECT * FROM ratings WHERE guild_id = ? AND "
                               "game = ? ORDER BY player", (guild_id, game))
        return [rating_from_row(r) for r in rows]


# The operations themselves: plain functions of a sqlite3 connection, run on its thread.


def _check_apart(path: str) -> list[str]:
    try:
        conn = sqlite3.connect(f"{Path(path).absolute().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        return [f"integrity: the check could not open the file: {exc}"]
    try:
        return health.integrity_problems(conn)
    finally:
        conn.close()


def _fetchall(conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> list[sqlite3.Row]:
    return conn.execute(sql, params).fetchall()


def _create_table(conn: sqlite3.Connection, table: TableRecord, seats: list[SeatRecord],
                  outbox: list[OutboxRow], rider: riders.Rider | None = None) -> int:
    with _Transaction(conn):
        cursor = conn.execute(
            f"INSERT INTO tables ({TABLE_COLUMNS}) VALUES ({TABLE_PLACEHOLDERS})",
            table_values(table),
        )
        table_id = cursor.lastrowid
        assert table_id is not None
        conn.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                         [seat_values(table_id, s) for s in seats])
        insert_outbox(conn, table_id, outbox)
        if rider is not None:
            riders.born(rider, table_id)
            rider.sqlite(conn)
    return table_id


def _load_bundle(conn: sqlite3.Connection, table_id: int
                 ) -> tuple[TableRecord, list[SeatRecord], list[TimerRecord]] | None:
    # One read transaction: the row, its seats and its timers as of one moment, never a
    # row from one write and seats from the next.
    conn.execute("BEGIN")
    try:
        table = _load_table(conn, table_id)
        if table is None:
            return None
        return table, _load_seats(conn, table_id), _load_timers(conn, table_id)
    finally:
        conn.execute("COMMIT")


def _load_table(conn: sqlite3.Connection, table_id: int) -> TableRecord | None:
    row = conn.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
    return None if row is None else table_from_row(row)


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


# -- history: results and ratings ----------------------------------------------------


def _rebuild_history(conn: sqlite3.Connection, games: list[RatedGame]) -> None:
    with _Transaction(conn):
        conn.execute("DELETE FROM results")
        conn.execute("DELETE FROM ratings")
        for game in sorted(games, key=lambda g: (g.finished_at, g.table_id)):
            settle_game(conn, game)


def _result_from_row(r: sqlite3.Row) -> Result:
    return Result(r["table_id"], r["slot"], r["guild_id"], r["game"], r["player"], r["name"],
                  bool(r["is_bot"]), r["rank"], r["score"], r["finished_at"],
                  r["started_at"], r["versions"], r["unrated"], r["mu_before"],
                  r["sigma_before"], r["mu"], r["sigma"])


def _first_tables(results: list[Result], limit: int | None) -> list[Result]:
    """The rows of the first ``limit`` tables (rows come grouped by table)."""
    if limit is None:
        return results
    kept: list[Result] = []
    tables: set[int] = set()
    for r in results:
        if r.table_id not in tables:
            if len(tables) == limit:
                break
            tables.add(r.table_id)
        kept.append(r)
    return kept
