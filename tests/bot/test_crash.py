"""A process applying actions is killed with SIGKILL: every acknowledged action survives,
and replaying each table's log from its seed reproduces its stored snapshot."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest
from conftest import RenderingNotifier

from bot.service import TableService
from bot.store import SqliteStore

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
LINE_TIMEOUT = 60.0
"""Seconds to wait for one acknowledgement: a worker that hangs fails the test, not the run."""


@pytest.mark.parametrize("acks_before_kill", [7, 60])
async def test_sigkill_loses_no_acknowledged_action(tmp_path: Path,
                                                    acks_before_kill: int) -> None:
    db = tmp_path / "crash.sqlite3"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(HERE)])}
    # stderr goes to a file: a pipe nobody reads fills up and blocks the worker.
    errors = tmp_path / "worker.err"
    with errors.open("wb") as err:
        worker = await asyncio.create_subprocess_exec(
            sys.executable, str(HERE / "crash_worker.py"), str(db),
            stdout=asyncio.subprocess.PIPE, stderr=err, env=env)
    acked: dict[int, int] = {}  # table -> highest acknowledged version
    count = 0
    try:
        assert worker.stdout is not None
        while count < acks_before_kill:
            try:
                line = await asyncio.wait_for(worker.stdout.readline(), LINE_TIMEOUT)
            except TimeoutError:
                pytest.fail(f"worker silent for {LINE_TIMEOUT} s: " + errors.read_text())
            if not line:
                await worker.wait()
                pytest.fail("worker died: " + errors.read_text())
            _, table, version = line.decode().split()
            acked[int(table)] = max(acked.get(int(table), 0), int(version))
            count += 1
    finally:
        # Killed while it keeps acting: most likely in the middle of a transaction.
        if worker.returncode is None:
            os.kill(worker.pid, signal.SIGKILL)
        await worker.wait()
    assert worker.returncode == -signal.SIGKILL

    store = await SqliteStore.open(db)
    try:
        assert await store.integrity_check() == []
        service = TableService(store, RenderingNotifier())
        await service.boot()
        for table, version in acked.items():
            record = await store.load_table(table)
            assert record is not None and record.version >= version
            versions = [a.version for a in await store.load_actions(table)]
            assert versions == list(range(2, record.version + 1))
        for record in await store.find_tables():
            if record.status != "lobby":
                report = await service.verify(record.id)
                assert report.ok, report
    finally:
        await store.close()

