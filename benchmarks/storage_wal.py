"""Write-ahead log size under back-to-back backups while the bot writes, one figure per
line: ``name value unit``.

    python benchmarks/storage_wal.py [--seconds 20] [--db-mb 18] [--mode both|now|before]

A writer process commits 4 KB rows continuously through ``SqliteStore`` (the bot's
connection and pragmas) while this process takes backups back to back, for ``--seconds``:

- ``now``: as ``urbanist backup`` does today: a fresh ``SqliteStore`` per backup,
  ``SqliteStore.backup`` (quick check, every page in one step, checkpoint TRUNCATE), with
  the store's ``journal_size_limit``;
- ``before``: as it did before: sqlite3's backup API 1,024 pages a step without pause
  (which restarts whenever the writer commits, so that under load it may never end: it is
  stopped when the time is up) and no ``journal_size_limit``.

Figures per mode: ``wal_peak_mb`` (largest -wal seen after a backup), ``wal_end_mb``
(after the writer's next 50 commits, the writer still open), ``backups_done`` in the time given.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.store import SqliteStore


def _insert(conn: sqlite3.Connection, size: int) -> None:
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("INSERT INTO ballast VALUES (zeroblob(?))", (size,))
    conn.execute("COMMIT")


def _writer(db: str, stop: str, limit: bool) -> None:
    async def main() -> None:
        store = await SqliteStore.open(db)
        try:
            if not limit:
                await store._run(lambda c: c.execute("PRAGMA journal_size_limit=-1"))
            while not os.path.exists(stop):
                await store._run(_insert, 4000)
                await asyncio.sleep(0.002)
            for _ in range(50):  # the bot goes on after the backups: let it checkpoint
                await store._run(_insert, 100)
            wal = Path(f"{db}-wal")
            Path(f"{stop}.end").write_text(str(wal.stat().st_size if wal.exists() else 0))
        finally:
            await store.close()

    asyncio.run(main())


def _fill(db: Path, megabytes: int) -> None:
    async def main() -> None:
        store = await SqliteStore.open(db)
        await store.close()

    asyncio.run(main())
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("CREATE TABLE ballast (x BLOB)")
    conn.execute("BEGIN")
    conn.executemany("INSERT INTO ballast VALUES (zeroblob(4000))",
                     [()] * (megabytes * 1024 * 1024 // 4096))
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def _backup_now(db: Path, target: Path) -> None:
    async def main() -> None:
        store = await SqliteStore.open(db)
        try:
            await store.backup(target)
        finally:
            await store.close()

    asyncio.run(main())


class _OutOfTime(Exception):
    pass


def _backup_before(db: Path, target: Path, until: float, wal: Path, peak: list[int]) -> bool:
    """One backup the old way; False if it had not ended when the time was up (each
    commit of the writer restarts it from the first page)."""
    source = sqlite3.connect(db)
    copy = sqlite3.connect(target)

    def progress(status: int, remaining: int, total: int) -> None:
        peak[0] = max(peak[0], wal.stat().st_size if wal.exists() else 0)
        if time.monotonic() > until:
            raise _OutOfTime

    try:
        source.backup(copy, pages=1024, sleep=0, progress=progress)
        return True
    except _OutOfTime:
        return False
    finally:
        copy.close()
        source.close()


def run(mode: str, seconds: float, megabytes: int) -> None:
    with tempfile.TemporaryDirectory(prefix="urbanist-wal-") as tmp:
        db, stop = Path(tmp) / "urbanist.sqlite3", Path(tmp) / "stop"
        wal = Path(f"{db}-wal")
        _fill(db, megabytes)
        writer = multiprocessing.Process(target=_writer, args=(str(db), str(stop),
                                                               mode == "now"))
        writer.start()
        peak, done, end = [0], 0, time.monotonic() + seconds
        while time.monotonic() < end:
            target = Path(tmp) / "copy.sqlite3"
            if mode == "now":
                _backup_now(db, target)
                done += 1
            else:
                done += _backup_before(db, target, end, wal, peak)
            target.unlink()
            peak[0] = max(peak[0], wal.stat().st_size if wal.exists() else 0)
        stop.touch()
        writer.join()
        final = int(Path(f"{stop}.end").read_text())  # measured while the writer was open
        print(f"{mode}_wal_peak_mb {peak[0] / 2**20:.1f} MB")
        print(f"{mode}_wal_end_mb {final / 2**20:.1f} MB")
        print(f"{mode}_backups_done {done} backups")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--db-mb", type=int, default=18)
    parser.add_argument("--mode", choices=["both", "now", "before"], default="both")
    args = parser.parse_args()
    for mode in (["before", "now"] if args.mode == "both" else [args.mode]):
        run(mode, args.seconds, args.db_mb)


if __name__ == "__main__":
    main()
