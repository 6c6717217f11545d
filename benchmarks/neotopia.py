"""Neotopia figures: random playouts per second, and greedy's win share against random.

Run: python benchmarks/neotopia.py  (prints ``name value unit`` lines)

The win share is over 200 seeded 4-player games, one greedy seat (rotating with the seed)
against three random seats; a win shared by k players counts 1/k (engine.core.play).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.play import ai_playout, head_to_head
from engine.neotopia import GAME


def random_games_per_second(seats: int, seconds: float = 2.0) -> float:
    games, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = GAME.setup(seats, {}, games)
        ai_playout(GAME, state, ["random"] * seats, games)
        games += 1
    return games / (time.perf_counter() - start)


def main() -> None:
    for seats in (2, 3, 4):
        print(f"neotopia_random_games_{seats}p {random_games_per_second(seats):.1f} games/s")
    won, share = head_to_head(GAME, 4, 200)
    print(f"neotopia_greedy_vs_random_wins_4p {won} of_200_games")
    print(f"neotopia_greedy_vs_random_win_share_4p {share:.3f} share_of_200_games")


if __name__ == "__main__":
    main()
