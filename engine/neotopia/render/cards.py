"""Project cards: the id, the points, the type and the pattern drawn as small hexes.

A building card shows a house in the building's colour and "2 / 4": 2 points to the
player of that colour, 4 to everyone else (rulebook L369-374). The pattern keeps the
orientation printed in the data; the rulebook lets it turn (six rotations).
"""

from __future__ import annotations

from engine.neotopia.render import pieces
from engine.neotopia.render.canvas import MIN_TEXT, Box, Canvas, clip, fit_size, text_width
from engine.neotopia.render.geometry import pattern_unit_bounds, unit_xy
from engine.neotopia.render.model import Card
from engine.neotopia.render.palette import (
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    RGB,
    WHITE,
    element_fill,
    element_text,
    shade,
)
from engine.neotopia.render.words import named

MAX_HEX = 24.0  # pattern cell radius on a full-size card


def points_label(card: Card, owner: str | None = None) -> str:
    """What the card is worth: its points, or 2 / 4 for a building card (2 if ``owner``
    is the building's colour, 4 otherwise, when the reader is known)."""
    if card.points is not None:
        return str(card.points)
    if owner is not None and card.building is not None:
        return "2" if owner == card.building else "4"
    return "2/4"


def main_colour(card: Card) -> str:
    if card.building is not None:
        return card.building
    return card.type[:1] if card.type else (card.pattern[0][2] if card.pattern else "?")


def draw_card(c: Canvas, box: Box, card: Card, *, owner: str | None = None,
              outline: RGB = PANEL_EDGE, width: int = 2, grid: str = "hex") -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    head = max(34, h // 6)
    main = main_colour(card)
    c.d.rounded_rectangle(box, radius=10, fill=PANEL, outline=outline, width=width)
    c.d.rounded_rectangle((x0 + width, y0 + width, x1 - width, y0 + head), radius=8,
                          fill=element_fill(main))
    c.d.rectangle((x0 + width, y0 + head - 8, x1 - width, y0 + head), fill=element_fill(main))
    ink = element_text(main)
    size = max(MIN_TEXT, round(head * 0.62))
    c.text((x0 + 8, y0 + width + head / 2), card.id, size, ink, anchor="lm", bold=True)
    pts = points_label(card, owner)
    pw = c.text((x1 - 8, y0 + width + head / 2), pts, round(size * 1.15), ink, anchor="rm",
                bold=True)
    if card.building is not None:
        _house(c, x1 - 14 - pw - head * 0.45, y0 + width + head / 2, head * 0.9, card.building)
    name_size = max(MIN_TEXT, round(head * 0.48))
    lines = name_lines(named(card.type_name, card.type_name_fr), w - 14, name_size)
    for i, line in enumerate(lines):
        c.text((x0 + 7, y0 + head + 4 + i * round(name_size * 1.15)), line, name_size, MUTED,
               anchor="la")
    body = (x0 + 6, y0 + head + 8 + len(lines) * round(name_size * 1.15), x1 - 6, y1 - 6)
    draw_pattern(c, body, card, grid=grid)


def name_lines(name: str, width: int, size: int) -> list[str]:
    """The project's name on one line, or two (French names run longer); a third would be
    cut."""
    lines: list[str] = []
    for word in name.split():
        if lines and text_width(lines[-1] + " " + word, size) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    if len(lines) > 2:
        lines = [lines[0], clip(" ".join(lines[1:]), width, size)]
    return [clip(line, width, size) for line in lines] or [""]


def draw_pattern(c: Canvas, box: Box, card: Card, *, max_radius: float = MAX_HEX,
                 grid: str = "hex") -> None:
    """The pattern's cells as hexagons in their colours, centred in ``box``."""
    if not card.pattern:
        return
    x0, y0, x1, y1 = box
    cells = tuple((q, r) for q, r, _ in card.pattern)
    ux0, uy0, ux1, uy1 = pattern_unit_bounds(cells, grid)
    radius = min(max_radius, (x1 - x0) / (ux1 - ux0), (y1 - y0) / (uy1 - uy0))
    radius = max(6.0, float(int(radius)))
    ox = x0 + ((x1 - x0) - (ux1 - ux0) * radius) / 2 - ux0 * radius
    oy = y0 + ((y1 - y0) - (uy1 - uy0) * radius) / 2 - uy0 * radius
    for q, r, colour in card.pattern:
        ux, uy = unit_xy(grid, q, r)
        pieces.small_hex(c, round(ox + ux * radius, 1), round(oy + uy * radius, 1), radius - 1,
                         colour, grid=grid, minimum=MIN_TEXT if radius >= 20 else 8)


def _house(c: Canvas, cx: float, cy: float, size: float, colour: str) -> None:
    """A small house in the building's colour, outlined so it shows on any header."""
    s = size / 2
    body = (cx - s * 0.8, cy - s * 0.1, cx + s * 0.8, cy + s)
    roof = [(cx - s, cy - s * 0.05), (cx, cy - s), (cx + s, cy - s * 0.05)]
    fill = element_fill(colour)
    c.d.polygon(roof, fill=shade(fill, 1.35), outline=WHITE)
    c.d.rectangle(body, fill=shade(fill, 1.35), outline=WHITE)
    c.text((cx, cy + s * 0.45), colour, max(MIN_TEXT, round(size * 0.48)), INK, anchor="mm",
           bold=True)


def card_back(c: Canvas, box: Box, label: str) -> None:
    """The deck: a stack of backs with how many cards it holds."""
    x0, y0, x1, y1 = box
    for k in (6, 3, 0):
        c.d.rounded_rectangle((x0 + k, y0 + k, x1 - 6 + k, y1 - 6 + k), radius=10,
                              fill=(84, 78, 96), outline=(50, 46, 58), width=2)
    size = fit_size(label, x1 - x0 - 16, 20, bold=True, minimum=9)
    c.text(((x0 + x1) / 2, (y0 + y1) / 2), label, size, WHITE, anchor="mm", bold=True)
