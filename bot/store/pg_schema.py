"""PostgreSQL's numbered migrations (``pg_migrations/NNNN_name.sql``), recorded in the
table ``urbanist_schema``. Several bot processes may start at once: each migration runs
in its own transaction under an advisory lock, so exactly one of them applies it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.store.migrations import Migration, NewerSchema, migrations

PG_MIGRATIONS_DIR = Path(__file__).with_name("pg_migrations")
# pg_advisory_xact_lock key: any constant no other program on the server uses.
_LOCK_KEY = 0x75726261  # "urba"

if TYPE_CHECKING:  # asyncpg's classes are generic only in its stubs
    Connection: TypeAlias = (asyncpg.Connection[asyncpg.Record]
                             | PoolConnectionProxy[asyncpg.Record])
else:
    Connection: TypeAlias = asyncpg.Connection | PoolConnectionProxy


def pg_migrations() -> list[Migration]:
    return migrations(PG_MIGRATIONS_DIR)


async def schema_version(conn: Connection) -> int:
    exists = await conn.fetchval("SELECT to_regclass('urbanist_schema') IS NOT NULL")
    if not exists:
        return 0
    value = await conn.fetchval("SELECT max(version) FROM urbanist_schema")
    return int(value or 0)


async def migrate(conn: Connection) -> int:
    """Apply every migration newer than the database; the schema version after."""
    known = pg_migrations()
    while True:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _LOCK_KEY)
            await conn.execute("CREATE TABLE IF NOT EXISTS urbanist_schema ("
                               "version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL "
                               "DEFAULT now())")
            current = await schema_version(conn)
            if current > len(known):
                raise NewerSchema(current, len(known))
            if current == len(known):
                return current
            # The script and its version row commit together, or neither does.
            migration = known[current]
            await conn.execute(migration.sql)
            await conn.execute("INSERT INTO urbanist_schema (version) VALUES ($1)",
                               migration.number)
