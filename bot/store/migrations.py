"""Numbered SQL migrations (``migrations/NNNN_name.sql``); the schema version is
``PRAGMA user_version``, so an old database is brought up to date at open."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class NewerSchema(RuntimeError):
    """The database was written by a newer Urbanist: this code must not touch it (its
    migrations would be skipped and its new columns ignored or lost)."""

    def __init__(self, found: int, known: int) -> None:
        super().__init__(f"the database is at schema {found}, newer than this code ({known})")
        self.found = found
        self.known = known


@dataclass(frozen=True)
class Migration:
    number: int
    name: str
    sql: str


def migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    found = []
    for path in directory.iterdir():
        match = _NAME.match(path.name)
        if match:
            found.append(Migration(int(match.group(1)), path.name, path.read_text("utf-8")))
    found.sort(key=lambda m: m.number)
    numbers = [m.number for m in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1, 2, 3 ... without gaps: {numbers}")
    return found


async def schema_version(conn: aiosqlite.Connection) -> int:
    async with conn.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def migrate(conn: aiosqlite.Connection, directory: Path = MIGRATIONS_DIR) -> int:
    """Apply every migration newer than the database, each in its own transaction."""
    current = await schema_version(conn)
    known = migrations(directory)
    if current > len(known):
        raise NewerSchema(current, len(known))
    for migration in known[current:]:
        # The script and the version bump commit together: a crash leaves either both or
        # neither, never a half-migrated schema marked as done.
        await conn.executescript(
            f"BEGIN IMMEDIATE;\n{migration.sql}\n"
            f"PRAGMA user_version = {migration.number};\nCOMMIT;"
        )
    return await schema_version(conn)
