"""Every text on the posted images stays readable in Discord's 550 px wide preview."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.quadropolis.render import render_board, render_final, render_private
from engine.quadropolis.render.canvas import Canvas
from tests.engine.quadropolis.render.states import GAME, NAMES, played, png

PREVIEW = 550
MIN_PX = 10.5  # about 11 px once Discord scales the image down to the preview


def _images(mode: str) -> list[tuple[str, Callable[[], bytes]]]:
    st, views = played(4, 7, mode=mode, squares=True)
    mid, _ = played(4, 7, stop_round=3, stop_turn=2, mode=mode, squares=True)
    outcome = GAME.outcome(st)
    assert outcome is not None
    seat = GAME.view(mid, None)["to_play"]
    return [
        ("board", lambda: render_board(GAME.view(mid, None), names=NAMES)),
        ("private", lambda: render_private(GAME.view(mid, seat), names=NAMES)),
        ("final", lambda: render_final(views[-1], outcome.to_json(), names=NAMES)),
    ]


@pytest.mark.parametrize("mode", ["classic", "expert"])
def test_no_text_smaller_than_11_px_at_the_preview_width(
    mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    sizes: list[tuple[int, str]] = []
    original = Canvas.text

    def spy(self: Canvas, xy: Any, text: str, size: int, *args: Any, **kwargs: Any) -> int:
        if text.strip():
            sizes.append((size, text))
        return original(self, xy, text, size, *args, **kwargs)

    monkeypatch.setattr(Canvas, "text", spy)
    for name, make in _images(mode):
        sizes.clear()
        width = png(make()).width
        assert sizes, name
        smallest, text = min(sizes)
        assert smallest * PREVIEW / width >= MIN_PX, (name, smallest, text)
