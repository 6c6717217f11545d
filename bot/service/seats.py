"""Seats during a table's life: leaving, kicking, replacing, reachability of private
messages, and the front end's own records (status message, menus)."""

from __future__ import annotations

import contextlib
import dataclasses
import logging

from bot.service import compose
from bot.service.compose import note
from bot.service.core import (
    Notes,
)
from bot.service.errors import Refused
from bot.service.live import LiveTable
from bot.service.notifications import Notification
from bot.service.settings import Actor
from bot.service.turns import TurnVerbs
from bot.service.values import TableInfo
from bot.store import (
    MenuRecord,
    TimerRecord,
)

log = logging.getLogger(__name__)


class SeatVerbs(TurnVerbs):
    async def leave(self, table_id: int, actor: Actor) -> TableInfo:
        """In the lobby the seat goes away; during a game a bot takes it over, so the
        others can finish. The host role passes to the first human left."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            seat = self._require_seat(live, actor)
            if live.record.status == "lobby":
                await self._remove_seat(live, seat.seat, template="left")
            elif live.record.status in ("running", "paused"):
                await self._botify(live, seat.seat, template="left")
            else:
                raise Refused("not_running", "This game is over.")
            return live.info()

    async def kick(self, table_id: int, actor: Actor, seat: int) -> TableInfo:
        """Host or manager: in the lobby the seat is removed; in a game a bot takes it."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            self._require_host(live, actor)
            self._require_seat_number(live, seat)
            if live.record.status == "lobby":
                await self._remove_seat(live, seat, template="kicked")
            elif live.record.status in ("running", "paused"):
                await self._botify(live, seat, template="kicked")
            else:
                raise Refused("not_running", "This game is over.")
            return live.info()

    async def replace(self, table_id: int, actor: Actor, seat: int,
                      by: Actor | None = None) -> TableInfo:
        """Host or manager: give ``seat`` to another member (``by``) or, with None, to a bot."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            self._require_host(live, actor)
            self._require_seat_number(live, seat)
            if live.record.status in ("finished", "aborted"):
                raise Refused("not_running", "This game is over.")
            if by is None:
                await self._botify(live, seat, template="replaced")
                return live.info()
            if live.seat_of(by.user_id) is not None:
                raise Refused("already_seated", f"{by.display} already has a seat here.")
            old = live.seats[seat]
            seats = [
                dataclasses.replace(s, user_id=by.user_id, name=by.display, is_bot=False,
                                    ai_kind=None, dm_ok=True)
                if s.seat == seat else s
                for s in live.seats
            ]
            timers = live.timers
            if old.is_bot and live.state is not None and live.record.status in ("running",
                                                                                "paused"):
                timers = self._timers_for_new_human(live, seat)
            def notes(t: LiveTable) -> Notes:
                made = [note(t, None, "replaced", {"left": seat, "left_name": old.name,
                                                    "new_name": by.display,
                                                    "bot_took_over": False})]
                if (t.state is not None and t.record.status == "running"
                        and seat in t.game.pending(t.state).waiting):
                    made.append(compose.your_turn(t, seat))
                return made

            await self._save(live, seats=seats, timers=timers, notes=notes)
            self._plan(live)
            return live.info()

    async def _remove_seat(self, live: LiveTable, seat: int, *, template: str) -> None:
        removed = live.seats[seat]
        seats = [dataclasses.replace(s, seat=i)
                 for i, s in enumerate(s for s in live.seats if s.seat != seat)]
        record = dataclasses.replace(live.record)
        if removed.user_id == record.host_id:
            humans = [s for s in seats if not s.is_bot and s.user_id]
            if humans:
                assert humans[0].user_id is not None
                record.host_id = humans[0].user_id
            else:
                record.status = "aborted"
        def notes(t: LiveTable) -> Notes:
            made = [note(t, None, template, {"left": seat, "left_name": removed.name,
                                             "new_name": None, "bot_took_over": False})]
            if record.status == "aborted":
                made.append(note(t, None, "aborted", {"by": removed.name}, slot="status"))
            else:
                made.append(note(t, None, "lobby", self._lobby_context(t), slot="status"))
            return made

        await self._write(live, record, seats=seats, notes=notes)

    async def _botify(self, live: LiveTable, seat: int, *, template: str) -> None:
        old = live.seats[seat]
        if old.is_bot:
            return
        seats = [dataclasses.replace(s, user_id=None, is_bot=True, ai_kind=self._timeout_ai(live))
                 if s.seat == seat else s for s in live.seats]
        record = dataclasses.replace(live.record)
        if old.user_id == record.host_id:
            humans = [s for s in seats if not s.is_bot and s.user_id]
            if humans:
                assert humans[0].user_id is not None
                record.host_id = humans[0].user_id
        timers = [t for t in live.timers if t.seat != seat]
        await self._write(live, record, seats=seats, timers=timers, notes=lambda t: [
            note(t, None, template, {"left": seat, "left_name": old.name, "new_name": None,
                                     "bot_took_over": True})])
        if live.record.status == "running":
            await self._after_change(live)

    def _timers_for_new_human(self, live: LiveTable, seat: int) -> list[TimerRecord]:
        from bot.service.decisions import fresh_timers

        deadline = self._deadline_seconds(live.record)
        timers = [t for t in live.timers if t.seat != seat]
        # On a paused table the timers start from the pause: the resume moves every timer
        # on by the time paused, so the new player gets a whole deadline from then.
        since = live.record.paused_at if live.record.status == "paused" else None
        start = self.clock.now() if since is None else since
        if deadline is not None and seat in live.game.pending(live.state).waiting:
            timers += fresh_timers(seat, start, deadline, live.record.reminders)
        return sorted(timers)

    async def set_dm_reachable(self, table_id: int, user_id: str, reachable: bool) -> None:
        """A front end reports that a user's private messages fail (or work again). When
        they fail, the player is told in the table's channel to use ``/hand``; the
        game never waits on a private message."""
        async with self._lock(table_id):
            await self._set_reachable(await self._load(table_id), user_id, reachable)


    async def _private_failed(self, failed: Notification, error: str) -> None:
        """The delivery worker gave up on a private message: whatever the reason, the
        seat is marked unreachable and told in the channel (once) to use ``/hand``."""
        if failed.seat is None or failed.user_id is None:
            return
        with contextlib.suppress(Refused):  # the table is gone: nobody to tell
            await self.set_dm_reachable(failed.table_id, failed.user_id, False)

    async def set_status_message(self, table_id: int, channel_id: str | None,
                                 message_id: str | None) -> None:
        """A front end records where it shows the table's status (any table status), so
        that after a restart it edits the same message. Not part of the game: the
        version does not move and nobody is told."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            record = live.record
            if (record.status_channel_id, record.status_message_id) == (channel_id, message_id):
                return
            await self._write(live, dataclasses.replace(
                record, status_channel_id=channel_id, status_message_id=message_id))

    async def record_menu(self, table_id: int, seat: int, prompt_version: int,
                          channel_id: str, message_id: str) -> None:
        """A front end shows a seat's menu for the decision opened at ``prompt_version``
        in a message it can edit later: kept, so the menu is disabled when it closes."""
        await self.store.record_menu(MenuRecord(table_id, seat, prompt_version, channel_id,
                                                message_id))

    async def forget_menu(self, table_id: int, message_id: str) -> None:
        """A front end took a menu's buttons away itself: nothing to disable later."""
        await self.store.drop_menu(table_id, message_id)

    async def closed_menus(self, table_id: int) -> list[MenuRecord]:
        """The recorded menus whose decision has closed (all of them once the game is
        over), forgotten as they are returned: the front end disables them."""
        info = await self.info(table_id)
        closed: list[MenuRecord] = []
        for seat in info.seats:
            current = info.prompt_versions.get(seat.seat) if info.status == "running" else None
            closed += await self.store.take_menus(table_id, seat.seat, current)
        return closed
