"""Engine speed of the four games, now and at an older commit, in CPU seconds (issue 25).

Run: ``python benchmarks/engine_games.py`` (from the repository root, in the project's venv).
For each game it prints random 4-player games per CPU second and the CPU time of one
``apply`` call, for the work tree and for ``--old COMMIT`` (default ``5af53f9``, the
engine before issue 25's speed work), one line each, ``name value unit``.

The old commit's ``engine/`` is exported with ``git archive`` into a temporary folder (the
work tree is not touched), as ``benchmarks/engine.py`` does. Every figure is timed in a
child process of its own, the old engine and the new one taking turns, so that a busy
shared machine weighs on both alike; ``time.process_time`` counts the child's own CPU,
not the wall clock, and the median of the runs is kept. Both engines play the same seeds
and must end every game in the same state (``same_final_states``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OLD = "5af53f9"
GAMES = ("ginkgopolis", "quadropolis", "neotopia", "skybridge")

# One run in a child process: the games per CPU second of plain random playouts, then the
# same games again with each apply() timed alone (the timer's own cost stays out of the
# first figure), and a digest of every final state.
TIMING = """
import hashlib, json, sys, time
from engine.core import get_game
from engine.core.play import ai_playout
from engine.core.rng import Rng
game = get_game(sys.argv[1])
games = int(sys.argv[2])
clock = time.process_time
# Load the game's data (Neotopia checks its data set at the first table) before timing: a
# running bot pays it once, not once per game.
game.setup(4, {}, 0)
start = clock()
for seed in range(games):
    ai_playout(game, game.setup(4, {}, seed), ["random"] * 4, seed)
elapsed = clock() - start
digest = hashlib.sha256()
spent, calls = 0.0, 0
for seed in range(games):
    state = game.setup(4, {}, seed)
    rng = Rng.from_seed(seed)
    players = [game.ai("random") for _ in range(4)]
    while game.outcome(state) is None:
        seat = min(game.pending(state).waiting)
        action = players[seat].choose(state, seat, rng)
        t0 = clock()
        game.apply(state, seat, action)
        spent += clock() - t0
        calls += 1
    digest.update(json.dumps(game.state_to_json(state), sort_keys=True).encode())
print(json.dumps({"games_per_s": games / elapsed, "apply_us": 1e6 * spent / calls,
                  "actions": calls / games, "digest": digest.hexdigest()}))
"""


def timed(root: Path, game: str, games: int) -> dict[str, float | str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, "-c", TIMING, game, str(games)], cwd=root, env=env,
                         check=True, capture_output=True, text=True)
    result: dict[str, float | str] = json.loads(out.stdout)
    return result


def median(runs: list[dict[str, float | str]], key: str) -> float:
    return statistics.median(float(r[key]) for r in runs)


def compare(old: str, games: int, runs: int, names: tuple[str, ...]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "archive", old, "engine"], cwd=ROOT, check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        for name in names:
            pairs = [(timed(Path(tmp), name, games), timed(ROOT, name, games))
                     for _ in range(runs)]
            before = [b for b, _ in pairs]
            now = [n for _, n in pairs]
            rate_old, rate = median(before, "games_per_s"), median(now, "games_per_s")
            print(f"{name}.random_games_4p_per_cpu_second.old_{old} {rate_old:.1f} games/s")
            print(f"{name}.random_games_4p_per_cpu_second {rate:.1f} games/s")
            print(f"{name}.speedup_vs_{old} {rate / rate_old:.2f} x")
            per_pair = " ".join(f"{float(n['games_per_s']) / float(b['games_per_s']):.2f}"
                                for b, n in pairs)
            print(f"{name}.speedup_per_pair {per_pair} x")
            print(f"{name}.apply_cpu_per_call.old_{old} {median(before, 'apply_us'):.1f} us")
            print(f"{name}.apply_cpu_per_call {median(now, 'apply_us'):.1f} us")
            same = "yes" if all(b["digest"] == n["digest"] for b, n in pairs) else "NO"
            print(f"{name}.same_final_states_as_{old} {same}")
            print(f"{name}.actions_per_random_game {median(now, 'actions'):.1f} actions",
                  flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old", default=OLD, help="commit whose engine is timed beside")
    parser.add_argument("--games", type=int, default=40, help="random games per run")
    parser.add_argument("--runs", type=int, default=5, help="runs per engine (median kept)")
    parser.add_argument("--game", action="append", choices=GAMES,
                        help="only this game (repeatable); default all four")
    args = parser.parse_args()
    compare(args.old, args.games, args.runs, tuple(args.game or GAMES))


if __name__ == "__main__":
    main()
