"""Every registered game plays through the service unchanged: humans, bots, timeouts,
templates in both locales, and a replay that matches the stored snapshot."""

from __future__ import annotations

import pytest
from conftest import HOST, PLAYERS, RenderingNotifier

from bot.clock import FakeClock
from bot.service import TableService, TableSettings
from bot.store import SqliteStore
from engine.core import Rng, game_names, get_game

REAL_GAMES = [name for name in game_names()
              if type(get_game(name)).__module__.startswith(f"engine.{name}.")]
MAX_HUMAN_MOVES = 2000  # far more than any game needs: reaching it is a stall


@pytest.mark.parametrize("game", REAL_GAMES)
async def test_a_real_game_through_the_service(game: str, store: SqliteStore,
                                               notifier: RenderingNotifier,
                                               clock: FakeClock) -> None:
    engine = get_game(game)
    service = TableService(store, notifier, clock=clock)
    seats = min(max(engine.min_seats, 3), engine.max_seats)  # two humans and a bot
    info = await service.create(HOST, game, seed=3,
                                settings=TableSettings(seat_order="join", locale="fr"))
    await service.join(info.id, PLAYERS[1])
    for _ in range(seats - 2):
        await service.add_bot(info.id, HOST)
    await service.start(info.id, HOST)
    rng = Rng.from_seed(5)
    moves = 0
    while (current := await service.info(info.id)).status == "running":
        humans = [s for s in sorted(current.waiting) if not current.seats[s].is_bot]
        assert humans, "the service let bots stall"
        seat = humans[0]
        assert moves < MAX_HUMAN_MOVES, "the game never ended"
        if moves % 7 == 3:  # now and then, a human is late and the AI plays for them
            clock.advance(current.deadline_seconds)
            await service.on_deadline(info.id, current.version)
        else:
            prompt = await service.prompt(info.id, PLAYERS[seat])
            option = prompt.options[rng.randbelow(len(prompt.options))]
            await service.act(info.id, PLAYERS[seat], option.json, version=prompt.version)
        moves += 1
    report = await service.verify(info.id)
    assert report.ok, report
    sources = {a.source for a in await store.load_actions(info.id)}
    assert {"player", "timeout"} <= sources
    if seats > 2:
        assert "bot" in sources
    assert current.status == "finished"
    assert notifier.to_table(info.id)[-1].template == "game_over"
