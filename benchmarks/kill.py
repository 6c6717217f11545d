"""Kill test at full size: a process plays many tables of a human and a bot at once and
is SIGKILLed after a random number of acknowledged moves, again and again; then one
boot, and the count.

    python benchmarks/kill.py [--kills 40] [--tasks 8] [--seed 1]

Prints: kills, acknowledged actions, lost, tables a bot owed a move to at the moment of
a kill (summed over the kills: what a crash used to leave stuck), tables still stuck
after the boot, tables replayed with a mismatch.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "bot")]

from killharness import kill_test  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kills", type=int, default=40)
    parser.add_argument("--tasks", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        report = asyncio.run(kill_test(Path(tmp) / "kill.sqlite3", kills=args.kills,
                                       tasks=args.tasks, seed=args.seed))
        took = time.perf_counter() - start
    print(f"kills {report.kills}")
    print(f"acknowledged_actions {report.acknowledged}")
    print(f"lost {report.lost}")
    print(f"bot_owed_at_kill {report.bot_owed_at_kill}")
    print(f"stuck_after_boot {report.stuck}")
    print(f"tables {report.tables}")
    print(f"replay_mismatches {len(report.replay_failures)}")
    print(f"seconds {took:.1f}")


if __name__ == "__main__":
    main()
