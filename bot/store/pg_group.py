"""Group commit for PostgreSQL: the writes of many tables arriving together (their saves,
their outboxes claimed and marked) share one transaction on one pooled connection, so
one commit (one sync of the server's log) serves them all.

As in SQLite (``bot.store.sqlite_save``): a write is acknowledged only once the
transaction holding it committed; a write refused (a stale copy, a duplicate key) is
refused alone. A save is one statement that writes nothing when its copy is stale
(``bot.store.pg_save``), so that refusal needs no savepoint; a write whose later
statements may be refused (a rider's duplicate key) is rolled back to its savepoint.
Unlike SQLite, two transactions of this process (or of another) may wait on each other's
rows: when a batch fails for any reason but a lost connection (a deadlock the server
broke, a statement refused), each of its writes is run again alone, in its own
transaction, and gets its own answer. A lost connection leaves every write of the batch
in doubt: each caller gets the fault, and the service reads its table back to learn
whether it landed (``ServiceCore._landed``)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import asyncpg

from bot.store.health import StorageError
from bot.store.pg_schema import Connection
from bot.store.records import VersionConflict

T = TypeVar("T")
Write = Callable[..., Awaitable[Any]]  # ``await fn(conn, *args)`` inside a transaction
# A write, its arguments, and whether it needs a savepoint to be refused alone: one whose
# statements after the first may be refused (a duplicate key) pays for one (two more
# round trips to the server).
Call = tuple[Write, tuple[Any, ...], bool]
Connect = Callable[[], contextlib.AbstractAsyncContextManager[Connection]]
# Refusals that belong to one write, not to its batch.
ALONE = (VersionConflict, asyncpg.UniqueViolationError, asyncpg.ForeignKeyViolationError)


class PgGroupCommit:
    def __init__(self, connect: Connect, *, batches: int = 4, limit: int = 128) -> None:
        self.connect = connect  # PostgresStore._connection: faults typed as StorageError
        self.batches = batches  # transactions in flight at once, each on its connection
        self.limit = limit
        self._waiting: list[tuple[Call, asyncio.Future[Any]]] = []
        self._running = 0

    async def write(self, fn: Callable[..., Awaitable[T]], *args: Any,
                    refusable: bool = True) -> T:
        """``refusable``: the write may raise one of ``ALONE`` as its answer after it
        wrote something, and runs in a savepoint. The others are ONE round trip, atomic
        on its own (one statement, or asyncpg's ``executemany``), and run without one:
        an error of theirs breaks the transaction and sends the batch to be run write by
        write, except a VersionConflict, which a write raises only when it wrote nothing
        (a save's statement that matched no row). Alone in its batch, such a write runs
        in the server's own transaction of that statement, with no BEGIN and COMMIT
        besides: acknowledged, as ever, once the server said it committed."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._waiting.append(((fn, args, refusable), future))
        if self._running < self.batches:
            self._running += 1
            asyncio.get_running_loop().create_task(self._drain(), name="urbanist-pg-group")
        return await future

    async def _drain(self) -> None:
        try:
            while self._waiting:
                batch, self._waiting = (self._waiting[:self.limit],
                                        self._waiting[self.limit:])
                await self._commit(batch)
        finally:
            self._running -= 1

    async def _commit(self, batch: list[tuple[Call, asyncio.Future[Any]]]) -> None:
        try:
            outcomes = await self._together([c for c, _ in batch])
        except StorageError as fault:
            if fault.code == "io_error" or len(batch) == 1:
                _settle(batch, [fault] * len(batch))
                return
            outcomes = [await self._alone(call) for call, _ in batch]
        except Exception as exc:
            if len(batch) == 1:  # its own answer (a stale copy, a bug): no retry
                _settle(batch, [exc])
                return
            outcomes = [await self._alone(call) for call, _ in batch]
        except BaseException as exc:
            _settle(batch, [exc] * len(batch))
            raise
        _settle(batch, outcomes)

    async def _together(self, calls: list[Call]) -> list[Any]:
        if len(calls) == 1 and not calls[0][2]:
            fn, args, _ = calls[0]
            async with self.connect() as conn:
                try:
                    return [await fn(conn, *args)]
                except VersionConflict as exc:
                    return [exc]
        outcomes: list[Any] = []
        async with self.connect() as conn, conn.transaction():
            for fn, args, refusable in calls:
                if not refusable or len(calls) == 1:
                    # Alone, the transaction itself is the savepoint: a refusal rolls
                    # back exactly this write.
                    try:
                        outcomes.append(await fn(conn, *args))
                    except VersionConflict as exc:  # nothing written: nothing to undo
                        outcomes.append(exc)
                    continue
                try:
                    async with conn.transaction():  # a savepoint
                        outcomes.append(await fn(conn, *args))
                except ALONE as exc:
                    outcomes.append(exc)
        return outcomes

    async def _alone(self, call: Call) -> Any:
        fn, args, _ = call
        try:
            async with self.connect() as conn, conn.transaction():
                return await fn(conn, *args)
        except Exception as exc:
            return exc


def _settle(batch: list[tuple[Call, asyncio.Future[Any]]], outcomes: list[Any]) -> None:
    for (_, future), outcome in zip(batch, outcomes, strict=True):
        if future.done():
            continue
        if isinstance(outcome, BaseException):
            future.set_exception(outcome)
        else:
            future.set_result(outcome)
