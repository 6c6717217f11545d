"""A server's moderators have the host's powers over that server's tables, and no other:
not over another server's table, nor over a mail table followed in one of their channels
(issue 22, item 5)."""

from __future__ import annotations

import pytest
from conftest import HOST, PLAYERS

from bot.service import Actor, Refused, TableService, TableSettings


async def table_of(service: TableService, guild_id: str) -> int:
    info = await service.create(HOST, "fakepicks", options={"rounds": 2},
                                settings=TableSettings(seat_order="join"), seed=3,
                                guild_id=guild_id, channel_id=None if guild_id == "mail"
                                else "c1")
    await service.join(info.id, PLAYERS[1])
    await service.start(info.id, HOST)
    return info.id


@pytest.mark.parametrize(("table_guild", "allowed"), [("g1", True), ("g2", False),
                                                      ("mail", False)])
async def test_a_moderator_may_pause_only_their_own_servers_tables(
        service: TableService, table_guild: str, allowed: bool) -> None:
    table = await table_of(service, table_guild)
    moderator = Actor("m1", "Mod", manager=True, guild_id="g1")
    if allowed:
        await service.pause(table, moderator)
        assert (await service.info(table)).status == "paused"
    else:
        with pytest.raises(Refused) as refused:
            await service.pause(table, moderator)
        assert refused.value.code == "not_host"
        assert (await service.info(table)).status == "running"


async def test_a_moderator_may_show_a_mail_table_in_their_channel(
        service: TableService) -> None:
    table = await table_of(service, "mail")
    moderator = Actor("m1", "Mod", manager=True, guild_id="g1")
    info = await service.attach_channel(table, moderator, channel_id="c9")
    assert info.channel_id == "c9"
    with pytest.raises(Refused):  # but not run it
        await service.abort(table, moderator)


async def test_an_actor_without_a_server_keeps_the_front_ends_word(
        service: TableService) -> None:
    table = await table_of(service, "g2")
    await service.pause(table, Actor("m1", "Mod", manager=True))  # the console, tests
    assert (await service.info(table)).status == "paused"
