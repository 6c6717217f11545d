"""Slash commands in French for French clients, from templates/fr/discord/slash_commands.txt."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.discord.commands import build_commands
from bot.discord.translator import UrbanistTranslator, load_table

# Discord's rule for command and option names (lowercase where the script has case).
NAME = re.compile(r"^[-_'\w]{1,32}$")


def tree() -> app_commands.CommandTree[Any]:
    client = discord.Client(intents=discord.Intents.none())
    t: app_commands.CommandTree[Any] = app_commands.CommandTree(client)
    build_commands(t)
    return t


async def payloads() -> list[dict[str, Any]]:
    t = tree()
    translator = UrbanistTranslator()
    return [await c.get_translated_payload(t, translator) for c in t.get_commands()]


def walk(payload: dict[str, Any]) -> list[dict[str, Any]]:
    """The payload and every option below it, choices included."""
    found = [payload]
    for option in payload.get("options", []):
        found += walk(option)
    for choice in payload.get("choices", []):
        found.append(choice)
    return found


async def test_every_name_description_and_choice_has_a_french_version() -> None:
    missing = []
    for payload in await payloads():
        for item in walk(payload):
            if "description" in item and "fr" not in item.get("description_localizations",
                                                               {}):
                missing.append(f"description of {item['name']}")
            if "fr" not in item.get("name_localizations", {}):
                missing.append(f"name {item['name']}")
    assert missing == []


async def test_french_names_follow_discords_rules_and_stay_unique() -> None:
    for payload in await payloads():
        for item in walk(payload):
            if "value" in item:  # a choice: any text up to 100 characters
                assert len(item["name_localizations"]["fr"]) <= 100
                continue
            name = item["name_localizations"]["fr"]
            assert NAME.match(name) and name == name.lower(), name
            assert len(item["description_localizations"]["fr"]) <= 100
        # Two options of one command may not share a French name.
        for command in [payload, *payload.get("options", [])]:
            names = [o["name_localizations"]["fr"] for o in command.get("options", [])
                     if "value" not in o]
            assert len(names) == len(set(names)), names


async def test_the_table_command_reads_in_french_and_other_locales_stay_english() -> None:
    table = next(p for p in await payloads() if p["name"] == "table")
    assert table["name_localizations"]["fr"] == "table"
    new = next(o for o in table["options"] if o["name"] == "new")
    assert new["name_localizations"] == {"fr": "nouvelle"}
    assert new["description_localizations"] == {"fr": "Ouvrir une nouvelle table dans ce salon"}
    assert "de" not in new["name_localizations"]


def test_every_line_of_the_table_is_used() -> None:
    used: set[tuple[str, str]] = set()

    def walk_commands(cmd: Any) -> None:
        used.add(("name", cmd.name))
        used.add(("text", cmd.description))
        if isinstance(cmd, app_commands.Group):
            for c in cmd.commands:
                walk_commands(c)
            return
        for p in cmd.parameters:
            used.add(("name", p.name))
            used.add(("text", p.description))
            used.update(("choice", ch.name) for ch in p.choices)

    for command in tree().get_commands():
        walk_commands(command)
    assert set(load_table()) - used == set()
