"""A table with no channel (opened by mail) attached to a channel and detached again
(``TableService.attach_channel`` / ``detach_channel``): who may, what is refused with the
table untouched, what the table is told, and that it lasts (a new service reads it)."""

from __future__ import annotations

import dataclasses

import pytest
from conftest import HOST, MANAGER, PLAYERS, STRANGER, RenderingNotifier

from bot.clock import FakeClock
from bot.service import Refused, TableService, TableSettings
from bot.store import SqliteStore

MAIL = "mail"  # the guild of the tables opened by mail (bot/mail/answers.py)
SETTINGS = TableSettings(seat_order="join", deadline_seconds=24 * 3600)


async def mail_table(service: TableService, *, start: bool = True) -> int:
    """A fakepicks table of two, opened without a channel, as the mail front opens one."""
    info = await service.create(HOST, "fakepicks", options={"rounds": 3}, settings=SETTINGS,
                                seed=7, guild_id=MAIL)
    await service.join(info.id, PLAYERS[1])
    if start:
        await service.start(info.id, HOST)
    return info.id


async def test_a_table_without_a_channel_is_followed_there_and_told_with_the_round(
        service: TableService, notifier: RenderingNotifier, store: SqliteStore,
        clock: FakeClock) -> None:
    table = await mail_table(service)
    before = await service.info(table)
    notifier.clear()
    info = await service.attach_channel(table, MANAGER, channel_id="c9",
                                        where="#games (Urbanists)")
    assert (info.channel_id, info.thread_id, info.guild_id) == ("c9", None, MAIL)
    assert info.version == before.version  # not a move: no version, no deadline moved
    assert info.deadlines == before.deadlines
    found = await service.table_in_channel("c9")
    assert found is not None and found.id == table
    [told] = notifier.to_table(table)
    assert told.template == "channel_followed"
    assert told.context["where"] == "#games (Urbanists)" and told.context["by"] == "Mod"
    assert told.defer  # a game going on: it goes with the round's news
    assert "now followed on Discord, in #games (Urbanists)" in notifier.texts[-1]
    # Kept in the database: another service over the same store reads the channel.
    again = TableService(store, RenderingNotifier(), clock=clock)
    assert (await again.info(table)).channel_id == "c9"


async def test_a_thread_is_kept_as_the_tables_thread(service: TableService) -> None:
    table = await mail_table(service)
    info = await service.attach_channel(table, HOST, channel_id="t5", thread_id="t5")
    assert (info.channel_id, info.thread_id) == ("t5", "t5")


async def test_a_lobby_is_told_at_once_and_an_ended_table_not_at_all(
        service: TableService, notifier: RenderingNotifier) -> None:
    lobby = await mail_table(service, start=False)
    notifier.clear()
    await service.attach_channel(lobby, HOST, channel_id="c1")
    [told] = notifier.to_table(lobby)
    assert (told.template, told.defer) == ("channel_followed", False)
    ended = await mail_table(service)
    await service.abort(ended, HOST)
    notifier.clear()
    info = await service.attach_channel(ended, MANAGER, channel_id="c2")
    assert info.channel_id == "c2" and info.status == "aborted"
    assert notifier.to_table(ended) == []  # its status message shows the end: no news


async def test_who_may_and_what_is_refused_leaves_the_table_as_it_was(
        service: TableService, store: SqliteStore) -> None:
    table = await mail_table(service)
    row = await store.load_table(table)
    with pytest.raises(Refused) as refused:
        await service.attach_channel(table, STRANGER, channel_id="c9")
    assert refused.value.code == "not_host"
    with pytest.raises(Refused) as refused:
        await service.attach_channel(table, PLAYERS[1], channel_id="c9")  # a player, not host
    assert refused.value.code == "not_host"
    assert await store.load_table(table) == row
    await service.attach_channel(table, HOST, channel_id="c9")
    row = await store.load_table(table)
    with pytest.raises(Refused) as refused:
        await service.attach_channel(table, MANAGER, channel_id="c8")
    assert refused.value.code == "followed" and refused.value.context["channel_id"] == "c9"
    assert await store.load_table(table) == row
    with pytest.raises(Refused) as refused:
        await service.attach_channel(9999, MANAGER, channel_id="c8")
    assert refused.value.code == "no_table"


async def test_detached_the_table_has_no_channel_again_and_is_told(
        service: TableService, notifier: RenderingNotifier, store: SqliteStore) -> None:
    table = await mail_table(service)
    await service.attach_channel(table, MANAGER, channel_id="c9")
    await service.set_status_message(table, "c9", "m1")
    with pytest.raises(Refused) as refused:
        await service.detach_channel(table, STRANGER, guild_id="g1")
    assert refused.value.code == "not_host"
    notifier.clear()
    info = await service.detach_channel(table, MANAGER, guild_id="g1", where="#games")
    assert (info.channel_id, info.thread_id) == (None, None)
    assert (info.status_channel_id, info.status_message_id) == (None, None)
    assert await service.table_in_channel("c9", ended=True) is None
    [told] = notifier.to_table(table)
    assert told.template == "channel_unfollowed" and told.context["where"] == "#games"
    row = await store.load_table(table)
    with pytest.raises(Refused) as refused:  # nothing to detach any more
        await service.detach_channel(table, MANAGER, guild_id="g1")
    assert refused.value.code == "not_followed"
    assert await store.load_table(table) == row
    # Followed again elsewhere, as a table that never had a channel.
    assert (await service.attach_channel(table, HOST, channel_id="c7")).channel_id == "c7"


async def test_a_table_opened_in_a_channel_is_not_detached_from_it(
        service: TableService, store: SqliteStore) -> None:
    info = await service.create(HOST, "fakepicks", options={"rounds": 3}, settings=SETTINGS,
                                seed=7, guild_id="g1", channel_id="c1")
    row = await store.load_table(info.id)
    with pytest.raises(Refused) as refused:
        await service.detach_channel(info.id, MANAGER, guild_id="g1")
    assert refused.value.code == "not_followed"
    with pytest.raises(Refused) as refused:  # nor attached anywhere else
        await service.attach_channel(info.id, MANAGER, channel_id="c2")
    assert refused.value.code == "followed"
    assert await store.load_table(info.id) == row


async def test_the_french_table_reads_it_in_french(service: TableService,
                                                   notifier: RenderingNotifier) -> None:
    info = await service.create(HOST, "fakepicks", options={"rounds": 3},
                                settings=dataclasses.replace(SETTINGS, locale="fr"),
                                seed=7, guild_id=MAIL)
    notifier.clear()
    await service.attach_channel(info.id, HOST, channel_id="c1", where="#jeux")
    assert notifier.texts == [f"La table n° {info.id} est maintenant suivie sur Discord, "
                              "dans #jeux : ses nouvelles publiques et son état y sont aussi "
                              "montrés (par Alice)."]
