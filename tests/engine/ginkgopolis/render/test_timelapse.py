"""The timelapse GIF: one frame per view, one frame size, the city of each round."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.ginkgopolis.render import render_timelapse, timelapse_layout
from engine.ginkgopolis.render.palette import BUILDING_FILL, BUILDING_PATTERN
from engine.ginkgopolis.render.timelapse import FRAME_MS, LAST_MS
from tests.engine.ginkgopolis.render.states import GAME, played, share


def _frames(data: bytes) -> list[tuple[Image.Image, int]]:
    im = Image.open(io.BytesIO(data))
    assert im.format == "GIF"
    out = []
    for i in range(im.n_frames):
        im.seek(i)
        out.append((im.convert("RGB"), int(im.info.get("duration", 0))))
    return out


def test_one_frame_per_round_same_size_and_small() -> None:
    _, views = played(5, 7)
    data = render_timelapse(views)
    assert data == render_timelapse(views)
    assert len(data) < 1024 * 1024
    frames = _frames(data)
    size, _ = timelapse_layout(views)
    assert len(frames) == len(views)
    assert {f.size for f, _ in frames} == {size}
    assert [d for _, d in frames] == [FRAME_MS] * (len(views) - 1) + [LAST_MS]


def test_each_frame_shows_that_rounds_buildings() -> None:
    _, views = played(4, 5)
    frames = _frames(render_timelapse(views))
    _, city = timelapse_layout(views)
    for (frame, _), view in zip(frames, views, strict=True):
        built = {(b["x"], b["y"]) for b in view["board"]}
        for b in view["board"]:
            box = city.tile_box(b["x"], b["y"])
            assert (
                share(frame, box, [BUILDING_FILL[b["color"]], BUILDING_PATTERN[b["color"]]], tol=20)
                > 0.3
            )
        # A cell built only later is still empty in this frame.
        later = {(b["x"], b["y"]) for b in views[-1]["board"]} - built
        for cell in later:
            box = city.tile_box(*cell)
            assert share(frame, box, [BUILDING_FILL[k] for k in "BRY"], tol=20) < 0.05


def test_refuses_empty_and_private_input() -> None:
    with pytest.raises(ValueError):
        render_timelapse([])
    st, _ = played(3, 2, stop_round=2)
    with pytest.raises(ValueError, match="public view"):
        render_timelapse([GAME.view(st, 0)])


def test_the_last_frame_shows_the_final_scores_given_the_outcome() -> None:
    from engine.ginkgopolis.render.timelapse import BAND_H

    state, views = played(3, 4)
    outcome = GAME.outcome(state)
    assert outcome is not None and views[-1]["phase"] == "over"
    plain = _frames(render_timelapse(views))
    scored = _frames(render_timelapse(views, outcome=outcome.to_json()))
    width = plain[-1][0].width
    band = (0, 0, width, BAND_H)
    # Earlier frames are the same (but for the shared palette, taken from the last
    # frame); the last one's band changes (scores, not tokens)...
    from PIL import ImageChops, ImageStat

    for (a, _), (b, _) in zip(plain[:-1], scored[:-1], strict=True):
        assert max(ImageStat.Stat(ImageChops.difference(a, b)).mean) < 1
    assert plain[-1][0].crop(band).tobytes() != scored[-1][0].crop(band).tobytes()
    # ... unless the totals equal the tokens, which they do not in this game.
    tokens = {p["seat"]: p["sp"] for p in views[-1]["players"] if not p.get("hal")}
    totals = {s.seat: s.total for s in outcome.standings if s.seat is not None}
    assert tokens != totals
