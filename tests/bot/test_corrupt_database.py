"""A database file that fails SQLite's quick check is never written to: ``urbanist
local`` and ``urbanist run`` refuse to start on it in one line (exit 3) that says to run
``urbanist check``, a store opened on it refuses every write the same way, and reading
it (``check``, the store's loads) still works. The file is a real one, made by the
store, damaged by overwriting bytes of one of its pages."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.store import SqliteStore, TableRecord
from bot.store.health import EXIT_STORAGE, StorageError, hold_database
from bot.store.sqlite_writable import probe

ROOT = Path(__file__).resolve().parent.parent.parent
TIMEOUT = 120  # seconds before a command counts as hung


def urbanist(*args: str, stdin: str = "quit\n") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DISCORD_TOKEN": "not-a-token"}  # run must reach the database
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=ROOT, env=env,
                          input=stdin, capture_output=True, text=True, timeout=TIMEOUT)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def actions(db: Path) -> int:
    conn = sqlite3.connect(f"{db.absolute().as_uri()}?mode=ro", uri=True)
    try:
        count: int = conn.execute("SELECT count(*) FROM actions").fetchone()[0]
    finally:
        conn.close()
    return count


@pytest.fixture(scope="module")
def unfinished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with a table in the middle of its game, left by the console."""
    db = tmp_path_factory.mktemp("unfinished") / "urbanist.sqlite3"
    played = urbanist("local", "skybridge", "--players", "2", "--bots", "1", "--seed", "3",
                      "--db", str(db), stdin="#1\n#1\nquit\n")
    assert played.returncode == 0, played.stderr
    assert actions(db) > 0
    return db


@pytest.fixture
def damaged(unfinished: Path, tmp_path: Path) -> Path:
    """A copy whose index of tables by status has its cell pointers overwritten: a
    broken b-tree the quick check finds, on a page a move does not read, so a store
    that did not check would open the file and play a move into it."""
    db = tmp_path / "urbanist.sqlite3"
    db.write_bytes(unfinished.read_bytes())
    conn = sqlite3.connect(db)
    try:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        root = conn.execute("SELECT rootpage FROM sqlite_schema WHERE name = "
                            "'tables_by_status'").fetchone()[0]
    finally:
        conn.close()
    with db.open("r+b") as f:
        f.seek((root - 1) * page_size + 8)  # past the leaf page's 8-byte header
        f.write(b"\xde\xad\xbe\xef" * 16)
    return db


def assert_refused(result: subprocess.CompletedProcess[str], db: Path) -> None:
    assert result.returncode == EXIT_STORAGE, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"urbanist: {db} is corrupted ("), lines[0]
    assert lines[0].endswith(f"nothing is written to it; run `urbanist check --db {db}` "
                             "to list the problems, then restore it from a backup"), lines[0]
    assert "Traceback" not in result.stdout + result.stderr


@pytest.mark.parametrize("command", [["local", "skybridge"], ["run", "--no-sync"]])
def test_a_command_that_writes_refuses_to_start_on_a_damaged_file(
        damaged: Path, command: list[str]) -> None:
    before, moves = digest(damaged), actions(damaged)
    result = urbanist(*command, "--db", str(damaged), stdin="#1\n#1\nquit\n")
    assert_refused(result, damaged)
    assert digest(damaged) == before and actions(damaged) == moves


def test_check_still_reads_a_damaged_file_and_lists_its_problems(damaged: Path) -> None:
    result = urbanist("check", "--db", str(damaged))
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert "integrity:" in result.stdout and "problems" in result.stdout.splitlines()[-1]


async def test_a_store_on_a_damaged_file_reads_and_refuses_every_write(damaged: Path) -> None:
    before = digest(damaged)
    store = await SqliteStore.open(damaged)
    try:
        assert store.problems and "tree page" in store.problems[0]
        table = await store.load_table(1)
        assert table is not None and table.status == "running"
        writes = [
            store.save(table),
            store.create_table(TableRecord(game="skybridge", options={}, seed=1,
                                           host_id="u", max_seats=2), []),
            store.acquire_lease("bucket-1", "me", 1.0, 30.0),
            store.prune_outbox(1e12),
        ]
        for write in writes:
            with pytest.raises(StorageError) as refused:
                await write
            assert refused.value.code == "corrupt"
            assert "urbanist check" in refused.value.message
    finally:
        await store.close()
    assert digest(damaged) == before


async def test_the_bot_probe_refuses_a_damaged_file_and_accepts_a_sound_one(
        damaged: Path, unfinished: Path, tmp_path: Path) -> None:
    with pytest.raises(StorageError) as refused:
        await probe(damaged)
    assert refused.value.code == "corrupt"
    sound = tmp_path / "sound.sqlite3"
    sound.write_bytes(unfinished.read_bytes())
    await probe(sound)
    lock = hold_database(sound)  # a sound file still opens for a bot
    assert lock is not None
    lock.release()
