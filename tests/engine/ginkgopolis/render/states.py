"""Seeded games for the render tests: states and the public views collected per round."""

from __future__ import annotations

import copy
import io
from functools import lru_cache
from typing import Any

from PIL import Image

from engine.core.registry import get_game
from engine.core.rng import Rng
from engine.ginkgopolis.state import State

GAME = get_game("ginkgopolis")


@lru_cache(maxsize=16)
def _played(
    seats: int, seed: int, stop_round: int | None, options: tuple[tuple[str, Any], ...]
) -> tuple[State, tuple[dict[str, Any], ...]]:
    st = GAME.setup(seats, dict(options), seed)
    rng = Rng.from_seed(seed)
    ai = GAME.ai("greedy")
    views = [GAME.view(st, None)]
    while GAME.outcome(st) is None:
        seat = min(GAME.pending(st).waiting)
        events = GAME.apply(st, seat, ai.choose(st, seat, rng))
        if any(e.kind == "round" for e in events):
            views.append(GAME.view(st, None))
            if stop_round is not None and st.round >= stop_round:
                break
    if GAME.outcome(st) is not None:
        views.append(GAME.view(st, None))
    return st, tuple(views)


def played(
    seats: int, seed: int, stop_round: int | None = None, **options: Any
) -> tuple[State, list[dict[str, Any]]]:
    """A greedy game, to ``stop_round`` or to the end; copies, so tests may change them."""
    st, views = _played(seats, seed, stop_round, tuple(sorted(options.items())))
    return copy.deepcopy(st), copy.deepcopy(list(views))


def early() -> State:
    return played(4, 5, stop_round=3)[0]


def late5() -> State:
    """A finished 5-player game: the largest city the tests draw."""
    return played(5, 7)[0]


def png(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    assert im.format == "PNG"
    return im.convert("RGB")


def near(a: tuple[int, ...], b: tuple[int, ...], tol: int = 12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=False))


def share(
    im: Image.Image,
    box: tuple[int, int, int, int],
    colors: list[tuple[int, int, int]],
    tol: int = 12,
) -> float:
    """Fraction of the pixels in ``box`` close to one of ``colors``."""
    crop = im.crop(box)
    counts = crop.getcolors(maxcolors=crop.width * crop.height) or []
    # An RGB crop gives colour tuples (Pillow types them as tuple | float).
    hit = sum(n for n, c in counts
              if isinstance(c, tuple) and any(near(c, k, tol) for k in colors))
    return hit / (crop.width * crop.height)
