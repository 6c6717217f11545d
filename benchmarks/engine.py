"""Engine figures, one per line: ``name value unit``.

Run: ``python benchmarks/engine.py`` (from the repository root, in the project's venv).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core import Rng, get_game
from engine.core.play import ai_playout, head_to_head


def main() -> None:
    game = get_game("ginkgopolis")

    games, actions = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < 10.0:
        state = game.setup(4, {}, games)
        actions += ai_playout(game, state, ["random"] * 4, games)
        games += 1
    elapsed = time.perf_counter() - start
    print(f"ginkgopolis.random_games_4p_per_second {games / elapsed:.2f} games/s")
    print(f"ginkgopolis.actions_per_random_game {actions / games:.1f} actions")

    durations: list[float] = []
    sizes: list[int] = []
    rng = Rng.from_seed(1)
    ai = game.ai("random")
    for seed in range(30):
        state = game.setup(4, {}, 1000 + seed)
        step = 0
        while game.outcome(state) is None:
            seat = min(game.pending(state).waiting)
            action = ai.choose(state, seat, rng)
            t0 = time.perf_counter()
            game.apply(state, seat, action)
            durations.append(time.perf_counter() - t0)
            step += 1
            if step == 60:
                sizes.append(len(json.dumps(game.state_to_json(state), separators=(",", ":"))))
    durations.sort()
    p99 = durations[int(len(durations) * 0.99)]
    print(f"ginkgopolis.apply_mean {statistics.fmean(durations) * 1e6:.0f} us")
    print(f"ginkgopolis.apply_p99 {p99 * 1e6:.0f} us")
    print(f"ginkgopolis.state_json_size_midgame {statistics.fmean(sizes):.0f} bytes")

    wins, _ = head_to_head(game, 4, 200)
    n = 200
    print(f"ginkgopolis.greedy_vs_3_random_win_rate {100 * wins / n:.1f} %")


if __name__ == "__main__":
    main()
