"""A full disk (or a read-only one) under ``urbanist local`` is one line naming the
file and exit 3, never an ``OSError`` traceback, wherever it is met: the lock file, the
database's files, a move's commit in the middle of a game, the command's own output.
The disk is a real one: a small tmpfs mounted for the test (root only; skipped where
mounting is not allowed), and /dev/full for the output."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fulldisk import disk, fill

from bot.store.health import EXIT_STORAGE

ROOT = Path(__file__).resolve().parent.parent.parent
TIMEOUT = 120  # seconds before a command counts as hung
FULL = "is full: free some space, then try again"
_FIXTURES = (disk,)


def urbanist(*args: str, stdin: str = "quit\n") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=ROOT,
                          input=stdin, capture_output=True, text=True, timeout=TIMEOUT)


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    """The one line a refused command prints (exit 3, no traceback)."""
    assert result.returncode == EXIT_STORAGE, (result.stdout[-2000:], result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    return lines[0]


def at_prompt(process: subprocess.Popen[bytes]) -> bytes:
    """What ``process`` printed up to its first prompt (``... > ``)."""
    assert process.stdout is not None
    seen = b""
    deadline = time.monotonic() + TIMEOUT
    while not seen.endswith(b"> "):
        assert time.monotonic() < deadline, f"no prompt: {seen[-500:]!r}"
        ready, _, _ = select.select([process.stdout], [], [], 1.0)
        if ready:
            chunk = os.read(process.stdout.fileno(), 4096)
            assert chunk, f"ended before its prompt: {seen[-500:]!r}"
            seen += chunk
    return seen


def test_a_disk_that_fills_up_mid_game_ends_local_in_one_line(disk: Path) -> None:
    db = disk / "urbanist.sqlite3"
    game = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "local", "skybridge", "--players", "2", "--bots",
         "1", "--seed", "4", "--db", str(db)], cwd=ROOT, stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        at_prompt(game)
        filler = fill(disk)  # while the player thinks
        # Enough moves that the game must grow its files whatever room they had.
        _, err = game.communicate(b"#1\n" * 300 + b"quit\n", timeout=TIMEOUT)
    finally:
        if game.poll() is None:
            game.kill()
            game.communicate(timeout=TIMEOUT)
    result = subprocess.CompletedProcess(game.args, game.returncode, "", err.decode())
    assert one_line(result) == f"urbanist: the disk holding {db} {FULL}"
    # Nothing half written: once there is room again, the table checks and plays on.
    filler.unlink()
    checked = urbanist("check", "--db", str(db))
    assert checked.returncode == 0 and checked.stdout.endswith("ok\n"), checked.stdout
    again = urbanist("local", "skybridge", "--db", str(db), stdin="#1\nquit\n")
    assert again.returncode == 0, again.stderr


def test_a_new_database_on_a_full_disk(disk: Path) -> None:
    fill(disk)
    db = disk / "urbanist.sqlite3"
    result = urbanist("local", "skybridge", "--players", "2", "--bots", "1", "--db", str(db))
    assert one_line(result) == f"urbanist: the disk holding {db} {FULL}"


def test_resuming_a_table_on_a_full_disk(disk: Path) -> None:
    db = disk / "urbanist.sqlite3"
    started = urbanist("local", "skybridge", "--players", "2", "--bots", "1", "--db", str(db),
                       stdin="#1\nquit\n")
    assert started.returncode == 0, started.stderr
    fill(disk)
    # SQLite says "disk I/O error" when it cannot make its shared-memory file: on a
    # disk with no room, the line says what the operator must do.
    result = urbanist("local", "skybridge", "--db", str(db), stdin="#1\nquit\n")
    assert one_line(result) == f"urbanist: the disk holding {db} {FULL}"


def test_a_read_only_file_system(disk: Path) -> None:
    db = disk / "urbanist.sqlite3"
    started = urbanist("local", "skybridge", "--players", "2", "--bots", "1", "--db", str(db))
    assert started.returncode == 0, started.stderr
    subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
    for target in (db, disk / "new.sqlite3"):
        result = urbanist("local", "skybridge", "--db", str(target))
        assert one_line(result) == (
            f"urbanist: {target} is on a read-only file system, and must be written: "
            "mount it read-write, or give another path")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
@pytest.mark.parametrize("command", [["tables"], ["local", "skybridge", "--players", "2",
                                                  "--bots", "2"]])
def test_output_to_a_full_disk(command: list[str], tmp_path: Path) -> None:
    # /dev/full: every write fails with ENOSPC, as a transcript on a full disk does.
    db = tmp_path / "urbanist.sqlite3"
    with Path("/dev/full").open("w") as full:
        done = subprocess.run([sys.executable, "-m", "bot.cli", *command, "--db", str(db)],
                              cwd=ROOT, input="quit\n", stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=TIMEOUT)
    result = subprocess.CompletedProcess(done.args, done.returncode, "", done.stderr)
    assert one_line(result) == f"urbanist: the disk holding the output (/dev/full) {FULL}"
