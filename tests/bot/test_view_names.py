"""Players are named in the text a player reads: every game's text view and its game-over
message use the seats' names, never "Seat 2" (the engines' standings carry "Seat N";
the service puts the names in)."""

from __future__ import annotations

import re

import pytest
from conftest import HOST, PLAYERS, RenderingNotifier

from bot.clock import FakeClock
from bot.service import TableService, TableSettings
from bot.store import SqliteStore
from bot.text import Renderer
from engine.core import get_game

GAMES = ("ginkgopolis", "quadropolis", "neotopia", "skybridge")
NAMES = ["Zoé", "Jürgen", "王"]
SEAT_WORDS = re.compile(r"\b(seat|place|siège) \d", re.I)


@pytest.mark.parametrize("locale", ["en", "fr"])
@pytest.mark.parametrize("game", GAMES)
def test_the_text_view_names_every_player(game: str, locale: str) -> None:
    engine = get_game(game)
    state = engine.setup(3, {}, 5)
    for seat in (None, 0):
        view = engine.view(state, seat)
        text = Renderer().render_template("view", {"view": view, "names": NAMES},
                                          locale=locale, game=game)
        for name in NAMES:
            assert name in text, (name, text)
        assert SEAT_WORDS.search(text) is None, text


@pytest.mark.parametrize("game", ["quadropolis", "skybridge"])
async def test_the_game_over_message_names_the_players(game: str, store: SqliteStore,
                                                        clock: FakeClock) -> None:
    """Quadropolis and Skybridge standings say "Seat N": the players read their names."""
    notifier = RenderingNotifier()
    service = TableService(store, notifier, clock=clock)
    info = await service.create(HOST, game, seed=2,
                                settings=TableSettings(seat_order="join", locale="en"))
    await service.join(info.id, PLAYERS[1])
    await service.start(info.id, HOST)
    for _ in range(500):
        current = await service.info(info.id)
        if current.status != "running":
            break
        seat = sorted(current.waiting)[0]
        prompt = await service.prompt(info.id, PLAYERS[seat])
        await service.act(info.id, PLAYERS[seat], prompt.options[0].json,
                          version=prompt.version)
    assert (await service.info(info.id)).status == "finished"
    over = [n for n in notifier.to_table(info.id) if n.template == "game_over"]
    assert len(over) == 1
    outcome = (await service.info(info.id)).outcome
    assert outcome is not None
    # What the engine says: its standings know no names.
    assert any(str(s["name"]).startswith("Seat ") for s in outcome["standings"])
    for locale in ("en", "fr"):
        text = Renderer().render_template(over[0].template, over[0].context, locale=locale,
                                          game=game)
        assert HOST.name in text and PLAYERS[1].name in text, text
        assert SEAT_WORDS.search(text) is None, text


@pytest.mark.parametrize(("locale", "words"), [
    ("en", "tokens: Government Subsidy, New Building Permits."),
    ("fr", "jetons : Subvention gouvernementale, Nouveaux permis de construire."),
])
def test_the_neotopia_view_says_bonus_tokens_in_words(locale: str, words: str) -> None:
    from tests.engine.neotopia.helpers import position

    st = position(3, tokens={1: ["subsidy", "building_permits"]})
    view = get_game("neotopia").view(st, 1)
    text = Renderer().render_template("view", {"view": view, "names": NAMES},
                                      locale=locale, game="neotopia")
    assert words in text and "building permits" not in text, text


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_the_ginkgopolis_view_ties_the_grid_s_owner_numbers_to_names(locale: str) -> None:
    """The grid marks an owner by seat number: each player's line says which is theirs,
    and the phase is in words."""
    engine = get_game("ginkgopolis")
    state = engine.setup(3, {}, 2)
    text = Renderer().render_template("view", {"view": engine.view(state, 0), "names": NAMES},
                                      locale=locale, game="ginkgopolis")
    lines = text.splitlines()
    for seat, name in enumerate(NAMES):
        assert any(line.startswith(f"{seat + 1}. {name} (") for line in lines), text
    assert "(draft)" not in text
