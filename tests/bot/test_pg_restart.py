"""The PostgreSQL store across a real restart of its server: whatever a call meets (a
connection cut mid-statement, no server at all, a connection whose protocol is out of
step after the server's goodbye), it raises the store's StorageError, never asyncpg's
own errors; a connection that failed halfway is dropped, never lent again; and once the
server is back the same store works, without being reopened."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg
import pytest
from store_backends import PgRestarter as Restarter

from bot.store import PostgresStore, Store, TableRecord, VersionConflict, open_store
from bot.store.health import StorageError

BACKENDS = ("postgres",)
ATTEMPTS = 400  # calls allowed for the store to find the server back, 50 ms apart


def _table() -> TableRecord:
    return TableRecord(game="fakepicks", options={"rounds": 2}, seed=5, host_id="u0",
                       max_seats=4, created_at=1.0, updated_at=1.0)


async def _storage_error(call: Awaitable[Any]) -> StorageError:
    with pytest.raises(StorageError) as raised:
        await call
    return raised.value


async def _wait_for_lock_waiter(admin: asyncpg.Connection[asyncpg.Record]) -> None:
    for _ in range(ATTEMPTS):
        if await admin.fetchval("SELECT count(*) FROM pg_stat_activity WHERE "
                                "datname = current_database() AND wait_event_type = 'Lock'"):
            return
        await asyncio.sleep(0.05)
    pytest.fail("the write never reached the row lock")


async def test_calls_across_a_server_restart_raise_only_storage_errors_and_the_store_recovers(
        store: Store, db_url: str, pg_restarter: Restarter) -> None:
    assert isinstance(store, PostgresStore)
    table_id = await store.create_table(_table(), [])
    # Several idle connections in the pool, as a bot's pool has between clicks.
    await asyncio.gather(*(store.load_table(table_id) for _ in range(4)))
    record = await store.load_table(table_id)
    assert record is not None

    admin = await asyncpg.connect(db_url)
    try:
        # A write in flight when the server goes: it waits on a row lock held here.
        await admin.execute("BEGIN")
        await admin.execute("SELECT 1 FROM tables WHERE id = $1 FOR UPDATE", table_id)
        in_flight = asyncio.create_task(store.save(dataclasses.replace(record)))
        await _wait_for_lock_waiter(admin)

        # Stopped without letting the event loop run: the server's goodbye waits unread
        # in every connection's socket, as it does in a bot busy elsewhere. Two turns of
        # the loop then read it but not yet the end of the socket: a connection taken
        # now is open but out of step (asyncpg's InternalClientError, "another operation
        # is in progress"), the moment the issue's error came from.
        pg_restarter.stop()
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        calls: list[Callable[[], Awaitable[Any]]] = [
            lambda: store.load_table(table_id),
            lambda: store.save(dataclasses.replace(record)),
            lambda: store.claim_outbox(table_id, 10.0),
            lambda: store.acquire_lease("bucket-1", "me", 10.0, 30.0),
            lambda: store.load_outbox(table_id),
            store.integrity_check,
        ]
        faults = [await _storage_error(call()) for call in calls]
        faults.append(await _storage_error(in_flight))
        assert {f.code for f in faults} <= {"io_error", "cannot_open"}, faults
        assert all(f.path == store.where for f in faults)
    finally:
        admin.terminate()

    pg_restarter.start()
    for _ in range(ATTEMPTS):
        try:
            found = await store.load_table(table_id)
            break
        except StorageError:  # a connection that has not yet noticed the restart
            await asyncio.sleep(0.05)
    else:
        pytest.fail("the store never found the server back")
    # Back for good, on the same store: reads, a write, and the outbox and leases.
    assert found is not None and found.rev == record.rev
    await store.save(found)
    assert found.rev == record.rev + 1
    await asyncio.gather(*(store.load_table(table_id) for _ in range(8)))
    assert await store.claim_outbox(table_id, 10.0) == []
    assert await store.acquire_lease("bucket-1", "me", 10.0, 30.0) is not None
    assert await store.integrity_check() == []
    reread = await store.load_table(table_id)
    assert reread is not None and reread.rev == record.rev + 1


async def _backend_pid(store: PostgresStore) -> int:
    async with store._connection() as conn:
        pid: int = await conn.fetchval("SELECT pg_backend_pid()")
    return pid


async def test_a_connection_out_of_step_is_dropped_and_an_answered_error_keeps_it(
        db_url: str) -> None:
    """One connection in the pool, so that reuse is seen: after an error that may leave
    the protocol mid-message, the next operation runs on a new server backend; after
    the server's ordinary answer (a conflict), on the same one."""
    store = await PostgresStore.open(db_url, min_size=1, max_size=1)
    try:
        first = await _backend_pid(store)
        table_id = await store.create_table(_table(), [])
        stale = await store.load_table(table_id)
        assert stale is not None
        await store.save(dataclasses.replace(stale))
        with pytest.raises(VersionConflict):
            await store.save(stale)
        assert await _backend_pid(store) == first

        with pytest.raises(StorageError) as raised:
            async with store._connection() as conn:
                await conn.fetchval("SELECT 1")
                # What asyncpg raises when a message arrives that its state does not
                # expect (see the restart test for the real thing).
                raise asyncpg.InternalClientError(
                    "cannot switch to state 12; another operation (2) is in progress")
        assert raised.value.code == "io_error"
        assert "another operation" in raised.value.message
        assert await _backend_pid(store) != first
        assert await store.load_table(table_id) is not None
    finally:
        await store.close()


async def test_closing_a_store_whose_server_is_gone_is_quiet(
        db_url: str, pg_restarter: Restarter) -> None:
    store = await open_store(db_url)
    assert isinstance(store, PostgresStore)
    await asyncio.gather(*(store.load_outbox() for _ in range(3)))
    pg_restarter.stop()
    try:
        await store.close()
    finally:
        pg_restarter.start()
