"""Storage faults reach people as one clear line and an exit code, never as a traceback
or a hang: every command runs as a real process on real broken files, with a timeout."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.store import SqliteStore
from bot.store.health import EXIT_STORAGE, JOURNAL_SIZE_LIMIT

ROOT = Path(__file__).resolve().parent.parent.parent
TIMEOUT = 120  # seconds before a command counts as hung; each takes about one
COMMANDS = ["check", "backup", "local", "run"]


def urbanist(*args: str, stdin: str = "quit\n") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DISCORD_TOKEN": "not-a-token"}  # run must reach the database
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=ROOT, env=env,
                          input=stdin, capture_output=True, text=True, timeout=TIMEOUT)


def command_on(command: str, db: Path, tmp_path: Path) -> list[str]:
    if command == "backup":
        return ["backup", str(tmp_path / "copy.sqlite3"), "--db", str(db)]
    if command == "local":
        return ["local", "skybridge", "--db", str(db)]
    if command == "run":
        return ["run", "--no-sync", "--db", str(db)]
    return ["check", "--db", str(db)]


def assert_refused(result: subprocess.CompletedProcess[str], *words: str) -> None:
    """Exit code 3, one line on stderr that says what is wrong, no traceback."""
    assert result.returncode == EXIT_STORAGE, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("urbanist: "), result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    for word in words:
        assert word in lines[0], lines[0]


@pytest.fixture(scope="module")
def healthy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with finished tables, written by the bot's own console."""
    db = tmp_path_factory.mktemp("healthy") / "urbanist.sqlite3"
    for seed in ("1", "2"):
        done = urbanist("local", "skybridge", "--players", "2", "--bots", "2", "--seed", seed,
                        "--db", str(db))
        assert done.returncode == 0, done.stderr
    checked = urbanist("check", "--db", str(db))
    assert checked.returncode == 0 and "replayed 2 tables" in checked.stdout, checked.stdout
    return db


def copy_of(healthy: Path, tmp_path: Path) -> Path:
    db = tmp_path / "urbanist.sqlite3"
    shutil.copy(healthy, db)
    return db


@pytest.mark.parametrize("command", COMMANDS)
def test_a_file_that_is_not_a_database(command: str, tmp_path: Path) -> None:
    db = tmp_path / "notes.sqlite3"
    db.write_text("shopping list: tiles, cubes, bridges\n" * 200)
    before = db.read_bytes()
    assert_refused(urbanist(*command_on(command, db, tmp_path)), str(db), "not an SQLite")
    assert db.read_bytes() == before
    assert not (tmp_path / "copy.sqlite3").exists()


@pytest.mark.parametrize("command", COMMANDS)
def test_a_database_from_a_newer_urbanist(command: str, healthy: Path, tmp_path: Path) -> None:
    db = copy_of(healthy, tmp_path)
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 99")
    conn.close()
    assert_refused(urbanist(*command_on(command, db, tmp_path)), "newer Urbanist", "schema 99")
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (99,)
    conn.close()


@pytest.mark.parametrize("command", ["local", "run"])
@pytest.mark.parametrize("where", ["missing_dir", "under_a_file"])
def test_a_directory_that_cannot_hold_a_database(command: str, where: str,
                                                 tmp_path: Path) -> None:
    # Root ignores permission bits: a missing directory, or a regular file where the
    # directory should be, fails for root too.
    (tmp_path / "plain.txt").write_text("x")
    parent = tmp_path / ("nowhere" if where == "missing_dir" else "plain.txt")
    result = urbanist(*command_on(command, parent / "urbanist.sqlite3", tmp_path))
    assert_refused(result, "cannot", str(parent))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain.txt"]


@pytest.fixture
def immutable_dir(tmp_path: Path, healthy: Path) -> Iterator[Path]:
    """A directory nobody may write, not even root (``chattr +i``), holding a database."""
    directory = tmp_path / "frozen"
    directory.mkdir()
    shutil.copy(healthy, directory / "urbanist.sqlite3")
    if shutil.which("chattr") is None or subprocess.run(
            ["chattr", "+i", str(directory)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not available here")
    try:
        yield directory
    finally:
        subprocess.run(["chattr", "-i", str(directory)], check=True)


@pytest.mark.parametrize("command", COMMANDS)
def test_a_read_only_directory(command: str, immutable_dir: Path, tmp_path: Path) -> None:
    db = immutable_dir / "urbanist.sqlite3"
    assert_refused(urbanist(*command_on(command, db, tmp_path)), str(immutable_dir))
    assert sorted(p.name for p in immutable_dir.iterdir()) == ["urbanist.sqlite3"]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_truncated_database(command: str, healthy: Path, tmp_path: Path) -> None:
    db = copy_of(healthy, tmp_path)
    os.truncate(db, db.stat().st_size // 2)
    assert_refused(urbanist(*command_on(command, db, tmp_path)), str(db), "corrupted")
    assert not (tmp_path / "copy.sqlite3").exists()


def garble(db: Path) -> None:
    """Overwrite the head (b-tree header and first cells) of every page of the actions,
    the outbox and their indexes: damaged rows and b-trees, while the schema and the
    tables' rows still read. Found by SQLite's own page map, since where free room lies
    in a page depends on what the rows hold."""
    lite = sqlite3.connect(db)
    try:
        pages = [n for (n,) in lite.execute(
            "SELECT pageno FROM dbstat WHERE name IN ('actions', 'outbox', 'outbox_due', "
            "'outbox_by_table', 'sqlite_autoindex_actions_1')")]
    finally:
        lite.close()
    assert pages
    with db.open("r+b") as f:
        for page in pages:
            f.seek((page - 1) * 4096)
            f.write(b"\xde\xad\xbe\xef" * 50)


def test_check_lists_every_problem_of_a_corrupted_database(healthy: Path,
                                                           tmp_path: Path) -> None:
    db = copy_of(healthy, tmp_path)
    garble(db)
    result = urbanist("check", "--db", str(db))
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    lines = result.stdout.strip().splitlines()
    problems = [line for line in lines if not line.startswith("replayed")][:-1]
    assert lines[-1] == f"{len(problems)} problems" and len(problems) >= 2, lines
    assert any("malformed" in line for line in problems), problems


def test_backup_refuses_a_corrupted_database(healthy: Path, tmp_path: Path) -> None:
    db = copy_of(healthy, tmp_path)
    garble(db)
    result = urbanist("backup", str(tmp_path / "copy.sqlite3"), "--db", str(db))
    assert_refused(result, "corrupted", "not backed up")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["urbanist.sqlite3"]


def test_check_on_a_missing_database_creates_nothing(tmp_path: Path) -> None:
    db = tmp_path / "urbanist.sqlite3"
    for command in (["check", "--db", str(db)], ["backup", str(tmp_path / "b"), "--db", str(db)]):
        assert_refused(urbanist(*command), "no database at", str(db))
    assert list(tmp_path.iterdir()) == []


def test_backup_copies_and_empties_the_write_ahead_log(healthy: Path, tmp_path: Path) -> None:
    db = copy_of(healthy, tmp_path)
    wal = Path(f"{db}-wal")
    # Another process keeps the database open and has filled its log: 200 writes that no
    # checkpoint has copied back yet.
    writer = sqlite3.connect(db, isolation_level=None)
    try:
        writer.execute("PRAGMA journal_mode=WAL")
        writer.execute("PRAGMA wal_autocheckpoint=0")
        writer.execute("CREATE TABLE ballast (x BLOB)")
        for _ in range(200):
            writer.execute("INSERT INTO ballast VALUES (zeroblob(4000))")
        assert wal.stat().st_size > 800_000
        copy = tmp_path / "copy.sqlite3"
        result = urbanist("backup", str(copy), "--db", str(db))
        assert result.returncode == 0, result.stderr
        assert wal.stat().st_size == 0
        assert writer.execute("SELECT count(*) FROM ballast").fetchone() == (200,)
    finally:
        writer.close()
    checked = urbanist("check", "--db", str(copy))
    assert checked.returncode == 0 and "replayed 2 tables" in checked.stdout, checked.stdout
    with sqlite3.connect(copy) as conn:
        assert conn.execute("SELECT count(*) FROM ballast").fetchone() == (200,)
    conn.close()


def _burst(conn: sqlite3.Connection, rows: int, size: int) -> None:
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("CREATE TABLE IF NOT EXISTS ballast (x BLOB)")
    conn.executemany("INSERT INTO ballast VALUES (zeroblob(?))", [(size,)] * rows)
    conn.execute("COMMIT")


async def test_the_write_ahead_log_shrinks_back_after_a_long_reader(tmp_path: Path) -> None:
    # A reader (a backup, a check) holds its snapshot while the bot writes 20 MB: no
    # checkpoint can finish and the log grows. Once the reader is gone, the store's
    # next checkpoints bring the file back under the limit instead of keeping its peak.
    db = tmp_path / "urbanist.sqlite3"
    wal = Path(f"{db}-wal")
    store = await SqliteStore.open(db)
    try:
        reader = sqlite3.connect(db, isolation_level=None)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM tables").fetchone()
        await store._run(_burst, 5000, 4000)
        peak = wal.stat().st_size
        assert peak > 2 * JOURNAL_SIZE_LIMIT
        reader.execute("COMMIT")
        reader.close()
        for _ in range(20):
            await store._run(_burst, 1, 10)
            if wal.stat().st_size <= JOURNAL_SIZE_LIMIT:
                break
        assert wal.stat().st_size <= JOURNAL_SIZE_LIMIT
    finally:
        await store.close()


def test_backup_onto_the_database_itself_is_refused(healthy: Path, tmp_path: Path) -> None:
    db = copy_of(healthy, tmp_path)
    before = db.read_bytes()
    assert_refused(urbanist("backup", str(db), "--db", str(db)), "is the database itself")
    assert db.read_bytes() == before
