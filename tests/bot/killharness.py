"""SIGKILL a process that plays many tables, again and again, then count: the actions
acknowledged, the ones lost, the tables left waiting for a bot. Used by
tests/bot/test_kill.py (a few kills) and benchmarks/kill.py (many)."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path

import fakegame

from bot.service import MemoryNotifier, TableService
from bot.store import SqliteStore

assert fakegame.NAME  # registers the game the worker plays
HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
LINE_TIMEOUT = 60.0


@dataclass
class KillReport:
    kills: int = 0
    acknowledged: int = 0
    lost: int = 0
    # Tables a bot owed a move to when the process died: without a durable record of
    # it, nothing would ever have made that bot play.
    bot_owed_at_kill: int = 0
    stuck: int = 0  # running tables still waiting on a bot after the next boot
    replay_failures: list[str] = field(default_factory=list)
    tables: int = 0


async def _run_until_kill(db: Path, tasks: int, acks: int, errors: Path,
                          acked: dict[int, int]) -> int:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(HERE)])}
    with errors.open("ab") as err:
        worker = await asyncio.create_subprocess_exec(
            sys.executable, str(HERE / "kill_worker.py"), str(db), str(tasks),
            stdout=asyncio.subprocess.PIPE, stderr=err, env=env)
    count = 0
    try:
        assert worker.stdout is not None
        while count < acks:
            line = await asyncio.wait_for(worker.stdout.readline(), LINE_TIMEOUT)
            if not line:
                raise RuntimeError("worker died: " + errors.read_text()[-2000:])
            _, table, version = line.decode().split()
            acked[int(table)] = max(acked.get(int(table), 0), int(version))
            count += 1
    finally:
        if worker.returncode is None:
            os.kill(worker.pid, signal.SIGKILL)
        await worker.wait()
    return count


async def _bot_owed(db: Path) -> int:
    store = await SqliteStore.open(db)
    try:
        return len(await store.bot_turn_tables())
    finally:
        await store.close()


async def kill_test(db: Path, *, kills: int, tasks: int = 8, seed: int = 1,
                    acks: tuple[int, int] = (20, 120)) -> KillReport:
    """``kills`` runs of the worker, each killed after a random number of acks."""
    rng = random.Random(seed)
    report = KillReport()
    acked: dict[int, int] = {}
    errors = db.with_suffix(".err")
    for _ in range(kills):
        report.acknowledged += await _run_until_kill(db, tasks, rng.randint(*acks), errors,
                                                     acked)
        report.kills += 1
        report.bot_owed_at_kill += await _bot_owed(db)
    store = await SqliteStore.open(db)
    try:
        service = TableService(store, MemoryNotifier())
        await service.boot()  # resumes the bots, as any restart does
        for table, version in acked.items():
            record = await store.load_table(table)
            if record is None or record.version < version:
                report.lost += 1
        for record in await store.find_tables():
            report.tables += 1
            if record.status == "running":
                info = await service.info(record.id)
                if info.waiting and all(info.seats[s].is_bot for s in info.waiting):
                    report.stuck += 1
            if record.status != "lobby":
                replay = await service.verify(record.id)
                if not replay.ok:
                    report.replay_failures.append(f"{record.id}: {replay.problem}")
    finally:
        await store.close()
    return report
