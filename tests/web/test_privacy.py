"""No page shows a seat's private information: for every game, at every version, no
private marker of any seat (a card or tile in a hand, a secret pick; see
``webgames.markers_of``) is on the replay step of that version, nor on the table's page
at its end, in English or French."""

from __future__ import annotations

import pytest
from aiohttp.test_utils import TestClient

from bot import images
from bot.service import FileSpec, TableService
from bot.store import Store
from bot.viewtext import pretty
from engine.core import get_game
from tests.web.webgames import (
    GAMES,
    bot_game,
    current_markers,
    leaked,
    live_table,
    markers_by_version,
    markers_of,
    play_one,
    public_log,
)

# Games whose seats hold something hidden that the markers can name (Skybridge deals
# no hand; Quadropolis's picks are written as moves only while secret).
HIDDEN = ("ginkgopolis", "neotopia")
MOVES = 25  # a player's moves checked on a live page, per game


@pytest.mark.parametrize("game", GAMES)
async def test_no_private_marker_on_any_page(game: str, service: TableService, store: Store,
                                             client: TestClient[object, object]) -> None:
    table_id = await bot_game(service, game, seats=2, seed=3)
    record = await store.load_table(table_id)
    assert record is not None and record.status == "finished"
    every: set[str] = set()
    for version, markers in await markers_by_version(store, table_id):
        every |= markers
        answer = await client.get(f"/t/{table_id}/replay/{version}")
        assert answer.status == 200
        assert not leaked(await answer.text(), markers), version
    # The table's page has the whole log: what it revealed on the way is no secret.
    final = await current_markers(store, table_id)
    for lang in ("en", "fr"):
        for path in (f"/t/{table_id}", "/", "/u/bot:random"):
            answer = await client.get(f"{path}?lang={lang}")
            assert answer.status == 200
            assert not leaked(await answer.text(), final), path
    if game in HIDDEN:
        # The sweep looked for something: the hands were full of markers.
        assert len(every) >= 2


@pytest.mark.parametrize("game", GAMES)
async def test_no_private_marker_on_a_live_page(game: str, service: TableService,
                                                store: Store,
                                                client: TestClient[object, object]) -> None:
    """The live page (whose turn, the log so far, the board) at each of a player's
    decisions, for her first moves of the game, in both languages."""
    table_id = await live_table(service, game, seed=3)
    for _ in range(MOVES):
        markers = await current_markers(store, table_id)
        for lang in ("en", "fr"):
            html = await (await client.get(f"/t/{table_id}?lang={lang}")).text()
            assert not leaked(html, markers), (await service.info(table_id)).version
        if (await service.info(table_id)).status != "running":
            break
        await play_one(service, table_id)


async def test_the_markers_would_show_a_hand_on_a_page(service: TableService,
                                                       store: Store) -> None:
    """The check can fail: a seat's own situation, as /hand and its image's alt text
    tell it privately, holds that seat's markers."""
    table_id = await bot_game(service, "ginkgopolis", seed=3)
    record = await store.load_table(table_id)
    assert record is not None
    game = get_game("ginkgopolis")
    state = game.setup(3, record.options, record.seed)
    actions = await store.load_actions(table_id)
    for action in actions[:9]:
        game.apply(state, action.seat, game.action_from_json(action.action))
    told = (await public_log(store, table_id))[9]
    markers = markers_of("ginkgopolis", state, 3, told)
    private = game.view(state, 0)
    shown = pretty(private) + images.describe("ginkgopolis", FileSpec("board", 0),
                                              table_id=table_id, view=private)
    assert leaked(shown, markers)
