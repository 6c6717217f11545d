"""Host and manager powers during a game: kick, replace, leave, play for, abort, DMs."""

from __future__ import annotations

import pytest
from conftest import HOST, MANAGER, PLAYERS, STRANGER, RenderingNotifier, new_table

from bot.service import Actor, Refused, TableService
from bot.store import SqliteStore


async def test_kick_hands_the_seat_to_a_bot_that_plays_at_once(
        service: TableService, store: SqliteStore, notifier: RenderingNotifier) -> None:
    table = await new_table(service, humans=3)
    with pytest.raises(Refused) as refused:
        await service.kick(table, PLAYERS[1], 2)
    assert refused.value.code == "not_host"
    info = await service.kick(table, HOST, 2)
    assert info.seats[2].is_bot and info.seats[2].user_id is None
    assert 2 not in info.waiting  # the bot picked right away
    assert [(a.seat, a.source) for a in await store.load_actions(table)] == [(2, "bot")]
    assert {t.seat for t in await store.load_timers(table)} == {0, 1}
    with pytest.raises(Refused) as refused:
        await service.act_text(table, PLAYERS[2], "p1")
    assert refused.value.code == "not_player"


async def test_replace_by_another_member(service: TableService, store: SqliteStore,
                                         notifier: RenderingNotifier) -> None:
    table = await new_table(service, humans=2)
    hand = (await service.view(table, PLAYERS[1]))["hand"]
    newcomer = Actor("u7", "Gil")
    with pytest.raises(Refused) as refused:
        await service.replace(table, HOST, 1, by=PLAYERS[0])
    assert refused.value.code == "already_seated"
    notifier.clear()
    info = await service.replace(table, MANAGER, 1, by=newcomer)
    assert (info.seats[1].name, info.seats[1].user_id) == ("Gil", "u7")
    assert (await service.view(table, newcomer))["hand"] == hand
    assert [(n.template, n.user_id) for n in notifier.notes if n.seat == 1] == [
        ("your_turn", "u7")]
    prompt = await service.prompt(table, newcomer)
    await service.act(table, newcomer, prompt.options[0].json, version=prompt.version)
    with pytest.raises(Refused) as refused:
        await service.act_text(table, PLAYERS[1], "p1")
    assert refused.value.code == "not_player"  # Bob no longer holds a seat


async def test_leaving_a_game_and_bot_replaced_by_a_human(service: TableService,
                                                          store: SqliteStore) -> None:
    table = await new_table(service, humans=3)
    info = await service.leave(table, HOST)
    assert info.seats[0].is_bot and info.host_id == PLAYERS[1].user_id
    # The new host gives the bot's seat to a member: a human again, with a deadline.
    back = await service.replace(table, PLAYERS[1], 0, by=Actor("u8", "Hana"))
    assert not back.seats[0].is_bot
    assert 0 not in back.waiting  # the bot had already picked for this round
    # Nothing to decide this round, so no deadline yet; the others keep theirs.
    assert {t.seat for t in await store.load_timers(table)} == {1, 2}
    assert (await service.verify(table)).ok


async def test_play_for_and_abort(service: TableService, store: SqliteStore,
                                  notifier: RenderingNotifier) -> None:
    table = await new_table(service, humans=2)
    with pytest.raises(Refused) as refused:
        await service.play_for(table, STRANGER, 1)
    assert refused.value.code == "not_host"
    result = await service.play_for(table, HOST, 1)
    assert result.seat == 1
    assert [(a.seat, a.source, a.actor_id) for a in await store.load_actions(table)] == [
        (1, "admin", "u0")]
    assert any(n.template == "timeout_played" and n.seat == 1 for n in notifier.notes)
    with pytest.raises(Refused) as refused:
        await service.play_for(table, HOST, 5)
    assert refused.value.code == "no_seat"
    await service.abort(table, MANAGER)
    info = await service.info(table)
    assert info.status == "aborted"
    assert await store.load_timers(table) == []
    assert table not in service.deadlines.planned
    with pytest.raises(Refused) as refused:
        await service.act_text(table, HOST, "p1")
    assert refused.value.code == "not_running"
    with pytest.raises(Refused) as refused:
        await service.abort(table, HOST)
    assert refused.value.code == "not_running"


async def test_an_aborted_table_waits_for_nobody(service: TableService) -> None:
    table = await new_table(service, humans=3)
    assert set((await service.info(table)).waiting) == {0, 1, 2}
    returned = await service.abort(table, HOST)
    for info in (returned, await service.info(table)):
        assert info.status == "aborted"
        assert info.waiting == {} and not info.simultaneous


async def test_no_seat_number(service: TableService) -> None:
    table = await new_table(service, humans=2)
    with pytest.raises(Refused) as refused:
        await service.kick(table, HOST, 7)
    assert refused.value.code == "no_seat"


async def test_dm_reachability_is_stored(service: TableService, store: SqliteStore) -> None:
    table = await new_table(service, humans=2)
    await service.set_dm_reachable(table, "u1", False)
    assert [s.dm_ok for s in await store.load_seats(table)] == [True, False]
    assert not (await service.info(table)).seats[1].dm_ok
    assert [t.id for t in await service.tables_of("u1")] == [table]


async def test_playing_for_every_seat_to_the_end_says_who_decided_and_when_it_finished(
        service: TableService, notifier: RenderingNotifier) -> None:
    table = await new_table(service, humans=2, rounds=1)
    results = []
    while (info := await service.info(table)).status == "running":
        results.append(await service.play_for(table, HOST, min(info.waiting)))
    assert [r.finished for r in results] == [False] * (len(results) - 1) + [True]
    told = [n for n in notifier.notes if n.template == "timeout_played"]
    assert len(told) == len(results) and all(n.context["by_admin"] for n in told)
    assert any(t.startswith("The host had the AI (normal) decide for you")
               for t in notifier.texts)
    assert not any(t.startswith("Time ran out") for t in notifier.texts)
