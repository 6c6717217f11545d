"""Throughput of one process with many tables busy at once (issue 25), one line per figure.

    python benchmarks/throughput.py [--tables 100] [--seconds 3] [--rounds 3]
                                    [--game ginkgopolis] [--seats 4] [--postgres]

``--tables`` 4-player tables (random players, every action a durable commit, SQLite file,
WAL, synchronous=FULL) are played at once in one process for ``--seconds``; then the
floor, a bare sqlite3 file with the same pragmas, commits the very bytes those actions
wrote (action, snapshot, outbox rows), one transaction after another, for as long. The
two take turns ``--rounds`` times, so a busy moment of the machine weighs on both.

- actions_per_second: the service's durable actions per wall second, median of rounds;
- raw_serial_commits_per_second: the floor's, median of rounds;
- throughput_ratio: the first over the second, per round, median (goal: 0.5 or more;
  the group commit lets the service pass one commit per action);
- cpu_per_action: the process's CPU seconds per service action, median of rounds;
With ``--postgres``, the same on a PostgreSQL server started by ``pgserver`` (fsync and
synchronous_commit on); the floor is a pool of 10 connections (the store's pool size),
each committing those bytes one transaction after another, all at once.

The collector is tuned as the bot tunes it once booted (``bot/gc_tuning.py``), unless
``--default-gc``.

- writes_per_transaction: how many writes (saves, outbox claims and marks) the group
  commit put in each transaction.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import asyncpg
from random_play import new_table
from service import NullNotifier, SqliteFloor, Written, emit, spy_on_saves

from bot.service import Actor, TableService
from bot.store import SqliteStore, Store, open_store

try:  # the group commit, absent from an older checkout (--repo)
    from bot.store import pg_group, sqlite_save
except ImportError:
    pg_group = sqlite_save = None  # type: ignore[assignment]
from engine.core import Rng

try:  # absent from an older checkout (--repo)
    from bot.gc_tuning import settle_after_start
except ImportError:
    settle_after_start = None  # type: ignore[assignment]


async def play_table(service: TableService, game: str, players: list[Actor], table: int,
                     rng: Rng, until: float, counts: list[int]) -> None:
    """Random moves on ``table`` until ``until``; a table that ends is followed by a new
    one (its setup is not counted as an action)."""
    while time.perf_counter() < until:
        current = await service.info(table)
        if current.status != "running":
            table = await new_table(service, game, players)
            continue
        seat = min(current.waiting)
        prompt = await service.prompt(table, players[seat])
        option = prompt.options[rng.randbelow(len(prompt.options))]
        await service.act(table, players[seat], option.json, version=prompt.version)
        counts[0] += 1


async def service_round(service: TableService, args: argparse.Namespace,
                        tables: list[tuple[list[Actor], int, Rng]]
                        ) -> tuple[float, float, int]:
    counts = [0]
    wall, cpu = time.perf_counter(), time.process_time()
    until = wall + args.seconds
    await asyncio.gather(*(play_table(service, args.game, players, table, rng, until, counts)
                           for players, table, rng in tables))
    return time.perf_counter() - wall, time.process_time() - cpu, counts[0]


async def floor_round(floor: SqliteFloor, written: list[Written], seconds: float) -> float:
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        await floor.write(written[done % len(written)])
        done += 1
    return done / (time.perf_counter() - start)


class PgPoolFloor:
    """``connections`` asyncpg connections committing the recorded bytes at once, each
    one transaction after another (the best a 10-connection pool does without grouping)."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    @classmethod
    async def open(cls, url: str, connections: int = 10) -> PgPoolFloor:
        pool = await asyncpg.create_pool(url, min_size=connections, max_size=connections)
        async with pool.acquire() as conn:
            await conn.execute(
                "CREATE TABLE raw_t (id BIGINT PRIMARY KEY, version BIGINT, snapshot TEXT); "
                "CREATE TABLE raw_a (id BIGSERIAL PRIMARY KEY, action TEXT); "
                "CREATE TABLE raw_o (id BIGSERIAL PRIMARY KEY, version BIGINT, payload TEXT); "
                "INSERT INTO raw_t SELECT g, 0, '' FROM generate_series(0, 99) g")
        return cls(pool)

    async def rate(self, written: list[Written], seconds: float) -> float:
        done = [0]
        until = time.perf_counter() + seconds

        async def worker(slot: int) -> None:
            async with self.pool.acquire() as conn:
                while time.perf_counter() < until:
                    w = written[done[0] % len(written)]
                    async with conn.transaction():
                        await conn.execute("INSERT INTO raw_a (action) VALUES ($1)", w.action)
                        await conn.execute("UPDATE raw_t SET version = version + 1, "
                                           "snapshot = $1 WHERE id = $2", w.snapshot, slot)
                        await conn.executemany(
                            "INSERT INTO raw_o (version, payload) VALUES ($1, $2)",
                            [(done[0], o) for o in w.outbox])
                    done[0] += 1

        start = time.perf_counter()
        await asyncio.gather(*(worker(i) for i in range(10)))
        return done[0] / (time.perf_counter() - start)

    async def close(self) -> None:
        await self.pool.close()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--game", default="ginkgopolis")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--default-gc", action="store_true",
                        help="CPython's collector, not tuned as the bot tunes it")
    args = parser.parse_args()
    sizes: list[int] = []
    # Count what the group commit put in each transaction (absent in an older checkout).
    real = getattr(sqlite_save, "write_many", None)
    if real is not None:
        def counted(conn, calls, *rest):  # type: ignore[no-untyped-def]
            sizes.append(len(calls))
            return real(conn, calls, *rest)

        sqlite_save.write_many = counted
    together = getattr(getattr(pg_group, "PgGroupCommit", None), "_together", None)
    if together is not None:
        async def pg_counted(self, calls):  # type: ignore[no-untyped-def]
            sizes.append(len(calls))
            return await together(self, calls)

        pg_group.PgGroupCommit._together = pg_counted
    with tempfile.TemporaryDirectory(prefix="urbanist-bench-", dir=".") as name:
        tmp = Path(name)
        server = None
        if args.postgres:
            import pgserver

            server = pgserver.get_server(tmp / "pgdata", cleanup_mode="delete")
            url = server.get_uri()
            admin = await asyncpg.connect(url)
            for db in ("bench_service", "bench_raw"):
                await admin.execute(f"CREATE DATABASE {db}")
            await admin.close()
            head, sep, query = url.partition("?")
            base = head.rsplit("/", 1)[0]
            store: Store = await open_store(f"{base}/bench_service{sep}{query}")
            floor: SqliteFloor | PgPoolFloor = await PgPoolFloor.open(
                f"{base}/bench_raw{sep}{query}")
        else:
            store = await SqliteStore.open(tmp / "service.sqlite3")
            floor = SqliteFloor(tmp / "raw.sqlite3")
        saves = spy_on_saves(store)
        service = TableService(store, NullNotifier(), cache_size=4 * args.tables)
        if args.postgres:
            service.share(f"bench-{os.getpid()}")
            await service.boot()
        tables = []
        for i in range(args.tables):  # set up before the clock starts
            players = [Actor(f"t{i}p{s}", f"P{s}") for s in range(args.seats)]
            tables.append((players, await new_table(service, args.game, players),
                           Rng.from_seed(i)))
        if not args.default_gc and settle_after_start is not None:
            settle_after_start()  # as the bot does once booted (bot/gc_tuning.py)
        sizes.clear()
        rates, raws, ratios, cpus = [], [], [], []
        for _ in range(args.rounds):
            before = len(saves)
            wall, cpu, actions = await service_round(service, args, tables)
            await service.delivery.idle()
            rate = actions / wall
            recorded = [w.settle() for w in saves[before:] or saves]
            raw = (await floor.rate(recorded, args.seconds) if isinstance(floor, PgPoolFloor)
                   else await floor_round(floor, recorded, args.seconds))
            rates.append(rate)
            raws.append(raw)
            ratios.append(rate / raw)
            cpus.append(cpu / max(1, actions))
        emit("actions_per_second", statistics.median(rates), "/s")
        emit("raw_serial_commits_per_second", statistics.median(raws), "/s")
        emit("throughput_ratio", statistics.median(ratios), "x")
        emit("cpu_per_action", statistics.median(cpus) * 1000, "ms")
        emit("writes_per_transaction", statistics.fmean(sizes) if sizes else 0, "writes")
        await floor.close()
        await service.close()
        await store.close()
        if server is not None:
            server.cleanup()


if __name__ == "__main__":
    asyncio.run(main())
