"""The worker pool answers with an action the seat may not play (bot/service/turns.py,
``_accepted``): illegal, unreadable, another seat's, or a choice of an earlier decision
(stale). The bot then plays a legal move: the first legal action, as a player's menu
lists it, for a bot seat and for a late seat played at its deadline alike. A fake
Thinker stands for the pool: it answers what the test scripts, and never starts one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import thinkgame
from conftest import HOST, PLAYERS, RenderingNotifier

from bot.clock import FakeClock
from bot.service import TableInfo, TableService, TableSettings
from bot.service.thinking import Thinker, ThinkJob
from bot.store import SqliteStore
from engine.core import Rng, get_game

assert thinkgame.NAME == "fakethink"

Answer = Callable[[ThinkJob, list[ThinkJob]], dict[str, Any]]


class ScriptedThinker(Thinker):
    """A pooled ``search`` whose answer the test writes; every job is kept."""

    def __init__(self, answer: Answer) -> None:
        super().__init__(pooled=frozenset({"search"}))
        self.answer = answer
        self.jobs: list[ThinkJob] = []

    async def choose(self, job: ThinkJob) -> dict[str, Any] | None:
        self.jobs.append(job)
        return self.answer(job, self.jobs)


def legal_then(job: ThinkJob) -> list[dict[str, Any]]:
    """The seat's legal actions, as JSON, in the state the job was thought about."""
    game = get_game(job.game)
    state = game.state_from_json(job.state)
    return [dict(a.to_json()) for a in game.legal_actions(state, job.seat)]


def hand(job: ThinkJob, seat: int) -> list[int]:
    return list(job.state["hands"][seat])


def illegal(job: ThinkJob, jobs: list[ThinkJob]) -> dict[str, Any]:
    return {"t": "pick", "card": 99}  # no such card


def unreadable(job: ThinkJob, jobs: list[ThinkJob]) -> dict[str, Any]:
    return {"t": "nonsense"}


def wrong_kind(job: ThinkJob, jobs: list[ThinkJob]) -> dict[str, Any]:
    return {"t": "bonus", "n": 2}  # a bonus while every seat picks


def another_seats(job: ThinkJob, jobs: list[ThinkJob]) -> dict[str, Any]:
    return {"t": "pick", "card": max(hand(job, 1 - job.seat))}


def stale(job: ThinkJob, jobs: list[ThinkJob]) -> dict[str, Any]:
    """Round 0: a legal pick (the last card). Later: that same card again, the choice of
    a decision that is over (the card was played)."""
    first = jobs[0]
    return {"t": "pick", "card": max(hand(first, first.seat))}


@pytest.mark.parametrize("answer", [illegal, unreadable, wrong_kind, another_seats],
                         ids=["illegal", "unreadable", "wrong_kind", "another_seats"])
async def test_a_bot_seat_plays_the_first_legal_move_when_the_pool_answers_wrong(
        store: SqliteStore, notifier: RenderingNotifier, clock: FakeClock,
        answer: Answer) -> None:
    thinker = ScriptedThinker(answer)
    service = TableService(store, notifier, clock=clock, thinker=thinker)
    try:
        info = await service.create(HOST, "fakethink", options={"rounds": 2}, seed=11,
                                    settings=TableSettings(seat_order="join"))
        await service.add_bot(info.id, HOST, ai_kind="search")
        await service.start(info.id, HOST)
        await service.settle(info.id)
        (job,) = thinker.jobs
        assert job.seat == 1 and job.kind == "search"
        actions = await store.load_actions(info.id)
        assert [(a.seat, a.source, a.action) for a in actions] == [
            (1, "bot", legal_then(job)[0])]
        assert 1 not in (await service.info(info.id)).waiting  # it played, it waits no more
        assert (await service.verify(info.id)).ok
    finally:
        await service.close()


async def test_a_stale_choice_from_an_earlier_decision_is_not_played(
        store: SqliteStore, notifier: RenderingNotifier, clock: FakeClock) -> None:
    thinker = ScriptedThinker(stale)
    service = TableService(store, notifier, clock=clock, thinker=thinker)
    try:
        info = await service.create(HOST, "fakethink", options={"rounds": 2}, seed=11,
                                    settings=TableSettings(seat_order="join"))
        await service.add_bot(info.id, HOST, ai_kind="search")
        await service.start(info.id, HOST)
        await service.settle(info.id)
        while (now := await service.info(info.id)).status == "running":
            actor = PLAYERS[min(now.waiting)]
            prompt = await service.prompt(info.id, actor)
            await service.act(info.id, actor, prompt.options[0].json, version=prompt.version)
            await service.settle(info.id)
        picks = [job for job in thinker.jobs if legal_then(job)[0]["t"] == "pick"]
        assert len(picks) == 2
        bot = [a.action for a in await store.load_actions(info.id)
               if a.source == "bot" and a.action["t"] == "pick"]
        # Round 0: its answer was legal and played; round 1: the same card, played
        # already, is refused and the first legal card is played instead.
        assert bot == [stale(picks[0], thinker.jobs), legal_then(picks[1])[0]]
        assert bot[1] != bot[0]
        assert (await service.verify(info.id)).ok
    finally:
        await service.close()


async def late_seat_timed_out(service: TableService, clock: FakeClock) -> TableInfo:
    """A two-seat table at a pooled level whose seat 1 let its deadline pass: the
    deadline's job has run (the pool chose for seat 1)."""
    info = await service.create(HOST, "fakethink", options={"rounds": 2}, seed=3,
                                settings=TableSettings(seat_order="join", ai_level="hard"))
    await service.join(info.id, PLAYERS[1])
    await service.start(info.id, HOST)
    prompt = await service.prompt(info.id, HOST)
    await service.act(info.id, HOST, prompt.options[0].json, version=prompt.version)
    clock.advance(25 * 3600)
    await service.on_deadline(info.id, (await service.info(info.id)).version)
    return info


@pytest.mark.parametrize("answer", [illegal, unreadable, another_seats],
                         ids=["illegal", "unreadable", "another_seats"])
async def test_a_late_seat_played_by_a_pooled_level_gets_a_legal_move(
        store: SqliteStore, notifier: RenderingNotifier, clock: FakeClock,
        answer: Answer) -> None:
    thinker = ScriptedThinker(answer)
    service = TableService(store, notifier, clock=clock, thinker=thinker)
    try:
        info = await late_seat_timed_out(service, clock)
        (job,) = thinker.jobs
        assert job.seat == 1
        actions = await store.load_actions(info.id)
        assert [(a.seat, a.source, a.action) for a in actions][1:] == [
            (1, "timeout", legal_then(job)[0])]
        assert (await service.verify(info.id)).ok
    finally:
        await service.close()


async def test_a_late_seat_plays_the_pools_legal_choice_as_it_is(
        store: SqliteStore, notifier: RenderingNotifier, clock: FakeClock) -> None:
    """A legal answer of the pool is played as it came, not chosen again on the event
    loop: here the pool answers the last legal card, which the AI would not choose."""

    def last_legal(job: ThinkJob, jobs: list[ThinkJob]) -> dict[str, Any]:
        return legal_then(job)[-1]

    thinker = ScriptedThinker(last_legal)
    service = TableService(store, notifier, clock=clock, thinker=thinker)
    try:
        info = await late_seat_timed_out(service, clock)
        (job,) = thinker.jobs
        game = get_game(job.game)
        state = game.state_from_json(job.state)
        own = game.ai(job.kind).choose(state, job.seat, Rng.from_seed(job.seed)).to_json()
        assert own != legal_then(job)[-1]  # the AI itself would play another card
        actions = await store.load_actions(info.id)
        assert [(a.seat, a.source, a.action) for a in actions][1:] == [
            (1, "timeout", legal_then(job)[-1])]
    finally:
        await service.close()
