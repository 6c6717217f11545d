"""A seat handed to a bot (kick, leave, replace by a bot) keeps no deadline nor reminder of
its own: a bot acts at once, never late (bot/service/seats.py ``_botify``). That holds
where the bot cannot act at once too: on a paused table, and while a pooled bot thinks."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import thinkgame  # registers the fakethink game
from conftest import HOST, PLAYERS, RenderingNotifier, new_table

from bot.clock import FakeClock
from bot.service import Actor, TableInfo, TableService, TableSettings
from bot.service.thinking import Thinker, ThinkJob
from bot.store import SqliteStore
from engine.core import get_game

assert thinkgame.NAME == "fakethink"

DAY = 24 * 3600.0


async def timer_seats(store: SqliteStore, table: int) -> dict[int, set[str]]:
    out: dict[int, set[str]] = {}
    for t in await store.load_timers(table):
        out.setdefault(t.seat, set()).add(t.kind)
    return out


async def hand_over(service: TableService, table: int, seat: int, how: str) -> None:
    if how == "kick":
        await service.kick(table, HOST, seat)
    elif how == "leave":
        await service.leave(table, PLAYERS[seat])
    else:
        await service.replace(table, HOST, seat, None)


@pytest.mark.parametrize("how", ["kick", "leave", "replace"])
async def test_a_seat_handed_to_a_bot_on_a_paused_table_has_no_deadline(
        service: TableService, store: SqliteStore, clock: FakeClock, how: str) -> None:
    table = await new_table(service, humans=3)
    due = clock.now() + DAY
    before = await timer_seats(store, table)
    assert before == {s: {"deadline", "reminder"} for s in (0, 1, 2)}  # all three pick
    await service.pause(table, HOST)
    await hand_over(service, table, 2, how)
    info = await service.info(table)
    assert info.status == "paused" and info.seats[2].is_bot
    assert 2 in info.waiting  # paused: the bot has not picked yet
    assert set(info.deadlines) == {0, 1}
    assert await timer_seats(store, table) == {0: {"deadline", "reminder"},
                                               1: {"deadline", "reminder"}}
    # Resumed: the bot picks at once; the others keep their (shifted) deadlines.
    clock.advance(3600)
    await service.resume(table, HOST)
    info = await service.info(table)
    assert 2 not in info.waiting
    assert info.deadlines == {0: due + 3600, 1: due + 3600}  # moved on by the pause
    assert 2 not in await timer_seats(store, table)
    assert [(a.seat, a.source) for a in await store.load_actions(table)] == [(2, "bot")]


class GatedThinker(Thinker):
    """A pooled ``search`` that answers the first legal move once the test opens it."""

    def __init__(self) -> None:
        super().__init__(pooled=frozenset({"search"}))
        self.gate = asyncio.Event()
        self.asked = asyncio.Event()

    async def choose(self, job: ThinkJob) -> dict[str, Any] | None:
        self.asked.set()
        await self.gate.wait()
        game = get_game(job.game)
        state = game.state_from_json(job.state)
        return dict(game.legal_actions(state, job.seat)[0].to_json())


async def seat_two_to_a_thinking_bot(service: TableService,
                                     thinker: GatedThinker) -> TableInfo:
    """A three-seat table at the search level whose seat 2 was kicked to a bot, which is
    thinking (held at the thinker's gate)."""
    info = await service.create(HOST, "fakethink", options={"rounds": 2}, seed=5,
                                settings=TableSettings(seat_order="join", ai_level="hard"))
    for actor in PLAYERS[1:3]:
        await service.join(info.id, actor)
    await service.start(info.id, HOST)
    await service.kick(info.id, HOST, 2)  # a bot of the table's level: the search
    await thinker.asked.wait()
    return info


async def test_a_seat_given_to_a_thinking_bot_has_no_deadline_while_it_thinks(
        store: SqliteStore, notifier: RenderingNotifier, clock: FakeClock) -> None:
    thinker = GatedThinker()
    service = TableService(store, notifier, clock=clock, thinker=thinker)
    try:
        info = await seat_two_to_a_thinking_bot(service, thinker)
        now = await service.info(info.id)
        assert now.seats[2].is_bot and 2 in now.waiting  # it thinks
        assert set(now.deadlines) == {0, 1}
        assert set(await timer_seats(store, info.id)) == {0, 1}
        thinker.gate.set()
        await service.settle(info.id)
        assert 2 not in (await service.info(info.id)).waiting
        assert set(await timer_seats(store, info.id)) == {0, 1}
    finally:
        thinker.gate.set()
        await service.close()


async def test_a_thinking_bot_seat_given_to_a_person_gets_a_fresh_deadline(
        store: SqliteStore, notifier: RenderingNotifier, clock: FakeClock) -> None:
    thinker = GatedThinker()
    service = TableService(store, notifier, clock=clock, thinker=thinker)
    try:
        info = await seat_two_to_a_thinking_bot(service, thinker)
        clock.advance(3600)
        newcomer = Actor("u7", "Gil")
        await service.replace(info.id, HOST, 2, by=newcomer)
        now = await service.info(info.id)
        assert not now.seats[2].is_bot and 2 in now.waiting
        assert now.deadlines[2] == clock.now() + DAY  # counted from the hand-over
        assert (await timer_seats(store, info.id))[2] == {"deadline", "reminder"}
        thinker.gate.set()
        await service.settle(info.id)
        assert 2 in (await service.info(info.id)).waiting  # the bot's late choice is dropped
    finally:
        thinker.gate.set()
        await service.close()


async def test_a_bot_seat_given_to_a_person_on_a_paused_table_gets_a_deadline(
        service: TableService, store: SqliteStore, clock: FakeClock) -> None:
    table = await new_table(service, humans=3)
    await service.pause(table, HOST)
    await service.kick(table, HOST, 2)  # paused: the bot does not pick
    await service.replace(table, HOST, 2, by=Actor("u7", "Gil"))
    clock.advance(3600)
    await service.resume(table, HOST)
    info = await service.info(table)
    assert 2 in info.waiting and not info.seats[2].is_bot
    assert 2 in info.deadlines
    # A whole deadline from the resume, as every seat that waited through the pause.
    assert info.deadlines[2] == info.deadlines[0]
