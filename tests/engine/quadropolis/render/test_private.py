"""A seat's image: its city large, where a taken tile may go, and still no secret."""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any

import pytest
from PIL import ImageChops

from engine.core.rng import Rng
from engine.quadropolis.render import private_layout, render_private
from engine.quadropolis.render.palette import HIGHLIGHT, KIND_FILL, KIND_PATTERN
from engine.quadropolis.render.read import read_board
from engine.quadropolis.tiles import TILES
from tests.engine.quadropolis.render.states import GAME, NAMES, played, png, share


@lru_cache(maxsize=4)
def _placing(seats: int, seed: int, mode: str) -> Any:
    """A state where the seat to play holds a taken tile with several spaces to choose."""
    st = GAME.setup(seats, {"mode": mode}, seed)
    rng = Rng.from_seed(seed)
    ai = GAME.ai("greedy")
    while GAME.outcome(st) is None:
        view = GAME.view(st, None)
        taken = view["taken"]
        if view["phase"] == "place" and view["round"] >= 2 and taken is not None and len(
            [o for o in taken["options"] if o != "discard"]
        ) >= 3:
            return st
        seat = min(GAME.pending(st).waiting)
        GAME.apply(st, seat, ai.choose(st, seat, rng))
    raise AssertionError("no placement with a choice came up")


def placing(seats: int = 4, seed: int = 5, mode: str = "classic") -> Any:
    return copy.deepcopy(_placing(seats, seed, mode))


def _cell(text: str) -> tuple[int, int]:
    row, _, col = text[1:].partition("c")
    return int(row) - 1, int(col) - 1


@pytest.mark.parametrize("mode", ["classic", "expert"])
def test_the_spaces_a_taken_tile_may_go_are_outlined_and_no_others(mode: str) -> None:
    st = placing(mode=mode)
    seat = GAME.pending(st).waiting
    seat_no = min(seat)
    view = GAME.view(st, seat_no)
    im = png(render_private(view, names=NAMES))
    lay = private_layout(read_board(view))
    options = {_cell(o) for o in view["taken"]["options"] if o != "discard"}
    board = read_board(view)
    for r in range(board.city_rows):
        for c in range(board.city_cols):
            x0, y0, x1, _y1 = lay.city.cell_box(r, c)
            edge = (x0 + 2, y0 + 2, x1 - 2, y0 + 6)  # the top edge of the cell
            outlined = share(im, edge, [HIGHLIGHT], tol=10) > 0.5
            assert outlined == ((r, c) in options), (r, c, sorted(options))


def test_the_seats_city_is_drawn_large_in_its_kinds() -> None:
    st, _ = played(4, 3, stop_round=3)
    view = GAME.view(st, 1)
    im = png(render_private(view))
    lay = private_layout(read_board(view))
    assert lay.city.pitch >= 100
    drawn = 0
    for r, row in enumerate(view["players"][1]["city"]):
        for c, cell in enumerate(row):
            if cell is not None:
                kind = cell["top"]["type"]
                box = lay.city.space_box(r, c)
                assert share(im, box, [KIND_FILL[kind], KIND_PATTERN[kind]], tol=8) > 0.3
                drawn += 1
    assert drawn >= 3


def test_same_view_same_bytes_and_no_face_down_tile_shows() -> None:
    st, _ = played(2, 3, stop_round=2, stop_turn=2)
    view = GAME.view(st, 0)
    assert view["face_down"] > 0
    assert render_private(view) == render_private(GAME.view(copy.deepcopy(st), 0))
    r, c = next((r, c) for r in range(5) for c in range(5)
                if st.site[r][c] is not None and not st.face_up[r][c])
    redealt = copy.deepcopy(st)
    hidden = TILES[st.site[r][c]].type
    redealt.site[r][c] = next(t.id for t in TILES.values() if t.type != hidden)
    assert render_private(GAME.view(st, 0)) == render_private(GAME.view(redealt, 0))


def test_the_seats_name_is_drawn() -> None:
    st, _ = played(4, 3, stop_round=2)
    view = GAME.view(st, 2)
    other = list(NAMES)
    other[2] = "Ωmega Ёж"
    a = png(render_private(view, names=NAMES))
    b = png(render_private(view, names=other))
    assert ImageChops.difference(a, b).getbbox() is not None


def test_the_public_view_is_refused() -> None:
    st, _ = played(4, 3, stop_round=2)
    with pytest.raises(ValueError, match="seat's view"):
        render_private(GAME.view(st, None))
