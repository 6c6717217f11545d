"""Leases on both backends: acquire, renew, steal after expiry, release; against a plain
model of what a lease is, and with processes racing for the same leases (PostgreSQL)."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import HOST, RenderingNotifier, new_table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from store_backends import postgres_only

from bot.clock import FakeClock
from bot.service import TableService
from bot.service.leasing import TTL_SECONDS
from bot.store import Lease, PostgresStore, SqliteStore, Store, open_store

BACKENDS = ("sqlite", "postgres")
TTL = 30.0


async def test_a_lease_is_held_renewed_then_taken_over(store: Store) -> None:
    first = await store.acquire_lease("table:1", "A", now=100.0, ttl=TTL)
    assert first == Lease("table:1", "A", 130.0, 1)
    # Held: nobody else gets it, even a moment before it ends.
    assert await store.acquire_lease("table:1", "B", now=129.9, ttl=TTL) is None
    # Its holder asking again renews it, same generation.
    assert await store.acquire_lease("table:1", "A", now=110.0, ttl=TTL) == Lease(
        "table:1", "A", 140.0, 1)
    assert await store.renew_leases("A", now=120.0, ttl=TTL) == ["table:1"]
    assert await store.acquire_lease("table:1", "B", now=149.0, ttl=TTL) is None
    # Expired (150): another process takes it, and the generation says it changed hands.
    taken = await store.acquire_lease("table:1", "B", now=150.0, ttl=TTL)
    assert taken == Lease("table:1", "B", 180.0, 2)
    # The old holder cannot renew what it lost.
    assert await store.renew_leases("A", now=151.0, ttl=TTL) == []
    assert await store.load_leases() == [taken]


async def test_an_expired_lease_is_not_renewed_but_may_be_acquired_again(store: Store) -> None:
    await store.acquire_lease("x", "A", now=0.0, ttl=TTL)
    assert await store.renew_leases("A", now=TTL, ttl=TTL) == []
    again = await store.acquire_lease("x", "A", now=TTL, ttl=TTL)
    # Granted anew after a gap: a new generation, so A knows it may have missed things.
    assert again == Lease("x", "A", 2 * TTL, 2)


async def test_stealing_takes_only_expired_leases_up_to_the_limit(store: Store) -> None:
    for i, owner in enumerate(["dead", "dead", "dead", "alive"]):
        await store.acquire_lease(f"bucket:{i}", owner, now=0.0, ttl=10.0 + i)
    # At 12.5: buckets 0 (10), 1 (11) and 2 (12) expired; 3 (13) still runs.
    stolen = await store.steal_expired_leases("me", now=12.5, ttl=TTL, limit=2)
    assert [(s.name, s.owner, s.generation) for s in stolen] == [
        ("bucket:0", "me", 2), ("bucket:1", "me", 2)]  # the longest expired first
    rest = await store.steal_expired_leases("me", now=12.5, ttl=TTL)
    assert [s.name for s in rest] == ["bucket:2"]
    assert await store.steal_expired_leases("other", now=12.5, ttl=TTL) == []
    owners = {lease.name: lease.owner for lease in await store.load_leases()}
    assert owners == {"bucket:0": "me", "bucket:1": "me", "bucket:2": "me", "bucket:3": "alive"}


async def test_release_hands_leases_over_at_once(store: Store) -> None:
    for name in ("a", "b", "c"):
        await store.acquire_lease(name, "A", now=0.0, ttl=TTL)
    assert await store.release_leases("A", now=5.0, names=["b"]) == 1
    assert await store.acquire_lease("b", "B", now=5.0, ttl=TTL) is not None
    assert await store.release_leases("A", now=6.0) == 2
    stolen = await store.steal_expired_leases("B", now=6.0, ttl=TTL)
    assert [s.name for s in stolen] == ["a", "c"]
    assert await store.release_leases("A", now=7.0) == 0  # nothing left to give up


# -- the model ----------------------------------------------------------------------------


@dataclass
class Model:
    """What a lease is, in a few lines: the reference the stores are checked against."""

    leases: dict[str, Lease]

    def acquire(self, name: str, owner: str, now: float) -> Lease | None:
        old = self.leases.get(name)
        if old is not None and old.owner != owner and now < old.expires_at:
            return None
        renewal = old is not None and old.owner == owner and now < old.expires_at
        generation = 1 if old is None else old.generation + (0 if renewal else 1)
        self.leases[name] = Lease(name, owner, now + TTL, generation)
        return self.leases[name]

    def renew(self, owner: str, now: float) -> list[str]:
        names = sorted(n for n, v in self.leases.items() if v.owner == owner
                       and now < v.expires_at)
        for n in names:
            self.leases[n] = Lease(n, owner, now + TTL, self.leases[n].generation)
        return names

    def steal(self, owner: str, now: float) -> list[Lease]:
        names = sorted(n for n, v in self.leases.items() if v.expires_at <= now)
        for n in names:
            self.leases[n] = Lease(n, owner, now + TTL, self.leases[n].generation + 1)
        return [self.leases[n] for n in names]

    def release(self, owner: str, now: float) -> int:
        names = [n for n, v in self.leases.items() if v.owner == owner and now < v.expires_at]
        for n in names:
            self.leases[n] = Lease(n, owner, now, self.leases[n].generation)
        return len(names)


Step = tuple[str, str, str, float]
steps = st.lists(st.tuples(st.sampled_from(["acquire", "renew", "steal", "release"]),
                           st.sampled_from(["a", "b", "c"]), st.sampled_from(["P", "Q", "R"]),
                           st.floats(0.0, 25.0)), min_size=1, max_size=25)
_runs = itertools.count()


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(script=steps)
async def test_the_store_behaves_like_the_model(db_url: str, script: list[Step]) -> None:
    # One store for all examples: each example's leases have names of their own.
    prefix = f"run{next(_runs)}:"
    store = await open_store(db_url)
    try:
        model = Model({})
        now = 0.0
        for op, name, owner, delay in script:
            now += delay
            if op == "acquire":
                assert (await store.acquire_lease(prefix + name, owner, now, TTL)
                        == _prefixed(model.acquire(name, owner, now), prefix))
            elif op == "renew":
                renewed = [n for n in await store.renew_leases(owner, now, TTL)
                           if n.startswith(prefix)]
                assert renewed == [prefix + n for n in model.renew(owner, now)]
            elif op == "steal":
                stolen = [s for s in await store.steal_expired_leases(owner, now, TTL)
                          if s.name.startswith(prefix)]
                assert stolen == [_prefixed(s, prefix) for s in model.steal(owner, now)]
            else:
                names = [n for n in "abc" if prefix + n in
                         {lease.name for lease in await store.load_leases()}]
                released = await store.release_leases(owner, now, [prefix + n for n in names])
                assert released == model.release(owner, now)
        mine = [lease for lease in await store.load_leases() if lease.name.startswith(prefix)]
        assert mine == [_prefixed(model.leases[n], prefix) for n in sorted(model.leases)]
    finally:
        await store.close()


def _prefixed(lease: Lease | None, prefix: str) -> Lease | None:
    if lease is None:
        return None
    return Lease(prefix + lease.name, lease.owner, lease.expires_at, lease.generation)


# -- processes racing (PostgreSQL: real concurrent connections) ---------------------------


@postgres_only
async def test_of_processes_racing_for_a_lease_exactly_one_gets_it(db_url: str) -> None:
    stores = [await PostgresStore.open(db_url, max_size=2) for _ in range(6)]
    try:
        for round_ in range(5):
            now = round_ * 100.0  # each round: the last holder's lease has expired
            granted = await asyncio.gather(*(
                s.acquire_lease("table:7", f"p{i}", now, TTL) for i, s in enumerate(stores)))
            winners = [g for g in granted if g is not None]
            assert len(winners) == 1 and winners[0].generation == round_ + 1
    finally:
        for s in stores:
            await s.close()


@postgres_only
async def test_processes_stealing_at_once_share_out_a_dead_ones_leases(db_url: str) -> None:
    stores = [await PostgresStore.open(db_url, max_size=2) for _ in range(4)]
    try:
        names = [f"table:{i}" for i in range(200)]
        for name in names:
            await stores[0].acquire_lease(name, "dead", 0.0, 10.0)
        stolen = await asyncio.gather(*(
            s.steal_expired_leases(f"p{i}", 10.0, TTL, limit=60)
            for i, s in enumerate(stores)))
        taken = [lease.name for batch in stolen for lease in batch]
        # Each lease to exactly one process; with a limit of 60 each, all 200 go out
        # once nobody takes the same ones (SKIP LOCKED lets them pass each other by).
        assert len(taken) == len(set(taken))
        more = await stores[0].steal_expired_leases("p0", 10.0, TTL)
        assert sorted(taken + [lease.name for lease in more]) == sorted(names)
        assert {lease.owner for lease in await stores[0].load_leases()} <= {
            "p0", "p1", "p2", "p3"}
    finally:
        for s in stores:
            await s.close()


@pytest.mark.parametrize("ttl", [0.0, -1.0])
async def test_a_lease_with_no_time_is_never_held(store: Store, ttl: float) -> None:
    granted = await store.acquire_lease("z", "A", now=5.0, ttl=ttl)
    assert granted is not None and not granted.held_at(5.0)
    assert await store.acquire_lease("z", "B", now=5.0, ttl=TTL) is not None


async def test_sharing_takes_the_lease_time_asked_for_or_the_default(store: Store) -> None:
    service = TableService(store, RenderingNotifier(), clock=FakeClock())
    assert not service.leases.shared  # alone until told otherwise
    service.share("worker-a", ttl=5)
    assert service.leases.shared and service.leases.owner == "worker-a"
    assert service.leases.ttl == 5 and service.leases.period == 5 / 3
    service.share("worker-b")
    assert service.leases.owner == "worker-b" and service.leases.ttl == TTL_SECONDS != 5


async def test_a_shared_process_reads_every_table_anew(db_path: Path, clock: FakeClock) -> None:
    # Another process may have written any table since: a process beside others keeps
    # no table in memory between two calls.
    mine, theirs = await SqliteStore.open(db_path), await SqliteStore.open(db_path)
    try:
        here = TableService(mine, RenderingNotifier(), clock=clock)
        here.share("here")
        there = TableService(theirs, RenderingNotifier(), clock=clock)
        table = await new_table(there, humans=2)
        seen = (await here.info(table)).version
        prompt = await there.prompt(table, HOST)
        await there.act(table, HOST, prompt.options[0].json, version=prompt.version)
        assert (await here.info(table)).version > seen
    finally:
        await mine.close()
        await theirs.close()
