"""``/table follow table:`` and ``/table unfollow``: a table played by email (it has no
channel) shown in a Discord channel or thread, and no more.

Following attaches the table to the channel (``TableService.attach_channel``): from then
on its public news and its status message come there, as for a table opened there, and
each seat's private messages still go where the seat plays (``bot.service.routing``).
The status message is posted at once. A table over can be followed too: its status
message shows the final result, and nothing else comes.

Who: a member who may manage the channel (Manage Channels or Manage Server) or the
table's host. What is refused looks like what it is, except that a private table (its
web page opens only by its token) and a table of another server are answered exactly as
a number that does not exist: nobody learns from here that such a table is there.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import defaultdict
from typing import Any

import discord
from discord import app_commands

from bot.discord.frontend import Frontend, frontend_of
from bot.discord.pages import status_board
from bot.discord.slash import Answer
from bot.service import Refused, TableInfo
from bot.service.routing import is_mail
from bot.store import pages

Interaction = discord.Interaction[Any]


def unknown(table: int) -> Refused:
    """The one answer for a number nobody here may follow: unknown, private, elsewhere."""
    return Refused("no_table", "There is no such table here.", table_id=table)


async def followable(fe: Frontend, interaction: Interaction, table: int) -> TableInfo:
    """Table ``table`` if this server may know of it and show it: not private, not
    another server's (a Discord server's id is a number; a table opened by mail has
    none), every seat played on Discord or by mail."""
    try:
        info = await fe.service.info(table)
    except Refused:
        raise unknown(table) from None
    guild = info.guild_id
    if guild is not None and guild.isdigit() and guild != str(interaction.guild_id):
        raise unknown(table)
    if not (await pages.access(fe.service.store, info.id)).public:
        raise unknown(table)
    if not all(reachable_here(s.user_id) for s in info.seats):
        raise unknown(table)  # a console table: its players are not on Discord nor mail
    return info


def reachable_here(user_id: str | None) -> bool:
    """A seat this bot can send private messages to: a bot's, a Discord member's, or a
    mail player's (``urbanist run --mail``)."""
    return user_id is None or user_id.isdigit() or is_mail(user_id)


def where(interaction: Interaction) -> str:
    """The channel and server as players elsewhere (by mail) read them."""
    channel = getattr(interaction.channel, "name", None)
    guild = getattr(interaction.guild, "name", None)
    if channel is None:
        return ""
    return f"#{channel}" + (f" ({guild})" if guild else "")


def followed_in(interaction: Interaction, info: TableInfo) -> str | None:
    """The channel ``info`` is shown in, when it is one of this server (else None: the
    answer says another server, and names nothing of it)."""
    target = info.thread_id or info.channel_id
    guild = interaction.guild
    if target is None or guild is None or not target.isdigit():
        return None
    found = guild.get_channel_or_thread(int(target))
    return target if found is not None else None


async def show_status(interaction: Interaction, info: TableInfo) -> None:
    """Post (or edit) the table's status message in its channel now."""
    client: Any = interaction.client
    board = status_board(getattr(client, "notifier", None))
    fe = frontend_of(interaction)
    channel = await fe.channel(info)
    if board is None or channel is None:
        return
    with contextlib.suppress(discord.HTTPException):
        await board.show(info, channel)


async def follow_command(interaction: Interaction, locks: defaultdict[int, asyncio.Lock],
                         table: int) -> None:
    fe = frontend_of(interaction)
    async with Answer(interaction) as answer:
        info = await followable(fe, interaction, table)
        answer.about(info)  # from here on, answers in the table's language
        actor = fe.actor(interaction)
        if not (actor.manager or actor.user_id == info.host_id):
            raise Refused("not_host", "Only the host or a server manager may do this.")
        if info.channel_id is not None or info.thread_id is not None:
            await fe.reply(interaction, fe.say("follow_taken", info.locale, info.game,
                                               table_id=info.id,
                                               channel=followed_in(interaction, info)))
            return
        mail = getattr(getattr(interaction.client, "config", None), "mail", None)
        if mail is None and any(is_mail(s.user_id) for s in info.seats):
            # Its mail seats' messages would have no transport here.
            await fe.reply(interaction, fe.say("follow_no_mail", info.locale, info.game,
                                               table_id=info.id))
            return
        channel_id = interaction.channel_id or 0
        thread = str(channel_id) if isinstance(interaction.channel, discord.Thread) else None
        # One table per channel, as for /table new (the same lock).
        async with locks[channel_id]:
            existing = await fe.service.table_in_channel(str(channel_id))
            if existing is not None:
                await fe.reply(interaction, fe.say("table_exists", existing.locale,
                                                   existing.game, table_id=existing.id))
                return
            info = await fe.service.attach_channel(info.id, actor, channel_id=str(channel_id),
                                                   thread_id=thread, where=where(interaction))
        await fe.reply(interaction, fe.say("followed_here", info.locale, info.game,
                                           table_id=info.id))
        await show_status(interaction, info)


async def unfollow_command(interaction: Interaction) -> None:
    fe = frontend_of(interaction)
    async with Answer(interaction) as answer:
        found = await fe.service.table_in_channel(str(interaction.channel_id), ended=True)
        if found is None:
            raise Refused("no_table", "There is no table in this channel.")
        info = answer.about(found)
        status = info.status_message_id
        info = await fe.service.detach_channel(info.id, fe.actor(interaction),
                                               guild_id=str(interaction.guild_id),
                                               where=where(interaction))
        text = fe.say("unfollowed_here", info.locale, info.game, table_id=info.id)
        await fe.reply(interaction, text)
        # The status message says so, and its buttons go: the table is not played here.
        partial = getattr(interaction.channel, "get_partial_message", None)
        if status is not None and partial is not None:
            with contextlib.suppress(discord.HTTPException):
                await partial(int(status)).edit(content=text, view=None)
        board = status_board(getattr(interaction.client, "notifier", None))
        forget = getattr(board, "forget", None)
        if forget is not None:
            forget(info.id)  # followed again elsewhere, it is posted there afresh


def register(group: app_commands.Group, locks: defaultdict[int, asyncio.Lock]) -> None:
    """Add ``follow`` and ``unfollow`` to ``/table``; ``locks``: the per-channel locks
    ``/table new`` holds while it checks that the channel has no table."""

    @app_commands.describe(table="The number of a table played by email")
    async def follow(interaction: Interaction, table: app_commands.Range[int, 1]) -> None:
        await follow_command(interaction, locks, table)

    group.add_command(app_commands.Command(
        name="follow", description="Show a table played by email in this channel: its "
        "news and status come here (moderator or host)", callback=follow, parent=group))
    group.add_command(app_commands.Command(
        name="unfollow", description="Stop showing the table followed in this channel "
        "(moderator or host)", callback=unfollow_command, parent=group))
