"""At a real terminal the prompt is the platform's line editor: Ctrl-A goes to the start
of the line, the up arrow brings the last command back."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
RUNNER = "import fakegame, sys; from bot.cli import main; sys.exit(main(sys.argv[1:]))"
BOUND = 60.0  # seconds: generous, for a loaded machine; no test of speed


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal is POSIX")
def test_the_prompt_edits_lines_and_keeps_a_history(tmp_path: Path) -> None:
    pytest.importorskip("readline")
    master, slave = os.openpty()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(HERE)]),
           "TERM": "xterm"}
    proc = subprocess.Popen(
        [sys.executable, "-c", RUNNER, "local", "fakepicks", "--players", "2", "--bots", "1",
         "--name", "Zoé", "--seed", "2", "--db", str(tmp_path / "u.sqlite3")],
        stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
    os.close(slave)
    seen = b""

    def wait_for(what: bytes, count: int = 1) -> None:
        nonlocal seen
        deadline = time.monotonic() + BOUND
        while seen.count(what) < count:
            assert time.monotonic() < deadline, seen.decode(errors="replace")
            if not select.select([master], [], [], 0.2)[0]:
                continue
            try:
                seen += os.read(master, 4096)
            except OSError:  # the child is gone
                assert seen.count(what) >= count, seen.decode(errors="replace")

    try:
        wait_for("Zoé> ".encode())
        os.write(master, b"elp\x01h\r")  # Ctrl-A: back to the start of the line
        wait_for(b"Commands:", 2)
        os.write(master, b"\x1b[A\r")  # the up arrow: the same command again
        wait_for(b"Commands:", 3)
        os.write(master, b"quit\r")
        wait_for(b"Resume it with")
        assert proc.wait(timeout=BOUND) == 0
        assert b"I did not understand" not in seen
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
