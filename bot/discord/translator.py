"""Slash-command names and descriptions for French Discord clients.

discord.py asks the tree's translator for every name, description and choice when the
commands are synced; Discord then shows each client its own language. The French
strings live with the other sentences, in ``templates/fr/discord/slash_commands.txt``
(``kind | English | French``), so that translators edit text, not code. A string that is
missing there stays English (the translator returns None).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.text import TEMPLATES

TABLE = Path("fr") / "discord" / "slash_commands.txt"
NAMES = frozenset({Where.command_name, Where.group_name, Where.parameter_name})
KINDS = {"name", "text", "choice"}


def load_table(root: Path = TEMPLATES) -> dict[tuple[str, str], str]:
    """(kind, English) -> French, kind being name, text or choice."""
    table: dict[tuple[str, str], str] = {}
    for number, line in enumerate((root / TABLE).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.split(" | ")]
        if len(parts) != 3 or parts[0] not in KINDS:
            raise ValueError(f"{TABLE}:{number}: expected 'kind | English | French'")
        table[(parts[0], parts[1])] = parts[2]
    return table


def kind_of(location: Where) -> str:
    if location in NAMES:
        return "name"
    if location is Where.choice_name:
        return "choice"
    return "text"


class UrbanistTranslator(app_commands.Translator):
    def __init__(self, table: Mapping[tuple[str, str], str] | None = None) -> None:
        self.table = dict(table) if table is not None else load_table()

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        if locale is not discord.Locale.french:
            return None
        return self.table.get((kind_of(context.location), string.message))
