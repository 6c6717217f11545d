"""What the slash command modules (``commands``, ``history_commands``) share: the answer
to a refusal raised inside a command, the table a command is about, and the games a
command offers. Kept below both, so that neither imports the other to get them."""

from __future__ import annotations

from types import TracebackType
from typing import Any

import discord

from bot.discord.components import refuse
from bot.discord.frontend import frontend_of
from bot.service import Refused, TableInfo
from engine.core import game_names, get_game

Interaction = discord.Interaction[Any]


def playable_games() -> list[str]:
    """The engine's games (test games registered by the test suite are left out)."""
    return [name for name in game_names()
            if type(get_game(name)).__module__.startswith("engine.")]


class Answer:
    """``async with Answer(interaction) as a:`` answers a ``Refused`` raised inside with the
    refusal's template, in the table's language once ``a.table_info`` has been set."""

    def __init__(self, interaction: Interaction) -> None:
        self.interaction = interaction
        self.fe = frontend_of(interaction)
        self.locale = self.fe.guild_locale(interaction)
        self.game: str | None = None
        self.table: int | None = None

    def about(self, info: TableInfo) -> TableInfo:
        self.locale, self.game, self.table = info.locale, info.game, info.id
        return info

    async def __aenter__(self) -> Answer:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> bool:
        if isinstance(exc, Refused):
            await refuse(self.fe, self.interaction, exc, locale=self.locale, game=self.game,
                         table=self.table)
            return True
        return False


async def table_here(interaction: Interaction, table: int | None = None, *,
                     ended: bool = False) -> TableInfo:
    """The table named by ``table`` (if it belongs to this server) or the channel's. With
    ``ended``, the channel's newest table even when over (to read its log or board)."""
    fe = frontend_of(interaction)
    if table is not None:
        info = await fe.service.info(table)
        if info.guild_id is not None and info.guild_id != str(interaction.guild_id):
            raise Refused("no_table", "There is no such table here.", table_id=table)
        return info
    found = await fe.service.table_in_channel(str(interaction.channel_id), ended=ended)
    if found is None:
        raise Refused("no_table", "There is no table in this channel.")
    return found
