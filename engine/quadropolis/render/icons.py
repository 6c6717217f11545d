"""Small pictograms: inhabitants, energy, points, the Mayor, the Urbanist, architects.

Each resource is told apart by shape, not only colour: an inhabitant is a meeple, an
energy a barrel, a point a star.
"""

from __future__ import annotations

import math

from engine.quadropolis.render.canvas import MIN_TEXT, Canvas
from engine.quadropolis.render.palette import (
    ENERGY,
    INHABITANT,
    INK,
    RGB,
    STAR,
    URBANIST,
    WHITE,
    player_fill,
    player_letter,
    readable_on,
    shade,
)


def meeple(c: Canvas, cx: float, cy: float, size: float, fill: RGB = INHABITANT) -> None:
    """An inhabitant: head, arms and legs, ``size`` pixels tall."""
    s = size / 2
    head = s * 0.34
    c.d.ellipse((cx - head, cy - s, cx + head, cy - s + 2 * head), fill=fill, outline=INK)
    body = [
        (cx - s * 0.85, cy - s * 0.2),
        (cx + s * 0.85, cy - s * 0.2),
        (cx + s * 0.85, cy + s * 0.12),
        (cx + s * 0.42, cy + s * 0.12),
        (cx + s * 0.62, cy + s),
        (cx + s * 0.12, cy + s),
        (cx, cy + s * 0.55),
        (cx - s * 0.12, cy + s),
        (cx - s * 0.62, cy + s),
        (cx - s * 0.42, cy + s * 0.12),
        (cx - s * 0.85, cy + s * 0.12),
    ]
    c.d.polygon(body, fill=fill, outline=INK)


def barrel(c: Canvas, cx: float, cy: float, size: float, fill: RGB = ENERGY) -> None:
    """An energy barrel: a cylinder with two hoops, ``size`` pixels tall."""
    h = size / 2
    w = size * 0.36
    e = size * 0.14
    c.d.rectangle((cx - w, cy - h + e, cx + w, cy + h - e), fill=fill)
    c.d.ellipse((cx - w, cy + h - 2 * e, cx + w, cy + h), fill=fill, outline=INK)
    c.d.rectangle((cx - w + 1, cy - h + e, cx + w - 1, cy + h - e), fill=fill)
    c.d.line([(cx - w, cy - h + e), (cx - w, cy + h - e)], fill=INK)
    c.d.line([(cx + w, cy - h + e), (cx + w, cy + h - e)], fill=INK)
    for k in (-0.25, 0.3):
        y = cy + k * size
        c.d.line([(cx - w, y), (cx + w, y)], fill=shade(fill, 0.6), width=max(1, int(size / 12)))
    c.d.ellipse((cx - w, cy - h, cx + w, cy - h + 2 * e), fill=shade(fill, 1.4), outline=INK)


def star(c: Canvas, cx: float, cy: float, size: float, fill: RGB = STAR) -> None:
    """A five-pointed star for victory points, ``size`` pixels across."""
    outer = size / 2
    inner = outer * 0.45
    pts = []
    for i in range(10):
        r = outer if i % 2 == 0 else inner
        a = -math.pi / 2 + i * math.pi / 5
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a) + outer * 0.08))
    c.d.polygon(pts, fill=fill, outline=INK)


def resource(c: Canvas, kind: str, cx: float, cy: float, size: float) -> None:
    if kind == "inhabitants":
        meeple(c, cx, cy, size)
    elif kind == "energy":
        barrel(c, cx, cy, size)
    elif kind == "vp":
        star(c, cx, cy, size * 1.1)
    else:
        raise ValueError(kind)


def mayor(c: Canvas, cx: float, cy: float, size: float) -> None:
    """The Mayor: a top hat on a gold disc."""
    r = size / 2
    c.d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=STAR, outline=INK,
                width=max(1, int(size / 14)))
    brim = r * 0.75
    c.d.rectangle((cx - brim, cy + r * 0.22, cx + brim, cy + r * 0.4), fill=INK)
    c.d.rectangle((cx - r * 0.42, cy - r * 0.55, cx + r * 0.42, cy + r * 0.25), fill=INK)


def urbanist(c: Canvas, cx: float, cy: float, size: float) -> None:
    """The Urbanist: a black pawn with a white U (shape and letter, never colour alone)."""
    r = size / 2
    c.d.ellipse(
        (cx - r * 0.42, cy - r, cx + r * 0.42, cy - r * 0.16), fill=URBANIST, outline=WHITE
    )
    c.d.polygon(
        [(cx - r * 0.7, cy + r), (cx - r * 0.3, cy - r * 0.3), (cx + r * 0.3, cy - r * 0.3),
         (cx + r * 0.7, cy + r)],
        fill=URBANIST,
        outline=WHITE,
    )
    c.text((cx, cy + r * 0.42), "U", max(MIN_TEXT, int(size * 0.42)), WHITE, anchor="mm", bold=True)


def badge(
    c: Canvas, cx: float, cy: float, size: float, color: str, *, on_dark: bool = False
) -> None:
    """A player's disc: their colour with their letter (colour-blind safe)."""
    r = size / 2
    if on_dark:
        c.d.ellipse((cx - r - 2, cy - r - 2, cx + r + 2, cy + r + 2), fill=WHITE)
    fill = player_fill(color)
    c.d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=INK,
                width=max(1, int(size / 14)))
    c.text((cx, cy), player_letter(color), max(MIN_TEXT, int(size * 0.6)), readable_on(fill),
           anchor="mm", bold=True)


def architect(
    c: Canvas, cx: float, cy: float, size: float, number: int, color: str | None, *,
    letter: bool = True,
) -> None:
    """An architect: a rounded block with its number, in the colour of its player with
    that player's letter below the number (``letter=False`` where the owner is obvious,
    as in the player's own panel), or grey for the expert mode's shared pool."""
    h = size / 2
    w = size * 0.44
    fill = player_fill(color) if color is not None else (150, 150, 150)
    ink = readable_on(fill)
    c.d.rounded_rectangle((cx - w, cy - h, cx + w, cy + h), radius=max(3, int(size / 6)),
                          fill=fill, outline=INK, width=max(1, int(size / 16)))
    if color is None or not letter:
        c.text((cx, cy), str(number), max(MIN_TEXT, int(size * 0.6)), ink, anchor="mm", bold=True)
        return
    c.text((cx, cy - h * 0.34), str(number), max(MIN_TEXT, int(size * 0.48)), ink, anchor="mm",
           bold=True)
    c.text((cx, cy + h * 0.5), player_letter(color), max(MIN_TEXT, int(size * 0.38)), ink,
           anchor="mm", bold=True)
