"""The timelapse GIF: one frame per view, one frame size, the city of each moment."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.neotopia.render import render_timelapse, timelapse_layout
from engine.neotopia.render.hexboard import ELEMENT_SCALE
from engine.neotopia.render.palette import ELEMENT_FILL
from engine.neotopia.render.timelapse import FRAME_MS, LAST_MS
from tests.engine.neotopia.render.states import GAME, played, share


def _frames(data: bytes) -> list[tuple[Image.Image, int]]:
    im = Image.open(io.BytesIO(data))
    assert im.format == "GIF"
    out = []
    for i in range(getattr(im, "n_frames", 1)):
        im.seek(i)
        out.append((im.convert("RGB"), int(im.info.get("duration", 0))))
    return out


def test_one_frame_per_view_same_size_and_small() -> None:
    _, views = played(4, 7)
    data = render_timelapse(views)
    assert data == render_timelapse(views)
    assert len(data) < 1024 * 1024
    frames = _frames(data)
    size, _ = timelapse_layout(views)
    assert len(frames) == len(views)
    assert {f.size for f, _ in frames} == {size}
    assert [d for _, d in frames] == [FRAME_MS] * (len(views) - 1) + [LAST_MS]


def test_sixty_frames_stay_within_discord_limits() -> None:
    # The bot draws one frame per move, thinned to 60, for views without a top "round".
    _, views = played(4, 7)
    many = (views * 6)[:60]
    assert len(render_timelapse(many)) < 10 * 1024 * 1024


def test_each_frame_shows_that_moments_elements() -> None:
    _, views = played(4, 5)
    frames = _frames(render_timelapse(views))
    _, city = timelapse_layout(views)
    for (frame, _), view in zip(frames, views, strict=True):
        for cell in view["board"]["cells"]:
            cx, cy = city.centre(cell["q"], cell["r"])
            r = city.radius * ELEMENT_SCALE * 0.6
            box = (round(cx - r), round(cy - r), round(cx + r), round(cy + r))
            if cell["element"]:
                assert share(frame, box, [ELEMENT_FILL[cell["element"]]], tol=20) > 0.3
            else:
                assert share(frame, box, list(ELEMENT_FILL.values()), tol=20) < 0.05


def test_refuses_empty_and_private_input() -> None:
    with pytest.raises(ValueError):
        render_timelapse([])
    st, _ = played(3, 2, stop_round=2)
    with pytest.raises(ValueError, match="public view"):
        render_timelapse([GAME.view(st, 0)])


def test_hidden_information_never_changes_a_frame() -> None:
    from tests.engine.neotopia.render.states import mid4

    st = mid4()
    other = GAME.scramble_hidden(st, None, 3)
    assert st.deck != other.deck
    assert render_timelapse([GAME.view(st, None)]) == render_timelapse([GAME.view(other, None)])
