"""Buttons and selects as ``discord.ui.DynamicItem``: each one is rebuilt from its
``custom_id`` when clicked (see ``ids``), so a view holds no game state and a restart
loses no button. What a click does is in ``handlers``."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.discord import handlers, ids
from bot.discord.labels import Labels
from bot.discord.limits import BUTTONS_PER_ROW, LABEL_CHARS, truncate
from bot.discord.menus import MenuPlan

Button = discord.ui.Button[Any]
Select = discord.ui.Select[Any]


class ActionButton(discord.ui.DynamicItem[Button], template=ids.ACTION):
    def __init__(self, table: int, version: int, text: str, *, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=truncate(text, LABEL_CHARS), style=discord.ButtonStyle.primary,
            custom_id=ids.action(table, version, text)), row=row)
        self.table, self.version, self.text = table, version, text

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ActionButton:
        return cls(int(match["table"]), int(match["version"]), match["text"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await handlers.play(interaction, self.table, self.version, self.text)


class ActionSelect(discord.ui.DynamicItem[Select], template=ids.ACTION_SELECT):
    def __init__(self, table: int, version: int, part: int, texts: tuple[str, ...] = (),
                 *, placeholder: str | None = None, row: int | None = None) -> None:
        options = [discord.SelectOption(label=truncate(t, LABEL_CHARS), value=t) for t in texts]
        super().__init__(discord.ui.Select(
            custom_id=ids.action_select(table, version, part), options=options,
            placeholder=placeholder, min_values=1, max_values=1), row=row)
        self.table, self.version = table, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ActionSelect:
        return cls(int(match["table"]), int(match["version"]), int(match["part"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = self.item.values
        if values:
            await handlers.play(interaction, self.table, self.version, values[0])


class GroupSelect(discord.ui.DynamicItem[Select], template=ids.GROUP_SELECT):
    def __init__(self, table: int, version: int, part: int,
                 groups: tuple[tuple[str, int], ...] = (), *, labels: Labels | None = None,
                 row: int | None = None) -> None:
        options = [
            discord.SelectOption(
                label=truncate(key, LABEL_CHARS), value=key,
                description=labels.group_count.replace("{n}", str(n)) if labels else None)
            for key, n in groups
        ]
        super().__init__(discord.ui.Select(
            custom_id=ids.group_select(table, version, part), options=options,
            placeholder=labels.choose_group if labels else None, min_values=1, max_values=1),
            row=row)
        self.table, self.version = table, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> GroupSelect:
        return cls(int(match["table"]), int(match["version"]), int(match["part"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = self.item.values
        if values:
            await handlers.open_group(interaction, self.table, self.version, values[0])


class BackButton(discord.ui.DynamicItem[Button], template=ids.BACK):
    def __init__(self, table: int, version: int, *, label: str = "Back",
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label, style=discord.ButtonStyle.secondary, custom_id=ids.back(table, version)),
            row=row)
        self.table, self.version = table, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> BackButton:
        return cls(int(match["table"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await handlers.back_to_menu(interaction, self.table, self.version)


class HandButton(discord.ui.DynamicItem[Button], template=ids.HAND):
    def __init__(self, table: int, *, label: str = "My hand") -> None:
        super().__init__(discord.ui.Button(
            label=label, style=discord.ButtonStyle.secondary, custom_id=ids.hand(table)))
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> HandButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await handlers.show_hand(interaction, self.table)


_LOBBY_STYLES = {
    "join": discord.ButtonStyle.success, "leave": discord.ButtonStyle.secondary,
    "bot": discord.ButtonStyle.secondary, "start": discord.ButtonStyle.primary,
}


class LobbyButton(discord.ui.DynamicItem[Button], template=ids.LOBBY):
    def __init__(self, verb: str, table: int, *, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label or verb, style=_LOBBY_STYLES[verb], custom_id=ids.lobby(verb, table)))
        self.verb, self.table = verb, table

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LobbyButton:
        return cls(match["verb"], int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await handlers.lobby(interaction, self.verb, self.table)


class LobbyBotSelect(discord.ui.DynamicItem[Select], template=ids.LOBBY_BOT):
    """Adds a bot of the level chosen (the lobby's bot button adds one at the table's)."""

    def __init__(self, table: int, *, labels: Labels | None = None, row: int | None = None
                 ) -> None:
        options = [discord.SelectOption(label=label, value=level)
                   for level, label in (labels.bot_levels if labels else ())]
        super().__init__(discord.ui.Select(
            custom_id=ids.lobby_bot(table), options=options or [
                discord.SelectOption(label="-", value="-")],
            placeholder=labels.bot_level if labels else None, min_values=1, max_values=1),
            row=row)
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LobbyBotSelect:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = self.item.values
        if values:
            await handlers.lobby(interaction, "bot", self.table, level=values[0])


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    ActionButton, ActionSelect, GroupSelect, BackButton, HandButton, LobbyButton,
    LobbyBotSelect,
)


def menu_view(plan: MenuPlan, table: int, version: int, labels: Labels, *,
              back: bool = False) -> discord.ui.View | None:
    """The components of ``plan``; None when there is nothing to click."""
    if plan.empty and not back:
        return None
    view = discord.ui.View(timeout=None)
    row = 0
    for i, text in enumerate(plan.buttons):
        row = i // BUTTONS_PER_ROW
        view.add_item(ActionButton(table, version, text, row=row))
    if plan.buttons:
        row += 1
    for part, texts in enumerate(plan.selects):
        view.add_item(ActionSelect(table, version, part, texts, placeholder=labels.choose,
                                   row=row))
        row += 1
    for part, groups in enumerate(plan.groups):
        counts = tuple((g.key, len(g.texts)) for g in groups)
        view.add_item(GroupSelect(table, version, part, counts, labels=labels, row=row))
        row += 1
    if back:
        view.add_item(BackButton(table, version, label=labels.back, row=min(row, 4)))
    return view


def lobby_view(table: int, labels: Labels) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for verb, label in (("join", labels.join), ("leave", labels.leave), ("bot", labels.bot),
                        ("start", labels.start)):
        view.add_item(LobbyButton(verb, table, label=label))
    view.add_item(LobbyBotSelect(table, labels=labels, row=1))
    return view


def hand_view(table: int, labels: Labels) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(HandButton(table, label=labels.hand))
    return view
