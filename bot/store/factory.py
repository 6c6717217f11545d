"""Open the store a URL or a path names: PostgreSQL for ``postgresql://...`` (or
``postgres://...``), SQLite for anything else; ``$URBANIST_DB`` or ./urbanist.sqlite3
when nothing is given."""

from __future__ import annotations

import os
from pathlib import Path

from bot.store.interface import Store
from bot.store.pg_faults import is_postgres_url, redact
from bot.store.postgres import PostgresStore
from bot.store.sqlite import SqliteStore, default_db_path


def default_target() -> str | Path:
    """``$URBANIST_DB`` (a URL or a path), or ./urbanist.sqlite3."""
    value = os.environ.get("URBANIST_DB")
    if value is not None and is_postgres_url(value):
        return value
    return default_db_path()


def describe(target: str | Path | None) -> str:
    """What to call the database in a message (a URL without its password)."""
    target = default_target() if target is None else target
    return redact(str(target)) if is_postgres_url(str(target)) else str(target)


async def open_store(target: str | Path | None = None) -> Store:
    """The store at ``target``: a PostgreSQL URL, an SQLite path, or None for the
    default. Raises ``health.StorageError`` for a database that cannot be used."""
    target = default_target() if target is None else target
    if is_postgres_url(str(target)):
        return await PostgresStore.open(str(target))
    return await SqliteStore.open(target)
