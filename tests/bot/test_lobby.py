"""Creating, joining, leaving, bots and starting a table; every refusal of the lobby."""

from __future__ import annotations

import pytest
from conftest import HOST, MANAGER, PLAYERS, STRANGER, RenderingNotifier, new_table

from bot.service import Refused, TableService, TableSettings
from bot.store import SqliteStore


async def expect_refused(code: str, coro: object) -> Refused:
    with pytest.raises(Refused) as info:
        await coro  # type: ignore[misc]
    assert info.value.code == code, info.value.message
    return info.value


async def test_lobby_lifecycle(service: TableService, notifier: RenderingNotifier) -> None:
    info = await service.create(HOST, "fakepicks", channel_id="c1", max_seats=3)
    assert info.status == "lobby" and info.version == 0
    assert [s.name for s in info.seats] == ["Alice"]
    await service.join(info.id, PLAYERS[1])
    await expect_refused("already_seated", service.join(info.id, PLAYERS[1]))
    bot_info = await service.add_bot(info.id, HOST)
    assert [s.is_bot for s in bot_info.seats] == [False, False, True]
    await expect_refused("table_full", service.join(info.id, PLAYERS[2]))
    await expect_refused("not_host", service.add_bot(info.id, PLAYERS[1]))
    await expect_refused("not_host", service.start(info.id, PLAYERS[1]))
    left = await service.leave(info.id, PLAYERS[1])
    assert [s.name for s in left.seats] == ["Alice", "Bot 1"]
    assert [s.seat for s in left.seats] == [0, 1]  # renumbered, no holes
    assert (await service.table_in_channel("c1")).id == info.id  # type: ignore[union-attr]
    started = await service.start(info.id, HOST)
    # Version 1 is the initial state; the bot's secret pick, made at once, is version 2.
    assert started.status == "running" and started.version == 2
    assert [(e.version, e.source, e.text) for e in await service.log(info.id)] == [
        (2, "bot", None)]
    await expect_refused("not_lobby", service.join(info.id, PLAYERS[2]))
    await expect_refused("not_lobby", service.start(info.id, HOST))
    assert notifier.templates(table=True)[:2] == ["lobby", "joined"]
    assert "started" in notifier.templates(table=True)


async def test_each_arrival_note_names_the_seat_taken(service: TableService,
                                                      notifier: RenderingNotifier) -> None:
    info = await service.create(HOST, "fakepicks", channel_id="c1", max_seats=4)
    await service.join(info.id, PLAYERS[1])
    await service.add_bot(info.id, HOST)
    final = await service.add_bot(info.id, HOST)
    arrivals = [(n.context["joined"], n.context["joined_name"]) for n in notifier.notes
                if n.template in ("joined", "bot_added")]
    assert arrivals == [(s.seat, s.name) for s in final.seats[1:]]


async def test_a_table_info_finds_each_member_seat(service: TableService) -> None:
    table = await new_table(service, humans=3, bots=1)
    info = await service.info(table)
    assert [info.seat_of(p.user_id) for p in PLAYERS] == [0, 1, 2, None]
    assert info.seat_of(STRANGER.user_id) is None


async def test_create_refusals(service: TableService) -> None:
    await expect_refused("unknown_game", service.create(HOST, "no-such-game"))
    await expect_refused("options", service.create(HOST, "fakepicks", options={"rounds": 99}))
    await expect_refused("options", service.create(HOST, "fakepicks", max_seats=9))
    await expect_refused("options", service.create(HOST, "fakepicks",
                                            settings=TableSettings(locale="xx")))
    await expect_refused("options", service.create(HOST, "fakepicks",
                                            settings=TableSettings(deadline_seconds=0)))


async def test_too_few_players_and_no_table(service: TableService) -> None:
    info = await service.create(HOST, "fakepicks")
    await expect_refused("too_few", service.start(info.id, HOST))
    await expect_refused("no_table", service.join(999, HOST))
    await expect_refused("not_player", service.leave(info.id, STRANGER))


async def test_host_leaving_passes_the_host_role(service: TableService) -> None:
    info = await service.create(HOST, "fakepicks")
    await service.join(info.id, PLAYERS[1])
    after = await service.leave(info.id, HOST)
    assert after.host_id == PLAYERS[1].user_id
    gone = await service.leave(info.id, PLAYERS[1])
    assert gone.status == "aborted"


async def test_manager_may_act_as_host(service: TableService) -> None:
    info = await service.create(HOST, "fakepicks")
    await service.join(info.id, PLAYERS[1])
    await service.add_bot(info.id, MANAGER)
    kicked = await service.kick(info.id, MANAGER, 1)
    assert [s.name for s in kicked.seats] == ["Alice", "Bot 1"]
    assert (await service.start(info.id, MANAGER)).status == "running"


async def test_seat_order(service: TableService, store: SqliteStore) -> None:
    """Shuffled with the seed by default (same seed, same order); join order on request."""
    orders = []
    for _ in range(2):
        table = await new_table(service, humans=4, seed=11, start=False,
                                settings=TableSettings())
        orders.append([s.name for s in (await service.start(table, HOST)).seats])
    assert orders[0] == orders[1]
    assert sorted(orders[0]) == sorted(p.name for p in PLAYERS)
    shuffled = set()
    for seed in range(8):
        table = await new_table(service, humans=4, seed=seed, start=False,
                                settings=TableSettings())
        shuffled.add(tuple(s.name for s in (await service.start(table, HOST)).seats))
    assert len(shuffled) > 1, "the shuffle depends on the seed"
    joined = await new_table(service, humans=4, seed=11)
    assert [s.name for s in (await service.info(joined)).seats] == [p.name for p in PLAYERS]
    stored = await store.load_seats(joined)
    assert [s.user_id for s in stored] == [p.user_id for p in PLAYERS]
