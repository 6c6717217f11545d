"""A menu stays clickable only while its decision is open. Every message the bot shows a
decision's menu in is tracked, and its components are removed when that decision closes
(the end of the game closes every one), whatever sent it:

- a message of the bot's own (the DM per decision, the answer to a typed move) is
  recorded in the database (``TableService.record_menu``), so any process, after any
  restart, edits it through its channel;
- an answer to an interaction (``/hand``, a refusal that offers the current options, an
  ephemeral message answered in place) can only be edited with that interaction's token,
  which Discord honours for 15 minutes: it is kept in this process's memory and closed
  when its decision closes or, at the latest, shortly before the token expires or when
  the process stops. Nothing could close it after that, so it must not stay live.

A menu is tracked *after* it is shown, while the delivery worker closes menus after each
change: a decision that closed in between would be missed, so tracking a menu checks its
decision and closes it at once when it is over.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord

from bot.discord.pacing import Pacer
from bot.service import TableInfo, TableService
from bot.store.records import MenuRecord

log = logging.getLogger(__name__)

TOKEN_LIFE = 15 * 60.0  # seconds Discord accepts an interaction's token
TOKEN_MARGIN = 60.0  # an answer's menu is closed this long before its token expires

Closer = Callable[[], Awaitable[object]]
_SENDING_ERRORS = (discord.HTTPException, discord.RateLimited, aiohttp.ClientError,
                   TimeoutError, OSError)


@dataclass(frozen=True)
class MenuOf:
    """Whose menu: the decision of ``seat`` at ``table`` opened at ``version`` (the
    version its components carry)."""

    table: int
    seat: int
    version: int


@dataclass
class _Answer:
    menu: MenuOf
    close: Closer
    expiry: asyncio.TimerHandle


def is_answer(message: discord.Message | discord.PartialMessage | Any) -> bool:
    """Whether ``message`` answers an interaction (only its token may edit it), rather
    than being a message of the bot's own."""
    flags = getattr(message, "flags", None)
    return bool((flags is not None and flags.ephemeral)
                or getattr(message, "interaction_metadata", None) is not None
                or getattr(message, "webhook_id", None) is not None)


def may_show_menu(message: discord.Message | Any) -> bool:
    """Menus are shown in DMs and in answers to interactions, never in a channel's own
    messages (a forged component there is no menu to track)."""
    return getattr(message, "guild", None) is None or is_answer(message)


def is_open(menu: MenuOf, current: Mapping[int, int] | None) -> bool:
    """Whether ``menu``'s decision is still open, given the seats' current decision
    versions (None: the game is over)."""
    return current is not None and current.get(menu.seat) == menu.version


class MenuKeeper:
    def __init__(self, client: discord.Client, service: Callable[[], TableService],
                 pacer: Pacer) -> None:
        self._client = client
        self._service = service
        self.pacer = pacer
        self._answers: dict[int, _Answer] = {}  # by message id
        self._tasks: set[asyncio.Task[None]] = set()

    # ---------------------------------------------------------------- tracking

    async def keep(self, menu: MenuOf, message: discord.Message | discord.PartialMessage, *,
                   close: Closer | None = None, check: bool = True) -> None:
        """``message`` shows ``menu``: tracked until its decision closes. ``close`` edits
        it through an interaction's token (an answer); without it, the message is the
        bot's own and is recorded. ``check``: close it now if the decision is already
        over (the caller does not close the table's menus itself right after)."""
        if close is not None:
            self._keep_answer(menu, message.id, close)
        else:
            await self._service().record_menu(menu.table, menu.seat, menu.version,
                                               str(message.channel.id), str(message.id))
        if check:
            info = await self._service().info(menu.table)
            if not is_open(menu, _current(info)):
                await self.close(info)

    async def forget(self, table: int, message: discord.Message | Any) -> None:
        """Whoever edits ``message`` next decides its components: nothing to close now."""
        if is_answer(message):
            self._drop_answer(message.id)
        else:
            await self._service().forget_menu(table, str(message.id))

    def _keep_answer(self, menu: MenuOf, message_id: int, close: Closer) -> None:
        self._drop_answer(message_id)
        expiry = asyncio.get_running_loop().call_later(
            TOKEN_LIFE - TOKEN_MARGIN, self._expire, message_id)
        self._answers[message_id] = _Answer(menu, close, expiry)

    def _drop_answer(self, message_id: int) -> _Answer | None:
        answer = self._answers.pop(message_id, None)
        if answer is not None:
            answer.expiry.cancel()
        return answer

    # ---------------------------------------------------------------- closing

    async def close(self, info: TableInfo) -> None:
        """Remove the components of every menu of ``info``'s table whose decision has
        closed: every menu once the game is over, else those older than their seat's
        current decision."""
        for record in await self._service().closed_menus(info.id):
            await self._close_record(record)
        current = _current(info)
        for message_id, answer in list(self._answers.items()):
            if answer.menu.table == info.id and not is_open(answer.menu, current):
                self._drop_answer(message_id)
                await self._close_answer(answer)

    async def close_all(self) -> None:
        """The process stops: the menus only its tokens could edit are closed now, since
        no other process ever could."""
        answers = [a for a in (self._drop_answer(m) for m in list(self._answers)) if a]
        for answer in answers:
            try:
                await self._close_answer(answer)
            except Exception:  # a stopping process must stop whatever its connection says
                log.exception("table %d: a menu left open at shutdown", answer.menu.table)
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def _expire(self, message_id: int) -> None:
        answer = self._answers.pop(message_id, None)
        if answer is None:
            return
        task = asyncio.get_running_loop().create_task(self._close_answer(answer))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _close_answer(self, answer: _Answer) -> None:
        await self.pacer.wait(None)
        try:
            await answer.close()
        except _SENDING_ERRORS as exc:
            # Its token expired or the message is gone: a click on it is refused politely.
            log.info("table %d: could not close a menu shown in an answer (%r)",
                     answer.menu.table, exc)

    async def _close_record(self, record: MenuRecord) -> None:
        partial = self._client.get_partial_messageable(int(record.channel_id))
        await self.pacer.wait(None)
        try:
            await partial.get_partial_message(int(record.message_id)).edit(view=None)
        except _SENDING_ERRORS as exc:
            status = getattr(exc, "status", 0)
            if not isinstance(exc, discord.HTTPException) or status >= 500 or status == 429:
                # Discord could not say: kept, so the next close tries it again.
                await self._service().record_menu(record.table_id, record.seat,
                                                   record.prompt_version, record.channel_id,
                                                   record.message_id)
            # A deleted message needs nothing; otherwise the stale menu still answers
            # politely ("moved on"), so nothing is lost.
            log.info("table %d: could not disable a menu (%r)", record.table_id, exc)


def _current(info: TableInfo) -> Mapping[int, int] | None:
    return info.prompt_versions if info.status == "running" else None
