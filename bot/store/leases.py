"""Leases: which bot process owns what, for a while, in the database itself.

A lease has a ``name`` (the service decides what it stands for: one table's deadlines
and reminders, ``"table:42"``, or a bucket of tables), an ``owner`` (one process's
unique id) and an ``expires_at``. It is held while ``now < expires_at``. The holder
renews it well before that; a process that dies stops renewing, and once its leases
have expired another process takes them over (``steal_expired_leases``) and fires what
fell due meanwhile. Times are the callers' clocks, like every other time in the store.

A lease only says who should act. What makes an action happen once is the table write
itself, conditional on the version it read: a process that lost its lease while paused
and fires a deadline anyway loses that write with a VersionConflict. ``generation``,
bumped each time a lease is granted anew, lets a holder tell that it was lost meanwhile.

The SQLite operations are below (plain functions of a ``sqlite3`` connection, run on the
store's thread); PostgreSQL has the same statements in ``bot.store.postgres``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Lease:
    name: str
    owner: str
    expires_at: float
    generation: int

    def held_at(self, now: float) -> bool:
        return now < self.expires_at


def lease_from_row(row: Any) -> Lease:
    return Lease(str(row[0]), str(row[1]), float(row[2]), int(row[3]))


# The statements, in SQLite's spelling (named parameters); postgres.py spells them with $n.

ACQUIRE = (
    "INSERT INTO leases (name, owner, expires_at, generation) VALUES (:name, :owner, :until, 1) "
    "ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at, "
    # A renewal keeps the generation; any other grant (a steal, a new start) bumps it.
    "generation = leases.generation + CASE WHEN leases.owner = excluded.owner "
    "AND leases.expires_at > :now THEN 0 ELSE 1 END "
    "WHERE leases.owner = excluded.owner OR leases.expires_at <= :now "
    "RETURNING name, owner, expires_at, generation"
)
RENEW = ("UPDATE leases SET expires_at = :until WHERE owner = :owner AND expires_at > :now "
         "RETURNING name")
STEAL = (
    "UPDATE leases SET owner = :owner, expires_at = :until, generation = generation + 1 "
    "WHERE name IN (SELECT name FROM leases WHERE expires_at <= :now "
    "ORDER BY expires_at, name LIMIT :limit) AND expires_at <= :now "
    "RETURNING name, owner, expires_at, generation"
)


@contextmanager
def _immediate(conn: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE ... COMMIT (the store's connection is in autocommit mode)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def acquire(conn: sqlite3.Connection, name: str, owner: str, now: float,
            ttl: float) -> Lease | None:
    with _immediate(conn):  # the holder's read and the grant are one step
        row = conn.execute(ACQUIRE, {"name": name, "owner": owner, "now": now,
                                     "until": now + ttl}).fetchone()
    return None if row is None else lease_from_row(row)


def renew(conn: sqlite3.Connection, owner: str, now: float, ttl: float) -> list[str]:
    with _immediate(conn):
        rows = conn.execute(RENEW, {"owner": owner, "now": now, "until": now + ttl}).fetchall()
    return sorted(str(r[0]) for r in rows)


def steal(conn: sqlite3.Connection, owner: str, now: float, ttl: float,
          limit: int | None) -> list[Lease]:
    with _immediate(conn):
        rows = conn.execute(STEAL, {"owner": owner, "now": now, "until": now + ttl,
                                    "limit": -1 if limit is None else limit}).fetchall()
    return sorted((lease_from_row(r) for r in rows), key=lambda lease: lease.name)


def release(conn: sqlite3.Connection, owner: str, now: float,
            names: Sequence[str] | None) -> int:
    sql = "UPDATE leases SET expires_at = ? WHERE owner = ? AND expires_at > ?"
    params: list[Any] = [now, owner, now]
    if names is not None:
        sql += f" AND name IN ({', '.join('?' * len(names))})"
        params += list(names)
    with _immediate(conn):
        return conn.execute(sql, params).rowcount


def load(conn: sqlite3.Connection) -> list[Lease]:
    rows = conn.execute("SELECT name, owner, expires_at, generation FROM leases ORDER BY name")
    return [lease_from_row(r) for r in rows]
