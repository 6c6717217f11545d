"""SIGKILL a process whose transport sends by a task (as Discord's and mail's do), again
and again, then boot once more and count what went out: every message an acknowledged
action owed went out exactly once. This is what the save that claims its own rows, the
handoff to a task still sending and the marks without a sync of their own (issue 25)
must keep: a row that may have gone out is always offered in doubt (the transport looks
for it first), and a row owed is never forgotten."""

from __future__ import annotations

import asyncio
import collections
import os
import random
import signal
import sys
from pathlib import Path

import pytest
from outbox_kill_worker import FileTransport

from bot.service import TableService
from bot.store import SqliteStore

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
# CI's size; ``URBANIST_KILLS=N`` runs more.
KILLS = int(os.environ.get("URBANIST_KILLS", "4"))


async def run_until_kill(db: Path, sent: Path, acks: int, errors: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(HERE)])}
    with errors.open("ab") as err:
        worker = await asyncio.create_subprocess_exec(
            sys.executable, str(HERE / "outbox_kill_worker.py"), str(db), str(sent), "4",
            stdout=asyncio.subprocess.PIPE, stderr=err, env=env)
    try:
        assert worker.stdout is not None
        for _ in range(acks):
            line = await asyncio.wait_for(worker.stdout.readline(), 60.0)
            if not line:
                raise RuntimeError("worker died: " + errors.read_text()[-2000:])
    finally:
        if worker.returncode is None:
            os.kill(worker.pid, signal.SIGKILL)
        await worker.wait()


@pytest.mark.timeout(240)
async def test_killed_again_and_again_every_message_goes_out_exactly_once(
        tmp_path: Path) -> None:
    db, sent, errors = tmp_path / "k.sqlite3", tmp_path / "sent.txt", tmp_path / "err.txt"
    rng = random.Random(25)
    for _ in range(KILLS):
        await run_until_kill(db, sent, rng.randint(10, 80), errors)
    # The last boot: what was left owed or in doubt goes out, and nothing else.
    store = await SqliteStore.open(db)
    try:
        service = TableService(store, FileTransport(sent))
        await service.boot()
        await service.sweep()
        await service.delivery.idle()
        rows = await store.load_outbox()
        assert not [r for r in rows if r.state in ("pending", "sending", "held")]
        counts = collections.Counter(int(line) for line in sent.read_text().split())
        assert [i for i, n in counts.items() if n > 1] == []  # nothing went out twice
        assert {r.id for r in rows} == set(counts)  # and nothing owed was left out
        assert len(rows) > 50
    finally:
        await store.close()
