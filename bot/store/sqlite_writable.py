"""Opening an SQLite file for a command that writes (``urbanist local``, the bot): a
file that failed its quick check at open is refused, never written."""

from __future__ import annotations

from pathlib import Path

from bot.store.health import damaged
from bot.store.sqlite import SqliteStore


async def open_writable(path: str | Path) -> SqliteStore:
    """The store at ``path``: refused, and closed, when the file fails its quick check
    (see ``health.damaged``)."""
    store = await SqliteStore.open(path)
    if store.problems:
        await store.close()
        raise damaged(store.path, store.problems)
    return store


async def probe(path: str | Path) -> None:
    """Open the database and close it again: a command that will run for long (the bot)
    learns of a storage fault, a damaged file included, before it starts anything else."""
    store = await open_writable(path)
    await store.close()
