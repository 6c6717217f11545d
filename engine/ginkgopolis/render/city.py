"""The city: district outlines, buildings and urbanization tokens on a grid."""

from __future__ import annotations

from typing import Any

from engine.ginkgopolis.render.canvas import Box, Canvas, fit_size
from engine.ginkgopolis.render.layout import Cell, CityLayout, districts, labelled_cells
from engine.ginkgopolis.render.palette import BUILDING_TINT, DISTRICT_EDGE, WHITE
from engine.ginkgopolis.render.tiles import LABELLED_TILE, MIN_LABEL, draw_tile, draw_token

View = dict[str, Any]
COORD = (120, 112, 98)  # muted ink: a guide, not a piece
# The smallest cell whose tile is drawn with its labels at MIN_LABEL (tile + gap).
LABELLED_PITCH = LABELLED_TILE + 8


def owner_color(view: View, building: dict[str, Any]) -> str | None:
    """The colour of the player whose resources stand on ``building`` (Hal included)."""
    if building.get("hal"):
        hal = next((p for p in view["players"] if p.get("hal")), None)
        return str(hal["color"]) if hal else "grey"
    owner = building.get("owner")
    if owner is None:
        return None
    return str(view["players"][int(owner)]["color"])


def draw_city(c: Canvas, view: View, lay: CityLayout, *, numbered: bool = False,
              coordinates: bool = False) -> None:
    groups = districts(view)
    colors = {(int(b["x"]), int(b["y"])): str(b["color"]) for b in view["board"]}
    for cells in groups:
        _district(c, lay, cells, colors[cells[0]])
    for b in view["board"]:
        draw_tile(
            c,
            lay.tile_box(int(b["x"]), int(b["y"])),
            str(b["top"]),
            height=int(b["height"]),
            owner_color=owner_color(view, b),
            resources=int(b["resources"]),
            site=bool(b["site"]),
        )
    for letter, (x, y) in sorted(view["tokens"].items()):
        box = lay.cell_box(int(x), int(y))
        if coordinates:
            # The token stands in the upper part of its cell, its coordinates under it.
            box = (box[0], box[1], box[2], box[3] - coord_size(lay) + 2)
        draw_token(c, box, letter, minimum=MIN_LABEL if lay.pitch >= LABELLED_PITCH else 10)
    if coordinates:
        _coordinates(c, view, lay)
    if numbered:
        for i, cells in enumerate(groups):
            _district_number(c, lay, cells[0], i + 1)


def coord_size(lay: CityLayout) -> int:
    """Coordinates read 11 px on the 1100 px image shown 550 wide, more in larger cells."""
    return max(MIN_LABEL, min(26, round(lay.pitch * 0.27)))


def _coordinates(c: Canvas, view: View, lay: CityLayout) -> None:
    """Column,row of every cell a token stands on or may move to (an empty cell beside a
    building), as a move types them (``A@2,-3``) and the text board numbers them."""
    tokens = {(int(x), int(y)) for x, y in view["tokens"].values()}
    size = coord_size(lay)
    for x, y in labelled_cells(view):
        x0, y0, x1, y1 = lay.cell_box(x, y)
        cy = y1 - size // 2 - 1 if (x, y) in tokens else (y0 + y1) / 2
        label = f"{x},{y}"
        c.text(((x0 + x1) / 2, cy), label, fit_size(label, x1 - x0, size, minimum=MIN_LABEL),
               COORD, anchor="mm")


def _grow(box: Box, k: int) -> Box:
    return (box[0] - k, box[1] - k, box[2] + k, box[3] + k)


def _district(c: Canvas, lay: CityLayout, cells: list[Cell], color: str) -> None:
    """A dark outline around the district, its colour filling the gaps between tiles.

    Each tile box grows by a little less than half the gap, so that two districts side
    by side keep apart; bridges join neighbours of the same district into one shape.
    """
    members = set(cells)
    outer = max(2, lay.gap // 2 - 2)
    edge = max(2, lay.pitch // 40)
    tint = BUILDING_TINT[color]
    for fill, k in ((DISTRICT_EDGE, outer), (tint, outer - edge)):
        for x, y in cells:
            box = _grow(lay.tile_box(x, y), k)
            c.d.rectangle(box, fill=fill)
            for nx, ny in ((x + 1, y), (x, y + 1)):
                if (nx, ny) in members:
                    other = _grow(lay.tile_box(nx, ny), k)
                    bridge = (box[0], box[1], other[2], other[3])
                    c.d.rectangle(bridge, fill=fill)


def _district_number(c: Canvas, lay: CityLayout, cell: Cell, n: int) -> None:
    # On the top-left corner of the district's first tile, clear of the tile code.
    x0, y0, _, _ = lay.tile_box(*cell)
    r = max(11, lay.pitch // 5)
    size = int(r * 1.2)
    cx, cy = x0 + r // 3, y0 + r // 3
    if lay.pitch >= LABELLED_PITCH:
        # A larger disc, centred on the corner: it keeps clear of the tile's code.
        r, size = max(r, MIN_LABEL * 5 // 6), max(size, MIN_LABEL)
        cx, cy = x0 - 1, y0 - 1
    c.d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=DISTRICT_EDGE, outline=WHITE, width=2)
    c.text((cx, cy + 1), str(n), size, WHITE, anchor="mm", bold=True)
