"""Skybridge figures: random playouts per second, and greedy's win share against random.

Run: python benchmarks/skybridge.py  (prints ``name value unit`` lines)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.play import ai_playout, head_to_head
from engine.skybridge import GAME


def random_games_per_second(seats: int, seconds: float = 2.0) -> float:
    games, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = GAME.setup(seats, {}, games)
        ai_playout(GAME, state, ["random"] * seats, games)
        games += 1
    return games / (time.perf_counter() - start)


def greedy_win_share(seats: int, games: int, options: dict[str, bool]) -> float:
    return head_to_head(GAME, seats, games, options=dict(options))[1]


def main() -> None:
    for seats in (2, 3, 4):
        print(f"skybridge_random_games_{seats}p {random_games_per_second(seats):.1f} games/s")
    for seats, options, label in (
        (2, {}, "2p"),
        (2, {"choose_colour": True}, "2p_choose_colour"),
        (3, {}, "3p"),
        (4, {}, "4p"),
    ):
        share = greedy_win_share(seats, 100, options)
        print(f"skybridge_greedy_vs_random_win_share_{label} {share:.2f} share_of_100_games")


if __name__ == "__main__":
    main()
