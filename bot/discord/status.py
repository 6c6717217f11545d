"""The one status message per table, edited in place: the lobby with its buttons, then
who still has to act and until when (never what anyone chose), then the result.

Its channel and message ids are kept with the table (``set_status_message``), so after a
restart the same message is edited straight away, even one without buttons any more (a
finished table's). When there is no stored message (a table from before the ids were
kept) or it was deleted, the channel's recent history is searched for the table's
buttons; failing that, a new message is posted and its id kept.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.discord import components, ids
from bot.discord.frontend import Frontend
from bot.discord.limits import truncate
from bot.discord.pacing import Pacer
from bot.discord.pages import link_line, link_of
from bot.service import TableInfo

log = logging.getLogger(__name__)

HISTORY_SEARCH = 50


def status_context(info: TableInfo, *, named: bool = False) -> dict[str, Any]:
    """The status template's values. In the channel (``named`` False) a secret pick
    names nobody, so the message does not change, nor cost an edit, at every pick."""
    waiting = [
        {"seat": s, "name": info.seats[s].name, "decision": kind,
         "deadline": info.deadlines.get(s), "dm_ok": info.seats[s].dm_ok}
        for s, kind in sorted(info.waiting.items())
        if s < len(info.seats) and not info.seats[s].is_bot
    ]
    standings = (info.outcome or {}).get("standings", [])
    winners = [info.seats[s["seat"]].name if s.get("seat") is not None else s["name"]
               for s in standings if s.get("rank") == 1]
    return {
        "table_id": info.id, "game": info.game, "status": info.status,
        "seats": [{"seat": s.seat, "name": s.name, "is_bot": s.is_bot, "level": s.level}
                  for s in info.seats],
        "ai_level": info.ai_level,
        "names": info.names, "max_seats": info.max_seats, "min_seats": info.min_seats,
        "deadline_seconds": info.deadline_seconds, "timeout_policy": info.timeout_policy,
        "waiting": waiting, "winners": winners, "options": info.options,
        "reminders": list(info.reminders), "seat_order": info.seat_order,
        "simultaneous": info.simultaneous and not named,
    }


def status_text(fe: Frontend, info: TableInfo, *, named: bool = False,
                link: str | None = None) -> str:
    """The status in words; ``link``: the table's web page, on a line of its own."""
    text = fe.say("status", info.locale, info.game, **status_context(info, named=named))
    if link is not None:
        text += "\n" + link_line(fe, info, link)
    return truncate(text)


class StatusBoard:
    def __init__(self, fe: Frontend, pacer: Pacer | None = None) -> None:
        self.fe = fe
        self.pacer = pacer or Pacer(enabled=False)
        self._shown: dict[int, tuple[str, str]] = {}

    def forget(self, table_id: int) -> None:
        """The table's status was shown elsewhere (a followed table now unfollowed): the
        next ``show`` posts or edits even when its text is the same."""
        self._shown.pop(table_id, None)

    def _view(self, info: TableInfo) -> tuple[str, discord.ui.View | None]:
        labels = self.fe.labels(info.locale)
        if info.status == "lobby":
            return "lobby", components.lobby_view(info.id, labels)
        if info.status in ("running", "paused"):
            return "hand", components.hand_view(info.id, labels)
        return "none", None

    async def show(self, info: TableInfo, channel: discord.abc.Messageable) -> None:
        """Edit the table's status message to the present (post it if there is none).
        Raises discord.HTTPException when Discord refuses (the caller retries)."""
        content = status_text(self.fe, info, link=await link_of(self.fe, info))
        kind, view = self._view(info)
        if self._shown.get(info.id) == (content, kind):
            return  # nothing changed: spare Discord an edit
        await self.pacer.wait(getattr(channel, "id", None))
        message = await self._edit(info, channel, content, view)
        if message is None:
            kwargs: dict[str, Any] = {"view": view} if view is not None else {}
            message = await channel.send(content, **kwargs)
        self._shown[info.id] = (content, kind)
        await self._keep(info, channel, message)

    async def _edit(self, info: TableInfo, channel: discord.abc.Messageable, content: str,
                    view: discord.ui.View | None) -> discord.Message | None:
        """The status message edited: the stored one, else one found in the history;
        None when there is neither (or both are gone)."""
        stored = self._stored(info, channel)
        if stored is not None:
            try:
                return await stored.edit(content=content, view=view)
            except discord.NotFound:
                log.info("table %d: the status message %d was deleted", info.id, stored.id)
        found = await self._find(info.id, channel)
        if found is None:
            return None
        try:
            return await found.edit(content=content, view=view)
        except discord.NotFound:
            return None

    @staticmethod
    def _stored(info: TableInfo, channel: discord.abc.Messageable) -> discord.PartialMessage | None:
        """The stored message, to edit without fetching it first (one request, not two)."""
        if info.status_message_id is None or info.status_channel_id != str(
                getattr(channel, "id", None)):
            return None
        partial = getattr(channel, "get_partial_message", None)
        if partial is None:
            return None
        message: discord.PartialMessage = partial(int(info.status_message_id))
        return message

    async def _keep(self, info: TableInfo, channel: discord.abc.Messageable,
                    message: discord.Message) -> None:
        where = (str(getattr(channel, "id", "")), str(message.id))
        if where == (info.status_channel_id, info.status_message_id):
            return
        await self.fe.service.set_status_message(info.id, *where)

    async def _find(self, table: int, channel: discord.abc.Messageable) -> discord.Message | None:
        me = self.fe.client.user
        if me is None:
            return None
        marker = ids.status_marker(table)
        try:
            async for message in channel.history(limit=HISTORY_SEARCH):
                if message.author.id != me.id:
                    continue
                for row in message.components:
                    for child in getattr(row, "children", [row]):
                        custom_id = getattr(child, "custom_id", None)
                        if custom_id and marker.fullmatch(custom_id):
                            return message
        except discord.HTTPException:
            log.info("table %d: no access to the channel history", table)
        return None
