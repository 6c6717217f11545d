"""The SQLite health checks' own words, in process: a backup never lands on the database
itself, a refusal counts the problems it does not show, and a read that breaks off
says how far it got."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.store import health
from bot.store.health import StorageError, backup_to


def database(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE kept (n INTEGER)")
    conn.execute("INSERT INTO kept VALUES (42)")
    conn.commit()
    return conn


def test_a_backup_onto_the_database_itself_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "urbanist.sqlite3"
    conn = database(db)
    try:
        with pytest.raises(StorageError) as refused:
            backup_to(conn, tmp_path / "." / "urbanist.sqlite3")
        assert refused.value.code == "cannot_open" and "is the database itself" in str(
            refused.value)
        assert conn.execute("SELECT n FROM kept").fetchall() == [(42,)]
        backup_to(conn, tmp_path / "copy.sqlite3")  # anywhere else is fine
    finally:
        conn.close()
    copy = sqlite3.connect(tmp_path / "copy.sqlite3")
    try:
        assert copy.execute("SELECT n FROM kept").fetchall() == [(42,)]
    finally:
        copy.close()


def test_a_corrupted_source_is_refused_naming_the_first_problem_and_counting_the_rest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    conn = database(tmp_path / "urbanist.sqlite3")
    found = ["page 3: bad", "page 7: bad", "page 9: bad"]
    try:
        for problems, told in ((found, "(page 3: bad and 2 more problems)"),
                               (found[:1], "(page 3: bad)")):
            monkeypatch.setattr(health, "quick_problems", lambda c, p=problems: list(p))
            with pytest.raises(StorageError) as refused:
                backup_to(conn, tmp_path / "copy.sqlite3")
            assert refused.value.code == "corrupt" and told in str(refused.value)
            assert not (tmp_path / "copy.sqlite3").exists()
    finally:
        conn.close()


class BreaksOff:
    """A connection whose read stops with a DatabaseError after ``good`` rows."""

    def __init__(self, good: int) -> None:
        self.good = good

    def execute(self, sql: str) -> Iterator[Any]:
        for n in range(self.good):
            yield (n, "{}")
        raise sqlite3.DatabaseError("database disk image is malformed")


@pytest.mark.parametrize("good", [0, 2])
def test_a_read_that_breaks_off_says_how_many_rows_it_read(good: int) -> None:
    problems = list(health._json_problems(BreaksOff(good), "tables",  # type: ignore[arg-type]
                                          "id", ("options",)))
    assert problems == [f"tables: reading stopped after {good} rows: "
                        "database disk image is malformed"]
