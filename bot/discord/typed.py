"""Moves typed in a DM, in the engine's text form (``R7+B12``, ``3@5``), for anyone who
prefers typing to menus, or has more options than a menu can hold.

Reading DMs needs only the ``dm_messages`` intent, which is not privileged, and Discord
sends the content of DMs without the privileged message-content intent. A player at
several tables prefixes the move with the table: ``#12 R7+B12``.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.discord.components import refusal_message
from bot.discord.frontend import Frontend, Outgoing
from bot.discord.limits import split_message
from bot.service import Actor, Refused, TableInfo

log = logging.getLogger(__name__)

_EXPLICIT = re.compile(r"^#(?P<table>\d{1,18})\s+(?P<text>.+)$", re.DOTALL)
HELP_WORDS = frozenset({"help", "?", "aide"})
DONE = "✅"


async def on_direct_message(fe: Frontend, message: discord.Message) -> None:
    text = message.content.strip()
    if not text or message.author.bot:
        return
    actor = Actor(str(message.author.id), message.author.display_name)
    tables = [t for t in await fe.service.tables_of(actor.user_id) if t.status == "running"]
    # A DM from the player proves their DMs are open again.
    for info in tables:
        seat = info.seat_of(actor.user_id)
        if seat is not None and not info.seats[seat].dm_ok:
            await fe.service.set_dm_reachable(info.id, actor.user_id, True)
    locale = tables[0].locale if tables else "en"
    if text.lower() in HELP_WORDS:
        await _answer(message, Outgoing(fe.say("dm_help", locale, tables=_listed(tables))))
        return
    match = _EXPLICIT.match(text)
    if match is not None:
        chosen = [t for t in tables if t.id == int(match["table"])]
        text = match["text"].strip()
    else:
        deciding = [t for t in tables if await _decides(fe, t, actor)]
        chosen = deciding if deciding else tables
        if len(chosen) > 1:
            await _answer(message, Outgoing(fe.say("dm_which_table", locale,
                                                   tables=_listed(chosen), text=text)))
            return
    if not chosen:
        await _answer(message, Outgoing(fe.say("dm_help", locale, tables=_listed(tables))))
        return
    info = chosen[0]
    try:
        result = await fe.service.act_text(info.id, actor, text)
    except Refused as exc:
        out = refusal_message(fe, exc, info.locale, info.game, info.id,
                              info.seat_of(actor.user_id))
        answer = await _answer(message, out)
        if answer is not None and out.menu is not None:
            await fe.menus.keep(out.menu, answer)  # closed with its decision
        return
    if result.note:
        # A legal move that may surprise (a take that takes nothing) is said in words.
        await _answer(message, Outgoing(fe.say("chosen", info.locale, info.game,
                                               text=result.text, table_id=info.id,
                                               note=result.note)))
    try:
        await message.add_reaction(DONE)
    except discord.HTTPException:
        await _answer(message, Outgoing(DONE))


async def _decides(fe: Frontend, info: TableInfo, actor: Actor) -> bool:
    try:
        prompt = await fe.service.prompt(info.id, actor)
    except Refused:
        return False
    return prompt.decision is not None and bool(prompt.options)


def _listed(tables: list[TableInfo]) -> list[dict[str, object]]:
    return [{"table_id": t.id, "game": t.game} for t in tables]


async def _answer(message: discord.Message, out: Outgoing) -> discord.Message | None:
    """Answer in the DM; the last part sent (which carries the menu), if any."""
    parts = split_message(out.content)
    sent = None
    for i, part in enumerate(parts):
        kwargs: dict[str, Any] = {}
        if out.view is not None and i == len(parts) - 1:
            kwargs["view"] = out.view
        try:
            sent = await message.channel.send(part, **kwargs)
        except discord.HTTPException:
            log.warning("could not answer a DM")
            return None
    return sent
