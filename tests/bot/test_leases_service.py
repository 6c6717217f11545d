"""Several services on one PostgreSQL: each table's deadlines, bot turns and outbox are
done by exactly one of them (the lease holder), a dead one's tables are taken over once
its leases have expired, and what fell due meanwhile is fired once."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from conftest import HOST, PLAYERS, RenderingNotifier, new_table
from store_backends import postgres_only

from bot.clock import FakeClock
from bot.service import TableService
from bot.service.leasing import BUCKETS, bucket_of
from bot.store import Store, open_store

DAY = 24 * 3600.0
TTL = 30.0

pytestmark = postgres_only


@pytest.fixture
async def second_store(db_url: str) -> AsyncIterator[Store]:
    s = await open_store(db_url)
    yield s
    await s.close()


def shared(store: Store, clock: FakeClock, owner: str) -> tuple[TableService,
                                                                 RenderingNotifier]:
    notifier = RenderingNotifier()
    service = TableService(store, notifier, clock=clock)
    service.share(owner, ttl=TTL)
    return service, notifier


async def test_two_processes_share_the_buckets_and_each_table_has_one_owner(
        store: Store, second_store: Store, clock: FakeClock) -> None:
    one, _ = shared(store, clock, "one")
    two, _ = shared(second_store, clock, "two")
    await one.boot()
    assert len(one.leases.held) == BUCKETS  # alone so far: everything
    tables = [await new_table(one, humans=2, seed=s) for s in range(6)]
    assert set(one.deadlines.planned) == set(tables)
    await two.boot()  # a second member: its share comes once the first gives some back
    await one.sweep()
    await two.sweep()
    assert one.leases.held.isdisjoint(two.leases.held)
    assert one.leases.held | two.leases.held == set(range(BUCKETS))
    assert len(one.leases.held) == len(two.leases.held) == BUCKETS // 2
    for table in tables:
        owners = [s for s in (one, two) if table in s.deadlines.planned]
        assert len(owners) == 1
        assert owners[0].leases.owns(table)
        assert bucket_of(table) in owners[0].leases.held


async def test_a_move_made_elsewhere_is_planned_by_the_owner(
        store: Store, second_store: Store, clock: FakeClock) -> None:
    one, _ = shared(store, clock, "one")
    two, _ = shared(second_store, clock, "two")
    # "two" first: it keeps the low buckets, where the first tables' ids fall.
    await two.boot()
    await one.boot()
    await two.sweep()
    await one.sweep()
    table = next(t for t in [await new_table(one, humans=2, seed=s) for s in range(8)]
                 if not one.leases.owns(t))
    await one.sweep()
    await two.sweep()
    assert table not in one.deadlines.planned
    before = two.deadlines.planned[table]["deadline"].version
    # The host plays through "one", which does not own the table: it plans nothing.
    await one.act_text(table, HOST, (await one.prompt(table, HOST)).options[0].text)
    assert table not in one.deadlines.planned
    await two.sweep()  # the owner learns of the new version from the database
    after = two.deadlines.planned[table]["deadline"].version
    assert after == (await two.info(table)).version and after > before


async def test_a_dead_process_tables_are_taken_over_and_fire_once(
        store: Store, second_store: Store, clock: FakeClock) -> None:
    one, _ = shared(store, clock, "one")
    two, _ = shared(second_store, clock, "two")
    await one.boot()
    await two.boot()
    await one.sweep()
    await two.sweep()
    tables = [await new_table(one, humans=2, seed=s) for s in range(8)]
    ones = [t for t in tables if one.leases.owns(t)]
    assert ones
    await two.sweep()
    # "one" dies (it stops renewing); its tables' deadlines fall due while nobody owns them.
    clock.advance(DAY + 1)
    for table in ones:
        version = one.deadlines.planned[table]["deadline"].version
        # Its job still fires (the process was only paused), but its lease has run out.
        await one.on_deadline(table, version)
        assert (await two.info(table)).version == version
    await two.sweep()  # takes the expired buckets, plans what fell due
    assert two.leases.held == set(range(BUCKETS))
    for table in ones:
        job = two.deadlines.planned[table]["deadline"]
        assert job.due_at <= clock.now()
        await two.on_deadline(table, job.version)
        await two.on_deadline(table, job.version)  # fired again: nothing more happens
        timeouts = [a for a in await store.load_actions(table) if a.source == "timeout"]
        assert sorted(a.seat for a in timeouts) == [0, 1]  # each late seat once


async def test_only_the_owner_sends_a_table_outbox(store: Store, second_store: Store,
                                                    clock: FakeClock) -> None:
    one, one_notes = shared(store, clock, "one")
    two, two_notes = shared(second_store, clock, "two")
    # "two" first: it keeps the low buckets, where the first tables' ids fall.
    await two.boot()
    await one.boot()
    await two.sweep()
    await one.sweep()
    table = next(t for t in [await new_table(one, humans=2, seed=s) for s in range(8)]
                 if not one.leases.owns(t))
    one_notes.clear()
    two_notes.clear()
    await one.act_text(table, PLAYERS[1], (await one.prompt(table, PLAYERS[1]))
                       .options[0].text)
    assert [n for n in one_notes.notes if n.table_id == table] == []
    pending = await store.load_outbox(table, states=["pending"])
    assert pending
    await one.sweep()
    assert [n for n in one_notes.notes if n.table_id == table] == []
    await two.sweep()
    sent = {n.outbox_id for n in two_notes.notes if n.table_id == table}
    assert sent == {r.id for r in pending}
    assert await store.load_outbox(table, states=["pending", "sending"]) == []


async def test_a_clean_shutdown_hands_the_tables_over_at_once(
        store: Store, second_store: Store, clock: FakeClock) -> None:
    one, _ = shared(store, clock, "one")
    two, _ = shared(second_store, clock, "two")
    await one.boot()
    await two.boot()
    await one.sweep()
    await two.sweep()
    await one.leases.release_all(store, clock.now())
    clock.advance(1)  # far less than a lease period
    await two.sweep()
    assert two.leases.held == set(range(BUCKETS))
