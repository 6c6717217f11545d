"""The table's page on Discord: its link in the status message, in ``/table status`` and
in the game-over post when ``URBANIST_PUBLIC_URL`` is set, and ``/table settings
public:`` (host) and ``listed:`` (moderator)."""

from __future__ import annotations

import sys
from pathlib import Path

import discord
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bot" / "discord"))

from simfixtures import *  # noqa: F403 (the fixtures)
from simtable import World, open_table, simcord_marker

from bot.store import pages

pytestmark = simcord_marker
SITE = "https://tables.example.org"


def status_of(world: World, message_id: str | None) -> discord.Message:
    return next(m for m in world.channel_messages() if str(m.id) == message_id)


async def test_the_link_is_where_the_table_is_shown(world: World,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("URBANIST_PUBLIC_URL", SITE + "/")
    info = await open_table(world, "skybridge", humans=1, bots=1)
    alice = world.people[0]
    link = f"<{SITE}/t/{info.id}>"
    assert f"Watch the table on the web: {link}" in world.status_message(info.id).content
    await alice.click(world.status_message(info.id), custom_id=f"urb:l:start:{info.id}")
    assert link in world.status_message(info.id).content
    result = await world.spectator.slash(world.channel, "table status")
    assert link in result.response.content
    # To the end: the game-over post offers the replay.
    actor = world.actor(alice)
    while (await world.service.info(info.id)).status == "running":
        prompt = await world.service.prompt(info.id, actor)
        await world.service.act(info.id, actor, prompt.options[0].json,
                                version=prompt.version)
        await world.service.settle(info.id)
    await world.flush()
    over = [m.content for m in world.channel_messages() if "Replay the game" in m.content]
    assert over and over[-1].endswith(f"Replay the game move by move: {link}")


async def test_without_a_public_url_no_link_is_shown(world: World,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("URBANIST_PUBLIC_URL", raising=False)
    info = await open_table(world, "skybridge", humans=1, bots=1)
    await world.people[0].click(world.status_message(info.id),
                                custom_id=f"urb:l:start:{info.id}")
    assert "/t/" not in world.status_message(info.id).content


async def test_the_host_makes_the_page_private_and_the_link_follows(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("URBANIST_PUBLIC_URL", SITE)
    info = await open_table(world, "skybridge", humans=2)
    alice, bob, _ = world.people
    await alice.click(world.status_message(info.id), custom_id=f"urb:l:start:{info.id}")
    refused = await bob.slash(world.channel, "table settings", public=False)
    assert "Only the host" in refused.response.content
    assert (await pages.access(world.service.store, info.id)).public
    answer = await alice.slash(world.channel, "table settings", public=False)
    access = await pages.access(world.service.store, info.id)
    assert not access.public and access.token
    secret = f"<{SITE}/p/{access.token}>"
    assert answer.ephemeral and "private" in answer.response.content
    assert secret in answer.response.content
    status = world.status_message(info.id).content
    assert secret in status and f"/t/{info.id}" not in status
    # Listing the server's tables is a moderator's call.
    refused = await alice.slash(world.channel, "table settings", listed=False)
    assert "Only" in refused.response.content
    answer = await world.mod.slash(world.channel, "table settings", listed=False)
    assert "are not listed" in answer.response.content
    assert not await pages.guild_listed(world.service.store, str(world.guild.id))
