"""Reading a table: its info, views, a seat's prompt and hand, the log, a replay check."""

from __future__ import annotations

import logging
from typing import Any

from bot.service import compose
from bot.service.core import (
    ServiceCore,
)
from bot.service.errors import Refused
from bot.service.levels import kind_for, level_of
from bot.service.notifications import Notification
from bot.service.replay import ReplayReport, verify_replay
from bot.service.settings import Actor
from bot.service.values import LogEntry, Prompt, TableInfo
from bot.store.records import Status

log = logging.getLogger(__name__)


class Queries(ServiceCore):
    async def info(self, table_id: int) -> TableInfo:
        async with self._lock(table_id):
            return (await self._load(table_id)).info()

    async def table_in_channel(self, channel_id: str, *, ended: bool = False) -> TableInfo | None:
        """The newest table of a channel or thread that has not ended; with ``ended``, when
        there is none, the newest that has (to read a finished table's log or board)."""
        tables = await self.store.find_tables(channel_id=channel_id,
                                              statuses=["lobby", "running", "paused"])
        if not tables and ended:
            tables = await self.store.find_tables(channel_id=channel_id)
        return await self.info(tables[-1].id) if tables else None

    async def tables_of(self, user_id: str, *, active: bool = True) -> list[TableInfo]:
        statuses: list[Status] | None = ["lobby", "running", "paused"] if active else None
        tables = await self.store.find_tables(user_id=user_id, statuses=statuses)
        return [await self.info(t.id) for t in tables]

    async def view(self, table_id: int, actor: Actor | None = None) -> dict[str, Any]:
        """The public view, or the actor's own view when the actor holds a seat."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            if live.state is None:
                raise Refused("not_running", "The game has not started.")
            seat = live.seat_of(actor.user_id) if actor else None
            return live.game.view(live.state, None if seat is None else seat.seat)

    async def prompt(self, table_id: int, actor: Actor) -> Prompt:
        async with self._lock(table_id):
            live = await self._load(table_id)
            seat = self._require_seat(live, actor)
            return compose.prompt_for(live, seat.seat)

    async def hand(self, table_id: int, actor: Actor) -> Notification:
        """The actor's private situation (view, options, deadline) as a notification to
        show however the front end can (an ephemeral reply when DMs are closed)."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            seat = self._require_seat(live, actor)
            if live.state is None:
                raise Refused("not_running", "The game has not started.")
            made = compose.your_turn(live, seat.seat, template="hand", now=True)
            assert made is not None
            return made

    async def log(self, table_id: int) -> list[LogEntry]:
        """The public log: secret choices appear without their content."""
        async with self._lock(table_id):
            live = await self._load(table_id)
        actions = await self.store.load_actions(table_id)
        # The table's level is fixed from the start: it played every late seat.
        late_level = level_of(kind_for(live.game, live.record.ai_level))
        bot_levels = {s.seat: level_of(s.ai_kind) for s in live.seats if s.is_bot}
        return [
            LogEntry(a.version, a.seat, live.names[a.seat] if a.seat < len(live.names) else "?",
                     a.source, a.public_text, a.at, tuple(a.events),
                     late_level if a.source in ("timeout", "admin")
                     else bot_levels.get(a.seat) if a.source == "bot" else None)
            for a in actions
        ]

    async def verify(self, table_id: int) -> ReplayReport:
        """Replay the table's log from its seed and compare with the stored snapshot."""
        async with self._lock(table_id):
            record = await self.store.load_table(table_id)
            if record is None:
                raise Refused("no_table", "There is no such table.", table_id=table_id)
            seats = await self.store.load_seats(table_id)
            actions = await self.store.load_actions(table_id)
        return verify_replay(self.get_game(record.game), record, len(seats), actions)
