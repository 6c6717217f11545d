"""The slowest actions and what they spent their time on (issue 25, the p99 rows).

    python benchmarks/act_tail.py [--game quadropolis] [--actions 1500] [--slowest 15]
                                  [--default-gc]

One 4-player table after another of ``--game``, random players, played through the
service on an SQLite file (WAL, synchronous=FULL) with a transport that sends nothing,
the collector tuned as the bot tunes it once booted (``--default-gc``: CPython's). As in
``service.py``, the next action comes at once: the delivery task makes an action's
messages while the next act waits for its commit. Each ``service.act`` is timed (wall),
and, within it, the thread time spent in the engine's calls (``apply``, ``view``,
``legal_actions``, ``pending``, ``outcome``, ``state_to_json``), in the state copies the
service keeps (``copy``), in making messages' parts (``made_parts``: views and menus), and
the wall time of the collector's passes by generation (``gc0``..``gc2``).

Prints p50, p99 and max of the acts, the ``--slowest`` acts with their breakdown (and
their rank in the play: a slow act at every table's end is the end of a game), and the
mean breakdown per act.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import gc
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from random_play import random_moves

from bot.gc_tuning import settle_after_start
from bot.service import Actor, Notification, TableService, fill, turns
from bot.store import SqliteStore
from engine.core import Rng, get_game

ENGINE_CALLS = ("apply", "view", "legal_actions", "pending", "outcome", "state_to_json")


class NullNotifier:
    inline = False

    async def deliver(self, notes: list[Notification]) -> None:
        return None


class Spent:
    """Seconds spent per label since the last ``clear``."""

    def __init__(self) -> None:
        self.by_label: dict[str, float] = collections.defaultdict(float)
        self._gc_start: list[float] = []

    def timed(self, label: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            start = time.thread_time()
            try:
                return real(*args, **kwargs)
            finally:
                self.by_label[label] += time.thread_time() - start
        return call

    def on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_start.append(time.perf_counter())
        elif self._gc_start:
            self.by_label[f"gc{info['generation']}"] += time.perf_counter() - self._gc_start.pop()


async def play(game: str, actions: int, tuned: bool, spent: Spent
               ) -> list[tuple[float, dict[str, float]]]:
    acts: list[tuple[float, dict[str, float]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        store = await SqliteStore.open(Path(tmp) / "bench.sqlite3")
        service = TableService(store, NullNotifier(), cache_size=16)  # type: ignore[arg-type]
        if tuned:
            settle_after_start()
        players = [Actor(f"u{i}", f"P{i}") for i in range(4)]
        async for move in random_moves(service, game, players, Rng.from_seed(1)):
            spent.by_label.clear()
            start = time.perf_counter()
            await service.act(move.table, move.actor, move.json, version=move.version)
            acts.append((time.perf_counter() - start, dict(spent.by_label)))
            if len(acts) == actions:
                break
        await service.delivery.idle()
        await service.close()
        await store.close()
    return acts


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="quadropolis")
    parser.add_argument("--actions", type=int, default=1500)
    parser.add_argument("--slowest", type=int, default=15)
    parser.add_argument("--default-gc", action="store_true")
    args = parser.parse_args()
    spent = Spent()
    engine = get_game(args.game)
    for name in ENGINE_CALLS:
        setattr(engine, name, spent.timed(name, getattr(engine, name)))
    # The service's modules look these up at call time: replaced here, they are timed.
    vars(turns)["copy_of"] = spent.timed("copy", fill.copy_of)
    vars(fill)["made_parts"] = spent.timed("made_parts", fill.made_parts)
    gc.callbacks.append(spent.on_gc)
    acts = asyncio.run(play(args.game, args.actions, not args.default_gc, spent))
    walls = sorted(wall for wall, _ in acts)
    print(f"acts {len(walls)} p50 {walls[len(walls) // 2] * 1e3:.2f} ms "
          f"p99 {walls[int(len(walls) * 0.99)] * 1e3:.2f} ms max {walls[-1] * 1e3:.2f} ms")
    ranked = sorted(enumerate(acts), key=lambda item: -item[1][0])[:args.slowest]
    for rank, (wall, parts) in ranked:
        detail = " ".join(f"{k} {v * 1e3:.2f}" for k, v in
                          sorted(parts.items(), key=lambda kv: -kv[1]) if v >= 1e-4)
        print(f"act {rank:5d} {wall * 1e3:7.2f} ms  {detail}")
    total: collections.Counter[str] = collections.Counter()
    for _, parts in acts:
        total.update(parts)
    print("mean per act: " + " ".join(f"{k} {v / len(acts) * 1e3:.3f} ms"
                                      for k, v in total.most_common()))


if __name__ == "__main__":
    main()
