"""Building tiles: the same glyph on the construction site, in a city and in the legend.

A tile shows its kind three ways: the colour, a pattern (bands, dots, crosses ...) and a
capital letter on a plain plate. What is printed on it comes around the letter: the
resources it gives when placed (meeples, barrels), its victory points (a star), the
Mayor's hat, and for a stack, its floors (a number, with the lower floors peeking out).
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.quadropolis.render import icons
from engine.quadropolis.render.canvas import MIN_TEXT, Box, Canvas
from engine.quadropolis.render.model import Tile
from engine.quadropolis.render.palette import (
    EMPTY_SPACE,
    INK,
    KIND_FILL,
    KIND_LETTER,
    KIND_PATTERN,
    KIND_TEXT,
    MUTED,
    REMOVED,
    RGB,
    SQUARE_LETTER,
    TILE_BACK,
    TILE_BACK_PATTERN,
    WHITE,
    shade,
)


def radius(w: int, h: int) -> int:
    return max(3, min(w, h) // 9)


@lru_cache(maxsize=256)
def _face(kind: str, w: int, h: int, grey: bool) -> Image.Image:
    """The patterned, rounded face of one kind of building (cached, never mutated)."""
    fill = REMOVED if grey else KIND_FILL[kind]
    ink = (*(shade(REMOVED, 1.25) if grey else KIND_PATTERN[kind]), 255)
    im = Image.new("RGBA", (w, h), (*fill, 255))
    d = ImageDraw.Draw(im)
    step = max(6, min(w, h) // 7)
    line = max(1, step // 4)
    if kind == "tower_block":
        for y in range(step // 2, h, step):
            d.rectangle((0, y, w, y + line), fill=ink)
    elif kind == "shop":
        r = max(1, line)
        for y in range(step // 2, h, step):
            for x in range(step // 2, w, step):
                d.ellipse((x - r, y - r, x + r, y + r), fill=ink)
    elif kind == "public_service":
        arm = max(2, step // 3)
        for y in range(step // 2, h, step):
            for x in range(step // 2, w, step):
                d.line([(x - arm, y), (x + arm, y)], fill=ink, width=line)
                d.line([(x, y - arm), (x, y + arm)], fill=ink, width=line)
    elif kind == "park":
        for k in range(-h, w, step):
            d.line([(k, h), (k + h, 0)], fill=ink, width=line + 1)
    elif kind == "factory":
        for x in range(step // 2, w, step):
            d.rectangle((x, 0, x + line, h), fill=ink)
    elif kind == "harbor":
        amp = max(2, step // 4)
        for y in range(step // 2, h + step, step):
            pts = [(x, y + amp * math.sin(x * 2 * math.pi / step)) for x in range(0, w + 2, 2)]
            d.line(pts, fill=ink, width=line)
    elif kind == "office":
        for y in range(step // 2, h, step):
            d.rectangle((0, y, w, y + line - 1 if line > 1 else y), fill=ink)
        for x in range(step // 2, w, step):
            d.rectangle((x, 0, x + line - 1 if line > 1 else x, h), fill=ink)
    elif kind == "monument":
        for k in range(-h, w + h, step):
            d.line([(k, 0), (k + h // 2, h // 2), (k, h)], fill=ink, width=line + 1)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, h - 1), radius=radius(w, h), fill=255)
    im.putalpha(mask)
    return im


def paste_face(c: Canvas, kind: str, box: Box, *, grey: bool = False) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    face = _face(kind, w, h, grey)
    c.im.paste(face, (x0, y0), face)
    c.d.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius=radius(w, h), outline=INK,
                          width=max(1, w // 40))


def letter_of(tile: Tile) -> str:
    """The tile's letter, as in the text forms: a square is Q, a park's colour."""
    return SQUARE_LETTER if tile.square else KIND_LETTER[tile.kind]


def letter_plate(c: Canvas, kind: str, cx: float, cy: float, size: int, *,
                 grey: bool = False, letter: str | None = None) -> None:
    """The kind's letter on a plain plate of its colour, so no stripe crosses it."""
    fill = REMOVED if grey else KIND_FILL[kind]
    ink = WHITE if grey else KIND_TEXT[kind]
    r = size * 0.62
    c.d.rounded_rectangle((cx - r, cy - r, cx + r, cy + r), radius=max(2, int(r / 3)),
                          fill=fill)
    c.text((cx, cy), letter or KIND_LETTER[kind], size, ink, anchor="mm", bold=True)


def draw_tile(
    c: Canvas,
    box: Box,
    tile: Tile,
    *,
    floors: int = 1,
    details: bool = True,
    grey: bool = False,
) -> None:
    """A tile (or the top of a stack of ``floors``) filling ``box``.

    ``details`` adds what is printed (production, points, Mayor); a compact city
    leaves them out and shows only kind and floors. ``grey`` draws a building that is
    removed at the end (not activated): the pattern and letter stay, the colour goes.
    """
    x0, y0, x1, y1 = box
    w = x1 - x0
    if floors > 1 and details:
        # The floors below peek out at the top left, one edge per floor (at most 3).
        off = max(2, w // 28)
        for i in range(min(floors - 1, 3), 0, -1):
            d = i * off
            c.d.rounded_rectangle((x0, y0, x1 - 1 - d, y1 - 1 - d), radius=radius(w, w),
                                  fill=shade(REMOVED if grey else KIND_FILL[tile.kind], 0.7),
                                  outline=INK)
        inset = min(floors - 1, 3) * off
        box = (x0 + inset, y0 + inset, x1, y1)
        x0, y0 = box[0], box[1]
        w = x1 - x0
    h = y1 - y0
    paste_face(c, tile.kind, box, grey=grey)
    size = max(MIN_TEXT, int(min(w, h) * (0.34 if details else 0.44)))
    cx, cy = x0 + w / 2, y0 + h / 2
    if details:
        cy = y0 + h * 0.42
    elif floors > 1:
        # A small stack: the letter moves up and left, clear of the floors badge.
        size = max(MIN_TEXT, int(min(w, h) * 0.4))
        cx, cy = x0 + w * 0.38, y0 + h * 0.38
    letter_plate(c, tile.kind, cx, cy, size, grey=grey, letter=letter_of(tile))
    if floors > 1 and details:
        floors_badge(c, x1, y0, floors, max(19, int(min(w, h) * 0.32)))
    elif floors > 1:
        badge = max(19, int(min(w, h) * 0.38))
        floors_badge(c, x1, y1 - badge - 4, floors, badge)
    if not details:
        return
    icon = max(12, int(min(w, h) * 0.22))
    _production(c, (x0 + 3, y1 - icon - 4, x1 - 3, y1 - 3), tile, icon)
    if tile.vp and floors <= 1:
        _points(c, x1 - 4, y0 + 4, tile.vp, icon)
    if tile.mayor:
        icons.mayor(c, x0 + 4 + icon / 2, y0 + 4 + icon / 2, icon)


def floors_badge(c: Canvas, right: int, top: int, floors: int, size: int) -> None:
    """The number of floors, white on black in the top right corner."""
    w = size
    c.d.rounded_rectangle((right - w - 2, top + 2, right - 2, top + w + 2), radius=4, fill=INK,
                          outline=WHITE)
    c.text((right - 2 - w / 2, top + 2 + w / 2), str(floors), max(MIN_TEXT, int(size * 0.8)), WHITE,
           anchor="mm", bold=True)


def _production(c: Canvas, box: Box, tile: Tile, icon: int) -> None:
    """The resources the tile gives when placed: one icon each, on a white strip."""
    items = ["inhabitants"] * tile.inhabitants + ["energy"] * tile.energy
    if not items:
        return
    x0, y0, _x1, y1 = box
    step = icon * 0.82
    width = step * len(items) + 4
    c.d.rounded_rectangle((x0, y0 - 1, x0 + width, y1), radius=3, fill=WHITE, outline=INK)
    x = x0 + 2 + step / 2
    for kind in items:
        icons.resource(c, kind, x, (y0 + y1) / 2, icon * 0.86)
        x += step


def _points(c: Canvas, right: int, top: int, vp: int, icon: int) -> None:
    size = max(MIN_TEXT, int(icon * 0.9))
    c.d.rounded_rectangle((right - icon * 1.9, top, right, top + icon + 2), radius=3, fill=WHITE,
                          outline=INK)
    icons.star(c, right - icon * 1.4, top + 1 + icon / 2, icon * 0.95)
    c.text((right - icon * 0.45, top + 1 + icon / 2), str(vp), size, INK, anchor="mm", bold=True)


@lru_cache(maxsize=32)
def _back(w: int, h: int) -> Image.Image:
    im = Image.new("RGBA", (w, h), (*TILE_BACK, 255))
    d = ImageDraw.Draw(im)
    step = max(6, min(w, h) // 6)
    for k in range(-h, w + h, step):
        d.line([(k, h), (k + h, 0)], fill=(*TILE_BACK_PATTERN, 255), width=2)
        d.line([(k, 0), (k + h, h)], fill=(*TILE_BACK_PATTERN, 255), width=2)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, h - 1), radius=radius(w, h), fill=255)
    im.putalpha(mask)
    return im


def draw_back(c: Canvas, box: Box) -> None:
    """A face-down tile: a cross-hatched back and a question mark, nothing else."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    back = _back(w, h)
    c.im.paste(back, (x0, y0), back)
    c.d.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius=radius(w, h), outline=INK,
                          width=max(1, w // 40))
    r = min(w, h) * 0.24
    cx, cy = x0 + w / 2, y0 + h / 2
    c.d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=TILE_BACK, outline=WHITE, width=2)
    c.text((cx, cy), "?", max(MIN_TEXT, int(min(w, h) * 0.32)), WHITE, anchor="mm", bold=True)


def draw_empty(c: Canvas, box: Box, fill: RGB = EMPTY_SPACE, label: str = "") -> None:
    """An empty space: a flat rounded square, with an optional faint label."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    c.d.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius=radius(w, h), fill=fill,
                          outline=shade(fill, 0.8), width=1)
    if label:
        c.text((x0 + w / 2, y0 + h / 2), label, max(MIN_TEXT, int(min(w, h) * 0.3)), MUTED,
               anchor="mm", bold=True)
