"""A table followed in a channel it was not opened in: a table opened by mail has no
channel, and a front end (Discord's ``/table follow``) may show it in one from then on.

The channel is the table's ``channel_id``/``thread_id``, as for a table opened there:
its public news and status go to it, each seat's private messages still go where the
seat plays. The table's ``guild_id`` stays its own (the mail tables' ratings ladder): a
table whose guild is not its channel's is a followed one, and only such a table is
detached again (one opened in a channel lives there).
"""

from __future__ import annotations

import dataclasses

from bot.service.compose import note
from bot.service.core import ServiceCore
from bot.service.errors import Refused
from bot.service.live import LiveTable
from bot.service.notifications import Notification
from bot.service.settings import Actor
from bot.service.values import TableInfo

OVER = ("finished", "aborted")


class ChannelVerbs(ServiceCore):
    async def attach_channel(self, table_id: int, actor: Actor, *, channel_id: str,
                             thread_id: str | None = None, where: str = "") -> TableInfo:
        """Host or manager: show a table that has no channel in ``channel_id`` (and
        ``thread_id`` when it is a thread). ``where`` names the place for the players
        (e.g. ``#games (Urbanists)``): a table in play is told, with the round's news
        (mail players read it in their next digest); an ended one only gets its status
        shown there. Refused ``followed`` when the table has a channel already."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            self._require_host_or_here(live, actor)
            record = live.record
            if record.channel_id is not None or record.thread_id is not None:
                raise Refused("followed", "This table is shown in a channel already.",
                              channel_id=record.thread_id or record.channel_id)
            changed = dataclasses.replace(record, channel_id=channel_id, thread_id=thread_id,
                                          status_channel_id=None, status_message_id=None)
            await self._write(live, changed, notes=None if record.status in OVER else
                              lambda t: [self._follow_note(t, "channel_followed", actor,
                                                           where)])
            return live.info()

    async def detach_channel(self, table_id: int, actor: Actor, *, guild_id: str,
                             where: str = "") -> TableInfo:
        """Host or manager: the table followed in a channel of ``guild_id`` is shown
        there no more (its mail players keep everything by mail). Refused
        ``not_followed`` for a table of that guild (it lives in its channel) or one with
        no channel."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            self._require_host_or_here(live, actor)
            record = live.record
            if record.channel_id is None or record.guild_id == guild_id:
                raise Refused("not_followed", "This table is not followed here: it was "
                              "opened here.")
            changed = dataclasses.replace(record, channel_id=None, thread_id=None,
                                          status_channel_id=None, status_message_id=None)
            await self._write(live, changed, notes=None if record.status in OVER else
                              lambda t: [self._follow_note(t, "channel_unfollowed", actor,
                                                           where)])
            return live.info()

    @staticmethod
    def _require_host_or_here(live: LiveTable, actor: Actor) -> None:
        """The host, or a manager of the place the table is (to be) shown in: the
        channel's own server decides what its channels show (``actor.guild_id``), not
        the table's (a mail table's is ``mail``)."""
        if actor.user_id != live.record.host_id and not actor.manager:
            raise Refused("not_host", "Only the host or a server manager may do this.")

    @staticmethod
    def _follow_note(live: LiveTable, template: str, actor: Actor,
                     where: str) -> Notification | None:
        made = note(live, None, template, {"by": actor.display, "where": where})
        if made is None or live.record.status != "running":
            return made
        # A game going on: it goes with the round's news (one post, one digest per
        # mail player), not in a mail of its own.
        return dataclasses.replace(made, defer=True)
