"""Start time on a realistic database: from opening it to every deadline scheduled.

    python benchmarks/start.py [--tables 10000] [--runs 3] [--old COMMIT]
    python benchmarks/start.py --tables 100000 --runs 1

The database: 4-player tables of all four games with their whole action logs, outboxes
(delivered: a running table keeps what its last two versions sent, as each tree's store
keeps it) and timers, a tenth of them finished. Sixteen template tables are played
through the service (per game: one game to its end, and the same game stopped at a
quarter, a half and three quarters of its actions), then copied in bulk with new ids
until there are ``--tables``; the running copies' deadlines are spread over a day.

A start is measured in a fresh child process (open the store, ``boot``, start the
scheduler): wall seconds, CPU seconds of the process (every thread, SQLite's included),
the process's peak resident memory, and the jobs planned and held by APScheduler.
Medians of ``--runs``. With ``--old COMMIT``, that commit's ``bot/`` and ``engine/``
(exported with ``git archive``, the work tree untouched) build their own database the
same way and are measured in the same run, each start of one followed by one of the
other.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("ginkgopolis", "quadropolis", "neotopia", "skybridge")
TEMPLATES_PER_GAME = 4  # finished, then stopped at 1/4, 1/2, 3/4 of its actions

BUILD = r"""
import asyncio, sys
from pathlib import Path
from bot.service import Actor, TableService, TableSettings
from bot.store import SqliteStore
from engine.core import Rng

class Delivered:
    inline = True
    async def deliver(self, notes):
        return {}

async def play(service, game, seed, stop):
    players = [Actor(f"u{i}", f"Player {i}") for i in range(4)]
    info = await service.create(players[0], game, settings=TableSettings(seat_order="join"),
                                seed=seed, channel_id=f"c{seed}")
    for actor in players[1:]:
        await service.join(info.id, actor)
    await service.start(info.id, players[0])
    rng, count = Rng.from_seed(seed), 0
    while (current := await service.info(info.id)).status == "running" and count != stop:
        seat = min(current.waiting)
        prompt = await service.prompt(info.id, players[seat])
        option = prompt.options[rng.randbelow(len(prompt.options))]
        await service.act(info.id, players[seat], option.json, version=prompt.version)
        count += 1
    await service.delivery.idle()
    return count

async def main(path, games):
    store = await SqliteStore.open(path)
    service = TableService(store, Delivered())
    for n, game in enumerate(games):
        total = await play(service, game, 100 + n, -1)
        for part in (1, 2, 3):
            await play(service, game, 100 + n, total * part // 4)
    await store.close()

asyncio.run(main(sys.argv[1], sys.argv[2].split(",")))
"""

MEASURE = r"""
import asyncio, json, resource, sys, time
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from bot.service import TableService
from bot.store import SqliteStore

class Nothing:
    async def deliver(self, notes):
        return {}

async def main(path):
    wall, cpu = time.perf_counter(), time.process_time()
    store = await SqliteStore.open(path)
    scheduler = AsyncIOScheduler(timezone="UTC")
    service = TableService(store, Nothing(), scheduler=scheduler)
    report = await service.boot()
    scheduler.start()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    held = len(scheduler.get_jobs())
    scheduler.shutdown(wait=False)
    await store.close()
    print(json.dumps({"wall": wall, "cpu": cpu, "jobs": report.jobs, "held": held,
                      "running": report.running_tables,
                      "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))

asyncio.run(main(sys.argv[1]))
"""


def child(tree: Path, code: str, *args: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(tree), "URBANIST_BOT_LEVEL": "normal"}
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=tree, env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"child failed in {tree}:\n{done.stderr[-3000:]}")
    return done.stdout


def columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [str(r[1]) for r in conn.execute(f"PRAGMA table_info({table})")]


def copy_rows(conn: sqlite3.Connection, table: str, key: str, *,
              fresh_id: bool = False, shift: dict[str, str] | None = None,
              where: str = "1") -> None:
    """Copy ``table``'s rows of each template to every table mapped to it (``copies``),
    ``key`` naming the column that holds the table's id."""
    names = [c for c in columns(conn, table) if not (fresh_id and c == "id")]
    shift = shift or {}
    chosen = ", ".join("c.new_id" if c == key else shift.get(c, f"x.{c}") for c in names)
    conn.execute(f"INSERT INTO {table} ({', '.join(names)}) SELECT {chosen} "
                 f"FROM copies c JOIN {table} x ON x.{key} = c.template WHERE {where}")


def grow(path: Path, tables: int) -> None:
    """Copy the templates until the database holds ``tables`` tables (a tenth of them
    finished); the running copies' timers are spread over a day (the templates' are
    12 and 24 hours ahead: the copies' fall from now to 36 hours ahead)."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=OFF")
    templates = [r[0] for r in conn.execute("SELECT id FROM tables ORDER BY id")]
    finished = [t for t, s in conn.execute("SELECT id, status FROM tables ORDER BY id")
                if s == "finished"]
    running = [t for t in templates if t not in finished]
    first = max(templates) + 1
    mapping = []
    for new_id in range(first, tables + 1):
        pool = finished if new_id % 10 == 0 else running
        mapping.append((new_id, pool[(new_id // 10) % len(pool)]))
    batch = 20_000
    for start in range(0, len(mapping), batch):
        with conn:
            conn.execute("DROP TABLE IF EXISTS copies")
            conn.execute("CREATE TEMP TABLE copies (new_id INTEGER PRIMARY KEY, template)")
            conn.executemany("INSERT INTO copies VALUES (?, ?)", mapping[start:start + batch])
            copy_rows(conn, "tables", "id", shift={"channel_id": "'c' || c.new_id"})
            for table in ("seats", "actions", "results"):
                copy_rows(conn, table, "table_id")
            # The outbox of a running copy: what its last two versions sent (older rows
            # are pruned by then; a finished copy is older than every row's keep).
            copy_rows(conn, "outbox", "table_id", fresh_id=True,
                      where="x.version >= (SELECT version FROM tables t WHERE t.id = "
                            "x.table_id) - 1 AND c.new_id % 10 != 0")
            copy_rows(conn, "timers", "table_id",
                      shift={"due_at": "x.due_at - 43200 + (c.new_id * 7919) % 86400"})
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def build(tree: Path, folder: Path, tables: int) -> Path:
    path = folder / "start.sqlite3"
    child(tree, BUILD, str(path), ",".join(GAMES))
    grow(path, tables)
    return path


def describe(path: Path) -> str:
    conn = sqlite3.connect(path)
    try:
        counts = {t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
                  for t in ("tables", "actions", "outbox", "timers")}
        finished = conn.execute("SELECT COUNT(*) FROM tables WHERE status = 'finished'"
                                ).fetchone()[0]
    finally:
        conn.close()
    size = path.stat().st_size / 2**20
    return (f"{counts['tables']} tables ({finished} finished), {counts['actions']} actions, "
            f"{counts['outbox']} outbox rows, {counts['timers']} timers, {size:.0f} MiB")


def export(commit: str, folder: Path) -> Path:
    tree = folder / f"tree-{commit}"
    tree.mkdir()
    archive = subprocess.run(["git", "archive", commit, "bot", "engine", "templates"],
                             cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    return tree


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--old", default=None, help="a commit to measure beside this tree")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="urbanist-start-", dir=ROOT) as name:
        folder = Path(name)
        trees = {"now": ROOT}
        if args.old:
            trees[args.old] = export(args.old, folder)
        dbs = {}
        for label, tree in trees.items():
            (folder / label).mkdir()
            dbs[label] = build(tree, folder / label, args.tables)
            print(f"{label}.database {describe(dbs[label])}", flush=True)
        results: dict[str, list[dict[str, float]]] = {label: [] for label in trees}
        for _ in range(args.runs):
            for label, tree in trees.items():
                results[label].append(json.loads(child(tree, MEASURE, str(dbs[label]))))
        for label, runs in results.items():
            for key, unit in (("wall", "s"), ("cpu", "s"), ("rss_mib", "MiB"),
                              ("jobs", "jobs"), ("held", "jobs"), ("running", "tables")):
                value = statistics.median(r[key] for r in runs)
                print(f"{label}.start_{args.tables}_{key} {value:.3f} {unit}", flush=True)


if __name__ == "__main__":
    main()
