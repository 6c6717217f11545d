"""The Skybridge images read at Discord's preview width, name every player in full when
there is room, and the final image gives every player's whole breakdown.

A text ``size`` pixels tall on an image ``width`` pixels wide reads ``size * 550 / width``
pixels in the preview (Discord shows an image 550 px wide): every word and number must
read 11 px or more, in English and French, with names in any script, for 2, 3 and 4
players, mid-game and at the end. The texts are recorded as the shared canvas draws them
(``tests/engine/render_words.recorded``), the same check as the other games'.
"""

from __future__ import annotations

import copy
import io
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from functools import partial
from typing import Any

import pytest
from PIL import Image, ImageChops
from skyhelp import GAME

from engine.canvas import Canvas
from engine.core.play import playout
from engine.core.rng import Rng
from engine.skybridge.render import render_board, render_final
from engine.skybridge.state import SkybridgeState
from tests.engine.render_words import recorded

PREVIEW = 550
MIN_PX = 11
NAMES = ["Zoé", "Jürgen", "王", "李小龙"]
LONG = "Maximiliane von Hohenzollern"  # long, but a player's line has room for it


def played(seats: int, seed: int, stop: int | None = None) -> SkybridgeState:
    """The state after ``stop`` moves of greedy AIs (None: the whole game)."""
    state = GAME.setup(seats, {}, seed)
    rng = Rng.from_seed(seed)
    ai = GAME.ai("greedy")
    done = 0

    def choose(st: Any, seat: int) -> Any:
        nonlocal done
        done += 1
        if stop is not None and done > stop:
            raise StopIteration
        return ai.choose(st, seat, rng)

    with suppress(StopIteration):  # the wanted moment is reached
        playout(GAME, state, choose)
    return state


def png(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    assert im.format == "PNG"
    return im.convert("RGB")


@contextmanager
def sized() -> Iterator[list[tuple[int, str]]]:
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


def images(seats: int, locale: str, names: list[str]) -> list[tuple[str, Callable[[], bytes]]]:
    mid = GAME.view(played(seats, 7, 4 * seats), None)
    end = played(seats, 7)
    last = GAME.view(end, None)
    outcome = GAME.outcome(end)
    assert outcome is not None
    return [
        ("mid board", partial(render_board, mid, names=names, locale=locale)),
        ("estimate", partial(render_final, mid, names=names, locale=locale)),
        ("last board", partial(render_board, last, names=names, locale=locale)),
        ("final", partial(render_final, last, outcome, names=names, locale=locale)),
    ]


@pytest.mark.parametrize("locale", ["en", "fr"])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_no_text_smaller_than_11_px_at_the_preview_width(seats: int, locale: str) -> None:
    names = NAMES[:seats]
    for what, make in images(seats, locale, names):
        with sized() as sizes:
            width = png(make()).width
        assert len(sizes) > 30, what
        small = sorted({(s, t) for s, t in sizes if s * PREVIEW / width < MIN_PX})
        assert not small, (what, small)
        # Nothing is cut short: these names and labels all have room.
        assert not [t for _s, t in sizes if t.endswith("…")], what
        drawn = " ".join(t for _s, t in sizes)
        assert all(n in drawn for n in names), (what, names)


@pytest.mark.parametrize("seats", [2, 4])
def test_a_long_name_is_whole_where_it_fits_and_cut_only_where_it_does_not(seats: int) -> None:
    state = played(seats, 7, 4 * seats)
    view = GAME.view(state, None)
    end = played(seats, 7)
    outcome = GAME.outcome(end)
    assert outcome is not None
    for make in (partial(render_board, view), partial(render_final, GAME.view(end, None),
                                                      outcome)):
        with recorded() as texts:
            make(names=[LONG] * seats)
        assert texts.count(LONG) >= seats, texts
        with recorded() as texts:
            short = png(make(names=["Ann"] * seats))
        with recorded() as texts:
            long = png(make(names=["W" * 80] * seats))
        cut = [t for t in texts if t.startswith("WWW")]
        assert len(cut) >= seats and all(t.endswith("…") for t in cut)
        # The name gives way before the scores: the right-hand column is untouched.
        assert short.size == long.size
        right = (long.width - 120, 0, long.width, long.height)
        assert ImageChops.difference(short.crop(right), long.crop(right)).getbbox() is None


@pytest.mark.parametrize("locale", ["en", "fr"])
@pytest.mark.parametrize("seats", [2, 4])
def test_the_final_image_draws_every_players_whole_breakdown(seats: int, locale: str) -> None:
    end = played(seats, 7)
    outcome = GAME.outcome(end)
    assert outcome is not None
    result = outcome.to_json()
    with recorded() as texts:
        render_final(GAME.view(end, None), result, names=NAMES[:seats], locale=locale)
    lines = [ln for s in result["standings"] for ln in s["lines"]]
    assert len(lines) >= seats  # the seeded games score a few lines each
    for s in result["standings"]:
        assert NAMES[s["seat"]] in texts
        assert f"{s['total']} points" in texts and f"#{s['rank']}" in texts
    # One "+N" per line of the breakdown, and each line's words with its foundations.
    points = sorted(t for t in texts if t.startswith("+") and t[1:].isdigit())
    assert points == sorted(f"+{ln['points']}" for ln in lines)
    roof, bridge = ("roof on", "bridge") if locale == "en" else ("toit sur", "pont")
    for ln in lines:
        d = ln["detail"]
        if ln["key"] == "roof":
            want = f"{roof} {d['foundation']}"
        else:
            a, b = d["foundations"] if ln["key"] == "bridge_double" else (d["from"], d["to"])
            want = f"{bridge} {a}-{b}"
        assert any(t.startswith(want) for t in texts), (want, texts)


def test_the_same_view_gives_the_same_bytes_twice() -> None:
    for seats in (2, 4):
        for _what, make in images(seats, "en", NAMES[:seats]):
            assert make() == make()
        view = GAME.view(played(seats, 7, 9), None)
        again = copy.deepcopy(view)
        assert render_board(view, names=NAMES) == render_board(again, names=NAMES)
        assert render_final(view, names=NAMES) == render_final(again, names=NAMES)
