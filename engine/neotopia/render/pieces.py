"""The pieces, drawn the same everywhere: element discs with their letter, bonus
tokens as lettered squares, player badges (a disc of the player's colour and letter)."""

from __future__ import annotations

from engine.neotopia.render.canvas import Canvas
from engine.neotopia.render.geometry import cell_points
from engine.neotopia.render.palette import (
    INK,
    RGB,
    TOKEN_FILL,
    TOKEN_TEXT,
    WHITE,
    bonus_letter,
    element_fill,
    element_text,
    shade,
)


def element(c: Canvas, cx: float, cy: float, radius: float, colour: str, *,
            ring: RGB | None = None, minimum: int = 8) -> None:
    """A round element token: its colour, a darker rim and its letter (R, G, P, B)."""
    fill = element_fill(colour)
    r = radius
    c.d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=shade(fill, 0.62))
    edge = max(1.0, r * 0.12)
    c.d.ellipse((cx - r + edge, cy - r + edge, cx + r - edge, cy + r - edge), fill=fill)
    if ring is not None:
        w = max(2, round(r * 0.16))
        c.d.ellipse((cx - r - w, cy - r - w, cx + r + w, cy + r + w), outline=ring, width=w)
    size = max(minimum, round(r * 1.15))
    c.text((cx, cy + r * 0.04), colour, size, element_text(colour), anchor="mm", bold=True)


def token(c: Canvas, cx: float, cy: float, half: float, kind: str, *, minimum: int = 8
          ) -> None:
    """A bonus token: a dark rounded square with its yellow letter (S, A, I, N), the
    letter at least ``minimum`` px (the square grows around it)."""
    h = max(half, minimum * 0.68)
    c.d.rounded_rectangle((cx - h, cy - h, cx + h, cy + h), radius=max(2, round(h * 0.3)),
                          fill=TOKEN_FILL, outline=TOKEN_TEXT, width=max(1, round(h * 0.1)))
    c.text((cx, cy + h * 0.03), bonus_letter(kind), max(minimum, round(h * 1.35)), TOKEN_TEXT,
           anchor="mm", bold=True)


def badge(c: Canvas, cx: float, cy: float, diameter: float, colour: str, *,
          on_dark: bool = False, minimum: int = 8) -> None:
    """A player's disc: the player's colour with its letter (at least ``minimum`` px), as
    on the score tracks."""
    r = diameter / 2
    c.d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=element_fill(colour),
                outline=WHITE if on_dark else INK, width=max(1, round(diameter / 14)))
    c.text((cx, cy + r * 0.04), colour, max(minimum, round(diameter * 0.56)),
           element_text(colour),
           anchor="mm", bold=True)


def slot(c: Canvas, cx: float, cy: float, radius: float, fill: RGB) -> None:
    """An empty place for an element: a hollow ring."""
    r = radius
    c.d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=fill, width=max(1, round(r * 0.14)))


def small_hex(c: Canvas, cx: float, cy: float, radius: float, colour: str,
              *, outline: RGB = INK, grid: str = "hex", minimum: int = 8) -> None:
    """A pattern cell on a card: a filled cell of the board's lattice with the colour's
    letter."""
    c.d.polygon(cell_points(grid, cx, cy, radius), fill=element_fill(colour), outline=outline,
                width=max(1, round(radius / 12)))
    c.text((cx, cy + radius * 0.04), colour, max(minimum, round(radius * 0.95)),
           element_text(colour), anchor="mm", bold=True)
