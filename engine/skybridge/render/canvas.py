"""Skybridge's drawing kit: the shared canvas (``engine.canvas``), the width of its
images and their smallest text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.canvas import Box, Canvas, clip, encode_png, fit_size, text_width

__all__ = ["MIN_TEXT", "WIDTH", "Box", "Canvas", "clip", "encode_png", "fit_size",
           "text_width"]

# Discord previews an image 550 px wide: at 760 px, 16 px text reads 11.6 px there, and
# the image stays crisp when opened.
WIDTH: Final = 760
MIN_TEXT: Final = 16
MARGIN: Final = 14


def seat_name(seat: int, names: Sequence[str] | None, fallback: str) -> str:
    """The seat's name as typed (runs of blanks made one, blank: "?"), else ``fallback``."""
    if names is not None and seat < len(names):
        return " ".join(names[seat].split()) or "?"
    return fallback
