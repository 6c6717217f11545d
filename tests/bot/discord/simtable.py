"""A simcord world for the Discord front end: a guild, a channel, three players, a
spectator and a moderator, the bot on a real SQLite file with a fake clock, and the
verbs a test needs (find a DM's menu, pick an option through it, run a deadline).

Imported by the test modules, with the fixtures of ``simfixtures``, rather than living
in a conftest: a second ``conftest`` module would shadow ``tests/bot/conftest.py``,
which the other bot tests import by name.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from simcord import interactions as sim_interactions
from simcord.backend import serializers
from simcord.enums import ComponentType, InteractionType
from simcord.results import to_discord_message

from bot.clock import FakeClock
from bot.discord import UrbanistBot
from bot.discord.menus import group_key
from bot.service import Actor, TableInfo, TableService

HOUR = 3600
DAY = 24 * HOUR
NO_PRIVILEGED = discord.Intents.default()  # what an unverified bot may always connect with

# How long simcord waits, in real seconds, for the bot to finish what a click or a DM set
# off. Its default, 5 s, is a timing assumption: a settle is many hand-offs between the
# event loop and the bot's threads (SQLite, images), each waiting for a core, so on a
# shared machine (load 10-15 on 2 cores) a click of 0.15 s of CPU took 3 s, and a typed
# move of the Neotopia game ran past 5 s (the heaviest, the game-over post with its scores
# image and timelapse, is 0.6 s of CPU). A bound only: a settle returns as soon as the bot
# is idle, and a bot that never is still fails with simcord's list of what it was doing.
SETTLE_BOUND = 120.0

# Applied by test modules: simcord refuses to connect a bot that asks for more.
simcord_marker = pytest.mark.simcord(approved_intents=NO_PRIVILEGED, settle_timeout=SETTLE_BOUND)


@dataclass
class World:
    env: simcord.Env
    bot: UrbanistBot
    clock: FakeClock
    db_path: Path
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    people: list[simcord.MemberActor]
    spectator: simcord.MemberActor
    mod: simcord.MemberActor

    @property
    def service(self) -> TableService:
        return self.bot.service

    def actor(self, member: simcord.MemberActor) -> Actor:
        return Actor(str(member.id), member.name)

    def member_of(self, user_id: str | None) -> simcord.MemberActor:
        return next(m for m in [*self.people, self.spectator, self.mod] if str(m.id) == user_id)

    async def flush(self) -> None:
        """Publish what the service queued outside an interaction (jobs called by tests)."""
        await self.bot.notifier.idle()
        await self.env.settle()

    async def restart(self) -> None:
        """A new bot process on the same database and the same Discord: only what the
        database and the messages' custom ids hold survives."""
        old = self.bot
        from simfixtures import make_bot

        new = await make_bot(self.db_path, self.clock)
        await self.env.restart_bot(new)
        await old.shutdown()
        self.bot = new

    async def run_deadline(self, table: int) -> None:
        info = await self.service.info(table)
        await self.service.on_deadline(table, info.version)
        await self.flush()

    async def run_reminder(self, table: int) -> None:
        info = await self.service.info(table)
        await self.service.on_reminder(table, info.version)
        await self.flush()

    # ------------------------------------------------------------- reading

    def bot_id(self) -> int:
        assert self.bot.user is not None
        return self.bot.user.id

    def channel_messages(self, viewer: simcord.MemberActor | None = None) -> list[discord.Message]:
        return [m for m in self.channel.history(viewer=viewer) if m.author.id == self.bot_id()]

    def dms(self, member: simcord.MemberActor) -> list[discord.Message]:
        return [m for m in member.user.dm_channel.history() if m.author.id == self.bot_id()]

    def menu_dm(self, member: simcord.MemberActor) -> discord.Message:
        """The member's newest DM that has components."""
        found = [m for m in self.dms(member) if custom_ids(m)]
        assert found, f"{member.name} has no DM with a menu"
        return found[-1]

    def refresh(self, message: discord.Message) -> discord.Message:
        stored = self.env.backend.get_message(message.channel.id, message.id)
        return to_discord_message(self.env, stored)

    def status_message(self, table: int) -> discord.Message:
        marker = re.compile(rf"urb:(?:l:\w+|h):{table}")
        found = [m for m in self.channel_messages()
                 if any(marker.fullmatch(c) for c in custom_ids(m))]
        assert found, "no status message with buttons"
        return found[-1]

    async def table_id(self) -> int:
        info = await self.service.table_in_channel(str(self.channel.id))
        assert info is not None
        return info.id

    # ------------------------------------------------------------- acting

    async def pick(self, member: simcord.MemberActor, message: discord.Message,
                   text: str, *, clicker: Any = None) -> simcord.InteractionResult:
        """Choose ``text`` through ``message``'s components, the way a player would: its
        button, or the select that holds it, or first its group (card), then it."""
        who = clicker or (member.user if message.guild is None else member)
        for button in buttons(message):
            if button.custom_id and button.custom_id.startswith("urb:a:") and \
                    button.custom_id.split(":", 4)[4] == text:
                return await who.click(message, custom_id=button.custom_id)
        for select in selects(message):
            values = [o.value for o in select.options]
            if select.custom_id.startswith("urb:s:") and text in values:
                return await who.select(message, [text], custom_id=select.custom_id)
        for select in selects(message):
            values = [o.value for o in select.options]
            if select.custom_id.startswith("urb:g:") and group_key(text) in values:
                await who.select(message, [group_key(text)], custom_id=select.custom_id)
                return await self.pick(member, self.refresh(message), text, clicker=clicker)
        raise AssertionError(f"{text!r} is not offered by the menu {custom_ids(message)}")

    async def play_by_dm(self, table: int, member: simcord.MemberActor,
                         choose: Any = None) -> str:
        """One decision of ``member`` through the newest DM menu. ``choose`` picks among
        the prompt's options (default: the first)."""
        prompt = await self.service.prompt(table, self.actor(member))
        texts = [o.text for o in prompt.options]
        text = choose(texts) if choose else texts[0]
        await self.pick(member, self.menu_dm(member), text)
        return text


def components_of(message: discord.Message) -> list[Any]:
    found: list[Any] = []
    for row in message.components:
        found.extend(getattr(row, "children", [row]))
    return found


def buttons(message: discord.Message) -> list[discord.Button]:
    return [c for c in components_of(message) if isinstance(c, discord.Button)]


def selects(message: discord.Message) -> list[discord.SelectMenu]:
    return [c for c in components_of(message) if isinstance(c, discord.SelectMenu)]


def custom_ids(message: discord.Message) -> list[str]:
    return [c.custom_id for c in components_of(message) if getattr(c, "custom_id", None)]


def texts_of(messages: Iterable[discord.Message]) -> str:
    """Everything a reader sees of ``messages`` as text: contents and embeds."""
    out = []
    for m in messages:
        out.append(m.content)
        for e in m.embeds:
            out.append(str(e.to_dict()))
    return "\n".join(out)


def tamper(world: World, message: discord.Message, old: str, new: str) -> None:
    """Rewrite a component's custom id in the stored message: what a forged client would
    send. (The test is the narrator here: simcord's backend is mutated directly.)"""
    stored = world.env.backend.get_message(message.channel.id, message.id)
    rows = copy.deepcopy(stored.components)
    for row in rows:
        for child in row.get("components", []):
            if child.get("custom_id") == old:
                child["custom_id"] = new
    stored.components = rows


def emit_click(world: World, who: Any, message: discord.Message, custom_id: str,
               values: Sequence[str] | None = None) -> None:
    """Send one component interaction without waiting for the bot: two of these and one
    ``env.settle()`` are two clicks at once. (simcord's actors settle after each click,
    so this builds the gateway event as they do.)"""
    backend = world.env.backend
    stored = backend.get_message(message.channel.id, message.id)
    data: dict[str, Any] = {"custom_id": custom_id}
    if values is None:
        data["component_type"] = ComponentType.BUTTON
    else:
        data["component_type"] = ComponentType.STRING_SELECT
        data["values"] = list(values)
    guild_id = getattr(getattr(who, "guild", None), "id", None)
    record, payload = sim_interactions.base_payload(
        backend, type=InteractionType.MESSAGE_COMPONENT, channel_id=message.channel.id,
        guild_id=guild_id, user_id=who.id, data=data)
    payload["message"] = dict(serializers.message_payload(backend, stored))
    record.source_message_id = stored.id
    backend.emit("INTERACTION_CREATE", payload)


async def open_table(world: World, game: str, *, humans: int, bots: int = 0,
                     **options: Any) -> TableInfo:
    """``/table new``, the others join and the host adds bots, all through Discord."""
    host = world.people[0]
    result = await host.slash(world.channel, "table new", game=game, **options)
    assert result.ephemeral
    table = await world.table_id()
    lobby = world.status_message(table)
    for member in world.people[1:humans]:
        await member.click(lobby, label=label(lobby, "urb:l:join"))
    for _ in range(bots):
        await host.click(world.status_message(table), custom_id=f"urb:l:bot:{table}")
    return await world.service.info(table)


def label(message: discord.Message, prefix: str) -> str:
    found = [b.label for b in buttons(message) if b.custom_id and b.custom_id.startswith(prefix)]
    assert len(found) == 1, (prefix, custom_ids(message))
    assert found[0] is not None
    return found[0]


async def play_one(world: World, table: int) -> TableInfo:
    """The first waiting seat plays its first option (straight to the service)."""
    info = await world.service.info(table)
    seat = min(info.waiting)
    member = world.member_of(info.seats[seat].user_id)
    prompt = await world.service.prompt(table, world.actor(member))
    await world.service.act(table, world.actor(member), prompt.options[0].json,
                            version=prompt.version)
    await world.flush()
    return await world.service.info(table)


async def play_until_one_move_left(world: World, table: int) -> None:
    """Play until the next move ends the game (checked on a copy of the state)."""
    while True:
        info = await world.service.info(table)
        seat = min(info.waiting)
        member = world.member_of(info.seats[seat].user_id)
        prompt = await world.service.prompt(table, world.actor(member))
        live = world.service._cache.get(table)
        assert live is not None
        copy = live.game.state_from_json(live.game.state_to_json(live.state))
        live.game.apply(copy, seat, live.game.action_from_json(prompt.options[0].json))
        if live.game.outcome(copy) is not None:
            return
        await play_one(world, table)


async def started(world: World, game: str = "skybridge", humans: int = 2) -> TableInfo:
    info = await open_table(world, game, humans=humans)
    await world.people[0].click(world.status_message(info.id),
                                custom_id=f"urb:l:start:{info.id}")
    await world.flush()
    return await world.service.info(info.id)
