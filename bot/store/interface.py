"""The store interface: ``SqliteStore`` (one process) and ``PostgresStore`` (several
processes over one database) implement it; ``bot.store.factory.open_store`` picks one."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from bot.history.ratings import RatedGame, Rating, Result
from bot.store.leases import Lease
from bot.store.records import (
    ActionRecord,
    MenuRecord,
    OutboxResult,
    OutboxRow,
    ScheduledTimer,
    SeatRecord,
    Status,
    TableRecord,
    TimerRecord,
)


class Store(Protocol):
    # What the quick check found when the store was opened (SQLite; PostgreSQL checks
    # its own pages): when any, the store refuses every write. A start reads this, not
    # ``integrity_check``, whose cost grows with the whole history.
    problems: list[str]

    async def close(self) -> None: ...

    async def integrity_check(self) -> list[str]:
        """Problems found by the database's own check, and rows that do not decode;
        empty when all is well. Reads every row: ``urbanist check``'s, not a start's."""
        ...

    async def create_table(self, table: TableRecord, seats: Sequence[SeatRecord],
                           outbox: Sequence[OutboxRow] = ()) -> int:
        """Insert the table, its seats and what it owes already (the outbox rows get the
        new table's id), in one transaction; sets and returns ``table.id``."""
        ...

    async def load_table(self, table_id: int) -> TableRecord | None: ...

    async def table_rev(self, table_id: int) -> int | None:
        """The table's ``rev`` (bumped by every write of its row, seats or timers), None
        when there is no such table: a cached copy read at that rev is still the table."""
        ...

    async def load_bundle(
        self, table_id: int
    ) -> tuple[TableRecord, list[SeatRecord], list[TimerRecord]] | None:
        """The table row, its seats and its timers, read in ONE transaction; None for an
        unknown id (any integer, even one beyond the database's range)."""
        ...

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
        outbox: Sequence[OutboxRow] = (),
        ratings: RatedGame | None = None,
        claim_at: float | None = None,
    ) -> list[OutboxRow]:
        """Write the table row, and optionally replace its seats and timers, append one
        action and queue outbox rows, in ONE durable transaction. The write is conditional
        on ``table.rev`` (the rev it was read at; bumped on success) and, with
        ``expected_version``, on the game version: otherwise VersionConflict, and nothing
        is written, so a stale copy can never roll a table back. ``ratings`` (given by the
        write that finishes a table) adds its history rows and updates its players'
        ratings in the same transaction (see bot.history.ratings.settle).

        ``claim_at``: the table's outbox is also claimed in that transaction, once this
        save's rows are in, exactly as ``claim_outbox(table.id, claim_at)`` would claim
        it right after the commit (held rows and rows due, the due ones marked
        ``sending``, each row returned as it was before: a row this save wrote comes back
        ``pending``, its ``id`` set). One commit instead of two for the delivery worker's
        common case (issue 25). Returns the claimed rows; [] without ``claim_at``, or
        when nothing is due."""
        ...

    async def outbox_tables(self, now: float) -> list[int]:
        """Tables with outbox rows due at ``now`` (pending, or in doubt)."""
        ...

    async def claim_outbox(self, table_id: int, now: float) -> list[OutboxRow]:
        """The table's held rows and rows due now, the due ones marked ``sending``; empty
        when none is due."""
        ...

    async def mark_outbox(self, results: Sequence[OutboxResult], now: float) -> None: ...

    async def load_outbox(self, table_id: int | None = None,
                          states: Sequence[str] | None = None) -> list[OutboxRow]: ...

    async def prune_outbox(self, before: float, *, failed_before: float | None = None) -> int:
        """Delete the rows sent before ``before`` and those failed for good before
        ``failed_before`` (``before`` when None); returns how many."""
        ...

    async def record_menu(self, menu: MenuRecord) -> None: ...

    async def drop_menu(self, table_id: int, message_id: str) -> None: ...

    async def take_menus(self, table_id: int, seat: int | None,
                         before_version: int | None) -> list[MenuRecord]: ...

    async def bot_turn_tables(self) -> list[int]:
        """Running tables where a bot seat owes a decision."""
        ...

    async def find_tables(
        self,
        *,
        channel_id: str | None = None,
        user_id: str | None = None,
        statuses: Sequence[Status] | None = None,
    ) -> list[TableRecord]: ...

    async def scheduled_timers(self, before: float | None = None) -> list[ScheduledTimer]:
        """Earliest deadline and earliest reminder of every running table; with
        ``before``, only those due by then."""
        ...

    async def table_ids(self, statuses: Sequence[Status]) -> list[int]:
        """The ids of the tables in ``statuses``, without decoding their rows."""
        ...

    # -- leases: which process owns what (see bot.store.leases) ------------------------

    async def acquire_lease(self, name: str, owner: str, now: float,
                            ttl: float) -> Lease | None:
        """Grant ``name`` to ``owner`` until ``now + ttl`` when nobody holds it, when its
        holder's time ran out by ``now`` (``generation`` then goes up), or when ``owner``
        holds it already (a renewal); None while another owner's lease runs. Atomic: of
        two processes asking at once, one gets it."""
        ...

    async def renew_leases(self, owner: str, now: float, ttl: float) -> list[str]:
        """Extend to ``now + ttl`` every lease ``owner`` holds at ``now``; the names
        renewed. One that expired is not renewed (another may have taken it): acquire
        it again."""
        ...

    async def steal_expired_leases(self, owner: str, now: float, ttl: float,
                                   limit: int | None = None) -> list[Lease]:
        """Take over the leases (at most ``limit``) whose holders' time ran out by ``now``:
        a dead process's. Each expired lease goes to exactly one of the processes that
        steal at once."""
        ...

    async def release_leases(self, owner: str, now: float,
                             names: Sequence[str] | None = None) -> int:
        """Let ``owner``'s leases (or those of ``names``) expire at ``now`` (a clean
        shutdown: another process takes them at once); how many were released."""
        ...

    async def load_leases(self) -> list[Lease]: ...

    async def backup(self, path: Path) -> None: ...

    # -- history: results and ratings (see bot.history) --------------------------------

    async def rebuild_history(self, games: Sequence[RatedGame]) -> None:
        """Forget every result and rating and settle ``games`` again in finishing order
        (``finished_at``, then table id), in ONE transaction."""
        ...

    async def load_results(self, guild_id: str, *, game: str | None = None,
                           player: str | None = None, table_ids: Sequence[int] | None = None,
                           limit: int | None = None) -> list[Result]:
        """The result rows of ``guild_id``'s finished tables, newest first, grouped by
        table: with ``player``, every row of the tables they played; ``limit`` counts
        tables."""
        ...

    async def load_ratings(self, guild_id: str, game: str) -> list[Rating]: ...
