"""An SQLite store that only reads, for ``urbanist check``: the bot's own open switches
the file to WAL and migrates it, both writes, so a file nobody may write (an archive, a
database made read-only) would be refused before it could be checked."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import aiosqlite

from bot.store import health
from bot.store.migrations import NewerSchema, migrations
from bot.store.sqlite import SqliteStore


async def open_read_only(path: str) -> SqliteStore:
    """The store at ``path`` (an existing file) through a ``mode=ro`` connection, which
    SQLite never writes; ``query_only`` makes any write the store might try a refusal
    rather than a change. Raises ``health.StorageError`` for a storage fault."""
    uri = f"{Path(path).absolute().as_uri()}?mode=ro"
    connection = aiosqlite.connect(uri, uri=True, isolation_level=None)
    try:
        conn = await connection
    except sqlite3.Error as exc:
        # As health.connect: aiosqlite's thread ends before the event loop may close.
        await asyncio.to_thread(connection._thread.join, 5)
        raise _fault(exc, path) from exc
    try:
        conn.row_factory = sqlite3.Row
        for pragma in ("PRAGMA query_only=ON", "PRAGMA busy_timeout=5000"):
            async with conn.execute(pragma):
                pass
        async with conn.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        found, known = int(row[0]) if row else 0, len(migrations())
        if found > known:
            # Its rows are of a schema this version cannot read.
            raise NewerSchema(found, known)
    except BaseException as exc:
        await health.close_quietly(conn)
        fault = health.explain(exc, path)
        if fault is None:
            raise
        raise fault from exc
    return SqliteStore(conn, path)


def _fault(error: BaseException, path: str) -> health.StorageError:
    fault = health.explain(error, path)
    assert fault is not None  # every sqlite3.Error has one
    return fault


def unwritable(path: str) -> bool:
    """Whether SQLite may not write ``path``, as ``urbanist local`` asks it (a write,
    rolled back); a file that is no database, or a damaged one, counts as writable here,
    so that the store's open says what is wrong with it."""
    try:
        return read_only(Path(path))
    except sqlite3.Error:
        return False


def read_only(path: Path) -> bool:
    """Whether SQLite may not write ``path`` (the file, its directory, its disk). It
    opens a write-protected file read-only without a word, and only the first move
    would fail: try a write, and roll it back."""
    conn = sqlite3.connect(path, isolation_level=None, timeout=30)
    try:
        conn.execute("BEGIN IMMEDIATE")
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        conn.execute(f"PRAGMA user_version = {version}")
        conn.execute("ROLLBACK")
    except sqlite3.OperationalError as error:
        return getattr(error, "sqlite_errorname", "").startswith("SQLITE_READONLY")
    finally:
        conn.close()
    return False
