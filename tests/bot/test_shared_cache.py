"""Beside other processes (``TableService.share``) a cached table serves only while the
database's ``rev`` is the copy's: the table's rows are not read and its state not parsed
at every request (issue 25), and a write by another process is never hidden."""

from __future__ import annotations

from conftest import HOST, PLAYERS, new_table

from bot.clock import FakeClock
from bot.service import MemoryNotifier, TableService
from bot.store import Store

BACKENDS = ("sqlite", "postgres")


def count_loads(store: Store) -> list[int]:
    loads: list[int] = []
    real = store.load_bundle

    async def counted(table_id: int) -> object:
        loads.append(table_id)
        return await real(table_id)

    store.load_bundle = counted  # type: ignore[method-assign, assignment]
    return loads


async def test_a_shared_service_reads_a_table_again_only_when_it_changed(
        store: Store, clock: FakeClock) -> None:
    service = TableService(store, MemoryNotifier(), clock=clock)
    service.share("p1")
    table = await new_table(service, humans=2)
    loads = count_loads(store)
    first = await service.info(table)
    assert (await service.info(table)).version == first.version
    prompt = await service.prompt(table, HOST)
    assert loads.count(table) <= 1  # read once at most, then served from the cache
    # Another process (a second service on the same database) moves the table on.
    other = TableService(store, MemoryNotifier(), clock=clock)
    other.share("p2")
    await other.act(table, HOST, prompt.options[0].json, version=prompt.version)
    before = len(loads)
    moved = await service.info(table)
    assert moved.version == first.version + 1  # not the stale copy
    assert len(loads) == before + 1
    # And an action through the first service starts from the table as it is now.
    prompt = await service.prompt(table, PLAYERS[1])
    result = await service.act(table, PLAYERS[1], prompt.options[0].json,
                               version=prompt.version)
    assert result.version == moved.version + 1


async def test_an_unshared_service_trusts_its_cache(store: Store, clock: FakeClock) -> None:
    service = TableService(store, MemoryNotifier(), clock=clock)
    table = await new_table(service, humans=2)
    revs: list[int] = []
    real = store.table_rev

    async def counted(table_id: int) -> int | None:
        revs.append(table_id)
        return await real(table_id)

    store.table_rev = counted  # type: ignore[method-assign]
    await service.info(table)
    await service.prompt(table, HOST)
    assert revs == []  # alone on its database, nothing else writes its tables
