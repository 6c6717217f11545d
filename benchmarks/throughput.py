"""Throughput of one process with many tables busy at once (issue 25), one line per figure.

    python benchmarks/throughput.py [--tables 100] [--seconds 3] [--rounds 3]
                                    [--game ginkgopolis] [--seats 4]

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
- writes_per_transaction: how many writes (saves, outbox claims and marks) the group
  commit put in each transaction.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from service import NullNotifier, SqliteFloor, Written, emit, spy_on_saves

from bot.service import Actor, TableService, TableSettings
from bot.store import SqliteStore, sqlite_save
from engine.core import Rng


async def new_table(service: TableService, game: str, players: list[Actor]) -> int:
    info = await service.create(players[0], game, settings=TableSettings(seat_order="join"))
    for player in players[1:]:
        await service.join(info.id, player)
    await service.start(info.id, players[0])
    return info.id


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


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--game", default="ginkgopolis")
    parser.add_argument("--seats", type=int, default=4)
    args = parser.parse_args()
    sizes: list[int] = []
    real = sqlite_save.write_many

    def counted(conn, calls):  # type: ignore[no-untyped-def]
        sizes.append(len(calls))
        return real(conn, calls)

    sqlite_save.write_many = counted  # type: ignore[assignment]
    with tempfile.TemporaryDirectory(prefix="urbanist-bench-", dir=".") as name:
        tmp = Path(name)
        store = await SqliteStore.open(tmp / "service.sqlite3")
        saves = spy_on_saves(store)
        service = TableService(store, NullNotifier(), cache_size=4 * args.tables)
        floor = SqliteFloor(tmp / "raw.sqlite3")
        tables = []
        for i in range(args.tables):  # set up before the clock starts
            players = [Actor(f"t{i}p{s}", f"P{s}") for s in range(args.seats)]
            tables.append((players, await new_table(service, args.game, players),
                           Rng.from_seed(i)))
        sizes.clear()
        rates, raws, ratios, cpus = [], [], [], []
        for _ in range(args.rounds):
            before = len(saves)
            wall, cpu, actions = await service_round(service, args, tables)
            await service.delivery.idle()
            rate = actions / wall
            raw = await floor_round(floor, saves[before:] or saves, args.seconds)
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


if __name__ == "__main__":
    asyncio.run(main())
