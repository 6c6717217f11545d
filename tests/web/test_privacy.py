"""No page shows a seat's private information: for every game, at every version, no
private marker of any seat (a card or tile in a hand, a secret pick; see
``webgames.markers_of``) is on the replay step of that version, nor on the table's page
at its end, in English or French."""

from __future__ import annotations

import json

import pytest
from aiohttp.test_utils import TestClient

from bot import images
from bot.service import FileSpec, TableService
from bot.store import Store
from bot.viewtext import pretty
from engine.core import get_game
from tests.web.webgames import GAMES, bot_game, leaked, markers_of, public_log, states

# Games whose seats hold something hidden that the markers can name (Skybridge deals
# no hand; Quadropolis's picks are written as moves only while secret).
HIDDEN = ("ginkgopolis", "neotopia")


@pytest.mark.parametrize("game", GAMES)
async def test_no_private_marker_on_any_page(game: str, service: TableService, store: Store,
                                             client: TestClient[object, object]) -> None:
    table_id = await bot_game(service, game, seats=2, seed=3)
    record = await store.load_table(table_id)
    assert record is not None and record.status == "finished"
    seats = len(await store.load_seats(table_id))
    every: set[str] = set()
    history = await states(store, table_id)
    told = await public_log(store, table_id)
    for version, state in history:
        # What the log told by this version (a card drawn from the open offer) is public.
        markers = markers_of(game, state, seats, told[version - 1])
        every |= markers
        answer = await client.get(f"/t/{table_id}/replay/{version}")
        assert answer.status == 200
        assert not leaked(await answer.text(), markers), version
    # The table's page has the whole log: what it revealed on the way is no secret.
    final = markers_of(game, history[-1][1], seats,
                       told[-1] + json.dumps(record.outcome, ensure_ascii=False))
    for lang in ("en", "fr"):
        for path in (f"/t/{table_id}", "/", "/u/bot:random"):
            answer = await client.get(f"{path}?lang={lang}")
            assert answer.status == 200
            assert not leaked(await answer.text(), final), path
    if game in HIDDEN:
        # The sweep looked for something: the hands were full of markers.
        assert len(every) >= seats


async def test_the_markers_would_show_a_hand_on_a_page(service: TableService,
                                                       store: Store) -> None:
    """The check can fail: a seat's own situation, as /hand and its image's alt text
    tell it privately, holds that seat's markers."""
    table_id = await bot_game(service, "ginkgopolis", seed=3)
    seats = len(await store.load_seats(table_id))
    game = get_game("ginkgopolis")
    version, state = (await states(store, table_id))[10]
    told = (await public_log(store, table_id))[version - 1]
    markers = markers_of("ginkgopolis", state, seats, told)
    private = game.view(state, 0)
    told = pretty(private) + images.describe("ginkgopolis", FileSpec("board", 0),
                                             table_id=table_id, view=private)
    assert leaked(told, markers), version
