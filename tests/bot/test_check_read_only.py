"""``urbanist check`` on a database nobody may write: it is checked (never refused
because the bot's open would switch it to WAL, a write), left as it was, and the
answer says it is read-only, so that the bot and ``urbanist local`` cannot save in it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_backup_read_only import digest, played, unwritable, urbanist

ROOT = Path(__file__).resolve().parent.parent.parent
TIMEOUT = 120  # seconds before a command counts as hung
SAYS = {
    "en": " is read-only: this check only read it, but the bot and urbanist local cannot "
          "save a move in it until it is writable (the file and its directory).",
    "fr": " est en lecture seule : ce contrôle n'a fait que le lire, mais le bot et "
          "urbanist local ne peuvent y enregistrer aucun coup tant qu'il n'est pas "
          "modifiable (le fichier et son dossier).",
}


_FIXTURES = (played,)


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
