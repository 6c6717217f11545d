"""The tail of an action with CPython's default garbage collector and with the bot's
(`bot/gc_tuning.py`), one line per figure.

    python benchmarks/gc_tail.py [--game neotopia] [--actions 300] [--runs 2]

Each run is a child process playing ``--actions`` random actions of 4-player tables
through the service on an SQLite file (the delivery worker making each action's messages
meanwhile), timing ``service.act`` from the call to its durable commit; default and tuned
runs take turns. Reported: the median over runs of the p99 and of the worst action, wall
and main-thread CPU.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


async def child(game: str, actions: int, tuned: bool) -> dict[str, float]:
    from random_play import random_moves

    from bot.gc_tuning import settle_after_start
    from bot.service import Actor, MemoryNotifier, TableService
    from bot.store import SqliteStore
    from engine.core import Rng

    with tempfile.TemporaryDirectory() as tmp:
        store = await SqliteStore.open(Path(tmp) / "b.sqlite3")
        notifier = MemoryNotifier(inline=False)
        service = TableService(store, notifier, cache_size=16)
        await service.boot()
        if tuned:
            settle_after_start()
        players = [Actor(f"u{i}", f"P{i}") for i in range(4)]
        rng = Rng.from_seed(1)
        walls: list[float] = []
        cpus: list[float] = []
        async for move in random_moves(service, game, players, rng):
            wall, cpu = time.perf_counter(), time.thread_time()
            await service.act(move.table, move.actor, move.json, version=move.version)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.thread_time() - cpu)
            notifier.notes.clear()
            if len(walls) == actions:
                break
        await service.delivery.idle()
        await store.close()
    walls.sort()
    cpus.sort()
    return {"p99": walls[int(0.99 * (len(walls) - 1))], "worst": walls[-1],
            "cpu_worst": cpus[-1]}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="neotopia")
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--child", choices=("default", "tuned"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(asyncio.run(child(args.game, args.actions, args.child == "tuned"))))
        return
    results: dict[str, list[dict[str, float]]] = {"default": [], "tuned": []}
    for _ in range(args.runs):
        for kind in results:
            out = subprocess.run([sys.executable, __file__, "--child", kind, "--game",
                                  args.game, "--actions", str(args.actions)],
                                 capture_output=True, text=True, check=True)
            results[kind].append(json.loads(out.stdout.strip().splitlines()[-1]))
    for kind, runs in results.items():
        for key in ("p99", "worst", "cpu_worst"):
            value = statistics.median(r[key] for r in runs) * 1000
            print(f"{args.game}_{key}_{kind} {value:.1f} ms", flush=True)


if __name__ == "__main__":
    main()
