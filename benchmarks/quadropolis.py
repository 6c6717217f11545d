"""Quadropolis figures: the exact allocation's speed, random games per second, and the
greedy AI's strength.

Run: ``python benchmarks/quadropolis.py`` (from the repository root, in the project's
venv). Prints ``name value unit`` lines. ``--quick`` runs fewer games.

Random expert end-game cities: 20 tiles drawn from the expert tile set (one city's
worth: 5 rounds of 4 turns), each put on a random empty space or, for a tower block or
an office, on a random stack of its kind with room; the city keeps every resource its
tiles gave. So every city is full or nearly, the hardest case for the search.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.play import ai_playout, head_to_head
from engine.core.rng import Rng
from engine.quadropolis import GAME
from engine.quadropolis.allocation import allocate
from engine.quadropolis.scoring import Building, City, make_city
from engine.quadropolis.tiles import BOARDS, TABLES, TILES, all_tiles


def random_city(rng: Rng, mode: str = "expert", tiles: int = 20, squares: bool = False) -> City:
    board = BOARDS[mode]
    pool = list(all_tiles(mode, squares))
    stacks: dict[tuple[int, int], list[str]] = {}
    inhabitants = energy = 0
    for _ in range(tiles):
        tile = TILES[rng.choice(pool)]
        spots = [(r, c) for r in range(1, board.rows + 1) for c in range(1, board.cols + 1)
                 if (r, c) not in stacks]
        if tile.stackable:
            spots += [p for p, s in stacks.items()
                      if TILES[s[-1]].type == tile.type and len(s) < TABLES[mode].max_floors]
        if not spots:
            continue
        spot = rng.choice(spots)
        stacks.setdefault(spot, []).append(tile.id)
        inhabitants += tile.inhabitants
        energy += tile.energy
    buildings = []
    for (r, c), s in stacks.items():
        top = TILES[s[-1]]
        buildings.append(Building(r, c, top.type, len(s) if top.stackable else 1, top.vp,
                                  top.square))
    return make_city(mode, buildings, inhabitants, energy)


def allocation_times(count: int, seed: int = 1) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds per city. The CPU time is this process's own, so it
    stays honest on a machine shared with other work; the wall time is what a player
    waits when the core is free."""
    rng = Rng.from_seed(seed)
    cities = [random_city(rng) for _ in range(count)]
    wall, cpu = [], []
    for city in cities:
        start, start_cpu = time.perf_counter(), time.process_time()
        allocate(city)
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start)
    return wall, cpu


def random_games_per_second(seats: int, options: Mapping[str, Any], seconds: float) -> float:
    games, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = GAME.setup(seats, dict(options), games)
        ai_playout(GAME, state, ["random"] * seats, games)
        games += 1
    return games / (time.perf_counter() - start)


def main() -> None:
    quick = "--quick" in sys.argv
    wall, cpu = allocation_times(200 if quick else 1000)
    n = len(wall)
    print(f"quadropolis.allocation_expert_cities {n} cities")
    for label, times in (("wall", sorted(wall)), ("cpu", sorted(cpu))):
        print(f"quadropolis.allocation_{label}_mean {statistics.fmean(times) * 1e3:.2f} ms")
        print(f"quadropolis.allocation_{label}_p50 {times[n // 2] * 1e3:.2f} ms")
        p99 = times[min(n - 1, int(n * 0.99))]
        print(f"quadropolis.allocation_{label}_p99 {p99 * 1e3:.2f} ms")
        print(f"quadropolis.allocation_{label}_max {times[-1] * 1e3:.2f} ms")
    for label, options in (("classic", {}), ("expert", {"mode": "expert"})):
        rate = random_games_per_second(4, options, 2.0 if quick else 5.0)
        print(f"quadropolis.random_games_4p_{label}_per_second {rate:.2f} games/s")
    games = 40 if quick else 200
    for label, options in (("classic", {}), ("expert", {"mode": "expert"})):
        won, share = head_to_head(GAME, 4, games, options=dict(options))
        print(f"quadropolis.greedy_vs_3_random_{label}_wins {won}/{games} games")
        print(f"quadropolis.greedy_vs_3_random_{label}_win_share {100 * share:.1f} %")


if __name__ == "__main__":
    main()
