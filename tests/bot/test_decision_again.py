"""A seat that acts and must decide again under the same decision key (a Neotopia turn:
three actions, each one a "turn" decision) starts a new decision each time: a new prompt
version (its old buttons are stale) and a new deadline and reminders, counted from the
action. Only a seat that did *not* act keeps its decision (bot/service/decisions.py)."""

from __future__ import annotations

import pytest
from conftest import HOST, PLAYERS

from bot.clock import FakeClock
from bot.service import Refused, TableService, TableSettings
from bot.service.decisions import next_prompt_versions, next_timers
from bot.store import Store
from bot.store.records import SeatRecord, TimerRecord

HOUR = 3600.0
DEADLINE = 24 * 3600
REMINDERS = (12 * 3600, 3600)


async def neotopia_at_a_turn(service: TableService) -> tuple[int, int]:
    """A two-human Neotopia table, played (starting elements) up to the first seat whose
    decision is a turn; (table id, that seat)."""
    settings = TableSettings(seat_order="join", deadline_seconds=DEADLINE,
                             reminders=REMINDERS)
    info = await service.create(HOST, "neotopia", settings=settings, seed=3, channel_id="c1")
    await service.join(info.id, PLAYERS[1])
    await service.start(info.id, HOST)
    for _ in range(10):
        info = await service.info(info.id)
        ((seat, decision),) = info.waiting.items()
        if decision == "turn":
            return info.id, seat
        prompt = await service.prompt(info.id, PLAYERS[seat])
        await service.act_text(info.id, PLAYERS[seat], prompt.options[0].text)
    raise AssertionError("no turn after the starting elements")


async def test_a_seat_deciding_again_under_the_same_key_gets_a_new_version_and_deadline(
        service: TableService, store: Store, clock: FakeClock) -> None:
    table, seat = await neotopia_at_a_turn(service)
    actor = PLAYERS[seat]
    first = await service.prompt(table, actor)
    assert first.decision == "turn" and first.deadline == clock.now() + DEADLINE
    clock.advance(5 * HOUR)
    draw = next(o for o in first.options if o.text.startswith("draw"))
    await service.act(table, actor, draw.json, version=first.version)
    info = await service.info(table)
    assert info.waiting == {seat: "turn"}  # the same key: the turn's next action
    second = await service.prompt(table, actor)
    assert second.decision == "turn"
    assert second.version == info.version > first.version
    assert second.deadline == clock.now() + DEADLINE == first.deadline + 5 * HOUR
    assert info.deadlines == {seat: clock.now() + DEADLINE}
    # The reminders start afresh too, counted from the new deadline.
    timers = sorted((t.kind, t.due_at) for t in await store.load_timers(table))
    assert timers == sorted([("deadline", clock.now() + DEADLINE),
                             *(("reminder", clock.now() + DEADLINE - o) for o in REMINDERS)])
    # A button of the first decision is stale now.
    again = next(o for o in second.options if o.text.startswith("draw"))
    with pytest.raises(Refused) as refused:
        await service.act(table, actor, again.json, version=first.version)
    assert refused.value.code == "stale"
    await service.act(table, actor, again.json, version=second.version)


def seats(prompt_versions: dict[int, int]) -> list[SeatRecord]:
    return [SeatRecord(seat=s, name=f"s{s}", user_id=f"u{s}", is_bot=False, ai_kind=None,
                       dm_ok=True, prompt_version=v) for s, v in prompt_versions.items()]


def test_the_actor_restarts_its_decision_and_a_seat_that_waited_keeps_its_own() -> None:
    before = {0: "turn", 1: "changeable", 2: "pick"}
    after = {0: "turn", 1: "changeable", 2: "pick"}
    old = [TimerRecord(100.0, 0, "deadline"), TimerRecord(90.0, 0, "reminder"),
           TimerRecord(120.0, 2, "deadline")]
    versions = next_prompt_versions(seats({0: 3, 1: 3, 2: 2}), before, after, actor=0,
                                    version=4)
    assert [s.prompt_version for s in versions] == [4, 3, 2]
    timers = next_timers(old=old, before=before, after=after, actor=0,
                         seats=seats({0: 3, 1: 3, 2: 2}), now=50.0, deadline_seconds=100,
                         reminder_offsets=[20])
    assert timers == sorted([TimerRecord(150.0, 0, "deadline"),
                             TimerRecord(130.0, 0, "reminder"),
                             TimerRecord(120.0, 2, "deadline")])
