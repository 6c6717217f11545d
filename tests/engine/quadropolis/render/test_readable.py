"""Every text on the posted images stays readable in Discord's 550 px wide preview.

A text ``size`` pixels tall on an image ``width`` pixels wide reads ``size * 550 / width``
pixels in the preview; every word and number must read 11 px or more, in English and in
French, with players' names in any script, early and late in a 4-player game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

import pytest

from engine.quadropolis.render import render_board, render_final, render_private
from engine.quadropolis.render.board import WIDTH
from engine.quadropolis.render.canvas import MIN_TEXT, Canvas
from tests.engine.quadropolis.render.states import GAME, played, png

PREVIEW = 550
MIN_PX = 11  # once Discord scales the image down to the preview
NAMES = ["Zoé", "Jürgen", "王", "李小龙"]


def _images(mode: str, locale: str) -> list[tuple[str, Callable[[], bytes]]]:
    st, views = played(4, 7, mode=mode, squares=True)
    mid, _ = played(4, 7, stop_round=3, stop_turn=2, mode=mode, squares=True)
    last = 4 if mode == "classic" else 5  # rounds in the game
    late, _ = played(4, 7, stop_round=last, stop_turn=3, mode=mode, squares=True)
    outcome = GAME.outcome(st)
    assert outcome is not None
    out: list[tuple[str, Callable[[], bytes]]] = []
    for when, state in (("mid", mid), ("late", late)):
        seat = GAME.view(state, None)["to_play"]
        out += [
            (f"{when} board", partial(render_board, GAME.view(state, None), names=NAMES,
                                      locale=locale)),
            (f"{when} private", partial(render_private, GAME.view(state, seat), names=NAMES,
                                        locale=locale)),
        ]
    out.append(("final", partial(render_final, views[-1], outcome.to_json(), names=NAMES,
                                 locale=locale)))
    return out


@contextmanager
def recorded() -> Iterator[list[tuple[int, str]]]:
    """Every text drawn meanwhile: (size, text)."""
    sizes: list[tuple[int, str]] = []
    original = Canvas.text

    def spy(self: Canvas, xy: Any, text: str, size: int, *args: Any, **kwargs: Any) -> int:
        if text.strip():
            sizes.append((size, text))
        return original(self, xy, text, size, *args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Canvas, "text", spy)
        yield sizes


def test_the_smallest_text_reads_11_px_at_the_images_width() -> None:
    # From the constants: a smaller MIN_TEXT or a wider image fails here.
    assert MIN_TEXT * PREVIEW / WIDTH >= MIN_PX


@pytest.mark.parametrize("locale", ["en", "fr"])
@pytest.mark.parametrize("mode", ["classic", "expert"])
def test_no_text_smaller_than_11_px_at_the_preview_width(mode: str, locale: str) -> None:
    for name, make in _images(mode, locale):
        with recorded() as sizes:
            width = png(make()).width
        assert len(sizes) > 30, name
        small = sorted({(s, t) for s, t in sizes if s * PREVIEW / width < MIN_PX})
        assert not small, (name, small)
        # Nothing is cut short (the names here are short: only a long name may be).
        assert not [t for _s, t in sizes if t.endswith("…")], name
        drawn = " ".join(t for _s, t in sizes)
        # The players are named, in every script (the private image names its seat).
        named = [n for n in NAMES if n in drawn]
        assert named if "private" in name else len(named) == 4, (name, named)
