"""A Discord bot that also plays by email (``urbanist run --mail``), in simcord, its mail
kept in memory; and its world: two players, a spectator and a moderator in one channel.
Shared by the tests of mixed tables (tests/mail/test_front_discord.py) and of
``/table follow`` (test_discord_follow.py)."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest
import simcord
from simtable import World

from bot.clock import FakeClock
from bot.discord import UrbanistBot, create_bot
from bot.mail.runtime import MailRuntime
from bot.mail.settings import MailSettings
from bot.store import SqliteStore
from tests.mail.front_helpers import MemorySender

BOT = "play@urbanist.test"


async def mail_bot(tmp_path: Path, clock: FakeClock, sender: MemorySender,
                   address: str = BOT) -> UrbanistBot:
    store = await SqliteStore.open(tmp_path / "urbanist.sqlite3")
    settings = MailSettings.from_env({}, address=address, smtp_host="127.0.0.1",
                                     smtp_security="none")
    runtime = MailRuntime(settings, sender=sender)
    runtime.front.clock = clock
    return create_bot(tmp_path / "urbanist.sqlite3", clock=clock, scheduler=False,
                      store=store, pacing=False, seeds=itertools.count(1000), mail=runtime)


def two_players(env: simcord.Env, bot: UrbanistBot, clock: FakeClock,
                tmp_path: Path) -> World:
    guild = env.create_guild("Urbanists")
    channel = guild.create_text_channel("games")
    people = [guild.add_member(env.create_user(n, global_name=n.capitalize()))
              for n in ("alice", "bob")]
    spectator = guild.add_member(env.create_user("sam", global_name="Sam"))
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_channels=True))
    mod = guild.add_member(env.create_user("mo", global_name="Mo"), roles=[mods])
    return World(env, bot, clock, tmp_path / "urbanist.sqlite3", guild, channel, people,
                 spectator, mod)


# The fixtures of a test module played in this world; the module takes them with
# ``clock, sender, simcord_bot, world = mailworld.FIXTURES``.
@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def sender() -> MemorySender:
    return MemorySender()


@pytest.fixture
async def simcord_bot(tmp_path: Path, clock: FakeClock, sender: MemorySender) -> UrbanistBot:
    return await mail_bot(tmp_path, clock, sender)


@pytest.fixture
async def world(simcord_env: simcord.Env, simcord_bot: UrbanistBot, clock: FakeClock,
                tmp_path: Path) -> AsyncIterator[World]:
    w = two_players(simcord_env, simcord_bot, clock, tmp_path)
    yield w
    await w.bot.shutdown()


FIXTURES = (clock, sender, simcord_bot, world)
