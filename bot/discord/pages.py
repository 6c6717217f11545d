"""The table's web page on Discord (bot/web): its link where the table is shown (the
status message, ``/table status``, the game-over post), and ``/table settings public:``
(the host or a manager: a private table's page opens only by its token) and ``listed:``
(a manager: whether the server's tables are on the web index)."""

from __future__ import annotations

import contextlib
import logging
from typing import Any, Protocol, runtime_checkable

import discord

from bot.discord.frontend import Frontend
from bot.service import Actor, Refused, TableInfo
from bot.service.routing import transports
from bot.store import pages
from bot.web.links import table_link

log = logging.getLogger(__name__)


async def link_of(fe: Frontend, info: TableInfo) -> str | None:
    """The table's page (None without ``URBANIST_PUBLIC_URL``)."""
    return await table_link(fe.service.store, info.id)


def link_line(fe: Frontend, info: TableInfo, link: str | None) -> str:
    """The line that carries the link, in the table's language; empty without one."""
    if link is None:
        return ""
    return fe.say("page_link", info.locale, info.game, link=link, status=info.status)


async def change(fe: Frontend, info: TableInfo, actor: Actor, *, public: bool | None,
                 listed: bool | None) -> str:
    """Apply ``public`` (host or manager) and ``listed`` (manager); the words saying how
    the page now stands. Refused (nothing changed) for anyone else."""
    if public is not None and not (actor.manages(info.guild_id)
                                   or actor.user_id == info.host_id):
        raise Refused("not_host", "Only the host can do that.")
    if listed is not None and not actor.manages(info.guild_id):
        # A moderator lists their own server's tables, never another's (a mail table
        # followed here belongs to the mail tables' index).
        raise Refused("not_host", "Only a moderator can do that.")
    if public is not None:
        await pages.set_public(fe.service.store, info.id, public)
    if listed is not None and info.guild_id is not None:
        await pages.set_listed(fe.service.store, info.guild_id, listed)
    return await page_text(fe, info)


async def page_text(fe: Frontend, info: TableInfo) -> str:
    access = await pages.access(fe.service.store, info.id)
    listed = info.guild_id is None or await pages.guild_listed(fe.service.store, info.guild_id)
    return fe.say("page_setting", info.locale, info.game, public=access.public, listed=listed,
                  link=await table_link(fe.service.store, info.id))


@runtime_checkable
class ShowsStatus(Protocol):
    """What edits a table's status message: the Discord transport's ``status``
    (``bot.discord.status.StatusBoard``, which imports this module: hence a protocol)."""

    async def show(self, info: TableInfo, channel: discord.abc.Messageable) -> None: ...


def status_board(notifier: object) -> ShowsStatus | None:
    """The status board of the Discord transport in ``notifier``, whether it is the
    service's notifier itself or a transport behind a router (``urbanist run --mail``
    wraps it in ``RoutingNotifier``); None when there is none."""
    for transport in transports(notifier):
        board = getattr(transport, "status", None)
        if isinstance(board, ShowsStatus):
            return board
    return None


async def refresh_status(interaction: discord.Interaction[Any], info: TableInfo) -> None:
    """Edit the status message now, so it carries the link the page has now (a table
    made private shows its token, not its number)."""
    client: Any = interaction.client
    status = status_board(getattr(client, "notifier", None))
    fe: Frontend = client.frontend
    channel = await fe.channel(info)
    if status is None or channel is None:
        return
    with contextlib.suppress(discord.HTTPException):
        await status.show(info, channel)
