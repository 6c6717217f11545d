"""``urbanist check`` on a database nobody may write: it is checked (never refused
because the bot's open would switch it to WAL, a write), left as it was, and the
answer says it is read-only, so that the bot and ``urbanist local`` cannot save in it."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
TIMEOUT = 120  # seconds before a command counts as hung
SAYS = {
    "en": " is read-only: this check only read it, but the bot and urbanist local cannot "
          "save a move in it until it is writable (the file and its directory).",
    "fr": " est en lecture seule : ce contrôle n'a fait que le lire, mais le bot et "
          "urbanist local ne peuvent y enregistrer aucun coup tant qu'il n'est pas "
          "modifiable (le fichier et son dossier).",
}


def urbanist(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=ROOT,
                          input="quit\n", capture_output=True, text=True, timeout=TIMEOUT)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@contextmanager
def unwritable(path: Path) -> Iterator[None]:
    """``path`` made so that nobody may write it: ``chattr +i`` for root, whom
    permission bits do not stop (as in test_backup_read_only); chmod for anyone else."""
    if os.geteuid() == 0:
        if shutil.which("chattr") is None or subprocess.run(
                ["chattr", "+i", str(path)], capture_output=True).returncode != 0:
            pytest.skip("chattr +i is not available here")
        undo: Callable[[], object] = lambda: subprocess.run(  # noqa: E731
            ["chattr", "-i", str(path)], check=True)
    else:
        mode = path.stat().st_mode
        path.chmod(0o444)
        undo = lambda: path.chmod(mode)  # noqa: E731
    try:
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


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_a_read_only_archive_is_checked_and_said_read_only(played: Path, tmp_path: Path,
                                                           locale: str) -> None:
    # A backup holds no write-ahead log: the bot's open would switch it to WAL.
    archive = tmp_path / "archive.sqlite3"
    made = urbanist("backup", str(archive), "--db", str(played))
    assert made.returncode == 0, made.stderr
    before = digest(archive)
    with unwritable(archive):
        checked = urbanist("check", "--db", str(archive), "--locale", locale)
    assert checked.returncode == 0, (checked.stdout, checked.stderr)
    assert checked.stdout.splitlines() == ["replayed 1 tables", f"{archive}{SAYS[locale]}",
                                           "ok"], checked.stdout
    assert checked.stderr == ""
    assert digest(archive) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["archive.sqlite3"]


def test_a_live_database_made_read_only_is_checked_and_said_read_only(
        played: Path, tmp_path: Path) -> None:
    db = tmp_path / "urbanist.sqlite3"
    shutil.copy(played, db)
    before = digest(db)
    with unwritable(db):
        checked = urbanist("check", "--db", str(db))
    assert checked.returncode == 0, (checked.stdout, checked.stderr)
    assert checked.stdout.splitlines() == ["replayed 1 tables", f"{db}{SAYS['en']}", "ok"]
    assert digest(db) == before


def test_a_writable_database_is_not_said_read_only(played: Path, tmp_path: Path) -> None:
    db = tmp_path / "urbanist.sqlite3"
    shutil.copy(played, db)
    checked = urbanist("check", "--db", str(db))
    assert checked.returncode == 0, (checked.stdout, checked.stderr)
    assert checked.stdout == "replayed 1 tables\nok\n"
