"""Buckets shared out between processes whose number does not divide them (bot/service/
leasing.py): 3 processes over 64 buckets. Every bucket has an owner, none has two, and
the shares are even. The processes refresh in turn over one store (SQLite here: the
lease calls are the same on PostgreSQL, tests/bot/test_leases.py)."""

from __future__ import annotations

import itertools
from typing import Any, cast

import pytest

from bot.service.leasing import BUCKETS, TableLeases, bucket_of
from bot.store import Store

TTL = 30.0


async def settle(store: Store, processes: list[TableLeases], start: float = 0.0
                 ) -> float:
    """Refresh every process in turn, a second apart, until a whole round changes
    nothing; the time of the last round."""
    now = start
    for _ in range(10):
        changed = False
        for leases in processes:
            change = await leases.refresh(store, now)
            changed = changed or bool(change.gained or change.lost)
            now += 1.0
        if not changed:
            return now
    raise AssertionError("the leases never settled")


def assert_partition(processes: list[TableLeases], buckets: int = BUCKETS) -> None:
    held = [leases.held for leases in processes]
    for a, b in itertools.combinations(held, 2):
        assert a.isdisjoint(b), sorted(a & b)  # no bucket twice
    assert set().union(*held) == set(range(buckets))  # every bucket owned


@pytest.mark.parametrize("order", [(0, 1, 2), (2, 0, 1), (1, 2, 0)])
async def test_three_processes_own_every_one_of_64_buckets_once(
        store: Store, order: tuple[int, int, int]) -> None:
    processes = [TableLeases(f"p{i}", ttl=TTL) for i in order]
    now = await settle(store, processes)
    assert_partition(processes)
    # Each table is acted on by exactly one of them.
    for table in range(1, 3 * BUCKETS):
        owners = [p.owner for p in processes if p.owns(table, now)]
        assert len(owners) == 1, (table, owners)
        assert bucket_of(table) in next(p.held for p in processes if p.owner == owners[0])
    # The store agrees: each bucket's lease is held by the process that thinks it is.
    leases = {lease.name: lease.owner for lease in await store.load_leases()
              if lease.name.startswith("bucket:") and lease.held_at(now)}
    assert leases == {f"bucket:{b}": p.owner for p in processes for b in p.held}


@pytest.mark.parametrize("count", [3, 5, 6, 7])
async def test_any_number_of_processes_leaves_no_bucket_without_an_owner(
        store: Store, count: int) -> None:
    processes = [TableLeases(f"p{i}", ttl=TTL) for i in range(count)]
    await settle(store, processes)
    assert_partition(processes)


async def test_a_process_that_leaves_hands_its_share_to_the_other_two(store: Store) -> None:
    processes = [TableLeases(f"p{i}", ttl=TTL) for i in range(3)]
    now = await settle(store, processes)
    await processes[1].release_all(store, now)
    del processes[1]
    # Its member lease is gone with the rest: two members now, 32 each.
    await settle(store, processes, now)
    assert_partition(processes)
    assert sorted(len(p.held) for p in processes) == [BUCKETS // 2, BUCKETS // 2]


@pytest.mark.parametrize("count", [3, 7])
async def test_the_shares_of_processes_that_do_not_divide_the_buckets_differ_by_one_at_most(
        store: Store, count: int) -> None:
    processes = [TableLeases(f"p{i}", ttl=TTL) for i in range(count)]
    await settle(store, processes)
    sizes = [len(p.held) for p in processes]
    assert sum(sizes) == BUCKETS
    assert max(sizes) - min(sizes) <= 1, sizes


class RacingStore:
    """The store, with another process taking ``bucket`` between the moment a refresh
    read the leases and the moment it asks for that one (once)."""

    def __init__(self, store: Store, bucket: int) -> None:
        self.store = store
        self.bucket = bucket
        self.raced = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    async def acquire_lease(self, name: str, owner: str, now: float, ttl: float) -> Any:
        if name == f"bucket:{self.bucket}" and owner != "rival" and not self.raced:
            self.raced = True
            assert await self.store.acquire_lease(name, "rival", now, ttl) is not None
        return await self.store.acquire_lease(name, owner, now, ttl)


async def test_a_bucket_lost_in_a_race_is_not_counted_as_held(store: Store) -> None:
    racing = RacingStore(store, bucket=5)
    leases = TableLeases("p0", ttl=TTL)
    await leases.refresh(cast(Store, racing), 0.0)
    assert racing.raced
    assert 5 not in leases.held and len(leases.held) == BUCKETS - 1
    owners = {lease.name: lease.owner for lease in await store.load_leases()}
    assert owners["bucket:5"] == "rival"
    assert not leases.owns(5, 1.0) and leases.owns(6, 1.0)
    # While the rival's lease runs, the bucket stays its own; the rival never renews it,
    # and once that lease has run out the bucket is taken up.
    await leases.refresh(store, TTL / 3)
    assert 5 not in leases.held and len(leases.held) == BUCKETS - 1
    await leases.refresh(store, TTL + 1.0)
    assert leases.held == set(range(BUCKETS))
