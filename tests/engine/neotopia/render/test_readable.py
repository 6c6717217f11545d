"""Every text on the Neotopia images stays readable in Discord's 550 px wide preview.

A text ``size`` pixels tall on an image ``width`` pixels wide reads ``size * 550 / width``
pixels once Discord shows it 550 wide; every word and number must read 11 px or more,
in English and in French, with names in any script, on mid and late 4-player boards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

import pytest

from engine.neotopia.render import render_board, render_final, render_private
from engine.neotopia.render.board import WIDTH
from engine.neotopia.render.canvas import MIN_TEXT, Canvas
from tests.engine.neotopia.render.states import GAME, final4, mid4, played, png

PREVIEW = 550
MIN_PX = 11
NAMES = ["Zoé", "Jürgen", "王", "李小龙"]


def _images(locale: str) -> list[tuple[str, Callable[[], bytes]]]:
    st = final4()
    outcome = GAME.outcome(st)
    assert outcome is not None
    _late, views = played(4, 7)
    out: list[tuple[str, Callable[[], bytes]]] = []
    for when, state in (("mid", mid4()), ("late", played(4, 7, stop_round=len(views) - 2)[0])):
        view = GAME.view(state, None)
        seat = int(view["turn"]["seat"])
        out += [
            (f"{when} board", partial(render_board, view, NAMES, locale=locale)),
            (f"{when} private", partial(render_private, GAME.view(state, seat), NAMES,
                                        locale=locale)),
        ]
    out.append(("final", partial(render_final, GAME.view(st, None), outcome.to_json(), NAMES,
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
def test_no_text_smaller_than_11_px_at_the_preview_width(locale: str) -> None:
    for name, make in _images(locale):
        with recorded() as sizes:
            width = png(make()).width
        assert len(sizes) > 40, name
        small = sorted({(s, t) for s, t in sizes if s * PREVIEW / width < MIN_PX})
        assert not small, (name, small)
        # Nothing is cut short (the names here are short: only a long name may be).
        assert not [t for _s, t in sizes if t.endswith("…")], name
        drawn = " ".join(t for _s, t in sizes)
        named = [n for n in NAMES if n in drawn]
        assert named if "private" in name else len(named) == 4, (name, named)
        # Cell numbers are written on the city (what a typed move names).
        if "private" not in name:
            assert sum(t.isdigit() and len(t) == 2 for _s, t in sizes) > 20, name
