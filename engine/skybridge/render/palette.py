"""Skybridge's colours: the four piece colours (with the letter that repeats each one, for
colour-blind players) and the ink of the images."""

from __future__ import annotations

from typing import Final

from engine.skybridge.render.canvas import Box, Canvas

RGB = tuple[int, int, int]

# Okabe-Ito colours, chosen to stay distinct under the common colour blindnesses.
FILL: Final[dict[str, RGB]] = {
    "red": (213, 94, 0),
    "yellow": (240, 228, 66),
    "green": (0, 158, 115),
    "blue": (0, 114, 178),
}
INK: Final[dict[str, RGB]] = {
    "red": (255, 255, 255),
    "yellow": (0, 0, 0),
    "green": (0, 0, 0),
    "blue": (255, 255, 255),
}
LETTER: Final[dict[str, str]] = {"red": "R", "yellow": "Y", "green": "G", "blue": "B"}
BACKGROUND: Final[RGB] = (255, 255, 255)
CELL: Final[RGB] = (238, 238, 234)
GROUND: Final[RGB] = (120, 110, 100)
TEXT: Final[RGB] = (30, 30, 30)
MUTED: Final[RGB] = (95, 95, 95)
RULE: Final[RGB] = (200, 200, 196)
OUTLINE: Final[RGB] = (40, 40, 40)
PANEL: Final[RGB] = (246, 246, 242)
GOLD: Final[RGB] = (204, 153, 0)
WHITE: Final[RGB] = (255, 255, 255)


def blend(a: RGB, b: RGB, t: float) -> RGB:
    return (
        round(a[0] * (1 - t) + b[0] * t),
        round(a[1] * (1 - t) + b[1] * t),
        round(a[2] * (1 - t) + b[2] * t),
    )


def swatch(c: Canvas, box: Box, colour: str, size: int, *, out: bool = False) -> None:
    """A square of ``colour`` with its letter; crossed out when the colour is out."""
    c.d.rectangle(box, fill=FILL[colour], outline=OUTLINE)
    middle = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    c.text(middle, LETTER[colour], size, INK[colour], anchor="mm", bold=True)
    if out:
        c.d.line((box[0], box[1], box[2], box[3]), fill=TEXT, width=3)
        c.d.line((box[0], box[3], box[2], box[1]), fill=TEXT, width=3)
