"""A table as the service holds it while working on it: record, seats, timers, engine state."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from bot.service.levels import level_of
from bot.service.values import SeatInfo, TableInfo
from bot.store.records import SeatRecord, TableRecord, TimerRecord
from engine.core import Game


@dataclass
class LiveTable:
    record: TableRecord
    seats: list[SeatRecord]
    timers: list[TimerRecord]
    game: Game[Any]
    state: Any = None  # the engine state; None in the lobby
    extra: dict[str, Any] = field(default_factory=dict)
    # True from the moment an action is applied to ``state`` (in place) until its commit
    # has moved ``record`` on: meanwhile ``state`` is not the state of ``record.version``.
    moving: bool = False
    # The seats' menus at ``record.version`` (``fill.options_at``), made once for the
    # prompt and the message that shows the same moves.
    menus: dict[int, list[Any]] = field(default_factory=dict)
    menus_version: int = -1
    # The version whose messages the delivery made from ``state`` (a whole batch of
    # them): no copy of that state need be kept for them when the next action changes it.
    made_version: int = -1

    def state_at(self, version: int) -> Any:
        """The engine state when it is the state of ``version``, else None."""
        if self.moving or self.state is None or self.record.version != version:
            return None
        return self.state

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def seat_of(self, user_id: str) -> SeatRecord | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    def seat(self, number: int) -> SeatRecord | None:
        return next((s for s in self.seats if s.seat == number), None)

    def deadline_of(self, seat: int) -> float | None:
        dues = [t.due_at for t in self.timers if t.seat == seat and t.kind == "deadline"]
        return min(dues) if dues else None

    def info(self) -> TableInfo:
        waiting: dict[int, str] = {}
        simultaneous = False
        if self.state is not None and self.record.status in ("running", "paused"):
            pending = self.game.pending(self.state)
            waiting, simultaneous = dict(pending.waiting), pending.simultaneous
        deadlines = {t.seat: t.due_at for t in self.timers if t.kind == "deadline"}
        r = self.record
        return TableInfo(
            id=r.id, game=r.game, status=r.status, version=r.version, host_id=r.host_id,
            locale=r.locale, max_seats=r.max_seats, min_seats=self.game.min_seats,
            seats=tuple(SeatInfo(s.seat, s.name, s.user_id, s.is_bot, s.dm_ok,
                                 (level_of(s.ai_kind) or r.ai_level) if s.is_bot else None)
                        for s in self.seats),
            waiting=waiting, deadlines=deadlines, deadline_seconds=r.deadline_seconds,
            timeout_policy=r.timeout_policy, channel_id=r.channel_id, thread_id=r.thread_id,
            guild_id=r.guild_id, outcome=r.outcome, options=dict(r.options),
            default_options=dict(self.game.default_options()), reminders=tuple(r.reminders),
            seat_order=r.seat_order, ai_level=r.ai_level, status_channel_id=r.status_channel_id,
            status_message_id=r.status_message_id, simultaneous=simultaneous,
            prompt_versions={s.seat: s.prompt_version for s in self.seats},
        )


class TableCache:
    """A small LRU of live tables, so a busy table is not re-parsed at every click.
    Only touched under the table's lock; an entry is dropped whenever a write fails.

    ``checked``: other processes write the same tables (``TableService.share``), so a
    cached copy serves only once the table's ``rev`` in the database is found to be the
    copy's (one small read instead of the table's rows and its state parsed anew)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.checked = False
        self._items: OrderedDict[int, LiveTable] = OrderedDict()

    def get(self, table_id: int) -> LiveTable | None:
        live = self._items.get(table_id)
        if live is not None:
            self._items.move_to_end(table_id)
        return live

    def peek(self, table_id: int) -> LiveTable | None:
        """The cached table, without touching the order (read off the table's lock: its
        record and seats are replaced whole, after each commit)."""
        return self._items.get(table_id)

    def put(self, live: LiveTable) -> None:
        if self.size <= 0:
            return
        self._items[live.id] = live
        self._items.move_to_end(live.id)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def drop(self, table_id: int) -> None:
        self._items.pop(table_id, None)

    def clear(self) -> None:
        self._items.clear()
