"""The harness of the engine equivalence checks (``benchmarks/<game>_equivalence.py``):
the engine at an older commit and in the work tree play the same seeded games in child
processes, each printing one JSON line per game with a digest per step; the two lists
must be equal. A game's script gives the child's program and its default commit."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def run(root: Path, program: str, games: int) -> list[dict[str, Any]]:
    """``program`` (Python source reading the game count from ``sys.argv[1]``) run with
    ``root``'s ``engine`` importable."""
    # The child imports ``equivalence_state`` from here, whichever engine it runs.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), str(HERE)])}
    out = subprocess.run([sys.executable, "-c", program, str(games)], cwd=root, env=env,
                         check=True, capture_output=True, text=True)
    return [json.loads(line) for line in out.stdout.splitlines()]


def main(name: str, program: str, old: str, doc: str | None) -> None:
    parser = argparse.ArgumentParser(description=doc,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old", default=old, help="commit whose engine is compared")
    parser.add_argument("--games", type=int, default=60, help="seeded games to compare")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        # The old commit's engine alone, exported as benchmarks/engine.py does.
        archive = subprocess.run(["git", "archive", args.old, "engine"], cwd=ROOT,
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        before_all = run(Path(tmp), program, args.games)
    now = run(ROOT, program, args.games)
    print(f"{name}.games_compared {len(now)} games")
    print(f"{name}.steps_compared {sum(len(g['steps']) for g in now)} steps")
    for before, after in zip(before_all, now, strict=True):
        if before != after:
            steps = zip(before["steps"], after["steps"], strict=False)
            first = next((i for i, (a, b) in enumerate(steps) if a != b), None)
            print(f"{name}.same_as_old_{args.old} NO (game {before['game']}, "
                  f"{before['seats']} seats, {before['options']}, step {first})")
            sys.exit(1)
    print(f"{name}.same_as_old_{args.old} yes")
