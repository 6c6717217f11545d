"""Views: everything is public except face-down tiles and the coming rounds; a seat's view
adds only its legal moves."""

from __future__ import annotations

import json

import pytest

from engine.core.rng import Rng
from engine.quadropolis import GAME
from engine.quadropolis.actions import Take
from tests.engine.quadropolis.helpers import fresh, on_site, tile_id


@pytest.mark.parametrize("mode", ["classic", "expert"])
def test_a_seat_sees_the_public_view_plus_its_moves(mode: str) -> None:
    state = GAME.setup(3, {"mode": mode}, 51)
    rng = Rng.from_seed(51)
    ai = GAME.ai("random")
    for _ in range(30):
        public = GAME.view(state, None)
        assert "me" not in public
        for seat in range(3):
            mine = GAME.view(state, seat)
            legal = mine.pop("me")["legal"]
            assert legal == [a.text() for a in GAME.legal_actions(state, seat)]
            assert {**mine, "seat": None} == public
        to_play = state.to_play
        assert to_play is not None
        GAME.apply(state, to_play, ai.choose(state, to_play, rng))


def test_face_down_spaces_show_no_face_and_face_up_ones_show_it() -> None:
    state = fresh(2, seed=52)
    hidden = tile_id("tower_block", face_up_with=(4,))
    shown = tile_id("park")
    on_site(state, 1, 1, hidden, face_up=False)
    on_site(state, 1, 2, shown)
    view = GAME.view(state, 0)
    assert view["site"][0][0] == {"face_down": True}
    assert view["site"][0][1]["tile"]["id"] == shown
    assert hidden not in json.dumps(view)
    assert view["face_down"] == sum(1 for row in state.face_up for up in row if not up)


def test_the_view_follows_a_turn() -> None:
    state = fresh(4, seed=53)
    seat = state.to_play
    assert seat is not None
    factory = tile_id("factory")
    on_site(state, 3, 2, factory)
    GAME.apply(state, seat, Take(3, "T2"))  # the top of column 2, 3rd space: row 3
    view = GAME.view(state, None)
    assert view["phase"] == "place" and view["taken"]["tile"]["id"] == factory
    assert view["site"][2][1] is None
    assert view["urbanist"] == [3, 2]
    assert view["slots"][-1]["target"] == [3, 2]
    assert view["last"]["text"] == "A3@T2"
    assert view["players"][seat]["architects"] == [1, 2, 4]
