"""Engine figures, one per line: ``name value unit``.

Run: ``python benchmarks/engine.py`` (from the repository root, in the project's venv).
``apply`` is timed in CPU seconds of this process. The four games side by side with the
engine before issue 25: ``benchmarks/engine_games.py``.
``--old COMMIT`` (default ``f182f52``, the engine before the speed work of issue 12)
times that commit's engine in the same run, side by side: its ``engine/`` is exported
with ``git archive`` into a temporary folder (the work tree is not touched) and run in a
child process on the same seeds, measured in CPU seconds (``time.process_time``) so
that a busy machine weighs less. Both must end every game in the same state.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.core import Rng, get_game  # noqa: E402
from engine.core.play import ai_playout, head_to_head  # noqa: E402

OLD = "f182f52"

# Timed in this process and in the old engine's, so the two figures are comparable:
# the same seeded random 4-player games, and a digest of every final state.
TIMING = """
import hashlib, json, sys, time
from engine.core import get_game
from engine.core.play import ai_playout
game = get_game("ginkgopolis")
games = int(sys.argv[1])
digest = hashlib.sha256()
best = None
for _ in range(int(sys.argv[2])):
    # CPU time of this process: what the engine costs, not how busy the machine is.
    start = time.process_time()
    actions = 0
    for seed in range(games):
        state = game.setup(4, {}, seed)
        actions += ai_playout(game, state, ["random"] * 4, seed)
        if best is None:
            digest.update(json.dumps(game.state_to_json(state), sort_keys=True).encode())
    elapsed = time.process_time() - start
    best = elapsed if best is None else min(best, elapsed)
print(json.dumps({"games_per_s": games / best, "actions": actions / games,
                  "digest": digest.hexdigest()}))
"""


def timed(root: Path, games: int, repeats: int) -> dict[str, float | str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run(
        [sys.executable, "-c", TIMING, str(games), str(repeats)],
        cwd=root, env=env, check=True, capture_output=True, text=True,
    )
    result: dict[str, float | str] = json.loads(out.stdout)
    return result


def side_by_side(old: str, games: int, repeats: int) -> None:
    # The two engines take turns, one timing each, and the best of each is kept: on a
    # shared machine the load then weighs on both alike.
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "archive", old, "engine"], cwd=ROOT, check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        runs = [(timed(Path(tmp), games, 1), timed(ROOT, games, 1)) for _ in range(repeats)]
    before = max((b for b, _ in runs), key=lambda r: float(r["games_per_s"]))
    now = max((n for _, n in runs), key=lambda r: float(r["games_per_s"]))
    print(f"ginkgopolis.random_games_4p_per_second.old_{old} {before['games_per_s']:.2f} games/s")
    print(f"ginkgopolis.random_games_4p_per_second {now['games_per_s']:.2f} games/s")
    speedup = float(now["games_per_s"]) / float(before["games_per_s"])
    print(f"ginkgopolis.speedup_vs_{old} {speedup:.2f} x")
    pairs = [float(n["games_per_s"]) / float(b["games_per_s"]) for b, n in runs]
    print(f"ginkgopolis.speedup_per_pair {' '.join(f'{x:.2f}' for x in pairs)} x")
    same = "yes" if all(n["digest"] == b["digest"] for b, n in runs) else "NO"
    print(f"ginkgopolis.same_final_states_as_{old} {same}")
    print(f"ginkgopolis.actions_per_random_game {float(now['actions']):.1f} actions")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--old", default=OLD, help="commit whose engine is timed beside")
    parser.add_argument("--games", type=int, default=100, help="random games per timing")
    parser.add_argument("--repeats", type=int, default=5, help="best of this many timings")
    parser.add_argument("--quick", action="store_true", help="only the side-by-side speed")
    args = parser.parse_args()
    side_by_side(args.old, args.games, args.repeats)
    if args.quick:
        return
    game = get_game("ginkgopolis")
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
            # CPU time of this process, as the games per second above: a shared machine's
            # load does not lengthen it (issue 25).
            t0 = time.process_time()
            game.apply(state, seat, action)
            durations.append(time.process_time() - t0)
            step += 1
            if step == 60:
                sizes.append(len(json.dumps(game.state_to_json(state), separators=(",", ":"))))
    durations.sort()
    p99 = durations[int(len(durations) * 0.99)]
    print(f"ginkgopolis.apply_cpu_mean {statistics.fmean(durations) * 1e6:.0f} us")
    print(f"ginkgopolis.apply_cpu_p99 {p99 * 1e6:.0f} us")
    print(f"ginkgopolis.state_json_size_midgame {statistics.fmean(sizes):.0f} bytes")

    state = game.setup(4, {}, 0)
    start = time.perf_counter()
    ai_playout(game, state, ["greedy"] * 4, 0)
    print(f"ginkgopolis.greedy_game_4p {1e3 * (time.perf_counter() - start):.1f} ms")

    wins, _ = head_to_head(game, 4, 200)
    n = 200
    print(f"ginkgopolis.greedy_vs_3_random_win_rate {100 * wins / n:.1f} %")


if __name__ == "__main__":
    main()
