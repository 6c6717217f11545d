"""Kill test at full size with several processes on one PostgreSQL (started by pgserver):
``--processes`` workers play two-seat tables whose second seat only ever times out; one
of them, drawn at random, is SIGKILLed after a random pause and replaced, ``--kills``
times; then a drain process finishes every table on deadlines alone, and the count.

    python benchmarks/multiprocess.py [--kills 30] [--processes 3] [--tasks 4] [--seed 1]
                                      [--restart-db SECONDS]

With ``--restart-db``, the PostgreSQL server itself is stopped halfway through the kills
and started again that many seconds later (``pg_ctl -m fast stop``, then ``start``).

Prints: kills, acknowledged moves, lost, tables, unfinished (a deadline never fired),
timeouts in the log and reported by the processes, reported twice, seat-1 actions not
from a deadline, deadlines fired early, `urbanist check`'s exit code, seconds.
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

from multiharness import DatabaseRestart, multi_test  # noqa: E402
from store_backends import PgRestarter, start_pg_server  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kills", type=int, default=30)
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--tasks", type=int, default=4)
    parser.add_argument("--ttl", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--restart-db", type=float, default=None, metavar="SECONDS",
                        help="stop the database server halfway for this long")
    args = parser.parse_args()
    server = start_pg_server()
    try:
        name = asyncio.run(server.new_database())
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            restart = None
            if args.restart_db is not None:
                restarter = PgRestarter(server)
                restart = DatabaseRestart(restarter.stop, restarter.start, args.restart_db)
            report = asyncio.run(multi_test(
                server.url_of(name), Path(tmp), processes=args.processes, kills=args.kills,
                tasks=args.tasks, ttl=args.ttl, seed=args.seed, restart=restart))
            took = time.perf_counter() - start
    finally:
        if server.handle is not None:
            server.handle.cleanup()
    for key in ("kills", "restarts", "acknowledged", "lost", "tables", "unfinished",
                "timeouts_logged", "timeouts_reported", "reported_twice", "reported_not_logged",
                "seat1_not_timeout", "early", "check_exit"):
        print(f"{key} {getattr(report, key)}")
    print(f"errors {len(report.errors)}")
    for error in report.errors:
        print(error[-1500:])
    print(f"seconds {took:.1f}")


if __name__ == "__main__":
    main()
