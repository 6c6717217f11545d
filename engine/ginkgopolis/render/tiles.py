"""Building tiles and urbanization tokens, the same on the board, the screen and cards.

A tile shows its code (``R7``: colour letter and number, as on the matching card), a
colour-specific pattern, and optionally its floors, its owner and a construction site.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from engine.fonts import font
from engine.ginkgopolis.render import icons
from engine.ginkgopolis.render.canvas import Box, Canvas, fit_size, text_width
from engine.ginkgopolis.render.palette import (
    BUILDING_FILL,
    BUILDING_PATTERN,
    BUILDING_TEXT,
    INK,
    TOKEN_FILL,
    WHITE,
    player_fill,
    player_letter,
    player_text,
)


def face(color: str, w: int, h: int) -> Image.Image:
    """The patterned, rounded face of a tile or card of one building colour (cached)."""
    return _face(color, w, h)


@lru_cache(maxsize=256)
def _face(color: str, w: int, h: int) -> Image.Image:
    im = Image.new("RGBA", (w, h), (*BUILDING_FILL[color], 255))
    d = ImageDraw.Draw(im)
    ink = (*BUILDING_PATTERN[color], 255)
    step = max(5, min(w, h) // 9)
    line = max(1, step // 4)
    if color == "B":
        # Blue offices: horizontal bands, like rows of windows.
        for y in range(step // 2, h, step):
            d.rectangle((0, y, w, y + line), fill=ink)
    elif color == "R":
        # Red production: diagonal hatching.
        for k in range(-h, w, step):
            d.line([(k, h), (k + h, 0)], fill=ink, width=line + 1)
    else:
        # Yellow daily life: a grid of dots.
        r = max(1, line)
        for y in range(step // 2, h, step):
            for x in range(step // 2, w, step):
                d.ellipse((x - r, y - r, x + r, y + r), fill=ink)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (0, 0, w - 1, h - 1), radius=max(2, min(w, h) // 10), fill=255
    )
    im.putalpha(mask)
    return im


def paste_face(c: Canvas, color: str, box: Box) -> None:
    x0, y0, x1, y1 = box
    f = face(color, x1 - x0, y1 - y0)
    c.im.paste(f, (x0, y0), f)
    c.d.rounded_rectangle(
        (x0, y0, x1 - 1, y1 - 1),
        radius=max(2, min(x1 - x0, y1 - y0) // 10),
        outline=INK,
        width=max(1, (x1 - x0) // 45),
    )


def label_plate(c: Canvas, color: str, center: tuple[float, float], text: str, size: int) -> None:
    """The tile code on a plain plate, so the pattern never crosses the letters."""
    cx, cy = center
    box = c.d.textbbox((cx, cy), text, font=font(size), anchor="mm")
    pad = max(2, size // 6)
    c.d.rounded_rectangle(
        (box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad),
        radius=pad,
        fill=BUILDING_FILL[color],
    )
    c.text((cx, cy), text, size, BUILDING_TEXT[color], anchor="mm", bold=True)


# Words on a tile of the board or final image: 11 px once the 1100 px image is shown
# 550 wide. A tile at least LABELLED_TILE wide has room for its code above a row holding
# the owner's letter and the floors at that size; smaller tiles (the timelapse's frames)
# keep the compact drawing, where the colours and the code carry the information.
MIN_LABEL = 22
LABELLED_TILE = 62


def draw_tile(
    c: Canvas,
    box: Box,
    code: str,
    *,
    height: int | None = None,
    owner_color: str | None = None,
    resources: int = 0,
    site: bool = False,
) -> None:
    """A building tile filling ``box`` (square or not)."""
    x0, y0, x1, y1 = box
    if min(x1 - x0, y1 - y0) >= LABELLED_TILE and (height is not None or owner_color):
        _labelled_tile(c, box, code, height, owner_color, site)
    else:
        _compact_tile(c, box, code, height, owner_color, resources, site)


def label_row(box: Box) -> Box:
    """Where a labelled tile puts the owner's disc and the floors: its bottom row."""
    x0, y0, x1, y1 = box
    s = min(x1 - x0, y1 - y0)
    pad = max(3, s // 22)
    r = max(MIN_LABEL + 4, round(s * 0.36))
    return (x0 + pad, y1 - pad - r, x1 - pad, y1 - pad)


def _labelled_tile(c: Canvas, box: Box, code: str, height: int | None,
                   owner_color: str | None, site: bool) -> None:
    """Code on top; below it the owner's lettered disc (left) and the floors (right).

    A building's cubes always number its floors (an owner puts one a floor), so the
    floors badge says both and the tile needs no count of cubes."""
    x0, y0, x1, y1 = box
    w = x1 - x0
    s = min(w, y1 - y0)
    color = code[0]
    paste_face(c, color, box)
    rx0, ry0, rx1, ry1 = label_row(box)
    r = ry1 - ry0
    size = max(MIN_LABEL, int(r * 0.82))
    code_size = fit_size(code, int(w * 0.84), max(MIN_LABEL, int(s * 0.34)), bold=True,
                         minimum=MIN_LABEL)
    label_plate(c, color, (x0 + w / 2, (y0 + ry0) / 2 + 1), code, code_size)
    if site:
        icons.hazard_corner(c, x0 + max(1, s // 45), y0 + max(1, s // 45), int(s * 0.26))
    if owner_color is not None:
        owner_disc(c, (rx0, ry0, rx0 + r, ry1), owner_color, size)
    if height is not None:
        bw = floors_width(height, r, size)
        height_badge(c, (rx1 - bw, ry0, rx1, ry1), height, size=size)


def owner_disc(c: Canvas, box: Box, color: str, size: int) -> None:
    """The owner's disc in their colour, with their letter."""
    x0, y0, x1, y1 = box
    c.d.ellipse(box, fill=player_fill(color), outline=INK, width=max(2, (y1 - y0) // 12))
    c.text(((x0 + x1) / 2, (y0 + y1) / 2 + 1), player_letter(color), size, player_text(color),
           anchor="mm", bold=True)


def floors_width(height: int, badge_h: int, size: int) -> int:
    """Width of a floors badge ``badge_h`` tall whose digit is ``size`` px."""
    pad = max(2, badge_h // 8)
    return 3 * pad + max(3, badge_h // 4) + text_width(str(height), size, bold=True)


def _compact_tile(c: Canvas, box: Box, code: str, height: int | None,
                  owner_color: str | None, resources: int, site: bool) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    s = min(w, h)
    color = code[0]
    paste_face(c, color, box)
    label_y = y0 + h * (0.44 if owner_color else 0.5)
    size = fit_size(code, int(w * 0.8), max(9, int(s * 0.34)), bold=True, minimum=8)
    label_plate(c, color, (x0 + w / 2, label_y), code, size)
    if height is not None:
        height_badge(
            c,
            (x1 - int(s * 0.36), y0 + int(s * 0.06), x1 - int(s * 0.06), y0 + int(s * 0.3)),
            height,
        )
    if site:
        icons.hazard_corner(c, x0 + max(1, s // 45), y0 + max(1, s // 45), int(s * 0.3))
    if owner_color is not None:
        owner_strip(
            c,
            (x0 + int(s * 0.07), y1 - int(s * 0.28), x1 - int(s * 0.07), y1 - int(s * 0.07)),
            owner_color,
            resources,
        )


def height_badge(c: Canvas, box: Box, height: int, *, size: int | None = None) -> None:
    """Dark badge: a stack of slabs and the number of floors."""
    x0, y0, x1, y1 = box
    c.d.rounded_rectangle(box, radius=max(2, (y1 - y0) // 4), fill=INK)
    bh = y1 - y0
    icon_w = max(3, bh // 4) if size is not None else max(3, bh // 3)
    pad = max(2, bh // 8) if size is not None else max(2, bh // 6)
    nudge = 1 if size is not None else 0  # the large digit sits optically centred
    icons.floors(c, (x0 + pad, y0 + pad + nudge, x0 + pad + icon_w, y1 - pad - nudge), height)
    size = size if size is not None else max(8, int(bh * 0.8))
    c.text(
        ((x0 + pad + icon_w + x1) / 2, (y0 + y1) / 2 + nudge),
        str(height),
        size,
        WHITE,
        anchor="mm",
        bold=True,
    )


def owner_strip(c: Canvas, box: Box, color: str, resources: int) -> None:
    """The owner's lettered disc, then one cube of their colour per resource on the building."""
    x0, y0, x1, y1 = box
    h = y1 - y0
    fill = player_fill(color)
    c.d.rounded_rectangle(
        box, radius=max(2, h // 2), fill=WHITE, outline=INK, width=max(1, h // 12)
    )
    c.d.ellipse((x0, y0, x0 + h, y1), fill=fill, outline=INK, width=max(1, h // 12))
    size = max(8, int(h * 0.7))
    c.text(
        (x0 + h / 2, (y0 + y1) / 2),
        player_letter(color),
        size,
        player_text(color),
        anchor="mm",
        bold=True,
    )
    if resources <= 0:
        return
    cube = h * 0.78
    step = cube * 0.92
    left = x0 + h + h * 0.1 + cube * 0.45
    room = x1 - h * 0.2 - left + cube * 0.45
    if resources * step <= room:
        for i in range(resources):
            icons.cube(c, left + i * step, (y0 + y1) / 2, cube, fill)
    else:
        icons.cube(c, left, (y0 + y1) / 2, cube, fill)
        c.text(
            (left + cube * 0.6, (y0 + y1) / 2), f"x{resources}", size, INK, anchor="lm", bold=True
        )


def draw_token(c: Canvas, box: Box, letter: str, *, minimum: int = 10) -> None:
    """An urbanization token: a lettered disc where the city may grow; its letter is at
    least ``minimum`` px (and the disc grows around it)."""
    x0, y0, x1, y1 = box
    s = min(x1 - x0, y1 - y0)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    size = max(minimum, int(s * 0.34))
    r = max(s * 0.27, size * 0.8)
    c.d.ellipse(
        (cx - r, cy - r, cx + r, cy + r), fill=TOKEN_FILL, outline=INK, width=max(2, int(s / 30))
    )
    r2 = r * 0.8
    c.d.ellipse((cx - r2, cy - r2, cx + r2, cy + r2), outline=(150, 140, 120), width=1)
    c.text((cx, cy), letter, size, INK, anchor="mm", bold=True)
