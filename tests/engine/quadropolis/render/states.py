"""Seeded Quadropolis games for the render tests: states and public views per round."""

from __future__ import annotations

import copy
import io
from functools import lru_cache
from typing import Any

from PIL import Image

from engine.core.registry import get_game
from engine.core.rng import Rng

GAME = get_game("quadropolis")
NAMES = ["Éloïse", "Βασίλης", "Дмитрий", "Zoë"]


@lru_cache(maxsize=16)
def _played(
    seats: int, seed: int, stop_round: int | None, stop_turn: int | None,
    options: tuple[tuple[str, Any], ...],
) -> tuple[Any, tuple[dict[str, Any], ...]]:
    st = GAME.setup(seats, dict(options), seed)
    rng = Rng.from_seed(seed)
    ai = GAME.ai("greedy")
    views = [GAME.view(st, None)]
    while GAME.outcome(st) is None:
        view = GAME.view(st, None)
        if stop_round is not None and view["round"] >= stop_round and (
            stop_turn is None or view["turn"] >= stop_turn
        ):
            break
        seat = min(GAME.pending(st).waiting)
        GAME.apply(st, seat, ai.choose(st, seat, rng))
        after = GAME.view(st, None)
        if after["round"] != views[-1]["round"]:
            views.append(after)
    final = GAME.view(st, None)
    if final != views[-1]:
        views.append(final)
    return st, tuple(views)


def played(
    seats: int, seed: int, *, stop_round: int | None = None, stop_turn: int | None = None,
    **options: Any,
) -> tuple[Any, list[dict[str, Any]]]:
    """A greedy game to ``stop_round`` (and turn) or to the end; copies, so tests may
    change them."""
    st, views = _played(seats, seed, stop_round, stop_turn, tuple(sorted(options.items())))
    return copy.deepcopy(st), copy.deepcopy(list(views))


def png(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    assert im.format == "PNG"
    return im.convert("RGB")


def near(a: tuple[int, ...], b: tuple[int, ...], tol: int = 12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=False))


def share(
    im: Image.Image, box: tuple[int, int, int, int], colors: list[tuple[int, int, int]],
    tol: int = 12,
) -> float:
    """Fraction of the pixels in ``box`` close to one of ``colors``."""
    crop = im.crop(box)
    counts = crop.getcolors(maxcolors=crop.width * crop.height) or []
    # An RGB crop gives colour tuples (Pillow types them as tuple | float).
    hit = sum(n for n, c in counts
              if isinstance(c, tuple) and any(near(c, k, tol) for k in colors))
    return hit / (crop.width * crop.height)
