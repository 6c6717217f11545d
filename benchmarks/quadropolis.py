"""Quadropolis figures: the exact allocation's speed, random games per second, and the
greedy AI's strength.

Run: ``python benchmarks/quadropolis.py`` (from the repository root, in the project's
venv). Prints ``name value unit`` lines. ``--quick`` runs fewer games.

Figures: CPU time of this process (honest on a shared machine) and wall time.

Random expert end-game cities: 20 tiles drawn from the expert tile set (one city's
worth: 5 rounds of 4 turns), each put on a random empty space or, for a tower block or
an office, on a random stack of its kind with room; the city keeps every resource its
tiles gave. So every city is full or nearly. Also measured: the final cities of
greedy expert games, and a few hand-made worst cases.
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
from engine.quadropolis.scoring import Building, City, city_of, make_city
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


def adversarial_cities() -> list[tuple[str, City]]:
    """Hand-made worst cases: one huge part, or very many harbor-run guesses. A block of
    offices is the weak spot: an office group is one whole, so the search cannot split
    it and runs a branch and bound over it (the expert game has 17 office tiles)."""
    cells = [(r, c) for r in range(1, 5) for c in range(1, 6)]
    return [
        *((f"{n}_offices", make_city("expert", [Building(r, c, "office") for r, c in cells[:n]],
                                     n // 2, n // 2)) for n in (12, 14, 17, 20)),
        ("20_harbors_3_inhabitants", make_city(
            "expert", [Building(r, c, "harbor") for r, c in cells], 3, 0)),
        ("checkerboard_shops_factories", make_city(
            "expert", [Building(r, c, "shop" if (r + c) % 2 else "factory") for r, c in cells],
            10, 10)),
        ("checkerboard_harbors_factories", make_city(
            "expert", [Building(r, c, "harbor" if (r + c) % 2 else "factory")
                       for r, c in cells], 10, 0)),
    ]


def game_cities(games: int) -> list[City]:
    """The final cities of seeded expert games between greedy players."""
    out = []
    for seed in range(games):
        state = GAME.setup(4, {"mode": "expert"}, seed)
        ai_playout(GAME, state, ["greedy"] * 4, seed)
        out += [city_of(state, seat) for seat in range(4)]
    return out


def cpu_ms(city: City) -> float:
    start = time.process_time()
    allocate.__wrapped__(city)
    return (time.process_time() - start) * 1e3


def allocation_times(count: int, seed: int = 1) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds per city. The CPU time is this process's own, so it
    stays honest on a machine shared with other work; the wall time is what a player
    waits when the core is free."""
    rng = Rng.from_seed(seed)
    cities = [random_city(rng) for _ in range(count)]
    wall, cpu = [], []
    for city in cities:
        start, start_cpu = time.perf_counter(), time.process_time()
        allocate.__wrapped__(city)  # past the cache: every city is searched
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
    played = sorted(cpu_ms(city) for city in game_cities(10 if quick else 50))
    n = len(played)
    print(f"quadropolis.allocation_greedy_game_cities {n} cities")
    print(f"quadropolis.allocation_greedy_game_cpu_p99 {played[min(n - 1, int(n * 0.99))]:.2f} ms")
    print(f"quadropolis.allocation_greedy_game_cpu_max {played[-1]:.2f} ms")
    for name, city in adversarial_cities():
        print(f"quadropolis.allocation_adversarial_{name}_cpu {cpu_ms(city):.2f} ms")
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
