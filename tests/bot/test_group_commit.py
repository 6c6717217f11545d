"""Group commit (issue 25): the saves of many tables arriving together go into one
transaction (SQLite, PostgreSQL), each in a savepoint, acknowledged only once that
transaction committed; a save refused is refused alone, a storage fault fails the batch
and writes nothing."""

from __future__ import annotations

import asyncio
import dataclasses
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from conftest import HOST, PLAYERS, new_table

from bot.clock import FakeClock
from bot.service import MemoryNotifier, TableService
from bot.store import SqliteStore, VersionConflict, open_store, pg_writes, sqlite, sqlite_save
from bot.store.health import StorageError
from bot.store.pg_group import PgGroupCommit
from bot.store.sqlite_save import Call


@pytest.fixture
def batches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many saves each transaction of the group commit held."""
    sizes: list[int] = []
    real = sqlite_save.write_many

    def counted(conn: sqlite3.Connection, calls: list[Call], synced: bool = True) -> list[Any]:
        sizes.append(sum(fn is sqlite_save.write_save for fn, _ in calls))
        return real(conn, calls, synced)

    monkeypatch.setattr(sqlite_save, "write_many", counted)
    return sizes


async def first_moves(service: TableService, tables: list[int]) -> None:
    async def move(table: int) -> None:
        prompt = await service.prompt(table, PLAYERS[0])
        await service.act(table, PLAYERS[0], prompt.options[0].json, version=prompt.version)
    await asyncio.gather(*(move(t) for t in tables))


async def test_many_tables_acting_at_once_share_transactions_and_all_land(
        db_path: Path, clock: FakeClock, batches: list[int]) -> None:
    store = await SqliteStore.open(db_path)
    service = TableService(store, MemoryNotifier(), clock=clock)
    tables = [await new_table(service, humans=2) for _ in range(12)]
    before = len(batches)
    await first_moves(service, tables)
    moved = [n for n in batches[before:] if n]
    # Twelve saves (and whatever the bots' replies add) in fewer transactions: the first
    # went alone while the others gathered behind it.
    assert sum(moved) >= 12 and len(moved) < sum(moved) and max(moved) > 1
    await store.close()
    # Every acknowledged move is in the file, read by a new connection.
    reopened = await SqliteStore.open(db_path)
    try:
        for table in tables:
            actions = await reopened.load_actions(table)
            assert [a.seat for a in actions][:1] == [0]
    finally:
        await reopened.close()


async def test_a_stale_save_is_refused_alone(db_path: Path, clock: FakeClock,
                                             batches: list[int]) -> None:
    store = await SqliteStore.open(db_path)
    service = TableService(store, MemoryNotifier(), clock=clock)
    try:
        tables = [await new_table(service, humans=2) for _ in range(2)]
        records = [await store.load_table(t) for t in tables]
        assert all(r is not None for r in records)
        a, b = (r for r in records if r is not None)
        old_b = dataclasses.replace(b, rev=b.rev - 1, locale="fr")  # a copy read earlier
        new_a = dataclasses.replace(a, locale="fr")
        results = await asyncio.gather(store.save(new_a), store.save(old_b),
                                       return_exceptions=True)
        assert results[0] == [] and isinstance(results[1], VersionConflict)
        assert batches[-1] == 2 or batches[-2:] == [1, 1]
        assert (await store.load_table(a.id)).locale == "fr"  # type: ignore[union-attr]
        assert (await store.load_table(b.id)).locale == "en"  # type: ignore[union-attr]
    finally:
        await service.close()
        await store.close()


async def test_a_storage_fault_fails_the_whole_batch_and_writes_nothing(
        db_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    store = await SqliteStore.open(db_path)
    service = TableService(store, MemoryNotifier(), clock=clock)
    try:
        tables = [await new_table(service, humans=2) for _ in range(3)]
        records = [await store.load_table(t) for t in tables]
        real = sqlite_save.write_save

        def full_disk_on_the_last(conn: sqlite3.Connection, table: Any, *args: Any) -> None:
            real(conn, table, *args)
            if table.id == tables[-1]:
                raise sqlite3.OperationalError("database or disk is full")

        monkeypatch.setattr(sqlite_save, "write_save", full_disk_on_the_last)
        monkeypatch.setattr(sqlite, "write_save", full_disk_on_the_last)
        changed = [dataclasses.replace(r, locale="fr") for r in records if r is not None]
        results: list[Any] = await asyncio.gather(*(store.save(r) for r in changed),
                                                  return_exceptions=True)
        faults = [r for r in results if isinstance(r, StorageError)]
        # The first save may have committed alone before the others gathered; every
        # save in the faulty batch is refused, and none of them was written.
        assert faults and results[-1] in faults
        for record, result in zip(changed, results, strict=True):
            stored = await store.load_table(record.id)
            assert stored is not None
            assert stored.locale == ("en" if result in faults else "fr")
        monkeypatch.setattr(sqlite, "write_save", real)
        again = await store.load_table(tables[-1])
        assert again is not None
        await store.save(dataclasses.replace(again, locale="fr"))  # the store goes on
        assert (await store.load_table(tables[-1])).locale == "fr"  # type: ignore[union-attr]
    finally:
        await service.close()
        await store.close()


async def test_a_lone_save_on_an_idle_store_commits_alone(
        db_path: Path, clock: FakeClock, batches: list[int]) -> None:
    store = await SqliteStore.open(db_path)
    service = TableService(store, MemoryNotifier(), clock=clock)
    try:
        table = await new_table(service, humans=2)
        before = len(batches)
        await service.pause(table, HOST)
        assert [n for n in batches[before:] if n] == [1]
    finally:
        await service.close()
        await store.close()


async def test_postgres_groups_concurrent_saves_and_refuses_a_stale_one_alone(
        pg_server: Any, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    sizes: list[int] = []
    real = PgGroupCommit._together

    async def counted(self: PgGroupCommit, calls: list[Any]) -> list[Any]:
        sizes.append(sum(fn is pg_writes.write_save for fn, _, _ in calls))
        return await real(self, calls)

    monkeypatch.setattr(PgGroupCommit, "_together", counted)
    name = await pg_server.new_database()
    store = await open_store(pg_server.url_of(name))
    service = TableService(store, MemoryNotifier(), clock=clock)
    try:
        tables = [await new_table(service, humans=2) for _ in range(10)]
        before = len(sizes)
        await first_moves(service, tables)
        moved = [n for n in sizes[before:] if n]
        assert sum(moved) >= 10 and max(moved) > 1
        records = [await store.load_table(t) for t in tables[:2]]
        a, b = (r for r in records if r is not None)
        results = await asyncio.gather(
            store.save(dataclasses.replace(a, locale="fr")),
            store.save(dataclasses.replace(b, rev=b.rev - 1, locale="fr")),
            return_exceptions=True)
        assert results[0] == [] and isinstance(results[1], VersionConflict)
        assert (await store.load_table(a.id)).locale == "fr"  # type: ignore[union-attr]
        assert (await store.load_table(b.id)).locale == "en"  # type: ignore[union-attr]
        for table in tables:
            assert [x.seat for x in await store.load_actions(table)][:1] == [0]
    finally:
        await service.close()
        await store.close()
        await pg_server.drop_database(name)
