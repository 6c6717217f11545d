"""What the web pages (bot/web) read and the few flags they need: a table's public flag
and private token, whether a server lets its tables be listed, the tables to list and
a player's finished games. Plain functions over either store, in the store package
because it is the only code that touches the database; kept apart from ``sqlite.py``
and ``postgres.py``, which hold the game's own rows.

Absent rows mean the defaults: a table is public, a server is listed. Marking a table
private makes its token once (``secrets.token_urlsafe``, 128 bits); it is kept when the
table goes public again, so a private link shared once keeps working.
"""

from __future__ import annotations

import re
import secrets
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.history.ratings import Rating, Result
from bot.store.interface import Store
from bot.store.postgres import PostgresStore
from bot.store.records import Status
from bot.store.sqlite import SqliteStore

TOKEN_BYTES = 16


@dataclass(frozen=True)
class PageAccess:
    """How a table's page may be reached: by its number when ``public``, and always by
    ``token`` when it has one."""

    table_id: int
    public: bool = True
    token: str | None = None


@dataclass(frozen=True)
class ListedTable:
    """One line of the index: a public table of a listed server (or of none)."""

    id: int
    game: str
    status: str
    locale: str
    updated_at: float
    names: tuple[str, ...]


# The statements in SQLite's spelling; PostgreSQL's come from ``_pg``.
_ACCESS = "SELECT table_id, public, token FROM table_pages WHERE table_id = ?"
_BY_TOKEN = "SELECT table_id FROM table_pages WHERE token = ?"
_SET_PUBLIC = ("INSERT INTO table_pages (table_id, public, token) VALUES (?, ?, ?) "
               "ON CONFLICT (table_id) DO UPDATE SET public = excluded.public "
               "RETURNING table_id, public, token")
_SET_LISTED = ("INSERT INTO guild_pages (guild_id, listed) VALUES (?, ?) "
               "ON CONFLICT (guild_id) DO UPDATE SET listed = excluded.listed")
_GUILD_LISTED = "SELECT listed FROM guild_pages WHERE guild_id = ?"
_REV = "SELECT rev FROM tables WHERE id = ?"
# Listed: public (no row, or public), and of a server that allows it (no row, or listed).
_VISIBLE = ("NOT EXISTS (SELECT 1 FROM table_pages p WHERE p.table_id = t.id AND "
            "p.public = {false}) AND NOT EXISTS (SELECT 1 FROM guild_pages g WHERE "
            "g.guild_id = t.guild_id AND g.listed = {false})")
_LISTED = ("SELECT t.id, t.game, t.status, t.locale, t.updated_at FROM tables t WHERE "
           "t.status IN ({statuses}) AND t.updated_at >= ? AND " + _VISIBLE +
           " ORDER BY t.updated_at DESC, t.id DESC LIMIT ?")
_NAMES = "SELECT table_id, seat, name FROM seats WHERE table_id IN ({ids}) ORDER BY seat"
_PLAYER_TABLES = ("SELECT DISTINCT r.table_id, r.finished_at FROM results r "
                  "JOIN tables t ON t.id = r.table_id WHERE r.player = ? AND " + _VISIBLE +
                  " ORDER BY r.finished_at DESC, r.table_id DESC LIMIT ?")
_RESULTS = ("SELECT table_id, slot, guild_id, game, player, name, is_bot, rank, score, "
            "finished_at, started_at, versions, unrated, mu_before, sigma_before, mu, sigma "
            "FROM results WHERE table_id IN ({ids}) ORDER BY finished_at DESC, table_id DESC, "
            "slot")
_RATINGS = ("SELECT player, name, is_bot, mu, sigma, games, updated_at, game FROM ratings r "
            "WHERE player = ? AND NOT EXISTS (SELECT 1 FROM guild_pages g WHERE "
            "g.guild_id = r.guild_id AND g.listed = {false}) ORDER BY game, games DESC")


def _pg(sql: str) -> str:
    """SQLite's ``?`` placeholders as PostgreSQL's ``$1, $2...``."""
    numbers = iter(range(1, sql.count("?") + 1))
    return re.sub(r"\?", lambda _: f"${next(numbers)}", sql)


def _spelled(sql: str, store: Store, **lists: int) -> str:
    """``sql`` for ``store``: its booleans, and ``{name}`` lists of that many values."""
    pg = isinstance(store, PostgresStore)
    values = {k: ", ".join("?" * n) for k, n in lists.items()}
    text = sql.replace("{false}", "FALSE" if pg else "0")
    for key, marks in values.items():
        text = text.replace("{" + key + "}", marks)
    return _pg(text) if pg else text


async def _fetch(store: Store, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    if isinstance(store, SqliteStore):
        def run(conn: sqlite3.Connection) -> list[tuple[Any, ...]]:
            return [tuple(r) for r in conn.execute(sql, list(params)).fetchall()]
        # The store's one-hop runner (its faults become StorageError); private to the
        # store package, which this module belongs to.
        return await store._run(run)
    if isinstance(store, PostgresStore):
        async with store._connection() as conn:
            rows = await conn.fetch(sql, *params)
        return [tuple(r) for r in rows]
    raise TypeError(f"no page queries for {type(store).__name__}")


async def _write(store: Store, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    if isinstance(store, SqliteStore):
        def run(conn: sqlite3.Connection) -> list[tuple[Any, ...]]:
            conn.execute("BEGIN IMMEDIATE")
            try:
                rows = [tuple(r) for r in conn.execute(sql, list(params)).fetchall()]
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            return rows
        return await store._run(run)
    return await _fetch(store, sql, params)


async def ready(store: Store) -> bool:
    """Whether the database has the pages' tables (a database older than them, which
    the bot's start migrates, has not; ``urbanist web`` only reads)."""
    try:
        await _fetch(store, "SELECT 1 FROM table_pages LIMIT 1", [])
    except Exception:
        return False
    return True


async def access(store: Store, table_id: int) -> PageAccess:
    rows = await _fetch(store, _spelled(_ACCESS, store), [table_id])
    if not rows:
        return PageAccess(table_id)
    return PageAccess(table_id, bool(rows[0][1]), str(rows[0][2]))


async def table_rev(store: Store, table_id: int) -> int | None:
    """The table's rev (bumped by every write), or None when there is no such table: what
    a reader asks to know whether its copy is still the table, without reading it."""
    rows = await _fetch(store, _spelled(_REV, store), [table_id])
    return int(rows[0][0]) if rows else None


async def table_of_token(store: Store, token: str) -> int | None:
    rows = await _fetch(store, _spelled(_BY_TOKEN, store), [token])
    return int(rows[0][0]) if rows else None


async def set_public(store: Store, table_id: int, public: bool) -> PageAccess:
    """Mark the table public or private; its token is made the first time, then kept."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    flag: Any = public if isinstance(store, PostgresStore) else int(public)
    rows = await _write(store, _spelled(_SET_PUBLIC, store), [table_id, flag, token])
    return PageAccess(table_id, bool(rows[0][1]), str(rows[0][2]))


async def set_listed(store: Store, guild_id: str, listed: bool) -> None:
    flag: Any = listed if isinstance(store, PostgresStore) else int(listed)
    await _write(store, _spelled(_SET_LISTED, store), [guild_id, flag])


async def guild_listed(store: Store, guild_id: str) -> bool:
    rows = await _fetch(store, _spelled(_GUILD_LISTED, store), [guild_id])
    return not rows or bool(rows[0][0])


async def listed_tables(store: Store, statuses: Sequence[Status], *, since: float = 0.0,
                        limit: int = 50) -> list[ListedTable]:
    """Public tables of listed servers in ``statuses``, changed since ``since``, the
    latest first."""
    sql = _spelled(_LISTED, store, statuses=len(statuses))
    rows = await _fetch(store, sql, [*statuses, since, limit])
    names = await _names(store, [int(r[0]) for r in rows])
    return [ListedTable(int(r[0]), str(r[1]), str(r[2]), str(r[3]), float(r[4]),
                        tuple(names.get(int(r[0]), ()))) for r in rows]


async def _names(store: Store, table_ids: Sequence[int]) -> dict[int, list[str]]:
    if not table_ids:
        return {}
    rows = await _fetch(store, _spelled(_NAMES, store, ids=len(table_ids)), list(table_ids))
    found: dict[int, list[str]] = {}
    for table_id, _seat, name in rows:
        found.setdefault(int(table_id), []).append(str(name))
    return found


async def player_results(store: Store, player: str, *, limit: int = 50) -> list[Result]:
    """Every result row of the player's last ``limit`` listed finished tables (their
    opponents' rows too), the newest first."""
    rows = await _fetch(store, _spelled(_PLAYER_TABLES, store), [player, limit])
    ids = [int(r[0]) for r in rows]
    if not ids:
        return []
    found = await _fetch(store, _spelled(_RESULTS, store, ids=len(ids)), ids)
    return [Result(int(r[0]), int(r[1]), str(r[2]), str(r[3]), str(r[4]), str(r[5]),
                   bool(r[6]), int(r[7]), int(r[8]), float(r[9]), float(r[10]), int(r[11]),
                   r[12], r[13], r[14], r[15], r[16]) for r in found]


async def player_ratings(store: Store, player: str) -> list[tuple[str, Rating]]:
    """The player's ratings of listed servers, as (game, rating)."""
    rows = await _fetch(store, _spelled(_RATINGS, store), [player])
    return [(str(r[7]), Rating(str(r[0]), str(r[1]), bool(r[2]), float(r[3]), float(r[4]),
                               int(r[5]), float(r[6]))) for r in rows]
