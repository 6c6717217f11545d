"""One bot process per database file: a second ``local`` or ``run`` on the same file
refuses to start with a clear message, ``check`` and ``backup`` still work beside the
first, and the file is free again once the first has ended, however it ended."""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.store.health import EXIT_STORAGE, StorageError, hold_database, lock_path

ROOT = Path(__file__).resolve().parent.parent.parent
TIMEOUT = 120  # seconds before a command counts as hung


def urbanist(*args: str, stdin: str = "quit\n") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DISCORD_TOKEN": "not-a-token"}  # run must reach the lock
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=ROOT, env=env,
                          input=stdin, capture_output=True, text=True, timeout=TIMEOUT)


def is_locked(db: Path) -> bool:
    """Whether some process holds the database's lock (tried without taking it for long)."""
    lock = lock_path(db)
    if not lock.exists():
        return False
    fd = os.open(lock, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # also drops the lock if we just took it
    return False


def holder(db: Path) -> str:
    try:
        return lock_path(db).read_text().strip()
    except FileNotFoundError:
        return ""


def wait_until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"gave up waiting: {what}")
        time.sleep(0.05)


@pytest.fixture
def first_bot(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], Path]]:
    """``urbanist local`` on a file, waiting at its prompt: it holds the database."""
    db = tmp_path / "urbanist.sqlite3"
    first = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "local", "skybridge", "--db", str(db)], cwd=ROOT,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # The holder writes its pid once it has the lock; probing with flock here could
        # take the lock at the very moment the first bot tries to.
        wait_until(lambda: holder(db) == str(first.pid) or first.poll() is not None,
                   "the first bot's lock")
        assert first.poll() is None, first.communicate()
        yield first, db
    finally:
        if first.poll() is None:
            first.kill()
        first.communicate(timeout=TIMEOUT)


@pytest.mark.parametrize("command", [["local", "skybridge"], ["run", "--no-sync"]])
def test_a_second_bot_on_the_same_file_refuses_to_start(
        first_bot: tuple[subprocess.Popen[str], Path], command: list[str]) -> None:
    first, db = first_bot
    second = urbanist(*command, "--db", str(db))
    assert second.returncode == EXIT_STORAGE, (second.stdout, second.stderr)
    assert second.stderr.strip() == (
        f"urbanist: {db} is already used by another Urbanist process (pid {first.pid}): "
        "stop it first (check and backup may run beside it)")
    assert "Traceback" not in second.stdout + second.stderr
    assert first.poll() is None and is_locked(db)


def test_check_and_backup_run_beside_the_bot(
        first_bot: tuple[subprocess.Popen[str], Path], tmp_path: Path) -> None:
    first, db = first_bot
    wait_until(db.exists, "the first bot's database")
    checked = urbanist("check", "--db", str(db))
    assert checked.returncode == 0 and checked.stdout.strip().endswith("ok"), checked.stderr
    copy = tmp_path / "copy.sqlite3"
    backup = urbanist("backup", str(copy), "--db", str(db))
    assert backup.returncode == 0, backup.stderr
    assert copy.is_file() and first.poll() is None


@pytest.mark.parametrize("ending", ["quit", "sigkill"])
def test_the_file_is_free_once_the_first_bot_has_ended(
        first_bot: tuple[subprocess.Popen[str], Path], ending: str) -> None:
    first, db = first_bot
    if ending == "quit":
        first.communicate("quit\n", timeout=TIMEOUT)
        assert first.returncode == 0
    else:
        first.send_signal(signal.SIGKILL)  # no clean-up code runs: the kernel drops the lock
        first.wait(timeout=TIMEOUT)
    assert not is_locked(db)
    again = urbanist("local", "skybridge", "--db", str(db))
    assert again.returncode == 0, again.stderr
    assert "already used" not in again.stderr


def test_the_lock_is_taken_once_per_process_and_can_be_released(tmp_path: Path) -> None:
    db = tmp_path / "urbanist.sqlite3"
    lock = hold_database(db)
    assert lock is not None and hold_database(db) is lock and is_locked(db)
    assert lock_path(db).read_text().strip() == str(os.getpid())
    lock.release()
    assert not is_locked(db)
    assert hold_database(":memory:") is None


def test_a_directory_that_cannot_hold_the_lock_file(tmp_path: Path) -> None:
    (tmp_path / "plain.txt").write_text("x")
    with pytest.raises(StorageError) as info:
        hold_database(tmp_path / "plain.txt" / "urbanist.sqlite3")
    assert info.value.code == "cannot_open"
