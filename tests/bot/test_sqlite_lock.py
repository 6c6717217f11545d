"""One bot process per SQLite file, whatever name the file is given: a second process
that reaches the same file through a symlink, a hard link or another spelling of its
path is refused, as one reaching it by the same name is (test_single_process.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.store.health import EXIT_STORAGE, hold_database, lock_path

ROOT = Path(__file__).resolve().parent.parent.parent
TIMEOUT = 120  # seconds before a command counts as hung


def urbanist(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DISCORD_TOKEN": "not-a-token"}  # run must reach the lock
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=ROOT, env=env,
                          input="quit\n", capture_output=True, text=True, timeout=TIMEOUT)


def wait_until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"gave up waiting: {what}")
        time.sleep(0.05)


def holds(db: Path, process: subprocess.Popen[str]) -> bool:
    """Whether ``process`` has taken ``db`` (it writes its pid once it has), or ended."""
    if process.poll() is not None:
        return True
    try:
        return lock_path(db).read_text().strip() == str(process.pid)
    except FileNotFoundError:
        return False


@pytest.fixture
def first_bot(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], Path]]:
    """``urbanist local`` on ``real/urbanist.sqlite3``, waiting at its prompt."""
    (tmp_path / "real").mkdir()
    db = tmp_path / "real" / "urbanist.sqlite3"
    first = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "local", "skybridge", "--db", str(db)], cwd=ROOT,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_until(lambda: holds(db, first), "the first bot's lock")
        assert first.poll() is None, first.communicate()
        yield first, db
    finally:
        if first.poll() is None:
            first.kill()
        first.communicate(timeout=TIMEOUT)


def other_name(db: Path, how: str) -> Path:
    """Another name of ``db``'s file, in another directory."""
    elsewhere = db.parent.parent / "elsewhere"
    elsewhere.mkdir()
    if how == "symlink":
        name = elsewhere / "bot.sqlite3"
        name.symlink_to(db)
    elif how == "linked_directory":
        (elsewhere / "dir").symlink_to(db.parent, target_is_directory=True)
        name = elsewhere / "dir" / db.name
    elif how == "hard_link":
        name = elsewhere / "bot.sqlite3"
        os.link(db, name)
    else:  # '..' after a symlinked directory: the kernel climbs from its target
        (elsewhere / "dir").symlink_to(db.parent, target_is_directory=True)
        name = elsewhere / "dir" / ".." / db.parent.name / db.name
    assert name.samefile(db) and str(name) != str(db)
    return name


@pytest.mark.parametrize("how", ["symlink", "linked_directory", "hard_link", "dotdot"])
@pytest.mark.parametrize("command", [["local", "skybridge"], ["run", "--no-sync"]])
def test_a_second_process_on_another_name_of_the_file_is_refused(
        first_bot: tuple[subprocess.Popen[str], Path], how: str, command: list[str]) -> None:
    first, db = first_bot
    wait_until(db.exists, "the first bot's database")
    name = other_name(db, how)
    second = urbanist(*command, "--db", str(name))
    assert second.returncode == EXIT_STORAGE, (second.stdout, second.stderr)
    # A hard link has a lock file of its own, which does not name the holder.
    pid = "" if how == "hard_link" else f" (pid {first.pid})"
    assert second.stderr.strip() == (
        f"urbanist: {name} is already used by another Urbanist process{pid}: "
        "stop it first (check and backup may run beside it)")
    assert "Traceback" not in second.stdout + second.stderr
    assert first.poll() is None
    # The first one plays on, undisturbed.
    out, err = first.communicate("quit\n", timeout=TIMEOUT)
    assert first.returncode == 0, err
    assert "urbanist local --resume" in out or "resume" in out.lower()


def test_a_stale_pid_in_a_lock_file_is_never_named(tmp_path: Path) -> None:
    """A hard link's own lock file left by an earlier run names a process long gone:
    the refusal must not name it as the holder."""
    (tmp_path / "real").mkdir()
    db = tmp_path / "real" / "urbanist.sqlite3"
    db.touch()
    name = other_name(db, "hard_link")
    lock_path(name).write_text("999999\n")
    first = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "local", "skybridge", "--db", str(db)], cwd=ROOT,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_until(lambda: holds(db, first), "the first bot's lock")
        assert first.poll() is None, first.communicate()
        second = urbanist("local", "skybridge", "--db", str(name))
        assert second.returncode == EXIT_STORAGE, second.stderr
        assert "999999" not in second.stderr and "already used" in second.stderr
    finally:
        first.kill()
        first.communicate(timeout=TIMEOUT)


def test_one_process_holds_the_file_once_by_every_name(tmp_path: Path) -> None:
    db = tmp_path / "urbanist.sqlite3"
    link = tmp_path / "link.sqlite3"
    link.symlink_to(db)
    lock = hold_database(db)
    try:
        assert lock is not None and hold_database(link) is lock
    finally:
        assert lock is not None
        lock.release()
