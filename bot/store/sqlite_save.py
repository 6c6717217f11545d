"""A table's save in SQLite: one function run on the connection's thread, and the group
commit that puts the saves arriving together into one transaction."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from bot.history.ratings import RatedGame, settle
from bot.store import riders
from bot.store.records import (
    ActionRecord,
    OutboxRow,
    SeatRecord,
    TableRecord,
    TimerRecord,
    VersionConflict,
    canonical,
)
from bot.store.sqlite_outbox import insert_claimed, insert_outbox
from bot.store.sqlite_rows import (
    TABLE_COLUMNS,
    TABLE_PLACEHOLDERS,
    rating_from_row,
    seat_values,
    table_values,
)
from bot.store.sqlite_tx import Transaction

T = TypeVar("T")


# One write of the group: a function run on the connection as ``fn(conn, *args)``.
Call = tuple[Callable[..., Any], tuple[Any, ...]]


def write_many(conn: sqlite3.Connection, calls: list[Call], synced: bool = True) -> list[Any]:
    """Every write in ONE transaction, each in a savepoint of its own: a write refused (a
    stale copy, a rider's duplicate key) is rolled back alone and its exception returned
    in its place; the others commit together, with one sync of the journal. A storage
    fault (a full disk) fails the whole transaction: it is raised, and nothing is written.

    ``synced=False`` (only writes whose loss costs nothing owed: see ``GroupCommit``):
    committed without its own sync of the journal (WAL with synchronous=NORMAL). It
    survives a crash of the process at once, and the loss of power from the next synced
    commit on, which syncs the journal it follows in."""
    outcomes: list[Any] = []
    if not synced:
        conn.execute("PRAGMA synchronous=NORMAL")
    try:
        with Transaction(conn):
            for fn, args in calls:
                conn.execute("SAVEPOINT one_write")
                try:
                    outcomes.append(fn(conn, *args))
                except (VersionConflict, sqlite3.IntegrityError) as exc:
                    conn.execute("ROLLBACK TO one_write")
                    outcomes.append(exc)
                conn.execute("RELEASE one_write")
    finally:
        if not synced:
            conn.execute("PRAGMA synchronous=FULL")
    return outcomes


class GroupCommit:
    """Writes that arrive while a commit is under way wait for it, then go together in the
    next transaction (``write_many``): with many tables busy, one sync of the journal
    serves them all (their saves, their outboxes claimed and marked), and the throughput
    passes that of one commit per write. An idle store commits a lone write at once:
    nothing waits for company. A write is acknowledged only once the transaction that
    holds it has committed.

    A write given ``synced=False`` is one whose loss to a power cut costs nothing owed:
    the outbox rows marked after their sending (lost, a row is left ``sending``, in
    doubt, and the transport looks for it before sending it again). A transaction of
    such writes alone skips its sync; one holding any other write syncs as always."""

    def __init__(self, run: Callable[..., Awaitable[Any]], *, limit: int = 256) -> None:
        self.run = run  # SqliteStore._run: a function on the connection's thread
        self.limit = limit
        self._waiting: list[tuple[Call, asyncio.Future[Any]]] = []
        self._unsynced: set[asyncio.Future[Any]] = set()
        self._task: asyncio.Task[None] | None = None

    async def write(self, fn: Callable[..., T], *args: Any, synced: bool = True) -> T:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._waiting.append(((fn, args), future))
        if not synced:
            self._unsynced.add(future)
        if self._task is None:
            self._task = loop.create_task(self._commit_all(), name="urbanist-group-commit")
        return await future

    async def _commit_all(self) -> None:
        try:
            while self._waiting:
                batch, self._waiting = (self._waiting[:self.limit],
                                        self._waiting[self.limit:])
                synced = any(f not in self._unsynced for _, f in batch)
                self._unsynced.difference_update(f for _, f in batch)
                try:
                    outcomes: list[Any] = await self.run(write_many, [c for c, _ in batch],
                                                         synced)
                except BaseException as exc:  # a storage fault: none of them landed
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(exc)
                    if not isinstance(exc, Exception):
                        raise
                    continue
                for (_, future), outcome in zip(batch, outcomes, strict=True):
                    if future.done():
                        continue
                    if isinstance(outcome, Exception):
                        future.set_exception(outcome)
                    else:
                        future.set_result(outcome)
        finally:
            self._task = None


def write_save(conn: sqlite3.Connection, table: TableRecord, expected_version: int | None,
          seats: list[SeatRecord] | None, timers: list[TimerRecord] | None,
          action: ActionRecord | None, outbox: list[OutboxRow],
          ratings: RatedGame | None = None, ride: riders.SqliteWrite | None = None,
          claim_at: float | None = None) -> list[OutboxRow]:
    # Conditional on the rev this copy was read at: a stale copy writes nothing.
    sql = (f"UPDATE tables SET ({TABLE_COLUMNS}) = ({TABLE_PLACEHOLDERS}), "
           "rev = rev + 1 WHERE id = ? AND rev = ?")
    params: tuple[Any, ...] = (*table_values(table), table.id, table.rev)
    if expected_version is not None:
        sql += " AND version = ?"
        params += (expected_version,)
    if conn.execute(sql, params).rowcount != 1:
        raise VersionConflict(f"table {table.id} changed since it was read "
                              f"(rev {table.rev}, version {expected_version})")
    if seats is not None:
        conn.execute("DELETE FROM seats WHERE table_id = ?", (table.id,))
        conn.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                         [seat_values(table.id, s) for s in seats])
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
    # The delivery worker's claim, in this transaction rather than one of its own: one
    # sync of the journal an action instead of two (see ``Store.save``).
    claimed: list[OutboxRow] = []
    if claim_at is None:
        insert_outbox(conn, table.id, outbox)
    else:
        claimed = insert_claimed(conn, table.id, outbox, claim_at)
    if ratings is not None:
        settle_game(conn, ratings)
    if ride is not None:
        ride(conn)  # a front end's rows, in this transaction (bot.store.riders)
    return claimed


def settle_game(conn: sqlite3.Connection, game: RatedGame) -> None:
    """The history rows and new ratings of one finished table, from the ratings as they
    are in this transaction (so two tables finishing at once never lose an update)."""
    decisions: dict[int, dict[str, int]] = {}
    for seat, source, count in conn.execute(
            "SELECT seat, source, COUNT(*) FROM actions WHERE table_id = ? "
            "GROUP BY seat, source", (game.table_id,)):
        decisions.setdefault(int(seat), {})[str(source)] = int(count)
    players = sorted({c.player for c in game.competitors})
    current = {r.player: r for r in (rating_from_row(row) for row in conn.execute(
        f"SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND player IN "
        f"({', '.join('?' * len(players))})", (game.guild_id, game.game, *players)))}
    done = settle(game, decisions, current)
    conn.executemany(
        "INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(r.table_id, r.slot, r.guild_id, r.game, r.player, r.name, int(r.is_bot), r.rank,
          r.score, r.finished_at, r.started_at, r.versions, r.unrated, r.mu_before,
          r.sigma_before, r.mu, r.sigma) for r in done.results])
    conn.executemany(
        "INSERT OR REPLACE INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(game.guild_id, game.game, r.player, r.name, int(r.is_bot), r.mu, r.sigma, r.games,
          r.updated_at) for r in done.ratings])
