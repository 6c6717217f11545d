"""The pytest fixtures of the Discord tests; test modules star-import them:
``from simfixtures import *  # noqa: F403``."""

from __future__ import annotations

import itertools
import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import discord
import pytest
import simcord
from simtable import World

from bot.clock import FakeClock
from bot.discord import UrbanistBot, create_bot
from bot.store import SqliteStore

__all__ = ["bot_logs_stay_quiet", "clock", "logged_on_purpose", "simcord_bot", "world"]


@pytest.fixture(autouse=True)
def bot_logs_stay_quiet(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """The bot logs and carries on when Discord refuses a message (too long, no access):
    in these tests, such a warning is a failure the players would have seen."""
    caplog.set_level(logging.INFO, logger="bot")
    yield
    # Every phase's records: ``caplog.records`` alone, read here, is the teardown's.
    records = [*caplog.get_records("setup"), *caplog.get_records("call"), *caplog.records]
    loud = [r for r in records
            if r.name.startswith("bot.") and r.levelno >= logging.WARNING]
    assert not loud, [f"{r.name}: {r.getMessage()}" for r in loud]


def logged_on_purpose(caplog: pytest.LogCaptureFixture, *texts: str) -> None:
    """The test made the bot warn (or log an error) on purpose: each of ``texts`` was
    logged at WARNING or above, and those records are not failures."""
    def meant(record: logging.LogRecord) -> bool:
        return record.levelno >= logging.WARNING and any(t in record.getMessage()
                                                         for t in texts)

    for text in texts:
        assert any(meant(r) and text in r.getMessage() for r in caplog.records), text
    caplog.records[:] = [r for r in caplog.records if not meant(r)]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


async def make_bot(db_path: Path, clock: FakeClock) -> UrbanistBot:
    # The store is opened here, outside the bot's tasks (see BotConfig.store).
    store = await SqliteStore.open(db_path)
    # Seeds fixed per bot: the same test plays the same games, run after run.
    return create_bot(db_path, clock=clock, scheduler=False, store=store, pacing=False,
                      seeds=itertools.count(1000))


@pytest.fixture
async def simcord_bot(tmp_path: Path, clock: FakeClock) -> UrbanistBot:
    return await make_bot(tmp_path / "urbanist.sqlite3", clock)


@pytest.fixture
async def world(simcord_env: simcord.Env, simcord_bot: UrbanistBot, clock: FakeClock,
                tmp_path: Path) -> AsyncIterator[World]:
    env = simcord_env
    guild = env.create_guild("Urbanists")
    channel = guild.create_text_channel("games")
    people = [guild.add_member(env.create_user(n, global_name=n.capitalize()))
              for n in ("alice", "bob", "chloe")]
    spectator = guild.add_member(env.create_user("sam", global_name="Sam"))
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_channels=True))
    mod = guild.add_member(env.create_user("mo", global_name="Mo"), roles=[mods])
    w = World(env, simcord_bot, clock, tmp_path / "urbanist.sqlite3", guild, channel, people,
              spectator, mod)
    yield w
    await w.bot.shutdown()
