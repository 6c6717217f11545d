"""The city: district outlines, buildings and urbanization tokens on a grid."""

from __future__ import annotations

from typing import Any

from engine.ginkgopolis.render.canvas import Box, Canvas
from engine.ginkgopolis.render.layout import Cell, CityLayout, districts
from engine.ginkgopolis.render.palette import BUILDING_TINT, DISTRICT_EDGE, WHITE
from engine.ginkgopolis.render.tiles import draw_tile, draw_token

View = dict[str, Any]
COORD = (120, 112, 98)  # muted ink: a guide, not a piece


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
        draw_token(c, lay.cell_box(int(x), int(y)), letter)
    if coordinates:
        _coordinates(c, view, lay)
    if numbered:
        for i, cells in enumerate(groups):
            _district_number(c, lay, cells[0], i + 1)


def _coordinates(c: Canvas, view: View, lay: CityLayout) -> None:
    """Column,row of every cell a token stands on or may move to (an empty cell beside a
    building), as a move types them (``A@2,-3``) and the text board numbers them."""
    built = {(int(b["x"]), int(b["y"])) for b in view["board"]}
    tokens = {(int(x), int(y)) for x, y in view["tokens"].values()}
    free = {(x + dx, y + dy) for x, y in built for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
    # About 10 px once the board is shown 550 wide; under a token's disc, smaller.
    free_size = max(14, min(22, round(lay.pitch * 0.27)))
    token_size = max(14, lay.pitch // 5)
    for x, y in sorted((free | tokens) - built):
        x0, y0, x1, y1 = lay.cell_box(x, y)
        size = token_size if (x, y) in tokens else free_size
        cy = y1 - size // 2 - 2 if (x, y) in tokens else (y0 + y1) / 2
        c.text(((x0 + x1) / 2, cy), f"{x},{y}", size, COORD, anchor="mm")


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
    cx, cy = x0 + r // 3, y0 + r // 3
    c.d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=DISTRICT_EDGE, outline=WHITE, width=2)
    c.text((cx, cy), str(n), int(r * 1.2), WHITE, anchor="mm", bold=True)
