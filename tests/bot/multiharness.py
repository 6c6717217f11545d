"""Several bot processes on one PostgreSQL, one of them SIGKILLed at random moments,
then counted: acknowledged moves lost, deadlines fired twice or never, tables that do
not replay. Used by tests/bot/test_multiprocess.py (a few kills) and
benchmarks/multiprocess.py (many)."""

from __future__ import annotations

import asyncio
import itertools
import os
import random
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from lease_worker import DEADLINE

from bot.store import open_store

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
DRAIN_TIMEOUT = 120.0
START_TIMEOUT = 120.0


@dataclass
class MultiReport:
    kills: int = 0
    restarts: int = 0  # of the database server, in the middle of the kills
    acknowledged: int = 0
    lost: int = 0  # acknowledged moves not in the log
    tables: int = 0  # tables that were started
    unfinished: int = 0  # still running after the drain: a deadline never fired
    timeouts_logged: int = 0  # timeout actions in the log
    timeouts_reported: int = 0  # TIMEOUT lines printed by the processes
    reported_twice: int = 0  # the same committed timeout reported by two processes
    reported_not_logged: int = 0
    seat1_not_timeout: int = 0  # seat 1 is never played: any other source is wrong
    early: int = 0  # two timeouts of seat 1 closer than a deadline: one fired too soon
    check_exit: int = -1  # `urbanist check` (integrity and replay of every table)
    check_output: str = ""
    errors: list[str] = field(default_factory=list)


@dataclass
class DatabaseRestart:
    """Stops the database server, waits ``down`` seconds, starts it again."""

    stop: Callable[[], None]
    start: Callable[[], None]
    down: float = 5.0

    async def cycle(self, report: MultiReport) -> None:
        await asyncio.to_thread(self.stop)
        try:
            await asyncio.sleep(self.down)
        finally:
            await asyncio.to_thread(self.start)
        report.restarts += 1


class Workers:
    def __init__(self, url: str, ttl: float, tasks: int, errors: Path) -> None:
        self.url, self.ttl, self.tasks, self.errors = url, ttl, tasks, errors
        self.lines: list[tuple[str, list[str]]] = []
        self.readers: list[asyncio.Task[None]] = []

    async def spawn(self, owner: str, mode: str = "play") -> asyncio.subprocess.Process:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(HERE)])}
        with self.errors.open("ab") as err:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, str(HERE / "lease_worker.py"), self.url, owner, mode,
                str(self.tasks), str(self.ttl), stdout=asyncio.subprocess.PIPE, stderr=err,
                env=env)
        self.readers.append(asyncio.get_running_loop().create_task(self._read(owner, proc)))
        return proc

    async def _read(self, owner: str, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdout is not None
        async for line in proc.stdout:
            if line.endswith(b"\n"):  # a line cut by SIGKILL was never said
                self.lines.append((owner, line.decode().split()))

    def said(self, word: str, owner: str | None = None) -> list[list[str]]:
        return [w for o, w in self.lines if w and w[0] == word and owner in (None, o)]

    async def until(self, word: str, owners: list[str], report: MultiReport) -> None:
        """Wait until each of ``owners`` has said ``word``: on a loaded machine a process
        takes seconds to start, and a kill timed from its spawn would find it booting."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + START_TIMEOUT
        while not all(self.said(word, owner) for owner in owners):
            if loop.time() > deadline:
                report.errors.append(f"no {word} from {owners} in {START_TIMEOUT:.0f} s")
                return
            await asyncio.sleep(0.05)


async def kill(proc: asyncio.subprocess.Process) -> None:
    if proc.returncode is None:
        os.kill(proc.pid, signal.SIGKILL)
    await proc.wait()


async def multi_test(url: str, work_dir: Path, *, processes: int = 3, kills: int = 3,
                     tasks: int = 4, ttl: float = 2.0, seed: int = 1,
                     between: tuple[float, float] = (0.5, 2.0),
                     restart: DatabaseRestart | None = None) -> MultiReport:
    """``processes`` workers play; ``kills`` times one of them, drawn at random, is
    SIGKILLed after a random pause and replaced by a new process; then all are killed and
    one ``drain`` process takes every table over and lets the deadlines finish them.
    With ``restart``, the database server itself is stopped halfway through the kills
    for ``restart.down`` seconds, then started again (the processes live on)."""
    store = await open_store(url)  # the schema, once, before the processes race for it
    await store.close()
    rng = random.Random(seed)
    report = MultiReport()
    workers = Workers(url, ttl, tasks, work_dir / "workers.err")
    owners = [f"w{i}.0" for i in range(processes)]
    procs = [await workers.spawn(owner) for owner in owners]
    try:
        for k in range(kills):
            # Each pause runs from when every process is up, not from its spawn.
            await workers.until("READY", owners, report)
            if restart is not None and k == kills // 2:
                await restart.cycle(report)
            await asyncio.sleep(rng.uniform(*between))
            victim = rng.randrange(processes)
            await kill(procs[victim])
            report.kills += 1
            owners[victim] = f"w{victim}.{k + 1}"
            procs[victim] = await workers.spawn(owners[victim])
        await workers.until("READY", owners, report)
        await asyncio.sleep(rng.uniform(*between))
        # However slow the machine, the processes have played before they all go.
        await workers.until("ACK", [owners[0]], report)
    finally:
        for proc in procs:
            await kill(proc)
    drain = await workers.spawn("drain", "drain")
    try:
        deadline = asyncio.get_running_loop().time() + DRAIN_TIMEOUT
        while not workers.said("DONE") and drain.returncode is None:
            if asyncio.get_running_loop().time() > deadline:
                report.errors.append("the drain did not finish")
                break
            await asyncio.sleep(0.1)
    finally:
        await kill(drain)
    await asyncio.gather(*workers.readers)
    await count(url, workers, report)
    if report.errors or (work_dir / "workers.err").exists():
        text = (work_dir / "workers.err").read_text(errors="replace")
        if "Traceback" in text:
            report.errors.append(text[-3000:])
    checker = await asyncio.create_subprocess_exec(
        # `urbanist check`, with the test game registered first.
        sys.executable, "-c", "import fakegame, sys; from bot.cli import main; "
        "sys.exit(main(sys.argv[1:]))", "check", "--db", url, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(HERE)])})
    output, _ = await checker.communicate()
    report.check_exit = checker.returncode if checker.returncode is not None else -1
    report.check_output = output.decode()[-2000:]
    return report


async def count(url: str, workers: Workers, report: MultiReport) -> None:
    acked = [(int(t), int(v)) for _, t, v in workers.said("ACK")]
    reported = [(int(t), int(v), int(s)) for _, t, v, s in workers.said("TIMEOUT")]
    report.acknowledged = len(acked)
    report.timeouts_reported = len(reported)
    report.reported_twice = len(reported) - len(set(reported))
    store = await open_store(url)
    try:
        logged: set[tuple[int, int, int]] = set()
        played: set[tuple[int, int]] = set()
        for record in await store.find_tables():
            if record.status == "lobby":
                continue
            report.tables += 1
            report.unfinished += record.status == "running"
            actions = await store.load_actions(record.id)
            seat1 = [a.at for a in actions if a.seat == 1 and a.source == "timeout"]
            report.seat1_not_timeout += sum(a.seat == 1 and a.source != "timeout"
                                            for a in actions)
            report.early += sum(b - a < DEADLINE - 0.01 for a, b in itertools.pairwise(seat1))
            for a in actions:
                if a.source == "timeout":
                    logged.add((record.id, a.version, a.seat))
                elif a.seat == 0 and a.source == "player":
                    played.add((record.id, a.version))
        report.timeouts_logged = len(logged)
        report.lost = sum((t, v) not in played for t, v in acked)
        report.reported_not_logged = sum(r not in logged for r in set(reported))
    finally:
        await store.close()
