"""A table made private refreshes its Discord status message at once, also when the bot
plays by email too (``urbanist run --mail``): there the service's notifier is the router
(``RoutingNotifier``) that holds the Discord transport, and the settings command finds the
status board behind it."""

from __future__ import annotations

import itertools
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest
import simcord

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bot" / "discord"))

from simfixtures import bot_logs_stay_quiet  # noqa: F401 (an autouse fixture)
from simtable import World, open_table, simcord_marker

from bot.clock import FakeClock
from bot.discord import UrbanistBot, create_bot
from bot.discord.pages import status_board
from bot.discord.status import StatusBoard
from bot.mail.runtime import MailRuntime
from bot.mail.settings import MailSettings
from bot.service import MemoryNotifier
from bot.service.routing import RoutingNotifier, transports
from bot.store import SqliteStore, pages
from tests.mail.front_helpers import MemorySender

pytestmark = simcord_marker
SITE = "https://tables.example.org"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def simcord_bot(tmp_path: Path, clock: FakeClock) -> UrbanistBot:
    store = await SqliteStore.open(tmp_path / "urbanist.sqlite3")
    settings = MailSettings.from_env({}, address="play@urbanist.test",
                                     smtp_host="127.0.0.1", smtp_security="none")
    runtime = MailRuntime(settings, sender=MemorySender())
    runtime.front.clock = clock
    return create_bot(tmp_path / "urbanist.sqlite3", clock=clock, scheduler=False,
                      store=store, pacing=False, seeds=itertools.count(1000), mail=runtime)


@pytest.fixture
async def world(simcord_env: simcord.Env, simcord_bot: UrbanistBot, clock: FakeClock,
                tmp_path: Path) -> AsyncIterator[World]:
    guild = simcord_env.create_guild("Urbanists")
    channel = guild.create_text_channel("games")
    people = [guild.add_member(simcord_env.create_user(n, global_name=n.capitalize()))
              for n in ("alice", "bob")]
    spectator = guild.add_member(simcord_env.create_user("sam", global_name="Sam"))
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_channels=True))
    mod = guild.add_member(simcord_env.create_user("mo", global_name="Mo"), roles=[mods])
    w = World(simcord_env, simcord_bot, clock, tmp_path / "urbanist.sqlite3", guild,
              channel, people, spectator, mod)
    yield w
    await w.bot.shutdown()


async def test_making_a_table_private_refreshes_its_status_behind_the_mail_router(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("URBANIST_PUBLIC_URL", SITE)
    assert isinstance(world.bot.notifier, RoutingNotifier)  # run --mail: the router
    info = await open_table(world, "skybridge", humans=2)
    alice = world.people[0]
    await alice.click(world.status_message(info.id), custom_id=f"urb:l:start:{info.id}")
    await world.flush()
    assert f"<{SITE}/t/{info.id}>" in world.status_message(info.id).content
    answer = await alice.slash(world.channel, "table settings", public=False)
    access = await pages.access(world.service.store, info.id)
    assert not access.public and access.token
    assert f"<{SITE}/p/{access.token}>" in answer.response.content
    # Nothing else happened at the table: only the settings command edited the status.
    status = world.status_message(info.id).content
    assert f"<{SITE}/p/{access.token}>" in status
    assert f"/t/{info.id}" not in status


def test_the_status_board_is_found_through_any_router() -> None:
    """The lookup is general: the Discord transport's board, however deep the routers
    (the mail router inside another), and nothing where no transport has one."""

    class Home(MemoryNotifier):
        def __init__(self, board: StatusBoard) -> None:
            super().__init__()
            self.status = board

    board = StatusBoard.__new__(StatusBoard)  # a board needs no Discord to be found
    home = Home(board)
    mail = MemoryNotifier()
    inner = RoutingNotifier(home, mail)
    outer = RoutingNotifier(inner, MemoryNotifier())
    assert status_board(home) is board
    assert status_board(inner) is board
    assert status_board(outer) is board
    assert list(transports(inner)) == [inner, home, mail]
    assert status_board(RoutingNotifier(MemoryNotifier(), mail)) is None
    assert status_board(None) is None
