"""The store interface. SQLite implements it today; a PostgreSQL store can later."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from bot.store.records import (
    ActionRecord,
    ScheduledTimer,
    SeatRecord,
    Status,
    TableRecord,
    TimerRecord,
)


class Store(Protocol):
    async def close(self) -> None: ...

    async def integrity_check(self) -> list[str]:
        """Problems found by the database's own check; empty when all is well."""
        ...

    async def create_table(self, table: TableRecord, seats: Sequence[SeatRecord]) -> int: ...

    async def load_table(self, table_id: int) -> TableRecord | None: ...

    async def load_seats(self, table_id: int) -> list[SeatRecord]: ...

    async def load_timers(self, table_id: int) -> list[TimerRecord]: ...

    async def load_actions(self, table_id: int, after_version: int = 0) -> list[ActionRecord]: ...

    async def save(
        self,
        table: TableRecord,
        *,
        expected_version: int | None = None,
        seats: Sequence[SeatRecord] | None = None,
        timers: Sequence[TimerRecord] | None = None,
        action: ActionRecord | None = None,
    ) -> None:
        """Write the table row, and optionally replace its seats and timers and append one
        action, in ONE durable transaction. With ``expected_version``, raise VersionConflict
        (writing nothing) unless the stored version is still that one."""
        ...

    async def find_tables(
        self,
        *,
        channel_id: str | None = None,
        user_id: str | None = None,
        statuses: Sequence[Status] | None = None,
    ) -> list[TableRecord]: ...

    async def scheduled_timers(self) -> list[ScheduledTimer]:
        """Earliest deadline and earliest reminder of every running table."""
        ...

    async def backup(self, path: Path) -> None: ...
