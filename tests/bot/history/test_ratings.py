"""Ratings: settled in the transaction that finishes a table, on both stores; a rebuild
from the finished tables gives the same numbers; ties, bots, automata, the timeout rule."""

from __future__ import annotations

import dataclasses
import itertools

import pytest
from conftest import HOST, PLAYERS
from openskill.models import PlackettLuce

from bot.clock import FakeClock
from bot.history.ratings import (
    MU,
    SIGMA,
    Competitor,
    RatedGame,
    Rating,
    settle,
    why_unrated,
)
from bot.history.rebuild import rebuild
from bot.service import TableService, TableSettings
from bot.store import Store

BACKENDS = ("sqlite", "postgres")


def _game(*ranks: int, bots: tuple[str, ...] = ()) -> RatedGame:
    competitors = [Competitor(i, f"u{i}", f"P{i}", False, r, 10 - r)
                   for i, r in enumerate(ranks)]
    competitors += [Competitor(len(ranks) + j, kind, kind, True, 1, 9)
                    for j, kind in enumerate(bots)]
    return RatedGame(1, "g1", "fakepicks", 100.0, 0.0, 9, tuple(competitors))


def test_a_tie_shares_the_rank_and_the_update() -> None:
    done = settle(_game(1, 2, 2), {}, {})
    by = {r.player: r for r in done.ratings}
    assert by["u1"].mu == pytest.approx(by["u2"].mu)
    assert by["u0"].mu > MU > by["u1"].mu
    # The same numbers as the library's own Plackett-Luce with shared ranks.
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(3)], ranks=[1, 2, 2])
    assert [r.mu for r in done.ratings] == pytest.approx([t[0].mu for t in expected])
    assert all(r.sigma < SIGMA and r.games == 1 for r in done.ratings)


def test_a_bot_kind_on_two_seats_is_rated_once_from_the_mean_of_its_seats() -> None:
    game = RatedGame(1, "g1", "fakepicks", 1.0, 0.0, 9, (
        Competitor(0, "u0", "Ann", False, 1, 30),
        Competitor(1, "bot:greedy", "Bot 1", True, 2, 20),
        Competitor(2, "bot:greedy", "Bot 2", True, 3, 10)))
    done = settle(game, {}, {})
    rows = [r for r in done.results if r.player == "bot:greedy"]
    bot = next(r for r in done.ratings if r.player == "bot:greedy")
    assert bot.is_bot and bot.games == 1
    assert rows[0].mu is not None and rows[1].mu is not None
    assert bot.mu == pytest.approx((rows[0].mu + rows[1].mu) / 2)
    assert len(done.ratings) == 2


def test_a_seat_played_mostly_by_the_timeout_ai_leaves_the_table_unrated() -> None:
    game = _game(1, 2)
    assert why_unrated(game, {0: {"player": 2, "timeout": 2}}) is None  # half: rated
    assert why_unrated(game, {0: {"player": 2, "timeout": 3}}) == "timeout"
    # A bot seat's moves are its own, however many.
    assert why_unrated(_game(1, bots=("bot:greedy",)), {1: {"bot": 5}}) is None
    done = settle(game, {1: {"timeout": 4, "player": 1}}, {})
    assert done.ratings == () and {r.unrated for r in done.results} == {"timeout"}
    assert all(r.mu is None for r in done.results)
    assert why_unrated(_game(1), {}) == "alone"


def test_the_current_rating_is_the_prior() -> None:
    strong = Rating("u0", "P0", False, 40.0, 2.0, 12)
    done = settle(_game(2, 1), {}, {"u0": strong})
    row = next(r for r in done.results if r.player == "u0")
    assert (row.mu_before, row.sigma_before) == (40.0, 2.0)
    after = next(r for r in done.ratings if r.player == "u0")
    assert after.games == 13 and after.mu < 40.0


# -- through the service and the store ------------------------------------------------


async def play_out(service: TableService, table: int) -> None:
    while (info := await service.info(table)).status == "running":
        seat = min(info.waiting)
        prompt = await service.prompt(table, PLAYERS[seat])
        await service.act(table, PLAYERS[seat], prompt.options[0].json, version=prompt.version)


async def finished_table(service: TableService, clock: FakeClock, *, humans: int,
                         bots: int = 0, seed: int = 7, guild: str = "g1") -> int:
    settings = TableSettings(seat_order="join", deadline_seconds=24 * 3600)
    info = await service.create(HOST, "fakepicks", options={"rounds": 2}, settings=settings,
                                seed=seed, channel_id=f"c{seed}", guild_id=guild)
    for actor in PLAYERS[1:humans]:
        await service.join(info.id, actor)
    for _ in range(bots):
        await service.add_bot(info.id, HOST)
    await service.start(info.id, HOST)
    await play_out(service, info.id)
    clock.advance(60)  # finishes one at a time, as on a real clock
    return info.id


def _numbers(ratings: list[Rating]) -> list[tuple[str, float, float, int]]:
    return [(r.player, r.mu, r.sigma, r.games) for r in ratings]


async def test_ratings_follow_each_finished_table_and_a_rebuild_gives_the_same(
        service: TableService, store: Store, clock: FakeClock) -> None:
    tables = []
    for seed in range(1, 7):
        tables.append(await finished_table(service, clock, humans=2 + (seed % 3 == 0),
                                           bots=seed % 2, seed=seed))
    results = await store.load_results("g1")
    assert {r.table_id for r in results} == set(tables)
    ratings = await store.load_ratings("g1", "fakepicks")
    assert {r.player for r in ratings} >= {"u0", "u1", "bot:greedy"}
    bot = next(r for r in ratings if r.player == "bot:greedy")
    assert bot.is_bot and bot.games == 3
    assert next(r for r in ratings if r.player == "u0").games == 6
    # Each table's rows start from the ratings the previous one left.
    u0 = sorted((r for r in results if r.player == "u0"), key=lambda r: r.finished_at)
    for earlier, later in itertools.pairwise(u0):
        assert (later.mu_before, later.sigma_before) == (earlier.mu, earlier.sigma)
    assert (u0[0].mu_before, u0[0].sigma_before) == (MU, SIGMA)

    assert await rebuild(store) == 6
    assert _numbers(await store.load_ratings("g1", "fakepicks")) == _numbers(ratings)
    assert await store.load_results("g1") == results


async def test_an_aborted_table_has_no_history_and_servers_are_apart(
        service: TableService, store: Store, clock: FakeClock) -> None:
    await finished_table(service, clock, humans=2, seed=3, guild="g1")
    await finished_table(service, clock, humans=3, seed=4, guild="g2")
    settings = TableSettings(seat_order="join")
    info = await service.create(HOST, "fakepicks", options={"rounds": 2}, settings=settings,
                                seed=5, channel_id="c9", guild_id="g1")
    await service.join(info.id, PLAYERS[1])
    await service.start(info.id, HOST)
    from conftest import MANAGER
    await service.abort(info.id, MANAGER)
    assert {r.table_id for r in await store.load_results("g1")} == {1}
    assert {r.table_id for r in await store.load_results("g2")} == {2}
    assert [r.games for r in await store.load_ratings("g1", "fakepicks")] == [1, 1]
    assert {r.player for r in await store.load_ratings("g2", "fakepicks")} == {
        "u0", "u1", "u2"}
    # A player's history: every row of the tables they played, newest first.
    mine = await store.load_results("g1", player="u1")
    assert {r.player for r in mine} == {"u0", "u1"}
    assert await store.load_results("g2", player="u9") == []


async def test_a_table_lost_on_time_is_unrated_but_listed(
        service: TableService, store: Store, clock: FakeClock) -> None:
    settings = TableSettings(seat_order="join", deadline_seconds=3600)
    info = await service.create(HOST, "fakepicks", options={"rounds": 2}, settings=settings,
                                seed=8, channel_id="c8", guild_id="g1")
    await service.join(info.id, PLAYERS[1])
    await service.start(info.id, HOST)
    while (table := await service.info(info.id)).status == "running":
        if 0 in table.waiting:
            prompt = await service.prompt(info.id, HOST)
            await service.act(info.id, HOST, prompt.options[0].json, version=prompt.version)
            continue
        clock.advance(3601)  # Bob never plays: the timeout AI plays all his decisions
        await service.on_deadline(info.id, table.version)
    rows = await store.load_results("g1")
    assert rows and {r.unrated for r in rows} == {"timeout"}
    assert await store.load_ratings("g1", "fakepicks") == []
    actions = await store.load_actions(info.id)
    bob = [a.source for a in actions if a.seat == 1]
    assert bob and set(bob) == {"timeout"}
    # Unchanged by a rebuild.
    await rebuild(store)
    assert await store.load_results("g1") == rows


def test_rating_rows_are_frozen_values() -> None:
    r = Rating("u0", "P0", False, 25.0, 8.0, 1)
    assert dataclasses.replace(r, mu=26.0).ordinal == pytest.approx(26.0 - 24.0)


async def test_two_tables_finishing_at_once_in_two_processes_lose_no_update(
        db_url: str, store: Store, clock: FakeClock) -> None:
    """Each store is its own connection (a process); the last moves land together."""
    from bot.service import MemoryNotifier
    from bot.store import open_store

    other = await open_store(db_url)
    try:
        services = [TableService(store, MemoryNotifier(), clock=clock),
                    TableService(other, MemoryNotifier(), clock=clock)]
        # How many actions a whole game takes, with these seeds and choices.
        probe = await finished_table(services[0], clock, humans=2, seed=4, guild="gx")
        moves = (await services[0].info(probe)).version
        tables = []
        for service in services:
            info = await service.create(HOST, "fakepicks", options={"rounds": 2}, seed=4,
                                        settings=TableSettings(seat_order="join"),
                                        channel_id=f"c{len(tables)}", guild_id="g1")
            await service.join(info.id, PLAYERS[1])
            await service.start(info.id, HOST)
            while (await service.info(info.id)).version < moves - 1:
                t = await service.info(info.id)
                actor = PLAYERS[min(t.waiting)]
                prompt = await service.prompt(info.id, actor)
                await service.act(info.id, actor, prompt.options[0].json,
                                  version=prompt.version)
            tables.append(info.id)

        async def last_move(service: TableService, table: int) -> None:
            t = await service.info(table)
            actor = PLAYERS[min(t.waiting)]
            prompt = await service.prompt(table, actor)
            await service.act(table, actor, prompt.options[0].json, version=prompt.version)

        import asyncio
        await asyncio.gather(*(last_move(s, t) for s, t in zip(services, tables, strict=True)))
        for s, t in zip(services, tables, strict=True):
            assert (await s.info(t)).status == "finished"
        ratings = await store.load_ratings("g1", "fakepicks")
        assert sorted(r.games for r in ratings) == [2, 2]
        rows = sorted((r for r in await store.load_results("g1") if r.player == "u0"),
                      key=lambda r: r.table_id)
        first, second = sorted(rows, key=lambda r: r.mu_before != MU)
        assert (second.mu_before, second.sigma_before) == (first.mu, first.sigma)
    finally:
        await other.close()


async def test_a_finished_table_written_again_is_settled_once(
        service: TableService, store: Store, clock: FakeClock) -> None:
    # After the end, a write still happens when the final DM cannot be delivered (the
    # seat is marked unreachable): it must not rate the table a second time.
    table = await finished_table(service, clock, humans=2, seed=6)
    before = await store.load_ratings("g1", "fakepicks")
    live = await service._load(table)
    await service._set_reachable(live, PLAYERS[1].user_id, False)
    assert (await store.load_seats(table))[1].dm_ok is False
    assert await store.load_ratings("g1", "fakepicks") == before
    assert len(await store.load_results("g1")) == 2
