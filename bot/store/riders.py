"""Riders: rows a front end needs written in the SAME transaction as a table's next save.

A front end that reads its input from a durable queue (a mailbox) must record that an
input was handled together with the change it made, or a crash between the two applies
it twice or loses it. The service does not know about mailboxes; so the front end sets a
rider around its call (``with riding(rider): await service.act_text(...)``), and the
store's ``save`` runs the rider's statements inside its own transaction when it writes
that table (and, with ``actor_id``, that actor's action). The rider rides once: a later
save in the same task (a bot answering the move) does not carry it again. A rider that
raises rolls the whole save back (e.g. a duplicate key: the input was handled already).

An input that creates a table (a ``new`` command) rides on the creation instead: a rider
without a ``table_id`` is carried by the next ``create_table`` in its task, which sets
``table_id`` to the new table's id before running the rider's statements (so they may
read it), and puts it back to None when the creation fails.

The variable is a ``ContextVar``: tasks made inside the ``with`` (``asyncio.shield``
around the save) see it, other tables' saves and other tasks do not.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

SqliteWrite = Callable[[sqlite3.Connection], None]
PostgresWrite = Callable[[Any], Awaitable[None]]  # an asyncpg connection in a transaction


@dataclass
class Rider:
    # The table whose next save carries the rider; None: the next table created.
    table_id: int | None
    sqlite: SqliteWrite
    postgres: PostgresWrite
    # Only a save that appends an action of this actor carries it (None: any save of the
    # table, e.g. a join or a start).
    actor_id: str | None = None
    landed: bool = False


_current: ContextVar[Rider | None] = ContextVar("urbanist_store_rider", default=None)


@contextmanager
def riding(rider: Rider) -> Iterator[Rider]:
    token = _current.set(rider)
    try:
        yield rider
    finally:
        _current.reset(token)


def for_save(table_id: int | None, actor_id: str | None) -> Rider | None:
    """The rider the save of ``table_id`` (appending an action of ``actor_id``, or
    None) must carry, if any."""
    rider = _current.get()
    if rider is None or rider.landed or rider.table_id != table_id:
        return None
    if rider.actor_id is not None and rider.actor_id != actor_id:
        return None
    return rider


def for_create() -> Rider | None:
    """The rider the next ``create_table`` must carry, if any (one with no table yet)."""
    rider = _current.get()
    if rider is None or rider.landed or rider.table_id is not None:
        return None
    return rider


def born(rider: Rider | None, table_id: int) -> None:
    """Inside the creating transaction, before the rider's statements run: its table."""
    if rider is not None:
        rider.table_id = table_id


def stillborn(rider: Rider | None) -> None:
    """The creation that carried ``rider`` failed: it waits for the next one again."""
    if rider is not None and not rider.landed:
        rider.table_id = None


def landed(rider: Rider | None) -> None:
    """The save that carried ``rider`` committed: it rides no other."""
    if rider is not None:
        rider.landed = True
