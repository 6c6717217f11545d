"""The game-over notification names the winners (rank 1) and an automaton (Ginkgopolis'
Hal, who has no seat) by its own name; reminders never fall before the move they remind."""

from __future__ import annotations

from conftest import HOST, PLAYERS, RenderingNotifier, new_table

from bot.clock import FakeClock
from bot.service import TableService, TableSettings
from bot.store import SqliteStore
from engine.core import get_game


async def play_to_the_end(service: TableService, table: int) -> None:
    for _ in range(2000):
        current = await service.info(table)
        if current.status != "running":
            return
        seat = min(current.waiting)
        actor = PLAYERS[seat]
        prompt = await service.prompt(table, actor)
        await service.act(table, actor, prompt.options[0].json, version=prompt.version)
    raise AssertionError("the game never ended")


async def test_the_winners_are_the_first_ranked(service: TableService,
                                                notifier: RenderingNotifier) -> None:
    table = await new_table(service, humans=3, rounds=2)
    await play_to_the_end(service, table)
    (over,) = [n for n in notifier.to_table(table) if n.template == "game_over"]
    standings = over.context["standings"]
    first = [s["name"] for s in standings if s["rank"] == 1]
    assert first and over.context["winners"] == first
    assert all(s["rank"] > 1 for s in standings if s["name"] not in first)


async def test_hal_is_named_in_the_solo_game_over(store: SqliteStore,
                                                  notifier: RenderingNotifier,
                                                  clock: FakeClock) -> None:
    service = TableService(store, notifier, clock=clock)
    info = await service.create(HOST, "ginkgopolis", seed=4,
                                settings=TableSettings(seat_order="join"), max_seats=1)
    await service.start(info.id, HOST)
    await play_to_the_end(service, info.id)
    record = await store.load_table(info.id)
    assert record is not None and record.outcome is not None
    hal = [s for s in record.outcome["standings"] if s["seat"] is None]
    assert len(hal) == 1, record.outcome
    (over,) = [n for n in notifier.to_table(info.id) if n.template == "game_over"]
    names = {s["name"] for s in over.context["standings"]}
    assert hal[0]["name"] in names and HOST.name in names
    assert get_game("ginkgopolis").min_seats == 1


async def test_no_reminder_is_planned_before_now(service: TableService,
                                                 store: SqliteStore) -> None:
    """A one-hour deadline: the default reminders (half-way, an hour before) would be at
    half an hour and now; only the half-way one is still ahead."""
    table = await new_table(service, humans=2,
                            settings=TableSettings(seat_order="join", deadline_seconds=3600))
    info = await service.info(table)
    kinds = sorted((t.kind, t.due_at - info.deadlines[t.seat] + 3600)
                   for t in await store.load_timers(table))
    assert kinds == [("deadline", 3600), ("deadline", 3600), ("reminder", 1800),
                     ("reminder", 1800)]
