"""The only code that touches the database. See ``interface.Store`` for the contract."""

from bot.store.factory import describe, open_store
from bot.store.interface import Store
from bot.store.leases import Lease
from bot.store.postgres import PostgresStore
from bot.store.records import (
    ActionRecord,
    MenuRecord,
    OutboxResult,
    OutboxRow,
    ScheduledTimer,
    SeatRecord,
    TableRecord,
    TimerRecord,
    VersionConflict,
    canonical,
)
from bot.store.sqlite import SqliteStore, default_db_path

__all__ = [
    "ActionRecord",
    "Lease",
    "MenuRecord",
    "OutboxResult",
    "OutboxRow",
    "PostgresStore",
    "ScheduledTimer",
    "SeatRecord",
    "SqliteStore",
    "Store",
    "TableRecord",
    "TimerRecord",
    "VersionConflict",
    "canonical",
    "default_db_path",
    "describe",
    "open_store",
]
