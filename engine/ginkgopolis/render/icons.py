"""Small pictograms for the three items and the marks on a building.

Items are told apart by shape, not only colour: a resource is a cube, a tile a flat
square with an edge, a success point a star.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.ginkgopolis.render.canvas import Box, Canvas
from engine.ginkgopolis.render.palette import INK, RGB, WHITE

NEUTRAL_CUBE: RGB = (196, 160, 110)
TILE_FACE: RGB = (232, 226, 210)
STAR_FILL: RGB = (250, 190, 20)


def _shade(color: RGB, k: float) -> RGB:
    r, g, b = color
    if k >= 1:
        return (
            int(r + (255 - r) * (k - 1)),
            int(g + (255 - g) * (k - 1)),
            int(b + (255 - b) * (k - 1)),
        )
    return (int(r * k), int(g * k), int(b * k))


def cube(c: Canvas, cx: float, cy: float, size: float, fill: RGB = NEUTRAL_CUBE) -> None:
    """An isometric cube, ``size`` pixels tall, centred on (cx, cy)."""
    h = size / 2
    w = h * 0.87
    top = [(cx, cy - h), (cx + w, cy - h / 2), (cx, cy), (cx - w, cy - h / 2)]
    left = [(cx - w, cy - h / 2), (cx, cy), (cx, cy + h), (cx - w, cy + h / 2)]
    right = [(cx + w, cy - h / 2), (cx, cy), (cx, cy + h), (cx + w, cy + h / 2)]
    c.d.polygon(top, fill=_shade(fill, 1.35))
    c.d.polygon(left, fill=fill)
    c.d.polygon(right, fill=_shade(fill, 0.72))
    outline = [(cx, cy - h), (cx + w, cy - h / 2), (cx + w, cy + h / 2), (cx, cy + h)]
    outline += [(cx - w, cy + h / 2), (cx - w, cy - h / 2)]
    c.d.polygon(outline, outline=INK, width=1 if size < 20 else 2)


def tile(c: Canvas, cx: float, cy: float, size: float) -> None:
    """A building tile seen from above, with its thickness, ``size`` pixels wide."""
    s = size / 2
    edge = max(1.0, size / 8)
    c.d.rectangle((cx - s + edge, cy - s + edge, cx + s, cy + s), fill=_shade(TILE_FACE, 0.6))
    c.d.rectangle((cx - s, cy - s, cx + s - edge, cy + s - edge), fill=TILE_FACE, outline=INK)


def star(c: Canvas, cx: float, cy: float, size: float, fill: RGB = STAR_FILL) -> None:
    """A five-pointed star for success points, ``size`` pixels across."""
    outer = size / 2
    inner = outer * 0.45
    pts = []
    for i in range(10):
        r = outer if i % 2 == 0 else inner
        a = -math.pi / 2 + i * math.pi / 5
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a) + outer * 0.08))
    c.d.polygon(pts, fill=fill, outline=INK)


def item(c: Canvas, kind: str, cx: float, cy: float, size: float) -> None:
    if kind == "res":
        cube(c, cx, cy, size)
    elif kind == "tile":
        tile(c, cx, cy, size * 0.85)
    elif kind == "sp":
        star(c, cx, cy, size * 1.1)
    else:
        raise ValueError(kind)


def floors(c: Canvas, box: Box, n: int, color: RGB = WHITE) -> None:
    """A stack of ``n`` slabs (capped so they stay visible): the floors of a building."""
    x0, y0, x1, y1 = box
    shown = max(1, min(n, 4))
    slab = (y1 - y0) / (shown * 1.6 - 0.6)
    for i in range(shown):
        top = y1 - slab - i * slab * 1.6
        c.d.rectangle((x0, round(top), x1, round(top + slab)), fill=color)


def hazard_corner(c: Canvas, x: int, y: int, size: int) -> None:
    """A black-and-white striped triangle in a top-left corner: a construction site."""
    mark = _hazard(size)
    c.im.paste(mark, (x, y), mark)


@lru_cache(maxsize=32)
def _hazard(size: int) -> Image.Image:
    im = Image.new("RGBA", (size, size), (*WHITE, 255))
    d = ImageDraw.Draw(im)
    step = max(3, size // 4)
    for k in range(0, 2 * size, 2 * step):
        d.polygon([(k, 0), (k + step, 0), (0, k + step), (0, k)], fill=(*INK, 255))
    mask = Image.new("L", (size, size), 0)
    ImageDraw.Draw(mask).polygon([(0, 0), (size - 1, 0), (0, size - 1)], fill=255)
    im.putalpha(mask)
    ImageDraw.Draw(im).line(
        [(size - 1, 0), (0, size - 1)], fill=(*INK, 255), width=max(1, size // 12)
    )
    return im


def person(c: Canvas, cx: float, cy: float, size: float, fill: RGB) -> None:
    """A head and shoulders: marks a Character card."""
    r = size * 0.22
    c.d.ellipse((cx - r, cy - size / 2, cx + r, cy - size / 2 + 2 * r), fill=fill)
    c.d.pieslice(
        (cx - size * 0.42, cy - size * 0.02, cx + size * 0.42, cy + size * 0.8), 180, 360, fill=fill
    )
