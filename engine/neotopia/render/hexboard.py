"""The city on its hex grid: three regions, the manufactures and the production stack.

Shared by the board, the final image and the timelapse. Empty cells show their number
(the ``11`` of ``D11``) so that a move can be typed from the picture; outer cells carry
the rulebook's half-circle; the centre of each region a ring.
"""

from __future__ import annotations

import math

from engine.neotopia.render import pieces
from engine.neotopia.render.canvas import MIN_TEXT, Box, Canvas, text_width
from engine.neotopia.render.geometry import Cell, HexLayout, directions, hex_points, unit_xy
from engine.neotopia.render.groups import largest_groups
from engine.neotopia.render.model import Board
from engine.neotopia.render.palette import (
    HIGHLIGHT,
    INK,
    MANUFACTURE_FILL,
    MUTED,
    OUTER_TINT,
    REGION_EDGE,
    REGION_LETTER,
    REGION_NAME,
    REGION_TINT,
    SLOT_EMPTY,
    WHITE,
    element_fill,
    shade,
)
from engine.neotopia.render.words import tr

ELEMENT_SCALE = 0.74  # disc radius / cell radius
STACK_SCALE = 1.9  # the production hexagon is larger than a cell: it holds the stack


def draw_city(c: Canvas, board: Board, lay: HexLayout, *, numbers: bool = True,
              labels: bool = True, groups: bool = False) -> None:
    """The city; with ``groups``, each player's largest group per region is washed in
    its colour and joined by bars under its discs (what group points count at the end)."""
    for cell in board.geometry.cells:
        _ground(c, lay, cell)
    if groups:
        _group_bars(c, board, lay)
    for cell in board.geometry.cells:
        _cell(c, board, lay, cell, numbers=numbers)
    for m in board.geometry.manufactures:
        _manufacture(c, lay, m.id, m.slots, board.manufactures.get(m.id, ()), labels=labels)
    _production(c, board, lay, labels=labels)
    if labels:
        for region in board.geometry.regions:
            _region_label(c, board, lay, region)


def text_min(radius: float) -> int:
    """Labels on a city drawn at full size (cells of 24 px and more: the board and the
    final image) read 11 px at 550 wide; a small city (the timelapse) scales them."""
    return MIN_TEXT if radius >= 24 else max(8, round(radius * 0.42))


def _ground(c: Canvas, lay: HexLayout, cell: Cell) -> None:
    cx, cy = lay.centre(cell.q, cell.r)
    rad = lay.radius
    tint = OUTER_TINT if cell.kind == "outer" else REGION_TINT
    c.d.polygon(lay.polygon(cell.q, cell.r, 1), fill=tint.get(cell.region, (220, 220, 220)),
                outline=REGION_EDGE.get(cell.region, MUTED), width=max(1, round(rad / 16)))
    edge = REGION_EDGE.get(cell.region, MUTED)
    if cell.kind == "outer":
        # The rulebook's half-circle: the mark of a space only New Building Permits reach.
        r = rad * 0.62
        c.d.arc((cx - r, cy - r, cx + r, cy + r), 0, 180, fill=shade(edge, 0.7),
                width=max(2, round(rad / 10)))
    if cell.kind == "centre":
        r = rad * 0.84
        c.d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=shade(edge, 0.6),
                    width=max(2, round(rad / 9)))


def _group_bars(c: Canvas, board: Board, lay: HexLayout) -> None:
    by_id = board.geometry.by_id()
    grid = board.geometry.grid
    best = largest_groups(board.geometry.cells, board.elements,
                          [p.colour for p in board.players], grid)
    steps = directions(grid)
    forward = steps[: len(steps) // 2]  # each link once
    for (_region, colour), members in sorted(best.items()):
        inside = set(members)
        fill = shade(element_fill(colour), 0.55)
        width = max(3, round(lay.radius * 0.42))
        for cid in members:
            # The group's cells take a wash of its colour, so the group reads as one block.
            a = by_id[cid]
            c.d.polygon(lay.polygon(a.q, a.r, 1),
                        fill=shade(element_fill(colour), 1.55), outline=fill, width=1)
        for cid in members:
            a = by_id[cid]
            for dq, dr in forward:
                b = next((by_id[o] for o in inside if (by_id[o].q, by_id[o].r)
                          == (a.q + dq, a.r + dr)), None)
                if b is not None:
                    c.d.line((*lay.centre(a.q, a.r), *lay.centre(b.q, b.r)), fill=fill,
                             width=width)


def _cell(c: Canvas, board: Board, lay: HexLayout, cell: Cell, *, numbers: bool) -> None:
    cx, cy = lay.centre(cell.q, cell.r)
    rad = lay.radius
    colour = board.elements.get(cell.id)
    if colour is not None:
        ring = HIGHLIGHT if cell.id == board.last_cell else None
        pieces.element(c, cx, cy, rad * ELEMENT_SCALE, colour, ring=ring)
        return
    kind = board.bonus_cells.get(cell.id)
    if kind is not None:
        if not numbers:
            pieces.token(c, cx, cy - rad * 0.14, rad * 0.44, kind)
            return
        # The token above, the cell's number under it: both readable at 550 px.
        pieces.token(c, cx, cy - rad * 0.3, rad * 0.38, kind, minimum=text_min(rad))
        c.text((cx, cy + rad * 0.42), cell.number, text_min(rad), INK, anchor="mm", bold=True)
        return
    if numbers:
        edge = REGION_EDGE.get(cell.region, MUTED)
        c.text((cx, cy), cell.number, max(text_min(rad), round(rad * 0.42)), shade(edge, 0.55),
               anchor="mm")


def _manufacture(c: Canvas, lay: HexLayout, mid: str, slots: tuple[tuple[int, int], ...],
                 content: tuple[str, ...], *, labels: bool) -> None:
    if not slots:
        return
    rad = lay.radius
    (x0, y0), (x1, y1) = lay.centre(*slots[0]), lay.centre(*slots[-1])
    w = rad * 0.92
    # A tray along the slots: a thick rounded bar, then one well per slot.
    c.d.line((x0, y0, x1, y1), fill=MANUFACTURE_FILL, width=round(2 * w))
    for x, y in ((x0, y0), (x1, y1)):
        c.d.ellipse((x - w, y - w, x + w, y + w), fill=MANUFACTURE_FILL)
    for i, (q, r) in enumerate(slots):
        cx, cy = lay.centre(q, r)
        if i < len(content):
            pieces.element(c, cx, cy, rad * ELEMENT_SCALE, content[i])
        else:
            pieces.slot(c, cx, cy, rad * 0.6, SLOT_EMPTY)
    if labels:
        lx, ly, size = manufacture_label(lay, slots)
        h, wbox = size * 0.8, size * 1.45
        c.d.rounded_rectangle((lx - wbox, ly - h, lx + wbox, ly + h), radius=round(h / 2),
                              fill=INK)
        c.text((lx, ly), mid, size, WHITE, anchor="mm", bold=True)


def manufacture_label(lay: HexLayout, slots: tuple[tuple[int, int], ...]
                      ) -> tuple[float, float, int]:
    """Where a manufacture's name goes: past the outer end, on the tray's axis (the name
    is what a typed move starts with), and its text size."""
    (x0, y0), (x1, y1) = lay.centre(*slots[0]), lay.centre(*slots[-1])
    dx, dy = x1 - x0, y1 - y0
    n = math.hypot(dx, dy) or 1.0
    rad = lay.radius
    return (x1 + dx / n * rad * 1.55, y1 + dy / n * rad * 1.55,
            max(text_min(rad), round(rad * 0.52)))


def _production(c: Canvas, board: Board, lay: HexLayout, *, labels: bool) -> None:
    q, r = board.geometry.production
    cx, cy = lay.centre(q, r)
    rad = lay.radius * STACK_SCALE
    c.d.polygon(hex_points(cx, cy, rad), fill=(214, 208, 196), outline=INK,
                width=max(2, round(rad / 14)))
    small = lay.radius * 0.4
    spots = [(-1, -1), (1, -1), (-1, 1), (1, 1)]
    top = board.stack_top
    for i, (sx, sy) in enumerate(spots):
        x, y = cx + sx * small * 1.12, cy + sy * small * 1.12 + rad * 0.16
        if i < len(top):
            pieces.element(c, x, y, small, top[i], minimum=text_min(lay.radius))
        else:
            pieces.slot(c, x, y, small * 0.8, SLOT_EMPTY)
    if labels:
        text = tr("{n} tiles", n=board.stack) if board.stack != 1 else tr("1 tile")
        c.text((cx, cy - rad * 0.52), text, max(text_min(lay.radius), round(lay.radius * 0.42)),
               INK,
               anchor="mm", bold=True)


def _region_label(c: Canvas, board: Board, lay: HexLayout, region: str) -> None:
    spot = region_label(board, lay, region)
    if spot is None:
        return
    x, y, anchor, name, size = spot
    c.text((x, y), name, size, shade(REGION_EDGE.get(region, MUTED), 0.5), anchor=anchor,
           bold=True)


def region_label(board: Board, lay: HexLayout, region: str
                 ) -> tuple[float, float, str, str, int] | None:
    """The region's name goes in the corner of its bounding box farthest from the board's
    centre: on the house board that corner is free of cells, and the rule needs no
    coordinates of its own for another board. Returns (x, y, anchor, text, size)."""
    cells = [cell for cell in board.geometry.cells if cell.region == region]
    if not cells:
        return None
    grid = board.geometry.grid
    xs = [unit_xy(grid, cell.q, cell.r)[0] for cell in cells]
    ys = [unit_xy(grid, cell.q, cell.r)[1] for cell in cells]
    corners = [(x, y) for y in (min(ys) - 0.6, max(ys) + 0.6) for x in (min(xs) - 0.6,
                                                                         max(xs) + 0.6)]
    ox, oy = unit_xy(grid, *board.geometry.production)
    ux, uy = max(corners, key=lambda p: (round(math.hypot(p[0] - ox, p[1] - oy), 3), -p[0]))
    # Inside the corner at the bottom; outside it at the top, where outer cells reach it.
    left = ux < ox
    anchor = ("l" if left else "r") if uy > oy else ("r" if left else "l")
    anchor += "d" if uy > oy else "a"
    x, y = lay.unit_to_px(ux, uy)
    name = f"{REGION_LETTER.get(region, '?')} = {tr(REGION_NAME.get(region, region))}"
    return x, y, anchor, name, max(text_min(lay.radius), round(lay.radius * 0.6))


def footprint(board: Board, lay: HexLayout) -> list[Box]:
    """The pixel boxes the city covers (cells, trays and their names, the stack, the
    region names), so panels can be put where nothing is drawn."""
    boxes: list[Box] = []
    half = lay.radius
    for cell in board.geometry.cells:
        xs, ys = zip(*lay.polygon(cell.q, cell.r), strict=True)
        boxes.append((math.floor(min(xs)), math.floor(min(ys)), math.ceil(max(xs)),
                      math.ceil(max(ys))))
    for m in board.geometry.manufactures:
        for q, r in m.slots:
            x, y = lay.centre(q, r)
            boxes.append((math.floor(x - half), math.floor(y - half), math.ceil(x + half),
                          math.ceil(y + half)))
        if m.slots:
            lx, ly, size = manufacture_label(lay, m.slots)
            boxes.append((math.floor(lx - size * 1.5), math.floor(ly - size),
                          math.ceil(lx + size * 1.5), math.ceil(ly + size)))
    px, py = lay.centre(*board.geometry.production)
    pr = lay.radius * STACK_SCALE
    boxes.append((math.floor(px - pr), math.floor(py - pr), math.ceil(px + pr),
                  math.ceil(py + pr)))
    for region in board.geometry.regions:
        spot = region_label(board, lay, region)
        if spot is not None:
            lx, ly, anchor, name, size = spot
            w = text_width(name, size, bold=True)
            left = lx if anchor[0] == "l" else lx - w
            top = ly if anchor[1] == "a" else ly - size * 1.3
            boxes.append((math.floor(left), math.floor(top), math.ceil(left + w),
                          math.ceil(top + size * 1.3)))
    return boxes
