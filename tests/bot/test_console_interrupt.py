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
