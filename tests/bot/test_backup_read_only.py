"""``urbanist backup`` only reads its source: a database file nobody may write (an
archived copy, a live database whose file was made read-only) is backed up, the source
left as it was; only a target that cannot be written is refused, in one line."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bot.store.health import EXIT_STORAGE

ROOT = Path(__file__).resolve().parent.parent.parent
TIMEOUT = 120  # seconds before a command counts as hung


def urbanist(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=ROOT,
                          input="quit\n", capture_output=True, text=True, timeout=TIMEOUT)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@contextmanager
def unwritable(path: Path) -> Iterator[None]:
    """``path`` (a file or a directory) made so that nobody may write it: ``chattr +i``
    for root, whom permission bits do not stop; chmod for anyone else."""
    if os.geteuid() == 0:
        if shutil.which("chattr") is None or subprocess.run(
                ["chattr", "+i", str(path)], capture_output=True).returncode != 0:
            pytest.skip("chattr +i is not available here")
        undo: Callable[[], object] = lambda: subprocess.run(  # noqa: E731
            ["chattr", "-i", str(path)], check=True)
    else:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        undo = lambda: path.chmod(mode)  # noqa: E731
    try:
        if path.is_file():
            with pytest.raises(PermissionError):
                path.open("r+b")  # truly read-only, for this process too
        yield
    finally:
        undo()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with a finished table, written by the bot's own console."""
    db = tmp_path_factory.mktemp("played") / "urbanist.sqlite3"
    done = urbanist("local", "skybridge", "--players", "2", "--bots", "2", "--seed", "5",
                    "--db", str(db))
    assert done.returncode == 0, done.stderr
    return db


def assert_sound_copy(copy: Path, tables: int) -> None:
    checked = urbanist("check", "--db", str(copy))
    assert checked.returncode == 0, (checked.stdout, checked.stderr)
    assert f"replayed {tables} tables" in checked.stdout and checked.stdout.endswith("ok\n")


def test_an_archived_backup_that_nobody_may_write_is_backed_up(played: Path,
                                                               tmp_path: Path) -> None:
    # A backup is one self-contained file (no write-ahead log): opening it as the bot
    # does would switch it to WAL, a write.
    archive = tmp_path / "archive.sqlite3"
    made = urbanist("backup", str(archive), "--db", str(played))
    assert made.returncode == 0, made.stderr
    before = digest(archive)
    copy = tmp_path / "copy.sqlite3"
    with unwritable(archive):
        result = urbanist("backup", str(copy), "--db", str(archive))
        assert result.returncode == 0, result.stderr
        assert result.stdout == f"backed up {archive} to {copy}\n"
    assert digest(archive) == before
    assert_sound_copy(copy, 1)


def test_a_live_database_made_read_only_is_backed_up_with_its_log(played: Path,
                                                                  tmp_path: Path) -> None:
    db = tmp_path / "urbanist.sqlite3"
    shutil.copy(played, db)
    # Another process (a bot) has written rows its log still holds, not the file.
    writer = sqlite3.connect(db, isolation_level=None)
    try:
        writer.execute("PRAGMA journal_mode=WAL")
        writer.execute("PRAGMA wal_autocheckpoint=0")
        writer.execute("CREATE TABLE ballast (x BLOB)")
        for _ in range(20):
            writer.execute("INSERT INTO ballast VALUES (zeroblob(1000))")
        assert Path(f"{db}-wal").stat().st_size > 0
        before = digest(db)
        copy = tmp_path / "copy.sqlite3"
        with unwritable(db):
            result = urbanist("backup", str(copy), "--db", str(db))
            assert result.returncode == 0, result.stderr
        assert digest(db) == before
        assert writer.execute("SELECT count(*) FROM ballast").fetchone() == (20,)
    finally:
        writer.close()
    with sqlite3.connect(copy) as conn:
        assert conn.execute("SELECT count(*) FROM ballast").fetchone() == (20,)
    conn.close()
    assert_sound_copy(copy, 1)


def test_a_target_that_cannot_be_written_is_refused_in_one_line(played: Path,
                                                                tmp_path: Path) -> None:
    frozen = tmp_path / "frozen"
    frozen.mkdir()
    before = digest(played)
    with unwritable(frozen):
        result = urbanist("backup", str(frozen / "copy.sqlite3"), "--db", str(played))
        assert result.returncode == EXIT_STORAGE, (result.stdout, result.stderr)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("urbanist: "), result.stderr
        assert str(frozen / "copy.sqlite3") in lines[0] and "Traceback" not in result.stderr
        assert list(frozen.iterdir()) == []
    assert digest(played) == before
