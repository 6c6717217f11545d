"""Which tables of a database are local ones, to resume them or list them.

A table created by ``urbanist local`` has the channel ``local`` and human seats whose
user ids start with ``local:``; it lives in the same database as the bot's tables, so a
game left in the middle is found again by the next ``urbanist local``.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.store import SqliteStore
from bot.store.records import Status, TableRecord
from bot.store.sqlite import default_db_path

LOCAL_CHANNEL = "local"
UNFINISHED: tuple[Status, ...] = ("running", "paused")


@dataclass(frozen=True)
class LocalTable:
    id: int
    game: str
    status: str
    updated_at: float
    locale: str = "en"


async def local_tables(store: SqliteStore, *, game: str | None = None,
                       unfinished: bool = True) -> list[LocalTable]:
    """Local tables, the most recently played first."""
    rows: list[TableRecord] = await store.find_tables(
        channel_id=LOCAL_CHANNEL, statuses=list(UNFINISHED) if unfinished else None)
    found = [LocalTable(r.id, r.game, r.status, r.updated_at, r.locale) for r in rows
             if game is None or r.game == game]
    return sorted(found, key=lambda t: (-t.updated_at, -t.id))


def db_flag(db: Path | None) -> str:
    """What a printed command needs to find this database again: `` --db PATH`` unless it
    is the file a bare ``urbanist local`` opens (a hint must work as printed)."""
    if db is None:
        return ""
    try:
        default = db.resolve() == default_db_path().resolve()
    except OSError:
        default = False
    return "" if default else f" --db {shlex.quote(str(db))}"


def new_table_flags(players: int, bots: int, options: Mapping[str, Any], names: Sequence[str],
                    level: str | None, seed: int | None) -> list[str]:
    """The command line's words that shape a new table (empty when none differs from the
    defaults), shell-quoted: what a resumed table does not take, and what ``--new`` with
    them would start."""
    flags: list[str] = []
    if players != 2 or bots:
        flags += ["--players", str(players), "--bots", str(bots)]
    if level is not None:
        flags += ["--ai", level]
    for name in names:
        flags += ["--name", name]
    for key, value in options.items():
        text = str(value).lower() if isinstance(value, bool) else str(value)
        flags += ["--option", f"{key}={text}"]
    if seed is not None:
        flags += ["--seed", str(seed)]
    return [shlex.quote(f) for f in flags]


