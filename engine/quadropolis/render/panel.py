"""A player's panel: colour, name, resources, architects still in hand, and the city."""

from __future__ import annotations

from engine.quadropolis.render import icons
from engine.quadropolis.render.canvas import MIN_TEXT, Box, Canvas, clip
from engine.quadropolis.render.city import CityLayout, city_layout, draw_city
from engine.quadropolis.render.model import Allocation, Board, Player
from engine.quadropolis.render.palette import (
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    player_fill,
)
from engine.quadropolis.render.words import tr

HEAD_H = 36
COUNTS_H = 36
PAD = 10


def panel_size(board: Board, pitch: int) -> tuple[int, int]:
    lay = city_layout(0, 0, pitch, board.city_rows, board.city_cols)
    return lay.width + 2 * PAD, HEAD_H + COUNTS_H + lay.height + PAD


def panel_city(board: Board, box: Box, pitch: int) -> CityLayout:
    """Where the city of a panel at ``box`` is drawn (for drawing and tests)."""
    x0, y0, x1, _ = box
    lay = city_layout(0, 0, pitch, board.city_rows, board.city_cols)
    left = x0 + (x1 - x0 - lay.width) // 2
    return city_layout(left, y0 + HEAD_H + COUNTS_H, pitch, board.city_rows, board.city_cols)


def name_line(c: Canvas, board: Board, p: Player, x: int, cy: int, width: int, size: int) -> int:
    """Badge, name and the Mayor's hat for the first player; returns the end x."""
    icons.badge(c, x + size * 0.7, cy, size * 1.4, p.color)
    x += int(size * 1.6)
    mayor_w = size + 6 if p.mayor else 0
    name = clip(p.name, width - int(size * 1.6) - mayor_w, size, bold=True)
    x += c.text((x, cy), name, size, INK, anchor="lm", bold=True) + 6
    if p.mayor:
        icons.mayor(c, x + size / 2, cy, size * 1.1)
        x += size + 6
    return x


def draw_panel(
    c: Canvas,
    board: Board,
    p: Player,
    box: Box,
    pitch: int,
    *,
    current: bool = False,
    allocation: Allocation | None = None,
) -> CityLayout:
    x0, y0, x1, y1 = box
    c.d.rounded_rectangle(box, radius=10, fill=PANEL, outline=HIGHLIGHT if current else PANEL_EDGE,
                          width=4 if current else 2)
    c.d.rounded_rectangle((x0, y0, x0 + 9, y1), radius=4, fill=player_fill(p.color), outline=INK)
    name_line(c, board, p, x0 + PAD + 6, y0 + HEAD_H // 2 + 3, x1 - x0 - 2 * PAD - 6, 18)
    counts(c, p, x0 + PAD + 8, y0 + HEAD_H + COUNTS_H // 2, show_architects=not board.expert
           and not board.over)
    lay = panel_city(board, box, pitch)
    draw_city(c, board, p, lay, allocation=allocation)
    return lay


def counts(c: Canvas, p: Player, x: int, cy: int, *, show_architects: bool, size: int = 17) -> int:
    """Inhabitants and energy as icons with their counts, then the architects left."""
    icons.meeple(c, x + 9, cy, 20)
    x += 21 + c.text((x + 21, cy), str(p.inhabitants), size, INK, anchor="lm", bold=True) + 12
    icons.barrel(c, x + 8, cy, 20)
    x += 20 + c.text((x + 20, cy), str(p.energy), size, INK, anchor="lm", bold=True) + 16
    if show_architects:
        if p.architects:
            for n in p.architects:
                icons.architect(c, x + 12, cy, 30, n, p.color, letter=False)
                x += 27
        else:
            x += c.text((x, cy), tr("all architects played"), MIN_TEXT, MUTED, anchor="lm")
    return x
