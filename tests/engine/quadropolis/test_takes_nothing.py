"""A take aimed at an empty or face-down site space is legal (Q3) and takes nothing
(issue 24, item 8): the engine notes it (``action_note``), the seat's view lists it, and
the options, the view and the echo of the move say so in English and French."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service.values import Option
from bot.text import Renderer
from engine.quadropolis import GAME
from engine.quadropolis.actions import Take
from engine.quadropolis.rules import slot_target
from engine.quadropolis.state import State
from tests.engine.quadropolis.helpers import fresh, on_site, tile_id

ROOT = Path(__file__).resolve().parents[3] / "templates"
WORDS = {"en": "takes nothing", "fr": "ne prend rien"}


def site_with_gaps() -> tuple[State, int, Take, Take, Take]:
    """A fresh table whose seat to play may take a tile, an empty space, a face-down one."""
    state = fresh(4)
    seat = state.to_play
    assert seat is not None
    tile, empty, hidden = Take(1, "L1"), Take(1, "L2"), Take(1, "L3")
    on_site(state, *slot_target(tile.slot, 1), tile_id("shop"))
    on_site(state, *slot_target(empty.slot, 1), None)
    on_site(state, *slot_target(hidden.slot, 1), tile_id("park"), face_up=False)
    return state, seat, tile, empty, hidden


def test_the_engine_notes_a_take_of_nothing_and_keeps_it_legal() -> None:
    state, seat, tile, empty, hidden = site_with_gaps()
    legal = GAME.legal_actions(state, seat)
    assert {tile, empty, hidden} <= set(legal)
    assert GAME.action_note(state, seat, tile) is None
    assert GAME.action_note(state, seat, empty) == "takes_nothing"
    assert GAME.action_note(state, seat, hidden) == "takes_nothing"
    me = GAME.view(state, seat)["me"]
    assert empty.text() in me["takes_nothing"] and hidden.text() in me["takes_nothing"]
    assert tile.text() not in me["takes_nothing"]
    assert "takes_nothing" not in GAME.view(state, None).get("me", {})


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_options_view_and_echo_say_it_takes_nothing(locale: str) -> None:
    state, seat, tile, empty, _ = site_with_gaps()
    renderer = Renderer(ROOT)
    options = [Option(a.text(), dict(a.to_json()),
                      GAME.action_note(state, seat, a)).to_json()
               for a in GAME.legal_actions(state, seat)]
    ctx = {"table_id": 1, "name": "Ann", "names": ["Ann", "Bob", "Cy", "Di"], "seat": seat,
           "decision": "take", "deadline": None, "options": options,
           "view": GAME.view(state, seat)}
    text = renderer.render_template("your_turn", ctx, locale=locale, game="quadropolis")
    assert f"`{empty.text()}` ({WORDS[locale]})" in text
    assert f"`{tile.text()}`," in text  # a take of a tile has no note
    view = renderer.render_template("view", ctx, locale=locale, game="quadropolis")
    assert f"{empty.text()} ({WORDS[locale]})" in view
    assert f"{tile.text()} ({WORDS[locale]})" not in view
    acted = renderer.render_template(
        "acted", {"actor_name": "Ann", "source": "player", "text": empty.text(),
                  "secret": False, "level": None, "note": "takes_nothing"},
        locale=locale, game="quadropolis")
    assert acted.endswith(f"`{empty.text()}` ({WORDS[locale]}).")
    chosen = renderer.render_template("discord/chosen", {"text": empty.text(),
                                                         "note": "takes_nothing"},
                                      locale=locale, game="quadropolis")
    assert f"`{empty.text()}` ({WORDS[locale]})" in chosen


def test_a_game_without_notes_renders_as_before() -> None:
    renderer = Renderer(ROOT)
    text = renderer.render_template("common/options", {"options": [
        {"text": "R7+B12", "json": {}}, {"text": "R8", "json": {}, "note": None}]},
        locale="en", game="ginkgopolis")
    assert text == "Options (2): `R7+B12`, `R8`"
