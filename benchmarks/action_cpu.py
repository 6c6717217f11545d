"""Where the CPU of one action goes, by thread (issue 25), one line per figure.

    python benchmarks/action_cpu.py [--actions 600] [--game ginkgopolis] [--seats 4]
                                    [--compare OLD_CHECKOUT] [--runs 3]

``--seats``-player tables of ``--game`` played by random players through the service
(SQLite file, WAL, synchronous=FULL; a transport that sends nothing, so what is measured
is the service's own work), each action's messages delivered before the next action
(``delivery.idle()``), as a table whose players act seconds apart lives. The first 50
actions warm the caches up and are not counted. Per action:

- cpu_main: the event loop's thread (info, prompt, act: the engine, the notes, the save
  handed over; then the delivery task: the views and moves made, the rows marked);
- cpu_sqlite: the SQLite connection's thread (the save's transaction, the marks);
- cpu_user_sqlite/cpu_sys_sqlite: that thread's user and kernel time (the kernel's is
  mostly the journal's sync);
- cpu_total, wall: the process's CPU and the wall time;
- engine_floor: the engine's own share of the same action (``engine_floor``: the move
  applied, the views of the table and of the seats that decide next, their moves spelled
  out), run on a mirror of the table's state right after each action, on the event
  loop's thread, and taken out of cpu_main and cpu_total. What a service does beyond it
  is cpu_total minus engine_floor.

With ``--compare``, child processes run this checkout and ``OLD_CHECKOUT`` turn about,
``--runs`` times each, and the medians of both are printed side by side (the old
checkout is imported instead of this one: its ``bot`` and ``engine``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = Path(os.environ.get("URBANIST_BENCH_ROOT", HERE.parent))
sys.path.insert(0, str(ROOT))
WARM_UP = 50


def thread_ticks(thread: threading.Thread) -> tuple[int, int]:
    """A thread's user and system time in clock ticks (Linux)."""
    fields = Path(f"/proc/self/task/{thread.native_id}/stat").read_text().rsplit(")", 1)[1]
    values = fields.split()
    return int(values[11]), int(values[12])


async def measure(actions: int, game: str, seats: int) -> dict[str, float]:
    from bot.gc_tuning import settle_after_start
    from bot.service import Actor, Notification, TableService, TableSettings
    from bot.store import SqliteStore
    from engine.core import Rng

    class NullNotifier:
        inline = False

        async def deliver(self, notes: list[Notification]) -> None:
            return None

    with tempfile.TemporaryDirectory() as tmp:
        store = await SqliteStore.open(Path(tmp) / "bench.sqlite3")
        service = TableService(store, NullNotifier(), cache_size=16)  # type: ignore[arg-type]
        settle_after_start()
        players = [Actor(f"u{i}", f"P{i}") for i in range(seats)]
        rng = Rng.from_seed(1)
        done = 0
        floor_cpu = 0.0
        start: dict[str, float] = {}
        ticks: dict[str, tuple[threading.Thread, tuple[int, int]]] = {}
        clocks: dict[str, tuple[int, float]] = {}
        while done < actions + WARM_UP:
            info = await service.create(players[0], game,
                                        settings=TableSettings(seat_order="join"))
            for player in players[1:]:
                await service.join(info.id, player)
            await service.start(info.id, players[0])
            await service.delivery.idle()
            live = service._cache.peek(info.id)
            assert live is not None
            engine, mirror = live.game, live.game.state_from_json(
                live.game.state_to_json(live.state))
            while done < actions + WARM_UP:
                current = await service.info(info.id)
                if current.status != "running":
                    break
                if done == WARM_UP:
                    start = {"cpu": time.process_time(), "wall": time.perf_counter()}
                    for t in threading.enumerate():
                        assert t.ident is not None
                        clock = time.pthread_getcpuclockid(t.ident)
                        clocks[t.name] = (clock, time.clock_gettime(clock))
                        ticks[t.name] = (t, thread_ticks(t))
                seat = min(current.waiting)
                prompt = await service.prompt(info.id, players[seat])
                option = prompt.options[rng.randbelow(len(prompt.options))]
                await service.act(info.id, players[seat], option.json, version=prompt.version)
                await service.delivery.idle()
                floor = time.thread_time()
                engine_floor(engine, mirror, seat, option.json)
                if done >= WARM_UP:
                    floor_cpu += time.thread_time() - floor
                done += 1
        figures = {"cpu_total": (time.process_time() - start["cpu"]) / actions,
                   "wall": (time.perf_counter() - start["wall"]) / actions}
        figures["cpu_total"] -= floor_cpu / actions
        for name, (clock, before) in clocks.items():
            key = "main" if name == "MainThread" else "sqlite" if "connection" in name else ""
            if key:
                spent = time.clock_gettime(clock) - before
                figures[f"cpu_{key}"] = (spent - (floor_cpu if key == "main" else 0)) / actions
        figures["engine_floor"] = floor_cpu / actions
        for name, (thread, (user, system)) in ticks.items():
            if "connection" in name:
                now_user, now_system = thread_ticks(thread)
                tick = os.sysconf("SC_CLK_TCK")
                figures["cpu_user_sqlite"] = (now_user - user) / tick / actions
                figures["cpu_sys_sqlite"] = (now_system - system) / tick / actions
        await store.close()
    return {k: v * 1000 for k, v in figures.items()}


def engine_floor(game: Any, state: Any, seat: int, action: Any) -> None:
    """The engine's own share of one action, as any service would need it, on a mirror
    of the table's state: the move applied, who decides next, the public view and the
    view of each seat that decides, and those seats' moves spelled out (text, JSON)."""
    game.apply(state, seat, game.action_from_json(action))
    game.outcome(state)
    game.view(state, None)
    for waiting in game.pending(state).waiting:
        game.view(state, waiting)
        for move in game.legal_actions(state, waiting):
            move.text()
            move.to_json()


def child(root: Path, args: argparse.Namespace) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, str(HERE / "action_cpu.py"), "--actions", str(args.actions),
         "--game", args.game, "--seats", str(args.seats), "--json"],
        env={**os.environ, "URBANIST_BENCH_ROOT": str(root)},
        check=True, capture_output=True, text=True).stdout
    return dict(json.loads(out.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=600)
    parser.add_argument("--game", default="ginkgopolis")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--compare", type=Path, default=None)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.compare is None:
        figures = asyncio.run(measure(args.actions, args.game, args.seats))
        if args.json:
            print(json.dumps(figures))
            return
        for name, value in figures.items():
            print(f"{name} {value:.3f} ms")
        return
    runs: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
    for _ in range(args.runs):  # turn about, so a busy moment weighs on both
        runs["old"].append(child(args.compare.resolve(), args))
        runs["new"].append(child(HERE.parent, args))
    for name in runs["new"][0]:
        old = statistics.median(r[name] for r in runs["old"] if name in r)
        new = statistics.median(r[name] for r in runs["new"])
        print(f"{name} old {old:.3f} ms new {new:.3f} ms ratio {new / old:.2f}")


if __name__ == "__main__":
    main()
