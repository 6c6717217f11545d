"""``urbanist backup`` of an SQLite file: the source is only read, through a read-only
connection, so a database the command may not write (a read-only file, one from an
archive, one whose bot is running) is backed up all the same; only a target that cannot
be written is refused."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from bot.store.health import StorageError, backup_to, checkpoint, explain
from bot.store.migrations import NewerSchema, migrations


def backup_file(source: str, target: Path) -> None:
    """Copy the database at ``source`` (an existing file) to ``target``, as
    ``health.backup_to`` does; then empty the source's write-ahead log where the source
    may be written, as the store's own backup does."""
    try:
        # mode=ro: SQLite never writes the file, nor even tries (no journal mode set, no
        # migration); a WAL database still needs its -shm beside it, created if missing.
        conn = sqlite3.connect(f"{Path(source).absolute().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise _fault(exc, source) from exc
    try:
        try:
            try:
                found = int(conn.execute("PRAGMA user_version").fetchone()[0])
            except sqlite3.Error as exc:  # not a database, unreadable
                raise _fault(exc, source) from exc
            known = len(migrations())
            if found > known:
                # Its pages would copy, but the copy is what this version cannot read.
                raise _fault(NewerSchema(found, known), source)
            backup_to(conn, target, checkpoint_source=False)
        finally:
            conn.close()
    finally:
        # Refused or not: the last connection to close lets SQLite remove the -wal and
        # -shm that the read-only one may have created (an empty log writes no page).
        _checkpoint(source)


def _fault(error: BaseException, path: str) -> StorageError:
    fault = explain(error, path)
    assert fault is not None  # every sqlite3.Error and NewerSchema has one
    return fault


def _checkpoint(source: str) -> None:
    """Copy the WAL back into the database and truncate it, when the file may be
    written: the store's own backup does it, so that back-to-back backups do not let it
    grow (health.JOURNAL_SIZE_LIMIT). Housekeeping only: a file that cannot be written
    keeps its log, and the backup stands."""
    try:
        conn = sqlite3.connect(f"{Path(source).absolute().as_uri()}?mode=rw", uri=True)
    except sqlite3.Error:
        return
    try:
        with contextlib.suppress(sqlite3.Error):
            checkpoint(conn)
    finally:
        conn.close()
