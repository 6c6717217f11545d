"""Ctrl-C in a real terminal session: it stops while the bots think, at once and saved,
without waiting for them (a 4-player table of hard bots thinks for many seconds)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
RUNNER = "import sys; from bot.cli import main; sys.exit(main(sys.argv[1:]))"
BOUND = 120.0  # seconds: generous, for a loaded machine; no test of speed


class Output:
    """A child's stdout, read as it comes."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.data = b""
        self.proc = proc
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        while chunk := os.read(self.proc.stdout.fileno(), 4096):
            with self.lock:
                self.data += chunk

    @property
    def text(self) -> str:
        with self.lock:
            return self.data.decode(errors="replace")

    def wait_for(self, what: str) -> None:
        deadline = time.monotonic() + BOUND
        while what not in self.text:
            assert time.monotonic() < deadline and self.proc.poll() is None, self.text
            time.sleep(0.05)


def test_ctrl_c_while_hard_bots_think_stops_the_game_saved(tmp_path: Path) -> None:
    db = tmp_path / "u.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    env.pop("URBANIST_BOT_LEVEL", None)
    proc = subprocess.Popen(
        [sys.executable, "-c", RUNNER, "local", "quadropolis", "--players", "4", "--bots",
         "4", "--ai", "hard", "--seed", "1", "--db", str(db)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    out = Output(proc)
    try:
        out.wait_for("All 4 seats are bots")
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=BOUND)  # without the stop, the bots play a whole game
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.stderr is not None
    errors = proc.stderr.read().decode()
    text = out.text
    assert code == 130, text + errors
    assert "Traceback" not in errors, errors
    assert "Stopping: the bots' thinking is dropped, the table is saved as it stands." in text
    assert text.rstrip().endswith(f"Resume it with: urbanist local --resume 1 --db {db}")
    assert "Game over" not in text
    checked = subprocess.run([sys.executable, "-c", RUNNER, "check", "--db", str(db)],
                             capture_output=True, text=True, env=env, timeout=BOUND,
                             check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr  # the table replays


async def test_the_bots_catching_up_on_a_resumed_table_can_be_interrupted(
        tmp_path: Path) -> None:
    """A resumed table whose bots owe moves plays them first (``play_for``): a hard bot
    thinks there as anywhere, so Ctrl-C must be able to cancel that wait too."""
    import asyncio
    import io
    from types import SimpleNamespace

    from bot.console.app import Session
    from bot.service import Actor
    from bot.store import SqliteStore

    store = await SqliteStore.open(tmp_path / "urbanist.sqlite3")
    session = Session(store, "en", io.StringIO(), io.StringIO())
    try:
        bot = SimpleNamespace(is_bot=True)
        owed = SimpleNamespace(status="running", waiting={0, 1}, seats=[bot, bot])
        seen: list[tuple[int, bool]] = []

        async def info(table: int) -> SimpleNamespace:
            return owed

        async def settled(table: int) -> None:
            return None

        async def thinking(table: int, actor: Actor, seat: int) -> None:
            # What Ctrl-C cancels: the task waiting here.
            seen.append((seat, session.interrupt.thinking is asyncio.current_task()))

        session.service.info = info  # type: ignore[method-assign,assignment]
        session.service.settle = settled  # type: ignore[method-assign]
        session.service.play_for = thinking  # type: ignore[method-assign,assignment]
        await session._bots_catch_up(1, Actor("local:0", "Host"))
        assert seen == [(0, True), (1, True)]
    finally:
        await session.service.close()
        await store.close()
