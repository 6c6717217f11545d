"""Seeded Neotopia games for the render tests: states, and the public views collected
at the start of every round (and at the end)."""

from __future__ import annotations

import copy
import io
from functools import lru_cache
from typing import Any

from PIL import Image

from engine.core.registry import get_game
from engine.core.rng import Rng
from engine.neotopia.state import NeotopiaState

GAME = get_game("neotopia")
NAMES = ["Alice", "Bob", "Chloé", "Dmitri Ivanovich"]


@lru_cache(maxsize=16)
def _played(seats: int, seed: int, stop_round: int | None
            ) -> tuple[NeotopiaState, tuple[dict[str, Any], ...]]:
    st = GAME.setup(seats, {}, seed)
    rng = Rng.from_seed(seed)
    ai = GAME.ai("greedy")
    views = [GAME.view(st, None)]
    round_ = st.round
    while GAME.outcome(st) is None:
        seat = min(GAME.pending(st).waiting)
        GAME.apply(st, seat, ai.choose(st, seat, rng))
        if st.round != round_ and GAME.outcome(st) is None:
            round_ = st.round
            views.append(GAME.view(st, None))
            if stop_round is not None and st.round >= stop_round:
                break
    if GAME.outcome(st) is not None:
        views.append(GAME.view(st, None))
    return st, tuple(views)


def played(seats: int, seed: int, stop_round: int | None = None
           ) -> tuple[NeotopiaState, list[dict[str, Any]]]:
    """A greedy game, to ``stop_round`` or to the end; copies, so tests may change them."""
    st, views = _played(seats, seed, stop_round)
    return st.copy(), copy.deepcopy(list(views))


def mid4() -> NeotopiaState:
    return played(4, 5, stop_round=6)[0]


def final4() -> NeotopiaState:
    return played(4, 7)[0]


def png(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    assert im.format == "PNG"
    return im.convert("RGB")


def near(a: tuple[int, ...], b: tuple[int, ...], tol: int = 12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=False))


def share(im: Image.Image, box: tuple[int, int, int, int],
          colors: list[tuple[int, int, int]], tol: int = 12) -> float:
    """Fraction of the pixels in ``box`` close to one of ``colors``."""
    crop = im.crop(box)
    counts: list[tuple[int, tuple[int, int, int]]] = crop.getcolors(  # type: ignore[assignment]
        maxcolors=crop.width * crop.height) or []
    hit = sum(n for n, c in counts if any(near(c, k, tol) for k in colors))
    return hit / (crop.width * crop.height)
