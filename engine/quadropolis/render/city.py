"""A player's city: the board's grid with its districts, and the buildings on it.

Districts are tinted as on the printed boards (with a darker line between two
districts). The classic board numbers its rows and columns in the margins; the expert
board numbers each space (shown on the empty ones) and its districts (in the margins,
above and below their columns). On the final image a building that is not activated
is greyed and crossed out, and the inhabitants and energy placed on each building are
drawn on it.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.quadropolis.render import icons
from engine.quadropolis.render.canvas import MIN_TEXT, Box, Canvas, text_width
from engine.quadropolis.render.model import Allocation, Board, Placed, Player
from engine.quadropolis.render.palette import (
    DISTRICT_TINT,
    INK,
    MUTED,
    WHITE,
    shade,
)
from engine.quadropolis.render.tiles import draw_empty, draw_tile


@dataclass(frozen=True)
class CityLayout:
    """Space (row, col) of the city maps to a pitch-sized square at (left, top)."""

    left: int
    top: int
    pitch: int
    rows: int
    cols: int
    margin: int  # room for the labels on each side

    @property
    def width(self) -> int:
        return self.cols * self.pitch + 2 * self.margin

    @property
    def height(self) -> int:
        if self.cols == 5:
            return self.rows * self.pitch + 3 * self.margin + self.margin // 2
        return self.rows * self.pitch + 2 * self.margin

    def cell_box(self, row: int, col: int) -> Box:
        x = self.left + col * self.pitch
        y = self.top + row * self.pitch
        return (x, y, x + self.pitch, y + self.pitch)

    def space_box(self, row: int, col: int) -> Box:
        x0, y0, x1, y1 = self.cell_box(row, col)
        g = max(3, self.pitch // 12)
        return (x0 + g, y0 + g, x1 - g, y1 - g)


def city_layout(x: int, y: int, pitch: int, rows: int, cols: int) -> CityLayout:
    """A city whose label margin starts at (x, y). The expert board has two tiers of
    labels above (districts, then columns) and its lower districts below."""
    margin = max(20, pitch // 3)
    top = 2 * margin if cols == 5 else margin
    return CityLayout(x + margin, y + top, pitch, rows, cols, margin)


def draw_city(
    c: Canvas,
    board: Board,
    player: Player,
    lay: CityLayout,
    *,
    details: bool = False,
    allocation: Allocation | None = None,
) -> None:
    _ground(c, board, lay)
    label = max(MIN_TEXT, int(lay.margin * 0.7))
    if board.expert:
        _expert_labels(c, board, lay, label)
    for i in range(lay.cols):
        x0, y0, x1, _ = lay.cell_box(0, i)
        c.text(((x0 + x1) / 2, y0 - lay.margin / 2), str(i + 1), label, MUTED, anchor="mm",
               bold=True)
    for i in range(lay.rows):
        x0, y0, _, y1 = lay.cell_box(i, 0)
        c.text((x0 - lay.margin / 2, (y0 + y1) / 2), str(i + 1), label, MUTED, anchor="mm",
               bold=True)
    for r, row in enumerate(player.city):
        for col, stack in enumerate(row):
            box = lay.space_box(r, col)
            if stack is None:
                number = str(board.numbers[r][col]) if board.expert and board.numbers else ""
                tint = DISTRICT_TINT.get(board.districts[r][col], (220, 220, 220))
                draw_empty(c, box, fill=shade(tint, 1.25), label=number)
                continue
            placed = None if allocation is None else allocation.spaces.get((r, col))
            grey = placed is not None and not placed.active
            draw_tile(c, box, stack.top, floors=stack.floors, details=details, grey=grey)
            if placed is not None:
                _placed(c, box, placed)


def _ground(c: Canvas, board: Board, lay: CityLayout) -> None:
    """District tints under the spaces, and a dark line where two districts meet."""
    for r in range(lay.rows):
        for col in range(lay.cols):
            tint = DISTRICT_TINT.get(board.districts[r][col], (220, 220, 220))
            c.d.rectangle(lay.cell_box(r, col), fill=tint)
    edge = max(2, lay.pitch // 24)
    for r in range(lay.rows):
        for col in range(lay.cols):
            x0, y0, x1, y1 = lay.cell_box(r, col)
            d = board.districts[r][col]
            if col + 1 < lay.cols and board.districts[r][col + 1] != d:
                c.d.rectangle((x1 - edge // 2, y0, x1 + (edge - edge // 2), y1), fill=INK)
            if r + 1 < lay.rows and board.districts[r + 1][col] != d:
                c.d.rectangle((x0, y1 - edge // 2, x1, y1 + (edge - edge // 2)), fill=INK)
    x0, y0, _, _ = lay.cell_box(0, 0)
    _, _, x1, y1 = lay.cell_box(lay.rows - 1, lay.cols - 1)
    c.d.rectangle((x0, y0, x1, y1), outline=INK, width=edge)


def _expert_labels(c: Canvas, board: Board, lay: CityLayout, size: int) -> None:
    """Each district's number in the margin above (or below) its columns."""
    for edge_row, above in ((0, True), (lay.rows - 1, False)):
        seen: dict[int, list[int]] = {}
        for col in range(lay.cols):
            seen.setdefault(board.districts[edge_row][col], []).append(col)
        for district, cols in seen.items():
            x0 = lay.cell_box(edge_row, cols[0])[0]
            x1 = lay.cell_box(edge_row, cols[-1])[2]
            _, y0, _, y1 = lay.cell_box(edge_row, cols[0])
            y = y0 - lay.margin * 1.5 if above else y1 + lay.margin * 0.62
            text = f"D{district}"
            tint = DISTRICT_TINT.get(district, (220, 220, 220))
            w = c.text(((x0 + x1) / 2, y), text, size, INK, anchor="mm", bold=True)
            c.d.rounded_rectangle(((x0 + x1) / 2 - w / 2 - 5, y - size * 0.62,
                                   (x0 + x1) / 2 + w / 2 + 5, y + size * 0.62), radius=5,
                                  fill=tint, outline=INK)
            c.text(((x0 + x1) / 2, y), text, size, INK, anchor="mm", bold=True)


def _placed(c: Canvas, box: Box, placed: Placed) -> None:
    x0, y0, x1, y1 = box
    w = x1 - x0
    if not placed.active:
        k = w * 0.08
        c.d.line([(x0 + k, y0 + k), (x1 - k, y1 - k)], fill=INK, width=max(3, w // 16))
        c.d.line([(x0 + k, y1 - k), (x1 - k, y0 + k)], fill=INK, width=max(3, w // 16))
        return
    counts = [(k, n) for k, n in (("inhabitants", placed.inhabitants),
                                  ("energy", placed.energy)) if n]
    if not counts:
        return
    icon = max(14, int(w * 0.24))
    step = icon * 0.8
    total = sum(n for _, n in counts)
    cy = y1 - 3 - (icon + 3) / 2
    if step * total + 6 <= w - 6:
        # Few enough to draw one icon each.
        c.d.rounded_rectangle((x0 + 3, y1 - icon - 6, x0 + 9 + step * total, y1 - 3), radius=4,
                              fill=WHITE, outline=INK)
        x = x0 + 6 + step / 2
        for kind, n in counts:
            for _ in range(n):
                icons.resource(c, kind, x, cy, icon * 0.9)
                x += step
        return
    # Otherwise one icon per kind with its count, so that every kind stays visible; the
    # icons shrink (never the digits) until the strip fits the tile.
    size = MIN_TEXT
    while True:
        widths = [step + text_width(f"{n}", size, bold=True) + 2 for _, n in counts]
        # (The strip may reach a few pixels into the gap beside the tile.)
        if sum(widths) + 6 <= w + 2 or icon <= 12:
            break
        icon -= 1
        step = icon * 0.8
    c.d.rounded_rectangle((x0 + 3, y1 - icon - 6, x0 + 9 + sum(widths), y1 - 3), radius=4,
                          fill=WHITE, outline=INK)
    x = x0 + 6
    for (kind, n), wk in zip(counts, widths, strict=True):
        icons.resource(c, kind, x + step / 2, cy, icon * 0.9)
        c.text((x + step, cy), str(n), size, INK, anchor="lm", bold=True)
        x += wk
