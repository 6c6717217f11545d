"""The timelapse GIF: one frame per public view, the same bytes for the same views."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.quadropolis.render import render_timelapse, timelapse_layout
from engine.quadropolis.render.read import read_board
from tests.engine.quadropolis.render.states import GAME, played

DISCORD_LIMIT = 10 * 1024 * 1024


@pytest.mark.parametrize(("mode", "seats"), [("classic", 4), ("expert", 3)])
def test_one_frame_per_view_and_deterministic(mode: str, seats: int) -> None:
    _, views = played(seats, 7, mode=mode)
    assert len(views) >= (5 if mode == "classic" else 6)
    data = render_timelapse(views)
    assert data == render_timelapse([dict(v) for v in views])
    assert len(data) < DISCORD_LIMIT / 10
    im = Image.open(io.BytesIO(data))
    assert im.format == "GIF" and im.n_frames == len(views)
    assert im.size == timelapse_layout(read_board(views[-1]))[0]
    # The frames differ: the cities grow.
    im.seek(0)
    first = im.convert("RGB").tobytes()
    im.seek(im.n_frames - 1)
    assert im.convert("RGB").tobytes() != first


def test_seat_views_and_no_views_are_refused() -> None:
    st, views = played(2, 7, stop_round=2)
    with pytest.raises(ValueError, match="public view"):
        render_timelapse([*views, GAME.view(st, 0)])
    with pytest.raises(ValueError):
        render_timelapse([])
