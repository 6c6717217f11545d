"""Bots think off the event loop (issue 12, item 5): a pooled AI kind chooses in an
executor while the table lock is free; its move is committed only if the table has not
moved meanwhile (else it thinks again); a dead worker costs one fallback move and a new
pool; the sweep resumes a bot turn left unplayed. No timing: the ``gated`` AI of
thinkgame.py thinks until the test opens its gate."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor

import fakegame
import pytest
import thinkgame
from conftest import HOST, PLAYERS, RenderingNotifier

from bot.clock import FakeClock
from bot.service import TableService, TableSettings
from bot.service.thinking import Thinker, ThinkJob, _process_pool, choose_json
from bot.store import SqliteStore
from engine.core import Rng, get_game

assert thinkgame.NAME == "fakethink" and fakegame.NAME == "fakepicks"


def threads() -> Thinker:
    # Threads, so that the gate (a threading.Event) is shared with the test.
    return Thinker(pooled=frozenset({"gated", "search"}),
                   executor=lambda: ThreadPoolExecutor(max_workers=2))


@pytest.fixture(autouse=True)
def _gate() -> Iterator[None]:
    thinkgame.GATE.clear()
    thinkgame.SEEN.clear()
    yield
    thinkgame.GATE.set()  # a thread still waiting ends


@pytest.fixture
async def gated(store: SqliteStore, notifier: RenderingNotifier,
                clock: FakeClock) -> AsyncIterator[TableService]:
    service = TableService(store, notifier, clock=clock, thinker=threads())
    yield service
    await service.close()


async def table_of(service: TableService, game: str, *, humans: int, bots: int,
                   kind: str = "gated", rounds: int = 2) -> int:
    info = await service.create(HOST, game, options={"rounds": rounds}, seed=11,
                                settings=TableSettings(seat_order="join"), channel_id=game)
    for actor in PLAYERS[1:humans]:
        await service.join(info.id, actor)
    for _ in range(bots):
        await service.add_bot(info.id, HOST, ai_kind=kind)
    await service.start(info.id, HOST)
    return info.id


async def seen(count: int, tries: int = 2000) -> list[tuple[int, int]]:
    """What the gated AI saw, once it has begun ``count`` choices (it runs in a thread;
    waited for, never timed: a bound only keeps a broken test from hanging)."""
    for _ in range(tries):
        if len(thinkgame.SEEN) >= count:
            break
        await asyncio.sleep(0.005)
    return list(thinkgame.SEEN)


async def pick(service: TableService, table: int, seat: int) -> int:
    actor = PLAYERS[seat]
    prompt = await service.prompt(table, actor)
    result = await service.act(table, actor, prompt.options[0].json, version=prompt.version)
    return result.version


async def test_another_tables_click_is_answered_while_a_bot_thinks(gated: TableService) -> None:
    thinking = await table_of(gated, "fakethink", humans=1, bots=1)
    # Started, and answered at once: the bot picks in the background (its gate is shut).
    assert await seen(1) == [(1, 0)]
    other = await table_of(gated, "fakepicks", humans=2, bots=0)
    assert await pick(gated, other, 0) == 2  # another table's click is answered
    assert 1 in (await gated.info(thinking)).waiting  # while the bot still thinks
    thinkgame.GATE.set()
    await gated.settle(thinking)
    assert 1 not in (await gated.info(thinking)).waiting
    assert thinkgame.SEEN == [(1, 0)]  # thought once: nothing moved meanwhile


async def test_a_click_on_the_same_table_is_answered_and_the_stale_choice_thought_again(
        gated: TableService, store: SqliteStore) -> None:
    table = await table_of(gated, "fakethink", humans=1, bots=1)
    assert await seen(1) == [(1, 0)]
    # Seat 0 picks while the bot thinks about the table as it was before that pick.
    assert await pick(gated, table, 0) == 2
    thinkgame.GATE.set()
    await gated.settle(table)
    # The first choice was stale (the table had moved): the bot thought again, on the
    # table with seat 0's pick in, and played once.
    assert thinkgame.SEEN[:2] == [(1, 0), (1, 1)]
    actions = await store.load_actions(table)
    assert [(a.version, a.seat, a.source) for a in actions][:2] == [
        (2, 0, "player"), (3, 1, "bot")]


async def test_the_table_lock_is_free_while_a_bot_thinks(gated: TableService) -> None:
    table = await table_of(gated, "fakethink", humans=1, bots=1)
    assert await seen(1) == [(1, 0)]
    assert not gated._lock(table).locked()
    thinkgame.GATE.set()
    await gated.settle(table)


async def test_a_game_of_pooled_bots_plays_to_the_end_as_inline(
        store: SqliteStore, notifier: RenderingNotifier, clock: FakeClock) -> None:
    """The same seeded choices pooled (threads here) and inline: the same game."""
    thinkgame.GATE.set()
    logs = []
    for thinker in (threads(), Thinker(inline=True)):
        service = TableService(store, notifier, clock=clock, thinker=thinker)
        table = await table_of(service, "fakethink", humans=1, bots=2, kind="search",
                               rounds=3)
        await service.settle(table)
        while (info := await service.info(table)).status == "running":
            assert 0 in info.waiting  # the bots have played what they owe
            await pick(service, table, 0)
            await service.settle(table)
        logs.append([(a.seat, a.action) for a in await store.load_actions(table)])
        # The pool is started by the first pooled choice only, and stopped with the service.
        assert service.thinker.started == (not thinker.inline_all)
        await service.close()
        assert not service.thinker.started
    assert logs[0] == logs[1] and len(logs[0]) > 6


async def test_the_sweep_resumes_a_bot_turn_left_unplayed(
        store: SqliteStore, notifier: RenderingNotifier, clock: FakeClock) -> None:
    first = TableService(store, notifier, clock=clock, thinker=threads())
    table = await table_of(first, "fakethink", humans=1, bots=1)
    assert await seen(1) == [(1, 0)]
    # The process stops while its bot thinks: its move is cancelled before the loop
    # could take it (the gate opened in the same step, so that stopping the thread
    # need not wait for the gate's timeout).
    thinkgame.GATE.set()
    await first.close()
    assert await store.bot_turn_tables() == [table]
    second = TableService(store, notifier, clock=clock, thinker=threads())
    await second.sweep()
    await second.settle(table)
    assert 1 not in (await second.info(table)).waiting
    await second.close()


async def test_a_deadline_plays_a_pooled_level_off_the_lock(
        store: SqliteStore, notifier: RenderingNotifier, clock: FakeClock) -> None:
    thinkgame.GATE.set()
    service = TableService(store, notifier, clock=clock, thinker=Thinker(
        pooled=frozenset({"search"}), executor=lambda: ThreadPoolExecutor(1)))
    info = await service.create(HOST, "fakethink", options={"rounds": 2}, seed=3,
                                settings=TableSettings(seat_order="join", ai_level="hard"))
    await service.join(info.id, PLAYERS[1])
    await service.start(info.id, HOST)
    await pick(service, info.id, 0)
    clock.advance(25 * 3600)
    await service.on_deadline(info.id, (await service.info(info.id)).version)
    actions = await store.load_actions(info.id)
    assert [(a.seat, a.source) for a in actions][:2] == [(0, "player"), (1, "timeout")]
    assert any(n.template == "timeout_played" and n.context["level"] == "hard"
               for n in notifier.notes)
    await service.close()


# Real worker processes from here on.

def job_for(game: str, seat: int, seed: int, kind: str = "search") -> ThinkJob:
    engine = get_game(game)
    state = engine.setup(2, engine.default_options(), seed)
    return ThinkJob(type(engine).__module__, game, engine.state_to_json(state), seat, kind,
                    seed ^ 0x5EED)


async def test_the_same_choice_inline_and_in_a_worker_process() -> None:
    thinker = Thinker()
    try:
        jobs = [job_for("fakethink", seat, seed) for seed in range(4) for seat in (0, 1)]
        for job in jobs:
            assert await thinker.choose(job) == choose_json(job)
        # The real search of a real game, through its JSON state, in another process.
        gink = get_game("ginkgopolis")
        state = gink.setup(2, gink.default_options(), 5)
        seat = min(gink.pending(state).waiting)
        job = ThinkJob(type(gink).__module__, "ginkgopolis", gink.state_to_json(state), seat,
                       "search", 99)
        pooled = await thinker.choose(job)
        inline = gink.ai("search").choose(state, seat, Rng.from_seed(99))
        assert pooled == dict(inline.to_json())
    finally:
        thinker.shutdown()


async def test_a_dead_worker_costs_one_fallback_move_and_the_pool_is_rebuilt(
        store: SqliteStore, notifier: RenderingNotifier, clock: FakeClock) -> None:
    service = TableService(store, notifier, clock=clock,
                           thinker=Thinker(pooled=frozenset({"crash"})))
    try:
        table = await table_of(service, "fakethink", humans=1, bots=1, kind="crash")
        await service.settle(table)
        # Round 0: the worker died; the bot played the greedy fallback (its best card).
        hand = get_game("fakethink").setup(2, {"rounds": 2}, 11).hands[1]
        actions = await store.load_actions(table)
        assert [(a.seat, a.source, a.action) for a in actions] == [
            (1, "bot", {"t": "pick", "card": max(hand)})]
        assert service.thinker.rebuilt == 1 and not service.thinker.started
        # The next pooled choices are made by a new pool (the kind plays after round 0).
        await pick(service, table, 0)
        await service.settle(table)
        assert len([a for a in await store.load_actions(table) if a.source == "bot"]) >= 2
        assert service.thinker.started and service.thinker.rebuilt == 1
    finally:
        await service.close()


async def test_a_worker_that_never_answers_is_stopped_and_the_bot_plays_a_fallback(
        store: SqliteStore, notifier: RenderingNotifier, clock: FakeClock) -> None:
    service = TableService(store, notifier, clock=clock,
                           thinker=Thinker(pooled=frozenset({"hang"}), timeout=1.0))
    try:
        table = await table_of(service, "fakethink", humans=1, bots=1, kind="hang")
        await service.settle(table)
        hand = get_game("fakethink").setup(2, {"rounds": 2}, 11).hands[1]
        assert [(a.seat, a.source, a.action) for a in await store.load_actions(table)] == [
            (1, "bot", {"t": "pick", "card": max(hand)})]
        assert service.thinker.rebuilt == 1 and not service.thinker.started
    finally:
        await service.close()


async def test_a_late_seat_is_thought_for_off_the_lock_and_again_after_a_click(
        gated: TableService, store: SqliteStore, clock: FakeClock,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The table's level is hard: its search is the gated AI here.
    monkeypatch.setattr(thinkgame.SearchAI, "choose", thinkgame.GatedAI.choose)
    info = await gated.create(HOST, "fakethink", options={"rounds": 2}, seed=3,
                              settings=TableSettings(seat_order="join", ai_level="hard"))
    await gated.join(info.id, PLAYERS[1])
    await gated.start(info.id, HOST)
    await pick(gated, info.id, 0)
    clock.advance(25 * 3600)
    deadline = asyncio.create_task(
        gated.on_deadline(info.id, (await gated.info(info.id)).version))
    assert await seen(1) == [(1, 1)]
    assert not gated._lock(info.id).locked()
    # Seat 0 changes its pick while the AI thinks for seat 1: answered at once.
    prompt = await gated.prompt(info.id, HOST)
    await gated.act(info.id, HOST, prompt.options[-1].json, version=prompt.version)
    thinkgame.GATE.set()
    await deadline
    assert thinkgame.SEEN[:2] == [(1, 1), (1, 1)]  # thought again on the new table
    actions = await store.load_actions(info.id)
    assert [(a.version, a.seat, a.source) for a in actions][:3] == [
        (2, 0, "player"), (3, 0, "player"), (4, 1, "timeout")]


async def test_a_bot_seat_given_to_a_person_while_it_thinks_is_not_played(
        gated: TableService, store: SqliteStore) -> None:
    table = await table_of(gated, "fakethink", humans=1, bots=1)
    assert await seen(1) == [(1, 0)]
    version = (await gated.info(table)).version
    await gated.replace(table, HOST, 1, PLAYERS[1])  # a new player, the same version
    assert (await gated.info(table)).version == version
    thinkgame.GATE.set()
    await gated.settle(table)
    assert await store.load_actions(table) == []
    info = await gated.info(table)
    assert 1 in info.waiting and not info.seats[1].is_bot


async def test_choices_beyond_the_workers_wait_outside_the_executor_and_its_timeout() -> None:
    thinker = Thinker(pooled=frozenset({"gated"}), workers=1,
                      executor=lambda: ThreadPoolExecutor(max_workers=2))
    jobs = [job_for("fakethink", seat, 4, kind="gated") for seat in (0, 1)]
    both = asyncio.gather(*(thinker.choose(job) for job in jobs))
    assert await seen(1) == [(0, 0)]
    # The executor could run both, but the second waits for a slot (so a long queue of
    # tables is never taken for a stuck worker): a while later, still one choice begun.
    assert await seen(2, tries=40) == [(0, 0)]
    thinkgame.GATE.set()
    assert await both == [choose_json(job) for job in jobs]
    assert thinkgame.SEEN == [(0, 0), (1, 0), (0, 0), (1, 0)]  # the last two: choose_json
    thinker.shutdown()


def test_a_worker_leaves_ctrl_c_to_the_bot_process_and_runs_at_nice_10() -> None:
    # Ctrl-C in a terminal reaches the whole process group: a worker that took it would
    # print its own traceback over the console's "table saved" line.
    before = signal.getsignal(signal.SIGINT)
    niceness = os.nice(0)
    pool = _process_pool()
    try:
        assert pool.submit(signal.getsignal, signal.SIGINT).result(timeout=60) == signal.SIG_IGN
        # Ten steps below the bot's own process (the kernel stops at 19).
        assert pool.submit(os.nice, 0).result(timeout=60) == min(19, niceness + 10)
    finally:
        pool.shutdown()
    assert signal.getsignal(signal.SIGINT) == before  # the bot's own process keeps its own
    assert os.nice(0) == niceness
